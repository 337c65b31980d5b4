//! C11 (pinned) Reward drip, §5.1: each funding is released linearly over `d = 7 days`.
//!
//! A funding `a` at time `t`, with undripped balance `U = rate × max(0, T_f − t)`, sets
//! `rate = (U + a) / d` and `T_f = t + d`.
//!
//! **Decided (exactness):** the rate is kept as the exact rational `amount / d`, never rounded.
//! The drip stores `amount = U + a` and its `start = t`; the amount released by time `t'` is
//! `⌊amount × min(t' − start, d) / d⌋`, so the release of a segment `[t0, t1)` is the difference
//! of two such floors. The pieces telescope: over a whole drip exactly `amount` is released, and
//! `U = amount − released` is the exact rational `rate × (T_f − t)` rounded **up** (the
//! fraction of a unit not yet released stays undripped and rolls into the next drip). Nothing is
//! ever lost to the rate's rounding; the accumulator (C14) receives exact integers `R`.
//! [`Drip::rate_wad_down`] gives the rate as a WAD per second (rounded down) for display and
//! estimates only.

use super::{math, RewardsError};
use crate::math::{checked_add, checked_sub, mul_div_down, WAD};
use alloy_primitives::U256;

/// The drip duration `d`: 7 days, in seconds.
pub const DRIP_DURATION: u64 = 7 * 24 * 60 * 60;

/// The current drip of one token's pool (one pair asset).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Drip {
    /// `U + a` at the last funding: the amount released linearly from `start` to `start + d`.
    pub amount: U256,
    /// The time of the last funding.
    pub start: u64,
}

impl Drip {
    /// `T_f`, the end of the current drip (saturating at `u64::MAX`).
    pub fn end(&self) -> u64 {
        self.start.saturating_add(DRIP_DURATION)
    }

    /// How much of `amount` has been released by time `t`: `⌊amount × min(t − start, d) / d⌋`
    /// (0 before `start`).
    ///
    /// # Errors
    /// Never for `amount < 2^256 / d`; overflow is reported, not panicked.
    pub fn released_at_down(&self, t: u64) -> Result<U256, RewardsError> {
        let elapsed = t.saturating_sub(self.start).min(DRIP_DURATION);
        mul_div_down(self.amount, U256::from(elapsed), U256::from(DRIP_DURATION))
            .map_err(math("drip release"))
    }

    /// The undripped balance at `t`: `amount − released(t)` (the exact `rate × (T_f − t)` rounded up).
    ///
    /// # Errors
    /// As [`Drip::released_at_down`].
    pub fn undripped_at_up(&self, t: u64) -> Result<U256, RewardsError> {
        checked_sub(self.amount, self.released_at_down(t)?).map_err(math("undripped"))
    }

    /// The amount released during `[t0, t1)` (`t0 ≤ t1`, both ≥ `start`).
    ///
    /// # Errors
    /// As [`Drip::released_at_down`].
    pub fn released_between(&self, t0: u64, t1: u64) -> Result<U256, RewardsError> {
        let a = self.released_at_down(t0)?;
        let b = self.released_at_down(t1.max(t0))?;
        checked_sub(b, a).map_err(math("drip segment"))
    }

    /// C11: a funding `a` at time `t ≥ start`. Returns the new drip (`amount = U + a`, `start = t`).
    ///
    /// # Errors
    /// [`RewardsError::TimeWentBackwards`] when `t < start`; overflow of `U + a`.
    pub fn funded(&self, t: u64, a: U256) -> Result<Drip, RewardsError> {
        if t < self.start {
            return Err(RewardsError::TimeWentBackwards {
                at: t,
                now: self.start,
            });
        }
        let undripped = self.undripped_at_up(t)?;
        let amount = checked_add(undripped, a).map_err(math("drip funding U + a"))?;
        Ok(Drip { amount, start: t })
    }

    /// The drip rate at `t` as a WAD of units per second, rounded down: `⌊amount·10^18 / d⌋`
    /// while `t < T_f`, else 0. Display and estimates only; the pool uses the exact rational.
    ///
    /// # Errors
    /// Overflow on absurd amounts.
    pub fn rate_wad_down(&self, t: u64) -> Result<U256, RewardsError> {
        if t >= self.end() {
            return Ok(U256::ZERO);
        }
        mul_div_down(self.amount, WAD, U256::from(DRIP_DURATION)).map_err(math("drip rate"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const DAY: u64 = 86_400;

    #[test]
    fn linear_over_seven_days() {
        let d = Drip::default().funded(1_000, U256::from(7_000u32)).unwrap();
        assert_eq!(d.end(), 1_000 + 7 * DAY);
        assert_eq!(
            d.released_at_down(1_000 + DAY).unwrap(),
            U256::from(1_000u32)
        );
        assert_eq!(
            d.undripped_at_up(1_000 + 3 * DAY).unwrap(),
            U256::from(4_000u32)
        );
        assert_eq!(
            d.released_at_down(1_000 + 30 * DAY).unwrap(),
            U256::from(7_000u32)
        );
        assert_eq!(
            d.rate_wad_down(1_000).unwrap(),
            U256::from(7_000u32) * WAD / U256::from(7 * DAY)
        );
        assert_eq!(d.rate_wad_down(1_000 + 7 * DAY).unwrap(), U256::ZERO);
    }

    #[test]
    fn refunding_restarts_with_the_undripped_balance() {
        // 7,000 at day 0; at day 2, U = 5,000; +2,000 → 7,000 over the next 7 days.
        let d = Drip::default().funded(0, U256::from(7_000u32)).unwrap();
        let d2 = d.funded(2 * DAY, U256::from(2_000u32)).unwrap();
        assert_eq!(d2.amount, U256::from(7_000u32));
        assert_eq!(d2.start, 2 * DAY);
        assert_eq!(d2.end(), 9 * DAY);
        // After the old drip ended, U = 0.
        let d3 = d.funded(8 * DAY, U256::from(10u32)).unwrap();
        assert_eq!(d3.amount, U256::from(10u32));
        assert!(d.funded(0, U256::ZERO).is_ok());
        assert!(d2.funded(DAY, U256::ZERO).is_err());
    }

    proptest! {
        /// Segments telescope: the sum over any partition equals released(end), and a drip
        /// releases exactly its amount.
        #[test]
        fn segments_are_exact(amount in any::<u128>(), cuts in proptest::collection::vec(0u64..(8 * DAY), 0..20)) {
            let d = Drip { amount: U256::from(amount), start: 0 };
            let mut cuts = cuts;
            cuts.push(0);
            cuts.push(8 * DAY);
            cuts.sort_unstable();
            let mut sum = U256::ZERO;
            for w in cuts.windows(2) {
                sum += d.released_between(w[0], w[1]).unwrap();
            }
            prop_assert_eq!(sum, U256::from(amount));
            prop_assert_eq!(d.undripped_at_up(8 * DAY).unwrap(), U256::ZERO);
        }
    }
}
