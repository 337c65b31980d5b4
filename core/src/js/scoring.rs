//! JS exports for `crate::scoring` (C1–C4 pipeline, epoch bundle and verification, C8 copy check).
//!
//! - `normalise(values, refLo, refHi)` → WAD strings (cohort P5/P95 when ≥ 20 values, else the reference bounds).
//! - `smoothScore(previousWad, gatedWad)` → WAD string (`s_t`, α = 0.4, rounded down).
//! - `trackPreset(name)` → a track configuration object ("agents", "research", "apps"; PLACEHOLDER features).
//! - `buildEpoch(input)` → bundle object.
//! - `verifyProjectScore(bundle, project, inputs, salt)` → report object.
//! - `epochProof(bundle, leafHash)` → the proof of a score, quality or systematic leaf in the epoch tree.
//! - `copyCheck(thesisText, earlier)` → `{verdict, verdictCode, matchedThesis, similarityBps, shared, union}`.
//! - `thesisGrounding(thesis, snapshots)` → `{groundingWad, counted, grounded, quotes, findings, urls}` (C8 `G`).
//! - `screenThesis(thesis)` → `[{rule, matched}]`: the deterministic injection screening (C8).
//!
//! Integer fields (`epoch`, `claims`, `failed`, `ageSecs`) are safe-integer numbers or decimal strings
//! (`crate::serde_dec::int`); `buildEpoch` input crosses as JSON, so BigInts are accepted only by
//! `verifyProjectScore`.

use super::js_error;
use super::{err, from_js, parse_address, parse_b256, to_js};
use crate::math::U256;
use crate::scoring::copy_detect::{copy_check as copy_check_rs, Similarity};
use crate::scoring::epoch::{build_epoch, EpochBundle, EpochInput, ProjectData};
use crate::scoring::{normalise_column, smooth_down, verify_project_score, TrackConfig};
use crate::serde_dec::strip_position;
use alloy_primitives::{Address, B256};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use tsify::Tsify;
use wasm_bindgen::prelude::*;

/// `normalise(values: string[], refLo: string, refHi: string): string[]`.
#[wasm_bindgen(js_name = normalise, unchecked_return_type = "U256[]")]
pub fn normalise(
    #[wasm_bindgen(unchecked_param_type = "string[]")] values: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] ref_lo: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] ref_hi: JsValue,
) -> Result<JsValue, JsValue> {
    let lo = super::uint_from_js("refLo", &ref_lo)?;
    let hi = super::uint_from_js("refHi", &ref_hi)?;
    let vals = from_js::<super::U256List>("values", values)?.0;
    let (_, out) = normalise_column(&vals, lo, hi).map_err(|e| js_error(&e.to_string()))?;
    to_js(&out.iter().map(U256::to_string).collect::<Vec<_>>())
}

/// `smoothScore(previousWad: string, gatedWad: string): string`.
#[wasm_bindgen(js_name = smoothScore)]
pub fn smooth_score(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] previous_wad: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] gated_wad: JsValue,
) -> Result<String, JsValue> {
    let prev = super::uint_from_js("previousWad", &previous_wad)?;
    let g = super::uint_from_js("gatedWad", &gated_wad)?;
    smooth_down(prev, g)
        .map(|s| s.to_string())
        .map_err(|e| js_error(&e.to_string()))
}

/// `trackPreset(name: string): TrackConfig`.
#[wasm_bindgen(js_name = trackPreset, unchecked_return_type = "TrackConfig")]
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

/// `buildEpoch(input): EpochBundle` with `input` an [`EpochInput`] `{epoch, tracks: TrackConfig[],
/// projects: [{project, track, features: string[], claims, failed, verifiedOutput, ageSecs,
/// salt?, private?}], previous?: [{project, scoreWad}], theses?: [{scorerRegistry, scoreId,
/// scorer, project, thesisHash, targetScoreWad, qualityWad, verdict, matchedThesis?}]
/// (submission order), preData?: [{project, verified?}]}`.
#[wasm_bindgen(js_name = buildEpoch, unchecked_return_type = "EpochBundle")]
pub fn build_epoch_js(
    #[wasm_bindgen(unchecked_param_type = "EpochInput | string")] input: JsValue,
) -> Result<JsValue, JsValue> {
    let input: EpochInput = {
        // Via JSON: one native JSON.stringify + serde_json is far faster than per-field conversion.
        let json = json_of("input", &input, 8)?;
        parse_json("", &json)?
    }; // the JSON text is freed here
    let bundle = build_epoch(&input).map_err(|e| js_error(&e.to_string()))?;
    drop(input);
    bundle_to_js(&bundle)
}

/// Parses JSON text into `T`; an error names the path of the bad field (`projects[1].claims: …`,
/// after `what` when it is not empty).
pub(crate) fn parse_json<T: DeserializeOwned>(what: &str, json: &str) -> Result<T, JsValue> {
    let name = if what.is_empty() { "input" } else { what };
    let mut de = serde_json::Deserializer::from_str(json);
    let value = serde_path_to_error::deserialize::<_, T>(&mut de).map_err(|e| {
        let field = super::field_name(what, name, &e.path().to_string());
        err(&field, strip_position(&e.into_inner().to_string()))
    })?;
    de.end().map_err(|e| err(name, e))?;
    Ok(value)
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
/// systematic) in the epoch tree its `root` commits to; throws when the bundle has no such leaf.
#[wasm_bindgen(js_name = epochProof, unchecked_return_type = "string[]")]
pub fn epoch_proof_js(
    #[wasm_bindgen(unchecked_param_type = "EpochBundle | string")] bundle: JsValue,
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
#[wasm_bindgen(js_name = verifyProjectScore, unchecked_return_type = "VerifyReport")]
pub fn verify_project_score_js(
    #[wasm_bindgen(unchecked_param_type = "EpochBundle | string")] bundle: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] project: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ProjectData")] inputs: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | null | undefined")] salt_hex: JsValue,
) -> Result<JsValue, JsValue> {
    let project = super::text_from_js("project", &project)?;
    let salt_hex = super::opt_text_from_js("saltHex", &salt_hex)?;
    let b = bundle_from_js(bundle)?;
    let project: Address = parse_address("project", &project)?;
    let data: ProjectData = from_js("inputs", inputs)?;
    let s = match salt_hex.as_deref().map(str::trim) {
        None | Some("") => B256::ZERO,
        Some(h) => parse_b256("salt", h)?,
    };
    to_js(&verify_project_score(&b, project, &data, s))
}

/// An earlier thesis for [`copy_check_js`]: its hash and text.
#[derive(Deserialize, Tsify)]
pub struct EarlierThesis {
    hash: B256,
    text: String,
}

/// The outcome of [`copy_check_js`].
#[derive(Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct CopyReport {
    /// `"original"`, `"similar"`, `"derivative"` or `"copy"`.
    verdict: &'static str,
    /// The verdict's C5 code (0–3).
    verdict_code: u8,
    matched_thesis: B256,
    similarity_bps: u32,
    #[serde(flatten)]
    similarity: Similarity,
}

/// `copyCheck(thesisText, earlier: [{hash, text}])` → [`CopyReport`]
/// `{verdict, verdictCode, matchedThesis, similarityBps, shared, union}`.
#[wasm_bindgen(js_name = copyCheck, unchecked_return_type = "CopyReport")]
pub fn copy_check_js(
    #[wasm_bindgen(unchecked_param_type = "string")] thesis_text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "EarlierThesis[]")] earlier: JsValue,
) -> Result<JsValue, JsValue> {
    let thesis_text = super::text_from_js("thesisText", &thesis_text)?;
    let earlier: Vec<EarlierThesis> = from_js("earlier", earlier)?;
    let pairs: Vec<(B256, &str)> = earlier.iter().map(|t| (t.hash, t.text.as_str())).collect();
    let r = copy_check_rs(&thesis_text, &pairs);
    to_js(&CopyReport {
        verdict: r.verdict.name(),
        verdict_code: u8::from(r.verdict),
        matched_thesis: r.matched_thesis,
        similarity_bps: r.similarity_bps(),
        similarity: r.similarity,
    })
}

/// A source's content for [`thesis_grounding_js`]: a string (HTML when it begins with `<` after
/// spaces, else plain text) or `{contentType, body}` as fetched.
#[derive(Deserialize, Tsify)]
#[serde(untagged)]
pub enum SnapshotInput {
    /// The body alone; its content type is sniffed.
    Body(String),
    /// The body with its `Content-Type`.
    Typed(crate::scoring::Snapshot),
}

impl SnapshotInput {
    fn into_snapshot(self) -> crate::scoring::Snapshot {
        match self {
            SnapshotInput::Typed(s) => s,
            SnapshotInput::Body(body) => {
                let html = body.trim_start().starts_with('<');
                let content_type = if html { "text/html" } else { "text/plain" }.to_string();
                crate::scoring::Snapshot { content_type, body }
            }
        }
    }
}

/// `thesisGrounding(thesis, snapshots: {[url]: string | {contentType, body}})` → [`crate::scoring::Grounding`]:
/// `G` (WAD) and each quote with its reference and outcome (C8). A URL missing from `snapshots` is a
/// source that could not be fetched.
#[wasm_bindgen(js_name = thesisGrounding, unchecked_return_type = "Grounding")]
pub fn thesis_grounding_js(
    #[wasm_bindgen(unchecked_param_type = "string")] thesis: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Record<string, SnapshotInput>")] snapshots: JsValue,
) -> Result<JsValue, JsValue> {
    let thesis = super::text_from_js("thesis", &thesis)?;
    if !snapshots.is_object() || js_sys::Array::is_array(&snapshots) {
        return Err(super::type_error(&format!(
            "snapshots: expected an object mapping each URL to its content, got {}",
            super::js_type_name(&snapshots)
        )));
    }
    let raw: std::collections::BTreeMap<String, SnapshotInput> = from_js("snapshots", snapshots)?;
    let snaps = raw
        .into_iter()
        .map(|(u, s)| (u, s.into_snapshot()))
        .collect();
    to_js(&crate::scoring::thesis_grounding(&thesis, &snaps))
}

/// `screenThesis(thesis)` → `[{rule, matched}]`, empty when no rule flags it (C8 injection screening).
#[wasm_bindgen(js_name = screenThesis, unchecked_return_type = "InjectionFlag[]")]
pub fn screen_thesis_js(
    #[wasm_bindgen(unchecked_param_type = "string")] thesis: JsValue,
) -> Result<JsValue, JsValue> {
    let thesis = super::text_from_js("thesis", &thesis)?;
    to_js(&crate::scoring::screen_thesis(&thesis))
}
