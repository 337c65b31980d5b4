//! Uniswap v4-periphery `LiquidityAmounts`: the liquidity a position gets for given token
//! amounts and a price range, rounded down (the pool never mints more liquidity than the
//! amounts pay for). Used by graduation (C20) for the full-range position.
//!
//! - `getLiquidityForAmount0 = mulDiv(amount0, mulDiv(sqrtA, sqrtB, Q96), sqrtB − sqrtA)`
//! - `getLiquidityForAmount1 = mulDiv(amount1, Q96, sqrtB − sqrtA)`
//! - in range, the minimum of amount0 over `[sqrtP, sqrtB]` and amount1 over `[sqrtA, sqrtP]`.
//!
//! `toUint128` is a checked cast in v4-periphery: a result above `u128::MAX` is an error.

use super::sqrt_price_math::{check_u160, SqrtPriceMathError, Q96};
use crate::math::mul_div_down;
use alloy_primitives::U256;

/// Why liquidity could not be computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LiquidityAmountsError {
    /// The two range bounds are equal (empty range).
    #[error("the price range is empty: sqrtPriceA == sqrtPriceB")]
    EmptyRange,
    /// The liquidity does not fit in `uint128` (`SafeCast.toUint128`).
    #[error("liquidity does not fit in uint128")]
    Overflow,
    /// A sqrt price above `type(uint160).max`.
    #[error(transparent)]
    Price(#[from] SqrtPriceMathError),
}

fn sorted(a: U256, b: U256) -> Result<(U256, U256), LiquidityAmountsError> {
    let (a, b) = (check_u160(a)?, check_u160(b)?);
    let (a, b) = if a > b { (b, a) } else { (a, b) };
    if a == b {
        return Err(LiquidityAmountsError::EmptyRange);
    }
    Ok((a, b))
}

fn to_u128(x: U256) -> Result<u128, LiquidityAmountsError> {
    u128::try_from(x).map_err(|_| LiquidityAmountsError::Overflow)
}

/// `getLiquidityForAmount0`: liquidity for `amount0` of currency0 over `[sqrtA, sqrtB]`
/// (either order), rounded down.
///
/// # Errors
/// [`LiquidityAmountsError::EmptyRange`], [`LiquidityAmountsError::Overflow`].
pub fn get_liquidity_for_amount0(
    sqrt_price_a_x96: U256,
    sqrt_price_b_x96: U256,
    amount0: U256,
) -> Result<u128, LiquidityAmountsError> {
    let (a, b) = sorted(sqrt_price_a_x96, sqrt_price_b_x96)?;
    // a, b < 2^160: the intermediate is < 2^224, and b − a > 0.
    let intermediate = mul_div_down(a, b, Q96).map_err(|_| LiquidityAmountsError::Overflow)?;
    to_u128(
        mul_div_down(amount0, intermediate, b - a).map_err(|_| LiquidityAmountsError::Overflow)?,
    )
}

/// `getLiquidityForAmount1`: liquidity for `amount1` of currency1 over `[sqrtA, sqrtB]`
/// (either order), rounded down.
///
/// # Errors
/// [`LiquidityAmountsError::EmptyRange`], [`LiquidityAmountsError::Overflow`].
pub fn get_liquidity_for_amount1(
    sqrt_price_a_x96: U256,
    sqrt_price_b_x96: U256,
    amount1: U256,
) -> Result<u128, LiquidityAmountsError> {
    let (a, b) = sorted(sqrt_price_a_x96, sqrt_price_b_x96)?;
    to_u128(mul_div_down(amount1, Q96, b - a).map_err(|_| LiquidityAmountsError::Overflow)?)
}

/// `getLiquidityForAmounts`: the most liquidity `amount0` and `amount1` can pay for over
/// `[sqrtA, sqrtB]` at the current price `sqrt_price_x96`, rounded down.
///
/// # Errors
/// As the two functions above.
pub fn get_liquidity_for_amounts(
    sqrt_price_x96: U256,
    sqrt_price_a_x96: U256,
    sqrt_price_b_x96: U256,
    amount0: U256,
    amount1: U256,
) -> Result<u128, LiquidityAmountsError> {
    let p = check_u160(sqrt_price_x96)?;
    let (a, b) = sorted(sqrt_price_a_x96, sqrt_price_b_x96)?;
    if p <= a {
        get_liquidity_for_amount0(a, b, amount0)
    } else if p < b {
        let l0 = get_liquidity_for_amount0(p, b, amount0)?;
        let l1 = get_liquidity_for_amount1(a, p, amount1)?;
        Ok(l0.min(l1))
    } else {
        get_liquidity_for_amount1(a, b, amount1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uniswap::sqrt_price_math::{get_amount0_delta, get_amount1_delta};
    use crate::uniswap::tick_math::{get_sqrt_price_at_tick, MAX_SQRT_PRICE, MIN_SQRT_PRICE};
    use proptest::prelude::*;

    fn sp(tick: i64) -> U256 {
        get_sqrt_price_at_tick(tick).unwrap()
    }

    #[test]
    fn one_to_one_price_matches_hand_derivation() {
        // Price 1 over [1/1.0001^60, 1.0001^60]-ish: amounts 1e18/1e18 give the same L either side
        // up to rounding, and the min is taken.
        let (a, b) = (sp(-60), sp(60));
        let amt = U256::from(10u128.pow(18));
        let l = get_liquidity_for_amounts(Q96, a, b, amt, amt).unwrap();
        let l0 = get_liquidity_for_amount0(Q96, b, amt).unwrap();
        let l1 = get_liquidity_for_amount1(a, Q96, amt).unwrap();
        assert_eq!(l, l0.min(l1));
        // L = amount1 × Q96 / (Q96 − a) by hand.
        let expect = amt * Q96 / (Q96 - a);
        assert_eq!(U256::from(l1), expect);
    }

    #[test]
    fn below_and_above_range_use_one_side() {
        let (a, b) = (sp(-600), sp(600));
        let amt = U256::from(1_000_000u64);
        assert_eq!(
            get_liquidity_for_amounts(sp(-700), a, b, amt, U256::ZERO),
            get_liquidity_for_amount0(a, b, amt)
        );
        assert_eq!(
            get_liquidity_for_amounts(a, a, b, amt, U256::ZERO),
            get_liquidity_for_amount0(a, b, amt)
        );
        assert_eq!(
            get_liquidity_for_amounts(b, a, b, U256::ZERO, amt),
            get_liquidity_for_amount1(a, b, amt)
        );
        assert_eq!(
            get_liquidity_for_amounts(sp(700), b, a, U256::ZERO, amt),
            get_liquidity_for_amount1(a, b, amt)
        );
    }

    #[test]
    fn errors() {
        assert_eq!(
            get_liquidity_for_amount0(Q96, Q96, U256::from(1u8)),
            Err(LiquidityAmountsError::EmptyRange)
        );
        assert_eq!(
            get_liquidity_for_amount1(MIN_SQRT_PRICE, MIN_SQRT_PRICE + U256::from(1u8), U256::MAX),
            Err(LiquidityAmountsError::Overflow)
        );
    }

    proptest! {
        /// The liquidity never needs more than the amounts given (rounded-up deltas fit).
        #[test]
        fn liquidity_is_paid_for(t in -887_272i64..887_272, w in 1i64..200_000, a0 in any::<u64>(), a1 in any::<u64>(), pt in -887_272i64..=887_272) {
            let lo = t;
            let hi = (t + w).min(887_272);
            prop_assume!(hi > lo);
            let (a, b, p) = (sp(lo), sp(hi), sp(pt));
            let (am0, am1) = (U256::from(a0), U256::from(a1));
            if let Ok(l) = get_liquidity_for_amounts(p, a, b, am0, am1) {
                let p_in = p.clamp(a, b);
                let need0 = get_amount0_delta(p_in, b, l, true).unwrap();
                let need1 = get_amount1_delta(a, p_in, l, true).unwrap();
                prop_assert!(need0 <= am0 || need0 == U256::ZERO);
                prop_assert!(need1 <= am1 || need1 == U256::ZERO);
            }
            let _ = get_liquidity_for_amounts(p, MIN_SQRT_PRICE, MAX_SQRT_PRICE, am0, am1);
        }
    }
}
