//! Launch pages (C19, C20): every launch with its progress to graduation, and a token page with the
//! live curve state read from chain, exact buy/sell quotes from `eden_core::curve` (fee, anti-snipe
//! countdown, graduation clamp and refund), the slippage setting (persisted) applied as minimum-out,
//! exact approvals for stablecoin pairs, the trade history with a price chart, and after graduation
//! the Uniswap v4 pool and its price.

use crate::chain::abi::{ILaunchpad, IPoolManagerState, IERC20};
use crate::chain::multicall::Batch;
use crate::chain::rpc::{Rpc, TxRequest};
use crate::chain::tokens::TokenLabels;
use crate::chain::world::World;
use crate::error::AppError;
use crate::fmt;
use crate::state::{Ctx, Load};
use crate::trade;
use crate::ui::{caught, with_world, Amount, ErrorBox, Loading};
use alloy_primitives::{Address, Bytes, B256, U256};
use alloy_sol_types::{SolCall, SolEvent};
use eden_core::curve::{self, CurveState};
use eden_core::math::{mul_div_down, WAD};
use eden_core::uniswap::state;
use gloo_storage::{LocalStorage, Storage};
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

/// One launch as read from chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchInfo {
    pub token: Address,
    pub name: String,
    pub symbol: String,
    pub quote: Address,
    pub quote_symbol: String,
    pub quote_decimals: u8,
    pub creator: Address,
    pub graduated: bool,
    pub state: CurveState,
}

impl LaunchInfo {
    pub fn progress_bps(&self) -> u32 {
        if self.graduated {
            10_000
        } else {
            curve::progress_bps(&self.state).unwrap_or(0)
        }
    }
}

/// Reads launches in three batched round trips whatever their number (C19): each token's launch
/// record, name and symbol; then the symbol and decimals of each distinct quote token.
pub async fn load_launches(
    rpc: &Rpc,
    pad: Address,
    tokens: &[Address],
    supply: U256,
    fee_bps: u16,
) -> Result<Vec<LaunchInfo>, AppError> {
    let mut b = Batch::new();
    let slots: Vec<_> = tokens
        .iter()
        .map(|&token| {
            (
                b.add(pad, &ILaunchpad::launchOfCall { token }),
                b.add(token, &IERC20::nameCall {}),
                b.add(token, &IERC20::symbolCall {}),
            )
        })
        .collect();
    let a = b.run(rpc).await?;
    let mut launches = Vec::with_capacity(tokens.len());
    for (&token, (l, name, symbol)) in tokens.iter().zip(slots) {
        launches.push((
            token,
            a.get(l)?,
            a.get(name).unwrap_or_default(),
            a.get(symbol).unwrap_or_default(),
        ));
    }
    // The quote tokens' symbols and decimals, once each.
    let labels = TokenLabels::read(rpc, launches.iter().map(|(_, l, _, _)| l.quote)).await?;
    launches
        .into_iter()
        .map(|(token, l, name, symbol)| {
            let (quote_symbol, quote_decimals) = labels.get(l.quote);
            let state =
                trade::curve_state(&l, supply, u32::from(fee_bps)).map_err(AppError::from)?;
            Ok(LaunchInfo {
                token,
                name,
                symbol,
                quote: l.quote,
                quote_symbol,
                quote_decimals,
                creator: l.creator,
                graduated: l.graduated,
                state,
            })
        })
        .collect()
}

/// The launchpad's count, supply and fee, in one batch.
async fn pad_params(rpc: &Rpc, pad: Address) -> Result<(u64, U256, u16), AppError> {
    let mut b = Batch::new();
    let n = b.add(pad, &ILaunchpad::launchCountCall {});
    let supply = b.add(pad, &ILaunchpad::supplyCall {});
    let fee = b.add(pad, &ILaunchpad::feeBpsCall {});
    let a = b.run(rpc).await?;
    Ok((
        u64::try_from(a.get(n)?).unwrap_or(0),
        a.get(supply)?,
        a.get(fee)?,
    ))
}

pub async fn load_launch(rpc: &Rpc, w: &World, token: Address) -> Result<LaunchInfo, AppError> {
    let pad = w.contracts.launchpad;
    let (_, supply, fee_bps) = pad_params(rpc, pad).await?;
    load_launches(rpc, pad, &[token], supply, fee_bps)
        .await?
        .pop()
        .ok_or_else(|| AppError::missing("no such launch"))
}

/// Every launch, newest first: the launchpad's parameters, the token list, then the launches, each
/// step one batched round trip.
async fn load_all(w: World) -> Result<Vec<LaunchInfo>, AppError> {
    let rpc = w.rpc();
    let pad = w.contracts.launchpad;
    let (n, supply, fee_bps) = pad_params(&rpc, pad).await?;
    let mut b = Batch::new();
    let slots: Vec<_> = (0..n)
        .rev()
        .map(|i| b.add(pad, &ILaunchpad::tokensCall(U256::from(i))))
        .collect();
    let a = b.run(&rpc).await?;
    let tokens = slots
        .into_iter()
        .map(|s| a.get(s))
        .collect::<Result<Vec<_>, _>>()?;
    load_launches(&rpc, pad, &tokens, supply, fee_bps).await
}

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

#[component]
pub fn LaunchList() -> impl IntoView {
    let ctx = Ctx::get();
    // Re-read on every confirmed transaction; a newer read supersedes an older one.
    let list = LocalResource::new(move || {
        ctx.refresh.track();
        let world = ctx.world.get();
        async move {
            match world {
                Load::Ready(w) => load_all(w).await,
                _ => Ok(Vec::new()),
            }
        }
    });
    view! {
        <section class="card">
            <h1>"Launches"</h1>
            <p class="lede">"Fixed-supply tokens on a bonding curve. 80 % of the supply is sold on the curve; at the graduation target the curve seeds a Uniswap v4 pool and locks it forever."</p>
            {with_world(move |_| view! {
            <Transition fallback=|| view! { <Loading what="Reading launches from chain…" /> }>
            <ErrorBoundary fallback=caught>
            {move || list.get().map(|loaded| loaded.map(|v| if v.is_empty() {
                view! { <p class="empty">"No launches yet."</p> }.into_any()
            } else {
                view! {
                    <ul class="launches" id="launch-list">
                        {v.into_iter().map(|l| {
                            let href = format!("/launch/{}", l.token);
                            let in_window = !l.graduated && trade::snipe_seconds_left(&l.state, ctx.chain_now()) > 0;
                            let status = if l.graduated { "graduated" } else if in_window { "anti-snipe window" } else if l.progress_bps() >= 8_000 { "close to graduation" } else { "on the curve" };
                            let cap = curve::market_cap_wad(&l.state, l.quote_decimals).ok();
                            view! {
                                <li class="launch-row" data-symbol=l.symbol.clone()>
                                    <a href=href>
                                        <span class="sym">{l.symbol.clone()}</span>
                                        <span class="name">{l.name.clone()}</span>
                                        <span class=format!("badge {}", status.replace(' ', "-"))>{status}</span>
                                    </a>
                                    <Progress bps=l.progress_bps() />
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

/// A trade from the event log.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Trade {
    block: u64,
    buy: bool,
    account: Address,
    quote: U256,
    tokens: U256,
    /// Spot price after the trade, WAD quote per token (from `eden_core::curve::spot_price_wad`).
    price_wad: U256,
}

async fn load_trades(rpc: &Rpc, w: &World, info: &LaunchInfo) -> Result<Vec<Trade>, AppError> {
    let pad = w.contracts.launchpad;
    let t1 = B256::left_padding_from(info.token.as_slice());
    let from = w.deployment_block;
    let mut out = Vec::new();
    let price = |q: U256, y: U256| {
        let s = CurveState {
            quote_raised: q,
            token_reserve: y,
            ..info.state
        };
        curve::spot_price_wad(&s, info.quote_decimals).unwrap_or_default()
    };
    for log in rpc
        .logs(pad, ILaunchpad::Bought::SIGNATURE_HASH, Some(t1), from)
        .await
        .map_err(AppError::from)?
    {
        if let Ok(e) = ILaunchpad::Bought::decode_raw_log(log.topics.iter().copied(), &log.data) {
            out.push(Trade {
                block: u64::try_from(log.block_number).unwrap_or(0),
                buy: true,
                account: e.buyer,
                quote: e.quoteUsed,
                tokens: e.tokensOut,
                price_wad: price(e.quoteRaised, e.tokenReserve),
            });
        }
    }
    for log in rpc
        .logs(pad, ILaunchpad::Sold::SIGNATURE_HASH, Some(t1), from)
        .await
        .map_err(AppError::from)?
    {
        if let Ok(e) = ILaunchpad::Sold::decode_raw_log(log.topics.iter().copied(), &log.data) {
            out.push(Trade {
                block: u64::try_from(log.block_number).unwrap_or(0),
                buy: false,
                account: e.seller,
                quote: e.quoteOut,
                tokens: e.tokensIn,
                price_wad: price(e.quoteRaised, e.tokenReserve),
            });
        }
    }
    out.sort_by_key(|t| t.block);
    Ok(out)
}

/// The graduated pool: id, current sqrtPriceX96 (read from the PoolManager's storage) and price.
#[derive(Debug, Clone, PartialEq, Eq)]
struct PoolView {
    pool_id: B256,
    sqrt_price_x96: U256,
    tick: Option<i32>,
    /// Quote per whole token, WAD (rounded down).
    price_wad: U256,
}

/// Quote per token from a pool price where the quote is currency0 (ETH always is): `2^192 / sqrtP²`,
/// scaled to WAD of whole units, rounded down.
fn price_from_sqrt(sqrt_p: U256, quote_is_0: bool, quote_decimals: u8) -> U256 {
    let q96 = U256::from(1u8) << 96;
    let unit = U256::from(10u8).pow(U256::from(18 - quote_decimals.min(18)));
    let r = if quote_is_0 {
        // token1 per token0 = sqrtP²/2^192 ⇒ quote0 per token1 = 2^192/sqrtP².
        mul_div_down(q96, q96, sqrt_p).and_then(|x| mul_div_down(x, WAD, sqrt_p))
    } else {
        mul_div_down(sqrt_p, sqrt_p, q96).and_then(|x| mul_div_down(x, WAD, q96))
    };
    r.ok().and_then(|x| x.checked_mul(unit)).unwrap_or_default()
}

async fn load_pool(rpc: &Rpc, w: &World, info: &LaunchInfo) -> Result<PoolView, AppError> {
    let r = rpc
        .call(
            w.contracts.launchpad,
            &ILaunchpad::poolOfCall { token: info.token },
        )
        .await
        .map_err(AppError::from)?;
    let pool_id = r.poolId;
    let word = rpc
        .call(
            w.contracts.pool_manager,
            &IPoolManagerState::extsload_0Call {
                slot: state::pool_state_slot(pool_id),
            },
        )
        .await
        .map_err(AppError::from)?;
    let sqrt_p = state::Slot0::from_word(word).sqrt_price_x96;
    let quote_is_0 = info.quote < info.token;
    Ok(PoolView {
        pool_id,
        sqrt_price_x96: sqrt_p,
        tick: eden_core::uniswap::tick_math::get_tick_at_sqrt_price(sqrt_p).ok(),
        price_wad: price_from_sqrt(sqrt_p, quote_is_0, info.quote_decimals),
    })
}

const SLIPPAGE_KEY: &str = "eden.slippageBps";

fn stored_slippage() -> u32 {
    LocalStorage::get::<u32>(SLIPPAGE_KEY)
        .ok()
        .filter(|v| *v <= trade::MAX_SLIPPAGE_BPS)
        .unwrap_or(trade::DEFAULT_SLIPPAGE_BPS)
}

/// A polyline of prices (floats only for drawing, after exact integer math).
fn chart(trades: &[Trade]) -> Option<String> {
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
    Some(
        ys.iter()
            .enumerate()
            .map(|(i, y)| {
                format!(
                    "{:.1},{:.1}",
                    4.0 + 292.0 * i as f64 / n,
                    76.0 - 72.0 * (y - lo) / span
                )
            })
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// Everything the token page reads from the chain at once.
#[derive(Debug, Clone, PartialEq)]
struct TokenView {
    info: LaunchInfo,
    trades: Vec<Trade>,
    pool: Option<Result<PoolView, AppError>>,
    balances: Option<(Address, U256, U256)>,
}

async fn load_token_view(
    w: &World,
    t: Address,
    account: Option<Address>,
) -> Result<TokenView, AppError> {
    let rpc = w.rpc();
    let i = load_launch(&rpc, w, t).await?;
    let trades = load_trades(&rpc, w, &i).await.unwrap_or_default();
    let pool = if i.graduated {
        Some(load_pool(&rpc, w, &i).await)
    } else {
        None
    };
    let balances = match account {
        Some(a) => {
            let q = if i.quote == Address::ZERO {
                rpc.balance(a).await.ok()
            } else {
                rpc.call(i.quote, &IERC20::balanceOfCall { account: a })
                    .await
                    .ok()
            };
            let tb = rpc
                .call(i.token, &IERC20::balanceOfCall { account: a })
                .await
                .ok();
            q.zip(tb).map(|(q, t)| (a, q, t))
        }
        None => None,
    };
    Ok(TokenView {
        info: i,
        trades,
        pool,
        balances,
    })
}

#[component]
pub fn TokenPage() -> impl IntoView {
    let ctx = Ctx::get();
    let params = use_params_map();
    let token = move || params.with(|p| p.get("token").and_then(|t| t.parse::<Address>().ok()));
    let slippage = RwSignal::new(stored_slippage());
    let slippage_text = RwSignal::new(fmt::units_exact(U256::from(slippage.get_untracked()), 2));
    let slippage_err: RwSignal<Option<String>> = RwSignal::new(None);
    let buy_amount = RwSignal::new(String::new());
    let sell_amount = RwSignal::new(String::new());
    let busy = RwSignal::new(false);
    let every_5s = Memo::new(move |_| ctx.tick.get() / 5);
    // One resource for everything the page reads; a newer read supersedes an older one, and
    // leaving the page drops it. The derived memos below notify only when their value changes.
    let chain = LocalResource::new(move || {
        ctx.refresh.track();
        every_5s.track();
        let world = ctx.world.get();
        let t = token();
        let account = ctx.wallet.get_untracked().account;
        async move {
            match (world, t) {
                (_, None) => Err(AppError::missing("this is not a token address")),
                (Load::Ready(w), Some(t)) => load_token_view(&w, t, account).await.map(Some),
                // The network is still loading: nothing to read yet.
                _ => Ok(None),
            }
        }
    });
    let info: Memo<Load<LaunchInfo>> = Memo::new(move |_| match chain.get() {
        None | Some(Ok(None)) => Load::Loading,
        Some(Ok(Some(v))) => Load::Ready(v.info),
        Some(Err(e)) => Load::Failed(e),
    });
    let view_now = move || chain.get().and_then(Result::ok).flatten();
    let trades: Memo<Vec<Trade>> =
        Memo::new(move |_| view_now().map(|v| v.trades).unwrap_or_default());
    let pool: Memo<Option<Result<PoolView, AppError>>> =
        Memo::new(move |_| view_now().and_then(|v| v.pool));
    // (owner, quote balance, token balance): shown only while the owner is the connected account.
    let balances: Memo<Option<(Address, U256, U256)>> =
        Memo::new(move |_| view_now().and_then(|v| v.balances));
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

    let set_slippage = move |text: String| {
        slippage_text.set(text.clone());
        match trade::parse_slippage_percent(&text) {
            Ok(bps) => {
                slippage.set(bps);
                slippage_err.set(None);
                let _ = LocalStorage::set(SLIPPAGE_KEY, bps);
            }
            Err(e) => slippage_err.set(Some(e.to_string())),
        }
    };

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
                        .map_err(AppError::from)
                })
                .map(|p| (i.clone(), p)),
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
                    trade::preview_sell(&i.state, x, slippage.get()).map_err(AppError::from)
                })
                .map(|p| (i.clone(), p)),
        )
    };

    let do_buy = move |_| {
        let Load::Ready(i) = info.get_untracked() else {
            return;
        };
        let Ok(amount) = fmt::parse_units(&buy_amount.get_untracked(), i.quote_decimals) else {
            return;
        };
        let Load::Ready(w) = ctx.world.get_untracked() else {
            return;
        };
        let Ok(p) = trade::preview_buy(&i.state, amount, ctx.chain_now(), slippage.get_untracked())
        else {
            return;
        };
        let deadline = U256::from(ctx.chain_now() + 600);
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
            let data = ILaunchpad::buyCall {
                token: i.token,
                quoteIn: amount,
                minTokensOut: p.min_tokens_out,
                deadline,
            }
            .abi_encode();
            let label = format!(
                "Buy {} with {} {}",
                i.symbol,
                fmt::units(amount, i.quote_decimals, 6),
                i.quote_symbol
            );
            let value = if eth { amount } else { U256::ZERO };
            if crate::send::send(
                ctx,
                label,
                TxRequest {
                    from: None,
                    to: pad,
                    data: Bytes::from(data),
                    value,
                },
            )
            .await
            {
                buy_amount.set(String::new());
            }
            busy.set(false);
        });
    };

    let do_sell = move |_| {
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
        let deadline = U256::from(ctx.chain_now() + 600);
        busy.set(true);
        leptos::task::spawn_local(async move {
            let pad = w.contracts.launchpad;
            let display = format!("{} {}", fmt::units(amount, 18, 6), i.symbol);
            if !crate::send::ensure_allowance(ctx, &w.rpc(), i.token, pad, amount, display).await {
                busy.set(false);
                return;
            }
            let data = ILaunchpad::sellCall {
                token: i.token,
                tokensIn: amount,
                minQuoteOut: p.min_quote_out,
                deadline,
            }
            .abi_encode();
            let label = format!("Sell {} {}", fmt::units(amount, 18, 6), i.symbol);
            if crate::send::send(ctx, label, TxRequest::call(pad, data)).await {
                sell_amount.set(String::new());
            }
            busy.set(false);
        });
    };

    let connected = move || ctx.wallet.get().account.is_some();

    view! {
        <section class="card">
            <p><a href="/launch">"← All launches"</a></p>
            {move || match info.get() {
                Load::Loading => view! { <Loading what="Reading the curve from chain…" /> }.into_any(),
                Load::Failed(e) => view! { <ErrorBox message=e /> }.into_any(),
                Load::Ready(i) => {
                    let s = i.state;
                    let qd = i.quote_decimals;
                    let qs = i.quote_symbol.clone();
                    let g = s.graduation_target().unwrap_or_default();
                    let spot = curve::spot_price_wad(&s, qd).unwrap_or_default();
                    let cap = curve::market_cap_wad(&s, qd).unwrap_or_default();
                    view! {
                        <h1 id="token-title">{format!("{} ({})", i.name, i.symbol)}</h1>
                        <p class="muted"><code>{i.token.to_checksum(None)}</code>" · paired with "{qs.clone()}</p>
                        <div class="stats">
                            <div><span class="k">"Raised"</span><span class="v" id="raised"><Amount raw=s.quote_raised decimals=qd unit=qs.clone() />" of "<Amount raw=g decimals=qd unit=qs.clone() /></span></div>
                            <div><span class="k">"Progress"</span><span class="v" id="progress">{fmt::percent_bps(i.progress_bps())}</span></div>
                            <div><span class="k">{if i.graduated { "Curve price at graduation" } else { "Price" }}</span><span class="v"><Amount raw=spot decimals=18 unit=format!("{qs} / token") sig=4 /></span></div>
                            <div><span class="k">"Market cap"</span><span class="v"><Amount raw=cap decimals=18 unit=qs.clone() sig=4 /></span></div>
                            {(!i.graduated).then(|| view! { <div><span class="k">"Tokens left on the curve"</span><span class="v"><Amount raw=s.token_reserve decimals=18 sig=4 /></span></div> })}
                        </div>
                        <Progress bps=i.progress_bps() />
                    }.into_any()
                }
            }}
        </section>

        {move || match static_info.get().map_or(Load::Loading, Load::Ready) {
            Load::Ready(i) if i.graduated => view! {
                <section class="card" id="graduated">
                    <h2>"Graduated: trading in the Uniswap v4 pool"</h2>
                    <p class="muted">"The curve reached its target; the pool was seeded at the curve's last price and its liquidity is locked forever."</p>
                    {move || match pool.get() {
                        None => view! { <Loading what="Reading the pool…" /> }.into_any(),
                        Some(Err(e)) => view! { <ErrorBox message=e /> }.into_any(),
                        Some(Ok(p)) => view! {
                            <dl class="kv">
                                <dt>"Pool id"</dt><dd><code>{p.pool_id.to_string()}</code></dd>
                                <dt>"Pool price"</dt><dd id="pool-price"><Amount raw=p.price_wad decimals=18 unit=format!("{} / {}", i.quote_symbol, i.symbol) sig=6 /></dd>
                                <dt>"sqrtPriceX96"</dt><dd><code>{p.sqrt_price_x96.to_string()}</code></dd>
                                <dt>"Tick"</dt><dd>{p.tick.map_or("?".to_string(), |t| t.to_string())}</dd>
                            </dl>
                        }.into_any(),
                    }}
                </section>
            }.into_any(),
            Load::Ready(i) => {
                let i2 = i.clone();
                let (bal_qd, bal_qsym, bal_tsym) = (i.quote_decimals, i.quote_symbol.clone(), i.symbol.clone());
                let qs = i.quote_symbol.clone();
                let sym = i.symbol.clone();
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
                        <label class="field inline">
                            <span class="label">"Slippage tolerance (%)"</span>
                            <input id="slippage" inputmode="decimal" prop:value=move || slippage_text.get() on:input=move |ev| set_slippage(event_target_value(&ev)) />
                            {move || slippage_err.get().map(|e| view! { <span class="bad">{e}</span> })}
                        </label>
                        <div class="two">
                            <div class="side">
                                <h3>"Buy"</h3>
                                <label class="field">
                                    <span class="label">{format!("Pay ({qs})")}</span>
                                    <input id="buy-amount" inputmode="decimal" placeholder="0.1" prop:value=move || buy_amount.get() on:input=move |ev| buy_amount.set(event_target_value(&ev)) />
                                </label>
                                <div id="buy-preview">{move || buy_preview().map(|r| match r {
                                    Err(e) => view! { <p class="bad">{e.to_string()}</p> }.into_any(),
                                    Ok((i, p)) => view! {
                                        <dl class="kv">
                                            <dt>"You receive"</dt><dd id="buy-out"><Amount raw=p.quote.tokens_out decimals=18 unit=i.symbol.clone() sig=6 /></dd>
                                            <dt>"Fee"</dt><dd><Amount raw=p.quote.fee decimals=i.quote_decimals unit=i.quote_symbol.clone() sig=6 />{format!(" ({})", fmt::percent_pips(p.fee_pips))}</dd>
                                            <dt>"Minimum received"</dt><dd><Amount raw=p.min_tokens_out decimals=18 unit=i.symbol.clone() sig=6 /></dd>
                                        </dl>
                                        {p.quote.graduates.then(|| view! {
                                            <p class="banner info" id="refund">"This buy reaches the graduation target: it is clamped to "
                                                <Amount raw=p.quote.quote_used decimals=i.quote_decimals unit=i.quote_symbol.clone() sig=8 />
                                                ", you get "<Amount raw=p.quote.refund decimals=i.quote_decimals unit=i.quote_symbol.clone() sig=8 />
                                                " back, and the launch graduates into its Uniswap pool."</p>
                                        })}
                                    }.into_any(),
                                })}</div>
                                <button class="primary" id="buy-button" disabled=move || busy.get() || !connected() || !matches!(buy_preview(), Some(Ok(_))) on:click=do_buy>"Buy"</button>
                            </div>
                            <div class="side">
                                <h3>"Sell"</h3>
                                <label class="field">
                                    <span class="label">{format!("Sell ({sym})")}</span>
                                    <input id="sell-amount" inputmode="decimal" placeholder="1000" prop:value=move || sell_amount.get() on:input=move |ev| sell_amount.set(event_target_value(&ev)) />
                                </label>
                                <div id="sell-preview">{move || sell_preview().map(|r| match r {
                                    Err(e) => view! { <p class="bad">{e.to_string()}</p> }.into_any(),
                                    Ok((i, p)) => view! {
                                        <dl class="kv">
                                            <dt>"You receive"</dt><dd id="sell-out"><Amount raw=p.quote.quote_out decimals=i.quote_decimals unit=i.quote_symbol.clone() sig=6 /></dd>
                                            <dt>"Fee"</dt><dd><Amount raw=p.quote.fee decimals=i.quote_decimals unit=i.quote_symbol.clone() sig=6 /></dd>
                                            <dt>"Minimum received"</dt><dd><Amount raw=p.min_quote_out decimals=i.quote_decimals unit=i.quote_symbol.clone() sig=6 /></dd>
                                        </dl>
                                    }.into_any(),
                                })}</div>
                                <button class="primary" id="sell-button" disabled=move || busy.get() || !connected() || !matches!(sell_preview(), Some(Ok(_))) on:click=do_sell>"Sell"</button>
                            </div>
                        </div>
                    </section>
                }.into_any()
            }
            _ => ().into_any(),
        }}

        <section class="card">
            <h2>"Trades"</h2>
            {move || {
                let t = trades.get();
                let Load::Ready(i) = info.get() else { return ().into_any() };
                if t.is_empty() {
                    return view! { <p class="empty">"No trades yet."</p> }.into_any();
                }
                let line = chart(&t);
                view! {
                    {line.map(|pts| view! {
                        <svg class="chart" viewBox="0 0 300 80" preserveAspectRatio="none" role="img" aria-label="Price after each trade">
                            <polyline points=pts fill="none" stroke="currentColor" stroke-width="1.5" vector-effect="non-scaling-stroke" />
                        </svg>
                    })}
                    <div class="table-wrap">
                    <table class="trades">
                        <thead><tr><th>"Block"</th><th>"Side"</th><th>"Account"</th><th>{i.quote_symbol.clone()}</th><th>{i.symbol.clone()}</th><th>"Price after"</th></tr></thead>
                        <tbody>
                            {t.into_iter().rev().take(20).map(|tr| view! {
                                <tr>
                                    <td>{tr.block}</td>
                                    <td class=if tr.buy { "buy" } else { "sell" }>{if tr.buy { "buy" } else { "sell" }}</td>
                                    <td><code>{fmt::short_addr(&tr.account.to_checksum(None))}</code></td>
                                    <td><Amount raw=tr.quote decimals=i.quote_decimals sig=4 /></td>
                                    <td><Amount raw=tr.tokens decimals=18 sig=4 /></td>
                                    <td><Amount raw=tr.price_wad decimals=18 sig=4 /></td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                    </div>
                }.into_any()
            }}
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_price_from_sqrt_price() {
        // sqrtP = 2^96 ⇒ price 1 (token1 per token0), so 1 quote per token either way (18 decimals).
        let q96 = U256::from(1u8) << 96;
        assert_eq!(price_from_sqrt(q96, true, 18), WAD);
        assert_eq!(price_from_sqrt(q96, false, 18), WAD);
        // sqrtP = 2^97 ⇒ 4 tokens per ETH ⇒ 0.25 ETH per token.
        assert_eq!(price_from_sqrt(q96 << 1, true, 18), WAD / U256::from(4u8));
    }
}
