//! JS exports for `crate::merkle`.
