//! The Score page's checks for JavaScript (`crate::check`): a project's systematic score, its
//! human score and the reward a scorer is owed now, each from a published bundle or the chain's
//! stored state plus the few values read from the chain. Reports are plain objects whose findings
//! carry a `kind` (`"rootDiffers"`, `"scoreNotOnChain"`, …) and their values.

use super::scoring::bundle_from_js;
use super::{err, from_js, opt_text_from_js, parse_address, parse_b256, to_js};
use crate::check::{check_human, check_score, OwnInputs, ScoredEvent};
use crate::rewards::{ChainPool, ChainPosition, RewardPool};
use alloy_primitives::B256;
use wasm_bindgen::prelude::*;

fn opt_root(what: &str, v: &JsValue) -> Result<Option<B256>, JsValue> {
    opt_text_from_js(what, v)?
        .map(|s| parse_b256(what, &s))
        .transpose()
}

/// `checkProjectScore(bundle, project, onchainRoot?, inputs?)` → `ScoreCheck`: the full epoch tree
/// rebuilt from every leaf's values, the project's leaf and proof against `onchainRoot` (the final
/// root; omit it before the epoch is final), and the score recomputed step by step from `inputs`
/// (the project's own inputs file: `{track, features, claims, failed, verifiedOutput, ageSecs,
/// salt?}`) or the bundle's public inputs. Throws for a project without a score leaf.
#[wasm_bindgen(js_name = checkProjectScore, unchecked_return_type = "ScoreCheck")]
pub fn check_project_score_js(
    #[wasm_bindgen(unchecked_param_type = "EpochBundle | string")] bundle: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] project: JsValue,
    #[wasm_bindgen(js_name = onchainRoot, unchecked_param_type = "string | null | undefined")]
    onchain_root: JsValue,
    #[wasm_bindgen(unchecked_param_type = "OwnInputs | null | undefined")] inputs: JsValue,
) -> Result<JsValue, JsValue> {
    let project = parse_address("project", &super::text_from_js("project", &project)?)?;
    let root = opt_root("onchainRoot", &onchain_root)?;
    let own: Option<OwnInputs> = if inputs.is_undefined() || inputs.is_null() {
        None
    } else {
        Some(super::scoring::parse_json(
            "inputs",
            &super::scoring::json_of("inputs", &inputs, 2)?,
        )?)
    };
    let b = bundle_from_js(bundle)?;
    let c = check_score(&b, project, root, own.as_ref()).map_err(|e| err("check", e))?;
    to_js(&c)
}

/// `checkHumanScore(bundle, project, onchainRoot?, scored?, chainVerified?)` → `HumanCheck` or
/// `null` when the bundle has no human score for the project: every graded thesis (target, `q`,
/// verdict, `c`, whether it counts), the C9 envelope or C10 replay recomputed, each target against
/// the ScorerRegistry's `scored` events (`[{scoreId, scorer, token, thesisHash, target}]`; omit when
/// not read), the pre-data cap against FeeLanes' `chainVerified`, and the score leaf's proof
/// against `onchainRoot`.
#[wasm_bindgen(js_name = checkHumanScore, unchecked_return_type = "HumanCheck | null")]
pub fn check_human_score_js(
    #[wasm_bindgen(unchecked_param_type = "EpochBundle | string")] bundle: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] project: JsValue,
    #[wasm_bindgen(js_name = onchainRoot, unchecked_param_type = "string | null | undefined")]
    onchain_root: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ScoredEvent[] | null | undefined")] scored: JsValue,
    #[wasm_bindgen(js_name = chainVerified, unchecked_param_type = "boolean | null | undefined")]
    chain_verified: JsValue,
) -> Result<JsValue, JsValue> {
    let project = parse_address("project", &super::text_from_js("project", &project)?)?;
    let root = opt_root("onchainRoot", &onchain_root)?;
    let verified = if chain_verified.is_undefined() || chain_verified.is_null() {
        None
    } else {
        Some(super::bool_from_js("chainVerified", &chain_verified)?)
    };
    let events: Option<Vec<ScoredEvent>> = if scored.is_undefined() || scored.is_null() {
        None
    } else {
        Some(from_js("scored", scored)?)
    };
    let b = bundle_from_js(bundle)?;
    let c =
        check_human(&b, project, root, events.as_deref(), verified).map_err(|e| err("check", e))?;
    match c {
        Some(c) => to_js(&c),
        None => Ok(JsValue::NULL),
    }
}

/// `scorerOwedAt(pool, positions, scorer, t)` → decimal string: what `scorer` is owed at `t` (unix
/// seconds, at least `pool.lastUpdate`), from `ScorerRegistry.pool(token)` + `maxWeight(token)`
/// (`{index, totalWeight, maxWeight, dripAmount, dripStart, lastUpdate}`) and every open position
/// (`[{scorer, weight, snapshot, end, owedStored?}]`, `owedStored` read for `scorer`), advanced
/// exactly as `ScorerRegistry._advance` (`RewardPool::resume`).
#[wasm_bindgen(js_name = scorerOwedAt)]
pub fn scorer_owed_at_js(
    #[wasm_bindgen(unchecked_param_type = "ChainPool")] pool: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ChainPosition[]")] positions: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] scorer: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] t: JsValue,
) -> Result<String, JsValue> {
    let t = super::u64_from_js("t", &t)?;
    let scorer = parse_address("scorer", &super::text_from_js("scorer", &scorer)?)?;
    let pool: ChainPool = from_js("pool", pool)?;
    let open: Vec<ChainPosition> = from_js("positions", positions)?;
    let mut r = RewardPool::resume(&pool, &open).map_err(|e| err("pool", e))?;
    r.advance_to(t.max(pool.last_update))
        .map_err(|e| err("t", e))?;
    r.owed_of(&scorer)
        .map(|x| x.to_string())
        .map_err(|e| err("owed", e))
}
