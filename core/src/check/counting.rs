//! Which theses a proposed epoch took, against the chain (C9a, C9b, C10a): what the watchtower challenges
//! and what the Score page names.
//!
//! Steps, with the bundle, the registry's `Scored` and `GradeOverridden` events up to the proposal, the
//! timestamp of the bundle's cutoff block and the previous final epoch's bundle:
//! 1. the cutoff: present whenever the chain has a score before the proposal; its block not after the
//!    proposal's; its time that block's timestamp; at most [`MAX_CUTOFF_AGE`] before the proposal (a root built
//!    from an old view of the chain would keep aged-out theses and dodge overrides);
//! 2. the left-pre-data set: `L_prev ∪ projects(prev) ∪ cohort` ([`crate::scoring::counting::left_pre_data`]);
//! 3. the theses: exactly the counting scores of [`crate::scoring::counting::counting`] (none left out, none
//!    extra, each with why);
//! 4. the pre-data projects: exactly the derived ones; one that left pre-data is never replayed again;
//! 5. the grade in force: where an override is in force at the cutoff, the bundle's `q`, verdict and matched
//!    thesis are the override's (a grade without one is checked against its record by [`super::grades`]).

use crate::scoring::counting::{
    counting, latest_override, AsOf, ChainScore, GradeOverride, WhyCounts, WhyNot,
};
use crate::scoring::EpochBundle;
use alloy_primitives::{Address, B256, U256};
use serde::Serialize;
use std::collections::BTreeSet;

/// How old a bundle's cutoff may be when its root is proposed (C9a, decided): one day. Building, signing and
/// proposing take minutes; a day leaves room for a committee's signatures without letting a signer pick an old
/// view of the chain.
pub const MAX_CUTOFF_AGE: u64 = 24 * 3600;

/// The previous final epoch, as far as the checker has it.
#[derive(Debug, Clone, Copy)]
pub enum PreviousLeft<'a> {
    /// The bundle names no previous epoch: `L_prev = ∅`.
    None,
    /// The previous final epoch's bundle.
    Bundle(&'a EpochBundle),
    /// It could not be read: step 2 is skipped (the epoch audit reports the previous bundle missing).
    Unknown,
}

/// What the chain says, for [`check_counting`].
#[derive(Debug, Clone, Copy)]
pub struct CountingChain<'a> {
    /// Every `Scored` event of the registry up to the proposal's block.
    pub scores: &'a [ChainScore],
    /// Every `GradeOverridden` event up to the proposal's block.
    pub overrides: &'a [GradeOverride],
    /// The proposal's block.
    pub proposal_block: u64,
    /// The proposal's block timestamp, when it was read.
    pub proposal_time: Option<u64>,
    /// The timestamp of the bundle's cutoff block, when it was read.
    pub cutoff_block_time: Option<u64>,
    /// The previous final epoch.
    pub previous: PreviousLeft<'a>,
}

/// Why a bundle's selection of theses is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "kind"
)]
pub enum CountingFinding {
    /// The chain has scores before the proposal, but the bundle names no cutoff.
    CutoffMissing,
    /// The cutoff block is after the proposal's.
    CutoffAfterProposal {
        /// The bundle's cutoff block.
        cutoff: u64,
        /// The proposal's block.
        proposal: u64,
    },
    /// The cutoff is more than [`MAX_CUTOFF_AGE`] older than the proposal.
    CutoffStale {
        /// The cutoff's time.
        cutoff_time: u64,
        /// The proposal's time.
        proposal_time: u64,
    },
    /// The cutoff time is not its block's timestamp.
    CutoffTimeWrong {
        /// The bundle's.
        published: u64,
        /// The chain's.
        chain: u64,
    },
    /// The left-pre-data set is not the previous one with the previous and this cohort added.
    LeftPreDataDiffers,
    /// A counting score is not among the bundle's theses.
    ThesisLeftOut {
        /// The score.
        #[serde(with = "crate::serde_dec::u256_id")]
        #[cfg_attr(feature = "js", tsify(type = "IntegerLike"))]
        score_id: U256,
    },
    /// A bundle thesis does not count (why, or `None` when the chain has no such score).
    ThesisDoesNotCount {
        /// The score.
        #[serde(with = "crate::serde_dec::u256_id")]
        #[cfg_attr(feature = "js", tsify(type = "IntegerLike"))]
        score_id: U256,
        /// Why not.
        why: Option<WhyNot>,
    },
    /// A project that left pre-data is replayed again (C10a: the first attested systematic score ends it
    /// for good).
    ReplaysProjectThatLeftPreData {
        /// The project.
        project: Address,
    },
    /// A project replayed as pre-data has no score on the chain.
    PreDataWithoutScore {
        /// The project.
        project: Address,
    },
    /// A pre-data project (scored, never systematic) is not replayed.
    PreDataLeftOut {
        /// The project.
        project: Address,
    },
    /// A grade is not the adjudicator's override in force.
    GradeNotInForce {
        /// The score.
        #[serde(with = "crate::serde_dec::u256_id")]
        #[cfg_attr(feature = "js", tsify(type = "IntegerLike"))]
        score_id: U256,
        /// `qualityWad`, `verdict` or `matchedThesis`.
        field: &'static str,
    },
}

/// The score ids an override is in force for at the bundle's cutoff (the grades [`super::grades`] does
/// not compare with their records).
pub fn overridden_ids(bundle: &EpochBundle, overrides: &[GradeOverride]) -> BTreeSet<U256> {
    let Some(as_of) = bundle.human_as_of else {
        return BTreeSet::new();
    };
    overrides
        .iter()
        .filter(|o| o.block <= as_of.block)
        .map(|o| o.score_id)
        .collect()
}

/// One score on the checked project, as the Score page lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountingRow {
    /// The score.
    pub score: ChainScore,
    /// Why it counts, or why not.
    pub why: Result<WhyCounts, WhyNot>,
    /// The adjudicator's grade in force at the cutoff (C9b), when there is one.
    pub overridden: Option<GradeOverride>,
    /// The bundle carries it.
    pub in_bundle: bool,
}

/// One project's selection checked: every score on it with why it counts or not, and the findings.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProjectCounting {
    /// The bundle's cutoff.
    pub as_of: Option<AsOf>,
    /// Every score on the project up to the proposal, in score-id order.
    pub rows: Vec<CountingRow>,
    /// What is wrong; empty when the bundle took exactly the counting theses with their grades in force.
    pub findings: Vec<CountingFinding>,
}

/// Steps 1–5 of the module doc, over the whole epoch.
pub fn check_counting(bundle: &EpochBundle, chain: &CountingChain<'_>) -> Vec<CountingFinding> {
    check_selection(bundle, chain, None).findings
}

/// Steps 1–5 for one project (what the Score page checks, from the project's light pack or the bundle): only
/// the scores on `project`, and its own membership of the left-pre-data set when it is outside the cohort.
pub fn check_project_counting(
    bundle: &EpochBundle,
    project: Address,
    chain: &CountingChain<'_>,
) -> ProjectCounting {
    check_selection(bundle, chain, Some(project))
}

fn check_selection(
    bundle: &EpochBundle,
    chain: &CountingChain<'_>,
    only: Option<Address>,
) -> ProjectCounting {
    let mut out = Vec::new();
    let mine = |p: &Address| only.is_none_or(|o| o == *p);
    let before: Vec<ChainScore> = chain
        .scores
        .iter()
        .filter(|s| s.block <= chain.proposal_block && mine(&s.project))
        .copied()
        .collect();
    let Some(as_of) = bundle.human_as_of else {
        if !before.is_empty() {
            out.push(CountingFinding::CutoffMissing);
        }
        return ProjectCounting {
            as_of: None,
            rows: Vec::new(),
            findings: out,
        };
    };
    out.extend(cutoff_findings(as_of, chain));
    let cohort: Vec<Address> = bundle.projects.iter().map(|p| p.project).collect();
    let left_before = match chain.previous {
        PreviousLeft::None => Vec::new(),
        PreviousLeft::Bundle(prev) => {
            let prev_projects: Vec<Address> = prev.projects.iter().map(|p| p.project).collect();
            crate::scoring::counting::left_pre_data(&prev.left_pre_data, &prev_projects, &[])
        }
        PreviousLeft::Unknown => bundle.left_pre_data.clone(),
    };
    let c = counting(&before, as_of, &cohort, &left_before);
    let left_differs = match only {
        None => c.left_pre_data != bundle.left_pre_data,
        // A cohort project is in the set by construction (a light pack does not carry the set for it).
        Some(p) if cohort.contains(&p) => false,
        Some(p) => {
            c.left_pre_data.binary_search(&p).is_ok()
                != bundle.left_pre_data.binary_search(&p).is_ok()
        }
    };
    if left_differs {
        out.push(CountingFinding::LeftPreDataDiffers);
    }
    let published: BTreeSet<U256> = bundle
        .theses
        .iter()
        .filter(|t| mine(&t.project))
        .map(|t| t.score_id)
        .collect();
    for id in c.counts.keys().filter(|id| !published.contains(id)) {
        out.push(CountingFinding::ThesisLeftOut { score_id: *id });
    }
    for id in published.iter().filter(|id| !c.counts.contains_key(id)) {
        out.push(CountingFinding::ThesisDoesNotCount {
            score_id: *id,
            why: c.not.get(id).copied(),
        });
    }
    let replayed: BTreeSet<Address> = bundle
        .pre_data()
        .map(|h| h.project)
        .filter(|p| mine(p))
        .collect();
    for p in &replayed {
        if c.pre_data.binary_search(p).is_ok() {
            continue;
        }
        out.push(if c.left_pre_data.binary_search(p).is_ok() {
            CountingFinding::ReplaysProjectThatLeftPreData { project: *p }
        } else {
            CountingFinding::PreDataWithoutScore { project: *p }
        });
    }
    for p in c.pre_data.iter().filter(|p| !replayed.contains(*p)) {
        out.push(CountingFinding::PreDataLeftOut { project: *p });
    }
    for t in bundle.theses.iter().filter(|t| mine(&t.project)) {
        let Some(o) = latest_override(chain.overrides, t.score_id, as_of.block) else {
            continue;
        };
        let matched_ok =
            o.verdict != crate::leaves::Verdict::Original || t.matched_thesis == B256::ZERO;
        let field = if t.quality_wad != o.quality_wad {
            Some("qualityWad")
        } else if t.verdict != u8::from(o.verdict) {
            Some("verdict")
        } else if !matched_ok {
            Some("matchedThesis")
        } else {
            None
        };
        if let Some(field) = field {
            out.push(CountingFinding::GradeNotInForce {
                score_id: t.score_id,
                field,
            });
        }
    }
    let rows = match only {
        None => Vec::new(),
        Some(_) => before
            .iter()
            .map(|s| CountingRow {
                score: *s,
                why: match c.counts.get(&s.score_id) {
                    Some(w) => Ok(*w),
                    None => Err(c
                        .not
                        .get(&s.score_id)
                        .copied()
                        .unwrap_or(WhyNot::AfterCutoff)),
                },
                overridden: latest_override(chain.overrides, s.score_id, as_of.block).copied(),
                in_bundle: published.contains(&s.score_id),
            })
            .collect(),
    };
    ProjectCounting {
        as_of: Some(as_of),
        rows,
        findings: out,
    }
}

fn cutoff_findings(as_of: AsOf, chain: &CountingChain<'_>) -> Vec<CountingFinding> {
    let mut out = Vec::new();
    if as_of.block > chain.proposal_block {
        out.push(CountingFinding::CutoffAfterProposal {
            cutoff: as_of.block,
            proposal: chain.proposal_block,
        });
    }
    if let Some(t) = chain
        .proposal_time
        .filter(|t| *t > as_of.time.saturating_add(MAX_CUTOFF_AGE))
    {
        out.push(CountingFinding::CutoffStale {
            cutoff_time: as_of.time,
            proposal_time: t,
        });
    }
    if let Some(t) = chain.cutoff_block_time.filter(|t| *t != as_of.time) {
        out.push(CountingFinding::CutoffTimeWrong {
            published: as_of.time,
            chain: t,
        });
    }
    out
}

#[cfg(test)]
#[path = "counting_tests.rs"]
mod tests;
