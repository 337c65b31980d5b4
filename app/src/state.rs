//! App-wide state, provided as a Leptos context: the loaded network (`crate::chain::world`), chain
//! time, the wallet and the transaction log (which lives here, above the router, so it survives
//! navigation).

use crate::chain::world::{wall_now, World};
use crate::error::AppError;
use alloy_primitives::{Address, B256};
use gloo_storage::{LocalStorage, Storage};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// Something loading, loaded or failed (every page shows all three).
#[derive(Debug, Clone, PartialEq)]
pub enum Load<T> {
    Loading,
    Ready(T),
    Failed(AppError),
}

/// A transaction's life, shown in the transaction tray.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TxState {
    Simulating,
    /// The simulation reverted: never signed.
    WouldRevert(String),
    AwaitingSignature,
    Cancelled,
    Pending(B256),
    Confirmed(B256, u64),
    Failed(String),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TxEntry {
    pub id: u64,
    pub label: String,
    pub state: TxState,
    /// The sending account and chain (the tray shows the connected account's history).
    #[serde(default)]
    pub account: Option<Address>,
    #[serde(default)]
    pub chain_id: Option<u64>,
    /// The transaction's nonce once sent: a later transaction of the account with the same nonce
    /// replaced it (sped up or cancelled in the wallet).
    #[serde(default)]
    pub nonce: Option<u64>,
    /// The latest block when it was sent (where a replacement is looked for).
    #[serde(default)]
    pub sent_block: Option<u64>,
    /// Replaced in the wallet by a cancellation: its receipt ends the entry as cancelled.
    #[serde(default)]
    pub cancelled: bool,
}

impl TxEntry {
    /// A new entry in its first state.
    pub fn new(id: u64, label: String) -> Self {
        Self {
            id,
            label,
            state: TxState::Simulating,
            account: None,
            chain_id: None,
            nonce: None,
            sent_block: None,
            cancelled: false,
        }
    }
}

/// The read the route being opened makes first (D11, "Reads sent early"): the launch list's at `/` and
/// `/launch`, nothing elsewhere (their pages read in a module of their own, after it has arrived).
fn first_read() -> crate::chain::world::FirstRead {
    use crate::chain::world::FirstRead;
    let path = window().location().pathname().unwrap_or_default();
    match path.trim_end_matches('/') {
        "" | "/launch" => FirstRead::LaunchList,
        _ => FirstRead::None,
    }
}

/// The app context.
#[derive(Clone, Copy)]
pub struct Ctx {
    pub world: RwSignal<Load<World>>,
    /// Chain time minus wall time (seconds), measured at the last refresh: anvil's clock may run ahead.
    pub chain_offset: RwSignal<i64>,
    /// Bumped when a transaction confirms or the wallet changes: pages re-read the chain.
    pub refresh: RwSignal<u64>,
    /// Bumped by a Retry button after a failed read: every read runs again, discoveries included
    /// (which a confirmed transaction does not re-run).
    pub retries: RwSignal<u64>,
    /// One tick a second (countdowns).
    pub tick: RwSignal<u64>,
    pub txs: RwSignal<Vec<TxEntry>>,
    pub wallet: RwSignal<crate::wallet::WalletState>,
    /// The deployment's ETH/USD answer (`None` without a feed), re-read on every refresh.
    pub usd: RwSignal<Option<crate::chain::usd::EthUsd>>,
}

impl Ctx {
    pub fn get() -> Self {
        expect_context::<Ctx>()
    }

    /// Whether a read made for `account` is for the connected account (tracks the wallet). Pages
    /// re-read on a wallet switch; until the new read lands, an older one made for another
    /// account must not be shown as this one's (its rows, its claim buttons).
    pub fn is_connected(&self, account: Option<Address>) -> bool {
        self.wallet.with(|w| w.account == account)
    }

    /// A read for the connected account, tagged with it (`None`: no account connected), made
    /// again after every confirmed transaction and on a wallet switch. A newer read supersedes an
    /// older one; leaving the page drops it.
    pub fn account_read<T, F, Fut>(self, read: F) -> LocalResource<Option<(Address, T)>>
    where
        T: Clone + 'static,
        F: Fn(Address) -> Fut + 'static,
        Fut: std::future::Future<Output = T> + 'static,
    {
        LocalResource::new(move || {
            self.refresh.track();
            let started = self.wallet.get().account.map(|me| (me, read(me)));
            async move {
                let (me, read) = started?;
                Some((me, read.await))
            }
        })
    }

    /// Chain time now (unix seconds), tracking the one-second tick.
    pub fn chain_now(&self) -> u64 {
        self.tick.track();
        u64::try_from(wall_now() + self.chain_offset.get_untracked()).unwrap_or(0)
    }

    /// Chain time now (unix seconds), without following the tick: for a view that must not rebuild
    /// every second.
    pub fn chain_now_untracked(&self) -> u64 {
        u64::try_from(wall_now() + self.chain_offset.get_untracked()).unwrap_or(0)
    }

    /// The wallet layer's handle on this context.
    pub fn wallet_handle(&self) -> crate::wallet::Wallet {
        crate::wallet::Wallet {
            wallet: self.wallet,
            changed: self.refresh,
        }
    }

    /// The loaded network, as a wallet is asked to switch to it (or add it, EIP-3085): the
    /// description's own name, RPC URLs, currency and explorer.
    pub fn chain_params(&self) -> Option<crate::wallet::ChainParams> {
        match self.world.get_untracked() {
            Load::Ready(w) => {
                let d = w.description();
                Some(crate::wallet::ChainParams {
                    chain_id: d.chain_id,
                    name: d.name.clone(),
                    rpc_urls: d.rpc_urls.clone(),
                    currency_name: d.native_currency.name.clone(),
                    currency_symbol: d.native_currency.symbol.clone(),
                    currency_decimals: d.native_currency.decimals,
                    explorer_url: d.explorer_url.clone(),
                })
            }
            _ => None,
        }
    }

    pub fn bump(&self) {
        self.refresh.update(|r| *r += 1);
    }

    /// Runs every read again (a Retry button): the page's reads and its discoveries.
    pub fn retry(&self) {
        self.retries.update(|r| *r += 1);
        self.bump();
    }

    /// Loads the network (D1) and measures the chain clock; on success a burner wallet is kept only
    /// on a local dev chain, and for the chain connected to. Runs at start and from a Retry button.
    pub fn load_world(self) {
        self.world.set(Load::Loading);
        leptos::task::spawn_local(async move {
            match crate::chain::world::load_world(first_read()).await {
                Ok((w, offset)) => {
                    self.chain_offset.set(offset);
                    match self.wallet.get_untracked().kind {
                        Some(crate::wallet::Kind::Burner(i)) if w.is_local_dev() => {
                            crate::wallet::connect_burner(self.wallet_handle(), i, Some(w.chain_id))
                        }
                        Some(crate::wallet::Kind::Burner(_)) => {
                            crate::wallet::disconnect(self.wallet_handle())
                        }
                        _ => {}
                    }
                    self.world.set(Load::Ready(w));
                }
                Err(e) => self.world.set(Load::Failed(e.into())),
            }
        });
    }

    pub fn push_tx(&self, label: String) -> u64 {
        let id = self
            .txs
            .with_untracked(|t| t.iter().map(|e| e.id).max().unwrap_or(0) + 1);
        self.txs.update(|t| t.push(TxEntry::new(id, label)));
        id
    }

    /// Changes entry `id` in place.
    pub fn edit_tx(&self, id: u64, f: impl FnOnce(&mut TxEntry)) {
        self.txs.update(|t| {
            if let Some(e) = t.iter_mut().find(|e| e.id == id) {
                f(e);
            }
        });
    }

    /// Entry `id` as it is now.
    pub fn tx(&self, id: u64) -> Option<TxEntry> {
        self.txs
            .with_untracked(|t| t.iter().find(|e| e.id == id).cloned())
    }

    pub fn set_tx(&self, id: u64, state: TxState) {
        self.txs.update(|t| {
            if let Some(e) = t.iter_mut().find(|e| e.id == id) {
                e.state = state;
            }
        });
    }
}

const TXS_KEY: &str = "eden.txs";
/// Entries kept in the browser (the oldest are dropped first).
pub const TXS_KEPT: usize = 200;

/// The transaction history, kept in local storage: it survives reloads and closed tabs.
pub fn restore_txs() -> Vec<TxEntry> {
    LocalStorage::get(TXS_KEY).unwrap_or_default()
}

/// Saves the newest [`TXS_KEPT`] entries.
pub fn save_txs(txs: &[TxEntry]) {
    let _ = LocalStorage::set(TXS_KEY, &txs[txs.len().saturating_sub(TXS_KEPT)..]);
}
