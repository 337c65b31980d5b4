//! Seam between the epoch bundle and the OpenZeppelin `standard-v1` Merkle tree / C5 leaves.
//!
//! TEMPORARY: a minimal local implementation until `crate::merkle` and `crate::leaves` land on
//! main; then every function here delegates to them.

use alloy_primitives::{keccak256, Address, B256, U256};

/// OZ standard leaf of `(address project, uint256 scoreWad)` (C5 score leaf).
pub(crate) fn score_leaf(project: Address, score_wad: U256) -> B256 {
    let mut buf = [0u8; 64];
    buf[12..32].copy_from_slice(project.as_slice());
    buf[32..].copy_from_slice(&score_wad.to_be_bytes::<32>());
    keccak256(keccak256(buf))
}

/// OZ standard leaf of `(address project, bytes32 commitment)` (the inputs tree).
pub(crate) fn inputs_leaf(project: Address, commitment: B256) -> B256 {
    let mut buf = [0u8; 64];
    buf[12..32].copy_from_slice(project.as_slice());
    buf[32..].copy_from_slice(commitment.as_slice());
    keccak256(keccak256(buf))
}

fn hash_pair(a: &B256, b: &B256) -> B256 {
    let (x, y) = if a <= b { (a, b) } else { (b, a) };
    let mut buf = [0u8; 64];
    buf[..32].copy_from_slice(x.as_slice());
    buf[32..].copy_from_slice(y.as_slice());
    keccak256(buf)
}

/// Root of the OZ `StandardMerkleTree` (sorted leaves) over leaf hashes; `None` when empty.
pub(crate) fn root(mut leaves: Vec<B256>) -> Option<B256> {
    if leaves.is_empty() {
        return None;
    }
    leaves.sort_unstable();
    let n = leaves.len();
    let mut tree = vec![B256::ZERO; 2 * n - 1];
    let len = tree.len();
    for (i, l) in leaves.into_iter().enumerate() {
        tree[len - 1 - i] = l;
    }
    for i in (0..len - n).rev() {
        tree[i] = hash_pair(&tree[2 * i + 1], &tree[2 * i + 2]);
    }
    Some(tree[0])
}
