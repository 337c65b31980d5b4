//! How a JSON leaf value becomes an ABI value, exactly as `@metamask/abi-utils` 2.x (the
//! encoder behind `@openzeppelin/merkle-tree` 1.0.8) coerces JavaScript values (C5).
//!
//! - integers (`uintN`/`intN`): a JSON integer, or a string as JavaScript `BigInt(string)`
//!   reads it: surrounding whitespace ignored, empty → 0, decimal with an optional sign, or
//!   `0x`/`0o`/`0b` with no sign; then range-checked against the type;
//! - bytes-like (`address`, `bytesN`, `bytes`, `function`): a `0x`-hex string (either case,
//!   odd length gets a leading zero nibble, `"0x"` is empty); `address` is left-padded to 20
//!   bytes, `bytesN` right-padded;
//! - `bool`: `true`/`false` or the strings `"true"`/`"false"`;
//! - `string`: a JSON string (UTF-8).

use alloy_primitives::{I256, U256};

/// A `BigInt`-like integer: sign and magnitude.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BigIntLike {
    /// True for a value below zero (never set for zero).
    pub negative: bool,
    /// The absolute value.
    pub magnitude: U256,
}

/// Why a value could not be read as an integer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BigIntError {
    /// Not an integer at all (`BigInt()` would throw a `SyntaxError`/`RangeError`).
    Syntax,
    /// An integer whose magnitude needs more than 256 bits.
    TooLarge,
}

/// JavaScript `WhiteSpace` and `LineTerminator` (what `String.prototype.trim` and
/// `StringToBigInt` strip).
fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\u{0009}'
            | '\u{000A}'
            | '\u{000B}'
            | '\u{000C}'
            | '\u{000D}'
            | '\u{0020}'
            | '\u{00A0}'
            | '\u{1680}'
            | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// `s` without leading and trailing JavaScript whitespace.
pub(crate) fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_whitespace)
}

/// Reads `digits` (already known to be non-empty) in `radix` ∈ {2, 8, 10, 16}.
fn parse_digits(digits: &str, radix: u32) -> Result<U256, BigIntError> {
    // Accumulate 64-bit chunks, then fold them into the U256 with checked ops.
    let chunk_len: usize = match radix {
        2 => 63,
        8 => 21,
        10 => 19,
        _ => 15,
    };
    let bytes = digits.as_bytes();
    let mut acc = U256::ZERO;
    for chunk in bytes.chunks(chunk_len) {
        let mut word: u64 = 0;
        for &b in chunk {
            let d = (b as char).to_digit(radix).ok_or(BigIntError::Syntax)?;
            // Cannot overflow: chunk_len digits of `radix` fit in 64 bits.
            word = word * u64::from(radix) + u64::from(d);
        }
        let scale = U256::from(radix)
            .checked_pow(U256::from(chunk.len()))
            .ok_or(BigIntError::TooLarge)?;
        acc = acc
            .checked_mul(scale)
            .and_then(|v| v.checked_add(U256::from(word)))
            .ok_or(BigIntError::TooLarge)?;
    }
    Ok(acc)
}

/// JavaScript `BigInt(string)`.
pub(crate) fn bigint_from_str(s: &str) -> Result<BigIntLike, BigIntError> {
    let t = js_trim(s);
    if t.is_empty() {
        return Ok(BigIntLike {
            negative: false,
            magnitude: U256::ZERO,
        });
    }
    let b = t.as_bytes();
    if b.len() > 2 && b[0] == b'0' {
        let radix = match b[1] {
            b'x' | b'X' => Some(16),
            b'o' | b'O' => Some(8),
            b'b' | b'B' => Some(2),
            _ => None,
        };
        if let Some(radix) = radix {
            let magnitude = parse_digits(&t[2..], radix)?;
            return Ok(BigIntLike {
                negative: false,
                magnitude,
            });
        }
    }
    let (negative, digits) = match b[0] {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    if digits.is_empty() {
        return Err(BigIntError::Syntax);
    }
    let magnitude = parse_digits(digits, 10)?;
    Ok(BigIntLike {
        negative: negative && !magnitude.is_zero(),
        magnitude,
    })
}

/// JavaScript `BigInt(number)` for a JSON number (must be an integer).
pub(crate) fn bigint_from_number(n: &serde_json::Number) -> Result<BigIntLike, BigIntError> {
    if let Some(u) = n.as_u64() {
        return Ok(BigIntLike {
            negative: false,
            magnitude: U256::from(u),
        });
    }
    if let Some(i) = n.as_i64() {
        return Ok(BigIntLike {
            negative: i < 0,
            magnitude: U256::from(i.unsigned_abs()),
        });
    }
    let f = n.as_f64().ok_or(BigIntError::Syntax)?;
    bigint_from_f64(f)
}

/// The exact integer value of an integral, finite `f64`.
pub(crate) fn bigint_from_f64(f: f64) -> Result<BigIntLike, BigIntError> {
    if !f.is_finite() || f.fract() != 0.0 {
        return Err(BigIntError::Syntax);
    }
    let negative = f < 0.0;
    let a = f.abs();
    let magnitude = if a < 18_446_744_073_709_551_616.0 {
        // Exact: `a` is an integer below 2^64.
        U256::from(a as u64)
    } else {
        let bits = a.to_bits();
        let exp = ((bits >> 52) & 0x7ff) as usize; // ≥ 1087 here (a ≥ 2^64)
        let mantissa = (bits & ((1u64 << 52) - 1)) | (1u64 << 52);
        let shift = exp.checked_sub(1075).ok_or(BigIntError::Syntax)?;
        if shift + 53 > 256 {
            return Err(BigIntError::TooLarge);
        }
        U256::from(mantissa) << shift
    };
    Ok(BigIntLike {
        negative: negative && !magnitude.is_zero(),
        magnitude,
    })
}

/// The value as an unsigned `bits`-bit integer, if in `[0, 2^bits − 1]`.
pub(crate) fn to_uint(v: BigIntLike, bits: usize) -> Option<U256> {
    if v.negative || (bits < 256 && v.magnitude.bit_len() > bits) {
        return None;
    }
    Some(v.magnitude)
}

/// The value as a signed `bits`-bit integer, if in `[−2^(bits−1), 2^(bits−1) − 1]`.
pub(crate) fn to_int(v: BigIntLike, bits: usize) -> Option<I256> {
    let limit = U256::from(1u8) << bits.clamp(1, 256).saturating_sub(1); // 2^(bits−1)
    if v.negative {
        if v.magnitude > limit {
            return None;
        }
        // Two's complement of the magnitude (−2^255 included).
        Some(I256::from_raw(U256::ZERO.wrapping_sub(v.magnitude)))
    } else {
        if v.magnitude >= limit {
            return None;
        }
        Some(I256::from_raw(v.magnitude))
    }
}

/// `createBytes(value)` for a string: `0x`-hex (case-insensitive prefix and digits, odd length
/// padded with a leading zero nibble); `"0x"` alone is empty. `None` when not such a string.
pub(crate) fn bytes_from_hex(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    if b.len() < 2 || b[0] != b'0' || !(b[1] == b'x' || b[1] == b'X') {
        return None;
    }
    let digits = &b[2..];
    let odd = digits.len() % 2;
    let mut out = Vec::with_capacity(digits.len().div_ceil(2));
    let nibble = |c: u8| -> Option<u8> { (c as char).to_digit(16).map(|d| d as u8) };
    let mut i = 0;
    if odd == 1 {
        out.push(nibble(digits[0])?);
        i = 1;
    }
    while i + 1 < digits.len() {
        out.push(nibble(digits[i])? << 4 | nibble(digits[i + 1])?);
        i += 2;
    }
    Some(out)
}

/// `bool` as `@metamask/abi-utils` reads it: a literal, or the string `"true"`/`"false"`.
pub(crate) fn bool_from_json(v: &serde_json::Value) -> Option<bool> {
    match v {
        serde_json::Value::Bool(b) => Some(*b),
        serde_json::Value::String(s) if s == "true" => Some(true),
        serde_json::Value::String(s) if s == "false" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn big(neg: bool, m: u64) -> BigIntLike {
        BigIntLike {
            negative: neg,
            magnitude: U256::from(m),
        }
    }

    #[test]
    fn bigint_strings_follow_javascript() {
        assert_eq!(bigint_from_str("123"), Ok(big(false, 123)));
        assert_eq!(bigint_from_str("  42\n"), Ok(big(false, 42)));
        assert_eq!(bigint_from_str(""), Ok(big(false, 0)));
        assert_eq!(bigint_from_str("   "), Ok(big(false, 0)));
        assert_eq!(bigint_from_str("-5"), Ok(big(true, 5)));
        assert_eq!(bigint_from_str("+5"), Ok(big(false, 5)));
        assert_eq!(bigint_from_str("-0"), Ok(big(false, 0)));
        assert_eq!(bigint_from_str("0x1F"), Ok(big(false, 31)));
        assert_eq!(bigint_from_str("0X1f"), Ok(big(false, 31)));
        assert_eq!(bigint_from_str("0o17"), Ok(big(false, 15)));
        assert_eq!(bigint_from_str("0b101"), Ok(big(false, 5)));
        assert_eq!(bigint_from_str("007"), Ok(big(false, 7)));
        for bad in [
            "-0x5", "0x", "1e3", "1.0", "1_000", "abc", "-", "+", "0x1g", "1 2", "Infinity",
        ] {
            assert_eq!(bigint_from_str(bad), Err(BigIntError::Syntax), "{bad}");
        }
        let max = "115792089237316195423570985008687907853269984665640564039457584007913129639935";
        assert_eq!(bigint_from_str(max).map(|v| v.magnitude), Ok(U256::MAX));
        let over = "115792089237316195423570985008687907853269984665640564039457584007913129639936";
        assert_eq!(bigint_from_str(over), Err(BigIntError::TooLarge));
        assert_eq!(
            bigint_from_str(&format!("0x1{}", "0".repeat(64))),
            Err(BigIntError::TooLarge)
        );
    }

    #[test]
    fn bigint_numbers_are_exact() {
        assert_eq!(
            bigint_from_f64(1e21).map(|v| v.magnitude),
            Ok(U256::from(10u128.pow(21)))
        );
        assert_eq!(bigint_from_f64(-3.0), Ok(big(true, 3)));
        assert_eq!(bigint_from_f64(1.5), Err(BigIntError::Syntax));
        assert_eq!(bigint_from_f64(f64::NAN), Err(BigIntError::Syntax));
        assert_eq!(
            bigint_from_f64(2f64.powi(255)).map(|v| v.magnitude),
            Ok(U256::from(1u8) << 255)
        );
        assert_eq!(bigint_from_f64(2f64.powi(256)), Err(BigIntError::TooLarge));
    }

    #[test]
    fn ranges() {
        assert_eq!(to_uint(big(false, 255), 8), Some(U256::from(255u64)));
        assert_eq!(to_uint(big(false, 256), 8), None);
        assert_eq!(to_uint(big(true, 1), 256), None);
        assert_eq!(
            to_int(big(false, 127), 8),
            Some(I256::try_from(127i64).unwrap())
        );
        assert_eq!(to_int(big(false, 128), 8), None);
        assert_eq!(
            to_int(big(true, 128), 8),
            Some(I256::try_from(-128i64).unwrap())
        );
        assert_eq!(to_int(big(true, 129), 8), None);
        let min = BigIntLike {
            negative: true,
            magnitude: U256::from(1u8) << 255,
        };
        assert_eq!(to_int(min, 256), Some(I256::MIN));
    }

    #[test]
    fn hex_bytes() {
        assert_eq!(bytes_from_hex("0x"), Some(vec![]));
        assert_eq!(bytes_from_hex("0X"), Some(vec![]));
        assert_eq!(bytes_from_hex("0x123"), Some(vec![0x01, 0x23]));
        assert_eq!(bytes_from_hex("0XaBcD"), Some(vec![0xab, 0xcd]));
        assert_eq!(bytes_from_hex("abcd"), None);
        assert_eq!(bytes_from_hex("0xzz"), None);
        assert_eq!(bytes_from_hex("0x12 "), None);
    }

    proptest! {
        #[test]
        fn parsers_never_panic(s in "\\PC*") {
            let _ = bigint_from_str(&s);
            let _ = bytes_from_hex(&s);
        }

        #[test]
        fn decimal_roundtrip(v in any::<u128>(), neg in any::<bool>()) {
            let s = if neg { format!("-{v}") } else { v.to_string() };
            let b = bigint_from_str(&s).unwrap();
            prop_assert_eq!(b.magnitude, U256::from(v));
            prop_assert_eq!(b.negative, neg && v != 0);
        }

        #[test]
        fn floats_never_panic(f in any::<f64>()) {
            let _ = bigint_from_f64(f);
        }
    }
}
