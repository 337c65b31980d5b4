//! Each graded thesis's grading record (C8), re-derived: fetched from the publications by the hash the bundle
//! names (`gradeRecord`, committed in `inputsRoot`), with its configuration and its sources' snapshots (each
//! checked against its name, [`crate::chain::grades`]); then the copy verdict against every earlier thesis on
//! chain, `G` from the snapshots (`eden_core::scoring::thesis_grounding`) and `q` from the recorded samples
//! (`eden_core::scoring::recheck_record`). Findings stay typed ([`RecordFinding`]).

use crate::chain::grades::published_grade;
use crate::chain::rpc::RpcError;
use crate::chain::world::World;
use alloy_primitives::{Address, B256, U256};
use eden_core::check::ScoredEvent;
use eden_core::scoring::grade_record::{record_snapshots, GradingRecord, RecordFinding};
use eden_core::scoring::grounding::{thesis_grounding, Grounding};
use eden_core::scoring::EpochBundle;

/// One graded thesis's record, re-derived.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GradeRow {
    /// The score.
    pub score_id: U256,
    /// The record's hash (zero: the bundle names none).
    pub record: B256,
    /// The record re-derived, or why it could not be.
    pub report: Result<GradeReport, GradeUnread>,
}

/// What the page shows of a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GradeReport {
    /// The record as published.
    pub record: GradingRecord,
    /// The model named by the configuration, and whether its injection judgment counts.
    pub model: String,
    /// Whether the model's injection judgment counts.
    pub judgment_counts: bool,
    /// `G` with every quote's outcome, recomputed from the snapshots.
    pub grounding: Grounding,
    /// What the re-check found (empty: the record holds).
    pub findings: Vec<RecordFinding>,
}

/// Every thesis scored on chain as the copy check takes them (§4, C8): `(score id, thesis hash, text)`, in
/// the events' order.
pub fn corpus(scored: &[(ScoredEvent, String)]) -> Vec<(U256, B256, &str)> {
    scored
        .iter()
        .map(|(e, t)| (e.score_id, e.thesis_hash, t.as_str()))
        .collect()
}

/// The records of `project`'s graded theses in `bundle`, fetched and re-derived, in bundle order.
pub async fn check_grades(
    w: &World,
    bundle: &EpochBundle,
    project: Address,
    scored: &[(ScoredEvent, String)],
) -> Vec<GradeRow> {
    let chain = corpus(scored);
    let mut rows = Vec::new();
    for t in bundle.theses.iter().filter(|t| t.project == project) {
        rows.push(grade_row(w, t.score_id, t.grade_record, &chain).await);
    }
    rows
}

/// Score `score_id`'s record `record` fetched and re-derived against every `Scored` thesis `chain`.
pub async fn grade_row(
    w: &World,
    score_id: U256,
    record: B256,
    chain: &[(U256, B256, &str)],
) -> GradeRow {
    let report = if record.is_zero() {
        Err(GradeUnread::NoRecord)
    } else {
        match published_grade(w, record).await {
            Err(e) => Err(GradeUnread::Unpublished(e)),
            Ok(p) => match chain.iter().find(|(id, ..)| *id == score_id) {
                None => Err(GradeUnread::NotOnChain),
                Some((_, _, text)) => {
                    let snaps = record_snapshots(&p.record, &p.bodies);
                    let findings = eden_core::scoring::recheck_record(
                        &p.record, text, chain, &p.bodies, &p.config,
                    );
                    Ok(GradeReport {
                        grounding: thesis_grounding(text, &snaps),
                        model: p.config.model.clone(),
                        judgment_counts: p.config.judgment_counts,
                        record: p.record,
                        findings,
                    })
                }
            },
        }
    };
    GradeRow {
        score_id,
        record,
        report,
    }
}

/// Score `score_id`'s record `record` fetched and re-derived against every thesis scored on `registry` (the
/// Scorer page's graded scores, one at a time).
pub async fn grade_row_on(w: &World, registry: Address, score_id: U256, record: B256) -> GradeRow {
    match crate::chain::scorer::scored_with_texts(&w.rpc(), registry, w.deployment_block).await {
        Err(e) => GradeRow {
            score_id,
            record,
            report: Err(GradeUnread::ThesesUnread(e)),
        },
        Ok(list) => {
            let chain = corpus(&list);
            grade_row(w, score_id, record, &chain).await
        }
    }
}

/// Why a grading record could not be re-derived; [`super::words::grade_unread`] says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GradeUnread {
    /// The bundle names no grading record for this grade.
    NoRecord,
    /// The record, its configuration or a snapshot is not published (or not what its name says).
    Unpublished(String),
    /// No `Scored` event of this score on chain.
    NotOnChain,
    /// The theses on chain could not be read.
    ThesesUnread(RpcError),
}
