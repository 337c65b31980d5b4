//! Amounts typed by a person (D8): the one parser behind every amount field of the app.
//!
//! A typed amount is read exactly (no floats) into smallest units, and an amount it accepts means the
//! same in every locale: the person's locale only settles which of `.` and `,` a *lone* separator is when
//! nothing else does, and an input two readings would give different values for is refused with both
//! readings named, never guessed. So `0,1` is 0.1 everywhere (a group of one digit is no thousands
//! group), `1,000.5` and `1.000,5` are 1000.5 everywhere, and `1,250` is 1.25 where the decimal mark is
//! a comma and refused as "1250 or 1.25?" where it is a point.
//!
//! Steps of [`parse_amount`]:
//! 1. Trim; nothing left is [`InputError::Empty`]. Only ASCII digits, `.`, `,` and the grouping-only
//!    marks (space, no-break and thin spaces, `'`, `’`, `_`) may appear.
//! 2. The decimal mark: with both `.` and `,` present, the one that comes last, which must appear once
//!    (the other groups thousands); with one of them present several times, none (it groups); with one
//!    present once, a decimal mark when it is the locale's, when what precedes it cannot be a first
//!    thousands group or when what follows is not exactly three digits; otherwise [`InputError::Ambiguous`].
//! 3. The integer part's groups: one grouping character kind at most; the first group 1 to 3 digits
//!    (not a lone `0` before a group), every other exactly 3.
//! 4. The fraction: digits only, at most the unit's decimals.

use alloy_primitives::U256;

/// Why a typed amount is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// Nothing typed.
    #[error("enter an amount")]
    Empty,
    /// Not a decimal number.
    #[error("'{0}' is not a number")]
    NotANumber(String),
    /// Separators that are not thousands groups nor one decimal mark (`1,00,0`, `1.5.2,3`).
    #[error("'{0}' is not a number: digits between separators come in groups of three, and one decimal mark at most")]
    BadGrouping(String),
    /// A lone separator two readings give different values for (`1,250`: 1250 or 1.25).
    #[error("'{text}' could mean {grouped} or {decimal}: type one of those")]
    Ambiguous {
        /// What was typed.
        text: String,
        /// The value with the separator read as a thousands separator.
        grouped: String,
        /// The value with the separator read as the decimal mark, written with the locale's mark.
        decimal: String,
    },
    /// More decimals than the unit has.
    #[error("at most {0} decimals")]
    TooManyDecimals(u8),
    /// Beyond 2^256 − 1 smallest units.
    #[error("the amount is too large")]
    TooLarge,
    /// A slippage that is not one.
    #[error("slippage: {0}")]
    Slippage(Box<InputError>),
    /// A slippage above the maximum.
    #[error("slippage: at most 50 %")]
    SlippageAboveMax,
}

/// The decimal mark of the person's locale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecimalMark {
    /// `1.5` (en, zh, ja, …).
    Point,
    /// `1,5` (de, fr, pt, es, ru, …). Only a browser's locale gives it outside tests.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    Comma,
}

impl DecimalMark {
    fn char(self) -> char {
        match self {
            DecimalMark::Point => '.',
            DecimalMark::Comma => ',',
        }
    }
}

/// The browser's decimal mark (`Intl.NumberFormat` of the default locale formatting 1.5); a point
/// outside a browser.
pub fn locale_decimal_mark() -> DecimalMark {
    #[cfg(target_arch = "wasm32")]
    {
        thread_local! {
            static MARK: DecimalMark = {
                let f = js_sys::Intl::NumberFormat::new(&js_sys::Array::new(), &js_sys::Object::new()).format();
                let s = f
                    .call1(&wasm_bindgen::JsValue::UNDEFINED, &wasm_bindgen::JsValue::from_f64(1.5))
                    .ok()
                    .and_then(|v| v.as_string())
                    .unwrap_or_default();
                if s.contains(',') { DecimalMark::Comma } else { DecimalMark::Point }
            };
        }
        MARK.with(|m| *m)
    }
    #[cfg(not(target_arch = "wasm32"))]
    DecimalMark::Point
}

/// Parses an amount typed by a person into smallest units, with the browser's decimal mark
/// ([`parse_amount`] with [`locale_decimal_mark`]).
///
/// # Errors
/// As [`parse_amount`].
pub fn parse_units(s: &str, decimals: u8) -> Result<U256, InputError> {
    parse_amount(s, decimals, locale_decimal_mark())
}

/// An exact amount written for an input field, so that [`parse_amount`] reads it back exactly
/// under either decimal mark: [`super::units_exact`] (no grouping), with a fraction of exactly
/// three digits padded to four (`1.500` could be a thousands group in a comma locale; `1.5000`
/// cannot). The quick-amount buttons fill fields with it.
pub fn units_for_input(raw: U256, decimals: u8) -> String {
    let s = super::units_exact(raw, decimals);
    match s.split_once('.') {
        Some((_, f)) if f.len() == 3 => format!("{s}0"),
        _ => s,
    }
}

/// Characters that only ever group thousands.
fn is_group_only(c: char) -> bool {
    matches!(
        c,
        ' ' | '\u{a0}' | '\u{202f}' | '\u{2009}' | '\'' | '\u{2019}' | '_'
    )
}

/// Whether `int` (digits and one grouping character kind) is a well-formed grouped integer: the first
/// group 1 to 3 digits and not a lone `0` before a group, every other exactly 3; or no grouping at all.
fn grouping_ok(int: &str, sep: Option<char>) -> bool {
    let Some(sep) = sep else {
        return int.bytes().all(|b| b.is_ascii_digit());
    };
    let groups: Vec<&str> = int.split(sep).collect();
    let digits = |g: &str| g.bytes().all(|b| b.is_ascii_digit());
    let first = groups[0];
    (1..=3).contains(&first.len())
        && digits(first)
        && first != "0"
        && groups[1..].iter().all(|g| g.len() == 3 && digits(g))
}

/// Parses `s`, typed by a person whose locale writes decimals with `mark`, into `10^-decimals` units,
/// exactly (D8; the steps are the module's).
///
/// # Errors
/// [`InputError::Empty`], [`InputError::NotANumber`], [`InputError::BadGrouping`],
/// [`InputError::Ambiguous`], [`InputError::TooManyDecimals`] or [`InputError::TooLarge`].
pub fn parse_amount(s: &str, decimals: u8, mark: DecimalMark) -> Result<U256, InputError> {
    let t = s.trim();
    if t.is_empty() {
        return Err(InputError::Empty);
    }
    let not_a_number = || InputError::NotANumber(t.to_owned());
    if !t
        .chars()
        .all(|c| c.is_ascii_digit() || c == '.' || c == ',' || is_group_only(c))
        || !t.chars().any(|c| c.is_ascii_digit())
    {
        return Err(not_a_number());
    }
    let bad_grouping = || InputError::BadGrouping(t.to_owned());
    let (points, commas) = (t.matches('.').count(), t.matches(',').count());
    // Step 2: which character, if any, is the decimal mark.
    let decimal: Option<char> = match (points, commas) {
        (0, 0) => None,
        (p, c) if p > 0 && c > 0 => {
            let last = t
                .chars()
                .rev()
                .find(|c| *c == '.' || *c == ',')
                .unwrap_or('.');
            if t.matches(last).count() != 1 {
                return Err(bad_grouping());
            }
            Some(last)
        }
        (p, c) if p + c > 1 => None,
        _ => {
            let sep = if points == 1 { '.' } else { ',' };
            let (int, frac) = t.split_once(sep).unwrap_or((t, ""));
            let int_digits: String = int.chars().filter(|c| !is_group_only(*c)).collect();
            let could_group = frac.len() == 3
                && frac.bytes().all(|b| b.is_ascii_digit())
                && grouping_ok(&format!("{int_digits}{sep}{frac}"), Some(sep));
            if sep == mark.char() || !could_group {
                Some(sep)
            } else {
                let plain = format!("{int_digits}{frac}");
                let grouped = plain.trim_start_matches('0');
                return Err(InputError::Ambiguous {
                    text: t.to_owned(),
                    grouped: if grouped.is_empty() { "0" } else { grouped }.to_owned(),
                    decimal: format!("{int_digits}{}{frac}", mark.char()),
                });
            }
        }
    };
    let (int, frac) = match decimal {
        Some(d) => t.split_once(d).unwrap_or((t, "")),
        None => (t, ""),
    };
    // Step 3: one grouping character kind in the integer part, in groups of three.
    let mut kinds: Vec<char> = int.chars().filter(|c| !c.is_ascii_digit()).collect();
    kinds.sort_unstable();
    kinds.dedup();
    if kinds.len() > 1 || (!int.is_empty() && !grouping_ok(int, kinds.first().copied())) {
        return Err(bad_grouping());
    }
    // Step 4: the fraction.
    if !frac.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad_grouping());
    }
    let int: String = int.chars().filter(char::is_ascii_digit).collect();
    if int.is_empty() && frac.is_empty() {
        return Err(not_a_number());
    }
    if frac.len() > usize::from(decimals) {
        return Err(InputError::TooManyDecimals(decimals));
    }
    let digits = format!(
        "{int}{frac}{}",
        "0".repeat(usize::from(decimals) - frac.len())
    );
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        return Ok(U256::ZERO);
    }
    U256::from_str_radix(digits, 10).map_err(|_| InputError::TooLarge)
}

#[cfg(test)]
mod tests {
    use super::DecimalMark::{Comma, Point};
    use super::*;

    fn u(x: u128) -> U256 {
        U256::from(x)
    }

    const E18: u128 = 1_000_000_000_000_000_000;

    #[test]
    fn amounts_written_for_a_field_read_back_exactly_in_every_locale() {
        for raw in [
            0u128,
            1,
            1_500,
            1_234_567,
            E18,
            3 * E18 / 2,
            1_234 * E18 + 567 * E18 / 1000,
            u128::MAX,
        ] {
            for d in [0u8, 6, 18] {
                let s = units_for_input(u(raw), d);
                for mark in [Point, Comma] {
                    assert_eq!(
                        parse_amount(&s, d, mark).unwrap(),
                        u(raw),
                        "{s} {d} {mark:?}"
                    );
                }
            }
        }
        assert_eq!(
            units_for_input(u(1_234 * E18 + 567 * E18 / 1000), 18),
            "1234.5670"
        );
    }

    #[test]
    fn a_decimal_comma_never_multiplies() {
        // The review's case: 0,1 quoted a 1 ETH buy and 1,5 a 15 ETH one.
        for mark in [Point, Comma] {
            assert_eq!(parse_amount("0,1", 18, mark).unwrap(), u(E18 / 10));
            assert_eq!(parse_amount("1,5", 18, mark).unwrap(), u(3 * E18 / 2));
            assert_eq!(parse_amount("0,100", 18, mark).unwrap(), u(E18 / 10));
            assert_eq!(
                parse_amount("1,2345", 18, mark).unwrap(),
                u(12_345 * E18 / 10_000)
            );
            assert_eq!(parse_amount(",5", 6, mark).unwrap(), u(500_000));
        }
    }

    #[test]
    fn the_locale_settles_only_a_lone_three_digit_group() {
        assert_eq!(parse_amount("1,250", 18, Comma).unwrap(), u(5 * E18 / 4));
        assert_eq!(parse_amount("1.250", 18, Point).unwrap(), u(5 * E18 / 4));
        let e = parse_amount("1,250", 18, Point).unwrap_err();
        assert_eq!(
            e,
            InputError::Ambiguous {
                text: "1,250".into(),
                grouped: "1250".into(),
                decimal: "1.250".into()
            }
        );
        assert!(e.to_string().contains("1250 or 1.250"), "{e}");
        assert!(parse_amount("1.000", 18, Comma)
            .unwrap_err()
            .to_string()
            .contains("1000 or 1,000"));
    }

    #[test]
    fn thousands_separators_group_and_never_become_decimal_marks() {
        for mark in [Point, Comma] {
            assert_eq!(parse_amount("1,000,000", 0, mark).unwrap(), u(1_000_000));
            assert_eq!(parse_amount("1.000.000", 0, mark).unwrap(), u(1_000_000));
            assert_eq!(parse_amount("1,234.5", 1, mark).unwrap(), u(12_345));
            assert_eq!(parse_amount("1.234,5", 1, mark).unwrap(), u(12_345));
            assert_eq!(parse_amount("1 234,5", 1, mark).unwrap(), u(12_345));
            assert_eq!(parse_amount("1\u{a0}234.5", 1, mark).unwrap(), u(12_345));
            assert_eq!(parse_amount("1'234'567.5", 1, mark).unwrap(), u(12_345_675));
            assert_eq!(parse_amount("1 000", 0, mark).unwrap(), u(1000));
            for bad in [
                "1,00,0",
                "1,2,3",
                "1.5.2,3",
                "12,34.5",
                "1,234.5.6",
                "0,000,1",
                "1 2",
                "1,000 000",
            ] {
                assert!(
                    matches!(parse_amount(bad, 18, mark), Err(InputError::BadGrouping(_))),
                    "{bad}: {:?}",
                    parse_amount(bad, 18, mark)
                );
            }
        }
    }

    #[test]
    fn plain_amounts_and_refusals() {
        assert_eq!(parse_amount("1.5", 18, Point).unwrap(), u(3 * E18 / 2));
        assert_eq!(parse_amount(" .5 ", 6, Point).unwrap(), u(500_000));
        assert_eq!(parse_amount("5.", 6, Point).unwrap(), u(5_000_000));
        assert_eq!(parse_amount("0", 18, Point).unwrap(), U256::ZERO);
        assert_eq!(parse_amount("007", 0, Point).unwrap(), u(7));
        assert!(parse_amount("1.0000001", 6, Point)
            .unwrap_err()
            .to_string()
            .contains("6 decimals"));
        for bad in ["abc", "-1", "+1", ".", ",", "1e18", "0x10", "１"] {
            assert!(
                matches!(parse_amount(bad, 18, Point), Err(InputError::NotANumber(_))),
                "{bad}"
            );
        }
        assert_eq!(parse_amount("  ", 18, Point), Err(InputError::Empty));
        assert_eq!(
            parse_amount(&"9".repeat(80), 0, Point),
            Err(InputError::TooLarge)
        );
        for raw in [u(1), u(123_456_789), u(10u128.pow(30))] {
            assert_eq!(
                parse_amount(&crate::fmt::units_exact(raw, 18), 18, Point).unwrap(),
                raw
            );
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::super::*;
        use proptest::prelude::*;

        /// `raw / 10^decimals` written with `mark`, its integer part grouped by `group` when given.
        fn write(raw: u128, decimals: u8, mark: DecimalMark, group: Option<char>) -> String {
            let exact = crate::fmt::units_exact(U256::from(raw), decimals);
            let (int, frac) = exact.split_once('.').unwrap_or((&exact, ""));
            let int = match group {
                Some(g) => crate::fmt::group(int).replace(',', &g.to_string()),
                None => int.to_owned(),
            };
            if frac.is_empty() {
                int
            } else {
                format!("{int}{}{frac}", mark.char())
            }
        }

        fn marks() -> impl Strategy<Value = DecimalMark> {
            prop_oneof![Just(DecimalMark::Point), Just(DecimalMark::Comma)]
        }

        proptest! {
            /// An amount written plainly with the locale's mark reads back exactly.
            #[test]
            fn plain_round_trip(raw in any::<u128>(), decimals in 0u8..=18, mark in marks()) {
                prop_assert_eq!(parse_amount(&write(raw, decimals, mark, None), decimals, mark), Ok(U256::from(raw)));
            }

            /// Grouped the locale's way (the other mark, or a space), it reads back exactly, or, for a
            /// lone group with no fraction, is refused as ambiguous: never another value.
            #[test]
            fn grouped_round_trip(raw in any::<u128>(), decimals in 0u8..=18, mark in marks(), space in any::<bool>()) {
                let group = if space { ' ' } else if mark == DecimalMark::Point { ',' } else { '.' };
                let text = write(raw, decimals, mark, Some(group));
                match parse_amount(&text, decimals, mark) {
                    Ok(v) => prop_assert_eq!(v, U256::from(raw)),
                    Err(InputError::Ambiguous { .. }) => prop_assert!(!space && text.matches(group).count() == 1),
                    Err(e) => prop_assert!(false, "{text}: {e}"),
                }
            }

            /// An accepted amount means the same in every locale: a separator is never a thousands
            /// separator in one reading and a decimal mark in another.
            #[test]
            fn locale_never_changes_an_accepted_value(s in "[0-9]{0,5}([.,' ][0-9]{0,4}){0,3}") {
                if let (Ok(a), Ok(b)) = (parse_amount(&s, 18, DecimalMark::Point), parse_amount(&s, 18, DecimalMark::Comma)) {
                    prop_assert_eq!(a, b, "{}", s);
                }
            }

            /// Anything typed gives a value or a reason, never a panic.
            #[test]
            fn never_panics(s in "\\PC{0,40}", decimals in 0u8..=30, mark in marks()) {
                let _ = parse_amount(&s, decimals, mark);
            }
        }
    }
}
