//! Uniswap v4 `SwapMath`, bit for bit (`src/libraries/SwapMath.sol`, v4-core 1.0.2).
//!
//! One swap step inside a single liquidity range: how far the price moves toward a target,
//! how much goes in and out, and the fee, in hundredths of a bip (`feePips`, 10^6 = 100 %).
//! Sign convention of v4: `amount_remaining < 0` is exact input, `>= 0` exact output.
//! Used by the duel buyback (B5).

use super::sqrt_price_math::{
    check_u160, get_amount0_delta, get_amount1_delta, get_next_sqrt_price_from_input,
    get_next_sqrt_price_from_output, SqrtPriceMathError,
};
use crate::math::{mul_div_down, mul_div_up};
use alloy_primitives::{I256, U256};

/// `SwapMath.MAX_SWAP_FEE`: 100 % in hundredths of a bip.
pub const MAX_SWAP_FEE: u32 = 1_000_000;

/// Why a swap step could not be computed (the Solidity revert, or an invalid fee).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SwapMathError {
    /// A `SqrtPriceMath` revert.
    #[error(transparent)]
    SqrtPrice(#[from] SqrtPriceMathError),
    /// `feePips` above [`MAX_SWAP_FEE`], or equal to it on an exact-output step.
    #[error("feePips {0} is invalid (at most 1000000, and below it for exact output)")]
    InvalidFee(u32),
}

/// The result of [`compute_swap_step`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SwapStep {
    /// The price after the step, never past the target.
    pub sqrt_price_next_x96: U256,
    /// Input swapped, excluding the fee.
    pub amount_in: U256,
    /// Output received.
    pub amount_out: U256,
    /// Input taken as fee.
    pub fee_amount: U256,
}

/// `SwapMath.getSqrtPriceTarget`: the step target, `max(next, limit)` when `zero_for_one`,
/// else `min(next, limit)`.
pub fn get_sqrt_price_target(
    zero_for_one: bool,
    sqrt_price_next_x96: U256,
    sqrt_price_limit_x96: U256,
) -> U256 {
    let use_limit = if zero_for_one {
        sqrt_price_next_x96 < sqrt_price_limit_x96
    } else {
        sqrt_price_next_x96 > sqrt_price_limit_x96
    };
    if use_limit {
        sqrt_price_limit_x96
    } else {
        sqrt_price_next_x96
    }
}

/// `SwapMath.computeSwapStep`: swaps `amount_remaining` (negative = exact input, positive =
/// exact output) from `sqrt_price_current_x96` toward `sqrt_price_target_x96` with
/// `liquidity`, charging `fee_pips` on the input. The direction is `current >= target`
/// (zero for one). Exact input never uses more than `|amount_remaining|` including the fee.
///
/// # Errors
/// [`SwapMathError::InvalidFee`] for `fee_pips > MAX_SWAP_FEE` (or `==` on exact output),
/// and every revert of `SqrtPriceMath` along the path the contract takes.
pub fn compute_swap_step(
    sqrt_price_current_x96: U256,
    sqrt_price_target_x96: U256,
    liquidity: u128,
    amount_remaining: I256,
    fee_pips: u32,
) -> Result<SwapStep, SwapMathError> {
    let current = check_u160(sqrt_price_current_x96)?;
    let target = check_u160(sqrt_price_target_x96)?;
    let exact_in = amount_remaining.is_negative();
    if fee_pips > MAX_SWAP_FEE || (!exact_in && fee_pips == MAX_SWAP_FEE) {
        return Err(SwapMathError::InvalidFee(fee_pips));
    }
    let fee = U256::from(fee_pips);
    let max_fee = U256::from(MAX_SWAP_FEE);
    let zero_for_one = current >= target;
    // The fee cannot divide by zero or overflow: fee < MAX or handled explicitly.
    let fee_on = |amount_in: U256| -> Result<U256, SwapMathError> {
        mul_div_up(amount_in, fee, max_fee - fee).map_err(|_| SwapMathError::InvalidFee(fee_pips))
    };

    if exact_in {
        // uint256(-amountRemaining), unchecked: int256.min becomes 2^255.
        let remaining = amount_remaining.unsigned_abs();
        let remaining_less_fee = mul_div_down(remaining, max_fee - fee, max_fee)
            .map_err(|_| SwapMathError::InvalidFee(fee_pips))?;
        let amount_in_to_target = if zero_for_one {
            get_amount0_delta(target, current, liquidity, true)?
        } else {
            get_amount1_delta(current, target, liquidity, true)?
        };
        let (next, amount_in, fee_amount) = if remaining_less_fee >= amount_in_to_target {
            let fee_amount = if fee_pips == MAX_SWAP_FEE {
                amount_in_to_target
            } else {
                fee_on(amount_in_to_target)?
            };
            (target, amount_in_to_target, fee_amount)
        } else {
            let next = get_next_sqrt_price_from_input(
                current,
                liquidity,
                remaining_less_fee,
                zero_for_one,
            )?;
            (next, remaining_less_fee, remaining - remaining_less_fee)
        };
        let amount_out = if zero_for_one {
            get_amount1_delta(next, current, liquidity, false)?
        } else {
            get_amount0_delta(current, next, liquidity, false)?
        };
        Ok(SwapStep {
            sqrt_price_next_x96: next,
            amount_in,
            amount_out,
            fee_amount,
        })
    } else {
        let wanted = amount_remaining.into_raw();
        let out_to_target = if zero_for_one {
            get_amount1_delta(target, current, liquidity, false)?
        } else {
            get_amount0_delta(current, target, liquidity, false)?
        };
        let (next, amount_out) = if wanted >= out_to_target {
            (target, out_to_target)
        } else {
            (
                get_next_sqrt_price_from_output(current, liquidity, wanted, zero_for_one)?,
                wanted,
            )
        };
        let amount_in = if zero_for_one {
            get_amount0_delta(next, current, liquidity, true)?
        } else {
            get_amount1_delta(current, next, liquidity, true)?
        };
        let fee_amount = fee_on(amount_in)?;
        Ok(SwapStep {
            sqrt_price_next_x96: next,
            amount_in,
            amount_out,
            fee_amount,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uniswap::sqrt_price_math::MAX_UINT160;
    use proptest::prelude::*;

    fn u(s: &str) -> U256 {
        U256::from_str_radix(s, 10).unwrap()
    }
    fn i(x: i128) -> I256 {
        I256::try_from(x).unwrap()
    }
    const ETHER: i128 = 1_000_000_000_000_000_000;
    // test/utils/Constants.sol
    fn p_1_1() -> U256 {
        u("79228162514264337593543950336")
    }
    fn p_1_4() -> U256 {
        u("39614081257132168796771975168")
    }
    fn p_101_100() -> U256 {
        u("79623317895830914510639640423")
    }
    fn p_1000_100() -> U256 {
        u("250541448375047931186413801569")
    }
    fn p_10000_100() -> U256 {
        u("792281625142643375935439503360")
    }

    fn step(p: U256, t: U256, l: u128, a: I256, f: u32) -> (U256, U256, U256, U256) {
        let s = compute_swap_step(p, t, l, a, f).unwrap();
        (
            s.sqrt_price_next_x96,
            s.amount_in,
            s.amount_out,
            s.fee_amount,
        )
    }

    // Vectors from v4-core test/libraries/SwapMath.t.sol.
    #[test]
    fn exact_in_capped_at_target() {
        let (q, a_in, a_out, fee) = step(p_1_1(), p_101_100(), 2 * ETHER as u128, i(-ETHER), 600);
        assert_eq!(a_in, U256::from(9_975_124_224_178_055u64));
        assert_eq!(a_out, U256::from(9_925_619_580_021_728u64));
        assert_eq!(fee, U256::from(5_988_667_735_148u64));
        assert_eq!(q, p_101_100());
        let whole =
            get_next_sqrt_price_from_input(p_1_1(), 2 * ETHER as u128, U256::from(ETHER), false)
                .unwrap();
        assert!(q < whole);
    }

    #[test]
    fn exact_out_capped_at_target() {
        let (q, a_in, a_out, fee) = step(p_1_1(), p_101_100(), 2 * ETHER as u128, i(ETHER), 600);
        assert_eq!(a_in, U256::from(9_975_124_224_178_055u64));
        assert_eq!(a_out, U256::from(9_925_619_580_021_728u64));
        assert_eq!(fee, U256::from(5_988_667_735_148u64));
        assert_eq!(q, p_101_100());
    }

    #[test]
    fn exact_in_fully_spent() {
        let (q, a_in, a_out, fee) = step(p_1_1(), p_1000_100(), 2 * ETHER as u128, i(-ETHER), 600);
        assert_eq!(a_in, U256::from(999_400_000_000_000_000u64));
        assert_eq!(a_out, U256::from(666_399_946_655_997_866u64));
        assert_eq!(fee, U256::from(600_000_000_000_000u64));
        assert_eq!(a_in + fee, U256::from(ETHER));
        assert!(q < p_1000_100());
        let expect = get_next_sqrt_price_from_input(
            p_1_1(),
            2 * ETHER as u128,
            U256::from(ETHER) - fee,
            false,
        )
        .unwrap();
        assert_eq!(q, expect);
    }

    #[test]
    fn exact_out_fully_received() {
        let (q, a_in, a_out, fee) = step(p_1_1(), p_10000_100(), 2 * ETHER as u128, i(ETHER), 600);
        assert_eq!(a_in, U256::from(2_000_000_000_000_000_000u64));
        assert_eq!(fee, U256::from(1_200_720_432_259_356u64));
        assert_eq!(a_out, U256::from(ETHER));
        assert!(q < p_10000_100());
        assert_eq!(
            q,
            get_next_sqrt_price_from_output(p_1_1(), 2 * ETHER as u128, U256::from(ETHER), false)
                .unwrap()
        );
    }

    #[test]
    fn amount_out_capped_at_desired() {
        let (q, a_in, a_out, fee) = step(
            u("417332158212080721273783715441582"),
            u("1452870262520218020823638996"),
            159_344_665_391_607_089_467_575_320_103,
            i(1),
            1,
        );
        assert_eq!(
            (a_in, fee, a_out),
            (U256::from(1u8), U256::from(1u8), U256::from(1u8))
        );
        assert_eq!(q, u("417332158212080721273783715441581"));
    }

    #[test]
    fn target_price_of_1_uses_partial_input() {
        let (q, a_in, a_out, fee) = step(
            U256::from(2u8),
            U256::from(1u8),
            1,
            I256::from_dec_str("-3915081100057732413702495386755767").unwrap(),
            1,
        );
        assert_eq!(a_in, p_1_4());
        assert_eq!(fee, u("39614120871253040049813"));
        assert!(a_in + fee <= u("3915081100057732413702495386755767"));
        assert_eq!(a_out, U256::ZERO);
        assert_eq!(q, U256::from(1u8));
    }

    #[test]
    fn not_entire_input_taken_as_fee() {
        let (q, a_in, a_out, fee) = step(
            U256::from(2413u32),
            u("79887613182836312"),
            1_985_041_575_832_132_834_610_021_537_970,
            i(-10),
            1872,
        );
        assert_eq!(
            (a_in, fee, a_out, q),
            (
                U256::from(9u8),
                U256::from(1u8),
                U256::ZERO,
                U256::from(2413u32)
            )
        );
    }

    #[test]
    fn intermediate_insufficient_liquidity_exact_output() {
        let sqrt_p = u("20282409603651670423947251286016");
        let (q, a_in, a_out, fee) = step(
            sqrt_p,
            sqrt_p * U256::from(11u8) / U256::from(10u8),
            1024,
            i(4),
            3000,
        );
        assert_eq!(
            (a_out, a_in, fee),
            (U256::ZERO, U256::from(26_215u32), U256::from(79u8))
        );
        assert_eq!(q, sqrt_p * U256::from(11u8) / U256::from(10u8));
        let (q, a_in, a_out, fee) = step(
            sqrt_p,
            sqrt_p * U256::from(9u8) / U256::from(10u8),
            1024,
            i(263_000),
            3000,
        );
        assert_eq!(
            (a_out, a_in, fee),
            (U256::from(26_214u32), U256::from(1u8), U256::from(1u8))
        );
        assert_eq!(q, sqrt_p * U256::from(9u8) / U256::from(10u8));
    }

    #[test]
    fn fee_validation() {
        assert_eq!(
            compute_swap_step(p_1_1(), p_101_100(), 1, i(1), MAX_SWAP_FEE),
            Err(SwapMathError::InvalidFee(MAX_SWAP_FEE))
        );
        assert_eq!(
            compute_swap_step(p_1_1(), p_101_100(), 1, i(-1), MAX_SWAP_FEE + 1),
            Err(SwapMathError::InvalidFee(MAX_SWAP_FEE + 1))
        );
        // 100 % fee on exact input: everything is fee, nothing moves.
        let s = compute_swap_step(p_1_1(), p_101_100(), 1_000_000, i(-1000), MAX_SWAP_FEE).unwrap();
        assert_eq!((s.amount_in, s.amount_out), (U256::ZERO, U256::ZERO));
    }

    #[test]
    fn price_target() {
        let (a, b) = (U256::from(5u8), U256::from(9u8));
        assert_eq!(get_sqrt_price_target(true, a, b), b);
        assert_eq!(get_sqrt_price_target(true, b, a), b);
        assert_eq!(get_sqrt_price_target(false, a, b), a);
        assert_eq!(get_sqrt_price_target(false, b, a), a);
    }

    fn any_price() -> impl Strategy<Value = U256> {
        prop_oneof![
            any::<[u64; 3]>().prop_map(|[a, b, c]| U256::from_limbs([a, b, c & 0xffff_ffff, 0])),
            (1u128..).prop_map(U256::from),
            Just(MAX_UINT160),
        ]
    }
    fn any_i256() -> impl Strategy<Value = I256> {
        prop_oneof![
            any::<[u64; 4]>().prop_map(|l| I256::from_raw(U256::from_limbs(l))),
            any::<i128>().prop_map(|x| I256::try_from(x).unwrap()),
            any::<i64>().prop_map(|x| I256::try_from(x).unwrap()),
            Just(I256::MIN),
            Just(I256::MAX),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The invariants of v4-core's `test_fuzz_computeSwapStep`, and never a panic.
        #[test]
        fn fuzz_compute_swap_step(p in any_price(), t in any_price(), l in any::<u128>(), a in any_i256(), f in 0u32..=1_000_000) {
            let Ok(s) = compute_swap_step(p, t, l, a, f) else { return Ok(()); };
            prop_assert!(s.amount_in <= U256::MAX - s.fee_amount);
            let abs = a.unsigned_abs();
            if a.is_negative() {
                prop_assert!(s.amount_in + s.fee_amount <= abs);
            } else {
                prop_assert!(s.amount_out <= abs);
            }
            if p == t {
                prop_assert_eq!((s.amount_in, s.amount_out, s.fee_amount), (U256::ZERO, U256::ZERO, U256::ZERO));
                prop_assert_eq!(s.sqrt_price_next_x96, t);
            }
            if s.sqrt_price_next_x96 != t {
                if a.is_positive() {
                    prop_assert_eq!(s.amount_out, abs);
                } else {
                    prop_assert_eq!(s.amount_in + s.fee_amount, abs);
                }
            }
            if t <= p {
                prop_assert!(s.sqrt_price_next_x96 <= p && s.sqrt_price_next_x96 >= t);
            } else {
                prop_assert!(s.sqrt_price_next_x96 >= p && s.sqrt_price_next_x96 <= t);
            }
        }
    }
}
