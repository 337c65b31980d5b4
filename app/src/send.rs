//! The transaction pipeline: every action the app sends goes through [`send`]: simulate (a revert
//! stops it before any signature, its reason in words), estimate gas, sign (burner) or ask the
//! wallet to send, then [`follow`] the hash to its receipt. Each step is a state of the transaction
//! tray, and every exit sets a final state. Approvals are always exact ([`approve_exactly`]).

use crate::chain::abi::IERC20;
use crate::chain::rpc::{Receipt, Rpc, RpcError, TxRequest};
use crate::error::AppError;
use crate::state::{Ctx, Load, TxState};
use crate::tx::Eip1559;
use crate::wallet::{request, Kind, WalletError, BURNER_KEYS};
use alloy_primitives::{Address, B256, U256};
use alloy_sol_types::SolCall;
use leptos::prelude::*;
use serde_json::json;

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

/// Sends `call` to `to` with `value` wei, labelled `label`, through [`send`], in the background
/// (the tray shows its progress); for the buttons whose whole action is one call.
pub fn act(ctx: Ctx, to: Address, label: String, call: impl SolCall, value: U256) {
    let tx = TxRequest::paying(to, call.abi_encode(), value);
    leptos::task::spawn_local(async move {
        send(ctx, label, tx).await;
    });
}

/// Simulates, signs (burner) or asks the wallet to send, and follows a transaction to its receipt.
/// Its states appear in the transaction tray. Returns whether it confirmed.
pub async fn send(ctx: Ctx, label: String, tx: TxRequest) -> bool {
    send_for_receipt(ctx, label, tx).await.is_some()
}

/// [`send`], returning the receipt of a confirmed transaction (`None`: it did not confirm; the
/// tray says why).
pub async fn send_for_receipt(ctx: Ctx, label: String, mut tx: TxRequest) -> Option<Receipt> {
    let id = ctx.push_tx(label);
    let Load::Ready(world) = ctx.world.get_untracked() else {
        ctx.set_tx(id, TxState::Failed("the network is not loaded".into()));
        return None;
    };
    let w = ctx.wallet.get_untracked();
    let (Some(kind), Some(from)) = (w.kind.clone(), w.account) else {
        ctx.set_tx(id, TxState::Failed("connect a wallet first".into()));
        return None;
    };
    if w.chain_id != Some(world.chain_id) {
        ctx.set_tx(
            id,
            TxState::Failed(format!(
                "wrong network: switch the wallet to chain {}",
                world.chain_id
            )),
        );
        return None;
    }
    let rpc: Rpc = world.rpc();
    tx.from = Some(from);
    ctx.edit_tx(id, |e| {
        e.account = Some(from);
        e.chain_id = Some(world.chain_id);
    });
    // 1. Simulate: a revert stops here, before any signature.
    if let Err(e) = rpc.call_raw(&tx).await {
        ctx.set_tx(
            id,
            match e {
                RpcError::Revert(r) => TxState::WouldRevert(r),
                other => TxState::Failed(other.to_string()),
            },
        );
        return None;
    }
    let gas = match rpc.estimate_gas(&tx).await {
        Ok(g) => g.saturating_mul(12) / 10,
        Err(RpcError::Revert(r)) => {
            ctx.set_tx(id, TxState::WouldRevert(r));
            return None;
        }
        Err(e) => {
            ctx.set_tx(id, TxState::Failed(e.to_string()));
            return None;
        }
    };
    // 2. Sign and send (the latest block first: a replacement is looked for from there).
    let sent_block = rpc.block_number().await.ok();
    ctx.edit_tx(id, |e| e.sent_block = sent_block);
    let hash = match kind {
        Kind::Burner(i) => {
            let Some(key) = BURNER_KEYS.get(i) else {
                // Never leave the tray at "simulating…": every exit sets a final state.
                ctx.set_tx(id, TxState::Failed(format!("no burner account {i}")));
                return None;
            };
            let sent = async {
                let nonce = rpc.nonce(from).await?;
                ctx.edit_tx(id, |e| e.nonce = Some(nonce));
                let price = rpc.gas_price().await?;
                let priority = U256::from(1_000_000_000u64).min(price);
                let unsigned = Eip1559 {
                    chain_id: world.chain_id,
                    nonce,
                    max_priority_fee_per_gas: priority,
                    max_fee_per_gas: price.saturating_mul(U256::from(2u8)).max(priority),
                    gas_limit: gas,
                    to: tx.to,
                    value: tx.value,
                    data: tx.data.clone(),
                };
                let raw = crate::tx::sign_raw(unsigned, *key).await?;
                Ok::<_, AppError>(rpc.send_raw(&raw).await?)
            }
            .await;
            match sent {
                Ok(h) => h,
                Err(e) => {
                    ctx.set_tx(id, TxState::Failed(e.to_string()));
                    return None;
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
                        return None;
                    }
                },
                Err(WalletError::Cancelled) => {
                    ctx.set_tx(id, TxState::Cancelled);
                    return None;
                }
                Err(e) => {
                    ctx.set_tx(id, TxState::Failed(e.to_string()));
                    return None;
                }
            }
        }
    };
    ctx.set_tx(id, TxState::Pending(hash));
    follow(ctx, rpc, id, hash).await
}

/// Polls between receipt checks: quick at first, then once a second.
fn poll_ms(attempt: u32) -> u32 {
    if attempt < 40 {
        250
    } else {
        1_000
    }
}

/// Seconds a transaction is followed before the tray says to check the chain.
const FOLLOW_SECS: u32 = 600;

/// The code that follows transactions could not be downloaded ([`follow_restored`]).
#[derive(Debug, Clone, thiserror::Error)]
#[error("the code that follows transactions could not be downloaded ({0})")]
pub struct FollowNotLoaded(String);

impl From<leptos::wasm_split::SplitLoaderError> for FollowNotLoaded {
    fn from(e: leptos::wasm_split::SplitLoaderError) -> Self {
        Self(e.to_string())
    }
}

crate::split_point::on_demand! {
    /// [`follow`] for a transaction still pending when the page was reloaded, in a module of its own (D11):
    /// the shell's first download does without it, since only a reload with a transaction in flight, or a
    /// page that sends (whose module has it), follows one.
    ///
    /// # Errors
    /// [`FollowNotLoaded`] when the module cannot be downloaded; the transaction stays pending in the
    /// tray, and the next load follows it again.
    follow_restored: pub fn follow_restored(
        ctx: Ctx,
        rpc: Rpc,
        id: u64,
        hash: B256,
    ) -> Result<futures::future::LocalBoxFuture<'static, Option<Receipt>>, FollowNotLoaded> {
        Ok(Box::pin(follow(ctx, rpc, id, hash)))
    }
}

/// Follows a sent transaction to its receipt and records the outcome. A transaction replaced in
/// the wallet (sped up or cancelled: another transaction of the account mined with its nonce) is
/// noticed within seconds, and the replacement is followed instead; the tray says which.
pub async fn follow(ctx: Ctx, rpc: Rpc, id: u64, hash: B256) -> Option<Receipt> {
    let mut hash = hash;
    let mut waited_ms: u32 = 0;
    let mut attempt: u32 = 0;
    while waited_ms < FOLLOW_SECS * 1_000 {
        match rpc.receipt(hash).await {
            Ok(Some(r)) => return settle(ctx, id, hash, r),
            Ok(None) => {}
            Err(e) => {
                ctx.set_tx(id, TxState::Failed(e.to_string()));
                return None;
            }
        }
        // Every few polls: has the account's nonce moved past this transaction without it?
        if attempt % 8 == 7 {
            match replacement(ctx, &rpc, id, hash).await {
                Ok(Some((by, cancelled))) => {
                    ctx.edit_tx(id, |e| {
                        e.label.push_str(if cancelled {
                            " (cancelled in the wallet)"
                        } else {
                            " (replaced in the wallet)"
                        });
                        e.cancelled = cancelled;
                        e.state = TxState::Pending(by);
                    });
                    // Followed from here; its receipt settles the entry ([`settle`]).
                    hash = by;
                }
                Ok(None) => {}
                Err(ReplacementError::Gone(nonce)) => {
                    ctx.set_tx(id, TxState::Failed(format!("replaced in the wallet: nonce {nonce} was used by a transaction not found in the recent blocks")));
                    ctx.bump();
                    return None;
                }
                Err(ReplacementError::Rpc) => {}
            }
        }
        let ms = poll_ms(attempt);
        sleep(ms).await;
        waited_ms += ms;
        attempt += 1;
    }
    ctx.set_tx(
        id,
        TxState::Failed(format!(
            "no receipt after {} minutes; check the chain",
            FOLLOW_SECS / 60
        )),
    );
    None
}

/// Records a receipt's outcome.
fn settle(ctx: Ctx, id: u64, hash: B256, r: Receipt) -> Option<Receipt> {
    let ok = r.status == U256::from(1u8);
    let cancelled = ctx.tx(id).is_some_and(|e| e.cancelled);
    ctx.set_tx(
        id,
        match (ok, cancelled) {
            (true, true) => TxState::Cancelled,
            (true, false) => TxState::Confirmed(hash, u64::try_from(r.block_number).unwrap_or(0)),
            (false, _) => TxState::Failed("reverted on chain".into()),
        },
    );
    ctx.bump();
    (ok && !cancelled).then_some(r)
}

/// Why a replacement could not be named.
enum ReplacementError {
    /// The nonce was used, but by no transaction in the recent blocks.
    Gone(u64),
    /// A read failed: checked again at the next round.
    Rpc,
}

/// The transaction that replaced `hash` (and whether it cancels), when the account's mined nonce
/// has passed it and `hash` itself has no receipt.
async fn replacement(
    ctx: Ctx,
    rpc: &Rpc,
    id: u64,
    hash: B256,
) -> Result<Option<(B256, bool)>, ReplacementError> {
    let Some(e) = ctx.tx(id) else {
        return Ok(None);
    };
    let Some(from) = e.account else {
        return Ok(None);
    };
    let nonce = match e.nonce {
        Some(n) => n,
        // A wallet-sent transaction: its nonce as the node saw it.
        None => match rpc
            .tx_nonce(hash)
            .await
            .map_err(|_| ReplacementError::Rpc)?
        {
            Some(n) => {
                ctx.edit_tx(id, |e| e.nonce = Some(n));
                n
            }
            None => return Ok(None),
        },
    };
    if rpc
        .nonce_mined(from)
        .await
        .map_err(|_| ReplacementError::Rpc)?
        <= nonce
    {
        return Ok(None);
    }
    // Mined by now: our own receipt may just have arrived.
    if rpc
        .receipt(hash)
        .await
        .map_err(|_| ReplacementError::Rpc)?
        .is_some()
    {
        return Ok(None);
    }
    match rpc
        .find_by_nonce(from, nonce, e.sent_block.unwrap_or(0))
        .await
        .map_err(|_| ReplacementError::Rpc)?
    {
        Some((by, cancelled)) if by != hash => Ok(Some((by, cancelled))),
        Some(_) => Ok(None),
        None => Err(ReplacementError::Gone(nonce)),
    }
}
