//! A JSON-RPC client over the browser's `fetch`: `eth_call` (typed with `sol!`), `eth_getLogs`,
//! `eth_blockNumber`, `eth_getBalance`, `eth_estimateGas`, `eth_sendRawTransaction`, receipts.
//! Reverts are decoded into plain words ([`crate::chain::abi::revert_reason`]). Rate-limited answers
//! are retried with backoff ([`crate::chain::logs::with_backoff`]); logs are read through the one
//! log reader ([`crate::chain::logs::read_logs`]).

use crate::chain::event_blocks::{self, BlockIndex};
use crate::chain::log_cache;
use crate::chain::logs::{read_logs, with_backoff};
use crate::chain::network::{DEFAULT_LOG_RANGE, DEFAULT_LOG_REQUESTS};
use alloy_primitives::{hex, Address, Bytes, B256, U256};
use alloy_sol_types::{SolCall, SolEvent};
use serde::Deserialize;
use serde_json::{json, Value};

use super::coalesce::{self, Coalescer};
use super::transport::{post_json, post_json_or_early};

pub use super::transport::{error_from, revert_data, Log, LogFilter, RpcError};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// What [`Rpc::probe`] reads when connecting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    pub chain_id: u64,
    pub latest_timestamp: u64,
    /// Whether Multicall3 answered its `getChainId()` at the probed address (no code there answers nothing).
    pub multicall: bool,
    /// The probed block's hash (`None`: the node does not know it, or did not say).
    pub deployment_block_hash: Option<B256>,
}

/// A transaction receipt (the fields the app reads).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Receipt {
    pub status: U256,
    pub block_number: U256,
    /// The transaction's logs (what a confirmed action created, e.g. a launch's token).
    #[serde(default)]
    pub logs: Vec<Log>,
}

/// A call or transaction request.
#[derive(Debug, Clone, Default)]
pub struct TxRequest {
    pub from: Option<Address>,
    pub to: Address,
    pub data: Bytes,
    pub value: U256,
}

impl TxRequest {
    /// A call without ETH, from the connected account (filled in when sent).
    pub fn call(to: Address, data: impl Into<Bytes>) -> TxRequest {
        TxRequest {
            from: None,
            to,
            data: data.into(),
            value: U256::ZERO,
        }
    }

    /// A call paying `value` wei of ETH with it.
    pub fn paying(to: Address, data: impl Into<Bytes>, value: U256) -> TxRequest {
        TxRequest {
            value,
            ..TxRequest::call(to, data)
        }
    }

    /// The same call, from `from` (as an `eth_call` or a gas estimate is made for an account).
    pub fn from(self, from: Option<Address>) -> TxRequest {
        TxRequest { from, ..self }
    }

    pub fn to_json(&self) -> Value {
        let mut o =
            json!({ "to": self.to, "data": self.data, "value": format!("{:#x}", self.value) });
        if let Some(f) = self.from {
            o["from"] = json!(f);
        }
        o
    }
}

/// A JSON-RPC endpoint, the most blocks one `eth_getLogs` asks it for, and its chain's Multicall3
/// (batched reads, [`crate::chain::multicall`]) when it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rpc {
    pub url: String,
    pub log_range: u64,
    /// `eth_getLogs` requests of one scan in flight at once.
    pub log_requests: usize,
    pub multicall: Option<Address>,
    /// The log cache's key prefix for this deployment ([`crate::chain::log_cache`]); `None`: logs
    /// are not cached.
    pub log_cache: Option<String>,
    /// Contracts known to keep no record of their events' blocks (the PoolManager): their logs are
    /// scanned without asking for one (D12, [`crate::chain::event_blocks`]).
    pub unrecorded: Vec<Address>,
}

fn q(v: &Value) -> Result<U256, RpcError> {
    let s = v
        .as_str()
        .ok_or_else(|| RpcError::Decode(format!("expected a hex quantity, got {v}")))?;
    U256::from_str_radix(s.trim_start_matches("0x"), 16)
        .map_err(|e| RpcError::Decode(e.to_string()))
}

/// An `eth_call` result: hex bytes.
fn hex_bytes(v: &Value) -> Result<Bytes, RpcError> {
    let s = v
        .as_str()
        .ok_or_else(|| RpcError::Decode("eth_call result".into()))?;
    hex::decode(s.trim_start_matches("0x"))
        .map(Bytes::from)
        .map_err(|e| RpcError::Decode(e.to_string()))
}

/// [`Rpc::run_code`]'s request: `eth_call` of `code` with no `to`, at the latest block. Written byte for
/// byte: the page's loader sends the launch list's first one before the app starts (D11, "Reads sent early";
/// `scripts/early-requests.mjs` writes the same bytes).
fn run_code_body(code: &Bytes) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{{"data":"{code}"}},"latest"]}}"#
    )
}

/// `getChainId()` of Multicall3: what the probe calls to learn whether Multicall3 answers.
const GET_CHAIN_ID: &str = "0x3408e470";

/// [`Rpc::probe`]'s request, one JSON-RPC batch (ids 0 to 3) written byte for byte: the page's loader sends
/// the same bytes before the app starts (D11, "Reads sent early"; `scripts/early-requests.mjs`). Addresses in
/// lower case, the block as a hex quantity.
fn probe_body(multicall: Address, block: u64) -> String {
    format!(
        concat!(
            r#"[{{"jsonrpc":"2.0","id":0,"method":"eth_chainId","params":[]}},"#,
            r#"{{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",false]}},"#,
            r#"{{"jsonrpc":"2.0","id":2,"method":"eth_call","params":[{{"to":"{mc}","data":"{get}"}},"latest"]}},"#,
            r#"{{"jsonrpc":"2.0","id":3,"method":"eth_getBlockByNumber","params":["{block:#x}",false]}}]"#
        ),
        mc = format!("{multicall:#x}"),
        get = GET_CHAIN_ID,
        block = block
    )
}

impl Probe {
    /// The probe's four answers, in [`probe_body`]'s order.
    fn read(answers: Vec<Result<Value, RpcError>>) -> Result<Self, RpcError> {
        let [chain_id, latest, multicall, deployed]: [Result<Value, RpcError>; 4] = answers
            .try_into()
            .map_err(|_| RpcError::Decode("a batch of 4 answered otherwise".into()))?;
        Ok(Self {
            chain_id: q64(&chain_id?)?,
            latest_timestamp: q64(&latest?["timestamp"])?,
            multicall: multicall
                .and_then(|v| hex_bytes(&v))
                .is_ok_and(|b| !b.is_empty()),
            deployment_block_hash: deployed
                .ok()
                .and_then(|b| serde_json::from_value(b["hash"].clone()).ok()),
        })
    }
}

fn q64(v: &Value) -> Result<u64, RpcError> {
    u64::try_from(q(v)?).map_err(|_| RpcError::Decode("quantity too large".into()))
}

impl Rpc {
    /// An endpoint with the default log range.
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            log_range: DEFAULT_LOG_RANGE,
            log_requests: DEFAULT_LOG_REQUESTS,
            multicall: None,
            log_cache: None,
            unrecorded: Vec::new(),
        }
    }

    /// The same endpoint, never asking `contracts` for a record of their events' blocks (D12).
    pub fn with_unrecorded(self, contracts: &[Address]) -> Self {
        Self {
            unrecorded: contracts.to_vec(),
            ..self
        }
    }

    /// The same endpoint, caching its log scans under `prefix` (one deployment's identity).
    pub fn with_log_cache(self, prefix: Option<String>) -> Self {
        Self {
            log_cache: prefix,
            ..self
        }
    }

    /// The same endpoint, batching reads through the Multicall3 at `at` (`None`: JSON-RPC batches).
    pub fn with_multicall(self, at: Option<Address>) -> Self {
        Self {
            multicall: at,
            ..self
        }
    }

    /// The same endpoint asked for at most `blocks` blocks of logs at a time.
    pub fn with_log_range(self, blocks: u64) -> Self {
        Self {
            log_range: blocks.max(1),
            ..self
        }
    }

    /// The same endpoint with up to `n` `eth_getLogs` requests of one scan in flight at once (D3).
    pub fn with_log_requests(self, n: usize) -> Self {
        Self {
            log_requests: n.max(1),
            ..self
        }
    }

    /// This node's queue of requests sent together ([`coalesce`]), one per URL and page.
    fn node(&self) -> Rc<Coalescer> {
        thread_local! {
            static NODES: RefCell<HashMap<String, Rc<Coalescer>>> = RefCell::new(HashMap::new());
        }
        NODES.with(|nodes| {
            Rc::clone(
                nodes
                    .borrow_mut()
                    .entry(self.url.clone())
                    .or_insert_with(|| browser_node(self.url.clone())),
            )
        })
    }

    /// One JSON-RPC request, sent with the other requests made in the same browser task
    /// ([`coalesce`]), retried with backoff while the node rate-limits it. The HTTP request that
    /// carries it has its own backoff where it is sent ([`browser_node`]): a transport error is
    /// final here, so a node that keeps rate-limiting is given up on after one backoff, not two.
    pub async fn request(&self, method: &str, params: Value) -> Result<Value, RpcError> {
        let node = self.node();
        let once = || {
            let answer = node.call(method, params.clone());
            async move {
                match answer.await {
                    // This request's own answer: its rate limit is retried.
                    Ok(own) => own.map(Ok),
                    // The HTTP request's failure, after its backoff: returned as it is.
                    Err(transport) => Ok(Err(transport)),
                }
            }
        };
        with_backoff(once, gloo_timers::future::TimeoutFuture::new)
            .await
            .and_then(|answer| answer)
    }

    /// Several JSON-RPC requests `(method, params)`, sent with the other requests made in the same
    /// browser task in JSON-RPC batches of at most [`MAX_BATCH`] requests each, at once (one round
    /// trip); each request's result or error, in order. A request the node rate-limits is that
    /// request's error.
    ///
    /// # Errors
    /// When a batch as a whole fails in transport (the network, a rate limit that outlasts the
    /// backoff, a server error).
    pub async fn request_batch(
        &self,
        requests: &[(&str, Value)],
    ) -> Result<Vec<Result<Value, RpcError>>, RpcError> {
        let node = self.node();
        let answers = requests
            .iter()
            .map(|(method, params)| node.call(method, params.clone()))
            .collect::<Vec<_>>();
        futures::future::join_all(answers)
            .await
            .into_iter()
            .collect()
    }

    /// `eth_call`s of `calls` (to, data) against the state after `block` (`None`: the latest) in
    /// JSON-RPC batches ([`Rpc::request_batch`]); each call's answer or error, in order.
    pub async fn eth_calls(
        &self,
        calls: &[(Address, Bytes)],
        block: Option<u64>,
    ) -> Result<Vec<Result<Bytes, RpcError>>, RpcError> {
        let txs: Vec<TxRequest> = calls
            .iter()
            .map(|(to, data)| TxRequest::call(*to, data.clone()))
            .collect();
        self.call_batch_at(&txs, block).await
    }

    /// `eth_call`s of `txs` (each with its own `from`, for calls that read `msg.sender`) against
    /// the state after block `block` (`None`: the latest), in JSON-RPC batches; each call's answer
    /// or error, in order.
    pub async fn call_batch_at(
        &self,
        txs: &[TxRequest],
        block: Option<u64>,
    ) -> Result<Vec<Result<Bytes, RpcError>>, RpcError> {
        let tag = block.map_or_else(|| json!("latest"), |b| json!(format!("{b:#x}")));
        let requests: Vec<(&str, Value)> = txs
            .iter()
            .map(|tx| ("eth_call", json!([tx.to_json(), tag])))
            .collect();
        Ok(self
            .request_batch(&requests)
            .await?
            .into_iter()
            .map(|r| r.and_then(|v| hex_bytes(&v)))
            .collect())
    }

    /// The timestamps of blocks `numbers` in one round trip (JSON-RPC batches of
    /// `eth_getBlockByNumber`), by block number.
    ///
    /// # Errors
    /// When a block cannot be read or is not known to the node.
    pub async fn block_timestamps(
        &self,
        numbers: &[u64],
    ) -> Result<std::collections::BTreeMap<u64, u64>, RpcError> {
        let requests: Vec<(&str, Value)> = numbers
            .iter()
            .map(|n| ("eth_getBlockByNumber", json!([format!("{n:#x}"), false])))
            .collect();
        let answers = self.request_batch(&requests).await?;
        numbers
            .iter()
            .zip(answers)
            .map(|(&n, a)| {
                let b = a?;
                if b.is_null() {
                    return Err(RpcError::Node(format!(
                        "block {n} is not known to the node"
                    )));
                }
                Ok((n, q64(&b["timestamp"])?))
            })
            .collect()
    }

    /// What connecting needs to know, in one round trip (one JSON-RPC batch, [`probe_body`]): the chain id,
    /// the latest block's timestamp, whether Multicall3 answers at `multicall` and the hash of block `block`
    /// (the deployment block: the log cache's key). The page's loader may have sent the same batch before the
    /// app started (D11, "Reads sent early"): its answer is taken then. A node that refuses batches (an error
    /// object for the batch, or HTTP 4xx) is asked the same requests one at a time ([`coalesce`]).
    ///
    /// # Errors
    /// When the chain id or the latest block cannot be read.
    pub async fn probe(&self, multicall: Address, block: u64) -> Result<Probe, RpcError> {
        let body = probe_body(multicall, block);
        let once = || post_json_or_early(&self.url, &body);
        let answers = match with_backoff(once, gloo_timers::future::TimeoutFuture::new).await {
            Ok(v) if v.is_array() => coalesce::batch_answers(&v, 4)?,
            Ok(_)
            | Err(RpcError::Http {
                status: 400..=499, ..
            }) => {
                let requests: Vec<Value> =
                    serde_json::from_str(&body).map_err(|e| RpcError::Decode(e.to_string()))?;
                let requests: Vec<(&str, Value)> = requests
                    .iter()
                    .map(|r| {
                        (
                            r["method"].as_str().unwrap_or_default(),
                            r["params"].clone(),
                        )
                    })
                    .collect();
                self.request_batch(&requests).await?
            }
            Err(e) => return Err(e),
        };
        Probe::read(answers)
    }

    /// Runs `code` with `eth_call` and no `to` at the latest block, and returns the data it reverted
    /// with: a deployless reader's creation code and constructor arguments, whose answer is its revert
    /// data (D3; `contracts/src/lens`). Retried with backoff while the node rate-limits.
    ///
    /// # Errors
    /// The node's error when it reverted without data (out of gas), refused the call, or could not be
    /// reached; [`RpcError::Decode`] when the code returned instead of reverting.
    pub async fn run_code(&self, code: &Bytes) -> Result<Bytes, RpcError> {
        let body = run_code_body(code);
        let once = || async {
            // Its first try may take the same request sent early (D11); a retry sends its own.
            let v = post_json_or_early(&self.url, &body).await?;
            match v.get("error") {
                Some(e) => revert_data(e).ok_or_else(|| error_from(e)),
                None => Err(RpcError::Decode(
                    "a deployless reader returned instead of answering".into(),
                )),
            }
        };
        with_backoff(once, gloo_timers::future::TimeoutFuture::new).await
    }

    /// Sends [`Rpc::run_code`]'s request for `code` now, before the reader asks for it
    /// ([`super::transport::post_json_early`]).
    pub fn run_code_early(&self, code: &Bytes) {
        super::transport::post_json_early(&self.url, run_code_body(code));
    }

    /// `eth_blockNumber`.
    pub async fn block_number(&self) -> Result<u64, RpcError> {
        q64(&self.request("eth_blockNumber", json!([])).await?)
    }

    /// The latest block's timestamp (chain time, which anvil may have moved ahead of the wall clock).
    pub async fn latest_timestamp(&self) -> Result<u64, RpcError> {
        Ok(self.latest_block().await?.1)
    }

    /// The latest block's number and timestamp, from one block (so they describe the same moment).
    pub async fn latest_block(&self) -> Result<(u64, u64), RpcError> {
        let b = self
            .request("eth_getBlockByNumber", json!(["latest", false]))
            .await?;
        Ok((q64(&b["number"])?, q64(&b["timestamp"])?))
    }

    pub async fn balance(&self, who: Address) -> Result<U256, RpcError> {
        q(&self
            .request("eth_getBalance", json!([who, "latest"]))
            .await?)
    }

    pub async fn nonce(&self, who: Address) -> Result<u64, RpcError> {
        q64(&self
            .request("eth_getTransactionCount", json!([who, "pending"]))
            .await?)
    }

    /// The account's transactions mined so far (`eth_getTransactionCount` at "latest").
    pub async fn nonce_mined(&self, who: Address) -> Result<u64, RpcError> {
        q64(&self
            .request("eth_getTransactionCount", json!([who, "latest"]))
            .await?)
    }

    /// The nonce of a transaction the node knows (`None` when it does not).
    pub async fn tx_nonce(&self, hash: B256) -> Result<Option<u64>, RpcError> {
        let v = self
            .request("eth_getTransactionByHash", json!([hash]))
            .await?;
        if v.is_null() {
            return Ok(None);
        }
        q64(&v["nonce"]).map(Some)
    }

    /// The transaction `from` mined with `nonce` in blocks `from_block..=latest` (at most the
    /// newest 64 of them, in one batch): its hash, and whether it is a cancellation (no data,
    /// sent to itself).
    pub async fn find_by_nonce(
        &self,
        from: Address,
        nonce: u64,
        from_block: u64,
    ) -> Result<Option<(B256, bool)>, RpcError> {
        let latest = self.block_number().await?;
        let first = from_block.max(latest.saturating_sub(63));
        let requests: Vec<(&str, Value)> = (first..=latest)
            .map(|n| ("eth_getBlockByNumber", json!([format!("{n:#x}"), true])))
            .collect();
        for block in self.request_batch(&requests).await? {
            let block = block?;
            for t in block["transactions"].as_array().into_iter().flatten() {
                let sender: Option<Address> = serde_json::from_value(t["from"].clone()).ok();
                if sender == Some(from) && q64(&t["nonce"]).ok() == Some(nonce) {
                    let hash: B256 = serde_json::from_value(t["hash"].clone())
                        .map_err(|e| RpcError::Decode(e.to_string()))?;
                    let to: Option<Address> = serde_json::from_value(t["to"].clone()).ok();
                    let data = t["input"].as_str().unwrap_or("0x");
                    return Ok(Some((hash, to == Some(from) && data.len() <= 2)));
                }
            }
        }
        Ok(None)
    }

    pub async fn gas_price(&self) -> Result<U256, RpcError> {
        q(&self.request("eth_gasPrice", json!([])).await?)
    }

    /// `eth_call` with raw data.
    pub async fn call_raw(&self, tx: &TxRequest) -> Result<Bytes, RpcError> {
        let v = self
            .request("eth_call", json!([tx.to_json(), "latest"]))
            .await?;
        hex_bytes(&v)
    }

    /// A typed view call.
    pub async fn call<C: SolCall>(&self, to: Address, call: &C) -> Result<C::Return, RpcError> {
        let out = self
            .call_raw(&TxRequest {
                from: None,
                to,
                data: call.abi_encode().into(),
                value: U256::ZERO,
            })
            .await?;
        C::abi_decode_returns(&out).map_err(|e| RpcError::Decode(e.to_string()))
    }

    /// A typed view call against the state after block `block` (`eth_call` at a block number).
    pub async fn call_at<C: SolCall>(
        &self,
        to: Address,
        call: &C,
        block: u64,
    ) -> Result<C::Return, RpcError> {
        self.call_from_at(None, to, call, block).await
    }

    /// A view call at block `block`, as `from` when given (for calls that read `msg.sender`).
    pub async fn call_from_at<C: SolCall>(
        &self,
        from: Option<Address>,
        to: Address,
        call: &C,
        block: u64,
    ) -> Result<C::Return, RpcError> {
        let tx = TxRequest::call(to, call.abi_encode()).from(from);
        let v = self
            .request("eth_call", json!([tx.to_json(), format!("{block:#x}")]))
            .await?;
        let s = v
            .as_str()
            .ok_or_else(|| RpcError::Decode("eth_call result".into()))?;
        let out =
            hex::decode(s.trim_start_matches("0x")).map_err(|e| RpcError::Decode(e.to_string()))?;
        C::abi_decode_returns(&out).map_err(|e| RpcError::Decode(e.to_string()))
    }

    pub async fn estimate_gas(&self, tx: &TxRequest) -> Result<u64, RpcError> {
        q64(&self
            .request("eth_estimateGas", json!([tx.to_json()]))
            .await?)
    }

    pub async fn send_raw(&self, raw: &[u8]) -> Result<B256, RpcError> {
        let v = self
            .request("eth_sendRawTransaction", json!([hex::encode_prefixed(raw)]))
            .await?;
        serde_json::from_value(v).map_err(|e| RpcError::Decode(e.to_string()))
    }

    pub async fn receipt(&self, hash: B256) -> Result<Option<Receipt>, RpcError> {
        let v = self
            .request("eth_getTransactionReceipt", json!([hash]))
            .await?;
        if v.is_null() {
            return Ok(None);
        }
        serde_json::from_value(v)
            .map(Some)
            .map_err(|e| RpcError::Decode(e.to_string()))
    }

    /// The input data of a mined transaction.
    pub async fn tx_input(&self, hash: B256) -> Result<Bytes, RpcError> {
        let v = self
            .request("eth_getTransactionByHash", json!([hash]))
            .await?;
        serde_json::from_value(v["input"].clone()).map_err(|e| RpcError::Decode(e.to_string()))
    }

    /// The events `E` of one contract from `from_block` to the latest block (optionally with
    /// their first indexed topic equal to `topic1`), decoded with their `sol!` type, each with its
    /// log, in chain order.
    ///
    /// # Errors
    /// When the logs cannot be read, or a log with `E`'s signature does not decode as `E` (the
    /// address is not the contract the network description says it is).
    pub async fn events<E: SolEvent>(
        &self,
        address: Address,
        topic1: Option<B256>,
        from_block: u64,
    ) -> Result<Vec<(E, Log)>, RpcError> {
        let latest = self.block_number().await?;
        self.events_to(address, topic1, from_block, latest).await
    }

    /// [`Rpc::events`] over blocks `[from, to]`: for a page that read the head with its first
    /// batch, so its log reads need no round trip of their own to learn it (D3).
    ///
    /// # Errors
    /// As [`Rpc::events`].
    pub async fn events_to<E: SolEvent>(
        &self,
        address: Address,
        topic1: Option<B256>,
        from: u64,
        to: u64,
    ) -> Result<Vec<(E, Log)>, RpcError> {
        let filter = LogFilter::event::<E>(address, topic1);
        decode_events(self.get_logs(&filter, from, to).await?)
    }

    /// `eth_getLogs` over blocks `[from, to]` in chain order: in the blocks the filter's contract
    /// recorded (D12, [`crate::chain::event_blocks`]) when it keeps a record, else through the log
    /// reader (at most [`Rpc::log_range`] blocks per request, a range the node refuses split and
    /// read again); with a log cache, only the blocks after the cached (confirmed) ones. A failing
    /// request names its block range.
    pub async fn get_logs(
        &self,
        filter: &LogFilter,
        from: u64,
        to: u64,
    ) -> Result<Vec<Log>, RpcError> {
        let index =
            (!self.unrecorded.contains(&filter.address)).then(|| BlockIndex::own(filter.address));
        self.get_logs_via(filter, from, to, index.as_ref()).await
    }

    /// [`Rpc::get_logs`] with the record of `index` (`None`: scan): a pool's swaps on the
    /// PoolManager found through the hook that recorded them.
    pub async fn get_logs_via(
        &self,
        filter: &LogFilter,
        from: u64,
        to: u64,
        index: Option<&BlockIndex>,
    ) -> Result<Vec<Log>, RpcError> {
        let Some(prefix) = &self.log_cache else {
            return self.read_logs(filter, from, to, index).await;
        };
        let key = format!("{prefix}|{}|{from}", filter.key());
        let cached = log_cache::get(prefix, &key).await;
        let (mut logs, next) = log_cache::plan(cached.as_ref(), from, to);
        if let Some(n) = next {
            logs.extend(self.read_logs(filter, n, to, index).await?);
        }
        if let Some(keep) = log_cache::to_keep(&logs, from, to) {
            if cached.is_none_or(|c| c.to < keep.to) {
                log_cache::put(prefix, &key, &keep).await;
            }
        }
        Ok(logs)
    }

    async fn read_logs(
        &self,
        filter: &LogFilter,
        from: u64,
        to: u64,
        index: Option<&BlockIndex>,
    ) -> Result<Vec<Log>, RpcError> {
        if let Some(index) = index {
            let ask = |at, key, next, to| async move {
                let page = self
                    .call_at(at, &event_blocks::page_call(key, next, to), to)
                    .await?;
                Ok((page.blocks, page.more))
            };
            match event_blocks::recorded_blocks(index, from, to, ask).await {
                Ok(blocks) => {
                    let batch = |requests: Vec<(&'static str, Value)>| async move {
                        self.request_batch(&requests).await
                    };
                    return event_blocks::logs_in_blocks(filter, &blocks, self.log_range, batch)
                        .await;
                }
                Err(e) if event_blocks::keeps_no_record(&e) => {}
                Err(e) => return Err(e),
            }
        }
        let fetch = |lo: u64, hi: u64| async move {
            let v = self.request("eth_getLogs", filter.to_json(lo, hi)).await?;
            serde_json::from_value::<Vec<Log>>(v).map_err(|e| RpcError::Decode(e.to_string()))
        };
        read_logs(fetch, from, to, self.log_range, self.log_requests).await
    }
}

/// Decodes each log as the event `E`, keeping the log beside it.
///
/// # Errors
/// The first log that does not decode, named by the event and its block.
pub fn decode_events<E: SolEvent>(logs: Vec<Log>) -> Result<Vec<(E, Log)>, RpcError> {
    logs.into_iter()
        .map(|l| decode_event(&l).map(|e| (e, l)))
        .collect()
}

/// Decodes one log as the event `E`.
///
/// # Errors
/// When it does not decode, named by the event and its block.
pub fn decode_event<E: SolEvent>(l: &Log) -> Result<E, RpcError> {
    l.decode::<E>().map_err(|e| RpcError::Decode(e.to_string()))
}

/// How many microtask turns a queue waits for other requests to join it before it is sent. Leptos runs the
/// page's futures as microtasks, so the reads its parts start in the same browser task (and their follow-ups
/// woken by one answer) join; a timer would join more, but the browser runs a timer only after the page's own
/// work queued before it, and the pages measured slower with one (`bench/results/long-chain.txt`).
const COALESCE_TURNS: u32 = 8;

/// The browser's queue for the node at `url`: `fetch` POSTs (retried with backoff while the node
/// rate-limits, as a whole), flushed in `spawn_local` tasks after [`COALESCE_TURNS`] microtask turns, [`MAX_BATCH`] requests per HTTP request.
fn browser_node(url: String) -> Rc<Coalescer> {
    let url = Rc::new(url);
    let post: coalesce::Post = Rc::new(move |body: String| {
        let url = Rc::clone(&url);
        Box::pin(async move {
            let once = || async {
                let v = post_json(&url, &body).await?;
                // A node rate-limiting the request as a whole answers one error object.
                if let Some(e @ RpcError::RateLimited(_)) = v.get("error").map(error_from) {
                    return Err(e);
                }
                Ok(v)
            };
            with_backoff(once, gloo_timers::future::TimeoutFuture::new).await
        })
    });
    let spawn: coalesce::Spawn = Rc::new(wasm_bindgen_futures::spawn_local);
    let tick: coalesce::Tick = Rc::new(|| {
        Box::pin(async {
            for _ in 0..COALESCE_TURNS {
                let _ = wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(
                    &wasm_bindgen::JsValue::UNDEFINED,
                ))
                .await;
            }
        })
    });
    Coalescer::new(post, spawn, tick, MAX_BATCH)
}

/// Requests per JSON-RPC batch: within public nodes' batch limits.
pub const MAX_BATCH: usize = 250;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::transport::is_html;

    /// The hand-written example the page's loader is held to as well (`tests/js/early_requests.test.mjs`).
    fn early_fixture() -> Value {
        serde_json::from_str(include_str!("../../../tests/fixtures/early-requests.json")).unwrap()
    }

    #[test]
    fn the_probe_is_the_bytes_the_page_sends_early() {
        let fx = early_fixture();
        let mc: Address = fx["multicall"].as_str().unwrap().parse().unwrap();
        // The example's address is Multicall3's own, the default the page's loader uses as the app does.
        assert_eq!(mc, crate::chain::multicall::MULTICALL3);
        assert_eq!(
            probe_body(mc, fx["block"].as_u64().unwrap()),
            fx["probe"].as_str().unwrap()
        );
        // The selector it calls is Multicall3's `getChainId()`.
        let selector = &alloy_primitives::keccak256("getChainId()")[..4];
        assert_eq!(GET_CHAIN_ID, format!("0x{}", hex::encode(selector)));
    }

    #[test]
    fn the_launch_lists_first_page_is_the_bytes_the_page_sends_early() {
        use crate::chain::launchpad::lens;
        let fx = early_fixture();
        let pad: Address = fx["pad"].as_str().unwrap().parse().unwrap();
        assert_eq!(fx["rows"].as_u64().unwrap(), lens::ROWS);
        let code = format!(
            "{}",
            Bytes::from(crate::chain::abi::LaunchLens::BYTECODE.to_vec())
        );
        let want = fx["lens"]
            .as_str()
            .unwrap()
            .replace("{code}", &code)
            .replace("{args}", fx["lensArgs"].as_str().unwrap());
        assert_eq!(run_code_body(&lens::code(pad, &[], 0, lens::ROWS)), want);
    }

    #[test]
    fn the_probe_reads_multicall_from_its_answer() {
        let ok = |v: Value| -> Result<Value, RpcError> { Ok(v) };
        let answers = |mc: Result<Value, RpcError>| {
            vec![
                ok(json!("0x7a69")),
                ok(json!({ "timestamp": "0x10" })),
                mc,
                ok(json!({ "hash": format!("0x{}", "11".repeat(32)) })),
            ]
        };
        let p = Probe::read(answers(ok(json!(format!("0x{:064x}", 31337))))).unwrap();
        assert_eq!(
            (p.chain_id, p.latest_timestamp, p.multicall),
            (31337, 16, true)
        );
        assert_eq!(p.deployment_block_hash, Some(B256::repeat_byte(0x11)));
        // No code at the address answers nothing; a revert is not Multicall3 either.
        assert!(!Probe::read(answers(ok(json!("0x")))).unwrap().multicall);
        assert!(
            !Probe::read(answers(Err(RpcError::Revert("no".into()))))
                .unwrap()
                .multicall
        );
        assert!(Probe::read(answers(ok(json!("0x"))).into_iter().take(3).collect()).is_err());
    }

    #[test]
    fn an_html_answer_is_a_fallback_page_not_a_document() {
        assert!(is_html(Some("text/html; charset=utf-8")));
        assert!(is_html(Some("TEXT/HTML")));
        assert!(!is_html(Some("application/json")));
        assert!(!is_html(Some("text/plain")));
        assert!(!is_html(None));
    }

    #[test]
    fn revert_data_is_decoded() {
        let e = error_from(
            &json!({"code": 3, "message": "execution reverted", "data": "0x08c379a00000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000000474657374"}),
        );
        // Truncated Error(string) payload: still a revert, with the raw data shown.
        assert!(matches!(e, RpcError::Revert(_)));
        assert!(matches!(
            error_from(&json!({"code": -32000, "message": "nonce too low"})),
            RpcError::Node(_)
        ));
        assert!(matches!(
            error_from(&json!({"code": -32000, "message": "execution reverted"})),
            RpcError::Revert(_)
        ));
    }

    #[test]
    fn revert_data_plain_or_nested() {
        let d = Bytes::from(vec![0xab, 0xcd]);
        assert_eq!(
            revert_data(&json!({"code": 3, "data": "0xabcd"})),
            Some(d.clone())
        );
        assert_eq!(
            revert_data(&json!({"code": -32015, "data": {"data": "0xabcd"}})),
            Some(d)
        );
        assert_eq!(
            revert_data(&json!({"code": 3, "data": "0x"})),
            Some(Bytes::new())
        );
        assert_eq!(
            revert_data(&json!({"code": -32000, "message": "out of gas"})),
            None
        );
        assert_eq!(revert_data(&json!({"code": 3, "data": "not hex"})), None);
    }

    #[test]
    fn events_decode_with_their_type_or_name_the_one_that_does_not() {
        use crate::chain::abi::IEpochRegistry::RootProposed;
        let e = RootProposed {
            epoch: 7,
            root: B256::repeat_byte(1),
            inputsRoot: B256::repeat_byte(3),
            expiry: 100,
            proposer: Address::repeat_byte(2),
            deadline: 200,
        };
        let data = e.encode_log_data();
        let log = |topics: Vec<B256>, data: Bytes| Log {
            address: None,
            topics,
            data,
            block_number: U256::from(12u8),
            transaction_hash: B256::ZERO,
            log_index: None,
        };
        let good = log(data.topics().to_vec(), data.data.clone());
        let got = decode_events::<RootProposed>(vec![good.clone()]).unwrap();
        assert_eq!(got.len(), 1);
        assert_eq!((got[0].0.epoch, got[0].0.root), (7, B256::repeat_byte(1)));
        assert_eq!(got[0].1.block_number, U256::from(12u8));
        // Same signature, data cut short: an error naming the event and its block, never skipped.
        let bad = log(data.topics().to_vec(), Bytes::from(vec![0u8; 3]));
        let Err(err) = decode_events::<RootProposed>(vec![good, bad]) else {
            panic!("a log that does not decode was skipped");
        };
        assert!(
            matches!(&err, RpcError::Decode(m) if m.contains("RootProposed(") && m.contains("block 12")),
            "{err}"
        );
    }

    #[test]
    fn rate_limits_are_recognised() {
        assert!(matches!(
            error_from(&json!({"code": 429, "message": "Too Many Requests"})),
            RpcError::RateLimited(_)
        ));
        assert!(matches!(
            error_from(
                &json!({"code": -32005, "message": "daily request count exceeded, request rate limited"})
            ),
            RpcError::RateLimited(_)
        ));
    }

    #[test]
    fn filters_encode_any_topic_as_null() {
        let f = LogFilter {
            address: Address::ZERO,
            topics: vec![Some(vec![B256::ZERO]), None],
        };
        assert_eq!(f.to_json(1, 2)[0]["topics"][1], Value::Null);
        assert_eq!(f.to_json(1, 2)[0]["toBlock"], "0x2");
    }
}
