//! OpenZeppelin-compatible `StandardMerkleTree` (`standard-v1`), see docs/protocol.md C5.
//!
//! Rule C5: `leaf = keccak256(bytes.concat(keccak256(abi.encode(values))))`, pairs hashed
//! sorted (`keccak256(min(a,b) ‖ max(a,b))`), tree layout, proofs, multiproofs and dumps
//! identical to `@openzeppelin/merkle-tree` 1.0.8.
//!
//! - [`encoding`]: leaf encodings (Solidity type strings) and the standard leaf hash;
//! - [`coerce`] (private): how JSON values become ABI values, as `@metamask/abi-utils` reads them;
//! - [`tree`]: node array layout, proofs, multiproofs, validity (OZ `core.js`);
//! - [`standard`]: [`StandardMerkleTree`] with `of`, proofs, `verify`, `dump` and `load`.

mod coerce;
pub mod encoding;
pub mod error;
pub mod standard;
pub mod tree;

pub use encoding::{standard_leaf_hash_of_encoded, LeafEncoding};
pub use error::{EncodeError, MerkleError};
pub use standard::{
    verify, verify_multi_proof, IndexedValue, Leaf, Options, StandardMerkleTree,
    StandardMerkleTreeData, STANDARD_V1,
};
pub use tree::{process_multi_proof, process_proof, standard_node_hash, MultiProof};
