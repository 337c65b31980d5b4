//! `claimTo` (C18): the connected holder has its leaf paid to another address. The app computes
//! the EIP-712 `ClaimTo` (`eden_core::holders::claim_to`) for this leaf, that recipient and a
//! deadline an hour ahead, checks the digest against the distributor's own `claimToDigest`, asks
//! the wallet to sign it (an extension shows every field), checks that the signature recovers to
//! the account, and only then sends `claimTo`.

use crate::chain::world::World;
use crate::flows::claim::{self, parse_recipient, Row};
use crate::flows::words;
use crate::state::Ctx;
use crate::ui::ErrorBox;
use alloy_primitives::Address;
use leptos::prelude::*;

/// Signs and sends `claimTo` for `r` (see the module doc); `Err` in words when anything stops it before
/// sending.
async fn sign_and_send(
    ctx: Ctx,
    world: World,
    r: Row,
    account: Address,
    recipient: Address,
) -> Result<(), String> {
    let signing = claim::claim_to_signing(&world, &r, account, recipient, ctx.chain_now())
        .await
        .map_err(|e| words::claim_to_refusal(&e))?;
    let sig =
        crate::wallet::sign_typed_data(&ctx.wallet.get_untracked(), &signing.typed, signing.digest)
            .await
            .map_err(|e| format!("Signing: {e}"))?;
    let (label, tx) = claim::claim_to_request(&world, &r, &signing, &sig)
        .map_err(|e| words::claim_to_refusal(&e))?;
    crate::send::send(ctx, label, tx).await;
    Ok(())
}

/// "Claim to another address" under an open, proven payout.
#[component]
pub fn ClaimToForm(world: World, row: Row) -> impl IntoView {
    let ctx = Ctx::get();
    let recipient = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let go = move |_| {
        error.set(None);
        let Some(account) = ctx.wallet.get_untracked().account else {
            return error.set(Some("Connect a wallet first.".into()));
        };
        let to = match parse_recipient(&recipient.get_untracked(), account) {
            Ok(a) => a,
            Err(e) => return error.set(Some(e)),
        };
        let (w, r) = (world.clone(), row.clone());
        leptos::task::spawn_local(async move {
            if let Err(e) = sign_and_send(ctx, w, r, account, to).await {
                error.set(Some(e));
            }
        });
    };
    view! {
        <details class="claim-to">
            <summary>"Claim to another address"</summary>
            <p class="muted">"You sign (EIP-712) that this payout goes to the address below, for the next hour; the signature names this round, this amount and that address only."</p>
            <label>"Recipient "<input class="claim-to-recipient" placeholder="0x…" spellcheck="false" prop:value=move || recipient.get() on:input=move |ev| recipient.set(event_target_value(&ev)) /></label>
            " "<button class="secondary claim-to-button" on:click=go>"Sign and claim to it"</button>
            {move || error.get().map(|e| view! { <ErrorBox message=e /> })}
        </details>
    }
}
