//! Uniswap `oracle` (stub).
