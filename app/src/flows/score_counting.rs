//! Which theses count (C9a, C9b, C10a), checked: every score on the project up to the epoch's proposal, with
//! why it counts or not and its grade in force, re-derived from the chain's `Scored` and `GradeOverridden`
//! events (`eden_core::check::check_project_counting`) and compared with what the bundle took. Findings stay
//! typed ([`eden_core::check::CountingFinding`]); [`super::words`] says them.

use crate::chain::abi::IEpochRegistry;
use crate::chain::epochs::bundle_path;
use crate::chain::multicall::Batch;
use crate::chain::rpc::RpcError;
use crate::chain::world::World;
use crate::error::AppError;
use alloy_primitives::{Address, U256};
use eden_chain::human::{chain_scores, grade_overrides};
use eden_core::check::{check_project_counting, CountingChain, PreviousLeft, ProjectCounting};
use eden_core::leaves::Verdict;
use eden_core::scoring::EpochBundle;

/// One project's selection of theses, checked against the chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountingCheck {
    /// Core's report; its findings are every difference, none when the bundle took exactly the theses that
    /// count.
    pub counting: ProjectCounting,
    /// The (light) bundle, for the override preview.
    pub bundle: EpochBundle,
    /// The project.
    pub project: Address,
    /// The ScorerRegistry.
    pub registry: Address,
    /// The registry's adjudicator, who may override a grade.
    pub adjudicator: Address,
}

/// Reads what the check needs and runs it: `None` when the deployment has no ScorerRegistry.
pub async fn check_counting(
    w: &World,
    bundle: &EpochBundle,
    proposal_block: u64,
    project: Address,
) -> Option<Result<CountingCheck, AppError>> {
    let registry = w.contracts.scorer_registry?;
    Some(run(w, bundle, proposal_block, project, registry).await)
}

async fn run(
    w: &World,
    bundle: &EpochBundle,
    proposal_block: u64,
    project: Address,
    registry: Address,
) -> Result<CountingCheck, AppError> {
    let rpc = w.rpc();
    let mut b = Batch::new();
    let adj = b.add(
        w.contracts.epoch_registry,
        &IEpochRegistry::adjudicatorCall {},
    );
    let head = rpc.block_number().await?;
    let (scores, overrides, answers) = futures::join!(
        chain_scores(&rpc, registry, w.deployment_block, head),
        grade_overrides(&rpc, registry, w.deployment_block, head),
        b.run(&rpc),
    );
    let (scores, overrides) = (
        scores.map_err(RpcError::from)?,
        overrides.map_err(RpcError::from)?,
    );
    let adjudicator = answers.map_err(RpcError::from)?.get(adj)?;
    let mut blocks = vec![proposal_block];
    blocks.extend(bundle.human_as_of.map(|a| a.block));
    let times = rpc.block_timestamps(&blocks).await?;
    // A project outside the cohort is pre-data only if the previous final epoch's set does not hold it: that
    // needs the previous bundle. A cohort project is in the set by construction.
    let in_cohort = bundle.projects.iter().any(|p| p.project == project);
    let previous = match bundle.previous_epoch {
        Some(pe) if !in_cohort => {
            let root =
                crate::chain::epochs::final_root(&rpc, w.contracts.epoch_registry, pe).await?;
            Some(w.fetch_bundle(&bundle_path(&root)).await?)
        }
        _ => None,
    };
    let prev = match (&previous, bundle.previous_epoch) {
        (Some(p), _) => PreviousLeft::Bundle(p),
        (None, None) => PreviousLeft::None,
        (None, Some(_)) => PreviousLeft::Unknown,
    };
    let counting = check_project_counting(
        bundle,
        project,
        &CountingChain {
            scores: &scores,
            overrides: &overrides,
            proposal_block,
            proposal_time: times.get(&proposal_block).copied(),
            cutoff_block_time: bundle
                .human_as_of
                .and_then(|a| times.get(&a.block).copied()),
            previous: prev,
        },
    );
    Ok(CountingCheck {
        counting,
        bundle: bundle.clone(),
        project,
        registry,
        adjudicator,
    })
}

/// The grade in force of a row: the bundle's (checked against the override and the record), else the
/// override's, else none yet.
pub fn grade_of(c: &CountingCheck, score_id: U256) -> Option<(U256, Verdict, &'static str)> {
    let r = c
        .counting
        .rows
        .iter()
        .find(|r| r.score.score_id == score_id)?;
    let source = if r.overridden.is_some() {
        "the adjudicator's override"
    } else {
        "its grading record"
    };
    if let Some(t) = c.bundle.theses.iter().find(|t| t.score_id == score_id) {
        return Some((t.quality_wad, Verdict::try_from(t.verdict).ok()?, source));
    }
    r.overridden.map(|o| (o.quality_wad, o.verdict, source))
}
