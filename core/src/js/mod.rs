//! The JavaScript API (wasm-bindgen), built with `--features js` into `core/pkg` (web) and
//! `core/pkg-node` (Node). Conventions, shared by every submodule:
//!
//! - big integers cross as decimal strings (`"1000000000000000000"`), bytes and addresses as
//!   0x-hex strings;
//! - objects cross as plain JS objects (serde, JSON-compatible);
//! - every failure is a thrown JS `Error` with a readable message naming the bad field.
//!
//! One submodule per area; each owns its exports.

use alloy_primitives::{Address, B256, I256, U256};
use serde::{de::DeserializeOwned, Serialize};
use wasm_bindgen::prelude::*;

mod merkle;
mod leaves;
mod eip712;
mod uniswap;
mod scoring;
mod human;
mod rewards;
mod curve;
mod duel;
mod calls;

/// A readable error for field `what`.
pub(crate) fn err(what: &str, e: impl std::fmt::Display) -> JsError {
    JsError::new(&format!("{what}: {e}"))
}

/// Parses a non-negative decimal integer string (no sign, no exponent, no hex).
pub(crate) fn parse_u256(what: &str, s: &str) -> Result<U256, JsError> {
    let t = s.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(JsError::new(&format!("{what}: expected a non-negative decimal integer string, got '{s}'")));
    }
    U256::from_str_radix(t, 10).map_err(|_| JsError::new(&format!("{what}: '{s}' does not fit in 256 bits")))
}

/// Parses a signed decimal integer string.
pub(crate) fn parse_i256(what: &str, s: &str) -> Result<I256, JsError> {
    let t = s.trim();
    let digits = t.strip_prefix('-').unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(JsError::new(&format!("{what}: expected a decimal integer string, got '{s}'")));
    }
    t.parse::<I256>().map_err(|_| JsError::new(&format!("{what}: '{s}' does not fit in int256")))
}

/// Parses a signed decimal integer string that must fit in an `i64`.
pub(crate) fn parse_i64(what: &str, s: &str) -> Result<i64, JsError> {
    s.trim().parse::<i64>().map_err(|_| JsError::new(&format!("{what}: expected an integer (64-bit), got '{s}'")))
}

/// Parses a 0x-prefixed 20-byte address (any case; checksum not enforced).
pub(crate) fn parse_address(what: &str, s: &str) -> Result<Address, JsError> {
    let t = s.trim();
    if !(t.starts_with("0x") || t.starts_with("0X")) || t.len() != 42 {
        return Err(JsError::new(&format!("{what}: expected a 0x-prefixed 20-byte hex address, got '{s}'")));
    }
    t.parse::<Address>().map_err(|e| err(what, e))
}

/// Parses a 0x-prefixed 32-byte hex string.
pub(crate) fn parse_b256(what: &str, s: &str) -> Result<B256, JsError> {
    let t = s.trim();
    if !(t.starts_with("0x") || t.starts_with("0X")) || t.len() != 66 {
        return Err(JsError::new(&format!("{what}: expected 0x-prefixed 32-byte hex, got '{s}'")));
    }
    t.parse::<B256>().map_err(|e| err(what, e))
}

/// Deserialises a JS value into `T`, with the field path in the error.
pub(crate) fn from_js<T: DeserializeOwned>(what: &str, v: JsValue) -> Result<T, JsError> {
    serde_wasm_bindgen::from_value(v).map_err(|e| err(what, e))
}

/// Serialises `T` into a plain JS object (maps become objects, u64/i64 become numbers).
pub(crate) fn to_js<T: Serialize + ?Sized>(v: &T) -> Result<JsValue, JsError> {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| err("result", e))
}
