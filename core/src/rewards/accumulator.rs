//! C14 (pinned) Accumulator, §5.4.
//!
//! Every event that changes `W` or `D` first advances the token to that instant, so both are
//! constant on each segment `[t0, t1)`. Per segment, with `R` the amount the drip released in it
//! (C11) and `ACC = 10^18`:
//!
//! ```text
//! A += ⌊R × ACC / D⌋
//! returned = R − ⌈R × W / D⌉        (all of R when W = 0)
//! owed_k = ⌊ω_k × (A − A_k,snap) / ACC⌋
//! ```
//!
//! **Decided (rounding):** the scorers' part `R·W/D` is rounded **up** before it is subtracted, so
//! `returned` rounds down. Then per segment `returned + W·ΔA/ACC ≤ R` holds exactly (the scorers
//! can never be owed more than `⌈R·W/D⌉`), and the pool stays solvent over any number of
//! segments. What is neither returned nor owed (the index's floor, each owed amount's floor) is
//! **dust**: it stays in the pool and is tracked by the ledger ([`super::Ledger`]).

use super::{math, RewardsError};
use crate::math::{checked_sub, mul_div_down, mul_div_up};
use alloy_primitives::U256;

/// The accumulator scale `ACC = 10^18`.
pub const ACC: U256 = U256::from_limbs([1_000_000_000_000_000_000, 0, 0, 0]);

/// The effect of one segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SegmentOutcome {
    /// `⌊R·ACC/D⌋`, added to `A` (0 when `W = 0`).
    pub index_increment: U256,
    /// `R − ⌈R·W/D⌉`, or `R` when `W = 0`.
    pub returned: U256,
}

/// C14 for one segment releasing `reward` with constant `total_weight` (W) and `denominator` (D ≥ W).
///
/// # Errors
/// Overflow on absurd amounts; `D < W` or `D = 0 < W` is reported as arithmetic error.
pub fn segment(
    reward: U256,
    total_weight: U256,
    denominator: U256,
) -> Result<SegmentOutcome, RewardsError> {
    if total_weight.is_zero() {
        return Ok(SegmentOutcome {
            index_increment: U256::ZERO,
            returned: reward,
        });
    }
    let index_increment = mul_div_down(reward, ACC, denominator).map_err(math("R·ACC/D"))?;
    let scorers = mul_div_up(reward, total_weight, denominator).map_err(math("R·W/D"))?;
    let returned = checked_sub(reward, scorers).map_err(math("R − R·W/D (needs D ≥ W)"))?;
    Ok(SegmentOutcome {
        index_increment,
        returned,
    })
}

/// `⌊ω × (A − A_snap) / ACC⌋`.
///
/// # Errors
/// `A < A_snap` (a corrupt snapshot) or overflow.
pub fn owed_down(weight: U256, index: U256, snapshot: U256) -> Result<U256, RewardsError> {
    let delta = checked_sub(index, snapshot).map_err(math("A − A_snap"))?;
    mul_div_down(weight, delta, ACC).map_err(math("owed"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rewards::test_util::wad;

    #[test]
    fn seed_pool_one_segment() {
        // ω = 40, 30, 45: W = 115, D = 900. R = 9,000,000 units.
        let r = U256::from(9_000_000u64);
        let s = segment(r, wad(115), wad(900)).unwrap();
        assert_eq!(s.index_increment, U256::from(10_000u64)); // 9e6·1e18 / 900e18
        assert_eq!(
            owed_down(wad(40), s.index_increment, U256::ZERO).unwrap(),
            U256::from(400_000u64)
        );
        assert_eq!(
            owed_down(wad(30), s.index_increment, U256::ZERO).unwrap(),
            U256::from(300_000u64)
        );
        assert_eq!(
            owed_down(wad(45), s.index_increment, U256::ZERO).unwrap(),
            U256::from(450_000u64)
        );
        assert_eq!(s.returned, U256::from(7_850_000u64));
    }

    #[test]
    fn no_weight_returns_everything() {
        let s = segment(U256::from(5u8), U256::ZERO, U256::ZERO).unwrap();
        assert_eq!(
            s,
            SegmentOutcome {
                index_increment: U256::ZERO,
                returned: U256::from(5u8)
            }
        );
    }

    #[test]
    fn rounding_is_solvent() {
        // R = 1, W = 115, D = 900: scorers ⌈0.127⌉ = 1, returned 0, index 0 → 1 unit of dust.
        let s = segment(U256::from(1u8), wad(115), wad(900)).unwrap();
        assert_eq!(s.returned, U256::ZERO);
        assert!(segment(U256::from(1u8), wad(2), wad(1)).is_err());
    }
}
