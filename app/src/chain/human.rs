//! The human layer's chain reads (C9a, C9b, C10a): every `Scored` event with the block and time it landed
//! and every `GradeOverridden` event of the ScorerRegistry, and the adjudicator's `overrideGrade` call. Which
//! theses count is `eden_core::scoring::counting`'s.

use crate::chain::abi::IScorerRegistry;
use crate::chain::rpc::{Rpc, RpcError};
use alloy_primitives::{Address, U256};
use eden_core::leaves::Verdict;
use eden_core::scoring::counting::{ChainScore, GradeOverride};

/// Every `Scored` event of `registry` since `from_block`, in score-id order, each with its block and that
/// block's timestamp (the registry's `Score.at`), the timestamps read in one batch.
///
/// # Errors
/// When the logs or the blocks cannot be read.
pub async fn chain_scores(
    rpc: &Rpc,
    registry: Address,
    from_block: u64,
) -> Result<Vec<ChainScore>, RpcError> {
    let events = rpc
        .events::<IScorerRegistry::Scored>(registry, None, from_block)
        .await?;
    let mut blocks: Vec<u64> = events.iter().map(|(_, l)| l.position().0).collect();
    blocks.sort_unstable();
    blocks.dedup();
    let times = if blocks.is_empty() {
        Default::default()
    } else {
        rpc.block_timestamps(&blocks).await?
    };
    let mut out: Vec<ChainScore> = events
        .into_iter()
        .map(|(e, l)| {
            let block = l.position().0;
            ChainScore {
                scorer_registry: registry,
                score_id: e.scoreId,
                scorer: e.scorer,
                project: e.token,
                thesis_hash: e.thesisHash,
                target_score_wad: e.targetScore,
                block,
                at: times.get(&block).copied().unwrap_or_default(),
            }
        })
        .collect();
    out.sort_by_key(|s| s.score_id);
    Ok(out)
}

/// Every `GradeOverridden` event of `registry` since `from_block` (§4.1: the adjudicator's grade wins).
///
/// # Errors
/// When the logs cannot be read, or a verdict code is not one the registry emits.
pub async fn grade_overrides(
    rpc: &Rpc,
    registry: Address,
    from_block: u64,
) -> Result<Vec<GradeOverride>, RpcError> {
    rpc.events::<IScorerRegistry::GradeOverridden>(registry, None, from_block)
        .await?
        .into_iter()
        .map(|(e, l)| {
            let (block, log_index) = l.position();
            Ok(GradeOverride {
                score_id: e.scoreId,
                quality_wad: e.qualityWad,
                verdict: Verdict::try_from(e.verdict)
                    .map_err(|x| RpcError::Decode(x.to_string()))?,
                block,
                log_index,
            })
        })
        .collect()
}

/// The adjudicator's `overrideGrade(scoreId, qualityWad, verdict)` (§4.1).
pub fn override_grade_call(
    score_id: U256,
    quality_wad: U256,
    verdict: Verdict,
) -> IScorerRegistry::overrideGradeCall {
    IScorerRegistry::overrideGradeCall {
        scoreId: score_id,
        qualityWad: quality_wad,
        verdict: verdict as u8,
    }
}
