//! One duel, replayed (B1–B7): the hook's state and the two pools' swap logs read through
//! [`crate::chain::duels`], the active round's mean tick and would-be winner recomputed with
//! [`crate::flows::duel_mean`] (B2), the hook's own `pendingResult` kept beside it as a cross-check only, and
//! every settled round recomputed the same way. The Duel pages show the typed [`DuelData`]; nothing here is
//! a view.

use crate::chain::abi::{IDuelHook, IERC20};
use crate::chain::duels::{self, DuelRead, DuelRef};
use crate::chain::rpc::{Rpc, RpcError};
use crate::chain::world::World;
use crate::error::AppError;
use crate::flows::duel_mean::{self, DuelPools, DuelTicks, Side, TickEvent};
use alloy_primitives::{Address, I256, U256};
use eden_core::duel::{self, RoundMean, RoundWindow};

#[derive(Debug, Clone, PartialEq)]
pub struct Settled {
    pub round: u64,
    /// The hook's recorded result (`RoundSettled`).
    pub winner: u8,
    pub mean: i64,
    pub spent: U256,
    pub burned: U256,
    /// The same round recomputed from the swap logs, when the replay worked.
    pub recomputed: Option<RoundMean>,
}

/// The hook's own `pendingResult`: a cross-check only.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HookView {
    pub round: u64,
    pub awaiting: bool,
    pub mean: i64,
    pub winner: u8,
}

/// The active round recomputed from the logs (B2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Recomputed {
    pub window: RoundWindow,
    /// The round has closed and awaits settlement.
    pub awaiting: bool,
    /// The mean runs over `[window.start, upto)`: the close, or the latest block's time.
    pub upto: u64,
    pub mean: RoundMean,
    /// Observations (swaps and the creation seed) replayed.
    pub swaps: usize,
    /// `d` now: the last observation's `tickA − tickB` (both pools' current ticks as ETH prices).
    pub live_d: i64,
}

impl Recomputed {
    pub fn matches(&self, h: &HookView) -> bool {
        h.round == self.window.index
            && h.awaiting == self.awaiting
            && h.mean == self.mean.mean_tick
            && h.winner == duel_mean::winner_code(self.mean.winner)
    }
}

#[derive(Clone)]
pub struct DuelData {
    /// `d` over the running round: `(time, d)` from its start (B3 split chart).
    pub series: Vec<(u64, i64)>,
    pub d: IDuelHook::Duel,
    pub hook: HookView,
    pub current: Result<Recomputed, AppError>,
    pub price_a: U256,
    pub price_b: U256,
    pub supply_a: duels::Supply,
    pub supply_b: duels::Supply,
    pub history: Vec<Settled>,
}

impl DuelData {
    /// What this duel's settled rounds burned of side A and of side B (B5).
    pub fn burned(&self) -> (U256, U256) {
        self.history
            .iter()
            .fold((U256::ZERO, U256::ZERO), |(a, b), h| match h.winner {
                1 => (a.saturating_add(h.burned), b),
                2 => (a, b.saturating_add(h.burned)),
                _ => (a, b),
            })
    }
}

pub fn to_i64(v: I256) -> i64 {
    i64::try_from(v).unwrap_or(if v.is_negative() { i64::MIN } else { i64::MAX })
}

/// B2 replayed from the chain's logs ([`duels::ReplayLogs`]): the duel's observations, seeded at
/// its creation.
fn replay(read: &DuelRead, r: &DuelRef, from: u64) -> Result<DuelTicks, AppError> {
    let logs = read
        .replay
        .as_ref()
        .map_err(|e| AppError::from(e.clone()))?;
    let d = &read.duel;
    let created_at = logs.created_at.ok_or_else(|| {
        AppError::Missing(format!(
            "the creation of duel #{} is not in the logs from block {from}",
            r.duel_id
        ))
    })?;
    let pools = DuelPools {
        id_a: duels::pool_id(&d.keyA),
        id_b: duels::pool_id(&d.keyB),
        hook: r.hook,
    };
    let mut events: Vec<_> = logs
        .pool_logs
        .iter()
        .filter_map(|l| pools.decode(l))
        .collect();
    // D12: both pools' ticks at the creation, as the hook saw them, so the replay needs no log from
    // before it (its swaps are in the blocks the hook recorded from then on).
    if let Some((tick_a, tick_b)) = logs.created_ticks {
        for (side, pool_tick) in [(Side::A, tick_a), (Side::B, tick_b)] {
            events.push(TickEvent {
                position: created_at,
                side,
                pool_tick,
                user_swap: false,
            });
        }
    }
    let eth0 = (
        d.keyA.currency0 == Address::ZERO,
        d.keyB.currency0 == Address::ZERO,
    );
    Ok(duel_mean::observations(
        &events,
        created_at,
        d.start,
        &logs.timestamps,
        eth0,
    )?)
}

/// The active round's window and recomputed mean at `now` (the latest block's time).
fn current_round(ticks: &DuelTicks, d: &IDuelHook::Duel, now: u64) -> Result<Recomputed, AppError> {
    let window = duel::round_window(d.start, d.activeRound).map_err(AppError::from)?;
    let awaiting = now >= window.end;
    let upto = now.min(window.end);
    // A closed round ends at its close; the running one at the latest block, whose own swaps count.
    let mean = if awaiting {
        duel_mean::round_result(ticks, window.start, upto)
    } else {
        duel_mean::running_result(ticks, window.start, upto)
    }
    .map_err(AppError::from)?;
    let swaps = ticks.observations.len();
    let live_d = ticks
        .observations
        .last()
        .map_or(0, |o| i64::from(o.tick_a) - i64::from(o.tick_b));
    Ok(Recomputed {
        window,
        awaiting,
        upto,
        mean,
        swaps,
        live_d,
    })
}

/// The duel ([`duels::read_duel`]), its round mean replayed here and compared with the hook's,
/// and its settled rounds each recomputed.
pub async fn load(w: World, r: DuelRef) -> Result<DuelData, AppError> {
    let read = duels::read_duel(&w.rpc(), w.contracts.pool_manager, &r, w.deployment_block).await?;
    let p = &read.pending;
    let hook = HookView {
        round: p.round,
        awaiting: p.awaitingSettlement,
        mean: to_i64(p.meanTick),
        winner: p.winner,
    };
    let ticks = replay(&read, &r, w.deployment_block);
    let d = read.duel;
    let current = ticks
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|t| current_round(t, &d, read.now));
    let mut history: Vec<Settled> = read
        .settled
        .into_iter()
        .map(|e| Settled {
            recomputed: ticks.as_ref().ok().and_then(|t| {
                let win = duel::round_window(d.start, e.round).ok()?;
                duel_mean::round_result(t, win.start, win.end).ok()
            }),
            round: e.round,
            winner: e.winner,
            mean: to_i64(e.meanTick),
            spent: e.ethSpent,
            burned: e.tokensBurned,
        })
        .collect();
    history.reverse();
    let series = match (&ticks, &current) {
        (Ok(t), Ok(c)) => split_series(&t.observations, c.window.start, c.upto),
        _ => Vec::new(),
    };
    Ok(DuelData {
        series,
        hook,
        current,
        price_a: duel::token_price_wad(read.sqrt_price_a, true)?,
        price_b: duel::token_price_wad(read.sqrt_price_b, true)?,
        supply_a: read.supply_a,
        supply_b: read.supply_b,
        history,
        d,
    })
}

/// The duels of the deployment's hook (none without one).
pub async fn duels_of(w: &World) -> Result<Vec<DuelRef>, AppError> {
    match w.contracts.duel_hook {
        Some(hook) => Ok(duels::discover(&w.rpc(), hook).await?),
        None => Ok(Vec::new()),
    }
}

/// Duel `id` of the deployment's hook (`None`: no such duel, or no hook).
pub async fn duel_of(w: &World, id: u64) -> Result<Option<DuelRef>, AppError> {
    match w.contracts.duel_hook {
        Some(hook) => Ok(duels::discover_one(&w.rpc(), hook, id).await?),
        None => Ok(None),
    }
}

/// `d = tickA − tickB` over `[start, upto]`: the value held at `start` (the last observation
/// before it, 0 before any), then each observation in the window (B2's step function).
fn split_series(obs: &[duel::Observation], start: u64, upto: u64) -> Vec<(u64, i64)> {
    let d = |o: &duel::Observation| i64::from(o.tick_a) - i64::from(o.tick_b);
    let held = obs
        .iter()
        .take_while(|o| o.timestamp < start)
        .last()
        .map_or(0, d);
    let mut out = vec![(start, held)];
    out.extend(
        obs.iter()
            .filter(|o| o.timestamp >= start && o.timestamp <= upto)
            .map(|o| (o.timestamp, d(o))),
    );
    out
}

/// What `me` holds to trade the duel: ETH, token A and token B (for the trade panels' balances).
///
/// # Errors
/// When a read fails.
pub async fn holdings(
    rpc: &Rpc,
    me: Address,
    token_a: Address,
    token_b: Address,
) -> Result<(U256, U256, U256), RpcError> {
    let of = IERC20::balanceOfCall { account: me };
    let (eth, a, b) = futures::join!(
        rpc.balance(me),
        rpc.call(token_a, &of),
        rpc.call(token_b, &of)
    );
    Ok((eth?, a?, b?))
}
