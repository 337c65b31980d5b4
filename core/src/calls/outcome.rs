//! A2/A3 call outcome from the entry and exit TWAP prices.
//!
//! - A3 (decided): a call is a **hit** when its direction matches the sign of `exit − entry`
//!   (up: `exit > entry`; down: `exit < entry`), a **miss** when it is the opposite sign, and
//!   **void** when `exit == entry`. A call whose exit price cannot be computed (the pool's
//!   observation buffer no longer covers `closesAt`) is also void.
//! - A2 (pinned): a commit never revealed in time is **expired** and counts as a miss; a void
//!   counts as nothing.
//!
//! Prices are WAD USDG per whole stock token (A5), taken as inputs.

use crate::math::U256;
use serde::{Deserialize, Serialize};

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

/// A3: the outcome of a revealed call from its entry TWAP and its exit TWAP at `closesAt`.
///
/// `exit = None` means the exit price cannot be computed (the observation buffer no longer
/// covers `closesAt`): the call is void. Returns `Hit`, `Miss` or `Void`, never `Expired`.
pub fn call_outcome(direction: Direction, entry: U256, exit: Option<U256>) -> CallOutcome {
    let Some(exit) = exit else {
        return CallOutcome::Void;
    };
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
            call_outcome(Direction::Up, entry, Some(entry + w(1))),
            CallOutcome::Hit
        );
        assert_eq!(
            call_outcome(Direction::Up, entry, Some(entry - w(1))),
            CallOutcome::Miss
        );
        assert_eq!(
            call_outcome(Direction::Down, entry, Some(entry - w(1))),
            CallOutcome::Hit
        );
        assert_eq!(
            call_outcome(Direction::Down, entry, Some(entry + w(1))),
            CallOutcome::Miss
        );
    }

    #[test]
    fn equal_prices_void() {
        let entry = w(150 * ONE);
        assert_eq!(
            call_outcome(Direction::Up, entry, Some(entry)),
            CallOutcome::Void
        );
        assert_eq!(
            call_outcome(Direction::Down, entry, Some(entry)),
            CallOutcome::Void
        );
        assert_eq!(
            call_outcome(Direction::Up, U256::ZERO, Some(U256::ZERO)),
            CallOutcome::Void
        );
    }

    #[test]
    fn exit_not_computable_voids() {
        assert_eq!(call_outcome(Direction::Up, w(ONE), None), CallOutcome::Void);
        assert_eq!(
            call_outcome(Direction::Down, w(ONE), None),
            CallOutcome::Void
        );
    }

    #[test]
    fn extremes() {
        assert_eq!(
            call_outcome(Direction::Up, U256::ZERO, Some(U256::MAX)),
            CallOutcome::Hit
        );
        assert_eq!(
            call_outcome(Direction::Down, U256::MAX, Some(U256::ZERO)),
            CallOutcome::Hit
        );
        assert_eq!(
            call_outcome(Direction::Down, U256::ZERO, Some(U256::MAX)),
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

    proptest! {
        #[test]
        fn opposite_directions_mirror(entry in any::<[u64; 4]>(), exit in any::<[u64; 4]>()) {
            let (entry, exit) = (U256::from_limbs(entry), U256::from_limbs(exit));
            let up = call_outcome(Direction::Up, entry, Some(exit));
            let down = call_outcome(Direction::Down, entry, Some(exit));
            match up {
                CallOutcome::Hit => prop_assert_eq!(down, CallOutcome::Miss),
                CallOutcome::Miss => prop_assert_eq!(down, CallOutcome::Hit),
                CallOutcome::Void => { prop_assert_eq!(down, CallOutcome::Void); prop_assert_eq!(entry, exit); }
                CallOutcome::Expired => prop_assert!(false, "call_outcome never returns Expired"),
            }
            // Swapping entry and exit swaps hit and miss for the same direction.
            let swapped = call_outcome(Direction::Up, exit, Some(entry));
            prop_assert_eq!(swapped, down);
        }
    }
}
