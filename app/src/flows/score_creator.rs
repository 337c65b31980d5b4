//! The creator share (C17), checked: what a score buys the project's creator, with FeeLanes' parameters read
//! from the chain, recomputed by `eden_core::check::check_creator` and cross-checked against
//! `FeeLanes.creatorShare` and `previewSplit`; and which final score leaf FeeLanes would record now.
//! Findings stay typed ([`eden_core::check::CreatorFinding`]); [`super::words`] says them.

use crate::chain::fee_lanes::OwnBuybacks;
use crate::error::AppError;
use alloy_primitives::{Address, B256, U256};
use eden_core::check;
pub use eden_core::check::LaneState;

/// The creator share check: core's report ([`eden_core::check::CreatorCheck`], reached through
/// `Deref`; its findings are the differences from the contract, none when everything matches) and what
/// the page's actions need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreatorCheck {
    /// Core's report.
    pub check: check::CreatorCheck,
    /// FeeLanes and the project (its token), for the actions below.
    pub lanes: Address,
    pub token: Address,
    /// `FeeLanes.creatorBalance`: what the creator has earned and not been paid yet.
    pub owed: U256,
    /// `FeeLanes.ownBuybackEscrow`: the creator's own-token buyback waiting for the keeper (§7).
    pub own_escrow: U256,
    /// The own-token buybacks swept so far.
    pub own_done: OwnBuybacks,
    /// The selected epoch's verified score leaf, when FeeLanes would record it now.
    pub record: Option<RecordScore>,
    /// The registry's adjudicator, who alone sets or revokes Verified (§4.4).
    pub adjudicator: Address,
    /// The launch's fees not yet in the lanes.
    pub pending: PendingFees,
}

/// A launch's fees not yet collected into the lanes: anyone may collect them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PendingFees {
    pub launchpad: Address,
    /// Curve fees (`Launchpad.collectFees`).
    pub curve: U256,
    /// A graduated launch's pool fees (`Launchpad.collectPoolFees`, simulated): quote for the
    /// lanes and the tokens it burns (#14).
    pub pool: Option<(U256, U256)>,
}

/// A final score leaf FeeLanes does not hold yet: `updateScore(token, epoch, score, proof)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordScore {
    pub epoch: u64,
    pub score_wad: U256,
    pub proof: Vec<B256>,
}

/// The leaf FeeLanes would record now (C17): the epoch is the latest final one, its score leaf
/// reaches the final root, and FeeLanes holds no score of this epoch or a later one yet
/// (`updateScore` reverts `StaleScore` otherwise).
pub fn record_now(state: &LaneState, leaf: Option<RecordScore>) -> Option<RecordScore> {
    let leaf = leaf?;
    let latest = state.latest_final?;
    let held = state.recorded && state.stored_epoch >= leaf.epoch;
    (leaf.epoch == latest && !held).then_some(leaf)
}

impl std::ops::Deref for CreatorCheck {
    type Target = check::CreatorCheck;
    fn deref(&self) -> &check::CreatorCheck {
        &self.check
    }
}

/// The check of the share and the example split (`eden_core::check::check_creator`).
///
/// # Errors
/// Invalid on-chain parameters or an out-of-range score, in plain words.
pub fn check_creator(
    state: LaneState,
    epoch: u64,
    epoch_score: Option<U256>,
    pre_data: bool,
) -> Result<CreatorCheck, AppError> {
    let check =
        check::check_creator(state, epoch, epoch_score, pre_data).map_err(AppError::from)?;
    Ok(CreatorCheck {
        check,
        lanes: Address::ZERO,
        token: Address::ZERO,
        owed: U256::ZERO,
        own_escrow: U256::ZERO,
        own_done: OwnBuybacks::default(),
        record: None,
        adjudicator: Address::ZERO,
        pending: PendingFees::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flows::words::{epoch_note, paid_now_note};
    use eden_core::check::LaneParams;
    use eden_core::creator::CreatorShareParams;
    use eden_core::math::WAD;

    /// The example fee of an ETH pair: 1 ETH.
    const EXAMPLE_FEE: U256 = U256::from_limbs([1_000_000_000_000_000_000, 0, 0, 0]);

    fn pct(x: u64) -> U256 {
        U256::from(x) * U256::from(10_000_000_000_000_000u64)
    }

    /// The deploy script's placeholder lanes (Deploy.s.sol): 10 / 20 / 40 %, weights 0.2 / 0.3 / 0.1, φ_LP 0.25.
    fn params() -> LaneParams {
        LaneParams {
            share: CreatorShareParams {
                f_backed: pct(20),
                f_unverified: pct(10),
                ceiling: pct(40),
            },
            scorer_weight: pct(20),
            holder_weight: pct(30),
            buyback_weight: pct(10),
            lp_share: pct(25),
        }
    }

    #[test]
    fn split_adds_up_and_follows_the_ramp() {
        let p = params();
        // S = 50 points, unverified: 10 % + 30 % × 0.5 = 25 %.
        let s = p
            .split(U256::from(50u8) * WAD, false, EXAMPLE_FEE, U256::ZERO)
            .unwrap();
        assert_eq!(s.creator_share, pct(25));
        assert_eq!(s.creator_amount, pct(25));
        assert_eq!(s.unearned, pct(15));
        assert_eq!(s.to_liquidity + s.to_creator, s.creator_amount);
        assert_eq!(
            s.to_creator + s.to_liquidity + s.to_scorers + s.to_holders + s.to_buyback,
            EXAMPLE_FEE
        );
        // The rest (75 %) pro rata 2 : 3 : 1.
        assert_eq!(s.to_scorers, pct(25));
        assert_eq!(s.to_holders, U256::from(375_000_000_000_000_000u64));
    }

    #[test]
    fn a_contract_that_disagrees_is_flagged() {
        let p = params();
        // A launch whose creator fixed a 30 % own-token buyback (§7).
        let preview = p.split(U256::ZERO, true, EXAMPLE_FEE, pct(30)).unwrap();
        let state = LaneState {
            params: p,
            verified: true,
            own_buyback_share: pct(30),
            stored_score: U256::ZERO,
            stored_epoch: 0,
            recorded: false,
            latest_final: Some(7),
            chain_share: pct(20),
            fee: EXAMPLE_FEE,
            fee_symbol: "ETH".into(),
            fee_decimals: 18,
            preview,
        };
        let c = check_creator(state.clone(), 7, Some(U256::from(80u8) * WAD), false).unwrap();
        assert!(c.findings.is_empty(), "{:?}", c.findings);
        assert_eq!(c.share_now, pct(20));
        // Verified: 20 % + 20 % × 0.8 = 36 %.
        assert_eq!(c.share_at_epoch, Some(pct(36)));
        assert_eq!(
            epoch_note(7, &state),
            " (once FeeLanes.updateScore records it; until then FeeLanes pays the floor)"
        );
        let later = LaneState {
            latest_final: Some(8),
            ..state.clone()
        };
        assert!(epoch_note(7, &later).contains("only on epoch 8"));
        let held = LaneState {
            recorded: true,
            stored_epoch: 7,
            ..state.clone()
        };
        assert!(epoch_note(7, &held).contains("holds"));
        // A recorded score of an older epoch pays the floor, like FeeLanes.currentScore.
        let stale = LaneState {
            recorded: true,
            stored_epoch: 6,
            stored_score: U256::from(90u8) * WAD,
            ..state.clone()
        };
        let c6 = check_creator(stale.clone(), 7, None, false).unwrap();
        assert_eq!((c6.current, c6.share_now), (U256::ZERO, pct(20)));
        assert!(paid_now_note(&stale).contains("no longer the latest"));
        assert_eq!(c.split.to_own_buyback, pct(15) * pct(30) / WAD);
        // A preview that ignores the launch's own-buyback share is flagged.
        let ignored = LaneState {
            own_buyback_share: U256::ZERO,
            ..state.clone()
        };
        assert_eq!(
            check_creator(ignored, 7, None, false)
                .unwrap()
                .findings
                .len(),
            1
        );
        let mut bad = state;
        bad.chain_share = pct(21);
        bad.preview.to_buyback += U256::from(1u8);
        let c = check_creator(bad, 7, None, false).unwrap();
        assert_eq!(c.findings.len(), 2, "{:?}", c.findings);
        assert!(check_creator(
            LaneState {
                stored_score: U256::from(101u8) * WAD,
                recorded: true,
                stored_epoch: 7,
                ..c.state.clone()
            },
            7,
            None,
            false
        )
        .is_err());
    }

    #[test]
    fn a_score_is_offered_for_recording_only_when_feelanes_would_take_it() {
        let state = LaneState {
            params: params(),
            verified: false,
            own_buyback_share: U256::ZERO,
            stored_score: U256::ZERO,
            stored_epoch: 0,
            recorded: false,
            latest_final: Some(7),
            chain_share: pct(10),
            fee: EXAMPLE_FEE,
            fee_symbol: "ETH".into(),
            fee_decimals: 18,
            preview: params()
                .split(U256::ZERO, false, EXAMPLE_FEE, U256::ZERO)
                .unwrap(),
        };
        let leaf = |epoch| {
            Some(RecordScore {
                epoch,
                score_wad: U256::from(60u8) * WAD,
                proof: vec![],
            })
        };
        assert_eq!(record_now(&state, leaf(7)), leaf(7));
        assert_eq!(
            record_now(&state, leaf(6)),
            None,
            "not the latest final epoch"
        );
        assert_eq!(record_now(&state, None), None, "no verified leaf");
        let held = LaneState {
            recorded: true,
            stored_epoch: 7,
            ..state.clone()
        };
        assert_eq!(record_now(&held, leaf(7)), None, "already held");
        let older = LaneState {
            recorded: true,
            stored_epoch: 6,
            ..state.clone()
        };
        assert_eq!(record_now(&older, leaf(7)), leaf(7));
        let none_final = LaneState {
            latest_final: None,
            ..state
        };
        assert_eq!(record_now(&none_final, leaf(7)), None);
    }
}
