//! Verified inputs (C21), checked: the epoch's intake report (or the project's light pack's), the project's
//! published attestations (each EIP-712 signer, its key's record in the SourceKeyRegistry), and the intake
//! re-run from them, which must give exactly the bundle's public inputs. Findings are [`InputsFlag`]s;
//! [`super::words`] says them.

use super::score_findings::InputsFlag;
use crate::chain::epochs::intake_path;
use crate::chain::sources;
use crate::chain::world::World;
use crate::error::AppError;
use alloy_primitives::{Address, B256};
use eden_core::attest::{attestation_domain, recheck_project, Claim, IntakeReport};
use eden_core::scoring::epoch::ProjectData;
use eden_core::scoring::{EpochBundle, TrackConfig};

/// One project's verified inputs, as checked here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputsCheck {
    /// Every claim with its outcome (re-run here for a public project, as reported for a private one).
    pub claims: Vec<Claim>,
    /// Attestations checked.
    pub attestations: usize,
    /// Whether the project's inputs are private (its attestations are not published).
    pub private: bool,
    /// Whether the re-run gives the bundle's inputs and the report's counts (`None` when private).
    pub matches: Option<bool>,
    /// What does not match; empty when everything does.
    pub flags: Vec<InputsFlag>,
}

/// Checks `project`'s inputs in the epoch `bundle` (published under `root`) from `given`, its light
/// pack's intake and the epoch's track configurations (C22), or else the epoch's whole intake report; `None` when the deployment has no
/// SourceKeyRegistry (its epochs predate verified inputs).
///
/// # Errors
/// The intake report is missing or unreadable, or has no entry for the project.
pub async fn check_inputs(
    w: &World,
    root: B256,
    bundle: &EpochBundle,
    project: Address,
    given: Option<(Option<IntakeReport>, Vec<TrackConfig>)>,
) -> Option<Result<InputsCheck, AppError>> {
    let registry = w.contracts.source_key_registry?;
    Some(check(w, registry, root, bundle, project, given).await)
}

async fn check(
    w: &World,
    registry: Address,
    root: B256,
    bundle: &EpochBundle,
    project: Address,
    given: Option<(Option<IntakeReport>, Vec<TrackConfig>)>,
) -> Result<InputsCheck, AppError> {
    let mut tracks: Vec<TrackConfig> = bundle.tracks.iter().map(|t| t.config.clone()).collect();
    let report = match given {
        Some((Some(r), all)) => {
            tracks = all;
            r
        }
        Some((None, _)) => {
            return Err(AppError::missing(
                "the project's light publication carries no intake: its inputs were not attested",
            ))
        }
        None => {
            let text = w
                .fetch_publication(&intake_path(&root))
                .await
                .map_err(|e| {
                    AppError::missing(format!("the epoch's intake report is not published ({e})"))
                })?;
            IntakeReport::from_json(&text)
                .map_err(|e| AppError::missing(format!("the intake report is not valid: {e}")))?
        }
    };
    let mut flags = Vec::new();
    if report.epoch != bundle.epoch {
        flags.push(InputsFlag::OtherEpoch {
            report: report.epoch,
            bundle: bundle.epoch,
        });
    }
    if report.chain_id != w.chain_id || report.source_key_registry != registry {
        flags.push(InputsFlag::OtherDeployment);
    }
    // The observation window is the chain's (C21): after epoch − 1 was proposed, up to a snapshot no later
    // than this epoch's own proposal.
    match crate::chain::epochs::intake_window(&w.rpc(), w.contracts.epoch_registry, report.epoch)
        .await
    {
        Ok((start, proposed)) => {
            if report.window_start != start {
                flags.push(InputsFlag::WindowStartDiffers {
                    report: report.window_start,
                    previous_epoch: report.epoch.saturating_sub(1),
                    proposed: start,
                });
            }
            if report.snapshot > proposed {
                flags.push(InputsFlag::SnapshotAfterProposal {
                    snapshot: report.snapshot,
                    proposed,
                });
            }
        }
        Err(e) => flags.push(InputsFlag::WindowUnread(e.into())),
    }
    let rp = report
        .project(project)
        .ok_or_else(|| AppError::missing("the intake report has no entry for this project"))?;
    if rp.private {
        return Ok(InputsCheck {
            claims: rp.outcomes.clone(),
            attestations: 0,
            private: true,
            matches: None,
            flags,
        });
    }
    let domain = attestation_domain(report.chain_id, report.source_key_registry);
    let mut keys: Vec<Address> = rp
        .attestations
        .iter()
        .filter_map(|a| a.signer(&domain).ok())
        .collect();
    keys.sort();
    keys.dedup();
    let book = sources::key_book(&w.rpc(), registry, project, &keys).await?;
    let again = recheck_project(&report, rp, &tracks, &book)
        .map_err(|e| AppError::missing(format!("the intake could not be re-run: {e}")))?;
    let bundle_inputs: Option<&ProjectData> = bundle
        .projects
        .iter()
        .find(|p| p.project == project)
        .and_then(|p| p.inputs.as_ref());
    if bundle_inputs != Some(&again.input.data) {
        flags.push(InputsFlag::InputsDiffer);
    }
    if !rp.counts_match(&again.input.data) {
        flags.push(InputsFlag::CountsDiffer);
    }
    Ok(InputsCheck {
        matches: Some(flags.is_empty()),
        claims: again.claims,
        attestations: rp.attestations.len(),
        private: false,
        flags,
    })
}
