//! The Merkle tree core of `@openzeppelin/merkle-tree` 1.0.8 (`core.js`), C5.
//!
//! A tree over `n` leaves is an array of `2n − 1` nodes: node `i` has children `2i + 1` and
//! `2i + 2`, the root is node 0, and leaf `k` (in leaf order) is stored at `2n − 2 − k` (the
//! leaves fill the end of the array in reverse order). Internal nodes are
//! `keccak256(min(a, b) ‖ max(a, b))` ([`standard_node_hash`]).

use std::collections::VecDeque;

use alloy_primitives::{hex, keccak256, B256};

use super::error::MerkleError;

/// `keccak256` of the two hashes concatenated in ascending order (OZ `standardNodeHash`).
#[inline]
pub fn standard_node_hash(a: &B256, b: &B256) -> B256 {
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    let mut buf = [0u8; 64];
    buf[..32].copy_from_slice(lo.as_slice());
    buf[32..].copy_from_slice(hi.as_slice());
    keccak256(buf)
}

#[inline]
const fn left_child(i: usize) -> usize {
    2 * i + 1
}

#[inline]
const fn parent(i: usize) -> usize {
    (i - 1) / 2
}

/// The sibling of a non-root node.
#[inline]
const fn sibling(i: usize) -> usize {
    if i % 2 == 1 {
        i + 1
    } else {
        i - 1
    }
}

/// True when `i` is a node of `tree` without children.
pub fn is_leaf_node(tree: &[B256], i: usize) -> bool {
    i < tree.len() && left_child(i) >= tree.len()
}

/// A node array of odd length: every non-root node has a sibling.
fn check_shape(tree: &[B256]) -> Result<(), MerkleError> {
    if !tree.len().is_multiple_of(2) {
        Ok(())
    } else {
        Err(MerkleError::InvalidTree)
    }
}

/// Levels at least this wide are hashed on every core (with the `native` feature).
const PARALLEL_LEVEL: usize = 4096;

/// Builds the node array from the leaves in leaf order (OZ `makeMerkleTree`).
///
/// # Errors
/// [`MerkleError::EmptyTree`] for no leaves.
pub fn make_merkle_tree(leaves: &[B256]) -> Result<Vec<B256>, MerkleError> {
    if leaves.is_empty() {
        return Err(MerkleError::EmptyTree);
    }
    let len = 2 * leaves.len() - 1;
    let mut tree = vec![B256::ZERO; len];
    for (i, leaf) in leaves.iter().enumerate() {
        tree[len - 1 - i] = *leaf;
    }
    // Internal nodes level by level from the deepest: the nodes at depth d are the indices
    // [2^d − 1, 2^(d+1) − 1), their children all sit after that range, so a level's nodes are
    // independent of one another (hashed in parallel with the `native` feature).
    let internal = len - leaves.len();
    let mut depth_start = (internal + 1).next_power_of_two() / 2;
    while depth_start > 0 {
        let lo = depth_start - 1;
        let hi = (2 * depth_start - 1).min(internal);
        let (head, children) = tree.split_at_mut(hi);
        let base = 2 * lo + 1 - hi;
        let level = &mut head[lo..];
        if level.len() >= PARALLEL_LEVEL {
            crate::par::fill(level, |k| {
                standard_node_hash(&children[base + 2 * k], &children[base + 2 * k + 1])
            });
        } else {
            for (k, node) in level.iter_mut().enumerate() {
                *node = standard_node_hash(&children[base + 2 * k], &children[base + 2 * k + 1]);
            }
        }
        depth_start /= 2;
    }
    Ok(tree)
}

/// The proof of the leaf at tree index `index`: siblings from the leaf up (OZ `getProof`).
///
/// # Errors
/// [`MerkleError::NotALeaf`] when `index` is not a leaf of `tree`, [`MerkleError::InvalidTree`]
/// for a node array of even length.
pub fn get_proof(tree: &[B256], mut index: usize) -> Result<Vec<B256>, MerkleError> {
    check_shape(tree)?;
    if !is_leaf_node(tree, index) {
        return Err(MerkleError::NotALeaf(index));
    }
    let mut proof = Vec::with_capacity(usize::BITS as usize - tree.len().leading_zeros() as usize);
    while index > 0 {
        proof.push(tree[sibling(index)]);
        index = parent(index);
    }
    Ok(proof)
}

/// The root reached from `leaf` through `proof` (OZ `processProof`).
pub fn process_proof(leaf: B256, proof: &[B256]) -> B256 {
    proof
        .iter()
        .fold(leaf, |acc, p| standard_node_hash(&acc, p))
}

/// A multiproof: leaves in the order the proof consumes them, the extra hashes, and the flags
/// (`true`: combine with the next computed/leaf hash; `false`: with the next proof hash).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MultiProof<L> {
    /// The proven leaves (hashes or values), in proof order.
    pub leaves: Vec<L>,
    /// Sibling hashes not computable from the leaves.
    pub proof: Vec<B256>,
    /// One flag per hashing step.
    pub proof_flags: Vec<bool>,
}

/// The multiproof of the leaves at tree indices `indices` (OZ `getMultiProof`). Also returns
/// the tree indices in the order of `leaves` (descending).
///
/// # Errors
/// [`MerkleError::NotALeaf`], [`MerkleError::DuplicatedIndex`], [`MerkleError::InvalidTree`]
/// for a node array of even length.
pub fn get_multi_proof(
    tree: &[B256],
    indices: &[usize],
) -> Result<(MultiProof<B256>, Vec<usize>), MerkleError> {
    check_shape(tree)?;
    if let Some(&bad) = indices.iter().find(|&&i| !is_leaf_node(tree, i)) {
        return Err(MerkleError::NotALeaf(bad));
    }
    let mut sorted = indices.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return Err(MerkleError::DuplicatedIndex);
    }
    let mut stack: VecDeque<usize> = sorted.iter().copied().collect();
    let mut proof = Vec::new();
    let mut proof_flags = Vec::new();
    while let Some(&j) = stack.front() {
        if j == 0 {
            break;
        }
        stack.pop_front();
        let s = sibling(j);
        let p = parent(j);
        if stack.front() == Some(&s) {
            proof_flags.push(true);
            stack.pop_front();
        } else {
            proof_flags.push(false);
            proof.push(tree[s]);
        }
        stack.push_back(p);
    }
    if indices.is_empty() {
        proof.push(tree[0]);
    }
    let leaves = sorted.iter().map(|&i| tree[i]).collect();
    Ok((
        MultiProof {
            leaves,
            proof,
            proof_flags,
        },
        sorted,
    ))
}

/// The root reached by a multiproof (OZ `processMultiProof`).
///
/// # Errors
/// [`MerkleError::InvalidMultiproofFormat`], [`MerkleError::IncompatibleMultiproof`],
/// [`MerkleError::MultiproofExhausted`].
pub fn process_multi_proof(
    leaves: &[B256],
    proof: &[B256],
    proof_flags: &[bool],
) -> Result<B256, MerkleError> {
    let false_flags = proof_flags.iter().filter(|f| !**f).count();
    if proof.len() < false_flags {
        return Err(MerkleError::InvalidMultiproofFormat);
    }
    if leaves.len() + proof.len() != proof_flags.len() + 1 {
        return Err(MerkleError::IncompatibleMultiproof);
    }
    let mut stack: VecDeque<B256> = VecDeque::with_capacity(leaves.len() + proof_flags.len());
    stack.extend(leaves.iter().copied());
    let mut proof = proof.iter().copied();
    for &flag in proof_flags {
        let a = stack.pop_front();
        let b = if flag {
            stack.pop_front()
        } else {
            proof.next()
        };
        match (a, b) {
            (Some(a), Some(b)) => stack.push_back(standard_node_hash(&a, &b)),
            _ => return Err(MerkleError::MultiproofExhausted),
        }
    }
    let rest: Vec<B256> = proof.collect();
    if stack.len() + rest.len() != 1 {
        return Err(MerkleError::MultiproofExhausted);
    }
    stack
        .pop_back()
        .or_else(|| rest.first().copied())
        .ok_or(MerkleError::MultiproofExhausted)
}

/// True when `tree` is a non-empty array where every node with children has exactly two and
/// equals their [`standard_node_hash`] (OZ `isValidMerkleTree`).
pub fn is_valid_merkle_tree(tree: &[B256]) -> bool {
    if tree.is_empty() || check_shape(tree).is_err() {
        // An even length always leaves some node with a single (left) child.
        return false;
    }
    (0..tree.len() / 2).all(|i| tree[i] == standard_node_hash(&tree[2 * i + 1], &tree[2 * i + 2]))
}

/// A text drawing of the tree (OZ `renderMerkleTree`).
///
/// # Errors
/// [`MerkleError::EmptyTree`] for an empty tree.
pub fn render_merkle_tree(tree: &[B256]) -> Result<String, MerkleError> {
    if tree.is_empty() {
        return Err(MerkleError::EmptyTree);
    }
    let mut stack: Vec<(usize, Vec<bool>)> = vec![(0, Vec::new())];
    let mut lines = Vec::with_capacity(tree.len());
    while let Some((i, path)) = stack.pop() {
        let mut line = String::new();
        if let Some((last, init)) = path.split_last() {
            for &p in init {
                line.push_str(if p { "│  " } else { "   " });
            }
            line.push_str(if *last { "├─ " } else { "└─ " });
        }
        line.push_str(&format!("{i}) {}", hex::encode_prefixed(tree[i])));
        lines.push(line);
        if 2 * i + 2 < tree.len() {
            let mut right = path.clone();
            right.push(false);
            let mut left = path;
            left.push(true);
            stack.push((2 * i + 2, right));
            stack.push((2 * i + 1, left));
        }
    }
    Ok(lines.join("\n"))
}

/// Parses a Merkle node: 32 bytes of hex, with or without `0x`, either case.
///
/// # Errors
/// [`MerkleError::InvalidNode`] naming `what`.
pub fn parse_node(what: impl FnOnce() -> String, s: &str) -> Result<B256, MerkleError> {
    let digits = s.strip_prefix("0x").unwrap_or(s);
    let mut out = B256::ZERO;
    if digits.len() == 64 && hex::decode_to_slice(digits, out.as_mut_slice()).is_ok() {
        return Ok(out);
    }
    let shown: String = s.chars().take(80).collect();
    Err(MerkleError::InvalidNode {
        what: what(),
        value: shown,
    })
}

/// Writes `0x` + lowercase hex of `h` into `out`.
pub fn push_hex(out: &mut String, h: &B256) {
    let mut buf = [0u8; 64];
    // Cannot fail: the buffer is exactly twice the input.
    if hex::encode_to_slice(h.as_slice(), &mut buf).is_ok() {
        out.push_str("0x");
        // The buffer holds only ASCII hex digits.
        out.push_str(std::str::from_utf8(&buf).unwrap_or_default());
    }
}

/// `0x` + lowercase hex of `h`.
pub fn to_hex(h: &B256) -> String {
    let mut s = String::with_capacity(66);
    push_hex(&mut s, h);
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn leaves(n: usize) -> Vec<B256> {
        (0..n)
            .map(|i| keccak256((i as u64).to_be_bytes()))
            .collect()
    }

    /// OZ `makeMerkleTree` as written: node i from its children, from the last internal node down.
    fn oz_make_merkle_tree(leaves: &[B256]) -> Vec<B256> {
        let len = 2 * leaves.len() - 1;
        let mut tree = vec![B256::ZERO; len];
        for (i, leaf) in leaves.iter().enumerate() {
            tree[len - 1 - i] = *leaf;
        }
        for i in (0..len - leaves.len()).rev() {
            tree[i] = standard_node_hash(&tree[2 * i + 1], &tree[2 * i + 2]);
        }
        tree
    }

    #[test]
    fn level_by_level_equals_oz_node_order() {
        // Around every power of two, and wide enough for the parallel levels (≥ PARALLEL_LEVEL).
        for n in [
            1,
            2,
            3,
            4,
            5,
            7,
            8,
            9,
            1023,
            1024,
            1025,
            3 * PARALLEL_LEVEL + 5,
            4 * PARALLEL_LEVEL,
        ] {
            let l = leaves(n);
            assert_eq!(
                make_merkle_tree(&l).unwrap(),
                oz_make_merkle_tree(&l),
                "{n} leaves"
            );
        }
    }

    #[test]
    fn layout_and_root() {
        let l = leaves(3);
        let t = make_merkle_tree(&l).unwrap();
        assert_eq!(t.len(), 5);
        assert_eq!(&t[2..], &[l[2], l[1], l[0]]);
        assert_eq!(t[1], standard_node_hash(&l[1], &l[0]));
        assert_eq!(t[0], standard_node_hash(&t[1], &l[2]));
        assert!(is_valid_merkle_tree(&t));
        assert_eq!(make_merkle_tree(&[]), Err(MerkleError::EmptyTree));
        let one = make_merkle_tree(&l[..1]).unwrap();
        assert_eq!(one, vec![l[0]]);
        assert!(get_proof(&one, 0).unwrap().is_empty());
    }

    #[test]
    fn node_hash_is_symmetric() {
        let l = leaves(2);
        assert_eq!(
            standard_node_hash(&l[0], &l[1]),
            standard_node_hash(&l[1], &l[0])
        );
    }

    #[test]
    fn multiproof_of_nothing_is_the_root() {
        let t = make_merkle_tree(&leaves(4)).unwrap();
        let (mp, _) = get_multi_proof(&t, &[]).unwrap();
        assert_eq!(mp.proof, vec![t[0]]);
        assert_eq!(
            process_multi_proof(&mp.leaves, &mp.proof, &mp.proof_flags),
            Ok(t[0])
        );
        assert_eq!(
            get_multi_proof(&t, &[3, 3]).unwrap_err(),
            MerkleError::DuplicatedIndex
        );
        assert_eq!(
            get_multi_proof(&t, &[0]).unwrap_err(),
            MerkleError::NotALeaf(0)
        );
    }

    #[test]
    fn malformed_multiproofs_are_errors() {
        let l = leaves(2);
        assert_eq!(
            process_multi_proof(&[], &l, &[true]),
            Err(MerkleError::MultiproofExhausted)
        );
        assert_eq!(
            process_multi_proof(&l, &[], &[false]),
            Err(MerkleError::InvalidMultiproofFormat)
        );
        assert_eq!(
            process_multi_proof(&l, &[], &[]),
            Err(MerkleError::IncompatibleMultiproof)
        );
    }

    #[test]
    fn render_small_tree() {
        let t = make_merkle_tree(&leaves(2)).unwrap();
        let r = render_merkle_tree(&t).unwrap();
        let lines: Vec<&str> = r.lines().collect();
        assert!(lines[0].starts_with("0) 0x"));
        assert!(lines[1].starts_with("├─ 1) 0x"));
        assert!(lines[2].starts_with("└─ 2) 0x"));
    }

    #[test]
    fn node_parsing() {
        let h = keccak256(b"x");
        assert_eq!(parse_node(|| "n".into(), &to_hex(&h)), Ok(h));
        assert_eq!(parse_node(|| "n".into(), &to_hex(&h)[2..]), Ok(h));
        assert_eq!(
            parse_node(
                || "n".into(),
                &to_hex(&h).to_uppercase().replace("0X", "0x")
            ),
            Ok(h)
        );
        assert!(parse_node(|| "n".into(), "0x12").is_err());
        assert!(parse_node(|| "n".into(), &format!("0x{}", "g".repeat(64))).is_err());
    }

    proptest! {
        #[test]
        fn proofs_and_multiproofs_verify(n in 1usize..200, picks in prop::collection::vec(any::<prop::sample::Index>(), 0..20), tamper in any::<prop::sample::Index>()) {
            let l = leaves(n);
            let t = make_merkle_tree(&l).unwrap();
            prop_assert!(is_valid_merkle_tree(&t));
            for (i, leaf) in l.iter().enumerate() {
                let ti = t.len() - 1 - i;
                let p = get_proof(&t, ti).unwrap();
                prop_assert_eq!(process_proof(*leaf, &p), t[0]);
                if !p.is_empty() {
                    let mut bad = p.clone();
                    let k = tamper.index(bad.len());
                    bad[k].0[0] ^= 1;
                    prop_assert_ne!(process_proof(*leaf, &bad), t[0]);
                }
            }
            let mut idx: Vec<usize> = picks.iter().map(|p| t.len() - 1 - p.index(n)).collect();
            idx.sort_unstable();
            idx.dedup();
            let (mp, order) = get_multi_proof(&t, &idx).unwrap();
            prop_assert_eq!(order.len(), idx.len());
            prop_assert_eq!(process_multi_proof(&mp.leaves, &mp.proof, &mp.proof_flags), Ok(t[0]));
            if !mp.proof.is_empty() {
                let mut bad = mp.proof.clone();
                let k = tamper.index(bad.len());
                bad[k].0[31] ^= 0x80;
                prop_assert_ne!(process_multi_proof(&mp.leaves, &bad, &mp.proof_flags), Ok(t[0]));
            }
        }

        #[test]
        fn process_multi_proof_never_panics(nl in 0usize..6, np in 0usize..6, flags in prop::collection::vec(any::<bool>(), 0..12)) {
            let l = leaves(nl + np);
            let _ = process_multi_proof(&l[..nl], &l[nl..], &flags);
        }

        #[test]
        fn validity_never_panics(n in 0usize..20, flip in any::<prop::sample::Index>()) {
            let mut t = leaves(n);
            let _ = is_valid_merkle_tree(&t);
            if n > 1 {
                let good = make_merkle_tree(&t).unwrap();
                t = good.clone();
                let k = flip.index(t.len());
                t[k].0[5] ^= 1;
                prop_assert!(!is_valid_merkle_tree(&t));
            }
        }

        #[test]
        fn proofs_of_any_node_array_never_panic(n in 0usize..12, picks in prop::collection::vec(0usize..14, 0..5)) {
            let t = leaves(n);
            for &i in &picks {
                let _ = get_proof(&t, i);
            }
            let _ = get_multi_proof(&t, &picks);
        }

        #[test]
        fn parse_node_never_panics(s in "\\PC*") {
            let _ = parse_node(|| "n".into(), &s);
        }
    }
}
