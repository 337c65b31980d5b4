//! Each curve launch's price change over the last 24 hours by the chain's clock (issue 39; the rule is
//! `eden_core::curve::change`, C19 in `docs/protocol.md`). Steps, each one round trip or a few:
//!
//!  1. the head and its time; the window starts 86,400 s before it;
//!  2. a block at or before the window's start ([`block_time::block_at_or_before`]);
//!  3. every `Bought` and `Sold` of the launchpad since that block, in the blocks it recorded (D12);
//!  4. the first of those blocks inside the window ([`block_time::first_at_or_after`]);
//!  5. per launch, `Q` before its first trade in the window, from that trade's event; the change from
//!     there to the list's `Q` now. A launch with no trade in the window has not moved.
//!
//! Graduated launches trade in their pool, not on the curve: they get no entry here.

use super::{CurveTrade, LaunchInfo};
use crate::chain::block_time;
use crate::chain::rpc::{LogFilter, Rpc, RpcError};
use crate::split_point::on_demand;
use alloy_primitives::{Address, U256};
use eden_core::curve::{self, CurveError};
use futures::future::LocalBoxFuture;
use std::collections::BTreeMap;

/// The window: a day.
pub const WINDOW_SECS: u64 = 86_400;

/// A launch's price change over the window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DayChange {
    /// Signed bps, rounded toward zero ([`curve::price_change_bps`]).
    pub bps: i64,
    /// The launch is younger than the window: this is its change since launch.
    pub since_launch: bool,
}

/// Why the changes could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DayChangeError {
    /// The node or the network.
    #[error(transparent)]
    Rpc(#[from] RpcError),
    /// A trade event whose amounts cannot have come from the curve.
    #[error("a launchpad trade event does not add up: {0}")]
    Curve(#[from] CurveError),
    /// The reader's module could not be downloaded ([`load_day_changes`]).
    #[error("the 24 h change's code could not be downloaded ({0})")]
    NotLoaded(String),
}

impl From<leptos::wasm_split::SplitLoaderError> for DayChangeError {
    fn from(e: leptos::wasm_split::SplitLoaderError) -> Self {
        Self::NotLoaded(e.to_string())
    }
}

/// The changes, read by code that came with them.
pub type Loaded = LocalBoxFuture<'static, Result<BTreeMap<Address, DayChange>, DayChangeError>>;

on_demand! {
    /// [`day_changes`] in the module of the launch list's score column (D11, issue 39), fetched when the list
    /// asks for the changes once its rows are in: the log reader, the search for a block by time and the
    /// curve's replay are not in the list's first download.
    ///
    /// # Errors
    /// [`DayChangeError::NotLoaded`] when the module cannot be downloaded.
    board: pub fn load_day_changes(
        rpc: Rpc,
        pad: Address,
        launches: Vec<LaunchInfo>,
    ) -> Result<Loaded, DayChangeError> {
        Ok(Box::pin(async move { day_changes(&rpc, pad, &launches).await }))
    }
}

/// The change of every launch of `launches` still on its curve, by token.
///
/// # Errors
/// When the chain cannot be read or a trade event does not add up.
pub async fn day_changes(
    rpc: &Rpc,
    pad: Address,
    launches: &[LaunchInfo],
) -> Result<BTreeMap<Address, DayChange>, DayChangeError> {
    if launches.iter().all(|l| l.graduated) {
        return Ok(BTreeMap::new());
    }
    let (head, now) = rpc.latest_block().await?;
    let start = now.saturating_sub(WINDOW_SECS);
    let from = block_time::block_at_or_before(rpc, head, start).await?;
    let filter = LogFilter {
        address: pad,
        topics: vec![Some(CurveTrade::topics())],
    };
    let logs = rpc.get_logs(&filter, from, head).await?;
    let mut blocks: Vec<u64> = logs.iter().map(|l| l.position().0).collect();
    blocks.dedup();
    let first = block_time::first_at_or_after(rpc, &blocks, start).await?;
    let in_window = blocks.get(first).copied().unwrap_or(u64::MAX);
    // Q before each token's first trade in the window, in chain order.
    let mut then: BTreeMap<Address, U256> = BTreeMap::new();
    for l in logs.iter().filter(|l| l.position().0 >= in_window) {
        let t = CurveTrade::decode(l)?;
        let before = t.quote_raised_before()?;
        then.entry(t.token).or_insert(before);
    }
    changes(launches, &then, start)
}

/// Each curve launch's change from `then` (its `Q` at the window's start; absent: it did not trade in
/// the window) to its `Q` now.
fn changes(
    launches: &[LaunchInfo],
    then: &BTreeMap<Address, U256>,
    start: u64,
) -> Result<BTreeMap<Address, DayChange>, DayChangeError> {
    launches
        .iter()
        .filter(|l| !l.graduated)
        .map(|l| {
            let now = l.state.quote_raised;
            let was = then.get(&l.token).copied().unwrap_or(now);
            let change = DayChange {
                bps: curve::price_change_bps(l.state.virtual_quote, was, now)?,
                since_launch: l.state.launch_time > start,
            };
            Ok((l.token, change))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use eden_core::curve::CurveState;

    fn launch(token: u8, raised: u64, launch_time: u64, graduated: bool) -> LaunchInfo {
        LaunchInfo {
            token: Address::repeat_byte(token),
            name: String::new(),
            symbol: String::new(),
            quote: Address::ZERO,
            quote_symbol: "ETH".into(),
            quote_decimals: 18,
            creator: Address::ZERO,
            graduated,
            state: CurveState {
                quote_raised: U256::from(raised),
                launch_time,
                ..CurveState::eth_pair(launch_time)
            },
            own_buyback_share: U256::ZERO,
        }
    }

    #[test]
    fn from_the_window_start_to_now_per_launch() {
        let phi = CurveState::eth_pair(0).virtual_quote;
        let a = launch(1, 0, 10, false);
        let mut b = launch(2, 0, 500, false);
        b.state.quote_raised = phi; // (2Φ)² / Φ² = 4: +300 %
        let c = launch(3, 0, 10, true);
        let d = launch(4, 0, 10, false);
        let then: BTreeMap<Address, U256> = [(b.token, U256::ZERO), (d.token, phi)].into();
        let got = changes(&[a.clone(), b.clone(), c, d.clone()], &then, 100).unwrap();
        assert_eq!(got.len(), 3, "no entry for a graduated launch");
        assert_eq!(
            got[&a.token],
            DayChange {
                bps: 0,
                since_launch: false
            },
            "no trade in the window"
        );
        assert_eq!(
            got[&b.token],
            DayChange {
                bps: 30_000,
                since_launch: true
            }
        );
        assert_eq!(got[&d.token].bps, -7_500, "Φ²/(2Φ)² − 1");
    }
}
