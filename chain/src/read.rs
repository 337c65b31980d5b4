//! The transport trait the shared readers are written against. The app implements it over its browser
//! JSON-RPC client (`app/src/chain/rpc.rs`), the operator over alloy's provider (`operator/src/chain.rs`);
//! each brings its own paging cache and batching, the readers stay the same.

use crate::log::{EventError, Log, LogFilter};
use std::collections::BTreeMap;

/// Reads of the chain's history: logs over a block range and the times of blocks.
// `async fn` in a public trait gives futures with no `Send` bound: the browser's are not `Send`, and the
// operator awaits them in place.
#[allow(async_fn_in_trait)]
pub trait ChainRead {
    /// The transport's error.
    type Error;

    /// The logs `filter` matches in blocks `[from, to]`, in chain order (paged by
    /// [`crate::logs::read_logs`]).
    ///
    /// # Errors
    /// The transport's.
    async fn logs(&self, filter: &LogFilter, from: u64, to: u64) -> Result<Vec<Log>, Self::Error>;

    /// The timestamps of `blocks`, by block number.
    ///
    /// # Errors
    /// The transport's, or a block the node does not have.
    async fn block_timestamps(&self, blocks: &[u64]) -> Result<BTreeMap<u64, u64>, Self::Error>;
}

/// Why a shared reader failed: the transport's error as it is, or what the chain answered not being what
/// the contracts emit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError<E> {
    /// The transport failed.
    #[error(transparent)]
    Transport(E),
    /// A log does not decode as its event.
    #[error(transparent)]
    Event(#[from] EventError),
    /// A value no contract of the deployment could have emitted.
    #[error("{0}")]
    Unexpected(String),
}
