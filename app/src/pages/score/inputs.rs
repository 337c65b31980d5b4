//! Verified inputs (C21) on the Score page: the epoch's intake report (`epochs/<root>.intake.json`), the
//! project's published attestations checked here (each EIP-712 signer, its key's record in the
//! SourceKeyRegistry), and the project's intake re-run from them, which must give exactly the bundle's
//! public inputs. What stays on the operator's word is said on the page: the re-fetched values.

use crate::error::AppError;
use crate::flows::score_inputs::InputsCheck;
use crate::flows::words;
use crate::fmt;
use eden_core::attest::ClaimOutcome;
use leptos::prelude::*;

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
                    <ul class="flags">{c.flags.iter().map(|f| view! { <li>{words::inputs_flag(f)}</li> }).collect_view()}</ul>
                </div>
                <div class="table-wrap"><table class="claims" id="claims">
                    <thead><tr><th>"Source"</th><th>"Metric"</th><th>"Attested"</th><th>"Outcome"</th></tr></thead>
                    <tbody>
                        {c.claims.into_iter().map(|x| {
                            let (class, words) = words::claim_outcome(&x.outcome);
                            view! { <tr class=class><td>{x.source}</td><td>{x.metric}</td><td class="num">{fmt::units_exact(x.attested, 0)}</td><td>{words}</td></tr> }
                        }).collect_view()}
                    </tbody>
                </table></div>
            }.into_any()
        }
    }
}
