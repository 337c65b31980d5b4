//! `eden grade`: every thesis scored on chain, graded, with a record anyone can re-check (C8).
//!
//! Steps, per `Scored` event in score-id order (each read once from the registry's logs):
//! 1. skip a score that already has a graded record in the publication directory (restart-safe, idempotent);
//! 2. copy detection against every earlier thesis (`eden_core::scoring::copy_detect`, chain order);
//! 3. each cited URL fetched once by [`fetch::SourceFetcher`] (hostile URLs refused), its body kept as a
//!    content-addressed snapshot;
//! 4. `G` by code (`eden_core::scoring::grounding`) and the deterministic screening
//!    (`eden_core::scoring::injection`);
//! 5. the model ([`model`]): its injection judgment, three rubric samples with the configuration's seeds,
//!    and the verifier's re-grade when the median is ≥ 0.8;
//! 6. `q` (`eden_core::scoring::grade_record::quality_from`) and the record written; a model that gives no
//!    usable answer makes a `failed` record with the reason, retried by the next run.
//!
//! | module | concern |
//! |---|---|
//! | [`fetch`] | sources fetched under the hostile-URL rules |
//! | [`model`] | the OpenAI-compatible client, schemas, bounded retries |
//! | [`prompt`] | system prompts and the thesis's unforgeable boundary |
//! | [`published`] | a proposed epoch's records read back from the publications (the watchtower's side) |
//! | [`rerun`] | the watchtower's `--rerun-model`: every recorded answer asked again and compared |
//! | [`store`] | the publication layout: `grades/`, `snapshots/`, `grader/`, the index |

pub mod fetch;
pub mod model;
pub mod prompt;
pub mod published;
pub mod rerun;
pub mod store;

use crate::abi::ScorerRegistry;
use crate::chain::Chain;
use crate::error::OpError;
use alloy::primitives::{Address, B256, U256};
use alloy::rpc::types::Filter;
use alloy::sol_types::SolEvent;
use eden_core::scoring::copy_detect::verdict_in_chain_order;
use eden_core::scoring::grade_record::{
    median_mean_wad, outcome_of, CopyRecord, GradeOutcome, GraderConfig, GradingRecord,
    SourceRecord, GRADER_CONFIG_FORMAT, GRADING_RECORD_FORMAT,
};
use eden_core::scoring::grounding::{cited_urls, thesis_grounding, Snapshot};
use eden_core::scoring::injection::screen_thesis;
use eden_core::scoring::thesis::REGRADE_THRESHOLD_WAD;
use model::{judgment_from, judgment_schema, rubric_from, rubric_schema, Decoding, ModelEndpoint};
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;
use store::GradeStore;

/// One thesis as scored on chain.
#[derive(Debug, Clone)]
pub struct ScoredThesis {
    /// `Scored.scoreId`.
    pub score_id: U256,
    /// Who scored.
    pub scorer: Address,
    /// The scored token.
    pub project: Address,
    /// The submitted score, WAD points.
    pub target_score_wad: U256,
    /// `keccak256(thesis)` as the registry computed it.
    pub thesis_hash: B256,
    /// The text.
    pub text: String,
}

/// Every `Scored` event of `registry` up to `head`, in score-id order.
///
/// # Errors
/// The node's errors.
pub async fn scored_theses(
    chain: &Chain,
    registry: Address,
    head: u64,
) -> Result<Vec<ScoredThesis>, OpError> {
    let filter = Filter::new()
        .address(registry)
        .event_signature(ScorerRegistry::Scored::SIGNATURE_HASH);
    let mut out: Vec<ScoredThesis> = chain
        .logs_since_deployment(&filter, head)
        .await?
        .iter()
        .filter_map(|l| l.log_decode::<ScorerRegistry::Scored>().ok())
        .map(|e| {
            let e = e.inner.data;
            ScoredThesis {
                score_id: e.scoreId,
                scorer: e.scorer,
                project: e.token,
                target_score_wad: e.targetScore,
                thesis_hash: e.thesisHash,
                text: e.thesis,
            }
        })
        .collect();
    out.sort_by_key(|t| t.score_id);
    Ok(out)
}

/// The grader: its model endpoints, fetcher and configuration.
pub struct Grader {
    /// The rubric and judgment model.
    pub model: ModelEndpoint,
    /// The verifier model.
    pub verifier: ModelEndpoint,
    /// The source fetcher.
    pub fetcher: fetch::SourceFetcher,
    /// The published configuration.
    pub config: GraderConfig,
    client: reqwest::Client,
}

impl Grader {
    /// A grader; `model_sha256` pins the weights when known; the three samples' temperature is
    /// `sample_temperature_milli / 1000`.
    pub fn new(
        model: ModelEndpoint,
        verifier: ModelEndpoint,
        fetcher: fetch::SourceFetcher,
        model_sha256: Option<String>,
        sample_temperature_milli: u32,
        judgment_counts: bool,
    ) -> Grader {
        let prompts = BTreeMap::from([
            ("judgment".to_string(), prompt::JUDGMENT.to_string()),
            ("rubric".to_string(), prompt::RUBRIC.to_string()),
            ("verifier".to_string(), prompt::VERIFIER.to_string()),
        ]);
        let config = GraderConfig {
            format: GRADER_CONFIG_FORMAT.into(),
            model: model.model.clone(),
            model_sha256,
            verifier_model: verifier.model.clone(),
            prompts,
            sample_temperature_milli,
            sample_seeds: [1, 2, 3],
            max_tokens: 64,
            judgment_counts,
        };
        Grader {
            model,
            verifier,
            fetcher,
            config,
            client: reqwest::Client::new(),
        }
    }

    fn decoding(&self, temperature_milli: u32, seed: u32) -> Decoding {
        Decoding {
            temperature: f64::from(temperature_milli) / 1000.0,
            seed,
            max_tokens: self.config.max_tokens,
        }
    }
}

/// One thesis's line in the report.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GradeLine {
    /// The score.
    #[serde(with = "u256_dec")]
    pub score_id: U256,
    /// `graded`, `failed` or `kept` (graded by an earlier run).
    pub status: &'static str,
    /// The record's hash.
    pub record: B256,
    /// `q` in WAD, when graded.
    #[serde(skip_serializing_if = "Option::is_none", with = "opt_u256_dec")]
    pub quality_wad: Option<U256>,
    /// Why it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Milliseconds spent.
    pub ms: u128,
}

/// What `eden grade` did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GradeReport {
    /// The configuration's hash (`grader/<hash>.json`).
    pub config: B256,
    /// Theses on chain.
    pub scored: usize,
    /// Graded this run.
    pub graded: usize,
    /// Failed this run (retried next run).
    pub failed: usize,
    /// Already graded.
    pub kept: usize,
    /// Every thesis.
    pub lines: Vec<GradeLine>,
}

/// `eden grade`: grades every `Scored` thesis not yet graded and writes the records into `store`,
/// reporting each thesis to `progress` as it finishes.
///
/// # Errors
/// The chain's or the file system's errors; a thesis's own failures are in its record.
pub async fn grade_all(
    chain: &Chain,
    grader: &Grader,
    store: &GradeStore,
    progress: &(dyn Fn(&GradeLine, usize, usize) + Sync),
) -> Result<GradeReport, OpError> {
    let registry = chain.net.contracts.scorer_registry.ok_or_else(|| {
        OpError::Refused("this deployment has no scorerRegistry in its network description".into())
    })?;
    let (head, _) = chain.head().await?;
    let theses = scored_theses(chain, registry, head).await?;
    let config = store.write_config(&grader.config)?;
    let mut index = store.read_index()?;
    index.config = config;
    let scored: Vec<(U256, B256, &str)> = theses
        .iter()
        .map(|t| (t.score_id, t.thesis_hash, t.text.as_str()))
        .collect();
    let mut report = GradeReport {
        config,
        scored: theses.len(),
        graded: 0,
        failed: 0,
        kept: 0,
        lines: vec![],
    };
    for (i, t) in theses.iter().enumerate() {
        let t0 = Instant::now();
        if let Some(h) = index.records.get(&t.score_id.to_string()) {
            if let Ok(r) = store.read_record(*h) {
                if let Some(q) = r.quality_wad() {
                    report.kept += 1;
                    let line = GradeLine {
                        score_id: t.score_id,
                        status: "kept",
                        record: *h,
                        quality_wad: Some(q),
                        reason: None,
                        ms: 0,
                    };
                    progress(&line, i + 1, theses.len());
                    report.lines.push(line);
                    continue;
                }
            }
        }
        let record = grade_one(grader, store, registry, t, &scored, config).await?;
        let hash = store.write_record(&record)?;
        index.records.insert(t.score_id.to_string(), hash);
        store.write_index(&index)?;
        let (status, reason) = match &record.outcome {
            GradeOutcome::Graded { .. } => {
                report.graded += 1;
                ("graded", None)
            }
            GradeOutcome::Failed { reason } => {
                report.failed += 1;
                ("failed", Some(reason.clone()))
            }
        };
        let line = GradeLine {
            score_id: t.score_id,
            status,
            record: hash,
            quality_wad: record.quality_wad(),
            reason,
            ms: t0.elapsed().as_millis(),
        };
        progress(&line, i + 1, theses.len());
        report.lines.push(line);
    }
    Ok(report)
}

/// Grades one thesis (module doc, steps 2–6).
async fn grade_one(
    grader: &Grader,
    store: &GradeStore,
    registry: Address,
    t: &ScoredThesis,
    scored: &[(U256, B256, &str)],
    config: B256,
) -> Result<GradingRecord, OpError> {
    let copy = verdict_in_chain_order(t.score_id, scored)
        .map(|c| CopyRecord {
            verdict: c.verdict,
            matched_thesis: c.matched_thesis,
            similarity_bps: c.similarity_bps(),
        })
        .unwrap_or(CopyRecord {
            verdict: eden_core::leaves::Verdict::Original,
            matched_thesis: B256::ZERO,
            similarity_bps: 0,
        });
    let mut sources = Vec::new();
    let mut snaps = BTreeMap::new();
    for url in cited_urls(&t.text) {
        match grader.fetcher.fetch(&url).await {
            Ok(f) => {
                let h = store.write_snapshot(&f.body)?;
                snaps.insert(
                    url.clone(),
                    Snapshot {
                        content_type: f.content_type.clone(),
                        body: String::from_utf8_lossy(&f.body).into_owned(),
                    },
                );
                sources.push(SourceRecord {
                    url,
                    snapshot: Some(h),
                    content_type: Some(f.content_type),
                    error: None,
                });
            }
            Err(e) => sources.push(SourceRecord {
                url,
                snapshot: None,
                content_type: None,
                error: Some(e.to_string()),
            }),
        }
    }
    let grounding = thesis_grounding(&t.text, &snaps);
    let screening = screen_thesis(&t.text);
    let mut record = GradingRecord {
        format: GRADING_RECORD_FORMAT.into(),
        scorer_registry: registry,
        score_id: t.score_id,
        scorer: t.scorer,
        project: t.project,
        thesis_hash: t.thesis_hash,
        target_score_wad: t.target_score_wad,
        copy,
        sources,
        screening,
        judgment: None,
        samples: vec![],
        verifier: None,
        config_hash: config,
        outcome: GradeOutcome::Failed {
            reason: String::new(),
        },
    };
    let user = prompt::user_message(t.project, t.target_score_wad, &t.text, &grounding);
    let fail = |mut r: GradingRecord, why: String| {
        r.outcome = GradeOutcome::Failed { reason: why };
        Ok(r)
    };
    let c = &grader.config;
    match grader
        .model
        .ask(
            &grader.client,
            prompt::JUDGMENT,
            &user,
            &judgment_schema(),
            grader.decoding(0, 0),
        )
        .await
    {
        Ok((raw, v)) => record.judgment = Some(judgment_from(raw, &v)),
        Err(e) => return fail(record, format!("injection judgment: {e}")),
    }
    for seed in c.sample_seeds {
        let d = grader.decoding(c.sample_temperature_milli, seed);
        match grader
            .model
            .ask(&grader.client, prompt::RUBRIC, &user, &rubric_schema(), d)
            .await
        {
            Ok((raw, v)) => record.samples.push(rubric_from(raw, &v)),
            Err(e) => return fail(record, format!("rubric sample (seed {seed}): {e}")),
        }
    }
    if median_mean_wad(&record.samples).is_some_and(|m| m >= REGRADE_THRESHOLD_WAD) {
        match grader
            .verifier
            .ask(
                &grader.client,
                prompt::VERIFIER,
                &user,
                &rubric_schema(),
                grader.decoding(0, 0),
            )
            .await
        {
            Ok((raw, v)) => record.verifier = Some(rubric_from(raw, &v)),
            Err(e) => return fail(record, format!("verifier: {e}")),
        }
    }
    match outcome_of(&record, grounding.grounding_wad, c) {
        Ok(outcome) => record.outcome = outcome,
        Err(e) => return fail(record, e.to_string()),
    }
    Ok(record)
}

mod u256_dec {
    pub(super) fn serialize<S: serde::Serializer>(
        v: &alloy::primitives::U256,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }
}

mod opt_u256_dec {
    pub(super) fn serialize<S: serde::Serializer>(
        v: &Option<alloy::primitives::U256>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => s.serialize_str(&v.to_string()),
            None => s.serialize_none(),
        }
    }
}
