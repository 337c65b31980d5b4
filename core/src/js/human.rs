//! JS exports for `crate::human`: `humanEnvelope` (C9) and `preDataReplay` (C10).

use super::{err, from_js, to_js};
use crate::human::{self, PreDataSubmission, Thesis};
use wasm_bindgen::prelude::*;

/// C9. `sSysWad`: the attested systematic score (WAD, 0–1). `theses`: [`Thesis`] `[{quality,
/// multiplier, submitted}]`, WADs (`submitted` on the 0–1 scale). Returns
/// [`human::EnvelopeResult`] `{envelope, delta, score, counted}`: WAD strings, `delta` signed
/// ("-…" when negative), `counted` the number of theses with `q ≥ 0.3`.
#[wasm_bindgen(js_name = humanEnvelope, unchecked_return_type = "EnvelopeResult")]
pub fn human_envelope(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] s_sys_wad: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Thesis[]")] theses: JsValue,
) -> Result<JsValue, JsValue> {
    let s_sys = super::uint_from_js("sSysWad", &s_sys_wad)?;
    let theses: Vec<Thesis> = from_js("theses", theses)?;
    let r = human::human_envelope(s_sys, &theses).map_err(|e| err("humanEnvelope", e))?;
    to_js(&r)
}

/// C10. `submissions`: [`PreDataSubmission`] `[{target, quality, multiplier}]`, targets in points
/// as WADs (80 → "80000000000000000000"), quality and multiplier WADs. `verified` lifts the cap
/// from 50 to 100. Returns the score after each submission (WAD point strings).
#[wasm_bindgen(js_name = preDataReplay, unchecked_return_type = "U256[]")]
pub fn pre_data_replay(
    #[wasm_bindgen(unchecked_param_type = "PreDataSubmission[]")] submissions: JsValue,
    #[wasm_bindgen(unchecked_param_type = "boolean")] verified: JsValue,
) -> Result<JsValue, JsValue> {
    let verified = super::bool_from_js("verified", &verified)?;
    let submissions: Vec<PreDataSubmission> = from_js("submissions", submissions)?;
    let path =
        human::pre_data_replay(&submissions, verified).map_err(|e| err("preDataReplay", e))?;
    let out: Vec<String> = path.iter().map(|s| s.to_string()).collect();
    to_js(&out)
}
