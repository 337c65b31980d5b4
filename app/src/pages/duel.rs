//! Duel pages (B1–B7): the duels of this chain, and one duel: the countdown to the next UTC close
//! (`eden_core::duel::round_at`); the live split at the current `d` (B3, `eden_core::duel::split_wad`
//! on the pools' current ticks); the round's running mean tick and would-be winner recomputed here
//! from the two pools' swap logs (B2, [`crate::flows::duel_mean`] → `eden_core::duel::round_mean_tick`)
//! with its split, and a cross-check against the hook's own `pendingResult` (shown, never used as
//! the figure); the pot and the buyback cap of each side (`eden_core::duel::{token_price_wad,
//! buyback_cap_wad}` from the pool price and the hook's EMA); streaks; the settled rounds
//! (`RoundSettled` logs, each mean recomputed the same way); "Settle the round now"
//! (`settle(duelId)`) when a closed round awaits settlement.

use crate::chain::abi::IDuelHook;
use crate::chain::duels::{self, DuelRef};
use crate::chain::pool::Key;
use crate::chain::rpc::Rpc;
use crate::chain::world::World;
use crate::error::{AppError, Context};
use crate::flows::duel::{duel_of, duels_of, holdings, load, to_i64, DuelData, Settled};
use crate::flows::duel_mean;
use crate::fmt;
use crate::state::Ctx;
use crate::ui::{caught, with_world, Amount, ErrorBox, Loading, Usd};
use alloy_primitives::{Address, U256};
use eden_core::duel::{self, RoundWindow, Winner};
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

use super::pool_trade::{stored_slippage, PoolTrade, SlippageField};

/// One side's supply row: the supply now, what this duel burned of it, and what sits at 0xdEaD (B5: a
/// burnable token's supply falls; one without `burn` is sent there instead).
fn supply_row(side: &str, sym: &str, s: duels::Supply, burned: U256) -> impl IntoView {
    let note = if s.at_dead.is_zero() {
        "burned: the supply fell by it".to_string()
    } else {
        format!(
            "{} at 0xdEaD (tokens without burn are sent there)",
            fmt::units(s.at_dead, 18, 4)
        )
    };
    view! {
        <dt>{format!("Supply {sym}")}</dt>
        <dd id=format!("supply-{side}") data-supply=s.total.to_string() data-burned=burned.to_string()>
            <Amount raw=s.total decimals=18 sig=6 />
            <span class="muted">{format!(" · this duel bought back {} · {note}", fmt::units(burned, 18, 4))}</span>
        </dd>
    }
}

/// The `Winner` as the hook's enum value, named.
fn winner_of(r: &DuelRef, w: Winner) -> String {
    winner_name(r, duel_mean::winner_code(w))
}

fn winner_name(r: &DuelRef, w: u8) -> String {
    match w {
        1 => r.symbol_a.clone(),
        2 => r.symbol_b.clone(),
        _ => "no winner".into(),
    }
}

/// `/duel`: the duels of this chain.
#[component]
pub fn DuelList() -> impl IntoView {
    view! {
        <section class="card">
            <h1>"Duels"</h1>
            <p class="lede">"Two tokens, each in its own ETH pool. Every round (closing at 00:00, 04:00 … 20:00 UTC) the token whose price gained more on the other, time-weighted, wins: the pot buys it back and burns it."</p>
            {with_world(|w| view! { <DuelRows world=w /> })}
            {with_world(|w| w.contracts.duel_hook.map(|hook| view! { <super::duel_create::CreateDuel world=w.clone() hook=hook /> }))}
        </section>
    }
}

#[component]
fn DuelRows(world: World) -> impl IntoView {
    let ctx = Ctx::get();
    // Re-read after a confirmed transaction too: a duel created here appears at once.
    let list = LocalResource::new(move || {
        ctx.retries.track();
        ctx.refresh.track();
        let w = world.clone();
        async move { duels_of(&w).await.context("Reading the duels") }
    });
    view! {
        <Transition fallback=|| view! { <Loading what="Reading duels from chain…" /> }>
        <ErrorBoundary fallback=caught>
        {move || list.get().map(|loaded| loaded.map(|ds| if ds.is_empty() {
            view! { <p class="empty" id="no-duels">"No duels on this chain yet."</p> }.into_any()
        } else {
            view! {
                <ul class="duels">
                    {ds.into_iter().map(|d| view! {
                        <li class="duel-row" data-duel=d.duel_id>
                            <a href=format!("/duel/{}", d.duel_id)>{format!("Duel #{}: {} vs {}", d.duel_id, d.symbol_a, d.symbol_b)}</a>
                        </li>
                    }).collect_view()}
                </ul>
            }.into_any()
        }))}
        </ErrorBoundary>
        </Transition>
    }
}

/// `/duel/:id`: one duel.
#[component]
pub fn DuelPage() -> impl IntoView {
    let params = use_params_map();
    let id = move || params.with(|p| p.get("id").and_then(|t| t.parse::<u64>().ok()));
    view! {
        <section class="card">
            {move || {
                let id = id();
                with_world(move |w| view! { <DuelById world=w id=id /> })
            }}
        </section>
    }
}

#[component]
fn DuelById(world: World, id: Option<u64>) -> impl IntoView {
    let w1 = world.clone();
    let retries = Ctx::get().retries;
    let found = LocalResource::new(move || {
        retries.track();
        let w = w1.clone();
        async move {
            match id {
                Some(id) => duel_of(&w, id).await.context("Reading the duel"),
                None => Ok(None),
            }
        }
    });
    view! {
        <Transition fallback=|| view! { <Loading what="Reading the duel from chain…" /> }>
        <ErrorBoundary fallback=caught>
        {move || found.get().map(|loaded| loaded.map(|d| match d {
            Some(r) => view! { <DuelBody world=world.clone() duel=r /> }.into_any(),
            None => view! { <p class="empty">"There is no such duel on this chain."</p> }.into_any(),
        }))}
        </ErrorBoundary>
        </Transition>
    }
}

#[component]
fn DuelBody(world: World, duel: DuelRef) -> impl IntoView {
    let ctx = Ctx::get();
    let (w1, r1) = (world.clone(), duel.clone());
    // A newer read supersedes an older one; leaving the page drops it.
    let data = LocalResource::new(move || {
        ctx.refresh.track();
        let (w, r) = (w1.clone(), r1.clone());
        async move {
            load(w, r)
                .await
                .context("Reading the duel and replaying its pools' swaps")
        }
    });
    let hook = duel.hook;
    let did = duel.duel_id;
    let settle = move |_| {
        let call = IDuelHook::settleCall {
            duelId: U256::from(did),
        };
        crate::send::act(ctx, hook, format!("Settle duel #{did}"), call, U256::ZERO);
    };
    let r = duel.clone();
    let currency = world.description().native_currency.symbol.clone();
    // The two pools' keys never change: the trade forms are built once (D7).
    let keys: Memo<Option<(Key, Key)>> = Memo::new(move |_| {
        data.get()
            .and_then(Result::ok)
            .map(|x| (Key::from(&x.d.keyA), Key::from(&x.d.keyB)))
    });
    // What the account holds needs only the tokens: read beside the duel, not after it (D3).
    let held = read_held(world.rpc(), duel.token_a, duel.token_b);
    let (w2, r2) = (world.clone(), duel.clone());
    let trade = move || {
        keys.get().map(
            |(a, b)| view! { <DuelTrade world=w2.clone() duel=r2.clone() key_a=a key_b=b held=held /> },
        )
    };
    view! {
            <h1>{format!("Duel #{}: {} vs {}", duel.duel_id, duel.symbol_a, duel.symbol_b)}</h1>
            <Transition fallback=|| view! { <Loading what="Reading the duel from chain…" /> }>
    <ErrorBoundary fallback=caught>
    {move || data.get().map(|loaded| loaded.map(|x| {
                    let r = r.clone();
                    let start = x.d.start;
                    let countdown = move || {
                        let now = ctx.chain_now();
                        match duel::round_at(start, now) {
                            Ok(win) => format!("round {} closes in {} (at {} UTC)", win.index, fmt::duration(win.end.saturating_sub(now)), utc_hm(win.end)),
                            Err(e) => e.to_string(),
                        }
                    };
                    // B3 live split at the current d from the replayed pool ticks (the hook's heldD if the replay failed).
                    let held = to_i64(x.d.heldD);
                    let live_d = x.current.as_ref().map_or(held, |c| c.live_d);
                    let live_title = if live_d == held {
                        format!("d = {live_d} ticks (the pools' current ticks; the hook holds the same)")
                    } else {
                        format!("d = {live_d} ticks from the pools' current ticks; the hook holds {held}")
                    };
                    let (live_a, live_b) = duel::split_wad(live_d);
                    let cap_a = duel::buyback_cap_wad(x.d.emaA.value, x.price_a).map_err(AppError::from);
                    let cap_b = duel::buyback_cap_wad(x.d.emaB.value, x.price_b).map_err(AppError::from);
                    let cap = |c: Result<U256, AppError>, sym: String| match c {
                        Ok(v) => view! { <Amount raw=v decimals=18 unit=format!("ETH per {sym}") sig=5 /> }.into_any(),
                        Err(e) => view! { <span class="error">{e.to_string()}</span> }.into_any(),
                    };
                    view! {
                        <p class="countdown" id="duel-countdown">{countdown}</p>
                        <dl class="kv">
                            <dt>"Live split"</dt>
                            <dd id="live-split" data-d=live_d title=live_title>{format!("{} {} · {} {}", r.symbol_a, fmt::percent_wad(live_a, 4), r.symbol_b, fmt::percent_wad(live_b, 4))}</dd>
                            {mean_rows(&r, &x)}
                            <dt>"Pot"</dt>
                            <dd id="duel-pot"><Amount raw=x.d.pot decimals=18 unit="ETH" sig=5 /><Usd wei=x.d.pot /></dd>
                            <dt>{format!("Buyback cap {}", r.symbol_a)}</dt>
                            <dd>{cap(cap_a, r.symbol_a.clone())}</dd>
                            <dt>{format!("Buyback cap {}", r.symbol_b)}</dt>
                            <dd>{cap(cap_b, r.symbol_b.clone())}</dd>
                            {supply_row("a", &r.symbol_a, x.supply_a, x.burned().0)}
                            {supply_row("b", &r.symbol_b, x.supply_b, x.burned().1)}
                            <dt>"Streaks (best)"</dt>
                            <dd id="streaks">{format!("{} {} ({}) · {} {} ({})", r.symbol_a, x.d.streakA, x.d.bestA, r.symbol_b, x.d.streakB, x.d.bestB)}</dd>
                        </dl>
                        {x.current.as_ref().ok().map(|c| {
                            let pts = split_chart(&x.series, c.window, c.upto);
                            let label = format!("{}'s share of the split over round {}, {}–{} UTC; the midline is 50 %", r.symbol_a, c.window.index, utc_hm(c.window.start), utc_hm(c.window.end));
                            view! {
                                <figure class="split-chart chart-frame">
                                    // Issue 39: the axis' meaning at its ends, the round's times below it.
                                    <div class="chart-axis"><span>{format!("{} takes 100 %", r.symbol_a)}</span></div>
                                    <svg class="chart" id="split-chart" viewBox="0 0 300 80" preserveAspectRatio="none" role="img" aria-label=label.clone()>
                                        <line x1="4" x2="296" y1="40" y2="40" stroke="currentColor" stroke-dasharray="2 4" opacity="0.4" vector-effect="non-scaling-stroke"><title>"50 % each"</title></line>
                                        <polyline points=pts fill="none" stroke="currentColor" stroke-width="1.5" vector-effect="non-scaling-stroke" />
                                    </svg>
                                    <div class="chart-axis"><span>{format!("{} takes 100 %", r.symbol_b)}</span></div>
                                    <div class="chart-axis"><span>{format!("{} UTC", utc_hm(c.window.start))}</span><span>{format!("now {} UTC", utc_hm(c.upto))}</span><span>{format!("{} UTC", utc_hm(c.window.end))}</span></div>
                                    <figcaption class="muted">{label}</figcaption>
                                </figure>
                            }
                        })}
                        <FundPot hook=hook duel_id=did currency=currency.clone() />
                        {settle_block(&r, &x, settle)}
                        <h2>"Settled rounds"</h2>
                        {if x.history.is_empty() {
                            view! { <p class="empty" id="no-rounds">"No round settled yet."</p> }.into_any()
                        } else {
                            view! {
                                <div class="table-wrap"><table class="rounds" id="round-history">
                                    <thead><tr><th>"Round"</th><th>"Winner"</th><th title="recomputed from the pools' swaps; checked against the hook's record">"Mean tick"</th><th>"ETH spent"</th><th>"Burned"</th></tr></thead>
                                    <tbody>
                                        {x.history.iter().map(|h| view! {
                                            <tr class="round-row" data-round=h.round>
                                                <td>{h.round}</td>
                                                {history_cells(&r, h)}
                                                <td><Amount raw=h.spent decimals=18 unit="ETH" sig=4 /></td>
                                                <td><Amount raw=h.burned decimals=18 sig=4 /></td>
                                            </tr>
                                        }).collect_view()}
                                    </tbody>
                                </table></div>
                            }.into_any()
                        }}
                    }.into_any()
                }))}
    </ErrorBoundary>
    </Transition>
            {trade}
        }
}

/// The connected account and, when they could be read, its ETH and its balances of both duel tokens.
type Held = Option<(Address, Option<(U256, U256, U256)>)>;

/// What the connected account holds of ETH and tokens `ta` and `tb` ([`holdings`],
/// [`Ctx::account_read`]).
fn read_held(rpc: Rpc, ta: Address, tb: Address) -> LocalResource<Held> {
    Ctx::get().account_read(move |me| {
        let rpc = rpc.clone();
        async move { holdings(&rpc, me, ta, tb).await.ok() }
    })
}

/// Buying and selling either duel token in its pool through the deployment's swap router (D7):
/// the duel is decided by these pools' prices.
#[component]
fn DuelTrade(
    world: World,
    duel: DuelRef,
    key_a: Key,
    key_b: Key,
    held: LocalResource<Held>,
) -> impl IntoView {
    let slippage = RwSignal::new(stored_slippage());
    let (ta, tb) = (duel.token_a, duel.token_b);
    let of = move |a_side: bool| {
        Signal::derive(move || {
            held.get()
                .flatten()
                .and_then(|(me, h)| h.map(|(eth, a, b)| (me, eth, if a_side { a } else { b })))
        })
    };
    let currency = world.description().native_currency.symbol.clone();
    view! {
        <h2>"Trade the duel's tokens"</h2>
        <SlippageField slippage=slippage />
        <h3>{duel.symbol_a.clone()}</h3>
        <div id="duel-trade-a">
            <PoolTrade id_prefix="duel-a" world=world.clone() key=key_a token=ta token_symbol=duel.symbol_a.clone() quote_symbol=currency.clone() quote_decimals=18 slippage=slippage balances=of(true) />
        </div>
        <h3>{duel.symbol_b.clone()}</h3>
        <div id="duel-trade-b">
            <PoolTrade id_prefix="duel-b" world=world key=key_b token=tb token_symbol=duel.symbol_b.clone() quote_symbol=currency quote_decimals=18 slippage=slippage balances=of(false) />
        </div>
    }
}

/// The split over the round as an SVG step line of A's share (B3), across the round's whole
/// window so that it fills as the round runs (floats only for drawing, after the exact split).
fn split_chart(series: &[(u64, i64)], window: RoundWindow, upto: u64) -> String {
    let span = window.end.saturating_sub(window.start).max(1) as f64;
    let x = |t: u64| 4.0 + 292.0 * (t.saturating_sub(window.start)) as f64 / span;
    let y = |d: i64| {
        let a = fmt::units_exact(duel::split_wad(d).0, 18)
            .parse::<f64>()
            .unwrap_or(0.5);
        76.0 - 72.0 * a
    };
    let mut pts = Vec::new();
    for (i, &(t, d)) in series.iter().enumerate() {
        let next = series.get(i + 1).map_or(upto, |n| n.0);
        pts.push(format!("{:.1},{:.1}", x(t), y(d)));
        pts.push(format!("{:.1},{:.1}", x(next), y(d)));
    }
    pts.join(" ")
}

/// `HH:MM` of a unix time, UTC.
fn utc_hm(t: u64) -> String {
    format!("{:02}:{:02}", t % 86_400 / 3_600, t % 3_600 / 60)
}

/// The settle control, always present (B7): enabled once the active round has closed (also when it
/// closes while the page is open), else disabled with the time it opens; the round's state and who
/// may settle in one sentence each.
fn settle_block(
    r: &DuelRef,
    x: &DuelData,
    settle: impl Fn(leptos::ev::MouseEvent) + Clone + Send + Sync + 'static,
) -> AnyView {
    let ctx = Ctx::get();
    let closed = awaiting(x);
    let (round, end) = match &x.current {
        Ok(c) => (c.window.index, c.window.end),
        Err(_) => (x.hook.round, 0),
    };
    let open_now = move || closed || (end != 0 && ctx.chain_now() >= end);
    let state = if closed {
        view! { <p id="awaiting">{awaiting_text(r, x)}</p> }.into_any()
    } else {
        view! {
            <p id="round-open">{move || if end != 0 && ctx.chain_now() >= end {
                format!("Round {round} has just closed: it can be settled now.")
            } else if end != 0 {
                format!("Round {round} is open until {} UTC; it can be settled once it has closed.", utc_hm(end))
            } else {
                format!("Round {round} is open.")
            }}</p>
        }
        .into_any()
    };
    let label = move || {
        let now = ctx.chain_now();
        if open_now() {
            format!("Settle round {round} now")
        } else if end != 0 {
            format!(
                "Settle round {round} (opens in {})",
                fmt::duration(end.saturating_sub(now))
            )
        } else {
            format!("Settle round {round}")
        }
    };
    view! {
        <div class="notice settle-round" id="settle-round">
            {state}
            <button class="primary" id="settle-button" prop:disabled=move || !open_now() on:click=settle>{label}</button>
            <p class="muted" id="settle-rule">"Anyone may settle a closed round: the first trade after the close settles it, and without trades this button does (it costs only gas). Settling records the winner and runs its buyback from the pot."</p>
        </div>
    }
    .into_any()
}

/// Whether the active round has closed (recomputed; the hook's view if the replay failed).
fn awaiting(x: &DuelData) -> bool {
    x.current.as_ref().map_or(x.hook.awaiting, |c| c.awaiting)
}

fn awaiting_text(r: &DuelRef, x: &DuelData) -> String {
    match &x.current {
        Ok(c) => format!(
            "Round {} has closed and awaits settlement: {}.",
            c.window.index,
            match c.mean.winner {
                Winner::None => "no winner, the pot rolls over".to_string(),
                w => format!("{} wins the buyback", winner_of(r, w)),
            }
        ),
        Err(_) => format!("Round {} has closed and awaits settlement.", x.hook.round),
    }
}

/// The round's mean (B2) and split (B3) recomputed from the swaps, its would-be winner, and the
/// cross-check against the hook's `pendingResult`.
fn mean_rows(r: &DuelRef, x: &DuelData) -> AnyView {
    let c = match &x.current {
        Ok(c) => *c,
        Err(e) => {
            return view! {
                <dt>"Round mean"</dt>
                <dd id="round-mean" class="bad">{format!("Could not recompute the round's mean from the pools' swaps: {e}")}</dd>
            }
            .into_any()
        }
    };
    let (mean_a, mean_b) = duel::split_wad(c.mean.mean_tick);
    let over = format!(
        "time-weighted over {}–{} UTC ({}), from {} price observations of the two pools (the prices at its creation, then every swap)",
        utc_hm(c.window.start),
        utc_hm(c.upto),
        fmt::duration(c.upto.saturating_sub(c.window.start)),
        c.swaps
    );
    let winner = match (c.mean.winner, c.mean.had_swap) {
        (Winner::None, false) => "none yet: nobody has traded in this round, and a round needs a trade to have a winner (the live split is where the prices stand now)".to_string(),
        (Winner::None, true) => "no winner: the mean is under one tick".to_string(),
        (w, _) => winner_of(r, w),
    };
    let ok = c.matches(&x.hook);
    let check = if ok {
        "✓ matches the hook's own running mean".to_string()
    } else {
        format!(
            "✗ differs from the hook's own figure (round {}, {} ticks, {}): the figures above are recomputed from the pools' swaps",
            x.hook.round,
            x.hook.mean,
            winner_name(r, x.hook.winner)
        )
    };
    view! {
        <dt>{format!("Round {} mean", c.window.index)}</dt>
        <dd id="round-mean" data-round=c.window.index data-mean-tick=c.mean.mean_tick data-winner=duel_mean::winner_code(c.mean.winner) title=over>
            {format!("{} ticks → {} {} · {} {}", c.mean.mean_tick, r.symbol_a, fmt::percent_wad(mean_a, 4), r.symbol_b, fmt::percent_wad(mean_b, 4))}
            <br />
            <span id="mean-check" class=if ok { "hint" } else { "bad" } data-match=ok.to_string()>{check}</span>
        </dd>
        <dt>{if c.awaiting { "Winner" } else { "Would-be winner" }}</dt>
        <dd id="would-be-winner">{winner}</dd>
    }
    .into_any()
}

/// Winner and mean of a settled round: recomputed, with the hook's record on hover or beside a mismatch.
fn history_cells(r: &DuelRef, h: &Settled) -> AnyView {
    match h.recomputed {
        Some(m) if m.mean_tick == h.mean && duel_mean::winner_code(m.winner) == h.winner => view! {
            <td>{winner_of(r, m.winner)}</td>
            <td class="mean" data-mean-tick=m.mean_tick title="recomputed from the swaps; matches the hook's record">{m.mean_tick}</td>
        }
        .into_any(),
        Some(m) => view! {
            <td>{winner_of(r, m.winner)}</td>
            <td class="mean" data-mean-tick=m.mean_tick>{m.mean_tick}" "<span class="bad">{format!("(the hook recorded {}, {})", h.mean, winner_name(r, h.winner))}</span></td>
        }
        .into_any(),
        None => view! {
            <td>{winner_name(r, h.winner)}</td>
            <td class="mean" title="the hook's record: the swaps could not be replayed">{h.mean}" (hook)"</td>
        }
        .into_any(),
    }
}

/// Anyone adds to a duel's pot (`fund(duelId)`, native currency): the pot buys back each round's
/// winner (B5). The amount is checked in words before any transaction.
#[component]
fn FundPot(hook: Address, duel_id: u64, currency: String) -> impl IntoView {
    let ctx = Ctx::get();
    let amount = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let cur = currency.clone();
    let fund = move |_| {
        error.set(None);
        let v = match fmt::parse_units(&amount.get_untracked(), 18) {
            Ok(v) if !v.is_zero() => v,
            Ok(_) => return error.set(Some("Enter an amount above zero.".into())),
            Err(e) => return error.set(Some(e.to_string())),
        };
        let label = format!(
            "Add {} {cur} to duel #{duel_id}'s pot",
            fmt::units(v, 18, 6)
        );
        let call = IDuelHook::fundCall {
            duelId: U256::from(duel_id),
        };
        crate::send::act(ctx, hook, label, call, v);
        amount.set(String::new());
    };
    view! {
        <div class="form" id="fund-form">
            <label>{format!("Add to the pot ({currency}) ")}<input id="fund-amount" inputmode="decimal" placeholder="0.0" prop:value=move || amount.get() on:input=move |ev| amount.set(event_target_value(&ev)) /></label>
            " "<button class="secondary" id="fund-button" on:click=fund>"Add to the pot"</button>
            <span class="muted">" Anyone may add; the pot only ever buys back a round's winner."</span>
            {move || error.get().map(|e| view! { <ErrorBox message=e /> })}
        </div>
    }
}
