//! `scores` (C17, C27): record in the fee lanes each launch's published score of the **latest** final epoch,
//! never an older one. The score and its proof come from the epoch's bundle, fetched from the publications and
//! checked to give the final root before anything is sent.

use super::look::Eye;
use super::{Due, Duty, KeeperDuty, Memory, Outcome, PassAt, Weigh};
use crate::abi::FeeLanes::{self, NotLatestFinal, StaleScore};
use crate::error::Result;
use crate::publication::Publications;
use alloy::primitives::{Address, B256, U256};
use alloy::sol_types::{SolCall, SolError};
use eden_chain::lanes::Parts;
use eden_core::scoring::EpochTree;
use std::collections::HashMap;
use std::sync::Arc;

/// The duty.
pub(super) struct Scores;

/// A final epoch's score leaves (one per project: its published score, C27), checked against its final root.
#[derive(Debug)]
pub(super) struct FinalScores {
    tree: EpochTree,
    scores: HashMap<Address, (U256, B256)>,
}

/// The latest final epoch, the launches whose recorded score is older, and its score table when one is.
#[derive(Debug)]
pub(super) struct Seen {
    lanes: Address,
    epoch: u64,
    /// Each launch whose recorded score is not the latest final's, with the epoch it holds (`None`: none).
    stale: Vec<(Address, Option<u64>)>,
    /// The latest final epoch's checked table, read only when a launch is stale; why not, when it could not be.
    table: Option<std::result::Result<Arc<FinalScores>, String>>,
}

impl KeeperDuty for Scores {
    const DUTY: Duty = Duty::Scores;
    type Seen = Option<Seen>;

    async fn look(eye: &mut Eye<'_>) -> Result<Option<Seen>> {
        let Some(lanes) = eye.chain.net.contracts.fee_lanes else {
            return Ok(None);
        };
        let registry = eye.chain.net.contracts.epoch_registry;
        let Some((epoch, root)) = eden_chain::epochs::latest_final(eye.chain, registry).await?
        else {
            return Ok(None);
        };
        let stale: Vec<_> = eye
            .lanes(Parts::LANES)
            .await?
            .into_iter()
            .filter_map(|l| {
                let h = l.lanes?;
                (!h.score_recorded || h.score_epoch < epoch)
                    .then_some((l.token, h.score_recorded.then_some(h.score_epoch)))
            })
            .collect();
        let table = if stale.is_empty() {
            None
        } else {
            Some(final_scores(eye.pubs, eye.memory, epoch, root).await)
        };
        Ok(Some(Seen {
            lanes,
            epoch,
            stale,
            table,
        }))
    }

    fn due(seen: &Option<Seen>, _at: &PassAt) -> Vec<Due> {
        let Some(seen) = seen else {
            return vec![];
        };
        let epoch = seen.epoch;
        let table = match &seen.table {
            None => return vec![],
            Some(Ok(t)) => t,
            Some(Err(reason)) => {
                return vec![Due::Blocked {
                    signature: FeeLanes::updateScoreCall::SIGNATURE,
                    target: format!("epoch {epoch}"),
                    why: "the latest final epoch's scores are needed to record them".into(),
                    outcome: Outcome::Unavailable {
                        reason: reason.clone(),
                    },
                }]
            }
        };
        let mut due = Vec::new();
        for &(token, held) in &seen.stale {
            // No leaf for this launch in the latest final epoch: nothing to record.
            let Some(&(score, leaf)) = table.scores.get(&token) else {
                continue;
            };
            let Some(proof) = table.tree.proof(&leaf) else {
                continue;
            };
            let why = match held {
                Some(held) => {
                    format!(
                        "FeeLanes holds epoch {held}'s score; epoch {epoch} is the latest final"
                    )
                }
                None => format!("FeeLanes holds no score; epoch {epoch} is the latest final"),
            };
            due.push(Due::call(
                seen.lanes,
                &FeeLanes::updateScoreCall {
                    token,
                    epoch,
                    scoreWad: score,
                    proof,
                },
                format!("token {token}"),
                why,
                &[StaleScore::SELECTOR, NotLatestFinal::SELECTOR],
                Weigh::Unweighed,
            ));
        }
        due
    }
}

/// The final epoch's score table: its bundle from the publications, every leaf recomputed from its values, the
/// tree checked to give the final root (kept for the run). `Err`: why it could not be had, in words.
async fn final_scores(
    pubs: &Publications,
    memory: &mut Memory,
    epoch: u64,
    root: B256,
) -> std::result::Result<Arc<FinalScores>, String> {
    if let Some(t) = memory.finals.get(&(epoch, root)) {
        return Ok(t.clone());
    }
    let bundle = pubs.bundle(&root).await.map_err(|e| e.to_string())?;
    let table = tokio::task::block_in_place(|| {
        let leaves = bundle
            .recomputed_leaves()
            .map_err(|(h, e)| format!("thesis {h}: {e}"))?;
        let table = FinalScores::new(leaves, bundle.score_leaves())?;
        if table.tree.root() != root {
            return Err(format!(
                "the published bundle gives root {}, not the final root {root}",
                table.tree.root()
            ));
        }
        Ok(table)
    })?;
    let t = Arc::new(table);
    memory.finals.insert((epoch, root), t.clone());
    Ok(t)
}

impl FinalScores {
    /// The tree of an epoch's `leaves`, and each project's score leaf (C27: its published score, pre-data
    /// projects included) from `scores`.
    fn new(
        leaves: Vec<B256>,
        scores: impl IntoIterator<Item = (Address, U256)>,
    ) -> std::result::Result<Self, String> {
        let scores = scores
            .into_iter()
            .map(|(p, s)| (p, (s, eden_core::leaves::score_leaf(p, s))))
            .collect();
        let tree = EpochTree::new(leaves).ok_or("the bundle has no leaves")?;
        Ok(FinalScores { tree, scores })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keep::tests::{at, calls_of};

    #[test]
    fn only_stale_launches_with_a_leaf_are_recorded_with_their_proof() {
        let (a, b, c) = (
            Address::repeat_byte(0xa),
            Address::repeat_byte(0xb),
            Address::repeat_byte(0xc),
        );
        let scores = [(a, U256::from(7u8)), (b, U256::from(9u8))];
        let leaves: Vec<B256> = scores
            .iter()
            .map(|&(p, s)| eden_core::leaves::score_leaf(p, s))
            .chain([B256::repeat_byte(0xee)])
            .collect();
        let table = FinalScores::new(leaves, scores).unwrap();
        let root = table.tree.root();
        let seen = Some(Seen {
            lanes: Address::repeat_byte(1),
            epoch: 5,
            stale: vec![(a, None), (b, Some(4)), (c, None)],
            table: Some(Ok(Arc::new(table))),
        });
        let due = Scores::due(&seen, &at(0));
        let targets: Vec<String> = calls_of(&due).into_iter().map(|(_, t)| t).collect();
        assert_eq!(targets, [format!("token {a}"), format!("token {b}")]);
        let Due::Call(first) = &due[1] else { panic!() };
        assert!(first.why.contains("holds epoch 4's score"));
        let call = FeeLanes::updateScoreCall::abi_decode(&first.data).unwrap();
        assert_eq!(
            (call.token, call.epoch, call.scoreWad),
            (b, 5, U256::from(9u8))
        );
        let leaf = eden_core::leaves::score_leaf(b, U256::from(9u8));
        assert_eq!(eden_core::merkle::process_proof(leaf, &call.proof), root);
    }

    #[test]
    fn a_missing_bundle_is_one_unavailable_report_and_nothing_stale_is_nothing() {
        let seen = |stale, table| {
            Some(Seen {
                lanes: Address::ZERO,
                epoch: 2,
                stale,
                table,
            })
        };
        let due = Scores::due(
            &seen(vec![(Address::ZERO, None)], Some(Err("404".into()))),
            &at(0),
        );
        assert!(matches!(
            &due[..],
            [Due::Blocked { outcome: Outcome::Unavailable { reason }, .. }] if reason == "404"
        ));
        assert!(Scores::due(&seen(vec![], None), &at(0)).is_empty());
        assert!(Scores::due(&None, &at(0)).is_empty());
    }
}
