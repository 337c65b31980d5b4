//! JS exports for `crate::eip712` (C6): `epochRootSigningHash`, `recoverEpochRootSigner`.
//!
//! `domain = {name, version, chainId, verifyingContract}` and
//! `message = {epoch, root, inputsRoot, proposer, expiry}` (the proposer is the one account the
//! signature lets propose the root); `chainId`, `epoch` and `expiry` may be decimal
//! strings, safe-integer JS numbers or BigInts. Unknown fields (e.g. `salt`) are rejected, since
//! they would change the signed hash.

use std::borrow::Cow;

use super::js_error;
use alloy_primitives::{hex, Address, B256, U256};
use alloy_sol_types::Eip712Domain;
use serde::Deserialize;
use tsify::Tsify;
use wasm_bindgen::prelude::*;

use super::{err, from_js};
use crate::eip712::{epoch_root_signing_hash, recover_epoch_root_signer, EpochRoot};

/// The EIP-712 domain of an `EpochRoot` signature as it crosses from JavaScript.
#[derive(Deserialize, Tsify)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EpochRootDomain {
    name: String,
    version: String,
    #[serde(with = "crate::serde_dec::u256_id")]
    #[tsify(type = "IntegerLike")]
    chain_id: U256,
    verifying_contract: Address,
}

/// An `EpochRoot` message (C6) as it crosses from JavaScript.
#[derive(Deserialize, Tsify)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EpochRootMessage {
    #[serde(with = "crate::serde_dec::int")]
    #[tsify(type = "IntegerLike")]
    epoch: u64,
    root: B256,
    inputs_root: B256,
    proposer: Address,
    #[serde(with = "crate::serde_dec::int")]
    #[tsify(type = "IntegerLike")]
    expiry: u64,
}

/// Rejects keys of a plain object outside `allowed` (serde-wasm-bindgen only reads the known
/// fields, so `deny_unknown_fields` alone does not see them).
fn reject_unknown_keys(what: &str, v: &JsValue, allowed: &[&str]) -> Result<(), JsValue> {
    if !v.is_object() {
        return Err(js_error(&format!("{what}: expected an object")));
    }
    for key in js_sys::Object::keys(&js_sys::Object::from(v.clone())).iter() {
        let key = key.as_string().unwrap_or_default();
        if !allowed.contains(&key.as_str()) {
            return Err(js_error(&format!(
                "{what}: unknown field '{key}' (expected only {})",
                allowed.join(", ")
            )));
        }
    }
    Ok(())
}

fn domain_from_js(domain: JsValue) -> Result<Eip712Domain, JsValue> {
    reject_unknown_keys(
        "domain",
        &domain,
        &["name", "version", "chainId", "verifyingContract"],
    )?;
    let d: EpochRootDomain = from_js("domain", domain)?;
    Ok(Eip712Domain::new(
        Some(Cow::Owned(d.name)),
        Some(Cow::Owned(d.version)),
        Some(d.chain_id),
        Some(d.verifying_contract),
        None,
    ))
}

fn message_from_js(message: JsValue) -> Result<EpochRoot, JsValue> {
    reject_unknown_keys(
        "message",
        &message,
        &["epoch", "root", "inputsRoot", "proposer", "expiry"],
    )?;
    let m: EpochRootMessage = from_js("message", message)?;
    Ok(EpochRoot {
        epoch: m.epoch,
        root: m.root,
        inputsRoot: m.inputs_root,
        proposer: m.proposer,
        expiry: m.expiry,
    })
}

/// `epochRootSigningHash(domain, message)`: the EIP-712 digest (0x-hex) a publisher signs (C6).
#[wasm_bindgen(js_name = epochRootSigningHash)]
pub fn epoch_root_signing_hash_js(
    #[wasm_bindgen(unchecked_param_type = "EpochRootDomain")] domain: JsValue,
    #[wasm_bindgen(unchecked_param_type = "EpochRootMessage")] message: JsValue,
) -> Result<String, JsValue> {
    let domain = domain_from_js(domain)?;
    let msg = message_from_js(message)?;
    Ok(epoch_root_signing_hash(&domain, &msg).to_string())
}

/// `recoverEpochRootSigner(domain, message, signature)`: the checksummed address that signed
/// (C6). `signature` is 0x-hex `r ‖ s ‖ v` (65 bytes, `v` ∈ {27, 28} as the registry requires, low `s`).
#[wasm_bindgen(js_name = recoverEpochRootSigner)]
pub fn recover_epoch_root_signer_js(
    #[wasm_bindgen(unchecked_param_type = "EpochRootDomain")] domain: JsValue,
    #[wasm_bindgen(unchecked_param_type = "EpochRootMessage")] message: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] signature: JsValue,
) -> Result<String, JsValue> {
    let signature: &str = &super::text_from_js("signature", &signature)?;
    let domain = domain_from_js(domain)?;
    let msg = message_from_js(message)?;
    let t = signature.trim();
    let body = t
        .strip_prefix("0x")
        .or_else(|| t.strip_prefix("0X"))
        .ok_or_else(|| js_error("signature: expected 0x-prefixed hex (65 bytes: r ‖ s ‖ v)"))?;
    let bytes = hex::decode(body).map_err(|e| err("signature", e))?;
    let signer =
        recover_epoch_root_signer(&domain, &msg, &bytes).map_err(|e| js_error(&e.to_string()))?;
    Ok(signer.to_checksum(None))
}
