//! B2 replayed from the chain's logs: a duel's round mean tick and would-be winner recomputed in
//! this page by `eden_core::duel::round_mean_tick`, never read from the hook.
//!
//! What the `DuelHook` integrates (contracts/src/DuelHook.sol, B2/B7): `d = tickA − tickB`, each
//! tick the token's price in ETH (`eden_core::duel::eth_price_tick`: ETH is currency0, so the pool
//! tick flips), held from one swap to the next. Both pool ticks only change through the v4
//! `PoolManager`'s `Initialize` and `Swap` events, whose `tick` is the pool's tick afterwards; the
//! events are replayed in chain order (block, log index) with their blocks' timestamps into
//! `(timestamp, tickA, tickB)` observations.
//!
//! Decided (mirrors the hook): the duel's creation seeds `d` from both pools' ticks at that moment,
//! handed to core as an observation one second before the duel starts so it carries into round 0
//! without counting as a swap; a swap whose sender is the hook itself (the B5 buyback at a
//! settlement) moves `d` but is not round activity, so a round whose only swaps are buybacks has
//! no winner: both enter core as observations with `swap: false`.

use crate::chain::abi::IPoolManagerEvents;
use crate::chain::rpc::Log;
use alloy_primitives::{Address, B256};
use alloy_sol_types::SolEvent;
use eden_core::duel::{self, DuelError, Observation, RoundMean, Winner};
use std::collections::BTreeMap;

/// Which side of the duel a pool is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    A,
    B,
}

/// A duel pool's tick after a `PoolManager` event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TickEvent {
    /// `(block, log index)`.
    pub position: (u64, u64),
    pub side: Side,
    /// The pool's tick afterwards (currency0 priced in currency1).
    pub pool_tick: i32,
    /// A swap by anyone but the hook (round activity, B2).
    pub user_swap: bool,
}

/// The duel's two pools as `PoolManager` logs name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DuelPools {
    pub id_a: B256,
    pub id_b: B256,
    /// The hook: its own swaps (buybacks) are not round activity.
    pub hook: Address,
}

impl DuelPools {
    /// The tick change a `PoolManager` log records for one of the duel's pools, if it is one.
    pub fn decode(&self, log: &Log) -> Option<TickEvent> {
        let side = match log.topics.get(1) {
            Some(t) if *t == self.id_a => Side::A,
            Some(t) if *t == self.id_b => Side::B,
            _ => return None,
        };
        let topics = log.topics.iter().copied();
        let (pool_tick, user_swap) = match log.topics.first() {
            Some(t) if *t == IPoolManagerEvents::Swap::SIGNATURE_HASH => {
                let e = IPoolManagerEvents::Swap::decode_raw_log(topics, &log.data).ok()?;
                (e.tick.as_i32(), e.sender != self.hook)
            }
            Some(t) if *t == IPoolManagerEvents::Initialize::SIGNATURE_HASH => {
                let e = IPoolManagerEvents::Initialize::decode_raw_log(topics, &log.data).ok()?;
                (e.tick.as_i32(), false)
            }
            _ => return None,
        };
        Some(TickEvent {
            position: log.position(),
            side,
            pool_tick,
            user_swap,
        })
    }
}

/// A duel's observations for `eden_core::duel::round_mean_tick` (user swaps marked `swap`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DuelTicks {
    pub observations: Vec<Observation>,
}

/// Replays `events` (any order) into observations. `created_at` is the `DuelCreated` log's position,
/// `start` the duel's start time, `timestamps` the times of the blocks of the events after the
/// creation ([`crate::chain::duels::blocks_after`]); `eth_is_currency0`
/// per side (always true for the hook's native-ETH pools).
///
/// # Errors
/// A pool whose tick at the creation is not in the events (its `Initialize` is before the logs
/// read), or a missing block timestamp.
pub fn observations(
    events: &[TickEvent],
    created_at: (u64, u64),
    start: u64,
    timestamps: &BTreeMap<u64, u64>,
    eth_is_currency0: (bool, bool),
) -> Result<DuelTicks, ObservationError> {
    let mut events = events.to_vec();
    events.sort_by_key(|e| e.position);
    let eth = |side: Side, t: i32| match side {
        Side::A => duel::eth_price_tick(t, eth_is_currency0.0),
        Side::B => duel::eth_price_tick(t, eth_is_currency0.1),
    };
    let (mut a, mut b): (Option<i32>, Option<i32>) = (None, None);
    let mut out = DuelTicks::default();
    let mut seeded = false;
    for e in &events {
        if e.position > created_at && !seeded {
            out.observations.push(seed(a, b, start)?);
            seeded = true;
        }
        match e.side {
            Side::A => a = Some(eth(Side::A, e.pool_tick)),
            Side::B => b = Some(eth(Side::B, e.pool_tick)),
        }
        if !seeded {
            continue;
        }
        let ts = *timestamps
            .get(&e.position.0)
            .ok_or(ObservationError::NoTimestamp(e.position.0))?;
        // Both are known: the seed checked them.
        let (Some(tick_a), Some(tick_b)) = (a, b) else {
            continue;
        };
        out.observations.push(Observation {
            timestamp: ts,
            tick_a,
            tick_b,
            swap: e.user_swap,
        });
    }
    if !seeded {
        out.observations.push(seed(a, b, start)?);
    }
    Ok(out)
}

/// Why a duel's observations cannot be rebuilt from the logs read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ObservationError {
    /// A pool's price at the duel's creation is not in the logs.
    #[error("the price of pool {0} when the duel was created is not in the logs read (its pool was initialised before the first block searched)")]
    NoCreationPrice(&'static str),
    /// A block's timestamp was not read.
    #[error("no timestamp for block {0}")]
    NoTimestamp(u64),
}

fn seed(a: Option<i32>, b: Option<i32>, start: u64) -> Result<Observation, ObservationError> {
    Ok(Observation {
        timestamp: start.saturating_sub(1),
        tick_a: a.ok_or(ObservationError::NoCreationPrice("A"))?,
        tick_b: b.ok_or(ObservationError::NoCreationPrice("B"))?,
        swap: false,
    })
}

/// B2 over `[start, end)` (`end` is the close, or now for a running round): the mean tick and
/// winner by core (no winner unless a user swap lies in the window). An empty window (`end <= start`, a round that
/// has just begun) has mean 0 and no winner, as the hook's `pendingResult`.
///
/// # Errors
/// As `eden_core::duel::round_mean_tick`.
pub fn round_result(t: &DuelTicks, start: u64, end: u64) -> Result<RoundMean, DuelError> {
    if end <= start {
        return Ok(RoundMean {
            mean_tick: 0,
            winner: Winner::None,
            had_swap: false,
        });
    }
    duel::round_mean_tick(&t.observations, start, end)
}

/// The running round's result at `now` (B2, `eden_core::duel::running_round_mean_tick`): a swap
/// in the latest block already counts as the round's activity, as the hook counts it.
///
/// # Errors
/// As [`duel::round_mean_tick`].
pub fn running_result(t: &DuelTicks, start: u64, now: u64) -> Result<RoundMean, DuelError> {
    if now <= start {
        return round_result(t, start, now);
    }
    duel::running_round_mean_tick(&t.observations, start, now)
}

/// The hook's `Winner` enum value (`0` none, `1` A, `2` B).
pub fn winner_code(w: Winner) -> u8 {
    match w {
        Winner::None => 0,
        Winner::A => 1,
        Winner::B => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::{
        aliases::{I24, U24},
        Bytes, U160, U256,
    };

    const HOOK: Address = Address::repeat_byte(0x40);
    const ROUTER: Address = Address::repeat_byte(0x77);

    fn pools() -> DuelPools {
        DuelPools {
            id_a: B256::repeat_byte(0xaa),
            id_b: B256::repeat_byte(0xbb),
            hook: HOOK,
        }
    }

    fn log(block: u64, index: u64, event: alloy_primitives::LogData) -> Log {
        Log {
            address: None,
            topics: event.topics().to_vec(),
            data: Bytes::from(event.data.to_vec()),
            block_number: U256::from(block),
            transaction_hash: B256::ZERO,
            log_index: Some(U256::from(index)),
        }
    }

    fn swap(id: B256, sender: Address, tick: i32, block: u64, index: u64) -> Log {
        let e = IPoolManagerEvents::Swap {
            id,
            sender,
            amount0: 0,
            amount1: 0,
            sqrtPriceX96: U160::from(1u8),
            liquidity: 1,
            tick: I24::try_from(tick).unwrap(),
            fee: U24::from(3000u32),
        };
        log(block, index, e.encode_log_data())
    }

    fn init(id: B256, tick: i32, block: u64) -> Log {
        let e = IPoolManagerEvents::Initialize {
            id,
            currency0: Address::ZERO,
            currency1: Address::repeat_byte(1),
            fee: U24::from(3000u32),
            tickSpacing: I24::try_from(60).unwrap(),
            hooks: HOOK,
            sqrtPriceX96: U160::from(1u8),
            tick: I24::try_from(tick).unwrap(),
        };
        log(block, 0, e.encode_log_data())
    }

    #[test]
    fn logs_decode_to_tick_events_of_the_duel_pools_only() {
        let p = pools();
        let e = p.decode(&swap(p.id_a, ROUTER, -120, 7, 3)).unwrap();
        assert_eq!(
            e,
            TickEvent {
                position: (7, 3),
                side: Side::A,
                pool_tick: -120,
                user_swap: true
            }
        );
        assert!(
            !p.decode(&swap(p.id_b, HOOK, 5, 8, 0)).unwrap().user_swap,
            "the hook's buyback is not activity"
        );
        assert_eq!(
            p.decode(&init(p.id_b, 69_080, 2)).unwrap().pool_tick,
            69_080
        );
        assert_eq!(
            p.decode(&swap(B256::repeat_byte(0xcc), ROUTER, 1, 9, 0)),
            None,
            "another pool"
        );
    }

    /// A duel created at block 10 (t = 1000): pools initialised before, swaps after, one buyback.
    #[test]
    fn logs_replay_into_observations_with_the_creation_seed_and_eth_prices() {
        let p = pools();
        let logs = [
            init(p.id_a, -100, 3),
            init(p.id_b, -40, 4),
            swap(p.id_a, ROUTER, -130, 5, 0), // before the creation: only moves the seed
            swap(p.id_a, ROUTER, -160, 12, 1),
            swap(p.id_b, ROUTER, -10, 12, 4), // same block: the later log holds
            swap(p.id_b, HOOK, -70, 20, 0),   // a buyback
        ];
        let events: Vec<TickEvent> = logs.iter().rev().filter_map(|l| p.decode(l)).collect();
        assert_eq!(
            crate::chain::duels::blocks_after(&logs, (10, 2)),
            vec![12, 20]
        );
        let ts = BTreeMap::from([(12, 1_600), (20, 3_000)]);
        let t = observations(&events, (10, 2), 1_000, &ts, (true, true)).unwrap();
        let o = |timestamp, tick_a, tick_b, swap| Observation {
            timestamp,
            tick_a,
            tick_b,
            swap,
        };
        // The creation seed and the buyback are not user swaps.
        assert_eq!(
            t.observations,
            vec![
                o(999, 130, 40, false),
                o(1_600, 160, 40, true),
                o(1_600, 160, 10, true),
                o(3_000, 160, 70, false)
            ]
        );
        // d: 90 on [1000, 1600), 150 on [1600, 2000).
        let m = round_result(&t, 1_000, 2_000).unwrap();
        assert_eq!(
            (m.mean_tick, m.winner),
            ((90 * 600 + 150 * 400) / 1_000, Winner::A)
        );
        // Only the buyback in [2000, 4000): the mean moves (150, then 90) but there is no winner.
        let m = round_result(&t, 2_000, 4_000).unwrap();
        assert_eq!(
            (m.mean_tick, m.winner, m.had_swap),
            ((150 * 1_000 + 90 * 1_000) / 2_000, Winner::None, false)
        );
        assert_eq!(round_result(&t, 2_000, 2_000).unwrap().mean_tick, 0);
    }

    #[test]
    fn a_pool_initialised_before_the_logs_read_is_an_error_not_a_zero() {
        let p = pools();
        let events: Vec<TickEvent> = [init(p.id_a, 5, 3), swap(p.id_a, ROUTER, 7, 12, 0)]
            .iter()
            .filter_map(|l| p.decode(l))
            .collect();
        let e = observations(
            &events,
            (10, 0),
            1_000,
            &BTreeMap::from([(12, 1_100)]),
            (true, true),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("pool B"), "{e}");
        let e = observations(&[], (10, 0), 1_000, &BTreeMap::new(), (true, true))
            .unwrap_err()
            .to_string();
        assert!(e.contains("pool A"), "{e}");
        let events: Vec<TickEvent> = [
            init(p.id_a, 5, 3),
            init(p.id_b, 5, 4),
            swap(p.id_a, ROUTER, 7, 12, 0),
        ]
        .iter()
        .filter_map(|l| p.decode(l))
        .collect();
        assert!(
            observations(&events, (10, 0), 1_000, &BTreeMap::new(), (true, true))
                .unwrap_err()
                .to_string()
                .contains("block 12")
        );
    }
}
