//! Seam between the epoch bundle and the OpenZeppelin `standard-v1` Merkle tree / C5 leaves.
//!
//! TEMPORARY: a minimal local implementation until `crate::merkle` and `crate::leaves` land on
//! main; then every function here delegates to them.

use alloy_primitives::{keccak256, Address, B256, U256};

/// OZ standard leaf of `(address project, uint256 scoreWad)` (C5 score leaf).
pub(crate) fn score_leaf(project: Address, score_wad: U256) -> B256 {
    crate::leaves::score_leaf(project, score_wad)
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

/// Node array of the OZ `StandardMerkleTree` (leaves sorted) over leaf hashes; `None` when empty.
fn make_tree(mut leaves: Vec<B256>) -> Option<(Vec<B256>, Vec<B256>)> {
    if leaves.is_empty() {
        return None;
    }
    leaves.sort_unstable();
    let n = leaves.len();
    let mut tree = vec![B256::ZERO; 2 * n - 1];
    let len = tree.len();
    for (i, l) in leaves.iter().enumerate() {
        tree[len - 1 - i] = *l;
    }
    for i in (0..len - n).rev() {
        tree[i] = hash_pair(&tree[2 * i + 1], &tree[2 * i + 2]);
    }
    Some((tree, leaves))
}

/// Root of the OZ `StandardMerkleTree` (sorted leaves) over leaf hashes; `None` when empty.
pub(crate) fn root(leaves: Vec<B256>) -> Option<B256> {
    make_tree(leaves).map(|(t, _)| t[0])
}

/// The root, and whether `leaf`'s proof in that tree reaches it.
pub(crate) fn root_and_inclusion(leaves: Vec<B256>, leaf: &B256) -> (B256, bool) {
    let Some((tree, sorted)) = make_tree(leaves) else { return (B256::ZERO, false) };
    let Ok(i) = sorted.binary_search(leaf) else { return (tree[0], false) };
    let mut index = tree.len() - 1 - i;
    let mut acc = *leaf;
    while index > 0 {
        let sibling = if index % 2 == 1 { index + 1 } else { index - 1 };
        match tree.get(sibling) {
            Some(s) => acc = hash_pair(&acc, s),
            None => return (tree[0], false),
        }
        index = (index - 1) / 2;
    }
    (tree[0], acc == tree[0])
}
