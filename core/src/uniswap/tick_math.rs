//! Uniswap v4 `TickMath`, bit for bit (`src/libraries/TickMath.sol`).
//!
//! - [`get_sqrt_price_at_tick`]: `sqrtPriceX96 = sqrt(1.0001^tick) × 2^96` as a Q64.96, computed by
//!   the same products of precomputed Q128 constants and the same final round-up as the contract.
//! - [`get_tick_at_sqrt_price`]: the greatest tick whose sqrt price is `<=` the given one, by the
//!   contract's fixed-point `log2` (14 squarings) and its two error bounds.
//!
//! Used by A5 (oracle prices), B2/B3 (duel split), C20 (graduation liquidity). Both are checked
//! against the contract's own bytecode in `core/tests/tick_math_evm.rs`.

use alloy_primitives::{I256, U256};
use ruint::uint;

/// The minimum tick that may be passed to [`get_sqrt_price_at_tick`] (`TickMath.MIN_TICK`).
pub const MIN_TICK: i32 = -887_272;
/// The maximum tick that may be passed to [`get_sqrt_price_at_tick`] (`TickMath.MAX_TICK`).
pub const MAX_TICK: i32 = 887_272;
/// `getSqrtPriceAtTick(MIN_TICK)` (`TickMath.MIN_SQRT_PRICE`).
pub const MIN_SQRT_PRICE: U256 = U256::from_limbs([4_295_128_739, 0, 0, 0]);
/// `getSqrtPriceAtTick(MAX_TICK)` (`TickMath.MAX_SQRT_PRICE`) =
/// 1461446703485210103287273052203988822378723970342.
pub const MAX_SQRT_PRICE: U256 = uint!(1461446703485210103287273052203988822378723970342_U256);

/// A tick outside `[MIN_TICK, MAX_TICK]` (`TickMath.InvalidTick`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("tick {0} is outside [{MIN_TICK}, {MAX_TICK}]")]
pub struct InvalidTick(pub i64);

/// Q128 multipliers for bits 1..=19 of `|tick|`: `2^128 / sqrt(1.0001)^(2^i)`.
const RATIOS: [u128; 19] = [
    0xfff97272373d413259a46990580e213a,
    0xfff2e50f5f656932ef12357cf3c7fdcc,
    0xffe5caca7e10e4e61c3624eaa0941cd0,
    0xffcb9843d60f6159c9db58835c926644,
    0xff973b41fa98c081472e6896dfb254c0,
    0xff2ea16466c96a3843ec78b326b52861,
    0xfe5dee046a99a2a811c461f1969c3053,
    0xfcbe86c7900a88aedcffc83b479aa3a4,
    0xf987a7253ac413176f2b074cf7815e54,
    0xf3392b0822b70005940c7a398e4b70f3,
    0xe7159475a2c29b7443b29c7fa6e889d9,
    0xd097f3bdfd2022b8845ad8f792aa5825,
    0xa9f746462d870fdf8a65dc1f90e061e5,
    0x70d869a156d2a1b890bb3df62baf32f7,
    0x31be135f97d08fd981231505542fcfa6,
    0x9aa508b5b7a84e1c677de54f3e99bc9,
    0x5d6af8dedb81196699c329225ee604,
    0x2216e584f5fa1ea926041bedfe98,
    0x48a170391f7dc42444e8fa2,
];

/// `TickMath.getSqrtPriceAtTick(tick)`: the Q64.96 square root price at `tick`, rounded up
/// (as the contract does).
///
/// # Errors
/// [`InvalidTick`] when `|tick| > MAX_TICK`.
pub fn get_sqrt_price_at_tick(tick: i64) -> Result<U256, InvalidTick> {
    let abs_tick = tick.unsigned_abs();
    if abs_tick > MAX_TICK as u64 {
        return Err(InvalidTick(tick));
    }
    let mut price: U256 = if abs_tick & 1 != 0 {
        U256::from(0xfffcb933bd6fad37aa2d162d1a594001u128)
    } else {
        U256::from(1u8) << 128
    };
    for (i, ratio) in RATIOS.iter().enumerate() {
        if abs_tick & (1u64 << (i + 1)) != 0 {
            // price <= 2^128 and ratio < 2^128: the product fits in 256 bits.
            price = (price * U256::from(*ratio)) >> 128;
        }
    }
    if tick > 0 {
        price = U256::MAX / price;
    }
    // Round up when shifting Q128.128 down to Q128.96.
    Ok((price + U256::from(u32::MAX)) >> 32)
}

/// A sqrt price outside `[MIN_SQRT_PRICE, MAX_SQRT_PRICE)` (`TickMath.InvalidSqrtPrice`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("sqrt price {0} is outside [{MIN_SQRT_PRICE}, {MAX_SQRT_PRICE})")]
pub struct InvalidSqrtPrice(pub U256);

/// `2^128 / log2(sqrt(1.0001))`: turns a Q64.64 `log2` into a Q22.128 `log_sqrt(1.0001)`.
const LOG_SQRT10001_FACTOR: u128 = 255_738_958_999_603_826_347_141;
/// Ceiling of the maximum error of the `log_sqrt10001` approximation (subtracted for `tickLow`).
const TICK_LOW_ERROR: u128 = 3_402_992_956_809_132_418_596_140_100_660_247_210;
/// Minimum error of the approximation for prices in `(2^-64, 2^64)` (added for `tickHi`).
const TICK_HI_ERROR: u128 = 291_339_464_771_989_622_907_027_621_153_398_088_495;

/// `TickMath.getTickAtSqrtPrice(sqrtPriceX96)`: the greatest tick `t` with
/// `get_sqrt_price_at_tick(t) <= sqrt_price_x96` (rounds toward the lower tick).
///
/// # Errors
/// [`InvalidSqrtPrice`] when `sqrt_price_x96 < MIN_SQRT_PRICE` or `>= MAX_SQRT_PRICE` (the price at
/// `MAX_TICK` itself is excluded, as in the contract).
pub fn get_tick_at_sqrt_price(sqrt_price_x96: U256) -> Result<i32, InvalidSqrtPrice> {
    if sqrt_price_x96 < MIN_SQRT_PRICE || sqrt_price_x96 >= MAX_SQRT_PRICE {
        return Err(InvalidSqrtPrice(sqrt_price_x96));
    }
    // sqrt < 2^160, so price < 2^192 and is non-zero.
    let price: U256 = sqrt_price_x96 << 32usize;
    let msb = 255 - price.leading_zeros();
    // Normalise to r in [2^127, 2^128).
    let mut r = if msb >= 128 {
        price >> (msb - 127)
    } else {
        price << (127 - msb)
    };
    // msb in [32, 191]: (msb - 128) << 64 fits easily in an i128.
    let mut log_2: i128 = (msb as i128 - 128) << 64;
    for bit in (50..=63).rev() {
        // r in [2^127, 2^128) here, so r * r < 2^256 and (r * r) >> 127 in [2^127, 2^129).
        r = (r * r) >> 127;
        let f = usize::from(r.bit(128));
        log_2 |= (f as i128) << bit;
        r >>= f;
    }
    // |log_2| < 2^71 and the factor < 2^78: the int256 product cannot overflow.
    let log_2 = if log_2 < 0 {
        I256::from_raw(U256::from(log_2.unsigned_abs())).wrapping_neg()
    } else {
        I256::from_raw(U256::from(log_2.unsigned_abs()))
    };
    let log_sqrt10001 = log_2.wrapping_mul(I256::from_raw(U256::from(LOG_SQRT10001_FACTOR)));
    let tick_low = log_sqrt10001
        .wrapping_sub(I256::from_raw(U256::from(TICK_LOW_ERROR)))
        .asr(128)
        .low_i32();
    let tick_hi = log_sqrt10001
        .wrapping_add(I256::from_raw(U256::from(TICK_HI_ERROR)))
        .asr(128)
        .low_i32();
    if tick_low == tick_hi {
        return Ok(tick_low);
    }
    match get_sqrt_price_at_tick(i64::from(tick_hi)) {
        Ok(p) if p <= sqrt_price_x96 => Ok(tick_hi),
        _ => Ok(tick_low),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_and_zero() {
        assert_eq!(get_sqrt_price_at_tick(MIN_TICK as i64), Ok(MIN_SQRT_PRICE));
        assert_eq!(get_sqrt_price_at_tick(MAX_TICK as i64), Ok(MAX_SQRT_PRICE));
        assert_eq!(
            MAX_SQRT_PRICE.to_string(),
            "1461446703485210103287273052203988822378723970342"
        );
        assert_eq!(get_sqrt_price_at_tick(0), Ok(U256::from(1u8) << 96));
        assert_eq!(
            get_sqrt_price_at_tick(MAX_TICK as i64 + 1),
            Err(InvalidTick(887_273))
        );
        assert_eq!(
            get_sqrt_price_at_tick(MIN_TICK as i64 - 1),
            Err(InvalidTick(-887_273))
        );
        assert!(get_sqrt_price_at_tick(i64::MIN).is_err());
    }

    #[test]
    fn known_values_from_v4_core_tests() {
        // TickMath.t.sol: getSqrtPriceAtTick(MIN_TICK + 1) and (MAX_TICK - 1).
        assert_eq!(
            get_sqrt_price_at_tick(MIN_TICK as i64 + 1).unwrap(),
            U256::from(4_295_343_490u64)
        );
        assert_eq!(
            get_sqrt_price_at_tick(MAX_TICK as i64 - 1)
                .unwrap()
                .to_string(),
            "1461373636630004318706518188784493106690254656249"
        );
    }

    #[test]
    fn monotonic_on_a_sample() {
        let mut prev = U256::ZERO;
        for t in (MIN_TICK..=MAX_TICK).step_by(997) {
            let p = get_sqrt_price_at_tick(t as i64).unwrap();
            assert!(p > prev);
            prev = p;
        }
    }

    #[test]
    fn tick_at_sqrt_price_ends_and_errors() {
        assert_eq!(get_tick_at_sqrt_price(MIN_SQRT_PRICE), Ok(MIN_TICK));
        assert_eq!(
            get_tick_at_sqrt_price(MIN_SQRT_PRICE + U256::from(1u8)),
            Ok(MIN_TICK)
        );
        assert_eq!(
            get_tick_at_sqrt_price(MAX_SQRT_PRICE - U256::from(1u8)),
            Ok(MAX_TICK - 1)
        );
        assert_eq!(get_tick_at_sqrt_price(U256::from(1u8) << 96), Ok(0));
        assert_eq!(
            get_tick_at_sqrt_price((U256::from(1u8) << 96) - U256::from(1u8)),
            Ok(-1)
        );
        for bad in [
            U256::ZERO,
            MIN_SQRT_PRICE - U256::from(1u8),
            MAX_SQRT_PRICE,
            U256::from(1u8) << 160,
            U256::MAX,
        ] {
            assert_eq!(get_tick_at_sqrt_price(bad), Err(InvalidSqrtPrice(bad)));
        }
    }

    proptest::proptest! {
        #[test]
        fn tick_at_sqrt_price_inverts_sqrt_price_at_tick(t in MIN_TICK..MAX_TICK) {
            let p = get_sqrt_price_at_tick(i64::from(t)).unwrap();
            proptest::prop_assert_eq!(get_tick_at_sqrt_price(p), Ok(t));
            let next = get_sqrt_price_at_tick(i64::from(t) + 1).unwrap();
            proptest::prop_assert_eq!(get_tick_at_sqrt_price(next - U256::from(1u8)), Ok(t));
            if t > MIN_TICK {
                proptest::prop_assert_eq!(get_tick_at_sqrt_price(p - U256::from(1u8)), Ok(t - 1));
            }
        }

        #[test]
        fn tick_at_sqrt_price_is_the_floor(limbs in proptest::prelude::any::<[u64; 3]>()) {
            let x = U256::from_limbs([limbs[0], limbs[1], limbs[2] & 0xffff_ffff, 0]);
            match get_tick_at_sqrt_price(x) {
                Ok(t) => {
                    proptest::prop_assert!(get_sqrt_price_at_tick(i64::from(t)).unwrap() <= x);
                    proptest::prop_assert!(get_sqrt_price_at_tick(i64::from(t) + 1).unwrap() > x);
                }
                Err(_) => proptest::prop_assert!(x < MIN_SQRT_PRICE || x >= MAX_SQRT_PRICE),
            }
        }
    }
}
