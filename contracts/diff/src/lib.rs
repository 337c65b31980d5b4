//! Differential tests of `eden-core` against the Solidity contracts (see `tests/`).
//!
//! Every test starts its own anvil (`node_modules/.bin/anvil`, 127.0.0.1, a free port, killed on
//! drop), deploys with the project's own deploy path (`scripts/deploy-local.sh --rpc-url …`, which
//! runs `forge script script/Deploy.s.sol`) and then compares what `eden-core` computes with what
//! the contracts do, exactly.
//!
//! This library is the shared harness: the `sol!` bindings (generated from the forge artifacts in
//! `contracts/out`, so `forge build` must have run: see `build.rs`), the node, the deployment, a
//! few anvil RPC helpers and a small deterministic PRNG.

use alloy::network::TransactionBuilder;
use alloy::node_bindings::{Anvil, AnvilInstance};
use alloy::primitives::{Address, Bytes, TxHash, U256};
use alloy::providers::{DynProvider, Provider, ProviderBuilder};
use alloy::rpc::types::{BlockOverrides, TransactionReceipt, TransactionRequest};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

pub use alloy;

/// `sol!` bindings generated from the forge artifacts (`contracts/out/<File>.sol/<Contract>.json`).
#[cfg(eden_artifacts)]
#[allow(clippy::too_many_arguments, missing_docs)]
pub mod bindings {
    /// `EpochRegistry` (C5–C7).
    pub mod registry {
        alloy::sol!(
            #[sol(rpc)]
            #[derive(Debug, PartialEq, Eq)]
            EpochRegistry,
            "../out/EpochRegistry.sol/EpochRegistry.json"
        );
    }
    /// `Launchpad` (C19, C20).
    pub mod launchpad {
        alloy::sol!(
            #[sol(rpc)]
            #[derive(Debug, PartialEq, Eq)]
            Launchpad,
            "../out/Launchpad.sol/Launchpad.json"
        );
    }
    /// `LaunchToken` (the launched ERC-20).
    pub mod token {
        alloy::sol!(
            #[sol(rpc)]
            #[derive(Debug, PartialEq, Eq)]
            LaunchToken,
            "../out/LaunchToken.sol/LaunchToken.json"
        );
    }
    /// `HolderDistributor` (C18).
    pub mod distributor {
        alloy::sol!(
            #[sol(rpc)]
            #[derive(Debug, PartialEq, Eq)]
            HolderDistributor,
            "../out/HolderDistributor.sol/HolderDistributor.json"
        );
    }
    /// `TestERC20`, the deploy script's mintable 6-decimal stablecoin.
    pub mod stablecoin {
        alloy::sol!(
            #[sol(rpc)]
            #[derive(Debug, PartialEq, Eq)]
            TestERC20,
            "../out/TestERC20.sol/TestERC20.json"
        );
    }
    /// Uniswap v4 `IExtsload` (the PoolManager's raw storage reads).
    pub mod extsload {
        alloy::sol!(
            #[sol(rpc)]
            #[derive(Debug, PartialEq, Eq)]
            IExtsload,
            "../out/IExtsload.sol/IExtsload.json"
        );
    }
}

/// The repository root (two levels above this crate).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap_or_else(|e| {
            panic!(
                "cannot resolve the repository root from {}: {e}",
                env!("CARGO_MANIFEST_DIR")
            )
        })
}

/// A chain id for one test run: distinct per test and per process, never 31337, so the deploy
/// files of a test (`.eden/deploy-<chainId>.json`, the `addresses.json` entry) never touch a
/// developer's local chain.
pub fn test_chain_id(test_no: u64) -> u64 {
    3_133_700_000 + test_no * 100_000 + u64::from(std::process::id()) % 100_000
}

/// A running anvil with an RPC provider (no wallet, no fillers: transactions go out as
/// `eth_sendTransaction` from anvil's unlocked dev accounts, with the fields the caller set).
pub struct Node {
    /// The anvil process; killed on drop.
    pub anvil: AnvilInstance,
    /// `http://127.0.0.1:<port>`.
    pub url: String,
    /// The chain id.
    pub chain_id: u64,
    /// The provider.
    pub provider: DynProvider,
    /// Anvil's ten unlocked dev accounts (account 0 deploys).
    pub accounts: Vec<Address>,
}

/// Starts anvil on 127.0.0.1 (a free port) with `chain_id`, Cancun, automining.
pub fn start_node(chain_id: u64) -> Node {
    let bin = repo_root().join("node_modules/.bin/anvil");
    assert!(
        bin.exists(),
        "{} is missing: run `npm ci` at the repository root first",
        bin.display()
    );
    let anvil = Anvil::new()
        .path(&bin)
        .host("127.0.0.1")
        .chain_id(chain_id)
        .args([
            "--hardfork",
            "cancun",
            "--order",
            "fifo",
            "--gas-limit",
            "100000000",
        ])
        .try_spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.display()));
    let url = format!("http://127.0.0.1:{}", anvil.port());
    let provider = ProviderBuilder::new()
        .disable_recommended_fillers()
        .connect_http(url.parse().expect("anvil URL"))
        .erased();
    let accounts = anvil.addresses().to_vec();
    Node {
        anvil,
        url,
        chain_id,
        provider,
        accounts,
    }
}

/// Addresses and parameters written by the deploy script (`.eden/deploy-<chainId>.json`).
#[derive(Debug, Clone)]
pub struct Deployment {
    /// The chain id.
    pub chain_id: u64,
    /// The account that deployed.
    pub deployer: Address,
    /// Uniswap v4's PoolManager.
    pub pool_manager: Address,
    /// `EpochRegistry`.
    pub epoch_registry: Address,
    /// `HolderDistributor`.
    pub holder_distributor: Address,
    /// `FeeLanes`.
    pub fee_lanes: Address,
    /// `Launchpad`.
    pub launchpad: Address,
    /// `LaunchLocker`.
    pub launch_locker: Address,
    /// The stablecoin quote asset.
    pub stablecoin: Address,
    /// The registry's root signer.
    pub root_signer: Address,
    /// The registry's proposal bond (wei).
    pub bond_wei: U256,
    /// The first epoch the registry accepts.
    pub first_epoch: u64,
    /// A launch's token supply.
    pub supply: U256,
    /// The curve's fee (basis points).
    pub fee_bps: u32,
    /// A graduated pool's fee (hundredths of a basis point).
    pub pool_fee: u32,
    /// A graduated pool's tick spacing.
    pub tick_spacing: i32,
    /// The curve's virtual quote reserve for ETH launches.
    pub eth_virtual_quote: U256,
    /// The curve's virtual quote reserve for stablecoin launches.
    pub stablecoin_virtual_quote: U256,
    /// The whole JSON object.
    pub json: Value,
}

fn field<'a>(v: &'a Value, k: &str) -> &'a Value {
    v.get(k)
        .unwrap_or_else(|| panic!("deploy file: missing field '{k}' in {v}"))
}
fn addr_field(v: &Value, k: &str) -> Address {
    field(v, k)
        .as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("deploy file: '{k}' is not an address"))
}
fn u256_field(v: &Value, k: &str) -> U256 {
    let f = field(v, k);
    let s = f
        .as_str()
        .map(str::to_owned)
        .unwrap_or_else(|| f.to_string());
    U256::from_str_radix(&s, 10)
        .unwrap_or_else(|_| panic!("deploy file: '{k}' = {f} is not a decimal integer"))
}
fn u64_field(v: &Value, k: &str) -> u64 {
    u256_field(v, k)
        .try_into()
        .unwrap_or_else(|_| panic!("deploy file: '{k}' does not fit u64"))
}

impl Deployment {
    fn from_json(json: Value) -> Deployment {
        let j = &json;
        Deployment {
            chain_id: u64_field(j, "chainId"),
            deployer: addr_field(j, "deployer"),
            pool_manager: addr_field(j, "poolManager"),
            epoch_registry: addr_field(j, "epochRegistry"),
            holder_distributor: addr_field(j, "holderDistributor"),
            fee_lanes: addr_field(j, "feeLanes"),
            launchpad: addr_field(j, "launchpad"),
            launch_locker: addr_field(j, "launchLocker"),
            stablecoin: addr_field(j, "stablecoin"),
            root_signer: addr_field(j, "rootSigner"),
            bond_wei: u256_field(j, "bondWei"),
            first_epoch: u64_field(j, "firstEpoch"),
            supply: u256_field(j, "supply"),
            fee_bps: u64_field(j, "feeBps") as u32,
            pool_fee: u64_field(j, "poolFee") as u32,
            tick_spacing: field(j, "tickSpacing")
                .as_i64()
                .expect("deploy file: tickSpacing") as i32,
            eth_virtual_quote: u256_field(j, "ethVirtualQuote"),
            stablecoin_virtual_quote: u256_field(j, "stablecoinVirtualQuote"),
            json,
        }
    }
}

/// Deploys the protocol to `node` with `scripts/deploy-local.sh --rpc-url <node>` (forge build,
/// `forge script script/Deploy.s.sol`, addresses merged into `.eden/addresses.json`), passing
/// `env` (e.g. `EDEN_SIGNER`, `EDEN_FIRST_EPOCH`) to the script. Checks that the addresses file
/// got this chain's entry, then removes what the run left behind (this chain's entry, its deploy
/// file and forge's broadcast log) so test runs never accumulate in the developer's files.
/// Deploys are serialised across processes with a lock file (the script's addresses merge is a
/// read-modify-write).
pub fn deploy(node: &Node, env: &[(&str, String)]) -> Deployment {
    deploy_halves(node, env, false)
}

/// [`deploy`], then the second half (`scripts/deploy-local-ii.sh`: the call ledger, ROOT and its price
/// oracle, the scorer registry wired to the fee lanes, the duel hook with a duel), as the demo deploys.
/// Its addresses are in [`Deployment::json`] (`callLedger`, `scorerRegistry`, `duelHook`, `duelId`, …).
pub fn deploy_full(node: &Node, env: &[(&str, String)]) -> Deployment {
    deploy_halves(node, env, true)
}

fn deploy_halves(node: &Node, env: &[(&str, String)], second: bool) -> Deployment {
    let root = repo_root();
    let eden = root.join(".eden");
    std::fs::create_dir_all(&eden).expect("create .eden");
    let lock = std::fs::File::create(eden.join("diff-deploy.lock"))
        .expect("create .eden/diff-deploy.lock");
    lock.lock().expect("lock .eden/diff-deploy.lock");

    let scripts: &[&str] = if second {
        &["scripts/deploy-local.sh", "scripts/deploy-local-ii.sh"]
    } else {
        &["scripts/deploy-local.sh"]
    };
    for script in scripts {
        let mut cmd = Command::new("bash");
        cmd.arg(root.join(script))
            .arg("--rpc-url")
            .arg(&node.url)
            .current_dir(&root);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap_or_else(|e| panic!("run {script}: {e}"));
        assert!(
            out.status.success(),
            "{script} --rpc-url {} failed ({}):\n{}\n{}",
            node.url,
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let file = eden.join(format!("deploy-{}.json", node.chain_id));
    let text =
        std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("read {}: {e}", file.display()));
    let json: Value = serde_json::from_str(&text).expect("deploy file is JSON");

    // The merged addresses file has this chain's entry, equal to the deploy file.
    let all_path = eden.join("addresses.json");
    let mut all: Value = serde_json::from_str(
        &std::fs::read_to_string(&all_path).expect("read .eden/addresses.json"),
    )
    .expect("addresses.json is JSON");
    let key = node.chain_id.to_string();
    assert_eq!(
        all.get(&key),
        Some(&json),
        ".eden/addresses.json[{key}] differs from {}",
        file.display()
    );
    if let Some(obj) = all.as_object_mut() {
        obj.remove(&key);
        if obj.is_empty() {
            let _ = std::fs::remove_file(&all_path);
        } else {
            let pretty = serde_json::to_string_pretty(&all).expect("serialise addresses.json");
            std::fs::write(&all_path, pretty + "\n").expect("rewrite .eden/addresses.json");
        }
    }
    let _ = std::fs::remove_file(&file);
    for script in ["Deploy.s.sol", "DeployII.s.sol"] {
        let _ = std::fs::remove_dir_all(
            root.join(format!("contracts/broadcast/{script}/{}", node.chain_id)),
        );
    }
    drop(lock);

    let d = Deployment::from_json(json);
    assert_eq!(d.chain_id, node.chain_id, "deploy file chain id");
    assert_eq!(
        d.deployer, node.accounts[0],
        "the deploy script uses anvil account 0"
    );
    d
}

impl Node {
    /// A JSON-RPC call with a JSON result.
    pub async fn rpc(&self, method: &'static str, params: Value) -> Value {
        self.provider
            .raw_request::<_, Value>(method.into(), params.clone())
            .await
            .unwrap_or_else(|e| panic!("{method}({params}): {e}"))
    }

    /// `evm_setAutomine`.
    pub async fn set_automine(&self, on: bool) {
        self.rpc("evm_setAutomine", serde_json::json!([on])).await;
    }

    /// `evm_setNextBlockTimestamp`.
    pub async fn set_next_timestamp(&self, ts: u64) {
        self.rpc("evm_setNextBlockTimestamp", serde_json::json!([ts]))
            .await;
    }

    /// `evm_increaseTime`.
    pub async fn increase_time(&self, secs: u64) {
        self.rpc("evm_increaseTime", serde_json::json!([secs]))
            .await;
    }

    /// `evm_mine` (one block, with everything pending); returns its number.
    pub async fn mine(&self) -> u64 {
        self.rpc("evm_mine", serde_json::json!([])).await;
        self.provider
            .get_block_number()
            .await
            .expect("eth_blockNumber")
    }

    /// Timestamp of the latest block.
    pub async fn latest_timestamp(&self) -> u64 {
        let b = self
            .rpc("eth_getBlockByNumber", serde_json::json!(["latest", false]))
            .await;
        let ts = b
            .get("timestamp")
            .and_then(Value::as_str)
            .expect("block timestamp");
        u64::from_str_radix(ts.trim_start_matches("0x"), 16).expect("hex timestamp")
    }

    /// Sends a transaction (`eth_sendTransaction` from `tx.from`) and returns its hash.
    pub async fn send(&self, tx: TransactionRequest) -> TxHash {
        let from = tx.from;
        let to = tx.to;
        match self.provider.send_transaction(tx).await {
            Ok(p) => *p.tx_hash(),
            Err(e) => panic!("eth_sendTransaction from {from:?} to {to:?}: {e}"),
        }
    }

    /// Sends a transaction while automining and returns its receipt (which must be successful).
    pub async fn send_mined(&self, tx: TransactionRequest) -> TransactionReceipt {
        let r = self.send_mined_any(tx).await;
        assert!(r.status(), "transaction {} reverted", r.transaction_hash);
        r
    }

    /// Sends a transaction while automining and returns its receipt, reverted or not.
    pub async fn send_mined_any(&self, tx: TransactionRequest) -> TransactionReceipt {
        let h = self.send(tx).await;
        self.receipt(h).await
    }

    /// The receipt of `h`, polled every 2 ms for up to 10 s (anvil's automine is asynchronous).
    pub async fn receipt(&self, h: TxHash) -> TransactionReceipt {
        for _ in 0..5_000 {
            if let Some(r) = self
                .provider
                .get_transaction_receipt(h)
                .await
                .expect("eth_getTransactionReceipt")
            {
                return r;
            }
            tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        }
        panic!("no receipt for {h} after 10 s: is automine on?")
    }

    /// All receipts of block `n`, in transaction order.
    pub async fn block_receipts(&self, n: u64) -> Vec<TransactionReceipt> {
        self.provider
            .get_block_receipts(n.into())
            .await
            .expect("eth_getBlockReceipts")
            .unwrap_or_else(|| panic!("block {n} not found"))
    }

    /// `eth_call` of `tx` at the latest block: `Ok(returndata)` or `Err(revert data)`.
    pub async fn call(&self, tx: TransactionRequest) -> Result<Bytes, Bytes> {
        match self.provider.call(tx).await {
            Ok(b) => Ok(b),
            Err(e) => match e.as_error_resp().and_then(|r| r.as_revert_data()) {
                Some(data) => Err(data),
                None => panic!("eth_call failed without revert data: {e}"),
            },
        }
    }

    /// `eth_call` of `tx` on the latest state with the block timestamp overridden to `time`.
    pub async fn call_at(&self, tx: TransactionRequest, time: u64) -> Result<Bytes, Bytes> {
        let overrides = BlockOverrides {
            time: Some(time),
            ..Default::default()
        };
        match self.provider.call(tx).with_block_overrides(overrides).await {
            Ok(b) => Ok(b),
            Err(e) => match e.as_error_resp().and_then(|r| r.as_revert_data()) {
                Some(data) => Err(data),
                None => panic!("eth_call (time {time}) failed without revert data: {e}"),
            },
        }
    }

    /// Balance in wei at the latest block.
    pub async fn balance(&self, a: Address) -> U256 {
        self.provider.get_balance(a).await.expect("eth_getBalance")
    }

    /// The nonce of `a` at the latest block.
    pub async fn nonce(&self, a: Address) -> u64 {
        self.provider
            .get_transaction_count(a)
            .await
            .expect("eth_getTransactionCount")
    }
}

/// A transaction request from `from` with calldata `input` to `to`.
pub fn tx(from: Address, to: Address, input: impl Into<Bytes>) -> TransactionRequest {
    TransactionRequest::default()
        .with_from(from)
        .with_to(to)
        .with_input(input.into())
}

/// Total gas paid by a receipt, `gasUsed × effectiveGasPrice` (wei).
pub fn gas_cost(r: &TransactionReceipt) -> U256 {
    U256::from(r.gas_used) * U256::from(r.effective_gas_price)
}

/// SplitMix64: a tiny deterministic PRNG (reproducible runs; the seed is printed by the tests).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The seed from `EDEN_DIFF_SEED` (decimal or 0x-hex) or `default`.
    pub fn seed_from_env(default: u64) -> u64 {
        match std::env::var("EDEN_DIFF_SEED") {
            Ok(s) => {
                let s = s.trim();
                let parsed = match s.strip_prefix("0x") {
                    Some(h) => u64::from_str_radix(h, 16),
                    None => s.parse(),
                };
                parsed.unwrap_or_else(|_| panic!("EDEN_DIFF_SEED='{s}' is not a u64"))
            }
            Err(_) => default,
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, n)` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// `true` with probability `pct`/100.
    pub fn chance(&mut self, pct: u64) -> bool {
        self.below(100) < pct
    }

    /// Uniform `U256` in `[0, n)` (`n > 0`), from 256 random bits reduced mod n (bias negligible
    /// for the ranges used here).
    pub fn u256_below(&mut self, n: U256) -> U256 {
        let limbs = [
            self.next_u64(),
            self.next_u64(),
            self.next_u64(),
            self.next_u64(),
        ];
        U256::from_limbs(limbs) % n
    }

    /// Uniform in `[lo, hi]`.
    pub fn u256_between(&mut self, lo: U256, hi: U256) -> U256 {
        lo + self.u256_below(hi - lo + U256::from(1u8))
    }

    /// Roughly log-uniform in `[lo, hi]` (`0 < lo ≤ hi`): a random bit length, then a uniform
    /// value with that length, clamped into the range.
    pub fn u256_log(&mut self, lo: U256, hi: U256) -> U256 {
        let (a, b) = (lo.bit_len() as u64, hi.bit_len() as u64);
        let bits = a + self.below(b - a + 1);
        let top = if bits >= 256 {
            U256::MAX
        } else {
            (U256::from(1u8) << bits as usize) - U256::from(1u8)
        };
        let bottom = if bits == 0 {
            U256::ZERO
        } else {
            U256::from(1u8) << (bits as usize - 1)
        };
        self.u256_between(bottom, top).clamp(lo, hi)
    }

    /// A random element of `xs` (non-empty).
    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
}

/// A static file server on 127.0.0.1 over `root`, as any publication host: `GET /<path>` → the file, else
/// 404. While the returned flag is set it closes every connection unanswered (a host that is down).
pub fn serve_dir(root: PathBuf) -> (u16, std::sync::Arc<std::sync::atomic::AtomicBool>) {
    use std::io::{Read, Write};
    use std::sync::atomic::{AtomicBool, Ordering};
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
    let port = l.local_addr().expect("local address").port();
    let down = std::sync::Arc::new(AtomicBool::new(false));
    let is_down = down.clone();
    std::thread::spawn(move || {
        for s in l.incoming() {
            let Ok(mut s) = s else { continue };
            if is_down.load(Ordering::SeqCst) {
                continue;
            }
            let mut buf = [0u8; 4096];
            let n = s.read(&mut buf).unwrap_or(0);
            let req = String::from_utf8_lossy(&buf[..n]).to_string();
            let path = req.split_whitespace().nth(1).unwrap_or("/").to_string();
            let file = root.join(path.trim_start_matches('/'));
            let ok = !path.contains("..") && file.is_file();
            let _ = match ok.then(|| std::fs::read(&file).ok()).flatten() {
                Some(body) => s
                    .write_all(
                        format!(
                            "HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                            body.len()
                        )
                        .as_bytes(),
                    )
                    .and_then(|_| s.write_all(&body)),
                None => s.write_all(
                    b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
                ),
            };
        }
    });
    (port, down)
}
