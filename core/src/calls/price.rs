//! A5 call prices from a stock token's Uniswap v3 pool against USDG (a convenience over
//! [`crate::uniswap::oracle`]; the ledger itself takes prices as inputs).
//!
//! A5 (pinned): `avgTick = (tickCumulative[t] − tickCumulative[t − 300]) / 300`, rounded toward
//! −∞, priced as `getQuoteAtTick(avgTick, 10^18, stock, USDG) × 10^12` (WAD USDG per whole stock
//! token, both token orders). Entry = the TWAP ending at reveal; exit = the TWAP ending at
//! `closesAt`, whenever it is computed. A3 (decided): when the pool's observation buffer no
//! longer covers the exit TWAP (its oldest observation is after `closesAt − 300`), the exit price
//! cannot be computed and the call is void.

use crate::math::U256;
use crate::uniswap::oracle::{twap_price_wad, OracleError, TWAP_WINDOW_SECONDS};
use alloy_primitives::Address;

/// The pool's tick cumulatives at `t − 300` and at `t` (what `observe([300, 0])` returns, in
/// that order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TickCumulatives {
    /// `tickCumulative` at `t − TWAP_WINDOW_SECONDS`.
    pub start: i64,
    /// `tickCumulative` at `t`.
    pub end: i64,
}

/// `true` when `stock` is the pool's token0 (`stock < usdg` by address).
pub fn stock_is_token0(stock: Address, usdg: Address) -> bool {
    stock < usdg
}

/// Whether a TWAP over [`TWAP_WINDOW_SECONDS`] ending at `end` can be read at `now` from a pool
/// whose oldest stored observation is at `oldest_observation`: `end ≤ now` and
/// `oldest_observation ≤ end − 300` (and `end ≥ 300`).
pub fn twap_covered(oldest_observation: u64, end: u64, now: u64) -> bool {
    match end.checked_sub(u64::from(TWAP_WINDOW_SECONDS)) {
        Some(start) => end <= now && oldest_observation <= start,
        None => false,
    }
}

/// A5: a call price (entry at reveal, or exit at `closesAt`) from the tick cumulatives 300 s
/// apart, as a WAD of USDG per whole stock token (rounded down, as the oracle quote).
///
/// # Errors
/// [`OracleError`] when the mean tick is outside the TickMath range or the quote overflows.
pub fn call_price_wad(
    cumulatives: TickCumulatives,
    stock_is_token0: bool,
) -> Result<U256, OracleError> {
    twap_price_wad(
        cumulatives.start,
        cumulatives.end,
        TWAP_WINDOW_SECONDS,
        stock_is_token0,
    )
}

/// A3/A5: the exit price, `None` (the call voids) when the observation buffer no longer covers
/// `closesAt` (`cumulatives = None`).
///
/// # Errors
/// As [`call_price_wad`].
pub fn exit_price_wad(
    cumulatives: Option<TickCumulatives>,
    stock_is_token0: bool,
) -> Result<Option<U256>, OracleError> {
    cumulatives
        .map(|c| call_price_wad(c, stock_is_token0))
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calls::{call_outcome, CallOutcome, Direction};
    use crate::uniswap::oracle::stock_price_wad;
    use proptest::prelude::*;

    /// Cumulatives of a pool that sat at `tick` for the whole window.
    fn flat(base: i64, tick: i64) -> TickCumulatives {
        TickCumulatives {
            start: base,
            end: base + 300 * tick,
        }
    }

    #[test]
    fn constant_tick_prices_at_that_tick() {
        for tick in [-887_272i32, -276_324, -230_270, -1, 0, 1, 230_270, 887_272] {
            for token0 in [true, false] {
                let p = call_price_wad(flat(123_456_789, i64::from(tick)), token0);
                assert_eq!(p, stock_price_wad(tick, token0));
            }
        }
    }

    #[test]
    fn mean_tick_rounds_toward_negative_infinity() {
        // Mean −0.5 → −1; +0.5 → 0.
        let down = TickCumulatives {
            start: 0,
            end: -150,
        };
        assert_eq!(call_price_wad(down, true), stock_price_wad(-1, true));
        let up = TickCumulatives { start: 0, end: 150 };
        assert_eq!(call_price_wad(up, true), stock_price_wad(0, true));
    }

    #[test]
    fn a_rising_pool_is_a_hit_for_up_in_either_token_order() {
        // Around $150 per token: 150 × 10^6 USDG units per 10^18 stock units.
        // Stock as token0: price rises with the tick; as token1 it falls.
        let (t_entry, t_exit) = (-225_000i64, -224_900i64);
        let entry0 = call_price_wad(flat(0, t_entry), true).unwrap();
        let exit0 = exit_price_wad(Some(flat(9_999, t_exit)), true).unwrap();
        assert!(exit0.unwrap() > entry0);
        assert_eq!(
            call_outcome(Direction::Up, entry0, exit0, 0),
            CallOutcome::Hit
        );
        let entry1 = call_price_wad(flat(0, -t_entry), false).unwrap();
        let exit1 = exit_price_wad(Some(flat(0, -t_exit)), false).unwrap();
        assert_eq!(
            call_outcome(Direction::Up, entry1, exit1, 0),
            CallOutcome::Hit
        );
        assert_eq!(
            call_outcome(Direction::Down, entry1, exit1, 0),
            CallOutcome::Miss
        );
        // Not covered: void.
        assert_eq!(exit_price_wad(None, true), Ok(None));
        assert_eq!(
            call_outcome(Direction::Up, entry0, None, 0),
            CallOutcome::Void
        );
    }

    #[test]
    fn coverage() {
        assert!(twap_covered(1_000, 1_300, 1_300));
        assert!(!twap_covered(1_001, 1_300, 1_300)); // buffer starts after closesAt − 300
        assert!(!twap_covered(0, 1_300, 1_299)); // not yet observable
        assert!(!twap_covered(0, 299, 10_000));
        assert!(twap_covered(0, 300, 300));
    }

    #[test]
    fn token_order_by_address() {
        let a = Address::repeat_byte(0x10);
        let b = Address::repeat_byte(0x20);
        assert!(stock_is_token0(a, b));
        assert!(!stock_is_token0(b, a));
    }

    proptest! {
        #[test]
        fn never_panics(start in any::<i64>(), end in any::<i64>(), token0 in any::<bool>()) {
            let _ = exit_price_wad(Some(TickCumulatives { start, end }), token0);
        }

        #[test]
        fn higher_mean_tick_is_a_higher_stock_price_when_token0(a in -887_272i64..887_272, d in 1i64..1_000) {
            let b = (a + d).min(887_272);
            prop_assume!(b > a);
            let pa = call_price_wad(flat(0, a), true).unwrap();
            let pb = call_price_wad(flat(0, b), true).unwrap();
            prop_assert!(pb >= pa);
            let qa = call_price_wad(flat(0, a), false).unwrap();
            let qb = call_price_wad(flat(0, b), false).unwrap();
            prop_assert!(qb <= qa);
        }
    }
}
