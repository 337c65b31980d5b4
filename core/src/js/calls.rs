//! JS exports for `crate::calls` (A1–A4).
//!
//! Counts and times (`hits`, `misses`, `quorum`, `thresholdBps`, `closesAt`, `window`, `now`)
//! accept a JS number (a non-negative safe integer), a BigInt or a decimal string; WAD amounts
//! and stakes are decimal strings; buckets come back as JS numbers.

use super::{
    err, from_js, parse_address, parse_b256, parse_u256, to_js, to_safe_number, u64_from_js,
    u64_from_js_or,
};
use crate::calls::{
    call_commitment, call_outcome, consensus_bucket, round_for_reveal_now, track_record_score,
    vote_weight, ConsensusParams, ConsensusRound, Direction, RoundKey, Vote,
};
use crate::math::U256;
use wasm_bindgen::prelude::*;

fn parse_direction(what: &str, s: &str) -> Result<Direction, JsValue> {
    s.parse::<Direction>().map_err(|e| err(what, e))
}

/// A1: `trackRecordScore(hits, misses, stake, minStake)` → WAD decimal string,
/// `floor(hits² × stake × 10^18 / (minStake × (hits + misses + 1)))`.
#[wasm_bindgen(js_name = trackRecordScore)]
pub fn track_record_score_js(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] hits: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] misses: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] stake: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] min_stake: JsValue,
) -> Result<String, JsValue> {
    track_record(&hits, &misses, &stake, &min_stake).map(|s| s.to_string())
}

/// A1 from the four JS arguments of `trackRecordScore` / `callVoteWeight`.
fn track_record(
    hits: &JsValue,
    misses: &JsValue,
    stake: &JsValue,
    min_stake: &JsValue,
) -> Result<U256, JsValue> {
    let hits = u64_from_js("hits", hits)?;
    let misses = u64_from_js("misses", misses)?;
    let stake = super::uint_from_js("stake", stake)?;
    let min_stake = super::uint_from_js("minStake", min_stake)?;
    track_record_score(hits, misses, stake, min_stake).map_err(|e| err("trackRecordScore", e))
}

/// A4: `callVoteWeight(hits, misses, stake, minStake)` → WAD decimal string, the vote a reveal
/// by this agent adds: `1 + score`.
#[wasm_bindgen(js_name = callVoteWeight)]
pub fn call_vote_weight_js(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] hits: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] misses: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] stake: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] min_stake: JsValue,
) -> Result<String, JsValue> {
    let score = track_record(&hits, &misses, &stake, &min_stake)?;
    vote_weight(score)
        .map(|w| w.to_string())
        .map_err(|e| err("callVoteWeight", e))
}

/// A4: `consensusState(votes, quorum = 3, thresholdBps = 6667)` with
/// `votes = [{up: bool, weight: WAD string}]` ([`Vote`]) → [`ConsensusState`](crate::calls::ConsensusState).
///
/// `direction` is the leading side whether or not consensus is reached (`"none"` on a tie or
/// with no votes); `reached` says whether quorum and threshold are both met.
#[wasm_bindgen(js_name = consensusState, unchecked_return_type = "ConsensusState")]
pub fn consensus_state_js(
    #[wasm_bindgen(unchecked_param_type = "Vote[]")] votes: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike | null | undefined")] quorum: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike | null | undefined")] threshold_bps: JsValue,
) -> Result<JsValue, JsValue> {
    let quorum = u64_from_js_or("quorum", &quorum, crate::calls::DEFAULT_CONSENSUS_QUORUM)?;
    let threshold_bps = u64_from_js_or(
        "thresholdBps",
        &threshold_bps,
        crate::calls::DEFAULT_CONSENSUS_THRESHOLD_BPS,
    )?;
    let votes: Vec<Vote> = from_js("votes", votes)?;
    let params =
        ConsensusParams::new(quorum, threshold_bps).map_err(|e| err("consensusState", e))?;
    let mut round = ConsensusRound::new(RoundKey::default());
    for (i, v) in votes.iter().enumerate() {
        round
            .add_vote(Direction::from_up(v.up), v.weight, &params)
            .map_err(|e| err(&format!("votes[{i}]"), e))?;
    }
    let s = round.state(&params).map_err(|e| err("votes", e))?;
    to_js(&s)
}

/// A3: `callOutcome(direction, entryWad, exitWad, bandPips?)` → `"hit"`, `"miss"` or `"void"`.
/// `direction` is `"up"` or `"down"`; `exitWad` may be `null`/`undefined` when the exit price
/// cannot be computed (void); `bandPips` is the call's band (its pool's fee, at least 100; 0, the
/// default, on pushed prices): a move smaller than it is void.
#[wasm_bindgen(js_name = callOutcome)]
pub fn call_outcome_js(
    #[wasm_bindgen(unchecked_param_type = "string")] direction: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] entry_wad: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | null | undefined")] exit_wad: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike | undefined")] band_pips: JsValue,
) -> Result<String, JsValue> {
    let band = if band_pips.is_undefined() || band_pips.is_null() {
        0
    } else {
        super::u32_from_js("bandPips", &band_pips)?
    };
    let direction: &str = &super::text_from_js("direction", &direction)?;
    let entry = super::uint_from_js("entryWad", &entry_wad)?;
    let direction = parse_direction("direction", direction)?;
    let exit: Option<U256> = super::opt_text_from_js("exitWad", &exit_wad)?
        .map(|s| parse_u256("exitWad", &s))
        .transpose()?;
    Ok(call_outcome(direction, entry, exit, band)
        .as_str()
        .to_string())
}

/// A4: `consensusBucket(closesAt, window)` → `floor(closesAt / window)` as a JS number.
#[wasm_bindgen(js_name = consensusBucket)]
pub fn consensus_bucket_js(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] closes_at: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] window: JsValue,
) -> Result<f64, JsValue> {
    let closes_at = u64_from_js("closesAt", &closes_at)?;
    let window = u64_from_js("window", &window)?;
    let bucket = consensus_bucket(closes_at, window).map_err(|e| err("consensusBucket", e))?;
    to_safe_number("bucket", bucket)
}

/// A4: `revealRoundNow(now, window)` → the bucket a call revealed at `now` lands in,
/// `floor((now + window) / window)`, as a JS number.
#[wasm_bindgen(js_name = revealRoundNow)]
pub fn reveal_round_now_js(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] now: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] window: JsValue,
) -> Result<f64, JsValue> {
    let now = u64_from_js("now", &now)?;
    let window = u64_from_js("window", &window)?;
    let bucket = round_for_reveal_now(now, window).map_err(|e| err("revealRoundNow", e))?;
    to_safe_number("bucket", bucket)
}

/// `callCommitment(agent, asset, direction, window, salt)` → 0x-hex bytes32,
/// `keccak256(abi.encode(address agent, address asset, uint8 direction, uint64 window, bytes32 salt))`
/// with direction `"down"` = 0, `"up"` = 1.
#[wasm_bindgen(js_name = callCommitment)]
pub fn call_commitment_js(
    #[wasm_bindgen(unchecked_param_type = "string")] agent: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] asset: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] direction: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] window: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] salt: JsValue,
) -> Result<String, JsValue> {
    let agent: &str = &super::text_from_js("agent", &agent)?;
    let asset: &str = &super::text_from_js("asset", &asset)?;
    let direction: &str = &super::text_from_js("direction", &direction)?;
    let salt: &str = &super::text_from_js("salt", &salt)?;
    let window = u64_from_js("window", &window)?;
    let agent = parse_address("agent", agent)?;
    let asset = parse_address("asset", asset)?;
    let direction = parse_direction("direction", direction)?;
    let salt = parse_b256("salt", salt)?;
    Ok(call_commitment(agent, asset, direction, window, salt).to_string())
}
