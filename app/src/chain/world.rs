//! The deployment the app is a client of, once connected: its network description
//! ([`crate::chain::network`]), the RPC URL that answered for its chain, and the deployment's
//! optional metadata file (`world.json` under a publication base: what is not yet discovered from
//! the chain, and names, shown as unverified). No Leptos here.

use crate::chain::multicall::MULTICALL3;
use crate::chain::network::{self, DescriptionError, SavedNetwork};
use crate::chain::rpc::{Rpc, RpcError};
use alloy_primitives::{Address, B256};
use eden_core::network::{Contracts, NetworkDescription};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The metadata file's name under each publication base.
pub const METADATA_FILE: &str = "world.json";

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectMeta {
    pub name: String,
    pub track: String,
    #[serde(default)]
    pub private: bool,
}

/// A duel of the demo world (scripts/seed-demo.mjs): the hook, the duel id and the two tokens.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DuelRef {
    pub duel_id: u64,
    pub hook: Address,
    pub token_a: Address,
    pub token_b: Address,
    pub symbol_a: String,
    pub symbol_b: String,
}

/// The calls ledger of the demo world: the asset agents call, the windows shown, the known agents.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallsRef {
    pub ledger: Address,
    pub asset: Address,
    pub asset_symbol: String,
    pub stake_symbol: String,
    pub windows: Vec<u64>,
    pub agents: Vec<Address>,
}

/// The scorer registry of the demo world and what prices its burns.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScorerRef {
    pub registry: Address,
    pub root: Address,
    pub oracle: Address,
    pub feed: Address,
    #[serde(default)]
    pub tokens: Vec<TokenRef>,
    /// Published theses, for the local copy check.
    #[serde(default)]
    pub theses: Vec<String>,
    /// The seeded scorers' graded scores (thesis texts by hash), shown with their positions.
    #[serde(default)]
    pub scores: Vec<SeededScore>,
}

/// One seeded score: its thesis text by hash (the text is off chain; the hash is on chain).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SeededScore {
    pub thesis_hash: B256,
    pub thesis: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct TokenRef {
    pub token: Address,
    pub symbol: String,
}

/// The deployment's metadata file (`<publication base>/world.json`), optional and unverified:
/// what the app does not discover from the chain yet, and names for people.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Metadata {
    #[serde(default)]
    pub duels: Vec<DuelRef>,
    #[serde(default)]
    pub calls: Option<CallsRef>,
    #[serde(default)]
    pub scorer: Option<ScorerRef>,
    #[serde(default)]
    pub projects: BTreeMap<String, ProjectMeta>,
}

impl Metadata {
    /// Makes the description the only source of contract addresses: every address the metadata
    /// file repeats is replaced by the description's, and a part whose contract the description
    /// does not name is dropped (an unverified file never points the app at a contract).
    pub fn bind_to(mut self, c: &Contracts) -> Self {
        self.scorer = match (self.scorer, c.scorer_registry) {
            (Some(mut s), Some(reg)) => {
                s.registry = reg;
                if let Some(o) = c.root_price_oracle {
                    s.oracle = o;
                }
                Some(s)
            }
            _ => None,
        };
        self.calls = match (self.calls, c.call_ledger) {
            (Some(mut k), Some(ledger)) => {
                k.ledger = ledger;
                Some(k)
            }
            _ => None,
        };
        match c.duel_hook {
            Some(hook) => self.duels.iter_mut().for_each(|d| d.hook = hook),
            None => self.duels.clear(),
        }
        self
    }
}

/// A connected deployment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct World {
    /// The description and the person's settings for it.
    pub network: SavedNetwork,
    /// The chain id (the description's, which the RPC confirmed).
    pub chain_id: u64,
    /// The RPC URL in use: the first that answered for this chain.
    pub rpc_url: String,
    /// The deployment's contracts.
    pub contracts: Contracts,
    /// Log scans start here.
    pub deployment_block: u64,
    /// The chain's Multicall3 (the description's, else the canonical address), when it has code
    /// there; reads are batched through it, else through JSON-RPC batches.
    pub multicall: Option<Address>,
    /// The metadata file's contents (empty when there is none).
    pub meta: Metadata,
    /// Why the metadata file was not used, when one was found but could not be read.
    pub meta_warning: Option<String>,
}

impl World {
    pub fn rpc(&self) -> Rpc {
        Rpc::new(self.rpc_url.clone())
            .with_log_range(self.network.settings.log_range)
            .with_multicall(self.multicall)
    }

    pub fn description(&self) -> &NetworkDescription {
        &self.network.description
    }

    /// Whether this is a local dev chain (its RPC is a loopback node): the burner wallet is
    /// offered only there.
    pub fn is_local_dev(&self) -> bool {
        network::is_loopback(&self.rpc_url)
    }

    /// A project's name from the metadata file (unverified).
    pub fn project_name(&self, a: &Address) -> Option<String> {
        self.meta
            .projects
            .get(&a.to_string().to_lowercase())
            .map(|p| p.name.clone())
    }

    /// Fetches `path` from the first publication base that serves it. Publications are checked
    /// by the caller against the chain; a base that does not serve it is skipped.
    ///
    /// # Errors
    /// The last base's error when none serves it.
    pub async fn fetch_publication(&self, path: &str) -> Result<String, WorldError> {
        fetch_from_bases(self.description(), path)
            .await
            .map_err(WorldError::Fetch)
    }

    /// An epoch bundle published by the deployment at `path`, parsed (not checked: see
    /// [`World::fetch_bundle_with_root`]).
    ///
    /// # Errors
    /// [`WorldError::Fetch`] or [`WorldError::BadBundle`].
    pub async fn fetch_bundle(
        &self,
        path: &str,
    ) -> Result<eden_core::scoring::EpochBundle, WorldError> {
        let text = self.fetch_publication(path).await?;
        eden_core::scoring::EpochBundle::from_json(&text)
            .map_err(|e| WorldError::BadBundle(e.to_string()))
    }
}

impl World {
    /// The epoch bundle published under `root` ([`crate::chain::epochs::bundle_path`]), rejected
    /// unless its leaves build exactly that root.
    ///
    /// # Errors
    /// [`WorldError::Fetch`], [`WorldError::BadBundle`], or [`WorldError::WrongRoot`].
    pub async fn fetch_bundle_with_root(
        &self,
        root: B256,
    ) -> Result<eden_core::scoring::EpochBundle, WorldError> {
        let bundle = self
            .fetch_bundle(&crate::chain::epochs::bundle_path(&root))
            .await?;
        let built = eden_core::check::BundleTree::new(&bundle)
            .tree()
            .map(|t| t.root())
            .map_err(|e| WorldError::BadBundle(e.to_string()))?;
        if built != root {
            return Err(WorldError::WrongRoot {
                what: format!("the epoch {} bundle", bundle.epoch),
                want: root,
                got: built,
            });
        }
        Ok(bundle)
    }
}

/// GETs `path` under each publication base in turn; the first success wins.
async fn fetch_from_bases(d: &NetworkDescription, path: &str) -> Result<String, RpcError> {
    let mut last = RpcError::Network("the description names no publication base".into());
    for base in d.publication_bases() {
        let Some(url) = http_url(&base) else {
            continue;
        };
        match crate::chain::rpc::fetch_text(&format!("{url}{path}")).await {
            Ok(t) => return Ok(t),
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// A base URL a browser can GET: http(s) as is, `ipfs://<cid>/…` through a public gateway path is
/// not assumed (a person adds a gateway as another base), so it is skipped.
fn http_url(base: &str) -> Option<String> {
    (base.starts_with("http://") || base.starts_with("https://")).then(|| base.to_owned())
}

/// Wall-clock unix seconds.
pub fn wall_now() -> i64 {
    (js_sys::Date::now() / 1000.0) as i64
}

/// Why the network or one of its publications could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WorldError {
    /// No usable network description.
    #[error("{0}. Choose or add a network on the Network page; for the local chain, start the app with `bash scripts/run.sh`.")]
    Description(DescriptionError),
    /// No RPC URL answers.
    #[error("{name}: no RPC node answers ({tried}: {source}). {hint}")]
    ChainDown {
        /// The network's name.
        name: String,
        /// The URLs tried.
        tried: String,
        /// The last error.
        source: RpcError,
        /// What to do.
        hint: String,
    },
    /// The RPC serves another chain than the description names.
    #[error("the RPC node at {rpc_url} serves chain {got}, but the network description \"{name}\" is for chain {want}. Check its RPC URL on the Network page.")]
    WrongChain {
        name: String,
        rpc_url: String,
        want: u64,
        got: u64,
    },
    /// A publication could not be fetched.
    #[error("{0}")]
    Fetch(RpcError),
    /// A fetched epoch bundle does not parse.
    #[error("the bundle is not a valid epoch bundle: {0}")]
    BadBundle(String),
    /// A payout tree publication is not a valid `standard-v1` payout tree.
    #[error("the payout tree of round {round} is not valid: {message}")]
    BadTree { round: u64, message: String },
    /// A publication does not build the on-chain root it is published under.
    #[error("{what} published under root {want} builds root {got}: it is not the published data, and was not used")]
    WrongRoot { what: String, want: B256, got: B256 },
}

/// Chooses the network ([`network::choose`]), finds an RPC URL that serves its chain, reads its
/// metadata file, and measures the chain clock (chain time minus wall time).
///
/// # Errors
/// [`WorldError`] saying which step failed.
pub async fn load_world() -> Result<(World, i64), WorldError> {
    let n = network::choose().await.map_err(WorldError::Description)?;
    connect(n).await
}

/// Connects to the saved network `n`: the first of its RPC URLs that answers, checked to serve
/// the description's chain.
///
/// # Errors
/// [`WorldError::ChainDown`] when none answers, [`WorldError::WrongChain`] when one answers for
/// another chain.
pub async fn connect(n: SavedNetwork) -> Result<(World, i64), WorldError> {
    let d = n.description.clone();
    let urls = n.rpc_urls();
    let mut last = RpcError::Network("no RPC URL".into());
    for url in &urls {
        let rpc = Rpc::new(url.clone());
        let got = match rpc.chain_id().await {
            Ok(c) => c,
            Err(e) => {
                last = e;
                continue;
            }
        };
        if got != d.chain_id {
            return Err(WorldError::WrongChain {
                name: d.name.clone(),
                rpc_url: url.clone(),
                want: d.chain_id,
                got,
            });
        }
        let ts = match rpc.latest_timestamp().await {
            Ok(t) => t,
            Err(e) => {
                last = e;
                continue;
            }
        };
        let mc = d.contracts.multicall3.unwrap_or(MULTICALL3);
        let multicall = match rpc.code(mc).await {
            Ok(code) if !code.is_empty() => Some(mc),
            _ => None,
        };
        let (meta, meta_warning) = load_metadata(&d).await;
        let meta = meta.bind_to(&d.contracts);
        let world = World {
            chain_id: d.chain_id,
            rpc_url: url.clone(),
            contracts: d.contracts.clone(),
            deployment_block: d.deployment_block,
            multicall,
            network: n,
            meta,
            meta_warning,
        };
        return Ok((world, ts as i64 - wall_now()));
    }
    let local = urls.iter().all(|u| network::is_loopback(u));
    Err(WorldError::ChainDown {
        name: d.name.clone(),
        tried: urls.join(", "),
        source: last,
        hint: if local {
            "Is the local chain running? `bash scripts/run.sh` starts one.".into()
        } else {
            "Try again later, or set an RPC URL of your own on the Network page.".into()
        },
    })
}

/// The metadata file, or nothing (with a warning when one was served but does not read).
async fn load_metadata(d: &NetworkDescription) -> (Metadata, Option<String>) {
    match fetch_from_bases(d, METADATA_FILE).await {
        Ok(text) => match serde_json::from_str::<Metadata>(&text) {
            Ok(m) => (m, None),
            Err(e) => (
                Metadata::default(),
                Some(format!(
                    "the deployment's {METADATA_FILE} is not readable and was ignored: {e}"
                )),
            ),
        },
        Err(RpcError::Http { status: 404, .. }) => (Metadata::default(), None),
        Err(e) => (
            Metadata::default(),
            Some(format!(
                "the deployment's {METADATA_FILE} could not be fetched: {e}"
            )),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::Address;

    #[test]
    fn the_metadata_file_never_names_a_contract() {
        let meta: Metadata = serde_json::from_value(serde_json::json!({
            "calls": { "ledger": Address::repeat_byte(0xee), "asset": Address::repeat_byte(1), "assetSymbol": "TSTK",
                       "stakeSymbol": "ETH", "windows": [3600], "agents": [] },
            "scorer": { "registry": Address::repeat_byte(0xee), "root": Address::repeat_byte(2),
                        "oracle": Address::repeat_byte(0xee), "feed": Address::repeat_byte(3) },
            "duels": [{ "duelId": 0, "hook": Address::repeat_byte(0xee), "tokenA": Address::repeat_byte(4),
                        "tokenB": Address::repeat_byte(5), "symbolA": "A", "symbolB": "B" }]
        }))
        .unwrap();
        let mut c = Contracts {
            epoch_registry: Address::repeat_byte(10),
            holder_distributor: Address::repeat_byte(11),
            launchpad: Address::repeat_byte(12),
            launch_locker: Address::repeat_byte(13),
            pool_manager: Address::repeat_byte(14),
            fee_lanes: None,
            scorer_registry: Some(Address::repeat_byte(15)),
            call_ledger: Some(Address::repeat_byte(16)),
            duel_hook: Some(Address::repeat_byte(17)),
            root_price_oracle: Some(Address::repeat_byte(18)),
            multicall3: None,
        };
        let bound = meta.clone().bind_to(&c);
        assert_eq!(
            bound.scorer.as_ref().unwrap().registry,
            Address::repeat_byte(15)
        );
        assert_eq!(
            bound.scorer.as_ref().unwrap().oracle,
            Address::repeat_byte(18)
        );
        assert_eq!(
            bound.calls.as_ref().unwrap().ledger,
            Address::repeat_byte(16)
        );
        assert_eq!(bound.duels[0].hook, Address::repeat_byte(17));
        c.scorer_registry = None;
        c.call_ledger = None;
        c.duel_hook = None;
        let bound = meta.bind_to(&c);
        assert!(bound.scorer.is_none() && bound.calls.is_none() && bound.duels.is_empty());
    }
}
