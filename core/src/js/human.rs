//! JS exports for `crate::human`: `humanEnvelope` (C9) and `preDataReplay` (C10).

use super::{err, from_js, parse_u256, to_js};
use crate::human::{self, PreDataSubmission, Thesis};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ThesisJs {
    quality: String,
    multiplier: String,
    submitted: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct EnvelopeJs {
    envelope: String,
    delta: String,
    score: String,
    counted: usize,
}

/// C9. `sSysWad`: the attested systematic score (WAD, 0–1). `theses`: `[{quality, multiplier,
/// submitted}]`, WAD strings (`submitted` on the 0–1 scale). Returns `{envelope, delta, score,
/// counted}`: WAD strings, `delta` signed ("-…" when negative), `counted` the number of theses
/// with `q ≥ 0.3`.
#[wasm_bindgen(js_name = humanEnvelope)]
pub fn human_envelope(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] s_sys_wad: JsValue,
    theses: JsValue,
) -> Result<JsValue, JsValue> {
    let s_sys_wad: &str = &super::int_text_from_js("sSysWad", &s_sys_wad)?;
    let s_sys = parse_u256("sSysWad", s_sys_wad)?;
    let raw: Vec<ThesisJs> = from_js("theses", theses)?;
    let parsed = raw
        .iter()
        .enumerate()
        .map(|(i, t)| {
            Ok(Thesis {
                quality: parse_u256(&format!("theses[{i}].quality"), &t.quality)?,
                multiplier: parse_u256(&format!("theses[{i}].multiplier"), &t.multiplier)?,
                submitted: parse_u256(&format!("theses[{i}].submitted"), &t.submitted)?,
            })
        })
        .collect::<Result<Vec<_>, JsValue>>()?;
    let r = human::human_envelope(s_sys, &parsed).map_err(|e| err("humanEnvelope", e))?;
    to_js(&EnvelopeJs {
        envelope: r.envelope.to_string(),
        delta: r.delta.to_string(),
        score: r.score.to_string(),
        counted: r.counted,
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SubmissionJs {
    target: String,
    quality: String,
    multiplier: String,
}

/// C10. `submissions`: `[{target, quality, multiplier}]`, targets in points as WAD strings
/// (80 → "80000000000000000000"), quality and multiplier WAD strings. `verified` lifts the cap
/// from 50 to 100. Returns the score after each submission (WAD point strings).
#[wasm_bindgen(js_name = preDataReplay)]
pub fn pre_data_replay(
    submissions: JsValue,
    #[wasm_bindgen(unchecked_param_type = "boolean")] verified: JsValue,
) -> Result<JsValue, JsValue> {
    let verified = super::bool_from_js("verified", &verified)?;
    let raw: Vec<SubmissionJs> = from_js("submissions", submissions)?;
    let parsed = raw
        .iter()
        .enumerate()
        .map(|(i, s)| {
            Ok(PreDataSubmission {
                target: parse_u256(&format!("submissions[{i}].target"), &s.target)?,
                quality: parse_u256(&format!("submissions[{i}].quality"), &s.quality)?,
                multiplier: parse_u256(&format!("submissions[{i}].multiplier"), &s.multiplier)?,
            })
        })
        .collect::<Result<Vec<_>, JsValue>>()?;
    let path = human::pre_data_replay(&parsed, verified).map_err(|e| err("preDataReplay", e))?;
    let out: Vec<String> = path.iter().map(|s| s.to_string()).collect();
    to_js(&out)
}
