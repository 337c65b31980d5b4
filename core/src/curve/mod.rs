//! Bonding curve (C19) and graduation (C20).
//!
//! A constant-product curve with a virtual quote reserve `Φ` that is never held. With total
//! supply `S`, real quote raised `Q` and token reserve `Y`, the invariant is
//! `(Φ + Q) × Y ≥ Φ × S` (equality up to the protocol-favourable rounding). The curve sells
//! 80 % of the supply and graduates at exactly `Q = G = 4Φ`, where `Y = S/5`; the pool is then
//! seeded at the curve's last price ([`graduation`]).
//!
//! - [`state`]: [`CurveState`], pair constructors, placeholder defaults, validation.
//! - [`fee`]: trading fee and the anti-snipe tax `τ_snipe(t) = 0.99 × max(0, 1 − t/15)`,
//!   exact in hundredths of a bip.
//! - [`buy`], [`sell`]: exact quotes, the graduation clamp with refund, min-out checks.
//! - [`inverse`]: the quote needed for a token amount, the tokens needed for a quote amount.
//! - [`metrics`]: progress to graduation, spot price, market cap.
//! - [`change`]: the price a window ago from the window's first trade event, and the change since.
//! - [`graduation`]: pool amounts, currency order, exact `sqrtPriceX96`, full-range liquidity.
//!
//! Every rounding favours the curve: tokens out and quote out round down, fees and the
//! reserve left on the curve round up.

pub mod buy;
pub mod change;
pub mod fee;
pub mod graduation;
pub mod inverse;
pub mod metrics;
pub mod sell;
pub mod state;

pub use buy::{apply_buy, quote_buy, BuyQuote};
pub use change::{price_change_bps, quote_raised_before_buy, quote_raised_before_sell};
pub use fee::{buy_fee_rate_pips, sell_fee_rate_pips, snipe_tax_pips};
pub use graduation::{
    full_range_ticks, graduation_amounts, graduation_pool, graduation_sqrt_price_x96,
    GraduationAmounts, GraduationError, GraduationPool,
};
pub use inverse::{quote_in_for_tokens_out, tokens_in_for_quote_out};
pub use metrics::{
    buy_impact_bps_up, market_cap_wad, progress_bps, progress_wad, sell_impact_bps_up,
    spot_price_wad, CurveMetrics,
};
pub use sell::{apply_sell, quote_sell, SellQuote};
pub use state::CurveState;

use crate::math::MathError;
use alloy_primitives::U256;

/// Why a curve operation was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CurveError {
    /// The state is not one the curve can be in (the message names the field).
    #[error("invalid curve state: {0}")]
    InvalidState(String),
    /// A zero amount where a positive one is needed.
    #[error("{0} must be greater than zero")]
    ZeroAmount(&'static str),
    /// The curve has graduated (`Q = G`): trade in the pool instead.
    #[error("the curve has graduated: trading continues in the Uniswap pool")]
    Graduated,
    /// Selling more tokens than the curve has sold (`S − Y`).
    #[error("tokensIn {tokens_in} exceeds the {sold} tokens the curve has sold")]
    ExceedsSold {
        /// Tokens offered.
        tokens_in: U256,
        /// `S − Y`.
        sold: U256,
    },
    /// Asking for more tokens than remain before graduation (`Y − S/5`).
    #[error("tokensOut {tokens_out} exceeds the {available} tokens left before graduation")]
    ExceedsSellable {
        /// Tokens asked for.
        tokens_out: U256,
        /// Tokens the curve can still sell.
        available: U256,
    },
    /// Asking a sell for more quote than the curve holds (`Q`).
    #[error("quoteOut {quote_out} needs more than the {raised} quote the curve holds")]
    ExceedsRaised {
        /// Net quote asked for.
        quote_out: U256,
        /// `Q`.
        raised: U256,
    },
    /// The trade gives less than the caller's minimum.
    #[error("slippage: {field} would be {actual}, below the minimum {min}")]
    SlippageExceeded {
        /// `tokensOut` or `quoteOut`.
        field: &'static str,
        /// The caller's minimum.
        min: U256,
        /// What the trade gives.
        actual: U256,
    },
    /// An integer overflow on absurd inputs.
    #[error("arithmetic: {0}")]
    Math(#[from] MathError),
}

#[cfg(test)]
mod properties;
