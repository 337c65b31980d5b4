//! Numbers for people: exact integer amounts (`U256` in smallest units) shown as decimals with a
//! few significant digits, thousands separators, never scientific notation; the exact value goes
//! in the element's `title` (full value on hover). Pure string arithmetic on the exact decimal
//! expansion: no floats anywhere.

use alloy_primitives::U256;

/// The exact decimal value of `raw / 10^decimals`, trailing zeros trimmed (`"1.5"`, `"0.000001"`, `"12"`).
pub fn units_exact(raw: U256, decimals: u8) -> String {
    let digits = raw.to_string();
    let d = usize::from(decimals);
    let (int, frac) = if digits.len() > d {
        let (i, f) = digits.split_at(digits.len() - d);
        (i.to_owned(), f.to_owned())
    } else {
        (
            "0".to_owned(),
            format!("{}{}", "0".repeat(d - digits.len()), digits),
        )
    };
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        int
    } else {
        format!("{int}.{frac}")
    }
}

/// Adds thousands separators to a run of integer digits.
fn group(int: &str) -> String {
    let mut out = String::with_capacity(int.len() + int.len() / 3);
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Increments a string of decimal digits by one unit in the last place; returns the carry.
fn increment(digits: &mut [u8]) -> bool {
    for d in digits.iter_mut().rev() {
        if *d == b'9' {
            *d = b'0';
        } else {
            *d += 1;
            return false;
        }
    }
    true
}

/// `raw / 10^decimals` rounded half-up to `sig` significant digits (all integer digits are always
/// kept), with thousands separators and trailing zeros trimmed: `1234567.891 → "1,234,568"`,
/// `0.000012345 → "0.00001235"` (sig 4). `sig` is at least 1.
pub fn units(raw: U256, decimals: u8, sig: usize) -> String {
    let sig = sig.max(1);
    let exact = units_exact(raw, decimals);
    let (int, frac) = exact.split_once('.').unwrap_or((exact.as_str(), ""));
    let int_sig = if int == "0" { 0 } else { int.len() };
    // How many fraction digits to keep.
    let keep = if int_sig >= sig {
        0
    } else if int_sig > 0 {
        sig - int_sig
    } else {
        let zeros = frac.bytes().take_while(|&b| b == b'0').count();
        zeros + sig
    };
    if frac.len() <= keep {
        return join(int, frac);
    }
    let mut all: Vec<u8> = int.bytes().chain(frac.bytes().take(keep)).collect();
    let round_up = frac.as_bytes().get(keep).is_some_and(|&b| b >= b'5');
    let mut int_len = int.len();
    if round_up && increment(&mut all) {
        all.insert(0, b'1');
        int_len += 1;
    }
    let s = String::from_utf8(all).unwrap_or_default();
    let (i, f) = s.split_at(int_len.min(s.len()));
    join(i, f.trim_end_matches('0'))
}

/// [`units`], with a long run of leading fraction zeros written as a subscript count, as trading
/// screens write tiny prices: `0.000000002947 → "0.0₈2947"` (eight zeros after the point). Runs
/// of fewer than four zeros are written out.
pub fn units_compact(raw: U256, decimals: u8, sig: usize) -> String {
    let s = units(raw, decimals, sig);
    let Some(frac) = s.strip_prefix("0.") else {
        return s;
    };
    let zeros = frac.bytes().take_while(|&b| b == b'0').count();
    if zeros < 4 {
        return s;
    }
    const SUB: [char; 10] = ['₀', '₁', '₂', '₃', '₄', '₅', '₆', '₇', '₈', '₉'];
    let count: String = zeros
        .to_string()
        .bytes()
        .map(|b| SUB[usize::from(b - b'0')])
        .collect();
    format!("0.0{count}{}", &frac[zeros..])
}

fn join(int: &str, frac: &str) -> String {
    let int = int.trim_start_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        group(int)
    } else {
        format!("{}.{frac}", group(int))
    }
}

/// A count with thousands separators: `10000 → "10,000"`.
pub fn thousands(n: u64) -> String {
    group(&n.to_string())
}

/// A WAD fraction (`10^18 = 100 %`) as a percentage with `sig` significant digits: `"42.5 %"`.
pub fn percent_wad(wad: U256, sig: usize) -> String {
    // percent = wad / 10^16
    format!("{} %", units(wad, 16, sig))
}

/// Basis points as a percentage: `8_912 → "89.12 %"`.
pub fn percent_bps(bps: u32) -> String {
    format!("{} %", units(U256::from(bps), 2, 6))
}

/// A signed change in bps as a percentage to 3 significant digits, as price screens show a 24 h change:
/// `1_234 → "+12.3 %"`, `-438 → "−4.38 %"` (a true minus sign), `0 → "0 %"`.
pub fn signed_percent_bps(bps: i64) -> String {
    let sign = match bps.signum() {
        1 => "+",
        -1 => "\u{2212}",
        _ => "",
    };
    format!("{sign}{} %", units(U256::from(bps.unsigned_abs()), 2, 3))
}

/// Pips (hundredths of a bip, `10^6 = 100 %`) as a percentage: `990_000 → "99 %"`.
pub fn percent_pips(pips: u32) -> String {
    format!("{} %", units(U256::from(pips), 4, 6))
}

/// A short address `0x1234…abcd`.
pub fn short_addr(a: &str) -> String {
    if a.len() > 12 {
        format!("{}…{}", &a[..6], &a[a.len() - 4..])
    } else {
        a.to_owned()
    }
}

/// A duration in plain words: `"2 d 3 h"`, `"4 h 12 min"`, `"12 min 5 s"`, `"9 s"` (the revert words
/// use it too, so it is `eden_chain`'s).
pub use eden_chain::revert::duration;

/// A duration in its largest unit only, for "… ago": `"42 s"`, `"3 min"`, `"5 h"`, `"2 d"`.
pub fn duration_short(secs: u64) -> String {
    match secs {
        0..=59 => format!("{secs} s"),
        60..=3_599 => format!("{} min", secs / 60),
        3_600..=86_399 => format!("{} h", secs / 3_600),
        _ => format!("{} d", secs / 86_400),
    }
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// A unix time's UTC day as `"4 Dec 2026"` and its seconds into that day (proleptic Gregorian
/// calendar, days from the epoch by H. Hinnant's `civil_from_days`).
fn civil_day(unix: u64) -> (String, u64) {
    let days = (unix / 86_400) as i64;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        format!("{day} {} {year}", MONTHS[(month - 1) as usize]),
        unix % 86_400,
    )
}

/// A unix time as a date and time in UTC, for people: `"4 Dec 2026, 21:42 UTC"`.
pub fn date_utc(unix: u64) -> String {
    let (day, secs) = civil_day(unix);
    format!("{day}, {:02}:{:02} UTC", secs / 3_600, secs % 3_600 / 60)
}

/// A unix time's day in UTC: `"4 Dec 2026"`.
pub fn day_utc(unix: u64) -> String {
    civil_day(unix).0
}

/// A published score (points 0–100 as a WAD) for people: `"47.58 / 100"` (display only, rounded
/// by [`units`]).
pub fn points(score_wad: U256) -> String {
    format!("{} / 100", units(score_wad, 18, 4))
}

mod amount;

pub use amount::{parse_units, units_for_input, InputError};

#[cfg(test)]
mod tests {
    use super::*;

    fn u(x: u128) -> U256 {
        U256::from(x)
    }

    #[test]
    fn exact() {
        assert_eq!(units_exact(u(1_500_000_000_000_000_000), 18), "1.5");
        assert_eq!(units_exact(u(1), 18), "0.000000000000000001");
        assert_eq!(units_exact(u(12_000_000), 6), "12");
        assert_eq!(units_exact(U256::ZERO, 18), "0");
        assert_eq!(units_exact(u(5), 0), "5");
    }

    #[test]
    fn significant_digits_and_grouping() {
        assert_eq!(units(u(1_234_567_891), 3, 4), "1,234,568");
        assert_eq!(units(u(12_345), 9, 4), "0.00001235");
        assert_eq!(units(u(999_960_000_000_000_000), 18, 4), "1");
        assert_eq!(units(u(999_950_000_000_000_000), 18, 4), "1");
        assert_eq!(units(u(999_940_000_000_000_000), 18, 4), "0.9999");
        // Tiny prices: the zeros after the point counted in a subscript, from four of them.
        assert_eq!(units_compact(u(2_947_000_000), 18, 4), "0.0₈2947");
        assert_eq!(units_compact(u(12_345), 9, 4), "0.0₄1235");
        assert_eq!(units_compact(u(1_235), 6, 4), "0.001235");
        assert_eq!(units_compact(u(1), 18, 4), "0.0₁₇1");
        assert_eq!(units_compact(u(1_234_567_891), 3, 4), "1,234,568");
        assert_eq!(units_compact(U256::ZERO, 18, 4), "0");
        assert_eq!(units(u(4_455_000_000_000_000_000), 18, 4), "4.455");
        assert_eq!(
            units(u(1_000_000_000_000_000_000_000_000_000), 18, 4),
            "1,000,000,000"
        );
        assert_eq!(units(U256::ZERO, 18, 4), "0");
        assert_eq!(units(u(1), 18, 3), "0.000000000000000001");
        assert_eq!(units(u(99_999), 0, 2), "99,999");
        // Never scientific notation, even for huge values.
        let big = units(U256::MAX, 18, 4);
        assert!(!big.contains('e') && big.contains(','), "{big}");
    }

    #[test]
    fn percentages() {
        assert_eq!(percent_bps(8_912), "89.12 %");
        assert_eq!(signed_percent_bps(1_234), "+12.3 %");
        assert_eq!(signed_percent_bps(-438), "\u{2212}4.38 %");
        assert_eq!(signed_percent_bps(240_000), "+2,400 %");
        assert_eq!(signed_percent_bps(0), "0 %");
        assert_eq!(percent_pips(990_000), "99 %");
        assert_eq!(percent_pips(10_000), "1 %");
        assert_eq!(percent_wad(u(425_000_000_000_000_000), 4), "42.5 %");
    }

    #[test]
    fn dates_for_people() {
        assert_eq!(date_utc(0), "1 Jan 1970, 00:00 UTC");
        assert_eq!(date_utc(951_782_400), "29 Feb 2000, 00:00 UTC");
        assert_eq!(date_utc(1_796_420_004), "4 Dec 2026, 21:33 UTC");
        assert_eq!(date_utc(4_102_444_799), "31 Dec 2099, 23:59 UTC");
        assert_eq!(day_utc(1_796_420_004), "4 Dec 2026");
        assert_eq!(duration_short(59), "59 s");
        assert_eq!(duration_short(3_599), "59 min");
        assert_eq!(duration_short(7_200), "2 h");
        assert_eq!(duration_short(3 * 86_400 + 5), "3 d");
        assert_eq!(
            points(U256::from(47_578_000_000_000_000_000u128)),
            "47.58 / 100"
        );
    }

    #[test]
    fn durations_and_addresses() {
        assert_eq!(duration(9), "9 s");
        assert_eq!(duration(725), "12 min 5 s");
        assert_eq!(duration(4 * 3600 + 720), "4 h 12 min");
        assert_eq!(duration(2 * 86_400 + 3 * 3600 + 5), "2 d 3 h");
        assert_eq!(
            short_addr("0x70997970C51812dc3A010C7d01b50e0d17dc79C8"),
            "0x7099…79C8"
        );
    }
}
