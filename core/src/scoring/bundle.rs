//! The epoch bundle's data (C5): what one epoch is computed from ([`EpochInput`]) and the
//! publishable, deterministic bundle it produces ([`EpochBundle`]), with the graded theses and human
//! records of the human layer, and the epoch's input errors. The pipeline that fills them is
//! [`super::epoch`] (systematic scores) and [`super::human_layer`] (quality leaves and human scores); this
//! module depends on neither, so both can use it.

use super::columns::ColumnRecord;
use super::config::{ConfigError, TrackConfig};
use super::gate::GateCheck;
use super::normalise::Bounds;
use super::tree;
use crate::leaves::{quality_leaf, systematic_leaf, InvalidVerdict, QualityLeaf, Verdict};
use crate::serde_dec;
use alloy_primitives::{Address, B256, I256, U256};
use serde::{Deserialize, Serialize};

/// Format tag of the bundle.
pub const BUNDLE_FORMAT: &str = "eden-epoch-bundle-v2";

/// A project's own verified inputs for one epoch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct ProjectData {
    /// Track name.
    pub track: String,
    /// Raw feature values (integers, feature units), in the track's feature order.
    #[serde(with = "serde_dec::u256_vec")]
    pub features: Vec<U256>,
    /// Claims made this epoch.
    #[serde(with = "serde_dec::int")]
    pub claims: u64,
    /// Claims that failed verification (`≤ claims`).
    #[serde(with = "serde_dec::int")]
    pub failed: u64,
    /// Absolute verified output (MIN_OUTPUT test).
    #[serde(with = "serde_dec::u256")]
    pub verified_output: U256,
    /// Project age in seconds at the epoch's snapshot.
    #[serde(with = "serde_dec::int")]
    pub age_secs: u64,
}

/// One project of the cohort. On the wire its [`ProjectData`] fields sit beside `project`
/// (`{project, track, features, claims, failed, verifiedOutput, ageSecs, salt?, private?}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "wire::ProjectInput", into = "wire::ProjectInput")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[cfg_attr(
    feature = "js",
    tsify(type = "ProjectData & { project: Address; salt?: B256; private?: boolean }")
)]
pub struct ProjectInput {
    /// Project address (the score leaf's `project`).
    pub project: Address,
    /// Its inputs.
    pub data: ProjectData,
    /// Commitment salt (used only when `private`; must then be non-zero).
    pub salt: B256,
    /// Whether the inputs stay private (salted commitment, inputs not published).
    pub private: bool,
}

/// Last epoch's published score of a project (WAD points, 0–100).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct PreviousScore {
    /// Project address.
    pub project: Address,
    /// Published score `S`, WAD points.
    #[serde(with = "serde_dec::u256")]
    pub score_wad: U256,
}

/// The chain state an epoch's human layer was read at: block `B` and its timestamp `T` (C9a).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct AsOf {
    /// Block number `B`.
    #[serde(with = "crate::serde_dec::int")]
    #[cfg_attr(feature = "js", tsify(type = "IntegerLike"))]
    pub block: u64,
    /// Its timestamp `T` (seconds).
    #[serde(with = "crate::serde_dec::int")]
    #[cfg_attr(feature = "js", tsify(type = "IntegerLike"))]
    pub time: u64,
}

/// Everything one epoch is computed from.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct EpochInput {
    /// Epoch number.
    #[serde(with = "serde_dec::int")]
    pub epoch: u64,
    /// Track configurations.
    pub tracks: Vec<TrackConfig>,
    /// The cohort, any order.
    pub projects: Vec<ProjectInput>,
    /// Last epoch's published scores (projects missing here start from 0).
    #[serde(default)]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub previous: Vec<PreviousScore>,
    /// The final epoch `previous` was read from (C4; published so a light check ties each project's
    /// previous score to that epoch's leaf). Below `epoch`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub previous_epoch: Option<u64>,
    /// Graded theses, in on-chain submission order (their quality leaves and the human scores).
    #[serde(default)]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub theses: Vec<GradedThesis>,
    /// Projects in pre-data mode (C10): no systematic score yet.
    #[serde(default)]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub pre_data: Vec<PreDataProject>,
    /// The chain state the theses were selected at (C9a): when set, the bundle carries it and the
    /// left-pre-data set, both committed in `inputsRoot` by the human-cutoff leaf.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub human_as_of: Option<AsOf>,
    /// `L_prev ∪ projects(prev)` (C10a): the build adds the cohort. Used only with `human_as_of`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub left_pre_data: Vec<Address>,
}

/// The flat wire form of [`ProjectInput`].
mod wire {
    use crate::serde_dec;
    use alloy_primitives::{Address, B256, U256};
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub(super) struct ProjectInput {
        project: Address,
        track: String,
        #[serde(with = "serde_dec::u256_vec")]
        features: Vec<U256>,
        #[serde(with = "serde_dec::int")]
        claims: u64,
        #[serde(with = "serde_dec::int")]
        failed: u64,
        #[serde(with = "serde_dec::u256")]
        verified_output: U256,
        #[serde(with = "serde_dec::int")]
        age_secs: u64,
        #[serde(default, with = "serde_dec::b256_or_zero")]
        salt: B256,
        #[serde(default)]
        private: bool,
    }

    impl From<ProjectInput> for super::ProjectInput {
        fn from(w: ProjectInput) -> Self {
            super::ProjectInput {
                project: w.project,
                data: super::ProjectData {
                    track: w.track,
                    features: w.features,
                    claims: w.claims,
                    failed: w.failed,
                    verified_output: w.verified_output,
                    age_secs: w.age_secs,
                },
                salt: w.salt,
                private: w.private,
            }
        }
    }

    impl From<super::ProjectInput> for ProjectInput {
        fn from(p: super::ProjectInput) -> Self {
            ProjectInput {
                project: p.project,
                track: p.data.track,
                features: p.data.features,
                claims: p.data.claims,
                failed: p.data.failed,
                verified_output: p.data.verified_output,
                age_secs: p.data.age_secs,
                salt: p.salt,
                private: p.private,
            }
        }
    }
}

/// A track as used this epoch: configuration, cohort size and the bounds actually used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct TrackRecord {
    /// The published configuration (model version, features, weights, λ, floors).
    pub config: TrackConfig,
    /// Projects in the track this epoch.
    pub cohort_size: u64,
    /// Normalisation bounds per feature (cohort P5/P95 or reference).
    pub bounds: Vec<Bounds>,
    /// Column commitments of the cohort-normalised features (C22), by feature; empty under 20 projects.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub columns: Vec<ColumnRecord>,
}

/// One project's results in the bundle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ProjectRecord {
    /// Project address.
    pub project: Address,
    /// Track name.
    pub track: String,
    /// Whether its inputs are private.
    pub private: bool,
    /// Input commitment (see the module doc).
    pub commitment: B256,
    /// The inputs, for public projects only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inputs: Option<ProjectData>,
    /// `keccak256(abi.encodePacked(uint64 x̂₁, …, uint64 x̂ₖ))`.
    pub normalised_digest: B256,
    /// `⌊Σ wᵢ·x̂ᵢ⌋`, WAD.
    #[serde(with = "serde_dec::u256")]
    pub weighted_wad: U256,
    /// `⌈λ·failed/claims⌉`, WAD.
    #[serde(with = "serde_dec::u256")]
    pub penalty_wad: U256,
    /// `raw`, WAD.
    #[serde(with = "serde_dec::u256")]
    pub raw_wad: U256,
    /// Raw without self-reported features (gate's MIN_RAW test), WAD.
    #[serde(with = "serde_dec::u256")]
    pub merit_wad: U256,
    /// Gate outcome.
    pub gate: GateCheck,
    /// `g`, WAD.
    #[serde(with = "serde_dec::u256")]
    pub gated_wad: U256,
    /// Last epoch's systematic score `S_{t−1}` (its `scoreWad`), WAD points: C4 smooths the
    /// systematic score, never the published one, so a human move does not compound (C27).
    #[serde(with = "serde_dec::u256")]
    pub previous_score_wad: U256,
    /// `s_t`, WAD in `[0, 1]`.
    #[serde(with = "serde_dec::u256")]
    pub smoothed_wad: U256,
    /// The systematic score `S = 100·s`, WAD points (the next epoch smooths from it, C4).
    #[serde(with = "serde_dec::u256")]
    pub score_wad: U256,
    /// The project's published score `P` (C27), WAD points: its human record's score when the
    /// epoch grades theses on it (the C9 envelope), else `score_wad`. The score leaf's value, the
    /// one score every consumer reads (fee lanes, creator share, the app).
    #[serde(with = "serde_dec::u256")]
    pub published_wad: U256,
    /// The score leaf hash: `(project, published_wad)`.
    pub leaf: B256,
    /// When the published score is the envelope's (the epoch grades theses on the project), the
    /// systematic leaf `(T_s, project, score_wad)`: the root then commits to `S` too, the next
    /// epoch's smoothing start (C4, C27). Absent otherwise (the score leaf already carries `S`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub systematic_leaf: Option<B256>,
}

/// A graded thesis as the epoch takes it (input order = on-chain submission order): the grade of
/// one score of the `ScorerRegistry`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct GradedThesis {
    /// The `ScorerRegistry` holding the score.
    pub scorer_registry: Address,
    /// The score's id there (`Scored.scoreId`).
    #[serde(with = "crate::serde_dec::u256_id")]
    #[cfg_attr(feature = "js", tsify(type = "IntegerLike"))]
    pub score_id: U256,
    /// Who scored (`Scored.scorer`).
    pub scorer: Address,
    /// The scored project (its token address).
    pub project: Address,
    /// `keccak256` of the thesis text, as scored on chain.
    pub thesis_hash: B256,
    /// The scorer's target score `y`, WAD points in `[0, 100]`.
    #[serde(with = "crate::serde_dec::u256")]
    pub target_score_wad: U256,
    /// Quality `q` (C8), WAD in `[0, 1]`.
    #[serde(with = "crate::serde_dec::u256")]
    pub quality_wad: U256,
    /// Originality verdict (C8 multiplier `c`), its code on the wire.
    #[serde(with = "crate::leaves::verdict_code")]
    #[cfg_attr(feature = "js", tsify(type = "0 | 1 | 2 | 3"))]
    pub verdict: Verdict,
    /// The earlier thesis it matched (zero when original; may be absent or empty on input).
    #[serde(default, with = "crate::serde_dec::b256_or_zero")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub matched_thesis: B256,
    /// `keccak256` of the grade's published grading record (C8); zero for none. A nonzero one is
    /// committed in `inputsRoot` by its grade leaf ([`crate::leaves::grade_leaf`]).
    #[serde(
        default,
        skip_serializing_if = "B256::is_zero",
        with = "crate::serde_dec::b256_or_zero"
    )]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub grade_record: B256,
}

/// A project with no systematic score yet (C10 pre-data mode).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct PreDataProject {
    /// Project address.
    pub project: Address,
    /// Verified projects replay up to 100 points, others up to 50 (`false` when absent).
    #[serde(default)]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub verified: bool,
}

impl GradedThesis {
    /// Its C5 quality leaf.
    pub fn quality_leaf(&self) -> QualityLeaf {
        QualityLeaf {
            scorer_registry: self.scorer_registry,
            score_id: self.score_id,
            scorer: self.scorer,
            project: self.project,
            thesis_hash: self.thesis_hash,
            quality_wad: self.quality_wad,
            verdict: self.verdict,
            matched_thesis: self.matched_thesis,
        }
    }
}

/// A graded thesis in the bundle, with its quality leaf.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ThesisRecord {
    /// The `ScorerRegistry` holding the score.
    pub scorer_registry: Address,
    /// The score's id.
    #[serde(with = "serde_dec::u256")]
    pub score_id: U256,
    /// Who scored.
    pub scorer: Address,
    /// The scored project.
    pub project: Address,
    /// Thesis hash.
    pub thesis_hash: B256,
    /// Target score, WAD points.
    #[serde(with = "serde_dec::u256")]
    pub target_score_wad: U256,
    /// Quality `q`, WAD.
    #[serde(with = "serde_dec::u256")]
    pub quality_wad: U256,
    /// Verdict code (0 original, 1 similar, 2 derivative, 3 copy).
    pub verdict: u8,
    /// Matched thesis (zero when original).
    pub matched_thesis: B256,
    /// The C5 quality leaf hash.
    pub leaf: B256,
    /// `keccak256` of its grading record (C8), committed in `inputsRoot` by a grade leaf; zero (absent)
    /// for a grade without one.
    #[serde(
        default,
        skip_serializing_if = "B256::is_zero",
        with = "crate::serde_dec::b256_or_zero"
    )]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub grade_record: B256,
}

impl ThesisRecord {
    /// The grade this record carries, as an epoch takes it (its published `leaf` dropped).
    ///
    /// # Errors
    /// [`InvalidVerdict`] when the verdict code is not 0–3.
    pub fn graded(&self) -> Result<GradedThesis, InvalidVerdict> {
        Ok(GradedThesis {
            scorer_registry: self.scorer_registry,
            score_id: self.score_id,
            scorer: self.scorer,
            project: self.project,
            thesis_hash: self.thesis_hash,
            target_score_wad: self.target_score_wad,
            quality_wad: self.quality_wad,
            verdict: crate::leaves::Verdict::try_from(self.verdict)?,
            matched_thesis: self.matched_thesis,
            grade_record: self.grade_record,
        })
    }

    /// The C5 quality leaf recomputed from the record's values (not its published `leaf`).
    ///
    /// # Errors
    /// [`InvalidVerdict`] when the verdict code is not 0–3.
    pub fn quality_leaf(&self) -> Result<QualityLeaf, InvalidVerdict> {
        Ok(QualityLeaf {
            scorer_registry: self.scorer_registry,
            score_id: self.score_id,
            scorer: self.scorer,
            project: self.project,
            thesis_hash: self.thesis_hash,
            quality_wad: self.quality_wad,
            verdict: Verdict::try_from(self.verdict)?,
            matched_thesis: self.matched_thesis,
        })
    }
}

/// How a project's human score was computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum HumanMode {
    /// C9: the envelope around the systematic score.
    Envelope,
    /// C10: the pre-data replay.
    PreData,
}

/// A project's human score in the bundle. It is the project's published score (C27): an envelope
/// project's score leaf carries it (its [`ProjectRecord::published_wad`]); a pre-data project's one
/// score leaf is this record's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct HumanRecord {
    /// Project address.
    pub project: Address,
    /// Envelope or pre-data.
    pub mode: HumanMode,
    /// The human score, WAD points: the project's published score (C27).
    #[serde(with = "serde_dec::u256")]
    pub score_wad: U256,
    /// The project's score leaf `(project, score_wad)` (C5, C27). For an envelope project it is its
    /// project record's leaf (in the tree once); for a pre-data project it is its only leaf.
    pub leaf: B256,
    /// Envelope mode: the systematic score `S`, WAD points.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "serde_dec::opt_u256"
    )]
    pub systematic_wad: Option<U256>,
    /// Envelope mode: `4·s_sys·(1 − s_sys)`, WAD.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "serde_dec::opt_u256"
    )]
    pub envelope_wad: Option<U256>,
    /// Envelope mode: Δ after the clamp, signed WAD.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "serde_dec::opt_i256"
    )]
    pub delta_wad: Option<I256>,
    /// Envelope mode: how many theses counted (`q ≥ 0.3`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counted: Option<u64>,
    /// Pre-data mode: Verified (cap 100) or not (cap 50).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verified: Option<bool>,
    /// Pre-data mode: the score after each submission, WAD points.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "serde_dec::opt_u256_vec"
    )]
    pub path: Option<Vec<U256>>,
}
/// The publishable epoch bundle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct EpochBundle {
    /// [`BUNDLE_FORMAT`].
    pub format: String,
    /// Epoch number.
    pub epoch: u64,
    /// Root of the score tree (C5).
    pub root: B256,
    /// Root of the input-commitment tree (with the column commitments, C22).
    pub inputs_root: B256,
    /// The final epoch the previous scores came from (C4), when the input named it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub previous_epoch: Option<u64>,
    /// OZ leaf encoding of the score tree: `["address", "uint256"]`.
    pub score_leaf_encoding: Vec<String>,
    /// OZ leaf encoding of the inputs tree: `["address", "bytes32"]`.
    pub inputs_leaf_encoding: Vec<String>,
    /// Tracks, by name.
    pub tracks: Vec<TrackRecord>,
    /// Projects, by address.
    pub projects: Vec<ProjectRecord>,
    /// OZ leaf encoding of quality leaves (only with theses).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub quality_leaf_encoding: Vec<String>,
    /// OZ leaf encoding of systematic leaves (only when a project has one, C27).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub systematic_leaf_encoding: Vec<String>,
    /// Graded theses with their quality leaves, in submission order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub theses: Vec<ThesisRecord>,
    /// Human scores (envelope and pre-data), by address.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub human: Vec<HumanRecord>,
    /// The chain state the theses were selected at (C9a), absent in bundles built without a registry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub human_as_of: Option<AsOf>,
    /// Every project that ever had an attested systematic score, sorted (C10a `L_E`); with `humanAsOf`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub left_pre_data: Vec<Address>,
}

impl EpochBundle {
    /// Deterministic compact JSON.
    ///
    /// # Errors
    /// Only if serde_json fails (it does not for these types).
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string(self)
    }

    /// Parses a bundle from JSON.
    ///
    /// # Errors
    /// Malformed JSON or fields.
    pub fn from_json(s: &str) -> Result<EpochBundle, serde_json::Error> {
        serde_json::from_str(s)
    }

    /// The bundle as a compact publication (C23: `epochs/<root>.msgpack`), deterministic like
    /// [`Self::to_json`].
    ///
    /// # Errors
    /// Only if the encoder fails (it does not for these types).
    pub fn to_msgpack(&self) -> Result<Vec<u8>, crate::compact::CompactError> {
        crate::compact::to_msgpack(self)
    }

    /// Parses a bundle from its JSON or its compact encoding (C23), told apart by the first bytes.
    /// The format tag must be [`BUNDLE_FORMAT`].
    ///
    /// # Errors
    /// What is wrong, with the field's path for the compact encoding.
    pub fn from_bytes(bytes: &[u8]) -> Result<EpochBundle, crate::decode::DecodeError> {
        let b: EpochBundle = if crate::compact::is_msgpack(bytes) {
            // The project records, most of the bundle, are decoded on every core (`native`).
            crate::compact::from_msgpack_split::<EpochBundle, ProjectRecord>(
                bytes,
                "projects",
                |b, projects| b.projects = projects,
            )?
        } else {
            serde_json::from_slice(bytes)?
        };
        crate::decode::expect_format(&b.format, BUNDLE_FORMAT)?;
        Ok(b)
    }

    /// The score leaf values `(project, publishedWad)`: the cohort's in bundle order, then the
    /// pre-data projects' (C27: one per project).
    pub fn score_leaves(&self) -> Vec<(Address, U256)> {
        self.projects
            .iter()
            .map(|p| (p.project, p.published_wad))
            .chain(self.pre_data().map(|h| (h.project, h.score_wad)))
            .collect()
    }

    /// The envelope score of `project` (C9), when the epoch grades theses on it: its published score
    /// (C27). Human records are by address (a bundle whose records are out of order misses here, and
    /// the audit names its published scores).
    pub fn envelope_score(&self, project: Address) -> Option<U256> {
        let i = self
            .human
            .binary_search_by_key(&project, |h| h.project)
            .ok()?;
        let h = &self.human[i];
        (h.mode == HumanMode::Envelope).then_some(h.score_wad)
    }

    /// The pre-data projects' human records (each one's score leaf is its only leaf).
    pub fn pre_data(&self) -> impl Iterator<Item = &HumanRecord> {
        self.human.iter().filter(|h| h.mode == HumanMode::PreData)
    }

    /// Every leaf under `root`: one score leaf per project (the cohort's first, in bundle order), the
    /// systematic leaves of projects whose published score a human move set, the pre-data projects'
    /// score leaves, then the quality leaves (see [`super::human_layer`]).
    pub fn leaves(&self) -> Vec<B256> {
        let mut v = Vec::with_capacity(self.projects.len() + self.theses.len() + self.human.len());
        v.extend(self.projects.iter().map(|p| p.leaf));
        v.extend(self.projects.iter().filter_map(|p| p.systematic_leaf));
        v.extend(self.pre_data().map(|h| h.leaf));
        v.extend(self.theses.iter().map(|t| t.leaf));
        v
    }

    /// The `inputsRoot` leaves besides the projects' inputs leaves: every track's column leaves (C22),
    /// then a grade leaf for each graded thesis with a grading record (C8), in bundle order, then the
    /// human-cutoff leaf when the bundle has a cutoff (C9a).
    pub fn inputs_extra_leaves(&self) -> Vec<B256> {
        let mut v: Vec<B256> = self
            .tracks
            .iter()
            .flat_map(|t| super::columns::column_leaves(&t.config.name, &t.columns))
            .collect();
        v.extend(
            self.theses
                .iter()
                .filter(|t| !t.grade_record.is_zero())
                .map(|t| crate::leaves::grade_leaf(t.scorer_registry, t.score_id, t.grade_record)),
        );
        v.extend(self.human_cutoff_leaf());
        v
    }

    /// The human-cutoff leaf (C9a, C10a), when the bundle has a cutoff.
    pub fn human_cutoff_leaf(&self) -> Option<B256> {
        self.human_as_of.map(|a| {
            crate::leaves::human_cutoff_leaf(
                a.block,
                a.time,
                crate::leaves::left_pre_data_hash(&self.left_pre_data),
            )
        })
    }

    /// The proof of `leaf` in the epoch tree (the one `root` commits to), or `None` when the bundle
    /// has no such leaf. Walks to `root` only if the bundle's leaves really give that root.
    pub fn proof(&self, leaf: &B256) -> Option<Vec<B256>> {
        epoch_tree(self.leaves(), leaf)?.1
    }

    /// Every leaf under `root` **recomputed from its values** (score, quality), for checking a
    /// bundle someone else built: a record whose published `leaf` hash was changed cannot hide here.
    ///
    /// # Errors
    /// The hash of a thesis whose verdict code is not 0–3.
    pub fn recomputed_leaves(&self) -> Result<Vec<B256>, (B256, InvalidVerdict)> {
        let mut v = Vec::with_capacity(self.projects.len() + self.theses.len() + self.human.len());
        // In the order of [`Self::leaves`]. `S` is bound either way: a record whose systematic
        // score is not its published one gets its systematic leaf recomputed, listed or not (C27).
        v.extend(
            self.projects
                .iter()
                .map(|p| tree::score_leaf(p.project, p.published_wad)),
        );
        v.extend(
            self.projects
                .iter()
                .filter(|p| p.systematic_leaf.is_some() || p.published_wad != p.score_wad)
                .map(|p| systematic_leaf(p.project, p.score_wad)),
        );
        v.extend(
            self.pre_data()
                .map(|h| tree::score_leaf(h.project, h.score_wad)),
        );
        for t in &self.theses {
            let leaf = t.quality_leaf().map_err(|e| (t.thesis_hash, e))?;
            v.push(quality_leaf(&leaf));
        }
        Ok(v)
    }
}

/// The epoch tree over `leaves` (C5: sorted leaves, sorted pairs, OpenZeppelin layout): its root and the
/// proof of `leaf` (`None` when `leaf` is not one of them); `None` when there are no leaves.
pub fn epoch_tree(leaves: Vec<B256>, leaf: &B256) -> Option<(B256, Option<Vec<B256>>)> {
    tree::root_and_proof(leaves, leaf)
}

/// Bad epoch input; every message names the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EpochError {
    /// An invalid track configuration.
    #[error("tracks[{index}].{source}")]
    Track {
        /// Track index.
        index: usize,
        /// What is wrong.
        source: ConfigError,
    },
    /// Two tracks share a name.
    #[error("tracks[{index}].name: duplicate track '{name}'")]
    DuplicateTrack {
        /// Index of the second one.
        index: usize,
        /// Name.
        name: String,
    },
    /// No projects.
    #[error("projects: the cohort is empty")]
    NoProjects,
    /// A project field is invalid.
    #[error("projects[{index}].{field}: {message}")]
    Project {
        /// Project index (input order).
        index: usize,
        /// Field.
        field: &'static str,
        /// What is wrong.
        message: String,
    },
    /// A graded thesis is invalid.
    #[error("theses[{index}].{field}: {message}")]
    Thesis {
        /// Index in `theses`.
        index: usize,
        /// Field.
        field: &'static str,
        /// What is wrong.
        message: String,
    },
    /// A pre-data project is invalid.
    #[error("preData[{index}].{field}: {message}")]
    PreData {
        /// Index in `preData`.
        index: usize,
        /// Field.
        field: &'static str,
        /// What is wrong.
        message: String,
    },
    /// A previous score is invalid.
    #[error("previous[{index}].{field}: {message}")]
    Previous {
        /// Index in `previous`.
        index: usize,
        /// Field.
        field: &'static str,
        /// What is wrong.
        message: String,
    },
}
