//! Which theses an epoch's human layer takes, derived from the chain alone (C9a, C9b, C10a).
//!
//! An epoch's bundle names its **cutoff** `as_of = (B, T)`: a block `B` and its timestamp `T` (the block the
//! build read the chain at). From the registry's `Scored` events at blocks `≤ B`, the adjudicator's
//! `GradeOverridden` events at blocks `≤ B`, the epoch's cohort and the previous final epoch's bundle:
//!
//! | step | rule |
//! |---|---|
//! | 1. left pre-data (C10a) | `L_E = L_prev ∪ projects(prev) ∪ cohort_E`, sorted: every project that ever had an attested systematic score |
//! | 2. envelope theses (C9a) | per cohort project, the **latest score of each scorer** (highest score id) with `T − 30 days < at ≤ T` |
//! | 3. pre-data projects (C10a) | every project with a score `≤ B` that is not in `L_E`: all its scores, in score-id order, replayed |
//! | 4. grade in force (C9b) | the latest override `≤ B` (its `q` and verdict; the record's matched thesis unless the verdict is original), else the grading record's grade |
//!
//! Scores on a project that left pre-data and has no systematic score this epoch wait for an epoch that
//! scores it. A counting score without a grade in force stops the build ([`CountingError::Ungraded`]): a
//! thesis is never silently left out. [`counting`] is steps 1–3 (no grades needed: what a watchtower and the
//! Score page re-derive), [`select_theses`] adds step 4.

pub use super::bundle::AsOf;
use super::bundle::GradedThesis;
use crate::leaves::Verdict;
use alloy_primitives::{Address, B256, U256};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// How long a thesis counts in the human envelope after it is scored (C9a): its reward position's length,
/// `POSITION_DURATION` (30 days, C12).
pub const COUNTING_WINDOW: u64 = 30 * 24 * 3600;

/// One `Scored` event with where and when it landed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct ChainScore {
    /// The registry holding it.
    pub scorer_registry: Address,
    /// `Scored.scoreId`.
    #[serde(with = "crate::serde_dec::u256_id")]
    #[cfg_attr(feature = "js", tsify(type = "IntegerLike"))]
    pub score_id: U256,
    /// `Scored.scorer`.
    pub scorer: Address,
    /// `Scored.token`.
    pub project: Address,
    /// `Scored.thesisHash`.
    pub thesis_hash: B256,
    /// `Scored.targetScore`, WAD points.
    #[serde(with = "crate::serde_dec::u256")]
    #[cfg_attr(feature = "js", tsify(type = "IntegerLike"))]
    pub target_score_wad: U256,
    /// The block it landed in.
    #[serde(with = "crate::serde_dec::int")]
    #[cfg_attr(feature = "js", tsify(type = "IntegerLike"))]
    pub block: u64,
    /// That block's timestamp (the registry's `Score.at`).
    #[serde(with = "crate::serde_dec::int")]
    #[cfg_attr(feature = "js", tsify(type = "IntegerLike"))]
    pub at: u64,
}

impl ChainScore {
    /// The score with a grade: `q`, `verdict`, no matched thesis and no grading record (the fields a grade
    /// adds to a score; [`grade_in_force`] fills them from the record or the override).
    pub fn graded(&self, quality_wad: U256, verdict: Verdict) -> GradedThesis {
        GradedThesis {
            scorer_registry: self.scorer_registry,
            score_id: self.score_id,
            scorer: self.scorer,
            project: self.project,
            thesis_hash: self.thesis_hash,
            target_score_wad: self.target_score_wad,
            quality_wad,
            verdict,
            matched_thesis: B256::ZERO,
            grade_record: B256::ZERO,
        }
    }
}

/// One `GradeOverridden` event (§4.1: the adjudicator's grade wins).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct GradeOverride {
    /// The score.
    #[serde(with = "crate::serde_dec::u256_id")]
    #[cfg_attr(feature = "js", tsify(type = "IntegerLike"))]
    pub score_id: U256,
    /// The adjudicator's `q`, WAD.
    #[serde(with = "crate::serde_dec::u256")]
    #[cfg_attr(feature = "js", tsify(type = "IntegerLike"))]
    pub quality_wad: U256,
    /// The adjudicator's verdict.
    #[serde(with = "crate::leaves::verdict_code")]
    #[cfg_attr(feature = "js", tsify(type = "0 | 1 | 2 | 3"))]
    pub verdict: Verdict,
    /// The block it landed in.
    #[serde(with = "crate::serde_dec::int")]
    #[cfg_attr(feature = "js", tsify(type = "IntegerLike"))]
    pub block: u64,
    /// Its index in that block's logs (a later one of the same block wins).
    #[serde(default, with = "crate::serde_dec::int")]
    #[cfg_attr(feature = "js", tsify(type = "IntegerLike", optional))]
    pub log_index: u64,
}

/// Why a score is in an epoch's human layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "kind"
)]
pub enum WhyCounts {
    /// C9a: its scorer's latest score on the project, inside its 30-day window, which ends at `ends`.
    Window {
        /// `at + COUNTING_WINDOW`.
        ends: u64,
    },
    /// C10a: the project is pre-data, so every score on it is replayed.
    PreDataReplay,
}

/// Why a score on a project of the epoch does not count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "kind"
)]
pub enum WhyNot {
    /// Its 30-day window ended at `ended`, at or before the cutoff.
    WindowEnded {
        /// `at + COUNTING_WINDOW`.
        ended: u64,
    },
    /// The same scorer scored the project again later (`by`).
    Replaced {
        /// The later score.
        #[serde(with = "crate::serde_dec::u256_id")]
        #[cfg_attr(feature = "js", tsify(type = "IntegerLike"))]
        by: U256,
    },
    /// Scored after the cutoff block.
    AfterCutoff,
    /// The project left pre-data and has no systematic score this epoch.
    ProjectNotInEpoch,
}

/// Steps 1–3 of the module doc: which scores count, and why.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counting {
    /// Every counting score id with why, in score-id order.
    pub counts: BTreeMap<U256, WhyCounts>,
    /// Every other score on a project of the chain, with why not.
    pub not: BTreeMap<U256, WhyNot>,
    /// The pre-data projects of the epoch (C10a), sorted.
    pub pre_data: Vec<Address>,
    /// `L_E`: every project that left pre-data, sorted.
    pub left_pre_data: Vec<Address>,
}

/// `L_E = L_prev ∪ projects(prev) ∪ cohort`, sorted and unique (C10a).
pub fn left_pre_data(
    previous_left: &[Address],
    previous_projects: &[Address],
    cohort: &[Address],
) -> Vec<Address> {
    let set: BTreeSet<Address> = previous_left
        .iter()
        .chain(previous_projects)
        .chain(cohort)
        .copied()
        .collect();
    set.into_iter().collect()
}

pub use crate::leaves::left_pre_data_hash;

/// Steps 1–3 (C9a, C10a): `scores` in any order; `cohort` the projects with a systematic score this epoch;
/// `left_before = L_prev ∪ projects(prev)`.
pub fn counting(
    scores: &[ChainScore],
    as_of: AsOf,
    cohort: &[Address],
    left_before: &[Address],
) -> Counting {
    let left = left_pre_data(left_before, &[], cohort);
    let in_cohort: BTreeSet<Address> = cohort.iter().copied().collect();
    let left_set: BTreeSet<Address> = left.iter().copied().collect();
    let mut sorted: Vec<&ChainScore> = scores.iter().collect();
    sorted.sort_by_key(|s| s.score_id);
    let mut out = Counting {
        left_pre_data: left,
        ..Counting::default()
    };
    // The latest score of each (scorer, project) up to the cutoff.
    let mut latest: BTreeMap<(Address, Address), U256> = BTreeMap::new();
    for s in sorted.iter().filter(|s| s.block <= as_of.block) {
        latest.insert((s.scorer, s.project), s.score_id);
    }
    let mut pre: BTreeSet<Address> = BTreeSet::new();
    for s in &sorted {
        let why = if s.block > as_of.block {
            Err(WhyNot::AfterCutoff)
        } else if in_cohort.contains(&s.project) {
            let ends = s.at.saturating_add(COUNTING_WINDOW);
            match latest.get(&(s.scorer, s.project)) {
                Some(l) if *l != s.score_id => Err(WhyNot::Replaced { by: *l }),
                _ if ends <= as_of.time => Err(WhyNot::WindowEnded { ended: ends }),
                _ => Ok(WhyCounts::Window { ends }),
            }
        } else if left_set.contains(&s.project) {
            Err(WhyNot::ProjectNotInEpoch)
        } else {
            pre.insert(s.project);
            Ok(WhyCounts::PreDataReplay)
        };
        match why {
            Ok(w) => {
                out.counts.insert(s.score_id, w);
            }
            Err(w) => {
                out.not.insert(s.score_id, w);
            }
        }
    }
    out.pre_data = pre.into_iter().collect();
    out
}

/// The grade in force of a score (C9b): the latest override at or before the cutoff, else `record`.
/// An override keeps the record's matched thesis unless its verdict is original (then zero), and its
/// grading record stays named (it is still the published record of the thesis).
pub fn grade_in_force(
    score: &ChainScore,
    record: Option<&GradedThesis>,
    overrides: &[GradeOverride],
    as_of_block: u64,
) -> Option<(GradedThesis, bool)> {
    let over = latest_override(overrides, score.score_id, as_of_block);
    let base = score.graded(U256::ZERO, Verdict::Original);
    match (over, record) {
        (Some(o), r) => {
            let matched = r.map_or(B256::ZERO, |r| r.matched_thesis);
            Some((
                GradedThesis {
                    quality_wad: o.quality_wad,
                    verdict: o.verdict,
                    matched_thesis: if o.verdict == Verdict::Original {
                        B256::ZERO
                    } else {
                        matched
                    },
                    grade_record: r.map_or(B256::ZERO, |r| r.grade_record),
                    ..base
                },
                true,
            ))
        }
        (None, Some(r)) => Some((
            GradedThesis {
                quality_wad: r.quality_wad,
                verdict: r.verdict,
                matched_thesis: r.matched_thesis,
                grade_record: r.grade_record,
                ..base
            },
            false,
        )),
        (None, None) => None,
    }
}

/// The override in force for `score_id` at `as_of_block`: the last `GradeOverridden` at or before it.
pub fn latest_override(
    overrides: &[GradeOverride],
    score_id: U256,
    as_of_block: u64,
) -> Option<&GradeOverride> {
    overrides
        .iter()
        .filter(|o| o.score_id == score_id && o.block <= as_of_block)
        .max_by_key(|o| (o.block, o.log_index))
}

/// A counting score with its grade in force.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selected {
    /// The grade in force, as the bundle carries it.
    pub thesis: GradedThesis,
    /// Why it counts.
    pub why: WhyCounts,
    /// The adjudicator's override is in force.
    pub overridden: bool,
}

/// What an epoch's human layer takes (all four steps).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HumanSelection {
    /// The counting theses with their grades in force, in score-id order.
    pub theses: Vec<Selected>,
    /// The pre-data projects (C10a), sorted.
    pub pre_data: Vec<Address>,
    /// `L_E`, sorted.
    pub left_pre_data: Vec<Address>,
    /// Scores that do not count, with why.
    pub not: BTreeMap<U256, WhyNot>,
}

/// Why an epoch's human layer cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CountingError {
    /// Counting scores with neither a grading record nor an override.
    #[error("these counting scores have no grade yet (run `eden grade`, C8): {}", ids(.score_ids))]
    Ungraded {
        /// The score ids.
        score_ids: Vec<U256>,
    },
}

fn ids(v: &[U256]) -> String {
    v.iter().map(U256::to_string).collect::<Vec<_>>().join(", ")
}

/// Steps 1–4: the counting theses with their grades in force. `records` are the grading records' grades by
/// score id.
///
/// # Errors
/// [`CountingError::Ungraded`] naming every counting score without a grade.
pub fn select_theses(
    scores: &[ChainScore],
    overrides: &[GradeOverride],
    records: &BTreeMap<U256, GradedThesis>,
    as_of: AsOf,
    cohort: &[Address],
    left_before: &[Address],
) -> Result<HumanSelection, CountingError> {
    let c = counting(scores, as_of, cohort, left_before);
    let by_id: BTreeMap<U256, &ChainScore> = scores.iter().map(|s| (s.score_id, s)).collect();
    let mut theses = Vec::with_capacity(c.counts.len());
    let mut ungraded = Vec::new();
    for (id, why) in &c.counts {
        let s = by_id[id];
        match grade_in_force(s, records.get(id), overrides, as_of.block) {
            Some((thesis, overridden)) => theses.push(Selected {
                thesis,
                why: *why,
                overridden,
            }),
            None => ungraded.push(*id),
        }
    }
    if !ungraded.is_empty() {
        return Err(CountingError::Ungraded {
            score_ids: ungraded,
        });
    }
    Ok(HumanSelection {
        theses,
        pre_data: c.pre_data,
        left_pre_data: c.left_pre_data,
        not: c.not,
    })
}

#[cfg(test)]
#[path = "counting_tests.rs"]
mod tests;
