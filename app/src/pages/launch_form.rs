//! The launch form (C19, C20, D4): a name, a symbol and a pair, each checked before any
//! transaction ([`crate::flows::launch_input`]); the pairs are the quote assets the launchpad allows now
//! (`QuoteAssetSet` events, Φ read now). Before sending it shows what the launch creates (supply,
//! the curve's starting market cap and graduation target, from `eden_core::curve` over the
//! launchpad's own parameters) and what it costs: the launchpad takes no fee, so the network fee
//! alone, from the node's gas estimate of this very call and its gas price. A confirmed launch
//! opens its token page.

use super::deferred::{deferred_part, PageNotLoaded};
use crate::chain::abi::ILaunchpad;
use crate::chain::launchpad::{self, launched_token, PadParams, QuoteAsset};
use crate::chain::rpc::TxRequest;
use crate::chain::world::World;
use crate::error::{AppError, Context};
use crate::flows::launch_input::{self, LaunchInputError};
use crate::fmt;
use crate::split_point::on_demand;
use crate::state::Ctx;
use crate::ui::{caught, Amount, Loading};
use alloy_primitives::{Address, Bytes, U256};
use alloy_sol_types::SolCall;
use eden_core::curve::{self, CurveState};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// What the form reads once: the launchpad's parameters and the pairs it allows.
#[derive(Clone)]
struct Setup {
    params: PadParams,
    pairs: Vec<QuoteAsset>,
}

async fn setup(w: &World) -> Result<Setup, AppError> {
    let rpc = w.rpc();
    let pad = w.contracts.launchpad;
    let (params, pairs) = futures::join!(
        launchpad::params(&rpc, pad),
        launchpad::quote_assets(&rpc, pad)
    );
    Ok(Setup {
        params: params?,
        pairs: pairs?,
    })
}

/// The network fee of `launch(name, symbol, quote, ownBuybackShare)` from `from`: the node's estimate times its
/// gas price (wei).
async fn network_fee(w: &World, from: Option<Address>, data: Bytes) -> Result<U256, AppError> {
    let rpc = w.rpc();
    let tx = TxRequest::call(w.contracts.launchpad, data).from(from);
    let (gas, price) = futures::join!(rpc.estimate_gas(&tx), rpc.gas_price());
    Ok(U256::from(gas?).saturating_mul(price?))
}

/// "Launch a token": a button that opens the form.
#[component]
pub fn LaunchForm(world: World, existing: Signal<Vec<String>>) -> impl IntoView {
    let open = RwSignal::new(false);
    view! {
        <Show when=move || open.get() fallback=move || view! {
            <button class="primary" id="open-launch-form" on:click=move |_| open.set(true)>"Launch a token"</button>
        }>
            {
                // The fields come in a module of their own (issue 39): the list's first paint does without them.
                let world = StoredValue::new(world.clone());
                let on_close = Callback::new(move |()| open.set(false));
                deferred_part("Loading the launch form…", move || {
                    fields(world.get_value(), existing, on_close)
                })
            }
        </Show>
    }
}

on_demand! {
    /// The form's fields in a module of their own (D11, issue 39), fetched when "Launch a token" is pressed: the
    /// list's first download does without them.
    launch_form: fn fields(
        world: World,
        existing: Signal<Vec<String>>,
        on_close: Callback<()>,
    ) -> Result<AnyView, PageNotLoaded> {
        Ok(untrack(|| {
            view! { <LaunchFields world=world existing=existing on_close=on_close /> }.into_any()
        }))
    }
}

#[component]
fn LaunchFields(
    world: World,
    existing: Signal<Vec<String>>,
    on_close: Callback<()>,
) -> impl IntoView {
    let ctx = Ctx::get();
    let navigate = use_navigate();
    let name = RwSignal::new(String::new());
    let symbol = RwSignal::new(String::new());
    let own_share = RwSignal::new(String::new());
    let pair = RwSignal::new(Address::ZERO);
    let w1 = world.clone();
    let setup = LocalResource::new(move || {
        let w = w1.clone();
        async move {
            setup(&w)
                .await
                .context("Reading the launchpad's parameters and pairs")
        }
    });
    let checked_name = Memo::new(move |_| launch_input::name(&name.get()));
    let checked_symbol = Memo::new(move |_| launch_input::symbol(&symbol.get()));
    let checked_share = Memo::new(move |_| launch_input::own_buyback_share(&own_share.get()));
    let call = Memo::new(move |_| {
        match (
            checked_name.get(),
            checked_symbol.get(),
            checked_share.get(),
        ) {
            (Ok(name), Ok(symbol), Ok(share)) => Some(
                ILaunchpad::launchCall {
                    name,
                    symbol,
                    quote: pair.get(),
                    ownBuybackShare: share,
                }
                .abi_encode(),
            ),
            _ => None,
        }
    });
    let w2 = world.clone();
    // The fee of this very call, re-estimated when the inputs or the account change.
    let fee = LocalResource::new(move || {
        let (w, data, from) = (w2.clone(), call.get(), ctx.wallet.with(|w| w.account));
        async move {
            match data {
                Some(d) => Some(network_fee(&w, from, d.into()).await),
                None => None,
            }
        }
    });
    let sending = RwSignal::new(false);
    let pad = world.contracts.launchpad;
    let currency = world.description().native_currency.symbol.clone();
    let submit = move |_| {
        let Some(data) = call.get_untracked() else {
            return;
        };
        let label = format!(
            "Launch {} ({})",
            checked_name.get_untracked().unwrap_or_default(),
            checked_symbol.get_untracked().unwrap_or_default()
        );
        let navigate = navigate.clone();
        sending.set(true);
        leptos::task::spawn_local(async move {
            let tx = TxRequest::call(pad, data);
            let receipt = crate::send::send_for_receipt(ctx, label, tx).await;
            sending.set(false);
            if let Some(token) = receipt.and_then(|r| launched_token(pad, &r.logs)) {
                navigate(&format!("/launch/{token}"), Default::default());
            }
        });
    };
    let error_of = |r: Result<String, LaunchInputError>, typed: bool| match r {
        Err(e) if typed => Some(e.to_string()),
        _ => None,
    };
    view! {
        <form class="launch-form" id="launch-form" on:submit=|ev| ev.prevent_default()>
            <h2>"Launch a token"</h2>
            <label class="field">
                <span class="label">"Name"</span>
                <input id="launch-name" maxlength="64" autocomplete="off" placeholder="Eden Garden" prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev)) />
                {move || error_of(checked_name.get(), !name.get().is_empty()).map(|e| view! { <span class="bad" id="launch-name-error">{e}</span> })}
            </label>
            <label class="field">
                <span class="label">"Symbol"</span>
                <input id="launch-symbol" maxlength="24" autocomplete="off" placeholder="GARD" prop:value=move || symbol.get() on:input=move |ev| symbol.set(event_target_value(&ev)) />
                {move || error_of(checked_symbol.get(), !symbol.get().is_empty()).map(|e| view! { <span class="bad" id="launch-symbol-error">{e}</span> })}
                {move || checked_symbol.get().ok().filter(|s| *s != symbol.get().trim()).map(|s| view! {
                    <span class="hint" id="launch-symbol-as">{format!("Launched as {s}.")}</span>
                })}
                {move || checked_symbol.get().ok().filter(|s| existing.get().contains(s)).map(|s| view! {
                    <span class="warn" id="launch-symbol-taken">{format!("Another launch already uses the symbol {s}: people may confuse the two.")}</span>
                })}
            </label>
            <label class="field">
                <span class="label">"Own-token buyback (% of your payout)"</span>
                <input id="launch-own-buyback" inputmode="decimal" autocomplete="off" placeholder="0" prop:value=move || own_share.get() on:input=move |ev| own_share.set(event_target_value(&ev)) />
                {move || error_of(checked_share.get().map(|w| w.to_string()), !own_share.get().is_empty()).map(|e| view! { <span class="bad" id="launch-own-buyback-error">{e}</span> })}
                <span class="hint">{format!("Fixed forever at launch, 0 to {} %: this share of what you earn buys your token in its pool once it graduates, and burns it.", launch_input::MAX_OWN_BUYBACK_PERCENT)}</span>
            </label>
            <Transition fallback=|| view! { <Loading what="Reading the launchpad's pairs…" /> }>
            <ErrorBoundary fallback=caught>
            {move || setup.get().map(|loaded| loaded.map(|s| {
                let Setup { params, pairs } = s;
                if pairs.is_empty() {
                    return view! { <p class="empty" id="no-pairs">"This launchpad allows no pair for new launches."</p> }.into_any();
                }
                if !pairs.iter().any(|p| p.asset == pair.get_untracked()) {
                    pair.set(pairs[0].asset);
                }
                let chosen = {
                    let pairs = pairs.clone();
                    move || pairs.iter().find(|p| p.asset == pair.get()).cloned()
                };
                view! {
                    <label class="field">
                        <span class="label">"Pair"</span>
                        <select id="launch-pair" on:change=move |ev| { if let Ok(a) = event_target_value(&ev).parse() { pair.set(a); } }>
                            {pairs.iter().map(|p| {
                                let a = p.asset;
                                view! { <option value=a.to_string() selected=move || pair.get() == a>{p.symbol.clone()}</option> }
                            }).collect_view()}
                        </select>
                    </label>
                    {move || chosen().map(|p| {
                        let curve = CurveState::new(p.virtual_quote, params.supply, u32::from(params.fee_bps), 0).ok();
                        let cap = curve.as_ref().and_then(|c| curve::market_cap_wad(c, p.decimals).ok());
                        let target = curve.as_ref().and_then(|c| c.graduation_target().ok());
                        view! {
                            <dl class="kv" id="launch-terms">
                                <dt>"Supply"</dt><dd><Amount raw=params.supply decimals=18 unit="tokens".to_string() sig=6 />", 80 % sold on the curve"</dd>
                                <dt>"Starting market cap"</dt><dd>{cap.map(|c| view! { <Amount raw=c decimals=18 unit=p.symbol.clone() sig=6 /> })}</dd>
                                <dt>"Graduates at"</dt><dd>{target.map(|t| view! { <Amount raw=t decimals=p.decimals unit=p.symbol.clone() sig=6 /> })}" raised, into a Uniswap v4 pool locked forever"</dd>
                                <dt>"Curve fee"</dt><dd>{fmt::percent_bps(u32::from(params.fee_bps))}" of every trade, with an anti-snipe tax in the first minutes"</dd>
                            </dl>
                        }
                    })}
                }.into_any()
            }))}
            </ErrorBoundary>
            </Transition>
            <p class="muted" id="launch-cost">{move || match fee.get().flatten() {
                None => "The launchpad takes no fee: a launch costs the network fee alone, estimated once the name and symbol are valid.".to_string(),
                Some(Ok(wei)) => format!("Cost: the network fee alone, about {} {} now (the launchpad takes no fee).", fmt::units(wei, 18, 4), currency),
                Some(Err(e)) => format!("The network fee cannot be estimated: {e}"),
            }}</p>
            <div class="actions">
                <button type="button" class="primary" id="launch-button"
                    disabled=move || call.get().is_none() || sending.get() || ctx.wallet.with(|w| w.account.is_none())
                    on:click=submit>{move || if ctx.wallet.with(|w| w.account.is_none()) { "Connect a wallet to launch" } else { "Launch" }}</button>
                " "
                <button type="button" class="secondary" id="close-launch-form" on:click=move |_| on_close.run(())>"Cancel"</button>
            </div>
        </form>
    }
}
