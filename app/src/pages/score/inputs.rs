//! Verified inputs (C21) on the Score page: the epoch's intake report (`epochs/<root>.intake.json`), the
//! project's published attestations checked here (each EIP-712 signer, its key's record in the
//! SourceKeyRegistry), and the project's intake re-run from them, which must give exactly the bundle's
//! public inputs. What stays on the operator's word is said on the page: the re-fetched values.

use crate::chain::epochs::intake_path;
use crate::chain::sources;
use crate::chain::world::World;
use crate::error::AppError;
use crate::fmt;
use alloy_primitives::{Address, B256};
use eden_core::attest::{attestation_domain, recheck_project, Claim, ClaimOutcome, IntakeReport};
use eden_core::scoring::epoch::ProjectData;
use eden_core::scoring::{EpochBundle, TrackConfig};
use leptos::prelude::*;

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
    /// What does not match, in words.
    pub flags: Vec<String>,
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
        flags.push(format!(
            "the intake report is for epoch {}, not {}",
            report.epoch, bundle.epoch
        ));
    }
    if report.chain_id != w.chain_id || report.source_key_registry != registry {
        flags.push("the intake report's attestations are for another deployment".into());
    }
    // The observation window is the chain's (C21): after epoch − 1 was proposed, up to a snapshot no later
    // than this epoch's own proposal.
    match crate::chain::epochs::intake_window(&w.rpc(), w.contracts.epoch_registry, report.epoch)
        .await
    {
        Ok((start, proposed)) => {
            if report.window_start != start {
                flags.push(format!(
                    "the intake's window starts at {}, but epoch {} was proposed at {start}: observations were taken over another window",
                    report.window_start,
                    report.epoch.saturating_sub(1)
                ));
            }
            if report.snapshot > proposed {
                flags.push(format!(
                    "the intake's snapshot {} is after the epoch's proposal at {proposed}",
                    report.snapshot
                ));
            }
        }
        Err(e) => flags.push(format!(
            "the intake's window could not be read from the registry: {e}"
        )),
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
        flags.push("re-run from the published attestations, the intake gives other inputs than the bundle's".into());
    }
    if !rp.counts_match(&again.input.data) {
        flags.push("the report's claim and failure counts differ from the re-run".into());
    }
    Ok(InputsCheck {
        matches: Some(flags.is_empty()),
        claims: again.claims,
        attestations: rp.attestations.len(),
        private: false,
        flags,
    })
}

fn outcome_words(o: &ClaimOutcome) -> (&'static str, String) {
    match o {
        ClaimOutcome::Used { value, refetched } => (
            "ok",
            format!(
                "used: {}{}",
                fmt::units_exact(*value, 0),
                if *refetched { " (re-fetched)" } else { "" }
            ),
        ),
        ClaimOutcome::Failed { why } => ("bad", format!("failed: {why}")),
        ClaimOutcome::Ignored { why } => ("muted", format!("not a claim: {why}")),
    }
}

/// The verified-inputs section.
#[component]
pub fn InputsView(check: Option<Result<InputsCheck, AppError>>) -> impl IntoView {
    let Some(check) = check else {
        return view! { <p class="muted" id="inputs-check">"This deployment has no source-key registry: its inputs are not attested."</p> }.into_any();
    };
    match check {
        Err(e) => {
            view! { <p class="result empty" id="inputs-check" role="status">{e.to_string()}</p> }
                .into_any()
        }
        Ok(c) => {
            let failed = c
                .claims
                .iter()
                .filter(|x| matches!(x.outcome, ClaimOutcome::Failed { .. }))
                .count();
            let counted = c
                .claims
                .iter()
                .filter(|x| !matches!(x.outcome, ClaimOutcome::Ignored { .. }))
                .count();
            let summary = match c.matches {
                Some(true) => format!("{} attestations checked in your browser: every signature and key checked against the SourceKeyRegistry, and the public inputs follow from them. {counted} claims, {failed} failed. Re-fetched values are the operator's word (a watchtower re-fetches them).", c.attestations),
                Some(false) => "Flagged: the published attestations do not give this bundle's inputs.".to_string(),
                None => format!("This project's inputs are private: only its claim outcomes are published ({counted} claims, {failed} failed)."),
            };
            let class = match c.matches {
                Some(true) => "result ok",
                Some(false) => "result bad",
                None => "result empty",
            };
            view! {
                <div class=class id="inputs-check" role="status">
                    {summary}
                    <ul class="flags">{c.flags.iter().map(|f| view! { <li>{f.clone()}</li> }).collect_view()}</ul>
                </div>
                <div class="table-wrap"><table class="claims" id="claims">
                    <thead><tr><th>"Source"</th><th>"Metric"</th><th>"Attested"</th><th>"Outcome"</th></tr></thead>
                    <tbody>
                        {c.claims.into_iter().map(|x| {
                            let (class, words) = outcome_words(&x.outcome);
                            view! { <tr class=class><td>{x.source}</td><td>{x.metric}</td><td class="num">{fmt::units_exact(x.attested, 0)}</td><td>{words}</td></tr> }
                        }).collect_view()}
                    </tbody>
                </table></div>
            }.into_any()
        }
    }
}
