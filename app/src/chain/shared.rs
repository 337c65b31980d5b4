//! The app's transport for `eden_chain`'s shared readers (`human`, `sources`, …): its browser JSON-RPC
//! client, with its one log reader, its block-time batches and its Multicall3 batches.

use crate::chain::multicall::run_calls;
use crate::chain::rpc::{Rpc, RpcError};
use crate::chain::transport::{Log, LogFilter};
use alloy_primitives::{Address, Bytes};
use eden_chain::read::ChainRead;

/// The shared readers' transport (`eden_chain::human`, …): logs through the app's one log reader
/// (paged, cached), block times in one batch.
impl ChainRead for Rpc {
    type Error = RpcError;

    async fn logs(&self, filter: &LogFilter, from: u64, to: u64) -> Result<Vec<Log>, RpcError> {
        self.get_logs(filter, from, to).await
    }

    async fn block_timestamps(
        &self,
        blocks: &[u64],
    ) -> Result<std::collections::BTreeMap<u64, u64>, RpcError> {
        Rpc::block_timestamps(self, blocks).await
    }

    /// At the latest block through Multicall3 (or JSON-RPC batches without it); at a past block as JSON-RPC
    /// batches of `eth_call` at that block.
    async fn call_batch(
        &self,
        calls: &[(Address, Bytes)],
        block: Option<u64>,
    ) -> Result<Vec<Result<Bytes, RpcError>>, RpcError> {
        match block {
            None => run_calls(self, calls).await,
            Some(_) => self.eth_calls(calls, block).await,
        }
    }
}
