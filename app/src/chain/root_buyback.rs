//! The ROOT buyback (C26), discovered from the chain: the fee lanes' `buyback` receiver, and, when
//! that is a `RootBuyback`, its totals (ROOT burned, the genesis liquidity it holds), what each pair
//! asset has waiting (its fee-lane pool, and what a run would spend now: `pending`, bounded per
//! call), the assets from its `RouteSet` logs, and its runs from its `RootBoughtBack` logs. No
//! Leptos here.

use crate::chain::abi::{IFeeLanes, IRootBuyback};
use crate::chain::multicall::Batch;
use crate::chain::rpc::{Rpc, RpcError};
use crate::chain::tokens::TokenLabels;
use crate::chain::world::World;
use alloy_primitives::{Address, U256};
use std::collections::BTreeSet;

/// One pair asset the buyback can spend.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuybackAsset {
    pub asset: Address,
    pub symbol: String,
    pub decimals: u8,
    /// `FeeLanes.buybackPool(asset)`: the buyback lane, pulled by the next run.
    pub lane: U256,
    /// `RootBuyback.pending(asset)`: what a run would spend now (lane + held, at most the bound).
    pub pending: U256,
    /// The per-call bound (`0`: no route).
    pub max_in: U256,
    /// A run now, simulated (`eth_call`) when something is pending: `Ok` when it would succeed, else
    /// the contract's refusal in words. The page offers the run only when it would succeed (issue 42
    /// item 8: no action offered that cannot succeed).
    pub run_now: Option<Result<(), RpcError>>,
}

/// One run, from its `RootBoughtBack` log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuybackRun {
    pub asset: Address,
    pub amount_in: U256,
    pub root_bought: U256,
    pub root_burned: U256,
    pub root_to_liquidity: U256,
    pub eth_to_liquidity: U256,
    pub block: u64,
}

/// A `RootBuyback`'s state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuybackState {
    pub address: Address,
    pub total_burned: U256,
    pub eth_to_liquidity: U256,
    pub root_to_liquidity: U256,
    /// The genesis liquidity it holds in ROOT's pool (it only ever grows).
    pub liquidity: u128,
    pub slippage_bps: U256,
    pub assets: Vec<BuybackAsset>,
    /// Every run, oldest first.
    pub runs: Vec<BuybackRun>,
}

/// Who receives the buyback lane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuybackRead {
    /// The deployment has no fee lanes.
    NoLanes,
    /// The lane is paid to an address that is not a `RootBuyback` (an account): its use is off chain.
    NotAContract(Address),
    /// A `RootBuyback`.
    Contract(Box<BuybackState>),
}

/// Reads the buyback (see the module doc): the receiver, then one batch of totals, then one batch per
/// asset list, with the logs alongside.
///
/// # Errors
/// When the chain cannot be read.
pub async fn read(w: &World) -> Result<BuybackRead, RpcError> {
    let Some(lanes) = w.contracts.fee_lanes else {
        return Ok(BuybackRead::NoLanes);
    };
    let rpc = w.rpc();
    // The receiver with the block the logs are read to, in one round trip (D3).
    let (at, latest) = futures::try_join!(
        rpc.call(lanes, &IFeeLanes::buybackCall {}),
        rpc.block_number()
    )?;
    let mut b = Batch::new();
    let burned = b.add(at, &IRootBuyback::totalRootBurnedCall {});
    let eth_liq = b.add(at, &IRootBuyback::totalEthToLiquidityCall {});
    let root_liq = b.add(at, &IRootBuyback::totalRootToLiquidityCall {});
    let liquidity = b.add(at, &IRootBuyback::positionLiquidityCall {});
    let slippage = b.add(at, &IRootBuyback::slippageBpsCall {});
    let (totals, routes, runs) = futures::join!(
        b.run(&rpc),
        eden_chain::buyback::routed_assets(&rpc, at, w.deployment_block, latest),
        rpc.events_to::<IRootBuyback::RootBoughtBack>(at, None, w.deployment_block, latest),
    );
    let totals = totals?;
    // An account (or any contract that is not a RootBuyback) does not answer these.
    let Ok(total_burned) = totals.get(burned) else {
        return Ok(BuybackRead::NotAContract(at));
    };
    let assets = read_assets(&rpc, lanes, at, routes?).await?;
    let runs = runs?
        .into_iter()
        .map(|(e, l)| BuybackRun {
            asset: e.asset,
            amount_in: e.amountIn,
            root_bought: e.rootBought,
            root_burned: e.rootBurned,
            root_to_liquidity: e.rootToLiquidity,
            eth_to_liquidity: e.ethToLiquidity,
            block: l.block_number.saturating_to(),
        })
        .collect();
    Ok(BuybackRead::Contract(Box::new(BuybackState {
        address: at,
        total_burned,
        eth_to_liquidity: totals.get(eth_liq)?,
        root_to_liquidity: totals.get(root_liq)?,
        liquidity: totals.get(liquidity)?,
        slippage_bps: totals.get(slippage)?,
        assets,
        runs,
    })))
}

/// Each asset's lane, pending amount and bound, and its label, in one batch (plus the labels').
async fn read_assets(
    rpc: &Rpc,
    lanes: Address,
    at: Address,
    assets: BTreeSet<Address>,
) -> Result<Vec<BuybackAsset>, RpcError> {
    let labels = TokenLabels::read(rpc, assets.iter().copied()).await?;
    let mut b = Batch::new();
    let slots: Vec<_> = assets
        .iter()
        .map(|&asset| {
            (
                b.add(lanes, &IFeeLanes::buybackPoolCall { asset }),
                b.add(at, &IRootBuyback::pendingCall { asset }),
                b.add(at, &IRootBuyback::routeOfCall { asset }),
            )
        })
        .collect();
    let a = b.run(rpc).await?;
    let mut out = assets
        .into_iter()
        .zip(slots)
        .map(|(asset, (lane, pending, route))| {
            let (symbol, decimals) = labels.get(asset);
            Ok(BuybackAsset {
                asset,
                symbol,
                decimals,
                lane: a.get(lane)?,
                pending: a.get(pending)?,
                max_in: a.get(route)?.maxInPerCall,
                run_now: None,
            })
        })
        .collect::<Result<Vec<_>, RpcError>>()?;
    let sims = futures::future::join_all(out.iter().map(|x| async move {
        if x.pending.is_zero() {
            return None;
        }
        Some(
            rpc.call(at, &IRootBuyback::runCall { asset: x.asset })
                .await
                .map(drop),
        )
    }))
    .await;
    for (x, sim) in out.iter_mut().zip(sims) {
        x.run_now = sim;
    }
    Ok(out)
}
