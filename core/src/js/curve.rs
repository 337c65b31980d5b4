//! JS exports for `crate::curve` (C19 bonding curve, C20 graduation).
//!
//! A curve state crosses as `{virtualQuote, totalSupply, quoteRaised, tokenReserve, feeBps,
//! launchTime?}`: amounts as decimal strings, `feeBps` and `launchTime` as numbers, BigInts or
//! decimal strings. Results use the same conventions.

use super::{err, from_js, parse_address, parse_u256, to_js, u64_from_js, JsInt};
use crate::curve::{
    self, fee::buy_fee_rate_pips, graduation::graduation_pool as pool_for, CurveState,
};
use alloy_primitives::U256;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsCurveState {
    virtual_quote: String,
    total_supply: String,
    quote_raised: String,
    token_reserve: String,
    fee_bps: JsInt,
    #[serde(default)]
    launch_time: Option<JsInt>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsCurveStateOut {
    virtual_quote: String,
    total_supply: String,
    quote_raised: String,
    token_reserve: String,
    fee_bps: u32,
    launch_time: f64,
}

impl From<&CurveState> for JsCurveStateOut {
    fn from(s: &CurveState) -> Self {
        Self {
            virtual_quote: s.virtual_quote.to_string(),
            total_supply: s.total_supply.to_string(),
            quote_raised: s.quote_raised.to_string(),
            token_reserve: s.token_reserve.to_string(),
            fee_bps: s.fee_bps,
            // Unix seconds are far below 2^53.
            launch_time: s.launch_time as f64,
        }
    }
}

fn parse_state(v: JsValue) -> Result<CurveState, JsValue> {
    let s: JsCurveState = from_js("state", v)?;
    let state = CurveState {
        virtual_quote: parse_u256("state.virtualQuote", &s.virtual_quote)?,
        total_supply: parse_u256("state.totalSupply", &s.total_supply)?,
        quote_raised: parse_u256("state.quoteRaised", &s.quote_raised)?,
        token_reserve: parse_u256("state.tokenReserve", &s.token_reserve)?,
        fee_bps: s.fee_bps.to_u32("state.feeBps")?,
        launch_time: match &s.launch_time {
            Some(t) => t.to_u64("state.launchTime")?,
            None => 0,
        },
    };
    state.validate().map_err(|e| err("state", e))?;
    Ok(state)
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsBuyQuote {
    tokens_out: String,
    fee: String,
    quote_used: String,
    refund: String,
    graduates: bool,
}

impl From<&curve::BuyQuote> for JsBuyQuote {
    fn from(q: &curve::BuyQuote) -> Self {
        Self {
            tokens_out: q.tokens_out.to_string(),
            fee: q.fee.to_string(),
            quote_used: q.quote_used.to_string(),
            refund: q.refund.to_string(),
            graduates: q.graduates,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsSellQuote {
    quote_out: String,
    fee: String,
}

/// `curveQuoteBuy(state, quoteIn, secondsSinceLaunch)` → `{tokensOut, fee, quoteUsed, refund,
/// graduates}` (C19): exact buy quote with the anti-snipe tax and the graduation clamp.
#[wasm_bindgen(js_name = curveQuoteBuy)]
pub fn curve_quote_buy(
    state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] quote_in: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] seconds_since_launch: JsValue,
) -> Result<JsValue, JsValue> {
    let quote_in: &str = &super::int_text_from_js("quoteIn", &quote_in)?;
    let t = u64_from_js("secondsSinceLaunch", &seconds_since_launch)?;
    let s = parse_state(state)?;
    let x = parse_u256("quoteIn", quote_in)?;
    let q = curve::quote_buy(&s, x, t).map_err(|e| err("curveQuoteBuy", e))?;
    to_js(&JsBuyQuote::from(&q))
}

/// `curveQuoteSell(state, tokensIn)` → `{quoteOut, fee}` (C19).
#[wasm_bindgen(js_name = curveQuoteSell)]
pub fn curve_quote_sell(
    state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] tokens_in: JsValue,
) -> Result<JsValue, JsValue> {
    let tokens_in: &str = &super::int_text_from_js("tokensIn", &tokens_in)?;
    let s = parse_state(state)?;
    let y = parse_u256("tokensIn", tokens_in)?;
    let q = curve::quote_sell(&s, y).map_err(|e| err("curveQuoteSell", e))?;
    to_js(&JsSellQuote {
        quote_out: q.quote_out.to_string(),
        fee: q.fee.to_string(),
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsBuyResult {
    #[serde(flatten)]
    quote: JsBuyQuote,
    state: JsCurveStateOut,
}

/// `curveBuy(state, quoteIn, secondsSinceLaunch, minTokensOut)` → `{tokensOut, fee, quoteUsed,
/// refund, graduates, state}`: the buy with its slippage check and the state after it.
#[wasm_bindgen(js_name = curveBuy)]
pub fn curve_buy(
    state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] quote_in: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] seconds_since_launch: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] min_tokens_out: JsValue,
) -> Result<JsValue, JsValue> {
    let quote_in: &str = &super::int_text_from_js("quoteIn", &quote_in)?;
    let min_tokens_out: &str = &super::int_text_from_js("minTokensOut", &min_tokens_out)?;
    let t = u64_from_js("secondsSinceLaunch", &seconds_since_launch)?;
    let s = parse_state(state)?;
    let x = parse_u256("quoteIn", quote_in)?;
    let min = parse_u256("minTokensOut", min_tokens_out)?;
    let (next, q) = curve::apply_buy(&s, x, t, min).map_err(|e| err("curveBuy", e))?;
    to_js(&JsBuyResult {
        quote: JsBuyQuote::from(&q),
        state: JsCurveStateOut::from(&next),
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsSellResult {
    quote_out: String,
    fee: String,
    state: JsCurveStateOut,
}

/// `curveSell(state, tokensIn, minQuoteOut)` → `{quoteOut, fee, state}`.
#[wasm_bindgen(js_name = curveSell)]
pub fn curve_sell(
    state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] tokens_in: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] min_quote_out: JsValue,
) -> Result<JsValue, JsValue> {
    let tokens_in: &str = &super::int_text_from_js("tokensIn", &tokens_in)?;
    let min_quote_out: &str = &super::int_text_from_js("minQuoteOut", &min_quote_out)?;
    let s = parse_state(state)?;
    let y = parse_u256("tokensIn", tokens_in)?;
    let min = parse_u256("minQuoteOut", min_quote_out)?;
    let (next, q) = curve::apply_sell(&s, y, min).map_err(|e| err("curveSell", e))?;
    to_js(&JsSellResult {
        quote_out: q.quote_out.to_string(),
        fee: q.fee.to_string(),
        state: JsCurveStateOut::from(&next),
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsBuyInverse {
    quote_in: String,
    #[serde(flatten)]
    quote: JsBuyQuote,
}

/// `curveQuoteInForTokens(state, tokensOut, secondsSinceLaunch)` → `{quoteIn, tokensOut, fee,
/// quoteUsed, refund, graduates}`: the smallest quote that buys at least `tokensOut`, with its
/// forward quote.
#[wasm_bindgen(js_name = curveQuoteInForTokens)]
pub fn curve_quote_in_for_tokens(
    state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] tokens_out: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] seconds_since_launch: JsValue,
) -> Result<JsValue, JsValue> {
    let tokens_out: &str = &super::int_text_from_js("tokensOut", &tokens_out)?;
    let t = u64_from_js("secondsSinceLaunch", &seconds_since_launch)?;
    let s = parse_state(state)?;
    let tokens = parse_u256("tokensOut", tokens_out)?;
    let x = curve::quote_in_for_tokens_out(&s, tokens, t)
        .map_err(|e| err("curveQuoteInForTokens", e))?;
    let q = curve::quote_buy(&s, x, t).map_err(|e| err("curveQuoteInForTokens", e))?;
    to_js(&JsBuyInverse {
        quote_in: x.to_string(),
        quote: JsBuyQuote::from(&q),
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsSellInverse {
    tokens_in: String,
    quote_out: String,
    fee: String,
}

/// `curveTokensInForQuote(state, quoteOut)` → `{tokensIn, quoteOut, fee}`: the fewest tokens
/// whose sale returns at least `quoteOut`, with its forward quote.
#[wasm_bindgen(js_name = curveTokensInForQuote)]
pub fn curve_tokens_in_for_quote(
    state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] quote_out: JsValue,
) -> Result<JsValue, JsValue> {
    let quote_out: &str = &super::int_text_from_js("quoteOut", &quote_out)?;
    let s = parse_state(state)?;
    let want = parse_u256("quoteOut", quote_out)?;
    let y =
        curve::tokens_in_for_quote_out(&s, want).map_err(|e| err("curveTokensInForQuote", e))?;
    let q = curve::quote_sell(&s, y).map_err(|e| err("curveTokensInForQuote", e))?;
    to_js(&JsSellInverse {
        tokens_in: y.to_string(),
        quote_out: q.quote_out.to_string(),
        fee: q.fee.to_string(),
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsCurveMetrics {
    progress_bps: u32,
    progress_wad: String,
    spot_price_wad: String,
    market_cap_wad: String,
    graduation_target: String,
    graduated: bool,
}

/// `curveMetrics(state, quoteDecimals)` → `{progressBps, progressWad, spotPriceWad,
/// marketCapWad, graduationTarget, graduated}`: progress `Q/G`, the marginal price of one whole
/// token in whole quote tokens, and the fully diluted market cap (WAD strings, rounded down).
#[wasm_bindgen(js_name = curveMetrics)]
pub fn curve_metrics(
    state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] quote_decimals: JsValue,
) -> Result<JsValue, JsValue> {
    let quote_decimals = super::u8_from_js("quoteDecimals", &quote_decimals)?;
    let s = parse_state(state)?;
    let e = |x| err("curveMetrics", x);
    to_js(&JsCurveMetrics {
        progress_bps: curve::progress_bps(&s).map_err(e)?,
        progress_wad: curve::progress_wad(&s).map_err(e)?.to_string(),
        spot_price_wad: curve::spot_price_wad(&s, quote_decimals)
            .map_err(e)?
            .to_string(),
        market_cap_wad: curve::market_cap_wad(&s, quote_decimals)
            .map_err(e)?
            .to_string(),
        graduation_target: s.graduation_target().map_err(e)?.to_string(),
        graduated: s.is_graduated(),
    })
}

/// `curveBuyFeePips(feeBps, secondsSinceLaunch)` → number: the buy fee rate
/// `max(τ, τ_snipe(t))` in hundredths of a bip (10^6 = 100 %).
#[wasm_bindgen(js_name = curveBuyFeePips)]
pub fn curve_buy_fee_pips(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] fee_bps: JsValue,
    seconds_since_launch: JsValue,
) -> Result<u32, JsValue> {
    let fee_bps = super::u32_from_js("feeBps", &fee_bps)?;
    let t = u64_from_js("secondsSinceLaunch", &seconds_since_launch)?;
    Ok(buy_fee_rate_pips(fee_bps, t))
}

/// `curveNewEthPair(launchTime)` → a fresh ETH-pair state with the placeholder defaults.
#[wasm_bindgen(js_name = curveNewEthPair)]
pub fn curve_new_eth_pair(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] launch_time: JsValue,
) -> Result<JsValue, JsValue> {
    let t = u64_from_js("launchTime", &launch_time)?;
    to_js(&JsCurveStateOut::from(&CurveState::eth_pair(t)))
}

/// `curveNewStablecoinPair(decimals, launchTime)` → a fresh stablecoin-pair state
/// (`Φ = 3,125` whole tokens) with the placeholder defaults.
#[wasm_bindgen(js_name = curveNewStablecoinPair)]
pub fn curve_new_stablecoin_pair(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] decimals: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] launch_time: JsValue,
) -> Result<JsValue, JsValue> {
    let decimals = super::u8_from_js("decimals", &decimals)?;
    let t = u64_from_js("launchTime", &launch_time)?;
    let s = CurveState::stablecoin_pair(decimals, t).map_err(|e| err("decimals", e))?;
    to_js(&JsCurveStateOut::from(&s))
}

/// `graduationSqrtPriceX96(amount0, amount1)` → decimal string
/// `isqrt(amount1 × 2^192 / amount0)` (C20), exact.
#[wasm_bindgen(js_name = graduationSqrtPriceX96)]
pub fn graduation_sqrt_price_x96(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] amount0: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] amount1: JsValue,
) -> Result<String, JsValue> {
    let amount0: &str = &super::int_text_from_js("amount0", &amount0)?;
    let amount1: &str = &super::int_text_from_js("amount1", &amount1)?;
    let a0 = parse_u256("amount0", amount0)?;
    let a1 = parse_u256("amount1", amount1)?;
    curve::graduation_sqrt_price_x96(a0, a1)
        .map(|p| p.to_string())
        .map_err(|e| err("graduationSqrtPriceX96", e))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsGraduationPool {
    currency0: String,
    currency1: String,
    quote_is_currency0: bool,
    amount0: String,
    amount1: String,
    sqrt_price_x96: String,
    tick_lower: i32,
    tick_upper: i32,
    liquidity: String,
    tokens_locked: String,
}

/// `graduationPool(state, quoteCurrency, token, tickSpacing)` → `{currency0, currency1,
/// quoteIsCurrency0, amount0, amount1, sqrtPriceX96, tickLower, tickUpper, liquidity,
/// tokensLocked}` (C20). `quoteCurrency` is `0x000…000` for native ETH.
#[wasm_bindgen(js_name = graduationPool)]
pub fn graduation_pool(
    state: JsValue,
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
    let p = pool_for(&s, quote, token, tick_spacing).map_err(|e| err("graduationPool", e))?;
    to_js(&JsGraduationPool {
        currency0: p.currency0.to_string(),
        currency1: p.currency1.to_string(),
        quote_is_currency0: p.quote_is_currency0,
        amount0: p.amount0.to_string(),
        amount1: p.amount1.to_string(),
        sqrt_price_x96: p.sqrt_price_x96.to_string(),
        tick_lower: p.tick_lower,
        tick_upper: p.tick_upper,
        liquidity: U256::from(p.liquidity).to_string(),
        tokens_locked: p.tokens_locked.to_string(),
    })
}
