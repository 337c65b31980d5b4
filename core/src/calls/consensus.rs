//! A4 consensus rounds: quorum, threshold, strength and re-emission on a flip.
//!
//! Rounds are keyed by `(asset, window, bucket)` with `bucket = closesAt / window` (pinned).
//! Each reveal adds `vote = 1 + score(agent)` (WAD) to the up or down side. With
//! `lead = max(up, down)` and `total = up + down`:
//!
//! - consensus when `voters ≥ quorum` and `lead × 10000 ≥ thresholdBps × total` (integer
//!   cross-multiplication in 512 bits, no division, no overflow);
//! - `strengthBps = floor(lead × 10000 / total)` (0 for an empty round);
//! - **decided** (ties): when `up == down` there is no leading direction and no consensus,
//!   whatever the threshold;
//! - **decided** (events): a [`ConsensusEvent`] is emitted when the round *reaches*
//!   consensus (quorum and threshold both met) for a direction other than the last one it
//!   emitted: the first time, and again on every flip of the leading side that itself
//!   meets quorum and threshold. A lead change that stays below the threshold emits nothing.
//! - **decided**: `consensus(asset, window)` describes the round a call revealed now would land
//!   in: it closes at `now + window`, so `bucket = (now + window) / window`.
//!
//! Defaults at launch: quorum [`DEFAULT_CONSENSUS_QUORUM`] = 3, threshold
//! [`DEFAULT_CONSENSUS_THRESHOLD_BPS`] = 6,667 bps (66.67 %).

use super::outcome::Direction;
use crate::math::{checked_add, mul_div_down, U256, U512, WAD};
use alloy_primitives::Address;
use serde::{Deserialize, Serialize};

/// Basis points in one: 10,000.
pub const BPS: u64 = 10_000;
/// Minimum number of voters for consensus at launch (`consensusQuorum`).
pub const DEFAULT_CONSENSUS_QUORUM: u64 = 3;
/// Minimum lead share for consensus at launch, in basis points (66.67 %).
pub const DEFAULT_CONSENSUS_THRESHOLD_BPS: u64 = 6_667;

/// Why a consensus computation failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ConsensusError {
    /// The threshold is above 100 %.
    #[error("thresholdBps: {0} is above 10000 (100 %)")]
    ThresholdAbove100(u64),
    /// A window of zero seconds has no buckets.
    #[error("window: must be greater than zero seconds")]
    ZeroWindow,
    /// `now + window` does not fit in a u64.
    #[error("now + window: does not fit in 64 bits")]
    TimeOverflow,
    /// The total weight `up + down` would exceed `U256::MAX`.
    #[error("weight: the round's total weight would exceed 2^256 − 1")]
    WeightOverflow,
    /// The voter count would exceed `u64::MAX`.
    #[error("voters: count would overflow u64")]
    VotersOverflow,
}

/// Quorum and threshold of a consensus round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConsensusParams {
    quorum: u64,
    threshold_bps: u64,
}

impl Default for ConsensusParams {
    /// Launch values: quorum 3, threshold 6,667 bps.
    fn default() -> Self {
        ConsensusParams {
            quorum: DEFAULT_CONSENSUS_QUORUM,
            threshold_bps: DEFAULT_CONSENSUS_THRESHOLD_BPS,
        }
    }
}

impl ConsensusParams {
    /// Quorum (minimum voters) and threshold (minimum lead share, bps).
    ///
    /// # Errors
    /// [`ConsensusError::ThresholdAbove100`] when `threshold_bps > 10000`.
    pub fn new(quorum: u64, threshold_bps: u64) -> Result<Self, ConsensusError> {
        if threshold_bps > BPS {
            return Err(ConsensusError::ThresholdAbove100(threshold_bps));
        }
        Ok(ConsensusParams {
            quorum,
            threshold_bps,
        })
    }

    /// Minimum number of voters.
    pub const fn quorum(&self) -> u64 {
        self.quorum
    }

    /// Minimum lead share, in basis points.
    pub const fn threshold_bps(&self) -> u64 {
        self.threshold_bps
    }
}

/// The key of a consensus round.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "camelCase")]
pub struct RoundKey {
    /// The stock token called on.
    pub asset: Address,
    /// The call window, in seconds.
    pub window: u64,
    /// `closesAt / window`.
    pub bucket: u64,
}

/// A4: the bucket of a call closing at `closes_at`: `closes_at / window` (rounded down).
///
/// # Errors
/// [`ConsensusError::ZeroWindow`] when `window == 0`.
pub fn consensus_bucket(closes_at: u64, window: u64) -> Result<u64, ConsensusError> {
    closes_at
        .checked_div(window)
        .ok_or(ConsensusError::ZeroWindow)
}

/// A4 (decided): the bucket a call revealed at `now` would land in, `(now + window) / window`
/// (it closes at `now + window`).
///
/// # Errors
/// [`ConsensusError::ZeroWindow`] when `window == 0`; [`ConsensusError::TimeOverflow`] when
/// `now + window` passes `u64::MAX`.
pub fn round_for_reveal_now(now: u64, window: u64) -> Result<u64, ConsensusError> {
    if window == 0 {
        return Err(ConsensusError::ZeroWindow);
    }
    let closes_at = now
        .checked_add(window)
        .ok_or(ConsensusError::TimeOverflow)?;
    consensus_bucket(closes_at, window)
}

/// A4: a reveal's vote, `1 + score` as a WAD (a fresh agent counts for one).
///
/// # Errors
/// [`ConsensusError::WeightOverflow`] when `score > U256::MAX − 10^18`.
pub fn vote_weight(score: U256) -> Result<U256, ConsensusError> {
    checked_add(WAD, score).map_err(|_| ConsensusError::WeightOverflow)
}

/// A snapshot of a round's tally.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct ConsensusState {
    /// Quorum and threshold are both met (and the sides are not tied).
    pub reached: bool,
    /// The leading side (whether or not consensus is reached); `None` on a tie or an empty round
    /// (`"none"` on the wire).
    #[serde(with = "side_or_none")]
    #[cfg_attr(feature = "js", tsify(type = "\"up\" | \"down\" | \"none\""))]
    pub direction: Option<Direction>,
    /// `floor(lead × 10000 / (up + down))`; 0 for an empty round.
    pub strength_bps: u64,
    /// Number of votes.
    pub voters: u64,
    /// Total up weight (WAD).
    #[serde(with = "crate::serde_dec::u256")]
    pub up_weight: U256,
    /// Total down weight (WAD).
    #[serde(with = "crate::serde_dec::u256")]
    pub down_weight: U256,
}

/// One vote of a round: its side and weight (A4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct Vote {
    /// `true` for up, `false` for down.
    pub up: bool,
    /// The vote's weight (WAD, `1 + score`).
    #[serde(with = "crate::serde_dec::u256")]
    pub weight: U256,
}

/// `Option<Direction>` as `"up"`, `"down"` or `"none"`.
mod side_or_none {
    use super::Direction;
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(d: &Option<Direction>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(d.map_or("none", Direction::as_str))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Direction>, D::Error> {
        match String::deserialize(d)?.as_str() {
            "none" => Ok(None),
            other => other.parse().map(Some).map_err(D::Error::custom),
        }
    }
}

/// A4: the state of a round with the given tallies.
///
/// # Errors
/// [`ConsensusError::WeightOverflow`] when `up + down` exceeds `U256::MAX`.
pub fn consensus_state(
    up_weight: U256,
    down_weight: U256,
    voters: u64,
    params: &ConsensusParams,
) -> Result<ConsensusState, ConsensusError> {
    let total = checked_add(up_weight, down_weight).map_err(|_| ConsensusError::WeightOverflow)?;
    let (direction, lead) = match up_weight.cmp(&down_weight) {
        std::cmp::Ordering::Greater => (Some(Direction::Up), up_weight),
        std::cmp::Ordering::Less => (Some(Direction::Down), down_weight),
        std::cmp::Ordering::Equal => (None, up_weight),
    };
    let bps = U256::from(BPS);
    let strength_bps = if total.is_zero() {
        0
    } else {
        // lead ≤ total, so the quotient is at most 10,000.
        let s = mul_div_down(lead, bps, total).map_err(|_| ConsensusError::WeightOverflow)?;
        u64::try_from(s).map_err(|_| ConsensusError::WeightOverflow)?
    };
    // lead × 10000 ≥ threshold × total, in 512 bits.
    let lhs: U512 = lead.widening_mul(bps);
    let rhs: U512 = U256::from(params.threshold_bps).widening_mul(total);
    let meets_threshold = lhs >= rhs;
    let reached = direction.is_some() && voters >= params.quorum && meets_threshold;
    Ok(ConsensusState {
        reached,
        direction,
        strength_bps,
        voters,
        up_weight,
        down_weight,
    })
}

/// The `Consensus(asset, window, bucket, direction, strengthBps, voters, upWeight, downWeight)`
/// event, appended to the consensus log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConsensusEvent {
    /// The round.
    pub key: RoundKey,
    /// The direction consensus was reached for.
    pub direction: Direction,
    /// `floor(lead × 10000 / (up + down))` at that moment.
    pub strength_bps: u64,
    /// Voters at that moment.
    pub voters: u64,
    /// Up weight at that moment (WAD).
    pub up_weight: U256,
    /// Down weight at that moment (WAD).
    pub down_weight: U256,
}

/// One consensus round: its tallies and the direction of its last emitted event.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConsensusRound {
    /// The round's key.
    pub key: RoundKey,
    /// Total up weight (WAD).
    pub up_weight: U256,
    /// Total down weight (WAD).
    pub down_weight: U256,
    /// Number of votes.
    pub voters: u64,
    /// Direction of the last [`ConsensusEvent`] emitted, if any.
    pub last_event_direction: Option<Direction>,
}

impl ConsensusRound {
    /// An empty round.
    pub const fn new(key: RoundKey) -> Self {
        ConsensusRound {
            key,
            up_weight: U256::ZERO,
            down_weight: U256::ZERO,
            voters: 0,
            last_event_direction: None,
        }
    }

    /// The round's current state.
    ///
    /// # Errors
    /// Never for a round built with [`ConsensusRound::add_vote`] (its total always fits).
    pub fn state(&self, params: &ConsensusParams) -> Result<ConsensusState, ConsensusError> {
        consensus_state(self.up_weight, self.down_weight, self.voters, params)
    }

    /// Adds one vote of `weight` (WAD) to `direction`. Returns the event when this vote makes
    /// the round reach consensus for a direction other than its last emitted one. On error
    /// the round is unchanged.
    ///
    /// # Errors
    /// [`ConsensusError::WeightOverflow`] when the total weight would pass `U256::MAX`;
    /// [`ConsensusError::VotersOverflow`] when the voter count would pass `u64::MAX`.
    pub fn add_vote(
        &mut self,
        direction: Direction,
        weight: U256,
        params: &ConsensusParams,
    ) -> Result<Option<ConsensusEvent>, ConsensusError> {
        let mut next = *self;
        match direction {
            Direction::Up => {
                next.up_weight = checked_add(self.up_weight, weight)
                    .map_err(|_| ConsensusError::WeightOverflow)?
            }
            Direction::Down => {
                next.down_weight = checked_add(self.down_weight, weight)
                    .map_err(|_| ConsensusError::WeightOverflow)?
            }
        }
        next.voters = self
            .voters
            .checked_add(1)
            .ok_or(ConsensusError::VotersOverflow)?;
        let state = next.state(params)?;
        let event = match state.direction {
            Some(d) if state.reached && next.last_event_direction != Some(d) => {
                next.last_event_direction = Some(d);
                Some(ConsensusEvent {
                    key: next.key,
                    direction: d,
                    strength_bps: state.strength_bps,
                    voters: state.voters,
                    up_weight: state.up_weight,
                    down_weight: state.down_weight,
                })
            }
            _ => None,
        };
        *self = next;
        Ok(event)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::testing::{u as w, E18 as ONE};
    use proptest::prelude::*;
    use Direction::*;

    #[test]
    fn defaults() {
        let p = ConsensusParams::default();
        assert_eq!((p.quorum(), p.threshold_bps()), (3, 6_667));
        assert_eq!(
            ConsensusParams::new(3, 10_001),
            Err(ConsensusError::ThresholdAbove100(10_001))
        );
        assert!(ConsensusParams::new(0, 10_000).is_ok());
    }

    #[test]
    fn buckets() {
        assert_eq!(consensus_bucket(7_200, 3_600), Ok(2));
        assert_eq!(consensus_bucket(7_199, 3_600), Ok(1));
        assert_eq!(consensus_bucket(1, 0), Err(ConsensusError::ZeroWindow));
        // Revealed at 10:00:00 with a 1 h window closes at 11:00:00: bucket 11.
        assert_eq!(round_for_reveal_now(36_000, 3_600), Ok(11));
        assert_eq!(round_for_reveal_now(39_599, 3_600), Ok(11));
        assert_eq!(round_for_reveal_now(39_600, 3_600), Ok(12));
        assert_eq!(round_for_reveal_now(5, 0), Err(ConsensusError::ZeroWindow));
        assert_eq!(
            round_for_reveal_now(u64::MAX, 1),
            Err(ConsensusError::TimeOverflow)
        );
        assert_eq!(round_for_reveal_now(u64::MAX - 10, 10), Ok(u64::MAX / 10));
    }

    #[test]
    fn vote_weights() {
        assert_eq!(vote_weight(U256::ZERO), Ok(WAD));
        assert_eq!(
            vote_weight(w(500_000_000_000_000_000)),
            Ok(w(1_500_000_000_000_000_000))
        );
        assert_eq!(vote_weight(U256::MAX), Err(ConsensusError::WeightOverflow));
    }

    #[test]
    fn three_fresh_agents_up_reach_consensus_at_the_third_vote() {
        let p = ConsensusParams::default();
        let mut r = ConsensusRound::new(RoundKey::default());
        assert_eq!(r.add_vote(Up, WAD, &p), Ok(None));
        assert_eq!(r.add_vote(Up, WAD, &p), Ok(None)); // 2 voters < quorum 3
        let e = r.add_vote(Up, WAD, &p).unwrap().unwrap();
        assert_eq!((e.direction, e.strength_bps, e.voters), (Up, 10_000, 3));
        assert_eq!((e.up_weight, e.down_weight), (w(3 * ONE), U256::ZERO));
        // Another up vote keeps consensus: no new event.
        assert_eq!(r.add_vote(Up, WAD, &p), Ok(None));
    }

    #[test]
    fn threshold_boundary_two_to_one() {
        // 2 up, 1 down with weight 1: lead share 2/3 = 6666.67 bps < 6667: no consensus.
        let p = ConsensusParams::default();
        let s = consensus_state(w(2 * ONE), w(ONE), 3, &p).unwrap();
        assert_eq!(
            (s.reached, s.direction, s.strength_bps),
            (false, Some(Up), 6_666)
        );
        // Threshold 6,666 bps: 2/3 passes (20000 ≥ 19998).
        let p = ConsensusParams::new(3, 6_666).unwrap();
        assert!(consensus_state(w(2 * ONE), w(ONE), 3, &p).unwrap().reached);
        // Exactly 6,667 bps lead share reaches the default threshold.
        let p = ConsensusParams::default();
        let s = consensus_state(w(6_667), w(3_333), 3, &p).unwrap();
        assert_eq!((s.reached, s.strength_bps), (true, 6_667));
        let s = consensus_state(w(66_669), w(33_331), 3, &p).unwrap(); // 6666.9 bps
        assert_eq!((s.reached, s.strength_bps), (false, 6_666));
    }

    #[test]
    fn strength_is_rounded_down() {
        let p = ConsensusParams::default();
        // A proven agent (score 9.333…) plus two fresh ones on the other side.
        let proven = vote_weight(w(9_333_333_333_333_333_333)).unwrap();
        let s = consensus_state(proven, w(2 * ONE), 3, &p).unwrap();
        // 10.333…/12.333… = 0.83783…
        assert_eq!(
            (s.reached, s.direction, s.strength_bps),
            (true, Some(Up), 8_378)
        );
    }

    #[test]
    fn ties_have_no_direction_and_no_consensus() {
        for bps in [0, 5_000, 6_667] {
            let p = ConsensusParams::new(0, bps).unwrap();
            let s = consensus_state(w(ONE), w(ONE), 10, &p).unwrap();
            assert_eq!(
                (s.reached, s.direction, s.strength_bps),
                (false, None, 5_000)
            );
            let s = consensus_state(U256::ZERO, U256::ZERO, 0, &p).unwrap();
            assert_eq!((s.reached, s.direction, s.strength_bps), (false, None, 0));
        }
    }

    #[test]
    fn quorum_is_required() {
        let p = ConsensusParams::default();
        let s = consensus_state(w(100 * ONE), U256::ZERO, 2, &p).unwrap();
        assert_eq!(
            (s.reached, s.direction, s.strength_bps),
            (false, Some(Up), 10_000)
        );
    }

    #[test]
    fn flip_emits_a_new_event_for_the_new_direction() {
        let p = ConsensusParams::default();
        let key = RoundKey {
            asset: Address::repeat_byte(0xaa),
            window: 3_600,
            bucket: 480_000,
        };
        let mut r = ConsensusRound::new(key);
        let mut events = Vec::new();
        let mut vote = |r: &mut ConsensusRound, d, wt| {
            if let Some(e) = r.add_vote(d, wt, &p).unwrap() {
                events.push(e);
            }
        };
        for _ in 0..3 {
            vote(&mut r, Up, w(ONE));
        }
        // A heavy down vote: down 10 vs up 3 → 76.92 %: flips with consensus.
        vote(&mut r, Down, w(10 * ONE));
        // Back up: up 13 vs down 10: leads with 56.5 % only: no event.
        vote(&mut r, Up, w(10 * ONE));
        // Up 33 vs down 10: 76.7 %: consensus up again, a third event.
        vote(&mut r, Up, w(20 * ONE));
        let summary: Vec<_> = events
            .iter()
            .map(|e| (e.direction, e.strength_bps, e.voters))
            .collect();
        assert_eq!(
            summary,
            vec![(Up, 10_000, 3), (Down, 7_692, 4), (Up, 7_674, 6)]
        );
        assert!(events.iter().all(|e| e.key == key));
        assert_eq!(r.last_event_direction, Some(Up));
    }

    #[test]
    fn overflow_is_an_error_and_leaves_the_round_unchanged() {
        let p = ConsensusParams::default();
        let mut r = ConsensusRound::new(RoundKey::default());
        r.add_vote(Up, U256::MAX - w(5), &p).unwrap();
        let before = r;
        assert_eq!(
            r.add_vote(Down, w(6), &p),
            Err(ConsensusError::WeightOverflow)
        );
        assert_eq!(
            r.add_vote(Up, w(6), &p),
            Err(ConsensusError::WeightOverflow)
        );
        assert_eq!(r, before);
        // Exactly MAX in total is fine.
        assert!(r.add_vote(Down, w(5), &p).is_ok());
        assert_eq!(r.state(&p).unwrap().strength_bps, 9_999);
        let mut r = ConsensusRound {
            voters: u64::MAX,
            ..ConsensusRound::default()
        };
        assert_eq!(
            r.add_vote(Up, w(1), &p),
            Err(ConsensusError::VotersOverflow)
        );
        assert_eq!(
            consensus_state(U256::MAX, w(1), 3, &p),
            Err(ConsensusError::WeightOverflow)
        );
    }

    #[test]
    fn huge_weights_compare_exactly() {
        // lead × 10000 overflows 256 bits; the 512-bit comparison still decides.
        let p = ConsensusParams::default();
        let up = U256::MAX / w(3) * w(2);
        let down = U256::MAX / w(3);
        let s = consensus_state(up, down, 3, &p).unwrap();
        assert_eq!((s.reached, s.strength_bps), (false, 6_666));
        let p = ConsensusParams::new(3, 6_666).unwrap();
        assert!(consensus_state(up, down, 3, &p).unwrap().reached);
    }

    fn u256() -> impl Strategy<Value = U256> {
        prop_oneof![
            any::<u128>().prop_map(U256::from),
            any::<[u64; 4]>().prop_map(U256::from_limbs),
            (0u128..100).prop_map(|x| U256::from(x * ONE)),
        ]
    }

    proptest! {
        #[test]
        fn state_matches_a_rational_reference(up in u256(), down in u256(), voters in 0u64..10, quorum in 0u64..10, bps in 0u64..=10_000) {
            let p = ConsensusParams::new(quorum, bps).unwrap();
            match consensus_state(up, down, voters, &p) {
                Err(e) => {
                    prop_assert_eq!(e, ConsensusError::WeightOverflow);
                    prop_assert!(up.checked_add(down).is_none());
                }
                Ok(s) => {
                    let total = up + down;
                    let lead = up.max(down);
                    prop_assert!(s.strength_bps <= 10_000);
                    if !total.is_zero() {
                        // floor: s ≤ lead·10000/total < s + 1
                        let l = crate::math::U512::from(lead) * crate::math::U512::from(10_000u64);
                        let t = crate::math::U512::from(total);
                        prop_assert!(crate::math::U512::from(s.strength_bps) * t <= l);
                        prop_assert!(crate::math::U512::from(s.strength_bps + 1) * t > l);
                    }
                    let expected_reached = up != down && voters >= quorum
                        && crate::math::U512::from(lead) * crate::math::U512::from(10_000u64)
                            >= crate::math::U512::from(bps) * crate::math::U512::from(total);
                    prop_assert_eq!(s.reached, expected_reached);
                    // Reaching implies the rounded-down strength is at least the threshold
                    // (exact comparison agrees with the floored one for integer bps).
                    if s.reached { prop_assert!(s.strength_bps >= bps); }
                    if s.strength_bps >= bps && up != down && voters >= quorum { prop_assert!(s.reached); }
                }
            }
        }

        #[test]
        fn events_alternate_and_only_when_reached(votes in proptest::collection::vec((any::<bool>(), 0u128..(50 * ONE)), 0..40), quorum in 0u64..6, bps in 5_001u64..=10_000) {
            let p = ConsensusParams::new(quorum, bps).unwrap();
            let mut r = ConsensusRound::new(RoundKey::default());
            let mut last: Option<Direction> = None;
            for (up, wt) in votes {
                let e = r.add_vote(Direction::from_up(up), U256::from(wt), &p).unwrap();
                let s = r.state(&p).unwrap();
                if let Some(e) = e {
                    prop_assert!(s.reached);
                    prop_assert_eq!(Some(e.direction), s.direction);
                    prop_assert_ne!(Some(e.direction), last);
                    prop_assert_eq!((e.up_weight, e.down_weight, e.voters, e.strength_bps), (s.up_weight, s.down_weight, s.voters, s.strength_bps));
                    last = Some(e.direction);
                } else if s.reached {
                    // Reached without an event: the same direction was already emitted.
                    prop_assert_eq!(s.direction, last);
                }
                prop_assert_eq!(r.last_event_direction, last);
            }
        }
    }
}
