//! `claimTo` (C18): the connected holder has its leaf paid to another address. The app computes
//! the EIP-712 `ClaimTo` (`eden_core::holders::claim_to`) for this leaf, that recipient and a
//! deadline an hour ahead, checks the digest against the distributor's own `claimToDigest`, asks
//! the wallet to sign it (an extension shows every field), checks that the signature recovers to
//! the account, and only then sends `claimTo`.

use super::Row;
use crate::chain::abi::IHolderDistributor;
use crate::chain::rpc::TxRequest;
use crate::chain::world::World;
use crate::fmt;
use crate::state::Ctx;
use crate::ui::ErrorBox;
use alloy_primitives::{Address, U256};
use alloy_sol_types::SolCall;
use eden_core::holders::{
    claim_to_domain, claim_to_signing_hash, claim_to_typed_data, recover_claim_to_signer, ClaimTo,
};
use leptos::prelude::*;

/// Seconds the signature stays valid.
pub const CLAIM_TO_VALIDITY_SECS: u64 = 3_600;

/// The recipient typed in, checked in words.
pub fn parse_recipient(text: &str, account: Address) -> Result<Address, String> {
    let a: Address = text
        .trim()
        .parse()
        .map_err(|_| "Enter the recipient's address: 0x followed by 40 hex digits.".to_string())?;
    if a.is_zero() {
        return Err("The zero address cannot receive a payout.".into());
    }
    if a == account {
        return Err("That is your own address: use Claim.".into());
    }
    Ok(a)
}

/// Signs and sends `claimTo` for `r`; `Err` in words when anything stops it before sending.
async fn sign_and_send(
    ctx: Ctx,
    world: World,
    r: Row,
    account: Address,
    recipient: Address,
) -> Result<(), String> {
    let dist = world.contracts.holder_distributor;
    let deadline = U256::from(ctx.chain_now() + CLAIM_TO_VALIDITY_SECS);
    let msg = ClaimTo {
        token: r.round.token,
        asset: r.round.asset,
        epoch: r.round.epoch,
        account,
        amount: r.amount,
        recipient,
        deadline,
    };
    let domain = claim_to_domain(world.chain_id, dist);
    let digest = claim_to_signing_hash(&domain, &msg);
    let chain_digest = world
        .rpc()
        .call(
            dist,
            &IHolderDistributor::claimToDigestCall {
                token: msg.token,
                asset: msg.asset,
                epoch: msg.epoch,
                account,
                amount: msg.amount,
                recipient,
                deadline,
            },
        )
        .await
        .map_err(|e| format!("Reading the distributor's digest: {e}"))?;
    if chain_digest != digest {
        return Err("The distributor's ClaimTo digest differs from the one computed here: nothing was signed.".into());
    }
    let typed = claim_to_typed_data(&domain, &msg);
    let sig = crate::wallet::sign_typed_data(&ctx.wallet.get_untracked(), &typed, digest)
        .await
        .map_err(|e| format!("Signing: {e}"))?;
    match recover_claim_to_signer(&domain, &msg, &sig) {
        Ok(s) if s == account => {}
        Ok(s) => {
            return Err(format!(
                "The wallet signed as {s}, not as {account}: not sent."
            ))
        }
        Err(e) => return Err(format!("The wallet's signature: {e}")),
    }
    let data = IHolderDistributor::claimToCall {
        token: msg.token,
        asset: msg.asset,
        epoch: msg.epoch,
        account,
        amount: msg.amount,
        proof: r.proof.clone(),
        recipient,
        deadline,
        signature: sig.into(),
    }
    .abi_encode();
    let label = format!(
        "Claim {} {} to {} (round {})",
        fmt::units(r.amount, r.round.asset_decimals, 6),
        r.round.asset_symbol,
        fmt::short_addr(&recipient.to_string()),
        r.round.epoch
    );
    crate::send::send(ctx, label, TxRequest::call(dist, data)).await;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recipients_are_checked_in_words() {
        let me = Address::repeat_byte(1);
        let other = Address::repeat_byte(2);
        assert_eq!(parse_recipient(&format!(" {other} "), me), Ok(other));
        assert!(parse_recipient("0x12", me)
            .unwrap_err()
            .contains("40 hex digits"));
        assert!(parse_recipient(&Address::ZERO.to_string(), me)
            .unwrap_err()
            .contains("zero address"));
        assert!(parse_recipient(&me.to_string(), me)
            .unwrap_err()
            .contains("use Claim"));
    }
}
