//! A thesis's grading record and its re-check (C8, decided): every grade re-checkable by anyone.
//!
//! `eden grade` writes one [`GradingRecord`] per `Scored` thesis and publishes it, content-addressed
//! (`grades/<keccak256 of the file>.json`), beside the snapshots of the sources it fetched
//! (`snapshots/<keccak256 of the body>`) and the grader's configuration ([`GraderConfig`],
//! `grader/<keccak256>.json`). [`recheck_record`] re-derives everything deterministic from a record, the
//! thesis text (from the chain), the earlier theses (from the chain) and the snapshots:
//! 1. the thesis hash is `keccak256(text)` and the record names the score it grades;
//! 2. the copy verdict, matched thesis and similarity, against every earlier thesis in score-id order;
//! 3. every snapshot's body hashes to the hash the record names;
//! 4. `G` from the snapshots ([`super::grounding`]) and the screening flags ([`super::injection`]);
//! 5. the rubric answers are in range and `q` follows from them ([`super::thesis::grade_thesis`]): three
//!    samples' criteria (integers 0–[`RUBRIC_MAX`], each `n / RUBRIC_MAX` of 1), the verifier's answer
//!    when the median is ≥ 0.8, injection from the screening or the model's judgment.
//!
//! What cannot be re-derived is the model's answers themselves: they are recorded as returned (`raw`),
//! and a watchtower with the pinned model can re-run them (`eden watch --rerun-model`).

use super::copy_detect::{thesis_hash, verdict_in_chain_order};
use super::grounding::{thesis_grounding, Snapshot};
use super::injection::{screen_thesis, InjectionFlag};
use super::thesis::{grade_thesis, ThesisSamples};
use crate::leaves::Verdict;
use crate::math::{U256, WAD};
use alloy_primitives::{keccak256, Address, B256};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The record format's name, first field of every record.
pub const GRADING_RECORD_FORMAT: &str = "eden-grading-record-v1";
/// The grader configuration's format name.
pub const GRADER_CONFIG_FORMAT: &str = "eden-grader-config-v1";
/// Each rubric criterion is an integer from 0 to `RUBRIC_MAX`, worth `n / RUBRIC_MAX`.
pub const RUBRIC_MAX: u8 = 10;

/// One model answer on the rubric: three criteria, integers 0–[`RUBRIC_MAX`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct RubricAnswer {
    /// The answer exactly as the model returned it.
    pub raw: String,
    /// Relevance of the thesis to the project's score.
    pub relevance: u8,
    /// Specificity: concrete, checkable claims.
    pub specificity: u8,
    /// Consistency of the submitted score with the thesis.
    pub consistency: u8,
}

impl RubricAnswer {
    /// The three criteria as WADs (`n · 10^18 / RUBRIC_MAX`, exact).
    pub fn wads(&self) -> [U256; 3] {
        let unit = WAD / U256::from(RUBRIC_MAX);
        [self.relevance, self.specificity, self.consistency].map(|n| U256::from(n) * unit)
    }

    /// Whether every criterion is within 0–[`RUBRIC_MAX`].
    pub fn in_range(&self) -> bool {
        [self.relevance, self.specificity, self.consistency]
            .iter()
            .all(|&n| n <= RUBRIC_MAX)
    }
}

/// The model's own judgment on whether the thesis tries to instruct the grader.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct InjectionJudgment {
    /// The answer as returned.
    pub raw: String,
    /// Its verdict.
    pub instructs_grader: bool,
}

/// One cited source as the grader fetched it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct SourceRecord {
    /// The URL as cited.
    pub url: String,
    /// `keccak256` of the body bytes: the snapshot's name (absent when the fetch failed).
    #[cfg_attr(feature = "js", tsify(optional))]
    pub snapshot: Option<B256>,
    /// The response's content type.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub content_type: Option<String>,
    /// Why it could not be fetched.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub error: Option<String>,
}

/// The copy verdict as recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct CopyRecord {
    /// The verdict's code (0 original … 3 copy).
    #[serde(with = "crate::leaves::verdict_code")]
    #[cfg_attr(feature = "js", tsify(type = "0 | 1 | 2 | 3"))]
    pub verdict: Verdict,
    /// The matched earlier thesis (zero for an original).
    pub matched_thesis: B256,
    /// `⌊J·10 000⌋` of the best match.
    pub similarity_bps: u32,
}

/// How the grading ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(
    tag = "status",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum GradeOutcome {
    /// Graded: `q` and its parts.
    Graded {
        /// `G`, WAD.
        #[serde(with = "crate::serde_dec::u256")]
        grounding_wad: U256,
        /// `R`, WAD.
        #[serde(with = "crate::serde_dec::u256")]
        rubric_wad: U256,
        /// Flagged by the screening or the model's judgment (`q = 0`).
        injection: bool,
        /// `q`, WAD.
        #[serde(with = "crate::serde_dec::u256")]
        quality_wad: U256,
    },
    /// Not graded this time (a model that did not answer, …): retried by the next `eden grade`.
    Failed {
        /// Why.
        reason: String,
    },
}

/// The grader's configuration: what every grade is pinned to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct GraderConfig {
    /// [`GRADER_CONFIG_FORMAT`].
    pub format: String,
    /// The model's name at its endpoint.
    pub model: String,
    /// sha256 of the model's weights file, when known (the embedded model's always is).
    #[cfg_attr(feature = "js", tsify(optional))]
    pub model_sha256: Option<String>,
    /// The verifier model's name (the same model with its own prompt by default).
    pub verifier_model: String,
    /// The system prompts, in full: `rubric`, `verifier`, `judgment`.
    pub prompts: BTreeMap<String, String>,
    /// Sampling temperature of the three rubric samples, in thousandths.
    pub sample_temperature_milli: u32,
    /// The three samples' seeds.
    pub sample_seeds: [u32; 3],
    /// Longest answer, in tokens.
    pub max_tokens: u32,
    /// Whether the model's injection judgment can flag a thesis (`q = 0`); it is asked and recorded
    /// either way. Off for the embedded 270M model, which answered "instructs the grader" for every text
    /// it was shown, honest ones included (docs/grader.md); on for a model that can tell.
    pub judgment_counts: bool,
}

impl GraderConfig {
    /// `keccak256` of its canonical JSON (`serde_json`, fields in declaration order): the name it is
    /// published under and the hash every record carries.
    pub fn hash(&self) -> B256 {
        keccak256(serde_json::to_vec(self).unwrap_or_default())
    }
}

/// One thesis's grading record (module doc).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct GradingRecord {
    /// [`GRADING_RECORD_FORMAT`].
    pub format: String,
    /// The registry holding the score.
    pub scorer_registry: Address,
    /// The score's id (`Scored.scoreId`).
    #[serde(with = "crate::serde_dec::u256")]
    pub score_id: U256,
    /// Who scored.
    pub scorer: Address,
    /// The scored project (its token).
    pub project: Address,
    /// `keccak256` of the thesis text.
    pub thesis_hash: B256,
    /// The submitted score, WAD points.
    #[serde(with = "crate::serde_dec::u256")]
    pub target_score_wad: U256,
    /// The copy verdict.
    pub copy: CopyRecord,
    /// Each cited URL, fetched once.
    pub sources: Vec<SourceRecord>,
    /// The deterministic screening's flags.
    pub screening: Vec<InjectionFlag>,
    /// The model's injection judgment (absent when grading failed before it).
    #[cfg_attr(feature = "js", tsify(optional))]
    pub judgment: Option<InjectionJudgment>,
    /// The three rubric samples.
    pub samples: Vec<RubricAnswer>,
    /// The verifier's answer, when the median was ≥ 0.8.
    #[cfg_attr(feature = "js", tsify(optional))]
    pub verifier: Option<RubricAnswer>,
    /// `keccak256` of the [`GraderConfig`] used.
    pub config_hash: B256,
    /// The result.
    pub outcome: GradeOutcome,
}

impl GradingRecord {
    /// The record's bytes as published (pretty JSON, stable field order).
    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec_pretty(self).unwrap_or_default()
    }

    /// `keccak256` of [`GradingRecord::to_bytes`]: its published name.
    pub fn hash(&self) -> B256 {
        keccak256(self.to_bytes())
    }

    /// `q` when graded.
    pub fn quality_wad(&self) -> Option<U256> {
        match self.outcome {
            GradeOutcome::Graded { quality_wad, .. } => Some(quality_wad),
            GradeOutcome::Failed { .. } => None,
        }
    }
}

/// A grading publication that is not what its name says.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PublishedError {
    /// The bytes do not hash to the name.
    #[error("{path}: its bytes hash to {got}, not to its name")]
    Hash {
        /// The path.
        path: String,
        /// What they hash to.
        got: B256,
    },
    /// The bytes do not parse.
    #[error("{path}: {detail}")]
    Parse {
        /// The path.
        path: String,
        /// Why.
        detail: String,
    },
}

/// The publication path of record `h`.
pub fn record_path(h: B256) -> String {
    format!("grades/{h}.json")
}

/// The publication path of configuration `h`.
pub fn config_path(h: B256) -> String {
    format!("grader/{h}.json")
}

/// The publication path of snapshot `h`.
pub fn snapshot_path(h: B256) -> String {
    format!("snapshots/{h}")
}

/// Checks that `bytes` hash to `h` (a file read from `path`).
pub fn named_bytes(path: &str, h: B256, bytes: &[u8]) -> Result<(), PublishedError> {
    let got = keccak256(bytes);
    if got != h {
        return Err(PublishedError::Hash {
            path: path.into(),
            got,
        });
    }
    Ok(())
}

/// The record published as `grades/<h>.json`: its bytes hash to `h` and parse.
pub fn record_from_bytes(h: B256, bytes: &[u8]) -> Result<GradingRecord, PublishedError> {
    let path = record_path(h);
    named_bytes(&path, h, bytes)?;
    serde_json::from_slice(bytes).map_err(|e| PublishedError::Parse {
        path,
        detail: e.to_string(),
    })
}

/// The configuration published as `grader/<h>.json`: its bytes hash to `h` and parse.
pub fn config_from_bytes(h: B256, bytes: &[u8]) -> Result<GraderConfig, PublishedError> {
    let path = config_path(h);
    named_bytes(&path, h, bytes)?;
    serde_json::from_slice(bytes).map_err(|e| PublishedError::Parse {
        path,
        detail: e.to_string(),
    })
}

/// `q` and its parts from a record's answers, `G` and flags (step 5), or why they do not give one.
pub fn quality_from(
    samples: &[RubricAnswer],
    verifier: Option<&RubricAnswer>,
    grounding_wad: U256,
    injection: bool,
    verdict: Verdict,
) -> Result<GradeOutcome, RecordFinding> {
    let [a, b, c] = samples else {
        return Err(RecordFinding::SampleCount { got: samples.len() });
    };
    if let Some(bad) = samples.iter().chain(verifier).find(|s| !s.in_range()) {
        return Err(RecordFinding::AnswerOutOfRange {
            raw: bad.raw.clone(),
        });
    }
    let verifier_regrade_wad = verifier.map(|v| {
        let [x, y, z] = v.wads();
        (x + y + z) / U256::from(3u8)
    });
    let g = grade_thesis(&ThesisSamples {
        samples: [a.wads(), b.wads(), c.wads()],
        verifier_regrade_wad,
        grounding_wad,
        injection,
        verdict,
    })
    .map_err(|e| RecordFinding::Ungradable {
        detail: e.to_string(),
    })?;
    Ok(GradeOutcome::Graded {
        grounding_wad,
        rubric_wad: g.rubric_wad,
        injection,
        quality_wad: g.quality_wad,
    })
}

/// A record's outcome from its own answers, flags and copy verdict, with `G` given: injection when the
/// screening flagged the thesis or, where the configuration lets it count, the model's judgment did.
pub fn outcome_of(
    record: &GradingRecord,
    grounding_wad: U256,
    config: &GraderConfig,
) -> Result<GradeOutcome, RecordFinding> {
    let judged =
        config.judgment_counts && record.judgment.as_ref().is_some_and(|j| j.instructs_grader);
    let injection = !record.screening.is_empty() || judged;
    quality_from(
        &record.samples,
        record.verifier.as_ref(),
        grounding_wad,
        injection,
        record.copy.verdict,
    )
}

/// The median of the samples' rubric means (WAD), when there are three: what decides the re-grade.
pub fn median_mean_wad(samples: &[RubricAnswer]) -> Option<U256> {
    let [a, b, c] = samples else { return None };
    let mean = |s: &RubricAnswer| s.wads().iter().fold(U256::ZERO, |x, y| x + y) / U256::from(3u8);
    Some(super::thesis::median3([mean(a), mean(b), mean(c)]))
}

/// What a re-check found wrong in a record; each names the step of the module doc.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum RecordFinding {
    /// Step 1: the text is not the one the record grades.
    #[error("the thesis text hashes to {text_hash}, the record grades {recorded}")]
    ThesisHash {
        /// `keccak256` of the text given.
        text_hash: B256,
        /// The record's.
        recorded: B256,
    },
    /// Step 2: the copy verdict differs.
    #[error("copy check: the record says verdict {recorded:?} ({recorded_bps} bps), the chain's theses give {derived:?} ({derived_bps} bps)")]
    CopyVerdict {
        /// Recorded verdict.
        recorded: Verdict,
        /// Recorded similarity.
        recorded_bps: u32,
        /// Re-derived verdict.
        derived: Verdict,
        /// Re-derived similarity.
        derived_bps: u32,
    },
    /// Step 3: a snapshot is missing or its body does not hash to its name.
    #[error("snapshot of {url}: {detail}")]
    Snapshot {
        /// The source.
        url: String,
        /// What is wrong.
        detail: String,
    },
    /// Step 4: `G` differs.
    #[error("G: the record says {recorded}, the snapshots give {derived}")]
    Grounding {
        /// Recorded.
        recorded: U256,
        /// Re-derived.
        derived: U256,
    },
    /// Step 4: the screening flags differ.
    #[error("screening: the record's flags are not what the rules give ({derived} flags)")]
    Screening {
        /// How many flags the rules give.
        derived: usize,
    },
    /// Step 5: not three samples.
    #[error("{got} rubric samples recorded, 3 required")]
    SampleCount {
        /// How many.
        got: usize,
    },
    /// Step 5: a criterion outside 0–10.
    #[error("a rubric answer is out of range: {raw}")]
    AnswerOutOfRange {
        /// The answer.
        raw: String,
    },
    /// Step 5: the answers do not give a grade (a verifier missing at R ≥ 0.8).
    #[error("the answers give no grade: {detail}")]
    Ungradable {
        /// Why.
        detail: String,
    },
    /// Step 5: the recorded outcome is not what the answers give.
    #[error("q: the record says {recorded:?}, its answers give {derived:?}")]
    Quality {
        /// Recorded.
        recorded: Box<GradeOutcome>,
        /// Re-derived.
        derived: Box<GradeOutcome>,
    },
    /// The record uses another grader configuration than the published one.
    #[error("grader configuration {recorded}, the published one is {published}")]
    Config {
        /// The record's.
        recorded: B256,
        /// The published one.
        published: B256,
    },
}

/// The record's sources as [`Snapshot`]s (content type from the record, body from `bodies`), for each
/// source whose body is given; what [`super::grounding::thesis_grounding`] takes.
pub fn record_snapshots(
    record: &GradingRecord,
    bodies: &BTreeMap<String, Vec<u8>>,
) -> BTreeMap<String, Snapshot> {
    record
        .sources
        .iter()
        .filter_map(|s| {
            let body = bodies.get(&s.url)?;
            let content_type = s.content_type.clone().unwrap_or_default();
            Some((
                s.url.clone(),
                Snapshot {
                    content_type,
                    body: String::from_utf8_lossy(body).into_owned(),
                },
            ))
        })
        .collect()
}

/// Snapshots by URL, each with the hash it was checked against.
pub type SnapshotBodies = BTreeMap<String, Snapshot>;

/// Re-checks `record` (module doc, steps 1–5) against the thesis `text`, every `Scored` thesis
/// `(score id, hash, text)` of the registry (any order), the snapshots' bodies by URL (as published,
/// their content types taken from the record), and the published configuration. Empty when the record
/// holds; a failed grading is checked up to step 4.
pub fn recheck_record(
    record: &GradingRecord,
    text: &str,
    scored: &[(U256, B256, &str)],
    bodies: &BTreeMap<String, Vec<u8>>,
    config: &GraderConfig,
) -> Vec<RecordFinding> {
    let published_config = config.hash();
    let mut out = Vec::new();
    let text_hash = thesis_hash(text);
    if text_hash != record.thesis_hash {
        out.push(RecordFinding::ThesisHash {
            text_hash,
            recorded: record.thesis_hash,
        });
        return out;
    }
    if record.config_hash != published_config {
        out.push(RecordFinding::Config {
            recorded: record.config_hash,
            published: published_config,
        });
    }
    if let Some(c) = verdict_in_chain_order(record.score_id, scored) {
        if c.verdict != record.copy.verdict
            || c.matched_thesis != record.copy.matched_thesis
            || c.similarity_bps() != record.copy.similarity_bps
        {
            out.push(RecordFinding::CopyVerdict {
                recorded: record.copy.verdict,
                recorded_bps: record.copy.similarity_bps,
                derived: c.verdict,
                derived_bps: c.similarity_bps(),
            });
        }
    }
    let mut snaps = BTreeMap::new();
    for s in &record.sources {
        let Some(h) = s.snapshot else { continue };
        match bodies.get(&s.url) {
            None => out.push(RecordFinding::Snapshot {
                url: s.url.clone(),
                detail: format!("{h} not given"),
            }),
            Some(b) if keccak256(b) != h => out.push(RecordFinding::Snapshot {
                url: s.url.clone(),
                detail: format!("the body hashes to {}, not {h}", keccak256(b)),
            }),
            Some(b) => {
                let content_type = s.content_type.clone().unwrap_or_default();
                snaps.insert(
                    s.url.clone(),
                    Snapshot {
                        content_type,
                        body: String::from_utf8_lossy(b).into_owned(),
                    },
                );
            }
        }
    }
    let grounding = thesis_grounding(text, &snaps);
    let flags = screen_thesis(text);
    if flags != record.screening {
        out.push(RecordFinding::Screening {
            derived: flags.len(),
        });
    }
    let GradeOutcome::Graded { grounding_wad, .. } = &record.outcome else {
        return out;
    };
    if *grounding_wad != grounding.grounding_wad {
        out.push(RecordFinding::Grounding {
            recorded: *grounding_wad,
            derived: grounding.grounding_wad,
        });
    }
    match outcome_of(record, grounding.grounding_wad, config) {
        Err(f) => out.push(f),
        Ok(derived) if derived != record.outcome => out.push(RecordFinding::Quality {
            recorded: Box::new(record.outcome.clone()),
            derived: Box::new(derived),
        }),
        Ok(_) => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(r: u8, s: u8, c: u8) -> RubricAnswer {
        RubricAnswer {
            raw: format!("{{\"relevance\":{r},\"specificity\":{s},\"consistency\":{c}}}"),
            relevance: r,
            specificity: s,
            consistency: c,
        }
    }

    const TEXT: &str = "Support got faster: \"resolved 1,204 tickets in the week\" [1].\n[1]: https://a.example/r\n";
    const BODY: &[u8] = b"<p>We resolved 1,204 tickets in the week to 3 March.</p>";

    fn config() -> GraderConfig {
        GraderConfig {
            format: GRADER_CONFIG_FORMAT.into(),
            model: "m".into(),
            model_sha256: None,
            verifier_model: "m".into(),
            prompts: BTreeMap::new(),
            sample_temperature_milli: 700,
            sample_seeds: [1, 2, 3],
            max_tokens: 64,
            judgment_counts: true,
        }
    }

    fn record() -> (GradingRecord, BTreeMap<String, Vec<u8>>) {
        let bodies: BTreeMap<String, Vec<u8>> =
            [("https://a.example/r".to_string(), BODY.to_vec())].into();
        let samples = vec![answer(7, 6, 8), answer(6, 6, 6), answer(9, 9, 9)];
        let outcome = quality_from(&samples, None, WAD, false, Verdict::Original).unwrap();
        let r = GradingRecord {
            format: GRADING_RECORD_FORMAT.into(),
            scorer_registry: Address::repeat_byte(1),
            score_id: U256::from(0),
            scorer: Address::repeat_byte(2),
            project: Address::repeat_byte(3),
            thesis_hash: thesis_hash(TEXT),
            target_score_wad: U256::from(60) * WAD,
            copy: CopyRecord {
                verdict: Verdict::Original,
                matched_thesis: B256::ZERO,
                similarity_bps: 0,
            },
            sources: vec![SourceRecord {
                url: "https://a.example/r".into(),
                snapshot: Some(keccak256(BODY)),
                content_type: Some("text/html".into()),
                error: None,
            }],
            screening: vec![],
            judgment: Some(InjectionJudgment {
                raw: "{\"instructsGrader\":false}".into(),
                instructs_grader: false,
            }),
            samples,
            verifier: None,
            config_hash: config().hash(),
            outcome,
        };
        (r, bodies)
    }

    #[test]
    fn an_honest_record_rechecks_and_its_q_is_the_median_times_g() {
        let (r, bodies) = record();
        // Means ⌊21/30⌋ = 0.7, 0.6, 0.9: the median 0.7; G = 1.
        assert_eq!(r.quality_wad(), Some(U256::from(7) * WAD / U256::from(10)));
        let scored = [(U256::ZERO, r.thesis_hash, TEXT)];
        assert!(recheck_record(&r, TEXT, &scored, &bodies, &config()).is_empty());
        // A record read back from its bytes is the same record.
        let back: GradingRecord = serde_json::from_slice(&r.to_bytes()).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn each_tampering_is_named() {
        let (r, bodies) = record();
        let scored = [(U256::ZERO, r.thesis_hash, TEXT)];
        let cfg = &config();
        let mut q = r.clone();
        q.outcome = GradeOutcome::Graded {
            grounding_wad: WAD,
            rubric_wad: WAD,
            injection: false,
            quality_wad: WAD,
        };
        assert!(matches!(
            recheck_record(&q, TEXT, &scored, &bodies, cfg)[..],
            [RecordFinding::Quality { .. }]
        ));
        let mut v = r.clone();
        v.copy.verdict = Verdict::Copy;
        assert!(recheck_record(&v, TEXT, &scored, &bodies, cfg)
            .iter()
            .any(|f| matches!(f, RecordFinding::CopyVerdict { .. })));
        let bad_body: BTreeMap<String, Vec<u8>> =
            [("https://a.example/r".to_string(), b"other".to_vec())].into();
        assert!(recheck_record(&r, TEXT, &scored, &bad_body, cfg)
            .iter()
            .any(|f| matches!(f, RecordFinding::Snapshot { .. })));
        assert!(matches!(
            recheck_record(&r, "other text", &scored, &bodies, cfg)[..],
            [RecordFinding::ThesisHash { .. }]
        ));
        let other = GraderConfig {
            max_tokens: 65,
            ..config()
        };
        assert!(matches!(
            recheck_record(&r, TEXT, &scored, &bodies, &other)[..],
            [RecordFinding::Config { .. }]
        ));
        let mut j = r.clone();
        j.judgment = Some(InjectionJudgment {
            raw: String::new(),
            instructs_grader: true,
        });
        assert!(matches!(
            recheck_record(&j, TEXT, &scored, &bodies, cfg)[..],
            [RecordFinding::Quality { .. }]
        ));
        // A judgment that does not count changes nothing (but its config is another one).
        let off = GraderConfig {
            judgment_counts: false,
            ..config()
        };
        j.config_hash = off.hash();
        assert!(recheck_record(&j, TEXT, &scored, &bodies, &off).is_empty());
    }

    #[test]
    fn a_high_median_needs_the_verifier_and_keeps_the_lower() {
        let samples = vec![answer(9, 9, 9), answer(8, 8, 8), answer(10, 10, 10)];
        assert!(matches!(
            quality_from(&samples, None, WAD, false, Verdict::Original),
            Err(RecordFinding::Ungradable { .. })
        ));
        let out = quality_from(
            &samples,
            Some(&answer(5, 5, 5)),
            WAD,
            false,
            Verdict::Original,
        )
        .unwrap();
        assert_eq!(
            out,
            GradeOutcome::Graded {
                grounding_wad: WAD,
                rubric_wad: WAD / U256::from(2),
                injection: false,
                quality_wad: WAD / U256::from(2)
            }
        );
        assert!(matches!(
            quality_from(
                &[answer(11, 0, 0), answer(0, 0, 0), answer(0, 0, 0)],
                None,
                WAD,
                false,
                Verdict::Original
            ),
            Err(RecordFinding::AnswerOutOfRange { .. })
        ));
    }
}
