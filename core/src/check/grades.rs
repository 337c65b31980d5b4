//! A proposed epoch's grades against their published grading records (C8): what a watchtower checks.
//!
//! For every graded thesis of the bundle, in bundle order:
//! 1. it names a grading record (`gradeRecord`, committed in `inputsRoot` by its grade leaf, which the
//!    inputs-root step of [`super::epoch`] already rebuilds);
//! 2. the record is published (`grades/<hash>.json`) and its bytes hash to that name, with the grader
//!    configuration it names (`grader/<hash>.json`) and its sources' snapshots — the caller fetches them and
//!    says why one is missing;
//! 3. the record grades this score: registry, score id, scorer, project, thesis hash, target, and its
//!    outcome is `graded` with the bundle's `q`, verdict and matched thesis — unless the adjudicator's
//!    override is in force for the score (C9b), whose grade [`super::counting`] checks instead;
//! 4. the record re-checks ([`crate::scoring::grade_record::recheck_record`]) against the thesis text of
//!    the score's `Scored` event and every earlier one: copy verdict, snapshots, `G`, screening, `q`.

use super::epoch::EpochFinding;
use crate::scoring::grade_record::{recheck_record, GraderConfig, GradingRecord};
use crate::scoring::EpochBundle;
use alloy_primitives::{B256, U256};
use std::collections::{BTreeMap, BTreeSet};

/// A grading record as published, with what it names.
#[derive(Debug, Clone)]
pub struct PublishedGrade {
    /// The record (its bytes hashed to its name).
    pub record: GradingRecord,
    /// The configuration it names (hashed to its name).
    pub config: GraderConfig,
    /// Its sources' snapshots by URL (each is checked against the record's hash in step 4).
    pub bodies: BTreeMap<String, Vec<u8>>,
}

/// Steps 1–4 of the module doc. `scored` is every `Scored` event `(score id, thesis hash, text)` of the
/// registry up to the proposal; `published` maps a record hash to the fetched record or why it could
/// not be read; `overridden` the scores an override is in force for ([`super::counting::overridden_ids`]).
pub fn audit_grades(
    bundle: &EpochBundle,
    scored: &[(U256, B256, &str)],
    published: &BTreeMap<B256, Result<PublishedGrade, String>>,
    overridden: &BTreeSet<U256>,
) -> Vec<EpochFinding> {
    let mut out = Vec::new();
    for t in &bundle.theses {
        let score_id = t.score_id;
        let over = overridden.contains(&score_id);
        if t.grade_record.is_zero() && over {
            continue;
        }
        if t.grade_record.is_zero() {
            out.push(EpochFinding::GradeRecordMissing { score_id });
            continue;
        }
        let p = match published.get(&t.grade_record) {
            Some(Ok(p)) => p,
            Some(Err(why)) => {
                out.push(EpochFinding::GradeRecordUnavailable {
                    score_id,
                    record: t.grade_record,
                    why: why.clone(),
                });
                continue;
            }
            None => {
                out.push(EpochFinding::GradeRecordUnavailable {
                    score_id,
                    record: t.grade_record,
                    why: "not fetched".into(),
                });
                continue;
            }
        };
        let r = &p.record;
        let differs = [
            ("scorerRegistry", r.scorer_registry != t.scorer_registry),
            ("scoreId", r.score_id != t.score_id),
            ("scorer", r.scorer != t.scorer),
            ("project", r.project != t.project),
            ("thesisHash", r.thesis_hash != t.thesis_hash),
            ("targetScoreWad", r.target_score_wad != t.target_score_wad),
            ("outcome", !over && r.quality_wad().is_none()),
            (
                "qualityWad",
                !over && r.quality_wad().is_some_and(|q| q != t.quality_wad),
            ),
            ("verdict", !over && u8::from(r.copy.verdict) != t.verdict),
            (
                "matchedThesis",
                !over && r.copy.matched_thesis != t.matched_thesis,
            ),
        ];
        if let Some((field, _)) = differs.iter().find(|(_, d)| *d) {
            out.push(EpochFinding::GradeDiffersFromRecord { score_id, field });
            continue;
        }
        let Some((_, _, text)) = scored.iter().find(|(id, ..)| *id == score_id) else {
            out.push(EpochFinding::GradeDiffersFromRecord {
                score_id,
                field: "scoreId (no such Scored event)",
            });
            continue;
        };
        for finding in recheck_record(r, text, scored, &p.bodies, &p.config) {
            out.push(EpochFinding::GradeRecordWrong { score_id, finding });
        }
    }
    out
}
