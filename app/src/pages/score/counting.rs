//! Score page, which theses count (C9a, C9b, C10a): every score on the checked project up to the epoch's
//! proposal, with why it counts or not and its grade in force, re-derived here from the chain's `Scored` and
//! `GradeOverridden` events (`eden_core::check::check_project_counting`) and compared with what the bundle took;
//! every difference is named. The registry's adjudicator overrides a grade from here (§4.1), after seeing the
//! current grade and what the new one does to this epoch's human score and to the scorer's weight.

use crate::chain::abi::IEpochRegistry;
use crate::chain::epochs::bundle_path;
use crate::chain::multicall::Batch;
use crate::chain::rpc::RpcError;
use crate::chain::world::World;
use crate::error::AppError;
use crate::fmt;
use crate::send::act;
use crate::state::Ctx;
use crate::ui::Amount;
use alloy_primitives::{Address, U256};
use eden_chain::human::{chain_scores, grade_overrides, override_grade_call};
use eden_core::check::{
    check_project_counting, CountingChain, CountingFinding, PreviousLeft, ProjectCounting,
};
use eden_core::leaves::Verdict;
use eden_core::scoring::counting::{WhyCounts, WhyNot};
use eden_core::scoring::EpochBundle;
use leptos::prelude::*;

/// One project's selection of theses, checked against the chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountingCheck {
    /// Core's report.
    pub counting: ProjectCounting,
    /// Every difference in words; empty when the bundle took exactly the theses that count.
    pub flags: Vec<String>,
    /// The (light) bundle, for the override preview.
    pub bundle: EpochBundle,
    /// The project.
    pub project: Address,
    /// The ScorerRegistry.
    pub registry: Address,
    /// The registry's adjudicator, who may override a grade.
    pub adjudicator: Address,
}

/// A counting finding in words.
pub fn counting_words(f: &CountingFinding) -> String {
    match f {
        CountingFinding::CutoffMissing => "the bundle does not say which block its theses were read at, though the chain has scores before its proposal".into(),
        CountingFinding::CutoffAfterProposal { cutoff, proposal } => format!("the theses were read at block {cutoff}, after the proposal's block {proposal}"),
        CountingFinding::CutoffStale { cutoff_time, proposal_time } => format!(
            "the theses were read at {}, more than a day before the proposal ({}): an old view of the chain",
            fmt::date_utc(*cutoff_time),
            fmt::date_utc(*proposal_time)
        ),
        CountingFinding::CutoffTimeWrong { published, chain } => format!("the bundle dates its cutoff block {}, the chain {}", fmt::date_utc(*published), fmt::date_utc(*chain)),
        CountingFinding::LeftPreDataDiffers => "the bundle's set of projects that left pre-data is not the previous epoch's with this cohort added".into(),
        CountingFinding::ThesisLeftOut { score_id } => format!("score #{score_id} counts but the bundle leaves it out"),
        CountingFinding::ThesisDoesNotCount { score_id, why } => format!(
            "score #{score_id} is in the bundle but does not count: {}",
            why.map_or("no such score on chain".to_string(), |w| why_not_words(&w))
        ),
        CountingFinding::ReplaysProjectThatLeftPreData { project } => format!("{} left pre-data with its first systematic score, yet the bundle replays it again", fmt::short_addr(&project.to_string())),
        CountingFinding::PreDataWithoutScore { project } => format!("{} is replayed as pre-data but has no score on chain", fmt::short_addr(&project.to_string())),
        CountingFinding::PreDataLeftOut { project } => format!("{} has scores and never had a systematic score, yet the bundle does not replay it", fmt::short_addr(&project.to_string())),
        CountingFinding::GradeNotInForce { score_id, field } => format!("score #{score_id}: the bundle's {field} is not the adjudicator's override in force"),
    }
}

fn why_words(w: &WhyCounts) -> String {
    match w {
        WhyCounts::Window { ends } => format!(
            "its scorer's latest, inside its 30-day window (to {})",
            fmt::day_utc(*ends)
        ),
        WhyCounts::PreDataReplay => "pre-data project: every score is replayed".into(),
    }
}

fn why_not_words(w: &WhyNot) -> String {
    match w {
        WhyNot::WindowEnded { ended } => {
            format!("its 30-day window ended {}", fmt::day_utc(*ended))
        }
        WhyNot::Replaced { by } => format!("replaced by the same scorer's score #{by}"),
        WhyNot::AfterCutoff => "scored after the epoch's cutoff".into(),
        WhyNot::ProjectNotInEpoch => {
            "the project left pre-data and has no systematic score this epoch".into()
        }
    }
}

/// Reads what the check needs and runs it: `None` when the deployment has no ScorerRegistry.
pub async fn check_counting(
    w: &World,
    bundle: &EpochBundle,
    proposal_block: u64,
    project: Address,
) -> Option<Result<CountingCheck, AppError>> {
    let registry = w.contracts.scorer_registry?;
    Some(run(w, bundle, proposal_block, project, registry).await)
}

async fn run(
    w: &World,
    bundle: &EpochBundle,
    proposal_block: u64,
    project: Address,
    registry: Address,
) -> Result<CountingCheck, AppError> {
    let rpc = w.rpc();
    let mut b = Batch::new();
    let adj = b.add(
        w.contracts.epoch_registry,
        &IEpochRegistry::adjudicatorCall {},
    );
    let head = rpc.block_number().await?;
    let (scores, overrides, answers) = futures::join!(
        chain_scores(&rpc, registry, w.deployment_block, head),
        grade_overrides(&rpc, registry, w.deployment_block, head),
        b.run(&rpc),
    );
    let (scores, overrides) = (
        scores.map_err(RpcError::from)?,
        overrides.map_err(RpcError::from)?,
    );
    let adjudicator = answers?.get(adj)?;
    let mut blocks = vec![proposal_block];
    blocks.extend(bundle.human_as_of.map(|a| a.block));
    let times = rpc.block_timestamps(&blocks).await?;
    // A project outside the cohort is pre-data only if the previous final epoch's set does not hold it: that
    // needs the previous bundle. A cohort project is in the set by construction.
    let in_cohort = bundle.projects.iter().any(|p| p.project == project);
    let previous = match bundle.previous_epoch {
        Some(pe) if !in_cohort => {
            let root =
                crate::chain::epochs::final_root(&rpc, w.contracts.epoch_registry, pe).await?;
            Some(w.fetch_bundle(&bundle_path(&root)).await?)
        }
        _ => None,
    };
    let prev = match (&previous, bundle.previous_epoch) {
        (Some(p), _) => PreviousLeft::Bundle(p),
        (None, None) => PreviousLeft::None,
        (None, Some(_)) => PreviousLeft::Unknown,
    };
    let counting = check_project_counting(
        bundle,
        project,
        &CountingChain {
            scores: &scores,
            overrides: &overrides,
            proposal_block,
            proposal_time: times.get(&proposal_block).copied(),
            cutoff_block_time: bundle
                .human_as_of
                .and_then(|a| times.get(&a.block).copied()),
            previous: prev,
        },
    );
    let flags = counting.findings.iter().map(counting_words).collect();
    Ok(CountingCheck {
        counting,
        flags,
        bundle: bundle.clone(),
        project,
        registry,
        adjudicator,
    })
}

/// The grade in force of a row: the bundle's (checked against the override and the record), else the
/// override's, else none yet.
fn grade_of(c: &CountingCheck, score_id: U256) -> Option<(U256, Verdict, &'static str)> {
    let r = c
        .counting
        .rows
        .iter()
        .find(|r| r.score.score_id == score_id)?;
    let source = if r.overridden.is_some() {
        "the adjudicator's override"
    } else {
        "its grading record"
    };
    if let Some(t) = c.bundle.theses.iter().find(|t| t.score_id == score_id) {
        return Some((t.quality_wad, Verdict::try_from(t.verdict).ok()?, source));
    }
    r.overridden.map(|o| (o.quality_wad, o.verdict, source))
}

/// The section: the rows, the differences, and the adjudicator's controls.
#[component]
pub fn CountingView(check: Option<Result<CountingCheck, AppError>>) -> impl IntoView {
    let c = match check {
        None => return ().into_any(),
        Some(Err(e)) => return view! { <div class="result bad" id="counting-result" role="alert"><strong>"Which theses count: "</strong>{e.to_string()}</div> }.into_any(),
        Some(Ok(c)) => c,
    };
    let ctx = Ctx::get();
    let ok = c.flags.is_empty();
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
            <ul class="flags">{c.flags.iter().map(|f| view! { <li>{f.clone()}</li> }).collect_view()}</ul>
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
                                <td class="why-counts">{match &r.why { Ok(w) => format!("yes: {}", why_words(w)), Err(w) => format!("no: {}", why_not_words(w)) }}</td>
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
