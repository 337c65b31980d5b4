//! Wallets: EIP-6963 discovery of injected wallets, EIP-1193 requests, `accountsChanged` /
//! `chainChanged`, switching (or adding) the chain, and on the local chain a built-in **burner
//! wallet**: a published anvil dev key kept in session storage that signs EIP-1559 transactions in
//! the page ([`crate::tx`]). Every transaction is simulated (`eth_call`, then `eth_estimateGas`)
//! before anything is signed; a revert reason stops it there.

use crate::abi::IERC20;
use crate::rpc::{Rpc, RpcError, TxRequest};
use crate::state::{Ctx, Load, TxState};
use crate::tx::{address_of, Eip1559};
use alloy_primitives::{b256, Address, B256, U256};
use alloy_sol_types::SolCall;
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
const BURNER_STORAGE_KEY: &str = "eden.burner";
/// The chain id of the local chain, where the burner wallet is offered.
pub const LOCAL_CHAIN_ID: u64 = 31337;

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
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WalletError {
    /// 4001: the person said no.
    Cancelled,
    /// 4902: the wallet does not know the chain.
    UnknownChain,
    Other(String),
}

impl std::fmt::Display for WalletError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Cancelled => write!(f, "cancelled in the wallet"),
            Self::UnknownChain => write!(f, "the wallet does not know this chain"),
            Self::Other(m) => write!(f, "{m}"),
        }
    }
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

/// Starts EIP-6963 discovery and restores a burner wallet from session storage.
pub fn init(ctx: Ctx) {
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
        connect_burner(ctx, i);
    }
}

/// Uses burner account `index` (anvil dev account `index + 1`).
pub fn connect_burner(ctx: Ctx, index: usize) {
    let Some(key) = BURNER_KEYS.get(index) else {
        return;
    };
    let Ok(account) = address_of(key) else { return };
    let _ = SessionStorage::set(BURNER_STORAGE_KEY, index);
    ctx.wallet.update(|w| {
        w.kind = Some(Kind::Burner(index));
        w.account = Some(account);
        w.chain_id = Some(LOCAL_CHAIN_ID);
        w.message = None;
    });
    ctx.bump();
}

pub fn disconnect(ctx: Ctx) {
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
pub async fn connect_injected(ctx: Ctx, uuid: String, name: String) {
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

/// Asks the injected wallet to switch to the app's chain, adding it when the wallet does not know it.
pub async fn switch_chain(ctx: Ctx) {
    let Some(Kind::Injected { uuid, .. }) = ctx.wallet.get_untracked().kind else {
        return;
    };
    let Load::Ready(world) = ctx.world.get_untracked() else {
        return;
    };
    let hex_id = format!("{:#x}", world.chain_id);
    let r = match request(&uuid, "wallet_switchEthereumChain", json!([{ "chainId": hex_id }])).await {
        Err(WalletError::UnknownChain) => {
            request(
                &uuid,
                "wallet_addEthereumChain",
                json!([{ "chainId": hex_id, "chainName": "Eden local chain (anvil)", "rpcUrls": [world.rpc_url],
                         "nativeCurrency": { "name": "Ether", "symbol": "ETH", "decimals": 18 } }]),
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

/// Resolves after `ms` milliseconds (gloo-timers).
pub async fn sleep(ms: u32) {
    gloo_timers::future::TimeoutFuture::new(ms).await;
}

/// Sends an ERC-20 `approve(spender, amount)` for exactly `amount` (never an unlimited approval),
/// labelled "Approve exactly {display}"; returns whether it confirmed.
pub async fn approve_exactly(
    ctx: Ctx,
    token: Address,
    spender: Address,
    amount: U256,
    display: String,
) -> bool {
    let data = IERC20::approveCall {
        spender,
        value: amount,
    }
    .abi_encode();
    send(
        ctx,
        format!("Approve exactly {display}"),
        TxRequest::call(token, data),
    )
    .await
}

/// [`approve_exactly`] only when the connected account's allowance is below `amount`; returns
/// whether the allowance now suffices (true at once when it already did).
pub async fn ensure_allowance(
    ctx: Ctx,
    rpc: &Rpc,
    token: Address,
    spender: Address,
    amount: U256,
    display: String,
) -> bool {
    let owner = ctx.wallet.get_untracked().account.unwrap_or_default();
    let allowance = rpc
        .call(token, &IERC20::allowanceCall { owner, spender })
        .await
        .unwrap_or_default();
    allowance >= amount || approve_exactly(ctx, token, spender, amount, display).await
}

/// Simulates, signs (burner) or asks the wallet to send, and follows a transaction to its receipt.
/// Its states appear in the transaction tray. Returns whether it confirmed.
pub async fn send(ctx: Ctx, label: String, mut tx: TxRequest) -> bool {
    let id = ctx.push_tx(label);
    let Load::Ready(world) = ctx.world.get_untracked() else {
        ctx.set_tx(id, TxState::Failed("the network is not loaded".into()));
        return false;
    };
    let w = ctx.wallet.get_untracked();
    let (Some(kind), Some(from)) = (w.kind.clone(), w.account) else {
        ctx.set_tx(id, TxState::Failed("connect a wallet first".into()));
        return false;
    };
    if w.chain_id != Some(world.chain_id) {
        ctx.set_tx(
            id,
            TxState::Failed(format!(
                "wrong network: switch the wallet to chain {}",
                world.chain_id
            )),
        );
        return false;
    }
    let rpc: Rpc = world.rpc();
    tx.from = Some(from);
    // 1. Simulate: a revert stops here, before any signature.
    if let Err(e) = rpc.call_raw(&tx).await {
        ctx.set_tx(
            id,
            match e {
                RpcError::Revert(r) => TxState::WouldRevert(r),
                other => TxState::Failed(other.to_string()),
            },
        );
        return false;
    }
    let gas = match rpc.estimate_gas(&tx).await {
        Ok(g) => g.saturating_mul(12) / 10,
        Err(RpcError::Revert(r)) => {
            ctx.set_tx(id, TxState::WouldRevert(r));
            return false;
        }
        Err(e) => {
            ctx.set_tx(id, TxState::Failed(e.to_string()));
            return false;
        }
    };
    // 2. Sign and send.
    let hash = match kind {
        Kind::Burner(i) => {
            let Some(key) = BURNER_KEYS.get(i) else {
                // Never leave the tray at "simulating…": every exit sets a final state.
                ctx.set_tx(id, TxState::Failed(format!("no burner account {i}")));
                return false;
            };
            let sent = async {
                let nonce = rpc.nonce(from).await?;
                let price = rpc.gas_price().await?;
                let priority = U256::from(1_000_000_000u64).min(price);
                let raw = Eip1559 {
                    chain_id: world.chain_id,
                    nonce,
                    max_priority_fee_per_gas: priority,
                    max_fee_per_gas: price.saturating_mul(U256::from(2u8)).max(priority),
                    gas_limit: gas,
                    to: tx.to,
                    value: tx.value,
                    data: tx.data.clone(),
                }
                .sign(key)
                .map_err(|e| RpcError::Node(e.to_string()))?;
                rpc.send_raw(&raw).await
            }
            .await;
            match sent {
                Ok(h) => h,
                Err(e) => {
                    ctx.set_tx(id, TxState::Failed(e.to_string()));
                    return false;
                }
            }
        }
        Kind::Injected { uuid, .. } => {
            ctx.set_tx(id, TxState::AwaitingSignature);
            let mut p = tx.to_json();
            p["gas"] = json!(format!("{gas:#x}"));
            match request(&uuid, "eth_sendTransaction", json!([p])).await {
                Ok(v) => match v.as_str().and_then(|s| s.parse::<B256>().ok()) {
                    Some(h) => h,
                    None => {
                        ctx.set_tx(
                            id,
                            TxState::Failed("the wallet returned no transaction hash".into()),
                        );
                        return false;
                    }
                },
                Err(WalletError::Cancelled) => {
                    ctx.set_tx(id, TxState::Cancelled);
                    return false;
                }
                Err(e) => {
                    ctx.set_tx(id, TxState::Failed(e.to_string()));
                    return false;
                }
            }
        }
    };
    ctx.set_tx(id, TxState::Pending(hash));
    follow(ctx, rpc, id, hash).await
}

/// Follows a sent transaction to its receipt and records the outcome.
pub async fn follow(ctx: Ctx, rpc: Rpc, id: u64, hash: B256) -> bool {
    for _ in 0..240 {
        match rpc.receipt(hash).await {
            Ok(Some(r)) => {
                let ok = r.status == U256::from(1u8);
                ctx.set_tx(
                    id,
                    if ok {
                        TxState::Confirmed(hash, u64::try_from(r.block_number).unwrap_or(0))
                    } else {
                        TxState::Failed("reverted on chain".into())
                    },
                );
                ctx.bump();
                return ok;
            }
            Ok(None) => sleep(250).await,
            Err(e) => {
                ctx.set_tx(id, TxState::Failed(e.to_string()));
                return false;
            }
        }
    }
    ctx.set_tx(
        id,
        TxState::Failed("no receipt after a minute; check the chain".into()),
    );
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn burner_keys_are_dev_accounts_1_to_4() {
        let want = [
            "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
            "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
            "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
            "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
        ];
        for (k, w) in BURNER_KEYS.iter().zip(want) {
            assert_eq!(address_of(k).unwrap().to_checksum(None), w);
        }
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
