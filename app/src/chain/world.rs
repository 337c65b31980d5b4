//! The network the app is a client of: `world.json` (written by scripts/seed-demo.mjs next to the
//! app), the contract addresses, and the publications (epoch bundles). No Leptos here.

use crate::chain::rpc::{Rpc, RpcError};
use alloy_primitives::{Address, B256};
use serde::Deserialize;
use std::collections::BTreeMap;

/// Where the app finds the network description.
pub const WORLD_URL: &str = "/public/demo/world.json";
/// Where the epoch bundles are served (`<base>/epochs/<n>.json`).
pub const DEMO_BASE: &str = "/public/demo/";

/// Contract addresses (`.eden/addresses.json`, one chain).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Addresses {
    pub epoch_registry: Address,
    pub holder_distributor: Address,
    pub launchpad: Address,
    pub launch_locker: Address,
    pub pool_manager: Address,
    pub stablecoin: Address,
    pub root_signer: Address,
    pub start_block: u64,
    /// FeeLanes (C17), when deployed (`feeLanes` in `.eden/addresses.json`).
    #[serde(default)]
    pub fee_lanes: Option<Address>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EpochRef {
    pub epoch: u64,
    pub bundle: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PayoutLeafRef {
    pub account: Address,
    pub amount: String,
    pub leaf: B256,
    pub proof: Vec<B256>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PayoutRoundRef {
    pub token: Address,
    pub symbol: String,
    pub asset: Address,
    pub asset_symbol: String,
    pub asset_decimals: u8,
    pub epoch: u64,
    pub total: String,
    pub root: B256,
    pub allocations: Vec<PayoutLeafRef>,
}

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

/// The network description.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct World {
    pub chain_id: u64,
    pub rpc_url: String,
    pub addresses: Addresses,
    #[serde(default)]
    pub epochs: Vec<EpochRef>,
    #[serde(default)]
    pub payouts: Vec<PayoutRoundRef>,
    #[serde(default)]
    pub duels: Vec<DuelRef>,
    #[serde(default)]
    pub calls: Option<CallsRef>,
    #[serde(default)]
    pub scorer: Option<ScorerRef>,
    #[serde(default)]
    pub projects: BTreeMap<String, ProjectMeta>,
}

impl World {
    pub fn rpc(&self) -> Rpc {
        Rpc::new(self.rpc_url.clone())
    }

    pub fn project_name(&self, a: &Address) -> Option<String> {
        self.projects
            .get(&a.to_string().to_lowercase())
            .map(|p| p.name.clone())
    }
}

/// Wall-clock unix seconds.
pub fn wall_now() -> i64 {
    (js_sys::Date::now() / 1000.0) as i64
}

/// Loads `world.json` and measures the chain clock.
/// An epoch bundle published with the demo world (`path` as in `World::epochs`), parsed.
pub async fn fetch_bundle(path: &str) -> Result<eden_core::scoring::EpochBundle, WorldError> {
    let text = crate::chain::rpc::fetch_text(&format!("{DEMO_BASE}{path}"))
        .await
        .map_err(WorldError::Fetch)?;
    eden_core::scoring::EpochBundle::from_json(&text)
        .map_err(|e| WorldError::BadBundle(e.to_string()))
}

/// Why the network or one of its publications could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WorldError {
    /// No network description is served.
    #[error("no local network description ({0}). Start the app with `bash scripts/run.sh`, which runs a local chain and seeds it.")]
    NoDescription(RpcError),
    /// The description does not parse.
    #[error("world.json: {0}")]
    BadDescription(String),
    /// The chain does not answer.
    #[error("{source} ({rpc_url}). Is the local chain running?")]
    ChainDown {
        /// The RPC error.
        source: RpcError,
        /// Where it was asked.
        rpc_url: String,
    },
    /// A publication could not be fetched.
    #[error("{0}")]
    Fetch(RpcError),
    /// A fetched epoch bundle does not parse.
    #[error("the bundle is not a valid epoch bundle: {0}")]
    BadBundle(String),
}

pub async fn load_world() -> Result<(World, i64), WorldError> {
    let text = crate::chain::rpc::fetch_text(WORLD_URL)
        .await
        .map_err(WorldError::NoDescription)?;
    let w: World =
        serde_json::from_str(&text).map_err(|e| WorldError::BadDescription(e.to_string()))?;
    let ts = w
        .rpc()
        .latest_timestamp()
        .await
        .map_err(|source| WorldError::ChainDown {
            source,
            rpc_url: w.rpc_url.clone(),
        })?;
    Ok((w, ts as i64 - wall_now()))
}
