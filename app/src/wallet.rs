//! Wallets: EIP-6963 discovery of injected wallets, EIP-1193 requests, `accountsChanged` /
//! `chainChanged`, switching (or adding) the chain, and on the local chain a built-in **burner
//! wallet**: a published anvil dev key kept in session storage that signs EIP-1559 transactions in
//! the page ([`crate::tx`]). This layer knows only its own state ([`Wallet`]); transactions go
//! through the pipeline in [`crate::send`], which simulates each one before anything is signed.

use alloy_primitives::{address, b256, Address, B256};
use gloo_storage::{SessionStorage, Storage};
use leptos::prelude::*;
use serde_json::{json, Value};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Anvil's published dev keys (mnemonic "test test … junk"), accounts 1–4: for the local chain only.
pub const BURNER_KEYS: [B256; 4] = [
    b256!("59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"),
    b256!("5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a"),
    b256!("7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6"),
    b256!("47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a"),
];
/// Their addresses, as anvil publishes them (checked against [`address_of`] in the tests): the account is
/// known without deriving it, so the initial module carries no secp256k1 arithmetic (issue 39); signing
/// comes with the pages that send.
pub const BURNER_ACCOUNTS: [Address; 4] = [
    address!("70997970C51812dc3A010C7d01b50e0d17dc79C8"),
    address!("3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"),
    address!("90F79bf6EB2c4f870365E785982E1f101E93b906"),
    address!("15d34AAf54267DB7D7c367839AAf71A00a2C6A65"),
];
const BURNER_STORAGE_KEY: &str = "eden.burner";

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// Anvil dev account `index + 1`.
    Burner(usize),
    /// An injected wallet, by EIP-6963 uuid.
    Injected { uuid: String, name: String },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderInfo {
    pub uuid: String,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WalletState {
    pub kind: Option<Kind>,
    pub account: Option<Address>,
    pub chain_id: Option<u64>,
    pub providers: Vec<ProviderInfo>,
    pub message: Option<String>,
}

thread_local! {
    static PROVIDERS: RefCell<Vec<(String, JsValue)>> = const { RefCell::new(Vec::new()) };
}

/// An EIP-1193 failure.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WalletError {
    /// 4001: the person said no.
    #[error("cancelled in the wallet")]
    Cancelled,
    /// 4902: the wallet does not know the chain.
    #[error("the wallet does not know this chain")]
    UnknownChain,
    /// The burner could not sign (its signer's module did not download, or the key is invalid).
    #[error(transparent)]
    Sign(#[from] crate::tx::SignError),
    /// Anything else, in the wallet's words.
    #[error("{0}")]
    Other(String),
}

/// Classifies an EIP-1193 error by its `code` (4001 = rejected by the person, 4902 = unknown chain).
pub fn classify(code: Option<i64>, message: String) -> WalletError {
    match code {
        Some(4001) => WalletError::Cancelled,
        Some(4902) => WalletError::UnknownChain,
        _ => WalletError::Other(message),
    }
}

fn provider(uuid: &str) -> Option<JsValue> {
    PROVIDERS.with(|p| {
        p.borrow()
            .iter()
            .find(|(u, _)| u == uuid)
            .map(|(_, v)| v.clone())
    })
}

/// `provider.request({method, params})`.
pub async fn request(uuid: &str, method: &str, params: Value) -> Result<Value, WalletError> {
    let p = provider(uuid)
        .ok_or_else(|| WalletError::Other("the wallet is gone; pick it again".into()))?;
    let args = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&args, &"method".into(), &method.into());
    let params = js_sys::JSON::parse(&params.to_string()).unwrap_or(JsValue::UNDEFINED);
    let _ = js_sys::Reflect::set(&args, &"params".into(), &params);
    let f: js_sys::Function = js_sys::Reflect::get(&p, &"request".into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(|| WalletError::Other("not an EIP-1193 provider".into()))?;
    let promise: js_sys::Promise = f
        .call1(&p, &args)
        .map_err(|e| WalletError::Other(format!("{e:?}")))?
        .dyn_into()
        .map_err(|_| WalletError::Other("request did not return a promise".into()))?;
    match JsFuture::from(promise).await {
        Ok(v) => {
            let s = js_sys::JSON::stringify(&v)
                .ok()
                .and_then(|s| s.as_string())
                .unwrap_or_else(|| "null".into());
            Ok(serde_json::from_str(&s).unwrap_or(Value::Null))
        }
        Err(e) => {
            let code = js_sys::Reflect::get(&e, &"code".into())
                .ok()
                .and_then(|c| c.as_f64())
                .map(|c| c as i64);
            let msg = js_sys::Reflect::get(&e, &"message".into())
                .ok()
                .and_then(|m| m.as_string())
                .unwrap_or_else(|| "wallet error".into());
            Err(classify(code, msg))
        }
    }
}

/// Signs EIP-712 typed data with the connected wallet: the burner signs `digest` (the typed data's
/// signing hash) in the page; an injected wallet is asked `eth_signTypedData_v4` with `typed`, so
/// it shows the person every field. A `v` of 0 or 1 from a wallet is moved to 27 or 28.
///
/// # Errors
/// No wallet, a refusal ([`WalletError::Cancelled`]) or an answer that is not a 65-byte signature.
pub async fn sign_typed_data(
    state: &WalletState,
    typed: &Value,
    digest: B256,
) -> Result<Vec<u8>, WalletError> {
    let account = state
        .account
        .ok_or_else(|| WalletError::Other("connect a wallet first".into()))?;
    match &state.kind {
        Some(Kind::Burner(i)) => {
            let key = BURNER_KEYS
                .get(*i)
                .ok_or_else(|| WalletError::Other("no such burner account".into()))?;
            Ok(crate::tx::sign_typed(*key, digest).await?.to_vec())
        }
        Some(Kind::Injected { uuid, .. }) => {
            let answer = request(
                uuid,
                "eth_signTypedData_v4",
                json!([account.to_string(), typed.to_string()]),
            )
            .await?;
            let hex = answer
                .as_str()
                .ok_or_else(|| WalletError::Other("the wallet answered no signature".into()))?;
            let mut sig = alloy_primitives::hex::decode(hex)
                .map_err(|_| WalletError::Other("the wallet's signature is not hex".into()))?;
            if sig.len() != 65 {
                return Err(WalletError::Other(format!(
                    "the wallet's signature is {} bytes, not 65",
                    sig.len()
                )));
            }
            if sig[64] < 2 {
                sig[64] += 27;
            }
            Ok(sig)
        }
        None => Err(WalletError::Other("connect a wallet first".into())),
    }
}

/// Starts EIP-6963 discovery and restores a burner wallet from session storage.
pub fn init(ctx: Wallet) {
    let Some(win) = web_sys::window() else { return };
    let on_announce =
        Closure::<dyn FnMut(web_sys::CustomEvent)>::new(move |ev: web_sys::CustomEvent| {
            let detail = ev.detail();
            let info = js_sys::Reflect::get(&detail, &"info".into()).unwrap_or(JsValue::UNDEFINED);
            let get = |k: &str| {
                js_sys::Reflect::get(&info, &k.into())
                    .ok()
                    .and_then(|v| v.as_string())
                    .unwrap_or_default()
            };
            let (uuid, name) = (get("uuid"), get("name"));
            let Ok(p) = js_sys::Reflect::get(&detail, &"provider".into()) else {
                return;
            };
            if uuid.is_empty() || p.is_undefined() {
                return;
            }
            let fresh = PROVIDERS.with(|ps| {
                let mut ps = ps.borrow_mut();
                if ps.iter().any(|(u, _)| *u == uuid) {
                    false
                } else {
                    ps.push((uuid.clone(), p));
                    true
                }
            });
            if fresh {
                ctx.wallet
                    .update(|w| w.providers.push(ProviderInfo { uuid, name }));
            }
        });
    let _ = win.add_event_listener_with_callback(
        "eip6963:announceProvider",
        on_announce.as_ref().unchecked_ref(),
    );
    on_announce.forget();
    if let Ok(ev) = web_sys::CustomEvent::new("eip6963:requestProvider") {
        let _ = win.dispatch_event(&ev);
    }
    if let Ok(i) = SessionStorage::get::<usize>(BURNER_STORAGE_KEY) {
        connect_burner(ctx, i, None);
    }
}

/// Uses burner account `index` (anvil dev account `index + 1`) on the local chain `chain_id` (the
/// burner signs for whatever local dev chain the app is connected to; `None` until it is known).
pub fn connect_burner(ctx: Wallet, index: usize, chain_id: Option<u64>) {
    let Some(&account) = BURNER_ACCOUNTS.get(index) else {
        return;
    };
    let _ = SessionStorage::set(BURNER_STORAGE_KEY, index);
    ctx.wallet.update(|w| {
        w.kind = Some(Kind::Burner(index));
        w.account = Some(account);
        w.chain_id = chain_id;
        w.message = None;
    });
    ctx.bump();
}

pub fn disconnect(ctx: Wallet) {
    SessionStorage::delete(BURNER_STORAGE_KEY);
    ctx.wallet.update(|w| {
        w.kind = None;
        w.account = None;
        w.chain_id = None;
        w.message = None;
    });
    ctx.bump();
}

fn parse_chain(v: &Value) -> Option<u64> {
    v.as_str()
        .and_then(|s| u64::from_str_radix(s.trim_start_matches("0x"), 16).ok())
}

fn parse_account(v: &Value) -> Option<Address> {
    v.as_array()
        .and_then(|a| a.first())
        .and_then(Value::as_str)
        .and_then(|s| s.parse().ok())
}

/// Connects an injected wallet: asks for accounts, reads the chain, follows its events.
pub async fn connect_injected(ctx: Wallet, uuid: String, name: String) {
    let accounts = match request(&uuid, "eth_requestAccounts", json!([])).await {
        Ok(a) => a,
        Err(e) => {
            ctx.wallet
                .update(|w| w.message = Some(format!("{name}: {e}")));
            return;
        }
    };
    let chain = request(&uuid, "eth_chainId", json!([]))
        .await
        .ok()
        .and_then(|c| parse_chain(&c));
    ctx.wallet.update(|w| {
        w.kind = Some(Kind::Injected {
            uuid: uuid.clone(),
            name: name.clone(),
        });
        w.account = parse_account(&accounts);
        w.chain_id = chain;
        w.message = None;
    });
    SessionStorage::delete(BURNER_STORAGE_KEY);
    ctx.bump();
    if let Some(p) = provider(&uuid) {
        if let Ok(on) =
            js_sys::Reflect::get(&p, &"on".into()).and_then(|f| f.dyn_into::<js_sys::Function>())
        {
            let u1 = uuid.clone();
            let accounts_changed = Closure::<dyn FnMut(JsValue)>::new(move |v: JsValue| {
                let s = js_sys::JSON::stringify(&v)
                    .ok()
                    .and_then(|s| s.as_string())
                    .unwrap_or_default();
                let account = serde_json::from_str::<Value>(&s)
                    .ok()
                    .and_then(|v| parse_account(&v));
                ctx.wallet.update(|w| {
                    if matches!(&w.kind, Some(Kind::Injected { uuid, .. }) if *uuid == u1) {
                        w.account = account;
                        if account.is_none() {
                            w.kind = None;
                        }
                    }
                });
                ctx.bump();
            });
            let u2 = uuid.clone();
            let chain_changed = Closure::<dyn FnMut(JsValue)>::new(move |v: JsValue| {
                let chain = v
                    .as_string()
                    .and_then(|s| u64::from_str_radix(s.trim_start_matches("0x"), 16).ok());
                ctx.wallet.update(|w| {
                    if matches!(&w.kind, Some(Kind::Injected { uuid, .. }) if *uuid == u2) {
                        w.chain_id = chain;
                    }
                });
                ctx.bump();
            });
            let _ = on.call2(&p, &"accountsChanged".into(), accounts_changed.as_ref());
            let _ = on.call2(&p, &"chainChanged".into(), chain_changed.as_ref());
            accounts_changed.forget();
            chain_changed.forget();
        }
    }
}

/// The chain a wallet is asked to switch to, or to add (EIP-3085 `wallet_addEthereumChain`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainParams {
    pub chain_id: u64,
    pub name: String,
    pub rpc_urls: Vec<String>,
    pub currency_name: String,
    pub currency_symbol: String,
    pub currency_decimals: u8,
    pub explorer_url: Option<String>,
}

impl ChainParams {
    /// The EIP-3085 `wallet_addEthereumChain` parameter.
    pub fn add_chain_param(&self) -> Value {
        let mut p = json!({
            "chainId": format!("{:#x}", self.chain_id),
            "chainName": self.name,
            "rpcUrls": self.rpc_urls,
            "nativeCurrency": { "name": self.currency_name, "symbol": self.currency_symbol, "decimals": self.currency_decimals },
        });
        if let Some(e) = &self.explorer_url {
            p["blockExplorerUrls"] = json!([e]);
        }
        p
    }
}

/// The wallet layer's handle: the wallet's state, and the counter it bumps when the account or
/// chain changes (pages re-read the chain). It knows nothing else of the app.
#[derive(Clone, Copy)]
pub struct Wallet {
    pub wallet: RwSignal<WalletState>,
    pub changed: RwSignal<u64>,
}

impl Wallet {
    fn bump(&self) {
        self.changed.update(|c| *c += 1);
    }
}

/// Asks the injected wallet to switch to `chain`, adding it when the wallet does not know it.
pub async fn switch_chain(ctx: Wallet, chain: ChainParams) {
    let Some(Kind::Injected { uuid, .. }) = ctx.wallet.get_untracked().kind else {
        return;
    };
    let hex_id = format!("{:#x}", chain.chain_id);
    let r = match request(
        &uuid,
        "wallet_switchEthereumChain",
        json!([{ "chainId": hex_id }]),
    )
    .await
    {
        Err(WalletError::UnknownChain) => {
            request(
                &uuid,
                "wallet_addEthereumChain",
                json!([chain.add_chain_param()]),
            )
            .await
        }
        other => other,
    };
    match r {
        Ok(_) => {
            let chain = request(&uuid, "eth_chainId", json!([]))
                .await
                .ok()
                .and_then(|c| parse_chain(&c));
            ctx.wallet.update(|w| {
                w.chain_id = chain;
                w.message = None;
            });
            ctx.bump();
        }
        Err(e) => ctx
            .wallet
            .update(|w| w.message = Some(format!("switching network: {e}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tx::address_of;

    #[test]
    fn burner_keys_are_dev_accounts_1_to_4() {
        let want = [
            "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
            "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
            "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
            "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
        ];
        for ((k, a), w) in BURNER_KEYS.iter().zip(BURNER_ACCOUNTS).zip(want) {
            assert_eq!(address_of(k).unwrap().to_checksum(None), w);
            assert_eq!(a.to_checksum(None), w);
        }
    }

    #[test]
    fn a_chain_is_added_with_the_descriptions_own_parameters() {
        let p = ChainParams {
            chain_id: 31338,
            name: "Second anvil".into(),
            rpc_urls: vec!["http://127.0.0.1:9545".into()],
            currency_name: "Ether".into(),
            currency_symbol: "ETH".into(),
            currency_decimals: 18,
            explorer_url: None,
        };
        assert_eq!(
            p.add_chain_param(),
            json!({ "chainId": "0x7a6a", "chainName": "Second anvil", "rpcUrls": ["http://127.0.0.1:9545"],
                    "nativeCurrency": { "name": "Ether", "symbol": "ETH", "decimals": 18 } })
        );
        let p = ChainParams {
            explorer_url: Some("https://scan.example.org".into()),
            ..p
        };
        assert_eq!(
            p.add_chain_param()["blockExplorerUrls"],
            json!(["https://scan.example.org"])
        );
    }

    #[test]
    fn error_codes() {
        assert_eq!(
            classify(Some(4001), "User rejected".into()),
            WalletError::Cancelled
        );
        assert_eq!(classify(Some(4902), "x".into()), WalletError::UnknownChain);
        assert_eq!(
            classify(Some(-32603), "boom".into()),
            WalletError::Other("boom".into())
        );
        assert_eq!(
            WalletError::Cancelled.to_string(),
            "cancelled in the wallet"
        );
    }
}
