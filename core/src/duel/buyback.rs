//! The buyback (B4, B5): how much of the pot a winner's ETH pool absorbs before the cap.
//!
//! The pot buys the winning token in its ETH pool up to the cap price
//! (`min(EMA30, current) × 1.10`, see [`super::ema`]), the bought tokens are burned, and the
//! unspent ETH carries over (it stays subject to the cap at the next settlement with a winner).
//! The swap is v4's `Pool.swap` loop, bit for bit: exact input `−pot` (v4 sign), the pool fee in
//! pips, the price limit at the cap's sqrt price (never past the position's usable tick range),
//! and one `computeSwapStep` per tick-bitmap word, because `nextInitializedTickWithinOneWord`
//! stops at every word boundary (256 × tickSpacing ticks) even where no tick is initialized. The
//! pool is full range, so liquidity is constant between the bounds and only the word boundaries
//! matter. Spent = Σ(`amountIn + feeAmount`). Protocol fees and hook fees are not modelled.
//!
//! Prices are WADs of ETH per whole token (ETH and launched tokens both have 18 decimals, so
//! the raw-unit ratio is the whole-unit ratio). With ETH as currency0 (native ETH always is)
//! the pool price `sqrtP²/2^192` is tokens per ETH and the token's price is its inverse.
//! Decided roundings: the current price rounds down; the cap's sqrt price rounds to the side
//! where the token price is at most the cap.

use super::ema::buyback_cap_wad;
use super::DuelError;
use crate::curve::graduation::{full_range_ticks, isqrt_u512};
use crate::math::{MathError, WAD};
use crate::uniswap::swap_math::compute_swap_step;
use crate::uniswap::tick_math::{
    get_sqrt_price_at_tick, get_tick_at_sqrt_price, MAX_TICK, MIN_TICK,
};
use alloy_primitives::{I256, U256, U512};

/// A full-range v4 pool of a duel token against ETH.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct BuybackPool {
    /// Current `sqrtPriceX96`.
    #[serde(with = "crate::serde_dec::u256")]
    pub sqrt_price_x96: U256,
    /// In-range liquidity (the full-range position's).
    #[serde(with = "crate::serde_dec::u128_dec")]
    #[cfg_attr(feature = "js", tsify(type = "string"))]
    pub liquidity: u128,
    /// Total swap fee in hundredths of a bip.
    #[serde(with = "crate::serde_dec::int")]
    pub fee_pips: u32,
    /// Whether ETH is currency0 (always, for native ETH).
    #[serde(default = "crate::serde_dec::yes")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub eth_is_currency0: bool,
    /// The pool's tick spacing (bounds the full-range position).
    #[serde(with = "crate::serde_dec::int")]
    pub tick_spacing: i32,
}

/// What a buyback does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct Buyback {
    /// ETH spent, fee included.
    #[serde(with = "crate::serde_dec::u256")]
    pub eth_spent: U256,
    /// Tokens bought (to burn).
    #[serde(with = "crate::serde_dec::u256")]
    pub tokens_bought: U256,
    /// Part of `eth_spent` paid as pool fee.
    #[serde(with = "crate::serde_dec::u256")]
    pub fee_paid: U256,
    /// The pool's sqrt price afterwards.
    #[serde(rename = "sqrtPriceX96After", with = "crate::serde_dec::u256")]
    pub sqrt_price_after_x96: U256,
    /// The sqrt price at the cap.
    #[serde(with = "crate::serde_dec::u256")]
    pub limit_sqrt_price_x96: U256,
    /// The token price before the buyback (WAD, rounded down).
    #[serde(with = "crate::serde_dec::u256")]
    pub current_price_wad: U256,
    /// The cap price (WAD).
    #[serde(with = "crate::serde_dec::u256")]
    pub cap_wad: U256,
    /// ETH left in the pot, carried over.
    #[serde(with = "crate::serde_dec::u256")]
    pub pot_left: U256,
    /// Whether the price reached the cap (the pot could not all be spent).
    pub reached_cap: bool,
}

fn narrow(x: U512) -> Result<U256, DuelError> {
    U256::checked_from_limbs_slice(x.as_limbs()).ok_or(DuelError::Math(MathError::Overflow))
}

/// The token's price in ETH as a WAD (rounded down) from its ETH pool's sqrt price.
///
/// # Errors
/// [`DuelError::ZeroPrice`] for a zero sqrt price; [`DuelError::Math`] on overflow.
pub fn token_price_wad(sqrt_price_x96: U256, eth_is_currency0: bool) -> Result<U256, DuelError> {
    if sqrt_price_x96.is_zero() {
        return Err(DuelError::ZeroPrice("sqrtPriceX96"));
    }
    let p2: U512 = sqrt_price_x96.widening_mul(sqrt_price_x96);
    let q192: U512 = U512::from(1u8) << 192;
    if eth_is_currency0 {
        narrow(q192 * U512::from(WAD) / p2)
    } else {
        narrow(p2.checked_mul(U512::from(WAD)).ok_or(MathError::Overflow)? / q192)
    }
}

/// The sqrt price at which the token's price equals `cap_wad`, rounded so that the token
/// price there is at most the cap.
///
/// # Errors
/// [`DuelError::ZeroPrice`] for a zero cap.
pub fn cap_sqrt_price_x96(cap_wad: U256, eth_is_currency0: bool) -> Result<U256, DuelError> {
    if cap_wad.is_zero() {
        return Err(DuelError::ZeroPrice("cap"));
    }
    let q192: U512 = U512::from(1u8) << 192;
    if eth_is_currency0 {
        // token price = 2^192·WAD / s² ≤ cap  ⇔  s² ≥ 2^192·WAD / cap: smallest such s.
        let num: U512 = q192 * U512::from(WAD);
        let cap = U512::from(cap_wad);
        let x = num.div_ceil(cap);
        let r = isqrt_u512(x);
        narrow(if r * r < x { r + U512::from(1u8) } else { r })
    } else {
        // token price = s²·WAD / 2^192 ≤ cap  ⇔  s² ≤ cap·2^192 / WAD: largest such s.
        narrow(isqrt_u512((U512::from(cap_wad) << 192) / U512::from(WAD)))
    }
}

/// Spends up to `pot` ETH buying the token in `pool`, stopping at the cap
/// `min(ema_wad, current) × 1.10`.
///
/// # Errors
/// [`DuelError::InvalidTickSpacing`], [`DuelError::PotTooLarge`], [`DuelError::ZeroPrice`],
/// [`DuelError::Swap`] for a v4 revert (e.g. an invalid fee).
pub fn buyback(pool: &BuybackPool, pot: U256, ema_wad: U256) -> Result<Buyback, DuelError> {
    let (lower, upper) = full_range_ticks(pool.tick_spacing)
        .map_err(|_| DuelError::InvalidTickSpacing(pool.tick_spacing))?;
    let current_price_wad = token_price_wad(pool.sqrt_price_x96, pool.eth_is_currency0)?;
    let cap_wad = buyback_cap_wad(ema_wad, current_price_wad)?;
    let nothing = |limit: U256| Buyback {
        eth_spent: U256::ZERO,
        tokens_bought: U256::ZERO,
        fee_paid: U256::ZERO,
        sqrt_price_after_x96: pool.sqrt_price_x96,
        limit_sqrt_price_x96: limit,
        current_price_wad,
        cap_wad,
        pot_left: pot,
        reached_cap: true,
    };
    if cap_wad.is_zero() {
        return Ok(nothing(pool.sqrt_price_x96));
    }
    let limit = cap_sqrt_price_x96(cap_wad, pool.eth_is_currency0)?;
    let bound_tick = if pool.eth_is_currency0 { lower } else { upper };
    let bound = get_sqrt_price_at_tick(i64::from(bound_tick))
        .map_err(|_| DuelError::InvalidTickSpacing(pool.tick_spacing))?;
    // ETH in: zero for one when ETH is currency0 (price falls), one for zero otherwise. The limit
    // never passes the full-range bound nor v4's own price bounds (`Pool.swap` refuses a limit at
    // `MIN_SQRT_PRICE` / `MAX_SQRT_PRICE`; `DuelHook` clamps the same way, so a cap near the
    // minimum price can never make the settlement revert).
    let target = if pool.eth_is_currency0 {
        limit
            .max(bound)
            .max(crate::uniswap::tick_math::MIN_SQRT_PRICE + U256::from(1u8))
    } else {
        limit
            .min(bound)
            .min(crate::uniswap::tick_math::MAX_SQRT_PRICE - U256::from(1u8))
    };
    let at_or_past_target = if pool.eth_is_currency0 {
        pool.sqrt_price_x96 <= target
    } else {
        pool.sqrt_price_x96 >= target
    };
    if at_or_past_target {
        return Ok(nothing(limit));
    }
    if pot.is_zero() {
        return Ok(Buyback {
            reached_cap: false,
            ..nothing(limit)
        });
    }
    I256::try_from(pot).map_err(|_| DuelError::PotTooLarge(pot))?;
    let zero_for_one = pool.eth_is_currency0;
    let mut sqrt_price = pool.sqrt_price_x96;
    let mut tick = get_tick_at_sqrt_price(sqrt_price)
        .map_err(|_| DuelError::ZeroPrice("sqrtPriceX96 outside the tick range"))?;
    let (mut remaining, mut eth_spent, mut tokens_bought, mut fee_paid) =
        (pot, U256::ZERO, U256::ZERO, U256::ZERO);
    while !remaining.is_zero() && sqrt_price != target {
        let tick_next = next_tick_within_one_word(tick, pool.tick_spacing, zero_for_one);
        let sqrt_next = get_sqrt_price_at_tick(i64::from(tick_next))
            .map_err(|_| DuelError::InvalidTickSpacing(pool.tick_spacing))?;
        // SwapMath.getSqrtPriceTarget: never past the limit.
        let step_target = if zero_for_one {
            sqrt_next.max(target)
        } else {
            sqrt_next.min(target)
        };
        let amount = I256::try_from(remaining).map_err(|_| DuelError::PotTooLarge(pot))?;
        let start = sqrt_price;
        let step = compute_swap_step(start, step_target, pool.liquidity, -amount, pool.fee_pips)?;
        let used = step.amount_in + step.fee_amount; // ≤ remaining (exact input)
        remaining -= used;
        eth_spent += used;
        fee_paid += step.fee_amount;
        tokens_bought += step.amount_out;
        sqrt_price = step.sqrt_price_next_x96;
        if sqrt_price == sqrt_next {
            tick = if zero_for_one {
                tick_next - 1
            } else {
                tick_next
            };
        } else if sqrt_price != start {
            tick = get_tick_at_sqrt_price(sqrt_price)
                .map_err(|_| DuelError::ZeroPrice("sqrtPriceX96 outside the tick range"))?;
        }
    }
    Ok(Buyback {
        eth_spent,
        tokens_bought,
        fee_paid,
        sqrt_price_after_x96: sqrt_price,
        limit_sqrt_price_x96: limit,
        current_price_wad,
        cap_wad,
        pot_left: remaining,
        reached_cap: sqrt_price == target,
    })
}

/// `TickBitmap.nextInitializedTickWithinOneWord` for a pool with no initialized tick between the
/// full-range bounds: the last tick of the current word (searching down, `zero_for_one`) or the
/// first tick of the next (searching up), clamped to `[MIN_TICK, MAX_TICK]` as `Pool.swap` does.
/// Stopping at the bounds themselves is covered by the swap's price limit, which never passes them.
fn next_tick_within_one_word(tick: i32, tick_spacing: i32, zero_for_one: bool) -> i32 {
    let compressed = tick.div_euclid(tick_spacing);
    let next = if zero_for_one {
        (compressed - compressed.rem_euclid(256)) * tick_spacing
    } else {
        let c = compressed + 1;
        (c + (255 - c.rem_euclid(256))) * tick_spacing
    };
    next.clamp(MIN_TICK, MAX_TICK)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::{graduation_pool, CurveState};
    use crate::math::format_wad;
    use crate::math::testing::E18;
    use crate::uniswap::tick_math::{MAX_SQRT_PRICE, MIN_SQRT_PRICE};
    use alloy_primitives::Address;
    use proptest::prelude::*;

    /// A freshly graduated ETH pool: 5 ETH against 160 M tokens, full range.
    fn graduated_pool() -> BuybackPool {
        let s = crate::curve::apply_buy(
            &CurveState::eth_pair(0),
            U256::from(100 * E18),
            60,
            U256::ZERO,
        )
        .unwrap()
        .0;
        let p = graduation_pool(&s, Address::ZERO, Address::repeat_byte(0x11), 60).unwrap();
        BuybackPool {
            sqrt_price_x96: p.sqrt_price_x96,
            liquidity: p.liquidity,
            fee_pips: 3_000,
            eth_is_currency0: true,
            tick_spacing: 60,
        }
    }

    fn exact_price_at_most(sqrt_p: U256, cap: U256, eth_is_currency0: bool) -> bool {
        let p2 = U512::from(sqrt_p) * U512::from(sqrt_p);
        let q192: U512 = U512::from(1u8) << 192;
        if eth_is_currency0 {
            q192 * U512::from(WAD) <= U512::from(cap) * p2
        } else {
            p2 * U512::from(WAD) <= U512::from(cap) * q192
        }
    }

    #[test]
    fn price_of_a_graduated_token() {
        let pool = graduated_pool();
        // 5 ETH / 160 M tokens = 3.125e-8 ETH per token (rounded down).
        let p = token_price_wad(pool.sqrt_price_x96, true).unwrap();
        assert!(
            format_wad(p).starts_with("0.00000003124999") || format_wad(p) == "0.00000003125",
            "{}",
            format_wad(p)
        );
    }

    #[test]
    fn a_big_pot_stops_at_the_cap_and_carries_the_rest() {
        let pool = graduated_pool();
        let current = token_price_wad(pool.sqrt_price_x96, true).unwrap();
        let pot = U256::from(10 * E18);
        let b = buyback(&pool, pot, current).unwrap();
        assert!(b.reached_cap);
        assert_eq!(b.cap_wad, current * U256::from(11u8) / U256::from(10u8));
        assert!(exact_price_at_most(b.sqrt_price_after_x96, b.cap_wad, true));
        assert_eq!(b.eth_spent + b.pot_left, pot);
        // Constant product: reaching 1.1× the price takes 5 ETH × (√1.1 − 1) ≈ 0.2440 ETH before the fee.
        let spent = format_wad(b.eth_spent - b.fee_paid);
        assert!(spent.starts_with("0.24404"), "{spent}");
        // Tokens: 160 M × (1 − 1/√1.1) ≈ 7,445,985.7207 (the cap is floored, so slightly less).
        let bought = format_wad(b.tokens_bought);
        assert!(bought.starts_with("7445985.72"), "{bought}");
        // The unspent ETH stays subject to the cap: the next settlement at the same state buys nothing.
        let after = BuybackPool {
            sqrt_price_x96: b.sqrt_price_after_x96,
            ..pool
        };
        let again = buyback(&after, b.pot_left, current).unwrap();
        assert_eq!((again.eth_spent, again.pot_left), (U256::ZERO, b.pot_left));
    }

    #[test]
    fn a_small_pot_is_spent_entirely() {
        let pool = graduated_pool();
        let current = token_price_wad(pool.sqrt_price_x96, true).unwrap();
        let b = buyback(&pool, U256::from(E18 / 100), current).unwrap();
        assert!(!b.reached_cap);
        assert_eq!(
            (b.eth_spent, b.pot_left),
            (U256::from(E18 / 100), U256::ZERO)
        );
        assert!(b.tokens_bought > U256::ZERO);
    }

    #[test]
    fn the_reference_is_the_lower_of_ema_and_price() {
        let pool = graduated_pool();
        let current = token_price_wad(pool.sqrt_price_x96, true).unwrap();
        // EMA well above: the cap is 1.1 × current, as above.
        let high = buyback(&pool, U256::from(10 * E18), current * U256::from(3u8)).unwrap();
        assert_eq!(high.cap_wad, current * U256::from(11u8) / U256::from(10u8));
        // EMA 20 % below the price: cap = 0.88 × current < current, nothing is bought.
        let low = buyback(
            &pool,
            U256::from(10 * E18),
            current * U256::from(8u8) / U256::from(10u8),
        )
        .unwrap();
        assert_eq!(low.eth_spent, U256::ZERO);
        assert_eq!(low.pot_left, U256::from(10 * E18));
        // EMA 5 % above: the cap is 1.1 × current; EMA 5 % below: cap 1.045 × current, less is spent.
        let a = buyback(
            &pool,
            U256::from(10 * E18),
            current * U256::from(105u8) / U256::from(100u8),
        )
        .unwrap();
        let c = buyback(
            &pool,
            U256::from(10 * E18),
            current * U256::from(95u8) / U256::from(100u8),
        )
        .unwrap();
        assert!(c.eth_spent < a.eth_spent);
    }

    #[test]
    fn eth_as_currency1_mirrors() {
        // Same pool seen with ETH as currency1: sqrt price inverted.
        let pool = graduated_pool();
        let inv = isqrt_u512(
            (U512::from(1u8) << 384)
                / (U512::from(pool.sqrt_price_x96) * U512::from(pool.sqrt_price_x96)),
        );
        let mirrored = BuybackPool {
            sqrt_price_x96: narrow(inv).unwrap(),
            eth_is_currency0: false,
            ..pool
        };
        let cur = token_price_wad(mirrored.sqrt_price_x96, false).unwrap();
        let b = buyback(&mirrored, U256::from(10 * E18), cur).unwrap();
        assert!(b.reached_cap && b.sqrt_price_after_x96 > mirrored.sqrt_price_x96);
        assert!(exact_price_at_most(
            b.sqrt_price_after_x96,
            b.cap_wad,
            false
        ));
        assert!(format_wad(b.eth_spent - b.fee_paid).starts_with("0.2440"));
    }

    #[test]
    fn errors() {
        let pool = graduated_pool();
        assert_eq!(
            buyback(
                &BuybackPool {
                    tick_spacing: 0,
                    ..pool
                },
                U256::from(1u8),
                WAD
            ),
            Err(DuelError::InvalidTickSpacing(0))
        );
        assert_eq!(
            buyback(&pool, U256::MAX, WAD),
            Err(DuelError::PotTooLarge(U256::MAX))
        );
        assert!(matches!(
            buyback(
                &BuybackPool {
                    fee_pips: 1_000_001,
                    ..pool
                },
                U256::from(E18),
                WAD
            ),
            Err(DuelError::Swap(_))
        ));
        assert_eq!(
            token_price_wad(U256::ZERO, true),
            Err(DuelError::ZeroPrice("sqrtPriceX96"))
        );
        assert_eq!(
            cap_sqrt_price_x96(U256::ZERO, true),
            Err(DuelError::ZeroPrice("cap"))
        );
        let zero = buyback(&pool, U256::ZERO, WAD).unwrap();
        assert_eq!(zero.eth_spent, U256::ZERO);
    }

    fn sqrt_price() -> impl Strategy<Value = U256> {
        (0u64..=u64::MAX).prop_map(move |x| {
            let span = MAX_SQRT_PRICE - MIN_SQRT_PRICE;
            MIN_SQRT_PRICE + span / U256::from(u64::MAX) * U256::from(x)
        })
    }

    proptest! {
        /// Never spends more than the pot, never pushes the price past the cap, never panics.
        #[test]
        fn buyback_respects_pot_and_cap(
            sp in prop_oneof![sqrt_price(), (1u128 << 80..1u128 << 110).prop_map(U256::from)],
            l in 1u128..u128::MAX, fee in 0u32..=1_000_000, c0 in any::<bool>(), ts in 1i32..=32_767,
            pot in any::<u128>(), ema_mul in 1u64..3_000,
        ) {
            let pool = BuybackPool { sqrt_price_x96: sp, liquidity: l, fee_pips: fee, eth_is_currency0: c0, tick_spacing: ts };
            let Ok(cur) = token_price_wad(sp, c0) else { return Ok(()); };
            let ema = cur * U256::from(ema_mul) / U256::from(1000u32);
            if let Ok(b) = buyback(&pool, U256::from(pot), ema) {
                prop_assert_eq!(b.eth_spent + b.pot_left, U256::from(pot));
                if !b.eth_spent.is_zero() && !b.cap_wad.is_zero() {
                    prop_assert!(exact_price_at_most(b.sqrt_price_after_x96, b.cap_wad, c0));
                }
            }
        }

        #[test]
        fn cap_sqrt_is_tight(cap in 1u128..u128::MAX, c0 in any::<bool>()) {
            let cap = U256::from(cap);
            let s = cap_sqrt_price_x96(cap, c0).unwrap();
            prop_assert!(exact_price_at_most(s, cap, c0));
            let next = if c0 { s - U256::from(1u8) } else { s + U256::from(1u8) };
            if !next.is_zero() {
                prop_assert!(!exact_price_at_most(next, cap, c0));
            }
        }
    }
}
