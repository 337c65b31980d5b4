//! Curve read-outs (C19): progress to graduation, spot price, market cap.
//!
//! - progress: `Q / G`, as bps or WAD, rounded down.
//! - spot price: the marginal price `(Φ + Q)² / (Φ·S)` quote units per token unit, expressed
//!   as a WAD of *whole* quote tokens per *whole* launched token (18 decimals), rounded down:
//!   `(Φ + Q)² × 10^18 × 10^18 / (Φ·S × 10^quoteDecimals)`.
//! - market cap: spot price × total supply (fully diluted), a WAD of whole quote tokens,
//!   rounded down: `(Φ + Q)² × 10^18 / (Φ × 10^quoteDecimals)` (S cancels). At launch it is
//!   `Φ`, at graduation `25Φ`.

use super::state::TOKEN_DECIMALS;
use super::{CurveError, CurveState};
use crate::math::{mul_div_down, MathError, U512, WAD};
use alloy_primitives::U256;

/// Every read-out of one curve state at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct CurveMetrics {
    /// [`progress_bps`].
    pub progress_bps: u32,
    /// [`progress_wad`].
    #[serde(with = "crate::serde_dec::u256")]
    pub progress_wad: U256,
    /// [`spot_price_wad`].
    #[serde(with = "crate::serde_dec::u256")]
    pub spot_price_wad: U256,
    /// [`market_cap_wad`].
    #[serde(with = "crate::serde_dec::u256")]
    pub market_cap_wad: U256,
    /// `G`, the graduation target in quote units.
    #[serde(with = "crate::serde_dec::u256")]
    pub graduation_target: U256,
    /// `Q = G`.
    pub graduated: bool,
}

impl CurveMetrics {
    /// The read-outs of `state`, prices in whole quote tokens of `quote_decimals`.
    ///
    /// # Errors
    /// [`CurveError::InvalidState`].
    pub fn of(state: &CurveState, quote_decimals: u8) -> Result<Self, CurveError> {
        Ok(Self {
            progress_bps: progress_bps(state)?,
            progress_wad: progress_wad(state)?,
            spot_price_wad: spot_price_wad(state, quote_decimals)?,
            market_cap_wad: market_cap_wad(state, quote_decimals)?,
            graduation_target: state.graduation_target()?,
            graduated: state.is_graduated(),
        })
    }
}

/// `floor(Q × 10,000 / G)`.
///
/// # Errors
/// [`CurveError::InvalidState`].
pub fn progress_bps(state: &CurveState) -> Result<u32, CurveError> {
    state.validate()?;
    let bps = mul_div_down(
        state.quote_raised,
        U256::from(10_000u32),
        state.graduation_target()?,
    )?;
    // Q ≤ G: at most 10,000.
    Ok(u32::try_from(bps).unwrap_or(10_000))
}

/// `floor(Q × 10^18 / G)`.
///
/// # Errors
/// [`CurveError::InvalidState`].
pub fn progress_wad(state: &CurveState) -> Result<U256, CurveError> {
    state.validate()?;
    Ok(mul_div_down(
        state.quote_raised,
        WAD,
        state.graduation_target()?,
    )?)
}

fn pow10(exp: u32) -> Result<U512, CurveError> {
    U512::from(10u8)
        .checked_pow(U512::from(exp))
        .ok_or(CurveError::Math(MathError::Overflow))
}

fn narrow(x: U512) -> Result<U256, CurveError> {
    U256::checked_from_limbs_slice(x.as_limbs()).ok_or(CurveError::Math(MathError::Overflow))
}

/// The marginal price of one whole token in whole quote tokens, as a WAD (rounded down).
///
/// # Errors
/// [`CurveError::InvalidState`], [`CurveError::Math`] on overflow.
pub fn spot_price_wad(state: &CurveState, quote_decimals: u8) -> Result<U256, CurveError> {
    state.validate()?;
    let a = U512::from(state.virtual_plus_raised()?);
    let num = (a * a)
        .checked_mul(pow10(18 + u32::from(TOKEN_DECIMALS))?)
        .ok_or(MathError::Overflow)?;
    let den = (U512::from(state.virtual_quote) * U512::from(state.total_supply))
        .checked_mul(pow10(u32::from(quote_decimals))?)
        .ok_or(MathError::Overflow)?;
    narrow(num / den)
}

/// Fully diluted market cap (spot price × total supply) in whole quote tokens, as a WAD
/// (rounded down).
///
/// # Errors
/// [`CurveError::InvalidState`], [`CurveError::Math`] on overflow.
pub fn market_cap_wad(state: &CurveState, quote_decimals: u8) -> Result<U256, CurveError> {
    state.validate()?;
    let a = U512::from(state.virtual_plus_raised()?);
    let num = (a * a).checked_mul(pow10(18)?).ok_or(MathError::Overflow)?;
    let den = U512::from(state.virtual_quote)
        .checked_mul(pow10(u32::from(quote_decimals))?)
        .ok_or(MathError::Overflow)?;
    narrow(num / den)
}

/// `ceil(10,000 × (1 − got / at_spot))` where `at_spot = num / den`, i.e. `10,000 × (den·… )`:
/// the shortfall of `got` against the amount the marginal price would give, in bps, rounded up
/// (a warning never understates); 0 when `got` is at least that amount.
fn shortfall_bps_up(got: U512, at_spot_num: U512, at_spot_den: U512) -> Result<u32, CurveError> {
    // got / (num/den) = got·den / num.
    if at_spot_num.is_zero() {
        return Ok(0);
    }
    let got_scaled = got.checked_mul(at_spot_den).ok_or(MathError::Overflow)?;
    if got_scaled >= at_spot_num {
        return Ok(0);
    }
    let short = (at_spot_num - got_scaled)
        .checked_mul(U512::from(10_000u32))
        .ok_or(MathError::Overflow)?;
    let bps = short.div_ceil(at_spot_num);
    Ok(u32::try_from(bps).unwrap_or(10_000).min(10_000))
}

/// A buy's price impact in bps, rounded up (D-trade, decided): how many fewer tokens it gets for
/// the quote that enters the curve (`quote_to_curve`, fee excluded: the fee is shown apart) than
/// the marginal price before it would give: `1 − tokens_out·(Φ+Q)² / (quote_to_curve·Φ·S)`. On
/// the exact curve this is `quote_to_curve / (Φ + Q + quote_to_curve)`.
///
/// # Errors
/// [`CurveError::InvalidState`], [`CurveError::Math`] on overflow.
pub fn buy_impact_bps_up(
    state: &CurveState,
    quote_to_curve: U256,
    tokens_out: U256,
) -> Result<u32, CurveError> {
    state.validate()?;
    let a = U512::from(state.virtual_plus_raised()?);
    // Tokens at the marginal price: quote_to_curve · Φ·S / (Φ+Q)².
    let num = U512::from(quote_to_curve)
        .checked_mul(U512::from(state.virtual_quote) * U512::from(state.total_supply))
        .ok_or(MathError::Overflow)?;
    shortfall_bps_up(U512::from(tokens_out), num, a * a)
}

/// A sell's price impact in bps, rounded up: how much less quote it releases from the curve
/// (`gross_quote_out`, before the fee) than the marginal price before it would pay for
/// `tokens_in`: `1 − gross·Φ·S / (tokens_in·(Φ+Q)²)`.
///
/// # Errors
/// [`CurveError::InvalidState`], [`CurveError::Math`] on overflow.
pub fn sell_impact_bps_up(
    state: &CurveState,
    tokens_in: U256,
    gross_quote_out: U256,
) -> Result<u32, CurveError> {
    state.validate()?;
    let a = U512::from(state.virtual_plus_raised()?);
    // Quote at the marginal price: tokens_in · (Φ+Q)² / (Φ·S).
    let num = U512::from(tokens_in)
        .checked_mul(a * a)
        .ok_or(MathError::Overflow)?;
    let den = U512::from(state.virtual_quote) * U512::from(state.total_supply);
    shortfall_bps_up(U512::from(gross_quote_out), num, den)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::apply_buy;
    use crate::math::format_wad;
    use crate::math::testing::{u, E18};

    #[test]
    fn buy_impact_is_the_closed_form_rounded_up() {
        use crate::curve::quote_buy;
        let s = CurveState::eth_pair(0);
        for x in [E18 / 1_000, E18 / 10, E18, 10 * E18, 90 * E18] {
            let q = quote_buy(&s, u(x), 30 * 86_400).unwrap();
            let a = q.quote_to_curve();
            let bps = buy_impact_bps_up(&s, a, q.tokens_out).unwrap();
            // a / (Φ + Q + a), in bps: the rounded-down tokens_out can only add to it (never below).
            let exact = (a * u(10_000)).div_ceil(s.virtual_quote + s.quote_raised + a);
            let exact = u32::try_from(exact).unwrap();
            assert!(bps == exact || bps == exact + 1, "{x}: {bps} vs {exact}");
        }
        // 1 ETH into a fresh 1.25 ETH curve: 1/(1.25+1·(1−fee)) ≈ 44 %.
        let q = quote_buy(&s, u(E18), 30 * 86_400).unwrap();
        let bps = buy_impact_bps_up(&s, q.quote_to_curve(), q.tokens_out).unwrap();
        assert!((4_400..4_450).contains(&bps), "{bps}");
    }

    #[test]
    fn sell_impact_grows_with_size_and_is_nil_for_a_small_sale() {
        use crate::curve::{apply_buy, quote_sell};
        let (s, _) = apply_buy(
            &CurveState::eth_pair(0),
            u(3 * E18),
            30 * 86_400,
            U256::ZERO,
        )
        .unwrap();
        let mut last = 0;
        for x in [E18, 1_000_000 * E18, 100_000_000 * E18, 400_000_000 * E18] {
            let q = quote_sell(&s, u(x)).unwrap();
            let bps = sell_impact_bps_up(&s, u(x), q.gross()).unwrap();
            assert!(bps >= last, "{x}: {bps} < {last}");
            last = bps;
        }
        assert!(
            last > 2_500,
            "selling 40 % of the supply moves the price: {last}"
        );
        assert!(
            sell_impact_bps_up(&s, u(E18), quote_sell(&s, u(E18)).unwrap().gross()).unwrap() <= 1
        );
    }

    #[test]
    fn launch_and_graduation_values() {
        let s = CurveState::eth_pair(0);
        assert_eq!(progress_bps(&s).unwrap(), 0);
        // Launch price Φ/S = 1.25e18 / 1e27 ETH per token = 0.00000000125 ETH.
        assert_eq!(format_wad(spot_price_wad(&s, 18).unwrap()), "0.00000000125");
        assert_eq!(format_wad(market_cap_wad(&s, 18).unwrap()), "1.25");
        let (g, _) = apply_buy(&s, u(100 * E18), 30, U256::ZERO).unwrap();
        assert_eq!(progress_bps(&g).unwrap(), 10_000);
        assert_eq!(progress_wad(&g).unwrap(), WAD);
        // At graduation the price is 25× the launch price: 25Φ/S.
        assert_eq!(format_wad(spot_price_wad(&g, 18).unwrap()), "0.00000003125");
        assert_eq!(format_wad(market_cap_wad(&g, 18).unwrap()), "31.25");
        let (h, _) = apply_buy(&s, u(2_525_252_525_252_525_253), 30, U256::ZERO).unwrap();
        assert_eq!(h.quote_raised, u(2_500_000_000_000_000_000));
        assert_eq!(progress_bps(&h).unwrap(), 5_000);
    }

    #[test]
    fn stablecoin_pair_in_whole_units() {
        let s = CurveState::stablecoin_pair(6, 0).unwrap();
        assert_eq!(format_wad(spot_price_wad(&s, 6).unwrap()), "0.000003125");
        assert_eq!(format_wad(market_cap_wad(&s, 6).unwrap()), "3125");
    }
}
