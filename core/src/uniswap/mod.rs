//! Uniswap v3/v4 math, exact to the Solidity libraries.
//!
//! - [`tick_math`]: `TickMath` (A5, B2, B3, C20).
//! - [`oracle`]: `OracleLibrary` quotes and TWAP mean ticks (A5, C16).
//! - [`sqrt_price_math`], [`swap_math`], [`liquidity_amounts`]: price movement inside one
//!   liquidity range (B5 buyback) and full-range liquidity for given amounts (C20).
//! - [`state`]: a v4 pool's state through `PoolManager.extsload` (`StateLibrary`).
//! - [`tick_bitmap`], [`swap`]: the next initialized tick, and an exact-input swap quote
//!   across ticks as `Pool.swap` computes it (D7).

pub mod liquidity_amounts;
pub mod oracle;
pub mod sqrt_price_math;
pub mod state;
pub mod swap;
pub mod swap_math;
pub mod tick_bitmap;
pub mod tick_math;
