//! Protocol Merkle leaves (C5, C27): score, quality and systematic leaves with their domain tags.
//!
//! Every leaf follows the OpenZeppelin `StandardMerkleTree` (`standard-v1`) convention:
//! `leaf = keccak256(bytes.concat(keccak256(abi.encode(values))))`. The values are:
//!
//! | leaf    | encoding                                                     | values                                                   |
//! |---------|--------------------------------------------------------------|----------------------------------------------------------|
//! | score   | `(address, uint256)`                                         | `(project, scoreWad)`: the published score (C27)         |
//! | quality | `(bytes32, address, uint256, address, address, bytes32, uint256, uint8, bytes32)` | `(T_Q, scorerRegistry, scoreId, scorer, project, thesisHash, qualityWad, verdict, matchedThesis)` |
//! | systematic | `(bytes32, address, uint256)`                             | `(T_S, project, scoreWad)`: the systematic score where a human move replaced it (C27) |
//! | grade (in `inputsRoot`) | `(bytes32, address, uint256, bytes32)`            | `(T_G, scorerRegistry, scoreId, gradeRecord)`: the grading record a grade rests on (C8) |
//!
//! A quality leaf names the one score it grades (the `ScorerRegistry`, the score id, the scorer, the
//! scored project and the thesis hash; decided after the contract review, C5): a copied thesis hash
//! inherits nothing, and `ScorerRegistry.prove` rebuilds the leaf from the score it proves.
//!
//! with the domain tags `T_Q = keccak256("eden.leaf.quality")` and
//! `T_S = keccak256("eden.leaf.systematic")` ([`T_Q`], [`T_S`]), and the verdict codes
//! 0 original, 1 similar, 2 derivative, 3 copy ([`Verdict`]).
//!
//! The encodings and value lists are exposed ([`SCORE_LEAF_ENCODING`], [`ScoreLeaf::values`], …)
//! so a `StandardMerkleTree` of these leaves can be built from them; its `leafHash` equals the
//! hash computed here (checked against `@openzeppelin/merkle-tree` 1.0.8 in the tests).

use alloy_dyn_abi::DynSolValue;
use alloy_primitives::{b256, keccak256, Address, B256, U256};
use alloy_sol_types::{sol_data, SolType, SolValue};

/// The domain string hashed into [`T_Q`].
pub const T_Q_PREIMAGE: &str = "eden.leaf.quality";
/// The domain string hashed into [`T_S`].
pub const T_S_PREIMAGE: &str = "eden.leaf.systematic";

/// Quality-leaf domain tag `T_q = keccak256("eden.leaf.quality")` (C5).
pub const T_Q: B256 = b256!("66edac3aa94af227ba1c51c825eb4d0cc0cceac81a8d5ee749bb1ee8e18d2b80");
/// Systematic-leaf domain tag `T_s = keccak256("eden.leaf.systematic")` (C5, C27).
pub const T_S: B256 = b256!("4e056bcfd063db654dc37cf78201a3ba134ef1a169194858e421294c3aa1d0f1");

/// The domain string hashed into [`T_G`].
pub const T_G_PREIMAGE: &str = "eden.leaf.grade";
/// Grade-leaf domain tag `T_g = keccak256("eden.leaf.grade")` (C8).
pub const T_G: B256 = b256!("2ba76f2ef7941b42a255fcece28e4566e1d20d6d7c43adf2ff0547da8606d05b");
/// Leaf encoding of the grade leaf `(bytes32 T_g, address scorerRegistry, uint256 scoreId,
/// bytes32 gradeRecord)`, committed in `inputsRoot` beside the inputs and column leaves.
pub const GRADE_LEAF_ENCODING: [&str; 4] = ["bytes32", "address", "uint256", "bytes32"];

/// Grade leaf hash (C8): binds score `score_id` of `scorer_registry` to the grading record whose
/// `keccak256` is `grade_record`, inside the signed `inputsRoot`.
pub fn grade_leaf(scorer_registry: Address, score_id: U256, grade_record: B256) -> B256 {
    standard_leaf_hash(&(T_G, scorer_registry, score_id, grade_record).abi_encode_params())
}

/// The domain string of the human-cutoff leaf's tag `T_h = keccak256("eden.leaf.humanCutoff")` (C9a).
pub const T_H_PREIMAGE: &str = "eden.leaf.humanCutoff";
/// Leaf encoding of the human-cutoff leaf `(bytes32 T_h, uint64 asOfBlock, uint64 asOfTime,
/// bytes32 leftPreDataHash)`, committed in `inputsRoot` (C9a, C10a).
pub const HUMAN_CUTOFF_LEAF_ENCODING: [&str; 4] = ["bytes32", "uint64", "uint64", "bytes32"];

/// Human-cutoff leaf hash (C9a, C10a): binds the block and time an epoch's human layer was read at and
/// the hash of its left-pre-data set ([`left_pre_data_hash`]) inside the signed
/// `inputsRoot`, so a publication cannot change which theses counted after the signature.
pub fn human_cutoff_leaf(as_of_block: u64, as_of_time: u64, left_pre_data_hash: B256) -> B256 {
    let tag = keccak256(T_H_PREIMAGE);
    standard_leaf_hash(&(tag, as_of_block, as_of_time, left_pre_data_hash).abi_encode_params())
}

/// The hash a bundle commits its left-pre-data set by (C10a): `keccak256` of the sorted addresses, 20 bytes each
/// (`abi.encodePacked(address[])`).
pub fn left_pre_data_hash(left: &[Address]) -> B256 {
    let mut bytes = Vec::with_capacity(left.len() * 20);
    for a in left {
        bytes.extend_from_slice(a.as_slice());
    }
    keccak256(bytes)
}

/// Leaf encoding (OZ `leafEncoding`) of the score leaf `(address project, uint256 scoreWad)`.
pub const SCORE_LEAF_ENCODING: [&str; 2] = ["address", "uint256"];
/// Leaf encoding of the quality leaf `(bytes32 T_q, address scorerRegistry, uint256 scoreId,
/// address scorer, address project, bytes32 thesisHash, uint256 qualityWad, uint8 verdict,
/// bytes32 matchedThesis)`.
pub const QUALITY_LEAF_ENCODING: [&str; 9] = [
    "bytes32", "address", "uint256", "address", "address", "bytes32", "uint256", "uint8", "bytes32",
];
/// Leaf encoding of the epoch's inputs-tree leaf `(address project, bytes32 commitment)` (the
/// `inputsRoot` of the C6 `EpochRoot`).
pub const INPUTS_LEAF_ENCODING: [&str; 2] = ["address", "bytes32"];
/// Leaf encoding of the systematic leaf `(bytes32 T_s, address project, uint256 scoreWad)`.
pub const SYSTEMATIC_LEAF_ENCODING: [&str; 3] = ["bytes32", "address", "uint256"];

/// Originality verdict of a thesis (C5 codes).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[repr(u8)]
pub enum Verdict {
    /// 0: original.
    Original = 0,
    /// 1: similar to an earlier thesis.
    Similar = 1,
    /// 2: derivative of an earlier thesis.
    Derivative = 2,
    /// 3: a copy of an earlier thesis.
    Copy = 3,
}

/// A verdict code outside 0..=3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("verdict: {0} is not a verdict code (0 original, 1 similar, 2 derivative, 3 copy)")]
pub struct InvalidVerdict(pub u8);

/// A [`Verdict`] as its code (`0`–`3`) on the wire; on input any integer form
/// ([`crate::serde_dec::int`]).
pub(crate) mod verdict_code {
    use super::Verdict;
    use serde::{de::Error, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(v: &Verdict, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(u8::from(*v))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Verdict, D::Error> {
        let code: i128 = crate::serde_dec::int::deserialize(d)?;
        u8::try_from(code)
            .ok()
            .and_then(|c| Verdict::try_from(c).ok())
            .ok_or_else(|| {
                D::Error::custom(format!(
                    "{code} is not a verdict code (0 original, 1 similar, 2 derivative, 3 copy)"
                ))
            })
    }
}

impl TryFrom<u8> for Verdict {
    type Error = InvalidVerdict;

    fn try_from(code: u8) -> Result<Self, Self::Error> {
        match code {
            0 => Ok(Self::Original),
            1 => Ok(Self::Similar),
            2 => Ok(Self::Derivative),
            3 => Ok(Self::Copy),
            other => Err(InvalidVerdict(other)),
        }
    }
}

impl Verdict {
    /// The verdict in words: "original", "similar", "derivative", "copy".
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Original => "original",
            Verdict::Similar => "similar",
            Verdict::Derivative => "derivative",
            Verdict::Copy => "copy",
        }
    }

    /// C8 originality multiplier `c` (WAD): original 1, similar 1, derivative 0.5, copy 0.
    pub fn multiplier_wad(self) -> U256 {
        const HALF: U256 = U256::from_limbs([500_000_000_000_000_000, 0, 0, 0]);
        match self {
            Verdict::Original | Verdict::Similar => crate::math::WAD,
            Verdict::Derivative => HALF,
            Verdict::Copy => U256::ZERO,
        }
    }

    /// The name of a verdict code, "unknown" outside 0–3.
    pub fn name_of_code(code: u8) -> &'static str {
        Verdict::try_from(code).map_or("unknown", Verdict::name)
    }
}

impl From<Verdict> for u8 {
    fn from(v: Verdict) -> u8 {
        v as u8
    }
}

/// `keccak256(bytes.concat(keccak256(encoded)))`: the OZ `standard-v1` leaf hash of an
/// already ABI-encoded value list.
pub fn standard_leaf_hash(abi_encoded: &[u8]) -> B256 {
    keccak256(keccak256(abi_encoded))
}

/// Score leaf `(address project, uint256 scoreWad)` (C5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScoreLeaf {
    /// The project.
    pub project: Address,
    /// Its score (WAD).
    pub score_wad: U256,
}

impl ScoreLeaf {
    /// The leaf's values in [`SCORE_LEAF_ENCODING`] order.
    pub fn values(&self) -> Vec<DynSolValue> {
        vec![
            DynSolValue::Address(self.project),
            DynSolValue::Uint(self.score_wad, 256),
        ]
    }

    /// The values as `@openzeppelin/merkle-tree` takes them (hex, decimal strings).
    pub fn oz_values(&self) -> Vec<String> {
        vec![self.project.to_checksum(None), self.score_wad.to_string()]
    }

    /// The leaf hash.
    pub fn hash(&self) -> B256 {
        standard_leaf_hash(&(self.project, self.score_wad).abi_encode_params())
    }
}

/// Quality leaf `(bytes32 T_q, address scorerRegistry, uint256 scoreId, address scorer,
/// address project, bytes32 thesisHash, uint256 qualityWad, uint8 verdict, bytes32 matchedThesis)`
/// (C5): the grade of one score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct QualityLeaf {
    /// The `ScorerRegistry` that holds the score.
    pub scorer_registry: Address,
    /// The score's id in that registry.
    #[serde(with = "crate::serde_dec::u256_id")]
    #[cfg_attr(feature = "js", tsify(type = "IntegerLike"))]
    pub score_id: U256,
    /// Who scored.
    pub scorer: Address,
    /// The scored project (token).
    pub project: Address,
    /// Hash of the thesis.
    pub thesis_hash: B256,
    /// Its quality (WAD).
    #[serde(with = "crate::serde_dec::u256")]
    pub quality_wad: U256,
    /// The originality verdict (its code on the wire).
    #[serde(with = "verdict_code")]
    #[cfg_attr(feature = "js", tsify(type = "0 | 1 | 2 | 3"))]
    pub verdict: Verdict,
    /// The earlier thesis it matched (zero when none).
    pub matched_thesis: B256,
}

impl QualityLeaf {
    /// The leaf's values in [`QUALITY_LEAF_ENCODING`] order, tag first.
    pub fn values(&self) -> Vec<DynSolValue> {
        vec![
            DynSolValue::FixedBytes(T_Q, 32),
            DynSolValue::Address(self.scorer_registry),
            DynSolValue::Uint(self.score_id, 256),
            DynSolValue::Address(self.scorer),
            DynSolValue::Address(self.project),
            DynSolValue::FixedBytes(self.thesis_hash, 32),
            DynSolValue::Uint(self.quality_wad, 256),
            DynSolValue::Uint(U256::from(self.verdict as u8), 8),
            DynSolValue::FixedBytes(self.matched_thesis, 32),
        ]
    }

    /// The values as `@openzeppelin/merkle-tree` takes them (hex, decimal strings).
    pub fn oz_values(&self) -> Vec<String> {
        vec![
            T_Q.to_string(),
            self.scorer_registry.to_checksum(None),
            self.score_id.to_string(),
            self.scorer.to_checksum(None),
            self.project.to_checksum(None),
            self.thesis_hash.to_string(),
            self.quality_wad.to_string(),
            (self.verdict as u8).to_string(),
            self.matched_thesis.to_string(),
        ]
    }

    /// The leaf hash.
    pub fn hash(&self) -> B256 {
        type Encoding = (
            sol_data::FixedBytes<32>,
            sol_data::Address,
            sol_data::Uint<256>,
            sol_data::Address,
            sol_data::Address,
            sol_data::FixedBytes<32>,
            sol_data::Uint<256>,
            sol_data::Uint<8>,
            sol_data::FixedBytes<32>,
        );
        let encoded = Encoding::abi_encode_params(&(
            T_Q,
            self.scorer_registry,
            self.score_id,
            self.scorer,
            self.project,
            self.thesis_hash,
            self.quality_wad,
            self.verdict as u8,
            self.matched_thesis,
        ));
        standard_leaf_hash(&encoded)
    }
}

/// Systematic leaf `(bytes32 T_s, address project, uint256 scoreWad)` (C5, C27): a project's
/// systematic score `S` where the epoch publishes a human-moved score in its score leaf, so the
/// next epoch's smoothing start (C4) is committed to by the root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SystematicLeaf {
    /// The project.
    pub project: Address,
    /// Its systematic score (WAD points).
    pub score_wad: U256,
}

impl SystematicLeaf {
    /// The leaf's values in [`SYSTEMATIC_LEAF_ENCODING`] order, tag first.
    pub fn values(&self) -> Vec<DynSolValue> {
        vec![
            DynSolValue::FixedBytes(T_S, 32),
            DynSolValue::Address(self.project),
            DynSolValue::Uint(self.score_wad, 256),
        ]
    }

    /// The values as `@openzeppelin/merkle-tree` takes them (hex, decimal strings).
    pub fn oz_values(&self) -> Vec<String> {
        vec![
            T_S.to_string(),
            self.project.to_checksum(None),
            self.score_wad.to_string(),
        ]
    }

    /// The leaf hash.
    pub fn hash(&self) -> B256 {
        standard_leaf_hash(&(T_S, self.project, self.score_wad).abi_encode_params())
    }
}

/// Score leaf hash of `(project, scoreWad)` (C5).
pub fn score_leaf(project: Address, score_wad: U256) -> B256 {
    ScoreLeaf { project, score_wad }.hash()
}

/// Inputs-tree leaf hash of `(project, commitment)` ([`INPUTS_LEAF_ENCODING`]).
pub fn inputs_leaf(project: Address, commitment: B256) -> B256 {
    standard_leaf_hash(&(project, commitment).abi_encode_params())
}

/// Quality leaf hash of a grade (C5); see [`QualityLeaf`].
pub fn quality_leaf(leaf: &QualityLeaf) -> B256 {
    leaf.hash()
}

/// Systematic leaf hash of `(T_s, project, scoreWad)` (C5, C27).
pub fn systematic_leaf(project: Address, score_wad: U256) -> B256 {
    SystematicLeaf { project, score_wad }.hash()
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::{address, b256};
    use proptest::prelude::*;

    fn wad(s: &str) -> U256 {
        U256::from_str_radix(s, 10).unwrap()
    }

    #[test]
    fn tags_are_keccak_of_their_domain_strings() {
        assert_eq!(T_Q, keccak256(T_Q_PREIMAGE));
        assert_eq!(T_S, keccak256(T_S_PREIMAGE));
        assert_eq!(T_G, keccak256(T_G_PREIMAGE));
    }

    // Vectors from `@openzeppelin/merkle-tree` 1.0.8:
    // StandardMerkleTree.of([v], encoding).leafHash(v).
    #[test]
    fn score_leaf_matches_openzeppelin() {
        let leaf = score_leaf(
            address!("1111111111111111111111111111111111111111"),
            wad("1500000000000000000"),
        );
        assert_eq!(
            leaf,
            b256!("9b874db701a75f2fd04f366ba1ecb8b0d1aa70a9746e68755630e674dcfdfad9")
        );
    }

    #[test]
    fn quality_leaf_matches_openzeppelin() {
        let leaf = quality_leaf(&QualityLeaf {
            scorer_registry: address!("5555555555555555555555555555555555555555"),
            score_id: U256::from(42u8),
            scorer: address!("3333333333333333333333333333333333333333"),
            project: address!("2222222222222222222222222222222222222222"),
            thesis_hash: B256::repeat_byte(0xab),
            quality_wad: wad("750000000000000000"),
            verdict: Verdict::Derivative,
            matched_thesis: B256::repeat_byte(0xcd),
        });
        // StandardMerkleTree.of([v], QUALITY_LEAF_ENCODING).leafHash(v), @openzeppelin/merkle-tree 1.0.8.
        assert_eq!(
            leaf,
            b256!("527ac761497cb0e139a3d8a9ebdda5fcadc80db637f95ed8267a301468f7fad3")
        );
    }

    #[test]
    fn systematic_leaf_matches_openzeppelin() {
        let leaf = systematic_leaf(
            address!("2222222222222222222222222222222222222222"),
            wad("42000000000000000000"),
        );
        assert_eq!(
            leaf,
            b256!("8b028ce89ed45f7de3525d4d6579f928416860f67828591c56622e05402a283e")
        );
    }

    #[test]
    fn abi_encode_of_static_values_is_word_concatenation() {
        let project = address!("1111111111111111111111111111111111111111");
        let enc = (project, U256::from(7u8)).abi_encode_params();
        let mut manual = [0u8; 64];
        manual[12..32].copy_from_slice(project.as_slice());
        manual[63] = 7;
        assert_eq!(enc, manual);
    }

    #[test]
    fn values_match_their_encodings() {
        use alloy_dyn_abi::DynSolType;
        let check = |enc: &[&str], vals: Vec<DynSolValue>, oz: Vec<String>| {
            assert_eq!(enc.len(), vals.len());
            assert_eq!(enc.len(), oz.len());
            for ((ty, v), s) in enc.iter().zip(&vals).zip(&oz) {
                let ty: DynSolType = ty.parse().unwrap();
                assert!(ty.matches(v), "{ty} vs {v:?}");
                assert_eq!(&ty.coerce_str(s).unwrap(), v);
            }
        };
        let p = address!("2222222222222222222222222222222222222222");
        let s = ScoreLeaf {
            project: p,
            score_wad: U256::from(5u8),
        };
        check(&SCORE_LEAF_ENCODING, s.values(), s.oz_values());
        let h = SystematicLeaf {
            project: p,
            score_wad: U256::from(5u8),
        };
        check(&SYSTEMATIC_LEAF_ENCODING, h.values(), h.oz_values());
        let q = QualityLeaf {
            scorer_registry: p,
            score_id: U256::from(3u8),
            scorer: p,
            project: p,
            thesis_hash: B256::repeat_byte(1),
            quality_wad: U256::from(9u8),
            verdict: Verdict::Copy,
            matched_thesis: B256::ZERO,
        };
        check(&QUALITY_LEAF_ENCODING, q.values(), q.oz_values());
    }

    #[test]
    fn verdict_codes() {
        for (code, v) in [
            (0u8, Verdict::Original),
            (1, Verdict::Similar),
            (2, Verdict::Derivative),
            (3, Verdict::Copy),
        ] {
            assert_eq!(Verdict::try_from(code), Ok(v));
            assert_eq!(u8::from(v), code);
        }
        assert_eq!(Verdict::try_from(4), Err(InvalidVerdict(4)));
        assert_eq!(Verdict::try_from(255), Err(InvalidVerdict(255)));
    }

    #[test]
    fn tags_separate_systematic_from_score_leaves() {
        let p = address!("2222222222222222222222222222222222222222");
        assert_ne!(
            score_leaf(p, U256::from(1u8)),
            systematic_leaf(p, U256::from(1u8))
        );
    }

    proptest! {
        #[test]
        fn values_encode_to_the_same_hash(
            p in any::<[u8; 20]>(), s in any::<[u64; 4]>(), t in any::<[u8; 32]>(),
            m in any::<[u8; 32]>(), v in 0u8..4,
        ) {
            let project = Address::from(p);
            let amount = U256::from_limbs(s);
            let hash_values = |vals: Vec<DynSolValue>| standard_leaf_hash(&DynSolValue::Tuple(vals).abi_encode_params());
            prop_assert_eq!(hash_values(ScoreLeaf { project, score_wad: amount }.values()), score_leaf(project, amount));
            prop_assert_eq!(hash_values(SystematicLeaf { project, score_wad: amount }.values()), systematic_leaf(project, amount));
            let q = QualityLeaf {
                scorer_registry: project, score_id: amount, scorer: Address::from(t[..20].try_into().unwrap_or([0u8; 20])), project,
                thesis_hash: B256::from(t), quality_wad: amount,
                verdict: Verdict::try_from(v).unwrap(), matched_thesis: B256::from(m),
            };
            prop_assert_eq!(hash_values(q.values()), q.hash());
        }
    }
}
