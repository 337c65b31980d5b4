//! JS exports for `crate::scoring` (C1–C4 pipeline, epoch bundle and verification, C8 copy check).
//!
//! - `normalise(values, refLo, refHi)` → WAD strings (cohort P5/P95 when ≥ 20 values, else the reference bounds).
//! - `smoothScore(previousWad, gatedWad)` → WAD string (`s_t`, α = 0.4, rounded down).
//! - `trackPreset(name)` → a track configuration object ("agents", "research", "apps"; PLACEHOLDER features).
//! - `buildEpoch(input)` → bundle object.
//! - `verifyProjectScore(bundle, project, inputs, salt)` → report object.
//! - `epochProof(bundle, leafHash)` → the proof of a score, quality or human leaf in the epoch tree.
//! - `copyCheck(thesisText, earlier)` → `{verdict, verdictCode, matchedThesis, similarityBps, shared, union}`.
//!
//! Integer fields (`epoch`, `claims`, `failed`, `ageSecs`) are safe-integer numbers or decimal strings
//! (`super::JsInt`); `buildEpoch` input crosses as JSON, so BigInts are accepted only by `verifyProjectScore`.

use super::js_error;
use super::{err, from_js, parse_address, parse_b256, parse_u256, to_js, JsInt};
use crate::leaves::Verdict;
use crate::math::U256;
use crate::scoring::copy_detect::copy_check as copy_check_rs;
use crate::scoring::epoch::{
    build_epoch, EpochBundle, EpochInput, PreviousScore, ProjectData, ProjectInput,
};
use crate::scoring::human_layer::{GradedThesis, PreDataProject};
use crate::scoring::{normalise_column, smooth_down, verify_project_score, TrackConfig};
use alloy_primitives::{Address, B256};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use wasm_bindgen::prelude::*;

/// `normalise(values: string[], refLo: string, refHi: string): string[]`.
#[wasm_bindgen(js_name = normalise)]
pub fn normalise(
    values: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] ref_lo: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] ref_hi: JsValue,
) -> Result<JsValue, JsValue> {
    let ref_lo = super::int_text_from_js("refLo", &ref_lo)?;
    let ref_hi = super::int_text_from_js("refHi", &ref_hi)?;
    let raw: Vec<String> = from_js("values", values)?;
    let vals = raw
        .iter()
        .enumerate()
        .map(|(i, s)| parse_u256(&format!("values[{i}]"), s))
        .collect::<Result<Vec<U256>, JsValue>>()?;
    let lo = parse_u256("refLo", &ref_lo)?;
    let hi = parse_u256("refHi", &ref_hi)?;
    let (_, out) = normalise_column(&vals, lo, hi).map_err(|e| js_error(&e.to_string()))?;
    to_js(&out.iter().map(U256::to_string).collect::<Vec<_>>())
}

/// `smoothScore(previousWad: string, gatedWad: string): string`.
#[wasm_bindgen(js_name = smoothScore)]
pub fn smooth_score(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] previous_wad: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] gated_wad: JsValue,
) -> Result<String, JsValue> {
    let previous_wad = super::int_text_from_js("previousWad", &previous_wad)?;
    let gated_wad = super::int_text_from_js("gatedWad", &gated_wad)?;
    let prev = parse_u256("previousWad", &previous_wad)?;
    let g = parse_u256("gatedWad", &gated_wad)?;
    smooth_down(prev, g)
        .map(|s| s.to_string())
        .map_err(|e| js_error(&e.to_string()))
}

/// `trackPreset(name: string): TrackConfig`.
#[wasm_bindgen(js_name = trackPreset)]
pub fn track_preset(
    #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
) -> Result<JsValue, JsValue> {
    let name = super::text_from_js("name", &name)?;
    let t = TrackConfig::preset(&name).ok_or_else(|| {
        js_error(&format!(
            "name: unknown track preset '{name}' (agents, research, apps)"
        ))
    })?;
    to_js(&t)
}

// Input DTOs borrow their strings from the JSON text (no per-value allocation).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsProject<'a> {
    #[serde(borrow)]
    project: Cow<'a, str>,
    #[serde(borrow)]
    track: Cow<'a, str>,
    #[serde(borrow)]
    features: Vec<Cow<'a, str>>,
    claims: JsInt,
    failed: JsInt,
    #[serde(borrow)]
    verified_output: Cow<'a, str>,
    age_secs: JsInt,
    #[serde(default, borrow)]
    salt: Option<Cow<'a, str>>,
    #[serde(default)]
    private: bool,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsPrevious<'a> {
    #[serde(borrow)]
    project: Cow<'a, str>,
    #[serde(borrow)]
    score_wad: Cow<'a, str>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsEpochInput<'a> {
    epoch: JsInt,
    tracks: Vec<TrackConfig>,
    #[serde(borrow)]
    projects: Vec<JsProject<'a>>,
    #[serde(default, borrow)]
    previous: Vec<JsPrevious<'a>>,
    #[serde(default)]
    theses: Vec<JsGradedThesis>,
    #[serde(default)]
    pre_data: Vec<JsPreData>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsGradedThesis {
    scorer_registry: String,
    score_id: JsInt,
    scorer: String,
    project: String,
    thesis_hash: String,
    target_score_wad: String,
    quality_wad: String,
    verdict: JsInt,
    #[serde(default)]
    matched_thesis: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsPreData {
    project: String,
    #[serde(default)]
    verified: bool,
}

fn graded_theses(v: &[JsGradedThesis]) -> Result<Vec<GradedThesis>, JsValue> {
    v.iter()
        .enumerate()
        .map(|(k, t)| {
            let f = |name: &str| format!("theses[{k}].{name}");
            let code = t.verdict.to_u64(&f("verdict"))?;
            let verdict = u8::try_from(code)
                .ok()
                .and_then(|c| Verdict::try_from(c).ok())
                .ok_or_else(|| {
                    js_error(&format!(
                        "{}: {code} is not a verdict code (0 original, 1 similar, 2 derivative, 3 copy)",
                        f("verdict")
                    ))
                })?;
            Ok(GradedThesis {
                scorer_registry: parse_address(&f("scorerRegistry"), &t.scorer_registry)?,
                score_id: U256::from(t.score_id.to_u64(&f("scoreId"))?),
                scorer: parse_address(&f("scorer"), &t.scorer)?,
                project: parse_address(&f("project"), &t.project)?,
                thesis_hash: parse_b256(&f("thesisHash"), &t.thesis_hash)?,
                target_score_wad: parse_u256(&f("targetScoreWad"), &t.target_score_wad)?,
                quality_wad: parse_u256(&f("qualityWad"), &t.quality_wad)?,
                verdict,
                matched_thesis: salt(|| f("matchedThesis"), t.matched_thesis.as_deref())?,
            })
        })
        .collect()
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsProjectData {
    track: String,
    features: Vec<String>,
    claims: JsInt,
    failed: JsInt,
    verified_output: String,
    age_secs: JsInt,
}

fn features<S: AsRef<str>>(what: &str, v: &[S]) -> Result<Vec<U256>, JsValue> {
    v.iter()
        .enumerate()
        .map(|(k, s)| parse_u256_or(s.as_ref(), || format!("{what}.features[{k}]")))
        .collect()
}

/// `parse_u256`, building the field label only on error.
fn parse_u256_or(s: &str, what: impl FnOnce() -> String) -> Result<U256, JsValue> {
    if !s.is_empty() && s.len() <= 78 && s.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(x) = U256::from_str_radix(s, 10) {
            return Ok(x);
        }
    }
    parse_u256(&what(), s)
}

/// `JsInt::to_u64`, building the field label only on error.
fn u64_or(v: &JsInt, what: impl FnOnce() -> String) -> Result<u64, JsValue> {
    v.as_u64().map_or_else(|| v.to_u64(&what()), Ok)
}

/// `parse_address`, building the field label only on error.
fn parse_address_or(s: &str, what: impl FnOnce() -> String) -> Result<Address, JsValue> {
    if s.len() == 42 && s.starts_with("0x") {
        if let Ok(a) = s.parse::<Address>() {
            return Ok(a);
        }
    }
    parse_address(&what(), s)
}

fn salt(what: impl FnOnce() -> String, s: Option<&str>) -> Result<B256, JsValue> {
    match s {
        None | Some("") => Ok(B256::ZERO),
        Some(s) if s.len() == 66 && s.starts_with("0x") => match s.parse::<B256>() {
            Ok(b) => Ok(b),
            Err(_) => parse_b256(&what(), s),
        },
        Some(s) => parse_b256(&what(), s),
    }
}

/// `buildEpoch(input): EpochBundle` with
/// `input = {epoch, tracks: TrackConfig[], projects: [{project, track, features: string[], claims, failed,
/// verifiedOutput, ageSecs, salt?, private?}], previous?: [{project, scoreWad}], theses?: [{project,
/// thesisHash, targetScoreWad, qualityWad, verdict, matchedThesis?}] (submission order),
/// preData?: [{project, verified?}]}`.
#[wasm_bindgen(js_name = buildEpoch)]
pub fn build_epoch_js(input: JsValue) -> Result<JsValue, JsValue> {
    let input = {
        // Via JSON: one native JSON.stringify + serde_json is far faster than per-field conversion.
        let json = json_of("input", &input, 8)?;
        let i: JsEpochInput<'_> = serde_json::from_str(&json).map_err(|e| err("input", e))?;
        let mut projects = Vec::with_capacity(i.projects.len());
        for (k, p) in i.projects.iter().enumerate() {
            projects.push(ProjectInput {
                project: parse_address_or(&p.project, || format!("projects[{k}].project"))?,
                data: ProjectData {
                    track: p.track.to_string(),
                    features: features_of(k, &p.features)?,
                    claims: u64_or(&p.claims, || format!("projects[{k}].claims"))?,
                    failed: u64_or(&p.failed, || format!("projects[{k}].failed"))?,
                    verified_output: parse_u256_or(&p.verified_output, || {
                        format!("projects[{k}].verifiedOutput")
                    })?,
                    age_secs: u64_or(&p.age_secs, || format!("projects[{k}].ageSecs"))?,
                },
                salt: salt(|| format!("projects[{k}].salt"), p.salt.as_deref())?,
                private: p.private,
            });
        }
        let previous = i
            .previous
            .iter()
            .enumerate()
            .map(|(k, p)| {
                Ok(PreviousScore {
                    project: parse_address_or(&p.project, || format!("previous[{k}].project"))?,
                    score_wad: parse_u256_or(&p.score_wad, || format!("previous[{k}].scoreWad"))?,
                })
            })
            .collect::<Result<Vec<_>, JsValue>>()?;
        EpochInput {
            epoch: i.epoch.to_u64("epoch")?,
            tracks: i.tracks,
            projects,
            previous,
            theses: graded_theses(&i.theses)?,
            pre_data: i
                .pre_data
                .iter()
                .enumerate()
                .map(|(k, p)| {
                    Ok(PreDataProject {
                        project: parse_address(&format!("preData[{k}].project"), &p.project)?,
                        verified: p.verified,
                    })
                })
                .collect::<Result<Vec<_>, JsValue>>()?,
        }
    }; // the JSON text and the borrowed DTOs are freed here
    let bundle = build_epoch(&input).map_err(|e| js_error(&e.to_string()))?;
    drop(input);
    bundle_to_js(&bundle)
}

fn features_of(k: usize, v: &[Cow<'_, str>]) -> Result<Vec<U256>, JsValue> {
    v.iter()
        .enumerate()
        .map(|(f, s)| parse_u256_or(s, || format!("projects[{k}].features[{f}]")))
        .collect()
}

/// The bundle as a plain object (via JSON, which is much faster than per-field conversion).
fn bundle_to_js(b: &EpochBundle) -> Result<JsValue, JsValue> {
    // Sized up front (≈ 900 bytes a project) so the text is not copied while it grows.
    let mut out = Vec::with_capacity(b.projects.len().saturating_mul(900).saturating_add(4096));
    serde_json::to_writer(&mut out, b).map_err(|e| err("bundle", e))?;
    let json = String::from_utf8(out).map_err(|e| err("bundle", e))?;
    js_sys::JSON::parse(&json).map_err(|_| js_error("bundle: JSON.parse failed"))
}

/// A JS value as JSON text (a string is taken as JSON already).
pub(crate) fn json_of(what: &str, v: &JsValue, reserve_factor: usize) -> Result<String, JsValue> {
    let text: js_sys::JsString = match v.as_string() {
        Some(_) => v.clone().unchecked_into(),
        None => js_sys::JSON::stringify(v).map_err(|_| {
            js_error(&format!(
                "{what}: not JSON-serialisable (pass big integers as decimal strings, not BigInt)"
            ))
        })?,
    };
    reserve_heap((text.length() as usize).saturating_mul(reserve_factor));
    text.as_string()
        .ok_or_else(|| js_error(&format!("{what}: not a valid UTF-16 string")))
}

/// Grows the WASM heap once by about `bytes` (allocate, touch nothing, free: the allocator
/// keeps the memory). Growing it step by step instead makes V8 run a full garbage collection
/// on many of the steps, which made a first 100k-project `buildEpoch` several times slower.
fn reserve_heap(bytes: usize) {
    if bytes > (1 << 20) {
        // black_box: otherwise the optimiser may elide the unused allocation.
        drop(std::hint::black_box(Vec::<u8>::with_capacity(bytes)));
    }
}
pub(crate) fn bundle_from_js(v: JsValue) -> Result<EpochBundle, JsValue> {
    EpochBundle::from_json(&json_of("bundle", &v, 4)?).map_err(|e| err("bundle", e))
}

/// `epochProof(bundle, leafHash): string[]`: the proof of any leaf of the bundle (score, quality or
/// human) in the epoch tree its `root` commits to; throws when the bundle has no such leaf.
#[wasm_bindgen(js_name = epochProof, unchecked_return_type = "string[]")]
pub fn epoch_proof_js(
    bundle: JsValue,
    #[wasm_bindgen(js_name = leafHash, unchecked_param_type = "string")] leaf_hash: JsValue,
) -> Result<JsValue, JsValue> {
    let leaf_hash = super::text_from_js("leafHash", &leaf_hash)?;
    let b = bundle_from_js(bundle)?;
    let leaf = parse_b256("leafHash", &leaf_hash)?;
    let proof = b.proof(&leaf).ok_or_else(|| {
        js_error(&format!(
            "leafHash: {leaf} is not a leaf of epoch {}",
            b.epoch
        ))
    })?;
    to_js(&proof.iter().map(B256::to_string).collect::<Vec<_>>())
}

/// `verifyProjectScore(bundle, project, inputs, salt): VerifyReport`; `bundle` is the object
/// returned by `buildEpoch` (or its JSON string), `inputs = {track, features, claims, failed,
/// verifiedOutput, ageSecs}`, `salt` a 0x-hex bytes32 (ignored for public projects; may be empty).
#[wasm_bindgen(js_name = verifyProjectScore)]
pub fn verify_project_score_js(
    bundle: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] project: JsValue,
    inputs: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | null | undefined")] salt_hex: JsValue,
) -> Result<JsValue, JsValue> {
    let project = super::text_from_js("project", &project)?;
    let salt_hex = super::opt_text_from_js("saltHex", &salt_hex)?;
    let b = bundle_from_js(bundle)?;
    let project: Address = parse_address("project", &project)?;
    let d: JsProjectData = from_js("inputs", inputs)?;
    let data = ProjectData {
        track: d.track,
        features: features("inputs", &d.features)?,
        claims: d.claims.to_u64("inputs.claims")?,
        failed: d.failed.to_u64("inputs.failed")?,
        verified_output: parse_u256("inputs.verifiedOutput", &d.verified_output)?,
        age_secs: d.age_secs.to_u64("inputs.ageSecs")?,
    };
    let s = salt(|| "salt".into(), salt_hex.as_deref())?;
    to_js(&verify_project_score(&b, project, &data, s))
}

#[derive(Deserialize)]
struct JsThesis {
    hash: String,
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsCopyResult {
    verdict: &'static str,
    verdict_code: u8,
    matched_thesis: String,
    similarity_bps: u32,
    shared: u64,
    union: u64,
}

/// `copyCheck(thesisText, earlier: [{hash, text}])` →
/// `{verdict, verdictCode, matchedThesis, similarityBps, shared, union}`.
#[wasm_bindgen(js_name = copyCheck)]
pub fn copy_check_js(
    #[wasm_bindgen(unchecked_param_type = "string")] thesis_text: JsValue,
    earlier: JsValue,
) -> Result<JsValue, JsValue> {
    let thesis_text = super::text_from_js("thesisText", &thesis_text)?;
    let e: Vec<JsThesis> = from_js("earlier", earlier)?;
    let parsed = e
        .iter()
        .enumerate()
        .map(|(k, t)| {
            Ok((
                parse_b256(&format!("earlier[{k}].hash"), &t.hash)?,
                t.text.as_str(),
            ))
        })
        .collect::<Result<Vec<(B256, &str)>, JsValue>>()?;
    let r = copy_check_rs(&thesis_text, &parsed);
    to_js(&JsCopyResult {
        verdict: r.verdict.name(),
        verdict_code: u8::from(r.verdict),
        matched_thesis: format!("{:#x}", r.matched_thesis),
        similarity_bps: r.similarity_bps(),
        shared: r.similarity.shared,
        union: r.similarity.union,
    })
}
