//! JS exports for `crate::calls`.
