//! Round schedule (B1, pinned).
//!
//! Every duel's rounds close at 00:00, 04:00, 08:00, 12:00, 16:00 and 20:00 UTC, i.e. at unix
//! times that are multiples of [`ROUND_SECONDS`] (a UTC day is six of them). The first round
//! of a duel started at `start` ends at the first close `c` with `c − start ≥ 4 h`, so it lasts
//! between 4 h and 8 h (exactly 4 h when `start` is itself a close). Every later round lasts
//! exactly 4 h. Round 0 is `[start, firstClose)`, round `k ≥ 1` is
//! `[firstClose + (k−1)·4h, firstClose + k·4h)`.

use super::DuelError;

/// Four hours: the round length and the spacing of the UTC closes.
pub const ROUND_SECONDS: u64 = 4 * 3_600;
/// Closes per UTC day.
pub const CLOSES_PER_DAY: u64 = 24 * 3_600 / ROUND_SECONDS;

/// One round: index and `[start, end)` in unix seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct RoundWindow {
    /// 0 for the first round.
    #[serde(with = "crate::serde_dec::int")]
    pub index: u64,
    /// Inclusive start.
    #[serde(with = "crate::serde_dec::int")]
    pub start: u64,
    /// Exclusive end: the close.
    #[serde(with = "crate::serde_dec::int")]
    pub end: u64,
}

impl RoundWindow {
    /// `end − start`.
    pub fn length(&self) -> u64 {
        self.end - self.start
    }
}

fn overflow() -> DuelError {
    DuelError::TimeOverflow("round schedule")
}

/// The first close `c` with `c − start ≥ 4 h`: the end of round 0.
///
/// # Errors
/// [`DuelError::TimeOverflow`] near `u64::MAX`.
pub fn first_close(start: u64) -> Result<u64, DuelError> {
    let earliest = start.checked_add(ROUND_SECONDS).ok_or_else(overflow)?;
    earliest
        .div_ceil(ROUND_SECONDS)
        .checked_mul(ROUND_SECONDS)
        .ok_or_else(overflow)
}

/// Round `index` of a duel started at `duel_start`.
///
/// # Errors
/// [`DuelError::TimeOverflow`] when the round lies beyond `u64` seconds.
pub fn round_window(duel_start: u64, index: u64) -> Result<RoundWindow, DuelError> {
    let fc = first_close(duel_start)?;
    if index == 0 {
        return Ok(RoundWindow {
            index,
            start: duel_start,
            end: fc,
        });
    }
    let start = (index - 1)
        .checked_mul(ROUND_SECONDS)
        .and_then(|x| x.checked_add(fc))
        .ok_or_else(overflow)?;
    let end = start.checked_add(ROUND_SECONDS).ok_or_else(overflow)?;
    Ok(RoundWindow { index, start, end })
}

/// The round containing unix time `now` (round index from time).
///
/// # Errors
/// [`DuelError::BeforeStart`] when `now < duel_start`; [`DuelError::TimeOverflow`].
pub fn round_at(duel_start: u64, now: u64) -> Result<RoundWindow, DuelError> {
    if now < duel_start {
        return Err(DuelError::BeforeStart {
            now,
            start: duel_start,
        });
    }
    let fc = first_close(duel_start)?;
    if now < fc {
        return round_window(duel_start, 0);
    }
    round_window(duel_start, 1 + (now - fc) / ROUND_SECONDS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const H: u64 = 3_600;
    /// 2025-01-01 00:00:00 UTC.
    const DAY0: u64 = 1_735_689_600;

    #[test]
    fn six_closes_a_day_at_fixed_utc_hours() {
        assert_eq!(CLOSES_PER_DAY, 6);
        assert_eq!(DAY0 % 86_400, 0);
        let closes: Vec<u64> = (0..6).map(|k| round_window(DAY0, k).unwrap().end).collect();
        let hours: Vec<u64> = closes.iter().map(|c| (c % 86_400) / H).collect();
        // started exactly at midnight: closes at 04, 08, 12, 16, 20, 00.
        assert_eq!(hours, vec![4, 8, 12, 16, 20, 0]);
    }

    #[test]
    fn first_round_is_exactly_four_hours_when_starting_on_a_close() {
        for close_hour in [0, 4, 8, 12, 16, 20] {
            let start = DAY0 + close_hour * H;
            assert_eq!(first_close(start).unwrap() - start, 4 * H);
        }
    }

    #[test]
    fn first_round_lasts_four_to_eight_hours() {
        // 09:30 UTC → the 12:00 close leaves only 2.5 h, so round 0 runs to 16:00 (6.5 h).
        let start = DAY0 + 9 * H + 30 * 60;
        assert_eq!(first_close(start).unwrap(), DAY0 + 16 * H);
        // One second after a close: almost 8 h.
        assert_eq!(first_close(DAY0 + 1).unwrap() - (DAY0 + 1), 8 * H - 1);
        // One second before a close: that close leaves 1 s, the next one 4 h + 1 s.
        assert_eq!(first_close(DAY0 + 4 * H - 1).unwrap(), DAY0 + 8 * H);
        // 22:00 runs past midnight to the 04:00 close.
        assert_eq!(first_close(DAY0 + 22 * H).unwrap(), DAY0 + 28 * H);
    }

    #[test]
    fn later_rounds_are_four_hours_and_contiguous() {
        let start = DAY0 + 13 * H + 17;
        let mut prev = round_window(start, 0).unwrap();
        for k in 1..20 {
            let r = round_window(start, k).unwrap();
            assert_eq!(r.start, prev.end);
            assert_eq!(r.length(), 4 * H);
            assert_eq!(r.end % ROUND_SECONDS, 0);
            prev = r;
        }
    }

    #[test]
    fn round_at_time() {
        let start = DAY0 + 9 * H;
        assert_eq!(round_at(start, start).unwrap().index, 0);
        assert_eq!(round_at(start, DAY0 + 16 * H - 1).unwrap().index, 0);
        assert_eq!(round_at(start, DAY0 + 16 * H).unwrap().index, 1);
        assert_eq!(round_at(start, DAY0 + 20 * H).unwrap().index, 2);
        assert_eq!(
            round_at(start, start - 1),
            Err(DuelError::BeforeStart {
                now: start - 1,
                start
            })
        );
        assert!(first_close(u64::MAX - 10).is_err());
        assert!(round_window(0, u64::MAX).is_err());
    }

    proptest! {
        #[test]
        fn schedule_properties(start in 0u64..4_000_000_000, dt in 0u64..100_000_000) {
            let fc = first_close(start).unwrap();
            prop_assert_eq!(fc % ROUND_SECONDS, 0);
            prop_assert!(fc - start >= 4 * H && fc - start < 8 * H);
            let r = round_at(start, start + dt).unwrap();
            prop_assert!(r.start <= start + dt && start + dt < r.end);
            prop_assert_eq!(round_window(start, r.index).unwrap(), r);
        }
    }
}
