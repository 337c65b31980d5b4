//! The whole-epoch audit: a correct epoch (public and private projects, columns, previous scores, theses,
//! a pre-data replay) has no finding; each way a signer could bend it is named, the first wrong record first.

use super::*;
use crate::fixtures::{cohort, human_epoch, ENV, PRE};
use crate::scoring::bundle::PreviousScore;
use crate::scoring::epoch::EpochInput;
use crate::scoring::{build_epoch, EpochBundle};

fn proposal(b: &EpochBundle) -> Proposal {
    Proposal {
        epoch: b.epoch,
        root: b.root,
        inputs_root: b.inputs_root,
    }
}

/// Epoch 6 (no previous) and epoch 7 built on its scores, as the operator builds them.
fn two_epochs() -> (EpochBundle, EpochBundle) {
    let mut first = cohort(30);
    first.epoch = 6;
    first.previous = vec![];
    let b6 = build_epoch(&first).unwrap();
    let mut second = cohort(30);
    second.previous = b6
        .projects
        .iter()
        .map(|p| PreviousScore {
            project: p.project,
            score_wad: p.score_wad,
        })
        .collect();
    second.previous_epoch = Some(6);
    let b7 = build_epoch(&second).unwrap();
    (b6, b7)
}

fn prev(b6: &EpochBundle) -> Previous<'_> {
    Previous::Final(PreviousFinal {
        epoch: 6,
        root: b6.root,
        bundle: b6,
    })
}

/// Re-roots a bundle after its values were changed, as a dishonest signer would before signing.
fn reroot(b: &mut EpochBundle) {
    b.root = crate::scoring::tree::root(b.recomputed_leaves().unwrap()).unwrap();
}

#[test]
fn correct_epochs_have_no_finding() {
    let (b6, b7) = two_epochs();
    let a = audit_epoch(&b6, &proposal(&b6), Previous::NoFinalEpoch);
    assert!(a.is_correct(), "{:?}", a.findings);
    assert_eq!((a.projects, a.recomputed), (33, 18));
    let a = audit_epoch(&b7, &proposal(&b7), prev(&b6));
    assert!(a.is_correct(), "{:?}", a.findings);
    assert!(b7.projects.iter().any(|p| !p.previous_score_wad.is_zero()));
    assert!(
        b7.tracks.iter().any(|t| !t.columns.is_empty()),
        "the cohort is large enough for column commitments"
    );
    // theses, envelope and pre-data replay
    let h = human_epoch();
    let a = audit_epoch(&h, &proposal(&h), Previous::NoFinalEpoch);
    assert!(a.is_correct(), "{:?}", a.findings);
    assert_eq!((a.theses, a.human), (6, 2));
}

#[test]
fn a_re_rooted_score_is_named_at_its_first_wrong_step() {
    let (b6, mut b7) = two_epochs();
    let i = b7
        .projects
        .iter()
        .position(|p| !p.private && p.score_wad > U256::ZERO)
        .unwrap();
    let victim = b7.projects[i].project;
    b7.projects[i].score_wad += U256::from(1u8);
    b7.projects[i].published_wad = b7.projects[i].score_wad;
    b7.projects[i].leaf = crate::leaves::score_leaf(victim, b7.projects[i].score_wad);
    reroot(&mut b7);
    // The proposal is the tampered root: the tree is consistent, only the recomputation can tell.
    let a = audit_epoch(&b7, &proposal(&b7), prev(&b6));
    assert_eq!(a.findings.len(), 1, "{:?}", a.findings);
    match &a.findings[0] {
        EpochFinding::ScoreDiffers { project, step, .. } => {
            assert_eq!((*project, *step), (victim, VerifyStep::Published));
        }
        f => panic!("{f:?}"),
    }
}

#[test]
fn a_changed_leaf_hash_or_another_root_is_named() {
    let (b6, b7) = two_epochs();
    let mut t = b7.clone();
    t.projects[3].leaf = B256::repeat_byte(7);
    let a = audit_epoch(&t, &proposal(&t), prev(&b6));
    assert!(matches!(
        a.findings[0],
        EpochFinding::LeafDiffers {
            leaf: LeafKind::Score,
            index: 3,
            ..
        }
    ));
    let mut p = proposal(&b7);
    p.root = B256::repeat_byte(1);
    p.epoch += 1;
    let a = audit_epoch(&b7, &p, prev(&b6));
    assert!(matches!(a.findings[0], EpochFinding::EpochDiffers { .. }));
    assert!(matches!(
        a.findings[1],
        EpochFinding::RootNotProposed { .. }
    ));
    assert_eq!(a.findings.len(), 2, "{:?}", a.findings);
}

#[test]
fn bent_tracks_and_columns_are_named() {
    let (b6, b7) = two_epochs();
    let agents = b7
        .tracks
        .iter()
        .position(|t| t.config.name == "agents")
        .unwrap();
    // Bounds moved: every agents score would change with them.
    let mut t = b7.clone();
    t.tracks[agents].bounds[0].hi += U256::from(1u8);
    let a = audit_epoch(&t, &proposal(&t), prev(&b6));
    assert_eq!(
        a.findings,
        vec![EpochFinding::TrackDiffers {
            track: "agents".into(),
            why: TrackFault::BoundsDiffer { feature: 0 }
        }]
    );
    // A private value changed in a column (and the inputs root re-committed): the column no longer rebuilds.
    let mut t = b7.clone();
    t.tracks[agents].columns[1].private_values[0] += U256::from(1u8);
    let a = audit_epoch(&t, &proposal(&t), prev(&b6));
    assert!(matches!(
        &a.findings[0],
        EpochFinding::TrackDiffers {
            why: TrackFault::ColumnDiffers { feature: 1, .. },
            ..
        }
    ));
    // A cohort size that is not the count.
    let mut t = b7.clone();
    t.tracks[agents].cohort_size -= 1;
    let a = audit_epoch(&t, &proposal(&t), prev(&b6));
    assert!(matches!(
        &a.findings[0],
        EpochFinding::TrackDiffers {
            why: TrackFault::CohortSize {
                published: 29,
                counted: 30
            },
            ..
        }
    ));
}

#[test]
fn a_previous_score_not_from_the_final_epoch_is_named() {
    let (b6, mut b7) = two_epochs();
    // A private project's smoothing started from another s(t-1): only the previous epoch shows it.
    let i = b7.projects.iter().position(|p| p.private).unwrap();
    b7.projects[i].previous_score_wad += U256::from(10u8).pow(U256::from(18u8));
    let a = audit_epoch(&b7, &proposal(&b7), prev(&b6));
    assert_eq!(
        a.findings,
        vec![EpochFinding::PreviousScoreDiffers {
            project: b7.projects[i].project,
            published: b7.projects[i].previous_score_wad,
            previous_final: b6
                .projects
                .iter()
                .find(|p| p.project == b7.projects[i].project)
                .unwrap()
                .score_wad,
        }]
    );
    // Without the previous bundle, naming a previous epoch is itself a finding; a previous bundle that
    // does not build the final root proves nothing.
    let a = audit_epoch(&b7, &proposal(&b7), Previous::NoFinalEpoch);
    assert!(matches!(
        a.findings[0],
        EpochFinding::PreviousEpochDiffers { named: Some(6), .. }
    ));
    let wrong = PreviousFinal {
        epoch: 6,
        root: B256::repeat_byte(9),
        bundle: &b6,
    };
    let a = audit_epoch(&b7, &proposal(&b7), Previous::Final(wrong));
    assert!(matches!(
        a.findings.last(),
        Some(EpochFinding::PreviousBundleWrong { .. })
    ));
}

#[test]
fn a_bent_human_layer_is_named() {
    let h = human_epoch();
    // The envelope project's human score raised and re-rooted.
    let mut t = h.clone();
    let k = t.human.iter().position(|r| r.project == ENV).unwrap();
    t.human[k].score_wad += U256::from(1u8);
    t.human[k].leaf = crate::leaves::score_leaf(ENV, t.human[k].score_wad);
    // … and published in the project's score leaf, as a forger would (C27).
    let j = t.projects.iter().position(|r| r.project == ENV).unwrap();
    t.projects[j].published_wad = t.human[k].score_wad;
    t.projects[j].leaf = t.human[k].leaf;
    reroot(&mut t);
    let a = audit_epoch(&t, &proposal(&t), Previous::NoFinalEpoch);
    assert_eq!(
        a.findings,
        vec![EpochFinding::HumanDiffers { project: ENV }]
    );
    // A thesis dropped from the pre-data replay's input: its record and the replay both differ.
    let mut t = h.clone();
    let k = t.theses.iter().position(|r| r.project == PRE).unwrap();
    t.theses.remove(k);
    reroot(&mut t);
    let a = audit_epoch(&t, &proposal(&t), Previous::NoFinalEpoch);
    assert!(a
        .findings
        .contains(&EpochFinding::HumanDiffers { project: PRE }));
}

#[test]
fn a_pre_data_cap_without_the_adjudicators_badge_is_named() {
    let h = human_epoch();
    let pre = h.human.iter().find(|r| r.project == PRE).unwrap();
    let flag = pre.verified.unwrap();
    // The chain agrees, or has no FeeLanes: nothing.
    assert!(verified_findings(&h, |_| Some(flag)).is_empty());
    assert!(verified_findings(&h, |_| None).is_empty());
    // The chain says otherwise: named, with both flags.
    assert_eq!(
        verified_findings(&h, |p| (p == PRE).then_some(!flag)),
        vec![EpochFinding::VerifiedDiffers {
            project: PRE,
            published: flag,
            chain: !flag
        }]
    );
}

#[test]
fn public_inputs_must_be_published_and_findings_are_capped() {
    let (b6, b7) = two_epochs();
    let mut t = b7.clone();
    let i = t.projects.iter().position(|p| !p.private).unwrap();
    t.projects[i].inputs = None;
    let a = audit_epoch(&t, &proposal(&t), prev(&b6));
    assert!(a.findings.contains(&EpochFinding::InputsPublication {
        project: t.projects[i].project,
        private: false
    }));
    // Every leaf hash wrong: at most MAX_FINDINGS listed, the rest counted.
    let mut big = build_epoch(&EpochInput {
        previous: vec![],
        ..cohort(100)
    })
    .unwrap();
    for p in &mut big.projects {
        p.leaf = B256::ZERO;
    }
    let a = audit_epoch(&big, &proposal(&big), Previous::NoFinalEpoch);
    assert_eq!(a.findings.len(), MAX_FINDINGS);
    assert_eq!(
        a.findings.len() + a.omitted,
        103,
        "every leaf hash (the root rebuilds from the values, and every score from its inputs)"
    );
}

/// C27: a project with an envelope publishes the envelope's score in its one score leaf and keeps its
/// systematic score in a systematic leaf; a root that publishes the systematic score instead (the
/// higher of the two, say), or drops the systematic leaf, is named.
#[test]
fn the_published_score_is_the_envelopes_and_the_systematic_leaf_is_kept() {
    let h = human_epoch();
    let a = audit_epoch(&h, &proposal(&h), Previous::NoFinalEpoch);
    assert!(a.is_correct(), "{:?}", a.findings);
    let j = h.projects.iter().position(|r| r.project == ENV).unwrap();
    let rec = &h.projects[j];
    let (sys, published) = (rec.score_wad, rec.published_wad);
    assert_eq!(h.envelope_score(ENV), Some(published));
    assert_eq!(
        rec.systematic_leaf,
        Some(crate::leaves::systematic_leaf(ENV, sys))
    );
    // Each project has exactly one score leaf in the tree, the pre-data one included.
    let leaves = h.leaves();
    for p in h.projects.iter().map(|p| (p.project, p.published_wad)) {
        let n = leaves
            .iter()
            .filter(|l| **l == crate::leaves::score_leaf(p.0, p.1))
            .count();
        assert_eq!(n, 1);
    }
    let pre = h.human.iter().find(|r| r.project == PRE).unwrap();
    assert!(leaves.contains(&crate::leaves::score_leaf(PRE, pre.score_wad)));
    // Another score published than the envelope's, re-rooted.
    let bent = published + crate::fixtures::w(1, 0);
    let mut t = h.clone();
    t.projects[j].published_wad = bent;
    t.projects[j].leaf = crate::leaves::score_leaf(ENV, bent);
    reroot(&mut t);
    let a = audit_epoch(&t, &proposal(&t), Previous::NoFinalEpoch);
    assert!(a.findings.contains(&EpochFinding::PublishedDiffers {
        index: j,
        project: ENV,
        published: bent,
        expected: published,
    }));
    // The systematic leaf dropped, re-rooted.
    let mut t = h.clone();
    t.projects[j].systematic_leaf = None;
    t.root = crate::scoring::tree::root(t.leaves()).unwrap();
    let a = audit_epoch(&t, &proposal(&t), Previous::NoFinalEpoch);
    assert!(a.findings.iter().any(|f| matches!(
        f,
        EpochFinding::LeafDiffers {
            leaf: LeafKind::Systematic,
            ..
        }
    )));
}

/// C8: a graded thesis's grading record is committed in `inputsRoot` by its grade leaf; a bundle that
/// names another record than the one the root was built with no longer gives the proposed inputs root.
#[test]
fn a_grade_record_is_bound_into_the_inputs_root() {
    let mut input = crate::fixtures::human_epoch_input();
    input.theses[0].grade_record = B256::repeat_byte(0x6a);
    let h = build_epoch(&input).unwrap();
    let leaf = crate::leaves::grade_leaf(
        h.theses[0].scorer_registry,
        h.theses[0].score_id,
        B256::repeat_byte(0x6a),
    );
    assert!(h.inputs_extra_leaves().contains(&leaf));
    assert_ne!(
        h.inputs_root,
        human_epoch().inputs_root,
        "the grade leaf is in the root"
    );
    assert!(audit_epoch(&h, &proposal(&h), Previous::NoFinalEpoch).is_correct());
    let mut other = h.clone();
    other.theses[0].grade_record = B256::repeat_byte(0x6b);
    let a = audit_epoch(&other, &proposal(&h), Previous::NoFinalEpoch);
    assert!(
        a.findings
            .iter()
            .any(|f| matches!(f, EpochFinding::InputsRootDiffers { .. })),
        "{:?}",
        a.findings
    );
}

/// C4, C27: after an epoch whose human layer moved a published score (and replayed a pre-data project), the
/// next epoch smooths from the systematic scores; the audit takes the same values (it once took the
/// published ones and challenged every correct root after a human move).
#[test]
fn the_next_epoch_smooths_from_systematic_scores_after_a_human_move() {
    let mut b6 = crate::fixtures::c9_example();
    b6.epoch = 6;
    let moved = b6
        .projects
        .iter()
        .find(|p| p.published_wad != p.score_wad)
        .expect("a human move");
    assert!(b6.pre_data().next().is_some());
    let mut second = crate::fixtures::human_epoch_input();
    second.theses.clear();
    second.pre_data.clear();
    second.previous = b6
        .projects
        .iter()
        .map(|p| PreviousScore {
            project: p.project,
            score_wad: p.score_wad,
        })
        .collect();
    second.previous_epoch = Some(6);
    let b7 = build_epoch(&second).unwrap();
    let a = audit_epoch(&b7, &proposal(&b7), prev(&b6));
    assert!(a.is_correct(), "{:?}", a.findings);
    let rec = b7
        .projects
        .iter()
        .find(|p| p.project == moved.project)
        .unwrap();
    assert_eq!(rec.previous_score_wad, moved.score_wad);
}
