//! Score page (C5–C7, C9, C10, C17): pick a project, see every epoch's status on chain (pending /
//! challenged / final, with the challenge-window countdown) with what anyone may do about it
//! (challenge with the bond, finalize, withdraw credited bonds; the adjudicator's ruling:
//! [`epoch_table`]), and verify the project's score in the
//! browser: the full epoch tree (score, quality and systematic leaves, each recomputed from its values) is
//! rebuilt and its root compared with the **on-chain final root**, the project's leaf proof is walked
//! to that root, public inputs are recomputed step by step
//! (`eden_core::scoring::verify_project_score`), and the root's EIP-712 approvals (read from the
//! proposing transaction) are recovered and checked against the signer committee that accepted the proposal
//! (C7a, `committeeOf`; the flow:
//! [`crate::flows::verify_score`]). A bundle that does not match the chain is flagged, naming what
//! differs. Below it: the project's human score (C9
//! envelope or C10 pre-data path, [`human`]) and the creator share the score buys with
//! FeeLanes' on-chain parameters (C17, [`creator`]).

pub mod counting;
pub mod creator;
pub mod epoch_table;
pub mod grades;
pub mod human;
pub mod inputs;
pub mod pick;

use crate::chain::epochs::{discover, ChainEpoch, Registry};
use crate::chain::world::World;
use crate::error::{AppError, Context};
use crate::flows::verify_score::{
    parse_own_inputs, verify_score, Approved, CheckSource, EpochCheck, ScoreCheck,
};
use crate::flows::words;
use crate::fmt;
use crate::pages::score_where_traded::ScoreHistory;
use crate::state::{Ctx, Load};
use crate::ui::{caught, with_world, Amount, Loading};
use alloy_primitives::{Address, U256};
use creator::CreatorView;
use eden_core::check::OwnInputs;
use epoch_table::{BondCredit, EpochTable};
use human::HumanView;
use inputs::InputsView;
use leptos::prelude::*;

/// An epoch as discovered on chain ([`crate::chain::epochs::discover`]).
type EpochRow = ChainEpoch;

/// Every proposed epoch and its status on chain, latest first, with the bond, the adjudicator and
/// `account`'s credited bonds.
async fn epoch_rows(w: &World, account: Option<Address>) -> Result<Registry, AppError> {
    Ok(discover(
        &w.rpc(),
        w.contracts.epoch_registry,
        w.deployment_block,
        account,
    )
    .await?)
}

/// The Score page's check, as the view reads it: `None` before any, loading while the latest
/// dispatch runs, then its result.
/// What one check is dispatched with: the network, the epoch, the project and its own inputs.
type CheckInput = (World, EpochRow, Address, Option<OwnInputs>);

#[derive(Clone, Copy)]
struct CheckSlot(Action<CheckInput, Result<EpochCheck, AppError>>);

impl CheckSlot {
    fn get(&self) -> Option<Load<EpochCheck>> {
        if self.0.pending().get() {
            return Some(Load::Loading);
        }
        self.0.value().get().map(|r| match r {
            Ok(c) => Load::Ready(c),
            Err(e) => Load::Failed(e),
        })
    }

    /// Clears the result (another project or epoch was picked).
    fn clear(&self) {
        self.0.value().set(None);
    }
}

#[component]
pub fn ScorePage() -> impl IntoView {
    let ctx = Ctx::get();
    view! {
        <section class="card">
            <h1>"Scores"</h1>
            <p class="lede">"Each day's scores are committed on chain as one Merkle root, signed by the scorer (EIP-712), challengeable for 72 hours, then final. Pick a project: your browser checks its score against the final root on chain."</p>
            {with_world(move |w| view! { <ScoreBody world=w /> })}
        </section>
        {let _ = ctx;}
    }
}

#[component]
fn ScoreBody(world: World) -> impl IntoView {
    let ctx = Ctx::get();
    let mut names: Vec<(String, Address)> = world
        .meta
        .projects
        .iter()
        .filter_map(|(a, m)| a.parse::<Address>().ok().map(|a| (m.name.clone(), a)))
        .collect();
    names.sort();
    let has_names = !names.is_empty();
    // D9: the search knows the named projects and the launches' symbols (one deployless call).
    let (wl, named) = (world.clone(), names.clone());
    // Re-read on every confirmed transaction; a failed read is tried twice more, then said (names and
    // addresses still work without symbols).
    let launches = LocalResource::new(move || {
        ctx.refresh.track();
        let w = wl.clone();
        async move {
            let mut tries = 0;
            loop {
                match crate::chain::launchpad::all(&w.rpc(), w.contracts.launchpad).await {
                    Ok(v) => return Ok(v),
                    Err(e) if tries >= 2 => return Err(AppError::from(e)),
                    Err(_) => {
                        tries += 1;
                        gloo_timers::future::TimeoutFuture::new(500 * tries).await;
                    }
                }
            }
        }
    });
    let known = Memo::new(move |_| {
        let l = launches.get().and_then(Result::ok).unwrap_or_default();
        pick::candidates(
            named.iter().map(|(n, a)| (*a, n.clone())),
            l.into_iter().map(|i| (i.token, i.name, i.symbol)),
        )
    });
    // The candidate at an address, if the page can name it.
    let candidate = move |a: Address| known.with(|k| k.iter().find(|c| c.address == a).cloned());
    let query = RwSignal::new(String::new());
    let picked = Memo::new(move |_| pick::resolve(&query.get(), &known.get()));
    let me = ctx
        .wallet
        .get_untracked()
        .account
        .filter(|a| world.project_name(a).is_some());
    // A link from where the project is traded (`/score?project=0x…`, issue 42 item 4) picks it and
    // verifies it in the latest final epoch as soon as the epochs are read.
    let from_link: Option<Address> = leptos_router::hooks::use_query_map()
        .with_untracked(|q| q.get("project"))
        .and_then(|a| a.parse().ok());
    let project = RwSignal::new(from_link.or(me).or_else(|| names.first().map(|(_, a)| *a)));
    let selected: RwSignal<Option<u64>> = RwSignal::new(None);
    // The check of one project in one epoch: an action, so only the latest dispatch's result shows.
    let check_action = Action::new_local(move |(w, row, p, mine): &CheckInput| {
        verify_score(w.clone(), row.clone(), *p, mine.clone())
    });
    let check = CheckSlot(check_action);
    // A query names the project, or nothing: never the list's earlier choice (D9).
    Effect::new(move |_| match picked.get() {
        Some(pick::Pick::Project(a)) if project.get_untracked() != Some(a) => {
            project.set(Some(a));
            check.clear();
        }
        None | Some(pick::Pick::Project(_)) => {}
        Some(_) => {
            project.set(None);
            check.clear();
        }
    });
    let own: RwSignal<Option<Result<OwnInputs, AppError>>> = RwSignal::new(None);
    // Connecting (or switching to) an account that is a project picks it.
    let w0 = world.clone();
    Effect::new(move |prev: Option<Option<Address>>| {
        let account = ctx.wallet.with(|w| w.account);
        if prev.is_some_and(|p| p != account) {
            if let Some(a) = account.filter(|a| w0.project_name(a).is_some()) {
                project.set(Some(a));
                check.clear();
            }
        }
        account
    });
    let w1 = world.clone();
    // Every epoch's status; re-read on every confirmed transaction, a newer read superseding an
    // older one.
    let rows = LocalResource::new(move || {
        ctx.refresh.track();
        let account = ctx.wallet.with(|w| w.account);
        let w = w1.clone();
        async move {
            epoch_rows(&w, account)
                .await
                .context("Reading the epochs from the EpochRegistry")
        }
    });
    // The first load selects the latest final epoch.
    Effect::new(move |_| {
        if let Some(Ok(reg)) = rows.get() {
            if selected.get_untracked().is_none() {
                selected.set(
                    reg.epochs
                        .iter()
                        .find(|r| r.slot.status == crate::chain::epochs::EpochStatus::Final)
                        .map(|r| r.epoch()),
                );
            }
        }
    });
    let w2 = world.clone();
    let verify = move || {
        let (Some(p), Some(e), Some(Ok(rs))) = (
            project.get_untracked(),
            selected.get_untracked(),
            rows.get_untracked(),
        ) else {
            return;
        };
        let Some(row) = rs.epochs.into_iter().find(|r| r.epoch() == e) else {
            return;
        };
        let mine = own.get_untracked().and_then(Result::ok);
        check_action.dispatch_local((w2.clone(), row, p, mine));
    };
    let verify2 = verify.clone();
    let verify3 = verify.clone();
    let verify4 = verify.clone();
    let pending_link = StoredValue::new(from_link.is_some());
    Effect::new(move |_| {
        if pending_link.get_value() && selected.get().is_some() && matches!(rows.get(), Some(Ok(_)))
        {
            pending_link.set_value(false);
            verify4();
        }
    });
    let on_done = Callback::new(move |()| verify3());
    let world_for_names = world.clone();
    let world_for_table = world.clone();
    view! {
        <label class="field">
            <span class="label">"Project"</span>
            <select id="project" on:change=move |ev| { query.set(String::new()); project.set(event_target_value(&ev).parse().ok()); check.clear(); }>
                <option value="" disabled=true selected=move || project.get().is_none()>"— none picked —"</option>
                {names.into_iter().map(|(n, a)| view! { <option value=a.to_string() selected=move || project.get() == Some(a)>{n}" · "{fmt::short_addr(&a.to_checksum(None))}</option> }).collect_view()}
            </select>
            <span class="hint">{if has_names { "Names come from the deployment's metadata file and are not verified: the address is what is checked." } else { "This deployment publishes no project names: type the project's address." }}</span>
        </label>
        <label class="field">
            <span class="label">"Or find a project: its name, symbol or address"</span>
            {move || launches.get().and_then(Result::err).map(|e| view! { <span class="hint" id="symbols-unread">{format!("Launch symbols could not be read ({e}); names and addresses still work.")}</span> })}
            <input id="project-query" placeholder="GARD, Acorn, 0x…" spellcheck="false" autocomplete="off" prop:value=move || query.get() on:input=move |ev| query.set(event_target_value(&ev)) />
            {move || {
                match picked.get()? {
                    pick::Pick::Project(a) => Some(view! { <span class="muted" id="project-query-result">{format!("→ {} · {}", candidate(a).map_or_else(|| "an unnamed address".into(), |c| c.label()), a.to_checksum(None))}</span> }.into_any()),
                    pick::Pick::Choices(cs) => Some(view! {
                        <span class="warn" id="project-query-result">"Several projects match; pick one: "
                            {cs.into_iter().map(|c| { let a = c.address; view! { <button class="secondary project-choice" data-address=a.to_string() on:click=move |_| query.set(a.to_checksum(None))>{c.label()}</button>" " } }).collect_view()}
                        </span>
                    }.into_any()),
                    pick::Pick::NoMatch(q) => Some(view! { <span class="bad" id="project-query-error">{format!("No project is named '{q}', and no launch has that symbol. Type a name, a symbol or a full address (0x and 40 hex digits).")}</span> }.into_any()),
                    pick::Pick::NotAnAddress(q) => Some(view! { <span class="bad" id="project-query-error">{format!("'{q}' is not an address: an address is 0x and 40 hex digits.")}</span> }.into_any()),
                }
            }}
        </label>
        <label class="field">
            <span class="label">"Your inputs file (optional)"</span>
            <span class="hint">"A JSON file with your project's inputs {track, features, claims, failed, verifiedOutput, ageSecs, salt}. It is read here, in your browser, and never uploaded; the score is then recomputed from it step by step."</span>
            <input type="file" id="inputs-file" accept="application/json,.json" on:change=move |ev| {
                use wasm_bindgen::JsCast;
                let file = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()).and_then(|i| i.files()).and_then(|f| f.get(0));
                check.clear();
                let Some(file) = file else { own.set(None); return };
                leptos::task::spawn_local(async move {
                    let text = wasm_bindgen_futures::JsFuture::from(file.text()).await.ok().and_then(|v| v.as_string());
                    own.set(Some(text.ok_or_else(|| AppError::missing("the file could not be read")).and_then(|t| parse_own_inputs(&t))));
                });
            } />
            {move || own.get().map(|r| match r {
                Ok(o) => view! { <span class="muted" id="inputs-status">{format!("Read locally: track {}, {} features{}.", o.data.track, o.data.features.len(), if o.salt.is_some() { ", with salt" } else { "" })}</span> }.into_any(),
                Err(e) => view! { <span class="bad" id="inputs-status">{e.to_string()}</span> }.into_any(),
            })}
        </label>
        {
            // Issue 42 item 4: the picked project's published score over the latest final epochs, dated.
            let w = world.clone();
            move || project.get().map(|p| view! { <h2>"Score history"</h2><ScoreHistory world=w.clone() project=p /> })
        }
        <h2>"Epochs"</h2>
        <Transition fallback=|| view! { <Loading what="Reading epoch status from the registry…" /> }>
        <ErrorBoundary fallback=caught>
        {move || rows.get().map(|loaded| loaded.map(|reg| {
            let (registry, currency) = (world_for_table.contracts.epoch_registry, world_for_table.description().native_currency.symbol.clone());
            view! {
                <BondCredit credit=reg.credit registry=registry currency=currency.clone() />
                {if reg.epochs.is_empty() {
                    view! { <p class="empty">"No epochs yet."</p> }.into_any()
                } else {
                    let v = verify2.clone();
                    let on_pick = Callback::new(move |e: u64| { selected.set(Some(e)); check.clear(); v(); });
                    view! { <EpochTable reg=reg registry=registry currency=currency selected=selected on_pick=on_pick /> }.into_any()
                }}
            }
        }))}
        </ErrorBoundary>
        </Transition>
        <div class="actions">
            <button class="primary" id="verify-score" disabled=move || project.get().is_none() on:click=move |_| verify()>{move || match project.get() {
                None => "Pick a project to verify".to_string(),
                Some(a) => format!("Verify {} in the selected epoch", candidate(a).map_or_else(|| fmt::short_addr(&a.to_checksum(None)), |c| c.name)),
            }}</button>
        </div>
        {move || check.get().map(|c| match c {
            Load::Loading => view! { <Loading what="Fetching the bundle and checking it against the chain…" /> }.into_any(),
            Load::Failed(e) => view! { <div class="result bad" id="score-result" role="alert">{e.to_string()}</div> }.into_any(),
            Load::Ready(e) => {
                // The result names the project it is about (D9), from the check itself.
                let checked = e.project;
                let name = untrack(|| candidate(checked)).map(|c| c.label()).or_else(|| world_for_names.project_name(&checked)).unwrap_or_else(|| "Unnamed project".into());
                let name = format!("{name} ({})", checked.to_checksum(None));
                let EpochCheck { project: _, status, score, approved, human, creator, inputs, counting } = e;
                // Issue 42 item 8: after a flagged score, the other parts' checks cannot vouch for the
                // bundle; they are shown without their green (`.after-flag`), under a sentence saying so.
                let flagged = matches!(&score, Ok(c) if !c.flags.is_empty());
                view! {
                    {match score {
                        Ok(c) => score_view(c, name).into_any(),
                        Err(msg) => view! {
                            <div class="result empty" id="score-result" role="status">
                                <strong>{format!("{name}: ")}</strong>{msg.to_string()}{matches!(human, Ok(Some(_))).then_some(": its human score below comes from its graded theses alone (pre-data, C10).")}
                                <dl><dt>"Signed by"</dt><dd id="signer-check">{approval_words(&approved)}</dd></dl>
                            </div>
                        }.into_any(),
                    }}
                    <div class=if flagged { "after-flag" } else { "" }>
                    {flagged.then(|| view! { <p class="banner warn" id="after-flag-note">"The score above is flagged, so this bundle does not hold. The checks below are of its other parts: where they agree, they do not make the bundle right."</p> })}
                    <h2>"Verified inputs"</h2>
                    <InputsView check=inputs />
                    <h2>"Human score"</h2>
                    <HumanView check=human status=status />
                    <counting::CountingView check=counting />
                    <h2>"Creator share"</h2>
                    <CreatorView check=creator on_done=on_done />
                    </div>
                }.into_any()
            }
        })}
    }
}

/// A recomputation step's value for people (issue 42 item 8): a WAD (an integer of more than 12
/// digits) as its exact decimal, anything else (a digest, a count) as it is.
fn step_value(v: &str) -> String {
    match U256::from_str_radix(v, 10) {
        Ok(x) if v.len() > 12 => fmt::units_exact(x, 18),
        _ => v.to_owned(),
    }
}

/// The signer line (C7a): which members of the committee that accepted the proposal approved it.
fn approval_words(approved: &Result<Approved, AppError>) -> String {
    let a = match approved {
        Ok(a) => a,
        Err(e) => return format!("not checked: {e}"),
    };
    let c = &a.committee;
    let names: Vec<String> = a
        .signed
        .iter()
        .map(|m| m.to_checksum(None))
        .chain(
            a.by_contract
                .iter()
                .map(|m| format!("{} (contract, ERC-1271)", m.to_checksum(None))),
        )
        .collect();
    let count = a.signed.len() + a.by_contract.len();
    let mark = if a.enough() { " ✓" } else { "" };
    if c.members.len() == 1 && count == 1 {
        format!(
            "{} = the registry's signer (committee #{}, 1 of 1){mark}",
            names[0], c.id
        )
    } else {
        format!(
            "{count} of the {} members of committee #{} (threshold {}): {}{mark}",
            c.members.len(),
            c.id,
            c.threshold,
            names.join(", ")
        )
    }
}

/// The configuration line (C2a): the pin in force for the epoch, and whether the tracks are it.
fn config_words(
    config: &Result<Option<crate::chain::epochs::ConfigPin>, AppError>,
    flags: &[crate::flows::score_findings::ScoreFlag],
) -> String {
    use crate::flows::score_findings::ScoreFlag;
    match config {
        Err(e) => format!("not checked: {e}"),
        Ok(None) => "none pinned on chain for this epoch".into(),
        Ok(Some(p)) => {
            let held = !flags.iter().any(|f| {
                matches!(
                    f,
                    ScoreFlag::Config(_)
                        | ScoreFlag::ConfigMissing(_)
                        | ScoreFlag::ConfigNotPinned(_)
                )
            });
            format!(
                "version {} ({}), pinned on chain from epoch {}{}",
                p.version,
                words::short(p.hash),
                p.first_epoch,
                if held {
                    ": the tracks are it ✓"
                } else {
                    ": the tracks differ (below)"
                }
            )
        }
    }
}

/// The systematic score's result box.
fn score_view(c: ScoreCheck, name: String) -> impl IntoView {
    let ok = c.flags.is_empty()
        && c.leaf_reaches_chain
        && c.approved.as_ref().is_ok_and(Approved::enough);
    let pending = c.onchain_root.is_none();
    let class = if ok {
        "result ok"
    } else if pending && c.flags.is_empty() {
        "result empty"
    } else {
        "result bad"
    };
    let score = c.score_wad;
    let moved = (c.published_wad != score).then_some(c.published_wad);
    view! {
        <div class=class id="score-result" role="status">
            <strong>{if ok { "Verified against the chain. ".to_string() } else if pending && c.flags.is_empty() { "Not final yet. ".to_string() } else { "Flagged: this bundle does not match the chain. ".to_string() }}</strong>
            {format!("{name}: {}score ", if moved.is_some() { "systematic " } else { "" })}<Amount raw=score decimals=18 unit="points" sig=5 />
            {moved.map(|p| view! { <p id="published-score">"Published score (what FeeLanes and the creator share read, C27): "<Amount raw=p decimals=18 unit="points" sig=5 />" — the human layer's, checked below. The systematic score is kept in its own leaf: the next epoch smooths from it."</p> })}
            <ul class="flags">{c.flags.iter().map(|f| view! { <li>{words::score_flag(f)}</li> }).collect_view()}</ul>
            <dl>
                <dt>"Checked from"</dt><dd id="check-source">{match c.source {
                    CheckSource::Light { bytes } => format!("the project's light publication: {} kB (its leaves' proofs and its track's bounds proven against the signed inputsRoot; the whole cohort is the watchtower's to check)", fmt::thousands(bytes.div_ceil(1000) as u64)),
                    CheckSource::Full => "the whole epoch bundle".to_string(),
                }}</dd>
                <dt>"On-chain final root"</dt><dd><code>{c.onchain_root.map_or("— (not final yet)".to_string(), |r| r.to_string())}</code></dd>
                <dt>{match c.source { CheckSource::Light { .. } => "Root the proof reaches", CheckSource::Full => "Root rebuilt from the bundle" }}</dt><dd><code>{c.rebuilt_root.to_string()}</code></dd>
                {c.previous.as_ref().map(|p| view! { <dt>"Previous score"</dt><dd id="previous-score">{words::previous_tie(p)}</dd> })}
                <dt>"Proof"</dt><dd>{format!("{} hashes; {}", c.proof.len(), if c.leaf_reaches_chain { "reaches the on-chain root" } else { "does not reach an on-chain final root" })}</dd>
                <dt>"Signed by"</dt><dd id="signer-check">{approval_words(&c.approved)}</dd>
                <dt>"Scoring configuration"</dt><dd id="config-check">{config_words(&c.config, &c.flags)}</dd>
            </dl>
            {(c.report.is_none() && c.private).then(|| view! { <p class="muted">"This project's inputs are private: only their commitment is published. Pick its inputs file above to recompute the score from it."</p> })}
            {c.check.report.clone().map(|r| view! {
                <details open=!r.matches>
                    <summary id="recompute-summary">{format!("Recomputed from {}: {}", if c.from_own_file { "your inputs file" } else { "the public inputs" }, if r.matches { "every step matches".to_string() } else { format!("differs first at '{}'", r.first_mismatch.map_or("", |s| s.name())) })}</summary>
                    <ol class="steps">
                        {r.steps.into_iter().map(|s| {
                            let name = s.step.name();
                            view! { <li class=if s.ok { "ok" } else { "bad" }><strong>{name}</strong>{if s.ok { " ✓".to_string() } else { format!(": published {}, recomputed {}", step_value(&s.expected), step_value(&s.computed)) }}</li> }
                        }).collect_view()}
                    </ol>
                </details>
            })}
        </div>
    }
}

#[cfg(test)]
mod step_value_tests {
    #[test]
    fn a_wad_reads_as_a_decimal() {
        assert_eq!(
            super::step_value("36353657776000000001"),
            "36.353657776000000001"
        );
        assert_eq!(super::step_value("7"), "7");
        assert_eq!(super::step_value("0xabc"), "0xabc");
    }
}
