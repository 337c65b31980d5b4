//! Output: one line of progress per step on stderr, and the result on stdout, as text for people or, with
//! `--json`, as one JSON document for scripts.

use serde::Serialize;

/// How results are printed.
#[derive(Debug, Clone, Copy)]
pub struct Out {
    /// JSON on stdout.
    pub json: bool,
}

impl Out {
    /// A progress line (stderr, never in the JSON).
    pub fn step(&self, msg: impl AsRef<str>) {
        eprintln!("· {}", msg.as_ref());
    }

    /// The result: `value` as JSON, or `text` for people.
    pub fn done<T: Serialize>(&self, value: &T, text: impl FnOnce() -> String) {
        if self.json {
            println!(
                "{}",
                serde_json::to_string_pretty(value)
                    .unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
            );
        } else {
            println!("{}", text());
        }
    }
}

/// A wei amount as ETH for people (display only, after exact integer math).
pub fn eth(wei: alloy::primitives::U256) -> String {
    alloy::primitives::utils::format_ether(wei)
}

/// A WAD fraction for people, to three decimals rounded down (display only).
pub fn wad(v: alloy::primitives::U256) -> String {
    let milli = v / alloy::primitives::U256::from(10u64.pow(15));
    let whole = milli / alloy::primitives::U256::from(1000u16);
    let frac = milli % alloy::primitives::U256::from(1000u16);
    format!("{whole}.{frac:0>3}")
}
