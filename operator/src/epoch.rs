//! The epoch commands (C5–C7, C21): build, sign, propose, publish, finalize. Each step reads what it needs
//! from the chain, is idempotent (a step already done says so and succeeds), and reports what it did.

use crate::abi::EpochRegistry;
use crate::chain::{confirm, Chain, Sent};
use crate::config::{self, BadSubmission};
use crate::error::{KeyError, OpError, Result, TxError};
use crate::refetch;
use alloy::primitives::{Address, Bytes, B256, U256};
use alloy::rpc::types::Filter;
use alloy::signers::local::PrivateKeySigner;
use alloy::sol_types::Eip712Domain;
use alloy::sol_types::SolEvent;
use eden_core::attest::{
    attestation_domain, ClaimOutcome, Cohort, Intake, IntakeError, IntakeParams, IntakeReport,
    RefetchTable, ReportProject, SignedAttestation, Submission, INTAKE_FORMAT,
};
use eden_core::check::OwnInputs;
use eden_core::check::{build_packs, project_pack_path, track_pack_path};
use eden_core::committee::{check_approvals, Approval};
use eden_core::eip712::SignatureError;
use eden_core::eip712::{
    eden_domain, epoch_root_signing_hash, recover_epoch_root_signer, EpochRoot,
};
use eden_core::registry::EpochStatus;
use eden_core::scoring::bundle::{GradedThesis, PreDataProject, PreviousScore};
use eden_core::scoring::counting::{left_pre_data, select_theses, AsOf, WhyNot};
use eden_core::scoring::pinned::{config_path, ScoringConfig};
use eden_core::scoring::{build_epoch, EpochBundle, EpochInput};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// Inputs of `eden epoch build`.
#[derive(Debug, Clone)]
pub struct BuildArgs {
    /// The epoch (default: the registry's next epoch).
    pub epoch: Option<u64>,
    /// Track configurations (file or preset names), when the chain pins no configuration.
    pub tracks: String,
    /// The whole scoring configuration (C2a, read by `pinned::read`): required, and must be the one in force,
    /// when the chain pins one.
    pub config: Option<ScoringConfig>,
    /// The intake configuration file.
    pub intake: PathBuf,
    /// Directory of submission files.
    pub submissions: PathBuf,
    /// The re-fetch adapters file.
    pub refetch: Option<PathBuf>,
    /// The latest final epoch's bundle (required once the chain has a final epoch).
    pub previous: Option<PathBuf>,
    /// The publication directory holding `eden grade`'s records (C8).
    pub grades: Option<PathBuf>,
    /// Snapshot time (default: the latest block's).
    pub snapshot: Option<u64>,
    /// Output directory.
    pub out: PathBuf,
}

/// What `eden epoch build` did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BuildReport {
    /// Epoch.
    pub epoch: u64,
    /// Root.
    pub root: B256,
    /// Inputs root.
    pub inputs_root: B256,
    /// Projects.
    pub projects: usize,
    /// Claims used.
    pub claims_used: usize,
    /// Claims failed.
    pub claims_failed: usize,
    /// Values that were not claims.
    pub claims_ignored: usize,
    /// Attestations whose signature was checked.
    pub signatures: usize,
    /// Time spent on signature checks (ms).
    pub signature_ms: u128,
    /// Time spent on intake + build (ms).
    pub build_ms: u128,
    /// Submission files that could not be read.
    pub bad_files: Vec<BadSubmission>,
    /// Projects with failed claims, and their first failure.
    pub failures: Vec<(Address, String)>,
    /// Files written.
    pub written: Vec<PathBuf>,
    /// Pre-data projects whose Verified flag the chain set differently from the file (§4.4: the
    /// adjudicator's badge in `FeeLanes` wins), with the flag used.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub verified_from_chain: Vec<(Address, bool)>,
    /// The counting theses (C9a, C10a), each with its grade in force.
    pub theses_graded: usize,
    /// Of those, the ones whose grade is the adjudicator's override (C9b).
    pub theses_overridden: usize,
    /// Score ids on a project that left pre-data and has no systematic score this epoch (they count again in
    /// an epoch that scores it, while their window is open).
    pub theses_waiting: Vec<String>,
    /// Pre-data projects replayed (C10a).
    pub pre_data: usize,
    /// The cutoff the theses were selected at (C9a).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub human_as_of: Option<AsOf>,
    /// The scoring configuration the epoch was built under (C2a), `None` when the chain pins none for it.
    pub config: Option<eden_chain::epochs::ConfigPin>,
}

/// C2a: the tracks an epoch is built with. When the chain pins a configuration for `epoch`, only that one:
/// `--config` must be its file (same canonical bytes, same version), else the build is refused; without a
/// pin, the `--config` file's tracks or `--tracks`.
///
/// # Errors
/// A configuration that is not the one in force, a missing `--config` under a pin, or an unreadable file.
pub fn tracks_in_force(
    a: &BuildArgs,
    epoch: u64,
    pin: Option<eden_chain::epochs::ConfigPin>,
) -> Result<(Vec<eden_core::scoring::TrackConfig>, Option<ScoringConfig>)> {
    match (pin, &a.config) {
        (Some(pin), None) => Err(OpError::Refused(format!(
            "the chain pins scoring configuration version {} ({}) for epoch {epoch}: pass its file with --config \
             ({} from the publication)",
            pin.version,
            pin.hash,
            config_path(&pin.hash)
        ))),
        (Some(pin), Some(c)) if c.hash() != pin.hash || c.version != pin.version => {
            Err(OpError::Refused(format!(
                "the configuration given is version {} ({}); the one in force for epoch {epoch} is version {} ({}), \
                 pinned from epoch {}: refusing to build under a configuration not in force",
                c.version,
                c.hash(),
                pin.version,
                pin.hash,
                pin.first_epoch
            )))
        }
        (_, Some(c)) => Ok((c.tracks.clone(), Some(c.clone()))),
        (None, None) => Ok((config::tracks(&a.tracks)?, None)),
    }
}

/// §4.4, C10: a pre-data project's Verified badge (its replay cap, 100 instead of 50) is the
/// adjudicator's, read from `FeeLanes.verified` at the build's block, so the bundle says what the
/// chain says (the Score page and the watchtower compare the two); a file's different flag is
/// replaced and reported. A deployment without `FeeLanes` keeps the file's flags.
async fn verified_from_chain(
    chain: &Chain,
    block: u64,
    mut list: Vec<PreDataProject>,
) -> Result<(Vec<PreDataProject>, Vec<(Address, bool)>)> {
    let Some(at) = chain.net.contracts.fee_lanes else {
        return Ok((list, Vec::new()));
    };
    let projects: Vec<Address> = list.iter().map(|p| p.project).collect();
    let flags = eden_chain::lanes::verified_at(chain, at, &projects, block).await?;
    let mut changed = Vec::new();
    for p in &mut list {
        let on_chain = flags.get(&p.project).copied().unwrap_or(p.verified);
        if on_chain != p.verified {
            p.verified = on_chain;
            changed.push((p.project, on_chain));
        }
    }
    Ok((list, changed))
}

/// `eden epoch build`.
pub async fn build(chain: &Chain, a: &BuildArgs) -> Result<BuildReport> {
    let reg = chain.registry();
    let (block, now) = chain.head().await?;
    let snapshot = a.snapshot.unwrap_or(now);
    let epoch = match a.epoch {
        Some(e) => e,
        None => reg.nextEpoch().call().await.map_err(OpError::rpc)?,
    };
    // C21: the window opens after the previous epoch's proposal (the shared rule the Score page checks).
    let (window_start, _) =
        eden_chain::epochs::intake_window(chain, chain.net.contracts.epoch_registry, epoch).await?;
    let keys = chain.key_book(block).await?;
    let key_registry = chain
        .net
        .contracts
        .source_key_registry
        .ok_or_else(|| OpError::Refused("no sourceKeyRegistry".into()))?;
    let domain = attestation_domain(chain.net.chain_id, key_registry);
    let pin =
        eden_chain::epochs::config_for(chain, chain.net.contracts.epoch_registry, epoch).await?;
    let (tracks, scoring) = tracks_in_force(a, epoch, pin)?;
    let cfg = config::intake_config(&a.intake)?;
    cfg.validate(&tracks)?;
    let (subs, bad_files) = config::submissions(&a.submissions)?;

    // Signatures on both cores.
    let t0 = Instant::now();
    let signers = recover_all(&domain, &subs);
    let signature_ms = t0.elapsed().as_millis();

    let table = match &a.refetch {
        Some(p) => {
            let adapters = refetch::adapters(p)?;
            refetch::check_kinds(&cfg, &adapters)?;
            let window = refetch::Window {
                start: window_start,
                end: snapshot,
            };
            refetch::refetch_all(&cfg, Arc::new(adapters), &subs, epoch, window).await?
        }
        None => Default::default(),
    };

    let (previous_epoch, previous, prev_bundle) =
        previous_scores(chain, a.previous.as_deref()).await?;
    // C2a: under a pinned grader, every grade comes from that grader's configuration.
    if let (Some(dir), Some(grader)) = (&a.grades, pin.and(scoring.as_ref()).and_then(|c| c.grader))
    {
        for (_, r) in crate::grade::store::GradeStore::new(dir).graded()? {
            if r.config_hash != grader {
                return Err(OpError::Refused(format!(
                    "score {} was graded under grader configuration {}; the pinned configuration's grader is \
                     {grader}: grade it again under the configuration in force",
                    r.score_id, r.config_hash
                )));
            }
        }
    }
    let records: BTreeMap<U256, GradedThesis> = match &a.grades {
        Some(dir) => crate::grade::store::GradeStore::new(dir)
            .graded_theses()?
            .into_iter()
            .map(|t| (t.score_id, t))
            .collect(),
        None => BTreeMap::new(),
    };

    let t1 = Instant::now();
    let params = IntakeParams {
        epoch,
        domain: &domain,
        window_start,
        snapshot,
        tracks: &tracks,
        config: &cfg,
        keys: &keys,
    };
    let taken = take_in_all(&params, &subs, &signers, &table)?;
    let intake_ms = t1.elapsed().as_millis();
    let inputs = taken.inputs();
    // C9a, C10a: the theses that count are the chain's, at this block; none is handed in.
    let cohort: Vec<Address> = inputs.iter().map(|i| i.project).collect();
    let human = select_human(chain, block, now, &cohort, prev_bundle.as_ref(), &records).await?;
    let (pre_data, verified_changed) = verified_from_chain(chain, block, human.pre_data).await?;
    // Intake and build only: the chain reads between them are not build time.
    let t2 = Instant::now();
    let bundle = build_epoch(&EpochInput {
        epoch,
        tracks: tracks.clone(),
        projects: inputs,
        previous,
        previous_epoch,
        theses: human.theses,
        pre_data,
        human_as_of: human.as_of,
        left_pre_data: human.left_before,
    })?;
    let build_ms = intake_ms + t2.elapsed().as_millis();

    let (used, failed, ignored) = taken.totals();
    let mut failures = Vec::new();
    let mut report_projects = Vec::new();
    for (p, s) in taken.projects.iter().zip(&subs) {
        if let Some(c) = p
            .claims
            .iter()
            .find(|c| matches!(c.outcome, ClaimOutcome::Failed { .. }))
        {
            if let ClaimOutcome::Failed { why } = &c.outcome {
                failures.push((
                    p.input.project,
                    format!("{} from {}: {why}", c.metric, c.source),
                ));
            }
        }
        report_projects.push(ReportProject::of(p, s, &table));
    }
    let report = IntakeReport {
        format: INTAKE_FORMAT.into(),
        epoch,
        chain_id: chain.net.chain_id,
        source_key_registry: key_registry,
        window_start,
        snapshot,
        key_block: block,
        config: cfg,
        projects: report_projects,
    };

    let mut written = Vec::new();
    let bundle_path = a.out.join("bundle.json");
    config::write(
        &bundle_path,
        &bundle.to_json().map_err(|e| OpError::input("bundle", e))?,
    )?;
    written.push(bundle_path);
    let report_path = a.out.join("intake.json");
    config::write(
        &report_path,
        &serde_json::to_string(&report).map_err(|e| OpError::input("report", e))?,
    )?;
    written.push(report_path);
    for p in taken.projects.iter().filter(|p| p.input.private) {
        let own = OwnInputs {
            data: p.input.data.clone(),
            salt: Some(p.input.salt),
        };
        let path = a
            .out
            .join("private")
            .join(format!("{:#x}-{epoch}.json", p.input.project));
        config::write(
            &path,
            &serde_json::to_string_pretty(&own).map_err(|e| OpError::input("private inputs", e))?,
        )?;
        written.push(path);
    }
    Ok(BuildReport {
        epoch,
        root: bundle.root,
        inputs_root: bundle.inputs_root,
        projects: bundle.projects.len(),
        claims_used: used,
        claims_failed: failed,
        claims_ignored: ignored,
        signatures: signers.iter().map(Vec::len).sum(),
        signature_ms,
        build_ms,
        bad_files,
        failures,
        written,
        verified_from_chain: verified_changed,
        theses_graded: bundle.theses.len(),
        theses_overridden: human.overridden,
        theses_waiting: human.waiting.iter().map(U256::to_string).collect(),
        pre_data: bundle.pre_data().count(),
        human_as_of: human.as_of,
        config: pin,
    })
}

/// What the epoch's human layer takes (C9a, C9b, C10a), as [`select_human`] read it.
struct HumanInput {
    theses: Vec<GradedThesis>,
    pre_data: Vec<PreDataProject>,
    as_of: Option<AsOf>,
    left_before: Vec<Address>,
    overridden: usize,
    waiting: Vec<U256>,
}

/// C9a, C9b, C10a: the counting theses at `block` (time `now`) from the registry's `Scored` and
/// `GradeOverridden` events, each with its grade in force (the override, else its grading record), and the
/// pre-data projects. A deployment without a ScorerRegistry has no human layer.
///
/// # Errors
/// The node's; a counting thesis without a grade (`eden grade` it first, C8).
async fn select_human(
    chain: &Chain,
    block: u64,
    now: u64,
    cohort: &[Address],
    previous: Option<&EpochBundle>,
    records: &BTreeMap<U256, GradedThesis>,
) -> Result<HumanInput> {
    let Some(registry) = chain.net.contracts.scorer_registry else {
        return Ok(HumanInput {
            theses: vec![],
            pre_data: vec![],
            as_of: None,
            left_before: vec![],
            overridden: 0,
            waiting: vec![],
        });
    };
    let (scores, overrides) = futures::try_join!(
        crate::human::chain_scores(chain, registry, block),
        crate::human::overrides(chain, registry, block),
    )?;
    let as_of = AsOf { block, time: now };
    let left_before = previous.map_or_else(Vec::new, |p| {
        let projects: Vec<Address> = p.projects.iter().map(|r| r.project).collect();
        left_pre_data(&p.left_pre_data, &projects, &[])
    });
    let sel = select_theses(&scores, &overrides, records, as_of, cohort, &left_before)
        .map_err(|e| OpError::Refused(e.to_string()))?;
    Ok(HumanInput {
        overridden: sel.theses.iter().filter(|t| t.overridden).count(),
        theses: sel.theses.into_iter().map(|t| t.thesis).collect(),
        pre_data: sel
            .pre_data
            .into_iter()
            .map(|project| PreDataProject {
                project,
                verified: false,
            })
            .collect(),
        as_of: Some(as_of),
        left_before,
        waiting: sel
            .not
            .iter()
            .filter(|(_, w)| matches!(w, WhyNot::ProjectNotInEpoch))
            .map(|(id, _)| *id)
            .collect(),
    })
}

/// Every attestation's signer (C21), recovered on every core: one flat parallel pass over the cohort's
/// attestations, regrouped per submission (`result[i][j]` is attestation `j` of submission `i`, as
/// [`eden_core::attest::intake`] takes them).
pub fn recover_all(
    domain: &Eip712Domain,
    subs: &[Submission],
) -> Vec<Vec<Result<Address, SignatureError>>> {
    let flat: Vec<(usize, &SignedAttestation)> = subs
        .iter()
        .enumerate()
        .flat_map(|(i, s)| s.attestations.iter().map(move |x| (i, x)))
        .collect();
    let recovered: Vec<_> = flat.par_iter().map(|(_, x)| x.signer(domain)).collect();
    let mut signers: Vec<Vec<_>> = subs
        .iter()
        .map(|s| Vec::with_capacity(s.attestations.len()))
        .collect();
    for ((i, _), r) in flat.iter().zip(recovered) {
        signers[*i].push(r);
    }
    signers
}

/// The cohort taken in (C21): the cohort-wide checks of [`eden_core::attest::intake`], then each project on
/// its own, on every core (the same result as `intake`, in submission order).
///
/// # Errors
/// As [`eden_core::attest::intake`].
pub fn take_in_all(
    params: &IntakeParams<'_>,
    subs: &[Submission],
    signers: &[Vec<Result<Address, SignatureError>>],
    refetch: &RefetchTable,
) -> std::result::Result<Intake, IntakeError> {
    let cohort = Cohort::check(params, subs, signers)?;
    Ok(Intake {
        projects: (0..cohort.len())
            .into_par_iter()
            .map(|i| cohort.take(i, refetch))
            .collect(),
    })
}

/// The previous published scores (C4): from the latest final epoch's bundle, which must be the one the
/// chain finalized (its root is `finalRoot(latestFinalEpoch)`). Without a final epoch on chain every
/// project starts from 0. Also the epoch they came from, which the bundle names (C22's previous-score tie).
async fn previous_scores(
    chain: &Chain,
    file: Option<&Path>,
) -> Result<(Option<u64>, Vec<PreviousScore>, Option<EpochBundle>)> {
    let registry = chain.net.contracts.epoch_registry;
    let Some((latest, root)) = eden_chain::epochs::latest_final(chain, registry).await? else {
        return Ok((None, vec![], None));
    };
    let Some(path) = file else {
        return Err(OpError::Refused(format!(
            "epoch {latest} is final on chain: pass its bundle with --previous (its scores are the smoothing's s(t-1), C4)"
        )));
    };
    let bundle = read_bundle(path)?;
    if bundle.epoch != latest || bundle.root != root {
        return Err(OpError::Refused(format!(
            "{} is epoch {} with root {}; the latest final epoch is {latest} with root {root}",
            path.display(),
            bundle.epoch,
            bundle.root
        )));
    }
    let scores = bundle
        .projects
        .iter()
        .map(|p| PreviousScore {
            project: p.project,
            score_wad: p.score_wad,
        })
        .collect();
    Ok((Some(latest), scores, Some(bundle)))
}

/// A signed root, as `eden epoch sign` writes it and `eden epoch propose` reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SignedRoot {
    /// Chain id of the domain.
    pub chain_id: u64,
    /// The registry (domain's verifying contract).
    pub registry: Address,
    /// Epoch.
    pub epoch: u64,
    /// Root.
    pub root: B256,
    /// Inputs root.
    pub inputs_root: B256,
    /// The one account that may propose it (C6).
    pub proposer: Address,
    /// Signature expiry (unix seconds).
    pub expiry: u64,
    /// The committee member who signed (C7a).
    pub member: Address,
    /// 65 bytes `r ‖ s ‖ v`, v ∈ {27, 28}.
    pub signature: Bytes,
}

impl SignedRoot {
    /// The C6 message this signature is over.
    pub fn message(&self) -> EpochRoot {
        EpochRoot {
            epoch: self.epoch,
            root: self.root,
            inputsRoot: self.inputs_root,
            proposer: self.proposer,
            expiry: self.expiry,
        }
    }

    /// True when `other` signs the same root for the same registry, proposer and expiry: the two can be
    /// gathered into one proposal (C7a).
    pub fn same_message(&self, other: &SignedRoot) -> bool {
        (self.chain_id, self.registry) == (other.chain_id, other.registry)
            && self.message() == other.message()
    }
}

/// How long a root signature is valid (C6).
#[derive(Debug, Clone, Copy)]
pub enum Expiry {
    /// Until this unix time: every member of a committee signs the same expiry (C7a).
    At(u64),
    /// For this many seconds from the chain's head.
    For(u64),
}

/// `eden epoch sign`: a committee member's signature of the bundle's root for `proposer` until the expiry (C6,
/// C7a), after checking that the key sits on the committee in force and the bundle rebuilds to its root.
pub async fn sign(
    chain: &Chain,
    key: &PrivateKeySigner,
    bundle_path: &Path,
    proposer: Option<Address>,
    expiry: Expiry,
) -> Result<SignedRoot> {
    let bundle = read_bundle(bundle_path)?;
    let leaves = bundle.recomputed_leaves().map_err(|(l, e)| {
        OpError::input(bundle_path.display().to_string(), format!("leaf {l}: {e}"))
    })?;
    let rebuilt = eden_core::scoring::bundle::epoch_tree(leaves, &B256::ZERO).map(|(r, _)| r);
    if rebuilt != Some(bundle.root) {
        return Err(OpError::Refused(format!(
            "{}: the leaves do not rebuild to the root {}; refusing to sign",
            bundle_path.display(),
            bundle.root
        )));
    }
    let committee =
        eden_chain::epochs::current_committee(chain, chain.net.contracts.epoch_registry).await?;
    if !committee.has(key.address()) {
        return Err(OpError::Refused(format!(
            "this key is {}, not a signer of committee #{} ({} of {})",
            key.address(),
            committee.id,
            committee.threshold,
            committee.members.len()
        )));
    }
    let expiry = match expiry {
        Expiry::At(t) => t,
        Expiry::For(secs) => chain.head().await?.1 + secs,
    };
    let msg = EpochRoot {
        epoch: bundle.epoch,
        root: bundle.root,
        inputsRoot: bundle.inputs_root,
        proposer: proposer.unwrap_or(key.address()),
        expiry,
    };
    let domain = eden_domain(chain.net.chain_id, chain.net.contracts.epoch_registry);
    let digest = epoch_root_signing_hash(&domain, &msg);
    let bytes = crate::chain::sign_digest(key, &digest)?;
    // The registry's own rules (low s, v 27/28) hold for what we publish.
    recover_epoch_root_signer(&domain, &msg, &bytes).map_err(KeyError::Signature)?;
    Ok(SignedRoot {
        chain_id: chain.net.chain_id,
        registry: chain.net.contracts.epoch_registry,
        epoch: msg.epoch,
        root: msg.root,
        inputs_root: msg.inputsRoot,
        proposer: msg.proposer,
        expiry: msg.expiry,
        member: key.address(),
        signature: bytes.into(),
    })
}

/// What `eden epoch propose` did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase", tag = "result")]
pub enum Proposed {
    /// Proposed now.
    Proposed {
        /// Epoch.
        epoch: u64,
        /// The bond escrowed (wei).
        bond: U256,
        /// The transaction.
        sent: Sent,
        /// End of the challenge window.
        deadline: u64,
    },
    /// This root was already proposed for this epoch: nothing sent.
    AlreadyProposed {
        /// Epoch.
        epoch: u64,
        /// Block of the earlier proposal.
        block: u64,
    },
}

/// `eden epoch propose`: gathers committee members' signatures of one root into a proposal (C7a) and proposes
/// it with the bond; refuses a root for any epoch but the next, signatures of different messages, a repeated
/// member, a non-member, a signature that is not its member's, and fewer than the threshold; does nothing
/// when this root is already proposed.
pub async fn propose(chain: &Chain, signed: &[SignedRoot]) -> Result<Proposed> {
    let me = chain.sender()?;
    let Some(first) = signed.first() else {
        return Err(OpError::Refused("no signature to propose".into()));
    };
    if let Some(other) = signed.iter().find(|s| !s.same_message(first)) {
        return Err(OpError::Refused(format!(
            "{}'s signature is for another message than {}'s (epoch, root, inputs, proposer, expiry, \
             registry and chain must all match): every member signs the same expiry (`eden epoch sign --expiry`)",
            other.member, first.member
        )));
    }
    let signed_root = first;
    if signed_root.chain_id != chain.net.chain_id
        || signed_root.registry != chain.net.contracts.epoch_registry
    {
        return Err(OpError::Refused(format!(
            "the signature is for registry {} on chain {}, not this deployment",
            signed_root.registry, signed_root.chain_id
        )));
    }
    if signed_root.proposer != me {
        return Err(OpError::Refused(format!(
            "the signature names {} as proposer; this key is {me}",
            signed_root.proposer
        )));
    }
    let approvals: Vec<Approval> = signed
        .iter()
        .map(|s| Approval {
            member: s.member,
            signature: s.signature.to_vec(),
        })
        .collect();
    let committee =
        eden_chain::epochs::current_committee(chain, chain.net.contracts.epoch_registry).await?;
    let domain = eden_domain(chain.net.chain_id, chain.net.contracts.epoch_registry);
    let check = check_approvals(&domain, &signed_root.message(), &approvals, &committee)
        .map_err(|e| OpError::Refused(e.to_string()))?;
    for u in &check.unrecovered {
        // Only a contract member's approval may fail recovery: the registry checks it by ERC-1271.
        let code = chain.code_at(u.member).await?;
        if code.is_empty() {
            return Err(OpError::Refused(format!(
                "the approval named {} is not its signature ({})",
                u.member,
                match &u.recovered {
                    Ok(who) => format!("it recovers to {who}"),
                    Err(e) => e.to_string(),
                }
            )));
        }
    }
    let signed = signed_root;
    let reg = chain.registry();
    if let Some(block) = find_proposal(chain, signed.epoch, signed.root).await? {
        return Ok(Proposed::AlreadyProposed {
            epoch: signed.epoch,
            block,
        });
    }
    let next = reg.nextEpoch().call().await.map_err(OpError::rpc)?;
    // C7: the next epoch, or an earlier slot an upheld challenge reopened (status None).
    let reopened = signed.epoch < next
        && signed.epoch >= reg.firstEpoch().call().await.map_err(OpError::rpc)?
        && EpochStatus::from_code(
            reg.status(signed.epoch)
                .call()
                .await
                .map_err(OpError::rpc)?
                ._0,
        ) == EpochStatus::NotProposed;
    if signed.epoch != next && !reopened {
        return Err(OpError::Refused(format!(
            "the chain's next epoch is {next}, this root is for epoch {} (whose slot is not open)",
            signed.epoch
        )));
    }
    let bond = reg.bond().call().await.map_err(OpError::rpc)?;
    let pending = reg
        .propose(
            signed.epoch,
            signed.root,
            signed.inputs_root,
            signed.expiry,
            approvals
                .into_iter()
                .map(|a| EpochRegistry::Approval {
                    member: a.member,
                    signature: a.signature.into(),
                })
                .collect(),
        )
        .value(bond)
        .send()
        .await
        .map_err(TxError::refused)?;
    let sent = confirm(pending).await?;
    let st = reg
        .status(signed.epoch)
        .call()
        .await
        .map_err(OpError::rpc)?;
    Ok(Proposed::Proposed {
        epoch: signed.epoch,
        bond,
        sent,
        deadline: st.deadline,
    })
}

/// The block where `root` was proposed for `epoch`, if it was.
async fn find_proposal(chain: &Chain, epoch: u64, root: B256) -> Result<Option<u64>> {
    use crate::abi::EpochRegistry::RootProposed;
    let filter = Filter::new()
        .address(chain.net.contracts.epoch_registry)
        .event_signature(RootProposed::SIGNATURE_HASH)
        .topic1(B256::from(U256::from(epoch)));
    let (head, _) = chain.head().await?;
    let logs = chain
        .logs(&filter, chain.net.deployment_block, head)
        .await?;
    for l in logs {
        if let Ok(ev) = l.log_decode::<RootProposed>() {
            if ev.inner.data.epoch == epoch && ev.inner.data.root == root {
                return Ok(Some(l.block_number.unwrap_or_default()));
            }
        }
    }
    Ok(None)
}

/// What `eden epoch publish` did.
/// What `eden epoch publish` wrote.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Published {
    /// Files written (empty when already published), light packs apart.
    pub written: Vec<PathBuf>,
    /// Files already there with the same content, light packs apart.
    pub unchanged: Vec<PathBuf>,
    /// Light packs (C22: `epochs/<root>/projects/*.json`, `epochs/<root>/tracks/*.json`) written.
    pub packs_written: usize,
    /// Light packs already there with the same content.
    pub packs_unchanged: usize,
}

/// `eden epoch publish`: writes the publication layout (docs/networks.md, "Publications") into `dir`, which any
/// static host can serve: `epochs/<root>.json` (the bundle) and `epochs/<root>.msgpack` (the same, compact,
/// C23), `epochs/<root>.intake.json` and `.intake.msgpack` (the intake report with the public attestations),
/// and the light packs one project's check needs (C22), built from them (which checks that the bundle's
/// trees and columns rebuild to its roots). The bundle and report may be given in either encoding.
/// Refuses to overwrite a different file under the same name.
pub fn publish(bundle_path: &Path, intake_path: Option<&Path>, dir: &Path) -> Result<Published> {
    let bundle = read_bundle(bundle_path)?;
    let root = format!("{:#x}", bundle.root);
    let epochs = dir.join("epochs");
    let encode = |e: eden_core::compact::CompactError| OpError::input("compact encoding", e);
    let mut files = vec![
        (
            dir.join(eden_chain::epochs::bundle_path(&bundle.root)),
            bundle
                .to_json()
                .map_err(|e| OpError::input("bundle", e))?
                .into_bytes(),
        ),
        (
            epochs.join(format!("{root}.msgpack")),
            bundle.to_msgpack().map_err(encode)?,
        ),
    ];
    let mut report = None;
    if let Some(p) = intake_path {
        let r = IntakeReport::from_bytes(&config::read_bytes(p)?)
            .map_err(|e| OpError::input(p.display().to_string(), e))?;
        files.push((
            dir.join(eden_chain::epochs::intake_path(&bundle.root)),
            serde_json::to_vec(&r).map_err(|e| OpError::input("intake report", e))?,
        ));
        files.push((
            epochs.join(format!("{root}.intake.msgpack")),
            r.to_msgpack().map_err(encode)?,
        ));
        report = Some(r);
    }
    let packs = build_packs(&bundle, report.as_ref())
        .map_err(|e| OpError::input(bundle_path.display().to_string(), e))?;
    let mut out = Published {
        written: vec![],
        unchanged: vec![],
        packs_written: 0,
        packs_unchanged: 0,
    };
    for (path, content) in files {
        if write_once(&path, &content)? {
            out.written.push(path);
        } else {
            out.unchanged.push(path);
        }
    }
    let mut pack_files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    for t in &packs.tracks {
        pack_files.push((
            dir.join(track_pack_path(&bundle.root, &t.track.config.name)),
            pack_json(t)?,
        ));
    }
    for p in &packs.projects {
        pack_files.push((
            dir.join(project_pack_path(&bundle.root, p.project)),
            pack_json(p)?,
        ));
    }
    for (path, content) in pack_files {
        if write_once(&path, &content)? {
            out.packs_written += 1;
        } else {
            out.packs_unchanged += 1;
        }
    }
    Ok(out)
}

/// Writes `content` to `path` unless it is already there (`false`); a different file there is refused.
pub(crate) fn write_once(path: &Path, content: &[u8]) -> Result<bool> {
    match std::fs::read(path) {
        Ok(old) if old == content => Ok(false),
        Ok(_) => Err(OpError::Refused(format!(
            "{} exists with other content; a publication never changes",
            path.display()
        ))),
        Err(_) => {
            config::write(path, content)?;
            Ok(true)
        }
    }
}

/// A pack as compact JSON.
fn pack_json<T: Serialize>(v: &T) -> Result<Vec<u8>> {
    serde_json::to_vec(v).map_err(|e| OpError::input("pack", e))
}

/// An epoch bundle from its JSON or its compact encoding (C23), told apart by the first bytes.
pub fn read_bundle(path: &Path) -> Result<EpochBundle> {
    EpochBundle::from_bytes(&config::read_bytes(path)?)
        .map_err(|e| OpError::input(path.display().to_string(), e))
}

/// What `eden epoch finalize` did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase", tag = "result")]
pub enum Finalized {
    /// Finalized now.
    Finalized {
        /// Epoch.
        epoch: u64,
        /// The transaction.
        sent: Sent,
    },
    /// Already final: nothing sent.
    AlreadyFinal {
        /// Epoch.
        epoch: u64,
    },
}

/// `eden epoch finalize`: finalizes a pending root whose window has passed; says how long is left
/// otherwise.
pub async fn finalize(chain: &Chain, epoch: u64) -> Result<Finalized> {
    chain.sender()?;
    let reg = chain.registry();
    let st = reg.status(epoch).call().await.map_err(OpError::rpc)?;
    let (_, now) = chain.head().await?;
    match EpochStatus::from_code(st._0) {
        EpochStatus::Final => return Ok(Finalized::AlreadyFinal { epoch }),
        EpochStatus::Pending if now >= st.deadline => {}
        EpochStatus::Pending => {
            return Err(OpError::Refused(format!(
                "epoch {epoch} is pending until {} ({} s from now)",
                st.deadline,
                st.deadline - now
            )))
        }
        EpochStatus::Challenged => {
            return Err(OpError::Refused(format!(
                "epoch {epoch} is challenged: the adjudicator rules first"
            )))
        }
        EpochStatus::NotProposed => {
            return Err(OpError::Refused(format!("epoch {epoch} has no proposal")))
        }
    }
    let pending = reg.finalize(epoch).send().await.map_err(TxError::refused)?;
    Ok(Finalized::Finalized {
        epoch,
        sent: confirm(pending).await?,
    })
}
