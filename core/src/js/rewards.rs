//! JS exports for `crate::rewards` (C11–C14), `crate::burns` (C15–C16), `crate::creator` (C17)
//! and `crate::holders` (C18).
//!
//! Times, epochs, tick windows and decimals are JS numbers, BigInts or decimal strings (all are
//! accepted); amounts, weights and WADs are decimal strings.

use super::js_error;
use super::{err, from_js, parse_address, parse_i256, parse_u256, to_js, u64_from_js, JsInt};
use crate::burns::{self, EthUsdAnswer, RootAmountBounds, RootPriceInput, TickObservation};
use crate::creator::{self, CreatorShareParams};
use crate::holders::{self, HolderBalance, HolderExclusions, PayoutContext};
use crate::rewards::{self, PoolEvent, PoolSnapshot, RewardPool};
use alloy_primitives::{Address, U256};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

fn parse_weights(what: &str, ws: &[String]) -> Result<Vec<U256>, JsValue> {
    ws.iter()
        .enumerate()
        .map(|(i, w)| parse_u256(&format!("{what}[{i}]"), w))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// C13 / C14 rewards

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CappedSharesJs {
    total_weight: String,
    max_weight: String,
    denominator: String,
    shares: Vec<String>,
    paid: String,
}

/// C13. `weights`: decimal strings (ω, any common scale); `capBps`: 500 for the protocol's 5 %.
/// Returns `{denominator, shares, totalWeight, maxWeight, paid}`; `shares` and `paid` are WADs of
/// the pool rate (rounded down), `denominator = max(W, ⌈ω_max·10000/capBps⌉)`.
#[wasm_bindgen(js_name = cappedShares)]
pub fn capped_shares(
    weights: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] cap_bps: JsValue,
) -> Result<JsValue, JsValue> {
    let cap_bps = super::u32_from_js("capBps", &cap_bps)?;
    let raw: Vec<String> = from_js("weights", weights)?;
    let ws = parse_weights("weights", &raw)?;
    let r = rewards::capped_shares(&ws, cap_bps).map_err(|e| err("cappedShares", e))?;
    to_js(&CappedSharesJs {
        total_weight: r.total_weight.to_string(),
        max_weight: r.max_weight.to_string(),
        denominator: r.denominator.to_string(),
        shares: r.shares.iter().map(|s| s.to_string()).collect(),
        paid: r.paid.to_string(),
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct EstimateInputJs {
    rate_wad: String,
    weights: Vec<String>,
    #[serde(default)]
    max_weight: Option<String>,
    #[serde(default)]
    cap_bps: Option<u32>,
    quality: String,
    multiplier: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct EstimateJs {
    weight: String,
    total_weight: String,
    max_weight: String,
    denominator: String,
    share: String,
    reward_rate_wad: String,
    reward30d: String,
}

/// What a new scorer would earn on a token. Input `{rateWad, weights, maxWeight?, capBps?,
/// quality, multiplier}`: the pool's drip rate (units per second as a WAD), the open positions'
/// weights ω (WAD), the on-chain ω_max if known, the cap (default 500 bps), and the candidate's
/// quality and multiplier (WAD). Returns `{weight, totalWeight, maxWeight, denominator, share,
/// rewardRateWad, reward30d}`. Assumes the drip continues at the current rate for 30 days and
/// the other positions stay.
#[wasm_bindgen(js_name = rewardEstimate)]
pub fn reward_estimate(input: JsValue) -> Result<JsValue, JsValue> {
    let i: EstimateInputJs = from_js("input", input)?;
    let pool = PoolSnapshot {
        rate_wad: parse_u256("rateWad", &i.rate_wad)?,
        weights: parse_weights("weights", &i.weights)?,
        max_weight: i
            .max_weight
            .as_deref()
            .map(|m| parse_u256("maxWeight", m))
            .transpose()?,
        cap_bps: i.cap_bps.unwrap_or(rewards::CAP_BPS),
    };
    let q = parse_u256("quality", &i.quality)?;
    let c = parse_u256("multiplier", &i.multiplier)?;
    let e = rewards::estimate_reward(&pool, q, c).map_err(|e| err("rewardEstimate", e))?;
    to_js(&EstimateJs {
        weight: e.weight.to_string(),
        total_weight: e.total_weight.to_string(),
        max_weight: e.max_weight.to_string(),
        denominator: e.denominator.to_string(),
        share: e.share.to_string(),
        reward_rate_wad: e.reward_rate_wad.to_string(),
        reward30d: e.reward_30d.to_string(),
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PoolEventJs {
    kind: String,
    at: JsInt,
    #[serde(default)]
    amount: Option<String>,
    #[serde(default)]
    scorer: Option<String>,
    #[serde(default)]
    quality: Option<String>,
    #[serde(default)]
    multiplier: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LedgerJs {
    funded: String,
    paid: String,
    owed: String,
    undripped: String,
    returned: String,
    dust: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ScorerJs {
    scorer: String,
    open: bool,
    weight: String,
    share: String,
    owed: String,
    paid: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PoolJs {
    now: u64,
    rate_wad: String,
    total_weight: String,
    denominator: String,
    ledger: LedgerJs,
    scorers: Vec<ScorerJs>,
}

/// Simulates one token's reward pool (C11–C14). `events`: time-ordered
/// `[{kind, at, amount?, scorer?, quality?, multiplier?}]` with `kind` one of `"fund"` (amount),
/// `"open"` (scorer, quality, multiplier: a proven score), `"close"` (scorer: unstake),
/// `"claim"` (scorer), `"advance"`. Returns the final `{now, rateWad, totalWeight, denominator,
/// ledger: {funded, paid, owed, undripped, returned, dust}, scorers: [{scorer, open, weight,
/// share, owed, paid}]}`; throws on an insolvent ledger (never expected).
#[wasm_bindgen(js_name = rewardPoolSimulate)]
pub fn reward_pool_simulate(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] start: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] cap_bps: JsValue,
    events: JsValue,
) -> Result<JsValue, JsValue> {
    let cap_bps = super::u32_from_js("capBps", &cap_bps)?;
    let start = u64_from_js("start", &start)?;
    let events: Vec<PoolEventJs> = from_js("events", events)?;
    let mut pool = RewardPool::new(start, cap_bps).map_err(|e| err("rewardPoolSimulate", e))?;
    let mut paid: std::collections::BTreeMap<Address, U256> = Default::default();
    for (i, e) in events.iter().enumerate() {
        let at = e.at.to_u64(&format!("events[{i}].at"))?;
        let field = |name: &str, v: &Option<String>| -> Result<String, JsValue> {
            v.clone().ok_or_else(|| {
                js_error(&format!(
                    "events[{i}].{name} is required for kind '{}'",
                    e.kind
                ))
            })
        };
        let scorer = |v: &Option<String>| -> Result<Address, JsValue> {
            parse_address(&format!("events[{i}].scorer"), &field("scorer", v)?)
        };
        let ev = match e.kind.as_str() {
            "fund" => PoolEvent::Fund {
                at,
                amount: parse_u256(&format!("events[{i}].amount"), &field("amount", &e.amount)?)?,
            },
            "open" => PoolEvent::Open {
                at,
                scorer: scorer(&e.scorer)?,
                quality: parse_u256(
                    &format!("events[{i}].quality"),
                    &field("quality", &e.quality)?,
                )?,
                multiplier: parse_u256(
                    &format!("events[{i}].multiplier"),
                    &field("multiplier", &e.multiplier)?,
                )?,
            },
            "close" => PoolEvent::Close {
                at,
                scorer: scorer(&e.scorer)?,
            },
            "claim" => PoolEvent::Claim {
                at,
                scorer: scorer(&e.scorer)?,
            },
            "advance" => PoolEvent::Advance { at },
            other => {
                return Err(js_error(&format!(
                    "events[{i}].kind must be fund, open, close, claim or advance, got '{other}'"
                )))
            }
        };
        if let PoolEvent::Claim { at, scorer } = ev {
            let got = pool
                .claim(at, scorer)
                .map_err(|x| err(&format!("events[{i}]"), x))?;
            let slot = paid.entry(scorer).or_default();
            *slot = slot.saturating_add(got);
        } else {
            if let PoolEvent::Open { scorer, .. } = ev {
                paid.entry(scorer).or_default();
            }
            pool.apply(&ev)
                .map_err(|x| err(&format!("events[{i}]"), x))?;
        }
    }
    let l = pool
        .check_solvency()
        .map_err(|e| err("rewardPoolSimulate", e))?;
    let mut scorers = Vec::with_capacity(paid.len());
    for (s, p) in &paid {
        let pos = pool.position(s);
        scorers.push(ScorerJs {
            scorer: s.to_checksum(None),
            open: pos.is_some(),
            weight: pos.map_or(U256::ZERO, |p| p.weight).to_string(),
            share: pool.share_of(s).map_err(|e| err("share", e))?.to_string(),
            owed: pool.owed_of(s).map_err(|e| err("owed", e))?.to_string(),
            paid: p.to_string(),
        });
    }
    let rate = pool
        .drip()
        .rate_wad_down(pool.now())
        .map_err(|e| err("rate", e))?;
    to_js(&PoolJs {
        now: pool.now(),
        rate_wad: rate.to_string(),
        total_weight: pool.total_weight().map_err(|e| err("W", e))?.to_string(),
        denominator: pool.denominator().map_err(|e| err("D", e))?.to_string(),
        ledger: LedgerJs {
            funded: l.funded.to_string(),
            paid: l.paid.to_string(),
            owed: l.owed.to_string(),
            undripped: l.undripped.to_string(),
            returned: l.returned.to_string(),
            dust: l.dust.to_string(),
        },
        scorers,
    })
}

// ---------------------------------------------------------------------------------------------
// C15 / C16 burns and price

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ObservationJs {
    seconds_ago: JsInt,
    tick_cumulative: JsInt,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct EthUsdJs {
    answer: String,
    decimals: JsInt,
    updated_at: JsInt,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RootPriceInputJs {
    now: JsInt,
    pool_initialized_at: JsInt,
    root_is_token0: bool,
    observations: Vec<ObservationJs>,
    eth_usd: EthUsdJs,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RootPriceJs {
    short_tick: i32,
    anchor_tick: i32,
    short_window: u32,
    anchor_window: u32,
    short_price_eth: String,
    anchor_price_eth: String,
    price_eth: String,
    eth_usd: String,
    price_usd: String,
}

/// C16. Input `{now, poolInitializedAt, rootIsToken0, observations: [{secondsAgo,
/// tickCumulative}], ethUsd: {answer, decimals, updatedAt}}`; observations must include
/// `secondsAgo` 0, 1800 and the anchor window (14400, or the pool's age when younger: see
/// `rootPriceAnchorWindow`). Returns `{shortTick, anchorTick, shortWindow, anchorWindow,
/// shortPriceEth, anchorPriceEth, priceEth, ethUsd, priceUsd}` (prices WAD strings). Throws
/// (fails closed) on a stale/future/non-positive answer or an uncovered window, each with its
/// own message.
#[wasm_bindgen(js_name = rootPriceUsd)]
pub fn root_price_usd(input: JsValue) -> Result<JsValue, JsValue> {
    let i: RootPriceInputJs = from_js("input", input)?;
    let observations = i
        .observations
        .iter()
        .enumerate()
        .map(|(k, o)| {
            Ok(TickObservation {
                seconds_ago: o
                    .seconds_ago
                    .to_u32(&format!("observations[{k}].secondsAgo"))?,
                tick_cumulative: o
                    .tick_cumulative
                    .to_i64(&format!("observations[{k}].tickCumulative"))?,
            })
        })
        .collect::<Result<Vec<_>, JsValue>>()?;
    let decimals = i.eth_usd.decimals.to_u8("ethUsd.decimals")?;
    let input = RootPriceInput {
        now: i.now.to_u64("now")?,
        pool_initialized_at: i.pool_initialized_at.to_u64("poolInitializedAt")?,
        root_is_token0: i.root_is_token0,
        observations,
        eth_usd: EthUsdAnswer {
            answer: parse_i256("ethUsd.answer", &i.eth_usd.answer)?,
            decimals,
            updated_at: i.eth_usd.updated_at.to_u64("ethUsd.updatedAt")?,
        },
    };
    let p = burns::root_price_usd(&input).map_err(|e| err("rootPriceUsd", e))?;
    to_js(&RootPriceJs {
        short_tick: p.short_tick,
        anchor_tick: p.anchor_tick,
        short_window: burns::SHORT_WINDOW,
        anchor_window: p.anchor_window,
        short_price_eth: p.short_price_eth.to_string(),
        anchor_price_eth: p.anchor_price_eth.to_string(),
        price_eth: p.price_eth.to_string(),
        eth_usd: p.eth_usd.to_string(),
        price_usd: p.price_usd.to_string(),
    })
}

/// C16: the anchor window (seconds) to observe at `now` for a pool initialised at
/// `poolInitializedAt`: 14400, or the pool's age when younger. Throws when the pool is younger
/// than the 30-minute short window.
#[wasm_bindgen(js_name = rootPriceAnchorWindow)]
pub fn root_price_anchor_window(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] now: JsValue,
    pool_initialized_at: JsValue,
) -> Result<u32, JsValue> {
    let now = u64_from_js("now", &now)?;
    let init = u64_from_js("poolInitializedAt", &pool_initialized_at)?;
    burns::anchor_window(now, init).map_err(|e| err("rootPriceAnchorWindow", e))
}

/// C16: the ROOT (wei, decimal string) to burn for `usdWad` at `priceUsdWad` (USD per ROOT),
/// rounded up; `maxRoot` (optional) is the payer's cap. Throws when out of bounds.
#[wasm_bindgen(js_name = rootForUsd)]
pub fn root_for_usd(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] usd_wad: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] price_usd_wad: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike | null | undefined")] max_root: JsValue,
) -> Result<String, JsValue> {
    let usd_wad: &str = &super::int_text_from_js("usdWad", &usd_wad)?;
    let price_usd_wad: &str = &super::int_text_from_js("priceUsdWad", &price_usd_wad)?;
    let max_root = super::opt_int_text_from_js("maxRoot", &max_root)?;
    let usd = parse_u256("usdWad", usd_wad)?;
    let price = parse_u256("priceUsdWad", price_usd_wad)?;
    let bounds = match max_root {
        Some(m) => RootAmountBounds::payer_cap(parse_u256("maxRoot", &m)?),
        None => RootAmountBounds::default(),
    };
    burns::root_for_usd_up(usd, price, bounds)
        .map(|a| a.to_string())
        .map_err(|e| err("rootForUsd", e))
}

/// C15: the USD burn (WAD string) of one score: `max($100, ⌈0.415 × R̂⌉)` in whole dollars, or the
/// flat $100 when `rHatUsdWad` is not given (no published estimate).
#[wasm_bindgen(js_name = scoreBurnUsd)]
pub fn score_burn_usd(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike | null | undefined")] r_hat_usd_wad: JsValue,
) -> Result<String, JsValue> {
    let r_hat_usd_wad = super::opt_int_text_from_js("rHatUsdWad", &r_hat_usd_wad)?;
    let r = r_hat_usd_wad
        .as_deref()
        .map(|r| parse_u256("rHatUsdWad", r))
        .transpose()?;
    burns::score_burn_usd_up(r)
        .map(|b| b.to_string())
        .map_err(|e| err("scoreBurnUsd", e))
}

// ---------------------------------------------------------------------------------------------
// C17 creator share

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct CreatorParamsJs {
    #[serde(default)]
    f_backed: Option<String>,
    #[serde(default)]
    f_unverified: Option<String>,
    #[serde(default)]
    ceiling: Option<String>,
}

fn creator_params(params: JsValue) -> Result<CreatorShareParams, JsValue> {
    let p: Option<CreatorParamsJs> = if params.is_undefined() || params.is_null() {
        None
    } else {
        Some(from_js("params", params)?)
    };
    let p = p.unwrap_or_default();
    let d = CreatorShareParams::default();
    let get = |name: &str, v: &Option<String>, def: U256| -> Result<U256, JsValue> {
        v.as_deref()
            .map_or(Ok(def), |s| parse_u256(&format!("params.{name}"), s))
    };
    Ok(CreatorShareParams {
        f_backed: get("fBacked", &p.f_backed, d.f_backed)?,
        f_unverified: get("fUnverified", &p.f_unverified, d.f_unverified)?,
        ceiling: get("ceiling", &p.ceiling, d.ceiling)?,
    })
}

/// C17: the creator's share of the fee (WAD string) at `scorePointsWad` (0–100 points, WAD).
/// `params`: `{fBacked, fUnverified, ceiling}` WAD strings; omitted fields (or `undefined`) use
/// the PLACEHOLDER defaults 0.2 / 0.1 / 0.4, which are not protocol facts.
#[wasm_bindgen(js_name = creatorShare)]
pub fn creator_share(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] score_points_wad: JsValue,
    #[wasm_bindgen(unchecked_param_type = "boolean")] verified: JsValue,
    params: JsValue,
) -> Result<String, JsValue> {
    let score_points_wad: &str = &super::int_text_from_js("scorePointsWad", &score_points_wad)?;
    let verified = super::bool_from_js("verified", &verified)?;
    let s = parse_u256("scorePointsWad", score_points_wad)?;
    let p = creator_params(params)?;
    creator::creator_share_down(&p, s, verified)
        .map(|x| x.to_string())
        .map_err(|e| err("creatorShare", e))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CreatorSplitJs {
    creator_share: String,
    unearned_share: String,
    creator_amount: String,
    unearned_amount: String,
}

/// C17 applied to a fee amount: `{creatorShare, unearnedShare, creatorAmount, unearnedAmount}`;
/// the unearned part goes to the other lanes.
#[wasm_bindgen(js_name = creatorSplit)]
pub fn creator_split(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] score_points_wad: JsValue,
    #[wasm_bindgen(unchecked_param_type = "boolean")] verified: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] fee: JsValue,
    params: JsValue,
) -> Result<JsValue, JsValue> {
    let score_points_wad: &str = &super::int_text_from_js("scorePointsWad", &score_points_wad)?;
    let verified = super::bool_from_js("verified", &verified)?;
    let fee: &str = &super::int_text_from_js("fee", &fee)?;
    let s = parse_u256("scorePointsWad", score_points_wad)?;
    let fee = parse_u256("fee", fee)?;
    let p = creator_params(params)?;
    let r = creator::creator_split(&p, s, verified, fee).map_err(|e| err("creatorSplit", e))?;
    to_js(&CreatorSplitJs {
        creator_share: r.creator_share.to_string(),
        unearned_share: r.unearned_share.to_string(),
        creator_amount: r.creator_amount.to_string(),
        unearned_amount: r.unearned_amount.to_string(),
    })
}

// ---------------------------------------------------------------------------------------------
// C18 holder payouts

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct BalanceJs {
    account: String,
    balance: String,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct ExclusionsJs {
    #[serde(default)]
    pool: Option<String>,
    #[serde(default)]
    curve: Option<String>,
    #[serde(default)]
    locker: Option<String>,
    #[serde(default)]
    hook: Option<String>,
    #[serde(default)]
    escrows: Vec<String>,
    #[serde(default)]
    vesting_locks: Vec<String>,
    #[serde(default)]
    vaults: Vec<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AllocationInputJs {
    distributor: String,
    chain_id: JsInt,
    token: String,
    asset: String,
    epoch: JsInt,
    total: String,
    balances: Vec<BalanceJs>,
    #[serde(default)]
    exclusions: Option<ExclusionsJs>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct HolderJs {
    account: String,
    balance: String,
    amount: String,
    leaf: String,
    proof: Vec<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AllocationJs {
    total: String,
    eligible_supply: String,
    allocated: String,
    dust: String,
    excluded: usize,
    leaf_types: [&'static str; 7],
    root: Option<String>,
    allocations: Vec<HolderJs>,
}

/// C18. Input `{distributor, chainId, token, asset, epoch, total, balances: [{account, balance}],
/// exclusions?: {pool, curve, locker, hook, escrows, vestingLocks, vaults}}` (the distributor,
/// 0x0 and 0x…dEaD are always excluded). Returns `{total, eligibleSupply, allocated, dust,
/// excluded, leafTypes, root, allocations: [{account, balance, amount, leaf, proof}]}`, sorted by
/// account; `leaf` is the OpenZeppelin StandardMerkleTree leaf hash of (distributor, chainId,
/// token, asset, epoch, account, amount), `root` the tree's root (`null` when nobody is paid) and
/// `proof` each leaf's proof, identical to `StandardMerkleTree.of(values, leafTypes)`.
#[wasm_bindgen(js_name = holderAllocation)]
pub fn holder_allocation(input: JsValue) -> Result<JsValue, JsValue> {
    let i: AllocationInputJs = from_js("input", input)?;
    let distributor = parse_address("distributor", &i.distributor)?;
    let chain_id = U256::from(i.chain_id.to_u64("chainId")?);
    let ctx = PayoutContext {
        distributor,
        chain_id,
        token: parse_address("token", &i.token)?,
        asset: parse_address("asset", &i.asset)?,
        epoch: i.epoch.to_u64("epoch")?,
    };
    let total = parse_u256("total", &i.total)?;
    let balances = i
        .balances
        .iter()
        .enumerate()
        .map(|(k, b)| {
            Ok(HolderBalance {
                account: parse_address(&format!("balances[{k}].account"), &b.account)?,
                balance: parse_u256(&format!("balances[{k}].balance"), &b.balance)?,
            })
        })
        .collect::<Result<Vec<_>, JsValue>>()?;
    let ex = i.exclusions.unwrap_or_default();
    let opt = |name: &str, v: &Option<String>| {
        v.as_deref()
            .map(|s| parse_address(&format!("exclusions.{name}"), s))
            .transpose()
    };
    let list = |name: &str, v: &[String]| -> Result<Vec<Address>, JsValue> {
        v.iter()
            .enumerate()
            .map(|(k, s)| parse_address(&format!("exclusions.{name}[{k}]"), s))
            .collect()
    };
    let exclusions = HolderExclusions {
        pool: opt("pool", &ex.pool)?,
        curve: opt("curve", &ex.curve)?,
        locker: opt("locker", &ex.locker)?,
        hook: opt("hook", &ex.hook)?,
        distributor: Some(distributor),
        escrows: list("escrows", &ex.escrows)?,
        vesting_locks: list("vestingLocks", &ex.vesting_locks)?,
        vaults: list("vaults", &ex.vaults)?,
    };
    let a = holders::allocate_down(total, &balances, &exclusions)
        .map_err(|e| err("holderAllocation", e))?;
    let leaves = holders::payout_leaves(ctx, &a);
    let tree = if a.amounts.is_empty() {
        None
    } else {
        Some(holders::payout_tree(ctx, &a).map_err(|e| err("holderAllocation", e))?)
    };
    let mut proofs = Vec::with_capacity(leaves.len());
    for k in 0..leaves.len() {
        let proof = match &tree {
            Some(t) => t
                .get_proof(k)
                .map_err(|e| err("holderAllocation proof", e))?,
            None => Vec::new(),
        };
        proofs.push(proof.iter().map(|h| h.to_string()).collect::<Vec<_>>());
    }
    to_js(&AllocationJs {
        total: a.total.to_string(),
        eligible_supply: a.eligible_supply.to_string(),
        allocated: a.allocated.to_string(),
        dust: a.dust.to_string(),
        excluded: a.excluded,
        leaf_types: holders::LEAF_TYPES,
        root: tree.as_ref().map(|t| t.root().to_string()),
        allocations: a
            .amounts
            .iter()
            .zip(&leaves)
            .zip(proofs)
            .map(|((h, l), proof)| HolderJs {
                account: h.account.to_checksum(None),
                balance: h.balance.to_string(),
                amount: h.amount.to_string(),
                leaf: l.hash().to_string(),
                proof,
            })
            .collect(),
    })
}
