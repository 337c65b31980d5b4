//! `mul_div` with a 512-bit intermediate product (Uniswap `FullMath` semantics).

use super::MathError;
use alloy_primitives::U256;
/// 512-bit intermediates, by name from ruint (alloy-primitives re-exports the same type).
use ruint::aliases::U512;

/// `floor(a × b / denominator)`, exact for every input whose result fits in 256 bits
/// (Uniswap `FullMath.mulDiv`).
///
/// # Errors
/// [`MathError::DivisionByZero`] when `denominator == 0`; [`MathError::Overflow`] when the
/// result exceeds `U256::MAX`.
pub fn mul_div_down(a: U256, b: U256, denominator: U256) -> Result<U256, MathError> {
    if denominator.is_zero() {
        return Err(MathError::DivisionByZero);
    }
    let product: U512 = a.widening_mul(b);
    let quotient = product / U512::from(denominator);
    narrow(quotient)
}

/// `ceil(a × b / denominator)` (Uniswap `FullMath.mulDivRoundingUp`).
///
/// # Errors
/// As [`mul_div_down`]; also [`MathError::Overflow`] when rounding up passes `U256::MAX`.
pub fn mul_div_up(a: U256, b: U256, denominator: U256) -> Result<U256, MathError> {
    if denominator.is_zero() {
        return Err(MathError::DivisionByZero);
    }
    let product: U512 = a.widening_mul(b);
    let d = U512::from(denominator);
    let quotient = product / d;
    let rounded = if (product % d).is_zero() {
        quotient
    } else {
        quotient + U512::from(1u8)
    };
    narrow(rounded)
}

/// `floor(a × b / 2^shift)` with a 512-bit intermediate (used for Q64.96 / Q128 products).
///
/// # Errors
/// [`MathError::Overflow`] when the result exceeds `U256::MAX`.
pub fn mul_shr_down(a: U256, b: U256, shift: usize) -> Result<U256, MathError> {
    let product: U512 = a.widening_mul(b);
    narrow(product >> shift)
}

fn narrow(x: U512) -> Result<U256, MathError> {
    if x.bit_len() > 256 {
        return Err(MathError::Overflow);
    }
    let limbs = x.as_limbs();
    Ok(U256::from_limbs([limbs[0], limbs[1], limbs[2], limbs[3]]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::testing::any_u256;
    use crate::math::testing::u;
    use proptest::prelude::*;

    #[test]
    fn known_vectors() {
        assert_eq!(mul_div_down(u(10), u(10), u(3)), Ok(u(33)));
        assert_eq!(mul_div_up(u(10), u(10), u(3)), Ok(u(34)));
        assert_eq!(mul_div_up(u(9), u(10), u(3)), Ok(u(30)));
        // Uniswap FullMath tests: (MAX, MAX, MAX) = MAX; the intermediate overflows 256 bits.
        assert_eq!(mul_div_down(U256::MAX, U256::MAX, U256::MAX), Ok(U256::MAX));
        assert_eq!(mul_div_up(U256::MAX, U256::MAX, U256::MAX), Ok(U256::MAX));
        // Q128 example from FullMath.t.sol: mulDiv(Q128, 50 * Q128 / 100, 150 * Q128 / 100) = Q128 / 3
        let q128 = U256::from(1u8) << 128;
        let r = mul_div_down(q128, q128 * u(50) / u(100), q128 * u(150) / u(100)).unwrap();
        assert_eq!(r, q128 / u(3));
        assert_eq!(
            mul_div_up(q128, q128 * u(50) / u(100), q128 * u(150) / u(100)).unwrap(),
            q128 / u(3) + u(1)
        );
    }

    #[test]
    fn errors_not_panics() {
        assert_eq!(
            mul_div_down(u(1), u(1), U256::ZERO),
            Err(MathError::DivisionByZero)
        );
        assert_eq!(
            mul_div_up(u(1), u(1), U256::ZERO),
            Err(MathError::DivisionByZero)
        );
        assert_eq!(
            mul_div_down(U256::MAX, U256::MAX, u(1)),
            Err(MathError::Overflow)
        );
        // floor fits but ceil would not: MAX*MAX/(MAX-1) > MAX.
        assert_eq!(mul_div_down(U256::MAX, u(2), u(2)), Ok(U256::MAX));
        assert_eq!(
            mul_div_up(U256::MAX, U256::MAX, U256::MAX - u(1)),
            Err(MathError::Overflow)
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// Up and down differ by at most one and bracket the exact rational result.
        #[test]
        fn up_and_down_bracket_exact(a in any_u256(), b in any_u256(), d in any_u256()) {
            let down = mul_div_down(a, b, d);
            let up = mul_div_up(a, b, d);
            if d.is_zero() {
                prop_assert_eq!(down, Err(MathError::DivisionByZero));
                prop_assert_eq!(up, Err(MathError::DivisionByZero));
                return Ok(());
            }
            let exact_num: U512 = a.widening_mul(b);
            let d512 = U512::from(d);
            match (down, up) {
                (Ok(lo), Ok(hi)) => {
                    prop_assert!(hi >= lo && hi - lo <= U256::from(1u8));
                    // lo*d <= a*b <= hi*d
                    prop_assert!(U512::from(lo) * d512 <= exact_num);
                    prop_assert!(U512::from(hi) * d512 >= exact_num);
                    prop_assert_eq!(hi == lo, (exact_num % d512).is_zero());
                }
                (Ok(lo), Err(MathError::Overflow)) => prop_assert_eq!(lo, U256::MAX),
                (Err(MathError::Overflow), Err(MathError::Overflow)) => {
                    prop_assert!(exact_num / d512 > U512::from(U256::MAX));
                }
                other => prop_assert!(false, "unexpected {:?}", other),
            }
        }

        #[test]
        fn mul_shr_matches_mul_div_by_power_of_two(a in any_u256(), b in any_u256(), s in 0usize..256) {
            prop_assert_eq!(mul_shr_down(a, b, s), mul_div_down(a, b, U256::from(1u8) << s));
        }
    }
}
