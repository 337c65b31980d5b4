//! A scorer's scores not proven yet (C12) and, for each, the grade that proves it: the earliest
//! final epoch proposed after the score whose bundle (fetched by its final root, so it builds that
//! root) grades it, with the quality leaf's proof in that epoch's tree. `prove` accepts exactly
//! this: an epoch proposed after the score, before `eden_core::rewards::prove_deadline` (30 days
//! after the epoch's proposal when it was first proposed within 30 days of the score, else 30 days
//! after the score), the leaf under the final root. Reads: the `Scored` events, the epochs, one
//! batch of the scores and the epochs' `proposedAt` and `firstProposedAt`, then the bundles that
//! could grade them, at once. No Leptos here.

use crate::chain::abi::{IEpochRegistry, IScorerRegistry};
use crate::chain::epochs::discover;
use crate::chain::multicall::{run_with_block, Batch};
use crate::chain::positions::final_bundles;
use crate::chain::rpc::RpcError;
use crate::chain::scorer::scored_events;
use crate::chain::world::World;
use alloy_primitives::{Address, B256, U256};
use eden_core::check::tree::BundleTree;
use eden_core::leaves::quality_leaf;
use eden_core::rewards::{prove_deadline, PROVE_WINDOW};
use eden_core::scoring::EpochBundle;
/// `EpochRegistry.Status.Final`.
const FINAL: u8 = 3;

/// The arguments of `prove` for one score.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProveArgs {
    pub epoch: u64,
    pub quality_wad: U256,
    pub verdict: u8,
    pub matched_thesis: B256,
    pub proof: Vec<B256>,
    /// The grading record the grade rests on (C8; zero when the bundle names none).
    pub grade_record: B256,
}

/// Where an unproven score stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Standing {
    /// Graded in a final epoch: provable now with these arguments.
    Provable(ProveArgs),
    /// No final epoch proposed after it grades it yet.
    Ungraded,
    /// Its prove window is over.
    TooLate,
}

/// One of the scorer's scores that opened no position yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnprovenScore {
    pub score_id: U256,
    pub token: Address,
    pub at: u64,
    /// The last moment it can be proven: from the epoch that grades it when it is graded
    /// ([`prove_deadline`]), else `at + PROVE_WINDOW`.
    pub deadline: u64,
    pub standing: Standing,
}

/// The `prove` arguments of score `score_id` in `bundle` (epoch `epoch`), `None` when the bundle
/// does not grade it.
pub fn prove_args(
    bundle: &EpochBundle,
    tree: &BundleTree<'_>,
    registry: Address,
    score_id: U256,
    epoch: u64,
) -> Option<ProveArgs> {
    let t = bundle
        .theses
        .iter()
        .find(|t| t.scorer_registry == registry && t.score_id == score_id)?;
    let q = t.quality_leaf().ok()?;
    let (_, proof) = tree.root_and_proof(quality_leaf(&q)).ok()?;
    Some(ProveArgs {
        epoch,
        quality_wad: q.quality_wad,
        verdict: q.verdict as u8,
        matched_thesis: q.matched_thesis,
        proof: proof?,
        grade_record: t.grade_record,
    })
}

/// `me`'s scores in `registry` that are neither proven nor overridden, oldest first.
///
/// # Errors
/// When the events, the epochs or the batch cannot be read. A bundle that cannot be fetched only
/// leaves its epoch out (the score may be graded by a later one, or shows as not graded yet).
pub async fn unproven_of(
    w: &World,
    registry: Address,
    me: Address,
) -> Result<Vec<UnprovenScore>, RpcError> {
    let rpc = w.rpc();
    // The scores and the epochs at once: neither needs the other (D3).
    let (scored, epochs) = futures::try_join!(
        scored_events(&rpc, registry, w.deployment_block),
        discover(&rpc, w.contracts.epoch_registry, w.deployment_block, None),
    )?;
    let mine: Vec<_> = scored.into_iter().filter(|e| e.scorer == me).collect();
    if mine.is_empty() {
        return Ok(Vec::new());
    }
    let mut finals: Vec<u64> = epochs
        .epochs
        .iter()
        .filter(|e| e.slot.status.code() == FINAL)
        .map(|e| e.epoch())
        .collect();
    finals.sort_unstable();
    let mut b = Batch::new();
    let scores: Vec<_> = mine
        .iter()
        .map(|e| {
            b.add(
                registry,
                &IScorerRegistry::getScoreCall {
                    scoreId: e.score_id,
                },
            )
        })
        .collect();
    let proposed: Vec<_> = finals
        .iter()
        .map(|&epoch| {
            (
                b.add(
                    w.contracts.epoch_registry,
                    &IEpochRegistry::proposedAtCall { epoch },
                ),
                b.add(
                    w.contracts.epoch_registry,
                    &IEpochRegistry::firstProposedAtCall { epoch },
                ),
            )
        })
        .collect();
    // The chain's time (the proving windows) with the scores and the epochs' proposal times.
    let (_, now, a) = run_with_block(&rpc, b).await?;
    // (epoch, proposedAt, firstProposedAt)
    let proposed: Vec<(u64, u64, u64)> = finals
        .iter()
        .zip(proposed)
        .map(|(&e, (p, f))| Ok::<_, RpcError>((e, a.get(p)?, a.get(f)?)))
        .collect::<Result<_, _>>()?;
    let mut open = Vec::new();
    for (e, s) in mine.iter().zip(scores) {
        let s = a.get(s)?;
        if !s.proven && !s.overridden {
            open.push((e.score_id, e.token, s.at));
        }
    }
    // The final epochs that could grade an open score still in its window.
    let in_time = |at: u64, p: u64, f: u64| p > at && now <= prove_deadline(at, f, p);
    let needed: Vec<u64> = proposed
        .iter()
        .filter(|(_, p, f)| open.iter().any(|(_, _, at)| in_time(*at, *p, *f)))
        .map(|(e, ..)| *e)
        .collect();
    let bundles = final_bundles(w, &needed).await?;
    let trees: Vec<(u64, u64, u64, &EpochBundle, BundleTree<'_>)> = proposed
        .iter()
        .filter_map(|&(e, p, f)| match bundles.get(&e) {
            Some(Ok(b)) => Some((e, p, f, b, BundleTree::new(b))),
            _ => None,
        })
        .collect();
    Ok(open
        .into_iter()
        .map(|(score_id, token, at)| {
            // The earliest final epoch still in its window that grades it (the earliest grade
            // wins on chain too).
            let graded = trees
                .iter()
                .filter(|(_, p, f, ..)| in_time(at, *p, *f))
                .find_map(|(e, p, f, b, t)| {
                    prove_args(b, t, registry, score_id, *e)
                        .map(|args| (args, prove_deadline(at, *f, *p)))
                });
            let (standing, deadline) = match graded {
                Some((args, d)) => (Standing::Provable(args), d),
                None => {
                    let d = at.saturating_add(PROVE_WINDOW);
                    let s = if now > d {
                        Standing::TooLate
                    } else {
                        Standing::Ungraded
                    };
                    (s, d)
                }
            };
            UnprovenScore {
                score_id,
                token,
                at,
                deadline,
                standing,
            }
        })
        .collect())
}
