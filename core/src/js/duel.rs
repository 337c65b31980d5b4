//! JS exports for `crate::duel` (B1–B7).
//!
//! Unix times and ticks cross as numbers (or BigInts or decimal strings); amounts and prices as decimal
//! strings (prices are WADs of ETH per whole token).

use super::js_error;
use super::{err, from_js, int_from_js, to_js, u64_from_js};
use crate::duel::{self, BuybackPool, Ema, Observation, Streaks, Winner};
use wasm_bindgen::prelude::*;

/// `duelFirstClose(startUnix)` → unix seconds of the first close `c` with `c − start ≥ 4 h`
/// (B1): closes are at 00, 04, 08, 12, 16, 20 h UTC.
#[wasm_bindgen(js_name = duelFirstClose)]
pub fn duel_first_close(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] start_unix: JsValue,
) -> Result<f64, JsValue> {
    let start = u64_from_js("startUnix", &start_unix)?;
    duel::first_close(start)
        .map(|c| c as f64)
        .map_err(|e| err("duelFirstClose", e))
}

/// `duelRoundAt(startUnix, nowUnix)` → `{index, start, end}`: the round containing `now`.
#[wasm_bindgen(js_name = duelRoundAt, unchecked_return_type = "RoundWindow")]
pub fn duel_round_at(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] start_unix: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] now_unix: JsValue,
) -> Result<JsValue, JsValue> {
    let start = u64_from_js("startUnix", &start_unix)?;
    let now = u64_from_js("nowUnix", &now_unix)?;
    to_js(&duel::round_at(start, now).map_err(|e| err("duelRoundAt", e))?)
}

/// `duelRoundWindow(startUnix, index)` → `{index, start, end}` of round `index`.
#[wasm_bindgen(js_name = duelRoundWindow, unchecked_return_type = "RoundWindow")]
pub fn duel_round_window(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] start_unix: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] index: JsValue,
) -> Result<JsValue, JsValue> {
    let start = u64_from_js("startUnix", &start_unix)?;
    let i = u64_from_js("index", &index)?;
    to_js(&duel::round_window(start, i).map_err(|e| err("duelRoundWindow", e))?)
}

/// `duelWake(startUnix, activeRound, nowUnix)` → `{settle, skipped, current}` (B7): the round
/// to settle first (or `null`), how many idle rounds are skipped, and the current round.
#[wasm_bindgen(js_name = duelWake, unchecked_return_type = "Wake")]
pub fn duel_wake(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] start_unix: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] active_round: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] now_unix: JsValue,
) -> Result<JsValue, JsValue> {
    let start = u64_from_js("startUnix", &start_unix)?;
    let active = u64_from_js("activeRound", &active_round)?;
    let now = u64_from_js("nowUnix", &now_unix)?;
    let w = duel::wake(start, active, now).map_err(|e| err("duelWake", e))?;
    to_js(&w)
}

/// `duelRoundMeanTick(observations, roundStart, roundEnd)` with `observations =
/// [{timestamp, tickA, tickB, swap?}]` sorted by time (`swap` defaults to true; false for the creation
/// seed or a hook buyback, which move `d` without being round activity) → `{meanTick, winner, hadSwap}` (B2), `winner`
/// one of `"A"`, `"B"`, `"none"`.
#[wasm_bindgen(js_name = duelRoundMeanTick, unchecked_return_type = "RoundMean")]
pub fn duel_round_mean_tick(
    #[wasm_bindgen(unchecked_param_type = "Observation[]")] observations: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] round_start: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] round_end: JsValue,
) -> Result<JsValue, JsValue> {
    let start = u64_from_js("roundStart", &round_start)?;
    let end = u64_from_js("roundEnd", &round_end)?;
    let obs: Vec<Observation> = from_js("observations", observations)?;
    let r = duel::round_mean_tick(&obs, start, end).map_err(|e| err("duelRoundMeanTick", e))?;
    to_js(&r)
}

/// `splitFromTick(meanTick)` → WAD decimal string `shareA = r / (1 + r)`, `r = 1.0001^meanTick`
/// (B3; `shareB = 10^18 − shareA`).
#[wasm_bindgen(js_name = splitFromTick)]
pub fn split_from_tick(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] mean_tick: JsValue,
) -> Result<String, JsValue> {
    let t = int_from_js("meanTick", &mean_tick)?;
    Ok(duel::share_a_wad(t).to_string())
}

/// `duelEthPriceTick(poolTick, ethIsCurrency0)` → the tick of the token's price in ETH.
#[wasm_bindgen(js_name = duelEthPriceTick)]
pub fn duel_eth_price_tick(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] pool_tick: JsValue,
    #[wasm_bindgen(unchecked_param_type = "boolean")] eth_is_currency0: JsValue,
) -> Result<i32, JsValue> {
    let pool_tick = super::i32_from_js("poolTick", &pool_tick)?;
    let eth_is_currency0 = super::bool_from_js("ethIsCurrency0", &eth_is_currency0)?;
    Ok(duel::eth_price_tick(pool_tick, eth_is_currency0))
}

/// `duelEmaUpdate(ema, priceWad, nowUnix)` with `ema = {emaWad, lastUpdate}` or `null` (seed)
/// → `{emaWad, lastUpdate}` (B5: `ema += (p − ema)·Δt/(Δt + 1800)`, rounded toward the lower
/// price).
#[wasm_bindgen(js_name = duelEmaUpdate, unchecked_return_type = "Ema")]
pub fn duel_ema_update(
    #[wasm_bindgen(unchecked_param_type = "Ema | null")] ema: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] price_wad: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] now_unix: JsValue,
) -> Result<JsValue, JsValue> {
    let p = super::uint_from_js("priceWad", &price_wad)?;
    let now = u64_from_js("nowUnix", &now_unix)?;
    let prev: Option<Ema> = from_js("ema", ema)?;
    let e = duel::ema_update(prev, p, now).map_err(|e| err("duelEmaUpdate", e))?;
    to_js(&e)
}

/// `duelBuybackCap(emaWad, priceWad)` → WAD string `min(ema, price) × 1.10` (B5).
#[wasm_bindgen(js_name = duelBuybackCap)]
pub fn duel_buyback_cap(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] ema_wad: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] price_wad: JsValue,
) -> Result<String, JsValue> {
    let e = super::uint_from_js("emaWad", &ema_wad)?;
    let p = super::uint_from_js("priceWad", &price_wad)?;
    duel::buyback_cap_wad(e, p)
        .map(|c| c.to_string())
        .map_err(|e| err("duelBuybackCap", e))
}

/// `duelTokenPriceWad(sqrtPriceX96, ethIsCurrency0)` → WAD string: the token's price in ETH
/// from its ETH pool's sqrt price (rounded down).
#[wasm_bindgen(js_name = duelTokenPriceWad)]
pub fn duel_token_price_wad(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] sqrt_price_x96: JsValue,
    #[wasm_bindgen(unchecked_param_type = "boolean")] eth_is_currency0: JsValue,
) -> Result<String, JsValue> {
    let s = super::uint_from_js("sqrtPriceX96", &sqrt_price_x96)?;
    let eth_is_currency0 = super::bool_from_js("ethIsCurrency0", &eth_is_currency0)?;
    duel::token_price_wad(s, eth_is_currency0)
        .map(|p| p.to_string())
        .map_err(|e| err("duelTokenPriceWad", e))
}

/// `duelBuybackBudget(pool, potWei, emaWad)` with `pool = {sqrtPriceX96, liquidity, feePips,
/// ethIsCurrency0?, tickSpacing}` → `{ethSpent, tokensBought, feePaid, sqrtPriceX96After,
/// limitSqrtPriceX96, currentPriceWad, capWad, potLeft, reachedCap}` (B5): how much of the pot
/// a full-range v4 pool absorbs before the token's price reaches `min(EMA, price) × 1.10`.
#[wasm_bindgen(js_name = duelBuybackBudget, unchecked_return_type = "Buyback")]
pub fn duel_buyback_budget(
    #[wasm_bindgen(unchecked_param_type = "BuybackPool")] pool: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] pot_wei: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] ema_wad: JsValue,
) -> Result<JsValue, JsValue> {
    let pot = super::uint_from_js("potWei", &pot_wei)?;
    let ema = super::uint_from_js("emaWad", &ema_wad)?;
    let pool: BuybackPool = from_js("pool", pool)?;
    let b = duel::buyback(&pool, pot, ema).map_err(|e| err("duelBuybackBudget", e))?;
    to_js(&b)
}

/// `duelRecordStreak(streaks, winner)` with `streaks = {a, b, bestA, bestB}` (or `null`) and
/// `winner` `"A"`, `"B"` or `"none"` → the streaks after the round (B6).
#[wasm_bindgen(js_name = duelRecordStreak, unchecked_return_type = "Streaks")]
pub fn duel_record_streak(
    #[wasm_bindgen(unchecked_param_type = "Partial<Streaks> | null")] streaks: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] winner: JsValue,
) -> Result<JsValue, JsValue> {
    let winner: &str = &super::text_from_js("winner", &winner)?;
    let s: Option<Streaks> = from_js("streaks", streaks)?;
    let s = s.unwrap_or_default();
    let w = match winner {
        "A" => Winner::A,
        "B" => Winner::B,
        "none" => Winner::None,
        other => {
            return Err(js_error(&format!(
                "winner: expected \"A\", \"B\" or \"none\", got '{other}'"
            )))
        }
    };
    to_js(&s.record(w))
}
