//! `eden watch`: the watchtower (C7, C24). Anyone may run it: it follows the registry's proposals, checks
//! each pending root against its publication, and challenges a wrong one with the bond before its window
//! closes. A correct root is left alone.
//!
//! Everything it decides is re-derived from the chain on every pass (proposals, statuses, its own earlier
//! challenges, the previous final epoch; logs settled `REORG_DEPTH` blocks deep are kept in memory for the
//! run, so a pass reads only the new blocks), never from a local file, so a restarted watchtower resumes where
//! the chain is; and it never sends while a transaction of its account is still pending, so a restart
//! cannot send a challenge twice.

use crate::abi::EpochRegistry::{RootChallenged, RootFinalized};
use crate::chain::{confirm, Chain, Sent};
use crate::epoch::recover_all;
use crate::error::{OpError, Result, TxError};
use crate::publication::{Publications, Unavailable};
use alloy::primitives::{Address, B256, U256};
use alloy::providers::Provider;
use alloy::rpc::types::{Filter, Log};
use alloy::sol_types::SolEvent;
use eden_chain::epochs::ChainEpoch;
use eden_core::attest::attestation_domain;
use eden_core::check::{
    audit_epoch, audit_intake, check_counting, overridden_ids, take_public_submissions,
    CountingChain, EpochAudit, EpochFinding, IntakeAnchor, Previous, PreviousFinal, PreviousLeft,
    Proposal,
};
use eden_core::registry::MAX_CHALLENGES;
use eden_core::scoring::pinned::{check_tracks, config_path, ScoringConfig};
use serde::Serialize;
use std::collections::HashMap;
use std::time::Instant;

/// How the watchtower acts.
#[derive(Debug, Clone)]
pub struct WatchOpts {
    /// Check and report, never send.
    pub dry_run: bool,
    /// Seconds after a proposal during which a missing publication is awaited, not challenged (C24).
    pub publication_grace: u64,
    /// Re-ask this model every recorded grading answer and report the ones that differ (C8).
    pub rerun_model: Option<crate::grade::model::ModelEndpoint>,
}

/// One proposal as the registry's `RootProposed` event states it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Proposed {
    /// Epoch.
    pub epoch: u64,
    /// Root.
    pub root: B256,
    /// Inputs root.
    pub inputs_root: B256,
    /// Proposer.
    pub proposer: Address,
    /// End of its challenge window.
    pub deadline: u64,
    /// Block of the proposal.
    pub block: u64,
    #[serde(skip)]
    log_index: u64,
}

impl From<&eden_chain::epochs::Proposal> for Proposed {
    fn from(p: &eden_chain::epochs::Proposal) -> Self {
        Proposed {
            epoch: p.epoch,
            root: p.root,
            inputs_root: p.inputs_root,
            proposer: p.proposer,
            deadline: p.window_end,
            block: p.block,
            log_index: p.log_index,
        }
    }
}

/// What the watchtower did about one pending root.
#[derive(Debug, Clone, Serialize)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "result"
)]
pub enum Action {
    /// The root is correct: left alone.
    LeftAlone,
    /// The root is wrong: challenged with the bond.
    Challenged {
        /// The challenge transaction.
        sent: Sent,
        /// The bond (wei, a decimal string).
        #[serde(serialize_with = "decimal")]
        bond: U256,
    },
    /// The root is wrong; a dry run sends nothing.
    WouldChallenge,
    /// This account already challenged this root (the challenge may have been rejected): never twice.
    AlreadyChallenged,
    /// The root is wrong but its proposal has had every challenge it may have.
    ChallengeLimit,
    /// The publication is not there yet, within the grace period.
    AwaitingPublication {
        /// Until when it is awaited.
        until: u64,
    },
    /// A transaction of this account is still pending: nothing is sent until it is mined.
    TransactionPending,
}

/// Why the publication of a root could not be checked, as the report names it.
#[derive(Debug, Clone, Serialize)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "kind"
)]
pub enum PublicationFault {
    /// The bundle is missing, unreachable or unreadable.
    Bundle {
        /// Why.
        why: Unavailable,
    },
    /// The bundle has public projects but its intake report is missing or unreadable (C21: public numbers
    /// must be re-checkable).
    IntakeReport {
        /// Why.
        why: Unavailable,
    },
    /// The intake report's source keys were read at a block after the proposal.
    KeysAfterProposal {
        /// The report's key block.
        key_block: u64,
        /// The proposal's block.
        proposal_block: u64,
    },
    /// The scoring configuration the chain pins for the epoch (C2a) is not published.
    ConfigMissing {
        /// Why.
        why: Unavailable,
    },
    /// What is published under the pinned configuration's hash is not that configuration (C2a).
    ConfigNotPinned {
        /// Why.
        #[serde(serialize_with = "display")]
        why: eden_core::scoring::pinned::PinError,
    },
}

fn display<S: serde::Serializer, T: std::fmt::Display>(
    v: &T,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// How long each part of the check took (ms), signatures apart.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Timings {
    /// Fetching and decoding the bundle (and the previous final epoch's).
    pub fetch_ms: u128,
    /// Waiting for the intake report after the audit (it is fetched and decoded meanwhile).
    pub report_wait_ms: u128,
    /// Leaves, tree, tracks, every public score, previous scores, human layer.
    pub audit_ms: u128,
    /// Attestation signatures recovered.
    pub signatures: usize,
    /// Recovering them.
    pub signature_ms: u128,
    /// Re-running the intake (signatures apart).
    pub intake_ms: u128,
}

/// Who approved a pending root (C7a), checked against the committee the registry recorded at its proposal.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Approvers {
    /// The committee's id.
    pub committee: u32,
    /// Its threshold.
    pub threshold: u8,
    /// Its size.
    pub members: usize,
    /// Members whose own key signed the root, in the transaction's order.
    pub signed: Vec<Address>,
    /// Members whose approval is not their key's signature: contracts, checked by the registry by ERC-1271.
    pub by_contract: Vec<Address>,
    /// What breaks the committee's rule (the registry should have refused it): reported, not challenged, since
    /// a challenge disputes the root's content, not how it was approved.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<String>,
}

/// The proposal's approvals checked against its committee (C7a): the committee from state
/// (`committeeOf`), the approvals from the proposing transaction, the rule from core.
async fn approvers(chain: &Chain, e: &ChainEpoch) -> Result<Approvers> {
    use eden_core::committee::check_approvals;
    use eden_core::eip712::eden_domain;
    let registry = chain.net.contracts.epoch_registry;
    let (committee, tx) = futures::join!(
        eden_chain::epochs::committee_of(chain, registry, e.epoch()),
        chain.provider.get_transaction_by_hash(e.proposal.tx)
    );
    let committee = committee?;
    let tx = tx
        .map_err(OpError::rpc)?
        .ok_or_else(|| OpError::Rpc(format!("the node has no transaction {}", e.proposal.tx)))?;
    let input = eden_chain::epochs::decode_propose(
        alloy::consensus::Transaction::input(&tx),
        e.proposal.proposer,
    )
    .map_err(|err| {
        OpError::Rpc(format!(
            "the proposing transaction {}: {err}",
            e.proposal.tx
        ))
    })?;
    let mut out = Approvers {
        committee: committee.id,
        threshold: committee.threshold,
        members: committee.members.len(),
        signed: vec![],
        by_contract: vec![],
        faults: vec![],
    };
    if input.message.root != e.proposal.root || input.message.inputsRoot != e.proposal.inputs_root {
        out.faults
            .push("the transaction's root is not the one its event names".into());
    }
    let domain = eden_domain(chain.net.chain_id, registry);
    match check_approvals(&domain, &input.message, &input.approvals, &committee) {
        Err(err) => out.faults.push(err.to_string()),
        Ok(c) => {
            out.signed = c.signed;
            for u in c.unrecovered {
                if chain.code_at(u.member).await?.is_empty() {
                    out.faults.push(format!(
                        "the approval named {} is not its signature",
                        u.member
                    ));
                } else {
                    out.by_contract.push(u.member);
                }
            }
        }
    }
    Ok(out)
}

/// The watchtower's report on one pending root.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RootReport {
    /// The proposal.
    pub proposal: Proposed,
    /// Who approved it (C7a).
    pub approvers: Approvers,
    /// What was done.
    pub action: Action,
    /// The publication could not be checked.
    pub publication: Option<PublicationFault>,
    /// The audit, when the bundle was read.
    pub audit: Option<EpochAudit>,
    /// Where the time went.
    pub timings: Timings,
    /// With `--rerun-model`: each graded thesis's recorded answers asked again (reported, never challenged).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rerun: Vec<crate::grade::rerun::RerunLine>,
}

impl RootReport {
    /// True when the root was found wrong (a finding or a publication fault).
    pub fn is_wrong(&self) -> bool {
        self.publication.is_some() || self.audit.as_ref().is_some_and(|a| !a.is_correct())
    }

    /// The first reason it is wrong, for people.
    pub fn first_reason(&self) -> Option<String> {
        if let Some(p) = &self.publication {
            return Some(match p {
                PublicationFault::Bundle { why } => format!("bundle: {why}"),
                PublicationFault::IntakeReport { why } => format!("intake report: {why}"),
                PublicationFault::KeysAfterProposal {
                    key_block,
                    proposal_block,
                } => format!(
                    "source keys read at block {key_block}, after the proposal (block {proposal_block})"
                ),
                PublicationFault::ConfigMissing { why } => {
                    format!("the pinned scoring configuration: {why}")
                }
                PublicationFault::ConfigNotPinned { why } => {
                    format!("the pinned scoring configuration: {why}")
                }
            });
        }
        let f = self.audit.as_ref()?.findings.first()?;
        Some(describe(f))
    }
}

/// A finding for people.
pub fn describe(f: &EpochFinding) -> String {
    serde_json::to_string(f).unwrap_or_else(|_| format!("{f:?}"))
}

/// A memory of audits by (epoch, root), so a long-running watchtower does not re-read a publication it
/// has checked (decisions are still made from the chain on every pass).
#[derive(Debug, Default)]
pub struct Memory {
    checked: HashMap<(u64, B256), Checked>,
    approvers: HashMap<(u64, B256), Approvers>,
}

/// One root's check: the publication fault, or the audit, and the time each part took.
type Checked = (
    Option<PublicationFault>,
    Option<EpochAudit>,
    Timings,
    Vec<crate::grade::rerun::RerunLine>,
);

/// One pass: every root pending on chain now is checked and, if wrong, challenged (see the module doc).
///
/// # Errors
/// Chain reads that fail (a pass is retried by the caller); a challenge that reverts.
pub async fn pass(
    chain: &Chain,
    pubs: &Publications,
    opts: &WatchOpts,
    memory: &mut Memory,
) -> Result<Vec<RootReport>> {
    let (head, now) = chain.head().await?;
    let addr = chain.net.contracts.epoch_registry;
    let registry =
        eden_chain::epochs::discover(chain, addr, chain.net.deployment_block, head, None).await?;
    // Pending, its current proposal (a re-proposal has a later deadline), and still challengeable.
    let pending: Vec<(Proposed, ChainEpoch)> = registry
        .epochs
        .into_iter()
        .rev()
        .filter(|e| e.slot.in_window(now))
        .map(|e| (Proposed::from(&e.proposal), e))
        .collect();
    if pending.is_empty() {
        return Ok(vec![]);
    }
    let finals = decode::<RootFinalized>(
        chain
            .logs_since_deployment(
                &Filter::new()
                    .address(addr)
                    .event_signature(RootFinalized::SIGNATURE_HASH),
                head,
            )
            .await?,
    )?;
    let mine = match chain.from {
        Some(me) => decode::<RootChallenged>(
            chain
                .logs_since_deployment(
                    &Filter::new()
                        .address(addr)
                        .event_signature(RootChallenged::SIGNATURE_HASH)
                        .topic2(me.into_word()),
                    head,
                )
                .await?,
        )?
        .into_iter()
        .map(|(_, ev)| (ev.epoch, ev.root))
        .collect(),
        None => vec![],
    };
    let mut out = Vec::new();
    for (p, slot) in pending {
        let key = (p.epoch, p.root);
        if let std::collections::hash_map::Entry::Vacant(e) = memory.checked.entry(key) {
            e.insert(check(chain, pubs, &p, &finals, opts.rerun_model.as_ref()).await?);
        }
        if let std::collections::hash_map::Entry::Vacant(e) = memory.approvers.entry(key) {
            e.insert(approvers(chain, &slot).await?);
        }
        let (publication, audit, timings, rerun) = memory.checked[&key].clone();
        let mut report = RootReport {
            proposal: p.clone(),
            approvers: memory.approvers[&key].clone(),
            action: Action::LeftAlone,
            publication,
            audit,
            timings,
            rerun,
        };
        if report.is_wrong() {
            let missing = matches!(
                &report.publication,
                Some(PublicationFault::Bundle {
                    why: Unavailable::NotFound { .. } | Unavailable::Unreachable { .. }
                }) | Some(PublicationFault::IntakeReport {
                    why: Unavailable::NotFound { .. } | Unavailable::Unreachable { .. }
                }) | Some(PublicationFault::ConfigMissing {
                    why: Unavailable::NotFound { .. } | Unavailable::Unreachable { .. }
                })
            );
            let until = slot.proposed_at.saturating_add(opts.publication_grace);
            report.action = if missing && now < until {
                // Not an audit of the content: it is read again next pass.
                memory.checked.remove(&key);
                Action::AwaitingPublication { until }
            } else if mine.contains(&key) {
                Action::AlreadyChallenged
            } else if slot.slot.challenges >= MAX_CHALLENGES {
                Action::ChallengeLimit
            } else if opts.dry_run || chain.from.is_none() {
                Action::WouldChallenge
            } else {
                challenge(chain, p.epoch).await?
            };
        }
        out.push(report);
    }
    Ok(out)
}

/// Sends the challenge, unless a transaction of this account is still pending.
async fn challenge(chain: &Chain, epoch: u64) -> Result<Action> {
    let me = chain.sender()?;
    if chain.has_pending_tx(me).await? {
        return Ok(Action::TransactionPending);
    }
    let reg = chain.registry();
    let bond = reg.bond().call().await.map_err(OpError::rpc)?;
    let balance = chain.provider.get_balance(me).await.map_err(OpError::rpc)?;
    if balance < bond {
        return Err(OpError::Refused(format!(
            "epoch {epoch} is wrong, but {me} holds {} ETH, less than the {} ETH bond",
            crate::output::eth(balance),
            crate::output::eth(bond)
        )));
    }
    let tx = reg
        .challenge(epoch)
        .value(bond)
        .send()
        .await
        .map_err(TxError::refused)?;
    Ok(Action::Challenged {
        sent: confirm(tx).await?,
        bond,
    })
}

/// Reads and audits one proposal's publication.
async fn check(
    chain: &Chain,
    pubs: &Publications,
    p: &Proposed,
    finals: &[(Log, RootFinalized)],
    rerun_model: Option<&crate::grade::model::ModelEndpoint>,
) -> Result<Checked> {
    let mut rerun = Vec::new();
    let mut t = Timings::default();
    let t0 = Instant::now();
    let (bundle, report) = pubs.epoch(&p.root).await;
    let bundle = match bundle {
        Ok(b) => b,
        Err(why) => {
            report.abort();
            return Ok((Some(PublicationFault::Bundle { why }), None, t, rerun));
        }
    };
    // The previous scores (C4) come from the latest epoch final before this proposal.
    let before = finals
        .iter()
        .filter(|(l, ev)| {
            ev.epoch < p.epoch
                && (
                    l.block_number.unwrap_or_default(),
                    l.log_index.unwrap_or_default(),
                ) < (p.block, p.log_index)
        })
        .map(|(_, ev)| (ev.epoch, ev.root))
        .max_by_key(|(e, _)| *e);
    let prev_bundle = match before {
        Some((_, root)) => pubs.bundle(&root).await.ok(),
        None => None,
    };
    t.fetch_ms = t0.elapsed().as_millis();
    let previous = match before {
        None => Previous::NoFinalEpoch,
        Some((epoch, root)) => match &prev_bundle {
            Some(bundle) => Previous::Final(PreviousFinal {
                epoch,
                root,
                bundle,
            }),
            None => Previous::Unavailable { epoch },
        },
    };
    let previous_left = match (before, &prev_bundle) {
        (None, _) => PreviousLeft::None,
        (Some(_), Some(b)) => PreviousLeft::Bundle(b),
        (Some(_), None) => PreviousLeft::Unknown,
    };
    let proposal = Proposal {
        epoch: p.epoch,
        root: p.root,
        inputs_root: p.inputs_root,
    };
    // C2a: the configuration pinned for the epoch, from its publication, checked against the pin.
    let pinned =
        match eden_chain::epochs::config_for(chain, chain.net.contracts.epoch_registry, p.epoch)
            .await?
        {
            None => None,
            Some(pin) => match pubs.get(&config_path(&pin.hash)).await {
                Err(why) => {
                    report.abort();
                    return Ok((
                        Some(PublicationFault::ConfigMissing { why }),
                        None,
                        t,
                        rerun,
                    ));
                }
                Ok(bytes) => match ScoringConfig::from_pinned(&bytes, pin.hash, pin.version) {
                    Ok(c) => Some(c),
                    Err(why) => {
                        report.abort();
                        return Ok((
                            Some(PublicationFault::ConfigNotPinned { why }),
                            None,
                            t,
                            rerun,
                        ));
                    }
                },
            },
        };
    let t1 = Instant::now();
    // The bundle is audited while the intake report arrives.
    let mut audit = tokio::task::block_in_place(|| audit_epoch(&bundle, &proposal, previous));
    if let Some(c) = &pinned {
        audit.extend(
            check_tracks(c, bundle.tracks.iter().map(|t| &t.config))
                .into_iter()
                .map(|finding| EpochFinding::Config { finding }),
        );
    }
    t.audit_ms = t1.elapsed().as_millis();
    let t_wait = Instant::now();
    let report = report.await.unwrap_or_else(|e| {
        Err(Unavailable::Unreachable {
            path: format!("epochs/{:#x}.intake", p.root),
            detail: e.to_string(),
        })
    });
    t.report_wait_ms = t_wait.elapsed().as_millis();
    let has_public = bundle.projects.iter().any(|r| !r.private);
    let report = match report {
        Ok(r) => Some(r),
        Err(why) if has_public => {
            return Ok((
                Some(PublicationFault::IntakeReport { why }),
                Some(audit),
                t,
                rerun,
            ))
        }
        Err(_) => None,
    };
    // §4.4, C10: pre-data caps against the adjudicator's badge, read where the build read it (the report's key
    // block, checked below to be before the proposal; the proposal's block without a report).
    let badge_block = report
        .as_ref()
        .map_or(p.block, |r| r.key_block.min(p.block));
    audit.extend(verified_at(chain, &bundle, badge_block).await?);
    // C9a, C9b, C10a: the theses taken are the ones that count at the bundle's cutoff, with their grades in
    // force; a project that left pre-data is not replayed again.
    let mut overridden = std::collections::BTreeSet::new();
    if let Some(registry) = chain.net.contracts.scorer_registry {
        let (scores, overrides) = futures::try_join!(
            crate::human::chain_scores(chain, registry, p.block),
            crate::human::overrides(chain, registry, p.block),
        )?;
        let cutoff_block_time = match bundle.human_as_of {
            Some(a) if a.block <= p.block => Some(chain.block_time(a.block).await?),
            _ => None,
        };
        let proposal_time = Some(chain.block_time(p.block).await?);
        let found = check_counting(
            &bundle,
            &CountingChain {
                scores: &scores,
                overrides: &overrides,
                proposal_block: p.block,
                proposal_time,
                cutoff_block_time,
                previous: previous_left,
            },
        );
        audit.extend(
            found
                .into_iter()
                .map(|finding| EpochFinding::Counting { finding }),
        );
        overridden = overridden_ids(&bundle, &overrides);
    }
    // C8: every grade against its published grading record, re-derived from the chain's theses.
    if !bundle.theses.is_empty() {
        let registry = chain.net.contracts.scorer_registry.ok_or_else(|| {
            OpError::Refused(
                "the bundle grades theses, but the network description has no scorerRegistry"
                    .into(),
            )
        })?;
        let theses = crate::grade::scored_theses(chain, registry, p.block).await?;
        let scored: Vec<(alloy::primitives::U256, B256, &str)> = theses
            .iter()
            .map(|t| (t.score_id, t.thesis_hash, t.text.as_str()))
            .collect();
        let published = crate::grade::published::published_grades(pubs, &bundle).await;
        audit.extend(eden_core::check::audit_grades(
            &bundle,
            &scored,
            &published,
            &overridden,
        ));
        if let Some(m) = rerun_model.filter(|_| audit.is_correct()) {
            rerun = crate::grade::rerun::rerun(m, &bundle, &scored, &published).await;
        }
    }
    if let Some(mut report) = report {
        if report.key_block > p.block {
            return Ok((
                Some(PublicationFault::KeysAfterProposal {
                    key_block: report.key_block,
                    proposal_block: p.block,
                }),
                Some(audit),
                t,
                rerun,
            ));
        }
        let keys = chain.key_book(report.key_block).await?;
        let registry = chain.net.contracts.source_key_registry.ok_or_else(|| {
            OpError::Refused("the network description has no sourceKeyRegistry".into())
        })?;
        let anchor = IntakeAnchor {
            chain_id: chain.net.chain_id,
            source_key_registry: registry,
        };
        let subs = take_public_submissions(&mut report);
        let domain = attestation_domain(report.chain_id, report.source_key_registry);
        let t2 = Instant::now();
        let signers = tokio::task::block_in_place(|| recover_all(&domain, &subs));
        t.signatures = signers.iter().map(Vec::len).sum();
        t.signature_ms = t2.elapsed().as_millis();
        let t3 = Instant::now();
        let findings = tokio::task::block_in_place(|| {
            audit_intake(&report, &subs, &signers, &bundle, anchor, &keys)
        });
        t.intake_ms = t3.elapsed().as_millis();
        audit.extend(findings);
    }
    Ok((None, Some(audit), t, rerun))
}

/// The bundle's pre-data Verified flags against `FeeLanes.verified` at `block` (nothing without FeeLanes).
async fn verified_at(
    chain: &Chain,
    bundle: &eden_core::scoring::EpochBundle,
    block: u64,
) -> Result<Vec<EpochFinding>> {
    let Some(at) = chain.net.contracts.fee_lanes else {
        return Ok(Vec::new());
    };
    let projects: Vec<Address> = bundle
        .human
        .iter()
        .filter(|h| h.verified.is_some())
        .map(|h| h.project)
        .collect();
    let flags = eden_chain::lanes::verified_at(chain, at, &projects, block).await?;
    Ok(eden_core::check::verified_findings(bundle, |p| {
        flags.get(&p).copied()
    }))
}

fn decimal<S: serde::Serializer>(v: &U256, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.collect_str(v)
}

fn decode<E: SolEvent>(logs: Vec<Log>) -> Result<Vec<(Log, E)>> {
    logs.into_iter()
        .map(|l| {
            let ev = l.log_decode::<E>().map_err(OpError::rpc)?.inner.data;
            Ok((l, ev))
        })
        .collect()
}
