//! Uniswap `liquidity_amounts` (stub).
