//! The Score page's checks for JavaScript (`crate::check`): a project's systematic score, its
//! human score and the reward a scorer is owed now, each from a published bundle or the chain's
//! stored state plus the few values read from the chain. Reports are plain objects whose findings
//! carry a `kind` (`"rootDiffers"`, `"scoreNotOnChain"`, …) and their values.

use super::scoring::bundle_from_js;
use super::{err, from_js, opt_text_from_js, parse_address, parse_b256, to_js, JsInt};
use crate::check::{check_human, check_score, OwnInputs, ScoredEvent};
use crate::rewards::{ChainPool, ChainPosition, Drip, RewardPool, CAP_BPS};
use alloy_primitives::{B256, U256};
use serde::Deserialize;
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
#[wasm_bindgen(js_name = checkProjectScore)]
pub fn check_project_score_js(
    bundle: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] project: JsValue,
    #[wasm_bindgen(js_name = onchainRoot, unchecked_param_type = "string | null | undefined")]
    onchain_root: JsValue,
    inputs: JsValue,
) -> Result<JsValue, JsValue> {
    let project = parse_address("project", &super::text_from_js("project", &project)?)?;
    let root = opt_root("onchainRoot", &onchain_root)?;
    let own: Option<OwnInputs> = if inputs.is_undefined() || inputs.is_null() {
        None
    } else {
        Some(
            serde_json::from_str(&super::scoring::json_of("inputs", &inputs, 2)?)
                .map_err(|e| err("inputs", e))?,
        )
    };
    let b = bundle_from_js(bundle)?;
    let c = check_score(&b, project, root, own.as_ref()).map_err(|e| err("check", e))?;
    to_js(&c)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsScored {
    score_id: JsInt,
    scorer: String,
    token: String,
    thesis_hash: String,
    target: String,
}

/// `checkHumanScore(bundle, project, onchainRoot?, scored?, chainVerified?)` → `HumanCheck` or
/// `null` when the bundle has no human score for the project: every graded thesis (target, `q`,
/// verdict, `c`, whether it counts), the C9 envelope or C10 replay recomputed, each target against
/// the ScorerRegistry's `scored` events (`[{scoreId, scorer, token, thesisHash, target}]`; omit when
/// not read), the pre-data cap against FeeLanes' `chainVerified`, and the human leaf's proof
/// against `onchainRoot`.
#[wasm_bindgen(js_name = checkHumanScore)]
pub fn check_human_score_js(
    bundle: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] project: JsValue,
    #[wasm_bindgen(js_name = onchainRoot, unchecked_param_type = "string | null | undefined")]
    onchain_root: JsValue,
    scored: JsValue,
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
        let raw: Vec<JsScored> = from_js("scored", scored)?;
        Some(
            raw.iter()
                .enumerate()
                .map(|(i, e)| {
                    let f = |n: &str| format!("scored[{i}].{n}");
                    Ok(ScoredEvent {
                        score_id: U256::from(e.score_id.to_u64(&f("scoreId"))?),
                        scorer: parse_address(&f("scorer"), &e.scorer)?,
                        token: parse_address(&f("token"), &e.token)?,
                        thesis_hash: parse_b256(&f("thesisHash"), &e.thesis_hash)?,
                        target: super::parse_u256(&f("target"), &e.target)?,
                    })
                })
                .collect::<Result<_, JsValue>>()?,
        )
    };
    let b = bundle_from_js(bundle)?;
    let c =
        check_human(&b, project, root, events.as_deref(), verified).map_err(|e| err("check", e))?;
    match c {
        Some(c) => to_js(&c),
        None => Ok(JsValue::NULL),
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsChainPool {
    index: String,
    total_weight: String,
    max_weight: String,
    drip_amount: String,
    drip_start: JsInt,
    last_update: JsInt,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsChainPosition {
    scorer: String,
    weight: String,
    snapshot: String,
    end: JsInt,
    #[serde(default)]
    owed_stored: Option<String>,
}

/// `scorerOwedAt(pool, positions, scorer, t)` → decimal string: what `scorer` is owed at `t` (unix
/// seconds, at least `pool.lastUpdate`), from `ScorerRegistry.pool(token)` + `maxWeight(token)`
/// (`{index, totalWeight, maxWeight, dripAmount, dripStart, lastUpdate}`) and every open position
/// (`[{scorer, weight, snapshot, end, owedStored?}]`, `owedStored` read for `scorer`), advanced
/// exactly as `ScorerRegistry._advance` (`RewardPool::resume`).
#[wasm_bindgen(js_name = scorerOwedAt)]
pub fn scorer_owed_at_js(
    pool: JsValue,
    positions: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] scorer: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] t: JsValue,
) -> Result<String, JsValue> {
    let t = super::u64_from_js("t", &t)?;
    let scorer = parse_address("scorer", &super::text_from_js("scorer", &scorer)?)?;
    let p: JsChainPool = from_js("pool", pool)?;
    let u = super::parse_u256;
    let pool = ChainPool {
        index: u("pool.index", &p.index)?,
        total_weight: u("pool.totalWeight", &p.total_weight)?,
        max_weight: u("pool.maxWeight", &p.max_weight)?,
        drip: Drip {
            amount: u("pool.dripAmount", &p.drip_amount)?,
            start: p.drip_start.to_u64("pool.dripStart")?,
        },
        last_update: p.last_update.to_u64("pool.lastUpdate")?,
        cap_bps: CAP_BPS,
    };
    let raw: Vec<JsChainPosition> = from_js("positions", positions)?;
    let open = raw
        .iter()
        .enumerate()
        .map(|(i, q)| {
            let f = |n: &str| format!("positions[{i}].{n}");
            Ok(ChainPosition {
                scorer: parse_address(&f("scorer"), &q.scorer)?,
                weight: u(&f("weight"), &q.weight)?,
                snapshot: u(&f("snapshot"), &q.snapshot)?,
                end: q.end.to_u64(&f("end"))?,
                owed_stored: q
                    .owed_stored
                    .as_deref()
                    .map(|s| u(&f("owedStored"), s))
                    .transpose()?,
            })
        })
        .collect::<Result<Vec<_>, JsValue>>()?;
    let mut r = RewardPool::resume(&pool, &open).map_err(|e| err("pool", e))?;
    r.advance_to(t.max(pool.last_update))
        .map_err(|e| err("t", e))?;
    r.owed_of(&scorer)
        .map(|x| x.to_string())
        .map_err(|e| err("owed", e))
}
