//! `EpochRegistry`'s epochs (C7) for the app: the shared reader's ([`eden_chain::epochs`]: every epoch's
//! current proposal and slot, the registry's terms) at the latest block, and the proposal's own transaction,
//! which only the app reads (the Score page checks its approvals, C6, C7a).

use crate::chain::abi::IEpochRegistry;
use crate::chain::multicall::Batch;
use crate::chain::rpc::{Rpc, RpcError};
use alloy_primitives::{Address, B256};

pub use eden_chain::epochs::{
    bundle_path, decode_propose, final_root, intake_path, intake_window, verify_score, ChainEpoch,
    ConfigPin, ProposeInput, Registry,
};
pub use eden_core::committee::Committee;
pub use eden_core::registry::{EpochAction, EpochStatus};

/// Every proposed epoch of `registry` since `from_block` to the latest block with its slot, the bond, the
/// adjudicator and `account`'s credited bonds ([`eden_chain::epochs::discover`]: one log scan, one batch).
///
/// # Errors
/// When the logs or the slots cannot be read.
pub async fn discover(
    rpc: &Rpc,
    registry: Address,
    from_block: u64,
    account: Option<Address>,
) -> Result<Registry, RpcError> {
    let latest = rpc.block_number().await?;
    Ok(eden_chain::epochs::discover(rpc, registry, from_block, latest, account).await?)
}

/// What the chain says about an epoch's proposal.
#[derive(Clone)]
pub struct Proposal {
    /// The final root, when the epoch is final.
    pub final_root: Option<B256>,
    /// The committee that approved the proposal (C7a), recorded by the registry at the proposal.
    pub committee: Result<Committee, RpcError>,
    /// The scoring configuration the registry pins for the epoch (C2a), `None` when it pins none.
    pub config: Result<Option<ConfigPin>, RpcError>,
    /// The proposing transaction's `propose` call: the message signed (naming the proposer, C6) and the
    /// committee's approvals (C7a).
    pub call: Result<ProposeInput, RpcError>,
}

/// Epoch `e`'s final root (when final) and the committee that approved its proposal in one batch, and at
/// the same time its proposing transaction, decoded as `propose`.
///
/// # Errors
/// When the batch fails (the committee or the transaction not being readable is the field's error).
pub async fn proposal(rpc: &Rpc, registry: Address, e: &ChainEpoch) -> Result<Proposal, RpcError> {
    let mut b = Batch::new();
    let fin = (e.slot.status == EpochStatus::Final).then(|| {
        b.add(
            registry,
            &IEpochRegistry::finalRootCall { epoch: e.epoch() },
        )
    });
    let committee = b.add(
        registry,
        &IEpochRegistry::committeeOfCall { epoch: e.epoch() },
    );
    let config = b.add(
        registry,
        &IEpochRegistry::configForCall { epoch: e.epoch() },
    );
    let (a, input) = futures::join!(b.run(rpc), rpc.tx_input(e.proposal.tx));
    let a = a?;
    Ok(Proposal {
        config: a
            .get(config)
            .map(|p| {
                (p.configHash != B256::ZERO).then_some(ConfigPin {
                    hash: p.configHash,
                    version: p.version,
                    first_epoch: p.firstEpoch,
                })
            })
            .map_err(RpcError::from),
        final_root: fin.map(|s| a.get(s)).transpose()?,
        committee: a
            .get(committee)
            .map(|c| Committee {
                id: c.id,
                members: c.members,
                threshold: c.threshold,
            })
            .map_err(RpcError::from),
        call: input.and_then(|i| {
            decode_propose(&i, e.proposal.proposer)
                .map_err(|e| RpcError::Decode(format!("the proposing transaction: {e}")))
        }),
    })
}

/// Whether `account` has code (a contract member approves by ERC-1271, C7a).
///
/// # Errors
/// The node's.
pub async fn has_code(rpc: &Rpc, account: Address) -> Result<bool, RpcError> {
    let code = rpc
        .request("eth_getCode", serde_json::json!([account, "latest"]))
        .await?;
    Ok(code.as_str().is_some_and(|c| c.len() > 2))
}

/// An epoch status code in words.
pub fn status_name(s: u8) -> &'static str {
    EpochStatus::from_code(s).name()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_read_as_the_registry_defines_them() {
        let names: Vec<&str> = (0u8..5).map(status_name).collect();
        assert_eq!(
            names,
            [
                "not proposed",
                "pending",
                "challenged",
                "final",
                "not proposed"
            ]
        );
    }
}
