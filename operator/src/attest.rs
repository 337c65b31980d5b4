//! The source's side (C21): sign an attestation, and register or revoke a project's source keys.

use crate::chain::{confirm, Chain, Sent};
use crate::error::{KeyError, OpError, Result, TxError};
use alloy::primitives::{Address, U256};
use alloy::signers::local::PrivateKeySigner;
use eden_core::attest::{attestation_domain, source_id, Attestation, Metric, SignedAttestation};
use serde::Deserialize;

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
    let bytes = crate::chain::sign_digest(key, &digest)?;
    let signed = SignedAttestation {
        attestation,
        signature: bytes.into(),
    };
    // What we hand out recovers under the registry's rules.
    let who = signed.signer(&domain).map_err(KeyError::Signature)?;
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
        .map_err(TxError::refused)?;
    confirm(pending).await
}

/// `eden keys revoke`.
pub async fn revoke(chain: &Chain, project: Address, key: Address) -> Result<Sent> {
    let reg = chain.key_registry()?;
    let pending = reg
        .revoke(project, key)
        .send()
        .await
        .map_err(TxError::refused)?;
    confirm(pending).await
}

/// One attestation to sign, as `eden attest sign-batch` reads it (the wire form without `signature`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Unsigned {
    /// Project.
    pub project: Address,
    /// Epoch (a decimal string or a number).
    pub epoch: serde_json::Value,
    /// Source name.
    pub source: String,
    /// Observation time (a decimal string or a number).
    pub observed_at: serde_json::Value,
    /// Metrics.
    pub metrics: Vec<UnsignedMetric>,
}

/// One metric to sign.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnsignedMetric {
    /// Name.
    pub name: String,
    /// Value (a decimal string or a number).
    pub value: serde_json::Value,
}

fn int(v: &serde_json::Value, what: &str) -> Result<U256> {
    match v {
        serde_json::Value::Number(n) => n.as_u64().map(U256::from),
        serde_json::Value::String(s) => U256::from_str_radix(s, 10).ok(),
        _ => None,
    }
    .ok_or_else(|| {
        OpError::input(
            what.to_string(),
            format!("{v} is not a non-negative integer"),
        )
    })
}

impl Unsigned {
    /// The typed attestation.
    ///
    /// # Errors
    /// [`OpError::Input`] naming the field for a bad integer.
    pub fn typed(&self, index: usize) -> Result<Attestation> {
        let small = |v: &serde_json::Value, f: &str| -> Result<u64> {
            let x = int(v, &format!("[{index}].{f}"))?;
            u64::try_from(x).map_err(|_| OpError::input(format!("[{index}].{f}"), "above 2^64"))
        };
        Ok(Attestation {
            project: self.project,
            epoch: small(&self.epoch, "epoch")?,
            source: self.source.clone(),
            observedAt: small(&self.observed_at, "observedAt")?,
            metrics: self
                .metrics
                .iter()
                .enumerate()
                .map(|(k, m)| {
                    Ok(Metric {
                        name: m.name.clone(),
                        value: int(&m.value, &format!("[{index}].metrics[{k}].value"))?,
                    })
                })
                .collect::<Result<_>>()?,
        })
    }
}
