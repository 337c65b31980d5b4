//! `EpochRegistry`'s epoch slots (C7), discovered from the chain: every `RootProposed` event (the
//! latest per epoch, a re-proposal after an upheld challenge replaces the earlier one) and each
//! epoch's status, read in one batch. An epoch's bundle is the publication named by its proposed
//! root ([`bundle_path`]), checked against that root before use.

use crate::chain::abi::IEpochRegistry;
use crate::chain::multicall::Batch;
use crate::chain::rpc::{Rpc, RpcError};
use alloy_primitives::{Address, B256, U256};
use alloy_sol_types::SolCall;
use std::collections::BTreeMap;

/// Where an epoch bundle is published under a base URL: by the root it builds
/// (`epochs/0x<64 hex>.json`), so any host may serve it and none is trusted.
pub fn bundle_path(root: &B256) -> String {
    format!("epochs/{root}.json")
}

/// Where an epoch's intake report is published, beside its bundle (C21): `epochs/0x<64 hex>.intake.json`.
pub fn intake_path(root: &B256) -> String {
    format!("epochs/{root}.intake.json")
}

/// An epoch as the chain has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainEpoch {
    pub epoch: u64,
    /// The root of its latest proposal.
    pub root: B256,
    /// The proposing transaction (its input carries the signature, C6).
    pub proposal_tx: B256,
    /// The proposer the signature names.
    pub proposer: Address,
    /// Status code (`EpochRegistry.Status`).
    pub status: u8,
    /// The challenge window's or the adjudicator's deadline.
    pub deadline: u64,
    /// Challenges its current proposal has had (at most `eden_core::registry::MAX_CHALLENGES`).
    pub challenges: u8,
    /// When its current proposal was made (unix seconds): the epoch's date as people read it.
    pub proposed_at: u64,
    /// The block of its current proposal (what the human-layer check reads the chain up to, C9a).
    pub proposed_block: u64,
}

pub use eden_core::registry::{EpochSlot, EpochStatus};

/// The registry's epochs and what anyone may do with them (C7): the bond a challenge matches, the
/// adjudicator who rules on one, and the bonds credited to an account, withdrawable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registry {
    /// Every proposed epoch, latest first.
    pub epochs: Vec<ChainEpoch>,
    /// The proposer's bond, which a challenge matches (wei).
    pub bond: U256,
    pub adjudicator: Address,
    /// Bonds credited to the account asked about (wei; zero without one).
    pub credit: U256,
}

pub use eden_core::registry::EpochAction;

impl ChainEpoch {
    /// The actions open to `account` at chain time `now` (C7, `eden_core::registry::EpochSlot`).
    pub fn actions(
        &self,
        now: u64,
        account: Option<Address>,
        adjudicator: Address,
    ) -> Vec<EpochAction> {
        EpochSlot {
            status: EpochStatus::from_code(self.status),
            deadline: self.deadline,
            challenges: self.challenges,
        }
        .actions(now, account == Some(adjudicator))
    }
}

/// Every proposed epoch of `registry` since `from_block` with its status and challenge count, the
/// bond, the adjudicator and `account`'s credited bonds, in one log scan and one batch.
///
/// # Errors
/// When the logs or the statuses cannot be read.
pub async fn discover(
    rpc: &Rpc,
    registry: Address,
    from_block: u64,
    account: Option<Address>,
) -> Result<Registry, RpcError> {
    let proposed = rpc
        .events::<IEpochRegistry::RootProposed>(registry, None, from_block)
        .await?;
    let mut latest: BTreeMap<u64, (B256, B256, Address, u64)> = BTreeMap::new();
    for (e, l) in proposed {
        let block = l.position().0;
        latest.insert(e.epoch, (e.root, l.transaction_hash, e.proposer, block));
    }
    let mut b = Batch::new();
    let slots: Vec<_> = latest
        .keys()
        .map(|&epoch| {
            (
                b.add(registry, &IEpochRegistry::statusCall { epoch }),
                b.add(registry, &IEpochRegistry::challengeCountCall { epoch }),
                b.add(registry, &IEpochRegistry::proposedAtCall { epoch }),
            )
        })
        .collect();
    let bond = b.add(registry, &IEpochRegistry::bondCall {});
    let adjudicator = b.add(registry, &IEpochRegistry::adjudicatorCall {});
    let credit = account.map(|a| b.add(registry, &IEpochRegistry::creditCall { account: a }));
    let a = b.run(rpc).await?;
    let mut epochs = Vec::with_capacity(latest.len());
    for ((epoch, (root, tx, proposer, block)), (status, challenges, at)) in
        latest.into_iter().zip(slots)
    {
        let s = a.get(status)?;
        epochs.push(ChainEpoch {
            epoch,
            root,
            proposal_tx: tx,
            proposer,
            status: s._0,
            deadline: s.deadline,
            challenges: a.get(challenges)?,
            proposed_at: a.get(at)?,
            proposed_block: block,
        });
    }
    epochs.reverse();
    Ok(Registry {
        epochs,
        bond: a.get(bond)?,
        adjudicator: a.get(adjudicator)?,
        credit: credit.map(|c| a.get(c)).transpose()?.unwrap_or_default(),
    })
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
    let fin = (EpochStatus::from_code(e.status) == EpochStatus::Final)
        .then(|| b.add(registry, &IEpochRegistry::finalRootCall { epoch: e.epoch }));
    let signer = b.add(registry, &IEpochRegistry::signerCall {});
    let (a, input) = futures::join!(b.run(rpc), rpc.tx_input(e.proposal_tx));
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

/// Epoch `epoch`'s final root (the call reverts for an epoch that is not final).
///
/// # Errors
/// When the call fails.
pub async fn final_root(rpc: &Rpc, registry: Address, epoch: u64) -> Result<B256, RpcError> {
    let mut b = Batch::new();
    let slot = b.add(registry, &IEpochRegistry::finalRootCall { epoch });
    b.run(rpc).await?.get(slot)
}

/// The times an intake report's window must equal (C21): the registry's first epoch, when epoch
/// `epoch − 1` was proposed (the window's exclusive start; 0 for the first epoch) and when `epoch` was
/// proposed (the snapshot cannot be after it), read in one batch.
///
/// # Errors
/// When the batch fails.
pub async fn intake_window(
    rpc: &Rpc,
    registry: Address,
    epoch: u64,
) -> Result<(u64, u64), RpcError> {
    let mut b = Batch::new();
    let first = b.add(registry, &IEpochRegistry::firstEpochCall {});
    let prev = b.add(
        registry,
        &IEpochRegistry::proposedAtCall {
            epoch: epoch.saturating_sub(1),
        },
    );
    let this = b.add(registry, &IEpochRegistry::proposedAtCall { epoch });
    let a = b.run(rpc).await?;
    let start = if epoch > a.get(first)? {
        a.get(prev)?
    } else {
        0
    };
    Ok((start, a.get(this)?))
}

/// `EpochRegistry.verifyScore`: does `proof` prove `project`'s published score `score_wad` (C27: the
/// one score leaf per project, what FeeLanes reads) against final epoch `epoch`'s root?
///
/// # Errors
/// When the call cannot be made (it reverts for an epoch that is not final).
pub async fn verify_score(
    rpc: &Rpc,
    registry: Address,
    epoch: u64,
    project: Address,
    score_wad: alloy_primitives::U256,
    proof: Vec<B256>,
) -> Result<bool, RpcError> {
    rpc.call(
        registry,
        &IEpochRegistry::verifyScoreCall {
            epoch,
            project,
            scoreWad: score_wad,
            proof,
        },
    )
    .await
}

/// An epoch status code in words.
pub fn status_name(s: u8) -> &'static str {
    EpochStatus::from_code(s).name()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundles_are_named_by_their_root() {
        let root = B256::repeat_byte(0xab);
        assert_eq!(
            bundle_path(&root),
            format!("epochs/0x{}.json", "ab".repeat(32))
        );
        assert_eq!(
            intake_path(&root),
            format!("epochs/0x{}.intake.json", "ab".repeat(32))
        );
    }

    fn epoch(status: u8, deadline: u64, challenges: u8) -> ChainEpoch {
        ChainEpoch {
            epoch: 7,
            root: B256::ZERO,
            proposal_tx: B256::ZERO,
            proposer: Address::repeat_byte(1),
            status,
            deadline,
            challenges,
            proposed_at: 0,
            proposed_block: 0,
        }
    }

    #[test]
    fn anyone_challenges_in_the_window_and_finalizes_after_it() {
        let adj = Address::repeat_byte(9);
        let me = Some(Address::repeat_byte(2));
        // Pending: challengeable strictly before the deadline, then only finalizable.
        assert_eq!(
            epoch(1, 100, 0).actions(99, me, adj),
            [EpochAction::Challenge]
        );
        assert_eq!(
            epoch(1, 100, 0).actions(100, me, adj),
            [EpochAction::Finalize]
        );
        assert_eq!(
            epoch(1, 100, 0).actions(100, None, adj),
            [EpochAction::Finalize]
        );
        // Two challenges (rejected, each restarting the window) are the limit.
        assert!(epoch(1, 100, 2).actions(99, me, adj).is_empty());
        // Challenged: only the adjudicator rules; final and unknown slots offer nothing.
        assert!(epoch(2, 100, 1).actions(99, me, adj).is_empty());
        assert_eq!(
            epoch(2, 100, 1).actions(99, Some(adj), adj),
            [EpochAction::Rule]
        );
        assert!(epoch(3, 100, 0).actions(200, me, adj).is_empty());
        assert!(epoch(0, 0, 0).actions(200, me, adj).is_empty());
    }

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
