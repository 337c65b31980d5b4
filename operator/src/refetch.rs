//! Independent re-fetches (C21, §2.1 check 2): per source, an adapter returns what the source itself says
//! for a project and epoch; the intake reconciles each attested claim with it.
//!
//! Adapters ([`Refetcher`]): [`HttpJson`] (GET a URL templated with `{project}` and `{epoch}`, read each
//! metric at a JSON pointer) and [`FileSource`] (a JSON file `{ "<project>": { "<metric>": "<value>" } }`).
//! Configured in a JSON file:
//!
//! ```json
//! { "github": { "kind": "http", "url": "http://127.0.0.1:9000/{project}/{epoch}",
//!               "paths": { "resolved_work": "/resolved" }, "timeoutMs": 5000 },
//!   "stripe": { "kind": "file", "path": "stripe-export.json" } }
//! ```
//!
//! An unreachable source, a non-2xx answer, malformed JSON or a missing metric is recorded as
//! [`Refetch::Unavailable`] with the reason, never a crash.

use crate::error::{OpError, Result};
use alloy::primitives::{Address, U256};
use eden_core::attest::{IntakeConfig, Refetch, RefetchTable, Submission};
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// What a source returned for one project: metric name → value, or why it could not be read.
pub type Fetched = std::result::Result<HashMap<String, U256>, String>;

/// An independent source of a project's metrics.
pub trait Refetcher: Send + Sync {
    /// Reads `metrics` of `project` for `epoch`.
    fn fetch(
        &self,
        project: Address,
        epoch: u64,
        metrics: &[String],
    ) -> impl Future<Output = Fetched> + Send;
}

/// One source's adapter configuration.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind", deny_unknown_fields)]
pub enum AdapterConfig {
    /// [`HttpJson`].
    Http {
        /// URL template (`{project}` lower-case hex, `{epoch}` decimal).
        url: String,
        /// Metric name → JSON pointer.
        paths: BTreeMap<String, String>,
        /// Request timeout (default 10 s).
        #[serde(default)]
        timeout_ms: Option<u64>,
    },
    /// [`FileSource`].
    File {
        /// The JSON file (relative to the configuration file).
        path: PathBuf,
    },
}

/// GETs a JSON document per project and reads each metric at its JSON pointer.
pub struct HttpJson {
    client: reqwest::Client,
    url: String,
    paths: BTreeMap<String, String>,
}

impl HttpJson {
    /// An adapter for `url` (templated) with metric pointers `paths`.
    pub fn new(url: String, paths: BTreeMap<String, String>, timeout: Duration) -> HttpJson {
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .build()
            .unwrap_or_default();
        HttpJson { client, url, paths }
    }
}

/// A JSON value as a non-negative integer (a JSON integer or a decimal string).
fn as_u256(v: &Value) -> std::result::Result<U256, String> {
    match v {
        Value::Number(n) => n
            .as_u64()
            .map(U256::from)
            .ok_or_else(|| format!("{n} is not a non-negative integer")),
        Value::String(s) => {
            U256::from_str_radix(s, 10).map_err(|_| format!("'{s}' is not a decimal integer"))
        }
        other => Err(format!("{other} is not a number")),
    }
}

impl Refetcher for HttpJson {
    async fn fetch(&self, project: Address, epoch: u64, metrics: &[String]) -> Fetched {
        let url = self
            .url
            .replace("{project}", &format!("{project:#x}"))
            .replace("{epoch}", &epoch.to_string());
        let resp = self
            .client
            .get(&url)
            .send()
            .await
            .map_err(|e| format!("GET {url}: {e}"))?;
        if !resp.status().is_success() {
            return Err(format!("GET {url}: HTTP {}", resp.status()));
        }
        let doc: Value = resp
            .json()
            .await
            .map_err(|e| format!("GET {url}: not JSON ({e})"))?;
        let mut out = HashMap::new();
        for m in metrics {
            if let Some(ptr) = self.paths.get(m) {
                if let Some(v) = doc.pointer(ptr) {
                    if let Ok(x) = as_u256(v) {
                        out.insert(m.clone(), x);
                    }
                }
            }
        }
        Ok(out)
    }
}

/// A JSON file `{ "<project>": { "<metric>": value } }` (an export from the source).
pub struct FileSource {
    values: std::result::Result<HashMap<Address, HashMap<String, U256>>, String>,
}

impl FileSource {
    /// Reads the file now; a bad file makes every fetch unavailable with the reason.
    pub fn open(path: &Path) -> FileSource {
        let values = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: {e}", path.display()))
            .and_then(|t| {
                serde_json::from_str::<HashMap<Address, HashMap<String, Value>>>(&t)
                    .map_err(|e| format!("{}: {e}", path.display()))
            })
            .map(|m| {
                m.into_iter()
                    .map(|(p, ms)| {
                        let ms = ms
                            .into_iter()
                            .filter_map(|(k, v)| as_u256(&v).ok().map(|x| (k, x)))
                            .collect();
                        (p, ms)
                    })
                    .collect()
            });
        FileSource { values }
    }
}

impl Refetcher for FileSource {
    async fn fetch(&self, project: Address, _epoch: u64, _metrics: &[String]) -> Fetched {
        let all = self.values.as_ref().map_err(Clone::clone)?;
        Ok(all.get(&project).cloned().unwrap_or_default())
    }
}

/// A configured adapter.
pub enum Adapter {
    /// HTTP JSON.
    Http(HttpJson),
    /// File.
    File(FileSource),
}

impl Adapter {
    async fn fetch(&self, project: Address, epoch: u64, metrics: &[String]) -> Fetched {
        match self {
            Adapter::Http(a) => a.fetch(project, epoch, metrics).await,
            Adapter::File(a) => a.fetch(project, epoch, metrics).await,
        }
    }
}

/// Reads the adapter configuration file (see the module doc).
pub fn adapters(path: &Path) -> Result<HashMap<String, Adapter>> {
    let cfg: BTreeMap<String, AdapterConfig> = crate::config::load(path)?;
    let base = path.parent().unwrap_or(Path::new("."));
    Ok(cfg
        .into_iter()
        .map(|(name, c)| {
            let a = match c {
                AdapterConfig::Http {
                    url,
                    paths,
                    timeout_ms,
                } => Adapter::Http(HttpJson::new(
                    url,
                    paths,
                    Duration::from_millis(timeout_ms.unwrap_or(10_000)),
                )),
                AdapterConfig::File { path } => Adapter::File(FileSource::open(&base.join(path))),
            };
            (name, a)
        })
        .collect())
}

/// Re-fetches every claim that needs it: once per project and re-fetched source it was attested by, up
/// to 16 at a time. A source with `refetch: true` and no adapter is unavailable for every claim.
pub async fn refetch_all(
    config: &IntakeConfig,
    adapters: Arc<HashMap<String, Adapter>>,
    submissions: &[Submission],
    epoch: u64,
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
                    Some(ad) => ad.fetch(project, epoch, &metrics).await,
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
                    Some(v) => Refetch::Value { value: *v },
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
