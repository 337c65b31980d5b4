//! The attestation a source key signs (C21): EIP-712 typed data
//!
//! ```text
//! Metric(string name,uint256 value)
//! Attestation(address project,uint64 epoch,string source,uint64 observedAt,Metric[] metrics)
//! ```
//!
//! under the domain `{name: "Eden Attestations", version: "1", chainId, verifyingContract:
//! SourceKeyRegistry}`. One attestation per project, source and epoch carries every metric that source
//! reports, so a cohort costs one signature check per source, not one per number. It is bound to the
//! chain and registry (domain), the project, the epoch, the source (a key signs one source) and the time
//! it was observed (checked against the key's validity window). `source` is hashed as EIP-712 hashes a
//! string, `keccak256(bytes(source))`, which is the registry's `bytes32 source` ([`source_id`]).
//!
//! Wire form ([`SignedAttestation`]), one JSON object, integers as decimal strings:
//! `{"project":"0x…","epoch":"20500","source":"github","observedAt":"1767225600",
//!   "metrics":[{"name":"resolved_work","value":"412"}],"signature":"0x…65 bytes…"}`.
//! Signatures follow C6 (low s, `v` 27/28: [`crate::eip712::parse_signature`]).

use crate::eip712::{parse_signature, SignatureError};
use crate::serde_dec;
use alloy_primitives::{keccak256, Address, Bytes, B256, U256};
use alloy_sol_types::{sol, Eip712Domain, SolStruct};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

sol! {
    /// One metric value in an attestation.
    #[derive(Debug, PartialEq, Eq)]
    struct Metric {
        string name;
        uint256 value;
    }

    /// What a source key signs for one project, source and epoch (C21).
    #[derive(Debug, PartialEq, Eq)]
    struct Attestation {
        address project;
        uint64 epoch;
        string source;
        uint64 observedAt;
        Metric[] metrics;
    }
}

/// The attestation domain's name.
pub const ATTESTATION_DOMAIN_NAME: &str = "Eden Attestations";
/// The attestation domain's version.
pub const ATTESTATION_DOMAIN_VERSION: &str = "1";
/// The EIP-712 type string of [`Attestation`] (its referenced `Metric` type appended, as EIP-712 encodes it).
pub const ATTESTATION_TYPE: &str = "Attestation(address project,uint64 epoch,string source,uint64 observedAt,Metric[] metrics)Metric(string name,uint256 value)";

/// `{name: "Eden Attestations", version: "1", chainId, verifyingContract: registry}`.
pub fn attestation_domain(chain_id: u64, source_key_registry: Address) -> Eip712Domain {
    Eip712Domain::new(
        Some(Cow::Borrowed(ATTESTATION_DOMAIN_NAME)),
        Some(Cow::Borrowed(ATTESTATION_DOMAIN_VERSION)),
        Some(U256::from(chain_id)),
        Some(source_key_registry),
        None,
    )
}

/// The registry's `bytes32 source` of a source name: `keccak256(bytes(name))`.
pub fn source_id(name: &str) -> B256 {
    keccak256(name.as_bytes())
}

/// The digest a source key signs.
pub fn attestation_signing_hash(domain: &Eip712Domain, a: &Attestation) -> B256 {
    a.eip712_signing_hash(domain)
}

/// Recovers the key that signed `a` (C6 signature rules).
///
/// # Errors
/// Any [`SignatureError`].
pub fn recover_attestation_signer(
    domain: &Eip712Domain,
    a: &Attestation,
    signature: &[u8],
) -> Result<Address, SignatureError> {
    let sig = parse_signature(signature)?;
    crate::ecrecover::recover_address(&sig, &attestation_signing_hash(domain, a))
}

/// An attestation with its signature (the wire form in the module doc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedAttestation {
    /// The signed message.
    pub attestation: Attestation,
    /// 65 bytes `r ‖ s ‖ v`.
    pub signature: Bytes,
}

/// A malformed attestation file or object; the message names the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("attestation: {path}: {message}")]
pub struct AttestationJsonError {
    /// JSON path of the offending field (`.` for the whole document).
    pub path: String,
    /// What is wrong.
    pub message: String,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct WireMetric {
    name: String,
    #[serde(with = "serde_dec::u256")]
    value: U256,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Wire {
    project: Address,
    #[serde(with = "serde_dec::int")]
    epoch: u64,
    source: String,
    #[serde(with = "serde_dec::int")]
    observed_at: u64,
    metrics: Vec<WireMetric>,
    signature: Bytes,
}

impl From<&SignedAttestation> for Wire {
    fn from(s: &SignedAttestation) -> Wire {
        let a = &s.attestation;
        Wire {
            project: a.project,
            epoch: a.epoch,
            source: a.source.clone(),
            observed_at: a.observedAt,
            metrics: a
                .metrics
                .iter()
                .map(|m| WireMetric {
                    name: m.name.clone(),
                    value: m.value,
                })
                .collect(),
            signature: s.signature.clone(),
        }
    }
}

impl From<Wire> for SignedAttestation {
    fn from(w: Wire) -> SignedAttestation {
        SignedAttestation {
            attestation: Attestation {
                project: w.project,
                epoch: w.epoch,
                source: w.source,
                observedAt: w.observed_at,
                metrics: w
                    .metrics
                    .into_iter()
                    .map(|m| Metric {
                        name: m.name,
                        value: m.value,
                    })
                    .collect(),
            },
            signature: w.signature,
        }
    }
}

impl Serialize for SignedAttestation {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Wire::from(self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for SignedAttestation {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Wire::deserialize(d).map(SignedAttestation::from)
    }
}

impl SignedAttestation {
    /// Parses one attestation (the wire form), naming the offending field on error.
    ///
    /// # Errors
    /// [`AttestationJsonError`] for malformed JSON, a missing or unknown field, a bad number or address.
    pub fn from_json(text: &str) -> Result<SignedAttestation, AttestationJsonError> {
        parse_json(text)
    }

    /// Parses a JSON array of attestations.
    ///
    /// # Errors
    /// [`AttestationJsonError`] naming the element and field (`[3].metrics[0].value`).
    pub fn list_from_json(text: &str) -> Result<Vec<SignedAttestation>, AttestationJsonError> {
        parse_json(text)
    }

    /// The wire form as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Recovers the signing key under `domain`.
    ///
    /// # Errors
    /// Any [`SignatureError`].
    pub fn signer(&self, domain: &Eip712Domain) -> Result<Address, SignatureError> {
        recover_attestation_signer(domain, &self.attestation, &self.signature)
    }
}

fn parse_json<T: for<'de> Deserialize<'de>>(text: &str) -> Result<T, AttestationJsonError> {
    let de = &mut serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        AttestationJsonError {
            path,
            message: e.into_inner().to_string(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::{address, hex};
    use k256::ecdsa::SigningKey;

    pub(crate) fn sign(
        key: &SigningKey,
        domain: &Eip712Domain,
        a: Attestation,
    ) -> SignedAttestation {
        let digest = attestation_signing_hash(domain, &a);
        let (sig, rec) = key.sign_prehash_recoverable(digest.as_slice()).unwrap();
        let (sig, rec) = match sig.normalize_s() {
            Some(n) => (
                n,
                k256::ecdsa::RecoveryId::from_byte(rec.to_byte() ^ 1).unwrap(),
            ),
            None => (sig, rec),
        };
        let mut bytes = sig.to_bytes().to_vec();
        bytes.push(27 + rec.to_byte());
        SignedAttestation {
            attestation: a,
            signature: bytes.into(),
        }
    }

    fn sample() -> Attestation {
        Attestation {
            project: address!("0x1111111111111111111111111111111111111111"),
            epoch: 20_500,
            source: "github".into(),
            observedAt: 1_767_225_600,
            metrics: vec![
                Metric {
                    name: "resolved_work".into(),
                    value: U256::from(412u32),
                },
                Metric {
                    name: "unique_counterparties".into(),
                    value: U256::from(37u32),
                },
            ],
        }
    }

    #[test]
    fn type_string_and_source_hash_are_the_eip712_ones() {
        assert_eq!(sample().eip712_type_hash(), keccak256(ATTESTATION_TYPE));
        // EIP-712 hashes a string member as keccak256(bytes): the registry's bytes32 source.
        let a = sample();
        let enc = a.eip712_encode_data();
        assert_eq!(&enc[64..96], source_id("github").as_slice());
    }

    #[test]
    fn sign_recover_round_trip_and_binding() {
        let key = SigningKey::from_slice(&[7u8; 32]).unwrap();
        let who = Address::from_private_key(&key);
        let reg = address!("0x2222222222222222222222222222222222222222");
        let d = attestation_domain(31_337, reg);
        let s = sign(&key, &d, sample());
        assert_eq!(s.signer(&d).unwrap(), who);
        // bound to chain, registry, and every field
        assert_ne!(s.signer(&attestation_domain(1, reg)).unwrap(), who);
        assert_ne!(
            s.signer(&attestation_domain(31_337, Address::ZERO))
                .unwrap(),
            who
        );
        let mut t = s.clone();
        t.attestation.metrics[0].value += U256::from(1u8);
        assert_ne!(t.signer(&d).unwrap(), who);
        let mut t = s.clone();
        t.attestation.epoch += 1;
        assert_ne!(t.signer(&d).unwrap(), who);
        let mut t = s.clone();
        t.attestation.source = "stripe".into();
        assert_ne!(t.signer(&d).unwrap(), who);
        // JSON round trip
        let back = SignedAttestation::from_json(&s.to_json()).unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn malformed_json_names_the_field() {
        let key = SigningKey::from_slice(&[7u8; 32]).unwrap();
        let d = attestation_domain(1, Address::ZERO);
        let good = sign(&key, &d, sample()).to_json();
        let bad = good.replace("\"412\"", "\"4x2\"");
        let e = SignedAttestation::from_json(&bad).unwrap_err();
        assert_eq!(e.path, "metrics[0].value", "{e}");
        let e =
            SignedAttestation::list_from_json(&format!("[{good},{{\"project\":1}}]")).unwrap_err();
        assert!(e.path.starts_with("[1]"), "{e}");
        let e = SignedAttestation::from_json(&good.replace("\"epoch\"", "\"epok\"")).unwrap_err();
        assert!(e.message.contains("epok"), "{e}");
        assert!(SignedAttestation::from_json("").is_err());
        assert!(SignedAttestation::from_json(&hex::encode([0u8; 40])).is_err());
    }
}
