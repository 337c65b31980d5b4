//! Uniswap `swap_math` (stub).
