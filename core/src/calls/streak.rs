//! A2 per-agent record: hits, misses, voids, streak and best streak.
//!
//! A2 (pinned): an expired commit counts as a miss; a voided call counts as nothing (it is
//! tallied in `voids` for display but never enters the score). `streak` is the current run of
//! consecutive hits: a hit extends it, a miss (or expired commit) resets it to 0, a void leaves
//! it unchanged. `best_streak` is the longest run ever.
//!
//! Counters are `u64`; an increment that would overflow is an error, never a wrap or panic.

use super::outcome::CallOutcome;
use super::score::{track_record_score, ScoreError};
use crate::math::U256;
use serde::{Deserialize, Serialize};

/// A counter of an [`AgentRecord`] would pass `u64::MAX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{0}: counter would overflow u64")]
pub struct RecordOverflow(pub &'static str);

/// One agent's track record (A1, A2).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentRecord {
    /// Calls whose direction matched the price move.
    pub hits: u64,
    /// Calls that went the other way, plus expired commits.
    pub misses: u64,
    /// Voided calls (no price move or no exit price); they count as nothing.
    pub voids: u64,
    /// Current run of consecutive hits.
    pub streak: u64,
    /// Longest run of consecutive hits ever.
    pub best_streak: u64,
    /// The agent's stake (in the stake token's smallest unit).
    pub stake: U256,
}

impl AgentRecord {
    /// A fresh record with the given stake.
    pub const fn new(stake: U256) -> Self {
        AgentRecord {
            hits: 0,
            misses: 0,
            voids: 0,
            streak: 0,
            best_streak: 0,
            stake,
        }
    }

    /// Applies one outcome (A2). On error the record is left unchanged.
    ///
    /// # Errors
    /// [`RecordOverflow`] naming the counter that would pass `u64::MAX`.
    pub fn apply(&mut self, outcome: CallOutcome) -> Result<(), RecordOverflow> {
        let mut next = *self;
        match outcome {
            CallOutcome::Hit => {
                next.hits = inc(self.hits, "hits")?;
                next.streak = inc(self.streak, "streak")?;
                next.best_streak = self.best_streak.max(next.streak);
            }
            CallOutcome::Miss | CallOutcome::Expired => {
                next.misses = inc(self.misses, "misses")?;
                next.streak = 0;
            }
            CallOutcome::Void => {
                next.voids = inc(self.voids, "voids")?;
            }
        }
        *self = next;
        Ok(())
    }

    /// A1: this record's track-record score (WAD, rounded down).
    ///
    /// # Errors
    /// As [`track_record_score`].
    pub fn score(&self, min_stake: U256) -> Result<U256, ScoreError> {
        track_record_score(self.hits, self.misses, self.stake, min_stake)
    }
}

fn inc(x: u64, what: &'static str) -> Result<u64, RecordOverflow> {
    x.checked_add(1).ok_or(RecordOverflow(what))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use CallOutcome::*;

    fn run(outcomes: &[CallOutcome]) -> AgentRecord {
        let mut r = AgentRecord::new(U256::from(1u8));
        for o in outcomes {
            r.apply(*o).unwrap();
        }
        r
    }

    #[test]
    fn streaks() {
        let r = run(&[Hit, Hit, Void, Hit, Miss, Hit, Hit]);
        assert_eq!(
            (r.hits, r.misses, r.voids, r.streak, r.best_streak),
            (5, 1, 1, 2, 3)
        );
        let r = run(&[Hit, Hit, Expired, Hit]);
        assert_eq!(
            (r.hits, r.misses, r.voids, r.streak, r.best_streak),
            (3, 1, 0, 1, 2)
        );
        let r = run(&[Void, Void]);
        assert_eq!(
            (r.hits, r.misses, r.voids, r.streak, r.best_streak),
            (0, 0, 2, 0, 0)
        );
    }

    #[test]
    fn void_counts_as_nothing_in_the_score() {
        let min = U256::from(10u8).pow(U256::from(20u8));
        let mut a = AgentRecord::new(min);
        let mut b = AgentRecord::new(min);
        for o in [Hit, Miss, Hit] {
            a.apply(o).unwrap();
            b.apply(o).unwrap();
        }
        b.apply(Void).unwrap();
        assert_eq!(a.score(min), b.score(min));
        // 2 hits, 1 miss, weight 1: 4/4 = 1.0
        assert_eq!(a.score(min).unwrap(), crate::math::WAD);
    }

    #[test]
    fn expired_scores_like_a_miss() {
        let min = U256::from(7u8);
        let a = run(&[Hit, Miss]);
        let b = run(&[Hit, Expired]);
        assert_eq!(a, b);
        assert_eq!(a.score(min), b.score(min));
    }

    #[test]
    fn overflow_is_an_error_and_leaves_the_record_unchanged() {
        let mut r = AgentRecord {
            hits: u64::MAX,
            ..AgentRecord::default()
        };
        let before = r;
        assert_eq!(r.apply(Hit), Err(RecordOverflow("hits")));
        assert_eq!(r, before);
        let mut r = AgentRecord {
            misses: u64::MAX,
            streak: 4,
            ..AgentRecord::default()
        };
        assert_eq!(r.apply(Expired), Err(RecordOverflow("misses")));
        assert_eq!(r.streak, 4);
        let mut r = AgentRecord {
            voids: u64::MAX,
            ..AgentRecord::default()
        };
        assert_eq!(r.apply(Void), Err(RecordOverflow("voids")));
    }

    fn outcome() -> impl Strategy<Value = CallOutcome> {
        prop_oneof![Just(Hit), Just(Miss), Just(Void), Just(Expired)]
    }

    proptest! {
        #[test]
        fn record_matches_a_direct_count(seq in proptest::collection::vec(outcome(), 0..200)) {
            let r = run(&seq);
            let hits = seq.iter().filter(|o| **o == Hit).count() as u64;
            let misses = seq.iter().filter(|o| o.counts_as_miss()).count() as u64;
            let voids = seq.iter().filter(|o| **o == Void).count() as u64;
            // Streak: hits since the last miss/expired, voids skipped.
            let streak = seq.iter().rev().take_while(|o| !o.counts_as_miss()).filter(|o| **o == Hit).count() as u64;
            // Best: longest run of hits between misses.
            let best = seq
                .split(|o| o.counts_as_miss())
                .map(|run| run.iter().filter(|o| **o == Hit).count() as u64)
                .max()
                .unwrap_or(0);
            prop_assert_eq!((r.hits, r.misses, r.voids, r.streak, r.best_streak), (hits, misses, voids, streak, best));
            prop_assert!(r.streak <= r.best_streak && r.best_streak <= r.hits);
        }

        #[test]
        fn apply_never_panics(hits in any::<u64>(), misses in any::<u64>(), voids in any::<u64>(), streak in any::<u64>(), best in any::<u64>(), o in outcome()) {
            let mut r = AgentRecord { hits, misses, voids, streak, best_streak: best, stake: U256::ZERO };
            let _ = r.apply(o);
        }
    }
}
