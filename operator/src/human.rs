//! The human layer's chain reads (C9a, C9b, C10a): every `Scored` event with the block and time it landed,
//! every `GradeOverridden` event, and a block's timestamp. What counts is `eden_core::scoring::counting`'s.

use crate::abi::ScorerRegistry;
use crate::chain::Chain;
use crate::error::{OpError, Result};
use alloy::eips::BlockNumberOrTag;
use alloy::primitives::Address;
use alloy::providers::Provider;
use alloy::rpc::types::Filter;
use alloy::sol_types::SolEvent;
use eden_core::leaves::Verdict;
use eden_core::scoring::counting::{ChainScore, GradeOverride};
use std::collections::BTreeMap;

/// A block's timestamp.
///
/// # Errors
/// The node's, or a block it does not have.
pub async fn block_time(chain: &Chain, block: u64) -> Result<u64> {
    let b = chain
        .provider
        .get_block_by_number(BlockNumberOrTag::Number(block))
        .await
        .map_err(OpError::rpc)?
        .ok_or_else(|| OpError::Rpc(format!("the node has no block {block}")))?;
    Ok(b.header.timestamp)
}

/// Every `Scored` event of `registry` up to `head`, in score-id order, each with its block and that block's
/// timestamp (the registry's `Score.at`). One timestamp read per distinct block.
///
/// # Errors
/// The node's.
pub async fn chain_scores(chain: &Chain, registry: Address, head: u64) -> Result<Vec<ChainScore>> {
    let filter = Filter::new()
        .address(registry)
        .event_signature(ScorerRegistry::Scored::SIGNATURE_HASH);
    let logs = chain.logs_since_deployment(&filter, head).await?;
    let mut times: BTreeMap<u64, u64> = BTreeMap::new();
    let mut out = Vec::with_capacity(logs.len());
    for l in &logs {
        let Ok(e) = l.log_decode::<ScorerRegistry::Scored>() else {
            continue;
        };
        let block = l
            .block_number
            .ok_or_else(|| OpError::Rpc("a Scored log without its block number".into()))?;
        let at = match times.get(&block) {
            Some(t) => *t,
            None => {
                let t = block_time(chain, block).await?;
                times.insert(block, t);
                t
            }
        };
        let e = e.inner.data;
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

/// Every `GradeOverridden` event of `registry` up to `head` (§4.1: the adjudicator's grade wins).
///
/// # Errors
/// The node's; a verdict code the registry could not have emitted.
pub async fn overrides(chain: &Chain, registry: Address, head: u64) -> Result<Vec<GradeOverride>> {
    let filter = Filter::new()
        .address(registry)
        .event_signature(ScorerRegistry::GradeOverridden::SIGNATURE_HASH);
    let mut out = Vec::new();
    for l in chain.logs_since_deployment(&filter, head).await? {
        let Ok(e) = l.log_decode::<ScorerRegistry::GradeOverridden>() else {
            continue;
        };
        let d = e.inner.data;
        out.push(GradeOverride {
            score_id: d.scoreId,
            quality_wad: d.qualityWad,
            verdict: Verdict::try_from(d.verdict).map_err(|e| OpError::Rpc(e.to_string()))?,
            block: l.block_number.unwrap_or_default(),
            log_index: l.log_index.unwrap_or_default(),
        });
    }
    Ok(out)
}
