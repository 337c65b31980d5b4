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
//!
//! **Decided after the second review (the minimum funding):** every funding restarts the 7-day
//! drip of the undripped balance, so dust funded every hour by anyone turned the linear release
//! into an exponential decay (about 63 % released after 7 days), moving rewards from current
//! positions to later ones. A funding must be at least [`min_funding_up`] of the undripped
//! balance: 1 % of it ([`MIN_FUNDING_BPS`]), rounded up, and at least one unit. Restarting the
//! drip then costs 1 % of it, paid to the scorers; fees too small for it stay in the fee lane and
//! are pulled once they reach it.

use super::{math, RewardsError};
use crate::math::{checked_add, checked_sub, mul_div_down, WAD};
use alloy_primitives::U256;

/// The drip duration `d`: 7 days, in seconds.
pub const DRIP_DURATION: u64 = 7 * 24 * 60 * 60;

/// The smallest funding, in basis points of the undripped balance (decided: 1 %).
pub const MIN_FUNDING_BPS: u64 = 100;

/// The smallest funding accepted when `undripped` is still to be released:
/// `max(1, ⌈undripped × MIN_FUNDING_BPS / 10,000⌉)` (`RewardMath.minFundingUp`).
pub fn min_funding_up(undripped: U256) -> U256 {
    let bps = U256::from(MIN_FUNDING_BPS);
    let ten_k = U256::from(10_000u64);
    // ⌈x·b / 10⁴⌉ = ⌊x / 10⁴⌋·b + ⌈(x mod 10⁴)·b / 10⁴⌉: no overflow for any x.
    let (q, r) = (undripped / ten_k, undripped % ten_k);
    let rest = (r * bps).div_ceil(ten_k);
    (q * bps + rest).max(U256::from(1u8))
}

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

    /// The smallest funding accepted at `t` ([`min_funding_up`] of the undripped balance).
    ///
    /// # Errors
    /// As [`Drip::released_at_down`].
    pub fn min_funding_at_up(&self, t: u64) -> Result<U256, RewardsError> {
        Ok(min_funding_up(self.undripped_at_up(t)?))
    }

    /// Whether the registry accepts a funding `a` at `t` (`ScorerRegistry.fund` and `pullFees`
    /// revert `FundingTooSmall` below the minimum). [`Drip::funded`] is the C11 transition a
    /// funding the chain accepted makes; this is the admission rule before it.
    ///
    /// # Errors
    /// [`RewardsError::FundingTooSmall`] below [`Drip::min_funding_at_up`].
    pub fn admits_funding(&self, t: u64, a: U256) -> Result<(), RewardsError> {
        let minimum = self.min_funding_at_up(t)?;
        if a < minimum {
            return Err(RewardsError::FundingTooSmall { amount: a, minimum });
        }
        Ok(())
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
    fn the_minimum_funding_is_one_percent_rounded_up() {
        let m = |x: u64| min_funding_up(U256::from(x));
        assert_eq!(m(0), U256::from(1u8));
        assert_eq!(m(100), U256::from(1u8));
        assert_eq!(m(101), U256::from(2u8));
        assert_eq!(m(7_000), U256::from(70u8));
        assert_eq!(m(7_001), U256::from(71u8));
        assert_eq!(
            min_funding_up(U256::MAX),
            U256::MAX.div_ceil(U256::from(100u8))
        );
    }

    /// Second review (check): a dust funding every hour used to restart the drip each time, so 7
    /// days after a 7,000,000 funding only about 63 % was released. Dust is now refused, and the
    /// release stays linear: exactly all of it after 7 days.
    #[test]
    fn hourly_dust_cannot_restart_the_drip() {
        let mut d = Drip::default().funded(0, U256::from(7_000_000u32)).unwrap();
        for h in 1..7 * 24 {
            let t = h * 3_600;
            assert!(matches!(
                d.admits_funding(t, U256::from(1u8)),
                Err(RewardsError::FundingTooSmall { .. })
            ));
        }
        assert_eq!(
            d.released_at_down(7 * DAY).unwrap(),
            U256::from(7_000_000u32)
        );
        // Once everything is released, any funding starts a new drip.
        d.admits_funding(7 * DAY, U256::from(1u8)).unwrap();
        // What the dust did before: the undripped balance restarted every hour (re-derived
        // without the minimum), leaving about 37 % undripped after 7 days.
        let mut amount = U256::from(7_000_000u32);
        for _ in 0..7 * 24 {
            let undripped = amount
                - mul_div_down(amount, U256::from(3_600u32), U256::from(DRIP_DURATION)).unwrap();
            amount = undripped + U256::from(1u8);
        }
        let left = amount.to::<u64>();
        assert!((2_560_000..2_590_000).contains(&left), "{left}");
        // A funding of 1 % of the undripped balance restarts it, as C11 says.
        let u = d.undripped_at_up(3_600).unwrap(); // 6,958,334
        assert_eq!(d.min_funding_at_up(3_600).unwrap(), U256::from(69_584u32));
        assert!(d.admits_funding(3_600, U256::from(69_583u32)).is_err());
        d.admits_funding(3_600, U256::from(69_584u32)).unwrap();
        d = d.funded(3_600, U256::from(69_584u32)).unwrap();
        assert_eq!((d.start, d.amount), (3_600, u + U256::from(69_584u32)));
    }

    proptest! {
        /// Exactly the fundings at or above the minimum are accepted, and the minimum is the
        /// smallest `a` with `a · 10⁴ ≥ U · 100` (and `a ≥ 1`).
        #[test]
        fn fundings_below_the_minimum_are_refused(u in 0u128..u128::MAX, a in 0u128..u128::MAX, t in 0u64..DRIP_DURATION) {
            let d = Drip { amount: U256::from(u), start: 0 };
            let undripped = d.undripped_at_up(t).unwrap();
            let m = min_funding_up(undripped);
            prop_assert!(m * U256::from(10_000u32) >= undripped * U256::from(100u32));
            prop_assert!(m == U256::from(1u8) || (m - U256::from(1u8)) * U256::from(10_000u32) < undripped * U256::from(100u32));
            prop_assert_eq!(d.admits_funding(t, U256::from(a)).is_ok(), U256::from(a) >= m);
        }
    }

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
