//! Score page, each graded thesis's grading record (C8): fetched from the deployment's publications by
//! the hash the bundle names (`gradeRecord`, committed in `inputsRoot`), with its configuration and its
//! sources' snapshots (each checked against its name, [`crate::chain::grades`]), then re-derived here in
//! WASM: the copy verdict against every earlier thesis on chain, `G` from the snapshots
//! (`eden_core::scoring::thesis_grounding`, every quote's outcome), the screening, and `q` from the
//! recorded samples (`eden_core::scoring::recheck_record`). The model's answers are shown as recorded.

use crate::chain::world::World;
use crate::flows::score_grades::{grade_row_on, GradeRow};
use crate::flows::words;
use alloy_primitives::{Address, B256, U256};
use eden_core::scoring::grade_record::{snapshot_path, GradeOutcome, RubricAnswer};
use eden_core::scoring::grounding::QuoteOutcome;
use leptos::prelude::*;

/// One score's grading record, read and re-checked when opened (the Scorer page's graded scores).
#[component]
pub fn GradeRecordOf(
    world: World,
    registry: Address,
    score_id: U256,
    record: B256,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let base = StoredValue::new(
        world
            .description()
            .publication_bases()
            .into_iter()
            .find(|b| b.starts_with("http")),
    );
    let data = LocalResource::new(move || {
        let w = world.clone();
        let opened = open.get();
        async move {
            if !opened {
                return None;
            }
            Some(grade_row_on(&w, registry, score_id, record).await)
        }
    });
    view! {
        <button class="show-grade" on:click=move |_| open.set(true) prop:hidden=move || open.get()>"Show its grading record"</button>
        {move || data.get().flatten().map(|row| view! { <GradesView rows=vec![row] base=base.get_value() /> })}
    }
}

/// A WAD fraction to three decimals, rounded down (display only).
fn wad3(v: U256) -> String {
    let milli = v / U256::from(10u64.pow(15));
    format!(
        "{}.{:0>3}",
        milli / U256::from(1000u16),
        (milli % U256::from(1000u16)).to::<u16>()
    )
}

fn sample_words(s: &RubricAnswer) -> String {
    format!(
        "relevance {}, specificity {}, consistency {} (of 10)",
        s.relevance, s.specificity, s.consistency
    )
}

fn outcome_mark(o: QuoteOutcome) -> &'static str {
    match o {
        QuoteOutcome::Grounded => "✓",
        QuoteOutcome::Repeated | QuoteOutcome::Uncited => "·",
        _ => "✗",
    }
}

/// The grading records of one project's theses.
#[component]
pub fn GradesView(rows: Vec<GradeRow>, base: Option<String>) -> impl IntoView {
    if rows.is_empty() {
        return ().into_any();
    }
    view! {
        <h3>"Grading records"</h3>
        <div id="grading-records">
        {rows.into_iter().map(|row| {
            let id = row.score_id.to_string();
            match row.report {
                Err(e) => view! { <details class="grade-record bad" data-score=id.clone()><summary>{format!("Score #{id}: grading record not checked: {}", words::grade_unread(&e))}</summary></details> }.into_any(),
                Ok(r) => {
                    let holds = r.findings.is_empty();
                    let (g, rubric, q, injection, failed) = match &r.record.outcome {
                        GradeOutcome::Graded { grounding_wad, rubric_wad, quality_wad, injection } => (*grounding_wad, *rubric_wad, *quality_wad, *injection, None),
                        GradeOutcome::Failed { reason } => (U256::ZERO, U256::ZERO, U256::ZERO, false, Some(reason.clone())),
                    };
                    let summary = match &failed {
                        Some(why) => format!("Score #{id}: not graded ({why})"),
                        None => format!("Score #{id}: q {} = G {} × R {}{}{}", wad3(q), wad3(g), wad3(rubric),
                            if injection { " → 0 (instructs the grader)" } else { "" },
                            if holds { " — re-checked here ✓" } else { " — does not re-check" }),
                    };
                    let snap_url = |h: B256| base.clone().map(|b| format!("{b}{}", snapshot_path(h)));
                    let sources = r.record.sources.clone();
                    view! {
                        <details class=if holds { "grade-record ok" } else { "grade-record bad" } data-score=id.clone() data-holds=holds.to_string()>
                            <summary>{summary}</summary>
                            <ul class="flags">{r.findings.iter().map(|f| view! { <li>{f.to_string()}</li> }).collect_view()}</ul>
                            <p class="grounding">{format!("Grounding G = {}: {} of {} counted quotes found in their sources (recomputed here from the published snapshots).", wad3(r.grounding.grounding_wad), r.grounding.grounded, r.grounding.counted)}</p>
                            <ul class="quotes">
                                {r.grounding.quotes.iter().map(|q| {
                                    let src = q.url.as_ref().and_then(|u| sources.iter().find(|s| &s.url == u).cloned());
                                    let link = src.as_ref().and_then(|s| s.snapshot).and_then(snap_url);
                                    let why = src.as_ref().and_then(|s| s.error.clone());
                                    view! {
                                        <li class="quote" data-outcome=format!("{:?}", q.outcome)>
                                            {format!("{} “{}”{} — {}", outcome_mark(q.outcome), q.quote, q.marker.map(|n| format!(" [{n}]")).unwrap_or_default(), q.outcome.describe())}
                                            {why.map(|w| format!(" ({w})"))}
                                            {link.map(|l| view! { " · " <a href=l target="_blank" rel="noopener">"snapshot"</a> })}
                                        </li>
                                    }
                                }).collect_view()}
                            </ul>
                            <dl>
                                <dt>"Copy check"</dt><dd class="copy">{format!("{:?}, {} similar", r.record.copy.verdict, crate::fmt::percent_bps(r.record.copy.similarity_bps))}{(!r.record.copy.matched_thesis.is_zero()).then(|| format!(" to thesis {}", crate::fmt::short_addr(&r.record.copy.matched_thesis.to_string())))}</dd>
                                <dt>"Screening"</dt><dd class="screening">{if r.record.screening.is_empty() { "no instruction to the grader found".to_string() } else { r.record.screening.iter().map(|f| format!("{:?}: “{}”", f.rule, f.matched)).collect::<Vec<_>>().join("; ") }}</dd>
                                <dt>"Model"</dt><dd>{format!("{} (configuration {})", r.model, crate::fmt::short_addr(&r.record.config_hash.to_string()))}</dd>
                                <dt>"Injection judgment"</dt><dd>{r.record.judgment.as_ref().map(|j| format!("{} ({})", if j.instructs_grader { "instructs the grader" } else { "does not instruct the grader" }, if r.judgment_counts { "counts" } else { "recorded, does not count with this model" })).unwrap_or_else(|| "not asked".into())}</dd>
                                <dt>"Samples"</dt><dd class="samples"><ol>{r.record.samples.iter().map(|s| view! { <li>{sample_words(s)}</li> }).collect_view()}</ol></dd>
                                <dt>"Verifier"</dt><dd>{r.record.verifier.as_ref().map(sample_words).unwrap_or_else(|| "not needed (median below 0.8)".into())}</dd>
                            </dl>
                        </details>
                    }.into_any()
                }
            }
        }).collect_view()}
        </div>
    }
    .into_any()
}
