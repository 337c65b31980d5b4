//! Normalisation within the track (C1, pinned).
//!
//! For a cohort of `n ≥ N_MIN = 20` projects, a feature's bounds are the cohort's nearest-rank
//! `lo = P5`, `hi = P95` ([`super::percentile`]); for `n < 20` they are the track's published
//! reference bounds. Then `x̂ = (clamp(x, lo, hi) − lo) / (hi − lo)` as a WAD, **rounded down**
//! (one floor division of the exact product `(clamp(x) − lo)·10^18`, so `x̂ ∈ [0, 1]` exactly and
//! `x̂ = 1` exactly at and above `hi`). **Decided**: when `hi ≤ lo` every value normalises to 0.
//!
//! Example (§2.2): cohort {3,5,6,…,25,28,400}: `P5 = 3`, `P95 = 28`; 400 → 1.0; 14 → 0.44.

use super::percentile::nearest_rank;
use crate::math::{mul_div_down, U256, WAD};
use crate::serde_dec;
use serde::{Deserialize, Serialize};

/// Smallest cohort normalised by its own percentiles (`N_min`, §2.2).
pub const N_MIN: usize = 20;
/// Lower clip percentile.
pub const P_LO: u32 = 5;
/// Upper clip percentile.
pub const P_HI: u32 = 95;

const WAD_U128: u128 = 1_000_000_000_000_000_000;

/// Where a feature's bounds came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum BoundsSource {
    /// Cohort nearest-rank P5 / P95 (`n ≥ 20`).
    Cohort,
    /// The track's published reference bounds (`n < 20`).
    Reference,
}

/// The normalisation bounds actually used for one feature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Bounds {
    /// Lower bound (raw feature units).
    #[serde(with = "serde_dec::u256")]
    pub lo: U256,
    /// Upper bound (raw feature units).
    #[serde(with = "serde_dec::u256")]
    pub hi: U256,
    /// Cohort percentiles or reference bounds.
    pub source: BoundsSource,
}

/// Bad normalisation input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NormaliseError {
    /// Reference bounds with `lo > hi`.
    #[error("refHi: reference upper bound {hi} is below the lower bound {lo}")]
    ReferenceBounds {
        /// refLo.
        lo: U256,
        /// refHi.
        hi: U256,
    },
}

impl Bounds {
    /// Bounds for a column **sorted ascending**: cohort P5/P95 when `n ≥ 20`, else the reference.
    pub fn for_sorted_column(sorted: &[U256], ref_lo: U256, ref_hi: U256) -> Bounds {
        if sorted.len() >= N_MIN {
            if let (Ok(lo), Ok(hi)) = (nearest_rank(sorted, P_LO), nearest_rank(sorted, P_HI)) {
                return Bounds {
                    lo,
                    hi,
                    source: BoundsSource::Cohort,
                };
            }
        }
        Bounds {
            lo: ref_lo,
            hi: ref_hi,
            source: BoundsSource::Reference,
        }
    }
}

/// `x̂ = (clamp(x, lo, hi) − lo)·10^18 / (hi − lo)`, rounded down; 0 when `hi ≤ lo`.
pub fn normalise_value(x: U256, bounds: &Bounds) -> U256 {
    U256::from(normalise_wad_u128(x, bounds.lo, bounds.hi))
}

/// [`normalise_value`] as a `u128` (always ≤ 10^18); the epoch's hot path.
pub(crate) fn normalise_wad_u128(x: U256, lo: U256, hi: U256) -> u128 {
    if hi <= lo || x <= lo {
        return 0;
    }
    if x >= hi {
        return WAD_U128;
    }
    let d = hi - lo;
    let num = x - lo; // 0 < num < d
                      // Fast path: everything fits in u128 without overflow.
    if d.bit_len() <= 128 && num.bit_len() <= 68 {
        let (n, dd) = (num.to::<u128>(), d.to::<u128>());
        if let Some(p) = n.checked_mul(WAD_U128) {
            return p / dd;
        }
    }
    // num < d, so the quotient is < 10^18: mul_div_down cannot fail.
    mul_div_down(num, WAD, d)
        .map(|q| q.saturating_to::<u128>())
        .unwrap_or(0)
}

/// Normalises one feature column: bounds from the column itself when it has at least 20 values,
/// else `[ref_lo, ref_hi]`. Returns the bounds used and `x̂` per value (WAD, input order).
///
/// # Errors
/// [`NormaliseError::ReferenceBounds`] when `ref_lo > ref_hi` (whether or not they are used).
pub fn normalise_column(
    values: &[U256],
    ref_lo: U256,
    ref_hi: U256,
) -> Result<(Bounds, Vec<U256>), NormaliseError> {
    if ref_lo > ref_hi {
        return Err(NormaliseError::ReferenceBounds {
            lo: ref_lo,
            hi: ref_hi,
        });
    }
    let bounds = if values.len() >= N_MIN {
        let mut sorted = values.to_vec();
        sorted.sort_unstable();
        Bounds::for_sorted_column(&sorted, ref_lo, ref_hi)
    } else {
        Bounds {
            lo: ref_lo,
            hi: ref_hi,
            source: BoundsSource::Reference,
        }
    };
    Ok((
        bounds,
        values
            .iter()
            .map(|&x| normalise_value(x, &bounds))
            .collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::parse_wad;
    use proptest::prelude::*;

    fn seed_cohort() -> Vec<U256> {
        [
            3u64, 5, 6, 8, 9, 10, 11, 12, 12, 14, 15, 16, 18, 19, 20, 22, 24, 25, 28, 400,
        ]
        .into_iter()
        .map(U256::from)
        .collect()
    }

    #[test]
    fn seed_example() {
        let c = seed_cohort();
        let (b, xs) = normalise_column(&c, U256::ZERO, U256::from(1u8)).unwrap();
        assert_eq!(
            b,
            Bounds {
                lo: U256::from(3u8),
                hi: U256::from(28u8),
                source: BoundsSource::Cohort
            }
        );
        assert_eq!(xs[19], WAD, "400 → 1.0");
        assert_eq!(xs[18], WAD, "28 → 1.0, exactly what 400 scores");
        assert_eq!(xs[9], parse_wad("0.44").unwrap(), "14 → (14−3)/25 = 0.44");
        assert_eq!(xs[0], U256::ZERO, "3 → 0");
    }

    #[test]
    fn small_cohort_uses_reference_bounds() {
        let c = seed_cohort();
        let (b, xs) = normalise_column(&c[..19], U256::ZERO, U256::from(50u8)).unwrap();
        assert_eq!(b.source, BoundsSource::Reference);
        assert_eq!(xs[9], parse_wad("0.28").unwrap()); // 14/50
        assert_eq!(xs[18], parse_wad("0.56").unwrap()); // 28/50
                                                        // rounding down: 1/3
        let (_, xs) = normalise_column(&[U256::from(1u8)], U256::ZERO, U256::from(3u8)).unwrap();
        assert_eq!(xs[0], U256::from(333_333_333_333_333_333u64));
        assert!(normalise_column(&[], U256::from(2u8), U256::from(1u8)).is_err());
        assert_eq!(
            normalise_column(&[], U256::ZERO, U256::ZERO).unwrap().1,
            Vec::<U256>::new()
        );
    }

    #[test]
    fn degenerate_bounds_give_zero() {
        let twenty = vec![U256::from(7u8); 20];
        let (b, xs) = normalise_column(&twenty, U256::ZERO, U256::from(1u8)).unwrap();
        assert_eq!((b.lo, b.hi), (U256::from(7u8), U256::from(7u8)));
        assert!(xs.iter().all(|x| x.is_zero()));
        let b = Bounds {
            lo: U256::from(5u8),
            hi: U256::from(5u8),
            source: BoundsSource::Reference,
        };
        assert_eq!(normalise_value(U256::from(9u8), &b), U256::ZERO);
    }

    #[test]
    fn huge_values_use_the_wide_path() {
        let b = Bounds {
            lo: U256::ZERO,
            hi: U256::MAX,
            source: BoundsSource::Reference,
        };
        assert_eq!(
            normalise_value(U256::MAX >> 1, &b),
            U256::from(499_999_999_999_999_999u64)
        );
        assert_eq!(normalise_value(U256::MAX, &b), WAD);
    }

    fn any_u256() -> impl Strategy<Value = U256> {
        prop_oneof![
            any::<[u64; 4]>().prop_map(U256::from_limbs),
            any::<u128>().prop_map(U256::from),
            (0u64..1000).prop_map(U256::from),
        ]
    }

    proptest! {
        /// x̂ ∈ [0, 1], equals the exact floor, and is monotone in x.
        #[test]
        fn in_unit_interval_exact_and_monotone(x in any_u256(), y in any_u256(), lo in any_u256(), hi in any_u256()) {
            let b = Bounds { lo, hi, source: BoundsSource::Reference };
            let (nx, ny) = (normalise_value(x, &b), normalise_value(y, &b));
            prop_assert!(nx <= WAD);
            if x <= y { prop_assert!(nx <= ny); }
            if hi > lo {
                let c = x.clamp(lo, hi);
                prop_assert_eq!(nx, mul_div_down(c - lo, WAD, hi - lo).unwrap());
            } else {
                prop_assert_eq!(nx, U256::ZERO);
            }
        }

        #[test]
        fn column_never_panics(v in proptest::collection::vec(any_u256(), 0..60), lo in any_u256(), hi in any_u256()) {
            if let Ok((b, xs)) = normalise_column(&v, lo, hi) {
                prop_assert_eq!(xs.len(), v.len());
                prop_assert_eq!(b.source == BoundsSource::Cohort, v.len() >= N_MIN);
            }
        }
    }
}
