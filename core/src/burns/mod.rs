//! Burns (§6, C15) and the ROOT price (C16, [`price`]).
//!
//! C15 (pinned): registering as a scorer stakes 2,500 ROOT and burns $100 of ROOT once; every
//! score and re-score burns $100 of ROOT; one score per scorer every 14 days across all projects;
//! unstaking waits 7 days. Planned per-token burn `B = max($100, ⌈0.415 × R̂⌉)`, with `R̂` a
//! per-token reward estimate published by governance (none at launch: a flat $100).
//!
//! USD amounts are WADs (`$100 = 100 × 10^18`). **Decided:** the ceiling in `⌈0.415 × R̂⌉` is to
//! a whole dollar ([`PLANNED_BURN_STEP_USD`]), like the `$100` floor it is compared with.
//! The ROOT amount for a USD amount is [`price::root_for_usd_up`] (rounded up). The ROOT
//! buyback's arithmetic (C26) is [`buyback`].

pub mod buyback;
pub mod price;

pub use crate::rewards::SCORER_STAKE;
pub use price::{
    anchor_window, check_sequencer, eth_usd_wad, mean_tick_toward_lower_root_price,
    root_for_usd_up, root_price_eth_at_tick_down, root_price_usd, EthUsdAnswer, PriceError,
    RootAmountBounds, RootPrice, RootPriceInput, SequencerStatus, TickObservation, ANCHOR_WINDOW,
    MAX_ANSWER_AGE, SEQUENCER_GRACE, SHORT_WINDOW,
};

use crate::math::{mul_div_up, MathError, WAD};
use crate::rewards::position::u256;
use alloy_primitives::U256;

/// The one-time burn when registering as a scorer: $100 (USD WAD).
pub const REGISTER_BURN_USD: U256 = u256(100_000_000_000_000_000_000);
/// The burn of every score and re-score: $100 (USD WAD). Also the floor of the planned burn.
pub const SCORE_BURN_USD: U256 = u256(100_000_000_000_000_000_000);
/// One score per scorer every 14 days, across all projects (seconds).
pub const SCORE_INTERVAL: u64 = 14 * 24 * 60 * 60;
/// The unstake cooldown: 7 days (seconds).
pub const UNSTAKE_COOLDOWN: u64 = 7 * 24 * 60 * 60;
/// The planned burn's factor on `R̂`: 0.415 (WAD).
pub const PLANNED_BURN_FACTOR: U256 = U256::from_limbs([415_000_000_000_000_000, 0, 0, 0]);
/// The planned burn rounds up to a whole dollar (USD WAD). Decided.
pub const PLANNED_BURN_STEP_USD: U256 = WAD;

/// Why a burn schedule computation failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BurnError {
    /// The scorer scored less than 14 days ago.
    #[error("scorer may score again at {next_at} (14 days after the last score), now is {now}")]
    ScoreTooSoon {
        /// The earliest allowed time.
        next_at: u64,
        /// The time asked about.
        now: u64,
    },
    /// Integer arithmetic failed on absurd amounts.
    #[error("arithmetic error in {context}: {source}")]
    Math {
        /// The step that failed.
        context: &'static str,
        /// The underlying error.
        source: MathError,
    },
}

/// The USD burn of one score on a token: `max($100, ⌈0.415 × R̂⌉)` rounded up to a whole dollar,
/// or the flat $100 when no estimate `R̂` (USD WAD) is published.
///
/// # Errors
/// Overflow on an absurd `R̂`.
pub fn score_burn_usd_up(r_hat_usd: Option<U256>) -> Result<U256, BurnError> {
    let Some(r_hat) = r_hat_usd else {
        return Ok(SCORE_BURN_USD);
    };
    // ⌈R̂ × 0.415 / $1⌉ whole dollars, then back to a WAD.
    let step = PLANNED_BURN_STEP_USD;
    let dollars =
        mul_div_up(r_hat, PLANNED_BURN_FACTOR, WAD * step).map_err(|source| BurnError::Math {
            context: "0.415 × R̂",
            source,
        })?;
    let planned = dollars.checked_mul(step).ok_or(BurnError::Math {
        context: "planned burn",
        source: MathError::Overflow,
    })?;
    Ok(planned.max(SCORE_BURN_USD))
}

/// The earliest time a scorer whose last score was at `last_score_at` may score again.
pub fn next_score_at(last_score_at: Option<u64>) -> u64 {
    last_score_at.map_or(0, |t| t.saturating_add(SCORE_INTERVAL))
}

/// Checks the 14-day interval.
///
/// # Errors
/// [`BurnError::ScoreTooSoon`] with the earliest allowed time.
pub fn check_score_interval(last_score_at: Option<u64>, now: u64) -> Result<(), BurnError> {
    let next_at = next_score_at(last_score_at);
    if now < next_at {
        return Err(BurnError::ScoreTooSoon { next_at, now });
    }
    Ok(())
}

/// When the stake of an unstake requested at `requested_at` can be withdrawn (7-day cooldown).
pub fn unstake_ready_at(requested_at: u64) -> u64 {
    requested_at.saturating_add(UNSTAKE_COOLDOWN)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usd(x: u64) -> U256 {
        U256::from(x) * WAD
    }

    #[test]
    fn constants_c15() {
        assert_eq!(SCORER_STAKE, usd(2_500));
        assert_eq!(REGISTER_BURN_USD, usd(100));
        assert_eq!(SCORE_BURN_USD, usd(100));
        assert_eq!(SCORE_INTERVAL, 1_209_600);
        assert_eq!(UNSTAKE_COOLDOWN, 604_800);
    }

    #[test]
    fn planned_burn() {
        assert_eq!(score_burn_usd_up(None).unwrap(), usd(100));
        assert_eq!(score_burn_usd_up(Some(U256::ZERO)).unwrap(), usd(100));
        // 0.415 × 240 = 99.6 → 100; × 241 = 100.015 → 101; × 1000 = 415.
        assert_eq!(score_burn_usd_up(Some(usd(240))).unwrap(), usd(100));
        assert_eq!(score_burn_usd_up(Some(usd(241))).unwrap(), usd(101));
        assert_eq!(score_burn_usd_up(Some(usd(1_000))).unwrap(), usd(415));
        assert_eq!(
            score_burn_usd_up(Some(usd(1_000) + U256::from(1u8))).unwrap(),
            usd(416)
        );
        assert!(score_burn_usd_up(Some(U256::MAX)).unwrap() < U256::MAX);
    }

    #[test]
    fn schedule() {
        assert!(check_score_interval(None, 0).is_ok());
        assert_eq!(
            check_score_interval(Some(100), 100 + SCORE_INTERVAL - 1),
            Err(BurnError::ScoreTooSoon {
                next_at: 100 + SCORE_INTERVAL,
                now: 100 + SCORE_INTERVAL - 1
            })
        );
        assert!(check_score_interval(Some(100), 100 + SCORE_INTERVAL).is_ok());
        assert_eq!(unstake_ready_at(5), 5 + 604_800);
    }
}
