//! Score page, human part (C5, C7, C9, C10): the graded theses of the selected project in the
//! selected epoch, and its human score recomputed here in WASM with `eden_core::human`:
//!
//! - envelope mode (C9, a project with a systematic score `S`): every thesis with its target, quality
//!   `q`, verdict → originality multiplier `c` and whether it counts (`q ≥ 0.3`); `s_sys = S/100`, the
//!   envelope `4·s_sys·(1 − s_sys)`, Δ and the human score `100·s`;
//! - pre-data mode (C10, no systematic data): the replay path from 0, one point per submission,
//!   capped at 50 (100 for a Verified project).
//!
//! Targets are cross-checked against the ScorerRegistry's `Scored` events on chain (same token and
//! thesis hash). Every leaf (score, quality, human) is recomputed from its values, the full epoch
//! tree (C5: score ∪ quality ∪ systematic leaves, sorted leaves, sorted pairs) is rebuilt, and the human
//! leaf's proof is walked to the on-chain final root. A pending or challenged epoch has no final root
//! (C7): its numbers are shown, labelled not final.

use crate::error::AppError;
use crate::flows::score_human::HumanCheck;
use crate::flows::words::{self, path_words, short, signed_wad};
use eden_core::check::{ChainTarget, HumanDetail};
use eden_core::human::BAND;
use leptos::prelude::*;

/// The human section of the result: `status` is the epoch's on-chain status (C7).
#[component]
pub fn HumanView(check: Result<Option<HumanCheck>, AppError>, status: u8) -> impl IntoView {
    use crate::ui::Amount;
    let c = match check {
        Err(e) => return view! { <div class="result bad" id="human-result" role="alert"><strong>"Human score: "</strong>{e.to_string()}</div> }.into_any(),
        Ok(None) => return view! { <div class="result empty" id="human-result"><strong>"Human score: "</strong>"No graded theses this epoch."</div> }.into_any(),
        Ok(Some(c)) => c,
    };
    let not_final = c.onchain_root.is_none();
    let ok = c.verified();
    let class = if ok {
        "result ok"
    } else if not_final && c.flags.is_empty() {
        "result empty"
    } else {
        "result bad"
    };
    let headline = if ok {
        "Human score verified against the chain. ".to_string()
    } else if not_final && c.flags.is_empty() {
        format!(
            "Human score not final: the epoch is {} (C7), so this is not a final score. ",
            crate::chain::epochs::status_name(status)
        )
    } else {
        "Human score flagged: ".to_string()
    };
    let mode_name = match &c.detail {
        HumanDetail::Envelope { .. } => "envelope (C9)",
        HumanDetail::PreData { .. } => "pre-data replay (C10)",
    };
    let envelope_mode = matches!(c.detail, HumanDetail::Envelope { .. });
    let rows = c.rows.clone();
    let texts = c.texts.clone();
    view! {
        <div class=class id="human-result" role="status" data-mode=if envelope_mode { "envelope" } else { "preData" }>
            <strong>{headline}</strong>
            {format!("Mode: {mode_name}; score ")}<Amount raw=c.recomputed decimals=18 unit="points" sig=5 />
            <ul class="flags">{c.flags.iter().map(|f| view! { <li>{words::human_flag(f)}</li> }).collect_view()}</ul>
            {if rows.is_empty() {
                view! { <p class="empty">"No graded theses for this project this epoch."</p> }.into_any()
            } else {
                view! {
                    <div class="table-wrap"><table class="theses" id="theses">
                        <thead><tr><th>"Thesis"</th><th>"Target"</th><th>"q"</th><th>"Verdict → c"</th><th>"Counts"</th><th>"On chain"</th><th>"Quality leaf"</th></tr></thead>
                        <tbody>
                        {rows.into_iter().map(|r| view! {
                            <tr>
                                <td>{match texts.get(&r.thesis_hash) {
                                    Some(t) => view! { <details class="thesis-text"><summary><code title=r.thesis_hash.to_string()>{short(r.thesis_hash)}</code></summary><p class="thesis-body">{t.clone()}</p></details> }.into_any(),
                                    None => view! { <code title=r.thesis_hash.to_string()>{short(r.thesis_hash)}</code> }.into_any(),
                                }}</td>
                                <td><Amount raw=r.target decimals=18 sig=4 /></td>
                                <td><Amount raw=r.quality decimals=18 sig=3 /></td>
                                <td>{r.verdict.name()}" → "<Amount raw=r.multiplier decimals=18 sig=2 /></td>
                                <td>{if r.counts { "yes" } else if envelope_mode { "no (q < 0.3)" } else { "no (q·c = 0)" }}</td>
                                <td>{match r.chain {
                                    ChainTarget::Matches => "Scored event ✓".to_string(),
                                    ChainTarget::Differs(t) => format!("differs: {}", crate::fmt::units(t, 18, 6)),
                                    ChainTarget::NotFound => "no such score on chain".to_string(),
                                    ChainTarget::NotChecked => "not read".to_string(),
                                }}</td>
                                <td>{match r.leaf_in_root {
                                    Some(true) => "in the final root ✓",
                                    Some(false) => "not in the final root",
                                    None => "no final root yet",
                                }}</td>
                            </tr>
                        }).collect_view()}
                        </tbody>
                    </table></div>
                    <super::grades::GradesView rows=c.grades.clone() base=c.publication_base.clone() />
                }.into_any()
            }}
            <dl>
                {match c.detail.clone() {
                    HumanDetail::Envelope { systematic, envelope, delta, counted } => {
                        let (d, d_exact) = signed_wad(delta, 4);
                        view! {
                            <dt>"Systematic score S"</dt><dd><Amount raw=systematic decimals=18 unit="points" sig=5 />" (s_sys = S / 100)"</dd>
                            <dt>"Envelope 4·s_sys·(1 − s_sys)"</dt><dd id="envelope"><Amount raw=envelope decimals=18 sig=5 /></dd>
                            <dt>"Δ (clamped to ±0.2)"</dt><dd id="delta"><span title=d_exact>{d}</span>{format!(" from {counted} counting {}{}", if counted == 1 { "thesis" } else { "theses" }, if delta.unsigned_abs() == BAND { ", at the clamp" } else { "" })}</dd>
                        }.into_any()
                    }
                    HumanDetail::PreData { path, verified, cap } => view! {
                        <dt>"Path from 0"</dt><dd id="predata-path">{path_words(&path)}" points"</dd>
                        <dt>"Cap"</dt><dd><Amount raw=cap decimals=18 unit="points" sig=3 />{if verified { " (backed: the adjudicator's badge)" } else { " (not backed by the adjudicator)" }}</dd>
                    }.into_any(),
                }}
                <dt>"Human score, recomputed"</dt><dd id="human-score"><Amount raw=c.recomputed decimals=18 unit="points" sig=6 />{if c.recomputed == c.bundle_score { " = the bundle's ✓".to_string() } else { format!(" ≠ the bundle's {}", crate::fmt::units_exact(c.bundle_score, 18)) }}</dd>
                <dt>"Score leaf (the published score, C27)"</dt><dd><code title=c.leaf.to_string()>{short(c.leaf)}</code>{format!(" · proof of {} hashes in the full epoch tree; {}", c.proof.len(), if c.reaches_chain { "reaches the on-chain final root" } else if not_final { "no final root on chain yet" } else { "does not reach the on-chain root" })}</dd>
                <dt>"EpochRegistry.verifyScore"</dt><dd id="verify-human">{match &c.registry_says {
                    Some(Ok(true)) => "true ✓".to_string(),
                    Some(Ok(false)) => "false".to_string(),
                    Some(Err(e)) => format!("not asked: {e}"),
                    None => "not asked (no final root)".to_string(),
                }}</dd>
            </dl>
        </div>
    }
    .into_any()
}
