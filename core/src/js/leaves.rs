//! JS exports for `crate::leaves`.
