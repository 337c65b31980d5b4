//! One scoring epoch (C1–C5): a cohort's verified inputs plus last epoch's published scores in,
//! results and a publishable, deterministic bundle out ([`build_epoch`]).
//!
//! Pipeline per track: sort each feature column once, take the bounds (cohort P5/P95 when the
//! track has at least 20 projects, else the reference bounds, C1); per project: normalise (C1),
//! weighted raw score with penalty and the merit score (C2), gate (C3), smooth with the
//! previous published score (C4), publish `S = 100·s` as WAD points. The cohort of a track is
//! every project submitted for it this epoch (including projects the gate then zeroes).
//!
//! **Epoch tree** (C5, C27): one OpenZeppelin `standard-v1` leaf `(address project, uint256 scoreWad)`
//! per project, `scoreWad` = its published score in WAD points (the systematic `S`, or the human
//! layer's where it moved it, with `S` then in a systematic leaf), plus the human layer's quality
//! leaves ([`super::human_layer`]); its root is `root`.
//!
//! **Input commitments** (decided here; `inputsRoot` of the C6 `EpochRoot`): per project
//!
//! ```text
//! commitment = keccak256(abi.encode(
//!     bytes32 INPUTS_TAG,            // keccak256("eden.inputs.v1")
//!     address project,
//!     bytes32 trackHash,             // keccak256(bytes(track name))
//!     uint256[] features,            // raw feature values, track feature order
//!     uint256 claims, uint256 failed,
//!     uint256 verifiedOutput, uint256 ageSecs,
//!     bytes32 salt))                 // the project's salt if its inputs are private, else 0x00…00
//! ```
//!
//! and `inputsRoot` is the root of the `standard-v1` tree of leaves `(address project, bytes32 commitment)`.
//! Private inputs need a non-zero salt; the bundle then publishes only the commitment and a digest
//! of the normalised features (published for every project):
//! `normalisedDigest = keccak256(x̂₁ ‖ … ‖ x̂ₖ)` with each `x̂ᵢ ≤ 10^18` as 8 big-endian bytes
//! (`abi.encodePacked(uint64 x̂₁, …, uint64 x̂ₖ)`; one keccak block for up to 16 features). Public projects also get their inputs in the bundle, so anyone
//! can recompute them from the bundle alone.
//!
//! **Determinism**: projects are ordered by address and tracks by name, whatever the input
//! order; the JSON ([`EpochBundle::to_json`]) has a fixed field order, so two runs give
//! byte-identical bundles. Previous scores of addresses that are not in this epoch's inputs are
//! ignored (a live project in an outage must still be submitted, with its failing inputs).

pub use super::bundle::{
    epoch_tree, EpochBundle, EpochError, EpochInput, PreviousScore, ProjectData, ProjectInput,
    ProjectRecord, TrackRecord, BUNDLE_FORMAT,
};

use super::columns::{column_leaves, column_root, ColumnRecord};
use super::config::{ForgeryTier, TrackConfig};
use super::gate::{gate_check, GateCheck};
use super::human_layer::{build_human_layer, HumanMode};
use super::normalise::{normalise_wad_u128, Bounds, N_MIN};
use super::raw::weighted_down;
use super::smooth::{smooth_u128, unit_from_points, POINTS_PER_UNIT};
use super::tree;
use crate::leaves::{
    systematic_leaf, INPUTS_LEAF_ENCODING, QUALITY_LEAF_ENCODING, SCORE_LEAF_ENCODING,
    SYSTEMATIC_LEAF_ENCODING,
};
use alloy_primitives::{keccak256, Address, B256, U256};

/// Preimage of the commitment domain tag `INPUTS_TAG = keccak256("eden.inputs.v1")`.
pub const INPUTS_TAG_PREIMAGE: &str = "eden.inputs.v1";

const WAD_U128: u128 = 1_000_000_000_000_000_000;

/// The commitment domain tag `keccak256("eden.inputs.v1")`.
pub fn inputs_tag() -> B256 {
    keccak256(INPUTS_TAG_PREIMAGE.as_bytes())
}

/// The input commitment of a project (see the module doc); `salt` is used as given
/// (pass zero for public inputs).
pub fn input_commitment(project: Address, data: &ProjectData, salt: B256) -> B256 {
    let mut buf = Vec::new();
    encode_commitment(
        &mut buf,
        &inputs_tag(),
        project,
        &keccak256(data.track.as_bytes()),
        data,
        salt,
    );
    keccak256(&buf)
}

/// `abi.encode(tag, project, trackHash, features, claims, failed, verifiedOutput, ageSecs, salt)` into `buf`.
pub(crate) fn encode_commitment(
    buf: &mut Vec<u8>,
    tag: &B256,
    project: Address,
    track_hash: &B256,
    d: &ProjectData,
    salt: B256,
) {
    buf.clear();
    let word_u = |buf: &mut Vec<u8>, x: U256| buf.extend_from_slice(&x.to_be_bytes::<32>());
    buf.extend_from_slice(tag.as_slice());
    buf.extend_from_slice(&[0u8; 12]);
    buf.extend_from_slice(project.as_slice());
    buf.extend_from_slice(track_hash.as_slice());
    word_u(buf, U256::from(9u32 * 32)); // offset of the dynamic array: after 9 head words
    word_u(buf, U256::from(d.claims));
    word_u(buf, U256::from(d.failed));
    word_u(buf, d.verified_output);
    word_u(buf, U256::from(d.age_secs));
    buf.extend_from_slice(salt.as_slice());
    word_u(buf, U256::from(d.features.len()));
    for f in &d.features {
        word_u(buf, *f);
    }
}

/// `keccak256(abi.encodePacked(uint64 x̂₁, …, uint64 x̂ₖ))` using `buf` as scratch
/// (every `x̂ ≤ 10^18 < 2^64`).
pub(crate) fn normalised_digest(buf: &mut Vec<u8>, xhat: &[u128]) -> B256 {
    buf.clear();
    for x in xhat {
        buf.extend_from_slice(&u64::try_from(*x).unwrap_or(u64::MAX).to_be_bytes());
    }
    keccak256(&buf)
}

/// A validated track, ready for the hot loop.
pub(crate) struct PreparedTrack {
    /// Weights, WAD (≤ 10^18 each).
    weights: Vec<u128>,
    /// Self-reported flags.
    self_reported: Vec<bool>,
    lambda: u128,
    min_raw: U256,
    min_output: U256,
    min_age_secs: u64,
}

impl PreparedTrack {
    /// Requires a validated config.
    pub(crate) fn new(c: &TrackConfig) -> PreparedTrack {
        PreparedTrack {
            weights: c.weights_u128(),
            self_reported: c
                .features
                .iter()
                .map(|f| f.tier == ForgeryTier::SelfReported)
                .collect(),
            lambda: c.penalty_lambda_wad.saturating_to::<u128>(),
            min_raw: c.min_raw_wad,
            min_output: c.min_output,
            min_age_secs: c.min_age_secs,
        }
    }
}

/// Every step of one project's score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Steps {
    pub weighted: u128,
    pub penalty: u128,
    pub raw: u128,
    pub merit: u128,
    pub gate: GateCheck,
    pub gated: u128,
    pub smoothed: u128,
    pub points: U256,
}

/// Normalises into `xhat` (cleared first); requires `features.len() == bounds.len()`.
pub(crate) fn normalise_into(xhat: &mut Vec<u128>, features: &[U256], bounds: &[Bounds]) {
    xhat.clear();
    xhat.extend(
        features
            .iter()
            .zip(bounds)
            .map(|(x, b)| normalise_wad_u128(*x, b.lo, b.hi)),
    );
}

/// Raw → gate → smooth → publish for one project whose normalised features are `xhat`.
/// Requires a prepared (validated) track, `xhat.len() == weights.len()`, `failed ≤ claims`,
/// `previous_s ≤ 10^18`.
pub(crate) fn score_steps(
    t: &PreparedTrack,
    d: &ProjectData,
    xhat: &[u128],
    previous_s: u128,
) -> Steps {
    let terms = t
        .weights
        .iter()
        .zip(xhat)
        .zip(&t.self_reported)
        .map(|((w, x), s)| (*w, *x, *s));
    // Σw = 1 WAD and x̂ ≤ 1 WAD: Σ w·x̂ ≤ 10^36 < u128::MAX, so no overflow.
    let (weighted, merit_weighted) = weighted_down(terms).unwrap_or((0, 0));
    let penalty = if d.claims == 0 {
        0
    } else {
        (t.lambda.saturating_mul(u128::from(d.failed.min(d.claims)))).div_ceil(u128::from(d.claims))
    };
    let raw = weighted.saturating_sub(penalty).min(WAD_U128);
    let merit = merit_weighted.saturating_sub(penalty).min(WAD_U128);
    let gate = gate_check(
        U256::from(merit),
        t.min_raw,
        d.verified_output >= t.min_output,
        d.age_secs >= t.min_age_secs,
    );
    let gated = if gate.passed { raw } else { 0 };
    let smoothed = smooth_u128(previous_s.min(WAD_U128), gated);
    Steps {
        weighted,
        penalty,
        raw,
        merit,
        gate,
        gated,
        smoothed,
        points: U256::from(smoothed) * U256::from(POINTS_PER_UNIT),
    }
}

fn project_err(index: usize, field: &'static str, message: impl Into<String>) -> EpochError {
    EpochError::Project {
        index,
        field,
        message: message.into(),
    }
}

/// Validates the tracks; returns them sorted by name with their original indices.
pub(crate) fn sorted_tracks(tracks: &[TrackConfig]) -> Result<Vec<&TrackConfig>, EpochError> {
    for (i, t) in tracks.iter().enumerate() {
        t.validate()
            .map_err(|source| EpochError::Track { index: i, source })?;
        if tracks[..i].iter().any(|u| u.name == t.name) {
            return Err(EpochError::DuplicateTrack {
                index: i,
                name: t.name.clone(),
            });
        }
    }
    let mut sorted: Vec<&TrackConfig> = tracks.iter().collect();
    sorted.sort_unstable_by(|a, b| a.name.cmp(&b.name));
    Ok(sorted)
}

/// Builds the epoch: validates everything, scores every project, builds both trees.
///
/// # Errors
/// [`EpochError`] naming the offending field (`tracks[i]…`, `projects[i]…`, `previous[i]…`).
pub fn build_epoch(input: &EpochInput) -> Result<EpochBundle, EpochError> {
    let tracks = sorted_tracks(&input.tracks)?;
    if input.projects.is_empty() {
        return Err(EpochError::NoProjects);
    }
    // Validate projects and resolve their tracks.
    let mut track_of = Vec::with_capacity(input.projects.len());
    for (i, p) in input.projects.iter().enumerate() {
        let t = tracks
            .binary_search_by(|t| t.name.as_str().cmp(p.data.track.as_str()))
            .map_err(|_| project_err(i, "track", format!("unknown track '{}'", p.data.track)))?;
        let want = tracks[t].features.len();
        if p.data.features.len() != want {
            return Err(project_err(
                i,
                "features",
                format!(
                    "track '{}' has {want} features, got {} values",
                    p.data.track,
                    p.data.features.len()
                ),
            ));
        }
        if p.data.failed > p.data.claims {
            return Err(project_err(
                i,
                "failed",
                format!(
                    "{} failed claims exceed the {} claims made",
                    p.data.failed, p.data.claims
                ),
            ));
        }
        if p.private && p.salt.is_zero() {
            return Err(project_err(
                i,
                "salt",
                "private inputs need a non-zero salt",
            ));
        }
        track_of.push(t);
    }
    // Deterministic order: by address.
    let mut order: Vec<usize> = (0..input.projects.len()).collect();
    order.sort_unstable_by_key(|&i| input.projects[i].project);
    for w in order.windows(2) {
        if input.projects[w[0]].project == input.projects[w[1]].project {
            let later = w[0].max(w[1]);
            return Err(project_err(
                later,
                "project",
                format!("duplicate project {}", input.projects[later].project),
            ));
        }
    }
    if let Some(e) = input.previous_epoch.filter(|e| *e >= input.epoch) {
        return Err(EpochError::Previous {
            index: 0,
            field: "previousEpoch",
            message: format!("epoch {e} is not before epoch {}", input.epoch),
        });
    }
    // Previous scores: sorted by address, checked, as s = S/100.
    let mut previous: Vec<(Address, u128)> = Vec::with_capacity(input.previous.len());
    for (i, p) in input.previous.iter().enumerate() {
        let s = unit_from_points(p.score_wad, "scoreWad").map_err(|e| EpochError::Previous {
            index: i,
            field: "scoreWad",
            message: e.to_string(),
        })?;
        previous.push((p.project, s.to::<u128>()));
    }
    previous.sort_unstable_by_key(|p| p.0);
    for w in previous.windows(2) {
        if w[0].0 == w[1].0 {
            let index = input
                .previous
                .iter()
                .rposition(|p| p.project == w[0].0)
                .unwrap_or(0);
            return Err(EpochError::Previous {
                index,
                field: "project",
                message: format!("duplicate project {}", w[0].0),
            });
        }
    }
    // Bounds per track: sort each feature column once.
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); tracks.len()];
    for &i in &order {
        members[track_of[i]].push(i);
    }
    // One job per (track, feature), in that order (on every core with the `native` feature).
    let jobs: Vec<(usize, usize)> = tracks
        .iter()
        .enumerate()
        .flat_map(|(t, cfg)| (0..cfg.features.len()).map(move |f| (t, f)))
        .collect();
    let built = crate::par::map_init(&jobs, Vec::new, |column: &mut Vec<U256>, &(t, f)| {
        let feat = &tracks[t].features[f];
        column.clear();
        column.extend(
            members[t]
                .iter()
                .map(|&i| input.projects[i].data.features[f]),
        );
        column.sort_unstable();
        let bounds = Bounds::for_sorted_column(column, feat.ref_lo, feat.ref_hi);
        // C22: a cohort-normalised column is committed to in the inputs tree.
        let record = (column.len() >= N_MIN).then(|| {
            let mut private_values: Vec<U256> = members[t]
                .iter()
                .filter(|&&i| input.projects[i].private)
                .map(|&i| input.projects[i].data.features[f])
                .collect();
            private_values.sort_unstable();
            ColumnRecord {
                feature: f as u64,
                n: column.len() as u64,
                root: column_root(column),
                private_values,
            }
        });
        (bounds, record)
    });
    let mut built = built.into_iter();
    let mut track_records = Vec::with_capacity(tracks.len());
    for (t, cfg) in tracks.iter().enumerate() {
        let (bounds, columns): (Vec<Bounds>, Vec<Option<ColumnRecord>>) =
            built.by_ref().take(cfg.features.len()).unzip();
        track_records.push(TrackRecord {
            config: (*cfg).clone(),
            cohort_size: members[t].len() as u64,
            bounds,
            columns: columns.into_iter().flatten().collect(),
        });
    }
    let prepared: Vec<PreparedTrack> = tracks.iter().map(|c| PreparedTrack::new(c)).collect();
    // Hot loop.
    let tag = inputs_tag();
    let track_hashes: Vec<B256> = tracks
        .iter()
        .map(|t| keccak256(t.name.as_bytes()))
        .collect();
    // Every project's steps, leaf and commitment (on every core with the `native` feature), in
    // address order.
    let scored = crate::par::map_init(
        &order,
        || (Vec::<u128>::new(), Vec::<u8>::new()),
        |(xhat, buf), &i| {
            let p = &input.projects[i];
            let t = track_of[i];
            normalise_into(xhat, &p.data.features, &track_records[t].bounds);
            let prev_s = previous
                .binary_search_by_key(&p.project, |q| q.0)
                .map(|k| previous[k].1)
                .unwrap_or(0);
            let st = score_steps(&prepared[t], &p.data, xhat, prev_s);
            let leaf = tree::score_leaf(p.project, st.points);
            let digest = normalised_digest(buf, xhat);
            let salt = if p.private { p.salt } else { B256::ZERO };
            encode_commitment(buf, &tag, p.project, &track_hashes[t], &p.data, salt);
            let commitment = keccak256(&buf[..]);
            let record = ProjectRecord {
                project: p.project,
                track: tracks[t].name.clone(),
                private: p.private,
                commitment,
                inputs: (!p.private).then(|| p.data.clone()),
                normalised_digest: digest,
                weighted_wad: U256::from(st.weighted),
                penalty_wad: U256::from(st.penalty),
                raw_wad: U256::from(st.raw),
                merit_wad: U256::from(st.merit),
                gate: st.gate,
                gated_wad: U256::from(st.gated),
                previous_score_wad: U256::from(prev_s) * U256::from(POINTS_PER_UNIT),
                smoothed_wad: U256::from(st.smoothed),
                score_wad: st.points,
                // The systematic score until the human layer moves it (below).
                published_wad: st.points,
                leaf,
                systematic_leaf: None,
            };
            (record, tree::inputs_leaf(p.project, commitment))
        },
    );
    let mut records = Vec::with_capacity(order.len());
    let mut input_leaves = Vec::with_capacity(order.len());
    for (record, input_leaf) in scored {
        input_leaves.push(input_leaf);
        records.push(record);
    }
    let (theses, human) = build_human_layer(&input.theses, &input.pre_data, &records)?;
    // C27: a project the epoch grades theses on publishes its envelope score in its one score leaf.
    for h in human.iter().filter(|h| h.mode == HumanMode::Envelope) {
        if let Ok(i) = records.binary_search_by_key(&h.project, |r| r.project) {
            let r = &mut records[i];
            r.published_wad = h.score_wad;
            r.leaf = h.leaf;
            r.systematic_leaf = Some(systematic_leaf(r.project, r.score_wad));
        }
    }
    // Column leaves (C22), then a grade leaf per graded thesis with a grading record (C8): the
    // bundle's own [`EpochBundle::inputs_extra_leaves`], in the same order.
    for tr in &track_records {
        input_leaves.extend(column_leaves(&tr.config.name, &tr.columns));
    }
    input_leaves.extend(
        theses
            .iter()
            .filter(|t| !t.grade_record.is_zero())
            .map(|t| crate::leaves::grade_leaf(t.scorer_registry, t.score_id, t.grade_record)),
    );
    // C10a: with a cutoff, `L_E` = what the input carried ∪ this cohort; a pre-data project must not be in
    // it (its first attested systematic score ended pre-data for good).
    let left_pre_data = match input.human_as_of {
        Some(_) => {
            let cohort: Vec<Address> = records.iter().map(|r| r.project).collect();
            let left = super::counting::left_pre_data(&input.left_pre_data, &[], &cohort);
            if let Some(i) = input
                .pre_data
                .iter()
                .position(|p| left.binary_search(&p.project).is_ok())
            {
                return Err(EpochError::PreData {
                    index: i,
                    field: "project",
                    message: format!(
                        "{} had an attested systematic score in an earlier epoch, so it left pre-data for good (C10a)",
                        input.pre_data[i].project
                    ),
                });
            }
            left
        }
        None => Vec::new(),
    };
    if let Some(a) = input.human_as_of {
        input_leaves.push(crate::leaves::human_cutoff_leaf(
            a.block,
            a.time,
            super::counting::left_pre_data_hash(&left_pre_data),
        ));
    }
    let inputs_root = tree::root(input_leaves).ok_or(EpochError::NoProjects)?;
    let encoding = |e: &[&str], any: bool| {
        if any {
            e.iter().map(|s| s.to_string()).collect()
        } else {
            Vec::new()
        }
    };
    let mut bundle = EpochBundle {
        quality_leaf_encoding: encoding(&QUALITY_LEAF_ENCODING, !theses.is_empty()),
        systematic_leaf_encoding: encoding(
            &SYSTEMATIC_LEAF_ENCODING,
            records.iter().any(|r| r.systematic_leaf.is_some()),
        ),
        theses,
        human,
        format: BUNDLE_FORMAT.into(),
        epoch: input.epoch,
        previous_epoch: input.previous_epoch,
        root: B256::ZERO,
        inputs_root,
        score_leaf_encoding: encoding(&SCORE_LEAF_ENCODING, true),
        inputs_leaf_encoding: encoding(&INPUTS_LEAF_ENCODING, true),
        tracks: track_records,
        projects: records,
        human_as_of: input.human_as_of,
        left_pre_data,
    };
    // The signed root is over the bundle's own leaf list (one definition of the epoch's leaves).
    bundle.root = tree::root(bundle.leaves()).ok_or(EpochError::NoProjects)?;
    Ok(bundle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{parse_wad, WAD};
    use alloy_sol_types::SolValue;

    fn w(s: &str) -> U256 {
        parse_wad(s).unwrap()
    }

    pub(crate) use crate::fixtures::{addr, cohort};

    #[test]
    fn commitment_encoding_is_abi_encode() {
        let d = ProjectData {
            track: "agents".into(),
            features: vec![U256::from(5u8), U256::MAX, U256::ZERO],
            claims: 3,
            failed: 1,
            verified_output: U256::from(77u8),
            age_secs: 1234,
        };
        let p = addr(42);
        let salt = B256::repeat_byte(0xab);
        let want = (
            inputs_tag(),
            p,
            keccak256(b"agents"),
            d.features.clone(),
            U256::from(3u8),
            U256::from(1u8),
            U256::from(77u8),
            U256::from(1234u32),
            salt,
        )
            .abi_encode_params();
        let mut buf = Vec::new();
        encode_commitment(&mut buf, &inputs_tag(), p, &keccak256(b"agents"), &d, salt);
        assert_eq!(buf, want);
        assert_eq!(input_commitment(p, &d, salt), keccak256(&want));
    }

    #[test]
    fn seed_cohort_end_to_end() {
        // 20 agents whose first feature is the §2.2 cohort; every other feature 0.
        let vals = [
            3u64, 5, 6, 8, 9, 10, 11, 12, 12, 14, 15, 16, 18, 19, 20, 22, 24, 25, 28, 400,
        ];
        let mut t = TrackConfig::agents();
        // one money-verified feature carrying all the weight would break nothing: keep preset weights
        t.min_age_secs = 0;
        let projects: Vec<ProjectInput> = vals
            .iter()
            .enumerate()
            .map(|(i, &v)| ProjectInput {
                project: addr(i as u64),
                data: ProjectData {
                    track: "agents".into(),
                    features: vec![U256::from(v), U256::ZERO, U256::ZERO, U256::ZERO],
                    claims: 0,
                    failed: 0,
                    verified_output: U256::from(1u8),
                    age_secs: 0,
                },
                salt: B256::ZERO,
                private: false,
            })
            .collect();
        let b = build_epoch(&EpochInput {
            epoch: 1,
            tracks: vec![t],
            projects,
            previous: vec![],
            ..Default::default()
        })
        .unwrap();
        let tr = &b.tracks[0];
        assert_eq!(tr.cohort_size, 20);
        assert_eq!(
            (tr.bounds[0].lo, tr.bounds[0].hi),
            (U256::from(3u8), U256::from(28u8))
        );
        let rec = |i: u64| b.projects.iter().find(|p| p.project == addr(i)).unwrap();
        // 14 → 0.44 → raw 0.4·0.44 = 0.176 → s = 0.0704 → S = 7.04
        let r14 = rec(9);
        let norm =
            |i: u64| crate::scoring::normalise_value(U256::from(vals[i as usize]), &tr.bounds[0]);
        assert_eq!(norm(9), w("0.44"));
        assert_eq!(r14.raw_wad, w("0.176"));
        assert_eq!(r14.smoothed_wad, w("0.0704"));
        assert_eq!(r14.score_wad, w("7.04"));
        // 400 → 1.0
        assert_eq!(norm(19), WAD);
        assert_eq!(rec(19).raw_wad, w("0.4"));
    }

    #[test]
    fn deterministic_and_order_independent() {
        let input = cohort(60);
        let a = build_epoch(&input).unwrap().to_json().unwrap();
        let b = build_epoch(&input).unwrap().to_json().unwrap();
        assert_eq!(a, b);
        let mut shuffled = input.clone();
        // deterministic shuffle
        let n = shuffled.projects.len();
        for i in 0..n {
            let j = (i * 7 + 3) % n;
            shuffled.projects.swap(i, j);
        }
        shuffled.projects.reverse();
        shuffled.previous.reverse();
        shuffled.tracks.reverse();
        let c = build_epoch(&shuffled).unwrap().to_json().unwrap();
        assert_eq!(a, c);
        // round trip
        let parsed = EpochBundle::from_json(&a).unwrap();
        assert_eq!(parsed.to_json().unwrap(), a);
    }

    /// C23: the compact encoding is deterministic, reads back to the same bundle (columns, private
    /// projects, previous scores included), is told apart from JSON by its first bytes, and is much
    /// smaller than the JSON.
    #[test]
    fn compact_bundle_round_trips() {
        let mut input = cohort(60);
        input.previous_epoch = Some(3);
        let b = build_epoch(&input).unwrap();
        assert!(!b.tracks[0].columns.is_empty());
        let packed = b.to_msgpack().unwrap();
        assert_eq!(b.to_msgpack().unwrap(), packed);
        assert_eq!(EpochBundle::from_bytes(&packed).unwrap(), b);
        let json = b.to_json().unwrap();
        assert_eq!(EpochBundle::from_bytes(json.as_bytes()).unwrap(), b);
        assert!(
            packed.len() * 10 < json.len() * 7,
            "{} vs {}",
            packed.len(),
            json.len()
        );
        // Either form with another format tag is refused.
        let mut other = b.clone();
        other.format = "eden-epoch-bundle-v0".into();
        let e = EpochBundle::from_bytes(&other.to_msgpack().unwrap()).unwrap_err();
        assert!(
            matches!(&e, crate::decode::DecodeError::Format { found, .. } if found == "eden-epoch-bundle-v0"),
            "{e}"
        );
        let e = EpochBundle::from_bytes(other.to_json().unwrap().as_bytes()).unwrap_err();
        assert!(e.to_string().starts_with("format"), "{e}");
        // A truncated or garbled publication is an error naming where, never a panic.
        for cut in [4, packed.len() / 3, packed.len() - 1] {
            assert!(EpochBundle::from_bytes(&packed[..cut]).is_err());
        }
        let mut garbled = packed.clone();
        let at = garbled.len() / 2;
        garbled[at] ^= 0xff;
        let _ = EpochBundle::from_bytes(&garbled);
        assert!(EpochBundle::from_bytes(b"\xff\xfe").is_err());
    }

    #[test]
    fn bundle_contents() {
        let input = cohort(40);
        let b = build_epoch(&input).unwrap();
        assert_eq!(b.projects.len(), 43);
        assert!(b.projects.windows(2).all(|w| w[0].project < w[1].project));
        assert_eq!(
            b.tracks
                .iter()
                .map(|t| t.config.name.as_str())
                .collect::<Vec<_>>(),
            ["agents", "apps"]
        );
        assert_eq!(
            b.tracks[0].bounds[0].source,
            crate::scoring::BoundsSource::Cohort
        );
        assert_eq!(
            b.tracks[1].bounds[0].source,
            crate::scoring::BoundsSource::Reference
        );
        for p in &b.projects {
            assert_eq!(p.private, p.inputs.is_none());
            assert_eq!(p.leaf, tree::score_leaf(p.project, p.score_wad));
            assert_eq!(p.score_wad, p.smoothed_wad * U256::from(100u8));
            let orig = input
                .projects
                .iter()
                .find(|q| q.project == p.project)
                .unwrap();
            let salt = if orig.private { orig.salt } else { B256::ZERO };
            assert_eq!(p.commitment, input_commitment(p.project, &orig.data, salt));
            if !p.gate.passed {
                assert_eq!(p.gated_wad, U256::ZERO);
            }
        }
        // previous scores are used: addr(1) had 40 points → s_prev 0.4
        let p1 = b.projects.iter().find(|p| p.project == addr(1)).unwrap();
        assert_eq!(p1.previous_score_wad, w("40"));
        let want = (U256::from(4u8) * p1.gated_wad + U256::from(6u8) * w("0.4")) / U256::from(10u8);
        assert_eq!(p1.smoothed_wad, want);
        let json = b.to_json().unwrap();
        assert!(json.contains("\"scoreLeafEncoding\":[\"address\",\"uint256\"]"));
        assert!(json.contains("\"inputsRoot\":\"0x"));
        // private inputs are not published
        let private = b.projects.iter().find(|p| p.private).unwrap();
        assert!(!json.contains(&format!("\"project\":\"{:#x}\",\"track\":\"agents\",\"private\":true,\"commitment\":\"{:#x}\",\"inputs\"", private.project, private.commitment)));
    }

    #[test]
    fn errors_name_the_field() {
        let base = cohort(5);
        let e = |f: &dyn Fn(&mut EpochInput)| {
            let mut i = base.clone();
            f(&mut i);
            build_epoch(&i).unwrap_err().to_string()
        };
        assert!(e(&|i| i.projects[2].data.track = "x".into()).starts_with("projects[2].track"));
        assert!(
            e(&|i| i.projects[1].data.features.pop().map(|_| ()).unwrap_or(()))
                .starts_with("projects[1].features")
        );
        assert!(e(&|i| i.projects[3].data.failed = 99).starts_with("projects[3].failed"));
        assert!(e(&|i| i.projects[0].salt = B256::ZERO).starts_with("projects[0].salt"));
        assert!(e(&|i| i.projects[4].project = i.projects[1].project)
            .starts_with("projects[4].project"));
        assert!(e(&|i| i.previous[0].score_wad = w("100.5")).starts_with("previous[0].scoreWad"));
        assert!(e(&|i| i.previous.push(i.previous[0])).starts_with("previous[2].project"));
        assert!(e(&|i| i.tracks[1].features[0].weight_wad = U256::ZERO)
            .starts_with("tracks[1].features"));
        assert!(e(&|i| i.tracks.push(TrackConfig::agents())).starts_with("tracks[2].name"));
        assert!(e(&|i| i.projects.clear()).starts_with("projects:"));
    }

    fn any_value() -> impl proptest::strategy::Strategy<Value = U256> {
        use proptest::prelude::*;
        prop_oneof![
            (0u64..2_000).prop_map(U256::from),
            any::<u128>().prop_map(U256::from),
            any::<[u64; 4]>().prop_map(U256::from_limbs),
        ]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        /// Any cohort either is rejected with an error or builds, and then every project
        /// verifies against the bundle, with scores in [0, 100] points.
        #[test]
        fn any_cohort_builds_and_verifies(
            rows in proptest::collection::vec(
                (proptest::collection::vec(any_value(), 4), 0u64..6, 0u64..6, 0u64..3, proptest::prelude::any::<bool>(), 0u64..3),
                1..45,
            ),
            prev in proptest::collection::vec(0u64..=100, 0..10),
        ) {
            let projects: Vec<ProjectInput> = rows
                .iter()
                .enumerate()
                .map(|(i, (f, claims, failed, out, private, track))| ProjectInput {
                    project: addr(i as u64),
                    data: ProjectData {
                        track: ["agents", "research", "apps"][*track as usize].into(),
                        features: f.clone(),
                        claims: *claims,
                        failed: *failed,
                        verified_output: U256::from(*out),
                        age_secs: if i % 4 == 0 { 0 } else { 10_000_000 },
                    },
                    salt: B256::from(U256::from(i as u64 + 1)),
                    private: *private,
                })
                .collect();
            let previous = prev
                .iter()
                .enumerate()
                .map(|(i, p)| PreviousScore { project: addr(i as u64), score_wad: U256::from(*p) * WAD })
                .collect();
            let input = EpochInput {
                epoch: 1,
                tracks: vec![TrackConfig::agents(), TrackConfig::research(), TrackConfig::apps()],
                projects,
                previous,
                ..Default::default()
            };
            match build_epoch(&input) {
                Err(e) => proptest::prop_assert!(e.to_string().starts_with("projects["), "{}", e),
                Ok(b) => {
                    for p in &input.projects {
                        let rep = crate::scoring::verify_project_score(&b, p.project, &p.data, p.salt);
                        proptest::prop_assert!(rep.matches, "{:?}", rep);
                    }
                    for r in &b.projects {
                        proptest::prop_assert!(r.score_wad <= WAD * U256::from(100u8));
                        proptest::prop_assert!(r.gated_wad <= r.raw_wad && r.merit_wad <= r.raw_wad);
                    }
                }
            }
        }
    }
}
