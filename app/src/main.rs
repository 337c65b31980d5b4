//! Eden browser client: a Leptos client-side app over the wasm build of `eden-core`.
//!
//! Every number on screen is computed by `eden-core` in this page from on-chain state; nothing is
//! trusted from a server. The deployment is chosen on the Network page (`/network`, D1). Routes:
//! Launch (`/`, `/launch/:token`), Score, Scorer, Duel, Calls, Payouts, Verify, Network.

// The workspace's lint table applies here too, but for `unreachable_pub`: in a binary every `pub` is
// crate-visible, and Leptos's `#[component]` expands to `pub` items whatever the function's own visibility.
#![allow(unreachable_pub)]

#[cfg(all(test, target_arch = "wasm32"))]
mod browser_tests;
mod chain;
mod error;
mod flows;
mod fmt;
mod pages;
mod paint;
mod send;
mod split_point;
mod state;
#[cfg(test)]
mod test_util;
mod tx;
mod ui;
mod wallet;

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes, A};
use leptos_router::path;
use pages::deferred::deferred;
use pages::split;
use state::{Ctx, Load};

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}

/// The application shell: header with navigation and wallet, the current page, the transaction tray.
#[component]
fn App() -> impl IntoView {
    let ctx = Ctx {
        world: RwSignal::new(Load::Loading),
        chain_offset: RwSignal::new(0),
        refresh: RwSignal::new(0),
        retries: RwSignal::new(0),
        tick: RwSignal::new(0),
        txs: RwSignal::new(state::restore_txs()),
        wallet: RwSignal::new(wallet::WalletState::default()),
        usd: RwSignal::new(None),
    };
    provide_context(ctx);
    ctx.load_world();
    wallet::init(ctx.wallet_handle());
    Effect::new(move |_| ctx.txs.with(|t| state::save_txs(t)));
    // Transactions still pending when the page was reloaded: follow them to their receipts.
    Effect::new(move |done: Option<bool>| {
        if done == Some(true) {
            return true;
        }
        let Load::Ready(w) = ctx.world.get() else {
            return false;
        };
        for t in ctx.txs.get_untracked() {
            if let state::TxState::Pending(h) = t.state {
                let rpc = w.rpc();
                leptos::task::spawn_local(async move {
                    match send::follow_restored(ctx, rpc, t.id, h).await {
                        Ok(following) => {
                            following.await;
                        }
                        Err(e) => leptos::logging::warn!("{e}; it is followed again on reload"),
                    }
                });
            }
        }
        true
    });
    // One tick a second for the countdowns, for the app's lifetime (gloo-timers).
    gloo_timers::callback::Interval::new(1_000, move || ctx.tick.update(|t| *t += 1)).forget();
    // Re-measure the chain clock, and re-read the ETH/USD answer, whenever something changed on chain;
    // after the page's content is painted (D11, "First paint first": the connection's probe has just
    // measured the clock).
    Effect::new(move |_| {
        ctx.refresh.track();
        if let Load::Ready(w) = ctx.world.get() {
            leptos::task::spawn_local(async move {
                paint::after_paint().await;
                let rpc = w.rpc();
                // Both at once: they travel in the same JSON-RPC batch (D3).
                let usd = async {
                    match w.contracts.root_price_oracle {
                        Some(o) => chain::usd::read(&rpc, o).await.ok().flatten(),
                        None => None,
                    }
                };
                let (ts, usd) = futures::join!(rpc.latest_timestamp(), usd);
                if let Ok(ts) = ts {
                    ctx.chain_offset.set(ts as i64 - chain::world::wall_now());
                }
                ctx.usd.set(usd);
            });
        }
    });

    view! {
        <Router>
            <header class="top">
                <a class="brand" href="/">"Eden"</a>
                <nav class="nav" aria-label="Pages">
                    <A href="/launch">"Launch"</A>
                    <A href="/score">"Score"</A>
                    <A href="/scorer">"Scorer"</A>
                    <A href="/duel">"Duel"</A>
                    <A href="/calls">"Calls"</A>
                    <A href="/payouts">"Payouts"</A>
                    <A href="/verify">"Verify"</A>
                </nav>
                <ui::NetworkLink />
                <ui::WalletButton />
            </header>
            <ui::NetworkBanner />
            <div class="layout">
            <main>
                <Routes fallback=|| view! { <section class="card"><h1>"Not found"</h1><p>"There is no page here."</p></section> }>
                    <Route path=path!("/") view=pages::launch::LaunchList />
                    <Route path=path!("/launch") view=pages::launch::LaunchList />
                    <Route path=path!("/launch/:token") view=|| deferred(split::token_page) />
                    <Route path=path!("/score") view=|| deferred(split::score_page) />
                    <Route path=path!("/payouts") view=|| deferred(split::payouts_page) />
                    <Route path=path!("/scorer") view=|| deferred(split::scorer_page) />
                    <Route path=path!("/duel") view=|| deferred(split::duel_list) />
                    <Route path=path!("/duel/:id") view=|| deferred(split::duel_page) />
                    <Route path=path!("/calls") view=|| deferred(split::calls_page) />
                    <Route path=path!("/verify") view=|| deferred(split::verify_page) />
                    <Route path=path!("/network") view=|| deferred(split::network_page) />
                </Routes>
            </main>
            <ui::TxTray />
            </div>
            <ui::TxToast />
            <footer>
                <span>"eden-core "{env!("CARGO_PKG_VERSION")}" · WebAssembly · every number recomputed in your browser"</span>
            </footer>
        </Router>
    }
}
