//! Curve buys (C19): anti-snipe fee, exact tokens out, the graduation clamp with refund.
//!
//! Buying with `x` quote `t` seconds after launch: `f = max(τ, τ_snipe(t))` (see [`super::fee`]),
//! `fee = ceil(x·f)`, `net = x − fee`, `tokensOut = Y − ceil(Φ·S / (Φ + Q + net))`; the curve
//! keeps `Q += net`, `Y −= tokensOut`.
//!
//! **Graduation clamp** (when `net ≥ G − Q`): `Q` lands exactly on `G` and the buyer gets the
//! rest of the sellable supply, `tokensOut = Y − ceil(S/5)`. Decided: the quote *used* is the
//! smallest gross amount whose net after its own fee is exactly `G − Q`:
//! `used = ceil((G − Q) × 10^6 / (10^6 − f))`, so `fee = used − (G − Q) = ceil(used·f)` exactly
//! (the fee is charged only on the used part) and `refund = x − used`. Hence
//! `used + refund = x`, `Q` never exceeds `G`, and the fee rule is the same formula as an
//! unclamped buy of `used`.

use super::fee::{buy_fee_rate_pips, FEE_DENOMINATOR_PIPS};
use super::{CurveError, CurveState};
use crate::math::{checked_add, checked_sub, mul_div_up};
use alloy_primitives::U256;

/// The exact result of a buy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct BuyQuote {
    /// Tokens the buyer receives (rounded down).
    #[serde(with = "crate::serde_dec::u256")]
    pub tokens_out: U256,
    /// Fee taken from the used quote (rounded up).
    #[serde(with = "crate::serde_dec::u256")]
    pub fee: U256,
    /// Quote actually spent, fee included (`quote_in − refund`).
    #[serde(with = "crate::serde_dec::u256")]
    pub quote_used: U256,
    /// Quote returned because the buy hit the graduation target.
    #[serde(with = "crate::serde_dec::u256")]
    pub refund: U256,
    /// `true` when this buy takes `Q` to exactly `G`.
    pub graduates: bool,
}

impl BuyQuote {
    /// The quote that enters the curve, `quote_used − fee` (`Q` grows by this).
    pub fn quote_to_curve(&self) -> U256 {
        self.quote_used.saturating_sub(self.fee)
    }
}

/// Quotes a buy of `quote_in` quote, `seconds_since_launch` after launch.
///
/// # Errors
/// [`CurveError::ZeroAmount`] for `quote_in == 0`, [`CurveError::Graduated`],
/// [`CurveError::InvalidState`] for a state the curve cannot be in, [`CurveError::Math`] on
/// absurd values.
pub fn quote_buy(
    state: &CurveState,
    quote_in: U256,
    seconds_since_launch: u64,
) -> Result<BuyQuote, CurveError> {
    state.check_tradable()?;
    if quote_in.is_zero() {
        return Err(CurveError::ZeroAmount("quoteIn"));
    }
    let f = U256::from(buy_fee_rate_pips(state.fee_bps, seconds_since_launch));
    let d = U256::from(FEE_DENOMINATOR_PIPS);
    let fee = mul_div_up(quote_in, f, d)?;
    let net = checked_sub(quote_in, fee)?;
    let room = checked_sub(state.graduation_target()?, state.quote_raised)?;
    if net >= room {
        // f < 10^6 (validated fee < 100 %, tax ≤ 99 %): d − f > 0.
        let used = mul_div_up(room, d, checked_sub(d, f)?)?;
        let graduation_reserve = state.graduation_reserve()?;
        return Ok(BuyQuote {
            tokens_out: checked_sub(state.token_reserve, graduation_reserve)?,
            fee: checked_sub(used, room)?,
            quote_used: used,
            refund: checked_sub(quote_in, used)?,
            graduates: true,
        });
    }
    let new_reserve = mul_div_up(
        state.virtual_quote,
        state.total_supply,
        checked_add(state.virtual_plus_raised()?, net)?,
    )?;
    Ok(BuyQuote {
        tokens_out: checked_sub(state.token_reserve, new_reserve)?,
        fee,
        quote_used: quote_in,
        refund: U256::ZERO,
        graduates: false,
    })
}

/// Executes a buy: the new state and the quote, refusing fewer than `min_tokens_out` tokens.
///
/// # Errors
/// As [`quote_buy`]; [`CurveError::SlippageExceeded`] when `tokens_out < min_tokens_out`.
pub fn apply_buy(
    state: &CurveState,
    quote_in: U256,
    seconds_since_launch: u64,
    min_tokens_out: U256,
) -> Result<(CurveState, BuyQuote), CurveError> {
    let q = quote_buy(state, quote_in, seconds_since_launch)?;
    if q.tokens_out < min_tokens_out {
        return Err(CurveError::SlippageExceeded {
            field: "tokensOut",
            min: min_tokens_out,
            actual: q.tokens_out,
        });
    }
    let next = CurveState {
        quote_raised: checked_add(state.quote_raised, q.quote_to_curve())?,
        token_reserve: checked_sub(state.token_reserve, q.tokens_out)?,
        ..*state
    };
    Ok((next, q))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::state::{DEFAULT_TOTAL_SUPPLY, ETH_GRADUATION_TARGET};
    use crate::math::testing::{u, E18};

    #[test]
    fn plain_buy_after_the_snipe_window() {
        let s = CurveState::eth_pair(0);
        // 1 ETH at t = 15: fee 1 % = 0.01 ETH, net 0.99 ETH.
        let q = quote_buy(&s, u(E18), 15).unwrap();
        assert_eq!(q.fee, u(E18 / 100));
        assert_eq!(
            (q.quote_used, q.refund, q.graduates),
            (u(E18), U256::ZERO, false)
        );
        // tokensOut = S − ceil(1.25 × S / 2.24) = 1e27 − ceil(558035714285714285714285714.28…)
        let expect_reserve = mul_div_up(
            s.virtual_quote,
            s.total_supply,
            u(2_240_000_000_000_000_000),
        )
        .unwrap();
        assert_eq!(
            expect_reserve,
            U256::from_str_radix("558035714285714285714285715", 10).unwrap()
        );
        assert_eq!(q.tokens_out, DEFAULT_TOTAL_SUPPLY - expect_reserve);
        assert_eq!(q.tokens_out.to_string(), "441964285714285714285714285");
    }

    #[test]
    fn anti_snipe_tax_at_launch() {
        let s = CurveState::eth_pair(0);
        let q0 = quote_buy(&s, u(E18), 0).unwrap();
        assert_eq!(q0.fee, u(99 * E18 / 100)); // 99 %
        let q5 = quote_buy(&s, u(E18), 5).unwrap();
        assert_eq!(q5.fee, u(66 * E18 / 100)); // 66 %
        let q14 = quote_buy(&s, u(E18), 14).unwrap();
        assert_eq!(q14.fee, u(66 * E18 / 1000)); // 6.6 %
        assert!(q0.tokens_out < q5.tokens_out && q5.tokens_out < q14.tokens_out);
        // A fee that is not a whole number of wei rounds up.
        assert_eq!(quote_buy(&s, u(101), 15).unwrap().fee, u(2));
    }

    #[test]
    fn exact_graduation_sells_eighty_percent() {
        let s = CurveState::eth_pair(0);
        // Net exactly G = 5 ETH at 1 %: gross = ceil(5e18 / 0.99).
        let gross = mul_div_up(ETH_GRADUATION_TARGET, u(1_000_000), u(990_000)).unwrap();
        assert_eq!(gross.to_string(), "5050505050505050506");
        let (next, q) = apply_buy(&s, gross, 100, U256::ZERO).unwrap();
        assert!(q.graduates);
        assert_eq!(q.refund, U256::ZERO);
        assert_eq!(q.tokens_out, DEFAULT_TOTAL_SUPPLY * u(4) / u(5)); // 80 % of supply
        assert_eq!(next.quote_raised, ETH_GRADUATION_TARGET);
        assert_eq!(next.token_reserve, DEFAULT_TOTAL_SUPPLY / u(5));
        assert!(next.is_graduated());
        assert_eq!(quote_buy(&next, u(1), 100), Err(CurveError::Graduated));
    }

    #[test]
    fn crossing_buy_is_clamped_and_refunded() {
        let s = CurveState::eth_pair(0);
        let (s1, _) = apply_buy(&s, u(3 * E18), 20, U256::ZERO).unwrap();
        let x = u(10 * E18);
        let q = quote_buy(&s1, x, 20).unwrap();
        assert!(q.graduates);
        assert_eq!(q.quote_used + q.refund, x);
        let room = ETH_GRADUATION_TARGET - s1.quote_raised;
        assert_eq!(q.quote_used - q.fee, room);
        // The fee is exactly ceil(used × 1 %), charged on the used part only.
        assert_eq!(
            q.fee,
            mul_div_up(q.quote_used, u(10_000), u(1_000_000)).unwrap()
        );
        assert_eq!(q.tokens_out, s1.token_reserve - DEFAULT_TOTAL_SUPPLY / u(5));
        // One wei less than `used` would not graduate.
        let below = quote_buy(&s1, q.quote_used - u(1), 20).unwrap();
        assert!(!below.graduates);
        let (s2, _) = apply_buy(&s1, x, 20, U256::ZERO).unwrap();
        assert_eq!(s2.quote_raised, ETH_GRADUATION_TARGET);
    }

    #[test]
    fn crossing_during_the_snipe_window_uses_the_tax_rate() {
        let s = CurveState::eth_pair(0);
        let x = u(1_000 * E18);
        let q = quote_buy(&s, x, 0).unwrap();
        assert!(q.graduates);
        // used = ceil(5e18 / 0.01) = 500 ETH, fee 495 ETH, refund 500 ETH.
        assert_eq!(q.quote_used, u(500 * E18));
        assert_eq!(q.fee, u(495 * E18));
        assert_eq!(q.refund, u(500 * E18));
    }

    #[test]
    fn errors() {
        let s = CurveState::eth_pair(0);
        assert_eq!(
            quote_buy(&s, U256::ZERO, 20),
            Err(CurveError::ZeroAmount("quoteIn"))
        );
        let q = quote_buy(&s, u(E18), 20).unwrap();
        assert_eq!(
            apply_buy(&s, u(E18), 20, q.tokens_out + u(1)),
            Err(CurveError::SlippageExceeded {
                field: "tokensOut",
                min: q.tokens_out + u(1),
                actual: q.tokens_out
            })
        );
        assert!(apply_buy(&s, u(E18), 20, q.tokens_out).is_ok());
        assert!(quote_buy(
            &CurveState {
                fee_bps: 10_000,
                ..s
            },
            u(E18),
            20
        )
        .is_err());
        assert!(quote_buy(&s, U256::MAX, 20).unwrap().graduates);
    }
}
