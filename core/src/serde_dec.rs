//! Serde helpers for the wire formats (the JS API, published bundles): `U256` and `u128` as
//! decimal strings, small integers as numbers. Strict on input: a value is parsed exactly or
//! refused, never rounded.
//!
//! From JavaScript (serde-wasm-bindgen) an integer field also accepts a safe-integer number or a
//! BigInt, like the API's integer parameters; from JSON a number that is an exact integer.
//!
//! In a binary format (`is_human_readable() == false`: the compact MessagePack publications, C23) a `U256`
//! is its big-endian bytes without leading zeros ([`bin`]) and an address its 20 raw bytes, as
//! alloy's own types do; JSON and JavaScript are unchanged. Serde's `flatten` and internally tagged
//! enums buffer through a human-readable form, so a field inside them stays decimal text in MessagePack
//! too; each helper reads what it writes in both cases.

use alloy_primitives::U256;
use serde::de;

/// An integer as it arrived: decimal text (parsed by the caller) or an exact small value.
pub(crate) enum Int {
    /// A string or a BigInt beyond 64 bits, as text.
    Text(String),
    /// A number or a BigInt that is an exact integer.
    Small(i128),
}

/// Visits any of: a string, an integer, a float that is a safe integer.
pub(crate) struct IntVisitor(pub(crate) &'static str);

/// `Number.MAX_SAFE_INTEGER` (2^53 − 1): larger floats are not exact integers.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

impl de::Visitor<'_> for IntVisitor {
    type Value = Int;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.0)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Int, E> {
        Ok(Int::Small(i128::from(v)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Int, E> {
        Ok(Int::Small(i128::from(v)))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Int, E> {
        Ok(Int::Small(v))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Int, E> {
        Ok(Int::Text(v.to_string()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Int, E> {
        if v.is_finite() && v.fract() == 0.0 && v.abs() <= MAX_SAFE_INTEGER {
            // Exact: an integer with |v| < 2^53.
            Ok(Int::Small(v as i128))
        } else {
            Err(E::custom(format!(
                "expected a safe integer, got {v} (pass large values as a decimal string or a BigInt)"
            )))
        }
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Int, E> {
        Ok(Int::Text(v.to_owned()))
    }
}

/// serde_json's message without its " at line 1 column 123" suffix, for errors that name the
/// field's path instead.
pub(crate) fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_owned(),
        None => msg.to_owned(),
    }
}

/// A `U256` in a binary format (C23): its big-endian bytes without leading zeros (zero is the empty
/// string), so there is one encoding per value and small amounts stay small.
pub(crate) mod bin {
    use alloy_primitives::U256;
    use serde::{de::Error, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(x: &U256, s: S) -> Result<S::Ok, S::Error> {
        let b = x.to_be_bytes::<32>();
        let skip = b.iter().take_while(|&&z| z == 0).count();
        s.serialize_bytes(&b[skip..])
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<U256, D::Error> {
        d.deserialize_bytes(Visitor)
    }

    struct Visitor;

    impl serde::de::Visitor<'_> for Visitor {
        type Value = U256;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a 256-bit integer as at most 32 big-endian bytes without leading zeros")
        }
        fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<U256, E> {
            from_bytes(v)
        }
    }

    /// At most 32 big-endian bytes, the first not zero.
    pub(crate) fn from_bytes<E: Error>(v: &[u8]) -> Result<U256, E> {
        if v.len() > 32 {
            return Err(E::custom(format!(
                "{} bytes do not fit in 256 bits",
                v.len()
            )));
        }
        if v.first() == Some(&0) {
            return Err(E::custom("a 256-bit integer with a leading zero byte"));
        }
        Ok(U256::from_be_slice(v))
    }
}

/// `true`: the default of boolean fields that are on unless said otherwise.
pub(crate) fn yes() -> bool {
    true
}

/// A small integer (`u8`…`u64`, `i32`, `i64`) as a number; on input also a decimal string (an
/// optional sign, surrounding spaces ignored) or a BigInt, range-checked for the field's type.
pub(crate) mod int {
    use serde::{de::Error, Deserializer, Serialize, Serializer};

    pub(crate) fn serialize<T: Serialize, S: Serializer>(x: &T, s: S) -> Result<S::Ok, S::Error> {
        x.serialize(s)
    }

    pub(crate) fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: TryFrom<i128>,
        D: Deserializer<'de>,
    {
        let v = match d.deserialize_any(super::IntVisitor(
            "an integer (number, BigInt or decimal string)",
        ))? {
            super::Int::Small(v) => v,
            super::Int::Text(s) => parse(&s).map_err(D::Error::custom)?,
        };
        T::try_from(v)
            .map_err(|_| D::Error::custom(format!("{v} does not fit in {}", short_type::<T>())))
    }

    /// A decimal integer string with an optional sign.
    pub(crate) fn parse(s: &str) -> Result<i128, String> {
        let t = s.trim();
        let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("expected an integer, got '{s}'"));
        }
        t.parse::<i128>()
            .map_err(|_| format!("'{s}' is out of range"))
    }

    /// The Solidity name of the field's type, for messages.
    fn short_type<T>() -> &'static str {
        match std::any::type_name::<T>() {
            "u8" => "uint8",
            "u16" => "uint16",
            "u32" => "uint32",
            "u64" => "uint64",
            "i32" => "int32",
            "i64" => "int64",
            other => other,
        }
    }
}

/// An optional small integer ([`int`]) of an input: absent, `null` or an integer.
#[cfg(feature = "js")]
pub(crate) mod opt_int {
    use serde::{Deserialize, Deserializer};

    #[derive(Deserialize)]
    #[serde(bound = "T: TryFrom<i128>")]
    struct Wrap<T>(#[serde(with = "super::int")] T);

    pub(crate) fn deserialize<'de, T, D>(d: D) -> Result<Option<T>, D::Error>
    where
        T: TryFrom<i128>,
        D: Deserializer<'de>,
    {
        Ok(Option::<Wrap<T>>::deserialize(d)?.map(|w| w.0))
    }
}

/// A signed `I256` as a decimal string with an optional `-`.
pub(crate) mod i256 {
    use alloy_primitives::I256;
    use serde::{de::Error, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(x: &I256, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(x)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<I256, D::Error> {
        let text = match d.deserialize_any(super::IntVisitor("a decimal integer string"))? {
            super::Int::Text(s) => s,
            super::Int::Small(v) => v.to_string(),
        };
        let t = text.trim();
        let digits = t.strip_prefix('-').unwrap_or(t);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(D::Error::custom(format!(
                "expected a decimal integer string, got '{text}'"
            )));
        }
        t.parse::<I256>().map_err(|_| {
            D::Error::custom(format!("'{text}' does not fit in a signed 256-bit integer"))
        })
    }
}

/// A `B256` that may be absent, `null` or `""` on input (zero: no salt, no match); 0x-hex of 32
/// bytes otherwise.
pub(crate) mod b256_or_zero {
    use alloy_primitives::B256;
    use serde::{de::Error, Deserialize, Deserializer, Serialize, Serializer};

    pub(crate) fn serialize<S: Serializer>(x: &B256, s: S) -> Result<S::Ok, S::Error> {
        x.serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<B256, D::Error> {
        d.deserialize_option(Visitor)
    }

    struct Visitor;

    impl<'de> serde::de::Visitor<'de> for Visitor {
        type Value = B256;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("0x-prefixed 32-byte hex, or an empty string")
        }
        fn visit_none<E: Error>(self) -> Result<B256, E> {
            Ok(B256::ZERO)
        }
        fn visit_unit<E: Error>(self) -> Result<B256, E> {
            Ok(B256::ZERO)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<B256, D::Error> {
            if d.is_human_readable() {
                d.deserialize_any(self)
            } else {
                B256::deserialize(d)
            }
        }
        fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<B256, E> {
            B256::try_from(v).map_err(|_| E::custom(format!("{} bytes are not 32", v.len())))
        }
        fn visit_str<E: Error>(self, s: &str) -> Result<B256, E> {
            let t = s.trim();
            if t.is_empty() {
                return Ok(B256::ZERO);
            }
            if !(t.starts_with("0x") || t.starts_with("0X")) || t.len() != 66 {
                return Err(E::custom(format!(
                    "expected 0x-prefixed 32-byte hex, got '{s}'"
                )));
            }
            t.parse::<B256>().map_err(E::custom)
        }
    }
}

/// An `Address` as its EIP-55 checksummed hex on output (alloy's serde writes lowercase); any
/// case on input.
pub(crate) mod checksum {
    use alloy_primitives::Address;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub(crate) fn serialize<S: Serializer>(a: &Address, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.serialize_str(&a.to_checksum(None))
        } else {
            a.serialize(s)
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Address, D::Error> {
        Address::deserialize(d)
    }
}

/// [`checksum`] for an optional address.
pub(crate) mod opt_checksum {
    use alloy_primitives::Address;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(a: &Option<Address>, s: S) -> Result<S::Ok, S::Error> {
        match a {
            Some(a) if s.is_human_readable() => s.serialize_str(&a.to_checksum(None)),
            Some(a) => s.serialize_some(a),
            None => s.serialize_none(),
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Address>, D::Error> {
        Option::<Address>::deserialize(d)
    }
}

/// A `u128` as a decimal string (Uniswap liquidity).
pub(crate) mod u128_dec {
    use serde::{de::Error, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(x: &u128, s: S) -> Result<S::Ok, S::Error> {
        super::u256::serialize(&alloy_primitives::U256::from(*x), s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        let x = super::u256::deserialize(d)?;
        u128::try_from(x).map_err(|_| D::Error::custom(format!("{x} does not fit in 128 bits")))
    }
}

/// A single `U256`.
pub(crate) mod u256 {
    use alloy_primitives::U256;
    use serde::{de::Error, Deserializer, Serializer};

    /// Decimal text; [`super::bin`] in a binary format.
    pub(crate) fn serialize<S: Serializer>(x: &U256, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.collect_str(x)
        } else {
            super::bin::serialize(x, s)
        }
    }

    /// A decimal string only (amounts and WADs never cross as JS numbers); [`super::bin`] in a
    /// binary format. A human-readable reader also takes [`super::bin`]'s bytes: serde buffers a
    /// flattened field of a binary format and replays it as if human-readable.
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<U256, D::Error> {
        if d.is_human_readable() {
            d.deserialize_any(Visitor)
        } else {
            super::bin::deserialize(d)
        }
    }

    struct Visitor;

    impl serde::de::Visitor<'_> for Visitor {
        type Value = U256;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a non-negative decimal integer string")
        }
        fn visit_str<E: Error>(self, v: &str) -> Result<U256, E> {
            parse(v).map_err(E::custom)
        }
        fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<U256, E> {
            super::bin::from_bytes(v)
        }
    }

    pub(crate) fn parse(s: &str) -> Result<U256, String> {
        let t = s.trim();
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "expected a non-negative decimal integer string, got '{s}'"
            ));
        }
        U256::from_str_radix(t, 10).map_err(|_| format!("'{s}' does not fit in 256 bits"))
    }
}

/// A `U256` that is an id or a count (a chain id, a score id): like the small integers of
/// [`int`], a number, a BigInt or a decimal string on input; a decimal string on output.
pub(crate) mod u256_id {
    use alloy_primitives::U256;
    use serde::{de::Error, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(x: &U256, s: S) -> Result<S::Ok, S::Error> {
        super::u256::serialize(x, s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<U256, D::Error> {
        if !d.is_human_readable() {
            return super::bin::deserialize(d);
        }
        match d.deserialize_any(super::IntVisitor(
            "an integer (number, BigInt or decimal string)",
        ))? {
            super::Int::Text(s) => super::u256::parse(&s).map_err(D::Error::custom),
            super::Int::Small(v) => U256::try_from(v)
                .map_err(|_| D::Error::custom(format!("must not be negative, got {v}"))),
        }
    }
}

/// An optional `U256` (absent or a decimal string).
pub(crate) mod opt_u256 {
    use alloy_primitives::U256;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(x: &Option<U256>, s: S) -> Result<S::Ok, S::Error> {
        match x {
            Some(x) => s.serialize_some(&super::U256Wire(x)),
            None => s.serialize_none(),
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<U256>, D::Error> {
        #[derive(Deserialize)]
        struct W(#[serde(with = "super::u256")] U256);
        Ok(Option::<W>::deserialize(d)?.map(|w| w.0))
    }
}

/// Serializes a borrowed `U256` as [`u256`] does (for sequences and options).
struct U256Wire<'a>(&'a U256);

impl serde::Serialize for U256Wire<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        u256::serialize(self.0, s)
    }
}

/// An optional signed `I256` (absent or a decimal string with an optional `-`).
pub(crate) mod opt_i256 {
    use alloy_primitives::I256;
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(x: &Option<I256>, s: S) -> Result<S::Ok, S::Error> {
        match x {
            Some(x) => s.collect_str(x),
            None => s.serialize_none(),
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<I256>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|s| {
                let digits = s.strip_prefix('-').unwrap_or(&s);
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(D::Error::custom(format!(
                        "expected a decimal integer string, got '{s}'"
                    )));
                }
                s.parse::<I256>().map_err(|_| {
                    D::Error::custom(format!("'{s}' does not fit in a signed 256-bit integer"))
                })
            })
            .transpose()
    }
}

/// An optional `Vec<U256>`.
pub(crate) mod opt_u256_vec {
    use alloy_primitives::U256;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct Wrap(#[serde(with = "super::u256_vec")] Vec<U256>);

    pub(crate) fn serialize<S: Serializer>(x: &Option<Vec<U256>>, s: S) -> Result<S::Ok, S::Error> {
        match x {
            Some(v) => Wrap(v.clone()).serialize(s),
            None => s.serialize_none(),
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Vec<U256>>, D::Error> {
        Ok(Option::<Wrap>::deserialize(d)?.map(|w| w.0))
    }
}

/// A `Vec<U256>`.
pub(crate) mod u256_vec {
    use alloy_primitives::U256;
    use serde::{ser::SerializeSeq, Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(v: &[U256], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(v.len()))?;
        for x in v {
            seq.serialize_element(&super::U256Wire(x))?;
        }
        seq.end()
    }

    /// Each element a decimal string, parsed in place (no string copies); a bad one fails
    /// with its index.
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<U256>, D::Error> {
        #[derive(Deserialize)]
        struct W(#[serde(with = "super::u256")] U256);
        Ok(Vec::<W>::deserialize(d)?.into_iter().map(|w| w.0).collect())
    }
}

#[cfg(test)]
mod tests {
    use alloy_primitives::{B256, I256, U256};
    use proptest::prelude::*;
    use serde::{Deserialize, Serialize};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Wire {
        #[serde(with = "super::u256")]
        amount: U256,
        #[serde(with = "super::int")]
        count: u32,
        #[serde(with = "super::int")]
        tick: i32,
        #[serde(with = "super::u256_id")]
        id: U256,
        #[serde(with = "super::i256")]
        delta: I256,
        #[serde(default, with = "super::b256_or_zero")]
        salt: B256,
        #[serde(with = "super::u128_dec")]
        liquidity: u128,
    }

    fn parse(json: &str) -> Result<Wire, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    const OK: &str = r#"{"amount":"5","count":7,"tick":-3,"id":9,"delta":"-4","liquidity":"8"}"#;

    #[test]
    fn every_integer_form_where_allowed() {
        let w = parse(OK).unwrap();
        assert_eq!(w.amount, U256::from(5));
        assert_eq!((w.count, w.tick), (7, -3));
        assert_eq!(w.id, U256::from(9));
        assert_eq!(w.delta, I256::try_from(-4).unwrap());
        assert_eq!(w.salt, B256::ZERO);
        // Small integers and ids also as decimal strings (sign and spaces allowed).
        let s = OK
            .replace(r#""count":7"#, r#""count":" +7 ""#)
            .replace(r#""id":9"#, r#""id":"9""#);
        assert_eq!(parse(&s).unwrap(), w);
        // An exact float is an integer; a fraction is not.
        assert_eq!(
            parse(&OK.replace(r#""count":7"#, r#""count":7.0"#)).unwrap(),
            w
        );
        assert!(parse(&OK.replace(r#""count":7"#, r#""count":7.5"#))
            .unwrap_err()
            .contains("safe integer"));
    }

    #[test]
    fn refusals_name_the_problem() {
        let cases = [
            (r#""amount":"5""#, r#""amount":5"#, "decimal integer string"),
            (r#""amount":"5""#, r#""amount":"-5""#, "non-negative"),
            (r#""amount":"5""#, r#""amount":"1e18""#, "non-negative"),
            (r#""count":7"#, r#""count":-1"#, "does not fit in uint32"),
            (
                r#""count":7"#,
                r#""count":4294967296"#,
                "does not fit in uint32",
            ),
            (r#""count":7"#, r#""count":"x""#, "expected an integer"),
            (r#""count":7"#, r#""count":true"#, "invalid type"),
            (
                r#""tick":-3"#,
                r#""tick":2147483648"#,
                "does not fit in int32",
            ),
            (r#""id":9"#, r#""id":-9"#, "must not be negative"),
            (r#""delta":"-4""#, r#""delta":"--4""#, "decimal integer"),
            (
                r#""liquidity":"8""#,
                r#""liquidity":"340282366920938463463374607431768211456""#,
                "128 bits",
            ),
        ];
        for (from, to, want) in cases {
            let err = parse(&OK.replace(from, to)).unwrap_err();
            assert!(err.contains(want), "{to}: {err}");
        }
        let bad_salt = OK.replace('}', r#","salt":"0x12"}"#);
        assert!(parse(&bad_salt).unwrap_err().contains("32-byte"));
        let empty_salt = OK.replace('}', r#","salt":""}"#);
        assert_eq!(parse(&empty_salt).unwrap().salt, B256::ZERO);
    }

    proptest! {
        /// Every value survives a round trip through its wire form.
        #[test]
        fn round_trip(a in any::<[u64; 4]>(), count in any::<u32>(), tick in any::<i32>(),
                      id in any::<u64>(), d in any::<i128>(), salt in any::<[u8; 32]>(), l in any::<u128>()) {
            let w = Wire {
                amount: U256::from_limbs(a),
                count,
                tick,
                id: U256::from(id),
                delta: I256::try_from(d).unwrap(),
                salt: B256::from(salt),
                liquidity: l,
            };
            let json = serde_json::to_string(&w).unwrap();
            prop_assert_eq!(parse(&json).unwrap(), w);
        }

        /// Arbitrary text in any integer field is parsed or refused, never a panic.
        #[test]
        fn arbitrary_text_never_panics(text in ".{0,90}") {
            for field in ["amount", "count", "tick", "id", "delta", "salt", "liquidity"] {
                let mut v: serde_json::Value = serde_json::from_str(OK).unwrap();
                v[field] = serde_json::Value::String(text.clone());
                let json = v.to_string();
                let _ = serde_json::from_str::<Wire>(&json);
            }
        }
    }
}
