//! Test fixtures shared by this crate's tests and, with the `fixtures` feature, by other crates'
//! tests (the app's): a small `agents` cohort and the epoch of the seeds' C9 and C10 examples. One
//! home, so no test imports another module's tests.

use crate::check::{full_tree, ScoredEvent};
use crate::leaves::{score_leaf, systematic_leaf, Verdict};
use crate::scoring::epoch::{build_epoch, EpochInput, PreviousScore, ProjectData, ProjectInput};
use crate::scoring::human_layer::{GradedThesis, PreDataProject};
use crate::scoring::{EpochBundle, TrackConfig};
use alloy_primitives::{Address, B256, I256, U256};

/// `x × 10^(18 − decimals)`: `w(6384, 2)` is 63.84 as a WAD.
pub fn w(x: u64, decimals: u32) -> U256 {
    U256::from(x) * U256::from(10u8).pow(U256::from(18 - decimals))
}

/// Six public `agents` projects 0x01…0x06 with growing features.
pub fn agents_projects() -> Vec<ProjectInput> {
    (1u8..=6)
        .map(|i| ProjectInput {
            project: Address::repeat_byte(i),
            data: ProjectData {
                track: "agents".into(),
                features: vec![
                    U256::from(1000u32 * u32::from(i)),
                    U256::from(10u32 * u32::from(i)),
                    U256::from(i),
                    U256::from(5000u32),
                ],
                claims: 10,
                failed: 1,
                verified_output: U256::from(100u32),
                age_secs: 30 * 86_400,
            },
            salt: B256::ZERO,
            private: false,
        })
        .collect()
}

/// The envelope project of [`human_epoch`] (0x01, in the cohort).
pub const ENV: Address = Address::repeat_byte(1);
/// The pre-data project of [`human_epoch`] (0x32).
pub const PRE: Address = Address::repeat_byte(50);

/// The grade of score `n` (scorer `n`, thesis hash `n…n`) of registry 0x5c…5c.
pub fn graded(project: Address, n: u8, target: U256, q: U256, verdict: Verdict) -> GradedThesis {
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
        grade_record: B256::ZERO,
    }
}

/// Epoch 7 built by `build_epoch`: [`ENV`] with the C9 example's theses, [`PRE`] pre-data with the
/// C10 example's, interleaved in submission order.
pub fn human_epoch() -> EpochBundle {
    build_epoch(&human_epoch_input()).expect("the fixture builds")
}

/// The input [`human_epoch`] is built from.
pub fn human_epoch_input() -> EpochInput {
    EpochInput {
        epoch: 7,
        tracks: vec![TrackConfig::preset("agents").expect("a preset")],
        projects: agents_projects(),
        theses: vec![
            graded(ENV, 0xa1, w(70, 0), w(8, 1), Verdict::Original),
            graded(PRE, 0xb1, w(80, 0), w(9, 1), Verdict::Original),
            graded(ENV, 0xa2, w(56, 0), w(5, 1), Verdict::Derivative),
            graded(ENV, 0xa3, w(90, 0), w(2, 1), Verdict::Original),
            graded(PRE, 0xb2, w(60, 0), w(1, 0), Verdict::Similar),
            graded(PRE, 0xb3, w(10, 0), w(5, 1), Verdict::Original),
        ],
        pre_data: vec![PreDataProject {
            project: PRE,
            verified: false,
        }],
        ..Default::default()
    }
}

/// The cutoff of [`human_epoch_at`]: block 10 at day 40.
pub const AS_OF: crate::scoring::counting::AsOf = crate::scoring::counting::AsOf {
    block: 10,
    time: 40 * 86_400,
};

/// [`human_epoch`] built with the cutoff [`AS_OF`] (C9a): its theses are the counting scores of
/// [`chain_scores`].
pub fn human_epoch_at() -> EpochBundle {
    build_epoch(&EpochInput {
        human_as_of: Some(AS_OF),
        ..human_epoch_input()
    })
    .expect("the fixture builds")
}

/// The `Scored` events of a bundle's theses with where and when they landed: block 5, day 30 (inside
/// [`AS_OF`]'s 30-day window).
pub fn chain_scores(b: &EpochBundle) -> Vec<crate::scoring::counting::ChainScore> {
    b.theses
        .iter()
        .map(|t| crate::scoring::counting::ChainScore {
            scorer_registry: t.scorer_registry,
            score_id: t.score_id,
            scorer: t.scorer,
            project: t.project,
            thesis_hash: t.thesis_hash,
            target_score_wad: t.target_score_wad,
            block: 5,
            at: 30 * 86_400,
        })
        .collect()
}

/// [`human_epoch`] with [`ENV`] moved to S = 60 (the C9 example: envelope 0.96, Δ = +0.064, human
/// score 63.84) and re-rooted.
pub fn c9_example() -> EpochBundle {
    let mut b = human_epoch();
    if let Some(p) = b.projects.iter_mut().find(|p| p.project == ENV) {
        p.score_wad = w(60, 0);
        p.published_wad = w(6384, 2);
        p.leaf = score_leaf(ENV, w(6384, 2));
        p.systematic_leaf = Some(systematic_leaf(ENV, w(60, 0)));
    }
    if let Some(h) = b.human.iter_mut().find(|h| h.project == ENV) {
        h.systematic_wad = Some(w(60, 0));
        h.envelope_wad = Some(w(96, 2));
        h.delta_wad = Some(I256::from_raw(w(64, 3)));
        h.score_wad = w(6384, 2);
        h.leaf = score_leaf(ENV, h.score_wad);
    }
    b.root = full_tree(&b, B256::ZERO).expect("leaves").0;
    b
}

/// The ScorerRegistry's `Scored` events of a bundle's theses, as the chain would have them.
pub fn scored_events(b: &EpochBundle) -> Vec<ScoredEvent> {
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

/// A deterministic, well-spread address for index `i`.
pub fn addr(i: u64) -> Address {
    let mut b = [0u8; 20];
    b[12..].copy_from_slice(&(i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).to_be_bytes());
    b[0] = (i % 251) as u8;
    Address::from(b)
}

/// A deterministic cohort: `n` agents projects (+ a few apps), some private.
pub fn cohort(n: u64) -> EpochInput {
    let mut projects = Vec::new();
    for i in 0..n {
        let v = |k: u64| U256::from((i * 7919 + k * 104_729) % (1000 + k * 300));
        projects.push(ProjectInput {
            project: addr(i),
            data: ProjectData {
                track: "agents".into(),
                features: vec![
                    v(1) * U256::from(1000u32),
                    v(2) / U256::from(4u8),
                    v(3) / U256::from(8u8),
                    v(4) * U256::from(9u8),
                ],
                claims: 10 + i % 5,
                failed: i % 3,
                verified_output: U256::from(i % 4),
                age_secs: if i % 6 == 0 { 0 } else { 30 * 86_400 },
            },
            salt: B256::from(U256::from(i + 1)),
            private: i % 2 == 0,
        });
    }
    for i in 0..3u64 {
        projects.push(ProjectInput {
            project: addr(10_000 + i),
            data: ProjectData {
                track: "apps".into(),
                features: vec![
                    U256::from(1_000_000 * (i + 1)),
                    U256::from(2_000u32),
                    U256::from(100u32),
                    U256::from(5u8),
                ],
                claims: 0,
                failed: 0,
                verified_output: U256::from(10u8),
                age_secs: 100 * 86_400,
            },
            salt: B256::ZERO,
            private: false,
        });
    }
    let previous = (0..n / 2)
        .map(|i| PreviousScore {
            project: addr(i * 2 + 1),
            score_wad: crate::math::parse_wad("40").expect("a WAD")
                + U256::from(i) * U256::from(100u32),
        })
        .collect();
    EpochInput {
        epoch: 7,
        tracks: vec![TrackConfig::agents(), TrackConfig::apps()],
        projects,
        previous,
        ..Default::default()
    }
}
