//! Light publications (C22): what one project's check needs, published beside the full bundle, so a
//! person checking their own score downloads kilobytes, not the cohort.
//!
//! - `epochs/<root>/projects/<address>.json` ([`ProjectPack`], `eden-project-pack-v2`): the project's
//!   score record and its proof to `root`, its inputs leaf's proof to `inputsRoot`, its graded theses and
//!   human record with their proofs, and its own intake (claims and public attestations).
//! - `epochs/<root>/tracks/<keccak256(track)>.json` ([`TrackPack`], `eden-track-pack-v1`): the track's
//!   configuration, cohort size and bounds, and for every cohort-normalised feature the column leaf's
//!   proof to `inputsRoot` and the chunks holding ranks `⌈5n/100⌉` and `⌈95n/100⌉`
//!   ([`crate::scoring::columns`]).
//!
//! [`LightProofs::tree`] turns the two into a [`BundleTree`] over a one-project bundle whose proofs are
//! the published ones, so [`super::check_score_in`] and [`super::check_human_in`] run unchanged, and
//! the recomputation's `inputsRoot` and `root` steps walk the proofs instead of rebuilding the trees.
//!
//! **What the light check proves** (with the on-chain signed and final roots): the project's score,
//! human and quality leaves are in the signed root; its inputs (public, or its own file with the salt)
//! are the ones committed in the signed `inputsRoot`; each bound it was normalised with is the value
//! at the bound's rank of a column of `cohortSize` values committed in that `inputsRoot`, and that
//! column's chunks around each bound are sorted; its score recomputes from those inputs and bounds;
//! its previous score is its leaf in the previous final epoch. **Left to the watchtower** (which reads
//! the full bundle): that each column is exactly the sorted multiset of the cohort's values, that
//! `cohortSize` counts the track's projects, that every other project's leaf is right, and that a
//! project absent from the previous epoch really had no leaf there.

use super::tree::{BundleTree, CheckError};
use crate::attest::IntakeReport;
use crate::leaves::{quality_leaf, score_leaf, systematic_leaf};
use crate::merkle::process_proof;
use crate::scoring::bundle::{HumanRecord, ProjectRecord, ThesisRecord, TrackRecord};
use crate::scoring::columns::{
    bound_rank, column_leaf, track_hash, ChunkProof, ColumnRecord, ColumnTree,
};
use crate::scoring::normalise::{P_HI, P_LO};
use crate::scoring::{EpochBundle, EpochTree, TrackConfig};
use alloy_primitives::{Address, B256, U256};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Format tag of a project pack.
pub const PROJECT_PACK_FORMAT: &str = "eden-project-pack-v2";
/// Format tag of a track pack.
pub const TRACK_PACK_FORMAT: &str = "eden-track-pack-v1";

/// Path of a project's pack under the publication root.
pub fn project_pack_path(root: &B256, project: Address) -> String {
    format!(
        "epochs/{root}/projects/{}.json",
        project.to_string().to_lowercase()
    )
}

/// Path of a track's pack under the publication root.
pub fn track_pack_path(root: &B256, track: &str) -> String {
    format!("epochs/{root}/tracks/{}.json", track_hash(track))
}

/// One feature's column: its leaf's proof to `inputsRoot` and the chunks holding the bounds' ranks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ColumnProof {
    /// Feature index.
    pub feature: u64,
    /// Proof of the column leaf to `inputsRoot`.
    pub proof: Vec<B256>,
    /// The chunk holding rank `⌈5n/100⌉`.
    pub lo: ChunkProof,
    /// The chunk holding rank `⌈95n/100⌉`.
    pub hi: ChunkProof,
}

/// A track's light publication.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrackPack {
    /// [`TRACK_PACK_FORMAT`].
    pub format: String,
    /// Epoch.
    pub epoch: u64,
    /// The epoch root.
    pub root: B256,
    /// The inputs root.
    pub inputs_root: B256,
    /// The track (its columns without the private values).
    pub track: TrackRecord,
    /// Per cohort-normalised feature.
    pub columns: Vec<ColumnProof>,
}

/// A project's light publication.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectPack {
    /// [`PROJECT_PACK_FORMAT`].
    pub format: String,
    /// Epoch.
    pub epoch: u64,
    /// The epoch root.
    pub root: B256,
    /// The inputs root.
    pub inputs_root: B256,
    /// The final epoch the smoothing's previous scores came from (C4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_epoch: Option<u64>,
    /// The project.
    pub project: Address,
    /// Its systematic score record (absent for a pre-data project).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<ProjectRecord>,
    /// The score leaf's proof to `root`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub score_proof: Vec<B256>,
    /// The systematic leaf's proof to `root`, when the record has one (C27).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub systematic_proof: Vec<B256>,
    /// The inputs leaf's proof to `inputsRoot`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs_proof: Vec<B256>,
    /// Its graded theses, in submission order, each with its quality leaf's proof.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub theses: Vec<(ThesisRecord, Vec<B256>)>,
    /// Its human record and its leaf's proof (the project's score leaf, C27).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub human: Option<(HumanRecord, Vec<B256>)>,
    /// Its intake: the report's header and its own entry (claims, public attestations).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intake: Option<IntakeReport>,
    /// Every track's configuration this epoch (the intake's configuration is checked against all of
    /// them when it is re-run).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tracks: Vec<TrackConfig>,
    /// The epoch's human cutoff (C9a, C10a) and its leaf's proof to `inputsRoot`, when the bundle has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub human_cutoff: Option<CutoffProof>,
}

/// An epoch's human cutoff as a pack carries it (C9a, C10a): enough to rebuild the human-cutoff leaf and
/// walk its proof to `inputsRoot`. The left-pre-data set itself is carried only in the pack of a project
/// outside the cohort (a cohort project is in it by construction): there it shows whether the project may be
/// replayed as pre-data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CutoffProof {
    /// The cutoff.
    pub as_of: crate::scoring::counting::AsOf,
    /// `keccak256` of the packed sorted left-pre-data set.
    pub left_pre_data_hash: B256,
    /// The set, only for a project outside the cohort.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_pre_data: Vec<Address>,
    /// The cutoff leaf's proof to `inputsRoot`.
    pub proof: Vec<B256>,
}

impl ProjectPack {
    /// Parses a pack.
    ///
    /// # Errors
    /// Malformed JSON, or another format.
    pub fn from_json(text: &str) -> Result<Self, crate::decode::DecodeError> {
        let p: Self = serde_json::from_str(text)?;
        crate::decode::expect_format(&p.format, PROJECT_PACK_FORMAT)?;
        Ok(p)
    }

    /// The project's systematic score in this epoch when its leaf's proof reaches `root` (the pack's
    /// own, or the chain's): the previous score a later epoch must start from (C4). That is the
    /// score leaf's value, or the systematic leaf's where a human move set the published score (C27).
    pub fn proven_score(&self, root: B256) -> Option<U256> {
        let r = self.record.as_ref()?;
        let (leaf, proof) = match r.systematic_leaf {
            Some(_) => (
                systematic_leaf(r.project, r.score_wad),
                &self.systematic_proof,
            ),
            None => (score_leaf(r.project, r.score_wad), &self.score_proof),
        };
        (process_proof(leaf, proof) == root).then_some(r.score_wad)
    }

    /// The project's published score in this epoch (its one score leaf, C27: what FeeLanes and the
    /// creator share read, and what a trader is shown) when that leaf's proof reaches `root`: the
    /// record's published score, or a pre-data project's human score. `None` when neither proves.
    pub fn proven_published(&self, root: B256) -> Option<U256> {
        let from_record = self
            .record
            .as_ref()
            .map(|r| (r.published_wad, &self.score_proof));
        let from_human = self.human.as_ref().map(|(h, p)| (h.score_wad, p));
        [from_record, from_human]
            .into_iter()
            .flatten()
            .find(|(v, p)| process_proof(score_leaf(self.project, *v), p) == root)
            .map(|(v, _)| v)
    }
}

impl TrackPack {
    /// Parses a pack.
    ///
    /// # Errors
    /// Malformed JSON, or another format.
    pub fn from_json(text: &str) -> Result<Self, crate::decode::DecodeError> {
        let p: Self = serde_json::from_str(text)?;
        crate::decode::expect_format(&p.format, TRACK_PACK_FORMAT)?;
        Ok(p)
    }
}

/// The light publications of one epoch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Packs {
    /// One per track.
    pub tracks: Vec<TrackPack>,
    /// One per project with a score or human record.
    pub projects: Vec<ProjectPack>,
}

/// Why packs could not be built from a bundle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PackError {
    /// The bundle cannot be checked.
    #[error(transparent)]
    Check(#[from] CheckError),
    /// A column rebuilt from the public inputs and the private values is not the committed one.
    #[error("track '{track}' feature {feature}: the column rebuilt from the bundle is not its committed root")]
    Column {
        /// Track.
        track: String,
        /// Feature.
        feature: u64,
    },
    /// The bundle's trees do not give its roots.
    #[error("the bundle's {0} does not rebuild from its records")]
    Root(&'static str),
}

/// Every light publication of `bundle` (the intake report's entries go to their projects). The bundle
/// is checked on the way: its trees must rebuild to its roots and its columns to their commitments.
///
/// # Errors
/// [`PackError`].
pub fn build_packs(
    bundle: &EpochBundle,
    intake: Option<&IntakeReport>,
) -> Result<Packs, PackError> {
    let epoch_tree = BundleTree::new(bundle);
    let epoch_tree = epoch_tree.tree()?;
    if epoch_tree.root() != bundle.root {
        return Err(PackError::Root("root"));
    }
    let mut input_leaves: Vec<B256> = bundle
        .projects
        .iter()
        .map(|p| crate::leaves::inputs_leaf(p.project, p.commitment))
        .collect();
    input_leaves.extend(bundle.inputs_extra_leaves());
    let inputs_tree = EpochTree::new(input_leaves).ok_or(CheckError::EmptyBundle)?;
    if inputs_tree.root() != bundle.inputs_root {
        return Err(PackError::Root("inputsRoot"));
    }
    let mut tracks = Vec::with_capacity(bundle.tracks.len());
    for t in &bundle.tracks {
        tracks.push(track_pack(bundle, t, &inputs_tree)?);
    }
    let mut by_project: HashMap<Address, ProjectPack> = HashMap::new();
    let blank = |project| ProjectPack {
        format: PROJECT_PACK_FORMAT.into(),
        epoch: bundle.epoch,
        root: bundle.root,
        inputs_root: bundle.inputs_root,
        previous_epoch: bundle.previous_epoch,
        project,
        record: None,
        score_proof: vec![],
        systematic_proof: vec![],
        inputs_proof: vec![],
        theses: vec![],
        human: None,
        intake: None,
        tracks: bundle.tracks.iter().map(|t| t.config.clone()).collect(),
        human_cutoff: None,
    };
    let proof = |leaf: B256| epoch_tree.proof(&leaf).unwrap_or_default();
    for r in &bundle.projects {
        let p = by_project
            .entry(r.project)
            .or_insert_with(|| blank(r.project));
        p.score_proof = proof(score_leaf(r.project, r.published_wad));
        if r.systematic_leaf.is_some() {
            p.systematic_proof = proof(systematic_leaf(r.project, r.score_wad));
        }
        p.inputs_proof = inputs_tree
            .proof(&crate::leaves::inputs_leaf(r.project, r.commitment))
            .unwrap_or_default();
        p.record = Some(r.clone());
    }
    for t in &bundle.theses {
        let leaf = t
            .quality_leaf()
            .map_err(|source| CheckError::InvalidVerdict {
                thesis: t.thesis_hash,
                source,
            })?;
        let p = by_project
            .entry(t.project)
            .or_insert_with(|| blank(t.project));
        p.theses.push((t.clone(), proof(quality_leaf(&leaf))));
    }
    for h in &bundle.human {
        let p = by_project
            .entry(h.project)
            .or_insert_with(|| blank(h.project));
        p.human = Some((h.clone(), proof(score_leaf(h.project, h.score_wad))));
    }
    if let (Some(as_of), Some(leaf)) = (bundle.human_as_of, bundle.human_cutoff_leaf()) {
        let cutoff_proof = inputs_tree.proof(&leaf).unwrap_or_default();
        let hash = crate::scoring::counting::left_pre_data_hash(&bundle.left_pre_data);
        for p in by_project.values_mut() {
            p.human_cutoff = Some(CutoffProof {
                as_of,
                left_pre_data_hash: hash,
                left_pre_data: if p.record.is_some() {
                    Vec::new()
                } else {
                    bundle.left_pre_data.clone()
                },
                proof: cutoff_proof.clone(),
            });
        }
    }
    if let Some(report) = intake {
        let header = IntakeReport {
            format: report.format.clone(),
            epoch: report.epoch,
            chain_id: report.chain_id,
            source_key_registry: report.source_key_registry,
            window_start: report.window_start,
            snapshot: report.snapshot,
            key_block: report.key_block,
            config: report.config.clone(),
            projects: vec![],
        };
        for rp in &report.projects {
            if let Some(p) = by_project.get_mut(&rp.project) {
                let mut one = header.clone();
                one.projects.push(rp.clone());
                p.intake = Some(one);
            }
        }
    }
    let mut projects: Vec<ProjectPack> = by_project.into_values().collect();
    projects.sort_by_key(|p| p.project);
    Ok(Packs { tracks, projects })
}

fn track_pack(
    bundle: &EpochBundle,
    t: &TrackRecord,
    inputs_tree: &EpochTree,
) -> Result<TrackPack, PackError> {
    let th = track_hash(&t.config.name);
    let mut columns = Vec::with_capacity(t.columns.len());
    let mut column: Vec<U256> = Vec::new();
    for c in &t.columns {
        let f = c.feature as usize;
        column.clear();
        column.extend(
            bundle
                .projects
                .iter()
                .filter(|p| p.track == t.config.name)
                .filter_map(|p| p.inputs.as_ref()?.features.get(f).copied()),
        );
        column.extend(c.private_values.iter().copied());
        column.sort_unstable();
        let bad = || PackError::Column {
            track: t.config.name.clone(),
            feature: c.feature,
        };
        let tree = ColumnTree::new(&column).ok_or_else(bad)?;
        if tree.root() != c.root || column.len() as u64 != c.n {
            return Err(bad());
        }
        let chunk = |p| {
            tree.chunk_proof(bound_rank(c.n, p) as usize)
                .ok_or_else(bad)
        };
        columns.push(ColumnProof {
            feature: c.feature,
            proof: inputs_tree
                .proof(&column_leaf(th, c.feature, c.n, c.root))
                .ok_or_else(bad)?,
            lo: chunk(P_LO)?,
            hi: chunk(P_HI)?,
        });
    }
    let mut track = t.clone();
    for c in &mut track.columns {
        c.private_values.clear();
    }
    Ok(TrackPack {
        format: TRACK_PACK_FORMAT.into(),
        epoch: bundle.epoch,
        root: bundle.root,
        inputs_root: bundle.inputs_root,
        track,
        columns,
    })
}

/// Why a light publication is not trusted (beyond what the score and human checks report).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "kind"
)]
pub enum LightFinding {
    /// The track pack is for another epoch or roots than the project pack.
    TrackPackDiffers,
    /// A bound is not the committed column's value at its rank.
    BoundUnproven {
        /// Feature index.
        feature: u64,
        /// Why, in words from core.
        why: String,
    },
    /// The human-cutoff leaf (C9a) does not prove against `inputsRoot`, or the pack's left-pre-data set
    /// does not hash to the one committed.
    CutoffUnproven,
}

/// A project pack (and its track's pack) as a one-project bundle whose proofs are the published ones.
#[derive(Debug, Clone)]
pub struct LightProofs {
    bundle: EpochBundle,
    proofs: HashMap<B256, Vec<B256>>,
    inputs_proof: Vec<B256>,
    findings: Vec<LightFinding>,
}

impl LightProofs {
    /// From `pack` and its track's pack (`None` for a pre-data project). Checks the bounds against
    /// the committed columns (C22); a bound that does not hold is a finding, not an error.
    pub fn new(pack: &ProjectPack, track: Option<&TrackPack>) -> Self {
        let mut findings = Vec::new();
        let mut proofs = HashMap::new();
        if let Some(r) = &pack.record {
            proofs.insert(
                score_leaf(r.project, r.published_wad),
                pack.score_proof.clone(),
            );
            if r.systematic_leaf.is_some() {
                proofs.insert(
                    systematic_leaf(r.project, r.score_wad),
                    pack.systematic_proof.clone(),
                );
            }
        }
        for (t, p) in &pack.theses {
            if let Ok(l) = t.quality_leaf() {
                proofs.insert(quality_leaf(&l), p.clone());
            }
        }
        if let Some((h, p)) = &pack.human {
            proofs.insert(score_leaf(h.project, h.score_wad), p.clone());
        }
        let mut tracks = Vec::new();
        if let Some(tp) = track {
            if tp.epoch != pack.epoch || tp.root != pack.root || tp.inputs_root != pack.inputs_root
            {
                findings.push(LightFinding::TrackPackDiffers);
            }
            findings.extend(bound_findings(tp, pack.inputs_root));
            tracks.push(tp.track.clone());
        }
        if let Some(c) = &pack.human_cutoff {
            let leaf =
                crate::leaves::human_cutoff_leaf(c.as_of.block, c.as_of.time, c.left_pre_data_hash);
            let set_ok = c.left_pre_data.is_empty()
                || crate::scoring::counting::left_pre_data_hash(&c.left_pre_data)
                    == c.left_pre_data_hash;
            if !set_ok || process_proof(leaf, &c.proof) != pack.inputs_root {
                findings.push(LightFinding::CutoffUnproven);
            }
        }
        let bundle = EpochBundle {
            format: crate::scoring::bundle::BUNDLE_FORMAT.into(),
            epoch: pack.epoch,
            root: pack.root,
            inputs_root: pack.inputs_root,
            previous_epoch: pack.previous_epoch,
            score_leaf_encoding: vec![],
            inputs_leaf_encoding: vec![],
            tracks,
            projects: pack.record.iter().cloned().collect(),
            quality_leaf_encoding: vec![],
            systematic_leaf_encoding: vec![],
            theses: pack.theses.iter().map(|(t, _)| t.clone()).collect(),
            human: pack.human.iter().map(|(h, _)| h.clone()).collect(),
            human_as_of: pack.human_cutoff.as_ref().map(|c| c.as_of),
            left_pre_data: pack
                .human_cutoff
                .as_ref()
                .map(|c| c.left_pre_data.clone())
                .unwrap_or_default(),
        };
        Self {
            bundle,
            proofs,
            inputs_proof: pack.inputs_proof.clone(),
            findings,
        }
    }

    /// The one-project bundle.
    pub fn bundle(&self) -> &EpochBundle {
        &self.bundle
    }

    /// What the bounds check found.
    pub fn findings(&self) -> &[LightFinding] {
        &self.findings
    }

    /// The tree the score and human checks run on.
    pub fn tree(&self) -> BundleTree<'_> {
        BundleTree::light(&self.bundle, &self.proofs, &self.inputs_proof)
    }
}

/// C22: every cohort-normalised bound of the track pack is the committed column's value at its rank.
fn bound_findings(tp: &TrackPack, inputs_root: B256) -> Vec<LightFinding> {
    let t = &tp.track;
    let th = track_hash(&t.config.name);
    let mut out = Vec::new();
    for (f, b) in t.bounds.iter().enumerate() {
        let f = f as u64;
        let fail = |why: String| LightFinding::BoundUnproven { feature: f, why };
        if b.source == crate::scoring::BoundsSource::Reference {
            continue; // checked against the configuration by the recomputation's track step
        }
        let (Some(c), Some(cp)) = (
            t.columns.iter().find(|c| c.feature == f),
            tp.columns.iter().find(|c| c.feature == f),
        ) else {
            out.push(fail("no column commitment is published for it".into()));
            continue;
        };
        out.extend(column_check(th, t.cohort_size, c, cp, inputs_root, b).map(fail));
    }
    out
}

fn column_check(
    th: B256,
    cohort: u64,
    c: &ColumnRecord,
    cp: &ColumnProof,
    inputs_root: B256,
    b: &crate::scoring::Bounds,
) -> Option<String> {
    if c.n != cohort {
        return Some(format!(
            "the column has {} values for a cohort of {cohort}",
            c.n
        ));
    }
    if process_proof(column_leaf(th, c.feature, c.n, c.root), &cp.proof) != inputs_root {
        return Some("its column is not committed in inputsRoot".into());
    }
    for (name, p, chunk, want) in [("P5", P_LO, &cp.lo, b.lo), ("P95", P_HI, &cp.hi, b.hi)] {
        let rank = bound_rank(c.n, p);
        match chunk.value_at(c.root, c.n, rank) {
            Ok(v) if v == want => {}
            Ok(v) => {
                return Some(format!(
                    "{name} is {want}, but rank {rank} of the committed column holds {v}"
                ))
            }
            Err(e) => return Some(format!("{name}: {e}")),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{check_human_in, check_score_in, ScoreFinding};
    use crate::fixtures::cohort;
    use crate::scoring::build_epoch;

    fn packs() -> (EpochBundle, Packs) {
        let b = build_epoch(&cohort(200)).unwrap();
        let p = build_packs(&b, None).unwrap();
        (b, p)
    }

    fn track_of<'a>(p: &'a Packs, pack: &ProjectPack) -> Option<&'a TrackPack> {
        let name = &pack.record.as_ref()?.track;
        p.tracks.iter().find(|t| &t.track.config.name == name)
    }

    #[test]
    fn every_project_checks_light_as_it_checks_full() {
        let (b, packs) = packs();
        assert!(b.tracks.iter().any(|t| !t.columns.is_empty()));
        for pack in packs.projects.iter().take(40) {
            let lp = LightProofs::new(pack, track_of(&packs, pack));
            assert!(lp.findings().is_empty(), "{:?}", lp.findings());
            let tree = lp.tree();
            let light = check_score_in(&tree, pack.project, Some(b.root), None).unwrap();
            let full = crate::check::check_score(&b, pack.project, Some(b.root), None).unwrap();
            assert!(light.findings.is_empty(), "{:?}", light.findings);
            assert_eq!(light.score_wad, full.score_wad);
            assert_eq!(light.proof, full.proof);
            assert!(light.leaf_reaches_chain);
            if let Some(r) = &light.report {
                assert!(r.matches, "{r:?}");
            }
            assert!(check_human_in(&tree, pack.project, Some(b.root), None, None).is_ok());
            assert_eq!(pack.proven_score(b.root), Some(full.score_wad));
        }
    }

    #[test]
    fn every_pack_proves_its_published_score_and_nothing_else() {
        let (b, packs) = packs();
        let published: HashMap<Address, U256> = b.score_leaves().into_iter().collect();
        assert_eq!(packs.projects.len(), published.len());
        for pack in &packs.projects {
            assert_eq!(
                pack.proven_published(b.root),
                published.get(&pack.project).copied(),
                "{}",
                pack.project
            );
            // Against another root, or with a changed value, nothing is proven.
            assert_eq!(pack.proven_published(B256::repeat_byte(7)), None);
            let mut changed = pack.clone();
            if let Some(r) = changed.record.as_mut() {
                r.published_wad += U256::from(1u8);
            }
            if let Some((h, _)) = changed.human.as_mut() {
                h.score_wad += U256::from(1u8);
            }
            assert_eq!(changed.proven_published(b.root), None);
        }
    }

    #[test]
    fn a_pack_is_small() {
        let (_, packs) = packs();
        let p = serde_json::to_string(&packs.projects[0]).unwrap().len();
        let t = serde_json::to_string(&packs.tracks[0]).unwrap().len();
        assert!(p + t < 100_000, "{p} + {t}");
    }

    #[test]
    fn a_changed_bound_or_record_is_caught() {
        let (b, packs) = packs();
        let pack = packs
            .projects
            .iter()
            .find(|p| {
                p.record.as_ref().is_some_and(|r| {
                    b.tracks
                        .iter()
                        .any(|t| t.config.name == r.track && !t.columns.is_empty())
                })
            })
            .unwrap();
        let mut tp = track_of(&packs, pack).unwrap().clone();
        tp.track.bounds[0].hi += U256::from(1u8);
        let lp = LightProofs::new(pack, Some(&tp));
        assert!(matches!(
            lp.findings(),
            [LightFinding::BoundUnproven { feature: 0, .. }]
        ));
        // a changed score cannot reach the chain's root
        let mut bad = pack.clone();
        bad.record.as_mut().unwrap().score_wad += U256::from(1u8);
        let lp = LightProofs::new(&bad, track_of(&packs, pack));
        let c = check_score_in(&lp.tree(), pack.project, Some(b.root), None).unwrap();
        assert!(!c.leaf_reaches_chain);
        assert!(c.findings.contains(&ScoreFinding::LeafMismatch));
        // a changed inputs proof fails the recomputation at inputsRoot
        let mut bad = pack.clone();
        bad.inputs_proof[0] = B256::repeat_byte(1);
        let lp = LightProofs::new(&bad, track_of(&packs, pack));
        let c = check_score_in(&lp.tree(), pack.project, Some(b.root), None).unwrap();
        if c.report.is_some() {
            assert!(c.findings.iter().any(|f| matches!(
                f,
                ScoreFinding::RecomputeDiffers {
                    step: crate::scoring::VerifyStep::InputsRoot,
                    ..
                }
            )));
        }
    }

    #[test]
    fn a_column_that_does_not_rebuild_is_refused() {
        let (mut b, _) = packs();
        let t = b.tracks.iter_mut().find(|t| !t.columns.is_empty()).unwrap();
        t.columns[0].private_values.push(U256::from(5u8));
        assert!(matches!(
            build_packs(&b, None),
            Err(PackError::Column { .. }) | Err(PackError::Root(_))
        ));
    }
}
