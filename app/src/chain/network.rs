//! Which deployment the app is a client of (D1): a network description, chosen from
//! `?network=<url>`, the person's own list (local storage), or the embedded default (the local
//! chain, `/public/networks/local.json`), and the settings a person may change for it (an RPC URL
//! of their own, the node's log range). Every description is parsed and validated by
//! `eden_core::network`; nothing here trusts what it fetched. No Leptos here.

use crate::chain::transport::{fetch_text, RpcError};
use eden_core::network::{NetworkDescription, NetworkError};
use gloo_storage::{LocalStorage, Storage};
use serde::{Deserialize, Serialize};

/// The embedded default: the local chain's description, written by the deploy scripts
/// (scripts/write-network.mjs) and copied there by scripts/run.sh.
pub const LOCAL_NETWORK_URL: &str = "/public/networks/local.json";
/// Blocks per `eth_getLogs` request unless the person sets another limit for a network (public
/// nodes commonly refuse more than 10,000).
pub const DEFAULT_LOG_RANGE: u64 = 10_000;
/// The largest log range a person may set (a node that allows more still gets correct answers: the
/// reader splits any range the node refuses).
pub const MAX_LOG_RANGE: u64 = 1_000_000;
pub use eden_chain::logs::{DEFAULT_LOG_REQUESTS, MAX_LOG_REQUESTS};

const NETWORKS_KEY: &str = "eden.networks";
const SELECTED_KEY: &str = "eden.network";

/// What a person may change for a network without editing its description.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NetworkSettings {
    /// An RPC URL tried before the description's own (a private node, a paid endpoint).
    #[serde(default)]
    pub rpc_override: Option<String>,
    /// Blocks per `eth_getLogs` request.
    #[serde(default = "default_log_range")]
    pub log_range: u64,
    /// `eth_getLogs` requests of one scan in flight at once (D3).
    #[serde(default = "default_log_requests")]
    pub log_requests: usize,
}

fn default_log_requests() -> usize {
    DEFAULT_LOG_REQUESTS
}

fn default_log_range() -> u64 {
    DEFAULT_LOG_RANGE
}

impl Default for NetworkSettings {
    fn default() -> Self {
        Self {
            rpc_override: None,
            log_range: DEFAULT_LOG_RANGE,
            log_requests: DEFAULT_LOG_REQUESTS,
        }
    }
}

/// Why a setting is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    /// The RPC URL is not an http(s) URL with a host.
    #[error("RPC URL: {0}")]
    Rpc(NetworkError),
    /// The log range is out of bounds.
    #[error("log range: {0} is not between 1 and {MAX_LOG_RANGE} blocks")]
    LogRange(u64),
    /// The requests in flight are out of bounds.
    #[error("log requests at once: {0} is not between 1 and {MAX_LOG_REQUESTS}")]
    LogRequests(usize),
}

impl NetworkSettings {
    /// Checks the settings against the rules the description's own fields follow (D1).
    ///
    /// # Errors
    /// [`SettingsError`] naming the bad setting.
    pub fn validate(&self, d: &NetworkDescription) -> Result<(), SettingsError> {
        if let Some(url) = &self.rpc_override {
            let mut probe = d.clone();
            probe.rpc_urls = vec![url.clone()];
            probe.validate().map_err(SettingsError::Rpc)?;
        }
        if !(1..=MAX_LOG_RANGE).contains(&self.log_range) {
            return Err(SettingsError::LogRange(self.log_range));
        }
        if !(1..=MAX_LOG_REQUESTS).contains(&self.log_requests) {
            return Err(SettingsError::LogRequests(self.log_requests));
        }
        Ok(())
    }
}

/// A network the person has used: its description, where it came from, their settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SavedNetwork {
    /// The URL it was fetched from; `None` when pasted.
    #[serde(default)]
    pub source: Option<String>,
    pub description: NetworkDescription,
    #[serde(default)]
    pub settings: NetworkSettings,
}

impl SavedNetwork {
    /// Which saved entry this is: its source URL (fetching it again updates the entry, and keeps
    /// the person's settings across a redeployment), or for a pasted one its chain and launchpad
    /// (two deployments may share a chain).
    pub fn key(&self) -> String {
        match &self.source {
            Some(url) => url.clone(),
            None => format!(
                "pasted:{}:{}",
                self.description.chain_id,
                self.description
                    .contracts
                    .launchpad
                    .to_string()
                    .to_lowercase()
            ),
        }
    }

    /// The RPC URLs to try, in order: the person's own first, then the description's.
    pub fn rpc_urls(&self) -> Vec<String> {
        let mut v: Vec<String> = self.settings.rpc_override.iter().cloned().collect();
        for u in &self.description.rpc_urls {
            if !v.contains(u) {
                v.push(u.clone());
            }
        }
        v
    }
}

/// Whether `url` is a loopback node (a local dev chain: the burner wallet is offered only there).
pub fn is_loopback(url: &str) -> bool {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
        .unwrap_or("");
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = match host.rsplit_once(':') {
        Some((h, port)) if port.bytes().all(|b| b.is_ascii_digit()) && !h.ends_with(':') => h,
        _ => host,
    };
    matches!(host, "127.0.0.1" | "localhost" | "[::1]")
}

/// Why no network description could be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DescriptionError {
    /// It could not be fetched.
    #[error("the network description at {url} could not be fetched: {source}")]
    Fetch {
        url: String,
        #[source]
        source: RpcError,
    },
    /// It is not a valid description.
    #[error("the network description {origin} is not valid: {source}")]
    Invalid {
        /// "at <url>" or "you pasted".
        origin: String,
        #[source]
        source: NetworkError,
    },
}

/// Parses a description that came from `origin` ("at <url>", "you pasted").
///
/// # Errors
/// [`DescriptionError::Invalid`].
pub fn parse_description(origin: &str, json: &str) -> Result<NetworkDescription, DescriptionError> {
    NetworkDescription::parse(json).map_err(|source| DescriptionError::Invalid {
        origin: origin.to_owned(),
        source,
    })
}

/// Fetches and validates the description at `url`.
///
/// # Errors
/// [`DescriptionError`].
pub async fn fetch_description(url: &str) -> Result<NetworkDescription, DescriptionError> {
    let text = fetch_text(url)
        .await
        .map_err(|source| DescriptionError::Fetch {
            url: url.to_owned(),
            source,
        })?;
    parse_description(&format!("at {url}"), &text)
}

/// The person's networks (local storage), most recently added last.
pub fn saved() -> Vec<SavedNetwork> {
    LocalStorage::get(NETWORKS_KEY).unwrap_or_default()
}

fn store(list: &[SavedNetwork]) {
    let _ = LocalStorage::set(NETWORKS_KEY, list);
}

/// Adds `n`, or replaces the saved network with the same key (keeping the person's settings when
/// `n` brings none of its own).
pub fn upsert(n: SavedNetwork) {
    let mut list = saved();
    match list.iter_mut().find(|s| s.key() == n.key()) {
        Some(s) => {
            let keep = s.settings.clone();
            *s = n;
            if s.settings == NetworkSettings::default() {
                s.settings = keep;
            }
        }
        None => list.push(n),
    }
    store(&list);
}

/// Replaces the settings of the saved network `key`.
pub fn set_settings(key: &str, settings: NetworkSettings) {
    let mut list = saved();
    if let Some(s) = list.iter_mut().find(|s| s.key() == key) {
        s.settings = settings;
    }
    store(&list);
}

/// Forgets the saved network `key` (and the selection, if it was selected).
pub fn remove(key: &str) {
    let mut list = saved();
    list.retain(|s| s.key() != key);
    store(&list);
    if selected().as_deref() == Some(key) {
        LocalStorage::delete(SELECTED_KEY);
    }
}

/// The selected network's key.
pub fn selected() -> Option<String> {
    LocalStorage::get(SELECTED_KEY).ok()
}

/// Selects the saved network `key`; `None` goes back to the default.
pub fn select(key: Option<&str>) {
    match key {
        Some(k) => {
            let _ = LocalStorage::set(SELECTED_KEY, k);
        }
        None => LocalStorage::delete(SELECTED_KEY),
    }
}

/// The `network` query parameter of the page's URL, if any.
pub fn network_param() -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    query_param(&search, "network")
}

/// `name`'s value in a URL query (`?a=1&network=…`), percent-decoded.
pub fn query_param(search: &str, name: &str) -> Option<String> {
    search
        .trim_start_matches('?')
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == name)
        .and_then(|(_, v)| {
            js_sys::decode_uri_component(&v.replace('+', " "))
                .ok()
                .and_then(|s| s.as_string())
        })
        .filter(|v| !v.is_empty())
}

/// The network to use: the one named by `?network=` (fetched, validated, then saved and selected),
/// else the selected saved one, else the embedded default (fetched, and saved too so its settings
/// can be changed).
///
/// # Errors
/// [`DescriptionError`] when the named or default description cannot be had.
pub async fn choose() -> Result<SavedNetwork, DescriptionError> {
    if let Some(url) = network_param() {
        let description = fetch_description(&url).await?;
        let n = SavedNetwork {
            source: Some(url),
            description,
            settings: NetworkSettings::default(),
        };
        upsert(n.clone());
        select(Some(&n.key()));
        return Ok(saved()
            .into_iter()
            .find(|s| s.key() == n.key())
            .unwrap_or(n));
    }
    if let Some(key) = selected() {
        if let Some(n) = saved().into_iter().find(|s| s.key() == key) {
            return Ok(n);
        }
    }
    default_network().await
}

/// The embedded default, fetched fresh (a local chain's addresses change when it is redeployed),
/// with the settings the person saved for it.
///
/// # Errors
/// [`DescriptionError`].
pub async fn default_network() -> Result<SavedNetwork, DescriptionError> {
    let description = fetch_description(LOCAL_NETWORK_URL).await?;
    let n = SavedNetwork {
        source: Some(LOCAL_NETWORK_URL.to_owned()),
        description,
        settings: NetworkSettings::default(),
    };
    upsert(n.clone());
    Ok(saved()
        .into_iter()
        .find(|s| s.key() == n.key())
        .unwrap_or(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local() -> NetworkDescription {
        NetworkDescription::parse(
            r#"{"format":"eden-network-v1","chainId":31337,"name":"Local anvil",
            "nativeCurrency":{"name":"Ether","symbol":"ETH","decimals":18},
            "rpcUrls":["http://127.0.0.1:8545"],
            "contracts":{"epochRegistry":"0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
              "holderDistributor":"0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
              "launchpad":"0x5FC8d32690cc91D4c39d9d3abcBD16989F875707",
              "launchLocker":"0x0E0ddA5259e1Dad8bB7f774261e351A0C83b6000",
              "poolManager":"0x5FbDB2315678afecb367f032d93F642f64180aa3"},
            "deploymentBlock":0,"publications":["http://127.0.0.1:8080/public/demo/"]}"#,
        )
        .unwrap()
    }

    #[test]
    fn loopback_nodes_are_recognised() {
        for u in [
            "http://127.0.0.1:8545",
            "http://localhost:8545/",
            "http://[::1]:8545",
            "https://localhost",
        ] {
            assert!(is_loopback(u), "{u}");
        }
        for u in [
            "https://rpc.example.org",
            "http://127.0.0.1.example.org:8545",
            "http://localhost.evil:80",
            "ws://127.0.0.1:8545",
            "",
        ] {
            assert!(!is_loopback(u), "{u}");
        }
    }

    #[test]
    fn the_override_is_tried_first_and_not_twice() {
        let mut n = SavedNetwork {
            source: None,
            description: local(),
            settings: NetworkSettings::default(),
        };
        assert_eq!(n.rpc_urls(), ["http://127.0.0.1:8545"]);
        n.settings.rpc_override = Some("http://127.0.0.1:9545".into());
        assert_eq!(
            n.rpc_urls(),
            ["http://127.0.0.1:9545", "http://127.0.0.1:8545"]
        );
        n.settings.rpc_override = Some("http://127.0.0.1:8545".into());
        assert_eq!(n.rpc_urls(), ["http://127.0.0.1:8545"]);
        assert_eq!(
            n.key(),
            "pasted:31337:0x5fc8d32690cc91d4c39d9d3abcbd16989f875707"
        );
        n.source = Some("/public/networks/local.json".into());
        assert_eq!(n.key(), "/public/networks/local.json");
    }

    #[test]
    fn settings_are_checked_like_the_description() {
        let d = local();
        let ok = NetworkSettings {
            rpc_override: Some("https://rpc.example.org/key".into()),
            log_range: 2_000,
            log_requests: 8,
        };
        assert_eq!(ok.validate(&d), Ok(()));
        let bad = NetworkSettings {
            rpc_override: Some("ftp://x".into()),
            ..ok.clone()
        };
        assert!(matches!(bad.validate(&d), Err(SettingsError::Rpc(_))));
        assert!(bad
            .validate(&d)
            .unwrap_err()
            .to_string()
            .starts_with("RPC URL: rpcUrls[0]"));
        let zero = NetworkSettings {
            log_range: 0,
            ..ok.clone()
        };
        assert_eq!(zero.validate(&d), Err(SettingsError::LogRange(0)));
        let many = NetworkSettings {
            log_requests: MAX_LOG_REQUESTS + 1,
            ..ok
        };
        assert_eq!(
            many.validate(&d),
            Err(SettingsError::LogRequests(MAX_LOG_REQUESTS + 1))
        );
        // Old saved settings without a log range read as the default.
        let s: NetworkSettings = serde_json::from_str("{}").unwrap();
        assert_eq!(s, NetworkSettings::default());
    }

    #[test]
    fn a_pasted_description_names_its_bad_field() {
        let e = parse_description("you pasted", r#"{"format":"eden-network-v2"}"#).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("the network description you pasted is not valid"),
            "{e}"
        );
    }
}
