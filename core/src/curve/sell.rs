//! Curve sells (C19): `gross = (Φ + Q) − ceil(Φ·S / (Y + y))`, `fee = ceil(gross·τ)`,
//! `out = gross − fee`; the curve keeps `Q −= gross`, `Y += y`. Tokens can only be sold back
//! up to what the curve has sold (`y ≤ S − Y`), so `Q` never goes below zero.

use super::fee::{sell_fee_rate_pips, FEE_DENOMINATOR_PIPS};
use super::{CurveError, CurveState};
use crate::math::{checked_add, checked_sub, mul_div_up};
use alloy_primitives::U256;

/// The exact result of a sell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct SellQuote {
    /// Quote the seller receives, after the fee (rounded down).
    #[serde(with = "crate::serde_dec::u256")]
    pub quote_out: U256,
    /// Fee taken from the gross quote (rounded up).
    #[serde(with = "crate::serde_dec::u256")]
    pub fee: U256,
}

impl SellQuote {
    /// The quote leaving the curve, `quote_out + fee` (`Q` shrinks by this).
    pub fn gross(&self) -> U256 {
        self.quote_out.saturating_add(self.fee)
    }
}

/// Quotes selling `tokens_in` tokens back to the curve.
///
/// # Errors
/// [`CurveError::ZeroAmount`], [`CurveError::ExceedsSold`], [`CurveError::Graduated`],
/// [`CurveError::InvalidState`].
pub fn quote_sell(state: &CurveState, tokens_in: U256) -> Result<SellQuote, CurveError> {
    state.check_tradable()?;
    if tokens_in.is_zero() {
        return Err(CurveError::ZeroAmount("tokensIn"));
    }
    let sold = state.tokens_sold();
    if tokens_in > sold {
        return Err(CurveError::ExceedsSold { tokens_in, sold });
    }
    let new_a = mul_div_up(
        state.virtual_quote,
        state.total_supply,
        checked_add(state.token_reserve, tokens_in)?,
    )?;
    // (Φ + Q)·Y ≥ Φ·S implies Φ + Q ≥ ceil(Φ·S / (Y + y)).
    let gross = checked_sub(state.virtual_plus_raised()?, new_a)?;
    let fee = mul_div_up(
        gross,
        U256::from(sell_fee_rate_pips(state.fee_bps)),
        U256::from(FEE_DENOMINATOR_PIPS),
    )?;
    Ok(SellQuote {
        quote_out: checked_sub(gross, fee)?,
        fee,
    })
}

/// Executes a sell: the new state and the quote, refusing less than `min_quote_out`.
///
/// # Errors
/// As [`quote_sell`]; [`CurveError::SlippageExceeded`] when `quote_out < min_quote_out`.
pub fn apply_sell(
    state: &CurveState,
    tokens_in: U256,
    min_quote_out: U256,
) -> Result<(CurveState, SellQuote), CurveError> {
    let q = quote_sell(state, tokens_in)?;
    if q.quote_out < min_quote_out {
        return Err(CurveError::SlippageExceeded {
            field: "quoteOut",
            min: min_quote_out,
            actual: q.quote_out,
        });
    }
    let next = CurveState {
        quote_raised: checked_sub(state.quote_raised, q.gross())?,
        token_reserve: checked_add(state.token_reserve, tokens_in)?,
        ..*state
    };
    Ok((next, q))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::buy::apply_buy;
    use crate::math::testing::{u, E18};

    #[test]
    fn sell_back_everything_returns_net_minus_fee() {
        let s = CurveState::eth_pair(0);
        let (s1, b) = apply_buy(&s, u(E18), 20, U256::ZERO).unwrap();
        let q = quote_sell(&s1, b.tokens_out).unwrap();
        // gross = 2.24 − ceil(Φ·S / S) = 0.99 ETH; fee 1 %.
        assert_eq!(q.gross(), u(99 * E18 / 100));
        assert_eq!(q.fee, u(99 * E18 / 10_000));
        assert_eq!(q.quote_out, u(99 * E18 / 100 - 99 * E18 / 10_000));
        let (s2, _) = apply_sell(&s1, b.tokens_out, q.quote_out).unwrap();
        assert_eq!(s2, s);
    }

    #[test]
    fn errors() {
        let s = CurveState::eth_pair(0);
        assert_eq!(
            quote_sell(&s, U256::ZERO),
            Err(CurveError::ZeroAmount("tokensIn"))
        );
        assert_eq!(
            quote_sell(&s, u(1)),
            Err(CurveError::ExceedsSold {
                tokens_in: u(1),
                sold: U256::ZERO
            })
        );
        let (s1, b) = apply_buy(&s, u(E18), 20, U256::ZERO).unwrap();
        assert!(matches!(
            quote_sell(&s1, b.tokens_out + u(1)),
            Err(CurveError::ExceedsSold { .. })
        ));
        let q = quote_sell(&s1, b.tokens_out).unwrap();
        assert!(matches!(
            apply_sell(&s1, b.tokens_out, q.quote_out + u(1)),
            Err(CurveError::SlippageExceeded {
                field: "quoteOut",
                ..
            })
        ));
        let (g, _) = apply_buy(&s1, u(100 * E18), 20, U256::ZERO).unwrap();
        assert_eq!(quote_sell(&g, u(1)), Err(CurveError::Graduated));
    }
}
