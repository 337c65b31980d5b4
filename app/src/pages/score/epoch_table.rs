//! The Score page's epoch table (C7): every proposed epoch with its status and window, and what
//! anyone may do with it from here: challenge a pending root with the bond (after a confirmation
//! naming what the bond risks), finalize one whose window is over, withdraw the bonds credited to
//! the connected account; the adjudicator upholds or rejects a challenge. Each action goes through
//! the app's transaction pipeline (simulated first, its revert reason shown before any signature).

use crate::chain::abi::IEpochRegistry;
use crate::chain::epochs::{status_name, EpochAction, Registry};
use crate::fmt;
use crate::send::act;
use crate::state::Ctx;
use crate::ui::Amount;
use alloy_primitives::{Address, U256};
use leptos::prelude::*;

/// The bonds credited to the connected account, with a Withdraw button (nothing when none).
#[component]
pub fn BondCredit(credit: U256, registry: Address, currency: String) -> impl IntoView {
    let ctx = Ctx::get();
    (!credit.is_zero()).then(|| {
        let label = format!("Withdraw {} {currency} of bonds", fmt::units(credit, 18, 6));
        view! {
            <p class="result ok" id="bond-credit">
                "Bonds credited to you: "<Amount raw=credit decimals=18 unit=currency.clone() sig=6 />" "
                <button class="secondary" id="withdraw-bonds" on:click=move |_| act(ctx, registry, label.clone(), IEpochRegistry::withdrawCall {}, U256::ZERO)>"Withdraw"</button>
            </p>
        }
    })
}

/// The epochs, each with its status, window and the actions open to the connected account;
/// `on_pick` selects an epoch and checks the project in it.
#[component]
pub fn EpochTable(
    reg: Registry,
    registry: Address,
    currency: String,
    selected: RwSignal<Option<u64>>,
    on_pick: Callback<u64>,
) -> impl IntoView {
    let ctx = Ctx::get();
    let (bond, adjudicator) = (reg.bond, reg.adjudicator);
    view! {
        <div class="table-wrap"><table class="epochs" id="epochs">
            <thead><tr><th>"Epoch"</th><th>"Status"</th><th>"Window"</th><th></th><th>"Anyone may"</th></tr></thead>
            <tbody>
            {reg.epochs.into_iter().map(|r| {
                let e = r.epoch();
                let (status, deadline) = (r.slot.status.code(), r.slot.deadline);
                // A proposed epoch whose slot is empty again: its challenge was upheld (the root
                // struck); a new root may be proposed.
                let name = if status == 0 { "reopened" } else { status_name(status) };
                let window = move || match status {
                    0 => "challenge upheld: awaiting a new root".to_string(),
                    2 => "awaiting the adjudicator".to_string(),
                    1 => {
                        let now = ctx.chain_now();
                        if now < deadline { format!("final in {}", fmt::duration(deadline - now)) } else { "window over: can be finalized".to_string() }
                    }
                    3 => "final".to_string(),
                    _ => String::new(),
                };
                // Only a change of the open actions re-renders them (the clock ticks every second).
                let row = r.clone();
                let actions = Memo::new(move |_| row.actions(ctx.chain_now(), ctx.wallet.with(|w| w.account), adjudicator));
                let confirming = RwSignal::new(false);
                let currency = currency.clone();
                view! {
                    <tr data-epoch=e class=move || if selected.get() == Some(e) { "selected" } else { "" }>
                        <td>{e}{(r.proposed_at > 0).then(|| view! { <br /><span class="muted epoch-date" title=fmt::date_utc(r.proposed_at)>{fmt::day_utc(r.proposed_at)}</span> })}</td>
                        <td><span class=format!("badge {name}")>{name}</span></td>
                        <td title=(status == 2).then_some("Challenged: if the challenge is upheld the slot reopens for a corrected root; if rejected, a fresh 72 h window starts (C7).")>{window}</td>
                        <td><button class="secondary pick-epoch" on:click=move |_| on_pick.run(e)>{if status == 3 { "Verify" } else { "Check" }}</button></td>
                        <td class="epoch-actions">{move || {
                            let currency = currency.clone();
                            actions.get().into_iter().map(|a| match a {
                                EpochAction::Challenge => view! { <ChallengeButton epoch=e bond=bond registry=registry currency=currency.clone() confirming=confirming /> }.into_any(),
                                EpochAction::Finalize => view! {
                                    <button class="secondary finalize-epoch" on:click=move |_| act(ctx, registry, format!("Finalize epoch {e}"), IEpochRegistry::finalizeCall { epoch: e }, U256::ZERO)>"Finalize"</button>
                                }.into_any(),
                                EpochAction::Rule => view! {
                                    <button class="secondary uphold-challenge" title="The root is wrong: the challenger gets both bonds and the slot reopens" on:click=move |_| act(ctx, registry, format!("Uphold the challenge of epoch {e}"), IEpochRegistry::resolveCall { epoch: e, upheld: true }, U256::ZERO)>"Uphold"</button>
                                    " "
                                    <button class="secondary reject-challenge" title="The root stands: the challenger's bond goes to the treasury and a fresh 72 h window starts" on:click=move |_| act(ctx, registry, format!("Reject the challenge of epoch {e}"), IEpochRegistry::resolveCall { epoch: e, upheld: false }, U256::ZERO)>"Reject"</button>
                                }.into_any(),
                            }).collect_view()
                        }}</td>
                    </tr>
                }
            }).collect_view()}
            </tbody>
        </table></div>
    }
}

/// "Challenge", then a confirmation that names the bond and what it risks before anything is sent.
#[component]
fn ChallengeButton(
    epoch: u64,
    bond: U256,
    registry: Address,
    currency: String,
    confirming: RwSignal<bool>,
) -> impl IntoView {
    let ctx = Ctx::get();
    let amount = format!("{} {currency}", fmt::units(bond, 18, 6));
    let label = format!("Challenge epoch {epoch} with a bond of {amount}");
    view! {
        <Show when=move || confirming.get() fallback=move || view! {
            <button class="secondary challenge-epoch" on:click=move |_| confirming.set(true)>"Challenge"</button>
        }>
            <div class="confirm-challenge" role="group" aria-label=format!("Challenge epoch {epoch}")>
                <p class="hint">{format!("Challenging puts up a bond of {amount}, the proposer's. If the adjudicator upholds the challenge (the root is wrong) you get both bonds; if it rejects it, your bond goes to the treasury. Check the root first: Check recomputes it in your browser.")}</p>
                <button class="primary confirm-challenge-epoch" on:click={
                    let label = label.clone();
                    move |_| { confirming.set(false); act(ctx, registry, label.clone(), IEpochRegistry::challengeCall { epoch }, bond); }
                }>{format!("Challenge with {amount}")}</button>
                " "
                <button class="secondary" on:click=move |_| confirming.set(false)>"Cancel"</button>
            </div>
        </Show>
    }
}
