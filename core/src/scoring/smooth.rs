//! Smoothing over time (C4, pinned): `s_t = α·g_t + (1 − α)·s_{t−1}`, `α = 0.4`, `s_{−1} = 0`;
//! published score `S = 100·s` (points, 0–100).
//!
//! Rounding (documented choice): one floor division of the exact sum,
//! `s_t = ⌊(α·g + (10^18 − α)·s_{t−1}) / 10^18⌋` (WAD). Every seed example is exact in WAD:
//! spike 1.0 then zeros → 0.4, 0.24, 0.144; steady 0.6 → 0.24, 0.384, 0.4704, 0.52224, 0.553344,
//! 0.5720064 → 0.6; gate failures from 100 fade 60 → 36 → 21.6 → 12.96.
//! `S = 100·s` is exact (no rounding); the score leaf carries `S` as WAD points.

use crate::math::{U256, WAD};

/// α = 0.4 WAD (C4, pinned).
pub const ALPHA_WAD: U256 = U256::from_limbs([400_000_000_000_000_000, 0, 0, 0]);
/// Published points per unit of `s`: `S = 100·s` ([`crate::math::points`]).
pub use crate::math::points::POINTS_PER_UNIT;

const WAD_U128: u128 = 1_000_000_000_000_000_000;
const ALPHA_U128: u128 = 400_000_000_000_000_000;

/// Bad smoothing input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SmoothError {
    /// A score above 1 WAD (or above 100 points).
    #[error("{field}: {value} exceeds {max}")]
    AboveMax {
        /// Offending field.
        field: &'static str,
        /// Its value.
        value: U256,
        /// The maximum.
        max: U256,
    },
}

/// `⌊(α·g + (1 − α)·s_prev)⌋` in WAD; both inputs in `[0, 1]` WAD.
///
/// # Errors
/// [`SmoothError::AboveMax`] naming `previousWad` or `gatedWad` when above 1 WAD.
pub fn smooth_down(previous_wad: U256, gated_wad: U256) -> Result<U256, SmoothError> {
    for (field, v) in [("previousWad", previous_wad), ("gatedWad", gated_wad)] {
        if v > WAD {
            return Err(SmoothError::AboveMax {
                field,
                value: v,
                max: WAD,
            });
        }
    }
    Ok(U256::from(smooth_u128(
        previous_wad.to::<u128>(),
        gated_wad.to::<u128>(),
    )))
}

/// [`smooth_down`] on `u128` (inputs ≤ 10^18, so no overflow); the epoch's hot path.
pub(crate) fn smooth_u128(previous: u128, gated: u128) -> u128 {
    (ALPHA_U128 * gated + (WAD_U128 - ALPHA_U128) * previous) / WAD_U128
}

/// Published points `S = 100·s` (WAD points), exact.
pub fn published_points(s_wad: U256) -> U256 {
    s_wad.saturating_mul(U256::from(POINTS_PER_UNIT))
}

/// `s = S / 100` for a published score in WAD points (exact for every score this pipeline publishes;
/// floors otherwise).
///
/// # Errors
/// [`SmoothError::AboveMax`] when `S > 100` points.
pub fn unit_from_points(points_wad: U256, field: &'static str) -> Result<U256, SmoothError> {
    let max = WAD * U256::from(POINTS_PER_UNIT);
    if points_wad > max {
        return Err(SmoothError::AboveMax {
            field,
            value: points_wad,
            max,
        });
    }
    Ok(points_wad / U256::from(POINTS_PER_UNIT))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::parse_wad;
    use proptest::prelude::*;

    fn w(s: &str) -> U256 {
        parse_wad(s).unwrap()
    }

    fn path(gs: &[&str]) -> Vec<U256> {
        let mut s = U256::ZERO;
        gs.iter()
            .map(|g| {
                s = smooth_down(s, w(g)).unwrap();
                s
            })
            .collect()
    }

    #[test]
    fn spike_then_zeros() {
        assert_eq!(
            path(&["1", "0", "0"]),
            vec![w("0.4"), w("0.24"), w("0.144")]
        );
    }

    #[test]
    fn steady_0_6_climbs_to_0_6() {
        let p = path(&["0.6"; 6]);
        let want = [
            "0.24",
            "0.384",
            "0.4704",
            "0.52224",
            "0.553344",
            "0.5720064",
        ];
        assert_eq!(p, want.iter().map(|s| w(s)).collect::<Vec<_>>());
        // the seed's rounded display: 0.522, 0.553, 0.572
        let p = path(&["0.6"; 200]);
        assert!(p[199] <= w("0.6") && w("0.6") - p[199] < U256::from(1_000u32));
    }

    #[test]
    fn gate_failures_fade_100_60_36_21_6_12_96() {
        let mut s = WAD; // published 100
        let mut pts = vec![published_points(s)];
        for _ in 0..4 {
            s = smooth_down(s, U256::ZERO).unwrap();
            pts.push(published_points(s));
        }
        let want = ["100", "60", "36", "21.6", "12.96"];
        assert_eq!(pts, want.iter().map(|s| w(s)).collect::<Vec<_>>());
        assert_eq!(unit_from_points(w("21.6"), "p").unwrap(), w("0.216"));
    }

    #[test]
    fn rejects_above_one() {
        let e = smooth_down(WAD + U256::from(1u8), U256::ZERO).unwrap_err();
        assert!(e.to_string().starts_with("previousWad"));
        assert!(smooth_down(U256::ZERO, U256::MAX)
            .unwrap_err()
            .to_string()
            .starts_with("gatedWad"));
        assert!(unit_from_points(w("100.000000000000000001"), "previousScoreWad").is_err());
    }

    proptest! {
        #[test]
        fn stays_between_inputs(a in 0u64..=1_000_000_000_000_000_000, b in 0u64..=1_000_000_000_000_000_000) {
            let s = smooth_down(U256::from(a), U256::from(b)).unwrap();
            prop_assert!(s >= U256::from(a.min(b)) && s <= U256::from(a.max(b)));
        }
    }
}
