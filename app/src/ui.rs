//! Shared pieces of the interface: amounts with the exact value on hover, the wallet picker, the
//! network banner and the transaction tray.

use crate::fmt;
use crate::state::{Ctx, Load, TxState};
use crate::wallet::{self, Kind, BURNER_KEYS};
use alloy_primitives::U256;
use leptos::prelude::*;

/// An amount: a few significant digits on screen, the exact value in the `title` (hover).
#[component]
pub fn Amount(
    raw: U256,
    decimals: u8,
    #[prop(into, default = String::new())] unit: String,
    #[prop(default = 5)] sig: usize,
    /// Tiny values with their leading zeros counted ([`fmt::units_compact`]): prices.
    #[prop(optional)]
    compact: bool,
) -> impl IntoView {
    let shown = if compact {
        fmt::units_compact(raw, decimals, sig)
    } else {
        fmt::units(raw, decimals, sig)
    };
    let exact = fmt::units_exact(raw, decimals);
    let title = if unit.is_empty() {
        exact
    } else {
        format!("{exact} {unit}")
    };
    let unit = if unit.is_empty() {
        String::new()
    } else {
        format!(" {unit}")
    };
    view! { <span class="amount" title=title>{shown}{unit}</span> }
}

/// " ≈ $1,234.56" for `wei` of the native currency, from the deployment's ETH/USD feed; nothing
/// without a feed or while its answer is stale ([`crate::chain::usd`]).
#[component]
pub fn Usd(wei: U256) -> impl IntoView {
    let ctx = Ctx::get();
    move || {
        let p = ctx.usd.get()?;
        let now = ctx.chain_now();
        p.fresh(now).then(|| {
            let title = format!(
                "at {} per ETH, the deployment's ETH/USD feed, {} old",
                crate::chain::usd::dollars(p.cents_down(U256::from(10u64).pow(U256::from(18u8))), true),
                fmt::duration(now.saturating_sub(p.updated_at))
            );
            view! { <span class="usd" title=title>{format!(" ≈ {}", crate::chain::usd::dollars(p.cents_down(wei), !wei.is_zero()))}</span> }
        })
    }
}

/// "Loading…" placeholder.
#[component]
pub fn Loading(#[prop(into, default = "Loading…".to_string())] what: String) -> impl IntoView {
    view! { <p class="loading" role="status"><span class="spinner" aria-hidden="true"></span>{what}</p> }
}

/// An error in plain words.
#[component]
pub fn ErrorBox(#[prop(into)] message: String) -> impl IntoView {
    view! { <div class="result error" role="alert">{message}</div> }
}

/// What an `ErrorBoundary` caught, in words, with a Retry button that runs the page's reads again
/// (the fallback of every page's boundary).
pub fn caught(errors: ArcRwSignal<leptos::error::Errors>) -> impl IntoView {
    move || {
        let message = errors.with(|es| {
            es.iter()
                .map(|(_, e)| e.to_string())
                .collect::<Vec<_>>()
                .join("; ")
        });
        view! { <Failed message=message /> }
    }
}

/// A failed read in words, with a Retry button that runs the page's reads again ([`Ctx::retry`]).
#[component]
pub fn Failed(#[prop(into)] message: String) -> impl IntoView {
    let ctx = Ctx::get();
    view! {
        <ErrorBox message=message />
        <p><button class="secondary retry" on:click=move |_| ctx.retry()>"Retry"</button></p>
    }
}

/// Renders the world's load state; `f` only runs once it is ready.
pub fn with_world<V: IntoView + 'static>(
    f: impl Fn(crate::chain::world::World) -> V + Send + Sync + 'static,
) -> impl IntoView {
    let ctx = Ctx::get();
    move || {
        match ctx.world.get() {
        Load::Loading => view! { <Loading what="Connecting to the chain…" /> }.into_any(),
        Load::Failed(e) => view! {
            <ErrorBox message=e />
            <p>
                <button class="secondary retry" id="retry-network" on:click=move |_| ctx.load_world()>"Retry"</button>
                " "<a href="/network" id="to-network">"Choose another network, or fix this one's RPC URL"</a>
            </p>
        }.into_any(),
        Load::Ready(w) => f(w).into_any(),
    }
    }
}

#[component]
pub fn WalletButton() -> impl IntoView {
    let ctx = Ctx::get();
    let open = RwSignal::new(false);
    let label = move || {
        let w = ctx.wallet.get();
        match (&w.kind, w.account) {
            (Some(Kind::Burner(i)), Some(a)) => format!(
                "Burner #{} · {}",
                i + 1,
                fmt::short_addr(&a.to_checksum(None))
            ),
            (Some(Kind::Injected { name, .. }), Some(a)) => {
                format!("{name} · {}", fmt::short_addr(&a.to_checksum(None)))
            }
            _ => "Connect wallet".to_string(),
        }
    };
    let local = move || matches!(ctx.world.get(), Load::Ready(w) if w.is_local_dev());
    let local_chain = move || match ctx.world.get_untracked() {
        Load::Ready(w) => Some(w.chain_id),
        _ => None,
    };
    view! {
        <div class="wallet">
            <button class="secondary" id="wallet-button" on:click=move |_| open.update(|o| *o = !*o)>{label}</button>
            <Show when=move || open.get()>
                <div class="picker" role="dialog" aria-label="Choose a wallet">
                    <h2>"Choose a wallet"</h2>
                    <Show when=local>
                        <p class="hint">"Burner wallet: an anvil dev key, kept in this tab's session storage. Local chain only: never use it for real funds."</p>
                        <div class="burners">
                            {(0..BURNER_KEYS.len()).map(|i| view! {
                                <button class="secondary burner" id=format!("burner-{}", i + 1)
                                    on:click=move |_| { wallet::connect_burner(ctx.wallet_handle(), i, local_chain()); open.set(false); }>
                                    {format!("Burner · dev account {}", i + 1)}
                                </button>
                            }).collect_view()}
                        </div>
                    </Show>
                    <p class="hint">"Browser wallets (EIP-6963):"</p>
                    {move || {
                        let ps = ctx.wallet.get().providers;
                        if ps.is_empty() {
                            view! { <p class="muted">"No browser wallet found."</p> }.into_any()
                        } else {
                            ps.into_iter().map(|p| {
                                let (uuid, name) = (p.uuid.clone(), p.name.clone());
                                view! {
                                    <button class="secondary injected" on:click=move |_| {
                                        let (u, n) = (uuid.clone(), name.clone());
                                        open.set(false);
                                        leptos::task::spawn_local(wallet::connect_injected(ctx.wallet_handle(), u, n));
                                    }>{p.name.clone()}</button>
                                }
                            }).collect_view().into_any()
                        }
                    }}
                    <Show when=move || ctx.wallet.get().kind.is_some()>
                        <button class="secondary" id="disconnect" on:click=move |_| { wallet::disconnect(ctx.wallet_handle()); open.set(false); }>"Disconnect"</button>
                    </Show>
                </div>
            </Show>
        </div>
    }
}

/// The network in use, linking to the Network page.
#[component]
pub fn NetworkLink() -> impl IntoView {
    let ctx = Ctx::get();
    let label = move || match ctx.world.get() {
        Load::Loading => "Network…".to_string(),
        Load::Failed(_) => "Network: not connected".to_string(),
        Load::Ready(w) => w.description().name.clone(),
    };
    let class = move || match ctx.world.get() {
        Load::Failed(_) => "network-link failed",
        _ => "network-link",
    };
    view! { <a href="/network" id="network-link" class=class title="Choose the network">{label}</a> }
}

/// Wrong network, wallet messages.
#[component]
pub fn NetworkBanner() -> impl IntoView {
    let ctx = Ctx::get();
    let wrong = move || {
        let w = ctx.wallet.get();
        match (ctx.world.get(), w.kind.is_some(), w.chain_id) {
            (Load::Ready(world), true, chain) if chain != Some(world.chain_id) => {
                Some((world.chain_id, chain))
            }
            _ => None,
        }
    };
    view! {
        {move || wrong().map(|(want, have)| view! {
            <div class="banner warn" id="wrong-chain" role="alert">
                {format!("Your wallet is on chain {}; Eden here runs on chain {want}. ", have.map_or("?".to_string(), |c| c.to_string()))}
                <button class="primary" id="switch-chain" on:click=move |_| { if let Some(c) = ctx.chain_params() { leptos::task::spawn_local(wallet::switch_chain(ctx.wallet_handle(), c)) } }>"Switch network"</button>
            </div>
        })}
        {move || ctx.wallet.get().message.map(|m| view! { <div class="banner info" id="wallet-message" role="status">{m}</div> })}
    }
}

/// Writes `text` to the clipboard (`navigator.clipboard.writeText`); whether it was accepted.
async fn write_clipboard(text: String) -> bool {
    let Some(win) = web_sys::window() else {
        return false;
    };
    let get = |o: &wasm_bindgen::JsValue, k: &str| js_sys::Reflect::get(o, &k.into()).ok();
    let Some(clip) = get(&win.into(), "navigator").and_then(|n| get(&n, "clipboard")) else {
        return false;
    };
    let Some(f) = get(&clip, "writeText")
        .and_then(|f| wasm_bindgen::JsCast::dyn_into::<js_sys::Function>(f).ok())
    else {
        return false;
    };
    match f.call1(&clip, &text.into()) {
        Ok(p) => match wasm_bindgen::JsCast::dyn_into::<js_sys::Promise>(p) {
            Ok(p) => wasm_bindgen_futures::JsFuture::from(p).await.is_ok(),
            Err(_) => false,
        },
        Err(_) => false,
    }
}

/// A button that copies `text` (an address) and says so, or that it could not.
#[component]
pub fn CopyButton(text: String, #[prop(into)] id: String) -> impl IntoView {
    let said = RwSignal::new(None::<bool>);
    let t = StoredValue::new(text);
    view! {
        <button class="secondary small copy" id=id aria-label="Copy the address" on:click=move |_| {
            let text = t.get_value();
            leptos::task::spawn_local(async move { said.set(Some(write_clipboard(text).await)) });
        }>{move || match said.get() { None => "Copy", Some(true) => "Copied ✓", Some(false) => "Copy failed" }}</button>
    }
}

/// The latest transaction's state in view on every width (#42 item 5): a small sheet fixed at the
/// bottom of the window while it is being simulated, signed or mined, and for 8 seconds after it
/// ends (confirmed, failed, cancelled or stopped by its simulation). It never takes a click (the
/// page under it stays usable). The tray keeps the whole history; this only makes sure nobody has
/// to scroll to learn what happened.
#[component]
pub fn TxToast() -> impl IntoView {
    let ctx = Ctx::get();
    // (id, state words, css class, final)
    let latest = Memo::new(move |_| {
        let me = ctx.wallet.get().account;
        ctx.txs.with(|t| {
            t.iter()
                .rev()
                .find(|e| me.is_none() || e.account.is_none() || e.account == me)
                .map(|e| {
                    let (class, words, done) = toast_words(&e.state);
                    (e.id, e.label.clone(), words, class, done)
                })
        })
    });
    // The (id, final) that timed out: hidden until the next change.
    let hidden = RwSignal::new(None::<(u64, bool)>);
    Effect::new(move |_| {
        if let Some((id, _, _, _, true)) = latest.get() {
            set_timeout(
                move || hidden.set(Some((id, true))),
                std::time::Duration::from_secs(8),
            );
        }
    });
    view! {
        {move || latest.get().filter(|(id, .., done)| hidden.get() != Some((*id, *done))).map(|(_, label, words, class, _)| view! {
            <div class=format!("toast {class}") id="tx-toast" role="status" aria-live="polite" data-state=class>
                <span><strong>{label}</strong>" — "{words}</span>
            </div>
        })}
    }
}

/// A transaction state as the toast says it: (css class, words, whether it is final).
fn toast_words(s: &TxState) -> (&'static str, String, bool) {
    match s {
        TxState::Simulating => ("pending", "checking it would succeed…".into(), false),
        TxState::AwaitingSignature => ("pending", "waiting for your signature…".into(), false),
        TxState::Pending(_) => (
            "pending",
            "submitted, waiting to be confirmed…".into(),
            false,
        ),
        TxState::Confirmed(_, b) => ("confirmed", format!("confirmed in block {b}"), true),
        TxState::Failed(m) => ("failed", format!("failed: {m}"), true),
        TxState::WouldRevert(r) => ("failed", format!("not sent, it would fail: {r}"), true),
        TxState::Cancelled => ("cancelled", "cancelled".into(), true),
    }
}

/// The connected account's transactions and their states, kept in the browser across reloads; lives
/// above the router, so it survives navigation.
/// It has its own place in the layout (a column beside the page on wide screens, below it on
/// narrower ones), so it never covers content or controls; empty, it shows only in the column.
#[component]
pub fn TxTray() -> impl IntoView {
    let ctx = Ctx::get();
    let folded = RwSignal::new(false);
    // The connected account's history (every entry when none is connected); entries from before
    // an account was known show to everyone.
    let mine = move || {
        let me = ctx.wallet.get().account;
        ctx.txs.with(|t| {
            t.iter()
                .filter(|e| me.is_none() || e.account.is_none() || e.account == me)
                .cloned()
                .collect::<Vec<_>>()
        })
    };
    let empty = move || mine().is_empty();
    view! {
        <aside class=move || match (empty(), folded.get()) { (true, _) => "txs empty", (false, true) => "txs folded", (false, false) => "txs" } aria-label="Transactions">
            <h2>
                {move || if empty() { "Transactions".to_string() } else { format!("Transactions ({})", mine().len()) }}
                <Show when=move || !empty()>
                    <button class="secondary small" id="fold-txs" aria-expanded=move || (!folded.get()).to_string()
                        on:click=move |_| folded.update(|f| *f = !*f)>{move || if folded.get() { "Show" } else { "Hide" }}</button>
                </Show>
            </h2>
            <Show when=empty>
                <p class="empty-note">"Nothing sent yet. Each transaction shows here from simulation to confirmation."</p>
            </Show>
                <ul hidden=move || folded.get()>
                    {move || mine().into_iter().rev().map(|t| {
                        let (class, text) = match &t.state {
                            TxState::Simulating => ("pending", "simulating…".to_string()),
                            TxState::WouldRevert(r) => ("failed", format!("would revert, not sent: {r}")),
                            TxState::AwaitingSignature => ("pending", "waiting for your signature…".to_string()),
                            TxState::Cancelled => ("cancelled", "cancelled".to_string()),
                            TxState::Pending(h) => ("pending", format!("pending {}", fmt::short_addr(&h.to_string()))),
                            TxState::Confirmed(h, b) => ("confirmed", format!("confirmed in block {b} ({})", fmt::short_addr(&h.to_string()))),
                            TxState::Failed(m) => ("failed", format!("failed: {m}")),
                        };
                        view! { <li class=format!("tx {class}") data-state=class><strong>{t.label.clone()}</strong>" — "{text}</li> }
                    }).collect_view()}
                </ul>
        </aside>
    }
}
