//! The intake report an epoch publishes beside its bundle (C21): `epochs/<root>.intake.json`, format
//! `eden-intake-v2`. It publishes what the bundle's inputs follow from and nobody else could recompute:
//! a public project's attestations (signatures included) and the operator's re-fetched values, and a
//! private project's claim outcomes. Anyone re-runs a public project's intake from it ([`recheck_project`])
//! with the source keys read from the chain, and compares the result with the bundle's public inputs; the
//! re-run gives every claim's outcome, so a public project's outcomes are not published beside it (v1
//! published them too, and a watchtower had to read and compare 1.2 million of them for a 100,000-project
//! epoch).
//!
//! What the re-run proves: each public number in the bundle follows from attestations signed by keys the
//! project registered (valid when observed), under the published rules and configuration. What it takes on
//! the operator's word: the re-fetched values (each is in the report; a watchtower re-fetches to check them).

use super::intake::{
    intake, Claim, ClaimOutcome, FailReason, IgnoreReason, IntakeConfig, IntakeError, IntakeParams,
    ProjectIntake, Refetch, Refetches, Submission,
};
use super::keys::KeyBook;
use super::typed::{attestation_domain, SignedAttestation};
use crate::decode::DecodeError;
use crate::scoring::epoch::ProjectData;
use crate::scoring::TrackConfig;
use crate::serde_dec;
use alloy_primitives::{Address, B256};
use serde::{Deserialize, Serialize};

/// The report's format tag.
pub const INTAKE_FORMAT: &str = "eden-intake-v2";

/// One source's re-fetched values for a public project (§2.1 check 2), by metric name: the operator's
/// word. Wire form: `{"source":"github","values":{"resolved_work":"412","unique_counterparties":
/// {"unavailable":"HTTP 503"}}}` (a value as a `uint256`, an unreachable source as its reason).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SourceRefetches {
    /// Source name.
    pub source: String,
    /// Per metric, what its re-fetch returned (each name once).
    #[serde(with = "super::refetch_wire")]
    pub values: Vec<(String, Refetch)>,
}

/// One project's part of the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReportProject {
    /// Project.
    pub project: Address,
    /// Track name.
    pub track: String,
    /// Whether its inputs are private (then its attestations are not published).
    pub private: bool,
    /// Claims counted.
    #[serde(with = "serde_dec::int")]
    pub claims: u64,
    /// Failed claims.
    #[serde(with = "serde_dec::int")]
    pub failed: u64,
    /// A private project's claims with their outcomes; empty for a public project, whose outcomes its
    /// re-run gives.
    pub outcomes: Vec<Claim>,
    /// A public project's re-fetched values, per source (empty for a private project).
    pub refetches: Vec<SourceRefetches>,
    /// A public project's attestations, signatures included (empty for a private project).
    pub attestations: Vec<SignedAttestation>,
}

impl ReportProject {
    /// A project's part of the report, from its intake and its submission: a private project's claim
    /// outcomes; a public project's attestations and the re-fetches its outcomes used (a claim used at a
    /// re-fetched value or failed against one: that value; a re-fetch that could not be made: its reason).
    pub fn of(p: &ProjectIntake, s: &Submission, refetch: &dyn Refetches) -> ReportProject {
        let private = p.input.private;
        ReportProject {
            project: p.input.project,
            track: p.input.data.track.clone(),
            private,
            claims: p.input.data.claims,
            failed: p.input.data.failed,
            outcomes: if private { p.claims.clone() } else { vec![] },
            refetches: if private {
                vec![]
            } else {
                refetches_of(&p.claims, s.project, refetch)
            },
            attestations: if private {
                vec![]
            } else {
                s.attestations.clone()
            },
        }
    }

    /// Whether the entry's claim and failure counts are those of `data`, its intake's re-run (C21: a
    /// public entry states its counts; its re-run must give them).
    pub fn counts_match(&self, data: &ProjectData) -> bool {
        (self.claims, self.failed) == (data.claims, data.failed)
    }

    /// What the report states is wrong with this entry's shape, naming the field.
    fn shape_error(&self) -> Option<String> {
        if self.private {
            if !self.attestations.is_empty() {
                return Some(
                    "attestations: a private project's attestations are not published".into(),
                );
            }
            if !self.refetches.is_empty() {
                return Some("refetches: a private project's re-fetches are not published".into());
            }
        } else if !self.outcomes.is_empty() {
            return Some(
                "outcomes: a public project's outcomes follow from its attestations (re-run them) and are not published"
                    .into(),
            );
        }
        self.refetches.iter().enumerate().find_map(|(k, r)| {
            self.refetches[..k]
                .iter()
                .any(|e| e.source == r.source)
                .then(|| format!("refetches[{k}].source: '{}' is listed twice", r.source))
        })
    }
}

impl Refetches for ReportProject {
    fn refetch(&self, project: Address, source: &str, metric: &str) -> Option<&Refetch> {
        if project != self.project {
            return None;
        }
        self.refetches
            .iter()
            .find(|r| r.source == source)?
            .values
            .iter()
            .find(|(m, _)| m == metric)
            .map(|(_, v)| v)
    }
}

/// The re-fetches a project's claim outcomes used, per source in the order the claims name them: each as
/// the operator's table has it (with what the source's adapter left out, C21a).
fn refetches_of(claims: &[Claim], project: Address, table: &dyn Refetches) -> Vec<SourceRefetches> {
    let mut out: Vec<SourceRefetches> = Vec::new();
    for c in claims {
        let entry = match &c.outcome {
            ClaimOutcome::Used {
                value,
                refetched: true,
            } => Refetch::Value {
                value: *value,
                excluded: vec![],
            },
            ClaimOutcome::Failed {
                why:
                    FailReason::RefetchMismatch {
                        refetched,
                        excluded,
                        ..
                    },
            } => Refetch::Value {
                value: *refetched,
                excluded: excluded.clone(),
            },
            ClaimOutcome::Ignored {
                why: IgnoreReason::RefetchUnavailable { detail },
            } => Refetch::Unavailable {
                reason: detail.clone(),
            },
            _ => continue,
        };
        let entry = table
            .refetch(project, &c.source, &c.metric)
            .cloned()
            .unwrap_or(entry);
        let k = match out.iter().position(|r| r.source == c.source) {
            Some(k) => k,
            None => {
                out.push(SourceRefetches {
                    source: c.source.clone(),
                    values: vec![],
                });
                out.len() - 1
            }
        };
        let values = &mut out[k].values;
        if !values.iter().any(|(m, _)| *m == c.metric) {
            values.push((c.metric.clone(), entry));
        }
    }
    out
}

/// The whole report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IntakeReport {
    /// `eden-intake-v2`.
    pub format: String,
    /// Epoch.
    #[serde(with = "serde_dec::int")]
    pub epoch: u64,
    /// Chain id of the attestation domain.
    #[serde(with = "serde_dec::int")]
    pub chain_id: u64,
    /// `SourceKeyRegistry` (the domain's verifying contract).
    pub source_key_registry: Address,
    /// Observation window start (exclusive): the previous epoch's proposal time.
    #[serde(with = "serde_dec::int")]
    pub window_start: u64,
    /// Snapshot (inclusive) and age reference.
    #[serde(with = "serde_dec::int")]
    pub snapshot: u64,
    /// Block the source keys were read at.
    #[serde(with = "serde_dec::int")]
    pub key_block: u64,
    /// The intake configuration used.
    pub config: IntakeConfig,
    /// Per project, in submission order.
    pub projects: Vec<ReportProject>,
}

impl IntakeReport {
    /// Parses a report, naming the offending field.
    ///
    /// # Errors
    /// The JSON path and what is wrong, or a wrong format tag.
    pub fn from_json(text: &str) -> Result<IntakeReport, DecodeError> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let r: IntakeReport =
            serde_path_to_error::deserialize(de).map_err(|e| DecodeError::JsonAt {
                path: e.path().to_string(),
                source: e.into_inner(),
            })?;
        r.with_known_format()
    }

    /// The report, if its format tag is [`INTAKE_FORMAT`] and each project's entry has its shape (a
    /// private project's outcomes only; a public project's re-fetches and attestations, each source once).
    fn with_known_format(self) -> Result<IntakeReport, DecodeError> {
        crate::decode::expect_format(&self.format, INTAKE_FORMAT)?;
        for (i, p) in self.projects.iter().enumerate() {
            if let Some(e) = p.shape_error() {
                return Err(DecodeError::Shape {
                    at: format!("projects[{i}]"),
                    what: e,
                });
            }
        }
        Ok(self)
    }

    /// The report as a compact publication (C23: `epochs/<root>.intake.msgpack`).
    ///
    /// # Errors
    /// Only if the encoder fails (it does not for these types).
    pub fn to_msgpack(&self) -> Result<Vec<u8>, crate::compact::CompactError> {
        crate::compact::to_msgpack(self)
    }

    /// Parses a report from its JSON or its compact encoding (C23), told apart by the first bytes;
    /// errors name the offending field, and the format tag must be [`INTAKE_FORMAT`].
    ///
    /// # Errors
    /// The path and what is wrong, or a wrong format tag.
    pub fn from_bytes(bytes: &[u8]) -> Result<IntakeReport, DecodeError> {
        if !crate::compact::is_msgpack(bytes) {
            let text = std::str::from_utf8(bytes)?;
            return Self::from_json(text);
        }
        // The projects, most of the report, are decoded on every core (`native`).
        crate::compact::from_msgpack_split::<IntakeReport, ReportProject>(
            bytes,
            "projects",
            |r, projects| r.projects = projects,
        )?
        .with_known_format()
    }

    /// The project's part.
    pub fn project(&self, project: Address) -> Option<&ReportProject> {
        self.projects.iter().find(|p| p.project == project)
    }
}

/// Re-runs one public project's intake from the report, with `keys` read from the chain (the keys its
/// attestations recover to, [`SignedAttestation::signer`], and the project's `firstRegisteredAt`). The
/// result's `input.data` must equal the bundle's public inputs of the project (its claims and failures
/// included), and its claims are every claim's outcome, re-fetches taken as the report states them.
///
/// # Errors
/// [`IntakeError`] when the report's configuration or the project's track is unusable.
pub fn recheck_project(
    report: &IntakeReport,
    p: &ReportProject,
    tracks: &[TrackConfig],
    keys: &KeyBook,
) -> Result<ProjectIntake, IntakeError> {
    let domain = attestation_domain(report.chain_id, report.source_key_registry);
    let sub = Submission {
        project: p.project,
        track: p.track.clone(),
        private: false,
        salt: B256::ZERO,
        attestations: p.attestations.clone(),
    };
    let signers = super::intake::recover_signers(&domain, std::slice::from_ref(&sub));
    let params = IntakeParams {
        epoch: report.epoch,
        domain: &domain,
        window_start: report.window_start,
        snapshot: report.snapshot,
        tracks,
        config: &report.config,
        keys,
    };
    let mut out = intake(&params, &[sub], &signers, p)?;
    Ok(out.projects.remove(0))
}
