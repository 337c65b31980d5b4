use super::*;
use crate::fixtures::{chain_scores, human_epoch_at, AS_OF, ENV, PRE};
use crate::scoring::counting::ChainScore;

const DAY: u64 = 86_400;

fn chain<'a>(
    scores: &'a [ChainScore],
    overrides: &'a [GradeOverride],
    previous: PreviousLeft<'a>,
) -> CountingChain<'a> {
    CountingChain {
        scores,
        overrides,
        proposal_block: 20,
        proposal_time: Some(AS_OF.time + 3600),
        cutoff_block_time: Some(AS_OF.time),
        previous,
    }
}

#[test]
fn the_selection_of_a_correct_build_checks() {
    let b = human_epoch_at();
    let scores = chain_scores(&b);
    assert_eq!(b.left_pre_data.len(), 6);
    assert!(check_counting(&b, &chain(&scores, &[], PreviousLeft::None)).is_empty());
}

#[test]
fn a_counting_score_left_out_is_named() {
    let b = human_epoch_at();
    let mut scores = chain_scores(&b);
    let mut extra = scores[0];
    extra.score_id = U256::from(0xc1);
    extra.scorer = Address::repeat_byte(0xc1);
    scores.push(extra);
    assert_eq!(
        check_counting(&b, &chain(&scores, &[], PreviousLeft::None)),
        vec![CountingFinding::ThesisLeftOut {
            score_id: U256::from(0xc1)
        }]
    );
    // After the cutoff it does not count yet.
    scores.last_mut().unwrap().block = 11;
    assert!(check_counting(&b, &chain(&scores, &[], PreviousLeft::None)).is_empty());
}

#[test]
fn a_thesis_whose_window_ended_does_not_count() {
    let b = human_epoch_at();
    let mut scores = chain_scores(&b);
    let a1 = scores
        .iter_mut()
        .find(|s| s.score_id == U256::from(0xa1))
        .unwrap();
    a1.at = AS_OF.time - 30 * DAY;
    assert_eq!(
        check_counting(&b, &chain(&scores, &[], PreviousLeft::None)),
        vec![CountingFinding::ThesisDoesNotCount {
            score_id: U256::from(0xa1),
            why: Some(WhyNot::WindowEnded { ended: AS_OF.time })
        }]
    );
}

#[test]
fn an_override_in_force_must_be_the_bundles_grade() {
    let b = human_epoch_at();
    let scores = chain_scores(&b);
    let over = GradeOverride {
        score_id: U256::from(0xa2),
        quality_wad: crate::fixtures::w(1, 1),
        verdict: crate::leaves::Verdict::Copy,
        block: 9,
        log_index: 0,
    };
    let found = check_counting(&b, &chain(&scores, &[over], PreviousLeft::None));
    assert_eq!(
        found,
        vec![CountingFinding::GradeNotInForce {
            score_id: U256::from(0xa2),
            field: "qualityWad"
        }]
    );
    // An override after the cutoff waits for the next epoch.
    let later = GradeOverride { block: 11, ..over };
    assert!(check_counting(&b, &chain(&scores, &[later], PreviousLeft::None)).is_empty());
    assert!(overridden_ids(&b, &[later]).is_empty());
    assert_eq!(overridden_ids(&b, &[over]).len(), 1);
}

#[test]
fn a_project_that_left_pre_data_is_never_replayed_again() {
    let b = human_epoch_at();
    let scores = chain_scores(&b);
    // The previous final epoch had a systematic score for PRE.
    let mut prev = human_epoch_at();
    prev.projects[0].project = PRE;
    let found = check_counting(&b, &chain(&scores, &[], PreviousLeft::Bundle(&prev)));
    assert!(found.contains(&CountingFinding::LeftPreDataDiffers));
    assert!(found.contains(&CountingFinding::ReplaysProjectThatLeftPreData { project: PRE }));
    assert!(found.contains(&CountingFinding::ThesisDoesNotCount {
        score_id: U256::from(0xb1),
        why: Some(WhyNot::ProjectNotInEpoch)
    }));
    // And a scored project that never left is replayed: leaving it out is named.
    let mut no_pre = human_epoch_at();
    no_pre.human.retain(|h| h.project != PRE);
    no_pre.theses.retain(|t| t.project != PRE);
    let found = check_counting(&no_pre, &chain(&scores, &[], PreviousLeft::None));
    assert!(found.contains(&CountingFinding::PreDataLeftOut { project: PRE }));
    assert_eq!(ENV, b.projects[0].project);
}

#[test]
fn the_cutoff_is_checked_against_the_chain() {
    let b = human_epoch_at();
    let scores = chain_scores(&b);
    let mut c = chain(&scores, &[], PreviousLeft::None);
    c.proposal_block = 9;
    c.cutoff_block_time = Some(AS_OF.time + 1);
    c.proposal_time = Some(AS_OF.time + MAX_CUTOFF_AGE + 1);
    assert_eq!(
        check_counting(&b, &c),
        vec![
            CountingFinding::CutoffAfterProposal {
                cutoff: 10,
                proposal: 9
            },
            CountingFinding::CutoffStale {
                cutoff_time: AS_OF.time,
                proposal_time: AS_OF.time + MAX_CUTOFF_AGE + 1
            },
            CountingFinding::CutoffTimeWrong {
                published: AS_OF.time,
                chain: AS_OF.time + 1
            }
        ]
    );
    let old = crate::fixtures::human_epoch();
    assert_eq!(
        check_counting(&old, &chain(&scores, &[], PreviousLeft::None)),
        vec![CountingFinding::CutoffMissing]
    );
}

#[test]
fn one_projects_selection_from_its_light_pack() {
    let b = human_epoch_at();
    let scores = chain_scores(&b);
    let packs = crate::check::build_packs(&b, None).unwrap();
    for project in [ENV, PRE] {
        let pack = packs
            .projects
            .iter()
            .find(|p| p.project == project)
            .unwrap();
        let light = crate::check::LightProofs::new(pack, None);
        assert!(light.findings().is_empty(), "{:?}", light.findings());
        let c = check_project_counting(
            light.bundle(),
            project,
            &chain(&scores, &[], PreviousLeft::None),
        );
        assert!(c.findings.is_empty(), "{project}: {:?}", c.findings);
        assert_eq!(c.rows.len(), 3);
        assert!(c.rows.iter().all(|r| r.in_bundle && r.why.is_ok()));
    }
    // The pre-data project's pack carries the left set, proven by the cutoff leaf; the cohort's does not.
    let pre = packs.projects.iter().find(|p| p.project == PRE).unwrap();
    assert_eq!(
        pre.human_cutoff.as_ref().unwrap().left_pre_data,
        b.left_pre_data
    );
    let env = packs.projects.iter().find(|p| p.project == ENV).unwrap();
    assert!(env.human_cutoff.as_ref().unwrap().left_pre_data.is_empty());
    // A pack whose cutoff was changed no longer proves.
    let mut bent = pre.clone();
    bent.human_cutoff.as_mut().unwrap().as_of.time += 1;
    assert_eq!(
        crate::check::LightProofs::new(&bent, None).findings(),
        &[crate::check::LightFinding::CutoffUnproven]
    );
    // Another project's scores do not concern this one's check.
    let mut more = scores.clone();
    let mut other = scores[0];
    other.score_id = U256::from(0xf0);
    other.project = Address::repeat_byte(0x77);
    more.push(other);
    let light = crate::check::LightProofs::new(
        packs.projects.iter().find(|p| p.project == ENV).unwrap(),
        None,
    );
    assert!(
        check_project_counting(light.bundle(), ENV, &chain(&more, &[], PreviousLeft::None))
            .findings
            .is_empty()
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    /// What `eden epoch build` takes (select, then build) is exactly what the check re-derives: no finding, for
    /// any scores, overrides and previous set.
    #[test]
    fn a_build_from_the_chain_checks(
        raw in proptest::collection::vec((0u8..4, 1u8..9, 0u64..20, 0u64..60, 0u64..=100), 0..24),
        over in proptest::collection::vec((0usize..24, 0u64..=100, 0u8..4, 0u64..25), 0..4),
        left_prev in proptest::collection::btree_set(7u8..9, 0..2),
    ) {
        use crate::scoring::counting::{select_theses, AsOf};
        use crate::leaves::Verdict;
        let mut block = 0;
        let scores: Vec<ChainScore> = raw.iter().enumerate().map(|(i, (scorer, project, db, day, _))| {
            block += db % 3;
            ChainScore {
                scorer_registry: Address::repeat_byte(0x5c),
                score_id: U256::from(i),
                scorer: Address::repeat_byte(0xa0 + scorer),
                project: Address::repeat_byte(*project),
                thesis_hash: alloy_primitives::B256::repeat_byte(i as u8),
                target_score_wad: crate::fixtures::w(50, 0),
                block,
                at: day * DAY,
            }
        }).collect();
        let records: std::collections::BTreeMap<U256, crate::scoring::bundle::GradedThesis> = scores.iter().zip(&raw).map(|(s, r)| {
            (s.score_id, crate::fixtures::graded(s.project, 0, s.target_score_wad, crate::fixtures::w(r.4, 2), Verdict::Original))
        }).map(|(id, mut g)| { g.score_id = id; let s = scores[id.to::<usize>()]; g.scorer = s.scorer; g.thesis_hash = s.thesis_hash; (id, g) }).collect();
        let overrides: Vec<GradeOverride> = over.iter().filter(|o| o.0 < scores.len()).map(|(i, q, v, b)| GradeOverride {
            score_id: U256::from(*i), quality_wad: crate::fixtures::w(*q, 2), verdict: Verdict::try_from(*v).unwrap(), block: *b, log_index: 0,
        }).collect();
        let as_of = AsOf { block: 15, time: 45 * DAY };
        let cohort: Vec<Address> = crate::fixtures::agents_projects().iter().map(|p| p.project).collect();
        let left_before: Vec<Address> = left_prev.iter().map(|b| Address::repeat_byte(*b)).collect();
        let sel = select_theses(&scores, &overrides, &records, as_of, &cohort, &left_before).unwrap();
        let bundle = crate::scoring::build_epoch(&crate::scoring::EpochInput {
            epoch: 7,
            tracks: vec![crate::scoring::TrackConfig::preset("agents").unwrap()],
            projects: crate::fixtures::agents_projects(),
            theses: sel.theses.iter().map(|t| t.thesis).collect(),
            pre_data: sel.pre_data.iter().map(|p| crate::scoring::bundle::PreDataProject { project: *p, verified: false }).collect(),
            human_as_of: Some(as_of),
            left_pre_data: left_before.clone(),
            ..Default::default()
        }).unwrap();
        let mut prev = crate::fixtures::human_epoch_at();
        prev.projects.clear();
        prev.left_pre_data = left_before;
        let c = CountingChain {
            scores: &scores,
            overrides: &overrides,
            proposal_block: 20,
            proposal_time: Some(as_of.time + 60),
            cutoff_block_time: Some(as_of.time),
            previous: PreviousLeft::Bundle(&prev),
        };
        proptest::prop_assert_eq!(check_counting(&bundle, &c), vec![]);
        for p in cohort.iter().chain(&sel.pre_data) {
            proptest::prop_assert!(check_project_counting(&bundle, *p, &c).findings.is_empty());
        }
    }
}
