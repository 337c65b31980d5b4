//! JS exports for `crate::rewards` (C11–C14), `crate::burns` (C15–C16), `crate::creator` (C17)
//! and `crate::holders` (C18).
//!
//! Inputs and results are core's own types (times, epochs, tick windows and decimals as JS
//! numbers, BigInts or decimal strings; amounts, weights and WADs as decimal strings); the few
//! result types defined here only put core values side by side.

use super::{err, from_js, from_js_input, to_js, u64_from_js};
use crate::burns::{self, RootAmountBounds, RootPrice, RootPriceInput};
use crate::creator::{self, CreatorShareParams};
use crate::holders::{
    self, HolderAllocation, HolderAmount, HolderBalance, HolderExclusions, PayoutContext,
};
use crate::rewards::{self, Ledger, PoolEvent, PoolSnapshot, RewardPool};
use alloy_primitives::{Address, B256, U256};
use serde::{Deserialize, Serialize};
use tsify::Tsify;
use wasm_bindgen::prelude::*;

// ---------------------------------------------------------------------------------------------
// C13 / C14 rewards

/// C13. `weights`: decimal strings (ω, any common scale); `capBps`: 500 for the protocol's 5 %.
/// Returns [`rewards::CappedShares`] `{denominator, shares, totalWeight, maxWeight, paid}`;
/// `shares` and `paid` are WADs of the pool rate (rounded down),
/// `denominator = max(W, ⌈ω_max·10000/capBps⌉)`.
#[wasm_bindgen(js_name = cappedShares, unchecked_return_type = "CappedShares")]
pub fn capped_shares(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike[]")] weights: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] cap_bps: JsValue,
) -> Result<JsValue, JsValue> {
    let cap_bps = super::u32_from_js("capBps", &cap_bps)?;
    let ws: super::U256List = from_js("weights", weights)?;
    let r = rewards::capped_shares(&ws.0, cap_bps).map_err(|e| err("cappedShares", e))?;
    to_js(&r)
}

/// The input of [`reward_estimate`]: a pool ([`PoolSnapshot`]'s fields, flat) and a candidate.
/// (Flat fields rather than `#[serde(flatten)]`, which would lose the bad field's name in errors.)
#[derive(Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct EstimateInput {
    #[serde(with = "crate::serde_dec::u256")]
    rate_wad: U256,
    #[serde(with = "crate::serde_dec::u256_vec")]
    weights: Vec<U256>,
    #[serde(default, with = "crate::serde_dec::opt_u256")]
    #[tsify(optional)]
    max_weight: Option<U256>,
    #[serde(default, with = "crate::serde_dec::opt_int")]
    #[tsify(optional)]
    cap_bps: Option<u32>,
    /// The candidate's quality `q` (WAD).
    #[serde(with = "crate::serde_dec::u256")]
    quality: U256,
    /// The candidate's originality multiplier `c` (WAD).
    #[serde(with = "crate::serde_dec::u256")]
    multiplier: U256,
}

/// What a new scorer would earn on a token. Input [`EstimateInput`] `{rateWad, weights,
/// maxWeight?, capBps?, quality, multiplier}`: the pool's drip rate (units per second as a WAD),
/// the open positions' weights ω (WAD), the on-chain ω_max if known, the cap (default 500 bps),
/// and the candidate's quality and multiplier (WAD). Returns [`rewards::RewardEstimate`]
/// `{weight, totalWeight, maxWeight, denominator, share, rewardRateWad, reward30d}`. Assumes the
/// drip continues at the current rate for 30 days and the other positions stay.
#[wasm_bindgen(js_name = rewardEstimate, unchecked_return_type = "RewardEstimate")]
pub fn reward_estimate(
    #[wasm_bindgen(unchecked_param_type = "EstimateInput")] input: JsValue,
) -> Result<JsValue, JsValue> {
    let i: EstimateInput = from_js_input(input)?;
    let pool = PoolSnapshot {
        rate_wad: i.rate_wad,
        weights: i.weights,
        max_weight: i.max_weight,
        cap_bps: i.cap_bps.unwrap_or(rewards::CAP_BPS),
    };
    let e = rewards::estimate_reward(&pool, i.quality, i.multiplier)
        .map_err(|e| err("rewardEstimate", e))?;
    to_js(&e)
}

/// One scorer of a simulated pool at the end.
#[derive(Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ScorerReport {
    #[serde(with = "crate::serde_dec::checksum")]
    scorer: Address,
    open: bool,
    #[serde(with = "crate::serde_dec::u256")]
    weight: U256,
    #[serde(with = "crate::serde_dec::u256")]
    share: U256,
    #[serde(with = "crate::serde_dec::u256")]
    owed: U256,
    #[serde(with = "crate::serde_dec::u256")]
    paid: U256,
}

/// A simulated pool at the end.
#[derive(Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct PoolReport {
    now: u64,
    #[serde(with = "crate::serde_dec::u256")]
    rate_wad: U256,
    #[serde(with = "crate::serde_dec::u256")]
    total_weight: U256,
    #[serde(with = "crate::serde_dec::u256")]
    denominator: U256,
    ledger: Ledger,
    scorers: Vec<ScorerReport>,
}

/// Simulates one token's reward pool (C11–C14). `events`: time-ordered [`PoolEvent`]s
/// `[{kind, at, …}]` with `kind` one of `"fund"` (amount), `"open"` (scorer, quality,
/// multiplier: a proven score), `"close"` (scorer: unstake), `"claim"` (scorer), `"advance"`.
/// Returns the final [`PoolReport`] `{now, rateWad, totalWeight, denominator, ledger: {funded,
/// paid, owed, undripped, returned, dust}, scorers: [{scorer, open, weight, share, owed, paid}]}`;
/// throws on an insolvent ledger (never expected).
#[wasm_bindgen(js_name = rewardPoolSimulate, unchecked_return_type = "PoolReport")]
pub fn reward_pool_simulate(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] start: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] cap_bps: JsValue,
    #[wasm_bindgen(unchecked_param_type = "PoolEvent[]")] events: JsValue,
) -> Result<JsValue, JsValue> {
    let cap_bps = super::u32_from_js("capBps", &cap_bps)?;
    let start = u64_from_js("start", &start)?;
    let events: Vec<PoolEvent> = from_js("events", events)?;
    let mut pool = RewardPool::new(start, cap_bps).map_err(|e| err("rewardPoolSimulate", e))?;
    let mut paid: std::collections::BTreeMap<Address, U256> = Default::default();
    for (i, ev) in events.iter().enumerate() {
        if let PoolEvent::Claim { at, scorer } = *ev {
            let got = pool
                .claim(at, scorer)
                .map_err(|x| err(&format!("events[{i}]"), x))?;
            let slot = paid.entry(scorer).or_default();
            *slot = slot.saturating_add(got);
        } else {
            if let PoolEvent::Open { scorer, .. } = *ev {
                paid.entry(scorer).or_default();
            }
            pool.apply(ev)
                .map_err(|x| err(&format!("events[{i}]"), x))?;
        }
    }
    let ledger = pool
        .check_solvency()
        .map_err(|e| err("rewardPoolSimulate", e))?;
    let mut scorers = Vec::with_capacity(paid.len());
    for (s, p) in &paid {
        let pos = pool.position(s);
        scorers.push(ScorerReport {
            scorer: *s,
            open: pos.is_some(),
            weight: pos.map_or(U256::ZERO, |p| p.weight),
            share: pool.share_of(s).map_err(|e| err("share", e))?,
            owed: pool.owed_of(s).map_err(|e| err("owed", e))?,
            paid: *p,
        });
    }
    to_js(&PoolReport {
        now: pool.now(),
        rate_wad: pool
            .drip()
            .rate_wad_down(pool.now())
            .map_err(|e| err("rate", e))?,
        total_weight: pool.total_weight().map_err(|e| err("W", e))?,
        denominator: pool.denominator().map_err(|e| err("D", e))?,
        ledger,
        scorers,
    })
}

// ---------------------------------------------------------------------------------------------
// C15 / C16 burns and price

/// A ROOT price with the short window it used.
#[derive(Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct RootPriceReport {
    #[serde(flatten)]
    price: RootPrice,
    /// [`burns::SHORT_WINDOW`], seconds.
    short_window: u32,
}

/// C16. Input [`RootPriceInput`] `{now, poolInitializedAt, rootIsToken0, observations:
/// [{secondsAgo, tickCumulative}], ethUsd: {answer, decimals, updatedAt}}`; observations must
/// include `secondsAgo` 0, 1800 and the anchor window (14400, or the pool's age when younger:
/// see `rootPriceAnchorWindow`). Returns [`RootPriceReport`] `{shortTick, anchorTick,
/// shortWindow, anchorWindow, shortPriceEth, anchorPriceEth, priceEth, ethUsd, priceUsd}`
/// (prices WAD strings). Throws (fails closed) on a stale/future/non-positive answer or an
/// uncovered window, each with its own message.
#[wasm_bindgen(js_name = rootPriceUsd, unchecked_return_type = "RootPriceReport")]
pub fn root_price_usd(
    #[wasm_bindgen(unchecked_param_type = "RootPriceInput")] input: JsValue,
) -> Result<JsValue, JsValue> {
    let input: RootPriceInput = from_js_input(input)?;
    let price = burns::root_price_usd(&input).map_err(|e| err("rootPriceUsd", e))?;
    to_js(&RootPriceReport {
        price,
        short_window: burns::SHORT_WINDOW,
    })
}

/// C16: the anchor window (seconds) to observe at `now` for a pool initialised at
/// `poolInitializedAt`: 14400, or the pool's age when younger. Throws when the pool is younger
/// than the 30-minute short window.
#[wasm_bindgen(js_name = rootPriceAnchorWindow)]
pub fn root_price_anchor_window(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] now: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] pool_initialized_at: JsValue,
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
    let usd = super::uint_from_js("usdWad", &usd_wad)?;
    let price = super::uint_from_js("priceUsdWad", &price_usd_wad)?;
    let bounds = match super::opt_uint_from_js("maxRoot", &max_root)? {
        Some(m) => RootAmountBounds::payer_cap(m),
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
    let r = super::opt_uint_from_js("rHatUsdWad", &r_hat_usd_wad)?;
    burns::score_burn_usd_up(r)
        .map(|b| b.to_string())
        .map_err(|e| err("scoreBurnUsd", e))
}

// ---------------------------------------------------------------------------------------------
// C17 creator share

fn creator_params(params: JsValue) -> Result<CreatorShareParams, JsValue> {
    if params.is_undefined() || params.is_null() {
        Ok(CreatorShareParams::default())
    } else {
        from_js("params", params)
    }
}

/// C17: the creator's share of the fee (WAD string) at `scorePointsWad` (0–100 points, WAD).
/// `params`: `{fBacked, fUnverified, ceiling}` WAD strings; omitted fields (or `undefined`) use
/// the PLACEHOLDER defaults 0.2 / 0.1 / 0.4, which are not protocol facts.
#[wasm_bindgen(js_name = creatorShare)]
pub fn creator_share(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] score_points_wad: JsValue,
    #[wasm_bindgen(unchecked_param_type = "boolean")] verified: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Partial<CreatorShareParams> | null | undefined")] params: JsValue,
) -> Result<String, JsValue> {
    let s = super::uint_from_js("scorePointsWad", &score_points_wad)?;
    let verified = super::bool_from_js("verified", &verified)?;
    let p = creator_params(params)?;
    creator::creator_share_down(&p, s, verified)
        .map(|x| x.to_string())
        .map_err(|e| err("creatorShare", e))
}

/// C17 applied to a fee amount: `{creatorShare, unearnedShare, creatorAmount, unearnedAmount}`;
/// the unearned part goes to the other lanes.
#[wasm_bindgen(js_name = creatorSplit, unchecked_return_type = "CreatorSplit")]
pub fn creator_split(
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] score_points_wad: JsValue,
    #[wasm_bindgen(unchecked_param_type = "boolean")] verified: JsValue,
    #[wasm_bindgen(unchecked_param_type = "IntegerLike")] fee: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Partial<CreatorShareParams> | null | undefined")] params: JsValue,
) -> Result<JsValue, JsValue> {
    let s = super::uint_from_js("scorePointsWad", &score_points_wad)?;
    let verified = super::bool_from_js("verified", &verified)?;
    let fee = super::uint_from_js("fee", &fee)?;
    let p = creator_params(params)?;
    let r = creator::creator_split(&p, s, verified, fee).map_err(|e| err("creatorSplit", e))?;
    to_js(&r)
}

// ---------------------------------------------------------------------------------------------
// C18 holder payouts

/// The input of [`holder_allocation`]: the leaf context ([`PayoutContext`]'s fields, flat), the
/// amount and the snapshot. (Flat fields rather than `#[serde(flatten)]`, which would lose the bad
/// field's name in errors.)
#[derive(Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AllocationInput {
    distributor: Address,
    #[serde(with = "crate::serde_dec::u256_id")]
    #[tsify(type = "IntegerLike")]
    chain_id: U256,
    token: Address,
    asset: Address,
    #[serde(with = "crate::serde_dec::int")]
    epoch: u64,
    /// `T`, the amount to allocate.
    #[serde(with = "crate::serde_dec::u256")]
    total: U256,
    /// The balances at the snapshot block.
    balances: Vec<HolderBalance>,
    /// The protocol addresses besides the distributor, 0x0 and 0x…dEaD.
    #[serde(default)]
    #[tsify(optional)]
    exclusions: HolderExclusions,
}

/// One holder's payout with its leaf and proof.
#[derive(Serialize, Tsify)]
pub struct HolderPayout {
    #[serde(flatten)]
    amount: HolderAmount,
    leaf: B256,
    proof: Vec<B256>,
}

/// An allocation as published: totals, the leaf encoding, the root and every payout's proof.
#[derive(Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AllocationReport {
    #[serde(flatten)]
    allocation: HolderAllocation,
    leaf_types: [&'static str; 7],
    root: Option<B256>,
    allocations: Vec<HolderPayout>,
}

/// C18. Input [`AllocationInput`] `{distributor, chainId, token, asset, epoch, total, balances:
/// [{account, balance}], exclusions?: {pool, curve, locker, hook, escrows, vestingLocks,
/// vaults}}` (the distributor, 0x0 and 0x…dEaD are always excluded). Returns
/// [`AllocationReport`] `{total, eligibleSupply, allocated, dust, excluded, leafTypes, root,
/// allocations: [{account, balance, amount, leaf, proof}]}`, sorted by account; `leaf` is the
/// OpenZeppelin StandardMerkleTree leaf hash of (distributor, chainId, token, asset, epoch,
/// account, amount), `root` the tree's root (`null` when nobody is paid) and `proof` each
/// leaf's proof, identical to `StandardMerkleTree.of(values, leafTypes)`.
#[wasm_bindgen(js_name = holderAllocation, unchecked_return_type = "AllocationReport")]
pub fn holder_allocation(
    #[wasm_bindgen(unchecked_param_type = "AllocationInput")] input: JsValue,
) -> Result<JsValue, JsValue> {
    let AllocationInput {
        distributor,
        chain_id,
        token,
        asset,
        epoch,
        total,
        balances,
        mut exclusions,
    } = from_js_input(input)?;
    let ctx = PayoutContext {
        distributor,
        chain_id,
        token,
        asset,
        epoch,
    };
    exclusions.distributor = Some(ctx.distributor);
    let a = holders::allocate_down(total, &balances, &exclusions)
        .map_err(|e| err("holderAllocation", e))?;
    let leaves = holders::payout_leaves(ctx, &a);
    let tree = if a.amounts.is_empty() {
        None
    } else {
        Some(holders::payout_tree(ctx, &a).map_err(|e| err("holderAllocation", e))?)
    };
    let mut allocations = Vec::with_capacity(leaves.len());
    for (k, (amount, leaf)) in a.amounts.iter().zip(&leaves).enumerate() {
        let proof = match &tree {
            Some(t) => t
                .get_proof(k)
                .map_err(|e| err("holderAllocation proof", e))?,
            None => Vec::new(),
        };
        allocations.push(HolderPayout {
            amount: *amount,
            leaf: leaf.hash(),
            proof,
        });
    }
    let root = tree.as_ref().map(|t| t.root());
    to_js(&AllocationReport {
        allocation: a,
        leaf_types: holders::LEAF_TYPES,
        root,
        allocations,
    })
}
