//! The ROOT buyback (C26), read once for the app and the operator: the pair assets it has a route for. ETH
//! always (its route is set at construction), then every asset its `RouteSet` events name; an asset without a
//! route has nothing pending, so no launch needs to be read for its quote.

use crate::abi::RootBuyback;
use crate::log::LogFilter;
use crate::read::{ChainRead, ReadError};
use alloy_primitives::Address;
use std::collections::BTreeSet;

/// The assets `buyback` has a route for, from its `RouteSet` events in blocks `[from, to]`; ETH
/// (`address(0)`) always.
///
/// # Errors
/// The transport's; a log that does not decode as `RouteSet`.
pub async fn routed_assets<R: ChainRead>(
    chain: &R,
    buyback: Address,
    from: u64,
    to: u64,
) -> Result<BTreeSet<Address>, ReadError<R::Error>> {
    let filter = LogFilter::event::<RootBuyback::RouteSet>(buyback, None);
    let logs = chain
        .logs(&filter, from, to)
        .await
        .map_err(ReadError::Transport)?;
    let mut assets = BTreeSet::from([Address::ZERO]);
    for l in &logs {
        let e: RootBuyback::RouteSet = l.decode()?;
        assets.insert(e.asset);
    }
    Ok(assets)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::Log;
    use alloy_primitives::{Bytes, LogData, B256, U256};
    use alloy_sol_types::SolEvent;
    use std::collections::BTreeMap;

    struct Buyback;

    fn route(asset: u8) -> Log {
        let data: LogData = RootBuyback::RouteSet {
            asset: Address::repeat_byte(asset),
            hop: B256::ZERO,
            maxInPerCall: U256::from(1),
            decimals: 6,
            usdFeed: Address::ZERO,
        }
        .encode_log_data();
        Log {
            address: None,
            topics: data.topics().to_vec(),
            data: data.data,
            block_number: U256::from(1),
            transaction_hash: B256::ZERO,
            log_index: None,
        }
    }

    impl ChainRead for Buyback {
        type Error = String;

        async fn logs(&self, _: &LogFilter, _: u64, _: u64) -> Result<Vec<Log>, String> {
            Ok(vec![route(7), route(5), route(7)])
        }

        async fn block_timestamps(&self, _: &[u64]) -> Result<BTreeMap<u64, u64>, String> {
            unreachable!()
        }

        async fn call_batch(
            &self,
            _: &[(Address, Bytes)],
            _: Option<u64>,
        ) -> Result<Vec<Result<Bytes, String>>, String> {
            unreachable!()
        }
    }

    #[test]
    fn eth_always_then_every_routed_asset_once() {
        let assets =
            futures::executor::block_on(routed_assets(&Buyback, Address::ZERO, 0, 9)).unwrap();
        assert_eq!(
            assets.into_iter().collect::<Vec<_>>(),
            [
                Address::ZERO,
                Address::repeat_byte(5),
                Address::repeat_byte(7)
            ]
        );
    }
}
