//! The score scale (C4, C9, C10, C17): a published score is `S = 100·s` **points**, carried as a
//! WAD (80 points = `80 × 10^18`). The one definition of the scale's constants; every module that
//! converts between a unit fraction `s ∈ [0, 1]` and points uses these.

use alloy_primitives::U256;

/// Published points per unit of `s`: `S = 100·s`.
pub const POINTS_PER_UNIT: u64 = 100;

/// [`POINTS_PER_UNIT`] as a `U256` (the factor between a WAD fraction and WAD points).
pub const POINTS_PER_UNIT_U256: U256 = U256::from_limbs([POINTS_PER_UNIT, 0, 0, 0]);

/// `n` whole points as a WAD.
pub const fn points(n: u64) -> U256 {
    // n · 10^18 < 2^128 for every u64 n.
    let x = n as u128 * 1_000_000_000_000_000_000u128;
    U256::from_limbs([x as u64, (x >> 64) as u64, 0, 0])
}

/// The top of the scale: 100 points as a WAD (the largest valid score or target).
pub const MAX_POINTS: U256 = points(POINTS_PER_UNIT);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_is_100_points_of_a_wad() {
        assert_eq!(MAX_POINTS, U256::from(100u8) * crate::math::WAD);
        assert_eq!(points(0), U256::ZERO);
        assert_eq!(points(u64::MAX), U256::from(u64::MAX) * crate::math::WAD);
        assert_eq!(POINTS_PER_UNIT_U256, U256::from(100u8));
    }
}
