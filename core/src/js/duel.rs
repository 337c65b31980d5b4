//! JS exports for `crate::duel` (B1–B7).
//!
//! Unix times and ticks cross as numbers (or BigInts or decimal strings); amounts and prices as decimal
//! strings (prices are WADs of ETH per whole token).

use super::js_error;
use super::{err, from_js, int_from_js, parse_u256, to_js, u64_from_js, JsInt};
use crate::duel::{self, BuybackPool, Ema, Observation, RoundWindow, Streaks, Winner};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

fn tick_i32(what: &str, v: &JsInt) -> Result<i32, JsValue> {
    let t = v.to_i64(what)?;
    i32::try_from(t).map_err(|_| js_error(&format!("{what}: {t} is not a valid tick")))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsRound {
    index: f64,
    start: f64,
    end: f64,
}

impl From<RoundWindow> for JsRound {
    fn from(r: RoundWindow) -> Self {
        // Unix seconds and round indices are far below 2^53.
        Self {
            index: r.index as f64,
            start: r.start as f64,
            end: r.end as f64,
        }
    }
}

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
#[wasm_bindgen(js_name = duelRoundAt)]
pub fn duel_round_at(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] start_unix: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] now_unix: JsValue,
) -> Result<JsValue, JsValue> {
    let start = u64_from_js("startUnix", &start_unix)?;
    let now = u64_from_js("nowUnix", &now_unix)?;
    to_js(&JsRound::from(
        duel::round_at(start, now).map_err(|e| err("duelRoundAt", e))?,
    ))
}

/// `duelRoundWindow(startUnix, index)` → `{index, start, end}` of round `index`.
#[wasm_bindgen(js_name = duelRoundWindow)]
pub fn duel_round_window(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] start_unix: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] index: JsValue,
) -> Result<JsValue, JsValue> {
    let start = u64_from_js("startUnix", &start_unix)?;
    let i = u64_from_js("index", &index)?;
    to_js(&JsRound::from(
        duel::round_window(start, i).map_err(|e| err("duelRoundWindow", e))?,
    ))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsWake {
    settle: Option<JsRound>,
    skipped: f64,
    current: JsRound,
}

/// `duelWake(startUnix, activeRound, nowUnix)` → `{settle, skipped, current}` (B7): the round
/// to settle first (or `null`), how many idle rounds are skipped, and the current round.
#[wasm_bindgen(js_name = duelWake)]
pub fn duel_wake(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] start_unix: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] active_round: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] now_unix: JsValue,
) -> Result<JsValue, JsValue> {
    let start = u64_from_js("startUnix", &start_unix)?;
    let active = u64_from_js("activeRound", &active_round)?;
    let now = u64_from_js("nowUnix", &now_unix)?;
    let w = duel::wake(start, active, now).map_err(|e| err("duelWake", e))?;
    to_js(&JsWake {
        settle: w.settle.map(JsRound::from),
        skipped: w.skipped as f64,
        current: JsRound::from(w.current),
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsObservation {
    timestamp: JsInt,
    tick_a: JsInt,
    tick_b: JsInt,
    /// A swap of the round (default); `false` for the creation seed or a hook buyback.
    #[serde(default = "yes")]
    swap: bool,
}

fn yes() -> bool {
    true
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsRoundMean {
    mean_tick: f64,
    winner: &'static str,
    had_swap: bool,
}

/// `duelRoundMeanTick(observations, roundStart, roundEnd)` with `observations =
/// [{timestamp, tickA, tickB, swap?}]` sorted by time (`swap` defaults to true; false for the creation
/// seed or a hook buyback, which move `d` without being round activity) → `{meanTick, winner, hadSwap}` (B2), `winner`
/// one of `"A"`, `"B"`, `"none"`.
#[wasm_bindgen(js_name = duelRoundMeanTick)]
pub fn duel_round_mean_tick(
    observations: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] round_start: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] round_end: JsValue,
) -> Result<JsValue, JsValue> {
    let start = u64_from_js("roundStart", &round_start)?;
    let end = u64_from_js("roundEnd", &round_end)?;
    let raw: Vec<JsObservation> = from_js("observations", observations)?;
    let obs = raw
        .iter()
        .enumerate()
        .map(|(i, o)| {
            Ok(Observation {
                timestamp: o
                    .timestamp
                    .to_u64(&format!("observations[{i}].timestamp"))?,
                tick_a: tick_i32(&format!("observations[{i}].tickA"), &o.tick_a)?,
                tick_b: tick_i32(&format!("observations[{i}].tickB"), &o.tick_b)?,
                swap: o.swap,
            })
        })
        .collect::<Result<Vec<_>, JsValue>>()?;
    let r = duel::round_mean_tick(&obs, start, end).map_err(|e| err("duelRoundMeanTick", e))?;
    // |meanTick| ≤ 1,774,544.
    to_js(&JsRoundMean {
        mean_tick: r.mean_tick as f64,
        winner: r.winner.as_str(),
        had_swap: r.had_swap,
    })
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

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsEmaIn {
    ema_wad: String,
    last_update: JsInt,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsEmaOut {
    ema_wad: String,
    last_update: f64,
}

/// `duelEmaUpdate(ema, priceWad, nowUnix)` with `ema = {emaWad, lastUpdate}` or `null` (seed)
/// → `{emaWad, lastUpdate}` (B5: `ema += (p − ema)·Δt/(Δt + 1800)`, rounded toward the lower
/// price).
#[wasm_bindgen(js_name = duelEmaUpdate)]
pub fn duel_ema_update(
    ema: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] price_wad: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] now_unix: JsValue,
) -> Result<JsValue, JsValue> {
    let price_wad: &str = &super::int_text_from_js("priceWad", &price_wad)?;
    let now = u64_from_js("nowUnix", &now_unix)?;
    let prev: Option<JsEmaIn> = from_js("ema", ema)?;
    let prev = match prev {
        Some(e) => Some(Ema {
            value_wad: parse_u256("ema.emaWad", &e.ema_wad)?,
            last_update: e.last_update.to_u64("ema.lastUpdate")?,
        }),
        None => None,
    };
    let p = parse_u256("priceWad", price_wad)?;
    let e = duel::ema_update(prev, p, now).map_err(|e| err("duelEmaUpdate", e))?;
    to_js(&JsEmaOut {
        ema_wad: e.value_wad.to_string(),
        last_update: e.last_update as f64,
    })
}

/// `duelBuybackCap(emaWad, priceWad)` → WAD string `min(ema, price) × 1.10` (B5).
#[wasm_bindgen(js_name = duelBuybackCap)]
pub fn duel_buyback_cap(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] ema_wad: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] price_wad: JsValue,
) -> Result<String, JsValue> {
    let ema_wad: &str = &super::int_text_from_js("emaWad", &ema_wad)?;
    let price_wad: &str = &super::int_text_from_js("priceWad", &price_wad)?;
    let e = parse_u256("emaWad", ema_wad)?;
    let p = parse_u256("priceWad", price_wad)?;
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
    let sqrt_price_x96: &str = &super::int_text_from_js("sqrtPriceX96", &sqrt_price_x96)?;
    let eth_is_currency0 = super::bool_from_js("ethIsCurrency0", &eth_is_currency0)?;
    let s = parse_u256("sqrtPriceX96", sqrt_price_x96)?;
    duel::token_price_wad(s, eth_is_currency0)
        .map(|p| p.to_string())
        .map_err(|e| err("duelTokenPriceWad", e))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsPool {
    sqrt_price_x96: String,
    liquidity: String,
    fee_pips: JsInt,
    #[serde(default)]
    eth_is_currency0: Option<bool>,
    tick_spacing: JsInt,
}

fn parse_pool(what: &str, v: JsValue) -> Result<BuybackPool, JsValue> {
    let p: JsPool = from_js(what, v)?;
    let liquidity = parse_u256(&format!("{what}.liquidity"), &p.liquidity)?;
    let spacing = p.tick_spacing.to_i64(&format!("{what}.tickSpacing"))?;
    Ok(BuybackPool {
        sqrt_price_x96: parse_u256(&format!("{what}.sqrtPriceX96"), &p.sqrt_price_x96)?,
        liquidity: u128::try_from(liquidity).map_err(|_| {
            js_error(&format!(
                "{what}.liquidity: {liquidity} does not fit in uint128"
            ))
        })?,
        fee_pips: p.fee_pips.to_u32(&format!("{what}.feePips"))?,
        eth_is_currency0: p.eth_is_currency0.unwrap_or(true),
        tick_spacing: i32::try_from(spacing)
            .map_err(|_| js_error(&format!("{what}.tickSpacing: {spacing} is out of range")))?,
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsBuyback {
    eth_spent: String,
    tokens_bought: String,
    fee_paid: String,
    sqrt_price_x96_after: String,
    limit_sqrt_price_x96: String,
    current_price_wad: String,
    cap_wad: String,
    pot_left: String,
    reached_cap: bool,
}

/// `duelBuybackBudget(pool, potWei, emaWad)` with `pool = {sqrtPriceX96, liquidity, feePips,
/// ethIsCurrency0?, tickSpacing}` → `{ethSpent, tokensBought, feePaid, sqrtPriceX96After,
/// limitSqrtPriceX96, currentPriceWad, capWad, potLeft, reachedCap}` (B5): how much of the pot
/// a full-range v4 pool absorbs before the token's price reaches `min(EMA, price) × 1.10`.
#[wasm_bindgen(js_name = duelBuybackBudget)]
pub fn duel_buyback_budget(
    pool: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] pot_wei: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] ema_wad: JsValue,
) -> Result<JsValue, JsValue> {
    let pot_wei: &str = &super::int_text_from_js("potWei", &pot_wei)?;
    let ema_wad: &str = &super::int_text_from_js("emaWad", &ema_wad)?;
    let pool = parse_pool("pool", pool)?;
    let pot = parse_u256("potWei", pot_wei)?;
    let ema = parse_u256("emaWad", ema_wad)?;
    let b = duel::buyback(&pool, pot, ema).map_err(|e| err("duelBuybackBudget", e))?;
    to_js(&JsBuyback {
        eth_spent: b.eth_spent.to_string(),
        tokens_bought: b.tokens_bought.to_string(),
        fee_paid: b.fee_paid.to_string(),
        sqrt_price_x96_after: b.sqrt_price_after_x96.to_string(),
        limit_sqrt_price_x96: b.limit_sqrt_price_x96.to_string(),
        current_price_wad: b.current_price_wad.to_string(),
        cap_wad: b.cap_wad.to_string(),
        pot_left: b.pot_left.to_string(),
        reached_cap: b.reached_cap,
    })
}

#[derive(Deserialize, Serialize, Default)]
#[serde(rename_all = "camelCase")]
struct JsStreaks {
    #[serde(default)]
    a: u32,
    #[serde(default)]
    b: u32,
    #[serde(default)]
    best_a: u32,
    #[serde(default)]
    best_b: u32,
}

/// `duelRecordStreak(streaks, winner)` with `streaks = {a, b, bestA, bestB}` (or `null`) and
/// `winner` `"A"`, `"B"` or `"none"` → the streaks after the round (B6).
#[wasm_bindgen(js_name = duelRecordStreak)]
pub fn duel_record_streak(
    streaks: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] winner: JsValue,
) -> Result<JsValue, JsValue> {
    let winner: &str = &super::text_from_js("winner", &winner)?;
    let s: Option<JsStreaks> = from_js("streaks", streaks)?;
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
    let n = Streaks {
        a: s.a,
        b: s.b,
        best_a: s.best_a,
        best_b: s.best_b,
    }
    .record(w);
    to_js(&JsStreaks {
        a: n.a,
        b: n.b,
        best_a: n.best_a,
        best_b: n.best_b,
    })
}
