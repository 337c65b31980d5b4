//! The JavaScript API (wasm-bindgen), built with `--features js` into `core/pkg` (web) and
//! `core/pkg-node` (Node). Conventions, shared by every submodule:
//!
//! - big integers in results are decimal strings (`"1000000000000000000"`); bytes are 0x-hex,
//!   addresses EIP-55 checksummed;
//! - objects cross as plain JS objects (serde, JSON-compatible);
//! - every failure is a thrown JS `Error` with a readable message naming the bad field; a
//!   parameter of the wrong JavaScript type is a `TypeError` naming it;
//! - every integer parameter (`IntegerLike`: amounts, counts, times, ticks…) accepts a JS number
//!   that is a safe integer, a BigInt or a decimal string (optional sign, surrounding spaces
//!   ignored), all with the same result: [`uint_from_js`], [`int_from_js`], [`u64_from_js`]. In
//!   objects, amounts and WADs are decimal strings (`crate::serde_dec::u256`) and bounded
//!   integers take all three forms (`crate::serde_dec::int`). Fractions, NaN, ±Infinity and
//!   numbers beyond `Number.MAX_SAFE_INTEGER` are rejected, never rounded.
//! - inputs and results are core's own types, deserialised and serialised by their serde
//!   derives (`crate::serde_dec` for the integer formats); their TypeScript declarations are
//!   derived from the same types (tsify), once each. An input error names the field's path
//!   (`theses[1].scoreId: …`).
//!
//! One submodule per area; each owns its exports.

// The exports are public to JavaScript (wasm-bindgen), not to Rust: `unreachable_pub` does not apply.
#![allow(unreachable_pub)]

use alloy_primitives::{Address, B256, U256};
use serde::{de::DeserializeOwned, Serialize};
use wasm_bindgen::prelude::*;

mod calls;
mod check;
mod curve;
mod duel;
mod eip712;
mod human;
mod leaves;
mod light;
mod merkle;
mod network;
mod rewards;
mod scoring;
mod uniswap;

#[wasm_bindgen(typescript_custom_section)]
const INTEGER_LIKE: &'static str = r#"
/** An integer parameter: a BigInt, a decimal string or a safe-integer number (anything else throws a TypeError naming the parameter). */
export type IntegerLike = bigint | string | number;
/** A 256-bit unsigned integer in objects: a decimal string (a parameter takes any `IntegerLike`). */
export type U256 = string;
/** A signed 256-bit integer in results: a decimal string with an optional `-`. */
export type I256 = string;
/** A 20-byte address: 0x-hex (results are EIP-55 checksummed). */
export type Address = string;
/** 32 bytes: 0x-hex, lowercase. */
export type B256 = string;
"#;

/// A JS `Error` with `msg`.
pub(crate) fn js_error(msg: &str) -> JsValue {
    js_sys::Error::new(msg).into()
}

/// A JS `TypeError` with `msg`: a parameter of the wrong JavaScript type.
pub(crate) fn type_error(msg: &str) -> JsValue {
    js_sys::TypeError::new(msg).into()
}

/// A string parameter `what`, or a `TypeError` naming it.
pub(crate) fn str_from_js(what: &str, v: &JsValue) -> Result<String, JsValue> {
    v.as_string().ok_or_else(|| {
        type_error(&format!(
            "{what}: expected a string, got {}",
            js_type_name(v)
        ))
    })
}

/// A text parameter (an address, a hex string, a name…) `what`, or a `TypeError` naming it.
pub(crate) fn text_from_js(what: &str, v: &JsValue) -> Result<String, JsValue> {
    str_from_js(what, v)
}

/// [`text_from_js`], `None` for `undefined` / `null`.
pub(crate) fn opt_text_from_js(what: &str, v: &JsValue) -> Result<Option<String>, JsValue> {
    if v.is_undefined() || v.is_null() {
        Ok(None)
    } else {
        str_from_js(what, v).map(Some)
    }
}

/// A boolean parameter `what`, or a `TypeError` naming it (no truthiness: `1` and `"true"` are
/// refused).
pub(crate) fn bool_from_js(what: &str, v: &JsValue) -> Result<bool, JsValue> {
    v.as_bool().ok_or_else(|| {
        type_error(&format!(
            "{what}: expected a boolean, got {}",
            js_type_name(v)
        ))
    })
}

/// [`int_from_js`] for a value that must fit in an `i32`.
pub(crate) fn i32_from_js(what: &str, v: &JsValue) -> Result<i32, JsValue> {
    let x = int_from_js(what, v)?;
    i32::try_from(x).map_err(|_| out_of_range(what, x, "int32"))
}

/// [`uint_from_js`] for a value that must fit in a `u8`.
pub(crate) fn u8_from_js(what: &str, v: &JsValue) -> Result<u8, JsValue> {
    let x = uint_from_js(what, v)?;
    u8::try_from(x).map_err(|_| out_of_range(what, x, "uint8"))
}

/// `typeof v` in words, for messages.
pub(crate) fn js_type_name(v: &JsValue) -> String {
    if v.is_null() {
        "null".into()
    } else if js_sys::Array::is_array(v) {
        "an array".into()
    } else {
        v.js_typeof().as_string().unwrap_or_default()
    }
}

/// A readable error for field `what`.
pub(crate) fn err(what: &str, e: impl std::fmt::Display) -> JsValue {
    js_error(&format!("{what}: {e}"))
}

/// Parses a non-negative decimal integer string (no sign, no exponent, no hex), as the wire
/// format's `U256` fields do ([`crate::serde_dec::u256::parse`]).
pub(crate) fn parse_u256(what: &str, s: &str) -> Result<U256, JsValue> {
    crate::serde_dec::u256::parse(s).map_err(|e| err(what, e))
}

/// Parses a 0x-prefixed 20-byte address (any case; checksum not enforced).
pub(crate) fn parse_address(what: &str, s: &str) -> Result<Address, JsValue> {
    let t = s.trim();
    if !(t.starts_with("0x") || t.starts_with("0X")) || t.len() != 42 {
        return Err(js_error(&format!(
            "{what}: expected a 0x-prefixed 20-byte hex address, got '{s}'"
        )));
    }
    t.parse::<Address>().map_err(|e| err(what, e))
}

/// Parses a 0x-prefixed 32-byte hex string.
pub(crate) fn parse_b256(what: &str, s: &str) -> Result<B256, JsValue> {
    let t = s.trim();
    if !(t.starts_with("0x") || t.starts_with("0X")) || t.len() != 66 {
        return Err(js_error(&format!(
            "{what}: expected 0x-prefixed 32-byte hex, got '{s}'"
        )));
    }
    t.parse::<B256>().map_err(|e| err(what, e))
}

/// Deserialises a JS value into `T`; an error names the parameter and the path of the bad field
/// inside it (`theses[1].scoreId: …`).
pub(crate) fn from_js<T: DeserializeOwned>(what: &str, v: JsValue) -> Result<T, JsValue> {
    from_js_at(what, what, v)
}

/// [`from_js`] for a parameter that is one input object (`input`): its fields are named on their
/// own (`observations[0].tickCumulative`), as the API documents them.
pub(crate) fn from_js_input<T: DeserializeOwned>(v: JsValue) -> Result<T, JsValue> {
    from_js_at("", "input", v)
}

/// Deserialises `v`; a bad field is named by [`field_name`]`(prefix, whole, path)`.
fn from_js_at<T: DeserializeOwned>(prefix: &str, whole: &str, v: JsValue) -> Result<T, JsValue> {
    serde_path_to_error::deserialize(serde_wasm_bindgen::Deserializer::from(v)).map_err(|e| {
        let name = field_name(prefix, whole, &e.path().to_string());
        let inner: JsValue = e.into_inner().into();
        let message = inner.unchecked_into::<js_sys::Error>().message();
        js_error(&format!("{name}: {}", String::from(message)))
    })
}

/// A list of decimal-string integers (`U256[]`), each parsed in place.
#[derive(serde::Deserialize)]
pub(crate) struct U256List(#[serde(with = "crate::serde_dec::u256_vec")] pub(crate) Vec<U256>);

/// The name of a bad field: a serde `path` (`.` for the value itself, `[1].scoreId`, `feeBps`)
/// after `prefix` (a parameter's name, or empty for an input object whose fields are named on
/// their own), or `whole` for the value itself.
pub(crate) fn field_name(prefix: &str, whole: &str, path: &str) -> String {
    match path {
        "." | "" => whole.to_owned(),
        p if p.starts_with('[') || prefix.is_empty() => format!("{prefix}{p}"),
        p => format!("{prefix}.{p}"),
    }
}

/// Serialises `T` into a plain JS object (maps become objects, u64/i64 become numbers).
pub(crate) fn to_js<T: Serialize + ?Sized>(v: &T) -> Result<JsValue, JsValue> {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| err("result", e))
}

// ---------------------------------------------------------------------------------------------
// Integers from JS: numbers, BigInts and decimal strings.

/// `Number.MAX_SAFE_INTEGER` (2^53 − 1): larger JS numbers are not exact integers.
pub(crate) const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// A JS number that is an exact safe integer (`|n| ≤ 2^53 − 1`), or why not.
fn safe_integer(n: f64) -> Result<i64, String> {
    if n.is_finite() && n.fract() == 0.0 && n.abs() <= MAX_SAFE_INTEGER as f64 {
        // Exact: n is an integer with |n| < 2^53.
        Ok(n as i64)
    } else {
        Err(format!(
            "expected a safe integer, got {n} (pass large values as a decimal string or a BigInt)"
        ))
    }
}

/// Splits a decimal integer string (trimmed, optional `+`/`-`, then ASCII digits) into
/// (negative, digits), or says why it is not one.
fn decimal_parts(s: &str) -> Result<(bool, &str), String> {
    let t = s.trim();
    let (negative, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("expected a decimal integer, got '{s}'"));
    }
    Ok((negative, digits))
}

/// The decimal text of a JS string or BigInt; `None` for anything else.
fn decimal_text(v: &JsValue) -> Option<String> {
    if let Some(s) = v.as_string() {
        return Some(s);
    }
    if v.is_bigint() {
        // A BigInt always prints in base 10.
        return js_sys::BigInt::from(v.clone())
            .to_string(10)
            .ok()
            .map(String::from);
    }
    None
}

fn not_an_integer(what: &str, v: &JsValue) -> JsValue {
    type_error(&format!(
        "{what}: expected a number, a BigInt or a decimal string, got {}",
        js_type_name(v)
    ))
}

fn negative(what: &str, v: impl std::fmt::Display) -> JsValue {
    js_error(&format!("{what}: must not be negative, got {v}"))
}

fn out_of_range(what: &str, v: impl std::fmt::Display, ty: &str) -> JsValue {
    js_error(&format!("{what}: {v} does not fit in {ty}"))
}

/// A non-negative integer (up to 2^256 − 1) from a safe-integer JS number, a BigInt or a
/// decimal string.
pub(crate) fn uint_from_js(what: &str, v: &JsValue) -> Result<U256, JsValue> {
    if let Some(n) = v.as_f64() {
        let n = safe_integer(n).map_err(|e| err(what, e))?;
        return u64::try_from(n)
            .map(U256::from)
            .map_err(|_| negative(what, n));
    }
    let s = decimal_text(v).ok_or_else(|| not_an_integer(what, v))?;
    let (neg, digits) = decimal_parts(&s).map_err(|e| err(what, e))?;
    let x =
        U256::from_str_radix(digits, 10).map_err(|_| out_of_range(what, s.trim(), "uint256"))?;
    if neg && !x.is_zero() {
        return Err(negative(what, s.trim()));
    }
    Ok(x)
}

/// [`uint_from_js`], `None` for `undefined` / `null`.
pub(crate) fn opt_uint_from_js(what: &str, v: &JsValue) -> Result<Option<U256>, JsValue> {
    if v.is_undefined() || v.is_null() {
        Ok(None)
    } else {
        uint_from_js(what, v).map(Some)
    }
}

/// A signed integer that fits in an `i64`, from a safe-integer JS number, a BigInt or a decimal
/// string.
pub(crate) fn int_from_js(what: &str, v: &JsValue) -> Result<i64, JsValue> {
    if let Some(n) = v.as_f64() {
        return safe_integer(n).map_err(|e| err(what, e));
    }
    let s = decimal_text(v).ok_or_else(|| not_an_integer(what, v))?;
    decimal_parts(&s).map_err(|e| err(what, e))?;
    s.trim()
        .parse::<i64>()
        .map_err(|_| out_of_range(what, s.trim(), "int64"))
}

/// [`uint_from_js`] for a value that must fit in a `u64`.
pub(crate) fn u64_from_js(what: &str, v: &JsValue) -> Result<u64, JsValue> {
    let x = uint_from_js(what, v)?;
    u64::try_from(x).map_err(|_| out_of_range(what, x, "uint64"))
}

/// [`u64_from_js`], with `default` for `undefined` / `null`.
pub(crate) fn u64_from_js_or(what: &str, v: &JsValue, default: u64) -> Result<u64, JsValue> {
    if v.is_undefined() || v.is_null() {
        Ok(default)
    } else {
        u64_from_js(what, v)
    }
}

/// [`uint_from_js`] for a value that must fit in a `u32`.
pub(crate) fn u32_from_js(what: &str, v: &JsValue) -> Result<u32, JsValue> {
    let x = uint_from_js(what, v)?;
    u32::try_from(x).map_err(|_| out_of_range(what, x, "uint32"))
}

/// A `u64` result as a JS number, refusing values above `Number.MAX_SAFE_INTEGER` (output
/// conversion only: the number is exact).
pub(crate) fn to_safe_number(what: &str, x: u64) -> Result<f64, JsValue> {
    if x > MAX_SAFE_INTEGER {
        return Err(js_error(&format!(
            "{what}: {x} is above Number.MAX_SAFE_INTEGER"
        )));
    }
    Ok(x as f64)
}
