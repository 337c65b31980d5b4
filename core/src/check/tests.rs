//! The checks on bundles built by `build_epoch`, on the seeds' C9 and C10 examples, and on tampered
//! bundles and chain reads.

use super::*;
use crate::leaves::{human_leaf, score_leaf, Verdict};
use crate::scoring::epoch::{build_epoch, EpochInput};
use crate::scoring::human_layer::{GradedThesis, PreDataProject};
use crate::scoring::{EpochBundle, TrackConfig, VerifyStep};
use crate::test_util::{agents_projects, w};
use alloy_primitives::{Address, B256, I256, U256};

const ENV: Address = Address::repeat_byte(1);
const PRE: Address = Address::repeat_byte(50);

fn thesis(project: Address, n: u8, target: U256, q: U256, verdict: Verdict) -> GradedThesis {
    GradedThesis {
        scorer_registry: Address::repeat_byte(0x5c),
        score_id: U256::from(n),
        scorer: Address::repeat_byte(n),
        project,
        thesis_hash: B256::repeat_byte(n),
        target_score_wad: target,
        quality_wad: q,
        verdict,
        matched_thesis: B256::ZERO,
    }
}

/// Project 0x01 (cohort) with the C9 example's theses, 0x32 pre-data with the C10 example's.
fn built() -> EpochBundle {
    build_epoch(&EpochInput {
        epoch: 7,
        tracks: vec![TrackConfig::preset("agents").unwrap()],
        projects: agents_projects(),
        theses: vec![
            thesis(ENV, 0xa1, w(70, 0), w(8, 1), Verdict::Original),
            thesis(PRE, 0xb1, w(80, 0), w(9, 1), Verdict::Original),
            thesis(ENV, 0xa2, w(56, 0), w(5, 1), Verdict::Derivative),
            thesis(ENV, 0xa3, w(90, 0), w(2, 1), Verdict::Original),
            thesis(PRE, 0xb2, w(60, 0), w(1, 0), Verdict::Similar),
            thesis(PRE, 0xb3, w(10, 0), w(5, 1), Verdict::Original),
        ],
        pre_data: vec![PreDataProject {
            project: PRE,
            verified: false,
        }],
        ..Default::default()
    })
    .unwrap()
}

/// The built bundle with project 0x01 moved to S = 60 (the C9 example) and re-rooted.
fn c9_example() -> EpochBundle {
    let mut b = built();
    let i = b.projects.iter().position(|p| p.project == ENV).unwrap();
    b.projects[i].score_wad = w(60, 0);
    b.projects[i].leaf = score_leaf(ENV, w(60, 0));
    let h = b.human.iter_mut().find(|h| h.project == ENV).unwrap();
    h.systematic_wad = Some(w(60, 0));
    h.envelope_wad = Some(w(96, 2));
    h.delta_wad = Some(I256::try_from(64_000_000_000_000_000i64).unwrap());
    h.score_wad = w(6384, 2);
    h.leaf = human_leaf(ENV, h.score_wad);
    b.root = full_tree(&b, B256::ZERO).unwrap().0;
    b
}

fn events(b: &EpochBundle) -> Vec<ScoredEvent> {
    b.theses
        .iter()
        .map(|t| ScoredEvent {
            score_id: t.score_id,
            scorer: t.scorer,
            token: t.project,
            thesis_hash: t.thesis_hash,
            target: t.target_score_wad,
        })
        .collect()
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
