//! Launch pages (C19, C20): every launch with its progress to graduation, and a token page with the
//! live curve state read from chain, exact buy/sell quotes from `eden_core::curve` (fee, anti-snipe
//! countdown, graduation clamp and refund), the slippage setting (persisted) applied as minimum-out,
//! exact approvals for stablecoin pairs, the trade history with a price chart, and after graduation
//! the Uniswap v4 pool and its price.

use super::launch_form::LaunchForm;
use super::launch_order::{self, LaunchOrder};
use super::pool_trade::{stored_slippage, PoolTrade, SlippageField};
use super::read_again::ReadAgain;
use super::score_where_traded::{ScoreChip, ScoreHistory};
use super::trade_review::{impact_class, ReviewPanel};
use crate::chain::launchpad::day_change::{self, DayChange};
use crate::chain::launchpad::{self, LaunchInfo, PoolView, Trade};
use crate::chain::pool::Key as PoolKey;
use crate::chain::world::World;
use crate::error::{AppError, Context};
use crate::flows::trade;
use crate::flows::trade::{Leg, TradeReview};
use crate::fmt;
use crate::state::{Ctx, Load};
use crate::ui::{caught, with_world, Amount, Failed, Loading, Usd};
use alloy_primitives::{Address, B256, U256};
use eden_core::curve;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

#[component]
fn Progress(bps: u32) -> impl IntoView {
    let width = format!("width: {}%", bps / 100);
    view! {
        <div class="progress" role="progressbar" aria-valuemin="0" aria-valuemax="100" aria-valuenow=bps / 100>
            <div class="bar" style=width></div>
        </div>
        <span class="progress-label">{fmt::percent_bps(bps)}" to graduation"</span>
    }
}

/// A curve launch's price change over the last 24 h (or since launch, when younger), coloured by its sign.
#[component]
fn DayChangeChip(change: DayChange) -> impl IntoView {
    let class = match change.bps.signum() {
        1 => "launch-change trend up",
        -1 => "launch-change trend down",
        _ => "launch-change trend flat",
    };
    let window = if change.since_launch {
        " since launch"
    } else {
        " 24 h"
    };
    view! { <span class=class data-bps=change.bps.to_string()>" · "{fmt::signed_percent_bps(change.bps)}{window}</span> }
}

#[component]
pub fn LaunchList() -> impl IntoView {
    let ctx = Ctx::get();
    // Re-read on every confirmed transaction; a newer read supersedes an older one.
    let list = LocalResource::new(move || {
        ctx.refresh.track();
        let world = ctx.world.get();
        async move {
            match world {
                Load::Ready(w) => launchpad::all(&w.rpc(), w.contracts.launchpad)
                    .await
                    .context("Reading the launches from the launchpad"),
                _ => Ok(Vec::new()),
            }
        }
    });
    // Issue 42 item 4: each project's latest final score and its trend, proven against the final
    // roots; read after the list, never in front of it, by code in a module of its own (issue 39).
    // Once the list has rows (before the world is ready it is empty): a memo, so a re-read list (after each
    // transaction) does not read the board again.
    let listed = Memo::new(move |_| matches!(list.get(), Some(Ok(v)) if !v.is_empty()));
    let scores = LocalResource::new(move || {
        let world = ctx.world.get();
        let listed = listed.get();
        async move {
            match world {
                Load::Ready(w) if listed => {
                    // The rows first: the module is fetched in a task after they are painted (D11).
                    crate::paint::after_paint().await;
                    crate::chain::scores::load_board(w).await.ok()?.await.ok()
                }
                _ => None,
            }
        }
    });
    // Issue 39: each curve launch's price change over the last 24 h, read after the list (it needs the
    // list's states), never in front of it, by code in the score column's module; a failed read shows no
    // change rather than a wrong one.
    let changes = LocalResource::new(move || {
        let world = ctx.world.get();
        let loaded = list.get();
        async move {
            match (world, loaded) {
                (Load::Ready(w), Some(Ok(v))) if !v.is_empty() => {
                    crate::paint::after_paint().await;
                    day_change::load_day_changes(w.rpc(), w.contracts.launchpad, v)
                        .await
                        .ok()?
                        .await
                        .ok()
                }
                _ => None,
            }
        }
    });
    // The chips read these two through memos made here, outside the list's `Transition`: a resource read
    // inside it, however deep, holds the whole list back until it resolves (Leptos registers every pending
    // read with the nearest suspense). On the emulated phone the list waited for the score board and the 24 h
    // reads, about 1 s after its own data was in (issue 39).
    let board = Memo::new(move |_| scores.get().flatten());
    let day = Memo::new(move |_| changes.get().flatten());
    // Issue 39: find a launch by name, symbol or address; order the list.
    let query = RwSignal::new(String::new());
    let sort = RwSignal::new(LaunchOrder::Newest);
    // The symbols launched so far: the form warns about a taken one.
    let existing = Signal::derive(move || match list.get() {
        Some(Ok(v)) => v.iter().map(|l| l.symbol.clone()).collect(),
        _ => Vec::new(),
    });
    view! {
        <section class="card">
            <h1>"Launches"</h1>
            <p class="lede">"Fixed-supply tokens on a bonding curve. 80 % of the supply is sold on the curve; at the graduation target the curve seeds a Uniswap v4 pool and locks it forever."</p>
            {with_world(move |w| view! {
            <LaunchForm world=w existing=existing />
            <Transition fallback=|| view! { <Loading what="Reading launches from chain…" /> }>
            <ErrorBoundary fallback=caught>
            <div class="launch-controls">
                <label class="field inline"><span class="label">"Find"</span>
                    <input id="launch-search" type="search" placeholder="name, symbol or 0x…" spellcheck="false" autocomplete="off"
                        prop:value=move || query.get() on:input=move |ev| query.set(event_target_value(&ev)) /></label>
                <label class="field inline"><span class="label">"Order"</span>
                    <select id="launch-sort" on:change=move |ev| sort.set(LaunchOrder::from_value(&event_target_value(&ev)))>
                        {LaunchOrder::ALL.iter().map(|(o, value, words)| { let o = *o; view! { <option value=*value selected=move || sort.get() == o>{*words}</option> } }).collect_view()}
                    </select></label>
            </div>
            {move || list.get().map(|loaded| loaded.map(|mut v| if v.is_empty() {
                view! { <p class="empty">"No launches yet."</p> }.into_any()
            } else {
                let q = query.get();
                v.retain(|l| launch_order::matches(l, &q));
                let usd = ctx.usd.get().filter(|p| p.fresh(ctx.chain_now_untracked()));
                launch_order::order(&mut v, sort.get(), usd.as_ref());
                if v.is_empty() {
                    return view! { <p class="empty" id="launch-none">{format!("No launch is named '{}', has that symbol or starts with that address.", q.trim())}</p> }.into_any();
                }
                view! {
                    <ul class="launches" id="launch-list">
                        {v.into_iter().map(|l| {
                            let href = format!("/launch/{}", l.token);
                            // Only the badge follows the clock (the anti-snipe window ends): the list
                            // itself is not re-rendered every second.
                            let (graduated, state, bps) = (l.graduated, l.state, l.progress_bps());
                            let status = move || {
                                let in_window = !graduated && trade::snipe_seconds_left(&state, ctx.chain_now()) > 0;
                                if graduated { "graduated" } else if in_window { "anti-snipe window" } else if bps >= 8_000 { "close to graduation" } else { "on the curve" }
                            };
                            let cap = curve::market_cap_wad(&l.state, l.quote_decimals).ok();
                            view! {
                                <li class="launch-row" data-symbol=l.symbol.clone()>
                                    <a href=href>
                                        <span class="sym">{l.symbol.clone()}</span>
                                        <span class="name">{l.name.clone()}</span>
                                        <span class=move || format!("badge {}", status().replace(' ', "-"))>{status}</span>
                                    </a>
                                    <Progress bps=l.progress_bps() />
                                    {
                                        let token = l.token;
                                        move || board.get().map(|b| view! { <ScoreChip project=token score=b.get(&token).copied() /> })
                                    }
                                    {curve::spot_price_wad(&l.state, l.quote_decimals).ok().filter(|_| !l.graduated).map(|p| view! {
                                        <span class="muted launch-price">" · price "<Amount raw=p decimals=18 unit=format!("{} / token", l.quote_symbol) sig=4 compact=true /></span>
                                    })}
                                    {(!l.graduated).then(|| {
                                        let token = l.token;
                                        move || day.get().and_then(|m| m.get(&token).copied()).map(|c| view! { <DayChangeChip change=c /> })
                                    })}
                                    {cap.filter(|_| !l.graduated).map(|c| view! {
                                        <span class="muted">" · market cap "<Amount raw=c decimals=18 unit=l.quote_symbol.clone() sig=4 /></span>
                                    })}
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                }.into_any()
            }))}
            </ErrorBoundary>
            </Transition>
            })}
        </section>
    }
}

/// A price chart of a launch's trades: the price after each trade as a polyline, and where the
/// curve graduated into the pool (after the last curve trade, when pool trades follow).
#[derive(Debug, Clone, PartialEq)]
struct Chart {
    points: String,
    graduation_x: Option<f64>,
    /// The lowest and highest price drawn (exact, WAD), the axis' ends.
    lo_wad: U256,
    hi_wad: U256,
    /// Each trade's point `(x, y)`, for the marks that read it.
    marks: Vec<(f64, f64)>,
}

/// The trade whose point is nearest to `x` (chart units, 0 to 300): what a touch or a pointer over the chart
/// reads (issue 39).
fn nearest_mark(marks: &[(f64, f64)], x: f64) -> Option<usize> {
    marks
        .iter()
        .enumerate()
        .min_by(|a, b| (a.1 .0 - x).abs().total_cmp(&(b.1 .0 - x).abs()))
        .map(|(i, _)| i)
}

/// The chart of `trades` in a 300×80 box (floats only for drawing, after exact integer math).
fn chart(trades: &[Trade]) -> Option<Chart> {
    if trades.len() < 2 {
        return None;
    }
    let ys: Vec<f64> = trades
        .iter()
        .map(|t| {
            fmt::units_exact(t.price_wad, 18)
                .parse::<f64>()
                .unwrap_or(0.0)
        })
        .collect();
    let (lo, hi) = ys
        .iter()
        .fold((f64::MAX, f64::MIN), |(l, h), &y| (l.min(y), h.max(y)));
    let span = if hi > lo { hi - lo } else { 1.0 };
    let n = (ys.len() - 1) as f64;
    let x = |i: usize| 4.0 + 292.0 * i as f64 / n;
    let graduation_x = trades
        .iter()
        .position(|t| t.in_pool)
        .filter(|&i| i > 0)
        .map(|i| x(i - 1));
    let marks: Vec<(f64, f64)> = ys
        .iter()
        .enumerate()
        .map(|(i, y)| (x(i), 76.0 - 72.0 * (y - lo) / span))
        .collect();
    Some(Chart {
        points: marks
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect::<Vec<_>>()
            .join(" "),
        graduation_x,
        lo_wad: trades.iter().map(|t| t.price_wad).min().unwrap_or_default(),
        hi_wad: trades.iter().map(|t| t.price_wad).max().unwrap_or_default(),
        marks,
    })
}

/// How many of the latest trades the token page lists.
const TRADES_SHOWN: usize = 20;

/// The token page's first read: the launch and, once graduated, its pool's key and id (D7: what a swap
/// names; trades after graduation happen there).
#[derive(Debug, Clone, PartialEq)]
struct Head {
    info: LaunchInfo,
    key: Option<Result<(PoolKey, B256), AppError>>,
}

/// The launch and its pool's key in one round (D3). The key is asked for beside the launch, before it is
/// known whether the launch graduated; the launchpad refuses it for a launch still on its curve, and that
/// answer is dropped.
async fn read_head(w: &World, token: Address) -> Result<Head, AppError> {
    let rpc = w.rpc();
    let pad = w.contracts.launchpad;
    let (info, key) = futures::join!(
        launchpad::launch(&rpc, pad, token),
        launchpad::pool_key(&rpc, pad, token)
    );
    let info = info?;
    let key = info.graduated.then(|| key.map_err(AppError::from));
    Ok(Head { info, key })
}

/// What the token page reads once the launch is in, in one round (D3): the block the logs are read to, the
/// account's balances and, once graduated, the pool's price.
#[derive(Debug, Clone, PartialEq)]
struct Standing {
    head: Head,
    latest: u64,
    balances: Option<(Address, U256, U256)>,
    pool: Option<Result<PoolView, AppError>>,
}

/// The round after the launch: the head block, the account's balances and the pool (graduated only).
async fn read_standing(
    w: &World,
    head: Head,
    account: Option<Address>,
) -> Result<Standing, AppError> {
    let rpc = w.rpc();
    let info = &head.info;
    let (latest, balances, pool) = futures::join!(
        rpc.block_number(),
        async {
            let a = account?;
            let (q, t) = launchpad::balances(&rpc, info, a).await.ok()?;
            Some((a, q, t))
        },
        async {
            let (key, id) = match head.key.clone()? {
                Ok(k) => k,
                Err(e) => return Some(Err(e)),
            };
            let pool = launchpad::pool(&rpc, w.contracts.pool_manager, info, key, id).await;
            Some(pool.map_err(AppError::from))
        },
    );
    Ok(Standing {
        latest: latest?,
        balances,
        pool,
        head,
    })
}

/// The launch's trades, oldest first: on the curve, then its pool's swaps once graduated, the last
/// [`TRADES_SHOWN`] dated by their blocks (issue 42 item 9).
async fn read_trades(w: &World, s: &Standing) -> Result<Vec<Trade>, AppError> {
    let rpc = w.rpc();
    let blocks = (w.deployment_block, s.latest);
    let info = &s.head.info;
    let (trades, swaps) = futures::join!(
        launchpad::trades(&rpc, w.contracts.launchpad, blocks, info),
        async {
            match &s.head.key {
                Some(Ok((key, id))) => {
                    let (pm, router) = (w.contracts.pool_manager, w.contracts.swap_router);
                    let swaps =
                        launchpad::pool_trades(&rpc, pm, router, blocks, info, (*id, key.hooks));
                    swaps.await.map_err(AppError::from)
                }
                _ => Ok(Vec::new()),
            }
        }
    );
    let mut trades = trades?;
    trades.extend(swaps?);
    launchpad::with_times(&rpc, &mut trades, TRADES_SHOWN).await;
    Ok(trades)
}

/// A step's value, when it has one.
fn step<T>(r: Option<Result<Option<T>, AppError>>) -> Load<T> {
    match r {
        None | Some(Ok(None)) => Load::Loading,
        Some(Ok(Some(v))) => Load::Ready(v),
        Some(Err(e)) => Load::Failed(e),
    }
}

#[component]
pub fn TokenPage() -> impl IntoView {
    let ctx = Ctx::get();
    let params = use_params_map();
    let token = move || params.with(|p| p.get("token").and_then(|t| t.parse::<Address>().ok()));
    let slippage = RwSignal::new(stored_slippage());
    let buy_amount = RwSignal::new(String::new());
    let sell_amount = RwSignal::new(String::new());
    let busy = RwSignal::new(false);
    let again = ReadAgain::new();
    // D11, "What a page waits for": the page reads in steps, each shown as soon as it is in. The launch and
    // its pool's key (the head and either trade form), then the head block, the balances and the pool's price,
    // then the trades. Each step re-reads whenever the one before it has (a newer read supersedes an older
    // one; leaving the page drops them), and the derived memos below notify only when their value changes.
    // The first step reads again after a confirmed transaction and 5 s after its answer (`ReadAgain`).
    let head = LocalResource::new(move || {
        ctx.refresh.track();
        again.track();
        let world = ctx.world.get();
        let t = token();
        async move {
            match (world, t) {
                (_, None) => Err(AppError::missing("this is not a token address")),
                (Load::Ready(w), Some(t)) => read_head(&w, t)
                    .await
                    .context("Reading this launch")
                    .map(Some),
                // The network is still loading: nothing to read yet.
                _ => Ok(None),
            }
        }
    });
    again.after(head);
    let standing = LocalResource::new(move || {
        let read = step(head.get());
        let world = ctx.world.get_untracked();
        let account = ctx.wallet.get_untracked().account;
        async move {
            match (world, read) {
                (Load::Ready(w), Load::Ready(h)) => read_standing(&w, h, account)
                    .await
                    .context("Reading your balances and this launch's pool")
                    .map(Some),
                _ => Ok(None),
            }
        }
    });
    let standing_now = move || standing.get().and_then(Result::ok).flatten();
    let trades_read = LocalResource::new(move || {
        let read = step(standing.get());
        let world = ctx.world.get_untracked();
        async move {
            match (world, read) {
                (Load::Ready(w), Load::Ready(s)) => Some(
                    read_trades(&w, &s)
                        .await
                        .context("Reading this launch's trades"),
                ),
                (_, Load::Failed(e)) => Some(Err(e)),
                _ => None,
            }
        }
    });
    let head_now: Memo<Load<Head>> = Memo::new(move |_| step(head.get()));
    let info: Memo<Load<LaunchInfo>> = Memo::new(move |_| match head_now.get() {
        Load::Loading => Load::Loading,
        Load::Ready(h) => Load::Ready(h.info),
        Load::Failed(e) => Load::Failed(e),
    });
    // `None` while the first read is under way.
    let trades: Memo<Option<Result<Vec<Trade>, AppError>>> =
        Memo::new(move |_| trades_read.get().flatten());
    // A failed step shows in the pool's place too, not a loading line that never ends.
    let pool: Memo<Option<Result<PoolView, AppError>>> =
        Memo::new(move |_| match standing.get()? {
            Ok(s) => s?.pool,
            Err(e) => Some(Err(e)),
        });
    // The pool's key never changes: the pool trade form is built once, not on every price change.
    let pool_key: Memo<Option<PoolKey>> = Memo::new(move |_| match head_now.get() {
        Load::Ready(Head {
            key: Some(Ok((k, _))),
            ..
        }) => Some(k),
        _ => None,
    });
    // (owner, quote balance, token balance): shown only while the owner is the connected account.
    let balances: Memo<Option<(Address, U256, U256)>> =
        Memo::new(move |_| standing_now().and_then(|s| s.balances));
    // The trade / pool section is rebuilt only when the token or its graduation changes, not on
    // every refresh (which would reset focus while typing); live numbers read `info`.
    let static_info: Memo<Option<LaunchInfo>> =
        Memo::new(move |prev: Option<&Option<LaunchInfo>>| {
            let Load::Ready(i) = info.get() else {
                return prev.cloned().flatten();
            };
            match prev.and_then(|p| p.as_ref()) {
                Some(p) if (p.token, p.graduated) == (i.token, i.graduated) => Some(p.clone()),
                _ => Some(i),
            }
        });

    let buy_preview = move || {
        let Load::Ready(i) = info.get() else {
            return None;
        };
        let text = buy_amount.get();
        if text.trim().is_empty() {
            return None;
        }
        Some(
            fmt::parse_units(&text, i.quote_decimals)
                .map_err(AppError::Input)
                .and_then(|x| {
                    trade::preview_buy(&i.state, x, ctx.chain_now(), slippage.get())
                        .map(|p| (x, p))
                        .map_err(|e| trade::curve_refusal(&e, &i.symbol).into())
                })
                .map(|(x, p)| (i.clone(), x, p)),
        )
    };
    let sell_preview = move || {
        let Load::Ready(i) = info.get() else {
            return None;
        };
        let text = sell_amount.get();
        if text.trim().is_empty() {
            return None;
        }
        Some(
            fmt::parse_units(&text, 18)
                .map_err(AppError::Input)
                .and_then(|x| {
                    trade::preview_sell(&i.state, x, slippage.get())
                        .map(|p| (x, p))
                        .map_err(|e| trade::curve_refusal(&e, &i.symbol).into())
                })
                .map(|(x, p)| (i.clone(), x, p)),
        )
    };
    // What the connected account holds of what each side pays, once read (issue 42: every form checks it).
    let held = move || {
        balances
            .get()
            .filter(|b| Some(b.0) == ctx.wallet.get().account)
    };
    let buy_over = move || {
        let Load::Ready(i) = info.get() else {
            return None;
        };
        let (_, q, _) = held()?;
        let a = fmt::parse_units(&buy_amount.get(), i.quote_decimals).ok()?;
        trade::over_balance(a, q, i.quote_decimals, &i.quote_symbol, "pay")
    };
    let sell_over = move || {
        let Load::Ready(i) = info.get() else {
            return None;
        };
        let (_, _, t) = held()?;
        let a = fmt::parse_units(&sell_amount.get(), 18).ok()?;
        trade::over_balance(a, t, 18, &i.symbol, "sell")
    };

    let do_buy = move || {
        let Load::Ready(i) = info.get_untracked() else {
            return;
        };
        let Ok(amount) = fmt::parse_units(&buy_amount.get_untracked(), i.quote_decimals) else {
            return;
        };
        let Load::Ready(w) = ctx.world.get_untracked() else {
            return;
        };
        let now = ctx.chain_now();
        let Ok(p) = trade::preview_buy(&i.state, amount, now, slippage.get_untracked()) else {
            return;
        };
        busy.set(true);
        leptos::task::spawn_local(async move {
            let pad = w.contracts.launchpad;
            let eth = i.quote == Address::ZERO;
            // Exact approval of the stablecoin for this buy.
            let display = format!(
                "{} {}",
                fmt::units_exact(amount, i.quote_decimals),
                i.quote_symbol
            );
            if !eth
                && !crate::send::ensure_allowance(ctx, &w.rpc(), i.quote, pad, amount, display)
                    .await
            {
                busy.set(false);
                return;
            }
            let label = format!(
                "Buy {} with {} {}",
                i.symbol,
                fmt::units(amount, i.quote_decimals, 6),
                i.quote_symbol
            );
            let tx = trade::buy_request(pad, i.token, i.quote, amount, &p, now);
            if crate::send::send(ctx, label, tx).await {
                buy_amount.set(String::new());
            }
            busy.set(false);
        });
    };

    let do_sell = move || {
        let Load::Ready(i) = info.get_untracked() else {
            return;
        };
        let Ok(amount) = fmt::parse_units(&sell_amount.get_untracked(), 18) else {
            return;
        };
        let Load::Ready(w) = ctx.world.get_untracked() else {
            return;
        };
        let Ok(p) = trade::preview_sell(&i.state, amount, slippage.get_untracked()) else {
            return;
        };
        let now = ctx.chain_now();
        busy.set(true);
        leptos::task::spawn_local(async move {
            let pad = w.contracts.launchpad;
            let display = format!("{} {}", fmt::units(amount, 18, 6), i.symbol);
            if !crate::send::ensure_allowance(ctx, &w.rpc(), i.token, pad, amount, display).await {
                busy.set(false);
                return;
            }
            let label = format!("Sell {} {}", fmt::units(amount, 18, 6), i.symbol);
            let tx = trade::sell_request(pad, i.token, amount, &p, now);
            if crate::send::send(ctx, label, tx).await {
                sell_amount.set(String::new());
            }
            busy.set(false);
        });
    };

    let connected = move || ctx.wallet.get().account.is_some();
    // Issue 42 item 3: every trade is reviewed before it is sent; a high price impact asks more (D5).
    let buy_armed = RwSignal::new(false);
    let sell_armed = RwSignal::new(false);
    let buy_review = Signal::derive(move || {
        let (i, paid, p) = buy_preview()?.ok()?;
        Some(
            TradeReview::new(
                "buy",
                Leg::new(paid, i.quote_decimals, &i.quote_symbol),
                Leg::new(p.quote.tokens_out, 18, &i.symbol),
                p.min_tokens_out,
                slippage.get(),
                p.impact_bps,
            )
            .with_back(p.quote.refund),
        )
    });
    let sell_review = Signal::derive(move || {
        let (i, sold, p) = sell_preview()?.ok()?;
        Some(TradeReview::new(
            "sell",
            Leg::new(sold, 18, &i.symbol),
            Leg::new(p.quote.quote_out, i.quote_decimals, &i.quote_symbol),
            p.min_quote_out,
            slippage.get(),
            p.impact_bps,
        ))
    });
    let click_buy = move |_| buy_armed.set(true);
    let click_sell = move |_| sell_armed.set(true);

    view! {
        <div class="token-page">
        <section class="card token-head">
            <p><a href="/launch">"← All launches"</a></p>
            {move || match info.get() {
                Load::Loading => view! { <Loading what="Reading the curve from chain…" /> }.into_any(),
                Load::Failed(e) => view! { <Failed message=e /> }.into_any(),
                Load::Ready(i) => {
                    let s = i.state;
                    let eth = i.quote == Address::ZERO;
                    let qd = i.quote_decimals;
                    let qs = i.quote_symbol.clone();
                    let g = s.graduation_target().unwrap_or_default();
                    let spot = curve::spot_price_wad(&s, qd).unwrap_or_default();
                    let cap = curve::market_cap_wad(&s, qd).unwrap_or_default();
                    view! {
                        <h1 id="token-title">{format!("{} ({})", i.name, i.symbol)}</h1>
                        <p class="muted"><code id="token-address">{i.token.to_checksum(None)}</code>" "<crate::ui::CopyButton text=i.token.to_checksum(None) id="copy-address" />" · paired with "{qs.clone()}</p>
                        <div class="stats">
                            <div><span class="k">"Raised"</span><span class="v" id="raised"><Amount raw=s.quote_raised decimals=qd unit=qs.clone() />" of "<Amount raw=g decimals=qd unit=qs.clone() />{eth.then(|| view! { <Usd wei=s.quote_raised /> })}</span></div>
                            <div><span class="k">"Progress"</span><span class="v" id="progress">{fmt::percent_bps(i.progress_bps())}</span></div>
                            <div><span class="k">{if i.graduated { "Curve price at graduation" } else { "Price" }}</span><span class="v"><Amount raw=spot decimals=18 unit=format!("{qs} / token") sig=4 compact=true /></span></div>
                            <div><span class="k">"Market cap"</span><span class="v" id="market-cap"><Amount raw=cap decimals=18 unit=qs.clone() sig=4 />{eth.then(|| view! { <Usd wei=cap /> })}</span></div>
                            <div title="§7: fixed at launch; the fee lanes escrow it and the keeper spends it in the token's pool after graduation, burning what it buys"><span class="k">"Own-token buyback"</span><span class="v" id="own-buyback-share" data-share=i.own_buyback_share.to_string()>{if i.own_buyback_share.is_zero() { "none".to_string() } else { format!("{} of the creator's payout", fmt::percent_wad(i.own_buyback_share, 4)) }}</span></div>
                            {(!i.graduated).then(|| view! { <div><span class="k">"Tokens left on the curve"</span><span class="v"><Amount raw=s.token_reserve decimals=18 sig=4 /></span></div> })}
                        </div>
                        <Progress bps=i.progress_bps() />
                    }.into_any()
                }
            }}
        </section>

        // Issue 42 item 4: the project's published score where it is traded, with its history.
        {move || match (ctx.world.get(), token()) {
            (Load::Ready(w), Some(t)) => Some(view! {
                <section class="card" id="token-score">
                    <h2>"Score"</h2>
                    <ScoreHistory world=w project=t />
                </section>
            }),
            _ => None,
        }}

        {move || match static_info.get().map_or(Load::Loading, Load::Ready) {
            Load::Ready(i) if i.graduated => { let i2 = i.clone(); view! {
                <section class="card" id="graduated">
                    <h2>"Graduated: trading in the Uniswap v4 pool"</h2>
                    <p class="muted">"The curve reached its target; the pool was seeded at the curve's last price and its liquidity is locked forever."</p>
                    {move || match pool.get() {
                        None => view! { <Loading what="Reading the pool…" /> }.into_any(),
                        Some(Err(e)) => view! { <Failed message=e /> }.into_any(),
                        Some(Ok(p)) => view! {
                            <dl class="kv">
                                <dt>"Pool price"</dt><dd id="pool-price"><Amount raw=p.price_wad decimals=18 unit=format!("{} / {}", i.quote_symbol, i.symbol) sig=6 compact=true /></dd>
                            </dl>
                            <details class="internals" id="pool-internals">
                                <summary>"Pool details"</summary>
                                <dl class="kv">
                                    <dt>"Pool id"</dt><dd><code>{p.pool_id.to_string()}</code></dd>
                                    <dt>"sqrtPriceX96"</dt><dd><code>{p.sqrt_price_x96.to_string()}</code></dd>
                                    <dt>"Tick"</dt><dd>{p.tick.map_or("?".to_string(), |t| t.to_string())}</dd>
                                </dl>
                            </details>
                        }.into_any(),
                    }}
                </section>
                <section class="card trade" id="pool-trade">
                    <h2>"Trade in the pool"</h2>
                    <SlippageField slippage=slippage />
                    {
                        let i = i2;
                        move || match (pool_key.get(), ctx.world.get()) {
                            (Some(key), Load::Ready(w)) => view! {
                                <PoolTrade world=w key=key token=i.token token_symbol=i.symbol.clone() quote_symbol=i.quote_symbol.clone()
                                    quote_decimals=i.quote_decimals slippage=slippage balances=Signal::derive(move || balances.get()) />
                            }.into_any(),
                            _ => view! { <Loading what="Reading the pool…" /> }.into_any(),
                        }
                    }
                </section>
            }.into_any() }
            Load::Ready(i) => {
                let i2 = i.clone();
                let (bal_qd, bal_qsym, bal_tsym) = (i.quote_decimals, i.quote_symbol.clone(), i.symbol.clone());
                let qs = i.quote_symbol.clone();
                let sym = i.symbol.clone();
                let (qs_b, sym_b) = (qs.clone(), sym.clone());
                view! {
                    <section class="card trade">
                        <h2>"Trade"</h2>
                        {move || {
                            let left = trade::snipe_seconds_left(&i2.state, ctx.chain_now());
                            (left > 0).then(|| view! {
                                <div class="banner warn" id="snipe">
                                    {format!("Anti-snipe window: buys pay a tax of {} for {} more.",
                                        fmt::percent_pips(curve::snipe_tax_pips(i2.state.seconds_since_launch(ctx.chain_now()))), fmt::duration(left))}
                                </div>
                            })
                        }}
                        {move || if connected() {
                            let (qd, qsym, tsym) = (bal_qd, bal_qsym.clone(), bal_tsym.clone());
                            view! {
                                <p class="muted" id="balances">{move || balances.get().filter(|b| Some(b.0) == ctx.wallet.get().account).map(|(_, q, t)| view! {
                                    "You hold "<span id="quote-balance"><Amount raw=q decimals=qd unit=qsym.clone() sig=6 /></span>
                                    " and "<span id="token-balance"><Amount raw=t decimals=18 unit=tsym.clone() sig=6 /></span>
                                })}</p>
                            }.into_any()
                        } else {
                            view! { <p class="empty">"Connect a wallet to trade (on the local chain, a burner wallet works without an extension)."</p> }.into_any()
                        }}
                        <SlippageField slippage=slippage />
                        <div class="two">
                            <div class="side">
                                <h3>"Buy"</h3>
                                <label class="field">
                                    <span class="label">{format!("Pay ({qs})")}</span>
                                    <input id="buy-amount" inputmode="decimal" placeholder="0.1" prop:value=move || buy_amount.get() on:input=move |ev| { buy_armed.set(false); buy_amount.set(event_target_value(&ev)) } />
                                </label>
                                <div class="quick" id="buy-quick">
                                    {quick_buys(&qs).into_iter().map(|a| view! {
                                        <button class="secondary small quick-amount" data-amount=a on:click=move |_| { buy_armed.set(false); buy_amount.set(a.to_string()) }>{format!("{a} {qs}")}</button>
                                    }).collect_view()}
                                </div>
                                <div id="buy-preview">{move || buy_preview().map(|r| match r {
                                    Err(e) => view! { <p class="bad">{e.to_string()}</p> }.into_any(),
                                    Ok((i, _, p)) => view! {
                                        <dl class="kv">
                                            <dt>"You receive"</dt><dd id="buy-out"><Amount raw=p.quote.tokens_out decimals=18 unit=i.symbol.clone() sig=6 /></dd>
                                            <dt>"Fee"</dt><dd><Amount raw=p.quote.fee decimals=i.quote_decimals unit=i.quote_symbol.clone() sig=6 />{format!(" ({})", fmt::percent_pips(p.fee_pips))}</dd>
                                            <dt>"Minimum received"</dt><dd><Amount raw=p.min_tokens_out decimals=18 unit=i.symbol.clone() sig=6 /></dd>
                                            <dt>"Price impact"</dt><dd id="buy-impact" class=impact_class(p.impact_bps)>{fmt::percent_bps(p.impact_bps)}</dd>
                                            <dt>"After this buy"</dt><dd id="buy-after">{format!("{} to graduation", fmt::percent_bps(p.progress_after_bps))}</dd>
                                        </dl>
                                        {p.quote.graduates.then(|| view! {
                                            <p class="banner info" id="refund">"This buy reaches the graduation target: it is clamped to "
                                                <Amount raw=p.quote.quote_used decimals=i.quote_decimals unit=i.quote_symbol.clone() sig=8 />
                                                ", you get "<Amount raw=p.quote.refund decimals=i.quote_decimals unit=i.quote_symbol.clone() sig=8 />
                                                " back, and the launch graduates into its Uniswap pool."</p>
                                        })}
                                    }.into_any(),
                                })}</div>
                                {move || buy_over().map(|r| view! { <p class="bad" id="buy-over" role="alert">{r.to_string()}</p> })}
                                <button class="primary" id="buy-button" disabled=move || busy.get() || !connected() || buy_over().is_some() || !matches!(buy_preview(), Some(Ok(_))) on:click=click_buy>{move || {
                                    let paid = buy_preview().and_then(Result::ok).map(|(_, paid, _)| paid);
                                    trade::trade_label("buy", paid, bal_qd, &qs_b)
                                }}</button>
                                <ReviewPanel side="buy" open=buy_armed review=buy_review on_go=Callback::new(move |()| do_buy()) />
                            </div>
                            <div class="side">
                                <h3>"Sell"</h3>
                                <label class="field">
                                    <span class="label">{format!("Sell ({sym})")}</span>
                                    <input id="sell-amount" inputmode="decimal" placeholder="1000" prop:value=move || sell_amount.get() on:input=move |ev| { sell_armed.set(false); sell_amount.set(event_target_value(&ev)) } />
                                </label>
                                <div class="quick" id="sell-quick">
                                    {[25u8, 50, 100].into_iter().map(|pct| view! {
                                        <button class="secondary small quick-amount" data-percent=pct disabled=move || balances.get().is_none_or(|(_, _, t)| t.is_zero())
                                            on:click=move |_| if let Some((_, _, t)) = balances.get_untracked() {
                                                sell_armed.set(false);
                                                sell_amount.set(fmt::units_for_input(t * U256::from(pct) / U256::from(100u8), 18));
                                            }>{format!("{pct} %")}</button>
                                    }).collect_view()}
                                </div>
                                <div id="sell-preview">{move || sell_preview().map(|r| match r {
                                    Err(e) => view! { <p class="bad">{e.to_string()}</p> }.into_any(),
                                    Ok((i, _, p)) => view! {
                                        <dl class="kv">
                                            <dt>"You receive"</dt><dd id="sell-out"><Amount raw=p.quote.quote_out decimals=i.quote_decimals unit=i.quote_symbol.clone() sig=6 />{(i.quote == Address::ZERO).then(|| view! { <Usd wei=p.quote.quote_out /> })}</dd>
                                            <dt>"Fee"</dt><dd><Amount raw=p.quote.fee decimals=i.quote_decimals unit=i.quote_symbol.clone() sig=6 /></dd>
                                            <dt>"Minimum received"</dt><dd><Amount raw=p.min_quote_out decimals=i.quote_decimals unit=i.quote_symbol.clone() sig=6 /></dd>
                                            <dt>"Price impact"</dt><dd id="sell-impact" class=impact_class(p.impact_bps)>{fmt::percent_bps(p.impact_bps)}</dd>
                                            <dt>"After this sale"</dt><dd id="sell-after">{format!("{} to graduation", fmt::percent_bps(p.progress_after_bps))}</dd>
                                        </dl>
                                    }.into_any(),
                                })}</div>
                                {move || sell_over().map(|r| view! { <p class="bad" id="sell-over" role="alert">{r.to_string()}</p> })}
                                <button class="primary" id="sell-button" disabled=move || busy.get() || !connected() || !matches!(sell_preview(), Some(Ok(_))) on:click=click_sell>{move || {
                                    let sold = sell_preview().and_then(Result::ok).map(|(_, sold, _)| sold);
                                    trade::trade_label("sell", sold, 18, &sym_b)
                                }}</button>
                                <ReviewPanel side="sell" open=sell_armed review=sell_review on_go=Callback::new(move |()| do_sell()) />
                            </div>
                        </div>
                    </section>
                }.into_any()
            }
            _ => ().into_any(),
        }}

        <section class="card token-trades">
            <h2>"Trades"</h2>
            {move || {
                let Load::Ready(i) = info.get() else { return ().into_any() };
                let t = match trades.get() {
                    None => return view! { <Loading what="Reading the trades…" /> }.into_any(),
                    Some(Err(e)) => return view! { <Failed message=e /> }.into_any(),
                    Some(Ok(t)) => t,
                };
                if t.is_empty() {
                    return view! { <p class="empty">"No trades yet."</p> }.into_any();
                }
                let line = chart(&t);
                let explorer = match ctx.world.get_untracked() {
                    Load::Ready(w) => w.description().explorer_url.clone(),
                    _ => None,
                };
                view! {
                    {line.map(|c| {
                        // Issue 39: the price axis' ends, the last price marked, each trade readable (its
                        // point's title: price after it and when; a tap shows it on a phone).
                        let (first, last) = (t.first().cloned(), t.last().cloned());
                        let (lx, ly) = c.marks.last().copied().unwrap_or_default();
                        let unit = format!("{} / token", i.quote_symbol);
                        // Touch or point to read a trade: the nearest point by x, its line marked and its
                        // numbers written under the chart.
                        let read = RwSignal::new(None::<usize>);
                        let marks = c.marks.clone();
                        let pick = move |ev: leptos::ev::PointerEvent| {
                            use wasm_bindgen::JsCast;
                            let Some(el) = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
                            let width = f64::from(el.client_width().max(1));
                            read.set(nearest_mark(&marks, f64::from(ev.offset_x()) / width * 300.0));
                        };
                        let marks_read = c.marks.clone();
                        let trades_read = t.clone();
                        let quote_sym = i.quote_symbol.clone();
                        view! {
                        <div class="chart-frame">
                        <div class="chart-axis"><span id="chart-high">{"high "}<Amount raw=c.hi_wad decimals=18 sig=4 compact=true unit=unit.clone() /></span>
                            <span id="chart-last">{"last "}<Amount raw=last.as_ref().map(|l| l.price_wad).unwrap_or_default() decimals=18 sig=4 compact=true unit=unit.clone() /></span></div>
                        <svg class="chart" id="price-chart" viewBox="0 0 300 80" preserveAspectRatio="none" role="img"
                            on:pointerdown=pick.clone() on:pointermove=pick
                            aria-label=if c.graduation_x.is_some() { "Price after each trade, on the curve then in the pool; the dashed line marks the graduation" } else { "Price after each trade" }>
                            {c.graduation_x.map(|gx| view! {
                                <line class="graduation-mark" x1=format!("{gx:.1}") x2=format!("{gx:.1}") y1="0" y2="80" stroke="currentColor" stroke-dasharray="3 3" opacity="0.6" vector-effect="non-scaling-stroke"><title>"Graduation: trading moved to the Uniswap v4 pool"</title></line>
                            })}
                            <polyline points=c.points fill="none" stroke="currentColor" stroke-width="1.5" vector-effect="non-scaling-stroke" />
                            {c.marks.iter().zip(t.iter()).map(|(&(x, y), tr)| view! {
                                <circle class="chart-point" cx=format!("{x:.1}") cy=format!("{y:.1}") r="4" fill="transparent">
                                    <title>{format!("{} {} · price after {} · {}", if tr.buy { "buy" } else { "sell" }, if tr.in_pool { "in the pool" } else { "on the curve" },
                                        fmt::units_compact(tr.price_wad, 18, 4), trade_date(tr))}</title>
                                </circle>
                            }).collect_view()}
                            <circle class="chart-last" cx=format!("{lx:.1}") cy=format!("{ly:.1}") r="2.5" fill="currentColor" />
                            {let marks_read = marks_read.clone(); move || read.get().and_then(|k| marks_read.get(k).copied()).map(|(x, y)| view! {
                                <line class="chart-read-mark" x1=format!("{x:.1}") x2=format!("{x:.1}") y1="0" y2="80" stroke="currentColor" opacity="0.35" vector-effect="non-scaling-stroke" />
                                <circle cx=format!("{x:.1}") cy=format!("{y:.1}") r="3" fill="currentColor" />
                            })}
                        </svg>
                        <p class="chart-read muted" id="chart-read" aria-live="polite">{move || match read.get().and_then(|k| trades_read.get(k)) {
                            Some(tr) => format!("{} {} · price after {} {} · {}", if tr.buy { "Buy" } else { "Sell" }, if tr.in_pool { "in the pool" } else { "on the curve" },
                                fmt::units_compact(tr.price_wad, 18, 4), quote_sym, trade_date(tr)),
                            None => "Touch or point at the chart to read a trade.".to_string(),
                        }}</p>
                        <div class="chart-axis"><span id="chart-low">{"low "}<Amount raw=c.lo_wad decimals=18 sig=4 compact=true unit=unit.clone() /></span>
                            <span class="muted">{first.as_ref().map(trade_date).unwrap_or_default()}" → "
                                {last.as_ref().map(trade_date).unwrap_or_default()}</span></div>
                        </div>
                        }
                    })}
                    <div class="table-wrap">
                    <table class="trades">
                        <thead><tr><th>"When"</th><th>"Side"</th><th>"Where"</th><th>"Account"</th><th>{i.quote_symbol.clone()}</th><th>{i.symbol.clone()}</th><th>"Price after"</th></tr></thead>
                        <tbody>
                            {t.into_iter().rev().take(TRADES_SHOWN).map(|tr| view! {
                                <tr data-venue=if tr.in_pool { "pool" } else { "curve" } data-block=tr.block>
                                    <td class="when">{trade_when(&tr, explorer.as_deref())}</td>
                                    <td class=if tr.buy { "buy" } else { "sell" }>{if tr.buy { "buy" } else { "sell" }}</td>
                                    <td class="venue">{if tr.in_pool { "pool" } else { "curve" }}</td>
                                    <td class="account" data-label="by"><code>{fmt::short_addr(&tr.account.to_checksum(None))}</code></td>
                                    <td data-label=i.quote_symbol.clone()><Amount raw=tr.quote decimals=i.quote_decimals sig=4 /></td>
                                    <td data-label=i.symbol.clone()><Amount raw=tr.tokens decimals=18 sig=4 /></td>
                                    <td data-label="price after"><Amount raw=tr.price_wad decimals=18 sig=4 compact=true /></td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                    </div>
                }.into_any()
            }}
        </section>
        </div>
    }
}

/// A trade's date in UTC, or its block where its time was not read.
fn trade_date(tr: &Trade) -> String {
    tr.time.map_or_else(
        || format!("block {}", fmt::thousands(tr.block)),
        fmt::date_utc,
    )
}

/// When a trade happened, for people: "3 min ago" (its date and block on hover), linked to the
/// transaction on the network's explorer when the description names one (issue 42 item 9).
fn trade_when(tr: &Trade, explorer: Option<&str>) -> impl IntoView {
    let ctx = Ctx::get();
    let title = match tr.time {
        Some(t) => format!("{} · block {}", fmt::date_utc(t), fmt::thousands(tr.block)),
        None => format!("block {}", fmt::thousands(tr.block)),
    };
    let time = tr.time;
    let block = tr.block;
    let words = move || match time {
        Some(t) => {
            let ago = ctx.chain_now().saturating_sub(t);
            if ago < 60 {
                "just now".to_string()
            } else {
                format!("{} ago", fmt::duration_short(ago))
            }
        }
        None => format!("block {}", fmt::thousands(block)),
    };
    match explorer {
        Some(e) => view! { <a class="tx-link" href=format!("{}/tx/{}", e.trim_end_matches('/'), tr.tx) target="_blank" rel="noopener" title=title>{words}</a> }.into_any(),
        None => view! { <span title=title>{words}</span> }.into_any(),
    }
}

/// The quick buy amounts (#42 item 9): 0.1, 0.5 and 1 of ETH; 100, 500 and 1,000 of a stablecoin.
fn quick_buys(quote_symbol: &str) -> [&'static str; 3] {
    if quote_symbol == "ETH" {
        ["0.1", "0.5", "1"]
    } else {
        ["100", "500", "1000"]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_touch_reads_the_nearest_trade_by_x() {
        let marks = [(0.0, 10.0), (100.0, 5.0), (300.0, 70.0)];
        assert_eq!(nearest_mark(&marks, 0.0), Some(0));
        assert_eq!(nearest_mark(&marks, 49.0), Some(0));
        assert_eq!(nearest_mark(&marks, 51.0), Some(1));
        assert_eq!(nearest_mark(&marks, 280.0), Some(2));
        assert_eq!(nearest_mark(&[], 10.0), None);
    }

    fn trade(block: u64, price: u64, in_pool: bool) -> Trade {
        Trade {
            block,
            in_pool,
            buy: true,
            account: Address::ZERO,
            quote: U256::ZERO,
            tokens: U256::ZERO,
            price_wad: U256::from(price),
            tx: alloy_primitives::B256::ZERO,
            time: None,
        }
    }

    #[test]
    fn the_chart_spans_its_exact_range_and_marks_every_trade() {
        assert_eq!(chart(&[trade(1, 5, false)]), None);
        let c = chart(&[trade(1, 10, false), trade(2, 30, false), trade(3, 20, true)]).unwrap();
        assert_eq!((c.lo_wad, c.hi_wad), (U256::from(10u8), U256::from(30u8)));
        assert_eq!(c.marks.len(), 3);
        // Left to right across the box; the highest price at the top, the lowest at the bottom.
        assert_eq!(c.marks[0], (4.0, 76.0));
        assert_eq!(c.marks[1], (150.0, 4.0));
        assert_eq!(c.marks[2].0, 296.0);
        // The graduation falls after the last curve trade.
        assert_eq!(c.graduation_x, Some(150.0));
    }
}
