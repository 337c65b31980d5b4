//! JS exports for `crate::leaves` (C5): `scoreLeaf`, `qualityLeaf`, `systematicLeaf` → 0x-hex leaf
//! hash (OpenZeppelin `standard-v1` leaf hash of the C5 values).

use wasm_bindgen::prelude::*;

use super::{from_js, parse_address};
use crate::leaves::{quality_leaf, score_leaf, systematic_leaf, QualityLeaf};

/// `scoreLeaf(project, scoreWad)`: leaf of `(address project, uint256 scoreWad)`.
#[wasm_bindgen(js_name = scoreLeaf)]
pub fn score_leaf_js(
    #[wasm_bindgen(unchecked_param_type = "string")] project: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] score_wad: JsValue,
) -> Result<String, JsValue> {
    let project: &str = &super::text_from_js("project", &project)?;
    let score = super::uint_from_js("scoreWad", &score_wad)?;
    let project = parse_address("project", project)?;
    Ok(score_leaf(project, score).to_string())
}

/// `qualityLeaf(grade)`: leaf of `(bytes32 T_q, address scorerRegistry, uint256 scoreId,
/// address scorer, address project, bytes32 thesisHash, uint256 qualityWad, uint8 verdict,
/// bytes32 matchedThesis)`, the grade of one score. `grade` is a [`QualityLeaf`]
/// `{scorerRegistry, scoreId, scorer, project, thesisHash, qualityWad, verdict, matchedThesis}`;
/// `verdict` is 0 original, 1 similar, 2 derivative, 3 copy.
#[wasm_bindgen(js_name = qualityLeaf)]
pub fn quality_leaf_js(
    #[wasm_bindgen(unchecked_param_type = "QualityLeaf")] grade: JsValue,
) -> Result<String, JsValue> {
    let leaf: QualityLeaf = from_js("grade", grade)?;
    Ok(quality_leaf(&leaf).to_string())
}

/// `systematicLeaf(project, scoreWad)`: leaf of `(bytes32 T_s, address project, uint256 scoreWad)` (C27).
#[wasm_bindgen(js_name = systematicLeaf)]
pub fn systematic_leaf_js(
    #[wasm_bindgen(unchecked_param_type = "string")] project: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] score_wad: JsValue,
) -> Result<String, JsValue> {
    let project: &str = &super::text_from_js("project", &project)?;
    let score = super::uint_from_js("scoreWad", &score_wad)?;
    let project = parse_address("project", project)?;
    Ok(systematic_leaf(project, score).to_string())
}
