//! JS exports for `crate::scoring`.
