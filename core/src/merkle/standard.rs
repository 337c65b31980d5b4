//! `StandardMerkleTree`, byte for byte `@openzeppelin/merkle-tree` 1.0.8 (`standard-v1`), C5.
//!
//! - leaf = `keccak256(keccak256(abi.encode(values…)))` under the tree's leaf encoding;
//! - leaves sorted by hash ascending by default (stable: equal hashes keep input order), or in
//!   input order with `sort_leaves: false`;
//! - layout, proofs and multiproofs as in [`super::tree`];
//! - values keep their JSON form, so [`StandardMerkleTree::dump`] and multiproof leaves return
//!   them exactly as given;
//! - [`StandardMerkleTree::load`] checks the format, that every value hashes to the node at
//!   its `treeIndex`, and that the tree is a valid Merkle tree.
//!
//! Like the library, proofs of a tree are served from the stored nodes; unlike it, they are not
//! re-verified on every call (the tree is immutable and was checked when built or loaded).

use std::collections::HashMap;
use std::sync::OnceLock;

use alloy_primitives::B256;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::encoding::{describe, LeafEncoding};
use super::error::MerkleError;
use super::tree::{
    get_multi_proof, get_proof, is_valid_merkle_tree, make_merkle_tree, parse_node,
    process_multi_proof, process_proof, render_merkle_tree, to_hex, MultiProof,
};

/// The dump format written and read by this module and by OZ 1.0.x.
pub const STANDARD_V1: &str = "standard-v1";

/// Options of [`StandardMerkleTree::of`] (OZ `MerkleTreeOptions`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Options {
    /// Sort leaves by hash (default `true`, OZ `defaultOptions.sortLeaves`).
    pub sort_leaves: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self { sort_leaves: true }
    }
}

/// A value of the tree with the index of its leaf node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexedValue {
    /// The leaf value as given (a JSON array, one element per leaf-encoding type).
    pub value: Value,
    /// Index of its leaf in the node array.
    pub tree_index: usize,
}

/// The `standard-v1` dump: `{format, leafEncoding, tree, values: [{value, treeIndex}]}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StandardMerkleTreeData {
    /// Always [`STANDARD_V1`].
    pub format: String,
    /// Solidity type strings of the leaf values.
    pub leaf_encoding: Vec<String>,
    /// All nodes as `0x`-hex, root first.
    pub tree: Vec<String>,
    /// The values in input order.
    pub values: Vec<IndexedValue>,
}

/// A leaf named by value index or by value (OZ accepts both in `getProof` etc.).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Leaf<'a> {
    /// The value at this index (input order).
    Index(usize),
    /// The value equal (same leaf hash) to this one.
    Value(&'a Value),
}

/// An OpenZeppelin-compatible standard Merkle tree.
#[derive(Debug)]
pub struct StandardMerkleTree {
    tree: Vec<B256>,
    values: Vec<IndexedValue>,
    encoding: LeafEncoding,
    /// Leaf hash → last value index with that hash (OZ `hashLookup`), built on first use.
    lookup: OnceLock<HashMap<B256, usize>>,
}

impl Clone for StandardMerkleTree {
    fn clone(&self) -> Self {
        Self {
            tree: self.tree.clone(),
            values: self.values.clone(),
            encoding: self.encoding.clone(),
            lookup: OnceLock::new(),
        }
    }
}

impl StandardMerkleTree {
    /// Builds the tree of `values` under `leaf_encoding` (OZ `StandardMerkleTree.of`).
    ///
    /// # Errors
    /// [`MerkleError::LeafEncoding`], [`MerkleError::Encode`] (naming the value index),
    /// [`MerkleError::EmptyTree`].
    pub fn of<S: AsRef<str>>(
        values: Vec<Value>,
        leaf_encoding: &[S],
        options: Options,
    ) -> Result<Self, MerkleError> {
        let encoding = LeafEncoding::parse(leaf_encoding)?;
        let mut hashed: Vec<(B256, usize)> = Vec::with_capacity(values.len());
        for (i, v) in values.iter().enumerate() {
            let h = encoding
                .leaf_hash(v)
                .map_err(|e| MerkleError::encode(Some(i), e))?;
            hashed.push((h, i));
        }
        if options.sort_leaves {
            // (hash, index) keys are unique, so this equals OZ's stable sort by hash.
            hashed.sort_unstable();
        }
        let leaves: Vec<B256> = hashed.iter().map(|(h, _)| *h).collect();
        let tree = make_merkle_tree(&leaves)?;
        let last = tree.len() - 1;
        let mut tree_index = vec![0usize; values.len()];
        for (leaf_index, (_, value_index)) in hashed.iter().enumerate() {
            tree_index[*value_index] = last - leaf_index;
        }
        let values = values
            .into_iter()
            .zip(tree_index)
            .map(|(value, tree_index)| IndexedValue { value, tree_index })
            .collect();
        Ok(Self {
            tree,
            values,
            encoding,
            lookup: OnceLock::new(),
        })
    }

    /// Loads a `standard-v1` dump (OZ `StandardMerkleTree.load`), checking it fully.
    ///
    /// # Errors
    /// [`MerkleError::UnknownFormat`], [`MerkleError::LeafValueIsNumber`],
    /// [`MerkleError::LeafEncoding`], [`MerkleError::InvalidNode`], [`MerkleError::Encode`],
    /// [`MerkleError::ValueMismatch`], [`MerkleError::InvalidTree`].
    pub fn load(data: StandardMerkleTreeData) -> Result<Self, MerkleError> {
        if data.format != STANDARD_V1 {
            return Err(MerkleError::UnknownFormat(data.format));
        }
        if let Some(i) = data.values.iter().position(|v| v.value.is_number()) {
            return Err(MerkleError::LeafValueIsNumber(i));
        }
        let encoding = LeafEncoding::parse(&data.leaf_encoding)?;
        let tree = data
            .tree
            .iter()
            .enumerate()
            .map(|(i, s)| parse_node(|| format!("tree[{i}]"), s))
            .collect::<Result<Vec<_>, _>>()?;
        let loaded = Self {
            tree,
            values: data.values,
            encoding,
            lookup: OnceLock::new(),
        };
        loaded.validate()?;
        Ok(loaded)
    }

    /// Loads a dump given as JSON, checking `format` and `leafEncoding` first as OZ does.
    ///
    /// # Errors
    /// As [`StandardMerkleTree::load`], plus [`MerkleError::MissingLeafEncoding`] and
    /// [`MerkleError::InvalidDump`] for a dump of the wrong shape.
    pub fn load_json(data: Value) -> Result<Self, MerkleError> {
        let Value::Object(obj) = &data else {
            return Err(MerkleError::InvalidDump(format!(
                "expected an object, got {}",
                describe(&data)
            )));
        };
        match obj.get("format") {
            Some(Value::String(s)) if s == STANDARD_V1 => {}
            Some(other) => return Err(MerkleError::UnknownFormat(describe(other))),
            None => return Err(MerkleError::UnknownFormat("undefined".to_owned())),
        }
        if !obj.contains_key("leafEncoding") {
            return Err(MerkleError::MissingLeafEncoding);
        }
        let data: StandardMerkleTreeData =
            serde_json::from_value(data).map_err(|e| MerkleError::InvalidDump(e.to_string()))?;
        Self::load(data)
    }

    /// Checks every value against its leaf and the tree's hashes (OZ `validate`).
    ///
    /// # Errors
    /// [`MerkleError::Encode`], [`MerkleError::ValueMismatch`], [`MerkleError::InvalidTree`].
    pub fn validate(&self) -> Result<(), MerkleError> {
        for (i, v) in self.values.iter().enumerate() {
            let h = self
                .encoding
                .leaf_hash(&v.value)
                .map_err(|e| MerkleError::encode(Some(i), e))?;
            if self.tree.get(v.tree_index) != Some(&h) {
                return Err(MerkleError::ValueMismatch {
                    index: i,
                    tree_index: v.tree_index,
                });
            }
        }
        if !is_valid_merkle_tree(&self.tree) {
            return Err(MerkleError::InvalidTree);
        }
        Ok(())
    }

    /// The root hash.
    pub fn root(&self) -> B256 {
        // Never empty: built from ≥ 1 leaf or validated on load.
        self.tree.first().copied().unwrap_or_default()
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True when the tree has no values (only possible for a loaded dump without values).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The value at `index` (input order).
    pub fn at(&self, index: usize) -> Option<&Value> {
        self.values.get(index).map(|v| &v.value)
    }

    /// `(index, value)` in input order (OZ `entries`).
    pub fn entries(&self) -> impl Iterator<Item = (usize, &Value)> {
        self.values.iter().map(|v| &v.value).enumerate()
    }

    /// The values with their tree indices.
    pub fn values(&self) -> &[IndexedValue] {
        &self.values
    }

    /// All nodes, root first.
    pub fn tree(&self) -> &[B256] {
        &self.tree
    }

    /// The leaf encoding type strings as given.
    pub fn leaf_encoding(&self) -> &[String] {
        self.encoding.strings()
    }

    /// The standard leaf hash of `value` under this tree's encoding.
    ///
    /// # Errors
    /// [`MerkleError::Encode`].
    pub fn leaf_hash(&self, value: &Value) -> Result<B256, MerkleError> {
        self.encoding
            .leaf_hash(value)
            .map_err(|e| MerkleError::encode(None, e))
    }

    fn lookup(&self) -> &HashMap<B256, usize> {
        self.lookup.get_or_init(|| {
            let mut m = HashMap::with_capacity(self.values.len());
            for (i, v) in self.values.iter().enumerate() {
                if let Some(h) = self.tree.get(v.tree_index) {
                    m.insert(*h, i);
                }
            }
            m
        })
    }

    /// The value index of `leaf`.
    ///
    /// # Errors
    /// [`MerkleError::IndexOutOfBounds`], [`MerkleError::Encode`], [`MerkleError::LeafNotInTree`].
    pub fn value_index(&self, leaf: Leaf<'_>) -> Result<usize, MerkleError> {
        match leaf {
            Leaf::Index(i) if i < self.values.len() => Ok(i),
            Leaf::Index(index) => Err(MerkleError::IndexOutOfBounds {
                index,
                len: self.values.len(),
            }),
            Leaf::Value(v) => {
                let h = self.leaf_hash(v)?;
                self.lookup()
                    .get(&h)
                    .copied()
                    .ok_or(MerkleError::LeafNotInTree)
            }
        }
    }

    /// The proof of the value at `index` (OZ `getProof(index)`): sibling hashes, leaf first.
    ///
    /// # Errors
    /// [`MerkleError::IndexOutOfBounds`].
    pub fn get_proof(&self, index: usize) -> Result<Vec<B256>, MerkleError> {
        self.get_proof_of(Leaf::Index(index))
    }

    /// The proof of `leaf`, by index or by value (OZ `getProof`).
    ///
    /// # Errors
    /// As [`StandardMerkleTree::value_index`], and [`MerkleError::NotALeaf`] for a dump whose
    /// value points at an inner node.
    pub fn get_proof_of(&self, leaf: Leaf<'_>) -> Result<Vec<B256>, MerkleError> {
        let i = self.value_index(leaf)?;
        get_proof(&self.tree, self.values[i].tree_index)
    }

    /// The multiproof of the values at `indices` (OZ `getMultiProof(indices)`); leaves are
    /// returned as values, in the order the proof consumes them.
    ///
    /// # Errors
    /// [`MerkleError::IndexOutOfBounds`], [`MerkleError::DuplicatedIndex`].
    pub fn get_multi_proof(&self, indices: &[usize]) -> Result<MultiProof<Value>, MerkleError> {
        let leaves: Vec<Leaf<'_>> = indices.iter().map(|&i| Leaf::Index(i)).collect();
        self.get_multi_proof_of(&leaves)
    }

    /// The multiproof of `leaves`, each by index or by value (OZ `getMultiProof`).
    ///
    /// # Errors
    /// As [`StandardMerkleTree::value_index`], and [`MerkleError::DuplicatedIndex`].
    pub fn get_multi_proof_of(
        &self,
        leaves: &[Leaf<'_>],
    ) -> Result<MultiProof<Value>, MerkleError> {
        let tree_indices = leaves
            .iter()
            .map(|l| self.value_index(*l).map(|i| self.values[i].tree_index))
            .collect::<Result<Vec<_>, _>>()?;
        let (mp, _) = get_multi_proof(&self.tree, &tree_indices)?;
        let lookup = self.lookup();
        let values = mp
            .leaves
            .iter()
            .map(|h| {
                lookup
                    .get(h)
                    .map(|&i| self.values[i].value.clone())
                    .ok_or(MerkleError::LeafNotInTree)
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(MultiProof {
            leaves: values,
            proof: mp.proof,
            proof_flags: mp.proof_flags,
        })
    }

    fn leaf_hash_of(&self, leaf: Leaf<'_>) -> Result<B256, MerkleError> {
        match leaf {
            Leaf::Index(i) => match self.values.get(i) {
                Some(v) => self.leaf_hash(&v.value),
                None => Err(MerkleError::IndexOutOfBounds {
                    index: i,
                    len: self.values.len(),
                }),
            },
            Leaf::Value(v) => self.leaf_hash(v),
        }
    }

    /// Whether `proof` proves `leaf` against this tree's root (OZ `tree.verify`).
    ///
    /// # Errors
    /// [`MerkleError::IndexOutOfBounds`], [`MerkleError::Encode`].
    pub fn verify(&self, leaf: Leaf<'_>, proof: &[B256]) -> Result<bool, MerkleError> {
        Ok(process_proof(self.leaf_hash_of(leaf)?, proof) == self.root())
    }

    /// Whether a multiproof proves its leaves against this tree's root (OZ
    /// `tree.verifyMultiProof`).
    ///
    /// # Errors
    /// [`MerkleError::Encode`], and the multiproof shape errors of
    /// [`super::tree::process_multi_proof`].
    pub fn verify_multi_proof(
        &self,
        multiproof: &MultiProof<Leaf<'_>>,
    ) -> Result<bool, MerkleError> {
        let leaves = multiproof
            .leaves
            .iter()
            .map(|l| self.leaf_hash_of(*l))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(
            process_multi_proof(&leaves, &multiproof.proof, &multiproof.proof_flags)?
                == self.root(),
        )
    }

    /// The `standard-v1` dump (OZ `dump`).
    pub fn dump(&self) -> StandardMerkleTreeData {
        StandardMerkleTreeData {
            format: STANDARD_V1.to_owned(),
            leaf_encoding: self.encoding.strings().to_vec(),
            tree: self.tree.iter().map(to_hex).collect(),
            values: self.values.clone(),
        }
    }

    /// A text drawing of the tree (OZ `render`).
    pub fn render(&self) -> String {
        render_merkle_tree(&self.tree).unwrap_or_default()
    }
}

/// Whether `proof` proves `value` under `leaf_encoding` against `root` (OZ static
/// `StandardMerkleTree.verify`).
///
/// # Errors
/// [`MerkleError::LeafEncoding`], [`MerkleError::Encode`].
pub fn verify<S: AsRef<str>>(
    root: &B256,
    leaf_encoding: &[S],
    value: &Value,
    proof: &[B256],
) -> Result<bool, MerkleError> {
    let encoding = LeafEncoding::parse(leaf_encoding)?;
    let leaf = encoding
        .leaf_hash(value)
        .map_err(|e| MerkleError::encode(None, e))?;
    Ok(process_proof(leaf, proof) == *root)
}

/// Whether `multiproof` proves its leaf values under `leaf_encoding` against `root` (OZ static
/// `StandardMerkleTree.verifyMultiProof`).
///
/// # Errors
/// [`MerkleError::LeafEncoding`], [`MerkleError::Encode`] (naming the leaf index), and the
/// multiproof shape errors of [`super::tree::process_multi_proof`].
pub fn verify_multi_proof<S: AsRef<str>>(
    root: &B256,
    leaf_encoding: &[S],
    multiproof: &MultiProof<Value>,
) -> Result<bool, MerkleError> {
    let encoding = LeafEncoding::parse(leaf_encoding)?;
    let leaves = multiproof
        .leaves
        .iter()
        .enumerate()
        .map(|(i, v)| {
            encoding
                .leaf_hash(v)
                .map_err(|e| MerkleError::encode(Some(i), e))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(process_multi_proof(&leaves, &multiproof.proof, &multiproof.proof_flags)? == *root)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    const VECTORS: &str = include_str!("testdata/oz_vectors.json");

    fn vectors() -> Vec<Value> {
        serde_json::from_str::<Vec<Value>>(VECTORS).unwrap()
    }

    fn hashes(v: &Value) -> Vec<B256> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|h| h.as_str().unwrap().parse().unwrap())
            .collect()
    }

    fn rebuild(dump: &Value, sort_leaves: bool) -> StandardMerkleTree {
        let enc: Vec<String> = serde_json::from_value(dump["leafEncoding"].clone()).unwrap();
        let values: Vec<Value> = dump["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["value"].clone())
            .collect();
        StandardMerkleTree::of(values, &enc, Options { sort_leaves }).unwrap()
    }

    /// The README example of `@openzeppelin/merkle-tree`: the root is pinned.
    #[test]
    fn oz_readme_root() {
        let values = vec![
            json!([
                "0x1111111111111111111111111111111111111111",
                "5000000000000000000"
            ]),
            json!([
                "0x2222222222222222222222222222222222222222",
                "2500000000000000000"
            ]),
        ];
        let t =
            StandardMerkleTree::of(values, &["address", "uint256"], Options::default()).unwrap();
        assert_eq!(
            to_hex(&t.root()),
            "0xd4dee0beab2d53f2cc83e567171bd2820e49898130a22622b10ead383e90bd77"
        );
    }

    #[test]
    fn reproduces_oz_vectors() {
        for case in vectors() {
            let t = rebuild(&case["dump"], true);
            assert_eq!(serde_json::to_value(t.dump()).unwrap(), case["dump"]);
            for (i, p) in case["proofs"].as_array().unwrap().iter().enumerate() {
                assert_eq!(t.get_proof(i).unwrap(), hashes(p));
            }
            let n = t.len();
            let mp = t.get_multi_proof(&[0, n - 1]).unwrap();
            assert_eq!(serde_json::to_value(&mp).unwrap(), case["multi"]);
            let unsorted = rebuild(&case["unsorted"], false);
            assert_eq!(
                serde_json::to_value(unsorted.dump()).unwrap(),
                case["unsorted"]
            );
            // Loading OZ's dump gives the same tree.
            let loaded = StandardMerkleTree::load_json(case["dump"].clone()).unwrap();
            assert_eq!(loaded.root(), t.root());
        }
    }

    #[test]
    fn verify_static_and_instance() {
        let case = &vectors()[2];
        let t = rebuild(&case["dump"], true);
        let enc = t.leaf_encoding().to_vec();
        for (i, v) in t.entries() {
            let p = t.get_proof(i).unwrap();
            assert!(verify(&t.root(), &enc, v, &p).unwrap());
            assert!(t.verify(Leaf::Index(i), &p).unwrap());
            assert!(t.verify(Leaf::Value(v), &p).unwrap());
            assert_eq!(t.get_proof_of(Leaf::Value(v)).unwrap(), p);
        }
        let mp = t.get_multi_proof(&[1, 2]).unwrap();
        assert!(verify_multi_proof(&t.root(), &enc, &mp).unwrap());
        let by_ref = MultiProof {
            leaves: mp.leaves.iter().map(Leaf::Value).collect(),
            proof: mp.proof.clone(),
            proof_flags: mp.proof_flags.clone(),
        };
        assert!(t.verify_multi_proof(&by_ref).unwrap());
        assert_eq!(
            t.get_proof(99).unwrap_err(),
            MerkleError::IndexOutOfBounds { index: 99, len: 3 }
        );
        assert_eq!(
            t.get_proof_of(Leaf::Value(&json!([["9", "0x01"], "z"])))
                .unwrap_err(),
            MerkleError::LeafNotInTree
        );
        assert_eq!(
            t.get_multi_proof(&[1, 1]).unwrap_err(),
            MerkleError::DuplicatedIndex
        );
    }

    #[test]
    fn duplicates_follow_oz() {
        // Equal leaves in different spellings: proofs by index keep input order; multiproof
        // leaves resolve to the last value with that hash, like OZ's hashLookup.
        let values = vec![json!(["1"]), json!(["0x1"]), json!(["2"])];
        let t = StandardMerkleTree::of(values, &["uint256"], Options::default()).unwrap();
        let ti: Vec<usize> = t.values().iter().map(|v| v.tree_index).collect();
        assert_eq!(ti[1] + 1, ti[0]);
        let mp = t.get_multi_proof(&[0]).unwrap();
        assert_eq!(mp.leaves, vec![json!(["0x1"])]);
    }

    #[test]
    fn load_rejects_tampering() {
        let case = &vectors()[1];
        let good = case["dump"].clone();
        assert!(StandardMerkleTree::load_json(good.clone()).is_ok());

        let mut d = good.clone();
        d["format"] = json!("standard-v2");
        assert_eq!(
            StandardMerkleTree::load_json(d).unwrap_err(),
            MerkleError::UnknownFormat("standard-v2".into())
        );
        let mut d = good.clone();
        d.as_object_mut().unwrap().remove("leafEncoding");
        assert_eq!(
            StandardMerkleTree::load_json(d).unwrap_err(),
            MerkleError::MissingLeafEncoding
        );
        let mut d = good.clone();
        d["values"][0]["value"] = json!(["tampered"]);
        assert!(matches!(
            StandardMerkleTree::load_json(d).unwrap_err(),
            MerkleError::ValueMismatch { index: 0, .. }
        ));
        let mut d = good.clone();
        d["values"][0]["treeIndex"] = json!(0);
        assert!(matches!(
            StandardMerkleTree::load_json(d).unwrap_err(),
            MerkleError::ValueMismatch { index: 0, .. }
        ));
        let mut d = good.clone();
        d["tree"][0] = json!(format!("0x{}", "00".repeat(32)));
        assert_eq!(
            StandardMerkleTree::load_json(d).unwrap_err(),
            MerkleError::InvalidTree
        );
        let mut d = good.clone();
        d["tree"][1] = json!("0x1234");
        assert!(matches!(
            StandardMerkleTree::load_json(d).unwrap_err(),
            MerkleError::InvalidNode { .. }
        ));
        let mut d = good.clone();
        d["values"][0]["value"] = json!(5);
        assert_eq!(
            StandardMerkleTree::load_json(d).unwrap_err(),
            MerkleError::LeafValueIsNumber(0)
        );
        let mut d = good.clone();
        d["leafEncoding"] = json!(["uint7"]);
        assert!(matches!(
            StandardMerkleTree::load_json(d).unwrap_err(),
            MerkleError::LeafEncoding { .. }
        ));
        let mut d = good;
        d["tree"] = json!([]);
        assert!(StandardMerkleTree::load_json(d).is_err());
        assert!(StandardMerkleTree::load_json(json!(null)).is_err());
    }

    #[test]
    fn errors_are_readable() {
        let e = StandardMerkleTree::of(
            vec![json!(["0x01", "1"]), json!(["0x01", "-1"])],
            &["address", "uint256"],
            Options::default(),
        )
        .unwrap_err()
        .to_string();
        assert_eq!(e, "values[1][1]: Unable to encode value: Number \"-1\" is out of range for type \"uint256\".");
        let e = StandardMerkleTree::of(vec![], &["address"], Options::default()).unwrap_err();
        assert_eq!(e, MerkleError::EmptyTree);
    }

    fn arb_value() -> impl Strategy<Value = Value> {
        (
            any::<[u8; 20]>(),
            any::<u128>(),
            "\\PC{0,12}",
            any::<bool>(),
        )
            .prop_map(|(a, n, s, b)| {
                json!([
                    format!("0x{}", alloy_primitives::hex::encode(a)),
                    n.to_string(),
                    s,
                    b
                ])
            })
    }

    fn arb_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|n| json!(n)),
            "\\PC{0,70}".prop_map(Value::String),
            "(0x)?[0-9a-f]{0,66}".prop_map(Value::String),
            Just(json!("standard-v1")),
        ];
        leaf.prop_recursive(4, 40, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::hash_map(
                    prop_oneof![
                        Just("format".to_owned()),
                        Just("leafEncoding".to_owned()),
                        Just("tree".to_owned()),
                        Just("values".to_owned()),
                        Just("value".to_owned()),
                        Just("treeIndex".to_owned()),
                        "[a-z]{1,5}"
                    ],
                    inner,
                    0..5
                )
                .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    const ENC: [&str; 4] = ["address", "uint256", "string", "bool"];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn random_trees_prove_and_roundtrip(values in prop::collection::vec(arb_value(), 1..60),
                                           picks in prop::collection::vec(any::<prop::sample::Index>(), 0..10),
                                           tamper in any::<prop::sample::Index>(),
                                           sort_leaves in any::<bool>()) {
            let t = StandardMerkleTree::of(values, &ENC, Options { sort_leaves }).unwrap();
            let root = t.root();
            for (i, v) in t.entries() {
                let p = t.get_proof(i).unwrap();
                prop_assert!(verify(&root, &ENC, v, &p).unwrap());
                if !p.is_empty() {
                    let mut bad = p.clone();
                    bad[tamper.index(p.len())].0[0] ^= 1;
                    prop_assert!(!verify(&root, &ENC, v, &bad).unwrap());
                }
            }
            let mut idx: Vec<usize> = picks.iter().map(|p| p.index(t.len())).collect();
            idx.sort_unstable();
            idx.dedup();
            let mp = t.get_multi_proof(&idx).unwrap();
            prop_assert!(verify_multi_proof(&root, &ENC, &mp).unwrap());
            if !mp.proof.is_empty() {
                let mut bad = mp.clone();
                let k = tamper.index(bad.proof.len());
                bad.proof[k].0[3] ^= 4;
                prop_assert!(!matches!(verify_multi_proof(&root, &ENC, &bad), Ok(true)));
            }
            let dump = serde_json::to_value(t.dump()).unwrap();
            let loaded = StandardMerkleTree::load_json(dump.clone()).unwrap();
            prop_assert_eq!(loaded.root(), root);
            prop_assert_eq!(serde_json::to_value(loaded.dump()).unwrap(), dump);
        }

        #[test]
        fn load_never_panics(v in arb_json()) {
            let _ = StandardMerkleTree::load_json(v);
        }

        #[test]
        fn load_of_mutated_dump_never_panics(values in prop::collection::vec(arb_value(), 1..8), junk in arb_json(),
                                             which in 0usize..4, pos in any::<prop::sample::Index>()) {
            let t = StandardMerkleTree::of(values, &ENC, Options::default()).unwrap();
            let mut dump = serde_json::to_value(t.dump()).unwrap();
            match which {
                0 => { let n = t.tree().len(); dump["tree"][pos.index(n)] = junk; }
                1 => { let n = t.len(); dump["values"][pos.index(n)]["value"] = junk; }
                2 => { let n = t.len(); dump["values"][pos.index(n)]["treeIndex"] = junk; }
                _ => { dump["leafEncoding"] = junk; }
            }
            let _ = StandardMerkleTree::load_json(dump);
        }

        #[test]
        fn verify_never_panics(v in arb_json(), proof in prop::collection::vec(any::<[u8; 32]>(), 0..5),
                               flags in prop::collection::vec(any::<bool>(), 0..8), root in any::<[u8; 32]>()) {
            let proof: Vec<B256> = proof.into_iter().map(B256::from).collect();
            let root = B256::from(root);
            let _ = verify(&root, &ENC, &v, &proof);
            let leaves = match &v { Value::Array(a) => a.clone(), other => vec![other.clone()] };
            let _ = verify_multi_proof(&root, &ENC, &MultiProof { leaves, proof, proof_flags: flags });
        }
    }
}
