//! Calls page (A1–A5): the agent leaderboard (score by `eden_core::calls::track_record_score` from each
//! agent's on-chain record and stake), consensus per asset and window (the current round and the last
//! consensus reached, strength recomputed by `eden_core::calls::consensus_state`), and the commit /
//! reveal forms: the commitment is `eden_core::calls::call_commitment`, the salt is drawn from the
//! browser's CSPRNG and kept in localStorage until the call is revealed. The connected agent stakes
//! and unstakes ([`stake`]); anyone resolves or expires an open call whose time has come ([`open`]).

mod open;
mod stake;

use crate::chain::abi::ICallLedger;
use crate::chain::calls::{self, CallsRef};
use crate::chain::rpc::TxRequest;
use crate::chain::world::World;
use crate::error::{AppError, Context};
use crate::fmt;
use crate::state::Ctx;
use crate::ui::{caught, with_world, Amount, ErrorBox, Loading};
use alloy_primitives::{Address, B256, U256};
use alloy_sol_types::SolCall;
use eden_core::calls::{
    call_commitment, call_overdue, consensus_state, track_record_score, ConsensusParams, Direction,
    DEFAULT_MIN_REVEAL_AGE_SECS, DEFAULT_RESOLVE_GRACE_SECS, DEFAULT_REVEAL_DEADLINE_SECS,
};
use gloo_storage::{LocalStorage, Storage};
use leptos::prelude::*;
use open::OpenCalls;
use serde::{Deserialize, Serialize};
use stake::StakeForm;

const PENDING_KEY: &str = "eden.calls.pending";

/// A committed call not yet revealed, as kept in localStorage (the salt never leaves the browser).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingCall {
    pub agent: Address,
    pub asset: Address,
    pub up: bool,
    pub window: u64,
    pub salt: B256,
    pub commitment: B256,
}

fn load_pending() -> Vec<PendingCall> {
    LocalStorage::get(PENDING_KEY).unwrap_or_default()
}

fn save_pending(p: &[PendingCall]) {
    let _ = LocalStorage::set(PENDING_KEY, p);
}

/// 32 bytes from `crypto.getRandomValues`.
fn random_salt() -> Result<B256, AppError> {
    let win = web_sys::window().ok_or_else(|| AppError::missing("no window"))?;
    let crypto =
        js_sys::Reflect::get(&win, &"crypto".into()).map_err(|_| AppError::missing("no crypto"))?;
    let f: js_sys::Function = js_sys::Reflect::get(&crypto, &"getRandomValues".into())
        .ok()
        .and_then(|f| wasm_bindgen::JsCast::dyn_into(f).ok())
        .ok_or_else(|| AppError::missing("no crypto.getRandomValues"))?;
    let arr = js_sys::Uint8Array::new_with_length(32);
    f.call1(&crypto, &arr)
        .map_err(|_| AppError::missing("getRandomValues failed"))?;
    let mut out = [0u8; 32];
    arr.copy_to(&mut out);
    Ok(B256::from(out))
}

#[derive(Debug, Clone, PartialEq)]
struct AgentRow {
    agent: Address,
    score: U256,
    hits: u64,
    misses: u64,
    streak: u64,
    best: u64,
    stake: U256,
    open: u64,
    /// Open calls that already count as misses (past the reveal deadline or the resolve grace).
    overdue: u64,
}

#[derive(Debug, Clone, PartialEq)]
struct WindowRow {
    window: u64,
    bucket: u64,
    current: String,
    last: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
struct CallsData {
    agents: Vec<AgentRow>,
    windows: Vec<WindowRow>,
    min_stake: U256,
    /// Every open call of every agent, oldest first, with what can be done with it now.
    open: Vec<open::OpenRow>,
    /// The connected account as an agent: its stake, open calls and stake-token wallet.
    me: Option<stake::MyStake>,
    /// The asset's band in pips (A3): a smaller move between entry and exit is void; 0 on pushes.
    band_pips: u32,
}

/// What decides a call on this asset (A3), in words: its band, or any move on pushed prices.
pub(crate) fn band_words(band_pips: u32) -> String {
    if band_pips == 0 {
        "Priced by the asset's named updater: any move between entry and exit decides a call."
            .into()
    } else {
        format!(
            "A call is decided only when the price moves at least {} between entry and exit (the pool's fee, so a push too small for anyone to arbitrage decides nothing); a smaller move is void.",
            fmt::percent_pips(band_pips)
        )
    }
}

/// The ledger ([`calls::read_ledger`], two batched round trips whatever the number of agents, calls
/// and windows), each agent's track-record score recomputed with its overdue calls as misses (A3),
/// and each window's consensus (A4).
async fn load(w: World, c: CallsRef, me: Option<Address>) -> Result<CallsData, AppError> {
    let mut who = c.agents.clone();
    if let Some(m) = me {
        if !who.contains(&m) {
            who.push(m);
        }
    }
    let read = calls::read_ledger(&w.rpc(), &c, &who, me).await?;
    let (now, min_stake) = (read.now, read.min_stake);
    let params =
        ConsensusParams::new(read.quorum, u64::from(read.threshold_bps)).map_err(AppError::from)?;
    let mut agents = Vec::new();
    let mut open = Vec::new();
    let mut mine = None;
    for (a, r, calls) in read.agents {
        open.extend(calls.iter().map(|(id, call)| {
            let pool_active_at = if call.asset == c.asset {
                read.pool_active_at
            } else {
                0
            };
            open::OpenRow::new(*id, call, pool_active_at)
        }));
        if Some(a) == me {
            mine = read.wallet.map(|(balance, allowance)| stake::MyStake {
                stake: r.stake,
                open: r.openCalls,
                balance,
                allowance,
            });
        }
        if r.stake.is_zero() && r.hits == 0 && r.misses == 0 && Some(a) != me {
            continue;
        }
        // Overdue open calls count as misses at once, as `CallLedger.score` counts them.
        let overdue = calls
            .iter()
            .map(|(_, call)| call)
            .filter(|call| {
                let closes = (call.revealedAt != 0).then_some(call.closesAt);
                call_overdue(
                    call.committedAt,
                    closes,
                    now,
                    DEFAULT_REVEAL_DEADLINE_SECS,
                    DEFAULT_RESOLVE_GRACE_SECS,
                )
            })
            .count() as u64;
        let score = track_record_score(r.hits, r.misses + overdue, r.stake, min_stake)
            .map_err(AppError::from)?;
        agents.push(AgentRow {
            agent: a,
            score,
            hits: r.hits,
            misses: r.misses,
            streak: r.streak,
            best: r.bestStreak,
            stake: r.stake,
            open: r.openCalls,
            overdue,
        });
    }
    agents.sort_by_key(|a| std::cmp::Reverse(a.score));
    let log = read.log;
    let mut windows = Vec::new();
    for (window, cur) in read.windows {
        let st = consensus_state(
            cur.state.upWeight,
            cur.state.downWeight,
            cur.state.voters,
            &params,
        )
        .map_err(AppError::from)?;
        let current = if st.voters == 0 {
            "no votes yet".to_string()
        } else {
            format!(
                "{} {} · strength {} · {} voter(s){}",
                if st.reached { "consensus" } else { "leaning" },
                Direction::side_name(st.direction),
                fmt::percent_bps(st.strength_bps.try_into().unwrap_or(u32::MAX)),
                st.voters,
                if st.reached { "" } else { " (not reached)" }
            )
        };
        let last = match log
            .iter()
            .find(|r| r.asset == c.asset && r.window == window)
        {
            Some(r) => {
                let st = consensus_state(r.upWeight, r.downWeight, r.voters, &params)
                    .map_err(AppError::from)?;
                Some(format!(
                    "round {}: {} · strength {} · {} voters",
                    r.bucket,
                    Direction::side_name(st.direction),
                    fmt::percent_bps(st.strength_bps.try_into().unwrap_or(u32::MAX)),
                    st.voters
                ))
            }
            None => None,
        };
        windows.push(WindowRow {
            window,
            bucket: cur.bucket,
            current,
            last,
        });
    }
    open.sort_by_key(|o| o.id);
    Ok(CallsData {
        agents,
        windows,
        min_stake,
        open,
        me: mine,
        band_pips: read.band_pips,
    })
}

/// `/calls`.
#[component]
pub fn CallsPage() -> impl IntoView {
    view! {
        <section class="card">
            <h1>"Calls"</h1>
            <p class="lede">"Agents stake, commit to a call (up or down over a window) and reveal it between 5 minutes and an hour later; the pool's 5-minute TWAP at the close decides hit or miss. Votes of revealed calls form a consensus per asset and window."</p>
            {with_world(|w| view! { <CallsFound world=w /> })}
        </section>
    }
}

/// The ledger discovered from the chain ([`crate::chain::calls::discover`]), then the page.
#[component]
fn CallsFound(world: World) -> impl IntoView {
    let w1 = world.clone();
    let retries = Ctx::get().retries;
    let found = LocalResource::new(move || {
        retries.track();
        let w = w1.clone();
        async move {
            match w.contracts.call_ledger {
                Some(l) => calls::discover(&w.rpc(), l, w.deployment_block)
                    .await
                    .context("Discovering the calls ledger (asset, windows, agents)"),
                None => Ok(None),
            }
        }
    });
    view! {
        <Transition fallback=|| view! { <Loading what="Reading the calls ledger from chain…" /> }>
        <ErrorBoundary fallback=caught>
        {move || found.get().map(|loaded| loaded.map(|c| match c {
            Some(c) => view! { <CallsBody world=world.clone() calls=c /> }.into_any(),
            None if world.contracts.call_ledger.is_none() => view! { <p class="empty" id="no-calls">"The calls ledger is not deployed on this chain."</p> }.into_any(),
            None => view! { <p class="empty" id="no-calls">"The calls ledger has no priced asset yet."</p> }.into_any(),
        }))}
        </ErrorBoundary>
        </Transition>
    }
}

#[component]
fn CallsBody(world: World, calls: CallsRef) -> impl IntoView {
    let ctx = Ctx::get();
    let pending = RwSignal::new(load_pending());
    let (w1, c1) = (world.clone(), calls.clone());
    // A newer read supersedes an older one; leaving the page drops it.
    let data = LocalResource::new(move || {
        ctx.refresh.track();
        let me = ctx.wallet.get().account;
        let (w, c) = (w1.clone(), c1.clone());
        async move {
            load(w, c, me)
                .await
                .context("Reading the agents, their calls and the consensus")
        }
    });
    let up = RwSignal::new(true);
    let window = RwSignal::new(calls.windows.first().copied().unwrap_or(3600).to_string());
    let form_error = RwSignal::new(None::<String>);
    let (ledger, asset) = (calls.ledger, calls.asset);
    let commit = move |_| {
        form_error.set(None);
        let Some(agent) = ctx.wallet.get_untracked().account else {
            form_error.set(Some("Connect a wallet first.".into()));
            return;
        };
        let Ok(win) = window.get_untracked().trim().parse::<u64>() else {
            form_error.set(Some("The window must be a whole number of seconds.".into()));
            return;
        };
        let salt = match random_salt() {
            Ok(s) => s,
            Err(e) => {
                form_error.set(Some(e.to_string()));
                return;
            }
        };
        let is_up = up.get_untracked();
        let commitment = call_commitment(
            agent,
            asset,
            if is_up {
                Direction::Up
            } else {
                Direction::Down
            },
            win,
            salt,
        );
        let p = PendingCall {
            agent,
            asset,
            up: is_up,
            window: win,
            salt,
            commitment,
        };
        let data = ICallLedger::commitCall { commitment }.abi_encode();
        leptos::task::spawn_local(async move {
            // Keep the salt before signing: a commit whose salt is lost can never be revealed.
            pending.update(|v| v.push(p.clone()));
            pending.with_untracked(|v| save_pending(v));
            let ok = crate::send::send(
                ctx,
                format!(
                    "Commit a call ({})",
                    fmt::short_addr(&commitment.to_string())
                ),
                TxRequest::call(ledger, data),
            )
            .await;
            if !ok {
                pending.update(|v| v.retain(|x| x.commitment != commitment));
                pending.with_untracked(|v| save_pending(v));
            }
        });
    };
    let w2 = world.clone();
    let reveal = move |p: PendingCall| {
        let rpc = w2.rpc();
        let start = w2.deployment_block;
        leptos::task::spawn_local(async move {
            let id = match calls::committed_id(&rpc, ledger, start, p.agent, p.commitment).await {
                Ok(id) => id,
                Err(e) => {
                    form_error.set(Some(e.to_string()));
                    return;
                }
            };
            let Some(id) = id else {
                form_error.set(Some(
                    "This commitment is not on chain (was the commit confirmed?).".into(),
                ));
                return;
            };
            let data = ICallLedger::revealCall {
                id,
                asset: p.asset,
                direction: if p.up { 1 } else { 0 },
                window: p.window,
                salt: p.salt,
            }
            .abi_encode();
            let ok = crate::send::send(
                ctx,
                format!("Reveal call #{id}"),
                TxRequest::call(ledger, data),
            )
            .await;
            if ok {
                pending.update(|v| v.retain(|x| x.commitment != p.commitment));
                pending.with_untracked(|v| save_pending(v));
            }
        });
    };
    let sym = calls.asset_symbol.clone();
    let stake_sym = calls.stake_symbol.clone();
    let on_expired = Callback::new(move |commitment: B256| {
        pending.update(|v| v.retain(|x| x.commitment != commitment));
        pending.with_untracked(|v| save_pending(v));
    });
    let (calls2, rpc) = (calls.clone(), world.rpc());
    view! {
            <Transition fallback=|| view! { <Loading what="Reading the calls ledger…" /> }>
    <ErrorBoundary fallback=caught>
    {move || data.get().map(|loaded| loaded.map(|d| {
                    let stake_sym = stake_sym.clone();
                    let sym = sym.clone();
                    let me = ctx.wallet.get_untracked().account;
                    let stake_form = d.me.clone().map(|m| view! {
                        <h2>"Your stake"</h2>
                        <StakeForm calls=calls2.clone() min_stake=d.min_stake me=m rpc=rpc.clone() />
                    });
                    view! {
                        <h2>"Leaderboard"</h2>
                        <p class="muted">"Score = hits² × stake / (min stake × (hits + misses + 1)), overdue open calls counted as misses; min stake "<Amount raw=d.min_stake decimals=18 unit=stake_sym.clone() sig=4 />"."</p>
                        {if d.agents.is_empty() {
                            view! { <p class="empty" id="no-agents">"No agent has staked yet: stake below to make the first call."</p> }.into_any()
                        } else { view! {
                        <div class="table-wrap"><table class="agents" id="leaderboard">
                            <thead><tr><th>"Agent"</th><th>"Score"</th><th>"Hits"</th><th>"Misses"</th><th>"Streak"</th><th>"Best"</th><th>"Stake"</th><th>"Open"</th></tr></thead>
                            <tbody>
                                {d.agents.iter().map(|a| view! {
                                    <tr class="agent-row" data-agent=a.agent.to_string()>
                                        <td title=a.agent.to_string()>{fmt::short_addr(&a.agent.to_string())}</td>
                                        <td><Amount raw=a.score decimals=18 sig=4 /></td>
                                        <td>{a.hits}</td><td title="Overdue open calls (not revealed in time, or not resolved within an hour of the close) count as misses at once">{if a.overdue == 0 { a.misses.to_string() } else { format!("{} (+{} overdue)", a.misses, a.overdue) }}</td><td>{a.streak}</td><td>{a.best}</td>
                                        <td><Amount raw=a.stake decimals=18 unit=stake_sym.clone() sig=4 /></td>
                                        <td>{a.open}</td>
                                    </tr>
                                }).collect_view()}
                            </tbody>
                        </table></div>
                        }.into_any() }}
                        <h2>{format!("Consensus on {sym}")}</h2>
                        <ul class="consensus" id="consensus">
                            {d.windows.iter().map(|r| view! {
                                <li class="consensus-row" data-window=r.window>
                                    <strong>{format!("{} window", fmt::duration(r.window))}</strong>
                                    <div>{format!("Current round {}: {}", r.bucket, r.current)}</div>
                                    <div class="last-consensus">{match &r.last { Some(s) => format!("Last consensus, {s}"), None => "No consensus reached yet.".into() }}</div>
                                </li>
                            }).collect_view()}
                        </ul>
                        <h2>"Open calls"</h2>
                        <p class="muted" id="call-band" data-band-pips=d.band_pips.to_string()>{band_words(d.band_pips)}</p>
                        <OpenCalls ledger=ledger rows=d.open.clone() me=me on_expired=on_expired />
                        {stake_form}
                    }.into_any()
                }))}
    </ErrorBoundary>
    </Transition>
            <h2>"Make a call"</h2>
            <Show when=move || ctx.wallet.get().account.is_some() fallback=|| view! { <p class="empty">"Connect a wallet to commit and reveal calls."</p> }>
                <div class="form" id="commit-form">
                    <label>"Direction "
                        <select id="call-direction" on:change=move |ev| up.set(event_target_value(&ev) == Direction::Up.as_str())>
                            <option value="up" selected=true>"up"</option>
                            <option value="down">"down"</option>
                        </select>
                    </label>
                    <label>" Window (seconds) "<input id="call-window" inputmode="numeric" prop:value=move || window.get() on:input=move |ev| window.set(event_target_value(&ev)) /></label>
                    <button class="primary" id="commit-button" on:click=commit>"Commit"</button>
                    <p class="muted">"Only the commitment goes on chain now; the salt stays in this browser until you reveal (from 5 minutes to 1 hour after the commit)."</p>
                </div>
            </Show>
            {move || form_error.get().map(|e| view! { <ErrorBox message=e /> })}
            {move || {
                let me = ctx.wallet.get().account;
                let mine: Vec<PendingCall> = pending.get().into_iter().filter(|p| Some(p.agent) == me).collect();
                (!mine.is_empty()).then(|| {
                    let r = reveal.clone();
                    // When each commitment may be revealed (A2: 5 minutes after its commit, the
                    // contract's `MIN_REVEAL_AGE`), from the open calls read from the chain; unknown
                    // until the commit is read, when Reveal stays available and the chain decides.
                    let opens_at = |c: B256| {
                        data.get()
                            .and_then(|d| d.ok())
                            .and_then(|d| d.open.iter().find(|o| o.commitment == c).map(|o| o.committed_at.saturating_add(DEFAULT_MIN_REVEAL_AGE_SECS)))
                    };
                    view! {
                        <ul class="pending-calls" id="pending-calls">
                            {mine.into_iter().map(|p| {
                                let (r, p2) = (r.clone(), p.clone());
                                let opens = opens_at(p.commitment);
                                let wait = move || opens.and_then(|o| o.checked_sub(ctx.chain_now())).filter(|w| *w > 0);
                                view! {
                                    <li class="pending-call">
                                        <span>{format!("{} over {} · commitment {}", Direction::from_up(p.up).as_str(), fmt::duration(p.window), fmt::short_addr(&p.commitment.to_string()))}</span>
                                        " "<button class="reveal-button" prop:disabled=move || wait().is_some() on:click=move |_| r(p2.clone())>{move || match wait() { Some(w) => format!("Reveal in {}", fmt::duration(w)), None => "Reveal".to_string() }}</button>
                                        {move || wait().map(|_| view! { <span class="muted reveal-wait">" A commitment can be revealed 5 minutes after it is on chain, so nobody can copy a call in the block it is revealed."</span> })}
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                    }
                })
            }}
        }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_band_is_said_in_words() {
        assert!(band_words(3_000).contains("0.3 %"), "{}", band_words(3_000));
        assert!(band_words(0).contains("any move"));
    }
}
