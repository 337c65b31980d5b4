//! A launch's name, symbol and own-token buyback share, checked before any transaction (D4, §7). The launchpad takes any
//! strings; the app asks for what wallets, explorers and pool interfaces show well, and says what
//! is wrong in words. No Leptos here.

/// The most characters of a name (D4).
pub const MAX_NAME_CHARS: usize = 32;
/// The most characters of a symbol (D4).
pub const MAX_SYMBOL_CHARS: usize = 11;

/// Why a launch's input is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LaunchInputError {
    #[error("the name is empty")]
    EmptyName,
    #[error("the name has {0} characters; at most {MAX_NAME_CHARS}")]
    NameTooLong(usize),
    #[error("the name has a control character")]
    NameControl,
    #[error("the symbol is empty")]
    EmptySymbol,
    #[error("the symbol has {0} characters; at most {MAX_SYMBOL_CHARS}")]
    SymbolTooLong(usize),
    #[error("the symbol may hold only letters A–Z and digits, not '{0}'")]
    SymbolChar(char),
    #[error("the own-token buyback share: {0}")]
    BuybackShare(crate::fmt::InputError),
    #[error("the own-token buyback share is at most 50 % of the creator's payout")]
    BuybackShareTooHigh,
}

/// The most an own-token buyback share may be, in percent (`Launchpad.MAX_OWN_BUYBACK_SHARE`).
pub const MAX_OWN_BUYBACK_PERCENT: u8 = 50;

/// The own-token buyback share (§7) as the launchpad takes it: a percent of the creator's payout typed
/// by a person ("12.5"; empty is none), at most [`MAX_OWN_BUYBACK_PERCENT`] and 16 decimals, as WAD.
///
/// # Errors
/// Not a number, too many decimals, or above the maximum.
pub fn own_buyback_share(input: &str) -> Result<u64, LaunchInputError> {
    if input.trim().is_empty() {
        return Ok(0);
    }
    let wad = crate::fmt::parse_units(input.trim().trim_end_matches('%'), 16)
        .map_err(LaunchInputError::BuybackShare)?;
    let max = eden_core::creator::MAX_OWN_BUYBACK_SHARE;
    if wad > max {
        return Err(LaunchInputError::BuybackShareTooHigh);
    }
    Ok(wad.to::<u64>())
}

/// The name as launched: trimmed, 1 to [`MAX_NAME_CHARS`] characters, no control characters.
///
/// # Errors
/// The first rule it breaks.
pub fn name(input: &str) -> Result<String, LaunchInputError> {
    let n = input.trim();
    let chars = n.chars().count();
    if chars == 0 {
        return Err(LaunchInputError::EmptyName);
    }
    if chars > MAX_NAME_CHARS {
        return Err(LaunchInputError::NameTooLong(chars));
    }
    if n.chars().any(char::is_control) {
        return Err(LaunchInputError::NameControl);
    }
    Ok(n.to_owned())
}

/// The symbol as launched: trimmed and upper-cased, 1 to [`MAX_SYMBOL_CHARS`] ASCII letters and
/// digits.
///
/// # Errors
/// The first rule it breaks.
pub fn symbol(input: &str) -> Result<String, LaunchInputError> {
    let s = input.trim();
    if s.is_empty() {
        return Err(LaunchInputError::EmptySymbol);
    }
    if let Some(c) = s.chars().find(|c| !c.is_ascii_alphanumeric()) {
        return Err(LaunchInputError::SymbolChar(c));
    }
    if s.len() > MAX_SYMBOL_CHARS {
        return Err(LaunchInputError::SymbolTooLong(s.len()));
    }
    Ok(s.to_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::U256;

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(name("  Eden Garden "), Ok("Eden Garden".into()));
        assert_eq!(name("   "), Err(LaunchInputError::EmptyName));
        assert_eq!(name(&"é".repeat(32)), Ok("é".repeat(32)));
        assert_eq!(
            name(&"a".repeat(33)),
            Err(LaunchInputError::NameTooLong(33))
        );
        assert_eq!(name("Eden\u{7}"), Err(LaunchInputError::NameControl));
    }

    #[test]
    fn symbols_are_letters_and_digits_upper_cased() {
        assert_eq!(symbol(" gard1 "), Ok("GARD1".into()));
        assert_eq!(symbol(""), Err(LaunchInputError::EmptySymbol));
        assert_eq!(symbol("GA RD"), Err(LaunchInputError::SymbolChar(' ')));
        assert_eq!(symbol("ÉDEN"), Err(LaunchInputError::SymbolChar('É')));
        assert_eq!(
            symbol("ABCDEFGHIJKL"),
            Err(LaunchInputError::SymbolTooLong(12))
        );
        assert_eq!(symbol("ABCDEFGHIJK"), Ok("ABCDEFGHIJK".into()));
    }

    #[test]
    fn own_buyback_shares_are_percents_up_to_half() {
        assert_eq!(own_buyback_share(""), Ok(0));
        assert_eq!(own_buyback_share(" 12.5 "), Ok(125_000_000_000_000_000));
        assert_eq!(own_buyback_share("50%"), Ok(500_000_000_000_000_000));
        assert_eq!(
            own_buyback_share("50.01"),
            Err(LaunchInputError::BuybackShareTooHigh)
        );
        assert!(matches!(
            own_buyback_share("ten"),
            Err(LaunchInputError::BuybackShare(_))
        ));
        assert!(own_buyback_share("1.00000000000000001").is_err());
        assert_eq!(
            u8::try_from(
                eden_core::creator::MAX_OWN_BUYBACK_SHARE / U256::from(10u64).pow(U256::from(16u8))
            )
            .unwrap(),
            MAX_OWN_BUYBACK_PERCENT
        );
    }

    /// Any input (a deterministic sweep of 20,000 strings over letters, digits, spaces, control,
    /// multi-byte and zero-width characters): no panic, and whatever is accepted keeps the rules.
    #[test]
    fn any_input_is_refused_or_meets_the_rules() {
        let pool: Vec<char> = "aZ09 \t\n\u{0}\u{7f}é€𝔈\u{200b}-_.$ ".chars().collect();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = usize::try_from(x % 40).unwrap();
            let s: String = (0..len)
                .map(|i| pool[usize::try_from((x >> (i % 48)) % pool.len() as u64).unwrap()])
                .collect();
            if let Ok(n) = name(&s) {
                assert!((1..=MAX_NAME_CHARS).contains(&n.chars().count()));
                assert!(!n.chars().any(char::is_control) && n == n.trim());
            }
            if let Ok(w) = own_buyback_share(&s) {
                assert!(U256::from(w) <= eden_core::creator::MAX_OWN_BUYBACK_SHARE);
            }
            if let Ok(sym) = symbol(&s) {
                assert!((1..=MAX_SYMBOL_CHARS).contains(&sym.len()));
                assert!(sym
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()));
            }
        }
    }
}
