//! The human layer's chain reads (C9a, C9b, C10a) at a block: `eden_chain::human`'s readers (the app's
//! too) over the operator's provider. What counts is
//! `eden_core::scoring::counting`'s.

use crate::chain::Chain;
use crate::error::Result;
use alloy::primitives::Address;
use eden_core::scoring::counting::{ChainScore, GradeOverride};

/// Every `Scored` event of `registry` up to `head`, in score-id order, each with its block and that block's
/// timestamp (the registry's `Score.at`).
///
/// # Errors
/// The node's; a log that does not decode.
pub async fn chain_scores(chain: &Chain, registry: Address, head: u64) -> Result<Vec<ChainScore>> {
    Ok(eden_chain::human::chain_scores(chain, registry, chain.net.deployment_block, head).await?)
}

/// Every `GradeOverridden` event of `registry` up to `head` (§4.1: the adjudicator's grade wins).
///
/// # Errors
/// The node's; a verdict code the registry could not have emitted.
pub async fn overrides(chain: &Chain, registry: Address, head: u64) -> Result<Vec<GradeOverride>> {
    Ok(
        eden_chain::human::grade_overrides(chain, registry, chain.net.deployment_block, head)
            .await?,
    )
}
