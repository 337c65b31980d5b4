//! JS exports for `crate::uniswap`.
