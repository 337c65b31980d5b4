//! "The ROOT buyback" on the Scorer page (C26): what scorers were not paid and the buyback lane,
//! turned into ROOT by the fee lanes' buyback receiver ([`crate::chain::root_buyback`]). Shown: the
//! ROOT it burned, the genesis liquidity it locked in ROOT's pool, each pair asset's lane and what a
//! run would spend now, a button to run it (anyone may; the contract refuses a price off the oracle),
//! and its runs.

use crate::chain::abi::IRootBuyback;
use crate::chain::root_buyback::{read, BuybackRead, BuybackState};
use crate::chain::world::World;
use crate::error::Context;
use crate::fmt;
use crate::state::Ctx;
use crate::ui::{caught, Amount, Loading};
use alloy_primitives::U256;
use leptos::prelude::*;

/// How many runs are listed (the newest).
const RUNS_SHOWN: usize = 5;

/// The section.
#[component]
pub fn RootBuybackCard(world: World) -> impl IntoView {
    let ctx = Ctx::get();
    let data = LocalResource::new(move || {
        ctx.refresh.track();
        let w = world.clone();
        async move { read(&w).await.context("Reading the ROOT buyback") }
    });
    view! {
        <h2>"The ROOT buyback"</h2>
        <Transition fallback=|| view! { <Loading what="Reading the ROOT buyback…" /> }>
        <ErrorBoundary fallback=caught>
        {move || data.get().map(|loaded| loaded.map(|r| match r {
            BuybackRead::NoLanes => view! { <p class="muted">"This deployment has no fee lanes, so no buyback lane."</p> }.into_any(),
            BuybackRead::NotAContract(a) => view! {
                <p class="muted" id="root-buyback-account">"The buyback lane is paid to "<code>{a.to_string()}</code>", which is not a buyback contract: what becomes of it is not on chain."</p>
            }.into_any(),
            BuybackRead::Contract(s) => view! { <Buyback s=*s /> }.into_any(),
        }))}
        </ErrorBoundary>
        </Transition>
    }
}

#[component]
fn Buyback(s: BuybackState) -> impl IntoView {
    let ctx = Ctx::get();
    let at = s.address;
    let runs = s.runs.len();
    let assets = s.assets.clone();
    let symbol = move |a: alloy_primitives::Address| {
        assets
            .iter()
            .find(|x| x.asset == a)
            .map_or(("?".to_string(), 18), |x| (x.symbol.clone(), x.decimals))
    };
    let rows = s.assets.iter().map(|a| {
        let (asset, sym, dec, pending) = (a.asset, a.symbol.clone(), a.decimals, a.pending);
        // Offered only when a run now would succeed (simulated); otherwise the contract's reason.
        let button = match a.run_now.clone() {
            Some(Ok(())) => {
                let label = format!("Run the ROOT buyback with {} {sym}", fmt::units(pending, dec, 6));
                Some(view! { <button class="secondary run-buyback" data-asset=asset.to_string() on:click=move |_| crate::send::act(ctx, at, label.clone(), IRootBuyback::runCall { asset }, U256::ZERO)>"Run the buyback"</button> }.into_any())
            }
            Some(Err(why)) => Some(view! { <span class="muted run-refused">{format!("A run now would be refused: {why}.")}</span> }.into_any()),
            None => None,
        };
        let bound = if a.max_in.is_zero() { "no route".to_string() } else { format!("at most {} {} a run", fmt::units(a.max_in, dec, 6), a.symbol) };
        view! {
            <li class="buyback-asset" data-asset=asset.to_string() data-lane=a.lane.to_string() data-pending=pending.to_string()>
                <strong>{a.symbol.clone()}</strong>": in the lane "<Amount raw=a.lane decimals=dec unit=a.symbol.clone() sig=6 />
                "; a run spends "<Amount raw=pending decimals=dec unit=a.symbol.clone() sig=6 />{format!(" ({bound}) ")}{button}
            </li>
        }
    }).collect_view();
    let recent = s.runs.iter().rev().take(RUNS_SHOWN).map(|r| {
        let (sym, dec) = symbol(r.asset);
        view! {
            <li class="buyback-run">{format!("block {}: ", fmt::thousands(r.block))}<Amount raw=r.amount_in decimals=dec unit=sym sig=6 />
                " bought "<Amount raw=r.root_bought decimals=18 unit="ROOT" sig=6 />", burned "<Amount raw=r.root_burned decimals=18 unit="ROOT" sig=6 />
                ", locked "<Amount raw=r.root_to_liquidity decimals=18 unit="ROOT" sig=6 />" and "<Amount raw=r.eth_to_liquidity decimals=18 unit="ETH" sig=6 /></li>
        }
    }).collect_view();
    view! {
        <div id="root-buyback" data-address=at.to_string() data-runs=runs.to_string() data-burned=s.total_burned.to_string() data-liquidity=s.liquidity.to_string()>
            <p class="muted">"Everything scorers are not paid and the fee lanes' buyback lane go to the buyback contract "<code>{at.to_string()}</code>{format!(". Anyone may run it: it buys ROOT in ROOT's own pool (a stablecoin first sold for ETH), never below the ROOT its spend is worth at the oracle's price (the lower of the 30-minute and 4-hour TWAPs) less {}, burns two thirds of what it bought and adds the rest with a quarter of the ETH to ROOT's genesis liquidity, which it can never withdraw. A run with the pool's price pushed off the TWAP is refused.", fmt::percent_bps(s.slippage_bps.saturating_to()))}</p>
            <p id="root-buyback-totals">"ROOT burned by the buyback: "<Amount raw=s.total_burned decimals=18 unit="ROOT" sig=6 />
                {format!(" in {runs} run{}; ", if runs == 1 { "" } else { "s" })}"locked in ROOT's pool: "<Amount raw=s.root_to_liquidity decimals=18 unit="ROOT" sig=6 />" and "<Amount raw=s.eth_to_liquidity decimals=18 unit="ETH" sig=6 />
                {format!(" (liquidity {}).", fmt::units(U256::from(s.liquidity), 0, 40))}</p>
            <ul class="buyback-assets">{rows}</ul>
            {(runs > 0).then(|| view! { <h3>"Latest runs"</h3><ul class="buyback-runs">{recent}</ul> })}
        </div>
    }
}
