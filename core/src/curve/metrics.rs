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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::apply_buy;
    use crate::math::format_wad;
    use crate::math::testing::{u, E18};

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
