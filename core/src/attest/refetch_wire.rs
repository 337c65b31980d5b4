//! The wire form of a source's re-fetched values in the intake report (C21, C23): a map from metric name to
//! the value (a `uint256`: decimal text in JSON, big-endian bytes in the compact encoding) or, where the
//! source could not be read, `{"unavailable": reason}`; a value its adapter left items out of is
//! `{"value": v, "excluded": [...]}` (C21a). A name listed twice is refused, as is anything else.

use super::anomaly::Exclusion;
use super::intake::Refetch;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use std::fmt;

pub(crate) fn serialize<S: Serializer>(
    values: &[(String, Refetch)],
    s: S,
) -> Result<S::Ok, S::Error> {
    let mut m = s.serialize_map(Some(values.len()))?;
    for (name, r) in values {
        m.serialize_entry(name, &Wire(r))?;
    }
    m.end()
}

pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Vec<(String, Refetch)>, D::Error> {
    d.deserialize_map(ValuesVisitor)
}

/// One re-fetch in its wire form.
struct Wire<'a>(&'a Refetch);

impl Serialize for Wire<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Refetch::Value { value, excluded } if excluded.is_empty() => {
                crate::serde_dec::u256::serialize(value, s)
            }
            Refetch::Value { value, excluded } => {
                let mut m = s.serialize_map(Some(2))?;
                m.serialize_entry("value", &Dec(value))?;
                m.serialize_entry("excluded", excluded)?;
                m.end()
            }
            Refetch::Unavailable { reason } => {
                let mut m = s.serialize_map(Some(1))?;
                m.serialize_entry("unavailable", reason)?;
                m.end()
            }
        }
    }
}

struct ValuesVisitor;

impl<'de> Visitor<'de> for ValuesVisitor {
    type Value = Vec<(String, Refetch)>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a map from metric name to its re-fetched value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out: Vec<(String, Refetch)> =
            Vec::with_capacity(map.size_hint().unwrap_or(0).min(64));
        while let Some(name) = map.next_key::<String>()? {
            if out.iter().any(|(m, _)| *m == name) {
                return Err(de::Error::custom(format!("'{name}' is listed twice")));
            }
            let r = map.next_value::<Read>()?.0;
            out.push((name, r));
        }
        Ok(out)
    }
}

/// A `uint256` written as the encoding writes one (decimal text, or bytes in the compact form).
struct Dec<'a>(&'a alloy_primitives::U256);

impl Serialize for Dec<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::serde_dec::u256::serialize(self.0, s)
    }
}

/// One re-fetch read from its wire form.
struct Read(Refetch);

impl Read {
    /// The plain value inside a `{"value": …}` map.
    fn value<E: de::Error>(self) -> Result<alloy_primitives::U256, E> {
        match self.0 {
            Refetch::Value { value, excluded } if excluded.is_empty() => Ok(value),
            _ => Err(E::custom("'value' must be a plain number")),
        }
    }
}

impl<'de> Deserialize<'de> for Read {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Read, D::Error> {
        d.deserialize_any(ReadVisitor).map(Read)
    }
}

struct ReadVisitor;

impl<'de> Visitor<'de> for ReadVisitor {
    type Value = Refetch;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(
            "a non-negative decimal integer string (or its bytes), or {\"unavailable\": reason}",
        )
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Refetch, E> {
        let value = crate::serde_dec::u256::parse(v).map_err(E::custom)?;
        Ok(Refetch::Value {
            value,
            excluded: vec![],
        })
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Refetch, E> {
        let value = crate::serde_dec::bin::from_bytes(v)?;
        Ok(Refetch::Value {
            value,
            excluded: vec![],
        })
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Refetch, A::Error> {
        const FIELDS: &[&str] = &["unavailable", "value", "excluded"];
        let mut reason: Option<String> = None;
        let mut value: Option<alloy_primitives::U256> = None;
        let mut excluded: Option<Vec<Exclusion>> = None;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "unavailable" if reason.is_none() => reason = Some(map.next_value()?),
                "value" if value.is_none() => value = Some(map.next_value::<Read>()?.value()?),
                "excluded" if excluded.is_none() => excluded = Some(map.next_value()?),
                "unavailable" | "value" | "excluded" => {
                    return Err(de::Error::custom(format!("'{key}' is listed twice")))
                }
                _ => {
                    let _ = map.next_value::<IgnoredAny>()?;
                    return Err(de::Error::unknown_field(&key, FIELDS));
                }
            }
        }
        match (reason, value, excluded) {
            (Some(reason), None, None) => Ok(Refetch::Unavailable { reason }),
            (None, Some(value), Some(excluded)) => Ok(Refetch::Value { value, excluded }),
            (None, Some(_), None) => Err(de::Error::missing_field("excluded")),
            (None, None, None) => Err(de::Error::missing_field("unavailable")),
            (None, None, Some(_)) => Err(de::Error::missing_field("value")),
            _ => Err(de::Error::custom(
                "a re-fetch is a value or unavailable, not both",
            )),
        }
    }
}
