//! The transport trait the shared readers are written against. The app implements it over its browser
//! JSON-RPC client (`app/src/chain/rpc.rs`), the operator over alloy's provider (`operator/src/chain.rs`);
//! each brings its own paging cache and batching, the readers stay the same.

use crate::log::{EventError, Log, LogFilter};
use alloy_primitives::{Address, Bytes};
use std::collections::BTreeMap;

/// Reads of the chain: view calls in a batch, logs over a block range and the times of blocks.
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

    /// Each `(to, calldata)` as an `eth_call` against the state after `block` (`None`: the latest), in as
    /// few round trips as the transport can (a Multicall3 `aggregate3`, a JSON-RPC batch, calls in flight
    /// together); each call's return data, or its own error (its revert).
    ///
    /// # Errors
    /// The transport's, when the batch as a whole fails.
    async fn call_batch(
        &self,
        calls: &[(Address, Bytes)],
        block: Option<u64>,
    ) -> Result<Vec<Result<Bytes, Self::Error>>, Self::Error>;
}

/// Why a shared reader failed: the transport's error as it is, or what the chain answered not being what
/// the contracts emit.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReadError<E> {
    /// The transport failed.
    #[error(transparent)]
    Transport(E),
    /// A log does not decode as its event.
    #[error(transparent)]
    Event(#[from] EventError),
    /// A call's return data does not decode as its function's return.
    #[error("{call} answered what does not decode: {source}")]
    Return {
        /// The function's Solidity signature.
        call: &'static str,
        /// Why it does not decode (an address without code answers empty).
        source: alloy_sol_types::Error,
    },
    /// A batch answered a different number of calls than it was sent.
    #[error("a batch of {sent} calls was answered with {answered}")]
    Batch {
        /// Calls sent.
        sent: usize,
        /// Answers received.
        answered: usize,
    },
    /// A batch's answer asked for that is not there (taken before, or never sent).
    #[error("no answer for {call}")]
    Missing {
        /// The function's Solidity signature.
        call: &'static str,
    },
    /// A value no contract of the deployment could have emitted.
    #[error("{0}")]
    Unexpected(String),
}

/// What the chain answered, with no transport in it: a [`ReadError`] other than
/// [`ReadError::Transport`].
pub type AnswerError = ReadError<std::convert::Infallible>;

impl<E> ReadError<E> {
    /// The transport's error (`Ok`), or the answer's fault ([`AnswerError`]), for a caller whose own
    /// error type wraps the transport's.
    ///
    /// # Errors
    /// The answer's fault, as [`AnswerError`].
    pub fn into_transport(self) -> Result<E, AnswerError> {
        Err(match self {
            ReadError::Transport(e) => return Ok(e),
            ReadError::Event(e) => ReadError::Event(e),
            ReadError::Return { call, source } => ReadError::Return { call, source },
            ReadError::Batch { sent, answered } => ReadError::Batch { sent, answered },
            ReadError::Missing { call } => ReadError::Missing { call },
            ReadError::Unexpected(s) => ReadError::Unexpected(s),
        })
    }
}

/// `(to, call)` pairs sent through `reader` in one batch at `block`: the answers, checked to be one per call.
///
/// # Errors
/// The transport's for the batch, or a batch answered short.
pub async fn batch<R: ChainRead>(
    reader: &R,
    calls: Vec<(Address, Bytes)>,
    block: Option<u64>,
) -> Result<Vec<Result<Bytes, R::Error>>, ReadError<R::Error>> {
    let answers = reader
        .call_batch(&calls, block)
        .await
        .map_err(ReadError::Transport)?;
    if answers.len() != calls.len() {
        return Err(ReadError::Batch {
            sent: calls.len(),
            answered: answers.len(),
        });
    }
    Ok(answers)
}

/// One batched answer decoded as `C`'s return.
///
/// # Errors
/// The call's own error (its revert), or a return that does not decode (an address without code answers
/// empty: an error, not a zero).
pub fn decode_answer<C: alloy_sol_types::SolCall, E>(
    answer: Result<Bytes, E>,
) -> Result<C::Return, ReadError<E>> {
    let data = answer.map_err(ReadError::Transport)?;
    C::abi_decode_returns(&data).map_err(|source| ReadError::Return {
        call: C::SIGNATURE,
        source,
    })
}
