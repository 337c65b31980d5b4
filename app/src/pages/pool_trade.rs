//! Trading in a Uniswap v4 pool through the deployment's swap router (D7): exact quotes from
//! `eden_core::uniswap::swap` over the pool's state read through `extsload`, the page's slippage
//! setting as minimum-out, exact approvals for a token input, and the same price-impact
//! confirmations as the curve (D5).

use super::read_again::ReadAgain;
use super::trade_review::{impact_class, ReviewPanel};
use crate::chain::pool::{self, Key, PoolSnapshot};
use crate::chain::world::World;
use crate::error::{AppError, Context};
use crate::flows::trade::{self, Leg, TradeReview};
use crate::fmt;
use crate::state::Ctx;
use crate::ui::{Amount, Failed, Loading, Usd};
use alloy_primitives::{Address, U256};
use eden_core::uniswap::swap::{impact_bps_up, ExactInQuote};
use gloo_storage::{LocalStorage, Storage};
use leptos::prelude::*;

const SLIPPAGE_KEY: &str = "eden.slippageBps";

/// The slippage setting kept in this browser (every trade form shares it), else the default.
pub fn stored_slippage() -> u32 {
    LocalStorage::get::<u32>(SLIPPAGE_KEY)
        .ok()
        .filter(|v| *v <= trade::MAX_SLIPPAGE_BPS)
        .unwrap_or(trade::DEFAULT_SLIPPAGE_BPS)
}

/// The slippage tolerance field: a percentage, checked as typed, kept in this browser.
#[component]
pub fn SlippageField(slippage: RwSignal<u32>) -> impl IntoView {
    let text = RwSignal::new(fmt::units_exact(U256::from(slippage.get_untracked()), 2));
    let err: RwSignal<Option<String>> = RwSignal::new(None);
    let set = move |t: String| {
        text.set(t.clone());
        match trade::parse_slippage_percent(&t) {
            Ok(bps) => {
                slippage.set(bps);
                err.set(None);
                let _ = LocalStorage::set(SLIPPAGE_KEY, bps);
            }
            Err(e) => err.set(Some(e.to_string())),
        }
    };
    view! {
        <label class="field inline">
            <span class="label">"Slippage tolerance (%)"</span>
            <input id="slippage" inputmode="decimal" prop:value=move || text.get() on:input=move |ev| set(event_target_value(&ev)) />
            {move || err.get().map(|e| view! { <span class="bad">{e}</span> })}
            {move || err.get().is_none().then(|| trade::slippage_warning(slippage.get())).flatten().map(|w| view! { <span class="warn" id="slippage-warning" role="status">{w}</span> })}
        </label>
    }
}

/// One side of a pool: what is paid, what is received.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Side {
    /// `buy` or `sell`: the element ids' infix and the words.
    name: &'static str,
    zero_for_one: bool,
    pay: Address,
    pay_symbol: String,
    pay_decimals: u8,
    get_symbol: String,
    get_decimals: u8,
    get_native: bool,
}

/// A quote with what the page shows and sends.
#[derive(Debug, Clone, PartialEq, Eq)]
struct PoolPreview {
    amount: U256,
    quote: ExactInQuote,
    impact_bps: u32,
    min_out: U256,
    /// The pool price the quote starts from (the snapshot's).
    sqrt_price_x96: U256,
}

/// The buy and sell forms of one pool, for a token against its quote currency.
#[component]
pub fn PoolTrade(
    /// The element ids' prefix (`pool`: `#pool-buy-amount`, …), one per form on a page.
    #[prop(default = "pool")]
    id_prefix: &'static str,
    world: World,
    key: Key,
    token: Address,
    token_symbol: String,
    quote_symbol: String,
    quote_decimals: u8,
    slippage: RwSignal<u32>,
    /// `(owner, quote balance, token balance)`, shown while the owner is connected.
    balances: Signal<Option<(Address, U256, U256)>>,
) -> impl IntoView {
    let ctx = Ctx::get();
    let Some(router) = world.contracts.swap_router else {
        return view! {
            <p class="empty" id="no-router">"This deployment names no swap router, so the app cannot trade in the pool. Any Uniswap v4 interface can, with the pool key above."</p>
        }
        .into_any();
    };
    let quote = if key.currency0 == token {
        key.currency1
    } else {
        key.currency0
    };
    let quote_is_0 = key.currency0 == quote;
    let buy = Side {
        name: "buy",
        zero_for_one: quote_is_0,
        pay: quote,
        pay_symbol: quote_symbol.clone(),
        pay_decimals: quote_decimals,
        get_symbol: token_symbol.clone(),
        get_decimals: 18,
        get_native: false,
    };
    let sell = Side {
        name: "sell",
        zero_for_one: !quote_is_0,
        pay: token,
        pay_symbol: token_symbol.clone(),
        pay_decimals: 18,
        get_symbol: quote_symbol.clone(),
        get_decimals: quote_decimals,
        get_native: quote.is_zero(),
    };
    let pm = world.contracts.pool_manager;
    let again = ReadAgain::new();
    let rpc = world.rpc();
    let rpc1 = rpc.clone();
    // The pool's state: re-read after a confirmed transaction and 5 s after each answer.
    let snapshot = LocalResource::new(move || {
        ctx.refresh.track();
        again.track();
        let rpc = rpc1.clone();
        async move {
            pool::snapshot(&rpc, pm, key)
                .await
                .context("Reading the pool's price and liquidity")
        }
    });
    again.after(snapshot);
    let form = move |side: Side| {
        let amount_text = RwSignal::new(String::new());
        let armed = RwSignal::new(false);
        let busy = RwSignal::new(false);
        let (rpc, s1) = (rpc.clone(), side.clone());
        // The quote re-runs on a new amount, a new snapshot or a new slippage; reads of more of the
        // bitmap (a large swap) happen inside it and stay in its copy of the snapshot.
        let preview = LocalResource::new(move || {
            let text = amount_text.get();
            let snap = snapshot.get();
            let bps = slippage.get();
            let (rpc, side) = (rpc.clone(), s1.clone());
            async move {
                if text.trim().is_empty() {
                    return None;
                }
                let mut snap: PoolSnapshot = match snap? {
                    Ok(s) => s,
                    Err(e) => return Some(Err(e)),
                };
                Some(preview_of(&rpc, pm, &mut snap, &side, &text, bps).await)
            }
        });
        let current = move || preview.get().flatten();
        // Issue 42 item 3: reviewed before it is sent; what the pool cannot take comes back.
        let s_r = side.clone();
        let review = Signal::derive(move || {
            let p = current()?.ok()?;
            Some(
                TradeReview::new(
                    s_r.name,
                    Leg::new(p.amount, s_r.pay_decimals, &s_r.pay_symbol),
                    Leg::new(p.quote.amount_out, s_r.get_decimals, &s_r.get_symbol),
                    p.min_out,
                    slippage.get(),
                    p.impact_bps,
                )
                .with_back(p.amount.saturating_sub(p.quote.amount_in)),
            )
        });
        let s2 = side.clone();
        let w2 = world.clone();
        let go = move || {
            let Some(Ok(p)) = current() else {
                return;
            };
            let Some(me) = ctx.wallet.get_untracked().account else {
                return;
            };
            let (side, w) = (s2.clone(), w2.clone());
            busy.set(true);
            leptos::task::spawn_local(async move {
                let native = side.pay.is_zero();
                let shown = format!(
                    "{} {}",
                    fmt::units(p.amount, side.pay_decimals, 6),
                    side.pay_symbol
                );
                if !native
                    && !crate::send::ensure_allowance(
                        ctx,
                        &w.rpc(),
                        side.pay,
                        router,
                        p.amount,
                        shown.clone(),
                    )
                    .await
                {
                    busy.set(false);
                    return;
                }
                let label = format!("Swap {shown} for {} in the pool", side.get_symbol);
                let tx = trade::swap_request(
                    router,
                    &key,
                    side.zero_for_one,
                    p.amount,
                    p.min_out,
                    me,
                    native,
                    ctx.chain_now(),
                );
                if crate::send::send(ctx, label, tx).await {
                    amount_text.set(String::new());
                }
                busy.set(false);
            });
        };
        let click = move |_| armed.set(true);
        let id = move |what: &str| format!("{id_prefix}-{}-{what}", side.name);
        let held = {
            let side = side.clone();
            move || {
                let (who, q, t) = balances.get()?;
                (Some(who) == ctx.wallet.get().account).then_some(if side.pay == token {
                    t
                } else {
                    q
                })
            }
        };
        // More than the connected account holds, in words (one comparison for the message and the button).
        let refusal = {
            let side = side.clone();
            move || {
                let (Some(h), Some(Ok(p))) = (held(), current()) else {
                    return None;
                };
                let verb = if side.name == "buy" { "pay" } else { "sell" };
                trade::over_balance(p.amount, h, side.pay_decimals, &side.pay_symbol, verb)
            }
        };
        let over = {
            let refusal = refusal.clone();
            move || refusal().is_some()
        };
        let side_v = side.clone();
        let side_b = side.clone();
        let connected = move || ctx.wallet.get().account.is_some();
        view! {
            <div class="side">
                <h3>{if side.name == "buy" { format!("Buy {}", side.get_symbol) } else { format!("Sell {}", side.pay_symbol) }}</h3>
                <label class="field">
                    <span class="label">{format!("Pay ({})", side.pay_symbol)}</span>
                    <input id=id("amount") inputmode="decimal" placeholder=if side.name == "buy" { "0.1" } else { "1000" }
                        prop:value=move || amount_text.get() on:input=move |ev| { armed.set(false); amount_text.set(event_target_value(&ev)) } />
                </label>
                <div id=id("preview")>{move || {
                    let side = side_v.clone();
                    current().map(|r| match r {
                        Err(e) => view! { <p class="bad">{e.to_string()}</p> }.into_any(),
                        Ok(p) => view! {
                            <dl class="kv" data-sqrt-price=p.sqrt_price_x96.to_string()>
                                <dt>"You receive"</dt><dd id=format!("{id_prefix}-{}-out", side.name)><Amount raw=p.quote.amount_out decimals=side.get_decimals unit=side.get_symbol.clone() sig=6 />{side.get_native.then(|| view! { <Usd wei=p.quote.amount_out /> })}</dd>
                                <dt>"Pool fee"</dt><dd><Amount raw=p.quote.fee_amount decimals=side.pay_decimals unit=side.pay_symbol.clone() sig=6 /></dd>
                                <dt>"Minimum received"</dt><dd><Amount raw=p.min_out decimals=side.get_decimals unit=side.get_symbol.clone() sig=6 /></dd>
                                <dt>"Price impact"</dt><dd id=format!("{id_prefix}-{}-impact", side.name) class=impact_class(p.impact_bps)>{fmt::percent_bps(p.impact_bps)}</dd>
                            </dl>
                            {(p.quote.amount_in < p.amount).then(|| view! {
                                <p class="banner info">"The pool runs out of liquidity before taking all of it: it takes "
                                    <Amount raw=p.quote.amount_in decimals=side.pay_decimals unit=side.pay_symbol.clone() sig=8 />
                                    {if side.pay.is_zero() { ", the rest comes back." } else { "." }}</p>
                            })}
                        }.into_any(),
                    })
                }}</div>
                {
                    move || refusal().map(|r| view! { <p class="bad" id=format!("{id_prefix}-{}-over", side.name) role="alert">{r.to_string()}</p> })
                }
                <button class="primary" id=id("button") disabled=move || busy.get() || !connected() || over() || !matches!(current(), Some(Ok(_))) on:click=click>{
                    let side = side_b.clone();
                    move || crate::flows::trade::trade_label(side.name, current().and_then(Result::ok).map(|p| p.amount), side.pay_decimals, &side.pay_symbol)
                }</button>
                <ReviewPanel side=format!("{id_prefix}-{}", side.name) open=armed review=review on_go=Callback::new(move |()| go()) />
            </div>
        }
    };
    view! {
        {move || match snapshot.get() {
            None => Some(view! { <Loading what="Reading the pool's liquidity…" /> }.into_any()),
            Some(Err(e)) => Some(view! { <Failed message=e /> }.into_any()),
            Some(Ok(_)) => None,
        }}
        {move || {
            let (who, q, t) = balances.get()?;
            (Some(who) == ctx.wallet.get().account).then(|| view! {
                <p class="muted" id=format!("{id_prefix}-balances")>"You hold "<Amount raw=q decimals=quote_decimals unit=quote_symbol.clone() sig=6 />" and "<Amount raw=t decimals=18 unit=token_symbol.clone() sig=6 /></p>
            })
        }}
        <p class="muted">"Quotes are exact: computed in your browser from the pool's price, liquidity and ticks, as the pool computes a swap. The swap goes through the deployment's router, with your slippage setting as its minimum."</p>
        <div class="two">
            {form(buy)}
            {form(sell)}
        </div>
    }
    .into_any()
}

/// The exact quote of `text` on `side`, with its price impact and minimum-out.
async fn preview_of(
    rpc: &crate::chain::rpc::Rpc,
    pm: Address,
    snap: &mut PoolSnapshot,
    side: &Side,
    text: &str,
    slippage_bps: u32,
) -> Result<PoolPreview, AppError> {
    let amount = fmt::parse_units(text, side.pay_decimals)?;
    let quote = pool::quote_exact_in(rpc, pm, snap, side.zero_for_one, amount).await?;
    let impact_bps = impact_bps_up(&snap.state, side.zero_for_one, &quote)?;
    Ok(PoolPreview {
        amount,
        quote,
        impact_bps,
        min_out: trade::min_out_down(quote.amount_out, slippage_bps),
        sqrt_price_x96: snap.state.sqrt_price_x96,
    })
}
