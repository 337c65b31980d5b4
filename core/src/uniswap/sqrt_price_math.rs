//! Uniswap v4 `SqrtPriceMath`, bit for bit (`src/libraries/SqrtPriceMath.sol`, v4-core 1.0.2).
//!
//! Price movement and token deltas inside one liquidity range, on Q64.96 square-root prices.
//! Every rounding direction is the contract's: next prices round so a swap never passes its
//! target for less than it pays, `_up` deltas are what the pool is owed, `_down` deltas what it
//! pays out. Used by the duel buyback (B5) and graduation liquidity (C20).
//!
//! Inputs are `U256`, but a sqrt price must fit in `uint160` (as in Solidity); a larger value is
//! [`SqrtPriceMathError::NotUint160`]. Every Solidity revert is an error here, never a panic.

use crate::math::{mul_div_down, mul_div_up, MathError};
use alloy_primitives::U256;
use ruint::uint;

/// `FixedPoint96.RESOLUTION`.
pub const RESOLUTION: usize = 96;
/// `FixedPoint96.Q96` = 2^96.
pub const Q96: U256 = uint!(0x1000000000000000000000000_U256);
/// `type(uint160).max`.
pub const MAX_UINT160: U256 = uint!(0xffffffffffffffffffffffffffffffffffffffff_U256);

/// The Solidity reverts of `SqrtPriceMath`, plus the `uint160` domain check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SqrtPriceMathError {
    /// `InvalidPriceOrLiquidity()`: sqrt price or liquidity is zero.
    #[error("sqrtPriceX96 and liquidity must both be non-zero")]
    InvalidPriceOrLiquidity,
    /// `InvalidPrice()`: a zero sqrt price in a delta computation.
    #[error("sqrtPriceX96 must be non-zero")]
    InvalidPrice,
    /// `NotEnoughLiquidity()`: the output exceeds the range's virtual currency1 reserve.
    #[error("not enough liquidity: the output would take the price to zero")]
    NotEnoughLiquidity,
    /// `PriceOverflow()`: the output exceeds the range's virtual currency0 reserve.
    #[error("price overflow: the output would take the price to infinity")]
    PriceOverflow,
    /// `SafeCast` / checked arithmetic overflow (the next price does not fit in `uint160`).
    #[error("overflow: the next sqrt price does not fit in uint160")]
    Overflow,
    /// An input sqrt price above `type(uint160).max`.
    #[error("sqrtPriceX96 {0} does not fit in uint160")]
    NotUint160(U256),
}

pub(crate) fn check_u160(x: U256) -> Result<U256, SqrtPriceMathError> {
    if x > MAX_UINT160 {
        Err(SqrtPriceMathError::NotUint160(x))
    } else {
        Ok(x)
    }
}

fn to_u160(x: U256) -> Result<U256, SqrtPriceMathError> {
    if x > MAX_UINT160 {
        Err(SqrtPriceMathError::Overflow)
    } else {
        Ok(x)
    }
}

fn math(e: MathError) -> SqrtPriceMathError {
    match e {
        MathError::DivisionByZero => SqrtPriceMathError::InvalidPriceOrLiquidity,
        MathError::Overflow | MathError::Underflow => SqrtPriceMathError::Overflow,
    }
}

/// `UnsafeMath.divRoundingUp`: `ceil(x / y)`, `0` when `y == 0` (as the assembly does).
fn div_rounding_up(x: U256, y: U256) -> U256 {
    if y.is_zero() {
        return U256::ZERO;
    }
    let q = x / y;
    if (x % y).is_zero() {
        q
    } else {
        q + U256::from(1u8)
    }
}

/// `getNextSqrtPriceFromAmount0RoundingUp`: the price after adding (`add`) or removing
/// `amount` of currency0; always rounds up.
///
/// # Errors
/// [`SqrtPriceMathError::PriceOverflow`] when removing at least the virtual reserve,
/// [`SqrtPriceMathError::Overflow`] when the result does not fit in `uint160`,
/// [`SqrtPriceMathError::InvalidPriceOrLiquidity`] for a zero price on the overflow path.
pub fn get_next_sqrt_price_from_amount0_rounding_up(
    sqrt_price_x96: U256,
    liquidity: u128,
    amount: U256,
    add: bool,
) -> Result<U256, SqrtPriceMathError> {
    let sqrt_p = check_u160(sqrt_price_x96)?;
    if amount.is_zero() {
        return Ok(sqrt_p);
    }
    let numerator1 = U256::from(liquidity) << RESOLUTION;
    let (product, product_overflowed) = amount.overflowing_mul(sqrt_p);
    if add {
        if !product_overflowed {
            let (denominator, denominator_overflowed) = numerator1.overflowing_add(product);
            if !denominator_overflowed {
                // denominator >= numerator1: always fits in 160 bits
                return mul_div_up(numerator1, sqrt_p, denominator).map_err(math);
            }
        }
        if sqrt_p.is_zero() {
            // Solidity: division by zero panics.
            return Err(SqrtPriceMathError::InvalidPriceOrLiquidity);
        }
        let denominator = (numerator1 / sqrt_p)
            .checked_add(amount)
            .ok_or(SqrtPriceMathError::Overflow)?;
        // Solidity truncates to uint160 here; the quotient is <= numerator1 / denominator < 2^160.
        Ok(div_rounding_up(numerator1, denominator) & MAX_UINT160)
    } else {
        if product_overflowed || numerator1 <= product {
            return Err(SqrtPriceMathError::PriceOverflow);
        }
        let denominator = numerator1 - product;
        to_u160(mul_div_up(numerator1, sqrt_p, denominator).map_err(math)?)
    }
}

/// `getNextSqrtPriceFromAmount1RoundingDown`: the price after adding (`add`) or removing
/// `amount` of currency1; always rounds down.
///
/// # Errors
/// [`SqrtPriceMathError::NotEnoughLiquidity`] when removing at least the virtual reserve,
/// [`SqrtPriceMathError::Overflow`] when the result does not fit in `uint160`,
/// [`SqrtPriceMathError::InvalidPriceOrLiquidity`] for zero liquidity.
pub fn get_next_sqrt_price_from_amount1_rounding_down(
    sqrt_price_x96: U256,
    liquidity: u128,
    amount: U256,
    add: bool,
) -> Result<U256, SqrtPriceMathError> {
    let sqrt_p = check_u160(sqrt_price_x96)?;
    if liquidity == 0 {
        // Solidity: division by zero panics.
        return Err(SqrtPriceMathError::InvalidPriceOrLiquidity);
    }
    let l = U256::from(liquidity);
    if add {
        let quotient = if amount <= MAX_UINT160 {
            (amount << RESOLUTION) / l
        } else {
            mul_div_down(amount, Q96, l).map_err(math)?
        };
        to_u160(
            sqrt_p
                .checked_add(quotient)
                .ok_or(SqrtPriceMathError::Overflow)?,
        )
    } else {
        let quotient = if amount <= MAX_UINT160 {
            div_rounding_up(amount << RESOLUTION, l)
        } else {
            mul_div_up(amount, Q96, l).map_err(math)?
        };
        if sqrt_p <= quotient {
            return Err(SqrtPriceMathError::NotEnoughLiquidity);
        }
        Ok(sqrt_p - quotient)
    }
}

/// `getNextSqrtPriceFromInput`: the price after swapping `amount_in` of currency0
/// (`zero_for_one`) or currency1 in; rounds so the target price is never passed.
///
/// # Errors
/// [`SqrtPriceMathError::InvalidPriceOrLiquidity`] for a zero price or liquidity; as the
/// two functions above otherwise.
pub fn get_next_sqrt_price_from_input(
    sqrt_price_x96: U256,
    liquidity: u128,
    amount_in: U256,
    zero_for_one: bool,
) -> Result<U256, SqrtPriceMathError> {
    let sqrt_p = check_u160(sqrt_price_x96)?;
    if sqrt_p.is_zero() || liquidity == 0 {
        return Err(SqrtPriceMathError::InvalidPriceOrLiquidity);
    }
    if zero_for_one {
        get_next_sqrt_price_from_amount0_rounding_up(sqrt_p, liquidity, amount_in, true)
    } else {
        get_next_sqrt_price_from_amount1_rounding_down(sqrt_p, liquidity, amount_in, true)
    }
}

/// `getNextSqrtPriceFromOutput`: the price after swapping `amount_out` of currency1
/// (`zero_for_one`) or currency0 out; rounds so the target price is passed.
///
/// # Errors
/// As [`get_next_sqrt_price_from_input`].
pub fn get_next_sqrt_price_from_output(
    sqrt_price_x96: U256,
    liquidity: u128,
    amount_out: U256,
    zero_for_one: bool,
) -> Result<U256, SqrtPriceMathError> {
    let sqrt_p = check_u160(sqrt_price_x96)?;
    if sqrt_p.is_zero() || liquidity == 0 {
        return Err(SqrtPriceMathError::InvalidPriceOrLiquidity);
    }
    if zero_for_one {
        get_next_sqrt_price_from_amount1_rounding_down(sqrt_p, liquidity, amount_out, false)
    } else {
        get_next_sqrt_price_from_amount0_rounding_up(sqrt_p, liquidity, amount_out, false)
    }
}

/// `getAmount0Delta(sqrtA, sqrtB, liquidity, roundUp)`:
/// `liquidity × 2^96 × |sqrtB − sqrtA| / (sqrtB × sqrtA)`, rounded up (`round_up`) or down.
///
/// # Errors
/// [`SqrtPriceMathError::InvalidPrice`] when the smaller price is zero.
pub fn get_amount0_delta(
    sqrt_price_a_x96: U256,
    sqrt_price_b_x96: U256,
    liquidity: u128,
    round_up: bool,
) -> Result<U256, SqrtPriceMathError> {
    let (mut a, mut b) = (check_u160(sqrt_price_a_x96)?, check_u160(sqrt_price_b_x96)?);
    if a > b {
        std::mem::swap(&mut a, &mut b);
    }
    if a.is_zero() {
        return Err(SqrtPriceMathError::InvalidPrice);
    }
    let numerator1 = U256::from(liquidity) << RESOLUTION;
    let numerator2 = b - a;
    if round_up {
        Ok(div_rounding_up(
            mul_div_up(numerator1, numerator2, b).map_err(math)?,
            a,
        ))
    } else {
        Ok(mul_div_down(numerator1, numerator2, b).map_err(math)? / a)
    }
}

/// `getAmount1Delta(sqrtA, sqrtB, liquidity, roundUp)`:
/// `liquidity × |sqrtB − sqrtA| / 2^96`, rounded up (`round_up`) or down. Never overflows.
///
/// # Errors
/// [`SqrtPriceMathError::NotUint160`] for an out-of-domain price only.
pub fn get_amount1_delta(
    sqrt_price_a_x96: U256,
    sqrt_price_b_x96: U256,
    liquidity: u128,
    round_up: bool,
) -> Result<U256, SqrtPriceMathError> {
    let (a, b) = (check_u160(sqrt_price_a_x96)?, check_u160(sqrt_price_b_x96)?);
    let diff = if a >= b { a - b } else { b - a };
    // < 2^128 × 2^160 / 2^96 = 2^192: never overflows.
    let l = U256::from(liquidity);
    if round_up {
        mul_div_up(l, diff, Q96).map_err(math)
    } else {
        mul_div_down(l, diff, Q96).map_err(math)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::testing::any_u256;
    use proptest::prelude::*;

    fn u(s: &str) -> U256 {
        U256::from_str_radix(s, 10).unwrap()
    }
    const ETHER: u128 = 1_000_000_000_000_000_000;
    // test/utils/Constants.sol
    fn p_1_1() -> U256 {
        u("79228162514264337593543950336")
    }
    fn p_121_100() -> U256 {
        u("87150978765690771352898345369")
    }
    fn p_2_1() -> U256 {
        u("112045541949572279837463876454")
    }

    #[test]
    fn constants() {
        assert_eq!(Q96, U256::from(1u8) << 96);
        assert_eq!(MAX_UINT160, (U256::from(1u8) << 160) - U256::from(1u8));
        assert_eq!(p_1_1(), Q96);
    }

    // Vectors from v4-core test/libraries/SqrtPriceMath.t.sol.
    #[test]
    fn next_from_input_vectors() {
        use SqrtPriceMathError::*;
        assert_eq!(
            get_next_sqrt_price_from_input(U256::ZERO, 1, U256::from(ETHER / 10), false),
            Err(InvalidPriceOrLiquidity)
        );
        assert_eq!(
            get_next_sqrt_price_from_input(U256::from(1u8), 0, U256::from(ETHER / 10), true),
            Err(InvalidPriceOrLiquidity)
        );
        assert!(get_next_sqrt_price_from_input(
            MAX_UINT160 - U256::from(1u8),
            1024,
            U256::from(1024u32),
            false
        )
        .is_err());
        assert_eq!(
            get_next_sqrt_price_from_input(U256::from(1u8), 1, U256::from(1u8) << 255, true),
            Ok(U256::from(1u8))
        );
        assert_eq!(
            get_next_sqrt_price_from_input(p_1_1(), 1, U256::ZERO, true),
            Ok(p_1_1())
        );
        assert_eq!(
            get_next_sqrt_price_from_input(p_1_1(), 1, U256::ZERO, false),
            Ok(p_1_1())
        );
        // returnsTheMinimumPriceForMaxInputs: MAX_UINT256 - MAX_UINT128 << 96 / sqrtP (Solidity precedence:
        // `-` binds tighter than `<<`, and `96 / sqrtP` is 0).
        let sqrt_p = MAX_UINT160 - U256::from(1u8);
        let max_amount_no_overflow = U256::MAX - U256::from(u128::MAX);
        assert_eq!(
            get_next_sqrt_price_from_input(sqrt_p, u128::MAX, max_amount_no_overflow, true),
            Ok(U256::from(1u8))
        );
        assert_eq!(
            get_next_sqrt_price_from_input(p_1_1(), ETHER, U256::from(ETHER / 10), false),
            Ok(p_121_100())
        );
        assert_eq!(
            get_next_sqrt_price_from_input(p_1_1(), ETHER, U256::from(ETHER / 10), true),
            Ok(u("72025602285694852357767227579"))
        );
        assert_eq!(
            get_next_sqrt_price_from_input(p_1_1(), 10 * ETHER, U256::from(1u8) << 100, true),
            Ok(u("624999999995069620"))
        );
        assert_eq!(
            get_next_sqrt_price_from_input(p_1_1(), 1, U256::MAX / U256::from(2u8), true),
            Ok(U256::from(1u8))
        );
    }

    #[test]
    fn next_from_output_vectors() {
        use SqrtPriceMathError::*;
        let price = u("20282409603651670423947251286016");
        assert_eq!(
            get_next_sqrt_price_from_output(U256::ZERO, 1, U256::from(ETHER / 10), false),
            Err(InvalidPriceOrLiquidity)
        );
        assert_eq!(
            get_next_sqrt_price_from_output(U256::from(1u8), 0, U256::from(ETHER / 10), true),
            Err(InvalidPriceOrLiquidity)
        );
        assert_eq!(
            get_next_sqrt_price_from_output(price, 1024, U256::from(4u8), false),
            Err(PriceOverflow)
        );
        assert_eq!(
            get_next_sqrt_price_from_output(price, 1024, U256::from(5u8), false),
            Err(PriceOverflow)
        );
        assert_eq!(
            get_next_sqrt_price_from_output(price, 1024, U256::from(262_145u32), true),
            Err(NotEnoughLiquidity)
        );
        assert_eq!(
            get_next_sqrt_price_from_output(price, 1024, U256::from(262_144u32), true),
            Err(NotEnoughLiquidity)
        );
        assert_eq!(
            get_next_sqrt_price_from_output(price, 1024, U256::from(262_143u32), true),
            Ok(u("77371252455336267181195264"))
        );
        assert_eq!(
            get_next_sqrt_price_from_output(p_1_1(), ETHER / 10, U256::ZERO, true),
            Ok(p_1_1())
        );
        assert_eq!(
            get_next_sqrt_price_from_output(p_1_1(), ETHER / 10, U256::ZERO, false),
            Ok(p_1_1())
        );
        assert_eq!(
            get_next_sqrt_price_from_output(p_1_1(), ETHER, U256::from(ETHER / 10), false),
            Ok(u("88031291682515930659493278152"))
        );
        assert_eq!(
            get_next_sqrt_price_from_output(p_1_1(), ETHER, U256::from(ETHER / 10), true),
            Ok(u("71305346262837903834189555302"))
        );
        assert!(get_next_sqrt_price_from_output(p_1_1(), 1, U256::MAX, true).is_err());
        assert_eq!(
            get_next_sqrt_price_from_output(p_1_1(), 1, U256::MAX, false),
            Err(PriceOverflow)
        );
    }

    #[test]
    fn amount_delta_vectors() {
        assert_eq!(get_amount0_delta(p_1_1(), p_2_1(), 0, true), Ok(U256::ZERO));
        assert_eq!(get_amount0_delta(p_1_1(), p_1_1(), 0, true), Ok(U256::ZERO));
        assert_eq!(
            get_amount0_delta(U256::ZERO, U256::from(1u8), 1, true),
            Err(SqrtPriceMathError::InvalidPrice)
        );
        let up = get_amount0_delta(p_1_1(), p_121_100(), ETHER, true).unwrap();
        assert_eq!(up, U256::from(90_909_090_909_090_910u64));
        assert_eq!(
            get_amount0_delta(p_1_1(), p_121_100(), ETHER, false).unwrap(),
            up - U256::from(1u8)
        );
        // worksForPricesThatOverflow
        let p1 = u("2787593149816327892691964784081045188247552");
        let p2 = u("22300745198530623141535718272648361505980416");
        let up = get_amount0_delta(p1, p2, ETHER, true).unwrap();
        assert_eq!(
            up,
            get_amount0_delta(p1, p2, ETHER, false).unwrap() + U256::from(1u8)
        );

        assert_eq!(get_amount1_delta(p_1_1(), p_2_1(), 0, true), Ok(U256::ZERO));
        assert_eq!(get_amount1_delta(p_1_1(), p_1_1(), 0, true), Ok(U256::ZERO));
        let up = get_amount1_delta(p_1_1(), p_121_100(), ETHER, true).unwrap();
        assert_eq!(up, U256::from(100_000_000_000_000_000u64));
        assert_eq!(
            get_amount1_delta(p_1_1(), p_121_100(), ETHER, false).unwrap(),
            up - U256::from(1u8)
        );
    }

    #[test]
    fn sqrt_p_times_sqrt_q_overflows() {
        let sqrt_p = u("1025574284609383690408304870162715216695788925244");
        let liquidity: u128 = 50_015_962_439_936_049_619_261_659_728_067_971_248;
        let sqrt_q =
            get_next_sqrt_price_from_input(sqrt_p, liquidity, U256::from(406u32), true).unwrap();
        assert_eq!(
            sqrt_q,
            u("1025574284609383582644711336373707553698163132913")
        );
        assert_eq!(
            get_amount0_delta(sqrt_q, sqrt_p, liquidity, true),
            Ok(U256::from(406u32))
        );
    }

    #[test]
    fn rejects_out_of_domain_prices() {
        let big = MAX_UINT160 + U256::from(1u8);
        assert_eq!(
            get_amount1_delta(big, Q96, 1, true),
            Err(SqrtPriceMathError::NotUint160(big))
        );
        assert_eq!(
            get_next_sqrt_price_from_input(big, 1, U256::from(1u8), true),
            Err(SqrtPriceMathError::NotUint160(big))
        );
    }

    fn any_price() -> impl Strategy<Value = U256> {
        prop_oneof![
            any::<[u64; 3]>().prop_map(|[a, b, c]| U256::from_limbs([a, b, c & 0xffff_ffff, 0])),
            (1u128..).prop_map(U256::from),
            Just(Q96),
            Just(U256::from(1u8)),
            Just(MAX_UINT160),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        #[test]
        fn no_panic(p in any_u256(), q in any_u256(), l in any::<u128>(), a in any_u256(), f in any::<bool>(), g in any::<bool>()) {
            let _ = get_next_sqrt_price_from_amount0_rounding_up(p, l, a, f);
            let _ = get_next_sqrt_price_from_amount1_rounding_down(p, l, a, f);
            let _ = get_next_sqrt_price_from_input(p, l, a, f);
            let _ = get_next_sqrt_price_from_output(p, l, a, f);
            let _ = get_amount0_delta(p, q, l, g);
            let _ = get_amount1_delta(p, q, l, g);
        }

        /// Deltas: up and down differ by at most one (amount1) and bracket each other.
        #[test]
        fn delta_roundings_bracket(p in any_price(), q in any_price(), l in any::<u128>()) {
            if let (Ok(up), Ok(down)) = (get_amount0_delta(p, q, l, true), get_amount0_delta(p, q, l, false)) {
                prop_assert!(up >= down);
            }
            let up = get_amount1_delta(p, q, l, true).unwrap();
            let down = get_amount1_delta(p, q, l, false).unwrap();
            prop_assert!(up >= down && up - down <= U256::from(1u8));
        }

        /// Swapping in never moves the price past what the input pays for: the amount needed
        /// to reach the new price (rounded up) is at most the input.
        #[test]
        fn input_never_overshoots(p in any_price(), l in 1u128.., a in any::<u128>(), z in any::<bool>()) {
            let a = U256::from(a);
            if let Ok(next) = get_next_sqrt_price_from_input(p, l, a, z) {
                if z {
                    prop_assert!(next <= p);
                    if !next.is_zero() {
                        prop_assert!(get_amount0_delta(next, p, l, true).unwrap() <= a);
                    }
                } else {
                    prop_assert!(next >= p);
                    prop_assert!(get_amount1_delta(p, next, l, true).unwrap() <= a);
                }
            }
        }

        /// Swapping out moves the price at least far enough to pay the output (rounded down).
        #[test]
        fn output_always_covered(p in any_price(), l in 1u128.., a in any::<u64>(), z in any::<bool>()) {
            let a = U256::from(a);
            if let Ok(next) = get_next_sqrt_price_from_output(p, l, a, z) {
                if z {
                    prop_assert!(next <= p);
                    prop_assert!(get_amount1_delta(next, p, l, false).unwrap() >= a);
                } else {
                    prop_assert!(next >= p);
                    prop_assert!(get_amount0_delta(p, next, l, false).unwrap() >= a);
                }
            }
        }
    }
}
