//! Differential fixtures for the contracts (A1-A4 call ledger, C11-C14 reward pool), computed by eden-core.
//!
//! Each fixture is a deterministic random op sequence (splitmix64, fixed seeds) plus everything core computes
//! from it (the rewards ops include the adjudicator's grade overrides, op kind 5, re-weighting an open
//! position). The forge tests `CoreDiffCalls` / `CoreDiffRewards` replay the ops on `CallLedger` / `ScorerRegistry`
//! and assert equality of every number. All integers are written as decimal strings.
//!
//! Usage: `cargo run -p eden-contracts-diff --bin gen_fixtures -- contracts/test/fixtures`

use alloy_primitives::{Address, B256, U256};
use eden_core::burns::{
    root_for_usd_up, root_price_usd, EthUsdAnswer, RootAmountBounds, RootPriceInput,
    TickObservation,
};
use eden_core::calls::{call_commitment, CallLedger, CallOutcome, Direction, LedgerConfig};
use eden_core::duel::{
    buyback, ema_update, round_mean_tick, round_window, token_price_wad, BuybackPool, Ema,
    Observation, Streaks, Winner,
};
use eden_core::math::I256;
use eden_core::rewards::{RewardPool, CAP_BPS};
use eden_core::uniswap::oracle::twap_price_wad;
use eden_core::uniswap::tick_math::{get_sqrt_price_at_tick, get_tick_at_sqrt_price};
use serde_json::{json, Value};
use std::collections::BTreeMap;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const WAD: u128 = 1_000_000_000_000_000_000;

fn s<T: ToString>(x: T) -> Value {
    Value::String(x.to_string())
}

/// Addresses as the forge test derives them: `address(uint160(base + i))`.
fn addr(base: u64, i: u64) -> Address {
    let mut b = [0u8; 20];
    b[12..].copy_from_slice(&(base + i).to_be_bytes());
    Address::from(b)
}

// ---------------------------------------------------------------------------------------------- calls

const CALL_T0: u64 = 1_750_000_000;
const AGENT_BASE: u64 = 0xA9E0;
const ASSET_ID: u64 = 0xA5A5;
const N_AGENTS: u64 = 6;

fn calls_fixture(seed: u64, n_ops: usize, windows: &[u64]) -> Value {
    let mut rng = Rng(seed);
    let min_stake = U256::from(100 * WAD);
    let mut ledger = CallLedger::new(LedgerConfig::with_min_stake(min_stake)).unwrap();
    let asset = addr(0, ASSET_ID);
    let stakes: Vec<u128> = (0..N_AGENTS)
        .map(|_| [100, 150, 200, 1_000][rng.below(4) as usize] * WAD)
        .collect();
    for (i, st) in stakes.iter().enumerate() {
        ledger.set_stake(addr(AGENT_BASE, i as u64), U256::from(*st));
    }
    let mut now = CALL_T0;
    let mut pushes: Vec<(u64, u128)> = vec![(now, 100 * WAD)];
    // id -> (agent index, direction, window, salt, committed_at, closes_at (0 until revealed), status 0 c / 1 r / 2 done)
    let mut calls: Vec<(u64, Direction, u64, u64, u64, u64, u8)> = Vec::new();
    let (mut kind, mut at, mut agent, mut dir, mut win, mut salt, mut id_col, mut price) = (
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
    );
    let mut outcomes = Vec::new();
    let mut last_at = now; // the contract checks scores at the last op's block time
    for _ in 0..n_ops {
        now += rng.below(400);
        let want = rng.below(10);
        // Candidates for reveal / resolve / expire at `now`.
        let revealable: Vec<usize> = (0..calls.len())
            .filter(|&i| {
                calls[i].6 == 0
                    && now >= calls[i].4 + eden_core::calls::DEFAULT_MIN_REVEAL_AGE_SECS
                    && now <= calls[i].4 + 3_600
            })
            .collect();
        let resolvable: Vec<usize> = (0..calls.len())
            .filter(|&i| calls[i].6 == 1 && now >= calls[i].5)
            .collect();
        let expirable: Vec<usize> = (0..calls.len())
            .filter(|&i| calls[i].6 == 0 && now > calls[i].4 + 3_600)
            .collect();
        let (k, a, d, w, sl, id, p);
        if want < 2 {
            // push a price on a coarse grid (equal prices happen: voids)
            let last = pushes.last().unwrap().1;
            let step = WAD * (rng.below(3) as u128);
            let up = rng.below(2) == 0;
            let np = if up {
                (last + step).min(110 * WAD)
            } else {
                last.saturating_sub(step).max(90 * WAD)
            };
            if pushes.last().unwrap().0 == now {
                pushes.last_mut().unwrap().1 = np;
            } else {
                pushes.push((now, np));
            }
            (k, a, d, w, sl, id, p) = (0u8, 0u64, 0u8, 0u64, 0u64, 0u64, np);
        } else if want < 4
            || (revealable.is_empty() && resolvable.is_empty() && expirable.is_empty())
        {
            let ai = rng.below(N_AGENTS);
            // Directions lean one way in phases of ~40 ops, so rounds reach and flip consensus.
            let lean_up = (at.len() / 40) % 2 == 0;
            let direction = if (rng.below(4) != 0) == lean_up {
                Direction::Up
            } else {
                Direction::Down
            };
            let window = windows[rng.below(windows.len() as u64) as usize];
            let salt_v = rng.next();
            let c = call_commitment(
                addr(AGENT_BASE, ai),
                asset,
                direction,
                window,
                B256::from(U256::from(salt_v)),
            );
            let got = match ledger.commit(addr(AGENT_BASE, ai), c, now) {
                Ok(id) => id,
                Err(eden_core::calls::LedgerError::TooManyOpenCalls(_)) => continue,
                Err(e) => panic!("commit: {e}"),
            };
            assert_eq!(got as usize, calls.len());
            calls.push((ai, direction, window, salt_v, now, 0, 0));
            (k, a, d, w, sl, id, p) = (1, ai, direction.code(), window, salt_v, got, 0);
        } else if want < 7 && !revealable.is_empty() {
            let i = revealable[rng.below(revealable.len() as u64) as usize];
            let (ai, direction, window, salt_v, ..) = calls[i];
            let entry = pushes.last().unwrap().1;
            ledger
                .reveal(
                    i as u64,
                    addr(AGENT_BASE, ai),
                    asset,
                    direction,
                    window,
                    B256::from(U256::from(salt_v)),
                    U256::from(entry),
                    now,
                )
                .unwrap();
            calls[i].5 = now + window;
            calls[i].6 = 1;
            (k, a, d, w, sl, id, p) = (2, ai, 0, 0, 0, i as u64, entry);
        } else if want < 9 && !resolvable.is_empty() {
            let i = resolvable[rng.below(resolvable.len() as u64) as usize];
            let closes = calls[i].5;
            // The contract's exit for pushed prices: the last push at or before closesAt.
            let exit = pushes
                .iter()
                .rev()
                .find(|(t, _)| *t <= closes)
                .map(|(_, p)| *p)
                .unwrap();
            let o = ledger
                .resolve(i as u64, Some(U256::from(exit)), now)
                .unwrap();
            outcomes.push(json!({"id": s(i), "outcome": s(match o { CallOutcome::Hit => 1, CallOutcome::Miss => 2, CallOutcome::Void => 3, CallOutcome::Expired => 4 })}));
            calls[i].6 = 2;
            // Past closesAt + grace the exit is not read (a miss): the contract records 0.
            let late = now > closes + eden_core::calls::DEFAULT_RESOLVE_GRACE_SECS;
            (k, a, d, w, sl, id, p) = (
                3,
                calls[i].0,
                0,
                0,
                0,
                i as u64,
                if late { 0 } else { exit },
            );
        } else if !expirable.is_empty() {
            let i = expirable[rng.below(expirable.len() as u64) as usize];
            ledger.expire(i as u64, now).unwrap();
            calls[i].6 = 2;
            (k, a, d, w, sl, id, p) = (4, calls[i].0, 0, 0, 0, i as u64, 0);
        } else {
            continue;
        }
        kind.push(s(k));
        at.push(s(now));
        last_at = now;
        agent.push(s(a));
        dir.push(s(d));
        win.push(s(w));
        salt.push(s(sl));
        id_col.push(s(id));
        price.push(s(p));
    }
    let records: Vec<Value> = (0..N_AGENTS)
        .map(|i| {
            let a = addr(AGENT_BASE, i);
            let r = ledger.record(a).unwrap();
            json!({"hits": s(r.hits), "misses": s(r.misses), "voids": s(r.voids), "streak": s(r.streak),
                   "bestStreak": s(r.best_streak), "score": s(ledger.score_at(a, last_at).unwrap())})
        })
        .collect();
    let log = ledger.consensus_log();
    json!({
        "minStake": s(min_stake),
        "stakes": stakes.iter().map(|x| s(*x)).collect::<Vec<_>>(),
        "ops": {"kind": kind, "at": at, "agent": agent, "dir": dir, "window": win, "salt": salt, "id": id_col, "price": price},
        "agents": {
            "hits": records.iter().map(|r| r["hits"].clone()).collect::<Vec<_>>(),
            "misses": records.iter().map(|r| r["misses"].clone()).collect::<Vec<_>>(),
            "voids": records.iter().map(|r| r["voids"].clone()).collect::<Vec<_>>(),
            "streak": records.iter().map(|r| r["streak"].clone()).collect::<Vec<_>>(),
            "bestStreak": records.iter().map(|r| r["bestStreak"].clone()).collect::<Vec<_>>(),
            "score": records.iter().map(|r| r["score"].clone()).collect::<Vec<_>>(),
        },
        "consensus": {
            "window": log.iter().map(|e| s(e.key.window)).collect::<Vec<_>>(),
            "bucket": log.iter().map(|e| s(e.key.bucket)).collect::<Vec<_>>(),
            "direction": log.iter().map(|e| s(e.direction.code())).collect::<Vec<_>>(),
            "strengthBps": log.iter().map(|e| s(e.strength_bps)).collect::<Vec<_>>(),
            "voters": log.iter().map(|e| s(e.voters)).collect::<Vec<_>>(),
            "upWeight": log.iter().map(|e| s(e.up_weight)).collect::<Vec<_>>(),
            "downWeight": log.iter().map(|e| s(e.down_weight)).collect::<Vec<_>>(),
        },
        "outcomes": outcomes,
    })
}

// ---------------------------------------------------------------------------------------------- rewards

const REWARD_T0: u64 = 1_800_000_000;
const SCORER_BASE: u64 = 0x5C0;
const N_SCORERS: u64 = 8;
const DAY: u64 = 86_400;

fn multiplier(verdict: u64) -> U256 {
    match verdict {
        0 | 1 => U256::from(WAD),
        2 => U256::from(WAD / 2),
        _ => U256::ZERO,
    }
}

fn rewards_fixture(seed: u64, n_ops: usize, stale_ops: &mut u64) -> Value {
    let mut rng = Rng(seed);
    let mut pool = RewardPool::new(REWARD_T0, CAP_BPS).unwrap();
    let mut now = REWARD_T0;
    let mut last_open: BTreeMap<u64, u64> = BTreeMap::new();
    let mut retired = [false; N_SCORERS as usize];
    let mut graded: BTreeMap<Address, (u64, u64)> = BTreeMap::new();
    let (mut kind, mut at, mut who, mut amount, mut quality, mut verdict) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    let (mut funded, mut paid, mut owed, mut undripped, mut returned, mut claimed) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    for _ in 0..n_ops {
        now += rng.below(3 * DAY);
        let want = rng.below(10);
        let sc = rng.below(N_SCORERS);
        let a = addr(SCORER_BASE, sc);
        let mut k = 4u64; // advance
        let (mut amt, mut q, mut v, mut got) = (U256::ZERO, 0u64, 0u64, U256::ZERO);
        if want < 3 {
            k = 0;
            amt = U256::from(1 + rng.below(1_000_000_000_000_000_000))
                * U256::from(1 + rng.below(1_000));
            // The registry refuses a funding below 1 % of the undripped balance (C11, decided).
            amt = amt.max(pool.drip().min_funding_at_up(now).unwrap());
            pool.drip().admits_funding(now, amt).unwrap();
            pool.fund(now, amt).unwrap();
        } else if want < 6
            && !retired[sc as usize]
            && last_open.get(&sc).is_none_or(|t| now >= t + 14 * DAY)
        {
            k = 1;
            // Half the time, just below the heaviest open position's grade with the same multiplier: a
            // different weight in the same C13 weight class (2^(1/1024) wide), so the contract's tracked
            // omega_max (mirrored by RewardPool::max_weight) goes stale when the heavier one leaves.
            let heaviest = pool
                .positions()
                .filter(|p| p.scorer != a && !p.weight.is_zero())
                .max_by_key(|p| p.weight)
                .and_then(|p| graded.get(&p.scorer).copied());
            match heaviest {
                Some((hq, hv)) if rng.below(2) == 0 => {
                    q = hq.saturating_sub(1 + rng.below(100_000_000_000_000)); // up to 1e-4 below
                    v = hv;
                }
                _ => {
                    q = rng.below(1_000_001) * 1_000_000_000_000; // micro-grade precision
                    v = rng.below(4);
                }
            }
            pool.open_position(now, a, U256::from(q), multiplier(v))
                .unwrap();
            graded.insert(a, (q, v));
            last_open.insert(sc, now);
        } else if want == 6 && !retired[sc as usize] && rng.below(3) == 0 {
            k = 2;
            pool.advance_to(now).unwrap();
            if pool.position(&a).is_some() {
                pool.close_position(now, a).unwrap();
            }
            retired[sc as usize] = true;
        } else if want < 9 {
            k = 3;
            got = pool.claim(now, a).unwrap();
        } else {
            pool.advance_to(now).unwrap();
            // The adjudicator overrides the grade of the scorer's open position: re-weighted from now.
            if pool.position(&a).is_some() && rng.below(2) == 0 {
                k = 5;
                q = rng.below(1_000_001) * 1_000_000_000_000;
                v = rng.below(4);
                pool.regrade(now, a, U256::from(q), multiplier(v)).unwrap();
                graded.insert(a, (q, v));
            }
        }
        let l = pool.check_solvency().unwrap();
        if pool.max_weight() != pool.exact_max_weight() {
            *stale_ops += 1;
        }
        kind.push(s(k));
        at.push(s(now));
        who.push(s(sc));
        amount.push(s(amt));
        quality.push(s(q));
        verdict.push(s(v));
        funded.push(s(l.funded));
        paid.push(s(l.paid));
        owed.push(s(l.owed));
        undripped.push(s(l.undripped));
        returned.push(s(l.returned));
        claimed.push(s(got));
    }
    let final_owed: Vec<Value> = (0..N_SCORERS)
        .map(|i| s(pool.owed_of(&addr(SCORER_BASE, i)).unwrap()))
        .collect();
    json!({
        "ops": {"kind": kind, "at": at, "scorer": who, "amount": amount, "quality": quality, "verdict": verdict},
        "after": {"funded": funded, "paid": paid, "owed": owed, "undripped": undripped, "returned": returned, "claimed": claimed},
        "finalOwed": final_owed,
    })
}

// ---------------------------------------------------------------------------------------------- duels

/// 2025-01-01 09:30 UTC: round 0 ends at 16:00.
const DUEL_T0: u64 = 1_735_689_600 + 9 * 3_600 + 1_800;
/// Both tokens start at this ETH-price tick (pool tick 138,180: about 1,000,000 tokens per ETH).
const DUEL_TICK0: i32 = -138_180;

/// Full-range liquidity of each duel pool in the forge replay (`V4PoolDriver.addFullRange`).
const DUEL_LIQUIDITY: u128 = 1_000_000_000_000_000_000_000;
/// The pot funded right after the duel is created.
const DUEL_POT: u128 = 3 * WAD;

/// One side's pool as the hook sees it: sqrt price (ETH is currency0) and the token's 30-minute EMA.
struct Side {
    sqrt: U256,
    ema: Ema,
}

impl Side {
    fn eth_price_tick(&self) -> i32 {
        -get_tick_at_sqrt_price(self.sqrt).unwrap()
    }
    /// The hook's `_touchEma`: the price held since the last update, brought to `now`.
    fn touch(&mut self, now: u64) {
        if now > self.ema.last_update {
            self.ema = ema_update(
                Some(self.ema),
                token_price_wad(self.sqrt, true).unwrap(),
                now,
            )
            .unwrap();
        }
    }
}

/// Random swaps that move A's or B's ETH-price tick to a random target, and `settle` calls, across many rounds
/// (with idle stretches), with a 3 ETH pot. Core's `round_mean_tick`, `Streaks`, `ema_update` and `buyback`
/// (v4 `computeSwapStep` on the full-range pool) give every settled round, the ETH spent, the tokens burned and
/// the pot. A buyback moves the winner's price (a new held `d`) but is not a swap of the round.
fn duel_fixture(seed: u64, n_ops: usize) -> Value {
    let mut rng = Rng(seed);
    let sqrt0 = get_sqrt_price_at_tick(i64::from(-DUEL_TICK0)).unwrap();
    let price0 = token_price_wad(sqrt0, true).unwrap();
    let ema0 = Ema {
        value_wad: price0,
        last_update: DUEL_T0,
    };
    let mut sides = [
        Side {
            sqrt: sqrt0,
            ema: ema0,
        },
        Side {
            sqrt: sqrt0,
            ema: ema0,
        },
    ];
    // The state at creation carries into round 0 (not a swap).
    let mut obs: Vec<Observation> = vec![Observation {
        timestamp: DUEL_T0 - 1,
        tick_a: DUEL_TICK0,
        tick_b: DUEL_TICK0,
        swap: false,
    }];
    let mut now = DUEL_T0;
    let mut active = 0u64;
    let mut streaks = Streaks::default();
    let mut pot = U256::from(DUEL_POT);
    let (mut kind, mut at, mut tick) = (vec![], vec![], vec![]);
    let (mut r_round, mut r_mean, mut r_winner, mut r_spent, mut r_burned) =
        (vec![], vec![], vec![], vec![], vec![]);
    let current_round = |t: u64| -> u64 {
        let mut k = 0;
        while round_window(DUEL_T0, k + 1).unwrap().start <= t {
            k += 1;
        }
        k
    };
    for _ in 0..n_ops {
        now += if rng.below(12) == 0 {
            86_400 + rng.below(2 * 86_400)
        } else {
            rng.below(3 * 3_600)
        };
        let want = rng.below(8);
        let current = current_round(now);
        let k: u64 = if want < 3 {
            0
        } else if want < 6 {
            1
        } else {
            2
        }; // swap A, swap B, settle
        if k == 2 && current == active {
            continue;
        }
        if current != active {
            let w = round_window(DUEL_T0, active).unwrap();
            // Only swaps count as round activity; buyback moves are carried as held values.
            let m = round_mean_tick(&obs, w.start, w.end).unwrap();
            streaks = streaks.record(m.winner);
            let (mut spent, mut burned) = (U256::ZERO, U256::ZERO);
            let wi = match m.winner {
                Winner::A => Some(0usize),
                Winner::B => Some(1),
                Winner::None => None,
            };
            if let (Some(i), false) = (wi, pot.is_zero()) {
                sides[i].touch(now);
                let pool = BuybackPool {
                    sqrt_price_x96: sides[i].sqrt,
                    liquidity: DUEL_LIQUIDITY,
                    fee_pips: 3_000,
                    eth_is_currency0: true,
                    tick_spacing: 60,
                };
                let core = buyback(&pool, pot, sides[i].ema.value_wad).unwrap();
                let (sp, bo, after) = (
                    core.eth_spent,
                    core.tokens_bought,
                    core.sqrt_price_after_x96,
                );
                spent = sp;
                burned = bo;
                pot -= sp;
                if !spent.is_zero() {
                    sides[i].sqrt = after;
                    obs.push(Observation {
                        timestamp: now,
                        tick_a: sides[0].eth_price_tick(),
                        tick_b: sides[1].eth_price_tick(),
                        swap: false, // the hook's buyback (B5)
                    });
                }
            }
            r_round.push(s(active));
            r_mean.push(s(m.mean_tick));
            r_winner.push(s(match m.winner {
                Winner::None => 0,
                Winner::A => 1,
                Winner::B => 2,
            }));
            r_spent.push(s(spent));
            r_burned.push(s(burned));
            active = current;
        }
        let mut target = 0i32;
        if k < 2 {
            let i = k as usize;
            sides[i].touch(now);
            let old = sides[i].eth_price_tick();
            loop {
                target = DUEL_TICK0 - 3_000 + rng.below(6_001) as i32;
                if target != old {
                    break;
                }
            }
            sides[i].sqrt = get_sqrt_price_at_tick(i64::from(-target)).unwrap();
            obs.push(Observation {
                timestamp: now,
                tick_a: sides[0].eth_price_tick(),
                tick_b: sides[1].eth_price_tick(),
                swap: true,
            });
        }
        kind.push(s(k));
        at.push(s(now));
        tick.push(s(target));
    }
    json!({
        "t0": s(DUEL_T0),
        "tick0": s(DUEL_TICK0),
        "pot0": s(DUEL_POT),
        "ops": {"kind": kind, "at": at, "ethPriceTick": tick},
        "settled": {"round": r_round, "meanTick": r_mean, "winner": r_winner, "ethSpent": r_spent, "tokensBurned": r_burned},
        "streaks": {"a": s(streaks.a), "b": s(streaks.b), "bestA": s(streaks.best_a), "bestB": s(streaks.best_b)},
        "pot": s(pot),
    })
}

// ---------------------------------------------------------------------------------------------- prices

/// A5: random tick cumulatives 300 s apart (both token orders) -> the call price; C16: random ROOT pool histories
/// (short and anchor mean ticks, pool age, ETH/USD answer and decimals, both orders) -> the USD price and the ROOT
/// for $100.
fn prices_fixture(seed: u64) -> Value {
    let mut rng = Rng(seed);
    let (mut c0, mut c1, mut t0, mut p) = (vec![], vec![], vec![], vec![]);
    for _ in 0..64 {
        let start = rng.next() as i64 >> 20;
        let mean = rng.below(1_700_000) as i64 - 850_000; // within the tick range
        let end = start + mean * 300 + rng.below(300) as i64 - 150;
        let token0 = rng.below(2) == 0;
        let price = twap_price_wad(start, end, 300, token0).unwrap();
        c0.push(s(start));
        c1.push(s(end));
        t0.push(s(u8::from(token0)));
        p.push(s(price));
    }
    let now: u64 = 1_800_000_000;
    let (mut age, mut cn, mut cs, mut ca, mut tok0, mut ans, mut dec, mut usd, mut root) = (
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
    );
    while age.len() < 48 {
        let pool_age = 1_800 + rng.below(30_000);
        let anchor = pool_age.min(14_400) as i64;
        let token0 = rng.below(2) == 0;
        let cum_now = rng.next() as i64 >> 24;
        let short_tick = rng.below(200_000) as i64 - 100_000;
        let early_tick = short_tick + rng.below(4_000) as i64 - 2_000;
        let cum_short = cum_now - short_tick * 1_800 - rng.below(1_800) as i64;
        let cum_anchor = cum_short - early_tick * (anchor - 1_800) - rng.below(900) as i64;
        let decimals = [6u8, 8, 18][rng.below(3) as usize];
        let answer = (1_000 + rng.below(4_000)) as i64 * 10i64.pow(u32::from(decimals.min(12)));
        let input = RootPriceInput {
            now,
            pool_initialized_at: now - pool_age,
            root_is_token0: token0,
            observations: vec![
                TickObservation {
                    seconds_ago: 0,
                    tick_cumulative: cum_now,
                },
                TickObservation {
                    seconds_ago: 1_800,
                    tick_cumulative: cum_short,
                },
                TickObservation {
                    seconds_ago: anchor as u32,
                    tick_cumulative: cum_anchor,
                },
            ],
            eth_usd: EthUsdAnswer {
                answer: I256::try_from(answer).unwrap(),
                decimals,
                updated_at: now - rng.below(90_000),
            },
        };
        let Ok(rp) = root_price_usd(&input) else {
            continue;
        };
        let Ok(r) = root_for_usd_up(
            U256::from(100 * WAD),
            rp.price_usd,
            RootAmountBounds::default(),
        ) else {
            continue;
        };
        age.push(s(pool_age));
        cn.push(s(cum_now));
        cs.push(s(cum_short));
        ca.push(s(cum_anchor));
        tok0.push(s(u8::from(token0)));
        ans.push(s(answer));
        dec.push(s(decimals));
        usd.push(s(rp.price_usd));
        root.push(s(r));
    }
    json!({
        "calls": {"cumStart": c0, "cumEnd": c1, "stockIsToken0": t0, "priceWad": p},
        "root": {"now": s(now), "poolAge": age, "cumNow": cn, "cumShort": cs, "cumAnchor": ca, "rootIsToken0": tok0,
                 "answer": ans, "decimals": dec, "priceUsd": usd, "rootFor100Usd": root},
        "buyback": buyback_cases(&mut rng),
    })
}

/// C26: random run inputs (an amount of ETH or of a stablecoin with its decimals, a price, a slippage, the ROOT
/// bought) -> the ETH split, the buy value, the minimum out and the burn, by eden-core `burns::buyback`.
fn buyback_cases(rng: &mut Rng) -> Value {
    use eden_core::burns::buyback::{
        asset_usd_wad_up, burn_share, buy_value, min_root_out_up, split_eth, BPS,
    };
    let (mut amount, mut decimals, mut price, mut slip, mut bought, mut asset_price) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    let (mut buy, mut keep, mut value, mut min_out, mut burn) =
        (vec![], vec![], vec![], vec![], vec![]);
    for i in 0..96u64 {
        // Amounts from one wei to 2^120; prices from one wei to 2^100 per whole ROOT.
        let a = U256::from(rng.next()) << rng.below(57) as usize;
        let d = if i % 3 == 0 {
            18u8
        } else {
            [6u8, 8, 18][rng.below(3) as usize]
        };
        let p = (U256::from(rng.next()) << rng.below(37) as usize) + U256::from(1u8);
        let sl = if i % 4 == 0 {
            [0, BPS, 300][rng.below(3) as usize]
        } else {
            rng.below(1_001)
        };
        let r = U256::from(rng.next()) << rng.below(65) as usize;
        // The asset's own USD price (WAD per whole unit): one dollar a third of the time, else any.
        let ap = if i % 3 == 1 {
            U256::from(10u8).pow(U256::from(18u8))
        } else {
            (U256::from(rng.next()) << rng.below(40) as usize) + U256::from(1u8)
        };
        let v = buy_value(asset_usd_wad_up(a, d, ap).unwrap());
        let split = split_eth(a);
        amount.push(s(a));
        decimals.push(s(d));
        asset_price.push(s(ap));
        price.push(s(p));
        slip.push(s(sl));
        bought.push(s(r));
        buy.push(s(split.buy));
        keep.push(s(split.keep));
        value.push(s(v));
        min_out.push(s(min_root_out_up(v, p, sl).unwrap()));
        burn.push(s(burn_share(r)));
    }
    json!({"amount": amount, "decimals": decimals, "assetPrice": asset_price, "price": price, "slippageBps": slip, "rootBought": bought,
           "buy": buy, "keep": keep, "buyValue": value, "minRootOut": min_out, "burn": burn})
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "contracts/test/fixtures".to_string());
    let calls: Vec<Value> = (0..4)
        .map(|i| {
            calls_fixture(
                0xED3A_0000 + i,
                160,
                if i < 2 {
                    &[3_600]
                } else {
                    &[600, 3_600, 7_200]
                },
            )
        })
        .collect();
    let mut stale_ops = 0u64;
    let rewards: Vec<Value> = (0..4)
        .map(|i| rewards_fixture(0xED3B_0000 + i, 120, &mut stale_ops))
        .collect();
    // The rewards cases must exercise a stale (class-tracked) omega_max, else same-class weights went untested.
    assert!(
        stale_ops > 0,
        "no rewards op with a stale weight-class omega_max; change the seeds"
    );
    eprintln!("rewards: {stale_ops} ops with the tracked omega_max above the exact one");
    let duels: Vec<Value> = (0..4).map(|i| duel_fixture(0xED3C_0000 + i, 60)).collect();
    for (name, v) in [
        ("core-calls.json", json!({"cases": calls})),
        ("core-rewards.json", json!({"cases": rewards})),
        ("core-duels.json", json!({"cases": duels})),
        ("core-prices.json", prices_fixture(0xED3D_0000)),
    ] {
        let path = format!("{dir}/{name}");
        std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap() + "\n").unwrap();
        println!("wrote {path}");
    }
}
