//! A log and a log filter as `eth_getLogs` returns and takes them, the one shape every reader decodes
//! from (the app reads them from JSON-RPC answers, the operator converts alloy's).

use alloy_primitives::{Address, Bytes, B256, U256};
use alloy_sol_types::SolEvent;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// A log as returned by `eth_getLogs` (and kept by the app's log cache).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Log {
    /// The emitting contract (absent in logs cached before it was kept).
    #[serde(default)]
    pub address: Option<Address>,
    /// The topics: the event's signature hash, then its indexed arguments.
    pub topics: Vec<B256>,
    /// The non-indexed arguments, ABI-encoded.
    pub data: Bytes,
    /// The block it was emitted in.
    pub block_number: U256,
    /// The transaction that emitted it.
    pub transaction_hash: B256,
    /// Position in its block (orders logs of one block); absent on some nodes' pending logs.
    #[serde(default)]
    pub log_index: Option<U256>,
}

impl Log {
    /// `(block, index in block)`: the log's place in chain order.
    pub fn position(&self) -> (u64, u64) {
        let n = |v: U256| u64::try_from(v).unwrap_or(u64::MAX);
        (n(self.block_number), self.log_index.map_or(0, n))
    }

    /// The log decoded as the event `E`.
    ///
    /// # Errors
    /// [`EventError`] naming the event and the block when it does not decode (the address is not the
    /// contract the network description says it is).
    pub fn decode<E: SolEvent>(&self) -> Result<E, EventError> {
        E::decode_raw_log(self.topics.iter().copied(), &self.data).map_err(|e| EventError {
            event: E::SIGNATURE,
            block: self.position().0,
            reason: e.to_string(),
        })
    }
}

/// A log that does not decode as the event its signature names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a {event} event in block {block}: {reason}")]
pub struct EventError {
    /// The event's Solidity signature.
    pub event: &'static str,
    /// The block of the log.
    pub block: u64,
    /// The decoder's words.
    pub reason: String,
}

/// An `eth_getLogs` filter: contract, and per topic position either any value (`None`) or one of
/// several values (an empty list matches nothing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogFilter {
    /// The contract.
    pub address: Address,
    /// The topics, by position.
    pub topics: Vec<Option<Vec<B256>>>,
}

impl LogFilter {
    /// Every event `E` of `address`, optionally with its first indexed topic equal to `topic1`.
    pub fn event<E: SolEvent>(address: Address, topic1: Option<B256>) -> Self {
        let mut topics = vec![Some(vec![E::SIGNATURE_HASH])];
        if let Some(t1) = topic1 {
            topics.push(Some(vec![t1]));
        }
        LogFilter { address, topics }
    }

    /// The filter in words a cache can key on (contract and topics).
    pub fn key(&self) -> String {
        format!("{:#x}:{}", self.address, json!(self.topics))
    }

    /// The `eth_getLogs` parameters for blocks `[from, to]`.
    pub fn to_json(&self, from: u64, to: u64) -> Value {
        let topics: Vec<Value> = self
            .topics
            .iter()
            .map(|t| match t {
                None => Value::Null,
                Some(v) => json!(v),
            })
            .collect();
        json!([{ "address": self.address, "topics": topics, "fromBlock": format!("{from:#x}"), "toBlock": format!("{to:#x}") }])
    }
}
