//! A [`RewardPool`] resumed from the chain (C11–C14): the pool as `ScorerRegistry` stores it at its
//! last update (`pool(token)`, `maxWeight(token)`) and its open positions, so the rewards accrued
//! **now** are computed by advancing exactly as `ScorerRegistry._advance` does: each open position
//! ending after the last update is processed at its own instant (segment up to it with the current
//! `W` and `D`, then its weight leaves `W` and the weight classes), then the last segment.
//!
//! `ω_max` is the chain's tracked value in the top class ([`WeightClasses::from_open`]). The resumed
//! pool knows nothing of the pool's past fundings and payouts, so its solvency ledger starts at zero
//! and [`RewardPool::check_solvency`] says nothing about the chain's pool.

use super::drip::Drip;
use super::pool::RewardPool;
use super::position::Position;
use super::weight_classes::WeightClasses;
use super::RewardsError;
use crate::math::checked_sub;
use alloy_primitives::{Address, U256};

/// A pool as stored on chain at its last update. On the wire it is flat, as
/// `ScorerRegistry.pool(token)` + `maxWeight(token)` return it: `{index, totalWeight, maxWeight,
/// dripAmount, dripStart, lastUpdate, capBps?}` (`capBps` defaults to [`super::CAP_BPS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(from = "wire::ChainPool", into = "wire::ChainPool")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[cfg_attr(
    feature = "js",
    tsify(
        type = "{ index: U256; totalWeight: U256; maxWeight: U256; dripAmount: U256; dripStart: IntegerLike; lastUpdate: IntegerLike; capBps?: IntegerLike }"
    )
)]
pub struct ChainPool {
    /// `A` at the last update.
    pub index: U256,
    /// `W` at the last update.
    pub total_weight: U256,
    /// The tracked `ω_max` (`maxWeight`).
    pub max_weight: U256,
    /// The drip (`dripAmount`, `dripStart`).
    pub drip: Drip,
    /// `lastUpdate`.
    pub last_update: u64,
    /// The cap (C13, [`super::CAP_BPS`]).
    pub cap_bps: u32,
}

/// The flat wire form of [`ChainPool`].
mod wire {
    use super::Drip;
    use crate::serde_dec;
    use alloy_primitives::U256;
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub(super) struct ChainPool {
        #[serde(with = "serde_dec::u256")]
        index: U256,
        #[serde(with = "serde_dec::u256")]
        total_weight: U256,
        #[serde(with = "serde_dec::u256")]
        max_weight: U256,
        #[serde(with = "serde_dec::u256")]
        drip_amount: U256,
        #[serde(with = "serde_dec::int")]
        drip_start: u64,
        #[serde(with = "serde_dec::int")]
        last_update: u64,
        #[serde(default = "cap_bps", with = "serde_dec::int")]
        cap_bps: u32,
    }

    fn cap_bps() -> u32 {
        crate::rewards::CAP_BPS
    }

    impl From<ChainPool> for super::ChainPool {
        fn from(w: ChainPool) -> Self {
            super::ChainPool {
                index: w.index,
                total_weight: w.total_weight,
                max_weight: w.max_weight,
                drip: Drip {
                    amount: w.drip_amount,
                    start: w.drip_start,
                },
                last_update: w.last_update,
                cap_bps: w.cap_bps,
            }
        }
    }

    impl From<super::ChainPool> for ChainPool {
        fn from(p: super::ChainPool) -> Self {
            ChainPool {
                index: p.index,
                total_weight: p.total_weight,
                max_weight: p.max_weight,
                drip_amount: p.drip.amount,
                drip_start: p.drip.start,
                last_update: p.last_update,
                cap_bps: p.cap_bps,
            }
        }
    }
}

/// An open position as stored on chain (`position(token, who)`), with `owedStored(token, who)`
/// when known (accrued + pending as of the pool's last update; `None` for other scorers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct ChainPosition {
    /// The scorer.
    pub scorer: Address,
    /// `ω`.
    #[serde(with = "crate::serde_dec::u256")]
    pub weight: U256,
    /// `A` at its last settlement.
    #[serde(with = "crate::serde_dec::u256")]
    pub snapshot: U256,
    /// When it stops earning.
    #[serde(with = "crate::serde_dec::int")]
    pub end: u64,
    /// `owedStored`, when read.
    #[serde(default, with = "crate::serde_dec::opt_u256")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub owed_stored: Option<U256>,
}

/// Why a chain state cannot be resumed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResumeError {
    /// `W` on chain is not the sum of the open positions' weights.
    #[error(
        "the pool's total weight {chain} is not the sum {open} of its open positions' weights"
    )]
    TotalWeight {
        /// On chain.
        chain: U256,
        /// Summed.
        open: U256,
    },
    /// A position's snapshot is above the pool's index.
    #[error("position of {0} has a snapshot above the pool's index")]
    SnapshotAboveIndex(Address),
    /// A scorer appears twice.
    #[error("scorer {0} has two open positions")]
    DuplicatePosition(Address),
    /// A rewards error (weight classes, arithmetic).
    #[error(transparent)]
    Rewards(#[from] RewardsError),
}

impl RewardPool {
    /// The pool `pool` with its open positions `open`, at `pool.last_update`.
    ///
    /// # Errors
    /// [`ResumeError`] for a chain state no contract history can produce.
    pub fn resume(pool: &ChainPool, open: &[ChainPosition]) -> Result<Self, ResumeError> {
        let weights: Vec<U256> = open.iter().map(|p| p.weight).collect();
        let classes =
            WeightClasses::from_open(&weights, pool.max_weight).map_err(RewardsError::from)?;
        let sum = weights
            .iter()
            .try_fold(U256::ZERO, |a, w| a.checked_add(*w))
            .unwrap_or(U256::MAX);
        if sum != pool.total_weight {
            return Err(ResumeError::TotalWeight {
                chain: pool.total_weight,
                open: sum,
            });
        }
        let mut positions = Vec::with_capacity(open.len());
        let mut accrued = Vec::new();
        for p in open {
            if p.snapshot > pool.index {
                return Err(ResumeError::SnapshotAboveIndex(p.scorer));
            }
            if positions.iter().any(|q: &Position| q.scorer == p.scorer) {
                return Err(ResumeError::DuplicatePosition(p.scorer));
            }
            if let Some(stored) = p.owed_stored {
                // owedStored = accrued + ⌊ω·(A − A_snap)/ACC⌋ as of the last update.
                let pending = super::owed_down(p.weight, pool.index, p.snapshot)?;
                let settled = checked_sub(stored, pending).unwrap_or(U256::ZERO);
                accrued.push((p.scorer, settled));
            }
            positions.push(Position {
                scorer: p.scorer,
                weight: p.weight,
                start: pool.last_update.min(p.end),
                end: p.end,
                snapshot: p.snapshot,
            });
        }
        Ok(RewardPool::from_parts(
            pool.last_update,
            pool.cap_bps,
            pool.drip,
            pool.index,
            positions,
            classes,
            accrued,
        )?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::WAD;
    use crate::rewards::CAP_BPS;
    use proptest::prelude::*;

    fn wad(x: u64) -> U256 {
        U256::from(x) * WAD
    }

    /// Open positions of weights `w` (WAD units) ending at 1000, 1100, …; a drip of 1e6 units/s.
    fn chain(w: &[u64]) -> (ChainPool, Vec<ChainPosition>) {
        let open: Vec<ChainPosition> = w
            .iter()
            .enumerate()
            .map(|(i, x)| ChainPosition {
                scorer: Address::repeat_byte(i as u8 + 1),
                weight: wad(*x),
                snapshot: U256::ZERO,
                end: 1_000 + 100 * i as u64,
                owed_stored: Some(U256::ZERO),
            })
            .collect();
        let total = open.iter().map(|o| o.weight).fold(U256::ZERO, |a, b| a + b);
        let max = open.iter().map(|o| o.weight).max().unwrap_or_default();
        let pool = ChainPool {
            index: U256::ZERO,
            total_weight: total,
            max_weight: max,
            drip: Drip {
                amount: U256::from(7u64 * 86_400 * 1_000_000),
                start: 0,
            },
            last_update: 0,
            cap_bps: CAP_BPS,
        };
        (pool, open)
    }

    fn at(pool: &RewardPool, t: u64) -> RewardPool {
        let mut p = pool.clone();
        p.advance_to(t).unwrap();
        p
    }

    #[test]
    fn one_segment_pays_the_capped_share() {
        // ω = 40, 30, 45: D = 900, 1e6/s for 500 s → index += 5e8·1e18/900e18.
        let (c, open) = chain(&[40, 30, 45]);
        let p = RewardPool::resume(&c, &open).unwrap();
        let p500 = at(&p, 500);
        assert_eq!(p500.index(), U256::from(500_000_000u64) * WAD / wad(900));
        // 5 % of 5e8 (the cap binds for the heaviest).
        assert_eq!(
            p500.owed_of(&Address::repeat_byte(3)).unwrap(),
            U256::from(45u64 * 555_555)
        );
    }

    #[test]
    fn expiry_is_processed_at_its_own_instant() {
        let (c, open) = chain(&[40, 30, 45]); // ends 1000, 1100, 1200
        let p = RewardPool::resume(&c, &open).unwrap();
        // After ω = 40 leaves at 1000: W = 75, ω_max = 45 → D = 900 still.
        assert_eq!(
            at(&p, 1_050).index() - at(&p, 1_000).index(),
            U256::from(50_000_000u64) * WAD / wad(900)
        );
        // A position stops earning at its end.
        let me = Address::repeat_byte(2);
        assert_eq!(
            at(&p, 5_000).owed_of(&me).unwrap(),
            at(&p, 1_100).owed_of(&me).unwrap()
        );
    }

    #[test]
    fn stored_accrual_is_kept() {
        let (mut c, mut open) = chain(&[40]);
        c.index = wad(10); // 10 units per weight unit so far
        open[0].snapshot = wad(4);
        open[0].owed_stored = Some(U256::from(7u8) + U256::from(240u16) * WAD);
        let p = RewardPool::resume(&c, &open).unwrap();
        // accrued 7 + pending 40·6 = 240e18; nothing new at the last update.
        assert_eq!(
            p.owed_of(&open[0].scorer).unwrap(),
            open[0].owed_stored.unwrap()
        );
    }

    #[test]
    fn a_stale_tracked_max_is_kept_and_impossible_states_are_refused() {
        // Chain: the heaviest of the top class left, the tracked max stays at it (high side).
        let (mut c, open) = chain(&[40, 30]);
        c.max_weight = wad(40) + U256::from(1u8);
        let p = RewardPool::resume(&c, &open).unwrap();
        assert_eq!(p.max_weight(), c.max_weight);
        // A tracked max below the open maximum, or in another class, cannot happen.
        c.max_weight = wad(39);
        assert!(RewardPool::resume(&c, &open).is_err());
        c.max_weight = wad(80);
        assert!(RewardPool::resume(&c, &open).is_err());
        // W that is not the open weights' sum.
        let (mut c, open) = chain(&[40, 30]);
        c.total_weight += U256::from(1u8);
        assert!(matches!(
            RewardPool::resume(&c, &open),
            Err(ResumeError::TotalWeight { .. })
        ));
    }

    /// What the chain would store at `pool`'s current time (every scorer's `owedStored` read).
    fn snapshot(pool: &RewardPool) -> (ChainPool, Vec<ChainPosition>) {
        let open = pool
            .positions()
            .map(|p| ChainPosition {
                scorer: p.scorer,
                weight: p.weight,
                snapshot: p.snapshot,
                end: p.end,
                owed_stored: Some(pool.owed_of(&p.scorer).unwrap()),
            })
            .collect();
        let c = ChainPool {
            index: pool.index(),
            total_weight: pool.total_weight().unwrap(),
            max_weight: pool.max_weight(),
            drip: pool.drip(),
            last_update: pool.now(),
            cap_bps: pool.cap_bps(),
        };
        (c, open)
    }

    proptest! {
        /// The reward replay from the chain's stored state equals the full simulation: whatever
        /// happened before, resuming at any instant and advancing gives every scorer the owed amount
        /// and the index the event-by-event `RewardPool` gives. Qualities come from a small set, so
        /// each weight class holds equal weights and the tracked `ω_max` is exact (C13).
        #[test]
        fn resumed_pool_replays_like_the_simulation(
            events in prop::collection::vec((0u64..20_000, 0u8..6, 0usize..5, 0u64..3_000_000), 1..30),
            later in 0u64..4_000_000,
        ) {
            const Q: [u64; 5] = [300, 500, 700, 900, 1_000];
            let milli = U256::from(10u64).pow(U256::from(15u8));
            let mut pool = RewardPool::new(0, CAP_BPS).unwrap();
            let mut t = 0u64;
            for (dt, kind, qi, amount) in &events {
                t += dt;
                let scorer = Address::repeat_byte(*kind % 4 + 1);
                match kind {
                    0 | 1 => pool.fund(t, U256::from(*amount) * U256::from(1_000_000u64)).unwrap(),
                    2 | 3 => {
                        pool.open_position(t, scorer, U256::from(Q[*qi]) * milli, WAD).unwrap();
                    }
                    _ => pool.advance_to(t).unwrap(),
                }
            }
            // The chain's stored state now, resumed; both advance with time alone.
            let (c, open) = snapshot(&pool);
            let mut resumed = RewardPool::resume(&c, &open).unwrap();
            let end = pool.now() + later;
            pool.advance_to(end).unwrap();
            resumed.advance_to(end).unwrap();
            prop_assert_eq!(pool.index(), resumed.index());
            for p in open {
                prop_assert_eq!(pool.owed_of(&p.scorer).unwrap(), resumed.owed_of(&p.scorer).unwrap());
            }
        }
    }
}
