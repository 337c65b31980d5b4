//! The human layer's chain reads (C9a, C9b, C10a), once for the app and the operator: every `Scored`
//! event of the ScorerRegistry with the block and time it landed, every `GradeOverridden` event, and the
//! adjudicator's `overrideGrade` call. Which theses count is `eden_core::scoring::counting`'s.

use crate::abi::ScorerRegistry;
use crate::log::LogFilter;
use crate::read::{ChainRead, ReadError};
use alloy_primitives::{Address, U256};
use eden_core::leaves::Verdict;
use eden_core::scoring::counting::{ChainScore, GradeOverride};

/// Every `Scored` event of `registry` in blocks `[from, head]`, in score-id order, each with its block and
/// that block's timestamp (the registry's `Score.at`), the timestamps read in one batch.
///
/// # Errors
/// The transport's; a log that does not decode as `Scored`.
pub async fn chain_scores<R: ChainRead>(
    chain: &R,
    registry: Address,
    from: u64,
    head: u64,
) -> Result<Vec<ChainScore>, ReadError<R::Error>> {
    let filter = LogFilter::event::<ScorerRegistry::Scored>(registry, None);
    let logs = chain
        .logs(&filter, from, head)
        .await
        .map_err(ReadError::Transport)?;
    let mut blocks: Vec<u64> = logs.iter().map(|l| l.position().0).collect();
    blocks.sort_unstable();
    blocks.dedup();
    let times = if blocks.is_empty() {
        Default::default()
    } else {
        chain
            .block_timestamps(&blocks)
            .await
            .map_err(ReadError::Transport)?
    };
    let mut out = Vec::with_capacity(logs.len());
    for l in &logs {
        let e: ScorerRegistry::Scored = l.decode()?;
        let block = l.position().0;
        let at = times.get(&block).copied().ok_or_else(|| {
            ReadError::Unexpected(format!(
                "no timestamp for block {block} of score {}",
                e.scoreId
            ))
        })?;
        out.push(ChainScore {
            scorer_registry: registry,
            score_id: e.scoreId,
            scorer: e.scorer,
            project: e.token,
            thesis_hash: e.thesisHash,
            target_score_wad: e.targetScore,
            block,
            at,
        });
    }
    out.sort_by_key(|s| s.score_id);
    Ok(out)
}

/// Every `GradeOverridden` event of `registry` in blocks `[from, head]`, in chain order (§4.1: the
/// adjudicator's grade wins).
///
/// # Errors
/// The transport's; a log that does not decode; a verdict code the registry could not have emitted.
pub async fn grade_overrides<R: ChainRead>(
    chain: &R,
    registry: Address,
    from: u64,
    head: u64,
) -> Result<Vec<GradeOverride>, ReadError<R::Error>> {
    let filter = LogFilter::event::<ScorerRegistry::GradeOverridden>(registry, None);
    let logs = chain
        .logs(&filter, from, head)
        .await
        .map_err(ReadError::Transport)?;
    logs.iter()
        .map(|l| {
            let e: ScorerRegistry::GradeOverridden = l.decode()?;
            let (block, log_index) = l.position();
            Ok(GradeOverride {
                score_id: e.scoreId,
                quality_wad: e.qualityWad,
                verdict: Verdict::try_from(e.verdict).map_err(|x| {
                    ReadError::Unexpected(format!("score {}'s override: {x}", e.scoreId))
                })?,
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
) -> ScorerRegistry::overrideGradeCall {
    ScorerRegistry::overrideGradeCall {
        scoreId: score_id,
        qualityWad: quality_wad,
        verdict: verdict as u8,
    }
}
