//! The routed pages in WebAssembly modules of their own, each fetched the first time its route opens (D11).
//!
//! The initial module holds the shell, the wallet, the chain layer and the launch list (`/`, `/launch`);
//! every other page is a split point here, in six modules. Steps:
//!  1. `#[wasm_split]` (`wasm_split_helpers`, the mechanism behind Leptos's `#[lazy]`) makes each function
//!     below `async` and, in a wasm build, an import the build fills in later;
//!  2. `scripts/build-app.mjs` (Trunk's post-build hook) links the release build with its relocations and
//!     cuts it at these imports with `wasm-split-cli`: a page's code, and whatever only it uses (the Score
//!     page's verification, the duel replay, the v4 swap quotes), goes to that page's module; code two pages
//!     share goes to a module both fetch;
//!  3. [`deferred`] shows "Loading this page…" until the modules have arrived and been instantiated, then the
//!     page, built once. The split points are `fallible`: a failed download is a [`PageNotLoaded`] with a button that
//!     tries again (nothing is cached of a failure), never a panic, which would stop the whole app.
//!
//! Outside a wasm build (native tests, clippy) each function is called directly.

use leptos::prelude::*;
use leptos::task::spawn_local_scoped;
use leptos::wasm_split::{wasm_split, SplitLoaderError};
use std::future::Future;

/// A page's code could not be downloaded (the network failed while its module was fetched).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("This page's code could not be downloaded ({0}). Check the connection and try again.")]
pub struct PageNotLoaded(String);

impl From<SplitLoaderError> for PageNotLoaded {
    fn from(e: SplitLoaderError) -> Self {
        Self(e.to_string())
    }
}

/// A page whose module may still be loading: the loading line until it has arrived, then the page; the
/// failure and a "Try again" button if it did not.
///
/// Not a `<Suspense>`: the page's own resources would register with it, and every reload of one (after
/// each transaction) would swap the whole page for the loading line. The page is built once, under this
/// view's owner (its context, and its cleanup when the route is left), and shown when it is ready.
pub fn deferred<F, Fut>(load: F) -> impl IntoView
where
    F: Fn() -> Fut + Copy + Send + Sync + 'static,
    Fut: Future<Output = Result<AnyView, PageNotLoaded>> + 'static,
{
    let outcome = RwSignal::new(None::<Result<(), PageNotLoaded>>);
    let page = StoredValue::new_local(None::<AnyView>);
    let owner = Owner::current().unwrap_or_default();
    let start = move || {
        outcome.set(None);
        owner.with(|| {
            spawn_local_scoped(async move {
                match load().await {
                    Ok(view) => {
                        page.set_value(Some(view));
                        outcome.set(Some(Ok(())));
                    }
                    Err(e) => outcome.set(Some(Err(e))),
                }
            })
        });
    };
    start();
    move || {
        match outcome.get() {
        None => view! { <section class="card"><p class="muted" id="page-loading">"Loading this page…"</p></section> }.into_any(),
        Some(Ok(())) => page.try_update_value(Option::take).flatten().unwrap_or_else(|| ().into_any()),
        Some(Err(e)) => {
            let start = start.clone();
            view! {
                <section class="card" id="page-not-loaded">
                    <p class="error" role="alert">{e.to_string()}</p>
                    <button id="page-retry" on:click=move |_| start()>"Try again"</button>
                </section>
            }
            .into_any()
        }
    }
    }
}

/// One split point: `$name` loads module `$module`, then builds `$page`. Pages that share most of their
/// code share a module (a duel and the list of duels; the Score, Verify and Network pages): every module
/// more is a set of modules of shared code more, each one more request on the page's first visit.
macro_rules! split_page {
    ($(#[$doc:meta])* $module:ident: $name:ident => $page:path) => {
        $(#[$doc])*
        #[wasm_split($module, wasm_split_path = ::leptos::wasm_split, fallible)]
        pub fn $name() -> Result<AnyView, PageNotLoaded> {
            // Built untracked, as `view!` builds a component: the signals the page reads while it is
            // built belong to its own views, not to whatever polls this future.
            Ok(untrack(|| $page().into_any()))
        }
    };
}

split_page!(
    /// `/launch/:token`: the curve, the chart, the trade panel and the pool's v4 swaps.
    token: token_page => super::launch::TokenPage
);
split_page!(
    /// `/score`: the epoch check, the intake re-run and the proofs (secp256k1, MessagePack).
    verification: score_page => super::score::ScorePage
);
split_page!(
    /// `/payouts`: payout rounds and their snapshots checked at the round's block.
    payouts: payouts_page => super::payouts::PayoutsPage
);
split_page!(
    /// `/scorer`: positions, theses and the scorer pools.
    scorer: scorer_page => super::scorer::ScorerPage
);
split_page!(
    /// `/duel`: the list of duels.
    duels: duel_list => super::duel::DuelList
);
split_page!(
    /// `/duel/:id`: a duel's rounds, replayed from its swaps.
    duels: duel_page => super::duel::DuelPage
);
split_page!(
    /// `/calls`: agents' price calls.
    calls: calls_page => super::calls::CallsPage
);
split_page!(
    /// `/verify`: a publication checked by hand.
    verification: verify_page => super::verify::VerifyPage
);
split_page!(
    /// `/network`: the deployment the app reads.
    verification: network_page => super::network::NetworkPage
);
