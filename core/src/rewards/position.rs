//! C12 (pinned) Positions and weight, §5.2.
//!
//! A position starts earning when its quality grade is proven against a **final** root and ends
//! [`POSITION_DURATION`] (30 days) later, at an unstake request, or when a re-score replaces it.
//! One open position per scorer per token. Its weight is
//!
//! ```text
//! ω = q_eff × sqrt(σ),   q_eff = q·c (0 when q < 0.3),   σ = 2,500 ROOT for everyone
//! ```
//!
//! **Decided:** the 0.3 floor applies to the thesis quality `q` (as in C9's counting rule and
//! §6.1 "a thesis below quality 0.3 earns nothing"); `c` then scales the weight.
//! Units: `q_eff` is a WAD; `sqrt(σ)` is computed in WAD math, `sqrt_wad(x) = isqrt(x × 10^18)`,
//! so `sqrt(2,500 ROOT) = 50 × 10^18` exactly and `ω` is a WAD (q 0.8 → ω = 40 × 10^18).
//! Rounding: `q_eff = ⌊q·c⌋`, `ω = ⌊q_eff·sqrt(σ)⌋` (WAD products, down; exact for the σ in use).

use super::{math, RewardsError};
use crate::math::{wad_mul_down, WAD};
use alloy_primitives::{Address, U256};

/// How long a position earns after its proof: 30 days, in seconds.
pub const POSITION_DURATION: u64 = 30 * 24 * 60 * 60;
/// Theses below quality 0.3 (WAD) carry no weight.
pub const QUALITY_FLOOR: U256 = U256::from_limbs([300_000_000_000_000_000, 0, 0, 0]);
/// Every scorer's stake `σ`: 2,500 ROOT (18 decimals).
pub const SCORER_STAKE: U256 = u256(2_500_000_000_000_000_000_000);
/// `sqrt_wad(SCORER_STAKE)` = 50 × 10^18.
pub const SQRT_SCORER_STAKE: U256 = u256(50_000_000_000_000_000_000);

/// How long after the score (or after its grading epoch's proposal) a grade can be proven:
/// `ScorerRegistry.PROVE_WINDOW`, 30 days.
pub const PROVE_WINDOW: u64 = 30 * 24 * 60 * 60;

/// C12 (decided after the second review, issue 35 item 3): the last second a leaf of an epoch
/// first proposed at `first_proposed` and currently proposed at `proposed` can prove a score made
/// at `scored_at`. `PROVE_WINDOW` after the epoch's current proposal when the epoch was first
/// proposed within `PROVE_WINDOW` of the score, else `PROVE_WINDOW` after the score: an upheld
/// challenge and a late re-proposal cannot lock a score out (30 days after a proposal covers its
/// worst-case finality of 23 days), and an epoch proposed too late extends nothing. Saturates at
/// `u64::MAX` (`ScorerRegistry.proveDeadline`).
pub fn prove_deadline(scored_at: u64, first_proposed: u64, proposed: u64) -> u64 {
    let base = scored_at.saturating_add(PROVE_WINDOW);
    if first_proposed > base {
        return base;
    }
    proposed.max(scored_at).saturating_add(PROVE_WINDOW)
}

/// A `u128` as a `U256`, in const context.
pub(crate) const fn u256(x: u128) -> U256 {
    U256::from_limbs([x as u64, (x >> 64) as u64, 0, 0])
}

/// `⌊sqrt(n)⌋` by integer Newton iteration (no floats).
pub fn isqrt(n: U256) -> U256 {
    if n < U256::from(2u8) {
        return n;
    }
    // x0 = 2^⌈bits/2⌉ ≥ sqrt(n); Newton decreases monotonically to ⌊sqrt(n)⌋.
    let mut x = U256::from(1u8) << n.bit_len().div_ceil(2);
    loop {
        let y = (x + n / x) >> 1;
        if y >= x {
            return x;
        }
        x = y;
    }
}

/// `⌊sqrt(x)⌋` of a WAD, as a WAD: `isqrt(x × 10^18)`.
///
/// # Errors
/// Overflow when `x × 10^18` exceeds 256 bits.
pub fn sqrt_wad(x: U256) -> Result<U256, RewardsError> {
    let scaled = x.checked_mul(WAD).ok_or(RewardsError::Math {
        context: "sqrt_wad",
        source: crate::math::MathError::Overflow,
    })?;
    Ok(isqrt(scaled))
}

fn check_fraction(field: &'static str, value: U256) -> Result<(), RewardsError> {
    if value > WAD {
        return Err(RewardsError::FractionOutOfRange { field, value });
    }
    Ok(())
}

/// `q_eff = ⌊q·c⌋`, or 0 when `q < 0.3` (WAD).
///
/// # Errors
/// `quality` or `multiplier` outside `[0, 1]`.
pub fn effective_quality(quality: U256, multiplier: U256) -> Result<U256, RewardsError> {
    check_fraction("quality", quality)?;
    check_fraction("multiplier", multiplier)?;
    if quality < QUALITY_FLOOR {
        return Ok(U256::ZERO);
    }
    wad_mul_down(quality, multiplier).map_err(math("q·c"))
}

/// `ω = ⌊q_eff × sqrt(σ)⌋` with `σ = 2,500 ROOT` (WAD).
///
/// # Errors
/// `quality` or `multiplier` outside `[0, 1]`.
pub fn weight(quality: U256, multiplier: U256) -> Result<U256, RewardsError> {
    let q_eff = effective_quality(quality, multiplier)?;
    wad_mul_down(q_eff, SQRT_SCORER_STAKE).map_err(math("ω"))
}

/// Why a position ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PositionEnd {
    /// 30 days after its start.
    Expired,
    /// The scorer requested an unstake.
    Unstaked,
    /// A re-score replaced it.
    Replaced,
}

/// One scorer's open position on a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// The scorer's wallet.
    pub scorer: Address,
    /// `ω`, WAD.
    pub weight: U256,
    /// When it started earning (the proof against a final root).
    pub start: u64,
    /// `start + 30 days`.
    pub end: u64,
    /// The accumulator value `A` when it last settled.
    pub snapshot: U256,
}

#[cfg(test)]
mod tests {
    /// `ScorerRegistry.t.sol` `test_secondReview_aDisputedGradeIsNotLockedOut`'s numbers.
    #[test]
    fn a_disputed_grade_is_not_locked_out() {
        const DAY: u64 = 86_400;
        let at = 1_800_000_000;
        // Undisputed, proposed a day after the score: 30 days from the proposal.
        assert_eq!(prove_deadline(at, at + DAY, at + DAY), at + 31 * DAY);
        // First proposed a day after, re-proposed after an upheld challenge on day 29.
        assert_eq!(prove_deadline(at, at + DAY, at + 29 * DAY), at + 59 * DAY);
        // First proposed after the score's window: nothing is extended.
        assert_eq!(
            prove_deadline(at, at + 30 * DAY + 1, at + 30 * DAY + 1),
            at + 30 * DAY
        );
        assert_eq!(
            prove_deadline(at, at + 30 * DAY, at + 40 * DAY),
            at + 70 * DAY
        );
        assert_eq!(prove_deadline(u64::MAX - 1, 0, u64::MAX), u64::MAX);
    }

    use super::*;
    use crate::rewards::test_util::{milli, wad};
    use proptest::prelude::*;

    #[test]
    fn constants() {
        assert_eq!(SCORER_STAKE, wad(2_500));
        assert_eq!(SQRT_SCORER_STAKE, wad(50));
        assert_eq!(sqrt_wad(SCORER_STAKE).unwrap(), SQRT_SCORER_STAKE);
        assert_eq!(POSITION_DURATION, 2_592_000);
    }

    #[test]
    fn seed_weights_c13() {
        // q = 0.8, 0.6, 0.9 (c = 1) → ω = 40, 30, 45.
        assert_eq!(weight(milli(800), WAD).unwrap(), wad(40));
        assert_eq!(weight(milli(600), WAD).unwrap(), wad(30));
        assert_eq!(weight(milli(900), WAD).unwrap(), wad(45));
    }

    #[test]
    fn floor_and_multiplier() {
        assert_eq!(weight(milli(299), WAD).unwrap(), U256::ZERO);
        assert_eq!(weight(milli(300), WAD).unwrap(), wad(15));
        assert_eq!(weight(milli(800), milli(500)).unwrap(), wad(20));
        assert_eq!(weight(milli(800), U256::ZERO).unwrap(), U256::ZERO);
        let e = weight(milli(1001), WAD).unwrap_err();
        assert!(e.to_string().contains("quality"));
        let e = weight(WAD, milli(1001)).unwrap_err();
        assert!(e.to_string().contains("multiplier"));
    }

    #[test]
    fn isqrt_small() {
        let cases = [
            (0u64, 0u64),
            (1, 1),
            (2, 1),
            (3, 1),
            (4, 2),
            (15, 3),
            (16, 4),
            (17, 4),
            (99, 9),
            (100, 10),
        ];
        for (n, r) in cases {
            assert_eq!(isqrt(U256::from(n)), U256::from(r), "{n}");
        }
        assert_eq!(isqrt(U256::MAX), (U256::from(1u8) << 128) - U256::from(1u8));
    }

    proptest! {
        #[test]
        fn isqrt_is_floor(limbs in any::<[u64; 4]>()) {
            let n = U256::from_limbs(limbs);
            let r = isqrt(n);
            prop_assert!(r.widening_mul::<256, 4, 512, 8>(r) <= alloy_primitives::U512::from(n));
            let r1 = r + U256::from(1u8);
            prop_assert!(r1.widening_mul::<256, 4, 512, 8>(r1) > alloy_primitives::U512::from(n));
        }
    }
}
