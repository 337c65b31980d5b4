//! Uniswap v3 `OracleLibrary` prices (A5, C16): quotes at a tick, TWAP mean ticks, and the USDG
//! price of one stock token as a WAD.
//!
//! - [`get_quote_at_tick`]: `OracleLibrary.getQuoteAtTick`, exactly: `sqrtRatioX96` from
//!   `TickMath` (v3 `getSqrtRatioAtTick` = v4 [`get_sqrt_price_at_tick`], same constants and
//!   rounding); when `sqrtRatioX96 <= type(uint128).max` it uses `ratioX192 = sqrt²`, otherwise
//!   `ratioX128 = mulDiv(sqrt, sqrt, 2^64)`; `baseToken < quoteToken` picks `ratio × base / 2^k`,
//!   else `2^k × base / ratio`. All divisions round down (full-precision `mulDiv`).
//! - [`arithmetic_mean_tick`]: `(tickCumulative[end] − tickCumulative[start]) / seconds`,
//!   rounded toward negative infinity (`OracleLibrary.consult`, A5). [`arithmetic_mean_tick_rounded`]
//!   also rounds up, and [`mean_tick_toward_lower_price`] picks the direction that lowers the base
//!   token's price (C16: "mean ticks round toward the lower ROOT price").
//! - [`stock_price_wad`] (A5, decided): `getQuoteAtTick(avgTick, 10^18, stock, USDG) × 10^12`,
//!   the USDG (6 decimals) value of one whole stock token (18 decimals) scaled to a WAD.
//!   [`twap_price_wad`] does the same from two tick cumulatives over a window
//!   ([`TWAP_WINDOW_SECONDS`] = 300 s in A5).
//!
//! Token order: in a pool `token0 < token1` by address, and the tick prices token0 in token1
//! (`1.0001^tick` token1 per token0). Functions taking a `*_is_token0` flag follow that order
//! without needing the addresses.

use alloy_primitives::{Address, U256};

use super::tick_math::{get_sqrt_price_at_tick, InvalidTick, MAX_TICK, MIN_TICK};
use crate::math::{mul_div_down, MathError};

/// The TWAP window of call prices (A5): 300 seconds.
pub const TWAP_WINDOW_SECONDS: u32 = 300;
/// Decimals of a stock token (A5).
pub const STOCK_DECIMALS: u32 = 18;
/// Decimals of USDG (A5).
pub const USDG_DECIMALS: u32 = 6;
/// One whole stock token in its base units, `10^18`: the `baseAmount` of [`stock_price_wad`].
pub const ONE_STOCK_TOKEN: u128 = 1_000_000_000_000_000_000;
/// `10^(18 − 6)`: scales a USDG amount (6 decimals) to a WAD.
pub const USDG_TO_WAD: U256 = U256::from_limbs([1_000_000_000_000, 0, 0, 0]);

/// Why an oracle price could not be computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum OracleError {
    /// The tick is outside `[MIN_TICK, MAX_TICK]`.
    #[error("tick: {0}")]
    InvalidTick(#[from] InvalidTick),
    /// A TWAP over zero seconds (`OracleLibrary.consult`'s `BP`).
    #[error("seconds: the TWAP window must be at least 1 second")]
    ZeroWindow,
    /// The mean tick of the two cumulatives is outside `[MIN_TICK, MAX_TICK]`.
    #[error("tick cumulatives: their mean tick {0} is outside [{MIN_TICK}, {MAX_TICK}]")]
    MeanTickOutOfRange(i128),
    /// The quote overflowed 256 bits (`FullMath.mulDiv` would revert).
    #[error("quote: {0}")]
    Math(#[from] MathError),
}

/// Rounding of a mean tick that is not an integer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeanTickRounding {
    /// Toward negative infinity (`OracleLibrary.consult`, A5).
    Floor,
    /// Toward positive infinity.
    Ceil,
}

/// `OracleLibrary.getQuoteAtTick(tick, baseAmount, baseToken, quoteToken)`: the amount of
/// `quote_token` worth `base_amount` of `base_token` at `tick`, rounded down.
///
/// Addresses only decide the order, as in the contract (`baseToken < quoteToken`; equal
/// addresses take the `else` branch).
///
/// # Errors
/// [`OracleError::InvalidTick`] for a tick outside the TickMath range; [`OracleError::Math`] if
/// the result would not fit in 256 bits (where `mulDiv` reverts).
pub fn get_quote_at_tick(
    tick: i32,
    base_amount: u128,
    base_token: Address,
    quote_token: Address,
) -> Result<U256, OracleError> {
    get_quote_at_tick_ordered(tick, base_amount, base_token < quote_token)
}

/// [`get_quote_at_tick`] with the order given directly: `base_is_token0` is
/// `baseToken < quoteToken` (the base is the pool's token0, the tick prices it in the quote).
///
/// # Errors
/// As [`get_quote_at_tick`].
pub fn get_quote_at_tick_ordered(
    tick: i32,
    base_amount: u128,
    base_is_token0: bool,
) -> Result<U256, OracleError> {
    let sqrt_ratio = get_sqrt_price_at_tick(i64::from(tick))?;
    let base = U256::from(base_amount);
    if sqrt_ratio <= U256::from(u128::MAX) {
        // sqrt < 2^128, so the square fits in 256 bits (and is > 0: sqrt >= MIN_SQRT_PRICE).
        let ratio_x192 = sqrt_ratio * sqrt_ratio;
        let q192 = U256::from(1u8) << 192;
        Ok(if base_is_token0 {
            mul_div_down(ratio_x192, base, q192)?
        } else {
            mul_div_down(q192, base, ratio_x192)?
        })
    } else {
        let ratio_x128 = mul_div_down(sqrt_ratio, sqrt_ratio, U256::from(1u8) << 64)?;
        let q128 = U256::from(1u8) << 128;
        Ok(if base_is_token0 {
            mul_div_down(ratio_x128, base, q128)?
        } else {
            mul_div_down(q128, base, ratio_x128)?
        })
    }
}

/// The arithmetic mean tick between two tick cumulatives `seconds` apart, rounded toward
/// negative infinity (`OracleLibrary.consult`, A5).
///
/// # Errors
/// [`OracleError::ZeroWindow`] if `seconds == 0`; [`OracleError::MeanTickOutOfRange`] if the mean
/// is outside `[MIN_TICK, MAX_TICK]` (no real pair of cumulatives gives that).
pub fn arithmetic_mean_tick(
    tick_cumulative_start: i64,
    tick_cumulative_end: i64,
    seconds: u32,
) -> Result<i32, OracleError> {
    arithmetic_mean_tick_rounded(
        tick_cumulative_start,
        tick_cumulative_end,
        seconds,
        MeanTickRounding::Floor,
    )
}

/// [`arithmetic_mean_tick`] with an explicit rounding direction.
///
/// # Errors
/// As [`arithmetic_mean_tick`].
pub fn arithmetic_mean_tick_rounded(
    tick_cumulative_start: i64,
    tick_cumulative_end: i64,
    seconds: u32,
    rounding: MeanTickRounding,
) -> Result<i32, OracleError> {
    if seconds == 0 {
        return Err(OracleError::ZeroWindow);
    }
    // Differences of two i64 fit in an i128; the divisor is positive.
    let delta = i128::from(tick_cumulative_end) - i128::from(tick_cumulative_start);
    let secs = i128::from(seconds);
    let mut mean = delta / secs; // truncates toward zero
    let rem = delta % secs;
    match rounding {
        MeanTickRounding::Floor if rem < 0 => mean -= 1,
        MeanTickRounding::Ceil if rem > 0 => mean += 1,
        _ => {}
    }
    if mean < i128::from(MIN_TICK) || mean > i128::from(MAX_TICK) {
        return Err(OracleError::MeanTickOutOfRange(mean));
    }
    i32::try_from(mean).map_err(|_| OracleError::MeanTickOutOfRange(mean))
}

/// The mean tick rounded toward the *lower* price of the base token (C16): floor when the base
/// is token0 (its price is `1.0001^tick`), ceiling when it is token1 (price `1.0001^−tick`).
///
/// # Errors
/// As [`arithmetic_mean_tick`].
pub fn mean_tick_toward_lower_price(
    tick_cumulative_start: i64,
    tick_cumulative_end: i64,
    seconds: u32,
    base_is_token0: bool,
) -> Result<i32, OracleError> {
    let rounding = if base_is_token0 {
        MeanTickRounding::Floor
    } else {
        MeanTickRounding::Ceil
    };
    arithmetic_mean_tick_rounded(
        tick_cumulative_start,
        tick_cumulative_end,
        seconds,
        rounding,
    )
}

/// The USDG price of one stock token as a WAD (A5, decided):
/// `getQuoteAtTick(avgTick, 10^18, stock, USDG) × 10^12`, rounded down by the quote.
///
/// `stock_is_token0` is `stock < USDG` by address (the pool's order).
///
/// # Errors
/// [`OracleError::InvalidTick`] for a tick outside the TickMath range.
pub fn stock_price_wad(avg_tick: i32, stock_is_token0: bool) -> Result<U256, OracleError> {
    let usdg = get_quote_at_tick_ordered(avg_tick, ONE_STOCK_TOKEN, stock_is_token0)?;
    Ok(usdg.checked_mul(USDG_TO_WAD).ok_or(MathError::Overflow)?)
}

/// The TWAP USDG price of one stock token as a WAD over `seconds` (A5: 300 s): the mean tick of
/// the two cumulatives (rounded toward −∞) fed to [`stock_price_wad`].
///
/// # Errors
/// As [`arithmetic_mean_tick`] and [`stock_price_wad`].
pub fn twap_price_wad(
    tick_cumulative_start: i64,
    tick_cumulative_end: i64,
    seconds: u32,
    stock_is_token0: bool,
) -> Result<U256, OracleError> {
    let tick = arithmetic_mean_tick(tick_cumulative_start, tick_cumulative_end, seconds)?;
    stock_price_wad(tick, stock_is_token0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::address;
    use proptest::prelude::*;

    const E18: u128 = ONE_STOCK_TOKEN;
    const LOW: Address = address!("1000000000000000000000000000000000000000");
    const HIGH: Address = address!("2000000000000000000000000000000000000000");

    fn u(s: &str) -> U256 {
        U256::from_str_radix(s, 10).unwrap()
    }

    #[test]
    fn tick_zero_is_parity() {
        assert_eq!(get_quote_at_tick(0, E18, LOW, HIGH), Ok(U256::from(E18)));
        assert_eq!(get_quote_at_tick(0, E18, HIGH, LOW), Ok(U256::from(E18)));
        assert_eq!(get_quote_at_tick(0, 0, LOW, HIGH), Ok(U256::ZERO));
        // Equal addresses take the `else` branch, as in Solidity.
        assert_eq!(
            get_quote_at_tick(1, E18, LOW, LOW),
            get_quote_at_tick(1, E18, HIGH, LOW)
        );
    }

    #[test]
    fn hand_checkable_ticks() {
        // 1.0001^1 × 10^18 = 1.0001e18, exactly (the sqrt rounding is absorbed by the floor).
        assert_eq!(
            get_quote_at_tick(1, E18, LOW, HIGH).unwrap(),
            U256::from(1_000_100_000_000_000_000u128)
        );
        // 1 / 1.0001 = 0.99990000999900009999…
        assert_eq!(
            get_quote_at_tick(1, E18, HIGH, LOW).unwrap(),
            U256::from(999_900_009_999_000_099u128)
        );
        assert_eq!(
            get_quote_at_tick(-1, E18, LOW, HIGH).unwrap(),
            U256::from(999_900_009_999_000_099u128)
        );
        assert_eq!(
            get_quote_at_tick(-1, E18, HIGH, LOW).unwrap(),
            U256::from(1_000_099_999_999_999_999u128)
        );
    }

    // Vectors from an independent exact big-integer implementation (Python) of v3 TickMath +
    // OracleLibrary: (tick, base 10^18 quoted in higher-address token, in lower-address token).
    #[test]
    fn known_vectors_both_orders() {
        let cases: [(i32, &str, &str); 10] = [
            (-230_259, "100110275", "9988984589490329850519953454"),
            (-230_258, "100120286", "9987985790911238726647281928"),
            (230_258, "9987985790911238726647298253", "100120286"),
            (230_259, "9988984589490329850519962983", "100110275"),
            (100_000, "22015456048552198645701", "45422633889328"),
            (-100_000, "45422633889328", "22015456048552198645701"),
            (443_636, "18446050711097703529776342895654370894", "0"),
            (443_637, "18447895316168813300129320530133980662", "0"),
            (
                887_272,
                "340256786836388094070642339899681172762184831912720469415",
                "0",
            ),
            (
                -887_272,
                "0",
                "340256786698763678858396856460488307819979090561464864775",
            ),
        ];
        for (tick, as_token0, as_token1) in cases {
            assert_eq!(
                get_quote_at_tick(tick, E18, LOW, HIGH).unwrap(),
                u(as_token0),
                "tick {tick} base token0"
            );
            assert_eq!(
                get_quote_at_tick(tick, E18, HIGH, LOW).unwrap(),
                u(as_token1),
                "tick {tick} base token1"
            );
        }
    }

    #[test]
    fn both_branches_are_taken() {
        // sqrtRatioX96 crosses 2^128 between ticks 443636 and 443637.
        let below = get_sqrt_price_at_tick(443_636).unwrap();
        let above = get_sqrt_price_at_tick(443_637).unwrap();
        assert!(below <= U256::from(u128::MAX));
        assert!(above > U256::from(u128::MAX));
        // Extremes with the largest base amount still fit in 256 bits.
        assert_eq!(
            get_quote_at_tick(887_272, u128::MAX, LOW, HIGH).unwrap(),
            u("115783384785599357996676985412062652720342362943929506828539444553934033845703")
        );
        assert_eq!(
            get_quote_at_tick(-887_272, u128::MAX, HIGH, LOW).unwrap(),
            u("115783384738768196242144082653949453838306988932806144552194799290216044976282")
        );
    }

    #[test]
    fn invalid_ticks_are_errors() {
        assert_eq!(
            get_quote_at_tick(887_273, E18, LOW, HIGH),
            Err(OracleError::InvalidTick(InvalidTick(887_273)))
        );
        assert!(get_quote_at_tick(i32::MIN, E18, LOW, HIGH).is_err());
        assert!(stock_price_wad(-887_273, true).is_err());
    }

    #[test]
    fn stock_price_both_orders() {
        // Stock token0 at tick −230259 is worth 100.110275 USDG; mirrored tick with stock token1.
        let wad = u("100110275000000000000");
        assert_eq!(stock_price_wad(-230_259, true).unwrap(), wad);
        assert_eq!(stock_price_wad(230_259, false).unwrap(), wad);
        // Tick 0 with 18/6 decimals: 10^18 stock units buy 10^18 USDG units = 10^12 USDG.
        assert_eq!(
            stock_price_wad(0, true).unwrap(),
            u("1000000000000000000000000000000")
        );
        // About $100 (float only to sanity-check the example, not in the protocol path).
        let p = stock_price_wad(-230_271, true).unwrap();
        let dollars =
            f64::from(u32::try_from(p / U256::from(10u64).pow(U256::from(12u8))).unwrap()) / 1e6;
        assert!((dollars - 100.0).abs() < 0.01, "{dollars}");
    }

    #[test]
    fn mean_tick_rounds_toward_negative_infinity() {
        assert_eq!(arithmetic_mean_tick(0, 3000, 300), Ok(10));
        assert_eq!(arithmetic_mean_tick(0, 3001, 300), Ok(10));
        assert_eq!(arithmetic_mean_tick(0, 3299, 300), Ok(10));
        assert_eq!(arithmetic_mean_tick(0, -3000, 300), Ok(-10));
        assert_eq!(arithmetic_mean_tick(0, -3001, 300), Ok(-11));
        assert_eq!(arithmetic_mean_tick(0, -1, 300), Ok(-1));
        assert_eq!(arithmetic_mean_tick(1_000, 1_000, 300), Ok(0));
        assert_eq!(
            arithmetic_mean_tick(-69_077_700, -69_146_777, 300),
            Ok(-231)
        ); // -69077/300 = -230.25…
        assert_eq!(
            arithmetic_mean_tick_rounded(0, -3001, 300, MeanTickRounding::Ceil),
            Ok(-10)
        );
        assert_eq!(
            arithmetic_mean_tick_rounded(0, 3001, 300, MeanTickRounding::Ceil),
            Ok(11)
        );
        assert_eq!(mean_tick_toward_lower_price(0, 3001, 300, true), Ok(10));
        assert_eq!(mean_tick_toward_lower_price(0, 3001, 300, false), Ok(11));
    }

    #[test]
    fn mean_tick_errors() {
        assert_eq!(arithmetic_mean_tick(0, 1, 0), Err(OracleError::ZeroWindow));
        assert_eq!(
            arithmetic_mean_tick(0, 887_273 * 300, 300),
            Err(OracleError::MeanTickOutOfRange(887_273))
        );
        assert_eq!(
            arithmetic_mean_tick(0, 887_272 * 300 + 299, 300),
            Ok(887_272)
        );
        assert_eq!(arithmetic_mean_tick(0, -887_272 * 300, 300), Ok(-887_272));
        assert!(arithmetic_mean_tick(0, -887_272 * 300 - 1, 300).is_err());
        assert!(arithmetic_mean_tick(i64::MIN, i64::MAX, 1).is_err());
        assert!(arithmetic_mean_tick(i64::MAX, i64::MIN, u32::MAX).is_err());
    }

    #[test]
    fn twap_price_combines_mean_and_quote() {
        // cumulative moved by -230259 × 300 − 1 over 300 s: mean -230259.003… floors to -230260.
        let start = 5_000_000_000i64;
        let end = start - 230_259 * 300 - 1;
        assert_eq!(
            twap_price_wad(start, end, TWAP_WINDOW_SECONDS, true),
            stock_price_wad(-230_260, true)
        );
        assert_eq!(
            twap_price_wad(start, start - 230_259 * 300, 300, true).unwrap(),
            u("100110275000000000000")
        );
        assert_eq!(twap_price_wad(0, 0, 0, true), Err(OracleError::ZeroWindow));
    }

    proptest! {
        #[test]
        fn quote_is_monotonic_in_tick(t in MIN_TICK..MAX_TICK, base in any::<u128>()) {
            let a0 = get_quote_at_tick_ordered(t, base, true).unwrap();
            let b0 = get_quote_at_tick_ordered(t + 1, base, true).unwrap();
            prop_assert!(a0 <= b0);
            let a1 = get_quote_at_tick_ordered(t, base, false).unwrap();
            let b1 = get_quote_at_tick_ordered(t + 1, base, false).unwrap();
            prop_assert!(a1 >= b1);
        }

        #[test]
        fn stock_price_is_monotonic_for_each_order(t in MIN_TICK..MAX_TICK) {
            prop_assert!(stock_price_wad(t, true).unwrap() <= stock_price_wad(t + 1, true).unwrap());
            prop_assert!(stock_price_wad(t, false).unwrap() >= stock_price_wad(t + 1, false).unwrap());
        }

        #[test]
        fn addresses_only_decide_the_order(t in MIN_TICK..=MAX_TICK, base in any::<u128>(),
                                           a in any::<[u8; 20]>(), b in any::<[u8; 20]>()) {
            let (a, b) = (Address::from(a), Address::from(b));
            prop_assert_eq!(get_quote_at_tick(t, base, a, b), get_quote_at_tick_ordered(t, base, a < b));
        }

        #[test]
        fn no_panic_for_any_input(t in any::<i32>(), base in any::<u128>(), order in any::<bool>(),
                                  s in any::<i64>(), e in any::<i64>(), secs in any::<u32>()) {
            let q = get_quote_at_tick_ordered(t, base, order);
            prop_assert_eq!(q.is_err(), !(MIN_TICK..=MAX_TICK).contains(&t));
            let _ = stock_price_wad(t, order);
            let _ = twap_price_wad(s, e, secs, order);
            if let Ok(m) = arithmetic_mean_tick(s, e, secs) {
                prop_assert!((MIN_TICK..=MAX_TICK).contains(&m));
            }
        }

        #[test]
        fn mean_tick_is_the_floor(s in -(1i64 << 50)..(1i64 << 50), d in -(887_272i64 * 300)..(887_272i64 * 300),
                                  secs in 1u32..100_000) {
            let e = s + d * i64::from(secs) / 300;
            if let Ok(m) = arithmetic_mean_tick(s, e, secs) {
                let delta = i128::from(e) - i128::from(s);
                let secs = i128::from(secs);
                prop_assert!(i128::from(m) * secs <= delta);
                prop_assert!((i128::from(m) + 1) * secs > delta);
            }
            if let Ok(c) = arithmetic_mean_tick_rounded(s, e, secs, MeanTickRounding::Ceil) {
                let delta = i128::from(e) - i128::from(s);
                let secs = i128::from(secs);
                prop_assert!(i128::from(c) * secs >= delta);
                prop_assert!((i128::from(c) - 1) * secs < delta);
            }
        }
    }
}
