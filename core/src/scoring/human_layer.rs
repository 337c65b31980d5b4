//! The epoch's human layer (C5, C8–C10, C27): the graded theses' quality leaves and each project's
//! human score, which is the project's published score.
//!
//! **One root per epoch** (decided here): the `root` the signer signs (C6) is the `standard-v1` root over
//! *every* leaf of the epoch — one score leaf `(address, uint256)` per project and the quality leaves
//! (the grade of one score: `(bytes32 T_q, address scorerRegistry, uint256 scoreId, address scorer,
//! address project, bytes32 thesisHash, uint256, uint8, bytes32)`) — sorted by hash, pairs hashed
//! sorted. The tag keeps the two kinds apart, and `EpochRegistry.verifyScore / verifyQuality` verify
//! against that one final root. An epoch without theses or pre-data projects has exactly the score
//! tree's root, as before.
//!
//! **Human scores** (decided here, from C9/C10), each the project's **published score** (C27), carried
//! by its one score leaf:
//! - *envelope* — every scored project with at least one graded thesis this epoch: `s_sys = S/100`
//!   from its systematic score, each thesis `(q, c(verdict), y/100)` in submission order, `s` by
//!   [`human_envelope`](crate::human::envelope::human_envelope); `P = 100·s` replaces `S` in the
//!   project's score leaf (`S` stays in its record: the next epoch smooths from it, C4).
//! - *preData* — every project listed as pre-data (no systematic score yet, so not in the cohort):
//!   the C10 replay of its theses in submission order, `P` = the last point (0 without one);
//!   the replay's cap is 100 points for a Verified project, else 50. Its score leaf is its only leaf.
//!
//! A submitted target `y` is in WAD points `[0, 100]` (as `ScorerRegistry.score` takes it); its
//! `y/100` for the envelope rounds down (it is exact for every target with a whole number of wei·100).

pub use super::bundle::{GradedThesis, HumanMode, HumanRecord, PreDataProject, ThesisRecord};

use super::bundle::{EpochBundle, EpochError, ProjectRecord};
use crate::human::envelope::{human_envelope, Thesis};
use crate::human::predata::{pre_data_replay, PreDataSubmission, MAX_POINTS};
use crate::leaves::{quality_leaf, score_leaf};
use crate::math::WAD;
use crate::scoring::smooth::POINTS_PER_UNIT;
use alloy_primitives::{Address, U256};
use std::collections::BTreeMap;

fn thesis_err(index: usize, field: &'static str, message: impl Into<String>) -> EpochError {
    EpochError::Thesis {
        index,
        field,
        message: message.into(),
    }
}

fn pre_data_err(index: usize, field: &'static str, message: impl Into<String>) -> EpochError {
    EpochError::PreData {
        index,
        field,
        message: message.into(),
    }
}

/// Validates the theses and pre-data projects against the scored `records` (sorted by address) and
/// builds the thesis records (input order) and human records (by address).
///
/// # Errors
/// [`EpochError::Thesis`] / [`EpochError::PreData`] naming the index and field.
pub(crate) fn build_human_layer(
    theses: &[GradedThesis],
    pre_data: &[PreDataProject],
    records: &[ProjectRecord],
) -> Result<(Vec<ThesisRecord>, Vec<HumanRecord>), EpochError> {
    let scored = |a: &Address| records.binary_search_by_key(a, |r| r.project).ok();
    let mut pre: Vec<(Address, bool, usize)> = Vec::with_capacity(pre_data.len());
    for (i, p) in pre_data.iter().enumerate() {
        if scored(&p.project).is_some() {
            return Err(pre_data_err(
                i,
                "project",
                format!(
                    "{} has a systematic score this epoch, so it is not pre-data (C10)",
                    p.project
                ),
            ));
        }
        pre.push((p.project, p.verified, i));
    }
    pre.sort_unstable_by_key(|p| p.0);
    for w in pre.windows(2) {
        if w[0].0 == w[1].0 {
            return Err(pre_data_err(
                w[0].2.max(w[1].2),
                "project",
                format!("duplicate project {}", w[0].0),
            ));
        }
    }
    let pre_index = |a: &Address| pre.binary_search_by_key(a, |p| p.0).ok();
    let mut thesis_records = Vec::with_capacity(theses.len());
    let mut scores: Vec<((Address, U256), usize)> = Vec::with_capacity(theses.len());
    for (i, t) in theses.iter().enumerate() {
        if scored(&t.project).is_none() && pre_index(&t.project).is_none() {
            return Err(thesis_err(
                i,
                "project",
                format!(
                    "{} is neither in this epoch's cohort nor a pre-data project",
                    t.project
                ),
            ));
        }
        if t.target_score_wad > MAX_POINTS {
            return Err(thesis_err(
                i,
                "targetScoreWad",
                format!("{} is above 100 points (100·10^18)", t.target_score_wad),
            ));
        }
        if t.quality_wad > WAD {
            return Err(thesis_err(
                i,
                "qualityWad",
                format!("{} is above 1 (10^18)", t.quality_wad),
            ));
        }
        scores.push(((t.scorer_registry, t.score_id), i));
        thesis_records.push(ThesisRecord {
            scorer_registry: t.scorer_registry,
            score_id: t.score_id,
            scorer: t.scorer,
            project: t.project,
            thesis_hash: t.thesis_hash,
            target_score_wad: t.target_score_wad,
            quality_wad: t.quality_wad,
            verdict: t.verdict.into(),
            matched_thesis: t.matched_thesis,
            leaf: quality_leaf(&t.quality_leaf()),
            grade_record: t.grade_record,
        });
    }
    // One grade per score (C12, decided after the review): a score appears once in an epoch.
    scores.sort_unstable();
    for w in scores.windows(2) {
        if w[0].0 == w[1].0 {
            return Err(thesis_err(
                w[1].1.max(w[0].1),
                "scoreId",
                format!(
                    "score {} of registry {} is graded twice",
                    (w[0].0).1,
                    (w[0].0).0
                ),
            ));
        }
    }
    // Theses per project, in submission order (with the index of the project's first one, for errors).
    let mut by_project: BTreeMap<Address, (usize, Vec<&GradedThesis>)> = BTreeMap::new();
    for (i, t) in theses.iter().enumerate() {
        by_project
            .entry(t.project)
            .or_insert_with(|| (i, Vec::new()))
            .1
            .push(t);
    }
    let mut human = Vec::with_capacity(by_project.len() + pre.len());
    for (project, (first, mine)) in &by_project {
        if let Some(r) = scored(project) {
            human.push(envelope_record(
                *project,
                records[r].score_wad,
                mine,
                *first,
            )?);
        }
    }
    for &(project, verified, i) in &pre {
        let mine = by_project
            .get(&project)
            .map_or(&[][..], |(_, m)| m.as_slice());
        human.push(pre_data_record(project, verified, mine, i)?);
    }
    human.sort_by_key(|h| h.project);
    Ok((thesis_records, human))
}

/// What `project`'s human score in `bundle` would be with `grade` in force for its score (replacing the
/// bundle's grade of that score, or added in score-id order): the same envelope (C9) or replay (C10) the
/// build runs, for the adjudicator's preview of an override (C9b). `None` when the project has neither a
/// systematic score nor a pre-data record in the bundle.
///
/// # Errors
/// A grade out of range, as [`build_human_layer`] names it.
pub fn rescore_with(
    bundle: &EpochBundle,
    project: Address,
    grade: &GradedThesis,
) -> Result<Option<U256>, EpochError> {
    let mut theses: Vec<GradedThesis> = bundle
        .theses
        .iter()
        .filter(|t| t.project == project && t.score_id != grade.score_id)
        .map(|t| {
            t.graded()
                .map_err(|e| thesis_err(0, "verdict", e.to_string()))
        })
        .collect::<Result<_, EpochError>>()?;
    theses.push(*grade);
    theses.sort_by_key(|t| t.score_id);
    let records: Vec<ProjectRecord> = bundle
        .projects
        .iter()
        .filter(|r| r.project == project)
        .cloned()
        .collect();
    let pre_data: Vec<PreDataProject> = bundle
        .pre_data()
        .filter(|h| h.project == project)
        .map(|h| PreDataProject {
            project,
            verified: h.verified.unwrap_or(false),
        })
        .collect();
    if records.is_empty() && pre_data.is_empty() {
        return Ok(None);
    }
    let (_, human) = build_human_layer(&theses, &pre_data, &records)?;
    Ok(human.first().map(|h| h.score_wad))
}

fn envelope_record(
    project: Address,
    systematic: U256,
    theses: &[&GradedThesis],
    first: usize,
) -> Result<HumanRecord, EpochError> {
    let points = U256::from(POINTS_PER_UNIT);
    let input: Vec<Thesis> = theses
        .iter()
        .map(|t| Thesis {
            quality: t.quality_wad,
            multiplier: t.verdict.multiplier_wad(),
            submitted: t.target_score_wad / points,
        })
        .collect();
    let r = human_envelope(systematic / points, &input)
        .map_err(|e| thesis_err(first, "project", e.to_string()))?;
    let score_wad = r.score * points;
    Ok(HumanRecord {
        project,
        mode: HumanMode::Envelope,
        score_wad,
        leaf: score_leaf(project, score_wad),
        systematic_wad: Some(systematic),
        envelope_wad: Some(r.envelope),
        delta_wad: Some(r.delta),
        counted: Some(r.counted as u64),
        verified: None,
        path: None,
    })
}

fn pre_data_record(
    project: Address,
    verified: bool,
    theses: &[&GradedThesis],
    index: usize,
) -> Result<HumanRecord, EpochError> {
    let subs: Vec<PreDataSubmission> = theses
        .iter()
        .map(|t| PreDataSubmission {
            target: t.target_score_wad,
            quality: t.quality_wad,
            multiplier: t.verdict.multiplier_wad(),
        })
        .collect();
    let path = pre_data_replay(&subs, verified)
        .map_err(|e| pre_data_err(index, "project", e.to_string()))?;
    let score_wad = path.last().copied().unwrap_or(U256::ZERO);
    Ok(HumanRecord {
        project,
        mode: HumanMode::PreData,
        score_wad,
        leaf: score_leaf(project, score_wad),
        systematic_wad: None,
        envelope_wad: None,
        delta_wad: None,
        counted: None,
        verified: Some(verified),
        path: Some(path),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{addr, cohort};
    use crate::leaves::{systematic_leaf, Verdict};
    use crate::math::parse_wad;
    use crate::merkle::tree::process_proof;
    use crate::scoring::epoch::{build_epoch, EpochBundle};
    use crate::scoring::verify::verify_project_score;
    use alloy_primitives::{B256, I256};

    fn w(s: &str) -> U256 {
        parse_wad(s).unwrap()
    }

    fn thesis(project: Address, n: u8, target: &str, q: &str, verdict: Verdict) -> GradedThesis {
        GradedThesis {
            scorer_registry: addr(0x5C0),
            score_id: U256::from(n),
            scorer: addr(0x5C1),
            project,
            thesis_hash: B256::repeat_byte(n),
            target_score_wad: w(target),
            quality_wad: w(q),
            verdict,
            matched_thesis: if verdict == Verdict::Original {
                B256::ZERO
            } else {
                B256::repeat_byte(0xee)
            },
            grade_record: B256::ZERO,
        }
    }

    /// C9's worked example: s_sys 0.60, theses (0.8, 1, +0.10), (0.5, 0.5, −0.04), (0.2, 1, +0.30)
    /// → envelope 0.96, Δ 0.064, s 0.6384, published as 63.84 points.
    #[test]
    fn envelope_record_reproduces_c9() {
        let p = addr(1);
        let t = [
            thesis(p, 1, "70", "0.8", Verdict::Original),
            thesis(p, 2, "56", "0.5", Verdict::Derivative),
            thesis(p, 3, "90", "0.2", Verdict::Similar),
        ];
        let r = envelope_record(p, w("60"), &t.iter().collect::<Vec<_>>(), 0).unwrap();
        assert_eq!(r.envelope_wad, Some(w("0.96")));
        assert_eq!(r.delta_wad, Some(I256::from_raw(w("0.064"))));
        assert_eq!(r.score_wad, w("63.84"));
        assert_eq!(r.counted, Some(2));
        assert_eq!(r.leaf, score_leaf(p, w("63.84")));
    }

    /// C10's worked example: 80 (q 0.9), 60 (q 1), 10 (q 0.5) → 18, 23, 20.5.
    #[test]
    fn pre_data_record_reproduces_c10() {
        let p = addr(2);
        let t = [
            thesis(p, 1, "80", "0.9", Verdict::Original),
            thesis(p, 2, "60", "1", Verdict::Original),
            thesis(p, 3, "10", "0.5", Verdict::Original),
        ];
        let r = pre_data_record(p, false, &t.iter().collect::<Vec<_>>(), 0).unwrap();
        assert_eq!(r.path, Some(vec![w("18"), w("23"), w("20.5")]));
        assert_eq!(r.score_wad, w("20.5"));
        let none = pre_data_record(p, true, &[], 0).unwrap();
        assert_eq!((none.score_wad, none.path), (U256::ZERO, Some(vec![])));
    }

    fn with_layer() -> (crate::scoring::epoch::EpochInput, EpochBundle) {
        let mut input = cohort(24);
        let (a, b, fresh) = (addr(3), addr(5), addr(900));
        input.theses = vec![
            thesis(a, 1, "70", "0.8", Verdict::Original),
            thesis(fresh, 2, "80", "0.9", Verdict::Original),
            thesis(a, 3, "20", "0.6", Verdict::Derivative),
            thesis(b, 4, "50", "0.1", Verdict::Copy),
            thesis(fresh, 5, "60", "1", Verdict::Similar),
        ];
        input.pre_data = vec![
            PreDataProject {
                project: fresh,
                verified: true,
            },
            PreDataProject {
                project: addr(901),
                verified: false,
            },
        ];
        let bundle = build_epoch(&input).unwrap();
        (input, bundle)
    }

    #[test]
    fn one_root_over_score_quality_and_human_leaves() {
        let (input, b) = with_layer();
        assert_eq!(b.theses.len(), 5);
        assert_eq!(
            b.human.len(),
            4,
            "a, b (envelope), fresh and 901 (pre-data)"
        );
        assert!(b.human.windows(2).all(|h| h[0].project < h[1].project));
        for (t, g) in b.theses.iter().zip(&input.theses) {
            assert_eq!(t.leaf, quality_leaf(&g.quality_leaf()));
            assert_eq!(t.quality_leaf().unwrap(), g.quality_leaf());
        }
        let fresh = b.human.iter().find(|h| h.project == addr(900)).unwrap();
        assert_eq!(
            (fresh.mode, fresh.path.clone()),
            (HumanMode::PreData, Some(vec![w("18"), w("23")]))
        );
        let bh = b.human.iter().find(|h| h.project == addr(5)).unwrap();
        let sys = b
            .projects
            .iter()
            .find(|p| p.project == addr(5))
            .unwrap()
            .score_wad;
        assert_eq!(
            (bh.mode, bh.score_wad, bh.counted),
            (HumanMode::Envelope, sys, Some(0)),
            "no counting thesis: s = s_sys"
        );
        // Every leaf's proof reaches the root; other hashes have no proof.
        let leaves = b.leaves();
        assert_eq!(leaves.len(), b.projects.len() + 9);
        for l in &leaves {
            assert_eq!(process_proof(*l, &b.proof(l).unwrap()), b.root);
        }
        assert!(b.proof(&B256::repeat_byte(1)).is_none());
        // Recomputed from the values, the leaves are the published ones; a bad verdict code is named.
        assert_eq!(b.recomputed_leaves().unwrap(), leaves);
        let mut bad = b.clone();
        bad.theses[2].verdict = 9;
        assert_eq!(
            bad.recomputed_leaves().unwrap_err().0,
            b.theses[2].thesis_hash
        );
        // The root differs from the score-only root, and the score-only input gives the old bundle.
        let mut plain = input.clone();
        plain.theses.clear();
        plain.pre_data.clear();
        let p = build_epoch(&plain).unwrap();
        assert_ne!(p.root, b.root);
        // C27: the systematic scores are the same; a project with an envelope publishes the
        // envelope's score in its score leaf and keeps S in its systematic leaf.
        for (old, new) in p.projects.iter().zip(&b.projects) {
            assert_eq!(old.score_wad, new.score_wad);
            match b.envelope_score(new.project) {
                Some(s) => {
                    assert_eq!(
                        (new.published_wad, new.leaf),
                        (s, score_leaf(new.project, s))
                    );
                    assert_eq!(
                        new.systematic_leaf,
                        Some(systematic_leaf(new.project, new.score_wad))
                    );
                }
                None => assert_eq!(old, new),
            }
        }
        assert!(b.projects.iter().any(|p| p.published_wad != p.score_wad));
        assert!(
            !p.to_json().unwrap().contains("theses"),
            "no new keys without a human layer"
        );
        // JSON round trip, and project verification still walks to the full root.
        assert_eq!(EpochBundle::from_json(&b.to_json().unwrap()).unwrap(), b);
        // And through the compact encoding (C23): theses, human records, envelopes and paths.
        assert_eq!(
            EpochBundle::from_bytes(&b.to_msgpack().unwrap()).unwrap(),
            b
        );
        let q = &input.projects[0];
        assert!(verify_project_score(&b, q.project, &q.data, q.salt).matches);
    }

    #[test]
    fn bad_layers_are_named() {
        let (input, _) = with_layer();
        let err = |f: &dyn Fn(&mut crate::scoring::epoch::EpochInput)| {
            let mut i = input.clone();
            f(&mut i);
            build_epoch(&i).unwrap_err().to_string()
        };
        assert!(err(&|i| i.theses[1].project = addr(777)).starts_with("theses[1].project: "));
        // One grade per score: the same score twice is refused; the same thesis hash on two
        // scores (a copy) is graded, each leaf naming its own score.
        assert!(err(&|i| i.theses[2].score_id = U256::from(1u8))
            .starts_with("theses[2].scoreId: score 1 of registry"));
        let mut copy = input.clone();
        copy.theses[2].thesis_hash = B256::repeat_byte(1);
        let c = build_epoch(&copy).unwrap();
        assert_ne!(c.theses[0].leaf, c.theses[2].leaf);
        assert!(
            err(&|i| i.theses[0].target_score_wad = w("100") + U256::from(1))
                .starts_with("theses[0].targetScoreWad: ")
        );
        assert!(err(&|i| i.theses[3].quality_wad = w("1.5")).starts_with("theses[3].qualityWad: "));
        assert!(err(&|i| i.pre_data[0].project = addr(3)).starts_with("preData[0].project: "));
        assert!(err(&|i| i.pre_data[1].project = addr(900))
            .starts_with("preData[1].project: duplicate"));
    }

    /// The override preview (C9b) runs the build's own envelope and replay: with the bundle's grade it gives the
    /// bundle's score; with another it gives what a build with that grade gives.
    #[test]
    fn rescore_with_is_the_build_with_that_grade() {
        use crate::fixtures::{graded, human_epoch, human_epoch_input, w, PRE};
        let b = c9_like();
        for h in &b.human {
            let t = b.theses.iter().find(|t| t.project == h.project).unwrap();
            let same = graded(
                h.project,
                t.score_id.to::<u8>(),
                t.target_score_wad,
                t.quality_wad,
                Verdict::try_from(t.verdict).unwrap(),
            );
            assert_eq!(
                rescore_with(&b, h.project, &same).unwrap(),
                Some(h.score_wad)
            );
        }
        let mut input = human_epoch_input();
        let i = input.theses.iter().position(|t| t.project == PRE).unwrap();
        input.theses[i].quality_wad = w(3, 1);
        let rebuilt = super::super::epoch::build_epoch(&input).unwrap();
        let want = rebuilt
            .human
            .iter()
            .find(|h| h.project == PRE)
            .unwrap()
            .score_wad;
        let changed = input.theses[i];
        assert_eq!(
            rescore_with(&human_epoch(), PRE, &changed).unwrap(),
            Some(want)
        );
        assert_ne!(
            Some(want),
            human_epoch()
                .human
                .iter()
                .find(|h| h.project == PRE)
                .map(|h| h.score_wad)
        );
        assert_eq!(
            rescore_with(&human_epoch(), Address::repeat_byte(0x99), &changed).unwrap(),
            None
        );
    }

    fn c9_like() -> EpochBundle {
        crate::fixtures::human_epoch()
    }
}
