//! C17 (pinned; values decided) Creator share, §7: the score ramp.
//!
//! ```text
//! creator(S) = floor + (ceiling − floor) × S / 100,   floor = f_backed (Verified) else f_unverified
//! ```
//!
//! `S` is the latest final score in points (0–100, WAD). The share is recomputed every epoch and
//! moves both ways. The unearned part `ceiling − creator(S)` goes to the other lanes, never kept.
//!
//! **Decided:** the Tokenomics values (`f_backed`, `f_unverified`, `ceiling`) are configuration,
//! [`CreatorShareParams`]. Its [`Default`] values are **PLACEHOLDERS, not protocol facts**.
//!
//! Rounding: `creator(S) = floor + ⌊(ceiling − floor) × S / 100⌋` (down: the unearned part, which
//! goes to the other lanes, gets the remainder). Amount split of a fee `F`:
//! `creator = ⌊F × creator(S)⌋`, `unearned = ⌊F × ceiling⌋ − creator`, so the two add up to the
//! creator lane's full ceiling exactly.

use crate::math::{mul_div_down, wad_mul_down, MathError, WAD};
use alloy_primitives::U256;

/// PLACEHOLDER (not a protocol fact): the Verified ("backed") floor, 20 % of the fee.
pub const PLACEHOLDER_F_BACKED: U256 = U256::from_limbs([200_000_000_000_000_000, 0, 0, 0]);
/// PLACEHOLDER (not a protocol fact): the unverified floor, 10 % of the fee.
pub const PLACEHOLDER_F_UNVERIFIED: U256 = U256::from_limbs([100_000_000_000_000_000, 0, 0, 0]);
/// PLACEHOLDER (not a protocol fact): the ceiling at S = 100, 40 % of the fee.
pub const PLACEHOLDER_CEILING: U256 = U256::from_limbs([400_000_000_000_000_000, 0, 0, 0]);

/// 100 points as a WAD.
const HUNDRED_POINTS: U256 = crate::rewards::position::u256(100_000_000_000_000_000_000);

/// The Tokenomics values of the creator ramp (WAD fractions of a token's fee).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CreatorShareParams {
    /// `f_backed`: the floor of a Verified project.
    pub f_backed: U256,
    /// `f_unverified`: the floor of any other project.
    pub f_unverified: U256,
    /// `c̄`: the share at S = 100.
    pub ceiling: U256,
}

impl Default for CreatorShareParams {
    /// PLACEHOLDER values (20 %, 10 %, 40 %), not protocol facts: replace with the published Tokenomics.
    fn default() -> Self {
        CreatorShareParams {
            f_backed: PLACEHOLDER_F_BACKED,
            f_unverified: PLACEHOLDER_F_UNVERIFIED,
            ceiling: PLACEHOLDER_CEILING,
        }
    }
}

/// Why a creator share could not be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CreatorError {
    /// The score is above 100 points.
    #[error(
        "scorePoints must be in [0, 100] points as a WAD (at most 100000000000000000000), got {0}"
    )]
    ScoreOutOfRange(U256),
    /// A parameter breaks `f ≤ ceiling ≤ 1`.
    #[error("params.{field} = {value} is invalid: need fBacked ≤ ceiling, fUnverified ≤ ceiling, ceiling ≤ 1 (WAD)")]
    InvalidParams {
        /// The offending parameter.
        field: &'static str,
        /// Its value.
        value: U256,
    },
    /// Arithmetic failed on an absurd fee amount.
    #[error("arithmetic error in {context}: {source}")]
    Math {
        /// The step that failed.
        context: &'static str,
        /// The underlying error.
        source: MathError,
    },
}

impl CreatorShareParams {
    /// Checks `f_backed ≤ ceiling`, `f_unverified ≤ ceiling`, `ceiling ≤ 1`.
    ///
    /// # Errors
    /// [`CreatorError::InvalidParams`] naming the field.
    pub fn validate(&self) -> Result<(), CreatorError> {
        if self.ceiling > WAD {
            return Err(CreatorError::InvalidParams {
                field: "ceiling",
                value: self.ceiling,
            });
        }
        if self.f_backed > self.ceiling {
            return Err(CreatorError::InvalidParams {
                field: "fBacked",
                value: self.f_backed,
            });
        }
        if self.f_unverified > self.ceiling {
            return Err(CreatorError::InvalidParams {
                field: "fUnverified",
                value: self.f_unverified,
            });
        }
        Ok(())
    }
}

/// C17: the creator's share (WAD fraction of the fee) at score `score_points` (0–100, WAD).
///
/// # Errors
/// Score above 100; invalid params.
pub fn creator_share_down(
    params: &CreatorShareParams,
    score_points: U256,
    verified: bool,
) -> Result<U256, CreatorError> {
    params.validate()?;
    if score_points > HUNDRED_POINTS {
        return Err(CreatorError::ScoreOutOfRange(score_points));
    }
    let floor = if verified {
        params.f_backed
    } else {
        params.f_unverified
    };
    let ramp =
        mul_div_down(params.ceiling - floor, score_points, HUNDRED_POINTS).map_err(|source| {
            CreatorError::Math {
                context: "ramp",
                source,
            }
        })?;
    Ok(floor + ramp)
}

/// The creator lane of one fee, split between the creator and the other lanes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CreatorSplit {
    /// `creator(S)`, WAD.
    pub creator_share: U256,
    /// `ceiling − creator(S)`, WAD: redirected to the other lanes.
    pub unearned_share: U256,
    /// `⌊fee × creator(S)⌋`.
    pub creator_amount: U256,
    /// `⌊fee × ceiling⌋ − creator_amount`: to the other lanes.
    pub unearned_amount: U256,
}

/// C17 applied to a fee amount.
///
/// # Errors
/// As [`creator_share_down`].
pub fn creator_split(
    params: &CreatorShareParams,
    score_points: U256,
    verified: bool,
    fee: U256,
) -> Result<CreatorSplit, CreatorError> {
    let creator_share = creator_share_down(params, score_points, verified)?;
    let m = |context| move |source| CreatorError::Math { context, source };
    let creator_amount = wad_mul_down(fee, creator_share).map_err(m("fee × creator share"))?;
    let lane = wad_mul_down(fee, params.ceiling).map_err(m("fee × ceiling"))?;
    Ok(CreatorSplit {
        creator_share,
        unearned_share: params.ceiling - creator_share,
        creator_amount,
        unearned_amount: lane - creator_amount,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pct(x: u64) -> U256 {
        U256::from(x) * U256::from(10_000_000_000_000_000u64)
    }

    fn pts(x: u64) -> U256 {
        U256::from(x) * WAD
    }

    #[test]
    fn hundred_points_constant() {
        assert_eq!(HUNDRED_POINTS, pts(100));
    }

    #[test]
    fn ramp_from_floor_to_ceiling() {
        let p = CreatorShareParams::default();
        assert_eq!(creator_share_down(&p, U256::ZERO, false).unwrap(), pct(10));
        assert_eq!(creator_share_down(&p, U256::ZERO, true).unwrap(), pct(20));
        assert_eq!(creator_share_down(&p, pts(100), false).unwrap(), pct(40));
        assert_eq!(creator_share_down(&p, pts(100), true).unwrap(), pct(40));
        assert_eq!(creator_share_down(&p, pts(50), false).unwrap(), pct(25));
        assert_eq!(creator_share_down(&p, pts(50), true).unwrap(), pct(30));
        // Rounds down: (0.3 × 1/3 points… ) S = 1e-18 points → 0 ramp.
        assert_eq!(
            creator_share_down(&p, U256::from(1u8), false).unwrap(),
            pct(10)
        );
    }

    #[test]
    fn split_adds_up_to_the_lane() {
        let p = CreatorShareParams::default();
        let s = creator_split(&p, pts(50), false, U256::from(1_000_001u64)).unwrap();
        assert_eq!(s.creator_share + s.unearned_share, p.ceiling);
        assert_eq!(s.creator_amount, U256::from(250_000u64));
        assert_eq!(s.creator_amount + s.unearned_amount, U256::from(400_000u64));
    }

    #[test]
    fn errors() {
        let p = CreatorShareParams::default();
        assert!(matches!(
            creator_share_down(&p, pts(100) + U256::from(1u8), true),
            Err(CreatorError::ScoreOutOfRange(_))
        ));
        let bad = CreatorShareParams {
            f_backed: pct(50),
            ..p
        };
        let e = creator_share_down(&bad, U256::ZERO, true).unwrap_err();
        assert!(e.to_string().contains("fBacked"), "{e}");
        let bad = CreatorShareParams {
            ceiling: pct(101),
            ..p
        };
        assert!(creator_share_down(&bad, U256::ZERO, true)
            .unwrap_err()
            .to_string()
            .contains("ceiling"));
    }
}
