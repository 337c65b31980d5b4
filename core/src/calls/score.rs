//! A1 track-record score (`CallLedger.computeScore`).
//!
//! `weight = stake / minStake`, `score = hits² × weight / (hits + misses + 1)`, returned as a
//! WAD and rounded down:
//!
//! ```text
//! score = floor(hits² × stake × 10^18 / (minStake × (hits + misses + 1)))
//! ```
//!
//! The product is formed in 512 bits, so the function never overflows for any `u64` hits and
//! misses and any `U256` stake: the only failures are `minStake = 0` and a score that does not
//! fit in 256 bits. A1 (pinned): adding a hit never lowers the score, adding a miss never
//! raises it (property-tested below).

use crate::math::{mul_div_down, MathError, U256, U512, WAD};

/// Why a track-record score could not be computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    /// `minStake` is zero, so the weight `stake / minStake` is undefined.
    #[error("minStake: must be greater than zero")]
    ZeroMinStake,
    /// The exact score exceeds `U256::MAX`.
    #[error("score: the result does not fit in 256 bits (stake too large for minStake)")]
    Overflow,
}

/// A1: the track-record score as a WAD, rounded down.
///
/// `floor(hits² × stake × 10^18 / (minStake × (hits + misses + 1)))`. With `stake == minStake`
/// (weight 1): 1 hit → 0.5, 2 hits → 1.333…, 10 hits in 10 → 9.0909…, 14 hits and 6 misses
/// → 9.333… (18.666… at double stake).
///
/// # Errors
/// [`ScoreError::ZeroMinStake`] when `min_stake == 0`; [`ScoreError::Overflow`] when the
/// score exceeds `U256::MAX`. Never panics.
pub fn track_record_score(
    hits: u64,
    misses: u64,
    stake: U256,
    min_stake: U256,
) -> Result<U256, ScoreError> {
    if min_stake.is_zero() {
        return Err(ScoreError::ZeroMinStake);
    }
    // hits² < 2^128 and hits² × 10^18 < 2^188: both fit in U256.
    let hits_sq = u128::from(hits) * u128::from(hits);
    let hits_sq_wad = U256::from(hits_sq) * WAD;
    // hits + misses + 1 ≤ 2^65 − 1: fits in u128.
    let calls_plus_one = u128::from(hits) + u128::from(misses) + 1;
    match min_stake.checked_mul(U256::from(calls_plus_one)) {
        Some(denominator) => mul_div_down(hits_sq_wad, stake, denominator).map_err(|e| match e {
            MathError::DivisionByZero => ScoreError::ZeroMinStake,
            _ => ScoreError::Overflow,
        }),
        None => {
            // The denominator itself exceeds 256 bits (≥ 2^256), while the numerator is below
            // 2^444, so the quotient is below 2^188 and always fits. Divide in 512 bits.
            let numerator: U512 = hits_sq_wad.widening_mul(stake);
            let denominator: U512 = min_stake.widening_mul(U256::from(calls_plus_one));
            let q = numerator / denominator;
            let limbs = q.as_limbs();
            if limbs[4..].iter().any(|l| *l != 0) {
                return Err(ScoreError::Overflow);
            }
            Ok(U256::from_limbs([limbs[0], limbs[1], limbs[2], limbs[3]]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::testing::{u as w, E18 as ONE};
    use proptest::prelude::*;

    #[test]
    fn seed_examples_weight_one() {
        // Weight 1 in several stake units: the score depends only on the ratio.
        for min_stake in [w(1), w(100 * ONE), w(2_500 * ONE), U256::MAX / w(3)] {
            let s = |h, m| track_record_score(h, m, min_stake, min_stake).unwrap();
            assert_eq!(s(1, 0), w(500_000_000_000_000_000)); // 0.5
            assert_eq!(s(2, 0), w(1_333_333_333_333_333_333)); // 1.333…
            assert_eq!(s(10, 0), w(9_090_909_090_909_090_909)); // 10/10 → 9.0909…
            assert_eq!(s(14, 6), w(9_333_333_333_333_333_333)); // 9.333…
        }
    }

    #[test]
    fn seed_example_double_stake() {
        let min = w(100 * ONE);
        assert_eq!(
            track_record_score(14, 6, w(200 * ONE), min).unwrap(),
            w(18_666_666_666_666_666_666)
        );
    }

    #[test]
    fn zero_hits_and_zero_stake_score_zero() {
        assert_eq!(
            track_record_score(0, 0, w(ONE), w(ONE)).unwrap(),
            U256::ZERO
        );
        assert_eq!(
            track_record_score(0, u64::MAX, U256::MAX, w(1)).unwrap(),
            U256::ZERO
        );
        assert_eq!(
            track_record_score(5, 5, U256::ZERO, w(1)).unwrap(),
            U256::ZERO
        );
    }

    #[test]
    fn zero_min_stake_is_an_error() {
        assert_eq!(
            track_record_score(1, 0, w(ONE), U256::ZERO),
            Err(ScoreError::ZeroMinStake)
        );
        assert_eq!(
            track_record_score(0, 0, U256::ZERO, U256::ZERO),
            Err(ScoreError::ZeroMinStake)
        );
    }

    #[test]
    fn overflow_is_an_error() {
        // 1 hit: MAX × 10^18 / 2 > U256::MAX.
        assert_eq!(
            track_record_score(1, 0, U256::MAX, w(1)),
            Err(ScoreError::Overflow)
        );
        assert_eq!(
            track_record_score(u64::MAX, 0, U256::MAX, w(1)),
            Err(ScoreError::Overflow)
        );
    }

    #[test]
    fn extremes_do_not_overflow_when_the_result_fits() {
        // Denominator above 2^256: handled in 512 bits.
        let s = track_record_score(u64::MAX, u64::MAX, U256::MAX, U256::MAX).unwrap();
        let h = U512::from(u64::MAX);
        let expected =
            (h * h * U512::from(WAD)) / (U512::from(u64::MAX) * U512::from(2u8) + U512::from(1u8));
        assert_eq!(U512::from(s), expected);
        // stake = minStake = MAX with no misses: hits²/(hits+1) WAD.
        let s = track_record_score(3, 0, U256::MAX, U256::MAX).unwrap();
        assert_eq!(s, w(2_250_000_000_000_000_000));
        // Huge stake, enough misses that the result fits again.
        let s = track_record_score(1, u64::MAX, U256::MAX / w(ONE), w(1)).unwrap();
        let expected = U512::from(U256::MAX / w(ONE)) * U512::from(WAD)
            / (U512::from(u64::MAX) + U512::from(2u8));
        assert_eq!(U512::from(s), expected);
    }

    /// Reference in 512 bits: exact floor, `None` when it does not fit in 256 bits.
    fn reference(h: u64, m: u64, stake: U256, min: U256) -> Option<U256> {
        let num = U512::from(h) * U512::from(h) * U512::from(WAD) * U512::from(stake);
        let den = U512::from(min) * (U512::from(h) + U512::from(m) + U512::from(1u8));
        let q = num / den;
        (q <= U512::from(U256::MAX))
            .then(|| U256::from_limbs(q.as_limbs()[..4].try_into().unwrap()))
    }

    fn any_u256() -> impl Strategy<Value = U256> {
        prop_oneof![
            any::<u128>().prop_map(U256::from),
            any::<[u64; 4]>().prop_map(U256::from_limbs),
            (0u32..256).prop_map(|b| U256::from(1u8) << b as usize),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn never_panics_and_matches_reference(h in any::<u64>(), m in any::<u64>(), stake in any_u256(), min in any_u256()) {
            let got = track_record_score(h, m, stake, min);
            if min.is_zero() {
                prop_assert_eq!(got, Err(ScoreError::ZeroMinStake));
            } else {
                match reference(h, m, stake, min) {
                    Some(r) => prop_assert_eq!(got, Ok(r)),
                    None => prop_assert_eq!(got, Err(ScoreError::Overflow)),
                }
            }
        }

        #[test]
        fn adding_a_hit_never_lowers_the_score(h in 0u64..u64::MAX, m in any::<u64>(), stake in any_u256(), min in any_u256().prop_filter("nonzero", |x| !x.is_zero())) {
            if let Ok(before) = track_record_score(h, m, stake, min) {
                match track_record_score(h + 1, m, stake, min) {
                    Ok(after) => prop_assert!(after >= before),
                    // A higher score may only fail by overflowing, never by going down.
                    Err(e) => prop_assert_eq!(e, ScoreError::Overflow),
                }
            }
        }

        #[test]
        fn adding_a_hit_never_lowers_the_score_small(h in 0u64..10_000, m in 0u64..10_000, stake in 1u128..(1u128 << 100), min in 1u128..(1u128 << 100)) {
            let before = track_record_score(h, m, w(stake), w(min)).unwrap();
            let after = track_record_score(h + 1, m, w(stake), w(min)).unwrap();
            prop_assert!(after >= before);
        }

        #[test]
        fn adding_a_miss_never_raises_the_score(h in any::<u64>(), m in 0u64..u64::MAX, stake in any_u256(), min in any_u256().prop_filter("nonzero", |x| !x.is_zero())) {
            if let Ok(after) = track_record_score(h, m + 1, stake, min) {
                // If the score with one more miss fits, the score before is at least as large
                // (it may overflow only by being larger).
                match track_record_score(h, m, stake, min) {
                    Ok(before) => prop_assert!(after <= before),
                    Err(e) => prop_assert_eq!(e, ScoreError::Overflow),
                }
            }
        }

        #[test]
        fn adding_a_miss_never_raises_the_score_small(h in 0u64..10_000, m in 0u64..10_000, stake in 1u128..(1u128 << 100), min in 1u128..(1u128 << 100)) {
            let before = track_record_score(h, m, w(stake), w(min)).unwrap();
            let after = track_record_score(h, m + 1, w(stake), w(min)).unwrap();
            prop_assert!(after <= before);
        }
    }
}
