//! Duels (B1–B7), discovered from the chain: the hook's `duelCount` and each duel's pools, and
//! the two tokens' symbols, in three batched round trips whatever the number of duels (one duel by
//! its id in two, [`discover_one`]); then one
//! duel's state, pool prices, settled rounds and the logs its round mean is replayed from
//! ([`read_duel`]). Each pool
//! pairs native ETH (`currency0`, the zero address) with its token (`currency1`). No Leptos here.

use crate::chain::abi::{
    IDuelHook, IDuelHookEvents, IPoolManagerEvents, IPoolManagerState, IERC20,
};
use crate::chain::event_blocks::BlockIndex;
use crate::chain::multicall::{run_with_block, Batch};
use crate::chain::rpc::{decode_event, decode_events, Log, LogFilter, Rpc, RpcError};
use alloy_primitives::{keccak256, Address, B256, U256};
use alloy_sol_types::{SolEvent, SolValue};
use eden_core::uniswap::state;
use std::collections::{BTreeMap, BTreeSet};

/// A duel: its hook, id and the two tokens with their symbols.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuelRef {
    pub duel_id: u64,
    pub hook: Address,
    pub token_a: Address,
    pub token_b: Address,
    pub symbol_a: String,
    pub symbol_b: String,
}

/// The token of a duel pool: the currency that is not native ETH.
fn token_of(key: &IDuelHook::PoolKey) -> Address {
    if key.currency0.is_zero() {
        key.currency1
    } else {
        key.currency0
    }
}

/// Every duel of `hook`, by id.
///
/// # Errors
/// When the hook cannot be read.
pub async fn discover(rpc: &Rpc, hook: Address) -> Result<Vec<DuelRef>, RpcError> {
    let pairs: Vec<_> = eden_chain::duels::list(rpc, hook)
        .await?
        .into_iter()
        .map(|(i, d)| (i, token_of(&d.keyA), token_of(&d.keyB)))
        .collect();
    named(rpc, hook, pairs).await
}

/// Duel `id` of `hook` (`None`: there is no such duel) in two round trips, whatever the number of
/// duels: the count with the duel's record, then its tokens' symbols.
///
/// # Errors
/// When the hook cannot be read.
pub async fn discover_one(rpc: &Rpc, hook: Address, id: u64) -> Result<Option<DuelRef>, RpcError> {
    let mut b = Batch::new();
    let count = b.add(hook, &IDuelHook::duelCountCall {});
    let duel = b.add(
        hook,
        &IDuelHook::getDuelCall {
            duelId: U256::from(id),
        },
    );
    let a = b.run(rpc).await?;
    if U256::from(id) >= a.get(count)? {
        return Ok(None);
    }
    let d = a.get(duel)?;
    let pair = (id, token_of(&d.keyA), token_of(&d.keyB));
    Ok(named(rpc, hook, vec![pair]).await?.pop())
}

/// The duels `(id, token A, token B)` of `hook` with their tokens' symbols, in one batch.
async fn named(
    rpc: &Rpc,
    hook: Address,
    pairs: Vec<(u64, Address, Address)>,
) -> Result<Vec<DuelRef>, RpcError> {
    let mut b = Batch::new();
    let syms: Vec<_> = pairs
        .iter()
        .map(|&(_, ta, tb)| {
            (
                b.add(ta, &IERC20::symbolCall {}),
                b.add(tb, &IERC20::symbolCall {}),
            )
        })
        .collect();
    let a = b.run(rpc).await?;
    Ok(pairs
        .into_iter()
        .zip(syms)
        .map(|((duel_id, token_a, token_b), (sa, sb))| DuelRef {
            duel_id,
            hook,
            token_a,
            token_b,
            symbol_a: a.get(sa).unwrap_or_else(|_| "?".into()),
            symbol_b: a.get(sb).unwrap_or_else(|_| "?".into()),
        })
        .collect())
}

/// A v4 pool's id: `keccak256(abi.encode(key))` (`PoolIdLibrary.toId`).
pub fn pool_id(key: &IDuelHook::PoolKey) -> B256 {
    keccak256(key.abi_encode())
}

/// What the duel's round mean is replayed from (B2): where the duel was created (its
/// `DuelCreated` log's position; `None` when it is not in the logs read) and both pools' ticks
/// then, both pools' `Swap` logs in the blocks the hook recorded for them (D12; without a record,
/// their `Initialize` and `Swap` logs since `from`), and the timestamps of the blocks of those after
/// the creation.
#[derive(Debug, Clone)]
pub struct ReplayLogs {
    pub created_at: Option<(u64, u64)>,
    /// Pool A's and pool B's ticks at the creation (`DuelCreated`).
    pub created_ticks: Option<(i32, i32)>,
    pub pool_logs: Vec<Log>,
    pub timestamps: BTreeMap<u64, u64>,
}

/// A duel as the chain has it at one block.
#[derive(Clone)]
pub struct DuelRead {
    /// The time of the block everything was read at.
    pub now: u64,
    pub duel: IDuelHook::Duel,
    /// The hook's own view of the active round.
    pub pending: IDuelHook::pendingResultReturn,
    /// Both pools' current `sqrtPriceX96` (their `Slot0` words through `extsload`).
    pub sqrt_price_a: U256,
    pub sqrt_price_b: U256,
    /// Each token's supply (B5: a buyback burns, so a burnable token's supply falls) and what
    /// `0xdEaD` holds of it (where a token without `burn` goes).
    pub supply_a: Supply,
    pub supply_b: Supply,
    /// The replay's logs; failing to read them leaves the rest of the duel readable.
    pub replay: Result<ReplayLogs, RpcError>,
    /// The settled rounds, oldest first.
    pub settled: Vec<IDuelHook::RoundSettled>,
}

/// A duel token's supply at the read block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Supply {
    /// `totalSupply()`.
    pub total: U256,
    /// `balanceOf(0x…dEaD)`.
    pub at_dead: U256,
}

/// The burn address of tokens without `burn` (`DuelHook.BURN_ADDRESS`).
pub const DEAD: Address = alloy_primitives::address!("000000000000000000000000000000000000dEaD");

/// Reads duel `r` (logs from `from_block`) in two round trips: the duel and the hook's pending
/// result with the block they were read at ([`run_with_block`]); then at once, at that block, both
/// pools' prices, the settled rounds, and the replay's logs followed by their blocks' timestamps
/// (one JSON-RPC batch).
///
/// # Errors
/// When the duel, its pools or its settled rounds cannot be read.
pub async fn read_duel(
    rpc: &Rpc,
    pool_manager: Address,
    r: &DuelRef,
    from_block: u64,
) -> Result<DuelRead, RpcError> {
    let id = U256::from(r.duel_id);
    // One block for the hook's state, its cross-check and the logs, so they describe the same moment.
    let mut b = Batch::new();
    let (get, pending) = (
        b.add(r.hook, &IDuelHook::getDuelCall { duelId: id }),
        b.add(r.hook, &IDuelHook::pendingResultCall { duelId: id }),
    );
    let (latest, now, a) = run_with_block(rpc, b).await?;
    let (duel, pending) = (a.get(get)?, a.get(pending)?);
    let settled = LogFilter {
        address: r.hook,
        topics: vec![
            Some(vec![IDuelHook::RoundSettled::SIGNATURE_HASH]),
            Some(vec![B256::from(id)]),
        ],
    };
    let mut b = Batch::new();
    let slot0 = |key: &IDuelHook::PoolKey| IPoolManagerState::extsload_0Call {
        slot: state::pool_state_slot(pool_id(key)),
    };
    let (a, b_slot) = (
        b.add(pool_manager, &slot0(&duel.keyA)),
        b.add(pool_manager, &slot0(&duel.keyB)),
    );
    // ETH is currency0 of both pools: each side's token is currency1.
    let mut supply_of = |key: &IDuelHook::PoolKey| {
        (
            b.add(key.currency1, &IERC20::totalSupplyCall {}),
            b.add(key.currency1, &IERC20::balanceOfCall { account: DEAD }),
        )
    };
    let (supply_a, supply_b) = (supply_of(&duel.keyA), supply_of(&duel.keyB));
    let (prices, settled, replay) = futures::join!(
        b.run(rpc),
        rpc.get_logs(&settled, from_block, latest),
        replay_logs(rpc, pool_manager, r, &duel, from_block, latest),
    );
    let prices = prices?;
    let sqrt = |word: B256| state::Slot0::from_word(word).sqrt_price_x96;
    let supply = |(total, at_dead)| -> Result<Supply, RpcError> {
        Ok(Supply {
            total: prices.get(total)?,
            at_dead: prices.get(at_dead)?,
        })
    };
    Ok(DuelRead {
        now,
        supply_a: supply(supply_a)?,
        supply_b: supply(supply_b)?,
        sqrt_price_a: sqrt(prices.get(a)?),
        sqrt_price_b: sqrt(prices.get(b_slot)?),
        settled: decode_events::<IDuelHook::RoundSettled>(settled?)?
            .into_iter()
            .map(|(e, _)| e)
            .collect(),
        replay,
        pending,
        duel,
    })
}

/// The blocks whose timestamps the replay needs: those of the logs after the creation at
/// `created_at` (a log's position is its block and index), in order, once each.
pub fn blocks_after(logs: &[Log], created_at: (u64, u64)) -> Vec<u64> {
    logs.iter()
        .map(Log::position)
        .filter(|p| *p > created_at)
        .map(|p| p.0)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// The replay's logs over blocks `[from, latest]` (two log scans at once), then the timestamps of
/// the pool logs' blocks after the creation (one JSON-RPC batch).
async fn replay_logs(
    rpc: &Rpc,
    pool_manager: Address,
    r: &DuelRef,
    d: &IDuelHook::Duel,
    from: u64,
    latest: u64,
) -> Result<ReplayLogs, RpcError> {
    let created = LogFilter {
        address: r.hook,
        topics: vec![
            Some(vec![IDuelHookEvents::DuelCreated::SIGNATURE_HASH]),
            Some(vec![B256::from(U256::from(r.duel_id))]),
        ],
    };
    let pools = LogFilter {
        address: pool_manager,
        topics: vec![
            Some(vec![
                IPoolManagerEvents::Initialize::SIGNATURE_HASH,
                IPoolManagerEvents::Swap::SIGNATURE_HASH,
            ]),
            Some(vec![pool_id(&d.keyA), pool_id(&d.keyB)]),
        ],
    };
    let swaps_recorded = BlockIndex {
        at: r.hook,
        keys: vec![pool_id(&d.keyA), pool_id(&d.keyB)],
    };
    let (created, pool_logs) = futures::try_join!(
        rpc.get_logs(&created, from, latest),
        rpc.get_logs_via(&pools, from, latest, Some(&swaps_recorded)),
    )?;
    let created_at = created.first().map(Log::position);
    let created_ticks = match created.first() {
        Some(l) => {
            let e = decode_event::<IDuelHookEvents::DuelCreated>(l)?;
            Some((e.tickA.as_i32(), e.tickB.as_i32()))
        }
        None => None,
    };
    let blocks = created_at.map_or_else(Vec::new, |c| blocks_after(&pool_logs, c));
    Ok(ReplayLogs {
        created_at,
        created_ticks,
        timestamps: rpc.block_timestamps(&blocks).await?,
        pool_logs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_is_the_currency_that_is_not_eth() {
        let t = Address::repeat_byte(7);
        let key = |c0, c1| IDuelHook::PoolKey {
            currency0: c0,
            currency1: c1,
            fee: Default::default(),
            tickSpacing: Default::default(),
            hooks: Address::ZERO,
        };
        assert_eq!(token_of(&key(Address::ZERO, t)), t);
        assert_eq!(token_of(&key(t, Address::repeat_byte(9))), t);
    }
}
