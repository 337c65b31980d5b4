//! The routed pages in WebAssembly modules of their own, each fetched the first time its route opens (D11).
//!
//! The initial module holds the shell, the wallet, the chain layer and the launch list (`/`, `/launch`);
//! every other page is a split point here, in six modules; parts of pages that their first paint does without
//! are split points where their code is (listed in [`crate::split_point`]). Steps:
//!  1. `#[wasm_split]` (`wasm_split_helpers`, the mechanism behind Leptos's `#[lazy]`) makes each function
//!     below `async` and, in a wasm build, an import the build fills in later;
//!  2. `scripts/build-app.mjs` (Trunk's post-build hook) links the release build with its relocations and
//!     cuts it at these imports with `wasm-split-cli`: a page's code, and whatever only it uses (the Score
//!     page's verification, the duel replay, the v4 swap quotes), goes to that page's module; code two pages
//!     share goes to a module both fetch;
//!  3. [`super::deferred::deferred`] shows "Loading this page…" until the modules have arrived and been instantiated, then the
//!     page, built once. The split points are `fallible`: a failed download is a [`PageNotLoaded`] with a button that
//!     tries again (nothing is cached of a failure), never a panic, which would stop the whole app.
//!
//! Outside a wasm build (native tests, clippy) each function is called directly.

use super::deferred::PageNotLoaded;
use crate::split_point::on_demand;
use leptos::prelude::*;

/// One split point: `$name` loads module `$module`, then builds `$page`. Pages that share most of their
/// code share a module (a duel and the list of duels; the Score, Verify and Network pages): every module
/// more is a set of modules of shared code more, each one more request on the page's first visit.
macro_rules! split_page {
    ($(#[$doc:meta])* $module:ident: $name:ident => $page:path) => {
        on_demand! {
            $(#[$doc])*
            $module: pub fn $name() -> Result<AnyView, PageNotLoaded> {
                // Built untracked, as `view!` builds a component: the signals the page reads while it is
                // built belong to its own views, not to whatever polls this future.
                Ok(untrack(|| $page().into_any()))
            }
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
