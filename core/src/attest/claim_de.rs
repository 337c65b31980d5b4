//! Reading a [`Claim`] without serde's `flatten` buffering (C23).
//!
//! A claim is written (derived `Serialize`) with its outcome and reason flattened into it: `{attestation,
//! source, metric, attested, outcome, value, refetched}` or `{…, outcome: "failed", reason: "keyNotValid",
//! key, observedAt, …}`. A derived `Deserialize` with `flatten` buffers every field of every claim into an
//! intermediate tree first, which dominated decoding a large intake report (a watchtower reads 1.2 million
//! claims for a 100,000-project epoch). This reader visits the map once, into typed slots, and then builds
//! the outcome from its tags. It reads what the writer writes in either encoding: in the compact one the
//! unflattened `attested` is bytes and the flattened fields are text (see `serde_dec`), so each number here
//! takes either form. Unknown fields are ignored, as the derived reader did.

use super::anomaly::Exclusion;
use super::intake::{Claim, ClaimOutcome, FailReason, IgnoreReason};
use crate::scoring::config::ForgeryTier;
use alloy_primitives::{Address, U256};
use serde::de::{Deserialize, Deserializer, Error, IgnoredAny, MapAccess, Visitor};
use std::fmt;

/// A `uint256` as decimal text or minimal big-endian bytes.
struct Num(U256);

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Num, D::Error> {
        d.deserialize_any(NumVisitor).map(Num)
    }
}

struct NumVisitor;

impl Visitor<'_> for NumVisitor {
    type Value = U256;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a non-negative decimal integer string or its big-endian bytes")
    }
    fn visit_str<E: Error>(self, v: &str) -> Result<U256, E> {
        crate::serde_dec::u256::parse(v).map_err(E::custom)
    }
    fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<U256, E> {
        crate::serde_dec::bin::from_bytes(v)
    }
}

/// `refetched`: a flag in a used claim, a value in a re-fetch mismatch.
enum Refetched {
    Flag(bool),
    Value(U256),
}

impl<'de> Deserialize<'de> for Refetched {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Refetched, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Refetched;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a boolean, or a decimal integer string or its bytes")
            }
            fn visit_bool<E: Error>(self, v: bool) -> Result<Refetched, E> {
                Ok(Refetched::Flag(v))
            }
            fn visit_str<E: Error>(self, v: &str) -> Result<Refetched, E> {
                NumVisitor.visit_str(v).map(Refetched::Value)
            }
            fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Refetched, E> {
                NumVisitor.visit_bytes(v).map(Refetched::Value)
            }
        }
        d.deserialize_any(V)
    }
}

/// An address as `0x` text or 20 bytes.
struct Addr(Address);

impl<'de> Deserialize<'de> for Addr {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Addr, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Address;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an address")
            }
            fn visit_str<E: Error>(self, v: &str) -> Result<Address, E> {
                v.parse().map_err(E::custom)
            }
            fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Address, E> {
                <[u8; 20]>::try_from(v)
                    .map(Address::from)
                    .map_err(|_| E::invalid_length(v.len(), &"20 bytes"))
            }
        }
        d.deserialize_any(V).map(Addr)
    }
}

/// A claim's field name, read without allocating.
enum Field {
    Attestation,
    Source,
    Metric,
    Attested,
    Outcome,
    Value,
    Refetched,
    Reason,
    Detail,
    Key,
    ObservedAt,
    RegisteredAt,
    RevokedAt,
    WindowStart,
    Snapshot,
    ToleranceBps,
    Project,
    Epoch,
    Name,
    Track,
    Excluded,
    Tier,
    Other,
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Field, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Field;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a field name")
            }
            fn visit_str<E: Error>(self, v: &str) -> Result<Field, E> {
                Ok(match v {
                    "attestation" => Field::Attestation,
                    "source" => Field::Source,
                    "metric" => Field::Metric,
                    "attested" => Field::Attested,
                    "outcome" => Field::Outcome,
                    "value" => Field::Value,
                    "refetched" => Field::Refetched,
                    "reason" => Field::Reason,
                    "detail" => Field::Detail,
                    "key" => Field::Key,
                    "observedAt" => Field::ObservedAt,
                    "registeredAt" => Field::RegisteredAt,
                    "revokedAt" => Field::RevokedAt,
                    "windowStart" => Field::WindowStart,
                    "snapshot" => Field::Snapshot,
                    "toleranceBps" => Field::ToleranceBps,
                    "project" => Field::Project,
                    "epoch" => Field::Epoch,
                    "name" => Field::Name,
                    "track" => Field::Track,
                    "excluded" => Field::Excluded,
                    "tier" => Field::Tier,
                    _ => Field::Other,
                })
            }
            fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Field, E> {
                std::str::from_utf8(v).map_or(Ok(Field::Other), |s| self.visit_str(s))
            }
        }
        d.deserialize_identifier(V)
    }
}

/// Every field a claim may carry.
#[derive(Default)]
struct Slots {
    attestation: Option<usize>,
    source: Option<String>,
    metric: Option<String>,
    attested: Option<U256>,
    outcome: Option<String>,
    value: Option<U256>,
    refetched: Option<Refetched>,
    reason: Option<String>,
    detail: Option<String>,
    key: Option<Address>,
    observed_at: Option<u64>,
    registered_at: Option<u64>,
    revoked_at: Option<u64>,
    window_start: Option<u64>,
    snapshot: Option<u64>,
    tolerance_bps: Option<u32>,
    project: Option<Address>,
    epoch: Option<u64>,
    name: Option<String>,
    track: Option<String>,
    excluded: Option<Vec<Exclusion>>,
    tier: Option<ForgeryTier>,
}

fn need<T, E: Error>(v: Option<T>, field: &'static str) -> Result<T, E> {
    v.ok_or_else(|| E::missing_field(field))
}

impl Slots {
    fn outcome<E: Error>(&mut self) -> Result<ClaimOutcome, E> {
        let outcome = need::<_, E>(self.outcome.take(), "outcome")?;
        match outcome.as_str() {
            "used" => Ok(ClaimOutcome::Used {
                value: need(self.value.take(), "value")?,
                refetched: match self.refetched.take() {
                    Some(Refetched::Flag(b)) => b,
                    Some(Refetched::Value(_)) => {
                        return Err(E::custom("refetched: expected a boolean in a used claim"))
                    }
                    None => return Err(E::missing_field("refetched")),
                },
            }),
            "failed" => Ok(ClaimOutcome::Failed {
                why: self.fail_reason()?,
            }),
            "ignored" => Ok(ClaimOutcome::Ignored {
                why: self.ignore_reason()?,
            }),
            other => Err(E::unknown_variant(other, &["used", "failed", "ignored"])),
        }
    }

    fn fail_reason<E: Error>(&mut self) -> Result<FailReason, E> {
        let reason = need::<_, E>(self.reason.take(), "reason")?;
        Ok(match reason.as_str() {
            "badSignature" => FailReason::BadSignature {
                detail: need(self.detail.take(), "detail")?,
            },
            "unregisteredKey" => FailReason::UnregisteredKey {
                key: need(self.key, "key")?,
            },
            "keyForOtherSource" => FailReason::KeyForOtherSource {
                key: need(self.key, "key")?,
            },
            "keyNotValid" => FailReason::KeyNotValid {
                key: need(self.key, "key")?,
                observed_at: need(self.observed_at, "observedAt")?,
                registered_at: need(self.registered_at, "registeredAt")?,
                revoked_at: need(self.revoked_at, "revokedAt")?,
            },
            "observedOutsideWindow" => FailReason::ObservedOutsideWindow {
                observed_at: need(self.observed_at, "observedAt")?,
                window_start: need(self.window_start, "windowStart")?,
                snapshot: need(self.snapshot, "snapshot")?,
            },
            "conflictingAttestations" => FailReason::ConflictingAttestations,
            "refetchMismatch" => FailReason::RefetchMismatch {
                refetched: match self.refetched.take() {
                    Some(Refetched::Value(v)) => v,
                    Some(Refetched::Flag(_)) => {
                        return Err(E::custom(
                            "refetched: expected a value in a re-fetch mismatch",
                        ))
                    }
                    None => return Err(E::missing_field("refetched")),
                },
                tolerance_bps: need(self.tolerance_bps, "toleranceBps")?,
                excluded: self.excluded.take().unwrap_or_default(),
            },
            other => {
                return Err(E::unknown_variant(
                    other,
                    &[
                        "badSignature",
                        "unregisteredKey",
                        "keyForOtherSource",
                        "keyNotValid",
                        "observedOutsideWindow",
                        "conflictingAttestations",
                        "refetchMismatch",
                    ],
                ))
            }
        })
    }

    fn ignore_reason<E: Error>(&mut self) -> Result<IgnoreReason, E> {
        let reason = need::<_, E>(self.reason.take(), "reason")?;
        Ok(match reason.as_str() {
            "otherProject" => IgnoreReason::OtherProject {
                project: need(self.project, "project")?,
            },
            "otherEpoch" => IgnoreReason::OtherEpoch {
                epoch: need(self.epoch, "epoch")?,
            },
            "unknownSource" => IgnoreReason::UnknownSource,
            "duplicate" => IgnoreReason::Duplicate,
            "forbiddenInput" => IgnoreReason::ForbiddenInput {
                name: need(self.name.take(), "name")?,
            },
            "notFromThisSource" => IgnoreReason::NotFromThisSource {
                name: need(self.name.take(), "name")?,
            },
            "notInTrack" => IgnoreReason::NotInTrack {
                name: need(self.name.take(), "name")?,
                track: need(self.track.take(), "track")?,
            },
            "duplicateMetric" => IgnoreReason::DuplicateMetric {
                name: need(self.name.take(), "name")?,
            },
            "refetchUnavailable" => IgnoreReason::RefetchUnavailable {
                detail: need(self.detail.take(), "detail")?,
            },
            "belowTier" => IgnoreReason::BelowTier {
                name: need(self.name.take(), "name")?,
                tier: need(self.tier, "tier")?,
            },
            other => {
                return Err(E::unknown_variant(
                    other,
                    &[
                        "otherProject",
                        "otherEpoch",
                        "unknownSource",
                        "duplicate",
                        "forbiddenInput",
                        "notFromThisSource",
                        "notInTrack",
                        "duplicateMetric",
                        "refetchUnavailable",
                        "belowTier",
                    ],
                ))
            }
        })
    }
}

struct ClaimVisitor;

impl<'de> Visitor<'de> for ClaimVisitor {
    type Value = Claim;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a claim")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Claim, A::Error> {
        let mut s = Slots::default();
        fn set<T, E: Error>(slot: &mut Option<T>, v: T, field: &'static str) -> Result<(), E> {
            if slot.replace(v).is_some() {
                return Err(E::duplicate_field(field));
            }
            Ok(())
        }
        while let Some(k) = m.next_key::<Field>()? {
            match k {
                Field::Attestation => set(&mut s.attestation, m.next_value()?, "attestation")?,
                Field::Source => set(&mut s.source, m.next_value()?, "source")?,
                Field::Metric => set(&mut s.metric, m.next_value()?, "metric")?,
                Field::Attested => set(&mut s.attested, m.next_value::<Num>()?.0, "attested")?,
                Field::Outcome => set(&mut s.outcome, m.next_value()?, "outcome")?,
                Field::Value => set(&mut s.value, m.next_value::<Num>()?.0, "value")?,
                Field::Refetched => set(&mut s.refetched, m.next_value()?, "refetched")?,
                Field::Reason => set(&mut s.reason, m.next_value()?, "reason")?,
                Field::Detail => set(&mut s.detail, m.next_value()?, "detail")?,
                Field::Key => set(&mut s.key, m.next_value::<Addr>()?.0, "key")?,
                Field::ObservedAt => set(&mut s.observed_at, m.next_value()?, "observedAt")?,
                Field::RegisteredAt => set(&mut s.registered_at, m.next_value()?, "registeredAt")?,
                Field::RevokedAt => set(&mut s.revoked_at, m.next_value()?, "revokedAt")?,
                Field::WindowStart => set(&mut s.window_start, m.next_value()?, "windowStart")?,
                Field::Snapshot => set(&mut s.snapshot, m.next_value()?, "snapshot")?,
                Field::ToleranceBps => set(&mut s.tolerance_bps, m.next_value()?, "toleranceBps")?,
                Field::Project => set(&mut s.project, m.next_value::<Addr>()?.0, "project")?,
                Field::Epoch => set(&mut s.epoch, m.next_value()?, "epoch")?,
                Field::Name => set(&mut s.name, m.next_value()?, "name")?,
                Field::Track => set(&mut s.track, m.next_value()?, "track")?,
                Field::Excluded => set(&mut s.excluded, m.next_value()?, "excluded")?,
                Field::Tier => set(&mut s.tier, m.next_value()?, "tier")?,
                Field::Other => {
                    m.next_value::<IgnoredAny>()?;
                }
            }
        }
        let outcome = s.outcome()?;
        Ok(Claim {
            attestation: need(s.attestation, "attestation")?,
            source: need(s.source, "source")?,
            metric: need(s.metric, "metric")?,
            attested: need(s.attested, "attested")?,
            outcome,
        })
    }
}

impl<'de> Deserialize<'de> for Claim {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Claim, D::Error> {
        d.deserialize_map(ClaimVisitor)
    }
}
