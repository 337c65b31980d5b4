//! Score page, which theses count (C9a, C9b, C10a): every score on the checked project up to the epoch's
//! proposal, with why it counts or not and its grade in force, re-derived here from the chain's `Scored` and
//! `GradeOverridden` events (`eden_core::check::check_project_counting`) and compared with what the bundle took;
//! every difference is named. The registry's adjudicator overrides a grade from here (§4.1), after seeing the
//! current grade and what the new one does to this epoch's human score and to the scorer's weight.

use crate::error::AppError;
use crate::flows::score_counting::{grade_of, CountingCheck};
use crate::flows::words;
use crate::fmt;
use crate::send::act;
use crate::state::Ctx;
use crate::ui::Amount;
use alloy_primitives::U256;
use eden_chain::human::override_grade_call;
use eden_core::leaves::Verdict;
use leptos::prelude::*;

/// The section: the rows, the differences, and the adjudicator's controls.
#[component]
pub fn CountingView(check: Option<Result<CountingCheck, AppError>>) -> impl IntoView {
    let c = match check {
        None => return ().into_any(),
        Some(Err(e)) => return view! { <div class="result bad" id="counting-result" role="alert"><strong>"Which theses count: "</strong>{e.to_string()}</div> }.into_any(),
        Some(Ok(c)) => c,
    };
    let ctx = Ctx::get();
    let ok = c.counting.findings.is_empty();
    let adjudicator = c.adjudicator;
    let is_adjudicator = move || ctx.wallet.with(|w| w.account) == Some(adjudicator);
    let headline = match (ok, c.counting.as_of) {
        (true, Some(a)) => format!(
            "Which theses count: recomputed from the chain at block {} ({}) — the bundle took exactly these.",
            a.block,
            fmt::date_utc(a.time)
        ),
        (true, None) => "Which theses count: no scores on this project before the proposal.".into(),
        (false, _) => "Which theses count: the bundle differs from the chain.".into(),
    };
    let rows = c.counting.rows.clone();
    let c2 = c.clone();
    view! {
        <div class=if ok { "result ok" } else { "result bad" } id="counting-result" role="status">
            <strong>{headline}</strong>
            <ul class="flags">{c.counting.findings.iter().map(|f| view! { <li>{words::counting_finding(f)}</li> }).collect_view()}</ul>
            {(!rows.is_empty()).then(|| view! {
                <div class="table-wrap"><table class="counting" id="counting">
                    <thead><tr><th>"Score"</th><th>"Scorer"</th><th>"Scored"</th><th>"Grade in force"</th><th>"Counts"</th><th>"In the bundle"</th><th></th></tr></thead>
                    <tbody>
                    {rows.into_iter().map(|r| {
                        let id = r.score.score_id;
                        let grade = grade_of(&c2, id);
                        let open = RwSignal::new(false);
                        let c3 = c2.clone();
                        view! {
                            <tr data-score=id.to_string()>
                                <td>{format!("#{id}")}</td>
                                <td><code title=r.score.scorer.to_string()>{fmt::short_addr(&r.score.scorer.to_string())}</code></td>
                                <td title=fmt::date_utc(r.score.at)>{fmt::day_utc(r.score.at)}</td>
                                <td class="grade-in-force">{match grade {
                                    Some((q, v, source)) => view! { <span>"q "<Amount raw=q decimals=18 sig=3 />{format!(", {} ({source})", v.name())}</span> }.into_any(),
                                    None => view! { <span class="muted">"not graded yet"</span> }.into_any(),
                                }}</td>
                                <td class="why-counts">{match &r.why { Ok(w) => format!("yes: {}", words::why_counts(w)), Err(w) => format!("no: {}", words::why_not(w)) }}</td>
                                <td>{if r.in_bundle { "yes" } else { "no" }}</td>
                                <td>{move || is_adjudicator().then(|| view! {
                                    <button class="secondary override-grade" on:click=move |_| open.update(|o| *o = !*o)>"Override grade"</button>
                                })}</td>
                            </tr>
                            <Show when=move || open.get() && is_adjudicator()>
                                <tr class="override-row"><td colspan="7"><OverrideForm check=c3.clone() score_id=id /></td></tr>
                            </Show>
                        }
                    }).collect_view()}
                    </tbody>
                </table></div>
            })}
        </div>
    }
    .into_any()
}

/// The adjudicator's override of one score's grade: the current grade, the new one, and before sending, this
/// epoch's human score and the scorer's weight with it.
#[component]
fn OverrideForm(check: CountingCheck, score_id: U256) -> impl IntoView {
    let ctx = Ctx::get();
    let current = grade_of(&check, score_id);
    let q_text = RwSignal::new(
        current
            .map(|(q, ..)| fmt::units_exact(q, 18))
            .unwrap_or_else(|| "0.5".into()),
    );
    let verdict = RwSignal::new(current.map_or(0u8, |(_, v, _)| v as u8));
    let row = check
        .counting
        .rows
        .iter()
        .find(|r| r.score.score_id == score_id)
        .cloned();
    let registry = check.registry;
    let project = check.project;
    let bundle = check.bundle.clone();
    // The new grade, parsed: q a decimal in [0, 1].
    let parsed = Memo::new(move |_| {
        let q = eden_core::math::parse_wad(q_text.get().trim()).map_err(|e| format!("q: {e}"))?;
        if q > eden_core::math::WAD {
            return Err("q must be between 0 and 1".to_string());
        }
        let v = Verdict::try_from(verdict.get()).map_err(|e| e.to_string())?;
        Ok((q, v))
    });
    let preview = move || -> Result<(Option<U256>, Option<U256>, U256, U256), String> {
        let (q, v) = parsed.get()?;
        let r = row.clone().ok_or("no such score")?;
        let grade = r.score.graded(q, v);
        let now = bundle
            .human
            .iter()
            .find(|h| h.project == project)
            .map(|h| h.score_wad)
            .or_else(|| {
                bundle
                    .projects
                    .iter()
                    .find(|p| p.project == project)
                    .map(|p| p.published_wad)
            });
        let with = if r.why.is_ok() {
            eden_core::scoring::human_layer::rescore_with(&bundle, project, &grade)
                .map_err(|e| e.to_string())?
        } else {
            now
        };
        let weight = |q: U256, v: Verdict| {
            eden_core::rewards::position::weight(q, v.multiplier_wad()).unwrap_or_default()
        };
        let old_w = current.map_or(U256::ZERO, |(q, v, _)| weight(q, v));
        Ok((now, with, old_w, weight(q, v)))
    };
    let send = move |_| {
        if let Ok((q, v)) = parsed.get_untracked() {
            act(
                ctx,
                registry,
                format!(
                    "Override the grade of score #{score_id}: q {}, {}",
                    fmt::units_exact(q, 18),
                    v.name()
                ),
                override_grade_call(score_id, q, v),
                U256::ZERO,
            );
        }
    };
    view! {
        <div class="override-form" role="group" aria-label=format!("Override the grade of score #{score_id}")>
            <p class="hint">{match current {
                Some((q, v, source)) => format!("In force now: q {}, {} ({source}). The override wins over every grading record for good (§4.1); it reaches the human score from the next epoch built after it.", fmt::units_exact(q, 18), v.name()),
                None => "Not graded yet. The override is its grade for good (§4.1).".to_string(),
            }}</p>
            <label>"q (0 to 1) "<input class="override-q" type="text" inputmode="decimal" prop:value=move || q_text.get() on:input=move |ev| q_text.set(event_target_value(&ev)) /></label>
            " "
            <label>"Verdict "<select class="override-verdict" on:change=move |ev| verdict.set(event_target_value(&ev).parse().unwrap_or(0))>
                {[Verdict::Original, Verdict::Similar, Verdict::Derivative, Verdict::Copy].into_iter().map(|v| view! {
                    <option value=(v as u8).to_string() selected=move || verdict.get() == v as u8>{v.name()}</option>
                }).collect_view()}
            </select></label>
            <p class="override-preview">{move || match preview() {
                Err(e) => view! { <span class="bad">{e}</span> }.into_any(),
                Ok((now, with, old_w, new_w)) => view! {
                    "This epoch's human score with it: "
                    {match now { Some(n) => view! { <Amount raw=n decimals=18 unit="points" sig=5 /> }.into_any(), None => "none".into_any() }}
                    " → "
                    <span class="override-score">{match with { Some(n) => view! { <Amount raw=n decimals=18 unit="points" sig=5 /> }.into_any(), None => "none".into_any() }}</span>
                    ". The scorer's weight ω: "
                    <Amount raw=old_w decimals=18 sig=4 />" → "<span class="override-weight"><Amount raw=new_w decimals=18 sig=4 /></span>
                    " (an open position is re-weighted now)."
                }.into_any(),
            }}</p>
            <button class="primary send-override" disabled=move || parsed.get().is_err() on:click=send>"Send override"</button>
        </div>
    }
}
