//! A2/A3 call outcome from the entry and exit TWAP prices.
//!
//! - A3 (decided): a call is a **hit** when its direction matches the sign of `exit − entry`
//!   (up: `exit > entry`; down: `exit < entry`), a **miss** when it is the opposite sign, and
//!   **void** when `exit == entry`. A call whose exit price cannot be computed (the pool's
//!   observation buffer no longer covers `closesAt`) is also void.
//! - A3 band (decided after the second review): the move must also cover the call's band,
//!   `|exit − entry| ≥ ⌈entry · band / 10⁶⌉` ([`band_threshold_up`]), else the call is void. A
//!   pool-priced call's band is its pool's fee in pips, at least [`MIN_BAND_PIPS`] (a push smaller
//!   than the fee is never arbitraged back, so without the band an agent holds the exit mean one
//!   tick its way for the cost of that fee); a call on pushed prices has a band of zero. Mirrors
//!   `CallMath.outcomeOf`.
//! - A2 (pinned): a commit never revealed in time is **expired** and counts as a miss; a void
//!   counts as nothing.
//!
//! Prices are WAD USDG per whole stock token (A5), taken as inputs.

use crate::math::{mul_div_up, U256};
use serde::{Deserialize, Serialize};

/// A3: the narrowest band of a pool-priced call, in pips (100 = 0.01 %, about one tick), for a pool
/// whose fee is lower (`CallLedger.MIN_BAND_PIPS`).
pub const MIN_BAND_PIPS: u32 = 100;

/// A3: the band of a call priced by a pool with swap fee `fee_pips`: `max(fee, MIN_BAND_PIPS)`.
pub const fn pool_band_pips(fee_pips: u32) -> u32 {
    if fee_pips > MIN_BAND_PIPS {
        fee_pips
    } else {
        MIN_BAND_PIPS
    }
}

/// A3: the smallest move from `entry` a call with band `band_pips` must make to be decided,
/// `⌈entry · band / 10⁶⌉`, rounded **up** (a move must cover the whole band). `U256::MAX` if it does
/// not fit (no move then decides).
pub fn band_threshold_up(entry: U256, band_pips: u32) -> U256 {
    mul_div_up(entry, U256::from(band_pips), U256::from(1_000_000u32)).unwrap_or(U256::MAX)
}

/// The direction an agent calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Direction {
    /// The price will be higher at `closesAt` than at reveal.
    Up,
    /// The price will be lower at `closesAt` than at reveal.
    Down,
}

impl Direction {
    /// The commitment code (`uint8`): `Down = 0`, `Up = 1` (ABI-identical to `bool up`).
    pub const fn code(self) -> u8 {
        match self {
            Direction::Down => 0,
            Direction::Up => 1,
        }
    }

    /// `Up` for `true`, `Down` for `false`.
    pub const fn from_up(up: bool) -> Self {
        if up {
            Direction::Up
        } else {
            Direction::Down
        }
    }

    /// The other direction.
    pub const fn opposite(self) -> Self {
        match self {
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
        }
    }

    /// `"up"` or `"down"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Down => "down",
        }
    }

    /// A consensus side in words: `"up"`, `"down"`, or `"no side"` on a tie or without votes.
    pub const fn side_name(side: Option<Direction>) -> &'static str {
        match side {
            Some(d) => d.as_str(),
            None => "no side",
        }
    }
}

impl std::str::FromStr for Direction {
    type Err = String;
    /// Parses `"up"` / `"down"` (any case, surrounding spaces ignored).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "up" => Ok(Direction::Up),
            "down" => Ok(Direction::Down),
            _ => Err(format!("expected \"up\" or \"down\", got '{s}'")),
        }
    }
}

/// How a call ended (A2/A3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum CallOutcome {
    /// The direction matched the sign of `exit − entry`.
    Hit,
    /// The direction was the opposite of the sign of `exit − entry`.
    Miss,
    /// `exit == entry`, or the exit price could not be computed: counts as nothing.
    Void,
    /// The commit was never revealed in time: counts as a miss.
    Expired,
}

impl CallOutcome {
    /// A2: whether this outcome adds to the agent's misses (a miss or an expired commit).
    pub const fn counts_as_miss(self) -> bool {
        matches!(self, CallOutcome::Miss | CallOutcome::Expired)
    }

    /// `"hit"`, `"miss"`, `"void"` or `"expired"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            CallOutcome::Hit => "hit",
            CallOutcome::Miss => "miss",
            CallOutcome::Void => "void",
            CallOutcome::Expired => "expired",
        }
    }
}

/// A3: the outcome of a revealed call from its entry TWAP and its exit TWAP at `closesAt`, with the
/// call's band in pips (0 on pushed prices, [`pool_band_pips`] of its pool's fee otherwise).
///
/// `exit = None` means the exit price cannot be computed (the observation buffer no longer
/// covers `closesAt`): the call is void. Returns `Hit`, `Miss` or `Void`, never `Expired`.
pub fn call_outcome(
    direction: Direction,
    entry: U256,
    exit: Option<U256>,
    band_pips: u32,
) -> CallOutcome {
    let Some(exit) = exit else {
        return CallOutcome::Void;
    };
    let moved = exit.abs_diff(entry);
    if moved < band_threshold_up(entry, band_pips) {
        return CallOutcome::Void;
    }
    match (direction, exit.cmp(&entry)) {
        (_, std::cmp::Ordering::Equal) => CallOutcome::Void,
        (Direction::Up, std::cmp::Ordering::Greater)
        | (Direction::Down, std::cmp::Ordering::Less) => CallOutcome::Hit,
        _ => CallOutcome::Miss,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::testing::{u as w, E18 as ONE};
    use proptest::prelude::*;

    #[test]
    fn up_and_down() {
        let entry = w(150 * ONE);
        assert_eq!(
            call_outcome(Direction::Up, entry, Some(entry + w(1)), 0),
            CallOutcome::Hit
        );
        assert_eq!(
            call_outcome(Direction::Up, entry, Some(entry - w(1)), 0),
            CallOutcome::Miss
        );
        assert_eq!(
            call_outcome(Direction::Down, entry, Some(entry - w(1)), 0),
            CallOutcome::Hit
        );
        assert_eq!(
            call_outcome(Direction::Down, entry, Some(entry + w(1)), 0),
            CallOutcome::Miss
        );
    }

    #[test]
    fn equal_prices_void() {
        let entry = w(150 * ONE);
        assert_eq!(
            call_outcome(Direction::Up, entry, Some(entry), 0),
            CallOutcome::Void
        );
        assert_eq!(
            call_outcome(Direction::Down, entry, Some(entry), 0),
            CallOutcome::Void
        );
        assert_eq!(
            call_outcome(Direction::Up, U256::ZERO, Some(U256::ZERO), 0),
            CallOutcome::Void
        );
    }

    #[test]
    fn exit_not_computable_voids() {
        assert_eq!(
            call_outcome(Direction::Up, w(ONE), None, 0),
            CallOutcome::Void
        );
        assert_eq!(
            call_outcome(Direction::Down, w(ONE), None, 0),
            CallOutcome::Void
        );
    }

    #[test]
    fn extremes() {
        assert_eq!(
            call_outcome(Direction::Up, U256::ZERO, Some(U256::MAX), 0),
            CallOutcome::Hit
        );
        assert_eq!(
            call_outcome(Direction::Down, U256::MAX, Some(U256::ZERO), 0),
            CallOutcome::Hit
        );
        assert_eq!(
            call_outcome(Direction::Down, U256::ZERO, Some(U256::MAX), 0),
            CallOutcome::Miss
        );
    }

    #[test]
    fn expired_and_miss_count_as_misses() {
        assert!(CallOutcome::Expired.counts_as_miss());
        assert!(CallOutcome::Miss.counts_as_miss());
        assert!(!CallOutcome::Hit.counts_as_miss());
        assert!(!CallOutcome::Void.counts_as_miss());
    }

    #[test]
    fn direction_codes_and_parsing() {
        assert_eq!(Direction::Up.code(), 1);
        assert_eq!(Direction::Down.code(), 0);
        assert_eq!("UP".parse::<Direction>(), Ok(Direction::Up));
        assert_eq!(" down ".parse::<Direction>(), Ok(Direction::Down));
        assert!("sideways".parse::<Direction>().is_err());
        assert_eq!(Direction::from_up(true).opposite(), Direction::Down);
    }

    /// The second review's attack: a 0.3 % pool, the exit TWAP one tick (≈ 0.01 %) past the entry.
    #[test]
    fn a_move_inside_the_band_is_void() {
        let entry = w(100 * ONE);
        let one_tick = entry + entry / w(10_000);
        let band = pool_band_pips(3_000);
        assert_eq!(band, 3_000);
        assert_eq!(band_threshold_up(entry, band), w(3 * ONE / 10));
        assert_eq!(
            call_outcome(Direction::Up, entry, Some(one_tick), band),
            CallOutcome::Void
        );
        // Exactly the band decides; one wei less does not.
        let at_band = entry + w(3 * ONE / 10);
        assert_eq!(
            call_outcome(Direction::Up, entry, Some(at_band), band),
            CallOutcome::Hit
        );
        assert_eq!(
            call_outcome(Direction::Down, entry, Some(at_band), band),
            CallOutcome::Miss
        );
        assert_eq!(
            call_outcome(Direction::Up, entry, Some(at_band - w(1)), band),
            CallOutcome::Void
        );
        // A pool cheaper than the floor still has the floor's band; the threshold rounds up.
        assert_eq!(pool_band_pips(500), 500);
        assert_eq!(pool_band_pips(100), MIN_BAND_PIPS);
        assert_eq!(pool_band_pips(0), MIN_BAND_PIPS);
        assert_eq!(band_threshold_up(w(1), 1), w(1));
        assert_eq!(band_threshold_up(w(1), 0), U256::ZERO);
    }

    proptest! {
        /// Inside the band a call is void whatever its direction; outside it the band changes nothing.
        #[test]
        fn the_band_only_voids(entry in any::<u128>(), exit in any::<u128>(), band in 0u32..=16_777_215) {
            let (entry, exit) = (U256::from(entry), U256::from(exit));
            let banded = call_outcome(Direction::Up, entry, Some(exit), band);
            let bare = call_outcome(Direction::Up, entry, Some(exit), 0);
            if exit.abs_diff(entry) < band_threshold_up(entry, band) {
                prop_assert_eq!(banded, CallOutcome::Void);
                prop_assert_eq!(call_outcome(Direction::Down, entry, Some(exit), band), CallOutcome::Void);
            } else {
                prop_assert_eq!(banded, bare);
            }
        }

        #[test]
        fn opposite_directions_mirror(entry in any::<[u64; 4]>(), exit in any::<[u64; 4]>()) {
            let (entry, exit) = (U256::from_limbs(entry), U256::from_limbs(exit));
            let up = call_outcome(Direction::Up, entry, Some(exit), 0);
            let down = call_outcome(Direction::Down, entry, Some(exit), 0);
            match up {
                CallOutcome::Hit => prop_assert_eq!(down, CallOutcome::Miss),
                CallOutcome::Miss => prop_assert_eq!(down, CallOutcome::Hit),
                CallOutcome::Void => { prop_assert_eq!(down, CallOutcome::Void); prop_assert_eq!(entry, exit); }
                CallOutcome::Expired => prop_assert!(false, "call_outcome never returns Expired"),
            }
            // Swapping entry and exit swaps hit and miss for the same direction.
            let swapped = call_outcome(Direction::Up, exit, Some(entry), 0);
            prop_assert_eq!(swapped, down);
        }
    }
}
