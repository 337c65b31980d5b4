//! The epoch's two OpenZeppelin `standard-v1` trees (C5): thin adapters over [`crate::leaves`]
//! (leaf hashes) and [`crate::merkle::tree`] (node layout, proofs), with the leaves sorted by
//! hash exactly as `StandardMerkleTree.of` does (`sortLeaves: true`, the default).

use crate::merkle::tree::{get_proof, make_merkle_tree, process_proof};
use alloy_primitives::{Address, B256, U256};

/// OZ standard leaf of `(address project, uint256 scoreWad)` (C5 score leaf).
pub(crate) fn score_leaf(project: Address, score_wad: U256) -> B256 {
    crate::leaves::score_leaf(project, score_wad)
}

/// OZ standard leaf of `(address project, bytes32 commitment)` (the inputs tree).
pub(crate) fn inputs_leaf(project: Address, commitment: B256) -> B256 {
    crate::leaves::inputs_leaf(project, commitment)
}

/// Node array over the sorted leaves, and the sorted leaves; `None` when empty.
fn make_tree(mut leaves: Vec<B256>) -> Option<(Vec<B256>, Vec<B256>)> {
    crate::par::sort_unstable(&mut leaves);
    let tree = make_merkle_tree(&leaves).ok()?;
    Some((tree, leaves))
}

/// A built epoch tree (C5: sorted leaves, sorted pairs, OpenZeppelin layout): its root and any
/// leaf's proof without building it again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpochTree {
    nodes: Vec<B256>,
    sorted: Vec<B256>,
}

impl EpochTree {
    /// The tree over `leaves` (any order); `None` when there are none.
    pub fn new(leaves: Vec<B256>) -> Option<Self> {
        let (nodes, sorted) = make_tree(leaves)?;
        Some(Self { nodes, sorted })
    }

    /// The root.
    pub fn root(&self) -> B256 {
        self.nodes[0]
    }

    /// The proof of `leaf`; `None` when it is not a leaf of this tree.
    pub fn proof(&self, leaf: &B256) -> Option<Vec<B256>> {
        // OZ layout: leaf i (in sorted order) sits at tree index len − 1 − i.
        let i = self.sorted.binary_search(leaf).ok()?;
        get_proof(&self.nodes, self.nodes.len() - 1 - i).ok()
    }
}

/// Root of the `StandardMerkleTree` over these leaf hashes; `None` when empty.
pub(crate) fn root(leaves: Vec<B256>) -> Option<B256> {
    make_tree(leaves).and_then(|(t, _)| t.first().copied())
}

/// The root, and whether `leaf`'s proof in that tree reaches it.
pub(crate) fn root_and_inclusion(leaves: Vec<B256>, leaf: &B256) -> (B256, bool) {
    let Some((tree, sorted)) = make_tree(leaves) else {
        return (B256::ZERO, false);
    };
    let root = tree.first().copied().unwrap_or_default();
    let Ok(i) = sorted.binary_search(leaf) else {
        return (root, false);
    };
    // OZ layout: leaf i (in sorted order) sits at tree index len − 1 − i.
    match get_proof(&tree, tree.len() - 1 - i) {
        Ok(proof) => (root, process_proof(*leaf, &proof) == root),
        Err(_) => (root, false),
    }
}

/// The root of the tree over these leaf hashes and the proof of `leaf` in it (`None` when `leaf` is not
/// one of them); `None` when there are no leaves.
pub(crate) fn root_and_proof(leaves: Vec<B256>, leaf: &B256) -> Option<(B256, Option<Vec<B256>>)> {
    let t = EpochTree::new(leaves)?;
    Some((t.root(), t.proof(leaf)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::merkle::{Options, StandardMerkleTree};
    use serde_json::json;

    #[test]
    fn equals_standard_merkle_tree() {
        let vals: Vec<(Address, U256)> = (1..=9u64)
            .map(|i| {
                (
                    Address::with_last_byte(i as u8 * 17),
                    U256::from(i * 1_000_000_007),
                )
            })
            .collect();
        let t = StandardMerkleTree::of(
            vals.iter()
                .map(|(a, s)| json!([a.to_string(), s.to_string()]))
                .collect(),
            &["address", "uint256"],
            Options::default(),
        )
        .unwrap();
        let leaves: Vec<B256> = vals.iter().map(|(a, s)| score_leaf(*a, *s)).collect();
        assert_eq!(root(leaves.clone()), Some(t.root()));
        for l in &leaves {
            assert_eq!(root_and_inclusion(leaves.clone(), l), (t.root(), true));
        }
        assert!(!root_and_inclusion(leaves.clone(), &B256::ZERO).1);
        let c = B256::repeat_byte(7);
        let ti = StandardMerkleTree::of(
            vec![json!([vals[0].0.to_string(), c.to_string()])],
            &["address", "bytes32"],
            Options::default(),
        )
        .unwrap();
        assert_eq!(root(vec![inputs_leaf(vals[0].0, c)]), Some(ti.root()));
        assert_eq!(root(vec![]), None);
    }
}
