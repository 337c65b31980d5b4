//! `EpochRegistry`'s epochs (C7) for the app: the shared reader's ([`eden_chain::epochs`]: every epoch's
//! current proposal and slot, the registry's terms) at the latest block, and the proposal's own transaction,
//! which only the app reads (the Score page checks its signature, C6).

use crate::chain::abi::IEpochRegistry;
use crate::chain::multicall::Batch;
use crate::chain::rpc::{Rpc, RpcError};
use alloy_primitives::{Address, B256};
use alloy_sol_types::SolCall;

pub use eden_chain::epochs::{
    bundle_path, final_root, intake_path, intake_window, verify_score, ChainEpoch, Registry,
};
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
    /// The registry's root signer now (C6).
    pub signer: Address,
    /// The proposing transaction's `propose` call (its signature names the proposer, C6).
    pub call: Result<IEpochRegistry::proposeCall, RpcError>,
}

/// Epoch `e`'s final root (when final) and the registry's signer in one batch, and at the same time
/// its proposing transaction, decoded as `propose`.
///
/// # Errors
/// When the batch fails (the transaction not being readable is [`Proposal::call`]'s error).
pub async fn proposal(rpc: &Rpc, registry: Address, e: &ChainEpoch) -> Result<Proposal, RpcError> {
    let mut b = Batch::new();
    let fin = (e.slot.status == EpochStatus::Final).then(|| {
        b.add(
            registry,
            &IEpochRegistry::finalRootCall { epoch: e.epoch() },
        )
    });
    let signer = b.add(registry, &IEpochRegistry::signerCall {});
    let (a, input) = futures::join!(b.run(rpc), rpc.tx_input(e.proposal.tx));
    let a = a?;
    Ok(Proposal {
        final_root: fin.map(|s| a.get(s)).transpose()?,
        signer: a.get(signer)?,
        call: input.and_then(|i| {
            IEpochRegistry::proposeCall::abi_decode(&i)
                .map_err(|e| RpcError::Decode(format!("the proposing transaction: {e}")))
        }),
    })
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
