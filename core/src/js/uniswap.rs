//! JS exports for `crate::uniswap` (A5, C16): `sqrtPriceAtTick`, `tickAtSqrtPrice`,
//! `quoteAtTick`, `arithmeticMeanTick`, `stockPriceWad`, `twapPriceWad`.
//!
//! Ticks, cumulatives and seconds may be JS numbers (safe integers), decimal strings or BigInts;
//! big results are decimal strings.

use super::js_error;
use alloy_primitives::U256;
use wasm_bindgen::prelude::*;

use super::{bool_from_js, int_from_js, parse_address, u32_from_js, uint_from_js};
use crate::uniswap::oracle::{
    arithmetic_mean_tick, get_quote_at_tick, stock_price_wad, twap_price_wad,
};
use crate::uniswap::tick_math::{
    get_sqrt_price_at_tick, get_tick_at_sqrt_price, MAX_TICK, MIN_TICK,
};

fn tick_from_js(what: &str, v: &JsValue) -> Result<i32, JsValue> {
    let t = int_from_js(what, v)?;
    i32::try_from(t)
        .ok()
        .filter(|t| (MIN_TICK..=MAX_TICK).contains(t))
        .ok_or_else(|| {
            js_error(&format!(
                "{what}: tick {t} is outside [{MIN_TICK}, {MAX_TICK}]"
            ))
        })
}

/// `sqrtPriceAtTick(tick)`: `TickMath.getSqrtPriceAtTick` as a decimal string (Q64.96).
#[wasm_bindgen(js_name = sqrtPriceAtTick)]
pub fn sqrt_price_at_tick_js(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] tick: JsValue,
) -> Result<String, JsValue> {
    let t = tick_from_js("tick", &tick)?;
    let p = get_sqrt_price_at_tick(i64::from(t)).map_err(|e| js_error(&format!("tick: {e}")))?;
    Ok(p.to_string())
}

/// `tickAtSqrtPrice(sqrtPriceX96)`: `TickMath.getTickAtSqrtPrice` (decimal string in, number out).
#[wasm_bindgen(js_name = tickAtSqrtPrice)]
pub fn tick_at_sqrt_price_js(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] sqrt_price_x96: JsValue,
) -> Result<i32, JsValue> {
    let p: U256 = uint_from_js("sqrtPriceX96", &sqrt_price_x96)?;
    get_tick_at_sqrt_price(p).map_err(|e| js_error(&format!("sqrtPriceX96: {e}")))
}

/// `quoteAtTick(tick, baseAmount, baseToken, quoteToken)`: `OracleLibrary.getQuoteAtTick`, the
/// amount of `quoteToken` for `baseAmount` (uint128) of `baseToken`, as a decimal string.
#[wasm_bindgen(js_name = quoteAtTick)]
pub fn quote_at_tick_js(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] tick: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] base_amount: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] base_token: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] quote_token: JsValue,
) -> Result<String, JsValue> {
    let base_token: &str = &super::text_from_js("baseToken", &base_token)?;
    let quote_token: &str = &super::text_from_js("quoteToken", &quote_token)?;
    let base = uint_from_js("baseAmount", &base_amount)?;
    let t = tick_from_js("tick", &tick)?;
    let base = u128::try_from(base)
        .map_err(|_| js_error(&format!("baseAmount: {base} does not fit in uint128")))?;
    let base_token = parse_address("baseToken", base_token)?;
    let quote_token = parse_address("quoteToken", quote_token)?;
    let q = get_quote_at_tick(t, base, base_token, quote_token)
        .map_err(|e| js_error(&e.to_string()))?;
    Ok(q.to_string())
}

/// `arithmeticMeanTick(tickCumulativeStart, tickCumulativeEnd, seconds)`: the mean tick rounded
/// toward negative infinity (`OracleLibrary.consult`, A5), as a number.
#[wasm_bindgen(js_name = arithmeticMeanTick)]
pub fn arithmetic_mean_tick_js(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] tick_cumulative_start: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] tick_cumulative_end: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] seconds: JsValue,
) -> Result<i32, JsValue> {
    let start = int_from_js("tickCumulativeStart", &tick_cumulative_start)?;
    let end = int_from_js("tickCumulativeEnd", &tick_cumulative_end)?;
    let secs = u32_from_js("seconds", &seconds)?;
    arithmetic_mean_tick(start, end, secs).map_err(|e| js_error(&e.to_string()))
}

/// `stockPriceWad(avgTick, stockIsToken0)`: USDG (6 decimals) per one stock token (18 decimals)
/// as a WAD decimal string (A5).
#[wasm_bindgen(js_name = stockPriceWad)]
pub fn stock_price_wad_js(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] avg_tick: JsValue,
    #[wasm_bindgen(unchecked_param_type = "boolean")] stock_is_token0: JsValue,
) -> Result<String, JsValue> {
    let t = tick_from_js("avgTick", &avg_tick)?;
    let order = bool_from_js("stockIsToken0", &stock_is_token0)?;
    let p = stock_price_wad(t, order).map_err(|e| js_error(&e.to_string()))?;
    Ok(p.to_string())
}

/// `twapPriceWad(tickCumulativeStart, tickCumulativeEnd, seconds, stockIsToken0)`: the stock's
/// TWAP USDG price as a WAD decimal string (A5: the window is 300 s).
#[wasm_bindgen(js_name = twapPriceWad)]
pub fn twap_price_wad_js(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] tick_cumulative_start: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] tick_cumulative_end: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] seconds: JsValue,
    #[wasm_bindgen(unchecked_param_type = "boolean")] stock_is_token0: JsValue,
) -> Result<String, JsValue> {
    let start = int_from_js("tickCumulativeStart", &tick_cumulative_start)?;
    let end = int_from_js("tickCumulativeEnd", &tick_cumulative_end)?;
    let secs = u32_from_js("seconds", &seconds)?;
    let order = bool_from_js("stockIsToken0", &stock_is_token0)?;
    let p = twap_price_wad(start, end, secs, order).map_err(|e| js_error(&e.to_string()))?;
    Ok(p.to_string())
}
