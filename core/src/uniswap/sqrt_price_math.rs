//! Uniswap `sqrt_price_math` (stub).
