//! JS exports for `crate::duel`.
