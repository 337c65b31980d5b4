//! From a cohort's signed attestations and re-fetches to each project's inputs (C21).
//!
//! Every metric value in an attestation is one **claim**. Per project (one [`Submission`]), in order:
//!
//! 1. **Not a claim** (ignored, reported, never counted): a metric whose name is a banned input
//!    ([`super::names`]), that its source is not configured to report, or that is not a feature of the
//!    project's track; an attestation naming another project or another epoch, from an unconfigured
//!    source, or an exact copy of one already taken; a claim whose re-fetch source could not be reached
//!    (neither side's fault can be shown: dropped, not counted against the project).
//! 2. **Failed** (dropped, counts against the project: `claims += 1`, `failed += 1`): a signature that does
//!    not recover (C6 rules); a key not registered for the project, registered for another source, or not
//!    valid when the attestation says it observed the data (`registeredAt ≤ observedAt < revokedAt`); an
//!    observation outside the epoch's window (`windowStart < observedAt ≤ snapshot`); two *different*
//!    attestations, each passing those checks, from one source for one project and epoch (the source
//!    contradicts itself: every claim of both fails); a re-fetched value that differs from the attested one by more than the metric's tolerance
//!    (`|attested − refetched| · 10,000 > toleranceBps · refetched`).
//! 3. **Used** (`claims += 1`): the re-fetched value where the source has a re-fetch, else the attested one.
//!
//! A feature's value is the **smallest** used value among its claims (decided: two sources reporting one
//! metric are both checked, and the protocol takes the conservative one), 0 without one. `verifiedOutput`
//! (the MIN_OUTPUT test, C3) is the value of the track's configured output feature, which may not be
//! self-reported. `ageSecs` counts from the project's first registered source key
//! (`SourceKeyRegistry.firstRegisteredAt`) to the snapshot, 0 without one (decided: the registry is the one
//! age record every client can read, so a project is scored from 14 days after it joined).
//!
//! Who attributes a failure: the operator accepts attestations only through each project's own submission
//! channel, so a failed claim is one the project itself handed in; an attestation naming another project is
//! never counted against either.

use super::anomaly::{left_out, AdapterKind, Exclusion};
use super::keys::KeyBook;
use super::names::forbidden_input;
use super::typed::{source_id, SignedAttestation};
use crate::eip712::SignatureError;
use crate::scoring::config::ForgeryTier;
use crate::scoring::epoch::ProjectData;
use crate::scoring::{ProjectInput, TrackConfig};
use crate::serde_dec;
use alloy_primitives::map::{HashMap, HashSet};
use alloy_primitives::{Address, B256, U256};
use alloy_sol_types::Eip712Domain;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Most a tolerance may be: 100 % (10,000 bps).
pub const MAX_TOLERANCE_BPS: u32 = 10_000;

/// One metric a source reports, with its published reconciliation tolerance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MetricRule {
    /// Metric (feature) name.
    pub name: String,
    /// How far the attested value may be from the re-fetched one, in bps of the re-fetched value.
    #[serde(default)]
    pub tolerance_bps: u32,
}

/// A data source: its name (hashed as the registry's `source`), the metrics it reports, and whether an
/// independent re-fetch exists for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SourceRule {
    /// Source name (`github`, `stripe`, …).
    pub name: String,
    /// Metrics it reports.
    pub metrics: Vec<MetricRule>,
    /// Whether every claim of this source is reconciled with a re-fetch.
    #[serde(default)]
    pub refetch: bool,
    /// The adapter that re-fetches it, when it is one that knows its source's rules (C21a): a build refuses
    /// a re-fetch configuration that gives it another.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adapter: Option<AdapterKind>,
}

impl SourceRule {
    /// Whether its claims are checked against the source's own system (C21a: the tier follows the check).
    pub fn verifies(&self) -> bool {
        self.refetch
    }
}

/// The published intake configuration (pinned to a model version with the tracks).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IntakeConfig {
    /// The sources.
    pub sources: Vec<SourceRule>,
    /// Per track name, the feature that is its verified output (C3 MIN_OUTPUT).
    pub output_features: BTreeMap<String, String>,
}

/// One project's submission: its track, privacy, and the attestations it handed in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Submission {
    /// Project address.
    pub project: Address,
    /// Track name.
    pub track: String,
    /// Whether its inputs stay private (salted commitment).
    #[serde(default)]
    pub private: bool,
    /// Commitment salt (non-zero when private).
    #[serde(default)]
    pub salt: B256,
    /// Its attestations.
    #[serde(default)]
    pub attestations: Vec<SignedAttestation>,
}

/// What a re-fetch returned for one claim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind", deny_unknown_fields)]
pub enum Refetch {
    /// The independently fetched value.
    Value {
        /// The value.
        #[serde(with = "serde_dec::u256")]
        value: U256,
        /// What the source's adapter left out of it, each item named (C21a).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        excluded: Vec<Exclusion>,
    },
    /// The source could not be read (the reason, for the report).
    Unavailable {
        /// Why.
        reason: String,
    },
}

/// Re-fetch results by `(project, source name, metric name)`. Looked up per claim without allocating
/// (a project's few entries sit together under its address).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RefetchTable {
    by_project: HashMap<Address, Vec<(String, String, Refetch)>>,
}

impl RefetchTable {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records what `(project, source, metric)`'s re-fetch returned; the previous entry, if any, is
    /// replaced and returned (as `HashMap::insert`).
    pub fn insert(&mut self, key: (Address, String, String), value: Refetch) -> Option<Refetch> {
        let (project, source, metric) = key;
        let entries = self.by_project.entry(project).or_default();
        match entries
            .iter_mut()
            .find(|(s, m, _)| *s == source && *m == metric)
        {
            Some(e) => Some(std::mem::replace(&mut e.2, value)),
            None => {
                entries.push((source, metric, value));
                None
            }
        }
    }

    /// What `(project, source, metric)`'s re-fetch returned, if it was fetched.
    pub fn get(&self, project: Address, source: &str, metric: &str) -> Option<&Refetch> {
        self.by_project
            .get(&project)?
            .iter()
            .find(|(s, m, _)| s == source && m == metric)
            .map(|e| &e.2)
    }

    /// Entries in the table.
    pub fn len(&self) -> usize {
        self.by_project.values().map(Vec::len).sum()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.by_project.values().all(Vec::is_empty)
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.by_project.clear();
    }
}

/// Where the intake finds a claim's re-fetch (§2.1 check 2): the operator's own [`RefetchTable`], or, for a
/// re-run, what a published report states ([`crate::attest::ReportProject`]).
pub trait Refetches: Sync {
    /// What `(project, source, metric)`'s re-fetch returned, if it was fetched.
    fn refetch(&self, project: Address, source: &str, metric: &str) -> Option<&Refetch>;
}

impl Refetches for RefetchTable {
    fn refetch(&self, project: Address, source: &str, metric: &str) -> Option<&Refetch> {
        self.get(project, source, metric)
    }
}

/// Why a claim failed (it counts against the project).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "camelCase", tag = "reason")]
pub enum FailReason {
    /// The signature does not recover.
    #[error("bad signature: {detail}")]
    BadSignature {
        /// The signature error.
        detail: String,
    },
    /// The signer is not a registered key of the project.
    #[error("key {key} is not registered for this project")]
    UnregisteredKey {
        /// Recovered signer.
        key: Address,
    },
    /// The key is registered for another source.
    #[error("key {key} is registered for another source")]
    KeyForOtherSource {
        /// Recovered signer.
        key: Address,
    },
    /// The key was not valid when the data was observed.
    #[error("key {key} was not valid at {observed_at} (registered {registered_at}, revoked {revoked_at})")]
    KeyNotValid {
        /// Recovered signer.
        key: Address,
        /// The attestation's time.
        #[serde(rename = "observedAt")]
        observed_at: u64,
        /// Key registration.
        #[serde(rename = "registeredAt")]
        registered_at: u64,
        /// Key revocation (0: not revoked).
        #[serde(rename = "revokedAt")]
        revoked_at: u64,
    },
    /// Observed outside `(windowStart, snapshot]`.
    #[error("observed at {observed_at}, outside the epoch's window ({window_start}, {snapshot}]")]
    ObservedOutsideWindow {
        /// The attestation's time.
        #[serde(rename = "observedAt")]
        observed_at: u64,
        /// Window start (exclusive).
        #[serde(rename = "windowStart")]
        window_start: u64,
        /// Snapshot (inclusive).
        snapshot: u64,
    },
    /// Two different attestations from the same source for the same project and epoch.
    #[error("the source signed two different attestations for this project and epoch")]
    ConflictingAttestations,
    /// The re-fetch disagrees beyond the tolerance (the attested value is the claim's); what the source's
    /// adapter left out is named (C21a).
    #[error(
        "re-fetch disagrees: the source says {refetched}, tolerance {tolerance_bps} bps{}",
        left_out(excluded)
    )]
    RefetchMismatch {
        /// Re-fetched value.
        #[serde(with = "serde_dec::u256")]
        refetched: U256,
        /// The metric's tolerance.
        #[serde(rename = "toleranceBps")]
        tolerance_bps: u32,
        /// What the source's adapter left out of its value.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        excluded: Vec<Exclusion>,
    },
}

/// Why a metric value is not a claim (reported, not counted).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "camelCase", tag = "reason")]
pub enum IgnoreReason {
    /// The attestation names another project.
    #[error("the attestation is for project {project}")]
    OtherProject {
        /// The project it names.
        project: Address,
    },
    /// The attestation is for another epoch.
    #[error("the attestation is for epoch {epoch}")]
    OtherEpoch {
        /// The epoch it names.
        epoch: u64,
    },
    /// The source is not configured.
    #[error("unknown source")]
    UnknownSource,
    /// An exact copy of an attestation already taken.
    #[error("duplicate of an attestation already taken")]
    Duplicate,
    /// Price, volume, holders or liquidity (§2.1: never inputs).
    #[error(
        "'{name}' is never an input (token price, trading volume, holder counts and liquidity)"
    )]
    ForbiddenInput {
        /// Metric name.
        name: String,
    },
    /// The source is not configured to report this metric.
    #[error("this source does not report '{name}'")]
    NotFromThisSource {
        /// Metric name.
        name: String,
    },
    /// Not a feature of the project's track.
    #[error("'{name}' is not a feature of track '{track}'")]
    NotInTrack {
        /// Metric name.
        name: String,
        /// The track.
        track: String,
    },
    /// The same metric twice in one attestation (the first is taken).
    #[error("'{name}' appears twice in the attestation")]
    DuplicateMetric {
        /// Metric name.
        name: String,
    },
    /// The re-fetch source could not be read.
    #[error("re-fetch unavailable: {detail}")]
    RefetchUnavailable {
        /// Why.
        detail: String,
    },
    /// A money- or counterparty-verified feature from a source that is signed only (C21a: the tier follows
    /// the check).
    #[error("'{name}' is {tier}, but this source is signed only, never re-fetched: it does not count at that tier")]
    BelowTier {
        /// Metric name.
        name: String,
        /// The tier the feature needs.
        tier: ForgeryTier,
    },
}

/// What became of one claim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "outcome")]
pub enum ClaimOutcome {
    /// Counted, with this value.
    Used {
        /// The value used (the re-fetched one where there is a re-fetch).
        #[serde(with = "serde_dec::u256")]
        value: U256,
        /// Whether it was reconciled with a re-fetch.
        refetched: bool,
    },
    /// Dropped and counted against the project.
    Failed {
        /// Why.
        #[serde(flatten)]
        why: FailReason,
    },
    /// Not a claim.
    Ignored {
        /// Why.
        #[serde(flatten)]
        why: IgnoreReason,
    },
}

/// One claim in the report. Read by a hand-written `Deserialize` (`claim_de`) that does not buffer the
/// flattened outcome; it reads exactly what this derived `Serialize` writes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Claim {
    /// Index of the attestation in the submission.
    pub attestation: usize,
    /// Source name.
    pub source: String,
    /// Metric name.
    pub metric: String,
    /// Attested value.
    #[serde(with = "serde_dec::u256")]
    pub attested: U256,
    /// What became of it.
    #[serde(flatten)]
    pub outcome: ClaimOutcome,
}

/// One project's result: the input the epoch is built from, and every claim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectIntake {
    /// The epoch input.
    pub input: ProjectInput,
    /// Every claim with its outcome.
    pub claims: Vec<Claim>,
}

/// The cohort's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Intake {
    /// One per submission, in submission order.
    pub projects: Vec<ProjectIntake>,
}

impl Intake {
    /// The projects' epoch inputs.
    pub fn inputs(&self) -> Vec<ProjectInput> {
        self.projects.iter().map(|p| p.input.clone()).collect()
    }

    /// Totals over the cohort: (used, failed, ignored).
    pub fn totals(&self) -> (usize, usize, usize) {
        let mut t = (0, 0, 0);
        for c in self.projects.iter().flat_map(|p| &p.claims) {
            match c.outcome {
                ClaimOutcome::Used { .. } => t.0 += 1,
                ClaimOutcome::Failed { .. } => t.1 += 1,
                ClaimOutcome::Ignored { .. } => t.2 += 1,
            }
        }
        t
    }
}

/// A configuration or cohort that cannot be taken in; the message names the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IntakeError {
    /// The intake configuration breaks a rule.
    #[error("intake config: {0}")]
    Config(String),
    /// A submission is unusable.
    #[error("submissions[{index}]: {message}")]
    Submission {
        /// Its index.
        index: usize,
        /// What is wrong.
        message: String,
    },
    /// The signer list does not match the submissions.
    #[error("signers: expected one entry per attestation of every submission")]
    Signers,
}

impl IntakeConfig {
    /// Checks the configuration against the tracks: unique non-empty source names; no banned metric;
    /// every metric a feature of some track; tolerances ≤ 100 %; each output feature a non-self-reported
    /// feature of its track, and every track given one.
    ///
    /// # Errors
    /// [`IntakeError::Config`] naming the field.
    pub fn validate(&self, tracks: &[TrackConfig]) -> Result<(), IntakeError> {
        let err = |m: String| Err(IntakeError::Config(m));
        let mut names: HashSet<&str> = HashSet::default();
        for (i, s) in self.sources.iter().enumerate() {
            if s.name.is_empty() {
                return err(format!("sources[{i}].name: must not be empty"));
            }
            if !names.insert(s.name.as_str()) {
                return err(format!("sources[{i}].name: duplicate source '{}'", s.name));
            }
            for (j, m) in s.metrics.iter().enumerate() {
                if forbidden_input(&m.name) {
                    return err(format!(
                        "sources[{i}].metrics[{j}].name: '{}' is never an input (§2.1)",
                        m.name
                    ));
                }
                if !tracks
                    .iter()
                    .any(|t| t.features.iter().any(|f| f.name == m.name))
                {
                    return err(format!(
                        "sources[{i}].metrics[{j}].name: '{}' is not a feature of any track",
                        m.name
                    ));
                }
                if m.tolerance_bps > MAX_TOLERANCE_BPS {
                    return err(format!(
                        "sources[{i}].metrics[{j}].toleranceBps: {} is above 10000",
                        m.tolerance_bps
                    ));
                }
            }
        }
        for t in tracks {
            for (k, f) in t.features.iter().enumerate() {
                if forbidden_input(&f.name) {
                    return err(format!(
                        "track '{}' features[{k}]: '{}' is never an input (§2.1)",
                        t.name, f.name
                    ));
                }
            }
            let Some(out) = self.output_features.get(&t.name) else {
                return err(format!("outputFeatures.{}: missing", t.name));
            };
            match t.features.iter().find(|f| &f.name == out) {
                None => {
                    return err(format!(
                        "outputFeatures.{}: '{out}' is not a feature of the track",
                        t.name
                    ))
                }
                Some(f) if f.tier == ForgeryTier::SelfReported => {
                    return err(format!(
                        "outputFeatures.{}: '{out}' is self-reported and cannot qualify a project",
                        t.name
                    ))
                }
                Some(_) => {}
            }
        }
        Ok(())
    }
}

/// Everything the intake of one epoch is checked against.
pub struct IntakeParams<'a> {
    /// The epoch number attestations must name.
    pub epoch: u64,
    /// The attestation domain (chain and `SourceKeyRegistry`).
    pub domain: &'a Eip712Domain,
    /// Observations must be after this time (the previous epoch's proposal time; 0 for the first).
    pub window_start: u64,
    /// The epoch's snapshot time: observations at or before it; the age reference.
    pub snapshot: u64,
    /// Track configurations.
    pub tracks: &'a [TrackConfig],
    /// The intake configuration (validated here).
    pub config: &'a IntakeConfig,
    /// The registered source keys.
    pub keys: &'a KeyBook,
}

/// Recovers every attestation's signer, serially (a caller with threads recovers in parallel and passes
/// the same shape to [`intake`]).
pub fn recover_signers(
    domain: &Eip712Domain,
    submissions: &[Submission],
) -> Vec<Vec<Result<Address, SignatureError>>> {
    submissions
        .iter()
        .map(|s| s.attestations.iter().map(|a| a.signer(domain)).collect())
        .collect()
}

/// Takes a cohort in (see the module doc). `signers[i][j]` is the recovered signer of attestation `j` of
/// submission `i` ([`recover_signers`]).
///
/// # Errors
/// [`IntakeError`] for an invalid configuration, an unknown track, a project submitted twice, a private
/// project without a salt, or a signer list of the wrong shape. Bad attestations are never errors: they
/// are reported per claim.
pub fn intake(
    p: &IntakeParams<'_>,
    submissions: &[Submission],
    signers: &[Vec<Result<Address, SignatureError>>],
    refetch: &dyn Refetches,
) -> Result<Intake, IntakeError> {
    let cohort = Cohort::check(p, submissions, signers)?;
    let projects = (0..submissions.len())
        .map(|i| cohort.take(i, refetch))
        .collect();
    Ok(Intake { projects })
}

/// A cohort whose submissions passed the cohort-wide checks (configuration, tracks, one submission per
/// project, salts, one signer result per attestation): each project is then taken in on its own
/// ([`Cohort::take`]), so a caller may take them in parallel; [`intake`] takes them in order.
#[allow(missing_debug_implementations)]
pub struct Cohort<'a> {
    p: &'a IntakeParams<'a>,
    submissions: &'a [Submission],
    signers: &'a [Vec<Result<Address, SignatureError>>],
    tracks: Vec<&'a TrackConfig>,
    /// Each configured source's rule and registry id (`keccak256(name)`, hashed once per cohort).
    sources: HashMap<&'a str, (&'a SourceRule, B256)>,
}

impl<'a> Cohort<'a> {
    /// The cohort-wide checks of [`intake`].
    ///
    /// # Errors
    /// As [`intake`].
    pub fn check(
        p: &'a IntakeParams<'a>,
        submissions: &'a [Submission],
        signers: &'a [Vec<Result<Address, SignatureError>>],
    ) -> Result<Self, IntakeError> {
        p.config.validate(p.tracks)?;
        if signers.len() != submissions.len()
            || signers
                .iter()
                .zip(submissions)
                .any(|(s, sub)| s.len() != sub.attestations.len())
        {
            return Err(IntakeError::Signers);
        }
        let sources: HashMap<&str, (&SourceRule, B256)> = p
            .config
            .sources
            .iter()
            .map(|s| (s.name.as_str(), (s, source_id(&s.name))))
            .collect();
        let mut seen_projects: HashSet<Address> = HashSet::default();
        let mut tracks = Vec::with_capacity(submissions.len());
        for (i, sub) in submissions.iter().enumerate() {
            let serr = |message: String| IntakeError::Submission { index: i, message };
            let track = p
                .tracks
                .iter()
                .find(|t| t.name == sub.track)
                .ok_or_else(|| serr(format!("track: unknown track '{}'", sub.track)))?;
            if !seen_projects.insert(sub.project) {
                return Err(serr(format!("project: {} is submitted twice", sub.project)));
            }
            if sub.private && sub.salt == B256::ZERO {
                return Err(serr("salt: a private project needs a non-zero salt".into()));
            }
            tracks.push(track);
        }
        Ok(Self {
            p,
            submissions,
            signers,
            tracks,
            sources,
        })
    }

    /// Submissions in the cohort.
    pub fn len(&self) -> usize {
        self.submissions.len()
    }

    /// Whether the cohort is empty.
    pub fn is_empty(&self) -> bool {
        self.submissions.is_empty()
    }

    /// Submission `i` taken in (every claim's outcome, its `ProjectData`).
    ///
    /// # Panics
    /// When `i` is not below [`Cohort::len`].
    pub fn take(&self, i: usize, refetch: &dyn Refetches) -> ProjectIntake {
        let n = self.submissions[i]
            .attestations
            .iter()
            .map(|s| s.attestation.metrics.len())
            .sum();
        let mut claims = Vec::with_capacity(n);
        let input = self.take_each(i, refetch, &mut |j, source, m, outcome| {
            claims.push(Claim {
                attestation: j,
                source: source.to_owned(),
                metric: m.name.clone(),
                attested: m.value,
                outcome,
            });
        });
        ProjectIntake { input, claims }
    }

    /// Submission `i`'s input alone, as [`Cohort::take`] gives it, without listing its claims (a watchtower
    /// comparing a whole cohort's inputs with a bundle's).
    ///
    /// # Panics
    /// When `i` is not below [`Cohort::len`].
    pub fn take_input(&self, i: usize, refetch: &dyn Refetches) -> ProjectInput {
        self.take_each(i, refetch, &mut |_, _, _, _| {})
    }

    /// Submission `i` taken in, each claim handed to `each` (attestation index, source, metric, outcome) as
    /// it is decided.
    fn take_each(
        &self,
        i: usize,
        refetch: &dyn Refetches,
        each: &mut ClaimSink<'_>,
    ) -> ProjectInput {
        take_project(
            self.p,
            &self.submissions[i],
            self.tracks[i],
            &self.signers[i],
            &self.sources,
            refetch,
            each,
        )
    }
}

/// Where [`take_project`] hands each claim: attestation index, source name, metric, outcome.
type ClaimSink<'a> = dyn FnMut(usize, &str, &super::typed::Metric, ClaimOutcome) + 'a;

fn take_project(
    p: &IntakeParams<'_>,
    sub: &Submission,
    track: &TrackConfig,
    signers: &[Result<Address, SignatureError>],
    sources: &HashMap<&str, (&SourceRule, B256)>,
    refetch: &dyn Refetches,
    each: &mut ClaimSink<'_>,
) -> ProjectInput {
    // Each attestation's source rule and registry id, looked up once.
    let rules: Vec<Option<&(&SourceRule, B256)>> = sub
        .attestations
        .iter()
        .map(|s| sources.get(s.attestation.source.as_str()))
        .collect();
    // The attestation-level checks, then the sources whose valid keys signed two different attestations
    // for this project and epoch (an attestation that fails its own checks is not the source's word and
    // cannot make a genuine one conflict).
    let checks: Vec<Result<(), FailReason>> = sub
        .attestations
        .iter()
        .zip(signers)
        .zip(&rules)
        .map(|((s, signer), rule)| {
            let a = &s.attestation;
            let sid = rule.map_or_else(|| source_id(&a.source), |(_, id)| *id);
            check_key(p, sub.project, a, sid, signer)
        })
        .collect();
    // A submission holds a handful of attestations: linear scans, no hashing.
    let mut by_source: Vec<(&str, Vec<usize>)> = Vec::new();
    for (j, s) in sub.attestations.iter().enumerate() {
        let a = &s.attestation;
        if a.project == sub.project && a.epoch == p.epoch && rules[j].is_some() && checks[j].is_ok()
        {
            match by_source.iter_mut().find(|(name, _)| *name == a.source) {
                Some((_, idx)) => idx.push(j),
                None => by_source.push((a.source.as_str(), vec![j])),
            }
        }
    }
    let mut conflicting = vec![false; sub.attestations.len()];
    let mut is_copy = vec![false; sub.attestations.len()];
    for (_, idx) in &by_source {
        let first = &sub.attestations[idx[0]];
        if idx[1..].iter().any(|&j| sub.attestations[j] != *first) {
            idx.iter().for_each(|&j| conflicting[j] = true);
        } else {
            idx[1..].iter().for_each(|&j| is_copy[j] = true);
        }
    }

    let mut features = vec![None::<U256>; track.features.len()];
    let (mut counted, mut failed) = (0u64, 0u64);
    for (j, s) in sub.attestations.iter().enumerate() {
        let a = &s.attestation;
        let whole: Option<ClaimOutcome> = if a.project != sub.project {
            Some(ignored(IgnoreReason::OtherProject { project: a.project }))
        } else if a.epoch != p.epoch {
            Some(ignored(IgnoreReason::OtherEpoch { epoch: a.epoch }))
        } else if rules[j].is_none() {
            Some(ignored(IgnoreReason::UnknownSource))
        } else if is_copy[j] {
            Some(ignored(IgnoreReason::Duplicate))
        } else {
            None
        };
        let failure = if whole.is_some() {
            None
        } else if conflicting[j] {
            Some(FailReason::ConflictingAttestations)
        } else {
            checks[j].clone().err()
        };
        let rule = rules[j].map(|(r, _)| *r);
        let mut metrics_seen: Vec<&str> = Vec::with_capacity(a.metrics.len());
        for m in &a.metrics {
            let outcome = if let Some(w) = &whole {
                w.clone()
            } else if forbidden_input(&m.name) {
                ignored(IgnoreReason::ForbiddenInput {
                    name: m.name.clone(),
                })
            } else if !track.features.iter().any(|f| f.name == m.name) {
                ignored(IgnoreReason::NotInTrack {
                    name: m.name.clone(),
                    track: track.name.clone(),
                })
            } else if let Some(mr) = rule.and_then(|r| r.metrics.iter().find(|x| x.name == m.name))
            {
                if metrics_seen.contains(&m.name.as_str()) {
                    ignored(IgnoreReason::DuplicateMetric {
                        name: m.name.clone(),
                    })
                } else {
                    metrics_seen.push(m.name.as_str());
                    let tier = track
                        .features
                        .iter()
                        .find(|f| f.name == m.name)
                        .map_or(ForgeryTier::SelfReported, |f| f.tier);
                    if let Some(f) = &failure {
                        ClaimOutcome::Failed { why: f.clone() }
                    } else if tier != ForgeryTier::SelfReported
                        && !rule.is_some_and(SourceRule::verifies)
                    {
                        ignored(IgnoreReason::BelowTier {
                            name: m.name.clone(),
                            tier,
                        })
                    } else if rule.is_some_and(|r| r.refetch) {
                        reconcile(sub.project, &a.source, mr, m.value, refetch)
                    } else {
                        ClaimOutcome::Used {
                            value: m.value,
                            refetched: false,
                        }
                    }
                }
            } else {
                ignored(IgnoreReason::NotFromThisSource {
                    name: m.name.clone(),
                })
            };
            match &outcome {
                ClaimOutcome::Used { value, .. } => {
                    counted += 1;
                    if let Some(k) = track.features.iter().position(|f| f.name == m.name) {
                        let v = &mut features[k];
                        *v = Some(v.map_or(*value, |old| old.min(*value)));
                    }
                }
                ClaimOutcome::Failed { .. } => {
                    counted += 1;
                    failed += 1;
                }
                ClaimOutcome::Ignored { .. } => {}
            }
            each(j, &a.source, m, outcome);
        }
    }
    let features: Vec<U256> = features
        .into_iter()
        .map(Option::unwrap_or_default)
        .collect();
    let verified_output = p
        .config
        .output_features
        .get(&track.name)
        .and_then(|o| track.features.iter().position(|f| &f.name == o))
        .map_or(U256::ZERO, |k| features[k]);
    let age_secs = p
        .keys
        .first_registered_at(sub.project)
        .map_or(0, |first| p.snapshot.saturating_sub(first));
    ProjectInput {
        project: sub.project,
        data: ProjectData {
            track: track.name.clone(),
            features,
            claims: counted,
            failed,
            verified_output,
            age_secs,
        },
        salt: if sub.private { sub.salt } else { B256::ZERO },
        private: sub.private,
    }
}

fn ignored(why: IgnoreReason) -> ClaimOutcome {
    ClaimOutcome::Ignored { why }
}

/// The attestation-level checks: signature, key registration, key window, observation window.
fn check_key(
    p: &IntakeParams<'_>,
    project: Address,
    a: &super::typed::Attestation,
    sid: B256,
    signer: &Result<Address, SignatureError>,
) -> Result<(), FailReason> {
    let key = *signer.as_ref().map_err(|e| FailReason::BadSignature {
        detail: e.to_string(),
    })?;
    let rec = p
        .keys
        .get(project, key)
        .ok_or(FailReason::UnregisteredKey { key })?;
    if rec.source != sid {
        return Err(FailReason::KeyForOtherSource { key });
    }
    if !rec.valid_at(sid, a.observedAt) {
        return Err(FailReason::KeyNotValid {
            key,
            observed_at: a.observedAt,
            registered_at: rec.registered_at,
            revoked_at: rec.revoked_at,
        });
    }
    if a.observedAt <= p.window_start || a.observedAt > p.snapshot {
        return Err(FailReason::ObservedOutsideWindow {
            observed_at: a.observedAt,
            window_start: p.window_start,
            snapshot: p.snapshot,
        });
    }
    Ok(())
}

/// Reconciles one claim with its re-fetch (§2.1 check 2): within tolerance the re-fetched value is used.
fn reconcile(
    project: Address,
    source: &str,
    rule: &MetricRule,
    attested: U256,
    table: &dyn Refetches,
) -> ClaimOutcome {
    match table.refetch(project, source, &rule.name) {
        None => ignored(IgnoreReason::RefetchUnavailable {
            detail: "not fetched".into(),
        }),
        Some(Refetch::Unavailable { reason }) => ignored(IgnoreReason::RefetchUnavailable {
            detail: reason.clone(),
        }),
        Some(Refetch::Value { value, excluded }) => {
            if within_tolerance(attested, *value, rule.tolerance_bps) {
                ClaimOutcome::Used {
                    value: *value,
                    refetched: true,
                }
            } else {
                ClaimOutcome::Failed {
                    why: FailReason::RefetchMismatch {
                        refetched: *value,
                        tolerance_bps: rule.tolerance_bps,
                        excluded: excluded.clone(),
                    },
                }
            }
        }
    }
}

/// `|attested − refetched| · 10,000 ≤ toleranceBps · refetched`, exact (512-bit products never overflow).
pub fn within_tolerance(attested: U256, refetched: U256, tolerance_bps: u32) -> bool {
    use ruint::aliases::U512;
    let diff = U512::from(attested.abs_diff(refetched));
    diff * U512::from(10_000u32) <= U512::from(tolerance_bps) * U512::from(refetched)
}

#[cfg(test)]
#[path = "intake_tests.rs"]
mod tests;
