//! C21a: which adapter a source's rule requires, and what an adapter leaves out of a re-fetched value.
//!
//! A source adapter knows its source's reconciliation rules (§2.1: "refunds, self-dealing, duplicate
//! work"): a payments adapter nets out refunds and chargebacks and drops payments between the project's own
//! accounts; a work-tracker adapter drops reopened, duplicate and self-opened items; a git-forge adapter drops
//! reverted, bot and self-approved work. Each item it leaves out is an [`Exclusion`], carried with the
//! re-fetched value into the intake report, and named in the claim's failure when the attested value
//! counted it.

use crate::serde_dec;
use alloy_primitives::U256;
use serde::de::{Deserializer, Error, Visitor};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The source system an adapter reads (`"adapter"` in a source's intake rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum AdapterKind {
    /// A payments processor (settled volume).
    Payments,
    /// A work tracker (resolved items).
    WorkTracker,
    /// A git forge (merged work).
    GitForge,
}

impl fmt::Display for AdapterKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AdapterKind::Payments => "payments",
            AdapterKind::WorkTracker => "workTracker",
            AdapterKind::GitForge => "gitForge",
        })
    }
}

/// Why an adapter left an item out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Anomaly {
    /// A payment (partly) refunded: the refunded part.
    Refund,
    /// A disputed payment: all of it.
    Chargeback,
    /// A payment between accounts the project controls.
    SelfDealing,
    /// Work reopened after it was resolved.
    Reopened,
    /// Work closed as a duplicate of another item.
    Duplicate,
    /// Work opened by the project's own members.
    SelfOpened,
    /// Work undone by a revert (and the revert itself).
    Reverted,
    /// Work by a bot account.
    Bot,
    /// Work approved by no one but its author.
    SelfApproved,
}

impl fmt::Display for Anomaly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Anomaly::Refund => "refund",
            Anomaly::Chargeback => "chargeback",
            Anomaly::SelfDealing => "self-dealing",
            Anomaly::Reopened => "reopened",
            Anomaly::Duplicate => "duplicate",
            Anomaly::SelfOpened => "self-opened",
            Anomaly::Reverted => "reverted",
            Anomaly::Bot => "bot",
            Anomaly::SelfApproved => "self-approved",
        })
    }
}

/// One item an adapter left out of a re-fetched value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Exclusion {
    /// Why.
    pub kind: Anomaly,
    /// The source's id of the item (`ch_…`, `ENG-102`, `#45`).
    pub item: String,
    /// How much of the metric it was (cents of a payment, 1 for a work item).
    #[serde(
        serialize_with = "serde_dec::u256::serialize",
        deserialize_with = "text_or_bytes"
    )]
    pub amount: U256,
    /// In words (`20000 of 50000 refunded`, `reverted by #45`).
    pub detail: String,
}

impl fmt::Display for Exclusion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} ({})", self.kind, self.item, self.detail)
    }
}

/// Exclusions in words, for a failure's message: `; it left out refund ch_1 (…), bot #42 (…)`.
pub(crate) fn left_out(excluded: &[Exclusion]) -> String {
    if excluded.is_empty() {
        return String::new();
    }
    let items: Vec<String> = excluded.iter().map(ToString::to_string).collect();
    format!("; it left out {}", items.join(", "))
}

/// A `uint256` as decimal text or its bytes, whichever the encoding wrote (C23).
fn text_or_bytes<'de, D: Deserializer<'de>>(d: D) -> Result<U256, D::Error> {
    struct V;
    impl Visitor<'_> for V {
        type Value = U256;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a non-negative decimal integer string or its big-endian bytes")
        }
        fn visit_str<E: Error>(self, v: &str) -> Result<U256, E> {
            serde_dec::u256::parse(v).map_err(E::custom)
        }
        fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<U256, E> {
            serde_dec::bin::from_bytes(v)
        }
    }
    d.deserialize_any(V)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exclusion_reads_back_in_both_encodings_and_reads_as_words() {
        let e = Exclusion {
            kind: Anomaly::SelfDealing,
            item: "ch_1".into(),
            amount: U256::from(40_000),
            detail: "paid by cus_9, declared the project's own customer".into(),
        };
        let json = serde_json::to_string(&e).unwrap();
        assert!(json.contains(r#""kind":"selfDealing""#) && json.contains(r#""amount":"40000""#));
        assert_eq!(serde_json::from_str::<Exclusion>(&json).unwrap(), e);
        let packed = rmp_serde::to_vec_named(&e).unwrap();
        assert_eq!(rmp_serde::from_slice::<Exclusion>(&packed).unwrap(), e);
        assert_eq!(
            left_out(std::slice::from_ref(&e)),
            "; it left out self-dealing ch_1 (paid by cus_9, declared the project's own customer)"
        );
        assert_eq!(AdapterKind::WorkTracker.to_string(), "workTracker");
    }
}
