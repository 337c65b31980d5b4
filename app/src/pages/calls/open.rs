//! Open calls (A2, A3): every open call of every agent, with what anyone may do with it now
//! ([`eden_core::calls::open_call_step`], the contract's own guards): a committed call past its
//! reveal deadline is expired, a revealed call past its close is resolved (a miss when past the
//! resolve grace). Both are open to anyone, and both settle the agent's record.

use crate::chain::abi::ICallLedger;
use crate::chain::rpc::TxRequest;
use crate::fmt;
use crate::state::Ctx;
use alloy_primitives::{Address, B256, U256};
use alloy_sol_types::SolCall;
use eden_core::calls::{
    open_call_step, pushed_call_superseded, Direction, OpenCallStep, DEFAULT_MIN_REVEAL_AGE_SECS,
    DEFAULT_RESOLVE_GRACE_SECS, DEFAULT_REVEAL_DEADLINE_SECS,
};
use leptos::prelude::*;

/// One open call as the table shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenRow {
    pub id: U256,
    pub agent: Address,
    pub committed_at: u64,
    /// `closesAt` once revealed.
    pub closes_at: Option<u64>,
    /// The direction, once revealed.
    pub up: Option<bool>,
    pub window: u64,
    pub commitment: B256,
    /// Entered on pushed prices (no pool then).
    pub pushed: bool,
    /// Entered on pushed prices and closing after the asset's pool was set: resolves void (A5,
    /// [`pushed_call_superseded`]).
    pub superseded: bool,
}

impl OpenRow {
    /// The row of open call `id`; `pool_active_at` is when its asset's pool was set (0: none known).
    pub fn new(id: U256, c: &ICallLedger::Call, pool_active_at: u64) -> Self {
        let revealed = c.revealedAt != 0;
        Self {
            id,
            agent: c.agent,
            committed_at: c.committedAt,
            closes_at: revealed.then_some(c.closesAt),
            up: revealed.then_some(c.direction == 1),
            window: c.window,
            commitment: c.commitment,
            pushed: revealed && c.pushedPrice,
            superseded: revealed
                && pushed_call_superseded(c.pushedPrice, c.closesAt, pool_active_at),
        }
    }

    /// What can be done with it at `now`.
    pub fn step(&self, now: u64) -> OpenCallStep {
        open_call_step(
            self.committed_at,
            self.closes_at,
            now,
            DEFAULT_MIN_REVEAL_AGE_SECS,
            DEFAULT_REVEAL_DEADLINE_SECS,
            DEFAULT_RESOLVE_GRACE_SECS,
        )
    }
}

/// A committed call's reveal window in words at `now`: opening (a commitment must be 5 minutes
/// old, A2) or open, with the time left.
pub fn reveal_words(opens: u64, deadline: u64, now: u64) -> String {
    if now < opens {
        format!(
            "committed; its agent may reveal it in {} (a commitment must be 5 minutes old), then for {}",
            fmt::duration(opens - now),
            fmt::duration(deadline.saturating_sub(opens))
        )
    } else {
        format!(
            "committed; its agent may reveal it for {}",
            fmt::duration(deadline.saturating_sub(now))
        )
    }
}

/// The open calls, each with its state and the button its step allows; `on_expired` gets the
/// commitment of a call this browser expired (its kept salt is then useless).
#[component]
pub fn OpenCalls(
    ledger: Address,
    rows: Vec<OpenRow>,
    me: Option<Address>,
    on_expired: Callback<B256>,
) -> impl IntoView {
    let ctx = Ctx::get();
    if rows.is_empty() {
        return view! { <p class="empty" id="no-open-calls">"No open calls: every call has been resolved or expired."</p> }.into_any();
    }
    view! {
        <div class="table-wrap"><table class="open-calls" id="open-calls">
            <thead><tr><th>"Call"</th><th>"Agent"</th><th>"Call made"</th><th>"State"</th><th>"Anyone may"</th></tr></thead>
            <tbody>
            {rows.into_iter().map(|r| {
                let id = r.id;
                let mine = Some(r.agent) == me;
                let what = match r.up {
                    Some(up) => format!("{} over {}", Direction::from_up(up).as_str(), fmt::duration(r.window)),
                    None => "hidden until revealed".to_string(),
                };
                let r2 = r.clone();
                view! {
                    <tr class="open-call" data-id=id.to_string() data-mine=mine.to_string()>
                        <td>{format!("#{id}")}</td>
                        <td title=r.agent.to_string()>{fmt::short_addr(&r.agent.to_string())}{mine.then_some(" (you)")}</td>
                        <td>{what}</td>
                        <td class="call-state">{move || match r2.step(ctx.chain_now()) {
                            OpenCallStep::AwaitReveal { opens, deadline } => reveal_words(opens, deadline, ctx.chain_now()),
                            OpenCallStep::Expire => "not revealed in time: counts as a miss until expired".into(),
                            OpenCallStep::Running { closes_at } => format!("closes in {}", fmt::duration(closes_at.saturating_sub(ctx.chain_now()))),
                            OpenCallStep::Resolve { late: false } if r2.superseded => "closed: priced by pushes, and the pool was set before it closed, so it resolves void (A5)".into(),
                            OpenCallStep::Resolve { late: false } if r2.pushed => "closed: resolve it to score it from the pushed prices it was priced by".into(),
                            OpenCallStep::Resolve { late: false } => "closed: resolve it to score it from the pool's TWAP".into(),
                            OpenCallStep::Resolve { late: true } => "closed over an hour ago: resolves as a miss".into(),
                        }}</td>
                        <td>{move || match r.step(ctx.chain_now()) {
                            OpenCallStep::Expire => {
                                let commitment = r.commitment;
                                view! { <button class="secondary expire-call" on:click=move |_| {
                                    let tx = TxRequest::call(ledger, ICallLedger::expireCall { id }.abi_encode());
                                    leptos::task::spawn_local(async move {
                                        if crate::send::send(ctx, format!("Expire call #{id}"), tx).await {
                                            on_expired.run(commitment);
                                        }
                                    });
                                }>"Expire"</button> }.into_any()
                            }
                            OpenCallStep::Resolve { .. } => view! {
                                <button class="secondary resolve-call" on:click=move |_| crate::send::act(ctx, ledger, format!("Resolve call #{id}"), ICallLedger::resolveCall { id }, U256::ZERO)>"Resolve"</button>
                            }.into_any(),
                            _ => view! { <span class="muted">"—"</span> }.into_any(),
                        }}</td>
                    </tr>
                }
            }).collect_view()}
            </tbody>
        </table></div>
    }
    .into_any()
}
