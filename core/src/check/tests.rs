//! The checks on bundles built by `build_epoch`, on the seeds' C9 and C10 examples, and on tampered
//! bundles and chain reads.

use super::*;
use crate::fixtures::{agents_projects, c9_example, human_epoch, scored_events, w, ENV, PRE};
use crate::scoring::epoch::{build_epoch, EpochInput};
use crate::scoring::{EpochBundle, TrackConfig, VerifyStep};
use alloy_primitives::{Address, B256, I256, U256};

fn built() -> EpochBundle {
    human_epoch()
}

fn events(b: &EpochBundle) -> Vec<ScoredEvent> {
    scored_events(b)
}

#[test]
fn the_c9_example_recomputes_to_63_84_and_reaches_the_root() {
    let b = c9_example();
    let c = check_human(&b, ENV, Some(b.root), Some(&events(&b)), None)
        .unwrap()
        .unwrap();
    assert_eq!(c.findings, []);
    assert!(c.verified());
    assert_eq!(c.recomputed, w(6384, 2));
    assert_eq!(
        c.detail,
        HumanDetail::Envelope {
            systematic: w(60, 0),
            envelope: w(96, 2),
            delta: I256::try_from(64_000_000_000_000_000i64).unwrap(),
            counted: 2
        }
    );
    assert_eq!(
        c.rows.iter().map(|r| r.counts).collect::<Vec<_>>(),
        [true, true, false]
    );
    assert!(c.rows.iter().all(|r| r.chain == ChainTarget::Matches));
    // Its public inputs no longer give S = 60: the systematic check's only finding.
    let s = check_score(&b, ENV, Some(b.root), None).unwrap();
    assert!(s.leaf_reaches_chain && s.rebuilt_root == b.root);
    assert!(matches!(
        s.findings.as_slice(),
        [ScoreFinding::RecomputeDiffers {
            from_own_file: false,
            ..
        }]
    ));
}

#[test]
fn the_c10_example_replays_0_18_23_20_5_with_the_unverified_cap() {
    let b = built();
    let c = check_human(&b, PRE, Some(b.root), None, None)
        .unwrap()
        .unwrap();
    assert_eq!(c.findings, []);
    assert_eq!(
        c.detail,
        HumanDetail::PreData {
            path: vec![w(18, 0), w(23, 0), w(205, 1)],
            verified: false,
            cap: w(50, 0)
        }
    );
    // Pending (C7): recomputed, not verified.
    let p = check_human(&b, PRE, None, None, None).unwrap().unwrap();
    assert!(p.findings.is_empty() && !p.verified());
    // The chain says Verified; the bundle replayed unverified.
    let v = check_human(&b, PRE, Some(b.root), None, Some(true))
        .unwrap()
        .unwrap();
    assert!(v.findings.contains(&HumanFinding::VerifiedDiffers {
        bundle: false,
        chain: true
    }));
    assert_eq!(
        check_human(&b, Address::repeat_byte(2), Some(b.root), None, None),
        Ok(None)
    );
}

#[test]
fn changed_numbers_and_chain_reads_are_findings() {
    let b = c9_example();
    let mut ev = events(&b);
    ev[0].target += U256::from(1u8);
    let c = check_human(&b, ENV, Some(b.root), Some(&ev), None)
        .unwrap()
        .unwrap();
    assert!(matches!(c.rows[0].chain, ChainTarget::Differs(_)) && !c.verified());
    let c = check_human(&b, ENV, Some(b.root), Some(&ev[1..]), None)
        .unwrap()
        .unwrap();
    assert!(c.findings.contains(&HumanFinding::ScoreNotOnChain {
        thesis: B256::repeat_byte(0xa1),
        score_id: U256::from(0xa1)
    }));
    let mut t = b.clone();
    t.human
        .iter_mut()
        .find(|h| h.project == ENV)
        .unwrap()
        .score_wad += w(1, 0);
    let c = check_human(&t, ENV, Some(b.root), None, None)
        .unwrap()
        .unwrap();
    assert!(!c.reaches_chain);
    assert!(c
        .findings
        .iter()
        .any(|f| matches!(f, HumanFinding::ScoreDiffers { .. })));
    // C27: the tree's score leaf still carries the published 63.84; the bent record's is not in it.
    assert!(c.findings.contains(&HumanFinding::LeafMismatch));
    // Bent in the project's score leaf too and re-rooted: the published score is named.
    let mut t = b.clone();
    let p = t.projects.iter_mut().find(|p| p.project == ENV).unwrap();
    p.published_wad += w(1, 0);
    p.leaf = crate::leaves::score_leaf(ENV, p.published_wad);
    t.root = full_tree(&t, B256::ZERO).unwrap().0;
    let c = check_human(&t, ENV, Some(b.root), None, None)
        .unwrap()
        .unwrap();
    assert!(c.findings.contains(&HumanFinding::PublishedDiffers {
        published: w(6484, 2),
        recomputed: w(6384, 2),
    }));
    assert!(c
        .findings
        .iter()
        .any(|f| matches!(f, HumanFinding::OnchainRootDiffers { .. })));
    // A bad verdict code is an error, not a finding.
    let mut t = b;
    t.theses[0].verdict = 9;
    assert!(matches!(
        check_human(&t, ENV, Some(t.root), None, None),
        Err(CheckError::InvalidVerdict { .. })
    ));
}

#[test]
fn a_systematic_score_checks_from_the_bundle_or_an_own_inputs_file() {
    let b = build_epoch(&EpochInput {
        epoch: 7,
        tracks: vec![TrackConfig::preset("agents").unwrap()],
        projects: agents_projects(),
        ..Default::default()
    })
    .unwrap();
    let p = Address::repeat_byte(2);
    let c = check_score(&b, p, Some(b.root), None).unwrap();
    assert!(c.findings.is_empty() && c.leaf_reaches_chain);
    let rec = b.projects.iter().find(|r| r.project == p).unwrap();
    let own =
        parse_own_inputs(&serde_json::to_string(rec.inputs.as_ref().unwrap()).unwrap()).unwrap();
    let mut wrong = own.clone();
    wrong.data.claims += 1;
    let c = check_score(&b, p, Some(b.root), Some(&wrong)).unwrap();
    assert_eq!(
        c.findings,
        [ScoreFinding::RecomputeDiffers {
            step: VerifyStep::Commitment,
            from_own_file: true
        }]
    );
    let mut t = b.clone();
    t.projects[1].score_wad += U256::from(1u8);
    let c = check_score(&t, p, Some(b.root), None).unwrap();
    assert!(!c.leaf_reaches_chain);
    assert!(c
        .findings
        .iter()
        .any(|f| matches!(f, ScoreFinding::OnchainRootDiffers { .. })));
    assert_eq!(
        check_score(&b, Address::repeat_byte(99), None, None),
        Err(CheckError::NoSystematicScore)
    );
    assert!(parse_own_inputs("{\"track\": 1}").is_err());
}

#[test]
fn every_verify_step_name_is_its_serialised_form() {
    use VerifyStep::*;
    for s in [
        Project, Track, Commitment, InputsRoot, Normalised, Raw, Gate, Smoothed, Published, Leaf,
        Root,
    ] {
        assert_eq!(serde_json::to_value(s).unwrap(), s.name());
    }
}

#[test]
fn one_shared_tree_gives_the_same_checks_as_separate_ones() {
    for b in [c9_example(), built()] {
        let tree = BundleTree::new(&b);
        let ev = events(&b);
        for p in b
            .projects
            .iter()
            .map(|p| p.project)
            .chain(b.human.iter().map(|h| h.project))
        {
            assert_eq!(
                check_score_in(&tree, p, Some(b.root), None),
                check_score(&b, p, Some(b.root), None)
            );
            assert_eq!(
                check_human_in(&tree, p, Some(b.root), Some(&ev), None),
                check_human(&b, p, Some(b.root), Some(&ev), None)
            );
        }
        // The shared tree is the full tree: its root and every leaf's proof.
        let t = tree.tree().unwrap();
        assert_eq!(t.root(), full_tree(&b, B256::ZERO).unwrap().0);
        for h in &b.human {
            assert_eq!(t.proof(&h.leaf), full_tree(&b, h.leaf).unwrap().1);
            assert_eq!(t.proof(&h.leaf), b.proof(&h.leaf));
        }
    }
}
