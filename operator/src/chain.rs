//! The chain: a provider on the network description's RPC (or `--rpc-url`), the operator's key, and the
//! reads the commands need (the registry's epoch state, the source keys).

use crate::abi::{EpochRegistry, SourceKeyRegistry};
use crate::error::{KeyError, OpError, Result, TxError};
use alloy::eips::BlockId;
use alloy::network::EthereumWallet;
use alloy::primitives::{Address, B256, U256};
use alloy::providers::{DynProvider, Provider, ProviderBuilder};
use alloy::rpc::types::{Filter, Log, TransactionRequest};
use alloy::signers::local::PrivateKeySigner;
use eden_core::attest::KeyBook;
use eden_core::network::NetworkDescription;
use std::path::Path;

/// Environment variable holding the operator's private key unless `--key-env` names another.
pub const DEFAULT_KEY_ENV: &str = "EDEN_PRIVATE_KEY";
/// Environment variable holding a keystore file's password.
pub const KEYSTORE_PASSWORD_ENV: &str = "EDEN_KEYSTORE_PASSWORD";

/// The operator's key: from a keystore file (password in `EDEN_KEYSTORE_PASSWORD`) or from the
/// environment variable `key_env`. Never from a command-line flag (it would be in the shell history and
/// the process list).
pub fn signer(keystore: Option<&Path>, key_env: &str) -> Result<PrivateKeySigner> {
    signer_from(keystore, key_env, |name| std::env::var(name).ok())
}

/// [`signer`] with the environment read through `env` (the tests pass their own).
fn signer_from(
    keystore: Option<&Path>,
    key_env: &str,
    env: impl Fn(&str) -> Option<String>,
) -> Result<PrivateKeySigner> {
    if let Some(path) = keystore {
        let password = env(KEYSTORE_PASSWORD_ENV).ok_or_else(|| {
            OpError::Key(KeyError::NoPassword {
                env: KEYSTORE_PASSWORD_ENV,
                path: path.to_path_buf(),
            })
        })?;
        return PrivateKeySigner::decrypt_keystore(path, password).map_err(|source| {
            OpError::Key(KeyError::Keystore {
                path: path.to_path_buf(),
                source: Box::new(source),
            })
        });
    }
    let hex = env(key_env).ok_or_else(|| {
        OpError::Key(KeyError::NoKey {
            env: key_env.to_string(),
            password_env: KEYSTORE_PASSWORD_ENV,
        })
    })?;
    hex.trim().parse::<PrivateKeySigner>().map_err(|source| {
        OpError::Key(KeyError::NotAKey {
            env: key_env.to_string(),
            source: Box::new(source),
        })
    })
}

/// Signs a 32-byte digest as the contracts and `eden_core::eip712::parse_signature` take it: 65 bytes
/// `r ‖ s ‖ v` with `v` 27 or 28 (alloy's signer gives low `s` and a 0/1 parity).
///
/// # Errors
/// [`OpError::Key`] when the signer fails.
pub fn sign_digest(key: &PrivateKeySigner, digest: &B256) -> Result<Vec<u8>> {
    use alloy::signers::SignerSync;
    let sig = key
        .sign_hash_sync(digest)
        .map_err(|e| KeyError::Sign(Box::new(e)))?;
    let mut bytes = sig.as_bytes().to_vec();
    if bytes[64] < 27 {
        bytes[64] += 27;
    }
    Ok(bytes)
}

/// Blocks per `eth_getLogs` request by default: public RPC providers cap a request's block range or its
/// number of logs (commonly at 10,000), so a scan from the deployment block goes in pages.
pub const LOG_BLOCKS: u64 = 10_000;

/// Reads in flight at once where the node is asked one at a time (block times, `eth_call`s in a batch).
const READS_IN_FLIGHT: usize = 16;

/// A connection to the deployment.
pub struct Chain {
    /// The network description.
    pub net: NetworkDescription,
    /// The provider (with the operator's wallet when one was given).
    pub provider: DynProvider,
    /// The sending account, when a key was given.
    pub from: Option<Address>,
    /// Blocks per `eth_getLogs` request ([`LOG_BLOCKS`] unless set; `--log-blocks`).
    pub log_blocks: u64,
    /// `eth_getLogs` requests of one scan in flight at once (`eden_chain::logs::DEFAULT_LOG_REQUESTS` unless
    /// set; `--log-requests`).
    pub log_requests: usize,
    /// Logs read by [`Chain::logs_since_deployment`], per filter, up to a block [`REORG_DEPTH`] under the head
    /// of the scan that read them (a long-running command reads only the new blocks on each pass).
    log_cache: std::sync::Mutex<std::collections::HashMap<String, ScannedLogs>>,
}

/// Blocks under the head below which a log is taken as settled and kept between passes (deeper than any
/// reorganisation seen on the chains Eden targets; the blocks above are read again on every pass).
pub const REORG_DEPTH: u64 = 64;

/// The settled logs of one filter: every log up to block `through`.
#[derive(Clone, Default)]
struct ScannedLogs {
    through: Option<u64>,
    logs: Vec<Log>,
}

impl Chain {
    /// Connects to `rpc` (default: the description's first RPC URL), checking the chain id.
    ///
    /// # Errors
    /// [`OpError::Rpc`] when the node is unreachable or serves another chain.
    pub async fn connect(
        net: NetworkDescription,
        rpc: Option<&str>,
        key: Option<PrivateKeySigner>,
    ) -> Result<Chain> {
        let url = rpc
            .map(str::to_string)
            .or_else(|| net.rpc_urls.first().cloned())
            .ok_or_else(|| OpError::input("network", "no RPC URL (pass --rpc-url)"))?;
        let parsed = url
            .parse()
            .map_err(|e| OpError::input("--rpc-url", format!("{url}: {e}")))?;
        let from = key.as_ref().map(|k| k.address());
        let provider = match key {
            Some(k) => ProviderBuilder::new()
                .wallet(EthereumWallet::from(k))
                .connect_http(parsed)
                .erased(),
            None => ProviderBuilder::new().connect_http(parsed).erased(),
        };
        let id = provider
            .get_chain_id()
            .await
            .map_err(|e| OpError::Rpc(format!("{url}: {e}")))?;
        if id != net.chain_id {
            return Err(OpError::Rpc(format!(
                "{url} serves chain {id}, the network description is chain {}",
                net.chain_id
            )));
        }
        Ok(Chain {
            net,
            provider,
            from,
            log_blocks: LOG_BLOCKS,
            log_requests: eden_chain::logs::DEFAULT_LOG_REQUESTS,
            log_cache: Default::default(),
        })
    }

    /// The epoch registry.
    pub fn registry(&self) -> EpochRegistry::EpochRegistryInstance<DynProvider> {
        EpochRegistry::new(self.net.contracts.epoch_registry, self.provider.clone())
    }

    /// The source-key registry, which the deployment must have.
    pub fn key_registry(
        &self,
    ) -> Result<SourceKeyRegistry::SourceKeyRegistryInstance<DynProvider>> {
        let a = self.net.contracts.source_key_registry.ok_or_else(|| {
            OpError::Refused(
                "this deployment has no sourceKeyRegistry in its network description".into(),
            )
        })?;
        Ok(SourceKeyRegistry::new(a, self.provider.clone()))
    }

    /// The latest block's number and timestamp.
    pub async fn head(&self) -> Result<(u64, u64)> {
        let b = self
            .provider
            .get_block_by_number(alloy::eips::BlockNumberOrTag::Latest)
            .await
            .map_err(OpError::rpc)?
            .ok_or_else(|| OpError::Rpc("no latest block".into()))?;
        Ok((b.header.number, b.header.timestamp))
    }

    /// True when a transaction of `account` is waiting in the node's pool (its pending nonce is ahead of its
    /// latest): a command that must not send twice waits until it is mined.
    pub async fn has_pending_tx(&self, account: Address) -> Result<bool> {
        let latest = self
            .provider
            .get_transaction_count(account)
            .latest()
            .await
            .map_err(OpError::rpc)?;
        let pending = self
            .provider
            .get_transaction_count(account)
            .pending()
            .await
            .map_err(OpError::rpc)?;
        Ok(pending > latest)
    }

    /// The code deployed at `account` (empty for an account with a key).
    pub async fn code_at(&self, account: Address) -> Result<alloy::primitives::Bytes> {
        self.provider
            .get_code_at(account)
            .await
            .map_err(OpError::rpc)
    }

    /// The sending account, or an error saying a key is needed.
    pub fn sender(&self) -> Result<Address> {
        self.from.ok_or(OpError::Key(KeyError::NeedsKey))
    }

    /// A block's timestamp.
    ///
    /// # Errors
    /// The node's, or a block it does not have.
    pub async fn block_time(&self, block: u64) -> Result<u64> {
        let b = self
            .provider
            .get_block_by_number(alloy::eips::BlockNumberOrTag::Number(block))
            .await
            .map_err(OpError::rpc)?
            .ok_or_else(|| OpError::Rpc(format!("the node has no block {block}")))?;
        Ok(b.header.timestamp)
    }

    /// The logs `filter` matches from block `from` to `to`, in order, fetched in windows of at most
    /// [`Chain::log_blocks`] blocks, [`Chain::log_requests`] at once, by `eden_chain`'s paging (the app's
    /// too): a page the node refuses in a range wording is halved and asked again, down to one block; any
    /// other failure is an error, naming its blocks.
    pub async fn logs(&self, filter: &Filter, from: u64, to: u64) -> Result<Vec<Log>> {
        let fetch = |lo: u64, hi: u64| {
            let page = filter.clone().from_block(lo).to_block(hi);
            async move {
                self.provider.get_logs(&page).await.map_err(|e| LogPage {
                    error: e,
                    blocks: None,
                })
            }
        };
        eden_chain::logs::read_logs(fetch, from, to, self.log_blocks, self.log_requests)
            .await
            .map_err(|p| {
                let (from, to) = p.blocks.unwrap_or((from, to));
                OpError::Logs {
                    from,
                    to,
                    source: p.error,
                }
            })
    }

    /// The logs `filter` matches from the deployment block to `head`, in order, as [`Chain::logs`] reads them;
    /// the part at least [`REORG_DEPTH`] blocks under `head` is kept, so the next call asks the node only for
    /// the blocks after it. Nothing is kept across runs: a restarted command reads from the deployment block.
    pub async fn logs_since_deployment(&self, filter: &Filter, head: u64) -> Result<Vec<Log>> {
        let key = serde_json::to_string(filter).unwrap_or_default();
        let cached = self
            .log_cache
            .lock()
            .map(|c| c.get(&key).cloned().unwrap_or_default())
            .unwrap_or_default();
        let from = cached
            .through
            .map_or(self.net.deployment_block, |b| b + 1)
            .max(self.net.deployment_block);
        let fresh = if from <= head {
            self.logs(filter, from, head).await?
        } else {
            Vec::new()
        };
        let settled = head.saturating_sub(REORG_DEPTH);
        let mut keep = cached;
        let mut out = keep.logs.clone();
        for l in fresh {
            let b = l.block_number.unwrap_or_default();
            if b <= settled {
                keep.logs.push(l.clone());
            }
            out.push(l);
        }
        // Blocks from..=settled were read just now: they join the kept part.
        if settled >= from {
            keep.through = Some(settled);
            if let Ok(mut c) = self.log_cache.lock() {
                c.insert(key, keep);
            }
        }
        Ok(out)
    }

    /// Every source key registered up to block `at`, with its window as the registry holds it at `at`
    /// (`SourceKeyRegistered` logs from the deployment block, in pages, then `keyOf` for each distinct
    /// key, several reads in flight).
    pub async fn key_book(&self, at: u64) -> Result<KeyBook> {
        let registry = *self.key_registry()?.address();
        let pairs =
            eden_chain::sources::registered_keys(self, registry, self.net.deployment_block, at)
                .await?;
        let mut projects: Vec<Address> = pairs.iter().map(|&(p, _)| p).collect();
        projects.sort_unstable();
        projects.dedup();
        Ok(eden_chain::sources::key_book(self, registry, &projects, &pairs, Some(at)).await?)
    }
}

/// A failed `eth_getLogs` page, as `eden_chain`'s paging sees it.
struct LogPage {
    error: alloy::transports::TransportError,
    blocks: Option<(u64, u64)>,
}

impl eden_chain::logs::PageError for LogPage {
    fn refuses_range(&self) -> bool {
        self.error
            .as_error_resp()
            .is_some_and(|p| eden_chain::logs::refuses_range(&p.message))
    }

    fn in_range(self, lo: u64, hi: u64) -> Self {
        LogPage {
            blocks: Some((lo, hi)),
            ..self
        }
    }
}

/// An alloy log in the shape the shared readers decode.
fn shared_log(l: &Log) -> eden_chain::log::Log {
    eden_chain::log::Log {
        address: Some(l.address()),
        topics: l.topics().to_vec(),
        data: l.data().data.clone(),
        block_number: U256::from(l.block_number.unwrap_or_default()),
        transaction_hash: l.transaction_hash.unwrap_or_default(),
        log_index: l.log_index.map(U256::from),
    }
}

/// The shared readers' transport (`eden_chain::human`, …): logs from the deployment block through
/// [`Chain::logs_since_deployment`] (the settled part kept for the run), block times one by one.
impl eden_chain::read::ChainRead for Chain {
    type Error = OpError;

    async fn logs(
        &self,
        filter: &eden_chain::log::LogFilter,
        from: u64,
        to: u64,
    ) -> Result<Vec<eden_chain::log::Log>> {
        let mut f = Filter::new().address(filter.address);
        for (i, t) in filter.topics.iter().enumerate().take(4) {
            if let Some(values) = t {
                f.topics[i] = values.clone().into();
            }
        }
        let logs = if from <= self.net.deployment_block {
            self.logs_since_deployment(&f, to).await?
        } else {
            Chain::logs(self, &f, from, to).await?
        };
        Ok(logs.iter().map(shared_log).collect())
    }

    /// Up to [`READS_IN_FLIGHT`] blocks read at once.
    async fn block_timestamps(
        &self,
        blocks: &[u64],
    ) -> Result<std::collections::BTreeMap<u64, u64>> {
        use futures::stream::{self, StreamExt, TryStreamExt};
        stream::iter(
            blocks
                .iter()
                .map(|&b| async move { Ok((b, self.block_time(b).await?)) }),
        )
        .buffered(READS_IN_FLIGHT)
        .try_collect()
        .await
    }

    /// Up to [`READS_IN_FLIGHT`] `eth_call`s at once; a call's error answer (its revert) is that call's, a
    /// node that does not answer fails the batch.
    async fn call_batch(
        &self,
        calls: &[(Address, alloy::primitives::Bytes)],
        block: Option<u64>,
    ) -> Result<Vec<Result<alloy::primitives::Bytes>>> {
        use futures::stream::{self, StreamExt, TryStreamExt};
        stream::iter(calls.iter().map(|(to, data)| async move {
            let tx = TransactionRequest::default()
                .to(*to)
                .input(data.clone().into());
            let call = self.provider.call(tx);
            let call = match block {
                Some(b) => call.block(BlockId::number(b)),
                None => call,
            };
            match call.await {
                Ok(out) => Ok(Ok(out)),
                Err(e) if e.as_error_resp().is_some() => Ok(Err(OpError::Transport(e))),
                Err(e) => Err(OpError::Transport(e)),
            }
        }))
        .buffered(READS_IN_FLIGHT)
        .try_collect()
        .await
    }
}

/// A shared reader's error: the transport's as it was, the answer's fault kept typed.
impl From<eden_chain::read::ReadError<OpError>> for OpError {
    fn from(e: eden_chain::read::ReadError<OpError>) -> Self {
        e.into_transport()
            .unwrap_or_else(|answer| OpError::Answer(Box::new(answer)))
    }
}

/// A send's outcome, for the report.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Sent {
    /// Transaction hash.
    pub tx: B256,
    /// Block it was mined in.
    pub block: u64,
    /// Gas used.
    pub gas_used: u64,
}

/// Waits for a pending transaction and requires success.
pub async fn confirm(
    pending: alloy::providers::PendingTransactionBuilder<alloy::network::Ethereum>,
) -> Result<Sent> {
    let r = pending
        .get_receipt()
        .await
        .map_err(|e| TxError::Pending(Box::new(e)))?;
    if !r.status() {
        return Err(TxError::Reverted(r.transaction_hash).into());
    }
    Ok(Sent {
        tx: r.transaction_hash,
        block: r.block_number.unwrap_or_default(),
        gas_used: r.gas_used,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy::primitives::address;
    use std::io::{Read, Write};
    use std::sync::{Arc, Mutex};

    /// The block ranges a node was asked for.
    type Asked = Arc<Mutex<Vec<(u64, u64)>>>;

    /// A JSON-RPC node on 127.0.0.1 for chain 31337 that refuses `eth_getLogs` over more than 4 blocks
    /// (as public providers cap ranges) and otherwise answers one log in each block divisible by 3. It
    /// records every range asked for.
    fn capped_node() -> (String, Asked) {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", l.local_addr().unwrap());
        let asked = Arc::new(Mutex::new(Vec::new()));
        let seen = asked.clone();
        std::thread::spawn(move || {
            for s in l.incoming() {
                let Ok(mut s) = s else { continue };
                let mut req = Vec::new();
                let mut buf = [0u8; 4096];
                // Read the head, then the body its content-length names.
                let body = loop {
                    let n = s.read(&mut buf).unwrap_or(0);
                    if n == 0 {
                        break None;
                    }
                    req.extend_from_slice(&buf[..n]);
                    let text = String::from_utf8_lossy(&req).to_string();
                    if let Some(i) = text.find("\r\n\r\n") {
                        let len = text[..i]
                            .lines()
                            .find_map(|h| {
                                let (k, v) = h.split_once(':')?;
                                k.eq_ignore_ascii_case("content-length")
                                    .then(|| v.trim().parse::<usize>().ok())?
                            })
                            .unwrap_or(0);
                        if req.len() >= i + 4 + len {
                            break Some(text[i + 4..i + 4 + len].to_string());
                        }
                    }
                };
                let Some(body) = body else { continue };
                let call: serde_json::Value = serde_json::from_str(&body).unwrap();
                let hex = |v: &serde_json::Value| {
                    u64::from_str_radix(v.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
                };
                let answer = match call["method"].as_str().unwrap() {
                    "eth_chainId" => serde_json::json!({"result": "0x7a69"}),
                    "eth_getLogs" => {
                        let (from, to) = (
                            hex(&call["params"][0]["fromBlock"]),
                            hex(&call["params"][0]["toBlock"]),
                        );
                        seen.lock().unwrap().push((from, to));
                        if to - from + 1 > 4 {
                            serde_json::json!({"error": {"code": -32005, "message": "query exceeds max block range 4"}})
                        } else {
                            let logs: Vec<_> = (from..=to)
                                .filter(|b| b % 3 == 0)
                                .map(|b| {
                                    serde_json::json!({
                                        "address": format!("{:#x}", Address::repeat_byte(0xee)),
                                        "topics": [format!("{:#x}", B256::repeat_byte(1))],
                                        "data": "0x",
                                        "blockNumber": format!("{b:#x}"),
                                        "transactionHash": format!("{:#x}", B256::repeat_byte(2)),
                                        "transactionIndex": "0x0",
                                        "blockHash": format!("{:#x}", B256::repeat_byte(3)),
                                        "logIndex": "0x0",
                                        "removed": false
                                    })
                                })
                                .collect();
                            serde_json::json!({"result": logs})
                        }
                    }
                    other => panic!("unexpected {other}"),
                };
                let mut answer = answer;
                answer["jsonrpc"] = "2.0".into();
                answer["id"] = call["id"].clone();
                let b = answer.to_string();
                let _ = s.write_all(
                    format!("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{b}", b.len())
                        .as_bytes(),
                );
            }
        });
        (url, asked)
    }

    fn description(rpc: &str) -> NetworkDescription {
        let a = |i: u8| Address::repeat_byte(i).to_checksum(None);
        NetworkDescription::parse(
            &serde_json::json!({
                "format": "eden-network-v1",
                "chainId": 31337,
                "name": "capped",
                "nativeCurrency": {"name": "Ether", "symbol": "ETH", "decimals": 18},
                "rpcUrls": [rpc],
                "contracts": {"epochRegistry": a(1), "holderDistributor": a(2), "launchpad": a(3),
                              "launchLocker": a(4), "poolManager": a(5), "feeLanes": a(6)},
                "deploymentBlock": 0,
                "publications": ["http://127.0.0.1:9/"]
            })
            .to_string(),
        )
        .unwrap()
    }

    /// A range the node refuses is halved until it is served; every block is asked for once among
    /// the served pages, and the logs come back in block order.
    #[tokio::test]
    async fn logs_are_paged_and_a_refused_range_is_halved() {
        let (url, asked) = capped_node();
        let mut chain = Chain::connect(description(&url), None, None).await.unwrap();
        chain.log_blocks = 10;
        // One request at a time, so the node sees the paging in order (eden_chain tests the concurrency).
        chain.log_requests = 1;
        let logs = chain.logs(&Filter::new(), 0, 20).await.unwrap();
        let blocks: Vec<u64> = logs.iter().map(|l| l.block_number.unwrap()).collect();
        assert_eq!(blocks, [0, 3, 6, 9, 12, 15, 18]);
        let asked = asked.lock().unwrap().clone();
        // 0..=9 and 0..=4 are refused and halved (eden_chain's paging); the range grows back after each
        // answer and is halved again when refused.
        assert_eq!(&asked[..3], &[(0, 9), (0, 4), (0, 1)]);
        let served: Vec<(u64, u64)> = asked.into_iter().filter(|(a, b)| b - a < 4).collect();
        let covered: Vec<u64> = served.iter().flat_map(|&(a, b)| a..=b).collect();
        assert_eq!(covered, (0..=20).collect::<Vec<_>>());
        // A node that is gone is an error at once, naming the range.
        let (gone, _) = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            let u = format!("http://{}", l.local_addr().unwrap());
            drop(l);
            (u, ())
        };
        chain.provider = ProviderBuilder::new()
            .connect_http(gone.parse().unwrap())
            .erased();
        let e = chain
            .logs(&Filter::new(), 0, 20)
            .await
            .unwrap_err()
            .to_string();
        assert!(e.contains("logs of blocks 0–9"), "{e}");
    }

    /// Windows read at once come back in block order, each block asked for once.
    #[tokio::test]
    async fn logs_read_at_once_come_back_in_order() {
        let (url, asked) = capped_node();
        let mut chain = Chain::connect(description(&url), None, None).await.unwrap();
        chain.log_blocks = 4;
        chain.log_requests = 4;
        let logs = chain.logs(&Filter::new(), 0, 100).await.unwrap();
        let blocks: Vec<u64> = logs.iter().map(|l| l.block_number.unwrap()).collect();
        assert_eq!(blocks, (0..=100).filter(|b| b % 3 == 0).collect::<Vec<_>>());
        let mut asked = asked.lock().unwrap().clone();
        asked.sort_unstable();
        let covered: Vec<u64> = asked.iter().flat_map(|&(a, b)| a..=b).collect();
        assert_eq!(covered, (0..=100).collect::<Vec<_>>());
    }

    /// The settled part of a scan is kept: the next scan asks only for the blocks after it, and the logs
    /// returned are the same as a full scan's.
    #[tokio::test]
    async fn logs_since_deployment_reads_only_new_blocks() {
        let (url, asked) = capped_node();
        let mut chain = Chain::connect(description(&url), None, None).await.unwrap();
        chain.log_blocks = 4;
        chain.log_requests = 1;
        let blocks =
            |logs: Vec<Log>| -> Vec<u64> { logs.iter().map(|l| l.block_number.unwrap()).collect() };
        let first = chain
            .logs_since_deployment(&Filter::new(), 100)
            .await
            .unwrap();
        assert_eq!(
            blocks(first),
            (0..=100).filter(|b| b % 3 == 0).collect::<Vec<_>>()
        );
        asked.lock().unwrap().clear();
        // 100 − 64 = 36 is settled: the next scan starts at 37.
        let second = chain
            .logs_since_deployment(&Filter::new(), 110)
            .await
            .unwrap();
        assert_eq!(
            blocks(second),
            (0..=110).filter(|b| b % 3 == 0).collect::<Vec<_>>()
        );
        let asked_now = asked.lock().unwrap().clone();
        assert_eq!(asked_now.first(), Some(&(37, 40)), "{asked_now:?}");
        // Another filter has its own scan.
        asked.lock().unwrap().clear();
        let other = Filter::new().address(Address::repeat_byte(0xee));
        chain.logs_since_deployment(&other, 110).await.unwrap();
        assert_eq!(asked.lock().unwrap().first(), Some(&(0, 3)));
        // A head that has not moved past the settled part asks for its unsettled blocks only.
        asked.lock().unwrap().clear();
        let third = chain
            .logs_since_deployment(&Filter::new(), 110)
            .await
            .unwrap();
        assert_eq!(third.len(), (0..=110).filter(|b| b % 3 == 0).count());
        assert_eq!(asked.lock().unwrap().first(), Some(&(47, 50)));
    }

    /// The PBKDF2 test vector of the Web3 Secret Storage definition (password "testpassword").
    const SPEC_KEYSTORE: &str = r#"{
        "crypto": {
            "cipher": "aes-128-ctr",
            "cipherparams": {"iv": "6087dab2f9fdbbfaddc31a909735c1e6"},
            "ciphertext": "5318b4d5bcd28de64ee5559e671353e16f075ecae9f99c7a79a38af5f869aa46",
            "kdf": "pbkdf2",
            "kdfparams": {"c": 262144, "dklen": 32, "prf": "hmac-sha256", "salt": "ae3cd4e7013836a3df6bd7241b12db061dbe2c6785853cce422d148a624ce0bd"},
            "mac": "517ead924a9d0dc3124507e3393d175ce3ff7c1e96529c6c555ce9e51205e9b2"
        },
        "id": "3198bc9c-6672-5ab3-d995-4942343ae5b6",
        "version": 3
    }"#;

    /// The vector in a file of this test's own (tests run in parallel).
    fn keystore_file(test: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("eden-keystore-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{test}.json"));
        std::fs::write(&path, SPEC_KEYSTORE).unwrap();
        path
    }

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    fn key_error(r: Result<PrivateKeySigner>) -> String {
        match r {
            Err(OpError::Key(m)) => m.to_string(),
            Err(e) => panic!("not a key error: {e}"),
            Ok(k) => panic!("a key was read: {}", k.address()),
        }
    }

    #[test]
    fn a_keystore_file_decrypts_with_the_password_from_the_environment() {
        let path = keystore_file("decrypts");
        let vars = [(KEYSTORE_PASSWORD_ENV, "testpassword")];
        let key = signer_from(Some(&path), DEFAULT_KEY_ENV, env(&vars)).unwrap();
        assert_eq!(
            key.address(),
            address!("008AeEda4D805471dF9b2A5B0f38A0C3bCBA786b")
        );
        // The keystore wins over a key in the environment.
        let vars = [
            (KEYSTORE_PASSWORD_ENV, "testpassword"),
            (
                DEFAULT_KEY_ENV,
                "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
            ),
        ];
        let key = signer_from(Some(&path), DEFAULT_KEY_ENV, env(&vars)).unwrap();
        assert_eq!(
            key.address(),
            address!("008AeEda4D805471dF9b2A5B0f38A0C3bCBA786b")
        );
        std::fs::remove_file(&path).ok();
    }

    #[test]
    fn a_wrong_or_missing_password_or_file_is_a_key_error_naming_it() {
        let path = keystore_file("refused");
        let wrong = key_error(signer_from(
            Some(&path),
            DEFAULT_KEY_ENV,
            env(&[(KEYSTORE_PASSWORD_ENV, "not the password")]),
        ));
        assert!(wrong.contains("refused.json"), "{wrong}");
        let missing = key_error(signer_from(Some(&path), DEFAULT_KEY_ENV, env(&[])));
        assert!(missing.contains(KEYSTORE_PASSWORD_ENV), "{missing}");
        let nofile = key_error(signer_from(
            Some(Path::new("/nonexistent/eden-keystore.json")),
            DEFAULT_KEY_ENV,
            env(&[(KEYSTORE_PASSWORD_ENV, "testpassword")]),
        ));
        assert!(
            nofile.contains("/nonexistent/eden-keystore.json"),
            "{nofile}"
        );
        std::fs::remove_file(&path).ok();
    }

    #[test]
    fn a_key_comes_from_the_named_variable_only() {
        let vars = [(
            "OPERATOR_KEY",
            " ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80\n",
        )];
        let key = signer_from(None, "OPERATOR_KEY", env(&vars)).unwrap();
        assert_eq!(
            key.address(),
            address!("f39Fd6e51aad88F6F4ce6aB8827279cffFb92266")
        );
        let none = key_error(signer_from(None, DEFAULT_KEY_ENV, env(&vars)));
        assert!(
            none.contains(DEFAULT_KEY_ENV) && none.contains("--keystore"),
            "{none}"
        );
        let bad = key_error(signer_from(
            None,
            "OPERATOR_KEY",
            env(&[("OPERATOR_KEY", "0x12")]),
        ));
        assert!(bad.contains("OPERATOR_KEY: not a private key"), "{bad}");
    }
}
