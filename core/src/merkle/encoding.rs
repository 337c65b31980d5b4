//! Leaf encodings (C5): a list of Solidity type strings, and the standard leaf hash
//! `keccak256(keccak256(abi.encode(values)))` of a JSON leaf value under it.
//!
//! Type strings are read with the grammar of `@metamask/abi-utils` (what
//! `@openzeppelin/merkle-tree` accepts: `address`, `bool`, `string`, `bytes`, `bytesN`,
//! `uintN`/`intN` (and `uint`/`int`), `function`, arrays `T[]`/`T[k]`, tuples `(T1,T2,…)` with
//! spaces allowed around the members), normalised, then parsed by
//! [`alloy_dyn_abi::DynSolType::parse`]. Values are coerced by the rules in
//! [`super::coerce`] and ABI-encoded by `alloy-dyn-abi` as `abi.encode(v1, v2, …)`.

use alloy_dyn_abi::{DynSolType, DynSolValue};
use alloy_primitives::{keccak256, Address, Function, B256};
use serde_json::Value;

use super::coerce::{
    bigint_from_number, bigint_from_str, bool_from_json, bytes_from_hex, js_trim, to_int, to_uint,
    BigIntError, BigIntLike,
};
use super::error::{EncodeError, MerkleError};

/// A parsed leaf encoding: the type strings as given and their parsed ABI types.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeafEncoding {
    strings: Vec<String>,
    types: Vec<DynSolType>,
}

impl LeafEncoding {
    /// Parses a list of Solidity type strings, e.g. `["address", "uint256"]`.
    ///
    /// # Errors
    /// [`MerkleError::LeafEncoding`] naming the first unsupported type string.
    pub fn parse<S: AsRef<str>>(types: &[S]) -> Result<Self, MerkleError> {
        let mut parsed = Vec::with_capacity(types.len());
        for (i, t) in types.iter().enumerate() {
            let t = t.as_ref();
            let ty = parse_type(t).map_err(|reason| MerkleError::LeafEncoding {
                index: i,
                ty: t.to_owned(),
                reason,
            })?;
            parsed.push(ty);
        }
        Ok(Self {
            strings: types.iter().map(|t| t.as_ref().to_owned()).collect(),
            types: parsed,
        })
    }

    /// The type strings exactly as given.
    pub fn strings(&self) -> &[String] {
        &self.strings
    }

    /// The parsed ABI types.
    pub fn types(&self) -> &[DynSolType] {
        &self.types
    }

    /// `abi.encode(values…)` of a leaf value (a JSON array with one element per type).
    ///
    /// # Errors
    /// [`EncodeError`] naming the position (`[1][0]`) and the type of the bad element.
    pub fn encode(&self, value: &Value) -> Result<Vec<u8>, EncodeError> {
        let items = tuple_items(value, self.types.len())?;
        let mut out = Vec::with_capacity(items.len());
        for (i, (item, ty)) in items.iter().zip(&self.types).enumerate() {
            out.push(coerce(item, ty).map_err(|e| e.at(i))?);
        }
        Ok(DynSolValue::Tuple(out).abi_encode_params())
    }

    /// The standard leaf hash `keccak256(keccak256(abi.encode(values…)))`.
    ///
    /// # Errors
    /// As [`LeafEncoding::encode`].
    pub fn leaf_hash(&self, value: &Value) -> Result<B256, EncodeError> {
        Ok(standard_leaf_hash_of_encoded(&self.encode(value)?))
    }
}

/// The standard leaf hash of already ABI-encoded values: `keccak256(keccak256(encoded))`.
pub fn standard_leaf_hash_of_encoded(encoded: &[u8]) -> B256 {
    keccak256(keccak256(encoded))
}

/// Parses one type string as `@metamask/abi-utils` would accept it.
fn parse_type(t: &str) -> Result<DynSolType, String> {
    let normalized = normalize_type(t)?;
    DynSolType::parse(&normalized).map_err(|e| format!("The type \"{t}\" is not supported ({e})."))
}

/// Rewrites a type string in the canonical spelling `alloy` parses, following the order in
/// which `@metamask/abi-utils` tries its parsers (array before tuple; tuple members trimmed).
fn normalize_type(t: &str) -> Result<String, String> {
    const DEPTH_LIMIT: usize = 64;
    fn go(t: &str, depth: usize) -> Result<String, String> {
        let unsupported = || format!("The type \"{t}\" is not supported.");
        if depth > DEPTH_LIMIT {
            return Err(format!("The type \"{t}\" is nested too deeply."));
        }
        // The library's regexes have no `s` flag: a line terminator never matches.
        if t.contains(['\n', '\r', '\u{2028}', '\u{2029}']) {
            return Err(unsupported());
        }
        if matches!(t, "address" | "bool" | "bytes" | "function" | "string") {
            return Ok(t.to_owned());
        }
        // ARRAY_REGEX = /^(.*)\[(\d*?)\]$/: the last `[digits]` at the very end.
        if let Some(body) = t.strip_suffix(']') {
            if let Some(open) = body.rfind('[') {
                let (inner, len) = (&body[..open], &body[open + 1..]);
                if len.bytes().all(|b| b.is_ascii_digit()) {
                    if inner.is_empty() {
                        return Err(format!(
                            "Invalid array type. Expected an array type, but received \"{t}\"."
                        ));
                    }
                    return Ok(format!("{}[{len}]", go(inner, depth + 1)?));
                }
            }
        }
        // FIXED_BYTES = /^bytes([0-9]{1,2})$/, NUMBER = /^u?int([0-9]*)?$/ (sizes checked by alloy).
        if let Some(n) = t.strip_prefix("bytes") {
            if (1..=2).contains(&n.len()) && n.bytes().all(|b| b.is_ascii_digit()) {
                return Ok(t.to_owned());
            }
        }
        let digits = t.strip_prefix("uint").or_else(|| t.strip_prefix("int"));
        if let Some(n) = digits {
            if n.bytes().all(|b| b.is_ascii_digit()) {
                return Ok(t.to_owned());
            }
        }
        // TUPLE_REGEX = /^\((.+)\)$/, members split on top-level commas and trimmed.
        if t.len() > 2 && t.starts_with('(') && t.ends_with(')') {
            let inner = &t[1..t.len() - 1];
            let mut members = Vec::new();
            let (mut depth_in, mut start) = (0i64, 0usize);
            for (i, c) in inner.char_indices() {
                match c {
                    ',' if depth_in == 0 => {
                        members.push(js_trim(&inner[start..i]));
                        start = i + 1;
                    }
                    '(' => depth_in += 1,
                    ')' => depth_in -= 1,
                    _ => {}
                }
            }
            let last = js_trim(&inner[start..]);
            if !last.is_empty() {
                members.push(last);
            }
            if members.is_empty() {
                return Err(unsupported());
            }
            let parts = members
                .iter()
                .map(|m| go(m, depth + 1))
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(format!("({})", parts.join(",")));
        }
        Err(unsupported())
    }
    go(t, 0)
}

/// The elements of a tuple-like JSON value (array of exactly `n` elements).
fn tuple_items(value: &Value, n: usize) -> Result<&[Value], EncodeError> {
    match value {
        Value::Array(items) if items.len() == n => Ok(items),
        Value::Array(items) => Err(EncodeError::new(format!(
            "The number of types ({n}) does not match the number of values ({}).",
            items.len()
        ))),
        other => Err(EncodeError::new(format!(
            "The number of types ({n}) does not match the number of values (expected an array, got {}).",
            describe(other)
        ))),
    }
}

/// A short description of a JSON value for error messages (like JavaScript's `${value}`).
pub(crate) fn describe(v: &Value) -> String {
    const MAX: usize = 80;
    let s = match v {
        Value::String(s) => s.clone(),
        Value::Null => "null".to_owned(),
        other => other.to_string(),
    };
    if s.chars().count() > MAX {
        let cut: String = s.chars().take(MAX).collect();
        format!("{cut}…")
    } else {
        s
    }
}

/// Reads a `BigInt`-like JSON value (number or string).
fn bigint_of(v: &Value) -> Result<BigIntLike, BigIntError> {
    match v {
        Value::Number(n) => bigint_from_number(n),
        Value::String(s) => bigint_from_str(s),
        _ => Err(BigIntError::Syntax),
    }
}

/// Reads a bytes-like JSON value (`0x`-hex string).
fn bytes_of(v: &Value) -> Result<Vec<u8>, EncodeError> {
    match v {
        Value::String(s) => bytes_from_hex(s),
        _ => None,
    }
    .ok_or_else(|| {
        EncodeError::new(format!(
            "Expected a bytes-like value, got \"{}\".",
            describe(v)
        ))
    })
}

/// Coerces one JSON value into an ABI value of type `ty`.
fn coerce(v: &Value, ty: &DynSolType) -> Result<DynSolValue, EncodeError> {
    let out = match ty {
        DynSolType::Address => {
            let b = bytes_of(v)?;
            if b.len() > 20 {
                return Err(EncodeError::new(format!(
                    "Invalid address value. Expected address to be 20 bytes long, but received {} bytes.",
                    b.len()
                )));
            }
            let mut a = [0u8; 20];
            a[20 - b.len()..].copy_from_slice(&b);
            DynSolValue::Address(Address::new(a))
        }
        DynSolType::Bool => DynSolValue::Bool(bool_from_json(v).ok_or_else(|| {
            EncodeError::new(format!(
                "Invalid boolean value. Expected a boolean literal, or the string \"true\" or \"false\", but received \"{}\".",
                describe(v)
            ))
        })?),
        DynSolType::Uint(bits) | DynSolType::Int(bits) => {
            let n = bigint_of(v).map_err(|e| match e {
                BigIntError::Syntax => EncodeError::new(format!(
                    "Invalid number. Expected a valid number value, but received \"{}\".",
                    describe(v)
                )),
                BigIntError::TooLarge => out_of_range(v, ty),
            })?;
            match ty {
                DynSolType::Uint(_) => DynSolValue::Uint(to_uint(n, *bits).ok_or_else(|| out_of_range(v, ty))?, *bits),
                _ => DynSolValue::Int(to_int(n, *bits).ok_or_else(|| out_of_range(v, ty))?, *bits),
            }
        }
        DynSolType::FixedBytes(len) => {
            let b = bytes_of(v)?;
            if b.len() > *len {
                return Err(EncodeError::new(format!(
                    "Expected a value of length {len}, but received a value of length {}.",
                    b.len()
                )));
            }
            let mut w = B256::ZERO;
            w[..b.len()].copy_from_slice(&b);
            DynSolValue::FixedBytes(w, *len)
        }
        DynSolType::Bytes => DynSolValue::Bytes(bytes_of(v)?),
        DynSolType::String => match v {
            Value::String(s) => DynSolValue::String(s.clone()),
            other => {
                return Err(EncodeError::new(format!("Value must be a string, got {}.", describe(other))));
            }
        },
        DynSolType::Function => DynSolValue::Function(function_of(v)?),
        DynSolType::Array(inner) => match v {
            Value::Array(items) => DynSolValue::Array(coerce_all(items, inner)?),
            other => return Err(EncodeError::new(format!("Expected an array, got {}.", describe(other)))),
        },
        DynSolType::FixedArray(inner, len) => match v {
            Value::Array(items) if items.len() == *len => DynSolValue::FixedArray(coerce_all(items, inner)?),
            Value::Array(items) => {
                return Err(EncodeError::new(format!(
                    "Array length does not match type length. Expected a length of {len}, but received {}.",
                    items.len()
                )));
            }
            other => return Err(EncodeError::new(format!("Expected an array, got {}.", describe(other)))),
        },
        DynSolType::Tuple(types) => {
            let items = tuple_items(v, types.len())?;
            let mut out = Vec::with_capacity(items.len());
            for (i, (item, t)) in items.iter().zip(types).enumerate() {
                out.push(coerce(item, t).map_err(|e| e.at(i))?);
            }
            DynSolValue::Tuple(out)
        }
        #[allow(unreachable_patterns)]
        other => {
            return Err(EncodeError::new(format!("The type \"{}\" is not supported.", other.sol_type_name())));
        }
    };
    Ok(out)
}

fn coerce_all(items: &[Value], ty: &DynSolType) -> Result<Vec<DynSolValue>, EncodeError> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| coerce(item, ty).map_err(|e| e.at(i)))
        .collect()
}

fn out_of_range(v: &Value, ty: &DynSolType) -> EncodeError {
    EncodeError::new(format!(
        "Number \"{}\" is out of range for type \"{}\".",
        describe(v),
        ty.sol_type_name()
    ))
}

/// A Solidity `function` value: 24 bytes of `0x`-hex, or `{address, selector}` (hex each).
fn function_of(v: &Value) -> Result<Function, EncodeError> {
    let bytes = match v {
        Value::String(s) => bytes_from_hex(s).filter(|b| b.len() == 24 && s.len() > 2).ok_or_else(|| {
            EncodeError::new(format!(
                "Invalid Solidity function. Expected function to be 24 bytes of 0x-hex, but received \"{}\".",
                describe(v)
            ))
        })?,
        Value::Object(map) if map.len() == 2 => {
            let part = |key: &str| -> Option<Vec<u8>> {
                map.get(key).and_then(Value::as_str).filter(|s| s.len() > 2).and_then(bytes_from_hex)
            };
            match (part("address"), part("selector")) {
                (Some(mut a), Some(s)) => {
                    a.extend_from_slice(&s);
                    a
                }
                _ => {
                    return Err(EncodeError::new(format!(
                        "Invalid Solidity function. Expected {{address, selector}} as 0x-hex, but received {}.",
                        describe(v)
                    )));
                }
            }
        }
        other => {
            return Err(EncodeError::new(format!(
                "Invalid Solidity function. Expected 0x-hex or {{address, selector}}, but received {}.",
                describe(other)
            )));
        }
    };
    if bytes.len() > 24 {
        return Err(EncodeError::new(format!(
            "Expected a value of length 24, but received a value of length {}.",
            bytes.len()
        )));
    }
    let mut f = [0u8; 24];
    f[..bytes.len()].copy_from_slice(&bytes);
    Ok(Function::new(f))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::hex;
    use proptest::prelude::*;
    use serde_json::json;

    fn enc(types: &[&str], v: Value) -> Result<String, String> {
        let e = LeafEncoding::parse(types).map_err(|e| e.to_string())?;
        e.encode(&v).map(hex::encode).map_err(|e| e.to_string())
    }

    fn word(s: &str) -> String {
        format!("{s:0>64}")
    }

    #[test]
    fn type_strings_like_abi_utils() {
        for ok in [
            "address",
            "uint",
            "int",
            "uint8",
            "int256",
            "bytes1",
            "bytes32",
            "bool",
            "string",
            "bytes",
            "function",
            "uint8[]",
            "uint8[3]",
            "(uint256,address)",
            "( uint256 , address )",
            "(uint256,(string,bool[])[])[2]",
            "string[][3]",
        ] {
            assert!(LeafEncoding::parse(&[ok]).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "uint7",
            "uint264",
            "bytes0",
            "bytes33",
            " uint256",
            "uint256 ",
            "()",
            "( )",
            "tuple(uint256)",
            "number",
            "tuple",
            "array",
            "fixedBytes",
            "UINT256",
            "uint256[ ]",
            "[]",
            "fixed128x18",
            "uint8[0]",
        ] {
            assert!(LeafEncoding::parse(&[bad]).is_err(), "{bad}");
        }
    }

    #[test]
    fn encodes_static_values() {
        let addr = "0x1111111111111111111111111111111111111111";
        let got = enc(&["address", "uint256"], json!([addr, "5"])).unwrap();
        assert_eq!(got, format!("{}{}", word(&addr[2..]), word("5")));
        // Numbers, hex strings and JS whitespace for integers; short addresses left-padded.
        assert_eq!(enc(&["uint256"], json!([5])).unwrap(), word("5"));
        assert_eq!(enc(&["uint256"], json!(["0x10"])).unwrap(), word("10"));
        assert_eq!(enc(&["uint256"], json!([" 16 "])).unwrap(), word("10"));
        assert_eq!(enc(&["address"], json!(["0x01"])).unwrap(), word("1"));
        assert_eq!(enc(&["int8"], json!(["-1"])).unwrap(), "f".repeat(64));
        assert_eq!(enc(&["bool"], json!(["true"])).unwrap(), word("1"));
        assert_eq!(enc(&["bool"], json!([false])).unwrap(), word("0"));
        assert_eq!(
            enc(&["bytes4"], json!(["0x123"])).unwrap(),
            format!("{:0<64}", "0123")
        );
    }

    #[test]
    fn encodes_dynamic_values() {
        // abi.encode("a", 0x01) = offset, offset, len 1 "a", len 1 0x01.
        let got = enc(&["string", "bytes"], json!(["a", "0x01"])).unwrap();
        let want = [
            word("40"),
            word("80"),
            word("1"),
            format!("{:0<64}", "61"),
            word("1"),
            format!("{:0<64}", "01"),
        ]
        .concat();
        assert_eq!(got, want);
        // (uint256,address) tuple inline, uint8[] dynamic.
        let got = enc(
            &["(uint256,address)", "uint8[]"],
            json!([["1", "0x02"], ["3", 4]]),
        )
        .unwrap();
        let want = [
            word("1"),
            word("2"),
            word("60"),
            word("2"),
            word("3"),
            word("4"),
        ]
        .concat();
        assert_eq!(got, want);
    }

    #[test]
    fn errors_name_the_position() {
        let e = enc(&["address", "uint256"], json!(["0x01", "-1"])).unwrap_err();
        assert!(e.contains("[1]") && e.contains("out of range"), "{e}");
        let e = enc(&["(uint256,address)"], json!([["1", "zz"]])).unwrap_err();
        assert!(e.contains("[0][1]") && e.contains("bytes-like"), "{e}");
        let e = enc(&["uint8[2]"], json!([[1, 2, 3]])).unwrap_err();
        assert!(e.contains("Expected a length of 2"), "{e}");
        let e = enc(&["address", "uint256"], json!(["0x01"])).unwrap_err();
        assert!(e.contains("number of types (2)"), "{e}");
        assert!(enc(&["address"], json!([format!("0x{}", "1".repeat(42))])).is_err());
        assert!(enc(&["uint256"], json!([1.5])).is_err());
        assert!(enc(&["string"], json!([1])).is_err());
        assert!(enc(&["bool"], json!(["yes"])).is_err());
    }

    #[test]
    fn functions() {
        let f = format!("0x{}", "ab".repeat(24));
        assert_eq!(
            enc(&["function"], json!([f])).unwrap(),
            format!("{:0<64}", "ab".repeat(24))
        );
        let obj = json!([{"address": format!("0x{}", "ab".repeat(20)), "selector": "0xabababab"}]);
        assert_eq!(
            enc(&["function"], obj).unwrap(),
            format!("{:0<64}", "ab".repeat(24))
        );
        assert!(enc(&["function"], json!(["0xabab"])).is_err());
    }

    fn arb_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|n| json!(n)),
            any::<f64>().prop_map(|f| serde_json::Number::from_f64(f)
                .map(Value::Number)
                .unwrap_or(Value::Null)),
            "\\PC*".prop_map(Value::String),
            "0x[0-9a-fA-F]{0,70}".prop_map(Value::String),
            "-?[0-9]{0,80}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::hash_map("[a-z]{1,8}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn type_parser_never_panics(s in "\\PC*") {
            let _ = LeafEncoding::parse(&[s]);
        }

        #[test]
        fn type_parser_never_panics_on_type_like(s in "[()\\[\\], a-z0-9]{0,40}") {
            let _ = LeafEncoding::parse(&[s]);
        }

        #[test]
        fn encoder_never_panics(v in arb_json(), types in prop::sample::subsequence(vec![
            "address", "uint256", "int8", "bytes32", "bytes3", "bool", "string", "bytes", "function",
            "uint8[]", "(uint256,address)", "string[2]", "(bool,(bytes,int16)[])",
        ], 0..4)) {
            let e = LeafEncoding::parse(&types).unwrap();
            let _ = e.leaf_hash(&v);
            if let Value::Array(items) = &v {
                for item in items {
                    let _ = e.leaf_hash(&Value::Array(vec![item.clone(); types.len()]));
                }
            }
        }
    }
}
