//! Scorer page (C-scoring, burns): registration with the stake (`eden_core::rewards::SCORER_STAKE`) and
//! the burn priced live (`eden_core::burns::root_for_usd_up` of `REGISTER_BURN_USD` at the oracle's ROOT
//! price, with the ETH/USD answer's age shown against its 25 h limit), an exact approval, then
//! `register(maxBurnRoot)`; once registered, the stake and the 14-day limit countdown
//! (`eden_core::burns::next_score_at`), and the account's open positions with their accrued rewards
//! ([`super::positions`]).

pub mod buyback;
pub mod citations;
pub mod positions;
pub mod unproven;

use crate::chain::abi::IScorerRegistry;
use crate::chain::rpc::TxRequest;
use crate::chain::scorer::{self, ScorerRecord, ScorerRef};
use crate::chain::world::World;
use crate::error::{AppError, Context};
use crate::fmt;
use crate::state::{Ctx, Load};
use crate::ui::{caught, with_world, Amount, ErrorBox, Loading};
use alloy_primitives::{Address, U256};
use alloy_sol_types::SolCall;
use eden_core::burns::{
    next_score_at, root_for_usd_up, unstake_ready_at, RootAmountBounds, REGISTER_BURN_USD,
};
use eden_core::rewards::SCORER_STAKE;
use eden_core::scoring::copy_detect::{copy_check, Verdict, MAX_THESIS_BYTES};
use leptos::prelude::*;
use positions::MyPositions;
use unproven::Unproven;

use crate::chain::usd::MAX_ANSWER_AGE;
/// Headroom on the burn cap for a price move between simulation and mining (2 %).
const BURN_CAP_HEADROOM_DIV: u64 = 50;

#[derive(Debug, Clone, PartialEq)]
struct ScorerData {
    price_usd: Result<U256, AppError>,
    feed_updated: u64,
    burn: Result<U256, AppError>,
    me: Option<ScorerRecord>,
    balance: U256,
}

/// The price feed, ROOT's price and the connected scorer's record and balance
/// ([`scorer::account`]), and the registration burn priced from it (C15, rounded up).
async fn load(w: World, s: ScorerRef, me: Option<Address>) -> Result<ScorerData, AppError> {
    let read = scorer::account(&w.rpc(), &s, me).await?;
    let price_usd = read.price_usd.map_err(AppError::from);
    let burn = match &price_usd {
        Ok(p) => root_for_usd_up(REGISTER_BURN_USD, *p, RootAmountBounds::default())
            .map_err(AppError::from),
        Err(x) => Err(x.clone()),
    };
    Ok(ScorerData {
        price_usd,
        feed_updated: read.feed_updated,
        burn,
        me: read.record,
        balance: read.balance,
    })
}

/// `/scorer`.
#[component]
pub fn ScorerPage() -> impl IntoView {
    view! {
        <section class="card">
            <h1>"Scorer"</h1>
            <p class="lede">"Scorers stake ROOT and burn $100 of ROOT to register; each score burns again and may be made at most once every 14 days."</p>
            {with_world(|w| view! { <ScorerFound world=w /> })}
        </section>
        <section class="card">
            {with_world(|w| view! { <buyback::RootBuybackCard world=w /> })}
        </section>
    }
}

/// The registry discovered from the chain ([`crate::chain::scorer::discover`]), then the page.
#[component]
fn ScorerFound(world: World) -> impl IntoView {
    let w1 = world.clone();
    let retries = Ctx::get().retries;
    // The account's positions and unproven scores need only the registry's address: read beside
    // the discovery, not after it (their requests join its batches, D3).
    let reads = match (
        world.contracts.scorer_registry,
        world.contracts.root_price_oracle,
    ) {
        (Some(r), Some(_)) => Some((
            positions::read_positions(world.clone(), r),
            unproven::read_unproven(world.clone(), r),
        )),
        _ => None,
    };
    let found = LocalResource::new(move || {
        retries.track();
        let w = w1.clone();
        async move {
            scorer::discover(&w).await.context(
                "Discovering the scorer registry (ROOT, its price feed, the graded theses)",
            )
        }
    });
    view! {
        <Transition fallback=|| view! { <Loading what="Reading the scorer registry from chain…" /> }>
        <ErrorBoundary fallback=caught>
        {move || found.get().map(|loaded| loaded.map(|s| match (s, reads) {
            (Some(s), Some((positions, unproven))) => view! { <ScorerBody world=world.clone() scorer=s positions=positions unproven=unproven /> }.into_any(),
            _ => view! { <p class="empty" id="no-scorer">"The scorer registry is not deployed on this chain."</p> }.into_any(),
        }))}
        </ErrorBoundary>
        </Transition>
    }
}

#[component]
fn ScorerBody(
    world: World,
    scorer: ScorerRef,
    positions: LocalResource<Option<(Address, Result<positions::PositionsRead, AppError>)>>,
    unproven: LocalResource<unproven::UnprovenRead>,
) -> impl IntoView {
    let ctx = Ctx::get();
    // The thesis being written lives here, above the chain reads: a re-read never loses it.
    let draft = Draft::new(scorer.tokens.first().map(|t| t.token));
    let (w1, s1) = (world.clone(), scorer.clone());
    // A newer read supersedes an older one; leaving the page drops it.
    let data = LocalResource::new(move || {
        ctx.refresh.track();
        let me = ctx.wallet.get().account;
        let (w, s) = (w1.clone(), s1.clone());
        async move {
            load(w, s, me)
                .await
                .context("Reading ROOT's price and your scorer record")
        }
    });
    let (registry, root) = (scorer.registry, scorer.root);
    let positions = view! {
        <Unproven world=world.clone() scorer=scorer.clone() data=unproven />
        <MyPositions world=world.clone() scorer=scorer.clone() read=positions />
    };
    let scorer = scorer.clone();
    let unstake = move |request: bool| {
        let (data, label) = if request {
            (
                IScorerRegistry::requestUnstakeCall {}.abi_encode(),
                "Request unstake",
            )
        } else {
            (
                IScorerRegistry::withdrawStakeCall {}.abi_encode(),
                "Withdraw the scorer stake",
            )
        };
        leptos::task::spawn_local(async move {
            crate::send::send(ctx, label.into(), TxRequest::call(registry, data)).await;
        });
    };
    let register = move |burn: U256| {
        let max_burn = burn.saturating_add(burn / U256::from(BURN_CAP_HEADROOM_DIV));
        let total = SCORER_STAKE.saturating_add(max_burn);
        leptos::task::spawn_local(async move {
            let display = format!("{} ROOT", fmt::units(total, 18, 6));
            if !crate::send::approve_exactly(ctx, root, registry, total, display).await {
                return;
            }
            let reg = IScorerRegistry::registerCall {
                maxBurnRoot: max_burn,
            }
            .abi_encode();
            crate::send::send(
                ctx,
                "Register as a scorer".into(),
                TxRequest::call(registry, reg),
            )
            .await;
        });
    };
    view! {
            <Transition fallback=|| view! { <Loading what="Reading the ROOT price and the registry…" /> }>
    <ErrorBoundary fallback=caught>
    {move || data.get().map(|loaded| loaded.map(|d| {
                    let updated = d.feed_updated;
                    let freshness = move || {
                        let age = ctx.chain_now().saturating_sub(updated);
                        if age > MAX_ANSWER_AGE { format!("ETH/USD answer {} old: stale (limit 25 h), burns cannot be priced", fmt::duration(age)) }
                        else { format!("ETH/USD answer {} old (fresh; limit 25 h)", fmt::duration(age)) }
                    };
                    let reg = register;
                    let scorer2 = scorer.clone();
                    view! {
                        <dl class="kv">
                            <dt>"ROOT price"</dt>
                            <dd id="root-price">{match &d.price_usd { Ok(p) => view! { <Amount raw=*p decimals=18 unit="USD" sig=6 /> }.into_any(), Err(e) => view! { <span class="error">{e.to_string()}</span> }.into_any() }}
                                " · lower of the 30-min and 4-h pool TWAPs"</dd>
                            <dt>"Freshness"</dt>
                            <dd id="price-freshness">{freshness}</dd>
                            <dt>"Stake"</dt>
                            <dd><Amount raw=SCORER_STAKE decimals=18 unit="ROOT" sig=6 /></dd>
                            <dt>"Registration burn ($100)"</dt>
                            <dd id="register-burn">{match &d.burn { Ok(b) => view! { <Amount raw=*b decimals=18 unit="ROOT" sig=6 /> }.into_any(), Err(e) => view! { <span class="error">{e.to_string()}</span> }.into_any() }}</dd>
                        </dl>
                        // #42 item 7: the thesis form is there for everyone; what stops a submission
                        // (no wallet, no registration, the 14-day limit) is said on it, and the
                        // registration comes after it.
                        {match d.price_usd.clone() {
                            Ok(p) => view! { <ThesisEditor scorer=scorer2.clone() price_usd=p gate=gate_of(d.me.as_ref()) draft=draft /> }.into_any(),
                            Err(_) => view! { <p class="empty">"Scoring needs a live ROOT price."</p> }.into_any(),
                        }}
                        {match (d.me.clone(), d.burn.clone()) {
                            (None, _) => view! { <p class="empty">"Connect a wallet to register or see your scorer status."</p> }.into_any(),
                            (Some(m), _) if m.registered => {
                                let next = next_score_at((m.last_score_at > 0).then_some(m.last_score_at));
                                view! {
                                    <div class="notice" id="scorer-status">
                                        <p>"Registered as a scorer · stake "<Amount raw=m.stake decimals=18 unit="ROOT" sig=6 />" · since "{fmt::date_utc(m.registered_at)}</p>
                                        <p id="score-countdown">{move || {
                                            let now = ctx.chain_now();
                                            if now >= next { "You may score now (14-day limit: free).".to_string() }
                                            else { format!("Next score allowed in {} (14-day limit)", fmt::duration(next - now)) }
                                        }}</p>
                                    </div>
                                    {if m.unstake_requested_at > 0 {
                                        let ready = unstake_ready_at(m.unstake_requested_at);
                                        view! {
                                            <div class="notice" id="unstake-status">
                                                <p>{move || {
                                                    let now = ctx.chain_now();
                                                    if now >= ready { "Unstaking: the 7-day cooldown is over, your stake can be withdrawn.".to_string() }
                                                    else { format!("Unstaking: the stake can be withdrawn in {} (7-day cooldown)", fmt::duration(ready - now)) }
                                                }}</p>
                                                <button class="primary" id="withdraw-stake" disabled=move || ctx.chain_now() < ready on:click=move |_| unstake(false)>"Withdraw the stake"</button>
                                            </div>
                                        }.into_any()
                                    } else {
                                        view! {
                                            <h2>"Unstake"</h2>
                                            <p class="muted">"Unstaking closes your open positions now; the stake can be withdrawn after a 7-day cooldown."</p>
                                            <button class="secondary" id="request-unstake" on:click=move |_| unstake(true)>"Request unstake"</button>
                                        }.into_any()
                                    }}
                                }.into_any()
                            }
                            (Some(_), Err(_)) => view! { <p class="empty">"Registration needs a live ROOT price."</p> }.into_any(),
                            (Some(_), Ok(burn)) => {
                                let need = SCORER_STAKE.saturating_add(burn);
                                let enough = d.balance >= need;
                                view! {
                                    <h2 id="register-title">"Register as a scorer"</h2>
                                    <p class="muted">"Scoring needs a registered scorer: the stake (returned after unstaking and a 7-day cooldown) and a $100 burn."</p>
                                    <p class="muted">"Your ROOT: "<Amount raw=d.balance decimals=18 unit="ROOT" sig=6 />
                                        {if enough { String::new() } else { " — not enough for stake and burn".to_string() }}</p>
                                    <button class="primary" id="register-button" disabled=!enough on:click=move |_| reg(burn)>"Approve and register"</button>
                                    <p class="muted">"The burn cap allows 2 % of price movement before it is mined; the approval is exact (stake + cap)."</p>
                                }.into_any()
                            }
                        }}
                    }.into_any()
                }))}
    </ErrorBoundary>
    </Transition>
            {positions}
        }
}

/// What stands between the connected account and submitting a score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Gate {
    /// No wallet connected.
    NoWallet,
    /// Connected, not registered.
    NotRegistered,
    /// Registered, its stake being unstaked (no new scores).
    Unstaking,
    /// Registered: may score from `next` (the 14-day limit).
    Registered { next: u64 },
}

fn gate_of(me: Option<&ScorerRecord>) -> Gate {
    match me {
        None => Gate::NoWallet,
        Some(m) if !m.registered => Gate::NotRegistered,
        Some(m) if m.unstake_requested_at > 0 => Gate::Unstaking,
        Some(m) => Gate::Registered {
            next: next_score_at((m.last_score_at > 0).then_some(m.last_score_at)),
        },
    }
}

/// Why the submit button is disabled now, in words (`None`: it is not).
fn submit_refusal(
    gate: Gate,
    now: u64,
    target: &Result<U256, String>,
    empty: bool,
    copy: bool,
) -> Option<String> {
    match gate {
        Gate::NoWallet => {
            return Some("Connect a wallet to submit: the thesis stays here while you do.".into())
        }
        Gate::NotRegistered => {
            return Some(
                "Register as a scorer first (below): the thesis stays here while you do.".into(),
            )
        }
        Gate::Unstaking => {
            return Some(
                "Your stake is being unstaked: a scorer who is unstaking cannot submit new scores."
                    .into(),
            )
        }
        Gate::Registered { next } if now < next => {
            return Some(format!(
                "The 14-day limit: your next score is allowed in {}.",
                fmt::duration(next - now)
            ))
        }
        Gate::Registered { .. } => {}
    }
    if let Err(e) = target {
        return Some(e.clone());
    }
    if empty {
        return Some("Write the thesis first.".into());
    }
    copy.then(|| {
        "This thesis copies a published one: it would earn nothing. Write your own.".into()
    })
}

/// The target score typed, as a WAD in `[0, 100]`, or why it is refused.
fn parse_target(s: &str) -> Result<U256, String> {
    let hundred = U256::from(100u8) * U256::from(10u8).pow(U256::from(18u8));
    match fmt::parse_units(s, 18) {
        Ok(v) if v <= hundred => Ok(v),
        Ok(_) => Err(format!(
            "The target score is a number from 0 to 100; {} is above 100.",
            s.trim()
        )),
        Err(e) => Err(format!("The target score is a number from 0 to 100: {e}.")),
    }
}

/// A thesis being written: token, target, and its text with its references (C8: quotes, `[n]`
/// markers, `[n]: url` lines at the end).
#[derive(Clone, Copy)]
struct Draft {
    token: RwSignal<Option<Address>>,
    target: RwSignal<String>,
    thesis: RwSignal<String>,
}

impl Draft {
    fn new(token: Option<Address>) -> Self {
        Self {
            token: RwSignal::new(token),
            target: RwSignal::new(String::from("70")),
            thesis: RwSignal::new(String::new()),
        }
    }
}

/// The thesis editor: token, target score, thesis with its citations, parsed as it is typed
/// ([`citations::CitationsView`]: each quote with its reference, what does not follow the rule, the
/// injection screening); the copy check runs locally on
/// every edit (`eden_core::scoring::copy_detect::copy_check` against the published theses) and a copy
/// cannot be submitted; the submit burns `scoreBurnUsd(token)` of ROOT at the live price.
#[component]
fn ThesisEditor(scorer: ScorerRef, price_usd: U256, gate: Gate, draft: Draft) -> impl IntoView {
    let ctx = Ctx::get();
    let Draft {
        token,
        target,
        thesis,
    } = draft;
    let unpublished = scorer.unpublished;
    let error = RwSignal::new(None::<String>);
    let published = scorer.theses.clone();
    // The submitted text: the thesis with its reference lines (the hash covers all of it).
    let full_text = move || thesis.get();
    let check = Memo::new(move |_| {
        let text = thesis.get();
        if text.trim().is_empty() {
            return None;
        }
        let earlier: Vec<(alloy_primitives::B256, &str)> = published
            .iter()
            .map(|t| (t.thesis_hash, t.thesis.as_str()))
            .collect();
        Some(copy_check(&text, &earlier))
    });
    let (registry, root) = (scorer.registry, scorer.root);
    let submit = move |_| {
        error.set(None);
        let Some(tok) = token.get_untracked() else {
            return error.set(Some("Pick a token.".into()));
        };
        // The same refusals the button states (`submit_refusal`), read once more at the click.
        let target_wad = parse_target(&target.get_untracked());
        let text = full_text();
        if let Some(why) = submit_refusal(
            gate,
            ctx.chain_now(),
            &target_wad,
            text.trim().is_empty(),
            check
                .get_untracked()
                .is_some_and(|c| c.verdict == Verdict::Copy),
        ) {
            return error.set(Some(why));
        }
        let Ok(target_wad) = target_wad else {
            return; // refused above
        };
        if text.len() > MAX_THESIS_BYTES {
            return error.set(Some(format!(
                "The thesis and its references are {} bytes; the registry takes at most {} (they go on chain).",
                fmt::thousands(text.len() as u64),
                fmt::thousands(MAX_THESIS_BYTES as u64)
            )));
        }
        leptos::task::spawn_local(async move {
            let Load::Ready(w) = ctx.world.get_untracked() else {
                return;
            };
            let usd = match scorer::score_burn_usd(&w.rpc(), registry, tok).await {
                Ok(u) => u,
                Err(e) => return error.set(Some(e.to_string())),
            };
            let burn = match root_for_usd_up(usd, price_usd, RootAmountBounds::default()) {
                Ok(b) => b,
                Err(e) => return error.set(Some(e.to_string())),
            };
            let max_burn = burn.saturating_add(burn / U256::from(BURN_CAP_HEADROOM_DIV));
            let display = format!("{} ROOT", fmt::units(max_burn, 18, 6));
            if !crate::send::approve_exactly(ctx, root, registry, max_burn, display).await {
                return;
            }
            let data = IScorerRegistry::scoreCall {
                token: tok,
                targetScore: target_wad,
                thesis: text,
                maxBurnRoot: max_burn,
            }
            .abi_encode();
            crate::send::send(
                ctx,
                "Submit a score".into(),
                TxRequest::call(registry, data),
            )
            .await;
        });
    };
    // The burn for the token picked ($ from `scoreBurnUsd(token)`, ROOT at the live price, C15).
    let burn = LocalResource::new(move || {
        let tok = token.get();
        let w = ctx.world.get_untracked();
        async move {
            let (Some(tok), Load::Ready(w)) = (tok, w) else {
                return None;
            };
            let usd = scorer::score_burn_usd(&w.rpc(), registry, tok).await.ok()?;
            let root = root_for_usd_up(usd, price_usd, RootAmountBounds::default()).ok()?;
            Some((usd, root))
        }
    });
    let target_ok = Memo::new(move |_| parse_target(&target.get()));
    let refusal = move || {
        submit_refusal(
            gate,
            ctx.chain_now(),
            &target_ok.get(),
            thesis.with(|t| t.trim().is_empty()),
            check.get().is_some_and(|c| c.verdict == Verdict::Copy),
        )
    };
    let button_label = move || match burn.get().flatten() {
        Some((usd, root)) => format!(
            "Pay the burn and submit ({} ROOT, ${})",
            fmt::units(root, 18, 2),
            fmt::units(usd, 18, 2)
        ),
        None => "Pay the burn and submit".to_string(),
    };
    let tokens = scorer.tokens.clone();
    view! {
        <h2>"Write a thesis"</h2>
        <div class="notice" id="thesis-rules">
            <p>"How a thesis is graded (C8): quality q = G × R. G, the grounding, is computed by code: the share of your quotes found word for word on the page they cite. R is the mean of three rubric criteria (relevance, specificity, whether your target score follows from the thesis), the median of three model samples. A thesis that copies a published one earns nothing; one that addresses the grader scores 0."</p>
            <p>"Which sources count: any public http(s) page with the quoted words in its visible text. A page that cannot be fetched, or a quote shorter than three words, grounds nothing."</p>
        </div>
        <div class="form" id="thesis-form">
            <label>"Token "
                <select id="thesis-token" on:change=move |ev| token.set(event_target_value(&ev).parse().ok())>
                    {tokens.into_iter().map(|t| { let a = t.token; view! { <option value=a.to_string() selected=move || token.get() == Some(a)>{t.symbol}</option> } }).collect_view()}
                </select>
            </label>
            <label>" Target score (0–100) "<input id="thesis-target" inputmode="decimal" prop:value=move || target.get() on:input=move |ev| target.set(event_target_value(&ev)) /></label>
            {move || target_ok.get().err().map(|e| view! { <p class="error" id="target-error">{e}</p> })}
            <p class="muted" id="thesis-how">"Quote a source's own words in double quotes followed by a marker, "<code>"\"…\" [1]"</code>", and list the references at the end, one per line: "<code>"[1]: https://…"</code>". A quote found on its page counts toward grounding G (q = G × R); words addressed to the grader score 0 (docs/grader.md)."</p>
            <label class="block">"Thesis"<textarea id="thesis-text" rows="8" prop:value=move || thesis.get() on:input=move |ev| thesis.set(event_target_value(&ev))></textarea></label>
            <citations::CitationsView thesis=thesis />
            <p id="copy-check" class="muted">{move || match check.get() {
                None => "The copy check runs here, in your browser, as you write.".to_string(),
                Some(c) => format!("Copy check: {} ({} similar to the closest published thesis){}", c.verdict.name(), fmt::percent_bps(c.similarity_bps()), match c.verdict {
                    Verdict::Copy => " — a copy earns nothing; it cannot be submitted.",
                    Verdict::Derivative => " — a derivative thesis counts half.",
                    _ => "",
                }),
            }}</p>
            {(unpublished > 0).then(|| view! {
                <p class="muted" id="unpublished-theses">{format!("{unpublished} scored thesis text(s) from the node do not match the hash the registry computed: the copy check cannot compare with them.")}</p>
            })}
            <button class="primary" id="submit-score" on:click=submit
                disabled=move || refusal().is_some()>{button_label}</button>
            {move || refusal().map(|why| view! { <p class="muted" id="submit-why">{why}</p> })}
        </div>
        {move || error.get().map(|e| view! { <ErrorBox message=e /> })}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_is_a_number_from_0_to_100() {
        let wad = |x: u64| U256::from(x) * U256::from(10u8).pow(U256::from(18u8));
        assert_eq!(parse_target("70"), Ok(wad(70)));
        assert_eq!(parse_target("100"), Ok(wad(100)));
        assert_eq!(parse_target("0"), Ok(U256::ZERO));
        assert_eq!(
            parse_target("150"),
            Err("The target score is a number from 0 to 100; 150 is above 100.".to_string())
        );
        assert!(parse_target("seventy")
            .unwrap_err()
            .starts_with("The target score is a number from 0 to 100: "));
    }

    #[test]
    fn every_refusal_is_said_in_words() {
        let ok = Ok(U256::from(1u8));
        let r =
            |g, now, t: &Result<U256, String>, empty, copy| submit_refusal(g, now, t, empty, copy);
        assert!(r(Gate::NoWallet, 0, &ok, false, false)
            .unwrap()
            .starts_with("Connect a wallet"));
        assert!(r(Gate::NotRegistered, 0, &ok, false, false)
            .unwrap()
            .starts_with("Register as a scorer first"));
        assert!(r(Gate::Unstaking, 0, &ok, false, false)
            .unwrap()
            .contains("unstaked"));
        assert_eq!(
            r(Gate::Registered { next: 100 }, 40, &ok, false, false).unwrap(),
            "The 14-day limit: your next score is allowed in 1 min 0 s."
        );
        let bad = Err("target".to_string());
        assert_eq!(
            r(Gate::Registered { next: 0 }, 40, &bad, false, false).unwrap(),
            "target"
        );
        assert_eq!(
            r(Gate::Registered { next: 0 }, 40, &ok, true, false).unwrap(),
            "Write the thesis first."
        );
        assert!(r(Gate::Registered { next: 0 }, 40, &ok, false, true)
            .unwrap()
            .contains("copies"));
        assert_eq!(r(Gate::Registered { next: 0 }, 40, &ok, false, false), None);
    }
}
