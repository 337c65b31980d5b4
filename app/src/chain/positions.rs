//! A scorer's open positions in the scorer registry (C11–C14), read from the chain in five round
//! trips whatever their number: (1) the open tokens with the block they were read at
//! ([`run_with_block`]); (2) per token the position, the pool, `ω_max`, `D` and the stored accrual,
//! every `PositionOpened` of these tokens (one log read), and each claim simulated at that block as
//! the scorer (one JSON-RPC batch of `eth_call`s with `from`); (3) the scores, every opener's
//! position, the pool assets' labels and the scorer's balances; then, for the grades, (4) the final
//! roots of the epochs the theses were graded in and (5) their bundles, fetched at once
//! ([`final_bundles`]). Raw on-chain values only; the page recomputes from them. No Leptos here.

use crate::chain::abi::{IEpochRegistry, IScorerRegistry, IERC20};
use crate::chain::multicall::{run_with_block, Batch};
use crate::chain::rpc::{LogFilter, Rpc, RpcError, TxRequest};
use crate::chain::tokens::TokenLabels;
use crate::chain::world::{World, WorldError};
use alloy_primitives::{Address, U256};
use alloy_sol_types::{SolCall, SolEvent};
use eden_core::scoring::EpochBundle;
use std::collections::BTreeMap;

/// One open position of the scorer, with everything around it on chain.
#[derive(Clone)]
pub struct PositionRead {
    pub token: Address,
    /// The scorer's own position on `token`.
    pub position: IScorerRegistry::Position,
    pub pool: IScorerRegistry::Pool,
    pub max_weight: U256,
    /// The registry's own `D` (C13).
    pub denominator: U256,
    pub owed_stored: U256,
    /// The score the position was opened from.
    pub score: IScorerRegistry::Score,
    /// Every scorer that ever opened a position on `token`, with its position now (the open ones
    /// drive expiries), in order of first opening.
    pub openers: Vec<(Address, IScorerRegistry::Position)>,
    pub asset_symbol: String,
    pub asset_decimals: u8,
    /// The scorer's balance of the pool's asset (ETH for the zero address).
    pub balance: U256,
    /// What `claim(token)` pays the scorer at [`Positions::block`] (simulated).
    pub claim: Result<U256, RpcError>,
}

/// The scorer's open positions at one block.
#[derive(Clone)]
pub struct Positions {
    pub block: u64,
    pub block_time: u64,
    pub positions: Vec<PositionRead>,
}

/// The open positions of `me` in `registry` (logs from `from_block`): rounds 1 to 3.
///
/// # Errors
/// When a round fails as a whole or a read the rows need reverts; a claim's simulation failing is
/// that position's [`PositionRead::claim`].
pub async fn positions_of(
    rpc: &Rpc,
    registry: Address,
    me: Address,
    from_block: u64,
) -> Result<Positions, RpcError> {
    let reg = registry;
    let mut b = Batch::new();
    let open_tokens = b.add(reg, &IScorerRegistry::openTokensCall { who: me });
    let (block, block_time, a) = run_with_block(rpc, b).await?;
    let tokens = a.get(open_tokens)?;
    if tokens.is_empty() {
        return Ok(Positions {
            block,
            block_time,
            positions: Vec::new(),
        });
    }

    // Round 2.
    let mut b = Batch::new();
    let slots: Vec<_> = tokens
        .iter()
        .map(|&token| {
            (
                b.add(reg, &IScorerRegistry::positionCall { token, who: me }),
                b.add(reg, &IScorerRegistry::poolCall { token }),
                b.add(reg, &IScorerRegistry::maxWeightCall { token }),
                b.add(reg, &IScorerRegistry::denominatorOfCall { token }),
                b.add(reg, &IScorerRegistry::owedStoredCall { token, who: me }),
            )
        })
        .collect();
    let opened = LogFilter {
        address: reg,
        topics: vec![
            Some(vec![IScorerRegistry::PositionOpened::SIGNATURE_HASH]),
            Some(tokens.iter().map(|t| t.into_word()).collect()),
        ],
    };
    let claims: Vec<TxRequest> = tokens
        .iter()
        .map(|&token| {
            TxRequest::call(reg, IScorerRegistry::claimCall { token }.abi_encode()).from(Some(me))
        })
        .collect();
    let (a, logs, claimed) = futures::try_join!(
        async { b.run(rpc).await.map_err(RpcError::from) },
        rpc.get_logs(&opened, from_block, block),
        rpc.call_batch_at(&claims, Some(block)),
    )?;
    let mut mine = Vec::with_capacity(tokens.len());
    for (pos, pool, max_weight, denominator, owed_stored) in slots {
        mine.push((
            a.get(pos)?,
            a.get(pool)?,
            a.get(max_weight)?,
            a.get(denominator)?,
            a.get(owed_stored)?,
        ));
    }
    let mut openers: BTreeMap<Address, Vec<Address>> = BTreeMap::new();
    for l in &logs {
        let (Some(token), Some(who)) = (l.topics.get(1), l.topics.get(2)) else {
            continue;
        };
        let list = openers.entry(Address::from_word(*token)).or_default();
        let who = Address::from_word(*who);
        if !list.contains(&who) {
            list.push(who);
        }
    }

    // Round 3.
    let mut b = Batch::new();
    let scores: Vec<_> = mine
        .iter()
        .map(|(pos, ..)| {
            b.add(
                reg,
                &IScorerRegistry::getScoreCall {
                    scoreId: pos.scoreId,
                },
            )
        })
        .collect();
    let others: Vec<Vec<_>> = tokens
        .iter()
        .map(|&token| {
            openers
                .get(&token)
                .map(Vec::as_slice)
                .unwrap_or_default()
                .iter()
                .map(|&who| {
                    (
                        who,
                        b.add(reg, &IScorerRegistry::positionCall { token, who }),
                    )
                })
                .collect()
        })
        .collect();
    let assets: Vec<Address> = mine.iter().map(|(_, pool, ..)| pool.asset).collect();
    let balances: Vec<_> = assets
        .iter()
        .map(|&asset| {
            (!asset.is_zero()).then(|| b.add(asset, &IERC20::balanceOfCall { account: me }))
        })
        .collect();
    let need_eth = assets.iter().any(|a| a.is_zero());
    let (a, labels, eth) = futures::try_join!(
        async { b.run(rpc).await.map_err(RpcError::from) },
        TokenLabels::read(rpc, assets.iter().copied()),
        async {
            if need_eth {
                rpc.balance(me).await
            } else {
                Ok(U256::ZERO)
            }
        },
    )?;

    let mut positions = Vec::with_capacity(tokens.len());
    let rows = tokens.into_iter().zip(mine).zip(scores).zip(others);
    for (
        (((token, (position, pool, max_weight, denominator, owed_stored)), score), others),
        (balance, claim),
    ) in rows.zip(balances.into_iter().zip(claimed))
    {
        let openers = others
            .into_iter()
            .map(|(who, slot)| a.get(slot).map(|p| (who, p)))
            .collect::<Result<Vec<_>, _>>()?;
        let (asset_symbol, asset_decimals) = labels.get(pool.asset);
        positions.push(PositionRead {
            token,
            position,
            max_weight,
            denominator,
            owed_stored,
            score: a.get(score)?,
            openers,
            asset_symbol,
            asset_decimals,
            balance: match balance {
                Some(slot) => a.get(slot)?,
                None => eth,
            },
            claim: claim.and_then(|raw| {
                IScorerRegistry::claimCall::abi_decode_returns(&raw)
                    .map_err(|e| RpcError::Decode(format!("claim: {e}")))
            }),
            pool,
        });
    }
    Ok(Positions {
        block,
        block_time,
        positions,
    })
}

/// The bundles of final epochs `epochs`, by epoch: their final roots in one batch, then each
/// bundle fetched by its root at once (it must build that root). A bundle that cannot be had is
/// that epoch's error.
///
/// # Errors
/// When the final roots cannot be read as a batch.
pub async fn final_bundles(
    w: &World,
    epochs: &[u64],
) -> Result<BTreeMap<u64, Result<EpochBundle, WorldError>>, RpcError> {
    let rpc = w.rpc();
    let mut b = Batch::new();
    let slots: Vec<_> = epochs
        .iter()
        .map(|&epoch| {
            b.add(
                w.contracts.epoch_registry,
                &IEpochRegistry::finalRootCall { epoch },
            )
        })
        .collect();
    let a = b.run(&rpc).await?;
    let fetched = futures::future::join_all(slots.into_iter().map(|slot| {
        let root = a.get(slot);
        async move {
            match root {
                Ok(r) => w.fetch_bundle_with_root(r).await,
                // The root names the publication: not reading it is not fetching it.
                Err(e) => Err(WorldError::Fetch(e.into())),
            }
        }
    }))
    .await;
    Ok(epochs.iter().copied().zip(fetched).collect())
}
