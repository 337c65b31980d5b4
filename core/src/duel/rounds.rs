//! Waking and settling rounds (B4, B7, pinned).
//!
//! B7: the first swap after a close settles the round before that swap executes, from the
//! ticks held up to the close only; anyone may call `settle` if nobody trades. Rounds in
//! which no swap happened are skipped: a duel idle for days wakes in the *current* round
//! (round index from time), and the skipped rounds have no winner. A round awaiting
//! settlement keeps its result ([`super::round_mean_tick`] ignores everything at or after
//! the close).
//!
//! B4: at the close the split carries on (it is a market price), the round's average resets
//! (the next round averages only its own window), the pot carries over whatever the buyback
//! could not spend, and burned tokens are gone.

use super::buyback::{buyback, Buyback, BuybackPool};
use super::mean_tick::{RoundMean, Winner};
use super::schedule::{round_at, round_window, RoundWindow};
use super::streaks::Streaks;
use super::DuelError;
use alloy_primitives::U256;

/// Where a duel stands when something happens at `now`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct Wake {
    /// The round to settle first (the active round, once it has closed).
    pub settle: Option<RoundWindow>,
    /// Rounds between the settled one and the current one, skipped (no swap, no winner).
    #[serde(with = "crate::serde_dec::int")]
    pub skipped: u64,
    /// The round `now` falls in, which becomes the active round.
    pub current: RoundWindow,
}

/// What happens at `now` to a duel started at `duel_start` whose active round (the last one
/// with a swap, not yet settled) is `active_round`.
///
/// # Errors
/// [`DuelError::BeforeStart`], [`DuelError::RoundInFuture`] when `active_round` is after the
/// round of `now`, [`DuelError::TimeOverflow`].
pub fn wake(duel_start: u64, active_round: u64, now: u64) -> Result<Wake, DuelError> {
    let current = round_at(duel_start, now)?;
    if active_round > current.index {
        return Err(DuelError::RoundInFuture {
            active: active_round,
            current: current.index,
        });
    }
    if active_round == current.index {
        return Ok(Wake {
            settle: None,
            skipped: 0,
            current,
        });
    }
    Ok(Wake {
        settle: Some(round_window(duel_start, active_round)?),
        skipped: current.index - active_round - 1,
        current,
    })
}

/// The effect of settling one round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settlement {
    /// The winner (or none: the pot rolls over).
    pub winner: Winner,
    /// The buyback in the winner's pool, if there was a winner.
    pub buyback: Option<Buyback>,
    /// The pot after the settlement (everything, when no winner).
    pub pot_after: U256,
    /// Tokens bought and burned.
    pub tokens_burned: U256,
    /// Streaks after the round.
    pub streaks: Streaks,
}

/// Settles a round with result `mean`: with a winner, the pot buys the winner's token in its
/// pool up to the cap (`ema_a_wad` / `ema_b_wad` are each token's 30-minute EMA) and the
/// rest carries over; with no winner the whole pot carries over. Streaks are updated.
///
/// # Errors
/// As [`buyback`].
pub fn settle_round(
    mean: &RoundMean,
    pot: U256,
    streaks: Streaks,
    pool_a: &BuybackPool,
    ema_a_wad: U256,
    pool_b: &BuybackPool,
    ema_b_wad: U256,
) -> Result<Settlement, DuelError> {
    let bought = match mean.winner {
        Winner::A => Some(buyback(pool_a, pot, ema_a_wad)?),
        Winner::B => Some(buyback(pool_b, pot, ema_b_wad)?),
        Winner::None => None,
    };
    Ok(Settlement {
        winner: mean.winner,
        pot_after: bought.map_or(pot, |b| b.pot_left),
        tokens_burned: bought.map_or(U256::ZERO, |b| b.tokens_bought),
        buyback: bought,
        streaks: streaks.record(mean.winner),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::buyback::token_price_wad;
    use crate::duel::mean_tick::{round_mean_tick, Observation};
    use crate::duel::schedule::ROUND_SECONDS;
    use crate::math::WAD;

    const H: u64 = 3_600;
    const DAY: u64 = 86_400;
    const DAY0: u64 = 1_735_689_600; // 2025-01-01 00:00 UTC

    #[test]
    fn a_duel_idle_for_three_days_wakes_in_the_current_round() {
        let start = DAY0 + 10 * H; // round 0 ends 16:00
                                   // Last swap in round 2 (20:00–24:00 on day 0); nothing for three days.
        let now = DAY0 + 21 * H + 3 * DAY;
        let w = wake(start, 2, now).unwrap();
        let settle = w.settle.unwrap();
        assert_eq!(
            (settle.index, settle.start, settle.end),
            (2, DAY0 + 20 * H, DAY0 + 24 * H)
        );
        // Current round: 3 days later, 20:00–24:00 again → index 2 + 18.
        assert_eq!(w.current.index, 20);
        assert_eq!(
            (w.current.start, w.current.end),
            (DAY0 + 20 * H + 3 * DAY, DAY0 + 24 * H + 3 * DAY)
        );
        assert_eq!(w.skipped, 17);
        assert_eq!(3 * DAY / ROUND_SECONDS, 18);
    }

    #[test]
    fn same_round_needs_no_settlement() {
        let start = DAY0;
        let w = wake(start, 0, start + H).unwrap();
        assert_eq!((w.settle, w.skipped, w.current.index), (None, 0, 0));
        // The first swap right at the close settles round 0 and is in round 1.
        let w = wake(start, 0, start + 4 * H).unwrap();
        assert_eq!(
            (w.settle.unwrap().index, w.skipped, w.current.index),
            (0, 0, 1)
        );
        assert_eq!(
            wake(start, 5, start + H),
            Err(DuelError::RoundInFuture {
                active: 5,
                current: 0
            })
        );
    }

    #[test]
    fn a_round_awaiting_settlement_keeps_its_result() {
        // Round 0 closes with A ahead; nobody trades for a day, then B pumps. The late
        // settlement (by the first swap, or by anyone calling settle) still sees only round 0.
        let start = DAY0;
        let obs = vec![
            Observation {
                timestamp: start + H,
                tick_a: 30,
                tick_b: 0,
                swap: true,
            },
            Observation {
                timestamp: start + DAY + 5 * H,
                tick_a: 0,
                tick_b: 9_000,
                swap: true,
            },
        ];
        let w = wake(start, 0, start + DAY + 5 * H).unwrap();
        let r = w.settle.unwrap();
        let late = round_mean_tick(&obs, r.start, r.end).unwrap();
        let on_time = round_mean_tick(&obs[..1], r.start, r.end).unwrap();
        assert_eq!(late, on_time);
        assert_eq!((late.mean_tick, late.winner), (30 * 3 / 4, Winner::A));
        // The rounds in between had no swap: skipped, no winner.
        assert_eq!((w.skipped, w.current.index), (6, 7));
        assert_eq!(
            round_mean_tick(
                &obs,
                round_window(start, 3).unwrap().start,
                round_window(start, 3).unwrap().end
            )
            .unwrap()
            .winner,
            Winner::None
        );
    }

    fn pool() -> BuybackPool {
        // A full-range pool at price 1 token = 0.001 ETH-ish.
        BuybackPool {
            sqrt_price_x96: U256::from(1u8) << 96,
            liquidity: 1_000_000_000_000_000_000_000,
            fee_pips: 3_000,
            eth_is_currency0: true,
            tick_spacing: 60,
        }
    }

    #[test]
    fn settling_with_and_without_a_winner() {
        let start = DAY0;
        let r0 = round_window(start, 0).unwrap();
        let obs = [
            Observation {
                timestamp: start,
                tick_a: 50,
                tick_b: 0,
                swap: true,
            },
            Observation {
                timestamp: start + H,
                tick_a: 40,
                tick_b: 0,
                swap: true,
            },
        ];
        let mean = round_mean_tick(&obs, r0.start, r0.end).unwrap();
        assert_eq!(mean.winner, Winner::A);
        let p = pool();
        let ema = token_price_wad(p.sqrt_price_x96, true).unwrap();
        let pot = U256::from(10u8) * WAD;
        let s = settle_round(&mean, pot, Streaks::default(), &p, ema, &p, ema).unwrap();
        let b = s.buyback.unwrap();
        assert_eq!(s.pot_after, pot - b.eth_spent);
        assert_eq!(s.tokens_burned, b.tokens_bought);
        assert_eq!(s.streaks.a, 1);
        // The next round, nobody trades: no winner even though A's lead is still held.
        let r1 = round_window(start, 1).unwrap();
        let idle = round_mean_tick(&obs, r1.start, r1.end).unwrap();
        assert_eq!(
            (idle.mean_tick, idle.winner, idle.had_swap),
            (40, Winner::None, false)
        );
        let s2 = settle_round(&idle, s.pot_after, s.streaks, &p, ema, &p, ema).unwrap();
        // The pot rolls over whole; A's streak is intact.
        assert_eq!(
            (s2.pot_after, s2.tokens_burned, s2.buyback),
            (s.pot_after, U256::ZERO, None)
        );
        assert_eq!(s2.streaks.a, 1);
    }
}
