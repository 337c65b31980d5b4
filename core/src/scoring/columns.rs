//! Column commitments (C22): what makes a track's normalisation bounds (C1's cohort P5/P95) checkable by
//! one project without the whole column.
//!
//! For every feature of a track normalised by its cohort (`n ≥ 20`), the sorted column is cut into
//! chunks of [`COLUMN_CHUNK`] consecutive ranks; each chunk is an OpenZeppelin `standard-v1` leaf
//! `(uint256 firstRank, uint256[] values)` (ranks 1-based, [`CHUNK_LEAF_ENCODING`]) and the chunks form
//! the column's tree. The column's root enters the **inputs tree** (so `inputsRoot`, which the scorer
//! signs, commits to it) as the leaf `(bytes32 T_col, bytes32 keccak256(track), uint256 feature,
//! uint256 n, bytes32 columnRoot)` ([`COLUMN_LEAF_ENCODING`], `T_col = keccak256("eden.leaf.column")`).
//!
//! A bound is then proven by the chunk holding its rank `⌈p·n/100⌉` and that chunk's proof: a few
//! kilobytes, whatever `n` is. Chunks (not one leaf per value) keep the commitment cheap to build:
//! one keccak over each chunk's 64 values instead of two per value.

use super::percentile::nearest_rank_position;
use crate::leaves::standard_leaf_hash;
use crate::merkle::tree::{get_proof, make_merkle_tree, process_proof};
use crate::serde_dec;
use alloy_primitives::{b256, keccak256, B256, U256};
use alloy_sol_types::SolValue;
use serde::{Deserialize, Serialize};

/// Ranks per chunk leaf.
pub const COLUMN_CHUNK: usize = 64;
/// Preimage of the column leaf's type tag.
pub const T_COL_PREIMAGE: &str = "eden.leaf.column";
/// `keccak256("eden.leaf.column")`.
pub const T_COL: B256 = b256!("97337c46226734161285c542ac946880b88cd0cfdf6f1ceb00d75eb85dd52d20");
/// OZ leaf encoding of a column leaf in the inputs tree.
pub const COLUMN_LEAF_ENCODING: [&str; 5] = ["bytes32", "bytes32", "uint256", "uint256", "bytes32"];
/// OZ leaf encoding of a chunk leaf in a column tree.
pub const CHUNK_LEAF_ENCODING: [&str; 2] = ["uint256", "uint256[]"];

/// The column leaf of feature `feature` of the track named by `track_hash` (`keccak256(name)`).
pub fn column_leaf(track_hash: B256, feature: u64, n: u64, column_root: B256) -> B256 {
    standard_leaf_hash(
        &(
            T_COL,
            track_hash,
            U256::from(feature),
            U256::from(n),
            column_root,
        )
            .abi_encode_params(),
    )
}

/// Every column leaf of track `track` (its committed `columns`) in the inputs tree (C22).
pub fn column_leaves<'a>(
    track: &str,
    columns: &'a [ColumnRecord],
) -> impl Iterator<Item = B256> + 'a {
    let th = track_hash(track);
    columns
        .iter()
        .map(move |c| column_leaf(th, c.feature, c.n, c.root))
}

/// The chunk leaf `(firstRank, values)`.
pub fn chunk_leaf(first_rank: u64, values: &[U256]) -> B256 {
    standard_leaf_hash(&(U256::from(first_rank), values.to_vec()).abi_encode_params())
}

/// A feature's column commitment as the bundle publishes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ColumnRecord {
    /// Feature index in the track.
    pub feature: u64,
    /// Values in the column (the cohort size).
    pub n: u64,
    /// Root of the chunk tree.
    pub root: B256,
    /// The private projects' values of this feature, sorted (no project named): with the public inputs
    /// they make the whole column, so a watchtower rebuilds `root`.
    #[serde(with = "serde_dec::u256_vec")]
    pub private_values: Vec<U256>,
}

/// A built column tree over a sorted column.
#[derive(Debug, Clone)]
pub struct ColumnTree<'a> {
    sorted: &'a [U256],
    nodes: Vec<B256>,
    /// Chunk leaves sorted by hash, with their chunk index.
    order: Vec<(B256, usize)>,
}

impl<'a> ColumnTree<'a> {
    /// The tree over `sorted` (ascending); `None` for an empty column.
    pub fn new(sorted: &'a [U256]) -> Option<Self> {
        if sorted.is_empty() {
            return None;
        }
        let mut order: Vec<(B256, usize)> = sorted
            .chunks(COLUMN_CHUNK)
            .enumerate()
            .map(|(i, c)| (chunk_leaf((i * COLUMN_CHUNK + 1) as u64, c), i))
            .collect();
        order.sort_unstable();
        let leaves: Vec<B256> = order.iter().map(|(h, _)| *h).collect();
        let nodes = make_merkle_tree(&leaves).ok()?;
        Some(Self {
            sorted,
            nodes,
            order,
        })
    }

    /// The root.
    pub fn root(&self) -> B256 {
        self.nodes[0]
    }

    /// The chunk holding 1-based `rank`, with its proof; `None` outside `1..=n`.
    pub fn chunk_proof(&self, rank: usize) -> Option<ChunkProof> {
        if rank == 0 || rank > self.sorted.len() {
            return None;
        }
        let chunk = (rank - 1) / COLUMN_CHUNK;
        let i = self.order.iter().position(|(_, c)| *c == chunk)?;
        let proof = get_proof(&self.nodes, self.nodes.len() - 1 - i).ok()?;
        let start = chunk * COLUMN_CHUNK;
        let end = (start + COLUMN_CHUNK).min(self.sorted.len());
        Some(ChunkProof {
            first_rank: (start + 1) as u64,
            values: self.sorted[start..end].to_vec(),
            proof,
        })
    }
}

/// The root of the column tree over `sorted` (ascending); zero for an empty column.
pub fn column_root(sorted: &[U256]) -> B256 {
    ColumnTree::new(sorted).map_or(B256::ZERO, |t| t.root())
}

/// One chunk of a column and its proof to the column's root.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ChunkProof {
    /// Rank of `values[0]` (1-based, `1 + 64·k`).
    pub first_rank: u64,
    /// The chunk's values, ascending.
    #[serde(with = "serde_dec::u256_vec")]
    pub values: Vec<U256>,
    /// Proof of the chunk leaf to the column root.
    pub proof: Vec<B256>,
}

/// Why a proven rank is not trusted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChunkError {
    /// The chunk does not start on a chunk boundary or is not full where it must be.
    #[error("the chunk starting at rank {0} is not a chunk of this column")]
    NotAChunk(u64),
    /// The rank is not inside the chunk.
    #[error("rank {rank} is not in the chunk starting at {first}")]
    RankOutside {
        /// Wanted rank.
        rank: u64,
        /// Chunk's first rank.
        first: u64,
    },
    /// The chunk's values are not ascending.
    #[error("the chunk's values are not sorted")]
    Unsorted,
    /// The proof does not reach the column root.
    #[error("the chunk's proof does not reach the column root")]
    ProofFails,
}

impl ChunkProof {
    /// The value at 1-based `rank` of a column of `n` values committed to by `root`, proven by this chunk.
    ///
    /// # Errors
    /// [`ChunkError`] naming what does not hold.
    pub fn value_at(&self, root: B256, n: u64, rank: u64) -> Result<U256, ChunkError> {
        let chunk = COLUMN_CHUNK as u64;
        let first = self.first_rank;
        if first == 0 || !(first - 1).is_multiple_of(chunk) || first > n {
            return Err(ChunkError::NotAChunk(first));
        }
        let want_len = (n - first + 1).min(chunk);
        if self.values.len() as u64 != want_len {
            return Err(ChunkError::NotAChunk(first));
        }
        if rank < first || rank >= first + want_len {
            return Err(ChunkError::RankOutside { rank, first });
        }
        if self.values.windows(2).any(|w| w[0] > w[1]) {
            return Err(ChunkError::Unsorted);
        }
        if process_proof(chunk_leaf(first, &self.values), &self.proof) != root {
            return Err(ChunkError::ProofFails);
        }
        Ok(self.values[(rank - first) as usize])
    }
}

/// The 1-based rank of percentile `p` in a column of `n` values (C1's nearest rank).
pub fn bound_rank(n: u64, p: u32) -> u64 {
    nearest_rank_position(n as usize, p).map_or(0, |r| r as u64)
}

/// `keccak256(track name)`, the column leaf's track field.
pub fn track_hash(name: &str) -> B256 {
    keccak256(name.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::merkle::{Options, StandardMerkleTree};
    use crate::scoring::normalise::{P_HI, P_LO};
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn tag_is_keccak_of_preimage() {
        assert_eq!(T_COL, keccak256(T_COL_PREIMAGE));
    }

    /// The column tree is `StandardMerkleTree.of(chunks, ["uint256","uint256[]"])`.
    #[test]
    fn equals_standard_merkle_tree() {
        let col: Vec<U256> = (0..150u64).map(|i| U256::from(i * i)).collect();
        let values: Vec<_> = col
            .chunks(COLUMN_CHUNK)
            .enumerate()
            .map(|(i, c)| {
                json!([
                    (i * COLUMN_CHUNK + 1).to_string(),
                    c.iter().map(|v| v.to_string()).collect::<Vec<_>>()
                ])
            })
            .collect();
        let oz = StandardMerkleTree::of(values, &CHUNK_LEAF_ENCODING, Options::default()).unwrap();
        assert_eq!(column_root(&col), oz.root());
    }

    #[test]
    fn bounds_are_proven_and_tampering_is_caught() {
        let col: Vec<U256> = (0..1_000u64).map(|i| U256::from(i * 3 + 7)).collect();
        let t = ColumnTree::new(&col).unwrap();
        let n = col.len() as u64;
        for p in [P_LO, P_HI, 0, 100] {
            let r = bound_rank(n, p);
            let c = t.chunk_proof(r as usize).unwrap();
            assert_eq!(c.value_at(t.root(), n, r), Ok(col[r as usize - 1]));
        }
        let r = bound_rank(n, P_LO);
        let c = t.chunk_proof(r as usize).unwrap();
        let mut bad = c.clone();
        bad.values[1] += U256::from(1u8);
        assert_eq!(bad.value_at(t.root(), n, r), Err(ChunkError::ProofFails));
        let mut bad = c.clone();
        bad.values.swap(0, 1);
        assert_eq!(bad.value_at(t.root(), n, r), Err(ChunkError::Unsorted));
        assert!(matches!(
            c.value_at(t.root(), n, r + 64),
            Err(ChunkError::RankOutside { .. })
        ));
        // n is bound by the column leaf (inputs tree), not by the chunk; a last chunk of the wrong
        // length is refused
        let last = t.chunk_proof(col.len()).unwrap();
        assert_eq!(
            last.value_at(t.root(), n + 1, n),
            Err(ChunkError::NotAChunk(last.first_rank))
        );
        // the same chunk cannot be passed off as another rank's chunk
        let mut moved = c.clone();
        moved.first_rank += 64;
        assert!(moved.value_at(t.root(), n, r + 64).is_err());
    }

    proptest! {
        #[test]
        fn every_rank_proves(mut col in proptest::collection::vec(0u64..1_000, 1..300), k in 0usize..300) {
            col.sort_unstable();
            let col: Vec<U256> = col.into_iter().map(U256::from).collect();
            let t = ColumnTree::new(&col).unwrap();
            let rank = k % col.len() + 1;
            let c = t.chunk_proof(rank).unwrap();
            prop_assert_eq!(c.value_at(t.root(), col.len() as u64, rank as u64), Ok(col[rank - 1]));
        }
    }
}
