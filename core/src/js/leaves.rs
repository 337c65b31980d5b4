//! JS exports for `crate::leaves` (C5): `scoreLeaf`, `qualityLeaf`, `humanLeaf` → 0x-hex leaf
//! hash (OpenZeppelin `standard-v1` leaf hash of the C5 values).

use super::js_error;
use wasm_bindgen::prelude::*;

use alloy_primitives::U256;
use serde::Deserialize;

use super::{from_js, parse_address, parse_b256, parse_u256, JsInt};
use crate::leaves::{human_leaf, quality_leaf, score_leaf, QualityLeaf, Verdict};

/// `scoreLeaf(project, scoreWad)`: leaf of `(address project, uint256 scoreWad)`.
#[wasm_bindgen(js_name = scoreLeaf)]
pub fn score_leaf_js(
    #[wasm_bindgen(unchecked_param_type = "string")] project: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] score_wad: JsValue,
) -> Result<String, JsValue> {
    let project: &str = &super::text_from_js("project", &project)?;
    let score_wad: &str = &super::int_text_from_js("scoreWad", &score_wad)?;
    let project = parse_address("project", project)?;
    let score = parse_u256("scoreWad", score_wad)?;
    Ok(score_leaf(project, score).to_string())
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct JsGrade {
    scorer_registry: String,
    score_id: JsInt,
    scorer: String,
    project: String,
    thesis_hash: String,
    quality_wad: String,
    verdict: JsInt,
    matched_thesis: String,
}

/// `qualityLeaf(grade)`: leaf of `(bytes32 T_q, address scorerRegistry, uint256 scoreId,
/// address scorer, address project, bytes32 thesisHash, uint256 qualityWad, uint8 verdict,
/// bytes32 matchedThesis)`, the grade of one score. `grade` is `{scorerRegistry, scoreId, scorer,
/// project, thesisHash, qualityWad, verdict, matchedThesis}`; `verdict` is 0 original, 1 similar,
/// 2 derivative, 3 copy; `scoreId` and `verdict` are numbers or decimal strings.
#[wasm_bindgen(js_name = qualityLeaf)]
pub fn quality_leaf_js(
    #[wasm_bindgen(
        unchecked_param_type = "{ scorerRegistry: string; scoreId: number | string; scorer: string; project: string; thesisHash: string; qualityWad: string; verdict: number | string; matchedThesis: string }"
    )]
    grade: JsValue,
) -> Result<String, JsValue> {
    let g: JsGrade = from_js("grade", grade)?;
    let code = g.verdict.to_u64("verdict")?;
    let verdict = u8::try_from(code)
        .ok()
        .and_then(|c| Verdict::try_from(c).ok())
        .ok_or_else(|| {
            js_error(&format!(
                "verdict: {code} is not a verdict code (0 original, 1 similar, 2 derivative, 3 copy)"
            ))
        })?;
    let leaf = QualityLeaf {
        scorer_registry: parse_address("scorerRegistry", &g.scorer_registry)?,
        score_id: U256::from(g.score_id.to_u64("scoreId")?),
        scorer: parse_address("scorer", &g.scorer)?,
        project: parse_address("project", &g.project)?,
        thesis_hash: parse_b256("thesisHash", &g.thesis_hash)?,
        quality_wad: parse_u256("qualityWad", &g.quality_wad)?,
        verdict,
        matched_thesis: parse_b256("matchedThesis", &g.matched_thesis)?,
    };
    Ok(quality_leaf(&leaf).to_string())
}

/// `humanLeaf(project, scoreWad)`: leaf of `(bytes32 T_h, address project, uint256 scoreWad)`.
#[wasm_bindgen(js_name = humanLeaf)]
pub fn human_leaf_js(
    #[wasm_bindgen(unchecked_param_type = "string")] project: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] score_wad: JsValue,
) -> Result<String, JsValue> {
    let project: &str = &super::text_from_js("project", &project)?;
    let score_wad: &str = &super::int_text_from_js("scoreWad", &score_wad)?;
    let project = parse_address("project", project)?;
    let score = parse_u256("scoreWad", score_wad)?;
    Ok(human_leaf(project, score).to_string())
}
