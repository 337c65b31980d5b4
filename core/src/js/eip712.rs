//! JS exports for `crate::eip712`.
