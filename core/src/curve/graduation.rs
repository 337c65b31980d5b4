//! Graduation (C20): the Uniswap v4 pool a curve graduates into.
//!
//! At `Q = G` the curve holds `Y = S/5` tokens. The pool is seeded at the curve's last price
//! with `G` quote and the matching `0.16·S` tokens; `0.04·S` is locked forever. The curve's
//! last marginal price `(Φ + G)² / (Φ·S) = 25Φ / S` equals `G / 0.16·S` exactly, so the pool
//! opens where the curve stopped. Every launch on a pair graduates with the same amounts and
//! price, whatever path the buys took.
//!
//! - currencies: `currency0 < currency1` by address; native ETH (address 0) is always
//!   currency0.
//! - `sqrtPriceX96 = isqrt(amount1 × 2^192 / amount0)` exactly (512-bit intermediate, floor
//!   division then floor square root, which equals `floor(sqrt(amount1/amount0) × 2^96)`), and
//!   it must lie in v4's `[MIN_SQRT_PRICE, MAX_SQRT_PRICE)`.
//! - the position is full range for the pool's tick spacing (`minUsableTick`,
//!   `maxUsableTick`), with `LiquidityAmounts.getLiquidityForAmounts` (rounded down).
//!
//! Decided: `S` must be a multiple of 25 so `0.16·S` and `0.04·S` are whole (true of the
//! default); the tick spacing is a parameter ([`DEFAULT_TICK_SPACING`] = 60 is a placeholder).

use super::{CurveError, CurveState};
use crate::uniswap::liquidity_amounts::{get_liquidity_for_amounts, LiquidityAmountsError};
use crate::uniswap::tick_math::{
    get_sqrt_price_at_tick, MAX_SQRT_PRICE, MAX_TICK, MIN_SQRT_PRICE, MIN_TICK,
};
use alloy_primitives::{Address, U256, U512};

/// Share of `S` seeded into the pool, in percent (0.16·S).
pub const POOL_SUPPLY_PERCENT: u64 = 16;
/// Share of `S` locked forever, in percent (0.04·S).
pub const LOCKED_SUPPLY_PERCENT: u64 = 4;
/// **Placeholder** tick spacing of the graduation pool (a parameter everywhere).
pub const DEFAULT_TICK_SPACING: i32 = 60;
/// v4 `TickMath.MIN_TICK_SPACING`.
pub const MIN_TICK_SPACING: i32 = 1;
/// v4 `TickMath.MAX_TICK_SPACING`.
pub const MAX_TICK_SPACING: i32 = 32_767;

/// Why a graduation pool could not be described.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GraduationError {
    /// The curve state is invalid.
    #[error(transparent)]
    Curve(#[from] CurveError),
    /// A zero amount where the price needs both.
    #[error("{0} must be greater than zero")]
    ZeroAmount(&'static str),
    /// The price is outside what a v4 pool accepts.
    #[error("sqrtPriceX96 {0} is outside the v4 range [4295128739, 1461446703485210103287273052203988822378723970342)")]
    SqrtPriceOutOfRange(U256),
    /// `S` is not a multiple of 25.
    #[error("totalSupply {0} must be a multiple of 25 so that 16 % and 4 % of it are whole")]
    SupplyNotMultipleOf25(U256),
    /// The token and quote currencies are the same, or the token is the zero address.
    #[error("invalid currencies: {0}")]
    InvalidCurrencies(&'static str),
    /// A tick spacing outside `[1, 32767]`.
    #[error("tickSpacing {0} must be in [1, 32767]")]
    InvalidTickSpacing(i32),
    /// The liquidity computation failed.
    #[error(transparent)]
    Liquidity(#[from] LiquidityAmountsError),
}

/// The token and quote amounts at graduation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct GraduationAmounts {
    /// `G`, all quote raised.
    #[serde(with = "crate::serde_dec::u256")]
    pub quote: U256,
    /// `0.16·S`, the tokens seeded into the pool.
    #[serde(with = "crate::serde_dec::u256")]
    pub tokens_to_pool: U256,
    /// `0.04·S`, locked forever.
    #[serde(with = "crate::serde_dec::u256")]
    pub tokens_locked: U256,
}

/// The graduation pool and its full-range position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct GraduationPool {
    /// The lower-address currency (native ETH when the pair is ETH).
    #[serde(with = "crate::serde_dec::checksum")]
    pub currency0: Address,
    /// The higher-address currency.
    #[serde(with = "crate::serde_dec::checksum")]
    pub currency1: Address,
    /// `true` when the quote currency is currency0.
    pub quote_is_currency0: bool,
    /// Amount of currency0 seeded.
    #[serde(with = "crate::serde_dec::u256")]
    pub amount0: U256,
    /// Amount of currency1 seeded.
    #[serde(with = "crate::serde_dec::u256")]
    pub amount1: U256,
    /// The opening price, `isqrt(amount1 × 2^192 / amount0)`.
    #[serde(with = "crate::serde_dec::u256")]
    pub sqrt_price_x96: U256,
    /// `minUsableTick(tickSpacing)`.
    #[serde(with = "crate::serde_dec::int")]
    pub tick_lower: i32,
    /// `maxUsableTick(tickSpacing)`.
    #[serde(with = "crate::serde_dec::int")]
    pub tick_upper: i32,
    /// The full-range liquidity those amounts buy (rounded down).
    #[serde(with = "crate::serde_dec::u128_dec")]
    #[cfg_attr(feature = "js", tsify(type = "string"))]
    pub liquidity: u128,
    /// Tokens locked forever outside the pool (`0.04·S`).
    #[serde(with = "crate::serde_dec::u256")]
    pub tokens_locked: U256,
}

/// `floor(sqrt(n))`, exact (Newton's method from above, integers only).
pub fn isqrt_u512(n: U512) -> U512 {
    if n.is_zero() {
        return U512::ZERO;
    }
    // n < 2^bits, so sqrt(n) < 2^ceil(bits/2) = x: start above the root.
    let mut x = U512::from(1u8) << n.bit_len().div_ceil(2);
    loop {
        // x ≤ 2^256 and n / x < 2^512 / x: the sum cannot overflow.
        let y = (x + n / x) >> 1;
        if y >= x {
            return x;
        }
        x = y;
    }
}

/// The graduation amounts of a curve: `G`, `0.16·S`, `0.04·S`.
///
/// # Errors
/// [`GraduationError::Curve`] for an invalid state, [`GraduationError::SupplyNotMultipleOf25`].
pub fn graduation_amounts(state: &CurveState) -> Result<GraduationAmounts, GraduationError> {
    state.validate()?;
    let s = state.total_supply;
    let twenty_five = U256::from(25u8);
    if !(s % twenty_five).is_zero() {
        return Err(GraduationError::SupplyNotMultipleOf25(s));
    }
    let unit = s / twenty_five; // 4 % of S
    Ok(GraduationAmounts {
        quote: state.graduation_target()?,
        tokens_to_pool: unit * U256::from(POOL_SUPPLY_PERCENT / LOCKED_SUPPLY_PERCENT),
        tokens_locked: unit,
    })
}

/// `sqrtPriceX96 = isqrt(amount1 × 2^192 / amount0)`, exact.
///
/// # Errors
/// [`GraduationError::ZeroAmount`] for a zero amount, [`GraduationError::SqrtPriceOutOfRange`]
/// outside `[MIN_SQRT_PRICE, MAX_SQRT_PRICE)`.
pub fn graduation_sqrt_price_x96(amount0: U256, amount1: U256) -> Result<U256, GraduationError> {
    if amount0.is_zero() {
        return Err(GraduationError::ZeroAmount("amount0"));
    }
    if amount1.is_zero() {
        return Err(GraduationError::ZeroAmount("amount1"));
    }
    // amount1 × 2^192 < 2^448: fits in 512 bits; its root is < 2^224.
    let ratio = (U512::from(amount1) << 192) / U512::from(amount0);
    let root = isqrt_u512(ratio);
    let sqrt_price = U256::checked_from_limbs_slice(root.as_limbs()).unwrap_or(U256::MAX);
    if sqrt_price < MIN_SQRT_PRICE || sqrt_price >= MAX_SQRT_PRICE {
        return Err(GraduationError::SqrtPriceOutOfRange(sqrt_price));
    }
    Ok(sqrt_price)
}

/// `(minUsableTick, maxUsableTick)` for `tick_spacing`: `(MIN_TICK / s) × s`, `(MAX_TICK / s) × s`
/// (division truncating toward zero, as Solidity).
///
/// # Errors
/// [`GraduationError::InvalidTickSpacing`] outside `[1, 32767]`.
pub fn full_range_ticks(tick_spacing: i32) -> Result<(i32, i32), GraduationError> {
    if !(MIN_TICK_SPACING..=MAX_TICK_SPACING).contains(&tick_spacing) {
        return Err(GraduationError::InvalidTickSpacing(tick_spacing));
    }
    Ok((
        (MIN_TICK / tick_spacing) * tick_spacing,
        (MAX_TICK / tick_spacing) * tick_spacing,
    ))
}

/// The pool a curve graduates into: currencies in v4 order, amounts, the exact opening price
/// and the full-range liquidity. `quote_currency` is `Address::ZERO` for native ETH.
///
/// # Errors
/// [`GraduationError`] for an invalid state, supply, currencies, tick spacing or liquidity.
pub fn graduation_pool(
    state: &CurveState,
    quote_currency: Address,
    token: Address,
    tick_spacing: i32,
) -> Result<GraduationPool, GraduationError> {
    if token == quote_currency {
        return Err(GraduationError::InvalidCurrencies(
            "token and quote currency are the same",
        ));
    }
    if token == Address::ZERO {
        return Err(GraduationError::InvalidCurrencies(
            "the token cannot be the zero address (native ETH)",
        ));
    }
    let amounts = graduation_amounts(state)?;
    let quote_is_currency0 = quote_currency < token;
    let (currency0, currency1, amount0, amount1) = if quote_is_currency0 {
        (quote_currency, token, amounts.quote, amounts.tokens_to_pool)
    } else {
        (token, quote_currency, amounts.tokens_to_pool, amounts.quote)
    };
    let sqrt_price_x96 = graduation_sqrt_price_x96(amount0, amount1)?;
    let (tick_lower, tick_upper) = full_range_ticks(tick_spacing)?;
    // Usable ticks are within [MIN_TICK, MAX_TICK]: these cannot fail.
    let sqrt_lower = get_sqrt_price_at_tick(i64::from(tick_lower))
        .map_err(|_| GraduationError::InvalidTickSpacing(tick_spacing))?;
    let sqrt_upper = get_sqrt_price_at_tick(i64::from(tick_upper))
        .map_err(|_| GraduationError::InvalidTickSpacing(tick_spacing))?;
    let liquidity =
        get_liquidity_for_amounts(sqrt_price_x96, sqrt_lower, sqrt_upper, amount0, amount1)?;
    Ok(GraduationPool {
        currency0,
        currency1,
        quote_is_currency0,
        amount0,
        amount1,
        sqrt_price_x96,
        tick_lower,
        tick_upper,
        liquidity,
        tokens_locked: amounts.tokens_locked,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::state::DEFAULT_TOTAL_SUPPLY;
    use crate::curve::{apply_buy, apply_sell, quote_buy};
    use crate::math::testing::{u, E18};
    use crate::uniswap::sqrt_price_math::{get_amount0_delta, get_amount1_delta};
    use alloy_primitives::address;
    use proptest::prelude::*;

    const TOKEN: Address = address!("0x1111111111111111111111111111111111111111");
    const USDC_HIGH: Address = address!("0xf000000000000000000000000000000000000001");
    const USDC_LOW: Address = address!("0x0000000000000000000000000000000000000abc");

    fn graduate(s: &CurveState) -> CurveState {
        apply_buy(s, U256::MAX / u(1_000_000), 60, U256::ZERO)
            .unwrap()
            .0
    }

    #[test]
    fn eth_pair_amounts_and_price() {
        let g = graduate(&CurveState::eth_pair(0));
        let a = graduation_amounts(&g).unwrap();
        assert_eq!(a.quote, u(5 * E18));
        assert_eq!(a.tokens_to_pool, u(160_000_000) * u(E18));
        assert_eq!(a.tokens_locked, u(40_000_000) * u(E18));
        assert_eq!(a.tokens_to_pool + a.tokens_locked, g.token_reserve);
        let p = graduation_pool(&g, Address::ZERO, TOKEN, DEFAULT_TICK_SPACING).unwrap();
        assert!(p.quote_is_currency0);
        assert_eq!((p.currency0, p.currency1), (Address::ZERO, TOKEN));
        assert_eq!((p.amount0, p.amount1), (a.quote, a.tokens_to_pool));
        // sqrt(1.6e26 / 5e18) × 2^96 = sqrt(32,000,000) × 2^96, floored.
        let expect = isqrt_u512(U512::from(32_000_000u64) << 192);
        assert_eq!(U512::from(p.sqrt_price_x96), expect);
        assert_eq!(
            p.sqrt_price_x96.to_string(),
            "448182167798289119349855505819665"
        );
        assert_eq!((p.tick_lower, p.tick_upper), (-887_220, 887_220));
        assert!(p.liquidity > 0);
        // The position never needs more than the seeded amounts.
        let lo = get_sqrt_price_at_tick(-887_220).unwrap();
        let hi = get_sqrt_price_at_tick(887_220).unwrap();
        assert!(get_amount0_delta(p.sqrt_price_x96, hi, p.liquidity, true).unwrap() <= p.amount0);
        assert!(get_amount1_delta(lo, p.sqrt_price_x96, p.liquidity, true).unwrap() <= p.amount1);
    }

    #[test]
    fn pool_opens_at_the_curves_last_price() {
        for (s, quote) in [
            (CurveState::eth_pair(0), Address::ZERO),
            (CurveState::stablecoin_pair(6, 0).unwrap(), USDC_HIGH),
            (CurveState::stablecoin_pair(6, 0).unwrap(), USDC_LOW),
            (CurveState::stablecoin_pair(18, 0).unwrap(), USDC_HIGH),
        ] {
            let g = graduate(&s);
            let p = graduation_pool(&g, quote, TOKEN, 200).unwrap();
            // Marginal price at Q = G: (Φ + G)² / (Φ·S) quote per token = G / (0.16·S), exactly.
            let (quote_amt, token_amt) = if p.quote_is_currency0 {
                (p.amount0, p.amount1)
            } else {
                (p.amount1, p.amount0)
            };
            let phi_g = g.virtual_quote + g.quote_raised;
            assert_eq!(
                U512::from(phi_g) * U512::from(phi_g) * U512::from(token_amt),
                U512::from(g.virtual_quote) * U512::from(g.total_supply) * U512::from(quote_amt)
            );
            // sqrtP² ≤ amount1/amount0 × 2^192 < (sqrtP + 1)².
            let r = U512::from(p.sqrt_price_x96);
            let target = (U512::from(p.amount1) << 192) / U512::from(p.amount0);
            assert!(r * r <= target && (r + U512::from(1u8)) * (r + U512::from(1u8)) > target);
        }
    }

    #[test]
    fn stablecoin_currency_order_by_address() {
        let g = graduate(&CurveState::stablecoin_pair(6, 0).unwrap());
        let high = graduation_pool(&g, USDC_HIGH, TOKEN, 60).unwrap();
        assert!(!high.quote_is_currency0 && high.currency0 == TOKEN);
        assert_eq!(high.amount1, u(12_500_000_000));
        let low = graduation_pool(&g, USDC_LOW, TOKEN, 60).unwrap();
        assert!(low.quote_is_currency0 && low.currency0 == USDC_LOW);
        assert_eq!(low.amount0, u(12_500_000_000));
    }

    #[test]
    fn every_launch_graduates_identically() {
        let s = CurveState::eth_pair(0);
        // Path 1: one big buy at launch (taxed). Path 2: many buys and a sell.
        let one = graduate(&s);
        let mut two = s;
        for (x, t) in [(E18 / 3, 2u64), (E18, 20), (7 * E18 / 10, 40)] {
            two = apply_buy(&two, u(x), t, U256::ZERO).unwrap().0;
        }
        two = apply_sell(&two, two.tokens_sold() / u(3), U256::ZERO)
            .unwrap()
            .0;
        assert!(quote_buy(&two, u(50 * E18), 90).unwrap().graduates);
        two = apply_buy(&two, u(50 * E18), 90, U256::ZERO).unwrap().0;
        assert_eq!(one, two);
        let p1 = graduation_pool(&one, Address::ZERO, TOKEN, 60).unwrap();
        let p2 = graduation_pool(&two, Address::ZERO, TOKEN, 60).unwrap();
        assert_eq!(p1, p2);
    }

    #[test]
    fn errors() {
        assert_eq!(
            graduation_sqrt_price_x96(U256::ZERO, u(1)),
            Err(GraduationError::ZeroAmount("amount0"))
        );
        assert_eq!(
            graduation_sqrt_price_x96(u(1), U256::ZERO),
            Err(GraduationError::ZeroAmount("amount1"))
        );
        assert!(matches!(
            graduation_sqrt_price_x96(U256::MAX, u(1)),
            Err(GraduationError::SqrtPriceOutOfRange(_))
        ));
        assert!(matches!(
            graduation_sqrt_price_x96(u(1), U256::MAX),
            Err(GraduationError::SqrtPriceOutOfRange(_))
        ));
        assert_eq!(
            graduation_sqrt_price_x96(u(1), u(1)),
            Ok(U256::from(1u8) << 96)
        );
        assert_eq!(
            graduation_sqrt_price_x96(u(1), u(4)),
            Ok(U256::from(2u8) << 96)
        );
        assert_eq!(full_range_ticks(1), Ok((MIN_TICK, MAX_TICK)));
        assert_eq!(full_range_ticks(200), Ok((-887_200, 887_200)));
        for bad in [0, -60, 32_768] {
            assert_eq!(
                full_range_ticks(bad),
                Err(GraduationError::InvalidTickSpacing(bad))
            );
        }
        let g = graduate(&CurveState::eth_pair(0));
        assert!(matches!(
            graduation_pool(&g, TOKEN, TOKEN, 60),
            Err(GraduationError::InvalidCurrencies(_))
        ));
        assert!(matches!(
            graduation_pool(&g, USDC_LOW, Address::ZERO, 60),
            Err(GraduationError::InvalidCurrencies(_))
        ));
        let odd = CurveState {
            total_supply: DEFAULT_TOTAL_SUPPLY + u(5),
            token_reserve: DEFAULT_TOTAL_SUPPLY + u(5),
            ..CurveState::eth_pair(0)
        };
        assert!(matches!(
            graduation_amounts(&odd),
            Err(GraduationError::SupplyNotMultipleOf25(_))
        ));
    }

    proptest! {
        #[test]
        fn isqrt_is_exact(limbs in any::<[u64; 8]>(), small in any::<u128>()) {
            for n in [U512::from_limbs(limbs), U512::from(small)] {
                let r = isqrt_u512(n);
                prop_assert!(r * r <= n);
                let r1 = r + U512::from(1u8);
                // (r+1)² may exceed 2^512 only when r = 2^256 − 1.
                if let Some(sq) = r1.checked_mul(r1) {
                    prop_assert!(sq > n);
                }
            }
        }

        #[test]
        fn sqrt_price_never_panics(a0 in any::<[u64; 4]>(), a1 in any::<[u64; 4]>()) {
            let _ = graduation_sqrt_price_x96(U256::from_limbs(a0), U256::from_limbs(a1));
        }
    }
}
