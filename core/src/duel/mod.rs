//! Duels (B1–B7): token A against token B, each trading against ETH in its own pool.
//!
//! - [`schedule`] (B1): closes at 00:00, 04:00, …, 20:00 UTC; the first round lasts 4–8 h.
//! - [`mean_tick`] (B2): the time-weighted mean of `tickA − tickB` over a round, truncated
//!   toward zero, and the winner (or none).
//! - [`split`] (B3): the displayed split `shareA = r / (1 + r)`, `r = 1.0001^meanTick`.
//! - [`ema`] (B5): the 30-minute EMA of the price and the buyback cap `min(EMA, price) × 1.10`.
//! - [`buyback`] (B4, B5): how much of the pot a full-range v4 pool absorbs before the cap.
//! - [`streaks`] (B6): win streaks; no-winner rounds do not break them.
//! - [`rounds`] (B4, B7): waking an idle duel in the current round, and settling a round.
//!
//! Times are unix seconds (`u64`). Ticks are each token's price in ETH
//! ([`mean_tick::eth_price_tick`] flips a pool tick where ETH is currency0).

pub mod buyback;
pub mod ema;
pub mod mean_tick;
pub mod rounds;
pub mod schedule;
pub mod split;
pub mod streaks;

pub use buyback::{buyback, cap_sqrt_price_x96, token_price_wad, Buyback, BuybackPool};
pub use ema::{buyback_cap_wad, ema_update, Ema};
pub use mean_tick::{
    eth_price_tick, round_mean_tick, running_round_mean_tick, Observation, RoundMean, Winner,
};
pub use rounds::{settle_round, wake, Settlement, Wake};
pub use schedule::{first_close, round_at, round_window, RoundWindow};
pub use split::{share_a_wad, split_wad};
pub use streaks::Streaks;

use crate::math::MathError;
use crate::uniswap::swap_math::SwapMathError;

/// Why a duel computation was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DuelError {
    /// A round whose end is not after its start.
    #[error("roundEnd {end} must be after roundStart {start}")]
    InvalidRound {
        /// Round start.
        start: u64,
        /// Round end.
        end: u64,
    },
    /// Observations out of time order.
    #[error("observations must be sorted by timestamp: observation {index} is earlier than the one before it")]
    NotSorted {
        /// Index of the first out-of-order observation.
        index: usize,
    },
    /// A tick outside `[MIN_TICK, MAX_TICK]`.
    #[error("observation {index}: {field} {tick} is outside [-887272, 887272]")]
    InvalidTick {
        /// Observation index.
        index: usize,
        /// `tickA` or `tickB`.
        field: &'static str,
        /// The tick.
        tick: i64,
    },
    /// A time before the duel started.
    #[error("time {now} is before the duel start {start}")]
    BeforeStart {
        /// The time asked about.
        now: u64,
        /// Duel start.
        start: u64,
    },
    /// An EMA update older than the previous one.
    #[error("EMA update at {now} is before the last update at {last}")]
    TimeWentBackwards {
        /// Last update.
        last: u64,
        /// This update.
        now: u64,
    },
    /// A time so far in the future that the schedule overflows.
    #[error("time overflow: {0} is too far in the future")]
    TimeOverflow(&'static str),
    /// A zero price where a positive one is needed.
    #[error("{0} must be greater than zero")]
    ZeroPrice(&'static str),
    /// The pot does not fit in an int256 swap amount.
    #[error("pot {0} does not fit in int256")]
    PotTooLarge(alloy_primitives::U256),
    /// The active round is after the current time.
    #[error("active round {active} is after the round {current} of the current time")]
    RoundInFuture {
        /// Active round index.
        active: u64,
        /// Current round index.
        current: u64,
    },
    /// A tick spacing outside `[1, 32767]`.
    #[error("tickSpacing {0} must be in [1, 32767]")]
    InvalidTickSpacing(i32),
    /// A swap-math revert.
    #[error(transparent)]
    Swap(#[from] SwapMathError),
    /// An integer overflow on absurd inputs.
    #[error("arithmetic: {0}")]
    Math(#[from] MathError),
}
