//! Every launch's state across the launchpad, the fee lanes (C17) and the scorer registry's reward pools
//! (C11), read once for the app and the operator in one batch whatever the number of launches: the launch
//! record (quote asset, graduation, uncollected curve fees), the score FeeLanes holds for it, its escrows,
//! its scorer pool and what the lanes hold for that pool; and the Verified flags (§4.4) at a block. Raw
//! values: the keeper's duties and the pages decide with them.

use crate::abi::{FeeLanes, Launchpad, ScorerRegistry};
use crate::batch::{Batch, Slot};
use crate::read::{ChainRead, ReadError};
use alloy_primitives::{Address, U256};
use alloy_sol_types::SolCall;
use std::collections::BTreeMap;

/// A launch record as `Launchpad.launchOf` returns it.
pub type LaunchRecord = <Launchpad::launchOfCall as SolCall>::Return;

/// Where the deployment's contracts are, for [`read_launches`]; a deployment without fee lanes or a
/// scorer registry reads none of their state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaneContracts {
    /// The launchpad.
    pub launchpad: Address,
    /// FeeLanes, if deployed.
    pub fee_lanes: Option<Address>,
    /// The ScorerRegistry, if deployed.
    pub scorer_registry: Option<Address>,
}

/// What the fee lanes hold for one launch (C17).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LaneHoldings {
    /// A score has been recorded for it (`scoreRecorded`).
    pub score_recorded: bool,
    /// The epoch of the score recorded (`scoreEpochOf`; meaningful only when recorded).
    pub score_epoch: u64,
    /// Waiting for the pool's liquidity sweep (`liquidityEscrow`).
    pub liquidity_escrow: U256,
    /// The creator's own-token buyback waiting for its sweep (`ownBuybackEscrow`, §7).
    pub own_buyback_escrow: U256,
}

/// A launch's scorer reward pool (C11) and what the lanes hold for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScorerPool {
    /// The pool's asset.
    pub asset: Address,
    /// Held by FeeLanes for it, not yet pulled (`scorerPool(token, asset)`; zero without fee lanes).
    pub held: U256,
}

/// One launch across the contracts.
#[derive(Debug, Clone)]
pub struct LaunchLanes {
    /// The launched token.
    pub token: Address,
    /// Its launch record.
    pub launch: LaunchRecord,
    /// Its state in the fee lanes, when the deployment has them.
    pub lanes: Option<LaneHoldings>,
    /// Its scorer pool, when the registry has configured one.
    pub scorer_pool: Option<ScorerPool>,
}

/// Which parts of each launch [`read_launches`] reads beside its launch record (always read): a keeper duty
/// asks only for its own, so a pass does not read every part five times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parts {
    /// Its state in the fee lanes ([`LaneHoldings`]).
    pub lanes: bool,
    /// Its scorer pool (configured, and its asset).
    pub pool: bool,
    /// What the fee lanes hold for its scorer pool (implies `pool`).
    pub held: bool,
}

impl Parts {
    /// Every part.
    pub const ALL: Parts = Parts {
        lanes: true,
        pool: true,
        held: true,
    };
    /// The launch record alone.
    pub const RECORD: Parts = Parts {
        lanes: false,
        pool: false,
        held: false,
    };
    /// The record and the fee-lane state.
    pub const LANES: Parts = Parts {
        lanes: true,
        pool: false,
        held: false,
    };
    /// The record and the scorer pool.
    pub const POOL: Parts = Parts {
        lanes: false,
        pool: true,
        held: false,
    };
    /// The record, the scorer pool and what the lanes hold for it.
    pub const POOL_HELD: Parts = Parts {
        lanes: false,
        pool: true,
        held: true,
    };
}

/// Slots of one launch's state in the fee lanes.
struct LaneSlots {
    recorded: Slot<FeeLanes::scoreRecordedCall>,
    epoch: Slot<FeeLanes::scoreEpochOfCall>,
    liquidity: Slot<FeeLanes::liquidityEscrowCall>,
    own: Slot<FeeLanes::ownBuybackEscrowCall>,
}

/// Slots of one launch in the first batch.
struct First {
    launch: Slot<Launchpad::launchOfCall>,
    lanes: Option<LaneSlots>,
    pool: Option<Slot<ScorerRegistry::poolCall>>,
}

/// Every launch of `tokens` across `at`'s contracts, the `parts` asked for: one batch of their records, lane
/// state and scorer pools, then one of what the lanes hold for each configured pool (its asset is known
/// only then). A part not asked for is `None` (a pool's `held` is zero).
///
/// # Errors
/// The transport's; a read that reverts or does not decode.
pub async fn read_launches<R: ChainRead>(
    chain: &R,
    at: LaneContracts,
    tokens: &[Address],
    parts: Parts,
) -> Result<Vec<LaunchLanes>, ReadError<R::Error>> {
    let fee_lanes = at.fee_lanes.filter(|_| parts.lanes);
    let registry = at.scorer_registry.filter(|_| parts.pool || parts.held);
    let mut b = Batch::new();
    let slots: Vec<First> = tokens
        .iter()
        .map(|&token| {
            let launch = b.add(at.launchpad, &Launchpad::launchOfCall { token });
            let lanes = fee_lanes.map(|l| LaneSlots {
                recorded: b.add(l, &FeeLanes::scoreRecordedCall { token }),
                epoch: b.add(l, &FeeLanes::scoreEpochOfCall { token }),
                liquidity: b.add(l, &FeeLanes::liquidityEscrowCall { token }),
                own: b.add(l, &FeeLanes::ownBuybackEscrowCall { token }),
            });
            let pool = registry.map(|r| b.add(r, &ScorerRegistry::poolCall { token }));
            First {
                launch,
                lanes,
                pool,
            }
        })
        .collect();
    let mut a = b.run(chain).await?;
    let mut out = Vec::with_capacity(tokens.len());
    let mut pools = Vec::new();
    for (&token, s) in tokens.iter().zip(slots) {
        let launch = a.take(s.launch)?;
        let lanes = match s.lanes {
            Some(l) => Some(LaneHoldings {
                score_recorded: a.take(l.recorded)?,
                score_epoch: a.take(l.epoch)?,
                liquidity_escrow: a.take(l.liquidity)?,
                own_buyback_escrow: a.take(l.own)?,
            }),
            None => None,
        };
        let pool = s.pool.map(|p| a.take(p)).transpose()?;
        let scorer_pool = pool.filter(|p| p.configured).map(|p| ScorerPool {
            asset: p.asset,
            held: U256::ZERO,
        });
        if let (Some(p), Some(_), true) = (&scorer_pool, at.fee_lanes, parts.held) {
            pools.push((out.len(), token, p.asset));
        }
        out.push(LaunchLanes {
            token,
            launch,
            lanes,
            scorer_pool,
        });
    }
    if let (Some(l), false) = (at.fee_lanes, pools.is_empty()) {
        let pairs: Vec<_> = pools
            .iter()
            .map(|&(_, token, asset)| (token, asset))
            .collect();
        let held = scorer_pools_held(chain, l, &pairs).await?;
        for (&(i, _, _), held) in pools.iter().zip(held) {
            if let Some(p) = out[i].scorer_pool.as_mut() {
                p.held = held;
            }
        }
    }
    Ok(out)
}

/// What `fee_lanes` holds for each `(token, asset)` scorer pool, not yet pulled (`scorerPool`), in one
/// batch (none for no pools).
///
/// # Errors
/// The transport's; an answer that does not decode.
pub async fn scorer_pools_held<R: ChainRead>(
    chain: &R,
    fee_lanes: Address,
    pools: &[(Address, Address)],
) -> Result<Vec<U256>, ReadError<R::Error>> {
    let mut b = Batch::new();
    let held: Vec<_> = pools
        .iter()
        .map(|&(token, asset)| b.add(fee_lanes, &FeeLanes::scorerPoolCall { token, asset }))
        .collect();
    let mut a = b.run(chain).await?;
    held.into_iter().map(|s| a.take(s)).collect()
}

/// `FeeLanes.verified` of each of `projects` against the state after `block`, in one batch (§4.4: the
/// adjudicator's badge, which sets a pre-data project's replay cap, C10).
///
/// # Errors
/// The transport's; a read that reverts or does not decode.
pub async fn verified_at<R: ChainRead>(
    chain: &R,
    fee_lanes: Address,
    projects: &[Address],
    block: u64,
) -> Result<BTreeMap<Address, bool>, ReadError<R::Error>> {
    let mut b = Batch::new();
    let slots: Vec<_> = projects
        .iter()
        .map(|&token| b.add(fee_lanes, &FeeLanes::verifiedCall { token }))
        .collect();
    let mut a = b.run_at(chain, Some(block)).await?;
    projects
        .iter()
        .zip(slots)
        .map(|(&p, s)| Ok((p, a.take(s)?)))
        .collect()
}

/// Who acts on the fee lanes: the keeper who may sweep escrows, the owner (who may too), and the root
/// buyback contract the buyback lane pays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaneRoles {
    /// `keeper()`.
    pub keeper: Address,
    /// `owner()`.
    pub owner: Address,
    /// `buyback()`.
    pub buyback: Address,
}

/// FeeLanes' roles, in one batch.
///
/// # Errors
/// The transport's; an answer that does not decode.
pub async fn roles<R: ChainRead>(
    chain: &R,
    fee_lanes: Address,
) -> Result<LaneRoles, ReadError<R::Error>> {
    let mut b = Batch::new();
    let keeper = b.add(fee_lanes, &FeeLanes::keeperCall {});
    let owner = b.add(fee_lanes, &FeeLanes::ownerCall {});
    let buyback = b.add(fee_lanes, &FeeLanes::buybackCall {});
    let mut a = b.run(chain).await?;
    Ok(LaneRoles {
        keeper: a.take(keeper)?,
        owner: a.take(owner)?,
        buyback: a.take(buyback)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::{Log, LogFilter};
    use alloy_primitives::Bytes;
    use alloy_sol_types::SolValue;
    use std::cell::RefCell;

    const PAD: Address = Address::repeat_byte(0xa0);
    const LANES: Address = Address::repeat_byte(0xb0);
    const REG: Address = Address::repeat_byte(0xc0);

    /// Token 1 graduated with a configured pool in asset 9; token 2 not. Records each batch's size.
    struct Chain(RefCell<Vec<usize>>);

    fn token_of(d: &[u8]) -> u8 {
        Address::abi_decode(&d[4..36]).unwrap()[19]
    }

    impl ChainRead for Chain {
        type Error = String;

        async fn logs(&self, _: &LogFilter, _: u64, _: u64) -> Result<Vec<Log>, String> {
            unreachable!()
        }

        async fn block_timestamps(&self, _: &[u64]) -> Result<BTreeMap<u64, u64>, String> {
            unreachable!()
        }

        async fn call_batch(
            &self,
            calls: &[(Address, Bytes)],
            _: Option<u64>,
        ) -> Result<Vec<Result<Bytes, String>>, String> {
            self.0.borrow_mut().push(calls.len());
            Ok(calls
                .iter()
                .map(|(to, d)| {
                    let t = token_of(d);
                    let out: Vec<u8> = match d[..4].try_into().unwrap() {
                        Launchpad::launchOfCall::SELECTOR => Launchpad::Launch {
                            quote: Address::ZERO,
                            launchTime: 1,
                            graduated: t == 1,
                            creator: Address::repeat_byte(5),
                            ownBuybackShare: 0,
                            virtualQuote: U256::from(1),
                            quoteRaised: U256::ZERO,
                            tokenReserve: U256::from(1),
                            feesAccrued: U256::from(t) * U256::from(100),
                        }
                        .abi_encode(),
                        FeeLanes::scoreRecordedCall::SELECTOR => (t == 1).abi_encode(),
                        FeeLanes::scoreEpochOfCall::SELECTOR => U256::from(7).abi_encode(),
                        FeeLanes::liquidityEscrowCall::SELECTOR => U256::from(t).abi_encode(),
                        FeeLanes::ownBuybackEscrowCall::SELECTOR => U256::ZERO.abi_encode(),
                        FeeLanes::scorerPoolCall::SELECTOR => U256::from(42).abi_encode(),
                        FeeLanes::verifiedCall::SELECTOR => (t == 2).abi_encode(),
                        ScorerRegistry::poolCall::SELECTOR => {
                            assert_eq!(*to, REG);
                            ScorerRegistry::Pool {
                                configured: t == 1,
                                asset: Address::repeat_byte(9),
                                lastUpdate: 0,
                                dripStart: 0,
                                queueHead: 0,
                                dripAmount: U256::ZERO,
                                index: U256::ZERO,
                                totalWeight: U256::ZERO,
                                funded: U256::ZERO,
                                paid: U256::ZERO,
                                returned: U256::ZERO,
                                returnedSwept: U256::ZERO,
                            }
                            .abi_encode()
                        }
                        _ => return Err("reverted".into()),
                    };
                    Ok(out.into())
                })
                .collect())
        }
    }

    #[test]
    fn every_launch_in_two_batches_and_only_configured_pools_held() {
        let chain = Chain(RefCell::new(vec![]));
        let tokens = [Address::with_last_byte(1), Address::with_last_byte(2)];
        let at = LaneContracts {
            launchpad: PAD,
            fee_lanes: Some(LANES),
            scorer_registry: Some(REG),
        };
        let read =
            futures::executor::block_on(read_launches(&chain, at, &tokens, Parts::ALL)).unwrap();
        assert_eq!(
            *chain.0.borrow(),
            [12, 1],
            "6 reads per launch, then one held pool"
        );
        assert!(read[0].launch.graduated && !read[1].launch.graduated);
        assert_eq!(read[1].launch.feesAccrued, U256::from(200));
        let h = read[0].lanes.unwrap();
        assert!(h.score_recorded && h.score_epoch == 7 && h.liquidity_escrow == U256::from(1));
        assert_eq!(
            read[0].scorer_pool,
            Some(ScorerPool {
                asset: Address::repeat_byte(9),
                held: U256::from(42)
            })
        );
        assert_eq!(read[1].scorer_pool, None, "a pool not configured is none");

        // Without fee lanes or a scorer registry only the launch records are read.
        let chain = Chain(RefCell::new(vec![]));
        let bare = LaneContracts {
            launchpad: PAD,
            fee_lanes: None,
            scorer_registry: None,
        };
        let read =
            futures::executor::block_on(read_launches(&chain, bare, &tokens, Parts::ALL)).unwrap();
        assert_eq!(*chain.0.borrow(), [2]);
        assert!(read
            .iter()
            .all(|l| l.lanes.is_none() && l.scorer_pool.is_none()));

        // A duty reads only its parts: the records alone, the lanes, the pool without what is held.
        for (parts, batches) in [
            (Parts::RECORD, vec![2]),
            (Parts::LANES, vec![10]),
            (Parts::POOL, vec![4]),
            (Parts::POOL_HELD, vec![4, 1]),
        ] {
            let chain = Chain(RefCell::new(vec![]));
            let read =
                futures::executor::block_on(read_launches(&chain, at, &tokens, parts)).unwrap();
            assert_eq!(*chain.0.borrow(), batches, "{parts:?}");
            assert_eq!(read[0].lanes.is_some(), parts.lanes);
            assert_eq!(read[0].scorer_pool.is_some(), parts.pool);
            let held = read[0].scorer_pool.map(|p| p.held).unwrap_or_default();
            assert_eq!(held, U256::from(if parts.held { 42 } else { 0 }));
        }

        let flags = futures::executor::block_on(verified_at(&chain, LANES, &tokens, 5)).unwrap();
        assert!(!flags[&tokens[0]]);
        assert!(flags[&tokens[1]]);
    }
}
