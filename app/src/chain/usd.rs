//! The deployment's ETH/USD feed (the one `RootPriceOracle` prices ROOT with), for USD values next
//! to amounts in the native currency. A value is shown only while the feed's answer is younger than
//! the oracle's own limit ([`MAX_ANSWER_AGE`]); a stale or non-positive answer shows nothing.
//! Values are exact integers first (cents, rounded down), formatted after. No Leptos here.

use crate::chain::abi::{IAggregatorV3, IRootPriceOracle};
use crate::chain::multicall::Batch;
use crate::chain::rpc::{Rpc, RpcError};
use alloy_primitives::{Address, U256};

/// The ETH/USD answer's maximum age (`RootPriceOracle.MAX_ANSWER_AGE`, 25 h).
pub const MAX_ANSWER_AGE: u64 = 25 * 3_600;

/// The feed's latest answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EthUsd {
    /// USD per ETH, `decimals` decimals (positive).
    pub answer: U256,
    pub decimals: u8,
    pub updated_at: u64,
}

impl EthUsd {
    /// Whether the answer may be shown at chain time `now`.
    pub fn fresh(&self, now: u64) -> bool {
        now.saturating_sub(self.updated_at) <= MAX_ANSWER_AGE
    }

    /// `wei` (18 decimals) in US cents, rounded down.
    pub fn cents_down(&self, wei: U256) -> U256 {
        let den = U256::from(10u8).pow(U256::from(18 + u32::from(self.decimals)));
        wei.checked_mul(self.answer)
            .and_then(|x| x.checked_mul(U256::from(100u8)))
            .map_or(U256::MAX, |x| x / den)
    }
}

/// Cents as dollars for people: "$1,234.56"; "< $0.01" for a non-zero value below a cent.
pub fn dollars(cents: U256, nonzero: bool) -> String {
    if cents.is_zero() {
        return if nonzero {
            "< $0.01".into()
        } else {
            "$0.00".into()
        };
    }
    let whole = cents / U256::from(100u8);
    let rest = u64::try_from(cents % U256::from(100u8)).unwrap_or(0);
    let whole = crate::fmt::units(whole, 0, 40);
    format!("${whole}.{rest:02}")
}

/// The feed `RootPriceOracle` at `oracle` reads, and its latest answer (two round trips); `None`
/// when the answer is not positive.
///
/// # Errors
/// When the oracle or the feed cannot be read.
pub async fn read(rpc: &Rpc, oracle: Address) -> Result<Option<EthUsd>, RpcError> {
    let feed = rpc
        .call(oracle, &IRootPriceOracle::ethUsdFeedCall {})
        .await?;
    let mut b = Batch::new();
    let round = b.add(feed, &IAggregatorV3::latestRoundDataCall {});
    let decimals = b.add(feed, &IAggregatorV3::decimalsCall {});
    let a = b.run(rpc).await?;
    let r = a.get(round)?;
    if r.answer.is_negative() || r.answer.is_zero() {
        return Ok(None);
    }
    Ok(Some(EthUsd {
        answer: r.answer.into_raw(),
        decimals: a.get(decimals)?,
        updated_at: u64::try_from(r.updatedAt).unwrap_or(u64::MAX),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_cents_rounded_down_and_only_while_fresh() {
        // $3,000.00 with 8 decimals (Chainlink's ETH/USD).
        let p = EthUsd {
            answer: U256::from(300_000_000_000u64),
            decimals: 8,
            updated_at: 1_000,
        };
        let e18 = U256::from(10u64).pow(U256::from(18u8));
        assert_eq!(p.cents_down(e18), U256::from(300_000u64));
        assert_eq!(dollars(p.cents_down(e18), true), "$3,000.00");
        // 0.0123456 ETH = $37.0368 → $37.03.
        assert_eq!(
            dollars(p.cents_down(U256::from(12_345_600_000_000_000u64)), true),
            "$37.03"
        );
        assert_eq!(dollars(p.cents_down(U256::from(1u8)), true), "< $0.01");
        assert_eq!(dollars(U256::ZERO, false), "$0.00");
        assert!(p.fresh(1_000 + MAX_ANSWER_AGE));
        assert!(!p.fresh(1_001 + MAX_ANSWER_AGE));
    }
}
