//! The creator share FeeLanes pays on (C17), checked: the share and the split of an example fee
//! recomputed with [`crate::creator`] from the parameters **read from FeeLanes on chain** and
//! compared with `FeeLanes.creatorShare` and `FeeLanes.previewSplit`.
//!
//! FeeLanes records a project's score only from a final score leaf of the latest final epoch, and
//! the stored score counts only while its epoch is still the latest final one
//! ([`current_score`]; otherwise the floor), so the share "now" is the one at that current score;
//! the share the selected epoch's score would buy once recorded is computed next to it.

use super::tree::CheckError;
use crate::creator::{
    creator_share_down, current_score, lane_split, CreatorError, CreatorShareParams, LaneSplit,
    LaneWeights,
};
use alloy_primitives::U256;
use serde::Serialize;

/// FeeLanes' `params()` (all WAD fractions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaneParams {
    /// The creator ramp.
    pub share: CreatorShareParams,
    /// The scorer lane's weight.
    pub scorer_weight: U256,
    /// The holder lane's weight.
    pub holder_weight: U256,
    /// The buyback lane's weight.
    pub buyback_weight: U256,
    /// φ_LP: the creator amount's share escrowed as liquidity.
    pub lp_share: U256,
}

impl LaneParams {
    /// The lane weights of [`lane_split`].
    pub fn weights(&self) -> LaneWeights {
        LaneWeights {
            scorer: self.scorer_weight,
            holder: self.holder_weight,
            buyback: self.buyback_weight,
            lp_share: self.lp_share,
        }
    }

    /// The split of `fee` over every lane at `score` (C17 and the lane weights), with the launch's
    /// own-token buyback share `own_buyback_share` (§7).
    ///
    /// # Errors
    /// Invalid parameters or a score above 100 points.
    pub fn split(
        &self,
        score: U256,
        verified: bool,
        fee: U256,
        own_buyback_share: U256,
    ) -> Result<LaneSplit, CreatorError> {
        lane_split(
            &self.share,
            &self.weights(),
            score,
            verified,
            fee,
            own_buyback_share,
        )
    }
}

/// What FeeLanes holds for one token (read from the chain).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaneState {
    /// `params()`.
    pub params: LaneParams,
    /// `verified(token)`.
    pub verified: bool,
    /// `Launchpad.ownBuybackShareOf(token)`: the launch-time own-token buyback share (WAD, §7).
    pub own_buyback_share: U256,
    /// `scoreOf(token)`, WAD points.
    pub stored_score: U256,
    /// `scoreEpochOf(token)`.
    pub stored_epoch: u64,
    /// A score was ever recorded (`scoreRecorded`).
    pub recorded: bool,
    /// The registry's latest final epoch, `None` before any.
    pub latest_final: Option<u64>,
    /// `creatorShare(token)`.
    pub chain_share: U256,
    /// The example fee: one whole unit of the launch's quote asset.
    pub fee: U256,
    /// The quote asset's symbol (display only).
    pub fee_symbol: String,
    /// The quote asset's decimals.
    pub fee_decimals: u8,
    /// `previewSplit(token, fee)`.
    pub preview: LaneSplit,
}

/// A difference between FeeLanes and the recomputation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "kind"
)]
pub enum CreatorFinding {
    /// `creatorShare` differs from the ramp recomputed from FeeLanes' parameters.
    ShareDiffers {
        /// FeeLanes'.
        #[serde(with = "crate::serde_dec::u256")]
        chain: U256,
        /// Recomputed.
        #[serde(with = "crate::serde_dec::u256")]
        recomputed: U256,
    },
    /// `previewSplit` differs from the split recomputed here.
    SplitDiffers,
}

/// The creator share check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreatorCheck {
    /// What was read.
    pub state: LaneState,
    /// The score FeeLanes pays on now (the stored one while it is the latest final epoch's, else 0).
    pub current: U256,
    /// `creator(S)` at the current score.
    pub share_now: U256,
    /// The selected epoch's score, when it has one.
    pub epoch_score: Option<U256>,
    /// `creator(S)` at the selected epoch's score.
    pub share_at_epoch: Option<U256>,
    /// The epoch's score is a pre-data score (C10): published in the project's score leaf, so FeeLanes
    /// records it like any other (C27).
    pub pre_data: bool,
    /// The selected epoch.
    pub epoch: u64,
    /// The example fee's split at the current score, recomputed.
    pub split: LaneSplit,
    /// Differences from the contract; empty when everything matches.
    pub findings: Vec<CreatorFinding>,
}

/// Recomputes the share and the example split from FeeLanes' state and compares.
///
/// # Errors
/// [`CheckError::CreatorShare`] for invalid on-chain parameters or an out-of-range score.
pub fn check_creator(
    state: LaneState,
    epoch: u64,
    epoch_score: Option<U256>,
    pre_data: bool,
) -> Result<CreatorCheck, CheckError> {
    let p = &state.params;
    let err = |at: &'static str| {
        move |e: CreatorError| CheckError::CreatorShare {
            at,
            message: e.to_string(),
        }
    };
    let current = current_score(
        state
            .recorded
            .then_some((state.stored_epoch, state.stored_score)),
        state.latest_final,
    );
    let share_now = creator_share_down(&p.share, current, state.verified).map_err(err(""))?;
    let share_at_epoch = epoch_score
        .map(|s| creator_share_down(&p.share, s, state.verified))
        .transpose()
        .map_err(err(" at this epoch's score"))?;
    let split = p
        .split(current, state.verified, state.fee, state.own_buyback_share)
        .map_err(err(" split"))?;
    let mut findings = Vec::new();
    if share_now != state.chain_share {
        findings.push(CreatorFinding::ShareDiffers {
            chain: state.chain_share,
            recomputed: share_now,
        });
    }
    if split != state.preview {
        findings.push(CreatorFinding::SplitDiffers);
    }
    Ok(CreatorCheck {
        state,
        current,
        share_now,
        epoch_score,
        share_at_epoch,
        pre_data,
        epoch,
        split,
        findings,
    })
}
