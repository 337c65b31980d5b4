//! Curve state and its pairs (C19).
//!
//! Pairs: ETH `Φ = 1.25 ETH, G = 5 ETH`; stablecoin `Φ = 3,125, G = 12,500` whole pair tokens.
//! `G = 4Φ` always. `S = 1,000,000,000 × 10^18` and `τ = 1 %` are **placeholder defaults**
//! (C19 decided), not protocol facts: the real values are configuration.
//!
//! Decided here: a state is valid only when `S ≥ 25 × Φ` ([`MIN_SUPPLY_PER_VIRTUAL_QUOTE`]):
//! then the token unit is finer than `Φ+Q` can ever make the quote unit, the curve keeps
//! `Φ + Q = ceil(Φ·S / Y)` after every trade, and rounding can never create slack a trader
//! could extract (a buy followed by a sell returns at most what was paid). Every real
//! configuration is many orders of magnitude above this bound.

use super::CurveError;
use crate::math::{checked_add, MathError};
use alloy_primitives::{U256, U512};
use ruint::uint;

/// Decimals of every launched token.
pub const TOKEN_DECIMALS: u8 = 18;
/// `G = GRADUATION_MULTIPLE × Φ` (C19: graduation at `4Φ`, where `Y = S/5`).
pub const GRADUATION_MULTIPLE: u64 = 4;
/// ETH pair virtual quote `Φ` = 1.25 ETH in wei.
pub const ETH_VIRTUAL_QUOTE: U256 = U256::from_limbs([1_250_000_000_000_000_000, 0, 0, 0]);
/// ETH pair graduation target `G` = 5 ETH in wei.
pub const ETH_GRADUATION_TARGET: U256 = U256::from_limbs([5_000_000_000_000_000_000, 0, 0, 0]);
/// Stablecoin pair virtual quote `Φ` in whole pair tokens (3,125).
pub const STABLE_VIRTUAL_QUOTE_WHOLE: u64 = 3_125;
/// Stablecoin pair graduation target `G` in whole pair tokens (12,500).
pub const STABLE_GRADUATION_TARGET_WHOLE: u64 = 12_500;
/// **Placeholder** default total supply `S` = 1,000,000,000 tokens (18 decimals).
pub const DEFAULT_TOTAL_SUPPLY: U256 = uint!(1_000_000_000_000000000000000000_U256);
/// **Placeholder** default trading fee `τ` = 1 % = 100 bps.
pub const DEFAULT_FEE_BPS: u32 = 100;
/// A fee is at most this many bps minus one (a 100 % fee would leave nothing to trade).
pub const BPS: u32 = 10_000;
/// Validity bound: `S ≥ MIN_SUPPLY_PER_VIRTUAL_QUOTE × Φ` (decided; see the module doc).
pub const MIN_SUPPLY_PER_VIRTUAL_QUOTE: u64 = 25;

/// The state of one launch's curve (C19). All amounts in smallest units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct CurveState {
    /// `Φ`: the virtual quote reserve, never held.
    #[serde(with = "crate::serde_dec::u256")]
    pub virtual_quote: U256,
    /// `S`: total token supply.
    #[serde(with = "crate::serde_dec::u256")]
    pub total_supply: U256,
    /// `Q`: real quote raised (held by the curve), `0 ≤ Q ≤ G`.
    #[serde(with = "crate::serde_dec::u256")]
    pub quote_raised: U256,
    /// `Y`: tokens still held by the curve, `S/5 ≤ Y ≤ S`.
    #[serde(with = "crate::serde_dec::u256")]
    pub token_reserve: U256,
    /// `τ`: trading fee in bps (placeholder default [`DEFAULT_FEE_BPS`]).
    #[serde(with = "crate::serde_dec::int")]
    pub fee_bps: u32,
    /// Launch time (unix seconds), the origin of the anti-snipe tax (0 when absent on input).
    #[serde(default, with = "crate::serde_dec::int")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub launch_time: u64,
}

impl CurveState {
    /// A fresh curve (`Q = 0`, `Y = S`) with virtual quote `Φ`, supply `S` and fee `τ`.
    ///
    /// # Errors
    /// [`CurveError::InvalidState`] as [`CurveState::validate`].
    pub fn new(
        virtual_quote: U256,
        total_supply: U256,
        fee_bps: u32,
        launch_time: u64,
    ) -> Result<Self, CurveError> {
        let s = Self {
            virtual_quote,
            total_supply,
            quote_raised: U256::ZERO,
            token_reserve: total_supply,
            fee_bps,
            launch_time,
        };
        s.validate()?;
        Ok(s)
    }

    /// A fresh ETH-pair curve with the placeholder defaults (`Φ = 1.25 ETH`, `S`, `τ`).
    pub fn eth_pair(launch_time: u64) -> Self {
        Self {
            virtual_quote: ETH_VIRTUAL_QUOTE,
            total_supply: DEFAULT_TOTAL_SUPPLY,
            quote_raised: U256::ZERO,
            token_reserve: DEFAULT_TOTAL_SUPPLY,
            fee_bps: DEFAULT_FEE_BPS,
            launch_time,
        }
    }

    /// A fresh stablecoin-pair curve (`Φ = 3,125` whole pair tokens of `decimals`) with the
    /// placeholder defaults.
    ///
    /// # Errors
    /// [`CurveError::InvalidState`] when `decimals` is so large that `S ≥ 25Φ` fails.
    pub fn stablecoin_pair(decimals: u8, launch_time: u64) -> Result<Self, CurveError> {
        let unit = U256::from(10u8)
            .checked_pow(U256::from(decimals))
            .ok_or_else(|| CurveError::InvalidState(format!("decimals {decimals} is too large")))?;
        let phi = unit
            .checked_mul(U256::from(STABLE_VIRTUAL_QUOTE_WHOLE))
            .ok_or_else(|| CurveError::InvalidState(format!("decimals {decimals} is too large")))?;
        Self::new(phi, DEFAULT_TOTAL_SUPPLY, DEFAULT_FEE_BPS, launch_time)
    }

    /// `G = 4Φ`.
    ///
    /// # Errors
    /// [`CurveError::Math`] when `4Φ` overflows.
    pub fn graduation_target(&self) -> Result<U256, CurveError> {
        Ok(self
            .virtual_quote
            .checked_mul(U256::from(GRADUATION_MULTIPLE))
            .ok_or(MathError::Overflow)?)
    }

    /// The token reserve at graduation, `ceil(Φ·S / (Φ + G)) = ceil(S/5)`.
    ///
    /// # Errors
    /// [`CurveError::Math`] on overflow.
    pub fn graduation_reserve(&self) -> Result<U256, CurveError> {
        let g = self.graduation_target()?;
        Ok(crate::math::mul_div_up(
            self.virtual_quote,
            self.total_supply,
            checked_add(self.virtual_quote, g)?,
        )?)
    }

    /// `true` once `Q = G` (then trading is in the pool).
    pub fn is_graduated(&self) -> bool {
        self.graduation_target()
            .map(|g| self.quote_raised >= g)
            .unwrap_or(false)
    }

    /// Tokens sold so far, `S − Y`.
    pub fn tokens_sold(&self) -> U256 {
        self.total_supply.saturating_sub(self.token_reserve)
    }

    /// Seconds since launch at unix time `now` (0 before launch: the full anti-snipe tax).
    pub fn seconds_since_launch(&self, now: u64) -> u64 {
        now.saturating_sub(self.launch_time)
    }

    /// Checks that the state is one the curve can be in: `Φ > 0`, `S > 0`, `S ≥ 25Φ`,
    /// `τ < 100 %`, `Y ≤ S`, `Q ≤ G` and the invariant `(Φ + Q) × Y ≥ Φ × S`.
    ///
    /// # Errors
    /// [`CurveError::InvalidState`] naming the offending field.
    pub fn validate(&self) -> Result<(), CurveError> {
        let bad = |m: String| Err(CurveError::InvalidState(m));
        if self.virtual_quote.is_zero() {
            return bad("virtualQuote must be greater than zero".into());
        }
        if self.total_supply.is_zero() {
            return bad("totalSupply must be greater than zero".into());
        }
        if self.fee_bps >= BPS {
            return bad(format!("feeBps {} must be below {BPS}", self.fee_bps));
        }
        let min_supply = U512::from(self.virtual_quote) * U512::from(MIN_SUPPLY_PER_VIRTUAL_QUOTE);
        if U512::from(self.total_supply) < min_supply {
            return bad(format!(
                "totalSupply {} must be at least {MIN_SUPPLY_PER_VIRTUAL_QUOTE} × virtualQuote {}",
                self.total_supply, self.virtual_quote
            ));
        }
        if self.token_reserve > self.total_supply {
            return bad(format!(
                "tokenReserve {} exceeds totalSupply {}",
                self.token_reserve, self.total_supply
            ));
        }
        let g = self.graduation_target()?;
        if self.quote_raised > g {
            return bad(format!(
                "quoteRaised {} exceeds the graduation target {g}",
                self.quote_raised
            ));
        }
        let a = U512::from(self.virtual_quote) + U512::from(self.quote_raised);
        let lhs = a * U512::from(self.token_reserve);
        let rhs = U512::from(self.virtual_quote) * U512::from(self.total_supply);
        if lhs < rhs {
            return bad(format!(
                "tokenReserve {} and quoteRaised {} break (Φ + Q) × Y ≥ Φ × S",
                self.token_reserve, self.quote_raised
            ));
        }
        Ok(())
    }

    /// Validates and refuses a graduated curve (the common entry check of every trade).
    pub(crate) fn check_tradable(&self) -> Result<(), CurveError> {
        self.validate()?;
        if self.is_graduated() {
            return Err(CurveError::Graduated);
        }
        Ok(())
    }

    /// `Φ + Q`.
    pub(crate) fn virtual_plus_raised(&self) -> Result<U256, CurveError> {
        Ok(checked_add(self.virtual_quote, self.quote_raised)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e18(x: u64) -> U256 {
        U256::from(x) * U256::from(10u64.pow(18))
    }

    #[test]
    fn constants_are_the_pinned_values() {
        assert_eq!(
            ETH_VIRTUAL_QUOTE,
            U256::from(125u8) * U256::from(10u64.pow(16))
        );
        assert_eq!(ETH_GRADUATION_TARGET, e18(5));
        assert_eq!(DEFAULT_TOTAL_SUPPLY, e18(1_000_000_000));
        assert_eq!(
            DEFAULT_TOTAL_SUPPLY.to_string(),
            "1000000000000000000000000000"
        );
        let eth = CurveState::eth_pair(0);
        eth.validate().unwrap();
        assert_eq!(eth.graduation_target().unwrap(), ETH_GRADUATION_TARGET);
        assert_eq!(
            eth.graduation_reserve().unwrap(),
            DEFAULT_TOTAL_SUPPLY / U256::from(5u8)
        );
        let usdc = CurveState::stablecoin_pair(6, 0).unwrap();
        assert_eq!(usdc.virtual_quote, U256::from(3_125_000_000u64));
        assert_eq!(
            usdc.graduation_target().unwrap(),
            U256::from(STABLE_GRADUATION_TARGET_WHOLE * 1_000_000)
        );
        let dai = CurveState::stablecoin_pair(18, 0).unwrap();
        assert_eq!(dai.graduation_target().unwrap(), e18(12_500));
        assert!(CurveState::stablecoin_pair(77, 0).is_err());
        assert!(CurveState::stablecoin_pair(30, 0).is_err()); // S < 25Φ
    }

    #[test]
    fn validation_names_the_field() {
        let ok = CurveState::eth_pair(0);
        let msg = |s: CurveState| s.validate().unwrap_err().to_string();
        assert!(msg(CurveState {
            virtual_quote: U256::ZERO,
            ..ok
        })
        .contains("virtualQuote"));
        assert!(msg(CurveState {
            total_supply: U256::ZERO,
            ..ok
        })
        .contains("totalSupply"));
        assert!(msg(CurveState {
            fee_bps: 10_000,
            ..ok
        })
        .contains("feeBps"));
        assert!(msg(CurveState {
            token_reserve: ok.total_supply + U256::from(1u8),
            ..ok
        })
        .contains("tokenReserve"));
        assert!(msg(CurveState {
            quote_raised: e18(6),
            ..ok
        })
        .contains("quoteRaised"));
        assert!(msg(CurveState {
            token_reserve: ok.total_supply - U256::from(1u8),
            ..ok
        })
        .contains("Φ + Q"));
        assert!(!ok.is_graduated());
        assert!(CurveState {
            quote_raised: e18(5),
            token_reserve: ok.total_supply / U256::from(5u8),
            ..ok
        }
        .is_graduated());
    }

    #[test]
    fn seconds_since_launch_saturates() {
        let s = CurveState::eth_pair(1_000);
        assert_eq!(s.seconds_since_launch(990), 0);
        assert_eq!(s.seconds_since_launch(1_007), 7);
    }
}
