//! Errors of the Merkle tree module (C5). Messages start with the message
//! `@openzeppelin/merkle-tree` 1.0.8 / `@metamask/abi-utils` would throw, plus the position.

use std::fmt;

/// A leaf value that cannot be ABI-encoded under its leaf encoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeError {
    /// Element indices from the leaf value down to the bad element, outermost first.
    path: Vec<usize>,
    /// What is wrong with it.
    message: String,
}

impl EncodeError {
    pub(crate) fn new(message: String) -> Self {
        Self {
            path: Vec::new(),
            message,
        }
    }

    /// The same error one level further out, inside element `index`.
    pub(crate) fn at(mut self, index: usize) -> Self {
        self.path.insert(0, index);
        self
    }

    /// Element indices from the leaf value down to the bad element, outermost first.
    pub fn path(&self) -> &[usize] {
        &self.path
    }

    /// The reason, without the position.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl EncodeError {
    /// `[1][0]`: the position as index suffixes.
    pub fn path_suffix(&self) -> String {
        self.path.iter().map(|i| format!("[{i}]")).collect()
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "value{}: Unable to encode value: {}",
            self.path_suffix(),
            self.message
        )
    }
}

impl std::error::Error for EncodeError {}

/// Everything that can go wrong building, proving, verifying, dumping or loading a tree.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MerkleError {
    /// A leaf-encoding type string that is not a supported Solidity type.
    #[error("leafEncoding[{index}] '{ty}': {reason}")]
    LeafEncoding {
        /// Position in the leaf encoding.
        index: usize,
        /// The type string as given.
        ty: String,
        /// Why it is rejected.
        reason: String,
    },
    /// A leaf value that does not encode; `index` is its value index when it has one.
    #[error("{}{}: Unable to encode value: {}",
        index.map(|i| format!("values[{i}]")).unwrap_or_else(|| "value".to_owned()),
        source.path_suffix(), source.message())]
    Encode {
        /// Value index, when the value is one of the tree's (or the multiproof's) values.
        index: Option<usize>,
        /// What is wrong.
        source: EncodeError,
    },
    /// `of` with no values.
    #[error("Expected non-zero number of leaves")]
    EmptyTree,
    /// A value index outside the tree.
    #[error("Index out of bounds (index {index}, tree has {len} values)")]
    IndexOutOfBounds {
        /// Requested value index.
        index: usize,
        /// Number of values.
        len: usize,
    },
    /// A value index that is not a JavaScript array index (negative, fractional, too big).
    #[error("Index out of bounds (index {0})")]
    InvalidIndex(String),
    /// A tree index that is not a leaf.
    #[error("Index is not a leaf (tree index {0})")]
    NotALeaf(usize),
    /// The same value twice in a multiproof request.
    #[error("Cannot prove duplicated index")]
    DuplicatedIndex,
    /// A leaf value looked up by content that is not in the tree.
    #[error("Leaf is not in tree")]
    LeafNotInTree,
    /// A multiproof with fewer proof hashes than `false` flags.
    #[error("Invalid multiproof format")]
    InvalidMultiproofFormat,
    /// A multiproof where `leaves + proof ≠ proofFlags + 1`.
    #[error("Provided leaves and multiproof are not compatible")]
    IncompatibleMultiproof,
    /// A multiproof whose flags consume more leaves than there are.
    #[error("Invariant failed: multiproof flags consume more hashes than the leaves provide")]
    MultiproofExhausted,
    /// A hash that is not 32 bytes of hex.
    #[error("{what}: Merkle tree nodes must be 32 bytes of hex, got '{value}'")]
    InvalidNode {
        /// Which hash (e.g. `proof[3]`, `tree[0]`, `root`).
        what: String,
        /// The text given (shortened).
        value: String,
    },
    /// A dump whose `format` is not `standard-v1`.
    #[error("Unknown format '{0}'")]
    UnknownFormat(String),
    /// A dump without `leafEncoding`.
    #[error("Expected leaf encoding")]
    MissingLeafEncoding,
    /// A dump whose value entry is a number (OZ forbids it).
    #[error("Leaf values cannot be numbers (values[{0}])")]
    LeafValueIsNumber(usize),
    /// A dump that does not have the `standard-v1` shape.
    #[error("Invalid tree dump: {0}")]
    InvalidDump(String),
    /// A dump value whose leaf hash is not the tree node at its `treeIndex`.
    #[error("Merkle tree does not contain the expected value (values[{index}] at treeIndex {tree_index})")]
    ValueMismatch {
        /// Value index.
        index: usize,
        /// Its claimed tree index.
        tree_index: usize,
    },
    /// A dump whose tree is not a complete binary tree of sorted-pair hashes.
    #[error("Merkle tree is invalid")]
    InvalidTree,
}

impl MerkleError {
    /// Wraps an encoding error of value `index`.
    pub(crate) fn encode(index: Option<usize>, source: EncodeError) -> Self {
        Self::Encode { index, source }
    }
}
