//! Light checks for JavaScript (C21, C22): one project's score checked from its light publication, and
//! a cohort's attestation signers recovered, as the Score page does in the browser.

use super::{err, parse_address, parse_b256, text_from_js, to_js, u64_from_js};
use crate::attest::{attestation_domain, SignedAttestation};
use crate::check::{check_score_in, LightFinding, LightProofs, ProjectPack, ScoreCheck, TrackPack};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// What [`check_project_pack_js`] returns.
#[derive(Serialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
struct PackCheck {
    /// The score check on the pack's proofs.
    score: ScoreCheck,
    /// The bounds' proofs against the committed columns.
    light: Vec<LightFinding>,
}

/// `checkProjectPack(pack, trackPack, project, root)` → `{score: ScoreCheck, light: LightFinding[]}`:
/// `project`'s score checked from its light publication (`epochs/<root>/projects/<address>.json` and its
/// track's `epochs/<root>/tracks/<hash>.json`, JSON text) against `root` (the chain's final root): its leaf
/// and inputs proofs walked, its bounds proven against the columns committed in `inputsRoot`, its score
/// recomputed from its public inputs. Throws for a malformed pack or a project without a score.
#[wasm_bindgen(js_name = checkProjectPack, unchecked_return_type = "PackCheck")]
pub fn check_project_pack_js(
    #[wasm_bindgen(unchecked_param_type = "string")] pack: JsValue,
    #[wasm_bindgen(js_name = trackPack, unchecked_param_type = "string")] track_pack: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] project: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] root: JsValue,
) -> Result<JsValue, JsValue> {
    // Every parameter's type first (a TypeError naming it), then the values.
    let (pack, track, project, root) = (
        text_from_js("pack", &pack)?,
        text_from_js("trackPack", &track_pack)?,
        text_from_js("project", &project)?,
        text_from_js("root", &root)?,
    );
    let pack = ProjectPack::from_json(&pack).map_err(|e| err("pack", e))?;
    let track = TrackPack::from_json(&track).map_err(|e| err("trackPack", e))?;
    let project = parse_address("project", &project)?;
    let root = parse_b256("root", &root)?;
    let lp = LightProofs::new(&pack, Some(&track));
    let score =
        check_score_in(&lp.tree(), project, Some(root), None).map_err(|e| err("check", e))?;
    to_js(&PackCheck {
        score,
        light: lp.findings().to_vec(),
    })
}

/// `recoverAttestationSigners(chainId, sourceKeyRegistry, attestations)` → `(string | {error})[]`: each
/// signed attestation's EIP-712 signer (C21's domain: "Eden Attestations", version 1, the chain and the
/// registry), or why its signature is rejected. `attestations` is a JSON array of signed attestations.
#[wasm_bindgen(js_name = recoverAttestationSigners, unchecked_return_type = "(string | { error: string })[]")]
pub fn recover_attestation_signers_js(
    #[wasm_bindgen(js_name = chainId, unchecked_param_type = "IntegerLike")] chain_id: JsValue,
    #[wasm_bindgen(js_name = sourceKeyRegistry, unchecked_param_type = "string")] registry: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] attestations: JsValue,
) -> Result<JsValue, JsValue> {
    let chain_id = u64_from_js("chainId", &chain_id)?;
    let (registry, attestations) = (
        text_from_js("sourceKeyRegistry", &registry)?,
        text_from_js("attestations", &attestations)?,
    );
    let registry = parse_address("sourceKeyRegistry", &registry)?;
    let list =
        SignedAttestation::list_from_json(&attestations).map_err(|e| err("attestations", e))?;
    let domain = attestation_domain(chain_id, registry);
    #[derive(Serialize)]
    #[serde(untagged)]
    enum Out {
        Signer(String),
        Error { error: String },
    }
    let out: Vec<Out> = list
        .iter()
        .map(|a| match a.signer(&domain) {
            Ok(s) => Out::Signer(s.to_string()),
            Err(e) => Out::Error {
                error: e.to_string(),
            },
        })
        .collect();
    to_js(&out)
}
