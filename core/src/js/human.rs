//! JS exports for `crate::human`.
