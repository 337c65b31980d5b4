//! JS exports for `crate::merkle` (C5): `class StandardMerkleTree`, mirroring the API of
//! `@openzeppelin/merkle-tree` 1.0.8.
//!
//! Values cross as plain JSON-compatible JS values (arrays of strings, numbers, booleans, …),
//! read in one `JSON.stringify` call (a `bigint` is read as its decimal string); results that
//! hold values (`dump`, `getMultiProof`, `at`, `entries`) are built as JSON and returned through
//! one `JSON.parse`, so they deep-equal OZ's. Hashes are `0x`-hex, lowercase. Proofs are
//! returned as one joined string split on the JS side (one crossing per proof).
//!
//! OZ's instance `tree.verify(leaf, proof)` / `tree.verifyMultiProof(mp)` share their names
//! with the static methods, which wasm-bindgen cannot export twice; use the static forms with
//! `tree.root` and `tree.leafEncoding`.

use std::cell::OnceCell;

use super::js_error;
use alloy_primitives::B256;
use js_sys::{Array, Function, JsString, JSON};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use wasm_bindgen::prelude::*;

use crate::merkle::{
    self, tree::parse_node, tree::push_hex, tree::to_hex, Leaf, MerkleError, MultiProof, Options,
};

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** A leaf value: one element per leaf-encoding type (decimal strings for integers, 0x-hex for bytes/addresses). */
export type LeafValue = any[];
/** `{ leaves, proof, proofFlags }` as returned by `getMultiProof`. */
export interface MultiProof<T = LeafValue> { leaves: T[]; proof: string[]; proofFlags: boolean[]; }
/** The `standard-v1` dump of `@openzeppelin/merkle-tree`. */
export interface StandardMerkleTreeData<T = LeafValue> {
  format: "standard-v1";
  leafEncoding: string[];
  tree: string[];
  values: { value: T; treeIndex: number }[];
}
/** Options of `StandardMerkleTree.of`. */
export interface MerkleTreeOptions { sortLeaves?: boolean; }
"#;

fn merr(e: MerkleError) -> JsValue {
    js_error(&e.to_string())
}

thread_local! {
    static BIGINT_REPLACER: OnceCell<Function> = const { OnceCell::new() };
}

/// A JS value as JSON (`JSON.stringify`, with `bigint` as its decimal string).
fn js_to_json(what: &str, v: &JsValue) -> Result<Value, JsValue> {
    let text = match JSON::stringify(v) {
        Ok(s) => s,
        Err(_) => BIGINT_REPLACER
            .with(|r| {
                let f = r.get_or_init(|| {
                    Function::new_with_args(
                        "k, v",
                        "return typeof v === 'bigint' ? v.toString() : v",
                    )
                });
                JSON::stringify_with_replacer(v, f)
            })
            .map_err(|e| js_error(&format!("{what}: not JSON-compatible ({})", js_message(&e))))?,
    };
    let text = text
        .as_string()
        .ok_or_else(|| js_error(&format!("{what}: expected a value, got undefined")))?;
    serde_json::from_str(&text).map_err(|e| js_error(&format!("{what}: {e}")))
}

/// The message of a thrown JS value.
fn js_message(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".to_owned())
}

/// A Rust value as a plain JS object (`JSON.parse` of its JSON).
fn json_to_js<T: Serialize + ?Sized>(v: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(v).map_err(|e| js_error(&format!("result: {e}")))?;
    JSON::parse(&text).map_err(|e| js_error(&format!("result: {}", js_message(&e))))
}

/// Hashes as a JS array of `0x`-hex strings (built as one string, split in JS).
fn hex_array(hashes: &[B256]) -> Array {
    if hashes.is_empty() {
        return Array::new();
    }
    let mut s = String::with_capacity(hashes.len() * 67);
    for (i, h) in hashes.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        push_hex(&mut s, h);
    }
    JsString::from(s).split(",")
}

/// A JS number used as a value index (OZ: any number is an index; non-integers miss).
fn index_of(n: f64) -> Result<usize, JsValue> {
    if n.fract() == 0.0 && (0.0..9_007_199_254_740_992.0).contains(&n) {
        Ok(n as usize)
    } else {
        Err(merr(MerkleError::InvalidIndex(n.to_string())))
    }
}

/// A JSON leaf argument: a number is an index, anything else a value.
fn leaf_of(v: &Value) -> Result<Leaf<'_>, JsValue> {
    match v {
        Value::Number(n) => index_of(n.as_f64().unwrap_or(f64::NAN)).map(Leaf::Index),
        other => Ok(Leaf::Value(other)),
    }
}

fn parse_hashes(what: &str, v: Value) -> Result<Vec<B256>, JsValue> {
    let Value::Array(items) = v else {
        return Err(js_error(&format!(
            "{what}: expected an array of 0x-hex strings"
        )));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, h)| match h {
            Value::String(s) => parse_node(|| format!("{what}[{i}]"), s).map_err(merr),
            other => Err(merr(MerkleError::InvalidNode {
                what: format!("{what}[{i}]"),
                value: other.to_string(),
            })),
        })
        .collect()
}

fn parse_root(root: &str) -> Result<B256, JsValue> {
    parse_node(|| "root".to_owned(), root).map_err(merr)
}

fn parse_encoding(v: &JsValue) -> Result<Vec<String>, JsValue> {
    serde_json::from_value(js_to_json("leafEncoding", v)?).map_err(|e| {
        js_error(&format!(
            "leafEncoding: expected an array of Solidity type strings ({e})"
        ))
    })
}

/// A multiproof as given by JS: `{leaves, proof, proofFlags}`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsMultiProof {
    leaves: Vec<Value>,
    proof: Value,
    proof_flags: Vec<bool>,
}

fn parse_multiproof(v: &JsValue) -> Result<MultiProof<Value>, JsValue> {
    let mp: JsMultiProof = serde_json::from_value(js_to_json("multiproof", v)?).map_err(|e| {
        js_error(&format!(
            "multiproof: expected {{leaves, proof, proofFlags}} ({e})"
        ))
    })?;
    let proof = parse_hashes("multiproof.proof", mp.proof)?;
    Ok(MultiProof {
        leaves: mp.leaves,
        proof,
        proof_flags: mp.proof_flags,
    })
}

/// `StandardMerkleTree` of `@openzeppelin/merkle-tree` (`standard-v1`), computed in Rust.
#[wasm_bindgen(js_name = StandardMerkleTree)]
pub struct JsStandardMerkleTree {
    inner: merkle::StandardMerkleTree,
}

#[wasm_bindgen(js_class = StandardMerkleTree)]
impl JsStandardMerkleTree {
    /// Builds a tree of `values` (arrays, one element per type of `leafEncoding`).
    /// `options.sortLeaves` (default `true`) sorts leaves by hash as OZ does.
    pub fn of(
        #[wasm_bindgen(unchecked_param_type = "LeafValue[]")] values: JsValue,
        #[wasm_bindgen(js_name = leafEncoding, unchecked_param_type = "string[]")]
        leaf_encoding: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "MerkleTreeOptions")] options: JsValue,
    ) -> Result<JsStandardMerkleTree, JsValue> {
        let encoding = parse_encoding(&leaf_encoding)?;
        let values = match js_to_json("values", &values)? {
            Value::Array(v) => v,
            _ => return Err(js_error("values: expected an array of leaf values")),
        };
        let options: Options = if options.is_undefined() || options.is_null() {
            Options::default()
        } else {
            serde_json::from_value(js_to_json("options", &options)?)
                .map_err(|e| js_error(&format!("options: {e}")))?
        };
        let inner = merkle::StandardMerkleTree::of(values, &encoding, options).map_err(merr)?;
        Ok(Self { inner })
    }

    /// Loads a `standard-v1` dump, validating it fully; a tampered dump throws.
    pub fn load(
        #[wasm_bindgen(unchecked_param_type = "StandardMerkleTreeData")] data: JsValue,
    ) -> Result<JsStandardMerkleTree, JsValue> {
        let data = js_to_json("dump", &data)?;
        Ok(Self {
            inner: merkle::StandardMerkleTree::load_json(data).map_err(merr)?,
        })
    }

    /// Whether `proof` proves `leaf` (a value under `leafEncoding`) against `root`.
    #[wasm_bindgen(js_name = verify)]
    pub fn verify_static(
        #[wasm_bindgen(unchecked_param_type = "string")] root: JsValue,
        #[wasm_bindgen(js_name = leafEncoding, unchecked_param_type = "string[]")]
        leaf_encoding: JsValue,
        #[wasm_bindgen(unchecked_param_type = "LeafValue")] leaf: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string[]")] proof: JsValue,
    ) -> Result<bool, JsValue> {
        let root: &str = &super::text_from_js("root", &root)?;
        let root = parse_root(root)?;
        let encoding = parse_encoding(&leaf_encoding)?;
        let leaf = js_to_json("leaf", &leaf)?;
        let proof = parse_hashes("proof", js_to_json("proof", &proof)?)?;
        merkle::verify(&root, &encoding, &leaf, &proof).map_err(merr)
    }

    /// Whether `multiproof` (`{leaves, proof, proofFlags}`) proves its leaves against `root`.
    #[wasm_bindgen(js_name = verifyMultiProof)]
    pub fn verify_multi_proof_static(
        #[wasm_bindgen(unchecked_param_type = "string")] root: JsValue,
        #[wasm_bindgen(js_name = leafEncoding, unchecked_param_type = "string[]")]
        leaf_encoding: JsValue,
        #[wasm_bindgen(unchecked_param_type = "MultiProof")] multiproof: JsValue,
    ) -> Result<bool, JsValue> {
        let root: &str = &super::text_from_js("root", &root)?;
        let root = parse_root(root)?;
        let encoding = parse_encoding(&leaf_encoding)?;
        let multiproof = parse_multiproof(&multiproof)?;
        merkle::verify_multi_proof(&root, &encoding, &multiproof).map_err(merr)
    }

    /// The root, `0x`-hex.
    #[wasm_bindgen(getter)]
    pub fn root(&self) -> String {
        to_hex(&self.inner.root())
    }

    /// Number of values.
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> usize {
        self.inner.len()
    }

    /// The leaf encoding as given.
    #[wasm_bindgen(getter = leafEncoding)]
    pub fn leaf_encoding(&self) -> Vec<String> {
        self.inner.leaf_encoding().to_vec()
    }

    /// The value at `index` (negative counts from the end, like `Array.prototype.at`), or
    /// `undefined`.
    #[wasm_bindgen(unchecked_return_type = "LeafValue | undefined")]
    pub fn at(&self, index: f64) -> Result<JsValue, JsValue> {
        let len = self.inner.len() as f64;
        let k = if index.is_nan() { 0.0 } else { index.trunc() };
        let k = if k < 0.0 { len + k } else { k };
        if k < 0.0 || k >= len {
            return Ok(JsValue::UNDEFINED);
        }
        match self.inner.at(k as usize) {
            Some(v) => json_to_js(v),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// `[index, value]` pairs in input order.
    #[wasm_bindgen(unchecked_return_type = "[number, LeafValue][]")]
    pub fn entries(&self) -> Result<JsValue, JsValue> {
        let pairs: Vec<(usize, &Value)> = self.inner.entries().collect();
        json_to_js(&pairs)
    }

    /// The standard leaf hash of `value`, `0x`-hex.
    #[wasm_bindgen(js_name = leafHash)]
    pub fn leaf_hash(
        &self,
        #[wasm_bindgen(unchecked_param_type = "LeafValue")] value: JsValue,
    ) -> Result<String, JsValue> {
        let v = js_to_json("value", &value)?;
        Ok(to_hex(&self.inner.leaf_hash(&v).map_err(merr)?))
    }

    /// The proof of a value, given by index (a number) or by value: sibling hashes, leaf first.
    #[wasm_bindgen(js_name = getProof, unchecked_return_type = "string[]")]
    pub fn get_proof(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number | LeafValue")] leaf: JsValue,
    ) -> Result<Array, JsValue> {
        let proof = match leaf.as_f64() {
            Some(n) => self.inner.get_proof(index_of(n)?),
            None => {
                let v = js_to_json("leaf", &leaf)?;
                self.inner.get_proof_of(Leaf::Value(&v))
            }
        };
        Ok(hex_array(&proof.map_err(merr)?))
    }

    /// The multiproof of several values (indices or values): `{leaves, proof, proofFlags}`,
    /// leaves as values in proof order.
    #[wasm_bindgen(js_name = getMultiProof, unchecked_return_type = "MultiProof")]
    pub fn get_multi_proof(
        &self,
        #[wasm_bindgen(unchecked_param_type = "(number | LeafValue)[]")] leaves: JsValue,
    ) -> Result<JsValue, JsValue> {
        let Value::Array(items) = js_to_json("leaves", &leaves)? else {
            return Err(js_error("leaves: expected an array of indices or values"));
        };
        let refs = items.iter().map(leaf_of).collect::<Result<Vec<_>, _>>()?;
        let mp = self.inner.get_multi_proof_of(&refs).map_err(merr)?;
        json_to_js(&mp)
    }

    /// The `standard-v1` dump, a plain object equal to OZ's `dump()`.
    #[wasm_bindgen(unchecked_return_type = "StandardMerkleTreeData")]
    pub fn dump(&self) -> Result<JsValue, JsValue> {
        json_to_js(&self.inner.dump())
    }

    /// Re-checks every value and hash of the tree.
    pub fn validate(&self) -> Result<(), JsValue> {
        self.inner.validate().map_err(merr)
    }

    /// A text drawing of the tree.
    pub fn render(&self) -> String {
        self.inner.render()
    }
}
