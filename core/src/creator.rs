//! C17 (pinned; values decided) Creator share, §7: the score ramp.
//!
//! ```text
//! creator(S) = floor + (ceiling − floor) × S / 100,   floor = f_backed (Verified) else f_unverified
//! ```
//!
//! `S` is the latest final score in points (0–100, WAD). The share is recomputed every epoch and
//! moves both ways. The unearned part `ceiling − creator(S)` goes to the other lanes, never kept.
//!
//! **Which score counts** ([`current_score`], decided after the contract review): the score
//! recorded in `FeeLanes` counts only while its epoch is the registry's latest final epoch; until
//! the latest one is recorded, `S = 0`. So nobody gains by not recording a newer, lower score.
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

/// 100 points as a WAD ([`crate::math::points::MAX_POINTS`]).
use crate::math::points::MAX_POINTS as HUNDRED_POINTS;

/// The Tokenomics values of the creator ramp (WAD fractions of a token's fee).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct CreatorShareParams {
    /// `f_backed`: the floor of a Verified project.
    #[serde(with = "crate::serde_dec::u256")]
    pub f_backed: U256,
    /// `f_unverified`: the floor of any other project.
    #[serde(with = "crate::serde_dec::u256")]
    pub f_unverified: U256,
    /// `c̄`: the share at S = 100.
    #[serde(with = "crate::serde_dec::u256")]
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
    /// The lane weights cannot split a fee.
    #[error("lanes.{0}")]
    InvalidLanes(&'static str),
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

/// The score `FeeLanes.currentScore` uses (C17): the recorded `(epoch, score)` while its epoch is
/// the latest final epoch (`latest_final`, `None` before any), else 0.
pub fn current_score(recorded: Option<(u64, U256)>, latest_final: Option<u64>) -> U256 {
    match (recorded, latest_final) {
        (Some((epoch, score)), Some(latest)) if epoch == latest => score,
        _ => U256::ZERO,
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct CreatorSplit {
    /// `creator(S)`, WAD.
    #[serde(with = "crate::serde_dec::u256")]
    pub creator_share: U256,
    /// `ceiling − creator(S)`, WAD: redirected to the other lanes.
    #[serde(with = "crate::serde_dec::u256")]
    pub unearned_share: U256,
    /// `⌊fee × creator(S)⌋`.
    #[serde(with = "crate::serde_dec::u256")]
    pub creator_amount: U256,
    /// `⌊fee × ceiling⌋ − creator_amount`: to the other lanes.
    #[serde(with = "crate::serde_dec::u256")]
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

/// The fee lanes' weights besides the creator ramp (WAD fractions; `FeeLanes.params`): the other lanes
/// share what the creator did not take pro rata to `scorer : holder : buyback`, and `φ_LP` of the
/// creator's amount is escrowed as liquidity. Values are configuration (decided; see `docs/protocol.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaneWeights {
    /// Scorer reward pool weight.
    pub scorer: U256,
    /// Holder payout weight.
    pub holder: U256,
    /// ROOT buyback weight (takes the rounding dust).
    pub buyback: U256,
    /// `φ_LP`: the part of the creator's amount escrowed as liquidity.
    pub lp_share: U256,
}

/// One fee split over every lane, exactly as `FeeLanes.previewSplit` does it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LaneSplit {
    /// `creator(S)`, WAD.
    pub creator_share: U256,
    /// `⌊fee × creator(S)⌋`.
    pub creator_amount: U256,
    /// `⌊fee × ceiling⌋ − creator_amount` (already inside the other lanes' amounts).
    pub unearned: U256,
    /// `payout − to_own_buyback`, `payout = creator_amount − to_liquidity`: paid to the creator.
    pub to_creator: U256,
    /// `⌊creator_amount × φ_LP⌋`: escrowed as liquidity.
    pub to_liquidity: U256,
    /// `⌊payout × own-buyback share⌋`: escrowed to buy back and burn the creator's own token (§7).
    pub to_own_buyback: U256,
    /// `⌊rest × scorer / Σw⌋`, `rest = fee − creator_amount`.
    pub to_scorers: U256,
    /// `⌊rest × holder / Σw⌋`.
    pub to_holders: U256,
    /// `rest − to_scorers − to_holders` (takes the dust).
    pub to_buyback: U256,
}

/// The largest own-token buyback share a creator may fix at launch (`Launchpad.MAX_OWN_BUYBACK_SHARE`,
/// WAD of the creator's payout; decided #14: at least half of what the creator earns is paid out).
pub const MAX_OWN_BUYBACK_SHARE: U256 = U256::from_limbs([500_000_000_000_000_000, 0, 0, 0]);

/// C17 with the lanes: the split of `fee` at score `score_points` (every part rounds down except the
/// buyback, which takes the dust, so the parts add up to `fee` exactly). `own_buyback_share` (WAD) is the
/// launch's own-token buyback share (§7, fixed at launch): of the creator's payout after the φ_LP escrow,
/// `⌊payout × share⌋` is escrowed to buy back and burn the token (decided #14), the rest is the creator's.
///
/// # Errors
/// As [`creator_share_down`]; a zero total lane weight, `φ_LP > 1` or an own-buyback share above 1 is
/// [`CreatorError::InvalidLanes`].
pub fn lane_split(
    params: &CreatorShareParams,
    lanes: &LaneWeights,
    score_points: U256,
    verified: bool,
    fee: U256,
    own_buyback_share: U256,
) -> Result<LaneSplit, CreatorError> {
    if lanes.lp_share > WAD {
        return Err(CreatorError::InvalidLanes(
            "lpShare: must be at most 1 (10^18)",
        ));
    }
    if own_buyback_share > WAD {
        return Err(CreatorError::InvalidLanes(
            "ownBuybackShare: must be at most 1 (10^18)",
        ));
    }
    let weights = lanes
        .scorer
        .checked_add(lanes.holder)
        .and_then(|w| w.checked_add(lanes.buyback))
        .filter(|w| !w.is_zero())
        .ok_or(CreatorError::InvalidLanes(
            "scorer + holder + buyback: the weights must sum to more than 0 (without overflow)",
        ))?;
    let c = creator_split(params, score_points, verified, fee)?;
    let m = |context| move |source| CreatorError::Math { context, source };
    let to_liquidity =
        mul_div_down(c.creator_amount, lanes.lp_share, WAD).map_err(m("creator amount × φ_LP"))?;
    let payout = c.creator_amount - to_liquidity; // φ_LP ≤ 1
    let to_own_buyback = mul_div_down(payout, own_buyback_share, WAD)
        .map_err(m("creator payout × own-buyback share"))?;
    let rest = fee - c.creator_amount; // creator(S) ≤ ceiling ≤ 1
    let to_scorers =
        mul_div_down(rest, lanes.scorer, weights).map_err(m("rest × scorer weight"))?;
    let to_holders =
        mul_div_down(rest, lanes.holder, weights).map_err(m("rest × holder weight"))?;
    Ok(LaneSplit {
        creator_share: c.creator_share,
        creator_amount: c.creator_amount,
        unearned: c.unearned_amount,
        to_creator: payout - to_own_buyback,
        to_liquidity,
        to_own_buyback,
        to_scorers,
        to_holders,
        to_buyback: rest - to_scorers - to_holders,
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

    /// The FeeLanes placeholder lanes: weights 0.2 / 0.3 / 0.1, φ_LP = 0.25.
    fn lanes() -> LaneWeights {
        LaneWeights {
            scorer: pct(20),
            holder: pct(30),
            buyback: pct(10),
            lp_share: pct(25),
        }
    }

    #[test]
    fn lane_split_adds_up_and_follows_the_ramp() {
        let p = CreatorShareParams::default();
        // S = 50 points, unverified: 10 % + 30 % × 0.5 = 25 %.
        let s = lane_split(&p, &lanes(), pts(50), false, WAD, U256::ZERO).unwrap();
        assert_eq!(
            (s.creator_share, s.creator_amount, s.unearned),
            (pct(25), pct(25), pct(15))
        );
        assert_eq!(s.to_liquidity, U256::from(62_500_000_000_000_000u64));
        assert_eq!(s.to_liquidity + s.to_creator, s.creator_amount);
        assert_eq!(s.to_own_buyback, U256::ZERO);
        // The rest (75 %) pro rata 2 : 3 : 1.
        assert_eq!(
            (s.to_scorers, s.to_holders),
            (pct(25), U256::from(375_000_000_000_000_000u64))
        );
        assert_eq!(
            s.to_creator + s.to_liquidity + s.to_scorers + s.to_holders + s.to_buyback,
            WAD
        );
        // Dust goes to the buyback: 7 wei at 1/6, 3/6, 2/6 of 7 − 1.
        let d = lane_split(&p, &lanes(), U256::ZERO, false, U256::from(7u8), U256::ZERO).unwrap();
        assert_eq!(
            (d.to_scorers, d.to_holders, d.to_buyback),
            (U256::from(2u8), U256::from(3u8), U256::from(2u8))
        );
        let bad = LaneWeights {
            scorer: U256::ZERO,
            holder: U256::ZERO,
            buyback: U256::ZERO,
            ..lanes()
        };
        assert!(lane_split(&p, &bad, U256::ZERO, false, WAD, U256::ZERO)
            .unwrap_err()
            .to_string()
            .starts_with("lanes.scorer + holder + buyback"));
        let lp = LaneWeights {
            lp_share: WAD + U256::from(1u8),
            ..lanes()
        };
        assert!(lane_split(&p, &lp, U256::ZERO, false, WAD, U256::ZERO)
            .unwrap_err()
            .to_string()
            .starts_with("lanes.lpShare"));
        assert!(
            lane_split(&p, &lanes(), U256::ZERO, false, WAD, WAD + U256::from(1u8))
                .unwrap_err()
                .to_string()
                .starts_with("lanes.ownBuybackShare")
        );
    }

    /// §7 (decided #14), mirrored by FeeLanes.t.sol `test_split_ownBuyback_ofThePayoutAfterLiquidity`: a
    /// 0.01 ETH fee at S = 0, unverified (10 %), φ_LP 25 %, a 30 % own-buyback share: of the 0.001 ETH creator
    /// amount, 0.00025 is escrowed as liquidity, 0.000225 buys back the token, 0.000525 is the creator's.
    #[test]
    fn own_buyback_takes_its_share_of_the_payout_after_liquidity() {
        let finney = |n: u64| U256::from(n) * U256::from(1_000_000_000_000u64); // 10^-6 ETH
        let s = lane_split(
            &CreatorShareParams::default(),
            &lanes(),
            U256::ZERO,
            false,
            finney(10_000),
            pct(30),
        )
        .unwrap();
        assert_eq!(s.creator_amount, finney(1_000));
        assert_eq!(
            (s.to_liquidity, s.to_own_buyback, s.to_creator),
            (finney(250), finney(225), finney(525))
        );
        assert_eq!(MAX_OWN_BUYBACK_SHARE, pct(50));
    }

    proptest::proptest! {
        /// Every fee is split into parts that add up to it exactly, whatever the weights and score.
        #[test]
        fn lane_split_conserves_the_fee(fee in proptest::num::u128::ANY, score in 0u64..=100, w in proptest::array::uniform3(0u64..1_000_000), lp in 0u64..=100, own in 0u64..=50, verified: bool) {
            let lanes = LaneWeights { scorer: U256::from(w[0]), holder: U256::from(w[1]), buyback: U256::from(w[2]) + U256::from(1u8), lp_share: pct(lp) };
            let s = lane_split(&CreatorShareParams::default(), &lanes, pts(score), verified, U256::from(fee), pct(own)).unwrap();
            proptest::prop_assert_eq!(s.to_creator + s.to_liquidity + s.to_own_buyback + s.to_scorers + s.to_holders + s.to_buyback, U256::from(fee));
            proptest::prop_assert!(s.to_creator >= s.to_own_buyback);
            proptest::prop_assert!(s.creator_amount + s.unearned <= U256::from(fee));
        }
    }

    #[test]
    fn only_the_latest_final_epochs_score_counts() {
        let s = U256::from(90u8) * U256::from(10u8).pow(U256::from(18u8));
        assert_eq!(current_score(Some((7, s)), Some(7)), s);
        // A newer epoch is final and not recorded: the old score no longer counts.
        assert_eq!(current_score(Some((7, s)), Some(8)), U256::ZERO);
        assert_eq!(current_score(None, Some(8)), U256::ZERO);
        assert_eq!(current_score(Some((0, s)), None), U256::ZERO);
        assert_eq!(current_score(Some((0, s)), Some(0)), s);
    }
}
