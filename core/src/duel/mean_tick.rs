//! Round winner (B2, pinned): the time-weighted mean of `d(t) = tickA(t) − tickB(t)`.
//!
//! `tickX` is the tick of X's ETH pool as the price of X in ETH ([`eth_price_tick`]). Each
//! [`Observation`] is a moment that moved an ETH price (a swap in either ETH pool, an A/B swap
//! that moved one, or the hook's own buyback), with both ticks after it; the ticks are held until the next one and
//! integrated second by second:
//! `meanTick = Σ d_i × Δt_i / (roundEnd − roundStart)`, truncated toward zero.
//!
//! Rules: observations are sorted by time; the last observation at or before `roundStart`
//! carries into the round; observations at or after `roundEnd` are ignored (nothing after
//! the close can change the result, B7). No winner when no swap lies in
//! `[roundStart, roundEnd)` (nobody traded) or when `meanTick == 0` (|average| below one
//! tick). An observation that is not a swap of the round (`swap == false`: the `d` the hook
//! takes when the duel is created, or the hook's own buyback at a settlement, B5) moves `d`
//! like any other but is not round activity, exactly as the hook counts it. Decided: time before the first known observation counts as `d = 0` (no lead); pass
//! the observation in force at `roundStart` to avoid it.

use super::DuelError;
use crate::uniswap::tick_math::MAX_TICK;

/// Both ETH-price ticks after a swap at `timestamp`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct Observation {
    /// Unix seconds.
    #[serde(with = "crate::serde_dec::int")]
    pub timestamp: u64,
    /// Price of A in ETH, as a tick.
    #[serde(with = "crate::serde_dec::int")]
    pub tick_a: i32,
    /// Price of B in ETH, as a tick.
    #[serde(with = "crate::serde_dec::int")]
    pub tick_b: i32,
    /// Whether this is a swap of the round (activity); `false` for the creation seed and the
    /// hook's buybacks, which move `d` without counting as a trade. Defaults to `true` on input.
    #[serde(default = "crate::serde_dec::yes")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub swap: bool,
}

/// A round's winner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub enum Winner {
    /// `meanTick > 0`.
    A,
    /// `meanTick < 0`.
    B,
    /// No swap in the round, or `meanTick == 0`: the pot rolls over.
    #[serde(rename = "none")]
    None,
}

impl Winner {
    /// `"A"`, `"B"` or `"none"`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Winner::A => "A",
            Winner::B => "B",
            Winner::None => "none",
        }
    }
}

/// The result of a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct RoundMean {
    /// `∫d dt / roundLength`, truncated toward zero.
    #[serde(with = "crate::serde_dec::int")]
    pub mean_tick: i64,
    /// The winner, or none.
    pub winner: Winner,
    /// Whether a swap (an observation with `swap`) lies in `[roundStart, roundEnd)`.
    pub had_swap: bool,
}

/// The tick of X's price in ETH from X's ETH pool tick: a v4 tick prices currency0 in
/// currency1, so it flips sign when ETH is currency0 (native ETH always is).
pub fn eth_price_tick(pool_tick: i32, eth_is_currency0: bool) -> i32 {
    if eth_is_currency0 {
        -pool_tick
    } else {
        pool_tick
    }
}

fn check_tick(index: usize, field: &'static str, tick: i32) -> Result<i64, DuelError> {
    let t = i64::from(tick);
    if t.abs() > i64::from(MAX_TICK) {
        return Err(DuelError::InvalidTick {
            index,
            field,
            tick: t,
        });
    }
    Ok(t)
}

/// The round's mean tick and winner from `observations` (sorted by time).
///
/// # Errors
/// [`DuelError::InvalidRound`] when `round_end <= round_start`, [`DuelError::NotSorted`],
/// [`DuelError::InvalidTick`].
pub fn round_mean_tick(
    observations: &[Observation],
    round_start: u64,
    round_end: u64,
) -> Result<RoundMean, DuelError> {
    if round_end <= round_start {
        return Err(DuelError::InvalidRound {
            start: round_start,
            end: round_end,
        });
    }
    let mut d: i64 = 0; // held d(t); 0 before the first observation (decided)
    let mut cursor = round_start;
    let mut integral: i128 = 0;
    let mut had_swap = false;
    let mut prev_ts = 0u64;
    for (index, o) in observations.iter().enumerate() {
        if index > 0 && o.timestamp < prev_ts {
            return Err(DuelError::NotSorted { index });
        }
        prev_ts = o.timestamp;
        let value = check_tick(index, "tickA", o.tick_a)? - check_tick(index, "tickB", o.tick_b)?;
        if o.timestamp >= round_end {
            continue; // after the close: keep validating order, never counted
        }
        if o.timestamp >= round_start {
            had_swap |= o.swap;
            integral += i128::from(d) * i128::from(o.timestamp - cursor);
            cursor = o.timestamp;
        }
        d = value;
    }
    integral += i128::from(d) * i128::from(round_end - cursor);
    // |integral / length| ≤ max |d| = 2 × MAX_TICK: fits in i64. Division truncates toward zero.
    let mean_tick = (integral / i128::from(round_end - round_start)) as i64;
    let winner = if !had_swap {
        Winner::None
    } else if mean_tick > 0 {
        Winner::A
    } else if mean_tick < 0 {
        Winner::B
    } else {
        Winner::None
    };
    Ok(RoundMean {
        mean_tick,
        winner,
        had_swap,
    })
}

/// The running round's mean at `now` (B2), as the hook's `pendingResult` reads it in the block at
/// `now`: [`round_mean_tick`] over `[round_start, now)`, where a swap in that block itself (at
/// `now`) already counts as the round's activity; it adds no time to the mean, but it makes the
/// round one with a winner.
///
/// # Errors
/// As [`round_mean_tick`].
pub fn running_round_mean_tick(
    observations: &[Observation],
    round_start: u64,
    now: u64,
) -> Result<RoundMean, DuelError> {
    let mut m = round_mean_tick(observations, round_start, now)?;
    if !m.had_swap
        && observations
            .iter()
            .any(|o| o.swap && o.timestamp == now && o.timestamp >= round_start)
    {
        m.had_swap = true;
        m.winner = match m.mean_tick {
            t if t > 0 => Winner::A,
            t if t < 0 => Winner::B,
            _ => Winner::None,
        };
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const H: u64 = 3_600;
    const S: u64 = 1_000_000; // a round start

    fn o(ts: u64, a: i32, b: i32) -> Observation {
        Observation {
            timestamp: ts,
            tick_a: a,
            tick_b: b,
            swap: true,
        }
    }

    /// A swap in the latest block gives the running round a winner (the hook's `hadSwap`) without
    /// adding time to its mean.
    #[test]
    fn a_swap_at_now_counts_as_activity() {
        let obs = [
            Observation {
                swap: false,
                ..o(S - H, 0, 100)
            },
            o(S + 2 * H, 500, 0),
        ];
        let at = running_round_mean_tick(&obs, S, S + 2 * H).unwrap();
        assert_eq!(at.mean_tick, -100);
        assert!(at.had_swap);
        assert_eq!(at.winner, Winner::B);
        let closed = round_mean_tick(&obs, S, S + 2 * H).unwrap();
        assert_eq!(closed.mean_tick, -100);
        assert!(!closed.had_swap);
        assert_eq!(closed.winner, Winner::None);
        let later = running_round_mean_tick(&obs, S, S + 3 * H).unwrap();
        assert_eq!(later, round_mean_tick(&obs, S, S + 3 * H).unwrap());
    }

    #[test]
    fn a_buyback_moves_d_but_is_not_activity() {
        // A's lead carried in, then only the hook's buyback in the round: d moves (150 then 90 for
        // half the round each: mean 120) but nobody traded, so there is no winner.
        let buyback = Observation {
            swap: false,
            ..o(S + 2 * H, 90, 0)
        };
        let r = round_mean_tick(&[o(S - H, 150, 0), buyback], S, S + 4 * H).unwrap();
        assert_eq!(
            (r.mean_tick, r.winner, r.had_swap),
            (120, Winner::None, false)
        );
        // A user swap in the same round makes it count.
        let r = round_mean_tick(
            &[o(S - H, 150, 0), buyback, o(S + 3 * H, 90, 0)],
            S,
            S + 4 * H,
        )
        .unwrap();
        assert_eq!((r.mean_tick, r.winner, r.had_swap), (120, Winner::A, true));
    }

    #[test]
    fn held_ticks_are_integrated_second_by_second() {
        // d = +30 carried in, then −10 from 1 h, then +50 from 3 h, in a 4 h round:
        // (30×1 − 10×2 + 50×1) / 4 = 15.
        let obs = [o(S - 500, 100, 70), o(S + H, 0, 10), o(S + 3 * H, 60, 10)];
        let r = round_mean_tick(&obs, S, S + 4 * H).unwrap();
        assert_eq!(
            r,
            RoundMean {
                mean_tick: 15,
                winner: Winner::A,
                had_swap: true
            }
        );
    }

    #[test]
    fn size_and_duration_both_matter_and_a_late_lead_can_flip_a_close_round() {
        // A leads by 10 ticks for 3 h; B leads by 40 in the last hour: (30 − 40)/4 = −2.5 → −2.
        let obs = [o(S - 1, 10, 0), o(S + 3 * H, 0, 40)];
        let r = round_mean_tick(&obs, S, S + 4 * H).unwrap();
        assert_eq!((r.mean_tick, r.winner), (-2, Winner::B));
        // The same late lead in a round A led by 20: (60 − 40)/4 = 5, A keeps it.
        let obs = [o(S - 1, 20, 0), o(S + 3 * H, 0, 40)];
        assert_eq!(
            round_mean_tick(&obs, S, S + 4 * H).unwrap().winner,
            Winner::A
        );
    }

    #[test]
    fn below_one_tick_is_no_winner() {
        // +1 for 1 h, 0 for 3 h: 0.25 → 0. −3 for 1 h: −0.75 → 0 (toward zero, not −1).
        let r = round_mean_tick(&[o(S, 1, 0), o(S + H, 5, 5)], S, S + 4 * H).unwrap();
        assert_eq!((r.mean_tick, r.winner), (0, Winner::None));
        let r = round_mean_tick(&[o(S, 0, 3), o(S + H, 5, 5)], S, S + 4 * H).unwrap();
        assert_eq!((r.mean_tick, r.winner), (0, Winner::None));
        assert!(r.had_swap);
    }

    #[test]
    fn no_trade_in_the_round_is_no_winner() {
        // A's lead is carried in, but nobody traded during the round.
        let obs = [o(S - H, 500, 0), o(S + 4 * H, 0, 0)];
        let r = round_mean_tick(&obs, S, S + 4 * H).unwrap();
        assert_eq!(
            r,
            RoundMean {
                mean_tick: 500,
                winner: Winner::None,
                had_swap: false
            }
        );
        assert_eq!(
            round_mean_tick(&[], S, S + 4 * H).unwrap().winner,
            Winner::None
        );
        // A swap exactly at the round start is inside the round.
        assert!(
            round_mean_tick(&[o(S, 5, 0)], S, S + 4 * H)
                .unwrap()
                .had_swap
        );
    }

    #[test]
    fn nothing_after_the_close_counts() {
        // The settling swap at the close, and everything later, cannot change the result.
        let obs = [o(S - 1, 10, 0), o(S + H, 12, 0)];
        let before = round_mean_tick(&obs, S, S + 4 * H).unwrap();
        let mut later = obs.to_vec();
        later.push(o(S + 4 * H, -800_000, 800_000));
        later.push(o(S + 9 * H, 800_000, -800_000));
        assert_eq!(round_mean_tick(&later, S, S + 4 * H).unwrap(), before);
    }

    #[test]
    fn each_round_averages_only_its_own_window() {
        // B4: the average resets at the close; only the held tick carries in.
        let obs = [o(S, 100, 0), o(S + 3 * H, -20, 0), o(S + 5 * H, -20, 0)];
        let r1 = round_mean_tick(&obs, S, S + 4 * H).unwrap();
        assert_eq!(r1.mean_tick, (100 * 3 - 20) / 4);
        let r2 = round_mean_tick(&obs, S + 4 * H, S + 8 * H).unwrap();
        assert_eq!((r2.mean_tick, r2.winner), (-20, Winner::B));
    }

    #[test]
    fn same_second_observations_last_one_holds() {
        let obs = [o(S, 900, 0), o(S, -4, 0)];
        assert_eq!(round_mean_tick(&obs, S, S + 10).unwrap().mean_tick, -4);
    }

    #[test]
    fn before_the_first_observation_counts_as_no_lead() {
        let r = round_mean_tick(&[o(S + 2 * H, 40, 0)], S, S + 4 * H).unwrap();
        assert_eq!(r.mean_tick, 20);
    }

    #[test]
    fn errors() {
        assert_eq!(
            round_mean_tick(&[], S, S),
            Err(DuelError::InvalidRound { start: S, end: S })
        );
        assert_eq!(
            round_mean_tick(&[o(5, 0, 0), o(4, 0, 0)], S, S + 1),
            Err(DuelError::NotSorted { index: 1 })
        );
        assert_eq!(
            round_mean_tick(&[o(5, 887_273, 0)], S, S + 1),
            Err(DuelError::InvalidTick {
                index: 0,
                field: "tickA",
                tick: 887_273
            })
        );
    }

    #[test]
    fn eth_is_currency0_flips_the_sign() {
        assert_eq!(eth_price_tick(-1200, true), 1200);
        assert_eq!(eth_price_tick(-1200, false), -1200);
    }

    proptest! {
        /// Never a panic; the mean lies within the extreme ticks held; a constant d is its own mean.
        #[test]
        fn mean_is_bounded(
            mut raw in prop::collection::vec((0u64..50_000, -887_272i32..=887_272, -887_272i32..=887_272), 0..30),
            start in 0u64..40_000, len in 1u64..20_000,
        ) {
            raw.sort_by_key(|x| x.0);
            let obs: Vec<Observation> = raw.iter().map(|&(t, a, b)| o(t, a, b)).collect();
            let r = round_mean_tick(&obs, start, start + len).unwrap();
            let ds: Vec<i64> = obs.iter().map(|x| i64::from(x.tick_a) - i64::from(x.tick_b)).chain([0]).collect();
            prop_assert!(r.mean_tick <= *ds.iter().max().unwrap() && r.mean_tick >= *ds.iter().min().unwrap());
            let one = [o(start, 7, 3)];
            prop_assert_eq!(round_mean_tick(&one, start, start + len).unwrap().mean_tick, 4);
        }

        #[test]
        fn no_panic(raw in prop::collection::vec((any::<u64>(), any::<i32>(), any::<i32>()), 0..10), s in any::<u64>(), e in any::<u64>()) {
            let obs: Vec<Observation> = raw.iter().map(|&(t, a, b)| o(t, a, b)).collect();
            let _ = round_mean_tick(&obs, s, e);
        }
    }
}
