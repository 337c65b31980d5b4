//! Scorer rewards (§5, C11–C14): each token's scorers are paid from that token's own fees, in
//! its pair asset, capped at 5 % of the stream each; everything unpaid is returned to the ROOT
//! buyback.
//!
//! - [`drip`]: C11, every funding is released linearly over 7 days (exact rational rate).
//! - [`position`]: C12, positions (30 days, unstake, re-score) and weights `ω = q_eff·√σ`.
//! - [`capped`]: C13, the conservative denominator `D = max(W, ω_max / c)`, `c = 5 %`.
//! - [`weight_classes`]: C13, `ω_max` tracked in logarithmic weight classes as the contract does
//!   (stale only on the high side).
//! - [`accumulator`]: C14, the per-segment index `A += ⌊R·ACC/D⌋` and owed amounts.
//! - [`pool`]: a [`RewardPool`] simulator over a time-ordered event sequence, with the
//!   solvency ledger `funded = paid + owed + undripped + returned + dust`.
//! - [`resume`]: a [`RewardPool`] resumed from the chain's stored pool and open positions, to
//!   compute what a scorer is owed now exactly as `ScorerRegistry._advance` would.
//! - [`estimate`]: what a new scorer of a given quality would earn (stream share, 30-day reward).
//!
//! Amounts are pair-asset base units (`U256`); times are unix seconds (`u64`); qualities,
//! multipliers and weights are WADs.

pub mod accumulator;
pub mod capped;
pub mod drip;
pub mod estimate;
pub mod pool;
pub mod position;
pub mod resume;
pub mod weight_classes;

pub use accumulator::{owed_down, segment, SegmentOutcome, ACC};
pub use capped::{capped_shares, conservative_denominator_up, CappedShares, CAP_BPS};
pub use drip::{min_funding_up, Drip, DRIP_DURATION, MIN_FUNDING_BPS};
pub use estimate::{estimate_reward, PoolSnapshot, RewardEstimate, ESTIMATE_HORIZON};
pub use pool::{Ledger, PoolEvent, RewardPool};
pub use position::{
    effective_quality, isqrt, prove_deadline, sqrt_wad, weight, Position, PositionEnd,
    POSITION_DURATION, PROVE_WINDOW, QUALITY_FLOOR, SCORER_STAKE, SQRT_SCORER_STAKE,
};
pub use resume::{ChainPool, ChainPosition, ResumeError};
pub use weight_classes::{class_of, WeightClassError, WeightClasses, CLASS_BITS};

use crate::math::MathError;
use alloy_primitives::{Address, U256};

/// Why a reward computation or pool event was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RewardsError {
    /// A quality or multiplier is not a WAD in `[0, 1]`.
    #[error("{field} must be a WAD in [0, 1] (at most 1000000000000000000), got {value}")]
    FractionOutOfRange {
        /// The offending field.
        field: &'static str,
        /// The value given.
        value: U256,
    },
    /// The cap in basis points is outside `1..=10000`.
    #[error("capBps must be in 1..=10000, got {0}")]
    InvalidCap(u32),
    /// An event is earlier than the pool's current time.
    #[error(
        "event at {at} is earlier than the pool's current time {now}: events must be time-ordered"
    )]
    TimeWentBackwards {
        /// The event's time.
        at: u64,
        /// The pool's current time.
        now: u64,
    },
    /// A time computation left the u64 range.
    #[error("time overflow: {0}")]
    TimeOverflow(&'static str),
    /// A funding below the minimum (1 % of the undripped balance, at least one unit; C11).
    #[error("a funding of {amount} is below the minimum {minimum} (1 % of what is still to be released)")]
    FundingTooSmall {
        /// The funding.
        amount: U256,
        /// The smallest accepted.
        minimum: U256,
    },
    /// A close or claim names a scorer with nothing to close.
    #[error("scorer {0} has no open position")]
    NoOpenPosition(Address),
    /// The ledger does not balance: paid + owed + undripped + returned exceeds funded
    /// (the ledger's `dust` is 0 here).
    #[error("insolvent: {0}")]
    Insolvent(Box<Ledger>),
    /// A weight-class update failed (C13 `ω_max` tracking).
    #[error("weight classes: {0}")]
    WeightClass(#[from] WeightClassError),
    /// Integer arithmetic failed (overflow on absurd amounts), reported instead of a panic.
    #[error("arithmetic error in {context}: {source}")]
    Math {
        /// The step that failed.
        context: &'static str,
        /// The underlying error.
        source: MathError,
    },
}

pub(crate) fn math(context: &'static str) -> impl Fn(MathError) -> RewardsError {
    move |source| RewardsError::Math { context, source }
}

#[cfg(test)]
pub(crate) mod test_util {
    use alloy_primitives::U256;

    /// `x` thousandths as a WAD.
    pub(crate) fn milli(x: u64) -> U256 {
        U256::from(x) * U256::from(1_000_000_000_000_000u64)
    }

    /// `x` whole units as a WAD.
    pub(crate) fn wad(x: u64) -> U256 {
        U256::from(x) * crate::math::WAD
    }
}
