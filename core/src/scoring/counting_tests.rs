use super::*;
use alloy_primitives::keccak256;
use proptest::prelude::*;

const DAY: u64 = 24 * 3600;

fn addr(n: u8) -> Address {
    Address::repeat_byte(n)
}

fn score(id: u64, scorer: u8, project: u8, block: u64, at: u64) -> ChainScore {
    ChainScore {
        scorer_registry: addr(0xee),
        score_id: U256::from(id),
        scorer: addr(scorer),
        project: addr(project),
        thesis_hash: B256::repeat_byte(id as u8),
        target_score_wad: U256::from(60) * crate::math::WAD,
        block,
        at,
    }
}

fn record(s: &ChainScore, q: u64, verdict: Verdict) -> GradedThesis {
    GradedThesis {
        scorer_registry: s.scorer_registry,
        score_id: s.score_id,
        scorer: s.scorer,
        project: s.project,
        thesis_hash: s.thesis_hash,
        target_score_wad: s.target_score_wad,
        quality_wad: U256::from(q) * U256::from(10u64.pow(16)),
        verdict,
        matched_thesis: if verdict == Verdict::Original {
            B256::ZERO
        } else {
            B256::repeat_byte(0xab)
        },
        grade_record: B256::repeat_byte(0x11),
    }
}

/// The worked example of `docs/protocol.md` C9a/C10a: cutoff block 100 at day 40; cohort {P}; Q left
/// pre-data in an earlier epoch; R never had a systematic score.
#[test]
fn worked_example() {
    let t = 40 * DAY;
    let scores = [
        score(0, 1, 0xa, 10, 5 * DAY), // scorer 1 on P, day 5: window ended day 35
        score(1, 2, 0xa, 20, 12 * DAY), // scorer 2 on P, day 12: replaced by #3
        score(2, 3, 0xb, 30, 20 * DAY), // scorer 3 on Q: Q left pre-data, no score this epoch
        score(3, 2, 0xa, 40, 26 * DAY), // scorer 2 on P, day 26: counts until day 56
        score(4, 1, 0xc, 50, 30 * DAY), // scorer 1 on R: pre-data, replayed
        score(5, 3, 0xc, 60, 34 * DAY), // scorer 3 on R: replayed
        score(6, 4, 0xa, 101, 41 * DAY), // after the cutoff
    ];
    let c = counting(
        &scores,
        AsOf {
            block: 100,
            time: t,
        },
        &[addr(0xa)],
        &[addr(0xb)],
    );
    let u = U256::from;
    assert_eq!(
        c.counts.iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>(),
        vec![
            (u(3), WhyCounts::Window { ends: 56 * DAY }),
            (u(4), WhyCounts::PreDataReplay),
            (u(5), WhyCounts::PreDataReplay),
        ]
    );
    assert_eq!(c.not[&u(0)], WhyNot::WindowEnded { ended: 35 * DAY });
    assert_eq!(c.not[&u(1)], WhyNot::Replaced { by: u(3) });
    assert_eq!(c.not[&u(2)], WhyNot::ProjectNotInEpoch);
    assert_eq!(c.not[&u(6)], WhyNot::AfterCutoff);
    assert_eq!(c.pre_data, vec![addr(0xc)]);
    assert_eq!(c.left_pre_data, vec![addr(0xa), addr(0xb)]);
}

#[test]
fn the_window_is_half_open() {
    let t = 100 * DAY;
    let last_second = score(0, 1, 0xa, 1, t - COUNTING_WINDOW + 1);
    let ended = score(1, 2, 0xa, 1, t - COUNTING_WINDOW);
    let c = counting(
        &[last_second, ended],
        AsOf { block: 1, time: t },
        &[addr(0xa)],
        &[],
    );
    assert!(c.counts.contains_key(&U256::ZERO));
    assert_eq!(c.not[&U256::from(1)], WhyNot::WindowEnded { ended: t });
}

#[test]
fn a_replaced_score_stays_replaced_after_its_successor_ages_out() {
    // The successor's window ended too: the scorer has no counting thesis, the older one does not return.
    let t = 100 * DAY;
    let c = counting(
        &[score(0, 1, 0xa, 1, 60 * DAY), score(1, 1, 0xa, 2, 65 * DAY)],
        AsOf { block: 5, time: t },
        &[addr(0xa)],
        &[],
    );
    assert!(c.counts.is_empty());
    assert_eq!(c.not[&U256::ZERO], WhyNot::Replaced { by: U256::from(1) });
}

#[test]
fn a_score_after_the_cutoff_replaces_nothing() {
    let c = counting(
        &[score(0, 1, 0xa, 1, 10 * DAY), score(1, 1, 0xa, 9, 11 * DAY)],
        AsOf {
            block: 5,
            time: 12 * DAY,
        },
        &[addr(0xa)],
        &[],
    );
    assert_eq!(
        c.counts[&U256::ZERO],
        WhyCounts::Window {
            ends: 10 * DAY + COUNTING_WINDOW
        }
    );
    assert_eq!(c.not[&U256::from(1)], WhyNot::AfterCutoff);
}

#[test]
fn pre_data_ends_with_the_first_systematic_score_for_good() {
    let scores = [score(0, 1, 0xc, 1, DAY), score(1, 2, 0xc, 2, 2 * DAY)];
    let at = AsOf {
        block: 10,
        time: 3 * DAY,
    };
    // Epoch 1: pre-data.
    let e1 = counting(&scores, at, &[addr(0xa)], &[]);
    assert_eq!(e1.pre_data, vec![addr(0xc)]);
    // Epoch 2: in the cohort, so its theses go through the envelope window.
    let e2 = counting(&scores, at, &[addr(0xa), addr(0xc)], &e1.left_pre_data);
    assert!(e2.pre_data.is_empty());
    assert!(matches!(e2.counts[&U256::ZERO], WhyCounts::Window { .. }));
    // Epoch 3: out of the cohort again, never replayed again.
    let e3 = counting(&scores, at, &[addr(0xa)], &e2.left_pre_data);
    assert!(e3.pre_data.is_empty() && e3.counts.is_empty());
    assert_eq!(e3.not[&U256::ZERO], WhyNot::ProjectNotInEpoch);
    assert!(e3.left_pre_data.contains(&addr(0xc)));
}

#[test]
fn the_latest_override_before_the_cutoff_is_in_force() {
    let s = score(7, 1, 0xa, 1, DAY);
    let r = record(&s, 80, Verdict::Similar);
    let o = |q: u64, verdict, block, log_index| GradeOverride {
        score_id: s.score_id,
        quality_wad: U256::from(q),
        verdict,
        block,
        log_index,
    };
    let overrides = [
        o(1, Verdict::Copy, 5, 0),
        o(2, Verdict::Original, 5, 3),
        o(3, Verdict::Similar, 9, 0),
    ];
    // Before any override: the record's grade.
    let (g, over) = grade_in_force(&s, Some(&r), &overrides, 4).unwrap();
    assert!(!over);
    assert_eq!(g, r);
    // The later log of block 5 wins; an original verdict has no matched thesis; the record stays named.
    let (g, over) = grade_in_force(&s, Some(&r), &overrides, 8).unwrap();
    assert!(over);
    assert_eq!(
        (g.quality_wad, g.verdict, g.matched_thesis, g.grade_record),
        (U256::from(2), Verdict::Original, B256::ZERO, r.grade_record)
    );
    let (g, _) = grade_in_force(&s, Some(&r), &overrides, 9).unwrap();
    assert_eq!(
        (g.quality_wad, g.matched_thesis),
        (U256::from(3), r.matched_thesis)
    );
    // An override grades a score that has no record.
    let (g, over) = grade_in_force(&s, None, &overrides, 9).unwrap();
    assert!(over && g.grade_record.is_zero());
    assert!(grade_in_force(&s, None, &overrides, 4).is_none());
}

#[test]
fn a_counting_score_without_a_grade_stops_the_build() {
    let scores = [score(0, 1, 0xa, 1, DAY), score(1, 2, 0xa, 1, DAY)];
    let records: BTreeMap<U256, GradedThesis> =
        [(U256::ZERO, record(&scores[0], 50, Verdict::Original))]
            .into_iter()
            .collect();
    let err = select_theses(
        &scores,
        &[],
        &records,
        AsOf {
            block: 1,
            time: 2 * DAY,
        },
        &[addr(0xa)],
        &[],
    )
    .unwrap_err();
    assert_eq!(
        err,
        CountingError::Ungraded {
            score_ids: vec![U256::from(1)]
        }
    );
    assert!(err.to_string().contains(": 1"));
}

#[test]
fn left_pre_data_hash_is_packed_addresses() {
    let h = left_pre_data_hash(&[addr(1), addr(2)]);
    let mut b = [1u8; 40];
    b[20..].fill(2);
    assert_eq!(h, keccak256(b));
    assert_eq!(left_pre_data_hash(&[]), keccak256([]));
}

fn arb_scores() -> impl Strategy<Value = Vec<ChainScore>> {
    prop::collection::vec((0u8..4, 0u8..5, 0u64..50, 0u64..90), 0..40).prop_map(|v| {
        let mut block = 0;
        v.into_iter()
            .enumerate()
            .map(|(i, (scorer, project, dblock, day))| {
                block += dblock % 3;
                score(i as u64, scorer, project, block, day * DAY)
            })
            .collect()
    })
}

proptest! {
    /// Every score is either counting or not, once; at most one counting score per (scorer, cohort
    /// project), inside its window; pre-data projects are exactly the scored ones outside `L_E`.
    #[test]
    fn counting_partitions_and_is_one_per_scorer(
        scores in arb_scores(),
        cohort in prop::collection::btree_set(0u8..5, 0..5),
        left in prop::collection::btree_set(0u8..5, 0..5),
        block in 0u64..60,
        day in 0u64..120,
    ) {
        let cohort: Vec<Address> = cohort.into_iter().map(addr).collect();
        let left: Vec<Address> = left.into_iter().map(addr).collect();
        let as_of = AsOf { block, time: day * DAY };
        let c = counting(&scores, as_of, &cohort, &left);
        prop_assert_eq!(c.counts.len() + c.not.len(), scores.len());
        let mut seen = BTreeSet::new();
        for s in &scores {
            match c.counts.get(&s.score_id) {
                Some(WhyCounts::Window { ends }) => {
                    prop_assert!(cohort.contains(&s.project));
                    prop_assert!(s.block <= block && *ends > as_of.time);
                    prop_assert!(seen.insert((s.scorer, s.project)));
                }
                Some(WhyCounts::PreDataReplay) => {
                    prop_assert!(c.pre_data.contains(&s.project));
                    prop_assert!(s.block <= block);
                }
                None => prop_assert!(c.not.contains_key(&s.score_id)),
            }
        }
        for p in &c.pre_data {
            prop_assert!(!c.left_pre_data.contains(p));
        }
        for p in cohort.iter().chain(&left) {
            prop_assert!(c.left_pre_data.contains(p));
        }
    }

    /// Pre-data ends for good: over a run of epochs, each `L` carried to the next, a project never
    /// returns to pre-data after a cohort held it.
    #[test]
    fn pre_data_never_returns(
        scores in arb_scores(),
        cohorts in prop::collection::vec(prop::collection::btree_set(0u8..5, 0..3), 1..6),
    ) {
        let mut left: Vec<Address> = Vec::new();
        let mut ever: BTreeSet<Address> = BTreeSet::new();
        for (e, cohort) in cohorts.into_iter().enumerate() {
            let cohort: Vec<Address> = cohort.into_iter().map(addr).collect();
            ever.extend(cohort.iter().copied());
            let c = counting(&scores, AsOf { block: 10 * e as u64 + 10, time: 30 * DAY }, &cohort, &left);
            for p in &c.pre_data {
                prop_assert!(!ever.contains(p));
            }
            left = c.left_pre_data;
        }
    }
}
