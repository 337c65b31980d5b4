//! The displayed split (B3, pinned): `r = 1.0001^meanTick`, `shareA = r / (1 + r)`,
//! `shareB = 1 − shareA`, as WADs. Not an average of percentages; the live split is the same
//! formula on the current `d`.
//!
//! Decided: `r` is computed exactly through the v4 sqrt price, `sqrtP = getSqrtPriceAtTick(tick)`
//! (Q64.96, so `r = sqrtP² / 2^192`), and `shareA = floor(sqrtP² × 10^18 / (sqrtP² + 2^192))` in
//! 512-bit integers. A tick beyond `±887,272` is clamped to it: the floor there is already
//! `10^18 − 1` (above) or `0` (below), exactly what the unclamped value floors to.

use crate::math::WAD;
use crate::uniswap::tick_math::{get_sqrt_price_at_tick, MAX_TICK, MIN_TICK};
use alloy_primitives::{U256, U512};

/// `shareA = r / (1 + r)` with `r = 1.0001^tick`, as a WAD rounded down.
pub fn share_a_wad(tick: i64) -> U256 {
    let t = tick.clamp(i64::from(MIN_TICK), i64::from(MAX_TICK));
    // In range after the clamp: cannot fail.
    let Ok(sqrt_p) = get_sqrt_price_at_tick(t) else {
        return U256::ZERO;
    };
    let p2: U512 = sqrt_p.widening_mul(sqrt_p); // < 2^320
    let num: U512 = p2 * U512::from(WAD); // < 2^380
    let den: U512 = p2 + (U512::from(1u8) << 192);
    // The quotient is below 10^18.
    U256::checked_from_limbs_slice((num / den).as_limbs()).unwrap_or(WAD)
}

/// `(shareA, shareB)` with `shareB = 10^18 − shareA`.
pub fn split_wad(tick: i64) -> (U256, U256) {
    let a = share_a_wad(tick);
    (a, WAD - a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::format_wad;
    use proptest::prelude::*;

    #[test]
    fn even_at_zero() {
        assert_eq!(split_wad(0), (WAD / U256::from(2u8), WAD / U256::from(2u8)));
    }

    #[test]
    fn known_splits() {
        // 1.0001^6932 ≈ 2.00003: A is worth about twice B, a two-thirds split. Matches
        // r / (1 + r) computed in 60-digit decimal to all 18 places.
        assert_eq!(format_wad(share_a_wad(6_932)), "0.666670702599016194");
        assert_eq!(format_wad(share_a_wad(-6_932)), "0.333329297400983805");
        // One tick ≈ 0.01 % of the price ratio, ~0.0025 percentage points of the split:
        // 1.0001 / 2.0001 − 0.5 = 0.000024998750062496875…
        assert_eq!(
            share_a_wad(1) - share_a_wad(0),
            U256::from(24_998_750_062_496u64)
        );
    }

    #[test]
    fn extremes_and_clamp() {
        assert_eq!(share_a_wad(i64::from(MAX_TICK)), WAD - U256::from(1u8));
        assert_eq!(share_a_wad(2 * i64::from(MAX_TICK)), WAD - U256::from(1u8));
        assert_eq!(share_a_wad(i64::MAX), WAD - U256::from(1u8));
        assert_eq!(share_a_wad(i64::from(MIN_TICK)), U256::ZERO);
        assert_eq!(share_a_wad(i64::MIN), U256::ZERO);
        // Already saturated well inside the range.
        assert_eq!(share_a_wad(500_000), WAD - U256::from(1u8));
    }

    proptest! {
        /// Monotone in the tick and nearly symmetric: shareA(t) + shareA(−t) ∈ [1 − 2e-18, 1].
        #[test]
        fn monotone_and_symmetric(t in -900_000i64..900_000) {
            prop_assert!(share_a_wad(t) <= share_a_wad(t + 1));
            let sum = share_a_wad(t) + share_a_wad(-t);
            prop_assert!(sum <= WAD && sum + U256::from(2u8) >= WAD, "{} {}", t, sum);
        }
    }
}
