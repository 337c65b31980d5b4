//! Inverse quotes for a trading UI (C19), exact and curve-favourable.
//!
//! - [`quote_in_for_tokens_out`]: the smallest `quoteIn` whose [`quote_buy`] gives at least
//!   `tokens` (`net = max(0, ceil(Φ·S / (Y − tokens)) − (Φ + Q))`, then the smallest gross with
//!   `gross − ceil(gross·f) ≥ net`, i.e. `ceil(net × 10^6 / (10^6 − f))`).
//! - [`tokens_in_for_quote_out`]: the smallest `tokensIn` whose [`quote_sell`] gives at least
//!   `quote_out` (`gross = ceil(out × 10^6 / (10^6 − τ))`, then
//!   `y = ceil(Φ·S / (Φ + Q − gross)) − Y`).
//!
//! Both are at least 1 (a trade of zero is refused).
//!
//! [`quote_buy`]: super::quote_buy
//! [`quote_sell`]: super::quote_sell

use super::fee::{buy_fee_rate_pips, sell_fee_rate_pips, FEE_DENOMINATOR_PIPS};
use super::{CurveError, CurveState};
use crate::math::{checked_sub, mul_div_up};
use alloy_primitives::U256;

/// The smallest quote that buys at least `tokens_out` tokens `seconds_since_launch` after
/// launch (the buy may then graduate; the forward quote tells).
///
/// # Errors
/// [`CurveError::ZeroAmount`], [`CurveError::Graduated`], [`CurveError::ExceedsSellable`]
/// when `tokens_out > Y − S/5`, [`CurveError::InvalidState`].
pub fn quote_in_for_tokens_out(
    state: &CurveState,
    tokens_out: U256,
    seconds_since_launch: u64,
) -> Result<U256, CurveError> {
    state.check_tradable()?;
    if tokens_out.is_zero() {
        return Err(CurveError::ZeroAmount("tokensOut"));
    }
    let available = checked_sub(state.token_reserve, state.graduation_reserve()?)?;
    if tokens_out > available {
        return Err(CurveError::ExceedsSellable {
            tokens_out,
            available,
        });
    }
    // Y − tokens ≥ ceil(S/5) > 0.
    let target_reserve = state.token_reserve - tokens_out;
    let a_needed = mul_div_up(state.virtual_quote, state.total_supply, target_reserve)?;
    let room = checked_sub(state.graduation_target()?, state.quote_raised)?;
    let net = a_needed
        .saturating_sub(state.virtual_plus_raised()?)
        .min(room);
    let f = U256::from(buy_fee_rate_pips(state.fee_bps, seconds_since_launch));
    let d = U256::from(FEE_DENOMINATOR_PIPS);
    let gross = mul_div_up(net, d, checked_sub(d, f)?)?;
    Ok(gross.max(U256::from(1u8)))
}

/// The smallest number of tokens whose sale returns at least `quote_out` (after the fee).
///
/// # Errors
/// [`CurveError::ZeroAmount`], [`CurveError::Graduated`], [`CurveError::ExceedsRaised`] when
/// even selling every sold token would not give `quote_out`, [`CurveError::InvalidState`].
pub fn tokens_in_for_quote_out(state: &CurveState, quote_out: U256) -> Result<U256, CurveError> {
    state.check_tradable()?;
    if quote_out.is_zero() {
        return Err(CurveError::ZeroAmount("quoteOut"));
    }
    let tau = U256::from(sell_fee_rate_pips(state.fee_bps));
    let d = U256::from(FEE_DENOMINATOR_PIPS);
    let gross = mul_div_up(quote_out, d, checked_sub(d, tau)?)?;
    // Selling all S − Y sold tokens gives gross (Φ + Q) − ceil(Φ·S/S) = Q at most.
    if gross > state.quote_raised {
        return Err(CurveError::ExceedsRaised {
            quote_out,
            raised: state.quote_raised,
        });
    }
    // Φ + Q − gross ≥ Φ > 0.
    let a_after = state.virtual_plus_raised()? - gross;
    let reserve_needed = mul_div_up(state.virtual_quote, state.total_supply, a_after)?;
    Ok(reserve_needed
        .saturating_sub(state.token_reserve)
        .max(U256::from(1u8)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::{apply_buy, quote_buy, quote_sell};
    use crate::math::testing::{u, E18};

    #[test]
    fn buy_inverse_is_tight() {
        let s = CurveState::eth_pair(0);
        for (tokens, t) in [
            (u(1), 20),
            (u(E18), 20),
            (u(100_000_000 * E18), 3),
            (u(800_000_000 * E18), 20),
        ] {
            let x = quote_in_for_tokens_out(&s, tokens, t).unwrap();
            assert!(quote_buy(&s, x, t).unwrap().tokens_out >= tokens);
            if x > u(1) {
                assert!(quote_buy(&s, x - u(1), t).unwrap().tokens_out < tokens);
            }
        }
        // Exactly the whole sellable remainder is the graduation buy.
        let x = quote_in_for_tokens_out(&s, u(800_000_000 * E18), 20).unwrap();
        assert_eq!(x.to_string(), "5050505050505050506");
        assert!(quote_buy(&s, x, 20).unwrap().graduates);
        assert!(matches!(
            quote_in_for_tokens_out(&s, u(800_000_000 * E18 + 1), 20),
            Err(CurveError::ExceedsSellable { .. })
        ));
        assert_eq!(
            quote_in_for_tokens_out(&s, U256::ZERO, 20),
            Err(CurveError::ZeroAmount("tokensOut"))
        );
    }

    #[test]
    fn sell_inverse_is_tight() {
        let s = CurveState::eth_pair(0);
        let (s1, _) = apply_buy(&s, u(2 * E18), 20, U256::ZERO).unwrap();
        for want in [u(1), u(E18 / 3), u(E18)] {
            let y = tokens_in_for_quote_out(&s1, want).unwrap();
            assert!(quote_sell(&s1, y).unwrap().quote_out >= want);
            if y > u(1) {
                assert!(quote_sell(&s1, y - u(1)).unwrap().quote_out < want);
            }
        }
        // Q = 1.98 ETH; the most a seller can get is 99 % of it.
        assert!(tokens_in_for_quote_out(&s1, u(198 * E18 / 100 * 99 / 100)).is_ok());
        assert!(matches!(
            tokens_in_for_quote_out(&s1, u(2 * E18)),
            Err(CurveError::ExceedsRaised { .. })
        ));
        assert_eq!(
            tokens_in_for_quote_out(&s1, U256::ZERO),
            Err(CurveError::ZeroAmount("quoteOut"))
        );
    }
}
