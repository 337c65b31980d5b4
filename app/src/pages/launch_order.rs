//! The launch list's search and order (issue 39): a query matches a launch by name or symbol (any part,
//! case-insensitive) or by address (a prefix of it, `0x` optional); the list is ordered newest first, by
//! market cap, or closest to graduation first. Market caps of different pairs compare in US cents: an
//! ETH pair's at the deployment's fresh ETH/USD feed, a dollar stablecoin's (USDC, USDT, DAI) at one dollar
//! a unit; a launch whose cap has no dollar value (no fresh feed, another quote asset) sorts after those
//! that do. Ties keep the newest first.

use crate::chain::launchpad::LaunchInfo;
use crate::chain::usd::EthUsd;
use alloy_primitives::{Address, U256};
use eden_core::curve;

/// How the launch list is ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LaunchOrder {
    Newest,
    MarketCap,
    ClosestToGraduation,
}

impl LaunchOrder {
    /// Every order, as the list's control offers them: `(value, words)`.
    pub const ALL: [(LaunchOrder, &'static str, &'static str); 3] = [
        (LaunchOrder::Newest, "newest", "Newest"),
        (LaunchOrder::MarketCap, "market-cap", "Market cap"),
        (
            LaunchOrder::ClosestToGraduation,
            "graduation",
            "Closest to graduation",
        ),
    ];

    /// The order a control's value names (newest for anything else).
    pub fn from_value(v: &str) -> Self {
        Self::ALL
            .iter()
            .find(|(_, value, _)| *value == v)
            .map_or(LaunchOrder::Newest, |(o, ..)| *o)
    }
}

/// Whether `l` matches the typed `query` (an empty query matches every launch).
pub fn matches(l: &LaunchInfo, query: &str) -> bool {
    let q = query.trim().to_lowercase();
    if q.is_empty() {
        return true;
    }
    let hex = q.strip_prefix("0x").unwrap_or(&q);
    let address = format!("{:x}", l.token);
    l.name.to_lowercase().contains(&q)
        || l.symbol.to_lowercase().contains(&q)
        || (hex.len() >= 4
            && hex.chars().all(|c| c.is_ascii_hexdigit())
            && address.starts_with(hex))
}

/// `l`'s fully diluted market cap in US cents (rounded down), when it has a dollar value.
pub fn market_cap_cents(l: &LaunchInfo, eth_usd: Option<&EthUsd>) -> Option<U256> {
    let cap = curve::market_cap_wad(&l.state, l.quote_decimals).ok()?;
    if l.quote == Address::ZERO {
        return eth_usd.map(|p| p.cents_down(cap));
    }
    matches!(l.quote_symbol.as_str(), "USDC" | "USDT" | "DAI")
        .then(|| cap / U256::from(10u64.pow(16)))
}

/// Orders `list` by `by` (`eth_usd`: a fresh ETH/USD answer, for market caps).
pub fn order(list: &mut [LaunchInfo], by: LaunchOrder, eth_usd: Option<&EthUsd>) {
    // Newest first is every order's tie-break.
    list.sort_by_key(|l| std::cmp::Reverse(l.state.launch_time));
    match by {
        LaunchOrder::Newest => {}
        LaunchOrder::MarketCap => {
            list.sort_by_cached_key(|l| std::cmp::Reverse(market_cap_cents(l, eth_usd)));
        }
        LaunchOrder::ClosestToGraduation => {
            // Graduated launches have nothing left to graduate: they go last.
            list.sort_by_key(|l| (l.graduated, std::cmp::Reverse(l.progress_bps())));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::launchpad::curve_state;

    fn launch(sym: &str, t: u64, tenths_eth: u64, quote: Address, graduated: bool) -> LaunchInfo {
        let fresh = crate::test_util::fresh_launch(quote, t);
        let s = curve_state(&fresh, curve::state::DEFAULT_TOTAL_SUPPLY, 100).unwrap();
        let paid = U256::from(tenths_eth) * U256::from(10u64.pow(17));
        let (state, _) = curve::apply_buy(&s, paid, 10_000, U256::ZERO).unwrap();
        LaunchInfo {
            token: Address::repeat_byte(t as u8),
            name: format!("{sym} project"),
            symbol: sym.to_string(),
            quote,
            quote_symbol: if quote.is_zero() {
                "ETH".into()
            } else {
                "USDC".into()
            },
            quote_decimals: if quote.is_zero() { 18 } else { 6 },
            creator: Address::ZERO,
            graduated,
            state,
            own_buyback_share: U256::ZERO,
        }
    }

    #[test]
    fn a_query_matches_name_symbol_or_address_prefix() {
        let l = launch("MEAD", 0x67, 1, Address::ZERO, false);
        assert!(matches(&l, ""));
        assert!(matches(&l, "mea"));
        assert!(matches(&l, "Project"));
        assert!(matches(&l, "0x6767"));
        assert!(matches(&l, "6767"));
        assert!(!matches(&l, "0x68"));
        assert!(!matches(&l, "GARD"));
        // Three hex digits are too few to mean an address.
        assert!(!matches(&l, "0x676"));
    }

    #[test]
    fn orders_put_the_asked_for_launch_first_and_break_ties_newest_first() {
        let mut v = vec![
            launch("OLD", 1, 30, Address::ZERO, false),
            launch("NEW", 3, 1, Address::ZERO, false),
            launch("MID", 2, 10, Address::ZERO, false),
            launch("DONE", 0, 45, Address::ZERO, true),
        ];
        order(&mut v, LaunchOrder::Newest, None);
        assert_eq!(
            v.iter().map(|l| l.symbol.as_str()).collect::<Vec<_>>(),
            ["NEW", "MID", "OLD", "DONE"]
        );
        order(&mut v, LaunchOrder::ClosestToGraduation, None);
        assert_eq!(
            v.iter().map(|l| l.symbol.as_str()).collect::<Vec<_>>(),
            ["OLD", "MID", "NEW", "DONE"]
        );
        let usd = EthUsd {
            answer: U256::from(3_000u64) * U256::from(10u64.pow(8)),
            decimals: 8,
            updated_at: 0,
        };
        order(&mut v, LaunchOrder::MarketCap, Some(&usd));
        assert_eq!(v[0].symbol, "DONE");
        assert_eq!(v[3].symbol, "NEW");
        // Without a feed no ETH cap has a dollar value: the order falls back to newest first.
        order(&mut v, LaunchOrder::MarketCap, None);
        assert_eq!(v[0].symbol, "NEW");
        assert_eq!(
            LaunchOrder::from_value("graduation"),
            LaunchOrder::ClosestToGraduation
        );
        assert_eq!(LaunchOrder::from_value("?"), LaunchOrder::Newest);
    }
}
