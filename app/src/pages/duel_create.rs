//! Creating a duel (B1): `DuelHook.createDuel` is the owner's. When the owner is the deployment's
//! timelock, its proposer schedules the call here and anyone executes it once the delay has
//! passed; an account that owns the hook itself creates the duel at once. Both pools (ETH against
//! each token, on this hook) must have a price: the form checks that before anything is sent.

use crate::chain::governance::{self, DuelOwner, ScheduledDuel};
use crate::chain::world::World;
use crate::error::Context;
use crate::flows::duel_create::{self, keys_checked};
use crate::fmt;
use crate::state::Ctx;
use crate::ui::{caught, Loading};
use alloy_primitives::{Address, U256};
use leptos::prelude::*;

/// The pools of the local seed's duels: 0.3 % and spacing 60 (editable in the form).
const DEFAULT_FEE: &str = "3000";
const DEFAULT_SPACING: &str = "60";

/// The "Create a duel" section of the Duel list.
#[component]
pub fn CreateDuel(world: World, hook: Address) -> impl IntoView {
    let ctx = Ctx::get();
    let w1 = world.clone();
    let gov = LocalResource::new(move || {
        ctx.refresh.track();
        let me = ctx.wallet.get().account;
        let w = w1.clone();
        async move {
            governance::duel_owner(&w.rpc(), hook, me, w.deployment_block)
                .await
                .map(|o| (me, o))
                .context("Reading who creates duels")
        }
    });
    let (a, b) = (RwSignal::new(String::new()), RwSignal::new(String::new()));
    let (fee, spacing) = (
        RwSignal::new(DEFAULT_FEE.to_string()),
        RwSignal::new(DEFAULT_SPACING.to_string()),
    );
    let error = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let world = StoredValue::new(world);
    let submit = move |owner: DuelOwner| {
        error.set(None);
        busy.set(true);
        let w = world.get_value();
        leptos::task::spawn_local(async move {
            let keys = keys_checked(
                &w,
                hook,
                &a.get_untracked(),
                &b.get_untracked(),
                &fee.get_untracked(),
                &spacing.get_untracked(),
            )
            .await;
            let (ka, kb) = match keys {
                Ok(k) => k,
                Err(e) => {
                    error.set(Some(e.to_string()));
                    busy.set(false);
                    return;
                }
            };
            let (label, tx) = duel_create::create_request(hook, &owner, ka, kb, ctx.chain_now());
            let sent = crate::send::send(ctx, label, tx).await;
            if sent {
                a.set(String::new());
                b.set(String::new());
            }
            busy.set(false);
        });
    };
    let execute = move |timelock: Address, s: ScheduledDuel| {
        let (label, call) = duel_create::execute_request(hook, &s);
        crate::send::act(ctx, timelock, label, call, U256::ZERO);
    };
    view! {
        <h2 id="create-duel-title">"Create a duel"</h2>
        <Transition fallback=|| view! { <Loading what="Reading who creates duels…" /> }>
        <ErrorBoundary fallback=caught>
        {move || gov.get().map(|loaded| loaded.map(|(me, owner)| {
            let is_owner = me == Some(owner.owner);
            let may = is_owner || owner.timelock.as_ref().is_some_and(|t| t.may_propose);
            let who = match &owner.timelock {
                Some(t) => format!("Duels are created by the hook's owner, the timelock {}: its proposer schedules one, and anyone executes it after {}.", fmt::short_addr(&t.address.to_checksum(None)), fmt::duration(t.min_delay)),
                None => format!("Duels are created by the hook's owner, {}.", fmt::short_addr(&owner.owner.to_checksum(None))),
            };
            let scheduled = owner.timelock.as_ref().map(|t| {
                let tl = t.address;
                let rows = t.scheduled.iter().rev().map(|s| {
                    let s2 = s.clone();
                    let ready_at = s.ready_at;
                    let state = move || match ready_at {
                        0 => ("cancelled", "cancelled".to_string()),
                        1 => ("done", "created".to_string()),
                        r if ctx.chain_now() < r => ("waiting", format!("executable in {}", fmt::duration(r - ctx.chain_now()))),
                        _ => ("ready", "ready: anyone may execute it".to_string()),
                    };
                    view! {
                        <li class="scheduled-duel" data-state=move || state().0>
                            <code>{fmt::short_addr(&s.key_a.currency1.to_checksum(None))}</code>" vs "<code>{fmt::short_addr(&s.key_b.currency1.to_checksum(None))}</code>
                            " · "<span class="state">{move || state().1}</span>" "
                            <Show when=move || state().0 == "ready">
                                {let s3 = s2.clone(); view! { <button class="secondary execute-duel" on:click=move |_| execute(tl, s3.clone())>"Create it now"</button> }}
                            </Show>
                        </li>
                    }
                }).collect_view();
                (!t.scheduled.is_empty()).then(|| view! { <ul class="scheduled-duels" id="scheduled-duels">{rows}</ul> })
            });
            let o2 = owner.clone();
            view! {
                <p class="muted" id="duel-owner">{who}</p>
                {scheduled}
                {if may {
                    view! {
                        <div class="create-duel" id="create-duel">
                            <label class="field"><span class="label">"Token A (its ETH pool on this hook)"</span><input id="duel-token-a" placeholder="0x…" prop:value=move || a.get() on:input=move |ev| a.set(event_target_value(&ev)) /></label>
                            <label class="field"><span class="label">"Token B (its ETH pool on this hook)"</span><input id="duel-token-b" placeholder="0x…" prop:value=move || b.get() on:input=move |ev| b.set(event_target_value(&ev)) /></label>
                            <label class="field inline"><span class="label">"Pool fee (pips)"</span><input id="duel-fee" inputmode="numeric" prop:value=move || fee.get() on:input=move |ev| fee.set(event_target_value(&ev)) /></label>
                            <label class="field inline"><span class="label">"Tick spacing"</span><input id="duel-spacing" inputmode="numeric" prop:value=move || spacing.get() on:input=move |ev| spacing.set(event_target_value(&ev)) /></label>
                            {move || error.get().map(|e| view! { <p class="bad" id="create-duel-error" role="alert">{e}</p> })}
                            <button class="primary" id="create-duel-button" disabled=move || busy.get() on:click=move |_| submit(o2.clone())>
                                {if is_owner { "Create the duel" } else { "Propose the duel" }}
                            </button>
                        </div>
                    }.into_any()
                } else {
                    view! { <p class="empty">"Connect the owner's or a proposer's account to create one."</p> }.into_any()
                }}
            }
        }))}
        </ErrorBoundary>
        </Transition>
    }
}
