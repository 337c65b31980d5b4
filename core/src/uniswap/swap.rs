//! An exact-input swap quote over a v4 pool's state, step for step as v4-core's `Pool.swap`
//! (D7): from `Slot0` and the in-range liquidity, across initialized ticks read from the
//! pool's bitmap, to the price limit the swap router uses (one past the extreme price).
//!
//! The bitmap words and ticks come from `PoolManager.extsload`; a quote that needs one not
//! yet read says which ([`SwapError::NeedWord`], [`SwapError::NeedTick`]), and the caller
//! reads it and asks again. The pools this quotes have no hook that changes amounts (the
//! launch locker's and the duel hook's return no delta and no fee override), so the quote
//! is what `PoolManager.swap` pays.

use std::collections::BTreeMap;

use alloy_primitives::{I256, U256};

use super::swap_math::{compute_swap_step, get_sqrt_price_target, SwapMathError, MAX_SWAP_FEE};
use super::tick_bitmap::{next_initialized_tick_within_one_word, word_for_step};
use super::tick_math::{
    get_sqrt_price_at_tick, get_tick_at_sqrt_price, InvalidSqrtPrice, InvalidTick, MAX_SQRT_PRICE,
    MAX_TICK, MIN_SQRT_PRICE, MIN_TICK,
};

/// Why a quote cannot be given (yet).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SwapError {
    /// The bitmap word at this position is needed: read it and quote again.
    #[error("tick bitmap word {0} not read yet")]
    NeedWord(i16),
    /// This initialized tick's `liquidityNet` is needed: read it and quote again.
    #[error("tick {0} not read yet")]
    NeedTick(i32),
    /// Zero input: `PoolManager.swap` moves nothing.
    #[error("the amount is zero")]
    ZeroAmount,
    /// Above `int128`: the pool's balance delta could not hold it.
    #[error("the amount does not fit the pool's balance delta (int128)")]
    AmountTooLarge,
    /// The pool has no price yet.
    #[error("the pool is not initialized")]
    NotInitialized,
    /// A fee of 100 % or more takes the whole input.
    #[error("the swap fee ({0} pips) takes the whole input")]
    FeeTooHigh(u32),
    /// Crossing a tick would leave negative liquidity (a corrupt read).
    #[error("crossing tick {0} leaves negative liquidity")]
    LiquidityUnderflow(i32),
    /// A `SwapMath` revert.
    #[error(transparent)]
    Math(#[from] SwapMathError),
    /// A `TickMath` revert.
    #[error(transparent)]
    Tick(#[from] InvalidTick),
    /// A `TickMath` revert.
    #[error(transparent)]
    Price(#[from] InvalidSqrtPrice),
}

/// A pool's state as a swap starts: `Slot0`, the in-range liquidity and the key's spacing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolState {
    /// `Slot0.sqrtPriceX96`.
    pub sqrt_price_x96: U256,
    /// `Slot0.tick`.
    pub tick: i32,
    /// Two 12-bit fees: zero-for-one in the low bits, one-for-zero above.
    pub protocol_fee: u32,
    /// `Slot0.lpFee`, in pips.
    pub lp_fee: u32,
    /// The in-range liquidity.
    pub liquidity: u128,
    /// The pool key's tick spacing.
    pub tick_spacing: i32,
}

/// Bitmap words and ticks read so far (from `extsload`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TickReads {
    /// Bitmap words by position.
    pub words: BTreeMap<i16, U256>,
    /// `liquidityNet` of initialized ticks.
    pub nets: BTreeMap<i32, i128>,
}

/// What an exact-input swap does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExactInQuote {
    /// Input the pool takes, fee included: the whole amount unless the price limit stops it.
    pub amount_in: U256,
    /// Output the pool pays (rounded down, as every step is).
    pub amount_out: U256,
    /// Of `amount_in`, the swap fee (LP and protocol).
    pub fee_amount: U256,
    /// The price after the swap.
    pub sqrt_price_after_x96: U256,
    /// The tick after the swap, as the pool stores it.
    pub tick_after: i32,
    /// Initialized ticks crossed.
    pub ticks_crossed: u32,
}

/// `ProtocolFeeLibrary.calculateSwapFee`: `protocolFee + lpFee − protocolFee·lpFee / 10⁶`
/// (rounded down), or `lpFee` when the direction's protocol fee is zero.
pub fn swap_fee_pips(protocol_fee: u32, lp_fee: u32, zero_for_one: bool) -> u32 {
    let p = if zero_for_one {
        protocol_fee & 0xfff
    } else {
        (protocol_fee >> 12) & 0xfff
    };
    if p == 0 {
        return lp_fee;
    }
    let lp = u64::from(lp_fee & 0xff_ffff);
    let p = u64::from(p);
    (p + lp - p * lp / u64::from(MAX_SWAP_FEE)) as u32
}

/// The price limit the swap router passes: one inside the extreme price in the swap's
/// direction, so that only the input amount ends the swap.
pub fn router_price_limit(zero_for_one: bool) -> U256 {
    if zero_for_one {
        MIN_SQRT_PRICE + U256::from(1u8)
    } else {
        MAX_SQRT_PRICE - U256::from(1u8)
    }
}

/// `Pool.swap` with a negative `amountSpecified` (exact input) and `sqrtPriceLimitX96 =
/// limit`: the input taken and the output paid, rounded as the pool rounds (output down,
/// input and fee up).
///
/// # Errors
/// [`SwapError::NeedWord`] / [`SwapError::NeedTick`] when `reads` lacks what the next step
/// reads; otherwise the pool's own reverts in words.
pub fn quote_exact_in_to_limit(
    pool: &PoolState,
    zero_for_one: bool,
    amount_in: U256,
    limit: U256,
    reads: &TickReads,
) -> Result<ExactInQuote, SwapError> {
    if pool.sqrt_price_x96.is_zero() {
        return Err(SwapError::NotInitialized);
    }
    if amount_in.is_zero() {
        return Err(SwapError::ZeroAmount);
    }
    if amount_in > U256::from(i128::MAX as u128) {
        return Err(SwapError::AmountTooLarge);
    }
    let fee = swap_fee_pips(pool.protocol_fee, pool.lp_fee, zero_for_one);
    if fee >= MAX_SWAP_FEE {
        return Err(SwapError::FeeTooHigh(fee));
    }
    let spacing = pool.tick_spacing;
    // amountSpecifiedRemaining, negative for exact input.
    let mut remaining = -I256::try_from(amount_in).map_err(|_| SwapError::AmountTooLarge)?;
    let (mut price, mut tick, mut liquidity) = (pool.sqrt_price_x96, pool.tick, pool.liquidity);
    let (mut out, mut fees, mut crossed) = (U256::ZERO, U256::ZERO, 0u32);
    while !(remaining.is_zero() || price == limit) {
        let start = price;
        let word_pos = word_for_step(tick, spacing, zero_for_one);
        let word = *reads
            .words
            .get(&word_pos)
            .ok_or(SwapError::NeedWord(word_pos))?;
        let (next, initialized) =
            next_initialized_tick_within_one_word(word, tick, spacing, zero_for_one);
        let next = next.clamp(MIN_TICK, MAX_TICK);
        let next_price = get_sqrt_price_at_tick(i64::from(next))?;
        let step = compute_swap_step(
            price,
            get_sqrt_price_target(zero_for_one, next_price, limit),
            liquidity,
            remaining,
            fee,
        )?;
        price = step.sqrt_price_next_x96;
        // amountIn + fee ≤ |remaining| < 2^127: no overflow.
        let used = step.amount_in + step.fee_amount;
        remaining += I256::from_raw(used);
        out += step.amount_out;
        fees += step.fee_amount;
        if price == next_price {
            if initialized {
                let net = *reads.nets.get(&next).ok_or(SwapError::NeedTick(next))?;
                let net = if zero_for_one { -net } else { net };
                liquidity = liquidity
                    .checked_add_signed(net)
                    .ok_or(SwapError::LiquidityUnderflow(next))?;
                crossed += 1;
            }
            tick = if zero_for_one { next - 1 } else { next };
        } else if price != start {
            tick = get_tick_at_sqrt_price(price)?;
        }
    }
    let taken = amount_in - (-remaining).into_raw();
    Ok(ExactInQuote {
        amount_in: taken,
        amount_out: out,
        fee_amount: fees,
        sqrt_price_after_x96: price,
        tick_after: tick,
        ticks_crossed: crossed,
    })
}

/// A pool swap's price impact (D7, as D5 for the curve): the shortfall of its output against the
/// pool's price before it, with the fee left out (`amount_in − fee_amount` at `sqrtP²/2¹⁹²`), in
/// basis points rounded **up** (the ideal output is rounded up too), so a warning never
/// understates.
///
/// # Errors
/// [`SwapError::Math`] only on a corrupt state (a zero price).
pub fn impact_bps_up(
    pool: &PoolState,
    zero_for_one: bool,
    q: &ExactInQuote,
) -> Result<u32, SwapError> {
    use super::sqrt_price_math::Q96;
    use crate::math::mul_div_up;
    let p = pool.sqrt_price_x96;
    let net = q.amount_in - q.fee_amount;
    let bad = |_| SwapError::NotInitialized;
    // What `net` buys at the price before the swap, rounded up.
    let ideal = if zero_for_one {
        mul_div_up(mul_div_up(net, p, Q96).map_err(bad)?, p, Q96).map_err(bad)?
    } else {
        mul_div_up(mul_div_up(net, Q96, p).map_err(bad)?, Q96, p).map_err(bad)?
    };
    if ideal <= q.amount_out || ideal.is_zero() {
        return Ok(0);
    }
    let bps = mul_div_up(ideal - q.amount_out, U256::from(10_000u32), ideal).map_err(bad)?;
    Ok(bps.saturating_to::<u32>().min(10_000))
}

/// [`quote_exact_in_to_limit`] at the swap router's limit ([`router_price_limit`]).
///
/// # Errors
/// As [`quote_exact_in_to_limit`].
pub fn quote_exact_in(
    pool: &PoolState,
    zero_for_one: bool,
    amount_in: U256,
    reads: &TickReads,
) -> Result<ExactInQuote, SwapError> {
    quote_exact_in_to_limit(
        pool,
        zero_for_one,
        amount_in,
        router_price_limit(zero_for_one),
        reads,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uniswap::tick_bitmap::position;
    use alloy_primitives::uint;
    use proptest::prelude::*;

    /// A pool with liquidity `l` on each `(lower, upper)` position, price at `tick`.
    fn pool_with(
        positions: &[(i32, i32, u128)],
        tick: i32,
        spacing: i32,
        lp_fee: u32,
    ) -> (PoolState, TickReads) {
        let mut reads = TickReads::default();
        let mut in_range = 0u128;
        for &(lo, hi, l) in positions {
            for (t, d) in [(lo, l as i128), (hi, -(l as i128))] {
                let e = reads.nets.entry(t).or_insert(0);
                *e += d;
                let (w, b) = position(t / spacing);
                *reads.words.entry(w).or_insert(U256::ZERO) |= U256::from(1u8) << usize::from(b);
            }
            if lo <= tick && tick < hi {
                in_range += l;
            }
        }
        let state = PoolState {
            sqrt_price_x96: get_sqrt_price_at_tick(i64::from(tick)).unwrap(),
            tick,
            protocol_fee: 0,
            lp_fee,
            liquidity: in_range,
            tick_spacing: spacing,
        };
        (state, reads)
    }

    /// Every word the swap may read, empty where nothing is set.
    fn fill_words(reads: &mut TickReads, spacing: i32) {
        let lo = position(MIN_TICK.div_euclid(spacing)).0;
        let hi = position(MAX_TICK.div_euclid(spacing) + 1).0;
        for w in lo..=hi {
            reads.words.entry(w).or_insert(U256::ZERO);
        }
    }

    #[test]
    fn a_missing_word_or_tick_is_named() {
        let (state, mut reads) = pool_with(&[(-600, 600, 10u128.pow(18))], 0, 60, 3000);
        let w = reads.words.clone();
        reads.words.clear();
        assert_eq!(
            quote_exact_in(&state, true, U256::from(10u64.pow(18)), &reads),
            Err(SwapError::NeedWord(0))
        );
        reads.words = w;
        fill_words(&mut reads, 60);
        reads.nets.remove(&-600);
        assert_eq!(
            quote_exact_in(&state, true, U256::from(10u64.pow(18)), &reads),
            Err(SwapError::NeedTick(-600))
        );
    }

    #[test]
    fn zero_and_oversized_inputs_are_refused() {
        let (state, reads) = pool_with(&[(-600, 600, 10u128.pow(18))], 0, 60, 3000);
        assert_eq!(
            quote_exact_in(&state, true, U256::ZERO, &reads),
            Err(SwapError::ZeroAmount)
        );
        assert_eq!(
            quote_exact_in(&state, true, U256::from(1u8) << 127, &reads),
            Err(SwapError::AmountTooLarge)
        );
    }

    #[test]
    fn protocol_fee_combines_as_v4_does() {
        // 0.1 % protocol (1000 pips) on 0.3 % LP: 1000 + 3000 − 3 = 3997.
        assert_eq!(swap_fee_pips(1000, 3000, true), 3997);
        assert_eq!(swap_fee_pips(1000 << 12, 3000, true), 3000);
        assert_eq!(swap_fee_pips(1000 << 12, 3000, false), 3997);
    }

    /// One step inside a single range equals `computeSwapStep` itself.
    #[test]
    fn inside_one_range_it_is_one_step() {
        let (state, mut reads) = pool_with(&[(-887_220, 887_220, 10u128.pow(21))], 0, 60, 3000);
        fill_words(&mut reads, 60);
        let amount = uint!(1_000_000_000_000_000_U256);
        let q = quote_exact_in(&state, false, amount, &reads).unwrap();
        let step = compute_swap_step(
            state.sqrt_price_x96,
            router_price_limit(false),
            10u128.pow(21),
            -I256::from_raw(amount),
            3000,
        )
        .unwrap();
        assert_eq!(q.amount_out, step.amount_out);
        assert_eq!(q.amount_in, amount);
        assert_eq!(q.ticks_crossed, 0);
    }

    /// A swap that runs out of liquidity stops at the limit and takes less than offered.
    #[test]
    fn running_out_of_liquidity_takes_less() {
        let (state, mut reads) = pool_with(&[(-600, 600, 10u128.pow(18))], 0, 60, 3000);
        fill_words(&mut reads, 60);
        let q = quote_exact_in(&state, true, U256::from(10u128.pow(30)), &reads).unwrap();
        assert!(q.amount_in < U256::from(10u128.pow(30)));
        assert_eq!(q.sqrt_price_after_x96, router_price_limit(true));
        assert_eq!(q.ticks_crossed, 1);
    }

    #[test]
    fn impact_grows_with_size() {
        let (state, mut reads) = pool_with(&[(-887_220, 887_220, 10u128.pow(21))], 0, 60, 3000);
        fill_words(&mut reads, 60);
        let at = |x: u128, z: bool| {
            let q = quote_exact_in(&state, z, U256::from(x), &reads).unwrap();
            impact_bps_up(&state, z, &q).unwrap()
        };
        // A tiny trade moves the price by almost nothing: at most the rounding's one basis point.
        assert!(at(10u128.pow(12), true) <= 1);
        // 10 % of the reserve (L at price 1 holds 1000 of each): about 9 %, more for 50 %.
        let ten = at(10u128.pow(20), false);
        assert!((900..=920).contains(&ten), "{ten}");
        assert!(at(5 * 10u128.pow(20), false) > ten);
    }

    proptest! {
        /// More input never pays less (monotone), and output never exceeds what the pool holds
        /// between the start price and the end price.
        #[test]
        fn more_in_never_pays_less(
            a in 1u128..10u128.pow(24),
            extra in 0u128..10u128.pow(24),
            zero_for_one: bool,
            start in -1200i32..1200,
        ) {
            let ps = [(-887_220, 887_220, 10u128.pow(20)), (-1200, 1200, 5 * 10u128.pow(20)), (-60, 240, 10u128.pow(21))];
            let (state, mut reads) = pool_with(&ps, start / 60 * 60, 60, 3000);
            fill_words(&mut reads, 60);
            let q1 = quote_exact_in(&state, zero_for_one, U256::from(a), &reads).unwrap();
            let q2 = quote_exact_in(&state, zero_for_one, U256::from(a + extra), &reads).unwrap();
            prop_assert!(q2.amount_out >= q1.amount_out);
            prop_assert!(q1.amount_in <= U256::from(a));
            prop_assert!(q1.fee_amount <= q1.amount_in);
            if zero_for_one {
                prop_assert!(q1.sqrt_price_after_x96 <= state.sqrt_price_x96);
            } else {
                prop_assert!(q1.sqrt_price_after_x96 >= state.sqrt_price_x96);
            }
        }
    }
}
