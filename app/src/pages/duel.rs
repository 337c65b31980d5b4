//! Duel pages (B1–B7): the duels of this chain, and one duel: the countdown to the next UTC close
//! (`eden_core::duel::round_at`), the live split at the held `d` and the round's running mean with its
//! would-be winner (`eden_core::duel::split_wad` on the hook's `heldD` / `pendingResult`), the pot and
//! the buyback cap of each side (`eden_core::duel::{token_price_wad, buyback_cap_wad}` from the pool
//! price and the hook's EMA), streaks, the settled rounds (`RoundSettled` logs) and "Settle the round
//! now" (`settle(duelId)`) when a closed round awaits settlement.

use crate::abi::{IDuelHook, IPoolManagerState};
use crate::fmt;
use crate::rpc::{Rpc, TxRequest};
use crate::state::{Ctx, DuelRef, Load, World};
use crate::ui::{with_world, Amount, ErrorBox, Loading};
use crate::wallet;
use alloy_primitives::{keccak256, Bytes, B256, I256, U256};
use alloy_sol_types::{SolCall, SolEvent, SolValue};
use eden_core::duel;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

/// `PoolManager` storage slot of the pools mapping (v4-core `StateLibrary.POOLS_SLOT`).
const POOLS_SLOT: u64 = 6;

#[derive(Debug, Clone, PartialEq)]
struct Settled {
    round: u64,
    winner: u8,
    mean: i64,
    spent: U256,
    burned: U256,
}

#[derive(Clone)]
struct DuelData {
    d: IDuelHook::Duel,
    round: u64,
    awaiting: bool,
    mean: i64,
    winner: u8,
    price_a: U256,
    price_b: U256,
    history: Vec<Settled>,
}

fn to_i64(v: I256) -> i64 {
    i64::try_from(v).unwrap_or(if v.is_negative() { i64::MIN } else { i64::MAX })
}

/// The token's price in ETH (WAD) from its v4 pool's `slot0` (read through `extsload`).
async fn pool_price_wad(
    rpc: &Rpc,
    pm: alloy_primitives::Address,
    key: &IDuelHook::PoolKey,
) -> Result<U256, String> {
    let id = keccak256(key.abi_encode());
    let mut buf = [0u8; 64];
    buf[..32].copy_from_slice(id.as_slice());
    buf[32..].copy_from_slice(&U256::from(POOLS_SLOT).to_be_bytes::<32>());
    let slot = keccak256(buf);
    let word = rpc
        .call(pm, &IPoolManagerState::extsload_0Call { slot })
        .await
        .map_err(|e| e.to_string())?;
    let sqrt = U256::from_be_bytes(word.0) & ((U256::from(1) << 160) - U256::from(1));
    duel::token_price_wad(sqrt, true).map_err(|e| e.to_string())
}

async fn load(w: World, r: DuelRef) -> Result<DuelData, String> {
    let rpc = w.rpc();
    let id = U256::from(r.duel_id);
    let d = rpc
        .call(r.hook, &IDuelHook::getDuelCall { duelId: id })
        .await
        .map_err(|e| e.to_string())?;
    let p = rpc
        .call(r.hook, &IDuelHook::pendingResultCall { duelId: id })
        .await
        .map_err(|e| e.to_string())?;
    let price_a = pool_price_wad(&rpc, w.addresses.pool_manager, &d.keyA).await?;
    let price_b = pool_price_wad(&rpc, w.addresses.pool_manager, &d.keyB).await?;
    let mut history = Vec::new();
    let logs = rpc
        .logs(
            r.hook,
            IDuelHook::RoundSettled::SIGNATURE_HASH,
            Some(B256::from(id)),
            w.addresses.start_block,
        )
        .await
        .map_err(|e| e.to_string())?;
    for log in logs {
        if let Ok(e) =
            IDuelHook::RoundSettled::decode_raw_log(log.topics.iter().copied(), &log.data)
        {
            history.push(Settled {
                round: e.round,
                winner: e.winner,
                mean: to_i64(e.meanTick),
                spent: e.ethSpent,
                burned: e.tokensBurned,
            });
        }
    }
    history.reverse();
    Ok(DuelData {
        round: p.round,
        awaiting: p.awaitingSettlement,
        mean: to_i64(p.meanTick),
        winner: p.winner,
        price_a,
        price_b,
        history,
        d,
    })
}

fn winner_name(r: &DuelRef, w: u8) -> String {
    match w {
        1 => r.symbol_a.clone(),
        2 => r.symbol_b.clone(),
        _ => "no winner".into(),
    }
}

/// `/duel`: the duels of this chain.
#[component]
pub fn DuelList() -> impl IntoView {
    view! {
        <section class="card">
            <h1>"Duels"</h1>
            <p class="lede">"Two tokens, each in its own ETH pool. Every round (closing at 00:00, 04:00 … 20:00 UTC) the token whose price gained more on the other, time-weighted, wins: the pot buys it back and burns it."</p>
            {with_world(|w| {
                if w.duels.is_empty() {
                    view! { <p class="empty" id="no-duels">"No duels on this chain yet."</p> }.into_any()
                } else {
                    view! {
                        <ul class="duels">
                            {w.duels.iter().map(|d| view! {
                                <li class="duel-row" data-duel=d.duel_id>
                                    <a href=format!("/duel/{}", d.duel_id)>{format!("Duel #{}: {} vs {}", d.duel_id, d.symbol_a, d.symbol_b)}</a>
                                </li>
                            }).collect_view()}
                        </ul>
                    }.into_any()
                }
            })}
        </section>
    }
}

/// `/duel/:id`: one duel.
#[component]
pub fn DuelPage() -> impl IntoView {
    let params = use_params_map();
    let id = move || params.with(|p| p.get("id").and_then(|t| t.parse::<u64>().ok()));
    view! {
        <section class="card">
            {move || {
                let id = id();
                with_world(move |w| match id.and_then(|i| w.duels.iter().find(|d| d.duel_id == i).cloned()) {
                    Some(r) => view! { <DuelBody world=w.clone() duel=r /> }.into_any(),
                    None => view! { <p class="empty">"There is no such duel on this chain."</p> }.into_any(),
                })
            }}
        </section>
    }
}

#[component]
fn DuelBody(world: World, duel: DuelRef) -> impl IntoView {
    let ctx = Ctx::get();
    let data: RwSignal<Load<DuelData>> = RwSignal::new(Load::Loading);
    let (w1, r1) = (world.clone(), duel.clone());
    Effect::new(move |_| {
        ctx.refresh.track();
        let (w, r) = (w1.clone(), r1.clone());
        leptos::task::spawn_local(async move {
            data.set(match load(w, r).await {
                Ok(x) => Load::Ready(x),
                Err(e) => Load::Failed(e),
            });
        });
    });
    let hook = duel.hook;
    let did = duel.duel_id;
    let settle = move |_| {
        let data = IDuelHook::settleCall {
            duelId: U256::from(did),
        }
        .abi_encode();
        leptos::task::spawn_local(async move {
            wallet::send(
                ctx,
                format!("Settle duel #{did}"),
                TxRequest {
                    from: None,
                    to: hook,
                    data: Bytes::from(data),
                    value: U256::ZERO,
                },
            )
            .await;
        });
    };
    let r = duel.clone();
    view! {
        <h1>{format!("Duel #{}: {} vs {}", duel.duel_id, duel.symbol_a, duel.symbol_b)}</h1>
        {move || match data.get() {
            Load::Loading => view! { <Loading what="Reading the duel from chain…" /> }.into_any(),
            Load::Failed(e) => view! { <ErrorBox message=e /> }.into_any(),
            Load::Ready(x) => {
                let r = r.clone();
                let start = x.d.start;
                let countdown = move || {
                    let now = ctx.chain_now();
                    match duel::round_at(start, now) {
                        Ok(win) => format!("round {} closes in {} (at {} UTC)", win.index, fmt::duration(win.end.saturating_sub(now)), utc_hm(win.end)),
                        Err(e) => e.to_string(),
                    }
                };
                let (live_a, live_b) = duel::split_wad(to_i64(x.d.heldD));
                let (mean_a, mean_b) = duel::split_wad(x.mean);
                let cap_a = duel::buyback_cap_wad(x.d.emaA.value, x.price_a).map_err(|e| e.to_string());
                let cap_b = duel::buyback_cap_wad(x.d.emaB.value, x.price_b).map_err(|e| e.to_string());
                let cap = |c: Result<U256, String>, sym: String| match c {
                    Ok(v) => view! { <Amount raw=v decimals=18 unit=format!("ETH per {sym}") sig=5 /> }.into_any(),
                    Err(e) => view! { <span class="error">{e}</span> }.into_any(),
                };
                view! {
                    <p class="countdown" id="duel-countdown">{countdown}</p>
                    <dl class="kv">
                        <dt>"Live split"</dt>
                        <dd id="live-split" title=format!("d = {} ticks", x.d.heldD)>{format!("{} {} · {} {}", r.symbol_a, fmt::percent_wad(live_a, 4), r.symbol_b, fmt::percent_wad(live_b, 4))}</dd>
                        <dt>{format!("Round {} mean", x.round)}</dt>
                        <dd id="round-mean">{format!("{} ticks → {} {} · {} {}", x.mean, r.symbol_a, fmt::percent_wad(mean_a, 4), r.symbol_b, fmt::percent_wad(mean_b, 4))}</dd>
                        <dt>{if x.awaiting { "Winner" } else { "Would-be winner" }}</dt>
                        <dd id="would-be-winner">{winner_name(&r, x.winner)}</dd>
                        <dt>"Pot"</dt>
                        <dd id="duel-pot"><Amount raw=x.d.pot decimals=18 unit="ETH" sig=5 /></dd>
                        <dt>{format!("Buyback cap {}", r.symbol_a)}</dt>
                        <dd>{cap(cap_a, r.symbol_a.clone())}</dd>
                        <dt>{format!("Buyback cap {}", r.symbol_b)}</dt>
                        <dd>{cap(cap_b, r.symbol_b.clone())}</dd>
                        <dt>"Streaks (best)"</dt>
                        <dd id="streaks">{format!("{} {} ({}) · {} {} ({})", r.symbol_a, x.d.streakA, x.d.bestA, r.symbol_b, x.d.streakB, x.d.bestB)}</dd>
                    </dl>
                    {x.awaiting.then(|| view! {
                        <div class="notice" id="awaiting">
                            <p>{format!("Round {} has closed and awaits settlement: {}.", x.round, if x.winner == 0 { "no winner, the pot rolls over".to_string() } else { format!("{} wins the buyback", winner_name(&r, x.winner)) })}</p>
                            <button class="primary" id="settle-button" on:click=settle>"Settle the round now"</button>
                        </div>
                    })}
                    <h2>"Settled rounds"</h2>
                    {if x.history.is_empty() {
                        view! { <p class="empty" id="no-rounds">"No round settled yet."</p> }.into_any()
                    } else {
                        view! {
                            <div class="table-wrap"><table class="rounds" id="round-history">
                                <thead><tr><th>"Round"</th><th>"Winner"</th><th>"Mean tick"</th><th>"ETH spent"</th><th>"Burned"</th></tr></thead>
                                <tbody>
                                    {x.history.iter().map(|h| view! {
                                        <tr class="round-row" data-round=h.round>
                                            <td>{h.round}</td>
                                            <td>{winner_name(&r, h.winner)}</td>
                                            <td>{h.mean}</td>
                                            <td><Amount raw=h.spent decimals=18 unit="ETH" sig=4 /></td>
                                            <td><Amount raw=h.burned decimals=18 sig=4 /></td>
                                        </tr>
                                    }).collect_view()}
                                </tbody>
                            </table></div>
                        }.into_any()
                    }}
                }.into_any()
            }
        }}
    }
}

/// `HH:MM` of a unix time, UTC.
fn utc_hm(t: u64) -> String {
    format!("{:02}:{:02}", t % 86_400 / 3_600, t % 3_600 / 60)
}
