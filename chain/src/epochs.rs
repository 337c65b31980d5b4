//! `EpochRegistry`'s epochs (C7), read once for the app and the operator: every epoch's current proposal
//! (its latest `RootProposed` event: a re-proposal after an upheld challenge replaces the earlier one), each
//! epoch's slot (status, deadline, challenges, proposal time) and the registry's terms (bond, adjudicator,
//! an account's credited bonds), the slots and terms in one batch. What may be done with a slot is
//! `eden_core::registry`'s ([`EpochSlot`]).
//!
//! An epoch's bundle and intake report are publications named by its proposed root ([`bundle_path`],
//! [`intake_path`]), checked against that root before use.

use crate::abi::EpochRegistry;
use crate::batch::Batch;
use crate::log::LogFilter;
use crate::read::{ChainRead, ReadError};
use alloy_primitives::{Address, B256, U256};
use eden_core::committee::{Approval, Committee};
use eden_core::eip712::EpochRoot;
use eden_core::registry::{EpochAction, EpochSlot, EpochStatus};
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

/// An epoch's current proposal, as its `RootProposed` event has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proposal {
    /// The epoch.
    pub epoch: u64,
    /// The proposed root.
    pub root: B256,
    /// The root of the inputs it was built from (C21).
    pub inputs_root: B256,
    /// The proposer the signature names (C6).
    pub proposer: Address,
    /// The end of its challenge window when proposed (a rejected challenge restarts it: the slot's
    /// [`EpochSlot::deadline`] is the current one).
    pub window_end: u64,
    /// The proposing transaction (its input carries the signature, C6).
    pub tx: B256,
    /// Its block (what the human-layer check reads the chain up to, C9a).
    pub block: u64,
    /// Its place in that block.
    pub log_index: u64,
}

/// An epoch as the chain has it now: its current proposal and its slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainEpoch {
    /// The current proposal.
    pub proposal: Proposal,
    /// Status, deadline and challenges (C7).
    pub slot: EpochSlot,
    /// When the current proposal was made (unix seconds): the epoch's date as people read it.
    pub proposed_at: u64,
}

impl ChainEpoch {
    /// The epoch.
    pub fn epoch(&self) -> u64 {
        self.proposal.epoch
    }

    /// The actions open to `account` at chain time `now` (C7, [`EpochSlot::actions`]).
    pub fn actions(
        &self,
        now: u64,
        account: Option<Address>,
        adjudicator: Address,
    ) -> Vec<EpochAction> {
        self.slot.actions(now, account == Some(adjudicator))
    }
}

/// The registry's epochs and what anyone may do with them (C7): the bond a challenge matches, the
/// adjudicator who rules on one, and the bonds credited to an account, withdrawable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registry {
    /// Every proposed epoch, latest first.
    pub epochs: Vec<ChainEpoch>,
    /// The proposer's bond, which a challenge matches (wei).
    pub bond: U256,
    /// Who rules on a challenge.
    pub adjudicator: Address,
    /// Bonds credited to the account asked about (wei; zero without one).
    pub credit: U256,
}

/// Every epoch's current proposal among `registry`'s `RootProposed` events in blocks `[from, to]`, by epoch.
///
/// # Errors
/// The transport's; a log that does not decode as `RootProposed`.
pub async fn proposals<R: ChainRead>(
    chain: &R,
    registry: Address,
    from: u64,
    to: u64,
) -> Result<BTreeMap<u64, Proposal>, ReadError<R::Error>> {
    let filter = LogFilter::event::<EpochRegistry::RootProposed>(registry, None);
    let logs = chain
        .logs(&filter, from, to)
        .await
        .map_err(ReadError::Transport)?;
    let mut current = BTreeMap::new();
    for l in &logs {
        let e: EpochRegistry::RootProposed = l.decode()?;
        let (block, log_index) = l.position();
        // Logs come in chain order: the last of an epoch is its current proposal.
        current.insert(
            e.epoch,
            Proposal {
                epoch: e.epoch,
                root: e.root,
                inputs_root: e.inputsRoot,
                proposer: e.proposer,
                window_end: e.deadline,
                tx: l.transaction_hash,
                block,
                log_index,
            },
        );
    }
    Ok(current)
}

/// Every epoch proposed in blocks `[from, to]` with its slot, and the registry's bond, adjudicator and
/// `account`'s credited bonds: one log scan, then one batch against the latest state.
///
/// # Errors
/// The transport's; a log or an answer that does not decode; a read that reverts.
pub async fn discover<R: ChainRead>(
    chain: &R,
    registry: Address,
    from: u64,
    to: u64,
    account: Option<Address>,
) -> Result<Registry, ReadError<R::Error>> {
    let current = proposals(chain, registry, from, to).await?;
    let mut b = Batch::new();
    let slots: Vec<_> = current
        .keys()
        .map(|&epoch| {
            (
                b.add(registry, &EpochRegistry::statusCall { epoch }),
                b.add(registry, &EpochRegistry::challengeCountCall { epoch }),
                b.add(registry, &EpochRegistry::proposedAtCall { epoch }),
            )
        })
        .collect();
    let bond = b.add(registry, &EpochRegistry::bondCall {});
    let adjudicator = b.add(registry, &EpochRegistry::adjudicatorCall {});
    let credit = account.map(|account| b.add(registry, &EpochRegistry::creditCall { account }));
    let mut a = b.run(chain).await?;
    let mut epochs = Vec::with_capacity(current.len());
    for (proposal, (status, challenges, at)) in current.into_values().zip(slots) {
        let s = a.take(status)?;
        epochs.push(ChainEpoch {
            proposal,
            slot: EpochSlot {
                status: EpochStatus::from_code(s._0),
                deadline: s.deadline,
                challenges: a.take(challenges)?,
            },
            proposed_at: a.take(at)?,
        });
    }
    epochs.reverse();
    Ok(Registry {
        epochs,
        bond: a.take(bond)?,
        adjudicator: a.take(adjudicator)?,
        credit: credit.map(|c| a.take(c)).transpose()?.unwrap_or_default(),
    })
}

/// A proposing transaction's `propose` call (C6, C7a): the message its approvals sign and the approvals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProposeInput {
    /// The C6 message, with the proposer the `RootProposed` event names.
    pub message: EpochRoot,
    /// The committee members' approvals, in the transaction's order.
    pub approvals: Vec<Approval>,
}

/// Decodes a proposing transaction's input (`EpochRegistry.propose`) for `proposer` (from its event).
///
/// # Errors
/// When the input is not a `propose` call.
pub fn decode_propose(
    input: &[u8],
    proposer: Address,
) -> Result<ProposeInput, alloy_sol_types::Error> {
    use alloy_sol_types::SolCall;
    let call = EpochRegistry::proposeCall::abi_decode(input)?;
    Ok(ProposeInput {
        message: EpochRoot {
            epoch: call.epoch,
            root: call.root,
            inputsRoot: call.inputsRoot,
            proposer,
            expiry: call.expiry,
        },
        approvals: call
            .approvals
            .into_iter()
            .map(|a| Approval {
                member: a.member,
                signature: a.signature.to_vec(),
            })
            .collect(),
    })
}

/// The committee that approved `epoch`'s current proposal (C7a), as the registry recorded it at the proposal:
/// later committees do not change it.
///
/// # Errors
/// A transport error, or the registry's `NotProposed` when the slot holds no proposal.
pub async fn committee_of<R: ChainRead>(
    chain: &R,
    registry: Address,
    epoch: u64,
) -> Result<Committee, ReadError<R::Error>> {
    let mut b = Batch::new();
    let slot = b.add(registry, &EpochRegistry::committeeOfCall { epoch });
    let c = b.run(chain).await?.take(slot)?;
    Ok(Committee {
        id: c.id,
        members: c.members,
        threshold: c.threshold,
    })
}

/// A scoring configuration pinned on chain (C2a).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfigPin {
    /// keccak256 of its published file (`eden_core::scoring::pinned::config_path`).
    pub hash: B256,
    /// Its version.
    pub version: u64,
    /// The first epoch it applies to.
    pub first_epoch: u64,
}

/// The scoring configuration in force for `epoch` (C2a), or `None` when the registry pins none for it.
///
/// # Errors
/// A transport error.
pub async fn config_for<R: ChainRead>(
    chain: &R,
    registry: Address,
    epoch: u64,
) -> Result<Option<ConfigPin>, ReadError<R::Error>> {
    let mut b = Batch::new();
    let slot = b.add(registry, &EpochRegistry::configForCall { epoch });
    let p = b.run(chain).await?.take(slot)?;
    Ok((p.configHash != B256::ZERO).then_some(ConfigPin {
        hash: p.configHash,
        version: p.version,
        first_epoch: p.firstEpoch,
    }))
}

/// The committee in force now (C7a): the one a new proposal needs.
///
/// # Errors
/// A transport error.
pub async fn current_committee<R: ChainRead>(
    chain: &R,
    registry: Address,
) -> Result<Committee, ReadError<R::Error>> {
    let mut b = Batch::new();
    let slot = b.add(registry, &EpochRegistry::currentCommitteeCall {});
    let c = b.run(chain).await?.take(slot)?;
    Ok(Committee {
        id: c.id,
        members: c.members,
        threshold: c.threshold,
    })
}

/// Epoch `epoch`'s final root (the call reverts for an epoch that is not final).
///
/// # Errors
/// The transport's; the revert.
pub async fn final_root<R: ChainRead>(
    chain: &R,
    registry: Address,
    epoch: u64,
) -> Result<B256, ReadError<R::Error>> {
    let mut b = Batch::new();
    let slot = b.add(registry, &EpochRegistry::finalRootCall { epoch });
    b.run(chain).await?.take(slot)
}

/// The registry's latest final epoch and its root (`None` before any epoch is final): one batch for the
/// flag and the epoch (which reverts before any), one for the root.
///
/// # Errors
/// The transport's; an answer that does not decode.
pub async fn latest_final<R: ChainRead>(
    chain: &R,
    registry: Address,
) -> Result<Option<(u64, B256)>, ReadError<R::Error>> {
    let mut b = Batch::new();
    let has = b.add(registry, &EpochRegistry::hasFinalEpochCall {});
    let latest = b.add(registry, &EpochRegistry::latestFinalEpochCall {});
    let mut a = b.run(chain).await?;
    if !a.take(has)? {
        return Ok(None);
    }
    let epoch = a.take(latest)?;
    Ok(Some((epoch, final_root(chain, registry, epoch).await?)))
}

/// A final epoch: its number, its final root, and when its final proposal was made (unix seconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FinalEpoch {
    /// The epoch.
    pub epoch: u64,
    /// Its final root.
    pub root: B256,
    /// When its final root was proposed.
    pub proposed_at: u64,
}

/// Epochs read per batch by [`final_epochs`], going back from the latest final one.
const FINAL_WINDOW: u64 = 32;

/// The registry's final epochs, highest first, at most `last` of them, from state alone (issue 38: no log
/// scan, so a first visit costs the same on a year-old registry): the latest final epoch, then the slots below
/// it [`FINAL_WINDOW`] at a time, each window one batch (status, final root, proposal time), until `last` are
/// found or the first epoch is reached. An epoch struck and re-proposed counts by its current slot.
///
/// # Errors
/// The transport's; an answer that does not decode.
pub async fn final_epochs<R: ChainRead>(
    chain: &R,
    registry: Address,
    last: usize,
) -> Result<Vec<FinalEpoch>, ReadError<R::Error>> {
    let mut b = Batch::new();
    let has = b.add(registry, &EpochRegistry::hasFinalEpochCall {});
    let latest = b.add(registry, &EpochRegistry::latestFinalEpochCall {});
    let first = b.add(registry, &EpochRegistry::firstEpochCall {});
    let mut a = b.run(chain).await?;
    let mut out = Vec::new();
    if last == 0 || !a.take(has)? {
        return Ok(out);
    }
    let (mut hi, first) = (a.take(latest)?, a.take(first)?);
    loop {
        let lo = hi.saturating_sub(FINAL_WINDOW - 1).max(first);
        let mut b = Batch::new();
        let slots: Vec<_> = (lo..=hi)
            .rev()
            .map(|epoch| {
                (
                    epoch,
                    b.add(registry, &EpochRegistry::statusCall { epoch }),
                    b.add(registry, &EpochRegistry::finalRootCall { epoch }),
                    b.add(registry, &EpochRegistry::proposedAtCall { epoch }),
                )
            })
            .collect();
        let mut a = b.run(chain).await?;
        for (epoch, status, root, at) in slots {
            if EpochStatus::from_code(a.take(status)?._0) != EpochStatus::Final {
                continue;
            }
            out.push(FinalEpoch {
                epoch,
                root: a.take(root)?,
                proposed_at: a.take(at)?,
            });
            if out.len() == last {
                return Ok(out);
            }
        }
        if lo <= first {
            return Ok(out);
        }
        hi = lo - 1;
    }
}

/// The times an intake report's window must equal (C21): when epoch `epoch − 1` was proposed (the window's
/// exclusive start; 0 for the registry's first epoch) and when `epoch` was proposed (the snapshot cannot be
/// after it), read in one batch.
///
/// # Errors
/// The transport's; an answer that does not decode.
pub async fn intake_window<R: ChainRead>(
    chain: &R,
    registry: Address,
    epoch: u64,
) -> Result<(u64, u64), ReadError<R::Error>> {
    let mut b = Batch::new();
    let first = b.add(registry, &EpochRegistry::firstEpochCall {});
    let prev = b.add(
        registry,
        &EpochRegistry::proposedAtCall {
            epoch: epoch.saturating_sub(1),
        },
    );
    let this = b.add(registry, &EpochRegistry::proposedAtCall { epoch });
    let mut a = b.run(chain).await?;
    let start = if epoch > a.take(first)? {
        a.take(prev)?
    } else {
        0
    };
    Ok((start, a.take(this)?))
}

/// `EpochRegistry.verifyScore`: does `proof` prove `project`'s published score `score_wad` (C27: the one
/// score leaf per project, what FeeLanes reads) against final epoch `epoch`'s root?
///
/// # Errors
/// The transport's; the revert (for an epoch that is not final).
pub async fn verify_score<R: ChainRead>(
    chain: &R,
    registry: Address,
    epoch: u64,
    project: Address,
    score_wad: U256,
    proof: Vec<B256>,
) -> Result<bool, ReadError<R::Error>> {
    let mut b = Batch::new();
    let slot = b.add(
        registry,
        &EpochRegistry::verifyScoreCall {
            epoch,
            project,
            scoreWad: score_wad,
            proof,
        },
    );
    b.run(chain).await?.take(slot)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::Log;
    use alloy_primitives::{Bytes, LogData};
    use alloy_sol_types::{SolCall, SolEvent, SolValue};

    #[test]
    fn a_proposing_transaction_decodes_to_its_message_and_approvals() {
        let members = [Address::repeat_byte(1), Address::repeat_byte(2)];
        let call = EpochRegistry::proposeCall {
            epoch: 7,
            root: B256::repeat_byte(0x11),
            inputsRoot: B256::repeat_byte(0x22),
            expiry: 99,
            approvals: members
                .iter()
                .map(|m| EpochRegistry::Approval {
                    member: *m,
                    signature: Bytes::from(vec![m.0[0]; 65]),
                })
                .collect(),
        };
        let proposer = Address::repeat_byte(9);
        let p = decode_propose(&call.abi_encode(), proposer).unwrap();
        assert_eq!(
            p.message,
            EpochRoot {
                epoch: 7,
                root: B256::repeat_byte(0x11),
                inputsRoot: B256::repeat_byte(0x22),
                proposer,
                expiry: 99,
            }
        );
        assert_eq!(
            p.approvals.iter().map(|a| a.member).collect::<Vec<_>>(),
            members
        );
        assert_eq!(p.approvals[1].signature, vec![2u8; 65]);
        // Another call's input is not a proposal.
        let other = EpochRegistry::finalizeCall { epoch: 7 }.abi_encode();
        assert!(decode_propose(&other, proposer).is_err());
    }

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
            proposal: Proposal {
                epoch: 7,
                root: B256::ZERO,
                inputs_root: B256::ZERO,
                proposer: Address::repeat_byte(1),
                window_end: deadline,
                tx: B256::ZERO,
                block: 0,
                log_index: 0,
            },
            slot: EpochSlot {
                status: EpochStatus::from_code(status),
                deadline,
                challenges,
            },
            proposed_at: 0,
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

    /// A registry with epochs 3 (proposed twice) and 4, answering by calldata.
    struct Reg;

    const REG: Address = Address::repeat_byte(0xee);

    fn proposed(epoch: u64, root: u8, block: u64) -> Log {
        let e = EpochRegistry::RootProposed {
            epoch,
            root: B256::repeat_byte(root),
            inputsRoot: B256::repeat_byte(root ^ 0xff),
            proposer: Address::repeat_byte(1),
            deadline: 1_000 + block,
            expiry: 0,
        };
        let data: LogData = e.encode_log_data();
        Log {
            address: Some(REG),
            topics: data.topics().to_vec(),
            data: data.data,
            block_number: U256::from(block),
            transaction_hash: B256::repeat_byte(block as u8),
            log_index: Some(U256::from(2)),
        }
    }

    impl ChainRead for Reg {
        type Error = String;

        async fn logs(&self, f: &LogFilter, from: u64, to: u64) -> Result<Vec<Log>, String> {
            assert_eq!((f.address, from, to), (REG, 10, 99));
            Ok(vec![
                proposed(3, 0xa1, 20),
                proposed(4, 0xb1, 30),
                proposed(3, 0xa2, 40),
            ])
        }

        async fn block_timestamps(&self, _: &[u64]) -> Result<BTreeMap<u64, u64>, String> {
            unreachable!()
        }

        async fn call_batch(
            &self,
            calls: &[(Address, Bytes)],
            block: Option<u64>,
        ) -> Result<Vec<Result<Bytes, String>>, String> {
            assert_eq!(block, None);
            Ok(calls
                .iter()
                .map(|(_, d)| {
                    let epoch = |d: &[u8]| u64::abi_decode(&d[4..]).unwrap();
                    let out: Vec<u8> = match d[..4].try_into().unwrap() {
                        EpochRegistry::statusCall::SELECTOR => (
                            U256::from(if epoch(d) == 3 { 1 } else { 3 }),
                            U256::from(500),
                        )
                            .abi_encode_params(),
                        EpochRegistry::challengeCountCall::SELECTOR => {
                            U256::from(epoch(d) - 2).abi_encode()
                        }
                        EpochRegistry::proposedAtCall::SELECTOR => (epoch(d) * 100).abi_encode(),
                        EpochRegistry::bondCall::SELECTOR => U256::from(7).abi_encode(),
                        EpochRegistry::adjudicatorCall::SELECTOR => {
                            Address::repeat_byte(9).abi_encode()
                        }
                        EpochRegistry::firstEpochCall::SELECTOR => 3u64.abi_encode(),
                        EpochRegistry::hasFinalEpochCall::SELECTOR => true.abi_encode(),
                        EpochRegistry::latestFinalEpochCall::SELECTOR => 4u64.abi_encode(),
                        EpochRegistry::finalRootCall::SELECTOR if epoch(d) == 4 => {
                            B256::repeat_byte(0xf4).abi_encode()
                        }
                        _ => return Err("reverted".to_string()),
                    };
                    Ok(out.into())
                })
                .collect())
        }
    }

    #[test]
    fn an_epochs_current_proposal_is_its_last_and_its_slot_is_read_in_one_batch() {
        let r = futures::executor::block_on(discover(&Reg, REG, 10, 99, None)).unwrap();
        assert_eq!(
            (r.bond, r.adjudicator),
            (U256::from(7), Address::repeat_byte(9))
        );
        assert_eq!(r.credit, U256::ZERO, "no account, no credit read");
        let epochs: Vec<_> = r
            .epochs
            .iter()
            .map(|e| {
                (
                    e.epoch(),
                    e.proposal.root,
                    e.proposal.block,
                    e.slot,
                    e.proposed_at,
                )
            })
            .collect();
        let slot = |status, challenges| EpochSlot {
            status,
            deadline: 500,
            challenges,
        };
        assert_eq!(
            epochs,
            [
                (
                    4,
                    B256::repeat_byte(0xb1),
                    30,
                    slot(EpochStatus::Final, 2),
                    400
                ),
                (
                    3,
                    B256::repeat_byte(0xa2),
                    40,
                    slot(EpochStatus::Pending, 1),
                    300
                ),
            ],
            "latest epoch first; a re-proposal replaces the earlier one"
        );
        let p = &r.epochs[1].proposal;
        assert_eq!(
            (p.inputs_root, p.window_end, p.tx, p.log_index),
            (
                B256::repeat_byte(0xa2 ^ 0xff),
                1_040,
                B256::repeat_byte(40),
                2
            )
        );
        // The adjudicator rules; anyone else challenges a pending slot before its deadline.
        assert_eq!(
            r.epochs[1].actions(499, Some(Address::repeat_byte(2)), r.adjudicator),
            [EpochAction::Challenge]
        );
        // The window of epoch 3 opens after epoch 2's proposal only if 3 is not the first epoch.
        assert_eq!(
            futures::executor::block_on(intake_window(&Reg, REG, 3)).unwrap(),
            (0, 300)
        );
        assert_eq!(
            futures::executor::block_on(intake_window(&Reg, REG, 4)).unwrap(),
            (300, 400)
        );
        assert!(matches!(
            futures::executor::block_on(final_root(&Reg, REG, 3)),
            Err(ReadError::Transport(e)) if e == "reverted"
        ));
        // From state: the latest final epoch down to the first, a pending one skipped (its final root reverts,
        // unread).
        assert_eq!(
            futures::executor::block_on(final_epochs(&Reg, REG, 5)).unwrap(),
            [FinalEpoch {
                epoch: 4,
                root: B256::repeat_byte(0xf4),
                proposed_at: 400
            }]
        );
        assert!(futures::executor::block_on(final_epochs(&Reg, REG, 0))
            .unwrap()
            .is_empty());
    }
}
