//! WAD (10^18) fixed point helpers.

use super::{mul_div_down, mul_div_up, MathError};
use alloy_primitives::{
    utils::{format_units, parse_units},
    U256,
};

/// One, as a WAD: 10^18.
pub const WAD: U256 = U256::from_limbs([1_000_000_000_000_000_000, 0, 0, 0]);

/// `floor(a × b / 10^18)`.
pub fn wad_mul_down(a: U256, b: U256) -> Result<U256, MathError> {
    mul_div_down(a, b, WAD)
}

/// `ceil(a × b / 10^18)`.
pub fn wad_mul_up(a: U256, b: U256) -> Result<U256, MathError> {
    mul_div_up(a, b, WAD)
}

/// `floor(a × 10^18 / b)`.
pub fn wad_div_down(a: U256, b: U256) -> Result<U256, MathError> {
    mul_div_down(a, WAD, b)
}

/// `ceil(a × 10^18 / b)`.
pub fn wad_div_up(a: U256, b: U256) -> Result<U256, MathError> {
    mul_div_up(a, WAD, b)
}

/// `a + b`, or [`MathError::Overflow`].
pub fn checked_add(a: U256, b: U256) -> Result<U256, MathError> {
    a.checked_add(b).ok_or(MathError::Overflow)
}

/// `a − b`, or [`MathError::Underflow`].
pub fn checked_sub(a: U256, b: U256) -> Result<U256, MathError> {
    a.checked_sub(b).ok_or(MathError::Underflow)
}

/// Why a decimal does not parse as a WAD ([`parse_wad`]).
#[derive(Debug, thiserror::Error)]
pub enum ParseWadError {
    /// Nothing but spaces.
    #[error("empty number")]
    Empty,
    /// A minus sign.
    #[error("'{0}' is negative")]
    Negative(String),
    /// Anything but digits and one point.
    #[error("'{0}' is not a decimal number")]
    NotDecimal(String),
    /// More fractional digits than a WAD holds.
    #[error("'{0}' has more than 18 decimals")]
    TooManyDecimals(String),
    /// Too large for 256 bits, or refused by the units parser.
    #[error("'{text}' is not a valid amount: {source}")]
    Invalid {
        /// The text.
        text: String,
        /// The units parser's error.
        #[source]
        source: alloy_primitives::utils::UnitsError,
    },
}

/// Parses a human decimal ("0.44", "12500", "1e-3" is rejected) into a WAD.
///
/// # Errors
/// [`ParseWadError`] for anything that is not a non-negative decimal with at most 18 fractional digits
/// that fits in 256 bits.
pub fn parse_wad(s: &str) -> Result<U256, ParseWadError> {
    let t = s.trim();
    if t.is_empty() {
        return Err(ParseWadError::Empty);
    }
    if t.starts_with('-') {
        return Err(ParseWadError::Negative(t.into()));
    }
    if !t.chars().all(|c| c.is_ascii_digit() || c == '.') || t.matches('.').count() > 1 {
        return Err(ParseWadError::NotDecimal(t.into()));
    }
    if let Some((_, frac)) = t.split_once('.') {
        if frac.len() > 18 {
            return Err(ParseWadError::TooManyDecimals(t.into()));
        }
    }
    parse_units(t, 18)
        .map(|p| p.get_absolute())
        .map_err(|source| ParseWadError::Invalid {
            text: t.into(),
            source,
        })
}

/// Formats a WAD as a plain decimal string, trailing zeros trimmed ("0.44", "1", "0.000000000000000001").
pub fn format_wad(x: U256) -> String {
    let s = format_units(x, 18).unwrap_or_else(|_| x.to_string());
    match s.split_once('.') {
        Some((int, frac)) => {
            let frac = frac.trim_end_matches('0');
            if frac.is_empty() {
                int.to_string()
            } else {
                format!("{int}.{frac}")
            }
        }
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn wad_ops() {
        let half = WAD / U256::from(2u8);
        assert_eq!(wad_mul_down(half, half).unwrap(), WAD / U256::from(4u8));
        assert_eq!(
            wad_div_down(WAD, U256::from(3u8) * WAD).unwrap(),
            U256::from(333_333_333_333_333_333u64)
        );
        assert_eq!(
            wad_div_up(WAD, U256::from(3u8) * WAD).unwrap(),
            U256::from(333_333_333_333_333_334u64)
        );
        assert_eq!(
            wad_div_down(WAD, U256::ZERO),
            Err(MathError::DivisionByZero)
        );
        assert_eq!(checked_sub(U256::ZERO, WAD), Err(MathError::Underflow));
        assert_eq!(checked_add(U256::MAX, WAD), Err(MathError::Overflow));
    }

    #[test]
    fn parse_and_format() {
        assert_eq!(
            parse_wad("0.44").unwrap(),
            U256::from(440_000_000_000_000_000u64)
        );
        assert_eq!(parse_wad("1").unwrap(), WAD);
        assert_eq!(format_wad(U256::from(440_000_000_000_000_000u64)), "0.44");
        assert_eq!(format_wad(WAD * U256::from(12_500u32)), "12500");
        assert_eq!(format_wad(U256::from(1u8)), "0.000000000000000001");
        for bad in ["", "-1", "1e5", "abc", "0.1234567890123456789", "1.2.3"] {
            assert!(parse_wad(bad).is_err(), "{bad}");
        }
    }

    proptest! {
        #[test]
        fn parse_never_panics(s in "\\PC*") { let _ = parse_wad(&s); }

        #[test]
        fn format_parse_round_trip(x in any::<u128>()) {
            let x = U256::from(x);
            prop_assert_eq!(parse_wad(&format_wad(x)).unwrap(), x);
        }
    }
}
