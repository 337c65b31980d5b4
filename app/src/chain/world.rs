//! The deployment the app is a client of, once connected: its network description
//! ([`crate::chain::network`]), the RPC URL that answered for its chain, and the deployment's
//! optional metadata file (`metadata.json` under a publication base: names, shown as unverified). No Leptos here.

use crate::chain::multicall::MULTICALL3;
use crate::chain::network::{self, DescriptionError, SavedNetwork};
use crate::chain::rpc::{Rpc, RpcError};
use crate::chain::transport::BrowserFetch;
use alloy_primitives::{Address, B256};
use eden_core::network::{Contracts, NetworkDescription};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The metadata file's name under each publication base.
pub const METADATA_FILE: &str = "metadata.json";

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectMeta {
    pub name: String,
    pub track: String,
    #[serde(default)]
    pub private: bool,
}

/// The deployment's metadata file (`<publication base>/metadata.json`), optional and unverified:
/// names for people, shown as such. Everything else the app reads comes from the chain and from
/// publications checked against it; any other field of the file is ignored.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Metadata {
    #[serde(default)]
    pub projects: BTreeMap<String, ProjectMeta>,
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
    /// The hash of the deployment block: with the chain id, the identity the log cache keys on
    /// (`None` when the node could not say: logs are then not cached).
    pub deployment_block_hash: Option<B256>,
    /// The metadata file's contents (empty when there is none).
    pub meta: Metadata,
    /// Why the metadata file was not used, when one was found but could not be read.
    pub meta_warning: Option<String>,
}

impl World {
    pub fn rpc(&self) -> Rpc {
        Rpc::new(self.rpc_url.clone())
            .with_log_range(self.network.settings.log_range)
            .with_log_requests(self.network.settings.log_requests)
            .with_multicall(self.multicall)
            .with_unrecorded(&[self.contracts.pool_manager])
            .with_log_cache(
                self.deployment_block_hash
                    .map(|h| format!("{}:{h}", self.chain_id)),
            )
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

    /// The bytes of publication `path` (content-addressed: the caller checks them against their name).
    ///
    /// # Errors
    /// The last base's error when none serves it.
    pub async fn fetch_publication_bytes(&self, path: &str) -> Result<Vec<u8>, WorldError> {
        bytes_from_bases(self.description(), path)
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

/// One project's light publication in one epoch (C22): its pack, its track's pack (none for a pre-data
/// project) and the bytes downloaded for them.
#[derive(Debug, Clone)]
pub struct LightPublication {
    pub pack: eden_core::check::ProjectPack,
    pub track: Option<eden_core::check::TrackPack>,
    pub bytes: usize,
}

impl World {
    /// `project`'s light publication under `root` ([`eden_core::check::project_pack_path`]) and its
    /// track's, parsed (checked by [`eden_core::check::LightProofs`]).
    ///
    /// # Errors
    /// [`WorldError::Fetch`] when the project's pack is not published (a deployment without light
    /// publications, or a project without a leaf in the epoch), [`WorldError::BadBundle`] when a pack does
    /// not parse or its track's pack cannot be fetched.
    pub async fn fetch_light(
        &self,
        root: B256,
        project: Address,
    ) -> Result<LightPublication, WorldError> {
        use eden_core::check::{project_pack_path, track_pack_path, ProjectPack, TrackPack};
        let text = self
            .fetch_publication(&project_pack_path(&root, project))
            .await?;
        let mut bytes = text.len();
        let pack = ProjectPack::from_json(&text)
            .map_err(|e| WorldError::BadBundle(format!("the project's light pack: {e}")))?;
        let track = match pack.record.as_ref() {
            Some(r) => {
                let t = self
                    .fetch_publication(&track_pack_path(&root, &r.track))
                    .await
                    .map_err(|e| WorldError::BadBundle(format!("the track's light pack: {e}")))?;
                bytes += t.len();
                Some(
                    TrackPack::from_json(&t).map_err(|e| {
                        WorldError::BadBundle(format!("the track's light pack: {e}"))
                    })?,
                )
            }
            None => None,
        };
        Ok(LightPublication { pack, track, bytes })
    }

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

/// The bytes at `path` under the publication bases (`eden_chain::publication::first_served`, the
/// operator's reader too): the first base that serves it wins; it is not published (an HTTP 404 here)
/// only when every base says not found, else the last failure.
async fn bytes_from_bases(d: &NetworkDescription, path: &str) -> Result<Vec<u8>, RpcError> {
    use eden_chain::publication::{first_served, Unserved};
    match first_served(&BrowserFetch, &d.publication_bases(), path).await {
        Ok(b) => Ok(b),
        Err(Unserved::NotFound) => Err(RpcError::Http {
            url: path.to_owned(),
            status: 404,
        }),
        Err(Unserved::NoBase) => Err(RpcError::Network(
            "the description names no http(s) publication base".into(),
        )),
        Err(Unserved::Failed(e)) => Err(e),
    }
}

/// [`bytes_from_bases`] as text (every JSON publication).
async fn fetch_from_bases(d: &NetworkDescription, path: &str) -> Result<String, RpcError> {
    String::from_utf8(bytes_from_bases(d, path).await?)
        .map_err(|e| RpcError::Decode(format!("{path} is not UTF-8 text: {e}")))
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

/// The read a route opened cold makes first, sent while the app connects (D11, "Reads sent early").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirstRead {
    /// Nothing is sent early.
    None,
    /// The launch list's first page (`launchpad::all`).
    LaunchList,
}

/// Chooses the network ([`network::choose`]), finds an RPC URL that serves its chain, reads its
/// metadata file, and measures the chain clock (chain time minus wall time). `first` is sent to the
/// description's first RPC URL at the same time as the connection probe.
///
/// # Errors
/// [`WorldError`] saying which step failed.
pub async fn load_world(first: FirstRead) -> Result<(World, i64), WorldError> {
    let n = network::choose().await.map_err(WorldError::Description)?;
    connect(n, first).await
}

/// Connects to the saved network `n`: the first of its RPC URLs that answers, checked to serve
/// the description's chain. `first` goes to the first URL with its probe (an answer for another
/// chain, or from a URL that does not answer the probe, is never taken: the page reads through the
/// URL connected to).
///
/// # Errors
/// [`WorldError::ChainDown`] when none answers, [`WorldError::WrongChain`] when one answers for
/// another chain.
pub async fn connect(n: SavedNetwork, first: FirstRead) -> Result<(World, i64), WorldError> {
    let d = n.description.clone();
    let urls = n.rpc_urls();
    let mut last = RpcError::Network("no RPC URL".into());
    let mc = d.contracts.multicall3.unwrap_or(MULTICALL3);
    for (i, url) in urls.iter().enumerate() {
        let rpc = Rpc::new(url.clone());
        if i == 0 && first == FirstRead::LaunchList {
            crate::chain::launchpad::lens::read_early(&rpc, d.contracts.launchpad, &[]);
        }
        // The chain id, the clock, Multicall3 and the deployment block in one round trip; the
        // metadata file at the same time.
        let (probe, (meta, meta_warning)) =
            futures::join!(rpc.probe(mc, d.deployment_block), load_metadata(&d));
        let p = match probe {
            Ok(p) => p,
            Err(e) => {
                last = e;
                continue;
            }
        };
        if p.chain_id != d.chain_id {
            return Err(WorldError::WrongChain {
                name: d.name.clone(),
                rpc_url: url.clone(),
                want: d.chain_id,
                got: p.chain_id,
            });
        }
        let (ts, deployment_block_hash) = (p.latest_timestamp, p.deployment_block_hash);
        let multicall = p.multicall.then_some(mc);
        let world = World {
            chain_id: d.chain_id,
            rpc_url: url.clone(),
            contracts: d.contracts.clone(),
            deployment_block: d.deployment_block,
            multicall,
            deployment_block_hash,
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

    #[test]
    fn the_metadata_file_gives_names_and_nothing_else() {
        // A metadata file that also repeats addresses and lists: only the names are read.
        let m: Metadata = serde_json::from_str(
            r#"{"chainId": 1, "rpcUrl": "http://evil.example", "addresses": {"launchpad": "0x00"},
                "epochs": [{"epoch": 1, "bundle": "x"}], "scorer": {"registry": "0x00"},
                "projects": {"0x5fc8d32690cc91d4c39d9d3abcbd16989f875707": {"name": "Seedling Labs", "track": "apps"}}}"#,
        )
        .unwrap();
        assert_eq!(m.projects.len(), 1);
        assert_eq!(
            m.projects.values().next().map(|p| p.name.as_str()),
            Some("Seedling Labs")
        );
    }
}
