//! The fee lanes (C17), read from the chain: FeeLanes' parameters and a token's state in it (the
//! Verified flag, the recorded score and its epoch, the creator share), the registry's latest final
//! epoch, and `previewSplit` of an example fee of one whole unit of the launch's quote asset, in
//! at most three round trips. Raw values; `eden_core::check::check_creator` recomputes from them.
//! No Leptos here.

use crate::chain::abi::{IEpochRegistry, IFeeLanes, ILaunchpad};
use crate::chain::multicall::Batch;
use crate::chain::rpc::{Rpc, RpcError};
use crate::chain::tokens::TokenLabels;
use alloy_primitives::{Address, U256};

/// A token's state in the fee lanes, and what they owe its creator now.
#[derive(Debug, Clone)]
pub struct LaneRead {
    pub state: LaneState,
    /// `creatorBalance(token)`: earned by the creator, not yet paid (the launch's quote asset).
    pub owed: U256,
    /// `ownBuybackEscrow(token)`: the creator's own-token buyback waiting for the keeper's sweep (§7).
    pub own_buyback_escrow: U256,
    /// Every own-token buyback swept so far (`OwnBuybackSwept` logs): quote spent and tokens burned.
    pub own_buybacks: OwnBuybacks,
    /// The registry's adjudicator: the only account that sets or revokes Verified (§4.4).
    pub adjudicator: Address,
    /// The launchpad that routes the launch's fees into the lanes.
    pub launchpad: Address,
    /// Curve fees accrued and not yet collected into the lanes (`launchOf(token).feesAccrued`).
    pub curve_fees: U256,
    /// A graduated launch's pool fees not yet collected (#14): `collectPoolFees` simulated now,
    /// `(quote for the lanes, tokens it would burn)`; `None` before graduation or with nothing earned.
    pub pool_fees: Option<(U256, U256)>,
}
use eden_core::check::{LaneParams, LaneState};

/// The creator's own-token buybacks done so far (§7), summed from `FeeLanes.OwnBuybackSwept`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OwnBuybacks {
    pub sweeps: usize,
    /// Quote spent, in the launch's quote asset.
    pub quote_in: U256,
    /// Tokens bought in the pool and burned.
    pub burned: U256,
}

impl OwnBuybacks {
    /// The sum of the sweeps' logs.
    pub fn sum<'a>(sweeps: impl IntoIterator<Item = &'a IFeeLanes::OwnBuybackSwept>) -> Self {
        sweeps.into_iter().fold(Self::default(), |acc, e| Self {
            sweeps: acc.sweeps + 1,
            quote_in: acc.quote_in + e.quoteIn,
            burned: acc.burned + e.tokensBurned,
        })
    }
}
use eden_core::creator::{CreatorShareParams, LaneSplit};

/// `token`'s state in the fee lanes `lanes` (with the epoch registry `registry` and the launchpad
/// `launchpad`): (1) one batch of the launch's quote asset, the parameters, the token's flags and
/// score, the creator share and the latest final epoch; (2) the quote's decimals when it is not
/// ETH; (3) `previewSplit` of one whole unit of it. A token that is not a launch gets the ETH
/// example. The creator's unpaid balance comes in the first batch; the own-token buybacks done so far
/// from the lanes' `OwnBuybackSwept` logs since `from_block`, read alongside.
///
/// # Errors
/// When a batch fails or one of its reads reverts.
pub async fn lane_state(
    rpc: &Rpc,
    lanes: Address,
    registry: Address,
    launchpad: Address,
    token: Address,
    from_block: u64,
) -> Result<LaneRead, RpcError> {
    let mut b = Batch::new();
    let launch = b.add(launchpad, &ILaunchpad::launchOfCall { token });
    let params = b.add(lanes, &IFeeLanes::paramsCall {});
    let verified = b.add(lanes, &IFeeLanes::verifiedCall { token });
    let stored_score = b.add(lanes, &IFeeLanes::scoreOfCall { token });
    let stored_epoch = b.add(lanes, &IFeeLanes::scoreEpochOfCall { token });
    let recorded = b.add(lanes, &IFeeLanes::scoreRecordedCall { token });
    let has_final = b.add(registry, &IEpochRegistry::hasFinalEpochCall {});
    // Reverts before any final epoch: read only when `hasFinalEpoch`.
    let latest_final = b.add(registry, &IEpochRegistry::latestFinalEpochCall {});
    let chain_share = b.add(lanes, &IFeeLanes::creatorShareCall { token });
    let owed = b.add(lanes, &IFeeLanes::creatorBalanceCall { token });
    let own_escrow = b.add(lanes, &IFeeLanes::ownBuybackEscrowCall { token });
    let own_share = b.add(launchpad, &ILaunchpad::ownBuybackShareOfCall { token });
    let adjudicator = b.add(registry, &IEpochRegistry::adjudicatorCall {});
    let (a, swept) = futures::join!(
        b.run(rpc),
        rpc.events::<IFeeLanes::OwnBuybackSwept>(lanes, Some(token.into_word()), from_block)
    );
    let a = a?;
    let own_buybacks = OwnBuybacks::sum(swept?.iter().map(|(e, _)| e));
    let launch = a.get(launch).ok();
    let quote = launch.as_ref().map(|l| l.quote).filter(|q| !q.is_zero());
    // What anyone's `collectPoolFees` would move now (an eth_call; it reverts with nothing to collect).
    let pool_fees = match launch.as_ref().filter(|l| l.graduated) {
        Some(_) => rpc
            .call(launchpad, &ILaunchpad::collectPoolFeesCall { token })
            .await
            .ok()
            .map(|r| (r.amount, r.tokensBurned)),
        None => None,
    };
    let (fee_symbol, fee_decimals) = match quote {
        Some(q) => TokenLabels::read(rpc, [q]).await?.get(q),
        None => ("ETH".to_string(), 18),
    };
    let fee = U256::from(10u8).pow(U256::from(fee_decimals));
    let s = rpc
        .call(lanes, &IFeeLanes::previewSplitCall { token, fee })
        .await?;
    let p = a.get(params)?;
    let wad64 = U256::from;
    let state = LaneState {
        params: LaneParams {
            share: CreatorShareParams {
                f_backed: wad64(p.fBacked),
                f_unverified: wad64(p.fUnverified),
                ceiling: wad64(p.ceiling),
            },
            scorer_weight: wad64(p.scorerWeight),
            holder_weight: wad64(p.holderWeight),
            buyback_weight: wad64(p.buybackWeight),
            lp_share: wad64(p.lpShare),
        },
        verified: a.get(verified)?,
        own_buyback_share: U256::from(a.get(own_share)?),
        stored_score: a.get(stored_score)?,
        stored_epoch: a.get(stored_epoch)?,
        recorded: a.get(recorded)?,
        latest_final: if a.get(has_final)? {
            Some(a.get(latest_final)?)
        } else {
            None
        },
        chain_share: a.get(chain_share)?,
        fee,
        fee_symbol,
        fee_decimals,
        preview: LaneSplit {
            creator_share: s.creatorShare,
            creator_amount: s.creatorAmount,
            unearned: s.unearned,
            to_creator: s.toCreator,
            to_liquidity: s.toLiquidity,
            to_own_buyback: s.toOwnBuyback,
            to_scorers: s.toScorers,
            to_holders: s.toHolders,
            to_buyback: s.toBuyback,
        },
    };
    Ok(LaneRead {
        state,
        owed: a.get(owed)?,
        own_buyback_escrow: a.get(own_escrow)?,
        own_buybacks,
        adjudicator: a.get(adjudicator)?,
        launchpad,
        curve_fees: launch.map_or(U256::ZERO, |l| l.feesAccrued),
        pool_fees,
    })
}
