//! `eden watch --rerun-model`: re-asks the pinned model what each grading record says it answered (C8).
//!
//! The deterministic parts of a grade are re-derived by `eden_core::check::audit_grades`; the model's
//! answers can only be asked again. With the configuration's own prompts, seeds, temperature and token
//! limit, and the user message rebuilt from the chain's thesis and the snapshots, each recorded answer (the
//! injection judgment, the three samples, the verifier's) is asked again and compared. A difference is
//! reported, never challenged: a model on other hardware, or another build of it, may sample otherwise.
//! Only a root whose audit found nothing is re-run (a wrong root is challenged anyway).

use super::model::{
    judgment_from, judgment_schema, rubric_from, rubric_schema, Decoding, ModelEndpoint,
};
use super::prompt;
use alloy::primitives::{B256, U256};
use eden_core::check::PublishedGrade;
use eden_core::scoring::grade_record::{record_snapshots, RubricAnswer};
use eden_core::scoring::grounding::thesis_grounding;
use eden_core::scoring::EpochBundle;
use serde::Serialize;
use std::collections::BTreeMap;

/// One thesis's answers asked again.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct RerunLine {
    /// The score.
    pub score_id: String,
    /// Answers asked again.
    pub asked: usize,
    /// Of them, the same as recorded.
    pub same: usize,
    /// Each answer that differs: which, recorded, now.
    pub differs: Vec<String>,
    /// Why it could not be re-run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

fn scores(a: &RubricAnswer) -> (u8, u8, u8) {
    (a.relevance, a.specificity, a.consistency)
}

/// Re-asks every recorded answer of the bundle's graded theses.
pub async fn rerun(
    model: &ModelEndpoint,
    bundle: &EpochBundle,
    scored: &[(U256, B256, &str)],
    published: &BTreeMap<B256, Result<PublishedGrade, String>>,
) -> Vec<RerunLine> {
    let client = reqwest::Client::new();
    let mut out = Vec::new();
    for t in &bundle.theses {
        let mut line = RerunLine {
            score_id: t.score_id.to_string(),
            asked: 0,
            same: 0,
            differs: vec![],
            error: None,
        };
        let (Some(Ok(p)), Some((_, _, text))) = (
            published.get(&t.grade_record),
            scored.iter().find(|(id, ..)| *id == t.score_id),
        ) else {
            line.error = Some("no published record or no Scored text".into());
            out.push(line);
            continue;
        };
        let (r, c) = (&p.record, &p.config);
        // The configuration's model name (an endpoint serving several picks by it).
        let model = &ModelEndpoint {
            model: c.model.clone(),
            ..model.clone()
        };
        let snaps = record_snapshots(r, &p.bodies);
        let user = prompt::user_message(
            r.project,
            r.target_score_wad,
            text,
            &thesis_grounding(text, &snaps),
        );
        let system = |k: &str| c.prompts.get(k).cloned().unwrap_or_default();
        let d = |milli: u32, seed: u32| Decoding {
            temperature: f64::from(milli) / 1000.0,
            seed,
            max_tokens: c.max_tokens,
        };
        if let Some(j) = &r.judgment {
            line.asked += 1;
            match model
                .ask(
                    &client,
                    &system("judgment"),
                    &user,
                    &judgment_schema(),
                    d(0, 0),
                )
                .await
            {
                Ok((raw, v))
                    if judgment_from(raw.clone(), &v).instructs_grader == j.instructs_grader =>
                {
                    line.same += 1
                }
                Ok((raw, _)) => line
                    .differs
                    .push(format!("judgment: recorded {}, now {raw}", j.raw)),
                Err(e) => line.differs.push(format!("judgment: {e}")),
            }
        }
        let asks = r
            .samples
            .iter()
            .zip(c.sample_seeds)
            .map(|(s, seed)| ("rubric", s, d(c.sample_temperature_milli, seed)));
        let verifier = r.verifier.iter().map(|s| ("verifier", s, d(0, 0)));
        for (which, recorded, dec) in asks.chain(verifier) {
            line.asked += 1;
            match model
                .ask(&client, &system(which), &user, &rubric_schema(), dec)
                .await
            {
                Ok((raw, v)) if scores(&rubric_from(raw.clone(), &v)) == scores(recorded) => {
                    line.same += 1
                }
                Ok((raw, _)) => line.differs.push(format!(
                    "{which} (seed {}): recorded {}, now {raw}",
                    dec.seed, recorded.raw
                )),
                Err(e) => line
                    .differs
                    .push(format!("{which} (seed {}): {e}", dec.seed)),
            }
        }
        out.push(line);
    }
    out
}
