//! The calls ledger (A1–A5), discovered from the chain: one log scan of its `PoolSet`, `Staked`,
//! `Committed` and `Revealed` events gives the asset agents call (the first with a pool), the
//! windows they called it over and the agents; the symbols come in two batched calls. No Leptos
//! here.

use crate::chain::abi::{ICallLedger, IERC20};
use crate::chain::multicall::Batch;
use crate::chain::rpc::{LogFilter, Rpc, RpcError};
use alloy_primitives::Address;
use alloy_sol_types::SolEvent;

/// The window offered when no call has been revealed yet (an hour).
pub const DEFAULT_WINDOW_SECS: u64 = 3_600;

/// What the Calls page shows: the ledger, the asset, the windows and the agents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallsRef {
    pub ledger: Address,
    pub asset: Address,
    pub asset_symbol: String,
    pub stake_symbol: String,
    /// The windows revealed calls used for the asset, shortest first.
    pub windows: Vec<u64>,
    /// Every agent that staked or committed, in order of first appearance.
    pub agents: Vec<Address>,
}

/// The ledger's asset, windows and agents since `from_block`; `None` while no asset has a pool.
///
/// # Errors
/// When the logs or the symbols cannot be read.
pub async fn discover(
    rpc: &Rpc,
    ledger: Address,
    from_block: u64,
) -> Result<Option<CallsRef>, RpcError> {
    let latest = rpc.block_number().await?;
    let filter = LogFilter {
        address: ledger,
        topics: vec![Some(vec![
            ICallLedger::PoolSet::SIGNATURE_HASH,
            ICallLedger::Staked::SIGNATURE_HASH,
            ICallLedger::Committed::SIGNATURE_HASH,
            ICallLedger::Revealed::SIGNATURE_HASH,
        ])],
    };
    let logs = rpc.get_logs(&filter, from_block, latest).await?;
    let mut pools: Vec<(Address, Address)> = Vec::new();
    let mut agents: Vec<Address> = Vec::new();
    let mut revealed: Vec<(Address, u64)> = Vec::new();
    let mut agent = |a: Address| {
        if !agents.contains(&a) {
            agents.push(a);
        }
    };
    for l in &logs {
        let topics = l.topics.iter().copied();
        match l.topics.first() {
            Some(&t) if t == ICallLedger::PoolSet::SIGNATURE_HASH => {
                if let Ok(e) = ICallLedger::PoolSet::decode_raw_log(topics, &l.data) {
                    pools.retain(|(a, _)| *a != e.asset);
                    pools.push((e.asset, e.pool));
                }
            }
            Some(&t) if t == ICallLedger::Staked::SIGNATURE_HASH => {
                if let Ok(e) = ICallLedger::Staked::decode_raw_log(topics, &l.data) {
                    agent(e.agent);
                }
            }
            Some(&t) if t == ICallLedger::Committed::SIGNATURE_HASH => {
                if let Ok(e) = ICallLedger::Committed::decode_raw_log(topics, &l.data) {
                    agent(e.agent);
                }
            }
            Some(&t) if t == ICallLedger::Revealed::SIGNATURE_HASH => {
                if let Ok(e) = ICallLedger::Revealed::decode_raw_log(topics, &l.data) {
                    revealed.push((e.asset, e.window));
                }
            }
            _ => {}
        }
    }
    let Some(asset) = pools
        .iter()
        .find(|(_, pool)| !pool.is_zero())
        .map(|(a, _)| *a)
    else {
        return Ok(None);
    };
    let mut windows: Vec<u64> = revealed
        .iter()
        .filter(|(a, _)| *a == asset)
        .map(|(_, w)| *w)
        .collect();
    windows.sort_unstable();
    windows.dedup();
    if windows.is_empty() {
        windows.push(DEFAULT_WINDOW_SECS);
    }
    let mut b = Batch::new();
    let asset_symbol = b.add(asset, &IERC20::symbolCall {});
    let stake_token = b.add(ledger, &ICallLedger::stakeTokenCall {});
    let a = b.run(rpc).await?;
    let stake_symbol = match a.get(stake_token) {
        Ok(t) => rpc
            .call(t, &IERC20::symbolCall {})
            .await
            .unwrap_or_else(|_| "?".into()),
        Err(_) => "?".into(),
    };
    Ok(Some(CallsRef {
        ledger,
        asset,
        asset_symbol: a.get(asset_symbol).unwrap_or_else(|_| "?".into()),
        stake_symbol,
        windows,
        agents,
    }))
}
