//! JS exports for `crate::leaves` (C5): `scoreLeaf`, `qualityLeaf`, `humanLeaf` → 0x-hex leaf
//! hash (OpenZeppelin `standard-v1` leaf hash of the C5 values).

use wasm_bindgen::prelude::*;

use super::{parse_address, parse_b256, parse_u256, uint_from_js};
use crate::leaves::{human_leaf, quality_leaf, score_leaf, Verdict};

/// `scoreLeaf(project, scoreWad)`: leaf of `(address project, uint256 scoreWad)`.
#[wasm_bindgen(js_name = scoreLeaf)]
pub fn score_leaf_js(project: &str, score_wad: &str) -> Result<String, JsError> {
    let project = parse_address("project", project)?;
    let score = parse_u256("scoreWad", score_wad)?;
    Ok(score_leaf(project, score).to_string())
}

/// `qualityLeaf(thesisHash, qualityWad, verdict, matchedThesis)`: leaf of
/// `(bytes32 T_q, bytes32 thesisHash, uint256 qualityWad, uint8 verdict, bytes32 matchedThesis)`.
/// `verdict` is 0 original, 1 similar, 2 derivative, 3 copy (number or decimal string).
#[wasm_bindgen(js_name = qualityLeaf)]
pub fn quality_leaf_js(
    thesis_hash: &str,
    quality_wad: &str,
    #[wasm_bindgen(unchecked_param_type = "number | string")] verdict: JsValue,
    matched_thesis: &str,
) -> Result<String, JsError> {
    let thesis = parse_b256("thesisHash", thesis_hash)?;
    let quality = parse_u256("qualityWad", quality_wad)?;
    let code = uint_from_js("verdict", &verdict)?;
    let verdict = u8::try_from(code)
        .ok()
        .and_then(|c| Verdict::try_from(c).ok())
        .ok_or_else(|| {
            JsError::new(&format!(
            "verdict: {code} is not a verdict code (0 original, 1 similar, 2 derivative, 3 copy)"
        ))
        })?;
    let matched = parse_b256("matchedThesis", matched_thesis)?;
    Ok(quality_leaf(thesis, quality, verdict, matched).to_string())
}

/// `humanLeaf(project, scoreWad)`: leaf of `(bytes32 T_h, address project, uint256 scoreWad)`.
#[wasm_bindgen(js_name = humanLeaf)]
pub fn human_leaf_js(project: &str, score_wad: &str) -> Result<String, JsError> {
    let project = parse_address("project", project)?;
    let score = parse_u256("scoreWad", score_wad)?;
    Ok(human_leaf(project, score).to_string())
}
