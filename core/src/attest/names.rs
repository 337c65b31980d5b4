//! The inputs that are never inputs (§2.1, pinned): "token price, trading volume, holder counts and
//! liquidity are never inputs". Rejected by name, whatever the spelling: a name is compared after
//! lower-casing and dropping everything but letters and digits, so `Trading-Volume`, `trading_volume`
//! and `tradingVolume` are one name.
//!
//! **Decided:** the list below is the seed's four with their common synonyms. "Settled volume" (a
//! money-verified metric the seed names) is not on it: only market activity in the token is banned.

/// The banned names, normalised (lower case, letters and digits only).
pub const FORBIDDEN_INPUTS: &[&str] = &[
    "price",
    "tokenprice",
    "marketprice",
    "marketcap",
    "fdv",
    "volume",
    "tradingvolume",
    "tokenvolume",
    "dexvolume",
    "holders",
    "holdercount",
    "tokenholders",
    "numholders",
    "liquidity",
    "poolliquidity",
    "tvl",
];

/// The normalised form a name is compared in.
pub fn normalise_name(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Whether `name` is a banned input (see the module doc).
pub fn forbidden_input(name: &str) -> bool {
    // `normalise_name(name)` compared without building it (checked once per claim).
    let normalised = || {
        name.chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
    };
    FORBIDDEN_INPUTS.iter().any(|f| f.chars().eq(normalised()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_of_the_seeds_four_is_banned() {
        for n in [
            "price",
            "Token Price",
            "token_price",
            "tradingVolume",
            "Trading-Volume",
            "holder_count",
            "HOLDERS",
            "liquidity",
            "pool_liquidity",
        ] {
            assert!(forbidden_input(n), "{n}");
        }
    }

    #[test]
    fn real_output_metrics_are_not() {
        for n in [
            "settled_revenue_cents",
            "settled_volume_cents",
            "resolved_work",
            "unique_counterparties",
            "paying_users",
            "self_reported_uptime_bps",
        ] {
            assert!(!forbidden_input(n), "{n}");
        }
    }
}
