//! The intake report an epoch publishes beside its bundle (C21): `epochs/<root>.intake.json`, format
//! `eden-intake-v1`. It carries every claim's outcome and the public projects' attestations (signatures
//! included), so anyone can re-run one project's intake from it ([`recheck_project`]) with the source keys
//! read from the chain, and compare the result with the bundle's public inputs.
//!
//! What the re-run proves: each public number in the bundle follows from attestations signed by keys the
//! project registered (valid when observed), under the published rules and configuration. What it takes on
//! the operator's word: the re-fetched values (each is in the report; a watchtower re-fetches to check them).

use super::intake::{
    intake, Claim, ClaimOutcome, FailReason, IgnoreReason, IntakeConfig, IntakeError, IntakeParams,
    ProjectIntake, Refetch, RefetchTable, Submission,
};
use super::keys::KeyBook;
use super::typed::{attestation_domain, SignedAttestation};
use crate::scoring::TrackConfig;
use crate::serde_dec;
use alloy_primitives::{Address, B256};
use serde::{Deserialize, Serialize};

/// The report's format tag.
pub const INTAKE_FORMAT: &str = "eden-intake-v1";

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
    /// Every claim with its outcome.
    pub outcomes: Vec<Claim>,
    /// The public attestations, signatures included (empty for a private project).
    pub attestations: Vec<SignedAttestation>,
}

/// The whole report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IntakeReport {
    /// `eden-intake-v1`.
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
    pub fn from_json(text: &str) -> Result<IntakeReport, String> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let r: IntakeReport = serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            format!("{path}: {}", e.into_inner())
        })?;
        r.with_known_format()
    }

    /// The report, if its format tag is [`INTAKE_FORMAT`].
    fn with_known_format(self) -> Result<IntakeReport, String> {
        if self.format != INTAKE_FORMAT {
            return Err(format!("format: '{}' is not {INTAKE_FORMAT}", self.format));
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
    pub fn from_bytes(bytes: &[u8]) -> Result<IntakeReport, String> {
        if !crate::compact::is_msgpack(bytes) {
            let text = std::str::from_utf8(bytes)
                .map_err(|e| format!("neither JSON (UTF-8) nor a compact publication: {e}"))?;
            return Self::from_json(text);
        }
        // The projects, most of the report, are decoded on every core (`native`).
        crate::compact::from_msgpack_split::<IntakeReport, ReportProject>(
            bytes,
            "projects",
            |r, projects| r.projects = projects,
        )
        .map_err(|e| e.to_string())?
        .with_known_format()
    }

    /// The project's part.
    pub fn project(&self, project: Address) -> Option<&ReportProject> {
        self.projects.iter().find(|p| p.project == project)
    }
}

/// The re-fetch table a project's reported outcomes assert (the operator's word, see the module doc).
pub fn reported_refetches(p: &ReportProject) -> RefetchTable {
    let mut t = RefetchTable::new();
    add_reported_refetches(&mut t, p);
    t
}

/// Adds the re-fetches a project's reported outcomes assert to `t` (a whole cohort's table, for re-running
/// every public project's intake in one pass).
pub fn add_reported_refetches(t: &mut RefetchTable, p: &ReportProject) {
    for c in &p.outcomes {
        let entry = match &c.outcome {
            ClaimOutcome::Used {
                value,
                refetched: true,
            } => Refetch::Value { value: *value },
            ClaimOutcome::Failed {
                why: FailReason::RefetchMismatch { refetched, .. },
            } => Refetch::Value { value: *refetched },
            ClaimOutcome::Ignored {
                why: IgnoreReason::RefetchUnavailable { detail },
            } => Refetch::Unavailable {
                reason: detail.clone(),
            },
            _ => continue,
        };
        t.insert((p.project, c.source.clone(), c.metric.clone()), entry);
    }
}

/// Re-runs one public project's intake from the report, with `keys` read from the chain (the keys its
/// attestations recover to, [`SignedAttestation::signer`], and the project's `firstRegisteredAt`). The
/// result's `input.data` must equal the bundle's public inputs of the project, and its claims the reported
/// outcomes.
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
    let mut out = intake(&params, &[sub], &signers, &reported_refetches(p))?;
    Ok(out.projects.remove(0))
}
