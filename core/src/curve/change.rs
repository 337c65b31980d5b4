//! A curve's price change over a window (C19, issue 39's "24 h change" on each launch row).
//!
//! The spot price is `(Φ + Q)² / (Φ·S)` ([`super::metrics`]): with `Φ` and `S` fixed for a launch, it
//! depends on `Q` alone. So the price at a window's start needs only `Q` then, and that is exact from
//! the first trade inside the window: each `Bought` / `Sold` event carries `Q` *after* the trade and
//! the amounts that moved it ([`super::buy`], [`super::sell`]):
//!
//! - a buy added `quoteUsed − fee`: `Q_before = Q_after − (quoteUsed − fee)`;
//! - a sell removed `quoteOut + fee`: `Q_before = Q_after + quoteOut + fee`.
//!
//! No trade in the window: the price did not move. The change is
//! `10,000 × ((Φ + Q_now)² − (Φ + Q_then)²) / (Φ + Q_then)²` bps, rounded toward zero: a display read-out,
//! no amount moves on it.

use super::CurveError;
use crate::math::{checked_add, checked_sub, MathError, U512};
use alloy_primitives::U256;

/// `Q` before a buy whose event says `Q` became `raised_after` after `quote_used` (fee included) came in,
/// `fee` of it to the fee sink.
///
/// # Errors
/// [`CurveError::Math`] when the event's amounts cannot have produced `raised_after` (a node's answer
/// that is not a launchpad's event).
pub fn quote_raised_before_buy(
    raised_after: U256,
    quote_used: U256,
    fee: U256,
) -> Result<U256, CurveError> {
    Ok(checked_sub(raised_after, checked_sub(quote_used, fee)?)?)
}

/// `Q` before a sell whose event says `Q` became `raised_after` after `quote_out` went to the seller and
/// `fee` to the fee sink.
///
/// # Errors
/// [`CurveError::Math`] on overflow.
pub fn quote_raised_before_sell(
    raised_after: U256,
    quote_out: U256,
    fee: U256,
) -> Result<U256, CurveError> {
    Ok(checked_add(raised_after, checked_add(quote_out, fee)?)?)
}

/// The spot price's change from `Q = raised_then` to `Q = raised_now` on a curve with virtual reserve
/// `virtual_quote` (`Φ`), in bps, rounded toward zero (`+10,000` is a doubling, `−5,000` a halving).
///
/// # Errors
/// [`CurveError::Math`] when `Φ + Q_then` is zero (no price to compare with) or the change does not fit.
pub fn price_change_bps(
    virtual_quote: U256,
    raised_then: U256,
    raised_now: U256,
) -> Result<i64, CurveError> {
    let then = U512::from(checked_add(virtual_quote, raised_then)?);
    let now = U512::from(checked_add(virtual_quote, raised_now)?);
    let (then2, now2) = (then * then, now * now);
    if then2.is_zero() {
        return Err(CurveError::Math(MathError::DivisionByZero));
    }
    let (diff, up) = if now2 >= then2 {
        (now2 - then2, true)
    } else {
        (then2 - now2, false)
    };
    let bps = diff
        .checked_mul(U512::from(10_000u32))
        .ok_or(MathError::Overflow)?
        / then2;
    let bps = i64::try_from(bps).map_err(|_| MathError::Overflow)?;
    Ok(if up { bps } else { -bps })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::{apply_buy, apply_sell, spot_price_wad, CurveState};
    use crate::math::testing::{u, E18};
    use proptest::prelude::*;

    #[test]
    fn a_whole_curve_is_twenty_five_times_its_launch_price() {
        // Q from 0 to G = 4Φ: (5Φ)² / Φ² = 25, so +2,400 %; and back down, 1/25 − 1 = −96 %.
        let phi = u(3 * E18 / 2);
        let g = u(6 * E18);
        assert_eq!(price_change_bps(phi, U256::ZERO, g).unwrap(), 240_000);
        assert_eq!(price_change_bps(phi, g, U256::ZERO).unwrap(), -9_600);
        assert_eq!(price_change_bps(phi, g, g).unwrap(), 0);
    }

    #[test]
    fn rounds_toward_zero_both_ways() {
        // (Φ + 1)² / Φ² − 1 = 2/Φ + 1/Φ² of a tiny curve: Φ = 3 → 7/9 = 7,777.7… bps up; 9/16 − 1 down.
        assert_eq!(price_change_bps(u(3), U256::ZERO, u(1)).unwrap(), 7_777);
        assert_eq!(price_change_bps(u(3), u(1), U256::ZERO).unwrap(), -4_375);
    }

    #[test]
    fn no_price_to_compare_with_is_an_error() {
        assert!(price_change_bps(U256::ZERO, U256::ZERO, u(1)).is_err());
    }

    #[test]
    fn an_event_that_cannot_be_is_refused() {
        assert!(quote_raised_before_buy(u(1), u(5), u(1)).is_err());
        assert!(quote_raised_before_buy(u(1), u(1), u(5)).is_err());
    }

    proptest! {
        /// The state before a trade, recovered from what its event carries, is the state the trade was
        /// applied to; and the change agrees in sign with the curve's own spot prices.
        #[test]
        fn the_state_before_a_trade_comes_back_from_its_event(
            first in 1u64..5_000_000, second in 1u64..5_000_000, sell_part in 1u64..1_000, at in 0u64..100,
        ) {
            let fresh = CurveState::eth_pair(0);
            let Ok((before, _)) = apply_buy(&fresh, u(u128::from(first) * 1_000_000_000_000), 1_000, U256::ZERO) else {
                return Ok(());
            };
            // A buy (inside the anti-snipe window when `at` is small: its fee is part of the rule too).
            if let Ok((after, q)) = apply_buy(&before, u(u128::from(second) * 1_000_000_000_000), at, U256::ZERO) {
                prop_assert_eq!(quote_raised_before_buy(after.quote_raised, q.quote_used, q.fee).unwrap(), before.quote_raised);
                let bps = price_change_bps(fresh.virtual_quote, before.quote_raised, after.quote_raised).unwrap();
                let (p0, p1) = (spot_price_wad(&before, 18).unwrap(), spot_price_wad(&after, 18).unwrap());
                prop_assert!(bps >= 0 && (p1 >= p0));
            }
            // A sell of part of what the first buy bought.
            let sold = (before.tokens_sold() * U256::from(sell_part)) / U256::from(1_000u32);
            if let Ok((after, q)) = apply_sell(&before, sold, U256::ZERO) {
                prop_assert_eq!(quote_raised_before_sell(after.quote_raised, q.quote_out, q.fee).unwrap(), before.quote_raised);
                let bps = price_change_bps(fresh.virtual_quote, before.quote_raised, after.quote_raised).unwrap();
                prop_assert!(bps <= 0);
            }
        }
    }
}
