//! JS exports for `crate::rewards`.
