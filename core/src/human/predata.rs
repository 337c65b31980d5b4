//! C10 (pinned) Pre-data replay, §4.3: projects with no attested systematic score yet.
//!
//! Points on the 0–100 scale (WADs: 80 points = `80 × 10^18`). Start at 0 and replay the
//! counting submissions (`q·c > 0`) in order:
//!
//! ```text
//! s ← clamp(s + q·c·clamp(y − s, −m, +m), 0, cap)
//! ```
//!
//! `m = 20` for the first counting submission and `m = 5` for every later one; `cap = 50`, or 100
//! for a Verified project. A non-counting submission changes nothing and does not use up the
//! first slot. The first attested systematic score ends this mode for good (the caller then
//! switches to C9, [`super::human_envelope`]).
//!
//! Rounding (protocol-neutral): the step `q·c·clamp(y − s, ±m)` is computed exactly as
//! `q × c × |d|` and divided once by 10^36, magnitude toward zero.
//!
//! Example (a unit test): 80 (q 0.9), 60 (q 1), 10 (q 0.5) → 0 → 18 → 23 → 20.5, exact.

use super::{math, HumanError};
use crate::math::{mul_div_down, WAD};
use alloy_primitives::U256;

use crate::math::points::points;

/// The largest step of the first counting submission: 20 points.
pub const FIRST_STEP_POINTS: U256 = points(20);
/// The largest step of every later counting submission: 5 points.
pub const LATER_STEP_POINTS: U256 = points(5);
/// The pre-data cap of an unverified project: 50 points.
pub const CAP_UNVERIFIED_POINTS: U256 = points(50);
/// The pre-data cap of a Verified project: 100 points.
pub const CAP_VERIFIED_POINTS: U256 = points(100);
/// The top of the points scale (100): the largest valid target ([`crate::math::points`]).
pub use crate::math::points::MAX_POINTS;

/// One submission of a pre-data project.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct PreDataSubmission {
    /// The target score `y`, points as a WAD in `[0, 100]`.
    #[serde(with = "crate::serde_dec::u256")]
    pub target: U256,
    /// Quality `q` (C8), WAD in `[0, 1]`.
    #[serde(with = "crate::serde_dec::u256")]
    pub quality: U256,
    /// Originality multiplier `c` (C8), WAD in `[0, 1]`.
    #[serde(with = "crate::serde_dec::u256")]
    pub multiplier: U256,
}

fn validate(index: usize, s: &PreDataSubmission) -> Result<(), HumanError> {
    if s.target > MAX_POINTS {
        return Err(HumanError::TargetOutOfRange {
            index,
            value: s.target,
        });
    }
    for (field, value) in [("quality", s.quality), ("multiplier", s.multiplier)] {
        if value > WAD {
            return Err(HumanError::FractionOutOfRange {
                list: "submissions",
                index,
                field,
                value,
            });
        }
    }
    Ok(())
}

/// One replay step from score `s` (points WAD) with maximum step `m` and `cap`.
/// Returns `None` for a non-counting submission (`q·c == 0`), which leaves `s` unchanged.
///
/// # Errors
/// Out-of-range fields (named at `index`).
pub fn pre_data_step(
    index: usize,
    s: U256,
    sub: &PreDataSubmission,
    m: U256,
    cap: U256,
) -> Result<Option<U256>, HumanError> {
    validate(index, sub)?;
    // q, c ≤ 10^18: the product ≤ 10^36 is exact.
    let qc = sub.quality * sub.multiplier;
    if qc.is_zero() {
        return Ok(None);
    }
    let (up, dist) = if sub.target >= s {
        (true, sub.target - s)
    } else {
        (false, s - sub.target)
    };
    let step = mul_div_down(qc, dist.min(m), WAD * WAD).map_err(math("pre-data step"))?;
    let next = if up {
        s.saturating_add(step).min(cap)
    } else {
        s.saturating_sub(step)
    };
    Ok(Some(next.min(cap)))
}

/// C10: replays `submissions` in order from 0 and returns the score (points WAD) after each
/// submission (a non-counting one repeats the previous value). The last entry is the current score.
///
/// # Errors
/// The first out-of-range field, by index; never a panic.
pub fn pre_data_replay(
    submissions: &[PreDataSubmission],
    verified: bool,
) -> Result<Vec<U256>, HumanError> {
    let cap = if verified {
        CAP_VERIFIED_POINTS
    } else {
        CAP_UNVERIFIED_POINTS
    };
    let mut s = U256::ZERO;
    let mut first_used = false;
    let mut path = Vec::with_capacity(submissions.len());
    for (i, sub) in submissions.iter().enumerate() {
        let m = if first_used {
            LATER_STEP_POINTS
        } else {
            FIRST_STEP_POINTS
        };
        if let Some(next) = pre_data_step(i, s, sub, m, cap)? {
            s = next;
            first_used = true;
        }
        path.push(s);
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn tenths(x: u64) -> U256 {
        U256::from(x) * U256::from(100_000_000_000_000_000u64)
    }

    fn sub(target: u64, q_tenths: u64) -> PreDataSubmission {
        PreDataSubmission {
            target: points(target),
            quality: tenths(q_tenths),
            multiplier: WAD,
        }
    }

    #[test]
    fn seed_example_c10() {
        let path = pre_data_replay(&[sub(80, 9), sub(60, 10), sub(10, 5)], false).unwrap();
        assert_eq!(path, vec![points(18), points(23), tenths(205)]);
    }

    #[test]
    fn non_counting_does_not_use_first_slot() {
        let copy = PreDataSubmission {
            multiplier: U256::ZERO,
            ..sub(100, 10)
        };
        let path = pre_data_replay(&[copy, sub(80, 9)], false).unwrap();
        assert_eq!(path, vec![U256::ZERO, points(18)]);
    }

    #[test]
    fn cap_fifty_unless_verified() {
        let subs: Vec<_> = (0..20).map(|_| sub(100, 10)).collect();
        let path = pre_data_replay(&subs, false).unwrap();
        assert_eq!(path[0], points(20));
        assert_eq!(path[5], points(45));
        assert_eq!(*path.last().unwrap(), points(50));
        let path = pre_data_replay(&subs, true).unwrap();
        assert_eq!(*path.last().unwrap(), points(100));
        assert_eq!(path[15], points(95));
        assert_eq!(path[16], points(100));
    }

    #[test]
    fn errors_name_the_field() {
        let bad = PreDataSubmission {
            target: points(101),
            ..sub(0, 1)
        };
        let e = pre_data_replay(&[sub(1, 1), bad], false).unwrap_err();
        assert!(e.to_string().contains("submissions[1].target"), "{e}");
        let bad = PreDataSubmission {
            quality: WAD + U256::from(1u8),
            ..sub(0, 1)
        };
        let e = pre_data_replay(&[bad], false).unwrap_err();
        assert!(e.to_string().contains("submissions[0].quality"), "{e}");
    }

    proptest! {
        #[test]
        fn stays_within_zero_and_cap(
            v in any::<bool>(),
            subs in proptest::collection::vec((0u64..=100, 0u64..=10, 0u64..=2), 0..30),
        ) {
            let subs: Vec<_> = subs.iter().map(|&(y, q, c)| PreDataSubmission {
                target: points(y), quality: tenths(q), multiplier: U256::from(c) * U256::from(500_000_000_000_000_000u64),
            }).collect();
            let cap = if v { CAP_VERIFIED_POINTS } else { CAP_UNVERIFIED_POINTS };
            let path = pre_data_replay(&subs, v).unwrap();
            let mut prev = U256::ZERO;
            let mut first = true;
            for (s, sub) in path.iter().zip(&subs) {
                prop_assert!(*s <= cap);
                let moved = if *s >= prev { *s - prev } else { prev - *s };
                let m = if first { FIRST_STEP_POINTS } else { LATER_STEP_POINTS };
                prop_assert!(moved <= m);
                if !(sub.quality * sub.multiplier).is_zero() { first = false; }
                prev = *s;
            }
        }
    }
}
