//! "Graded theses to prove" on the Scorer page (C12): each of the connected scorer's scores that
//! opened no position yet, with where it stands ([`crate::chain::provable`]): graded in a final
//! epoch (quality, verdict) and provable now, not graded yet, or past its 30-day prove window. The
//! proof is the one the page found in the epoch's bundle, under its final root; `prove` opens the
//! 30-day position.

use crate::chain::abi::IScorerRegistry;
use crate::chain::provable::{unproven_of, Standing, UnprovenScore};
use crate::chain::scorer::ScorerRef;
use crate::chain::world::World;
use crate::error::{AppError, Context};
use crate::fmt;
use crate::state::Ctx;
use crate::ui::{caught, Loading};
use alloy_primitives::{Address, U256};
use eden_core::leaves::Verdict;
use leptos::prelude::*;

/// The account the scores were read for and its unproven scores, or why they could not be read.
pub type UnprovenRead = Option<(Address, Result<Vec<UnprovenScore>, AppError>)>;

/// The connected account's unproven scores in `registry` ([`unproven_of`], [`Ctx::account_read`]),
/// read as soon as the page opens: it needs only the registry's address (the network
/// description's), so it runs beside the registry's discovery and its requests travel in the same
/// batches (D3).
pub fn read_unproven(world: World, registry: Address) -> LocalResource<UnprovenRead> {
    Ctx::get().account_read(move |me| {
        let w = world.clone();
        async move {
            unproven_of(&w, registry, me)
                .await
                .context("Reading your scores not proven yet and their grades")
        }
    })
}

/// The section, over the read [`read_unproven`] started; nothing without a connected account or an
/// unproven score.
#[component]
pub fn Unproven(
    world: World,
    scorer: ScorerRef,
    data: LocalResource<UnprovenRead>,
) -> impl IntoView {
    let ctx = Ctx::get();
    let registry = scorer.registry;
    let symbols = StoredValue::new(scorer.tokens.clone());
    let symbol = move |t: Address| {
        symbols.with_value(|ts| {
            ts.iter()
                .find(|x| x.token == t)
                .map_or_else(|| fmt::short_addr(&t.to_string()), |x| x.symbol.clone())
        })
    };
    view! {
        <Transition fallback=|| view! { <Loading what="Looking for your graded theses…" /> }>
        <ErrorBoundary fallback=caught>
        {move || data.get().map(|loaded| loaded.map_or(Ok((None, Vec::new())), |(me, r)| r.map(|rows| (Some(me), rows))).map(|(of, rows)| (ctx.is_connected(of) && !rows.is_empty()).then(|| view! {
            <h2>"Graded theses to prove"</h2>
            <p class="muted">"A score opens its 30-day position once its grade is proven against a final epoch proposed after it, within 30 days of the score. Anyone may send the proof; the position is yours."</p>
            <ul class="unproven" id="unproven">
                {rows.into_iter().map(|u| {
                    let sym = symbol(u.token);
                    let id = u.score_id;
                    let record = match &u.standing {
                        Standing::Provable(a) if !a.grade_record.is_zero() => Some(a.grade_record),
                        _ => None,
                    };
                    let w = world.clone();
                    // The countdown is its own reactive text: the row (and an opened grading record in it)
                    // is built once per read, never again on the one-second tick.
                    let deadline = u.deadline;
                    let left = move || fmt::duration(deadline.saturating_sub(ctx.chain_now()));
                    let (state, action) = match u.standing.clone() {
                        Standing::Provable(a) => {
                            let verdict = Verdict::name_of_code(a.verdict);
                            let label = format!("Prove score #{id} on {sym} (epoch {})", a.epoch);
                            let call = IScorerRegistry::proveCall {
                                scoreId: id,
                                epoch: a.epoch,
                                qualityWad: a.quality_wad,
                                verdict: a.verdict,
                                matchedThesis: a.matched_thesis,
                                proof: a.proof.clone(),
                            };
                            (
                                view! { {format!("graded in final epoch {}: quality {}, {verdict}; provable for ", a.epoch, fmt::percent_wad(a.quality_wad, 3))}{left} }.into_any(),
                                Some(view! { <button class="primary prove-button" on:click=move |_| crate::send::act(ctx, registry, label.clone(), call.clone(), U256::ZERO)>"Prove and open the position"</button> }),
                            )
                        }
                        Standing::Ungraded => (view! { "not graded in a final epoch yet; provable for "{left}" once it is" }.into_any(), None),
                        Standing::TooLate => (view! { "its 30-day prove window is over: it opens no position" }.into_any(), None),
                    };
                    view! {
                        <li class="unproven-row" data-score=id.to_string()>
                            <strong>{format!("Score #{id} on {sym}")}</strong>" "<span class="prove-state">{state}</span>" "{action}
                            {record.map(|r| view! { <crate::pages::score::grades::GradeRecordOf world=w registry=registry score_id=id record=r /> })}
                        </li>
                    }
                }).collect_view()}
            </ul>
        })))}
        </ErrorBoundary>
        </Transition>
    }
}
