//! The source's side (C21): sign an attestation, and register or revoke a project's source keys.

use crate::chain::{confirm, revert_reason, Chain, Sent};
use crate::error::{OpError, Result};
use alloy::primitives::{Address, U256};
use alloy::signers::local::PrivateKeySigner;
use alloy::signers::SignerSync;
use eden_core::attest::{attestation_domain, source_id, Attestation, Metric, SignedAttestation};

/// Parses `name=value` (a decimal integer).
pub fn parse_metric(s: &str) -> Result<Metric> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| OpError::input("--metric", format!("'{s}': expected name=value")))?;
    let value = U256::from_str_radix(value.trim(), 10).map_err(|_| {
        OpError::input(
            "--metric",
            format!("'{s}': the value must be a decimal integer"),
        )
    })?;
    if name.trim().is_empty() {
        return Err(OpError::input("--metric", format!("'{s}': empty name")));
    }
    Ok(Metric {
        name: name.trim().to_string(),
        value,
    })
}

/// Signs an attestation for the deployment `(chain_id, source_key_registry)`.
pub fn sign(
    key: &PrivateKeySigner,
    chain_id: u64,
    source_key_registry: Address,
    attestation: Attestation,
) -> Result<SignedAttestation> {
    let domain = attestation_domain(chain_id, source_key_registry);
    let digest = eden_core::attest::attestation_signing_hash(&domain, &attestation);
    let sig = key
        .sign_hash_sync(&digest)
        .map_err(|e| OpError::Key(e.to_string()))?;
    let mut bytes = sig.as_bytes().to_vec();
    if bytes[64] < 27 {
        bytes[64] += 27;
    }
    let signed = SignedAttestation {
        attestation,
        signature: bytes.into(),
    };
    // What we hand out recovers under the registry's rules.
    let who = signed
        .signer(&domain)
        .map_err(|e| OpError::Key(e.to_string()))?;
    debug_assert_eq!(who, key.address());
    Ok(signed)
}

/// `eden keys register`: registers `key` for `source` of `project` (the sender must be its controller).
pub async fn register(chain: &Chain, project: Address, source: &str, key: Address) -> Result<Sent> {
    let reg = chain.key_registry()?;
    let me = chain.sender()?;
    let controller = reg
        .controllerOf(project)
        .call()
        .await
        .map_err(OpError::rpc)?;
    if controller != me {
        return Err(OpError::Refused(format!(
            "{project}'s controller is {controller}; this key is {me}"
        )));
    }
    let pending = reg
        .register(project, source_id(source), key)
        .send()
        .await
        .map_err(|e| OpError::Tx(revert_reason(&e)))?;
    confirm(pending).await
}

/// `eden keys revoke`.
pub async fn revoke(chain: &Chain, project: Address, key: Address) -> Result<Sent> {
    let reg = chain.key_registry()?;
    let pending = reg
        .revoke(project, key)
        .send()
        .await
        .map_err(|e| OpError::Tx(revert_reason(&e)))?;
    confirm(pending).await
}
