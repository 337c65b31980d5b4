//! JS exports for `crate::curve` (C19 bonding curve, C20 graduation).
//!
//! A curve state crosses as [`CurveState`] (`{virtualQuote, totalSupply, quoteRaised,
//! tokenReserve, feeBps, launchTime?}`): amounts as decimal strings, `feeBps` and `launchTime`
//! as numbers, BigInts or decimal strings. Results are core's own types, serialised the same way.

use super::{err, from_js, parse_address, to_js, u64_from_js};
use crate::curve::{
    self, fee::buy_fee_rate_pips, graduation::graduation_pool as pool_for, BuyQuote, CurveState,
    GraduationPool, SellQuote,
};
use alloy_primitives::U256;
use serde::Serialize;
use tsify::Tsify;
use wasm_bindgen::prelude::*;

fn parse_state(v: JsValue) -> Result<CurveState, JsValue> {
    let state: CurveState = from_js("state", v)?;
    state.validate().map_err(|e| err("state", e))?;
    Ok(state)
}

/// `curveQuoteBuy(state, quoteIn, secondsSinceLaunch)` → [`BuyQuote`] (C19): exact buy quote
/// with the anti-snipe tax and the graduation clamp.
#[wasm_bindgen(js_name = curveQuoteBuy, unchecked_return_type = "BuyQuote")]
pub fn curve_quote_buy(
    #[wasm_bindgen(unchecked_param_type = "CurveState")] state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] quote_in: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] seconds_since_launch: JsValue,
) -> Result<JsValue, JsValue> {
    let x = super::uint_from_js("quoteIn", &quote_in)?;
    let t = u64_from_js("secondsSinceLaunch", &seconds_since_launch)?;
    let s = parse_state(state)?;
    let q = curve::quote_buy(&s, x, t).map_err(|e| err("curveQuoteBuy", e))?;
    to_js(&q)
}

/// `curveQuoteSell(state, tokensIn)` → [`SellQuote`] (C19).
#[wasm_bindgen(js_name = curveQuoteSell, unchecked_return_type = "SellQuote")]
pub fn curve_quote_sell(
    #[wasm_bindgen(unchecked_param_type = "CurveState")] state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] tokens_in: JsValue,
) -> Result<JsValue, JsValue> {
    let y = super::uint_from_js("tokensIn", &tokens_in)?;
    let s = parse_state(state)?;
    let q = curve::quote_sell(&s, y).map_err(|e| err("curveQuoteSell", e))?;
    to_js(&q)
}

/// A buy and the curve after it.
#[derive(Serialize, Tsify)]
pub struct BuyResult {
    #[serde(flatten)]
    quote: BuyQuote,
    state: CurveState,
}

/// `curveBuy(state, quoteIn, secondsSinceLaunch, minTokensOut)` → [`BuyResult`]: the buy with
/// its slippage check and the state after it.
#[wasm_bindgen(js_name = curveBuy, unchecked_return_type = "BuyResult")]
pub fn curve_buy(
    #[wasm_bindgen(unchecked_param_type = "CurveState")] state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] quote_in: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] seconds_since_launch: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] min_tokens_out: JsValue,
) -> Result<JsValue, JsValue> {
    let x = super::uint_from_js("quoteIn", &quote_in)?;
    let min = super::uint_from_js("minTokensOut", &min_tokens_out)?;
    let t = u64_from_js("secondsSinceLaunch", &seconds_since_launch)?;
    let s = parse_state(state)?;
    let (state, quote) = curve::apply_buy(&s, x, t, min).map_err(|e| err("curveBuy", e))?;
    to_js(&BuyResult { quote, state })
}

/// A sell and the curve after it.
#[derive(Serialize, Tsify)]
pub struct SellResult {
    #[serde(flatten)]
    quote: SellQuote,
    state: CurveState,
}

/// `curveSell(state, tokensIn, minQuoteOut)` → [`SellResult`].
#[wasm_bindgen(js_name = curveSell, unchecked_return_type = "SellResult")]
pub fn curve_sell(
    #[wasm_bindgen(unchecked_param_type = "CurveState")] state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] tokens_in: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] min_quote_out: JsValue,
) -> Result<JsValue, JsValue> {
    let y = super::uint_from_js("tokensIn", &tokens_in)?;
    let min = super::uint_from_js("minQuoteOut", &min_quote_out)?;
    let s = parse_state(state)?;
    let (state, quote) = curve::apply_sell(&s, y, min).map_err(|e| err("curveSell", e))?;
    to_js(&SellResult { quote, state })
}

/// The smallest buy that gets at least some number of tokens, with its forward quote.
#[derive(Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct BuyInverse {
    #[serde(with = "crate::serde_dec::u256")]
    quote_in: U256,
    #[serde(flatten)]
    quote: BuyQuote,
}

/// `curveQuoteInForTokens(state, tokensOut, secondsSinceLaunch)` → [`BuyInverse`]: the smallest
/// quote that buys at least `tokensOut`, with its forward quote.
#[wasm_bindgen(js_name = curveQuoteInForTokens, unchecked_return_type = "BuyInverse")]
pub fn curve_quote_in_for_tokens(
    #[wasm_bindgen(unchecked_param_type = "CurveState")] state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] tokens_out: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] seconds_since_launch: JsValue,
) -> Result<JsValue, JsValue> {
    let tokens = super::uint_from_js("tokensOut", &tokens_out)?;
    let t = u64_from_js("secondsSinceLaunch", &seconds_since_launch)?;
    let s = parse_state(state)?;
    let quote_in = curve::quote_in_for_tokens_out(&s, tokens, t)
        .map_err(|e| err("curveQuoteInForTokens", e))?;
    let quote = curve::quote_buy(&s, quote_in, t).map_err(|e| err("curveQuoteInForTokens", e))?;
    to_js(&BuyInverse { quote_in, quote })
}

/// The fewest tokens whose sale returns at least some quote, with its forward quote.
#[derive(Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct SellInverse {
    #[serde(with = "crate::serde_dec::u256")]
    tokens_in: U256,
    #[serde(flatten)]
    quote: SellQuote,
}

/// `curveTokensInForQuote(state, quoteOut)` → [`SellInverse`]: the fewest tokens whose sale
/// returns at least `quoteOut`, with its forward quote.
#[wasm_bindgen(js_name = curveTokensInForQuote, unchecked_return_type = "SellInverse")]
pub fn curve_tokens_in_for_quote(
    #[wasm_bindgen(unchecked_param_type = "CurveState")] state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] quote_out: JsValue,
) -> Result<JsValue, JsValue> {
    let want = super::uint_from_js("quoteOut", &quote_out)?;
    let s = parse_state(state)?;
    let tokens_in =
        curve::tokens_in_for_quote_out(&s, want).map_err(|e| err("curveTokensInForQuote", e))?;
    let quote = curve::quote_sell(&s, tokens_in).map_err(|e| err("curveTokensInForQuote", e))?;
    to_js(&SellInverse { tokens_in, quote })
}

/// `curveMetrics(state, quoteDecimals)` → [`curve::CurveMetrics`]: progress `Q/G`, the marginal
/// price of one whole token in whole quote tokens, and the fully diluted market cap (WAD
/// strings, rounded down).
#[wasm_bindgen(js_name = curveMetrics, unchecked_return_type = "CurveMetrics")]
pub fn curve_metrics(
    #[wasm_bindgen(unchecked_param_type = "CurveState")] state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] quote_decimals: JsValue,
) -> Result<JsValue, JsValue> {
    let quote_decimals = super::u8_from_js("quoteDecimals", &quote_decimals)?;
    let s = parse_state(state)?;
    to_js(&curve::CurveMetrics::of(&s, quote_decimals).map_err(|e| err("curveMetrics", e))?)
}

/// `curveBuyFeePips(feeBps, secondsSinceLaunch)` → number: the buy fee rate
/// `max(τ, τ_snipe(t))` in hundredths of a bip (10^6 = 100 %).
#[wasm_bindgen(js_name = curveBuyFeePips)]
pub fn curve_buy_fee_pips(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] fee_bps: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] seconds_since_launch: JsValue,
) -> Result<u32, JsValue> {
    let fee_bps = super::u32_from_js("feeBps", &fee_bps)?;
    let t = u64_from_js("secondsSinceLaunch", &seconds_since_launch)?;
    Ok(buy_fee_rate_pips(fee_bps, t))
}

/// `curveNewEthPair(launchTime)` → a fresh ETH-pair [`CurveState`] with the placeholder
/// defaults.
#[wasm_bindgen(js_name = curveNewEthPair, unchecked_return_type = "CurveState")]
pub fn curve_new_eth_pair(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] launch_time: JsValue,
) -> Result<JsValue, JsValue> {
    let t = u64_from_js("launchTime", &launch_time)?;
    to_js(&CurveState::eth_pair(t))
}

/// `curveNewStablecoinPair(decimals, launchTime)` → a fresh stablecoin-pair [`CurveState`]
/// (`Φ = 3,125` whole tokens) with the placeholder defaults.
#[wasm_bindgen(js_name = curveNewStablecoinPair, unchecked_return_type = "CurveState")]
pub fn curve_new_stablecoin_pair(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] decimals: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] launch_time: JsValue,
) -> Result<JsValue, JsValue> {
    let decimals = super::u8_from_js("decimals", &decimals)?;
    let t = u64_from_js("launchTime", &launch_time)?;
    let s = CurveState::stablecoin_pair(decimals, t).map_err(|e| err("decimals", e))?;
    to_js(&s)
}

/// `graduationSqrtPriceX96(amount0, amount1)` → decimal string
/// `isqrt(amount1 × 2^192 / amount0)` (C20), exact.
#[wasm_bindgen(js_name = graduationSqrtPriceX96)]
pub fn graduation_sqrt_price_x96(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] amount0: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] amount1: JsValue,
) -> Result<String, JsValue> {
    let a0 = super::uint_from_js("amount0", &amount0)?;
    let a1 = super::uint_from_js("amount1", &amount1)?;
    curve::graduation_sqrt_price_x96(a0, a1)
        .map(|p| p.to_string())
        .map_err(|e| err("graduationSqrtPriceX96", e))
}

/// `graduationPool(state, quoteCurrency, token, tickSpacing)` → [`GraduationPool`] (C20).
/// `quoteCurrency` is `0x000…000` for native ETH.
#[wasm_bindgen(js_name = graduationPool, unchecked_return_type = "GraduationPool")]
pub fn graduation_pool(
    #[wasm_bindgen(unchecked_param_type = "CurveState")] state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] quote_currency: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] token: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] tick_spacing: JsValue,
) -> Result<JsValue, JsValue> {
    let quote_currency: &str = &super::text_from_js("quoteCurrency", &quote_currency)?;
    let token: &str = &super::text_from_js("token", &token)?;
    let tick_spacing = super::i32_from_js("tickSpacing", &tick_spacing)?;
    let s = parse_state(state)?;
    let quote = parse_address("quoteCurrency", quote_currency)?;
    let token = parse_address("token", token)?;
    let p: GraduationPool =
        pool_for(&s, quote, token, tick_spacing).map_err(|e| err("graduationPool", e))?;
    to_js(&p)
}
