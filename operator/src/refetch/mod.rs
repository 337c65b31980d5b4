//! Independent re-fetches (C21, C21a; §2.1 check 2): per source, an adapter returns what the source's own
//! system says for a project and the epoch's window; the intake reconciles each attested claim with it.
//!
//! | adapter | module | reads | excludes, each named in the intake report |
//! |---|---|---|---|
//! | `payments` | [`payments`] | a Stripe-compatible charges API | refunds, chargebacks, self-dealing |
//! | `workTracker` | [`tracker`] | a tracker's resolved issues | reopened, duplicate and self-opened items |
//! | `gitForge` | [`forge`] | a GitHub-compatible pulls API | reverted, bot and self-approved work |
//! | `http` | [`generic`] | any JSON document, a metric at a pointer | nothing |
//! | `file` | [`generic`] | an export `{ "<project>": { "<metric>": value } }` | nothing |
//!
//! Configured in a JSON file, one entry per source name of the intake configuration:
//!
//! ```json
//! { "ledger": { "kind": "payments", "url": "https://api.stripe.com", "metrics": ["settled_revenue_cents"],
//!               "accounts": { "0x…": "acct_…" }, "ownCustomers": { "0x…": ["cus_…"] } },
//!   "tracker": { "kind": "workTracker", "url": "http://127.0.0.1:9000", "metrics": ["resolved_work"],
//!                "projects": { "0x…": "ENG" }, "members": { "0x…": ["founder"] } },
//!   "forge": { "kind": "gitForge", "url": "https://api.github.com", "metrics": ["merged_work"],
//!              "repos": { "0x…": "owner/name" } },
//!   "github": { "kind": "http", "url": "http://127.0.0.1:9000/{project}/{epoch}",
//!               "paths": { "resolved_work": "/resolved" }, "timeoutMs": 5000 } }
//! ```
//!
//! A source whose intake rule names an adapter kind (`"adapter": "payments"`) must be configured with that
//! adapter ([`check_kinds`]). An unreachable source, a non-2xx answer, malformed JSON or a missing metric is
//! recorded as [`Refetch::Unavailable`] with the reason, never a crash.

pub mod forge;
pub mod generic;
pub mod http;
pub mod payments;
pub mod tracker;

#[cfg(test)]
mod fixture;

use crate::error::{OpError, Result};
use alloy::primitives::{Address, U256};
use eden_core::attest::{AdapterKind, Exclusion, IntakeConfig, Refetch, RefetchTable, Submission};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The epoch's observation window, `(start, end]` in unix seconds: what a source counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// Exclusive start (the previous epoch's proposal time).
    pub start: u64,
    /// Inclusive end (the snapshot).
    pub end: u64,
}

/// One metric as a source's own system gives it: the value, and what its rules excluded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refetched {
    /// The value.
    pub value: U256,
    /// Each item its rules left out, named.
    pub excluded: Vec<Exclusion>,
}

/// What a source returned for one project: metric name → value, or why it could not be read.
pub type Fetched = std::result::Result<HashMap<String, Refetched>, String>;

/// The same value under each of `metrics`.
fn each(metrics: &[String], value: Refetched) -> HashMap<String, Refetched> {
    metrics.iter().map(|m| (m.clone(), value.clone())).collect()
}

fn default_timeout() -> u64 {
    10_000
}

/// One source's adapter configuration.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind", deny_unknown_fields)]
pub enum AdapterConfig {
    /// [`generic::HttpJson`].
    Http {
        /// URL template (`{project}` lower-case hex, `{epoch}` decimal).
        url: String,
        /// Metric name → JSON pointer.
        paths: BTreeMap<String, String>,
        /// Request timeout.
        #[serde(default = "default_timeout")]
        timeout_ms: u64,
    },
    /// [`generic::FileSource`].
    File {
        /// The JSON file (relative to the configuration file).
        path: PathBuf,
    },
    /// [`payments::Payments`].
    #[serde(rename_all = "camelCase")]
    Payments {
        /// The API's base URL.
        url: String,
        /// The metrics the settled volume is reported as.
        metrics: Vec<String>,
        /// Each project's connected account.
        accounts: BTreeMap<Address, String>,
        /// Each project's own customers.
        #[serde(default)]
        own_customers: BTreeMap<Address, Vec<String>>,
        /// Request timeout.
        #[serde(default = "default_timeout")]
        timeout_ms: u64,
    },
    /// [`tracker::WorkTracker`].
    #[serde(rename_all = "camelCase")]
    WorkTracker {
        /// The API's base URL.
        url: String,
        /// The metrics resolved work is reported as.
        metrics: Vec<String>,
        /// Each project's tracker project key.
        projects: BTreeMap<Address, String>,
        /// Each project's own members.
        #[serde(default)]
        members: BTreeMap<Address, Vec<String>>,
        /// Request timeout.
        #[serde(default = "default_timeout")]
        timeout_ms: u64,
    },
    /// [`forge::GitForge`].
    #[serde(rename_all = "camelCase")]
    GitForge {
        /// The API's base URL.
        url: String,
        /// The metrics merged work is reported as.
        metrics: Vec<String>,
        /// Each project's repository.
        repos: BTreeMap<Address, String>,
        /// Request timeout.
        #[serde(default = "default_timeout")]
        timeout_ms: u64,
    },
}

/// A configured adapter.
pub enum Adapter {
    /// HTTP JSON.
    Http(generic::HttpJson),
    /// File.
    File(generic::FileSource),
    /// Payments.
    Payments(payments::Payments),
    /// Work tracker.
    WorkTracker(tracker::WorkTracker),
    /// Git forge.
    GitForge(forge::GitForge),
}

impl Adapter {
    /// The source system it knows, if it knows one (the generic ones do not).
    pub fn kind(&self) -> Option<AdapterKind> {
        match self {
            Adapter::Http(_) | Adapter::File(_) => None,
            Adapter::Payments(_) => Some(AdapterKind::Payments),
            Adapter::WorkTracker(_) => Some(AdapterKind::WorkTracker),
            Adapter::GitForge(_) => Some(AdapterKind::GitForge),
        }
    }

    async fn fetch(&self, project: Address, epoch: u64, w: Window, metrics: &[String]) -> Fetched {
        match self {
            Adapter::Http(a) => a.fetch(project, epoch, metrics).await,
            Adapter::File(a) => a.fetch(project),
            Adapter::Payments(a) => a.fetch(project, w).await,
            Adapter::WorkTracker(a) => a.fetch(project, w).await,
            Adapter::GitForge(a) => a.fetch(project, w).await,
        }
    }
}

fn index<T>(m: BTreeMap<Address, T>) -> HashMap<Address, T> {
    m.into_iter().collect()
}

/// Reads the adapter configuration file (see the module doc).
pub fn adapters(path: &Path) -> Result<HashMap<String, Adapter>> {
    let cfg: BTreeMap<String, AdapterConfig> = crate::config::load(path)?;
    let base = path.parent().unwrap_or(Path::new("."));
    let api = |url: &str, ms: u64| http::Api::new(url, Duration::from_millis(ms));
    Ok(cfg
        .into_iter()
        .map(|(name, c)| {
            let a = match c {
                AdapterConfig::Http {
                    url,
                    paths,
                    timeout_ms,
                } => Adapter::Http(generic::HttpJson::new(
                    url,
                    paths,
                    Duration::from_millis(timeout_ms),
                )),
                AdapterConfig::File { path } => {
                    Adapter::File(generic::FileSource::open(&base.join(path)))
                }
                AdapterConfig::Payments {
                    url,
                    metrics,
                    accounts,
                    own_customers,
                    timeout_ms,
                } => Adapter::Payments(payments::Payments {
                    api: api(&url, timeout_ms),
                    metrics,
                    accounts: index(accounts),
                    own_customers: index(own_customers),
                }),
                AdapterConfig::WorkTracker {
                    url,
                    metrics,
                    projects,
                    members,
                    timeout_ms,
                } => Adapter::WorkTracker(tracker::WorkTracker {
                    api: api(&url, timeout_ms),
                    metrics,
                    projects: index(projects),
                    members: index(members),
                }),
                AdapterConfig::GitForge {
                    url,
                    metrics,
                    repos,
                    timeout_ms,
                } => Adapter::GitForge(forge::GitForge {
                    api: api(&url, timeout_ms),
                    metrics,
                    repos: index(repos),
                }),
            };
            (name, a)
        })
        .collect())
}

/// Checks that every source whose intake rule names an adapter kind is configured with that adapter: a
/// rule says how its metrics are verified, and a build must not claim a check it does not run.
///
/// # Errors
/// [`OpError::Refused`] naming the source.
pub fn check_kinds(config: &IntakeConfig, adapters: &HashMap<String, Adapter>) -> Result<()> {
    for rule in &config.sources {
        let Some(want) = rule.adapter else { continue };
        let got = adapters.get(&rule.name).and_then(Adapter::kind);
        if got != Some(want) {
            return Err(OpError::Refused(format!(
                "source '{}' is verified by the {want} adapter in the intake configuration, but the re-fetch configuration gives it {}",
                rule.name,
                got.map_or_else(|| "none".to_string(), |k| format!("the {k} adapter"))
            )));
        }
    }
    Ok(())
}

/// Re-fetches every claim that needs it: once per project and re-fetched source it was attested by, up
/// to 16 at a time. A source with `refetch: true` and no adapter is unavailable for every claim.
pub async fn refetch_all(
    config: &IntakeConfig,
    adapters: Arc<HashMap<String, Adapter>>,
    submissions: &[Submission],
    epoch: u64,
    window: Window,
) -> Result<RefetchTable> {
    let sem = Arc::new(tokio::sync::Semaphore::new(16));
    let mut set = tokio::task::JoinSet::new();
    for s in submissions {
        let mut seen = std::collections::HashSet::new();
        for a in &s.attestations {
            let a = &a.attestation;
            let Some(rule) = config
                .sources
                .iter()
                .find(|r| r.name == a.source && r.refetch)
            else {
                continue;
            };
            if a.project != s.project || !seen.insert(a.source.clone()) {
                continue;
            }
            let metrics: Vec<String> = rule.metrics.iter().map(|m| m.name.clone()).collect();
            let (project, source) = (s.project, a.source.clone());
            let (adapters, sem) = (adapters.clone(), sem.clone());
            set.spawn(async move {
                let _permit = sem.acquire_owned().await;
                let got = match adapters.get(&source) {
                    Some(ad) => ad.fetch(project, epoch, window, &metrics).await,
                    None => Err(format!("no re-fetch adapter is configured for '{source}'")),
                };
                (project, source, metrics, got)
            });
        }
    }
    let mut table = RefetchTable::new();
    while let Some(r) = set.join_next().await {
        let (project, source, metrics, got) = r.map_err(|e| OpError::Refused(e.to_string()))?;
        for m in metrics {
            let entry = match &got {
                Ok(values) => match values.get(&m) {
                    Some(v) => Refetch::Value {
                        value: v.value,
                        excluded: v.excluded.clone(),
                    },
                    None => Refetch::Unavailable {
                        reason: format!("the source has no value for '{m}'"),
                    },
                },
                Err(reason) => Refetch::Unavailable {
                    reason: reason.clone(),
                },
            };
            table.insert((project, source.clone(), m), entry);
        }
    }
    Ok(table)
}
