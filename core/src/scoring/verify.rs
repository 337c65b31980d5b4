//! Verifying one project's published score against an epoch bundle (C1–C5).
//!
//! [`verify_project_score`] takes the bundle, a project's address, its own inputs and salt, and
//! recomputes every step with the bundle's published track parameters and bounds, comparing each
//! with the bundle, in this order:
//!
//! 1. `project`: the project has a record in the bundle;
//! 2. `track`: same track, the track's configuration is valid and its bounds are consistent
//!    (reference bounds exactly when the cohort has fewer than 20 projects);
//! 3. `commitment`: the salted (private) or unsalted (public) input commitment equals the record's;
//! 4. `inputsRoot`: the commitment tree built from the bundle (with its column commitments, C22) has
//!    root `inputsRoot`;
//! 5. `normalised`: the digest `keccak256(abi.encodePacked(uint64 x̂₁, …, uint64 x̂ₖ))`;
//! 6. `raw`: weighted sum, penalty, raw and merit scores;
//! 7. `gate`: the gate outcome and `g`;
//! 8. `smoothed`: `s_t` from the record's previous published score;
//! 9. `published`: `S = 100·s`, WAD points;
//! 10. `leaf`: the score leaf `(project, P)`, `P` the published score (C27): the bundle's envelope
//!     score for the project when the epoch grades theses on it (checked by the human layer's own
//!     check), else `S`;
//! 11. `root`: the score tree of the bundle's leaves (this project's recomputed) has root `root`,
//!     and this leaf's Merkle proof reaches it.
//!
//! The report lists every step checked and names the **first** one that differs. A step that
//! cannot be computed (no record, unknown track, wrong feature count) ends the report there.

use super::bundle::{ProjectRecord, TrackRecord};
use super::epoch::{
    input_commitment, normalise_into, normalised_digest, score_steps, EpochBundle, PreparedTrack,
    ProjectData, Steps,
};
use super::normalise::{BoundsSource, N_MIN};
use super::smooth::unit_from_points;
use super::tree;
use crate::serde_dec;
use alloy_primitives::{Address, B256, U256};
use serde::{Deserialize, Serialize};

/// A verification step (serialised camelCase: `"inputsRoot"`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum VerifyStep {
    /// The project has a record.
    Project,
    /// Track, configuration and bounds.
    Track,
    /// Input commitment.
    Commitment,
    /// Commitment tree root.
    InputsRoot,
    /// Normalised features.
    Normalised,
    /// Weighted, penalty, raw, merit.
    Raw,
    /// Gate outcome and `g`.
    Gate,
    /// `s_t`.
    Smoothed,
    /// `S = 100·s`.
    Published,
    /// Score leaf.
    Leaf,
    /// Score tree root.
    Root,
}

impl VerifyStep {
    /// The step's name as serialised: `"project"`, `"inputsRoot"`, ….
    pub fn name(self) -> &'static str {
        match self {
            VerifyStep::Project => "project",
            VerifyStep::Track => "track",
            VerifyStep::Commitment => "commitment",
            VerifyStep::InputsRoot => "inputsRoot",
            VerifyStep::Normalised => "normalised",
            VerifyStep::Raw => "raw",
            VerifyStep::Gate => "gate",
            VerifyStep::Smoothed => "smoothed",
            VerifyStep::Published => "published",
            VerifyStep::Leaf => "leaf",
            VerifyStep::Root => "root",
        }
    }
}

/// One step's comparison.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct StepCheck {
    /// Which step.
    pub step: VerifyStep,
    /// Whether the recomputed value equals the bundle's.
    pub ok: bool,
    /// The bundle's value (display form).
    pub expected: String,
    /// The recomputed value (display form).
    pub computed: String,
}

/// The verification report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct VerifyReport {
    /// The project.
    pub project: Address,
    /// Every step matched.
    pub matches: bool,
    /// The first step that differs.
    pub first_mismatch: Option<VerifyStep>,
    /// The recomputed published score (WAD points), when computed.
    #[serde(default, with = "opt_dec")]
    pub score_wad: Option<U256>,
    /// The recomputed normalised features (WAD), when computed.
    #[serde(with = "serde_dec::u256_vec")]
    pub normalised: Vec<U256>,
    /// Steps checked, in order.
    pub steps: Vec<StepCheck>,
}

mod opt_dec {
    use alloy_primitives::U256;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(v: &Option<U256>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(x) => s.collect_str(x),
            None => s.serialize_none(),
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<U256>, D::Error> {
        #[derive(Deserialize)]
        struct W(#[serde(with = "crate::serde_dec::u256")] U256);
        Ok(Option::<W>::deserialize(d)?.map(|w| w.0))
    }
}

struct Report {
    steps: Vec<StepCheck>,
    normalised: Vec<U256>,
}

impl Report {
    fn new() -> Self {
        Report {
            steps: Vec::new(),
            normalised: Vec::new(),
        }
    }

    fn check(
        &mut self,
        step: VerifyStep,
        expected: impl ToString,
        computed: impl ToString,
    ) -> bool {
        let (expected, computed) = (expected.to_string(), computed.to_string());
        let ok = expected == computed;
        self.steps.push(StepCheck {
            step,
            ok,
            expected,
            computed,
        });
        ok
    }

    fn fail(&mut self, step: VerifyStep, expected: impl ToString, computed: impl ToString) {
        self.steps.push(StepCheck {
            step,
            ok: false,
            expected: expected.to_string(),
            computed: computed.to_string(),
        });
    }

    fn finish(self, project: Address, score: Option<U256>) -> VerifyReport {
        let first_mismatch = self.steps.iter().find(|s| !s.ok).map(|s| s.step);
        VerifyReport {
            project,
            matches: first_mismatch.is_none(),
            first_mismatch,
            score_wad: score,
            normalised: self.normalised,
            steps: self.steps,
        }
    }
}

fn steps_str(s: &Steps) -> [String; 3] {
    [
        format!(
            "weighted {} penalty {} raw {} merit {}",
            s.weighted, s.penalty, s.raw, s.merit
        ),
        format!(
            "passed {} (merit {}, output {}, age {}) gated {}",
            s.gate.passed, s.gate.merit_ok, s.gate.output_ok, s.gate.age_ok, s.gated
        ),
        s.smoothed.to_string(),
    ]
}

/// Recomputes `project`'s score from its own `inputs` and `salt` against `bundle`, step by step.
/// `salt` is ignored for a project whose record is public.
pub fn verify_project_score(
    bundle: &EpochBundle,
    project: Address,
    inputs: &ProjectData,
    salt: B256,
) -> VerifyReport {
    // 1. project
    let Some(rec) = bundle.projects.iter().find(|p| p.project == project) else {
        let mut r = Report::new();
        r.fail(VerifyStep::Project, "a record for the project", "none");
        return r.finish(project, None);
    };
    let tr = bundle.tracks.iter().find(|t| t.config.name == rec.track);
    let counted = bundle
        .projects
        .iter()
        .filter(|p| p.track == rec.track)
        .count() as u64;
    let anchors = Anchors {
        // 4. the commitment tree built from every record (this project's recomputed) and the
        // tracks' column commitments (C22) has root `inputsRoot`.
        inputs_root: &|commitment: B256| {
            let mut leaves: Vec<B256> = bundle
                .projects
                .iter()
                .map(|p| {
                    tree::inputs_leaf(
                        p.project,
                        if p.project == project {
                            commitment
                        } else {
                            p.commitment
                        },
                    )
                })
                .collect();
            leaves.extend(bundle.inputs_extra_leaves());
            (
                bundle.inputs_root.to_string(),
                tree::root(leaves).unwrap_or(B256::ZERO).to_string(),
            )
        },
        // 11. the score tree of every record's leaf (this project's recomputed; other records' leaves
        // are taken as published: whatever they are, they cannot change what the root commits for
        // this project) and the human layer's leaves has root `root`, and this leaf's proof reaches it.
        root: &|leaf: B256| {
            // The bundle's leaves, the project records' first, with this project's recomputed.
            let mut leaves = bundle.leaves();
            for (l, p) in leaves.iter_mut().zip(&bundle.projects) {
                if p.project == project {
                    *l = leaf;
                }
            }
            let (root, included) = tree::root_and_inclusion(leaves, &leaf);
            (
                format!("{} (leaf included true)", bundle.root),
                format!("{root} (leaf included {included})"),
            )
        },
    };
    let envelope = bundle.envelope_score(project);
    verify_record(rec, tr, counted, inputs, salt, envelope, &anchors)
}

/// What steps 4 (`inputsRoot`) and 11 (`root`) compare against: the whole bundle's trees, or a light
/// publication's proofs ([`crate::check::light`]). Each returns `(expected, computed)` for display.
pub(crate) struct Anchors<'a> {
    /// From the recomputed commitment.
    pub inputs_root: &'a dyn Fn(B256) -> (String, String),
    /// From the recomputed score leaf.
    pub root: &'a dyn Fn(B256) -> (String, String),
}

/// Steps 1–11 for one record: `tr` is its track as published (`None` when missing), `counted` the
/// projects seen in that track (the bundle's count, or the published cohort size for a light check),
/// `envelope` the project's envelope score when the epoch grades theses on it (C27).
pub(crate) fn verify_record(
    rec: &ProjectRecord,
    tr: Option<&TrackRecord>,
    counted: u64,
    inputs: &ProjectData,
    salt: B256,
    envelope: Option<U256>,
    anchors: &Anchors<'_>,
) -> VerifyReport {
    let project = rec.project;
    let mut r = Report::new();
    r.check(VerifyStep::Project, project, project);
    // 2. track
    let Some(tr) = tr else {
        r.fail(
            VerifyStep::Track,
            format!("track '{}'", rec.track),
            "no such track in the bundle",
        );
        return r.finish(project, None);
    };
    if inputs.track != rec.track {
        r.fail(VerifyStep::Track, &rec.track, &inputs.track);
        return r.finish(project, None);
    }
    if let Err(e) = tr.config.validate() {
        r.fail(VerifyStep::Track, "a valid track configuration", e);
        return r.finish(project, None);
    }
    let n = tr.config.features.len();
    if inputs.features.len() != n || tr.bounds.len() != n {
        r.fail(
            VerifyStep::Track,
            format!("{n} features and {n} bounds"),
            format!(
                "{} features and {} bounds",
                inputs.features.len(),
                tr.bounds.len()
            ),
        );
        return r.finish(project, None);
    }
    let small = (tr.cohort_size as usize) < N_MIN;
    let bounds_ok = tr.bounds.iter().zip(&tr.config.features).all(|(b, f)| {
        if small {
            b.source == BoundsSource::Reference && b.lo == f.ref_lo && b.hi == f.ref_hi
        } else {
            b.source == BoundsSource::Cohort
        }
    });
    r.check(
        VerifyStep::Track,
        format!(
            "{} (cohort {}, bounds consistent true)",
            rec.track, tr.cohort_size
        ),
        format!(
            "{} (cohort {}, bounds consistent {})",
            inputs.track, counted, bounds_ok
        ),
    );
    // 3. commitment
    let salt = if rec.private { salt } else { B256::ZERO };
    let commitment = input_commitment(project, inputs, salt);
    r.check(VerifyStep::Commitment, rec.commitment, commitment);
    // 4. inputsRoot
    let (want, got) = (anchors.inputs_root)(commitment);
    r.check(VerifyStep::InputsRoot, want, got);
    // 5. normalised
    let mut xhat = Vec::new();
    normalise_into(&mut xhat, &inputs.features, &tr.bounds);
    let digest = normalised_digest(&mut Vec::new(), &xhat);
    r.check(VerifyStep::Normalised, rec.normalised_digest, digest);
    r.normalised = xhat.iter().map(|x| U256::from(*x)).collect();
    // 6–8. raw, gate, smoothed
    let prev_s = unit_from_points(rec.previous_score_wad, "previousScoreWad")
        .map(|s| s.saturating_to::<u128>());
    let prepared = PreparedTrack::new(&tr.config);
    let mut data = inputs.clone();
    data.failed = data.failed.min(data.claims); // failed > claims cannot have been committed anyway
    let st = score_steps(&prepared, &data, &xhat, *prev_s.as_ref().unwrap_or(&0));
    let want = Steps {
        weighted: rec.weighted_wad.saturating_to(),
        penalty: rec.penalty_wad.saturating_to(),
        raw: rec.raw_wad.saturating_to(),
        merit: rec.merit_wad.saturating_to(),
        gate: rec.gate,
        gated: rec.gated_wad.saturating_to(),
        smoothed: rec.smoothed_wad.saturating_to(),
        points: rec.score_wad,
    };
    let [w_raw, w_gate, w_s] = steps_str(&want);
    let [c_raw, c_gate, c_s] = steps_str(&st);
    r.check(VerifyStep::Raw, w_raw, c_raw);
    r.check(VerifyStep::Gate, w_gate, c_gate);
    match prev_s {
        Ok(_) => r.check(VerifyStep::Smoothed, w_s, c_s),
        Err(e) => {
            r.fail(VerifyStep::Smoothed, w_s, e);
            false
        }
    };
    // 9. published
    r.check(VerifyStep::Published, rec.score_wad, st.points);
    // 10. leaf (C27: the published score)
    let leaf = tree::score_leaf(project, envelope.unwrap_or(st.points));
    r.check(VerifyStep::Leaf, rec.leaf, leaf);
    // 11. root
    let (want, got) = (anchors.root)(leaf);
    r.check(VerifyStep::Root, want, got);
    r.finish(project, Some(st.points))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{addr, cohort};
    use crate::scoring::epoch::{build_epoch, EpochInput};

    fn setup() -> (EpochInput, EpochBundle) {
        let input = cohort(30);
        let b = build_epoch(&input).unwrap();
        (input, b)
    }

    #[test]
    fn every_project_verifies() {
        let (input, b) = setup();
        for p in &input.projects {
            let rep = verify_project_score(&b, p.project, &p.data, p.salt);
            assert!(rep.matches, "{:?}", rep);
            assert_eq!(rep.steps.len(), 11);
            let rec = b.projects.iter().find(|r| r.project == p.project).unwrap();
            assert_eq!(rep.score_wad, Some(rec.score_wad));
        }
    }

    #[test]
    fn wrong_salt_fails_at_commitment() {
        let (input, b) = setup();
        let p = input.projects.iter().find(|p| p.private).unwrap();
        let rep = verify_project_score(&b, p.project, &p.data, B256::repeat_byte(9));
        assert_eq!(rep.first_mismatch, Some(VerifyStep::Commitment));
        assert!(!rep.matches);
        // inputs tree and everything after the commitment is still recomputed
        assert_eq!(
            rep.steps
                .iter()
                .filter(|s| !s.ok)
                .map(|s| s.step)
                .collect::<Vec<_>>(),
            [VerifyStep::Commitment, VerifyStep::InputsRoot]
        );
    }

    #[test]
    fn changed_feature_names_commitment_then_later_steps() {
        let (input, b) = setup();
        let p = input
            .projects
            .iter()
            .find(|p| p.data.track == "agents" && !p.private)
            .unwrap();
        let mut d = p.data.clone();
        d.features[0] += U256::from(1_000_000u32);
        let rep = verify_project_score(&b, p.project, &d, p.salt);
        assert_eq!(rep.first_mismatch, Some(VerifyStep::Commitment));
        assert!(rep
            .steps
            .iter()
            .any(|s| s.step == VerifyStep::Normalised && !s.ok));
    }

    #[test]
    fn tampered_bundle_fields_are_named() {
        let (input, b) = setup();
        let p = input
            .projects
            .iter()
            .find(|p| p.data.track == "agents")
            .unwrap();
        let idx = b
            .projects
            .iter()
            .position(|r| r.project == p.project)
            .unwrap();
        let check = |f: &dyn Fn(&mut EpochBundle), step: VerifyStep| {
            let mut t = b.clone();
            f(&mut t);
            let rep = verify_project_score(&t, p.project, &p.data, p.salt);
            assert_eq!(rep.first_mismatch, Some(step), "{rep:?}");
        };
        check(
            &|t| t.projects[idx].normalised_digest = B256::ZERO,
            VerifyStep::Normalised,
        );
        check(
            &|t| t.tracks[0].bounds[0].hi += U256::from(1u8),
            VerifyStep::Normalised,
        );
        check(
            &|t| t.projects[idx].raw_wad += U256::from(1u8),
            VerifyStep::Raw,
        );
        check(
            &|t| t.projects[idx].gate.age_ok = !t.projects[idx].gate.age_ok,
            VerifyStep::Gate,
        );
        check(
            &|t| t.projects[idx].smoothed_wad += U256::from(1u8),
            VerifyStep::Smoothed,
        );
        check(
            &|t| t.projects[idx].score_wad += U256::from(1u8),
            VerifyStep::Published,
        );
        check(&|t| t.projects[idx].leaf = B256::ZERO, VerifyStep::Leaf);
        check(&|t| t.root = B256::ZERO, VerifyStep::Root);
        check(&|t| t.inputs_root = B256::ZERO, VerifyStep::InputsRoot);
        check(
            &|t| t.tracks[0].config.features[0].weight_wad += U256::from(1u8),
            VerifyStep::Track,
        );
        check(&|t| t.tracks[0].cohort_size = 5, VerifyStep::Track);
        // another project's leaf changed → only the root differs
        let other = (idx + 1) % t_len(&b);
        check(&|t| t.projects[other].leaf = B256::ZERO, VerifyStep::Root);
    }

    fn t_len(b: &EpochBundle) -> usize {
        b.projects.len()
    }

    #[test]
    fn unknown_project_and_wrong_track() {
        let (input, b) = setup();
        let rep = verify_project_score(&b, addr(999_999), &input.projects[0].data, B256::ZERO);
        assert_eq!(rep.first_mismatch, Some(VerifyStep::Project));
        assert_eq!(rep.steps.len(), 1);
        let mut d = input.projects[0].data.clone();
        d.track = "apps".into();
        let rep = verify_project_score(&b, input.projects[0].project, &d, input.projects[0].salt);
        assert_eq!(rep.first_mismatch, Some(VerifyStep::Track));
        d.track = "agents".into();
        d.features.pop();
        let rep = verify_project_score(&b, input.projects[0].project, &d, input.projects[0].salt);
        assert_eq!(rep.first_mismatch, Some(VerifyStep::Track));
    }

    #[test]
    fn verifies_through_json() {
        let (input, b) = setup();
        let b2 = EpochBundle::from_json(&b.to_json().unwrap()).unwrap();
        let p = &input.projects[3];
        assert!(verify_project_score(&b2, p.project, &p.data, p.salt).matches);
        let rep =
            serde_json::to_string(&verify_project_score(&b2, p.project, &p.data, p.salt)).unwrap();
        assert!(rep.contains("\"firstMismatch\":null"), "{rep}");
        assert!(rep.contains("\"step\":\"inputsRoot\""), "{rep}");
    }
}
