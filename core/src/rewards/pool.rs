//! A token's scorer reward pool (one pair asset), simulated event by event (C11–C14, §5.5).
//!
//! [`RewardPool`] processes a time-ordered sequence of [`PoolEvent`]s: fundings (C11 drip),
//! positions opening when proven against a final root and closing at unstake, 30-day expiry or
//! replacement by a re-score (C12), claims, and plain time advances. Before every event the pool
//! advances to the event's instant, processing each position expiry on the way at its own
//! instant, so `W` and `D` (C13) are constant on every segment of the accumulator (C14).
//!
//! The ledger keeps the solvency invariant of §5.5:
//!
//! ```text
//! funded = paid + owed + undripped + returned + dust,   dust ≥ 0
//! ```
//!
//! `dust` is what rounding left in the pool, never paid and never returned (the index floor per
//! segment, and each owed amount's floor); [`RewardPool::check_solvency`] fails if the other
//! terms ever exceed `funded`.
//!
//! `ω_max` in `D` is tracked exactly as the contract does (C13): in logarithmic weight classes
//! ([`WeightClasses`], `2^(1/1024)` wide), a weight entering when its position opens and leaving
//! when it ends (close, expiry, replacement). The tracked value can only be stale on the high side
//! (larger `D`, lower payouts); [`RewardPool::exact_max_weight`] gives the true maximum.

use super::accumulator::{owed_down, segment};
use super::capped::conservative_denominator_up;
use super::drip::Drip;
use super::estimate::{estimate_reward, PoolSnapshot, RewardEstimate};
use super::position::{weight, Position, PositionEnd, POSITION_DURATION};
use super::weight_classes::WeightClasses;
use super::{math, RewardsError};
use crate::math::{checked_add, checked_sub, mul_div_down, WAD};
use alloy_primitives::{Address, U256};
use std::collections::BTreeMap;

/// One input to the pool, in time order.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub enum PoolEvent {
    /// Fees fund the pool (C11).
    Fund {
        /// When.
        #[serde(with = "crate::serde_dec::int")]
        at: u64,
        /// Pair-asset units.
        #[serde(with = "crate::serde_dec::u256")]
        amount: U256,
    },
    /// A score's quality was proven against a final root: its position starts earning
    /// (replacing the scorer's open position, if any).
    Open {
        /// When (the proof).
        #[serde(with = "crate::serde_dec::int")]
        at: u64,
        /// The scorer.
        scorer: Address,
        /// `q`, WAD.
        #[serde(with = "crate::serde_dec::u256")]
        quality: U256,
        /// `c`, WAD.
        #[serde(with = "crate::serde_dec::u256")]
        multiplier: U256,
    },
    /// The scorer requested an unstake: its position ends.
    Close {
        /// When.
        #[serde(with = "crate::serde_dec::int")]
        at: u64,
        /// The scorer.
        scorer: Address,
    },
    /// The scorer withdraws everything it is owed.
    Claim {
        /// When.
        #[serde(with = "crate::serde_dec::int")]
        at: u64,
        /// The scorer.
        scorer: Address,
    },
    /// Time passes (expiries on the way are processed).
    Advance {
        /// To when.
        #[serde(with = "crate::serde_dec::int")]
        at: u64,
    },
}

impl PoolEvent {
    /// The event's time.
    pub fn at(&self) -> u64 {
        match self {
            PoolEvent::Fund { at, .. }
            | PoolEvent::Open { at, .. }
            | PoolEvent::Close { at, .. }
            | PoolEvent::Claim { at, .. }
            | PoolEvent::Advance { at } => *at,
        }
    }
}

/// The solvency ledger: `funded = paid + owed + undripped + returned + dust`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct Ledger {
    /// Every funding, summed.
    #[serde(with = "crate::serde_dec::u256")]
    pub funded: U256,
    /// Claimed by scorers.
    #[serde(with = "crate::serde_dec::u256")]
    pub paid: U256,
    /// Owed to scorers, not yet claimed (rounded down per scorer).
    #[serde(with = "crate::serde_dec::u256")]
    pub owed: U256,
    /// Still in the drip.
    #[serde(with = "crate::serde_dec::u256")]
    pub undripped: U256,
    /// Returned to the ROOT buyback.
    #[serde(with = "crate::serde_dec::u256")]
    pub returned: U256,
    /// Rounding left in the pool.
    #[serde(with = "crate::serde_dec::u256")]
    pub dust: U256,
}

impl std::fmt::Display for Ledger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "funded {} vs paid {} + owed {} + undripped {} + returned {} + dust {}",
            self.funded, self.paid, self.owed, self.undripped, self.returned, self.dust
        )
    }
}

/// One token's reward pool in one pair asset. See the module doc.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RewardPool {
    now: u64,
    cap_bps: u32,
    drip: Drip,
    index: U256,
    positions: BTreeMap<Address, Position>,
    classes: WeightClasses,
    accrued: BTreeMap<Address, U256>,
    funded: U256,
    paid: U256,
    returned: U256,
    segments: u64,
    settlements: u64,
}

impl RewardPool {
    /// An empty pool at time `start` with cap `cap_bps` (C13: [`super::CAP_BPS`]).
    ///
    /// # Errors
    /// [`RewardsError::InvalidCap`] unless `1 ≤ cap_bps ≤ 10,000`.
    pub fn new(start: u64, cap_bps: u32) -> Result<Self, RewardsError> {
        if cap_bps == 0 || cap_bps > 10_000 {
            return Err(RewardsError::InvalidCap(cap_bps));
        }
        Ok(RewardPool {
            now: start,
            cap_bps,
            drip: Drip {
                amount: U256::ZERO,
                start,
            },
            index: U256::ZERO,
            positions: BTreeMap::new(),
            classes: WeightClasses::new(),
            accrued: BTreeMap::new(),
            funded: U256::ZERO,
            paid: U256::ZERO,
            returned: U256::ZERO,
            segments: 0,
            settlements: 0,
        })
    }

    /// A pool from its parts (see [`super::resume`]): no past fundings or payouts in the ledger.
    pub(crate) fn from_parts(
        now: u64,
        cap_bps: u32,
        drip: Drip,
        index: U256,
        positions: Vec<Position>,
        classes: WeightClasses,
        accrued: Vec<(Address, U256)>,
    ) -> Result<Self, RewardsError> {
        let mut pool = RewardPool::new(now, cap_bps)?;
        pool.drip = drip;
        pool.index = index;
        pool.positions = positions.into_iter().map(|p| (p.scorer, p)).collect();
        pool.classes = classes;
        pool.accrued = accrued.into_iter().filter(|(_, a)| !a.is_zero()).collect();
        Ok(pool)
    }

    /// The pool's current time.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// The accumulator `A`.
    pub fn index(&self) -> U256 {
        self.index
    }

    /// The current drip.
    pub fn drip(&self) -> Drip {
        self.drip
    }

    /// The cap in basis points.
    pub fn cap_bps(&self) -> u32 {
        self.cap_bps
    }

    /// The open positions, by scorer.
    pub fn positions(&self) -> impl Iterator<Item = &Position> {
        self.positions.values()
    }

    /// The open position of `scorer`, if any.
    pub fn position(&self, scorer: &Address) -> Option<&Position> {
        self.positions.get(scorer)
    }

    /// How many accumulator segments released a non-zero amount so far.
    pub fn segments(&self) -> u64 {
        self.segments
    }

    /// How many times an owed amount was rounded down into a scorer's balance (closes, claims).
    pub fn settlements(&self) -> u64 {
        self.settlements
    }

    /// `W`, the sum of open weights.
    ///
    /// # Errors
    /// Overflow on absurd weights.
    pub fn total_weight(&self) -> Result<U256, RewardsError> {
        self.positions.values().try_fold(U256::ZERO, |acc, p| {
            checked_add(acc, p.weight).map_err(math("W"))
        })
    }

    /// C13 `ω_max` as the contract tracks it (weight classes, `ScorerRegistry.maxWeight`): at
    /// least [`Self::exact_max_weight`], stale only on the high side. This is the value in `D`.
    pub fn max_weight(&self) -> U256 {
        self.classes.max()
    }

    /// The exact `ω_max` over open positions.
    pub fn exact_max_weight(&self) -> U256 {
        self.positions
            .values()
            .map(|p| p.weight)
            .max()
            .unwrap_or(U256::ZERO)
    }

    /// `D = max(W, ⌈ω_max / c⌉)` with the tracked `ω_max` ([`Self::max_weight`]), as
    /// `ScorerRegistry.denominatorOf`.
    ///
    /// # Errors
    /// Overflow on absurd weights.
    pub fn denominator(&self) -> Result<U256, RewardsError> {
        conservative_denominator_up(self.total_weight()?, self.max_weight(), self.cap_bps)
    }

    /// `scorer`'s current share of the pool rate, `⌊ω / D⌋` (WAD; 0 without an open position).
    ///
    /// # Errors
    /// Overflow on absurd weights.
    pub fn share_of(&self, scorer: &Address) -> Result<U256, RewardsError> {
        let Some(p) = self.positions.get(scorer) else {
            return Ok(U256::ZERO);
        };
        let d = self.denominator()?;
        if d.is_zero() {
            return Ok(U256::ZERO);
        }
        mul_div_down(p.weight, WAD, d).map_err(math("ω / D"))
    }

    fn run_segment(&mut self, t1: u64) -> Result<(), RewardsError> {
        let reward = self.drip.released_between(self.now, t1)?;
        if !reward.is_zero() {
            let out = segment(reward, self.total_weight()?, self.denominator()?)?;
            self.index = checked_add(self.index, out.index_increment).map_err(math("A"))?;
            self.returned = checked_add(self.returned, out.returned).map_err(math("returned"))?;
            self.segments += 1;
        }
        self.now = t1;
        Ok(())
    }

    fn settle(&mut self, scorer: Address) -> Result<U256, RewardsError> {
        let Some(p) = self.positions.get_mut(&scorer) else {
            return Ok(U256::ZERO);
        };
        let owed = owed_down(p.weight, self.index, p.snapshot)?;
        p.snapshot = self.index;
        self.settlements += 1;
        if !owed.is_zero() {
            let slot = self.accrued.entry(scorer).or_insert(U256::ZERO);
            *slot = checked_add(*slot, owed).map_err(math("accrued"))?;
        }
        Ok(owed)
    }

    fn end_position(&mut self, scorer: Address) -> Result<(), RewardsError> {
        self.settle(scorer)?;
        if let Some(p) = self.positions.remove(&scorer) {
            self.classes.remove(p.weight)?;
        }
        Ok(())
    }

    /// Advances to `t`: every expiry on the way ends its positions at its own instant.
    ///
    /// # Errors
    /// [`RewardsError::TimeWentBackwards`] when `t` is before the pool's time.
    pub fn advance_to(&mut self, t: u64) -> Result<(), RewardsError> {
        if t < self.now {
            return Err(RewardsError::TimeWentBackwards {
                at: t,
                now: self.now,
            });
        }
        while let Some(next) = self
            .positions
            .values()
            .map(|p| p.end)
            .filter(|e| *e <= t)
            .min()
        {
            self.run_segment(next)?;
            let expired: Vec<Address> = self
                .positions
                .values()
                .filter(|p| p.end == next)
                .map(|p| p.scorer)
                .collect();
            for s in expired {
                self.end_position(s)?;
            }
        }
        self.run_segment(t)
    }

    /// C11: fees fund the pool at `at`.
    ///
    /// # Errors
    /// Out-of-order time; overflow on absurd amounts.
    pub fn fund(&mut self, at: u64, amount: U256) -> Result<(), RewardsError> {
        self.advance_to(at)?;
        self.drip = self.drip.funded(at, amount)?;
        self.funded = checked_add(self.funded, amount).map_err(math("funded"))?;
        Ok(())
    }

    /// C12: `scorer`'s position starts earning at `at` with weight `ω(q, c)`, replacing its open
    /// position if any (returns `Some(Replaced)` then).
    ///
    /// # Errors
    /// Out-of-order time; quality or multiplier outside `[0, 1]`.
    pub fn open_position(
        &mut self,
        at: u64,
        scorer: Address,
        quality: U256,
        multiplier: U256,
    ) -> Result<Option<PositionEnd>, RewardsError> {
        let omega = weight(quality, multiplier)?;
        let end = at
            .checked_add(POSITION_DURATION)
            .ok_or(RewardsError::TimeOverflow("position end"))?;
        self.advance_to(at)?;
        let replaced = if self.positions.contains_key(&scorer) {
            self.end_position(scorer)?;
            Some(PositionEnd::Replaced)
        } else {
            None
        };
        self.classes.insert(omega)?;
        self.positions.insert(
            scorer,
            Position {
                scorer,
                weight: omega,
                start: at,
                end,
                snapshot: self.index,
            },
        );
        Ok(replaced)
    }

    /// C12 (decided after the contract review): `scorer`'s open position takes a new grade at `at`,
    /// as `ScorerRegistry` re-weights it when the adjudicator overrides its grade or an earlier
    /// epoch's grade is proven: the position is settled at its old weight up to `at`, then earns at
    /// `ω(q, c)`; its start, end and what it accrued are unchanged. Returns the new weight.
    ///
    /// # Errors
    /// Out-of-order time; [`RewardsError::NoOpenPosition`] (also when it expired by `at`); quality or
    /// multiplier outside `[0, 1]`.
    pub fn regrade(
        &mut self,
        at: u64,
        scorer: Address,
        quality: U256,
        multiplier: U256,
    ) -> Result<U256, RewardsError> {
        let omega = weight(quality, multiplier)?;
        self.advance_to(at)?;
        let old = self
            .positions
            .get(&scorer)
            .map(|p| p.weight)
            .ok_or(RewardsError::NoOpenPosition(scorer))?;
        self.settle(scorer)?;
        self.classes.remove(old)?;
        self.classes.insert(omega)?;
        if let Some(p) = self.positions.get_mut(&scorer) {
            p.weight = omega;
        }
        Ok(omega)
    }

    /// C12: `scorer` requested an unstake at `at`; its position ends. Returns the amount it was
    /// owed by the position at that instant (now in its claimable balance).
    ///
    /// # Errors
    /// Out-of-order time; [`RewardsError::NoOpenPosition`].
    pub fn close_position(&mut self, at: u64, scorer: Address) -> Result<U256, RewardsError> {
        self.advance_to(at)?;
        if !self.positions.contains_key(&scorer) {
            return Err(RewardsError::NoOpenPosition(scorer));
        }
        let owed = self.settle(scorer)?;
        if let Some(p) = self.positions.remove(&scorer) {
            self.classes.remove(p.weight)?;
        }
        Ok(owed)
    }

    /// `scorer` withdraws everything owed at `at`; returns the amount paid (0 is fine).
    ///
    /// # Errors
    /// Out-of-order time.
    pub fn claim(&mut self, at: u64, scorer: Address) -> Result<U256, RewardsError> {
        self.advance_to(at)?;
        self.settle(scorer)?;
        let amount = self.accrued.remove(&scorer).unwrap_or(U256::ZERO);
        self.paid = checked_add(self.paid, amount).map_err(math("paid"))?;
        Ok(amount)
    }

    /// Applies one event.
    ///
    /// # Errors
    /// As the event's method.
    pub fn apply(&mut self, event: &PoolEvent) -> Result<(), RewardsError> {
        match *event {
            PoolEvent::Fund { at, amount } => self.fund(at, amount),
            PoolEvent::Open {
                at,
                scorer,
                quality,
                multiplier,
            } => self
                .open_position(at, scorer, quality, multiplier)
                .map(|_| ()),
            PoolEvent::Close { at, scorer } => self.close_position(at, scorer).map(|_| ()),
            PoolEvent::Claim { at, scorer } => self.claim(at, scorer).map(|_| ()),
            PoolEvent::Advance { at } => self.advance_to(at),
        }
    }

    /// What `scorer` could claim now: its settled balance plus its open position's
    /// `⌊ω(A − A_snap)/ACC⌋`.
    ///
    /// # Errors
    /// Overflow on absurd amounts.
    pub fn owed_of(&self, scorer: &Address) -> Result<U256, RewardsError> {
        let settled = self.accrued.get(scorer).copied().unwrap_or(U256::ZERO);
        let pending = match self.positions.get(scorer) {
            Some(p) => owed_down(p.weight, self.index, p.snapshot)?,
            None => U256::ZERO,
        };
        checked_add(settled, pending).map_err(math("owed"))
    }

    /// Everything owed to every scorer now.
    ///
    /// # Errors
    /// Overflow on absurd amounts.
    pub fn total_owed(&self) -> Result<U256, RewardsError> {
        let mut total = self
            .accrued
            .values()
            .try_fold(U256::ZERO, |a, b| checked_add(a, *b).map_err(math("owed")))?;
        for p in self.positions.values() {
            total = checked_add(total, owed_down(p.weight, self.index, p.snapshot)?)
                .map_err(math("owed"))?;
        }
        Ok(total)
    }

    /// The ledger now; fails when `paid + owed + undripped + returned > funded`.
    ///
    /// # Errors
    /// [`RewardsError::Insolvent`] with every term.
    pub fn check_solvency(&self) -> Result<Ledger, RewardsError> {
        let owed = self.total_owed()?;
        let undripped = self.drip.undripped_at_up(self.now)?;
        let accounted = [self.paid, owed, undripped, self.returned]
            .into_iter()
            .try_fold(U256::ZERO, |a, b| checked_add(a, b).map_err(math("ledger")))?;
        let dust = checked_sub(self.funded, accounted).map_err(|_| {
            RewardsError::Insolvent(Box::new(Ledger {
                funded: self.funded,
                paid: self.paid,
                owed,
                undripped,
                returned: self.returned,
                dust: U256::ZERO,
            }))
        })?;
        Ok(Ledger {
            funded: self.funded,
            paid: self.paid,
            owed,
            undripped,
            returned: self.returned,
            dust,
        })
    }

    /// The pool's state for [`estimate_reward`]: current rate, open weights (leaving out
    /// `exclude`, the scorer about to re-score), and the tracked (C13 weight-class) `ω_max` of the
    /// rest. [`estimate_reward`]'s `max(ω, ω_max)` then equals the class-tracked maximum after the
    /// candidate's weight enters (a heavier class is exact; the same class keeps the larger).
    ///
    /// # Errors
    /// Overflow on absurd amounts.
    pub fn snapshot(&self, exclude: Option<&Address>) -> Result<PoolSnapshot, RewardsError> {
        let mut classes = self.classes.clone();
        if let Some(p) = exclude.and_then(|s| self.positions.get(s)) {
            classes.remove(p.weight)?;
        }
        Ok(PoolSnapshot {
            rate_wad: self.drip.rate_wad_down(self.now)?,
            weights: self
                .positions
                .values()
                .filter(|p| Some(&p.scorer) != exclude)
                .map(|p| p.weight)
                .collect(),
            max_weight: Some(classes.max()),
            cap_bps: self.cap_bps,
        })
    }

    /// Estimates what `scorer` would earn with a new score of `quality`, `multiplier` now
    /// (see [`super::estimate`] for the assumptions).
    ///
    /// # Errors
    /// As [`estimate_reward`].
    pub fn estimate(
        &self,
        scorer: &Address,
        quality: U256,
        multiplier: U256,
    ) -> Result<RewardEstimate, RewardsError> {
        estimate_reward(&self.snapshot(Some(scorer))?, quality, multiplier)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rewards::capped::CAP_BPS;
    use crate::rewards::drip::DRIP_DURATION;
    use crate::rewards::test_util::milli;
    use proptest::prelude::*;

    const DAY: u64 = 86_400;

    fn addr(i: u8) -> Address {
        Address::repeat_byte(i)
    }

    #[test]
    fn seed_pool_pays_12_8_percent() {
        // 7 days × 86,400 s of drip, 604,800,000 units: 1,000 per second.
        let mut pool = RewardPool::new(0, CAP_BPS).unwrap();
        pool.open_position(0, addr(1), milli(800), WAD).unwrap();
        pool.open_position(0, addr(2), milli(600), WAD).unwrap();
        pool.open_position(0, addr(3), milli(900), WAD).unwrap();
        pool.fund(0, U256::from(604_800_000u64)).unwrap();
        pool.advance_to(DRIP_DURATION).unwrap();
        assert_eq!(pool.owed_of(&addr(1)).unwrap(), U256::from(26_880_000u64)); // 4.44 %
        assert_eq!(pool.owed_of(&addr(2)).unwrap(), U256::from(20_160_000u64)); // 3.33 %
        assert_eq!(pool.owed_of(&addr(3)).unwrap(), U256::from(30_240_000u64)); // 5 %
        let l = pool.check_solvency().unwrap();
        assert_eq!(l.owed, U256::from(77_280_000u64)); // 12.78 %
        assert_eq!(l.returned, U256::from(527_520_000u64));
        assert_eq!(l.dust, U256::ZERO);
        assert_eq!(
            pool.claim(DRIP_DURATION, addr(3)).unwrap(),
            U256::from(30_240_000u64)
        );
        assert_eq!(
            pool.check_solvency().unwrap().paid,
            U256::from(30_240_000u64)
        );
    }

    /// A regrade (adjudicator override) settles at the old weight, then earns at the new one: the seed
    /// pool's scorer 1 (4.44 %) is re-graded to q 0.45 halfway through the drip.
    #[test]
    fn regrade_reweights_from_its_instant() {
        let mut pool = RewardPool::new(0, CAP_BPS).unwrap();
        pool.open_position(0, addr(1), milli(800), WAD).unwrap();
        pool.open_position(0, addr(2), milli(600), WAD).unwrap();
        pool.open_position(0, addr(3), milli(900), WAD).unwrap();
        pool.fund(0, U256::from(604_800_000u64)).unwrap();
        let half = DRIP_DURATION / 2;
        pool.advance_to(half).unwrap();
        let before = pool.owed_of(&addr(1)).unwrap();
        assert_eq!(before, U256::from(13_440_000u64)); // 4.44 % of the first half
        let w = pool.regrade(half, addr(1), milli(450), WAD).unwrap();
        assert_eq!(w, U256::from(22_500_000_000_000_000_000u128)); // 0.45 · 50
        assert_eq!(pool.owed_of(&addr(1)).unwrap(), before); // nothing lost at the instant
        pool.advance_to(DRIP_DURATION).unwrap();
        // Second half at 22.5 / 900 = 2.5 %: 302,400,000 × 2.5 % = 7,560,000.
        assert_eq!(
            pool.owed_of(&addr(1)).unwrap(),
            before + U256::from(7_560_000u64)
        );
        assert!(pool.check_solvency().is_ok());
        assert!(matches!(
            pool.regrade(DRIP_DURATION, addr(9), milli(1), WAD),
            Err(RewardsError::NoOpenPosition(_))
        ));
    }

    /// `ScorerRegistry.t.sol::test_maxWeightIsStaleOnlyHigh`: two weights in one class; the
    /// heavier leaves, `ω_max` (and `D`) stay at the old value until the class empties.
    #[test]
    fn tracked_max_is_stale_only_high_c13() {
        let mut pool = RewardPool::new(0, CAP_BPS).unwrap();
        pool.open_position(0, addr(1), milli(900), WAD).unwrap(); // 45e18
        let q = milli(900) - U256::from(10_000_000_000_000u64); // 0.9e18 − 1e13
        pool.open_position(0, addr(2), q, WAD).unwrap(); // 44.9995e18: same class
        let w2 = pool.position(&addr(2)).unwrap().weight;
        assert_eq!(w2, U256::from(44_999_500_000_000_000_000u128));
        assert_eq!(
            super::super::weight_classes::class_of(w2),
            super::super::weight_classes::class_of(U256::from(45u64) * WAD)
        );
        assert_eq!(pool.max_weight(), U256::from(45u64) * WAD);
        pool.close_position(0, addr(1)).unwrap();
        assert_eq!(pool.max_weight(), U256::from(45u64) * WAD); // stale, high side
        assert_eq!(pool.exact_max_weight(), w2);
        assert_eq!(pool.denominator().unwrap(), U256::from(900u64) * WAD);
        // The estimate for a re-score of scorer 2 sees the class without it: empty.
        assert_eq!(
            pool.snapshot(Some(&addr(2))).unwrap().max_weight,
            Some(U256::ZERO)
        );
        assert_eq!(
            pool.snapshot(None).unwrap().max_weight,
            Some(U256::from(45u64) * WAD)
        );
        pool.close_position(0, addr(2)).unwrap();
        assert_eq!(pool.max_weight(), U256::ZERO);
        assert_eq!(pool.denominator().unwrap(), U256::ZERO);
    }

    #[test]
    fn expiry_replacement_and_unstake() {
        let mut pool = RewardPool::new(0, 10_000).unwrap();
        pool.fund(0, U256::from(7 * DAY * 1_000)).unwrap(); // 1,000 per second for 7 days
        pool.open_position(0, addr(1), WAD, WAD).unwrap();
        // Alone with a 100 % cap it takes everything.
        pool.advance_to(DAY).unwrap();
        assert_eq!(pool.owed_of(&addr(1)).unwrap(), U256::from(DAY * 1_000));
        // Re-score at day 1 with half the quality replaces the position (new window).
        assert_eq!(
            pool.open_position(DAY, addr(1), milli(500), WAD).unwrap(),
            Some(PositionEnd::Replaced)
        );
        assert_eq!(
            pool.position(&addr(1)).unwrap().end,
            DAY + POSITION_DURATION
        );
        pool.open_position(DAY, addr(2), milli(500), WAD).unwrap();
        pool.advance_to(2 * DAY).unwrap();
        assert_eq!(pool.owed_of(&addr(2)).unwrap(), U256::from(DAY * 500));
        // Unstake ends the position; nothing more accrues.
        assert_eq!(
            pool.close_position(2 * DAY, addr(2)).unwrap(),
            U256::from(DAY * 500)
        );
        pool.advance_to(3 * DAY).unwrap();
        assert_eq!(pool.owed_of(&addr(2)).unwrap(), U256::from(DAY * 500));
        assert_eq!(
            pool.close_position(3 * DAY, addr(2)),
            Err(RewardsError::NoOpenPosition(addr(2)))
        );
        // Expiry at day 31: the drip is over by then; after it, no open position remains.
        pool.advance_to(40 * DAY).unwrap();
        assert!(pool.position(&addr(1)).is_none());
        let l = pool.check_solvency().unwrap();
        assert_eq!(l.undripped, U256::ZERO);
        assert_eq!(l.owed + l.returned + l.dust, l.funded);
        assert!(pool.advance_to(DAY).is_err());
    }

    #[test]
    fn expiry_mid_drip_returns_the_rest() {
        let mut pool = RewardPool::new(0, 10_000).unwrap();
        pool.open_position(0, addr(1), WAD, WAD).unwrap();
        pool.advance_to(POSITION_DURATION - DAY).unwrap();
        pool.fund(POSITION_DURATION - DAY, U256::from(7 * DAY))
            .unwrap(); // 1 per second
        pool.advance_to(POSITION_DURATION + 6 * DAY).unwrap();
        assert_eq!(pool.owed_of(&addr(1)).unwrap(), U256::from(DAY));
        let l = pool.check_solvency().unwrap();
        assert_eq!(l.returned, U256::from(6 * DAY));
    }

    #[test]
    fn no_scorer_means_everything_returns() {
        let mut pool = RewardPool::new(100, CAP_BPS).unwrap();
        pool.apply(&PoolEvent::Fund {
            at: 100,
            amount: U256::from(1_000_003u64),
        })
        .unwrap();
        pool.apply(&PoolEvent::Advance {
            at: 100 + DRIP_DURATION,
        })
        .unwrap();
        let l = pool.check_solvency().unwrap();
        assert_eq!(l.returned, U256::from(1_000_003u64));
        assert_eq!(l.dust, U256::ZERO);
        assert!(RewardPool::new(0, 0).is_err());
    }

    fn events_strategy() -> impl Strategy<Value = Vec<(u64, u8, u8, u64, u64)>> {
        // (time step, kind, scorer, amount, quality in thousandths)
        proptest::collection::vec(
            (0u64..(12 * DAY), 0u8..6, 0u8..25, any::<u64>(), 0u64..=1000),
            1..60,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// Solvency and the cap under random event sequences.
        #[test]
        fn solvent_and_capped(cap in prop_oneof![Just(CAP_BPS), 1u32..=10_000], events in events_strategy()) {
            let mut pool = RewardPool::new(0, cap).unwrap();
            let mut t = 0u64;
            let mut received: BTreeMap<Address, U256> = BTreeMap::new();
            let mut max_w_seen = U256::ZERO;
            for (dt, kind, who, amount, q) in events {
                t += dt;
                let scorer = addr(who);
                let c = if who % 3 == 0 { milli(500) } else { WAD };
                match kind {
                    0 | 1 => pool.fund(t, U256::from(amount)).unwrap(),
                    2 | 3 => { pool.open_position(t, scorer, milli(q), c).unwrap(); }
                    4 => { let _ = pool.close_position(t, scorer); }
                    _ => {
                        let got = pool.claim(t, scorer).unwrap();
                        *received.entry(scorer).or_insert(U256::ZERO) += got;
                    }
                }
                max_w_seen = max_w_seen.max(pool.total_weight().unwrap());
                let l = pool.check_solvency().unwrap();
                prop_assert_eq!(l.paid + l.owed + l.undripped + l.returned + l.dust, l.funded);
                // Dust bound: < 1 + W/ACC per segment, < 1 per settlement and per open position.
                let per_segment = U256::from(1u8) + max_w_seen / crate::rewards::ACC + U256::from(1u8);
                let bound = per_segment * U256::from(pool.segments())
                    + U256::from(pool.settlements() + pool.positions().count() as u64);
                prop_assert!(l.dust <= bound, "dust {} > bound {}", l.dust, bound);
                // The cap: nobody has received more than cap × everything released so far.
                let released = l.funded - l.undripped;
                let cap_amount = released * U256::from(cap) / U256::from(10_000u32);
                for i in 0u8..25 {
                    let a = addr(i);
                    let total = received.get(&a).copied().unwrap_or(U256::ZERO) + pool.owed_of(&a).unwrap();
                    prop_assert!(total <= cap_amount, "scorer {} got {} > {}", i, total, cap_amount);
                    prop_assert!(pool.share_of(&a).unwrap() <= U256::from(cap) * WAD / U256::from(10_000u32));
                }
            }
        }
    }
}
