//! Payouts page (C18): the connected account's holder payouts. Rounds are discovered from the
//! distributor's events ([`crate::chain::payouts`]); each round's tree is fetched by its on-chain
//! root from the deployment's publications and checked in the browser; the account's leaf is
//! rebuilt (`eden_core::holders::PayoutLeaf`, bound to distributor, chain, token, asset, epoch,
//! account and amount) and its proof walked to the round's root **read from chain**; the claim
//! window (24 h review, then 90 days) comes from the round on chain; claimed leaves show as claimed.
//! A holder may have its leaf paid to another address ([`claim_to`]); anyone returns the unclaimed
//! rest of a closed round to the pot (`rollover`).

mod claim_to;

use crate::chain::payouts::{Round, SnapshotView};
use crate::chain::world::World;
use crate::error::Context;
use crate::flows::claim::{self, load_rows, Payouts, Row};
use crate::fmt;
use crate::state::Ctx;
use crate::ui::{caught, with_world, Amount, Loading, Usd};
use alloy_primitives::{Address, U256};
use leptos::prelude::*;

/// The round's snapshot for people: its block, your balance there and what was excluded, once the snapshot
/// rebuilds the round's on-chain root; otherwise why it is not shown.
fn snapshot_line(s: &SnapshotView, account: Option<Address>, round: &Round) -> impl IntoView {
    match s {
        SnapshotView::Checked(snap) => {
            let yours = account.and_then(|a| snap.balance_of(a)).map(|(b, _)| b);
            let sym = &round.symbol;
            let excluded: Vec<String> = snap
                .excluded
                .iter()
                .filter(|e| !e.balance.is_zero())
                .map(|e| format!("{} {}", e.role, fmt::short_addr(&e.account.to_string())))
                .collect();
            let text = format!(
                "Snapshot at block {}: your balance there {} of {} eligible {sym} ({} holders); excluded: {}. It rebuilds the round's on-chain root. ✓",
                fmt::thousands(snap.block),
                yours.map_or("none".to_string(), |b| format!("{} {sym}", fmt::units(b, round.token_decimals, 6))),
                fmt::units(snap.eligible_supply, round.token_decimals, 6),
                snap.holders.len(),
                if excluded.is_empty() { "none held tokens".to_string() } else { excluded.join(", ") }
            );
            view! { <p class="muted snapshot ok" data-block=snap.block>{text}</p> }.into_any()
        }
        SnapshotView::NotPublished => view! { <p class="muted snapshot none">"No snapshot is published for this round: its block and balances cannot be shown."</p> }.into_any(),
        SnapshotView::Unusable(why) => view! { <p class="result error snapshot bad">{format!("The round's snapshot is not used: {why}")}</p> }.into_any(),
    }
}

#[component]
pub fn PayoutsPage() -> impl IntoView {
    view! {
        <section class="card">
            <h1>"Holder payouts"</h1>
            <p class="lede">"Holders of a launched token are paid from its holder pot, in proportion to their balance at a snapshot. Each round's root is posted on chain; your leaf and proof are checked here, in your browser, against that root before you claim."</p>
            {with_world(|w| view! { <PayoutsBody world=w /> })}
        </section>
    }
}

#[component]
fn PayoutsBody(world: World) -> impl IntoView {
    let ctx = Ctx::get();
    let w1 = world.clone();
    // Re-read on every confirmed transaction or wallet change; a newer read supersedes an older one.
    let rows = LocalResource::new(move || {
        ctx.refresh.track();
        let account = ctx.wallet.get().account;
        let w = w1.clone();
        async move {
            match account {
                // Tagged with the account: a read made before a wallet switch is not shown.
                Some(a) => load_rows(w, a)
                    .await
                    .map(|p| (Some(a), p))
                    .context("Reading the holder payout rounds and your leaves"),
                None => Ok((None, Payouts::default())),
            }
        }
    });
    let claim = move |r: Row| {
        let Some(account) = ctx.wallet.get_untracked().account else {
            return;
        };
        let (label, call) = claim::claim_request(&r, account);
        crate::send::act(
            ctx,
            world.contracts.holder_distributor,
            label,
            call,
            U256::ZERO,
        );
    };
    let dist = world.contracts.holder_distributor;
    let world_for_rows = StoredValue::new(world.clone());
    view! {
        <Show when=move || ctx.wallet.get().account.is_some() fallback=|| view! { <p class="empty">"Connect a wallet to see your payouts."</p> }>
            <Transition fallback=|| view! { <Loading what="Reading payout rounds from chain…" /> }>
            <ErrorBoundary fallback=caught>
            {move || rows.get().map(|loaded| loaded.map(|(of, Payouts { rows: rs, problems })| if !ctx.is_connected(of) {
                view! { <Loading what="Reading payout rounds from chain…" /> }.into_any()
            } else {
                let world_for_rows = world_for_rows.get_value();
                let problems = (!problems.is_empty()).then(|| view! {
                    <ul class="problems" id="payout-problems" role="alert">
                        {problems.into_iter().map(|p| view! { <li class="result error">{p.to_string()}</li> }).collect_view()}
                    </ul>
                });
                let list = if rs.is_empty() {
                view! { <p class="empty" id="no-payouts">"No payouts for this account."</p> }.into_any()
            } else {
                view! {
                    <ul class="payouts" id="payouts">
                        {rs.into_iter().map(move |r| {
                            let r2 = r.clone();
                            let status = move || {
                                let now = ctx.chain_now();
                                if r.claimed { ("claimed", "Claimed".to_string()) }
                                else if r.settled { ("closed", "Rolled over".to_string()) }
                                else if now < r.opens_at { ("review", format!("In review: claimable in {}", fmt::duration(r.opens_at - now))) }
                                else if now < r.closes_at { ("open", format!("Claimable for {}", fmt::duration(r.closes_at - now))) }
                                else { ("closed", "Claim window closed".to_string()) }
                            };
                            let can_claim = move || status().0 == "open" && r.proof_ok;
                            // Rollover is the round's, whoever claimed: open to anyone once it has closed.
                            let (settled, closes_at) = (r.settled, r.closes_at);
                            let can_roll = move || !settled && ctx.chain_now() >= closes_at;
                            let c = claim;
                            let (w, r4) = (world_for_rows.clone(), r.clone());
                            let (roll_label, roll) = claim::rollover_request(&r);
                            view! {
                                <li class="payout-row" data-epoch=r.round.epoch>
                                    <div class="head">
                                        <strong>{format!("{} holders · round {}", r.round.symbol, r.round.epoch)}</strong>
                                        <span class="muted">" you receive "</span><Amount raw=r.amount decimals=r.round.asset_decimals unit=r.round.asset_symbol.clone() sig=6 />{r.round.asset.is_zero().then(|| view! { <Usd wei=r.amount /> })}
                                    </div>
                                    {snapshot_line(&r.snapshot, ctx.wallet.get_untracked().account, &r.round)}
                                    <p class="muted">{if r.proof_ok { format!("Proof checked in your browser: {} hashes reach the round's on-chain root. ✓", r.proof.len()) } else { "The proof does NOT reach the on-chain root: do not claim with it.".to_string() }}</p>
                                    <div class="actions">
                                        <span class=move || format!("claim-status badge {}", status().0)>{move || status().1}</span>
                                        <Show when=can_claim>
                                            {let r3 = r2.clone(); view! { <button class="primary claim-button" on:click=move |_| c(r3.clone())>"Claim"</button> }}
                                        </Show>
                                        <Show when=can_roll>
                                            {let (l, call) = (roll_label.clone(), roll.clone()); view! { <button class="secondary rollover-button" title="Anyone may: the next round allocates it" on:click=move |_| crate::send::act(ctx, dist, l.clone(), call.clone(), U256::ZERO)>"Return the unclaimed rest to the pot"</button> }}
                                        </Show>
                                    </div>
                                    <Show when=can_claim>
                                        {let (w, r4) = (w.clone(), r4.clone()); view! { <claim_to::ClaimToForm world=w row=r4 /> }}
                                    </Show>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                }.into_any()
            };
                view! { {problems} {list} }.into_any()
            }))}
            </ErrorBoundary>
            </Transition>
        </Show>
    }
}
