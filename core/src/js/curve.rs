//! JS exports for `crate::curve`.
