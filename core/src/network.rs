//! A deployment's network description: the one small public document a client needs to use a
//! deployment (#13). Everything else (epochs, launches, duels, scores, payouts) is discovered from
//! the chain and from publications verified against it.
//!
//! ```json
//! {
//!   "format": "eden-network-v1",
//!   "chainId": 31337,
//!   "name": "Local anvil",
//!   "nativeCurrency": { "name": "Ether", "symbol": "ETH", "decimals": 18 },
//!   "rpcUrls": ["http://127.0.0.1:8545"],
//!   "explorerUrl": null,
//!   "contracts": { "epochRegistry": "0x…", "holderDistributor": "0x…", "launchpad": "0x…",
//!                  "launchLocker": "0x…", "poolManager": "0x…", "feeLanes": "0x…" },
//!   "deploymentBlock": 0,
//!   "publications": ["http://127.0.0.1:8080/publications/"]
//! }
//! ```
//!
//! Nothing else: an unknown field is refused (a client that ignored it could read a different
//! deployment than the one described). Decided (docs/protocol.md, D1): the native currency has
//! 18 decimals and a 2–6 character symbol (EIP-3085, which wallets enforce); RPC and explorer URLs
//! are `http(s)`; publication bases are `http(s)` or `ipfs://` and are used with a trailing `/`;
//! contract addresses are non-zero and distinct.

use alloy_primitives::Address;
use serde::{Deserialize, Serialize};

/// The format tag of a network description.
pub const NETWORK_FORMAT: &str = "eden-network-v1";

/// The largest chain id a wallet accepts (`Number.MAX_SAFE_INTEGER`, EIP-2294's bound in practice).
pub const MAX_CHAIN_ID: u64 = (1 << 53) - 1;

/// A deployment: its chain and where to reach it, its contracts, and where its publications are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NetworkDescription {
    /// Always [`NETWORK_FORMAT`].
    pub format: String,
    /// The EIP-155 chain id.
    pub chain_id: u64,
    /// A name for people ("Base Sepolia", "Local anvil").
    pub name: String,
    /// The chain's native currency, as a wallet shows it.
    pub native_currency: NativeCurrency,
    /// JSON-RPC endpoints, in order of preference (at least one).
    pub rpc_urls: Vec<String>,
    /// A block explorer, if any.
    #[serde(default)]
    pub explorer_url: Option<String>,
    /// The deployment's contracts.
    pub contracts: Contracts,
    /// The block the first contract was deployed in: log scans start here.
    pub deployment_block: u64,
    /// Base URLs of the publications (epoch bundles, payout trees), any of which may serve them;
    /// none is trusted (at least one).
    pub publications: Vec<String>,
}

/// The native currency (EIP-3085 `nativeCurrency`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NativeCurrency {
    /// "Ether".
    pub name: String,
    /// "ETH" (2–6 characters).
    pub symbol: String,
    /// Always 18.
    pub decimals: u8,
}

/// The contracts of a deployment: the four every client needs, and the optional parts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Contracts {
    /// `EpochRegistry` (C5–C7).
    #[serde(with = "crate::serde_dec::checksum")]
    pub epoch_registry: Address,
    /// `HolderDistributor` (C18).
    #[serde(with = "crate::serde_dec::checksum")]
    pub holder_distributor: Address,
    /// `Launchpad` (C19–C20).
    #[serde(with = "crate::serde_dec::checksum")]
    pub launchpad: Address,
    /// The launch locker (graduated positions, the pools' hook).
    #[serde(with = "crate::serde_dec::checksum")]
    pub launch_locker: Address,
    /// Uniswap v4 `PoolManager`.
    #[serde(with = "crate::serde_dec::checksum")]
    pub pool_manager: Address,
    /// `FeeLanes` (C11, C17), when deployed.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::serde_dec::opt_checksum"
    )]
    pub fee_lanes: Option<Address>,
    /// `ScorerRegistry` (C11–C14), when deployed.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::serde_dec::opt_checksum"
    )]
    pub scorer_registry: Option<Address>,
    /// `CallLedger` (A1–A4), when deployed.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::serde_dec::opt_checksum"
    )]
    pub call_ledger: Option<Address>,
    /// `DuelHook` (B1–B7), when deployed.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::serde_dec::opt_checksum"
    )]
    pub duel_hook: Option<Address>,
    /// `RootPriceOracle` (C16), when deployed.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::serde_dec::opt_checksum"
    )]
    pub root_price_oracle: Option<Address>,
    /// Multicall3, when the chain has it somewhere other than its canonical address.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::serde_dec::opt_checksum"
    )]
    pub multicall3: Option<Address>,
    /// An exact-input v4 swap router (`SwapRouter`, E1), when the deployment provides one: the
    /// app trades graduated tokens and duel tokens through it.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::serde_dec::opt_checksum"
    )]
    pub swap_router: Option<Address>,
    /// The registry of projects' source keys (`SourceKeyRegistry`, C21), when the deployment provides
    /// one: attestations in an epoch's publication are checked against it.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::serde_dec::opt_checksum"
    )]
    pub source_key_registry: Option<Address>,
}

impl Contracts {
    /// Every address with its field name, optional ones when set.
    pub fn named(&self) -> Vec<(&'static str, Address)> {
        let mut v = vec![
            ("epochRegistry", self.epoch_registry),
            ("holderDistributor", self.holder_distributor),
            ("launchpad", self.launchpad),
            ("launchLocker", self.launch_locker),
            ("poolManager", self.pool_manager),
        ];
        for (name, a) in [
            ("feeLanes", self.fee_lanes),
            ("scorerRegistry", self.scorer_registry),
            ("callLedger", self.call_ledger),
            ("duelHook", self.duel_hook),
            ("rootPriceOracle", self.root_price_oracle),
            ("multicall3", self.multicall3),
            ("swapRouter", self.swap_router),
            ("sourceKeyRegistry", self.source_key_registry),
        ] {
            if let Some(a) = a {
                v.push((name, a));
            }
        }
        v
    }
}

/// Why a network description is refused; each names the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// Not JSON of this shape (a missing or unknown field, a wrong type).
    #[error("{path}: {message}")]
    Shape {
        /// Where (`contracts.launchpad`, `.` for the document).
        path: String,
        /// What serde said.
        message: String,
    },
    /// Another format or version.
    #[error("format: expected \"{NETWORK_FORMAT}\", got \"{0}\"")]
    Format(String),
    /// A field's value is not acceptable.
    #[error("{field}: {message}")]
    Invalid {
        /// The field (`rpcUrls[1]`).
        field: String,
        /// Why.
        message: String,
    },
}

fn invalid(field: impl Into<String>, message: impl Into<String>) -> NetworkError {
    NetworkError::Invalid {
        field: field.into(),
        message: message.into(),
    }
}

/// Checks that `url` is an absolute URL with one of `schemes` and a host.
fn check_url(field: &str, url: &str, schemes: &[&str]) -> Result<(), NetworkError> {
    let scheme = schemes
        .iter()
        .find(|s| url.starts_with(&format!("{s}://")))
        .ok_or_else(|| {
            invalid(
                field,
                format!("'{url}' must start with {}://", schemes.join(":// or ")),
            )
        })?;
    let rest = &url[scheme.len() + 3..];
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if host.is_empty()
        || host.contains('@')
        || url.chars().any(|c| c.is_whitespace() || c.is_control())
    {
        return Err(invalid(
            field,
            format!("'{url}' is not a URL with a host (and no credentials or spaces)"),
        ));
    }
    Ok(())
}

fn check_text(field: &str, s: &str, max: usize) -> Result<(), NetworkError> {
    let n = s.chars().count();
    if s.trim().is_empty() || n > max || s.chars().any(char::is_control) {
        return Err(invalid(
            field,
            format!("must be 1–{max} printable characters, got '{s}'"),
        ));
    }
    Ok(())
}

impl NetworkDescription {
    /// Parses and validates a description.
    ///
    /// # Errors
    /// [`NetworkError`] naming the first bad field.
    pub fn parse(json: &str) -> Result<Self, NetworkError> {
        let mut de = serde_json::Deserializer::from_str(json);
        let d: NetworkDescription = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let path = e.path().to_string();
            let message = crate::serde_dec::strip_position(&e.into_inner().to_string());
            NetworkError::Shape { path, message }
        })?;
        de.end().map_err(|e| NetworkError::Shape {
            path: ".".into(),
            message: e.to_string(),
        })?;
        d.validate()?;
        Ok(d)
    }

    /// Checks every rule of the module doc.
    ///
    /// # Errors
    /// [`NetworkError`] naming the first bad field.
    pub fn validate(&self) -> Result<(), NetworkError> {
        if self.format != NETWORK_FORMAT {
            return Err(NetworkError::Format(self.format.clone()));
        }
        if self.chain_id == 0 || self.chain_id > MAX_CHAIN_ID {
            return Err(invalid(
                "chainId",
                format!("{} is not a chain id (1 to 2^53 − 1)", self.chain_id),
            ));
        }
        check_text("name", &self.name, 64)?;
        check_text("nativeCurrency.name", &self.native_currency.name, 32)?;
        let sym = self.native_currency.symbol.chars().count();
        if !(2..=6).contains(&sym)
            || self
                .native_currency
                .symbol
                .chars()
                .any(|c| !c.is_alphanumeric())
        {
            return Err(invalid(
                "nativeCurrency.symbol",
                format!(
                    "must be 2–6 letters or digits (EIP-3085), got '{}'",
                    self.native_currency.symbol
                ),
            ));
        }
        if self.native_currency.decimals != 18 {
            return Err(invalid(
                "nativeCurrency.decimals",
                format!(
                    "must be 18 (EIP-3085), got {}",
                    self.native_currency.decimals
                ),
            ));
        }
        if self.rpc_urls.is_empty() {
            return Err(invalid("rpcUrls", "at least one RPC URL is needed"));
        }
        for (i, u) in self.rpc_urls.iter().enumerate() {
            check_url(&format!("rpcUrls[{i}]"), u, &["https", "http"])?;
        }
        if let Some(u) = &self.explorer_url {
            check_url("explorerUrl", u, &["https", "http"])?;
        }
        let named = self.contracts.named();
        for (k, (name, a)) in named.iter().enumerate() {
            if a.is_zero() {
                return Err(invalid(format!("contracts.{name}"), "the zero address"));
            }
            if let Some((other, _)) = named[..k].iter().find(|(_, b)| b == a) {
                return Err(invalid(
                    format!("contracts.{name}"),
                    format!("{a} is also contracts.{other}"),
                ));
            }
        }
        if self.publications.is_empty() {
            return Err(invalid(
                "publications",
                "at least one publication base URL is needed",
            ));
        }
        for (i, u) in self.publications.iter().enumerate() {
            check_url(&format!("publications[{i}]"), u, &["https", "http", "ipfs"])?;
        }
        Ok(())
    }

    /// The publication base URLs, each ending in `/`, for joining paths onto.
    pub fn publication_bases(&self) -> Vec<String> {
        self.publications
            .iter()
            .map(|u| {
                if u.ends_with('/') {
                    u.clone()
                } else {
                    format!("{u}/")
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::{json, Value};

    fn local() -> Value {
        json!({
            "format": "eden-network-v1",
            "chainId": 31337,
            "name": "Local anvil",
            "nativeCurrency": { "name": "Ether", "symbol": "ETH", "decimals": 18 },
            "rpcUrls": ["http://127.0.0.1:8545"],
            "explorerUrl": null,
            "contracts": {
                "epochRegistry": "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
                "holderDistributor": "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
                "launchpad": "0x5FC8d32690cc91D4c39d9d3abcBD16989F875707",
                "launchLocker": "0x0E0ddA5259e1Dad8bB7f774261e351A0C83b6000",
                "poolManager": "0x5FbDB2315678afecb367f032d93F642f64180aa3",
                "feeLanes": "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9"
            },
            "deploymentBlock": 0,
            "publications": ["http://127.0.0.1:8080/publications"]
        })
    }

    fn parse(v: &Value) -> Result<NetworkDescription, String> {
        NetworkDescription::parse(&v.to_string()).map_err(|e| e.to_string())
    }

    #[test]
    fn the_local_description_parses_and_round_trips() {
        let d = parse(&local()).unwrap();
        assert_eq!(d.chain_id, 31337);
        assert_eq!(d.contracts.named().len(), 6);
        assert_eq!(
            d.publication_bases(),
            ["http://127.0.0.1:8080/publications/"]
        );
        let again = NetworkDescription::parse(&serde_json::to_string(&d).unwrap()).unwrap();
        assert_eq!(again, d);
    }

    #[test]
    fn each_bad_field_is_named() {
        let cases: Vec<(&str, Value, &str)> = vec![
            ("/format", json!("eden-network-v2"), "format: expected"),
            ("/chainId", json!(0), "chainId: 0 is not a chain id"),
            ("/chainId", json!(9_007_199_254_740_992u64), "chainId:"),
            ("/chainId", json!("31337"), "chainId: invalid type"),
            ("/name", json!(""), "name: must be"),
            ("/nativeCurrency/symbol", json!("E"), "nativeCurrency.symbol"),
            ("/nativeCurrency/decimals", json!(6), "nativeCurrency.decimals: must be 18"),
            ("/rpcUrls", json!([]), "rpcUrls: at least one"),
            ("/rpcUrls", json!(["ws://x"]), "rpcUrls[0]: 'ws://x' must start with"),
            ("/rpcUrls", json!(["http://"]), "rpcUrls[0]:"),
            ("/rpcUrls", json!(["https://user:pw@node.example"]), "credentials"),
            ("/explorerUrl", json!("ftp://x"), "explorerUrl:"),
            ("/contracts/launchpad", json!("0x12"), "contracts.launchpad:"),
            (
                "/contracts/launchpad",
                json!("0x0000000000000000000000000000000000000000"),
                "contracts.launchpad: the zero address",
            ),
            (
                "/contracts/feeLanes",
                json!("0x5FbDB2315678afecb367f032d93F642f64180aa3"),
                "contracts.feeLanes: 0x5FbDB2315678afecb367f032d93F642f64180aa3 is also contracts.poolManager",
            ),
            ("/publications", json!([]), "publications: at least one"),
            ("/publications", json!(["file:///etc"]), "publications[0]:"),
            ("/deploymentBlock", json!(-1), "deploymentBlock:"),
        ];
        for (pointer, value, want) in cases {
            let mut v = local();
            *v.pointer_mut(pointer).unwrap() = value;
            let err = parse(&v).unwrap_err();
            assert!(err.contains(want), "{pointer}: got '{err}', want '{want}'");
        }
        // Nothing else: unknown fields anywhere are refused, by name.
        let mut v = local();
        v["epochs"] = json!([]);
        assert!(parse(&v).unwrap_err().contains("unknown field `epochs`"));
        let mut v = local();
        v["contracts"]["stablecoin"] = json!("0x1111111111111111111111111111111111111111");
        assert!(parse(&v)
            .unwrap_err()
            .starts_with("contracts.stablecoin: unknown field"));
        let mut v = local();
        v.as_object_mut().unwrap().remove("contracts");
        assert!(parse(&v).unwrap_err().contains("missing field `contracts`"));
        assert!(NetworkDescription::parse("{} x").is_err());
    }

    proptest! {
        /// Any text is parsed or refused with a message, never a panic.
        #[test]
        fn arbitrary_text_never_panics(s in ".{0,200}") {
            let _ = NetworkDescription::parse(&s);
        }

        /// Any string in any field of a valid description is accepted or refused by name.
        #[test]
        fn arbitrary_field_values_never_panic(
            field in prop::sample::select(vec![
                "/format", "/name", "/nativeCurrency/name", "/nativeCurrency/symbol", "/rpcUrls/0",
                "/explorerUrl", "/contracts/launchpad", "/publications/0",
            ]),
            s in ".{0,80}",
        ) {
            let mut v = local();
            *v.pointer_mut(field).unwrap() = Value::String(s);
            if let Err(e) = NetworkDescription::parse(&v.to_string()) {
                prop_assert!(!e.to_string().is_empty());
            }
        }
    }
}
