//! Reading a deployment's publications (C22, C23) from its publication bases, as anyone would: the compact
//! file first, then the JSON, from each `http(s)` base in turn. What is read is never trusted: the callers
//! check it against roots the chain holds.

use eden_core::attest::IntakeReport;
use eden_core::scoring::EpochBundle;
use std::time::Duration;

/// The largest publication read (a 100,000-project intake report is about 180 MB compact).
pub const MAX_PUBLICATION_BYTES: usize = 1 << 30;

/// Why a publication could not be read.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, thiserror::Error)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "kind"
)]
pub enum Unavailable {
    /// Every base answered 404 or 410 (or there is no `http(s)` base).
    #[error("not published at {path} (every base answers not found)")]
    NotFound {
        /// The path under the bases.
        path: String,
    },
    /// A base could not be reached or answered an error (the last one is named).
    #[error("{path}: {detail}")]
    Unreachable {
        /// The path.
        path: String,
        /// The last failure.
        detail: String,
    },
    /// A base served it, but it does not parse.
    #[error("{path} does not parse: {detail}")]
    Unreadable {
        /// The path.
        path: String,
        /// What is wrong.
        detail: String,
    },
}

/// A response body read in chunks into one buffer sized from its stated length (at most
/// [`MAX_PUBLICATION_BYTES`], checked as it arrives, so a host cannot make the reader hold more).
async fn read_capped(mut r: reqwest::Response) -> Result<Vec<u8>, String> {
    let stated = r.content_length().unwrap_or(0);
    if stated > MAX_PUBLICATION_BYTES as u64 {
        return Err(format!("larger than {MAX_PUBLICATION_BYTES} bytes"));
    }
    let mut buf = Vec::with_capacity(stated as usize);
    while let Some(chunk) = r.chunk().await.map_err(|e| e.to_string())? {
        if buf.len() + chunk.len() > MAX_PUBLICATION_BYTES {
            return Err(format!("larger than {MAX_PUBLICATION_BYTES} bytes"));
        }
        buf.extend_from_slice(&chunk);
    }
    Ok(buf)
}

/// The operator's byte fetcher: reqwest, not found (404, 410, a static host's HTML page) as `None`, a body
/// capped at [`MAX_PUBLICATION_BYTES`].
struct Http<'a>(&'a reqwest::Client);

impl eden_chain::publication::Fetch for Http<'_> {
    type Error = String;

    async fn get(&self, url: &str) -> Result<Option<Vec<u8>>, String> {
        let r = self
            .0
            .get(url)
            .send()
            .await
            .map_err(|e| format!("{url}: {e}"))?;
        let content_type = r
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok());
        if eden_chain::publication::is_not_found(r.status().as_u16(), content_type) {
            return Ok(None);
        }
        if !r.status().is_success() {
            return Err(format!("{url}: HTTP {}", r.status()));
        }
        read_capped(r)
            .await
            .map(Some)
            .map_err(|e| format!("{url}: {e}"))
    }
}

/// A reader of one deployment's publications.
#[derive(Debug, Clone)]
pub struct Publications {
    bases: Vec<String>,
    client: reqwest::Client,
}

impl Publications {
    /// Reads from `bases` (each ending in `/`; non-`http(s)` bases such as `ipfs://` are skipped: they
    /// need a gateway, which is an `https` base).
    pub fn new(bases: Vec<String>) -> Publications {
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .timeout(Duration::from_secs(600))
            .build()
            .unwrap_or_default();
        Publications {
            bases: eden_chain::publication::http_bases(&bases)
                .map(str::to_string)
                .collect(),
            client,
        }
    }

    /// The bytes at `path` from the first base that serves them (`eden_chain::publication::first_served`,
    /// the app's reader too).
    ///
    /// # Errors
    /// [`Unavailable::NotFound`] when every base says not found (or there is no base); else
    /// [`Unavailable::Unreachable`] naming the last failure: a base that is down leaves it unknown.
    pub async fn get(&self, path: &str) -> Result<Vec<u8>, Unavailable> {
        use eden_chain::publication::{first_served, Unserved};
        match first_served(&Http(&self.client), &self.bases, path).await {
            Ok(b) => Ok(b),
            Err(Unserved::NotFound | Unserved::NoBase) => {
                Err(Unavailable::NotFound { path: path.into() })
            }
            Err(Unserved::Failed(detail)) => Err(Unavailable::Unreachable {
                path: path.into(),
                detail,
            }),
        }
    }

    /// The compact publication `<stem>.msgpack`, else `<stem>.json`, parsed by `parse`.
    async fn either<T: Send + 'static>(
        &self,
        stem: &str,
        parse: fn(&[u8]) -> Result<T, eden_core::decode::DecodeError>,
    ) -> Result<T, Unavailable> {
        let compact = format!("{stem}.msgpack");
        let bytes = match self.get(&compact).await {
            Ok(b) => (compact, b),
            Err(Unavailable::NotFound { .. }) => {
                let json = format!("{stem}.json");
                let b = self.get(&json).await?;
                (json, b)
            }
            Err(e) => {
                // A host that fails on one file may still serve the other.
                let json = format!("{stem}.json");
                match self.get(&json).await {
                    Ok(b) => (json, b),
                    Err(_) => return Err(e),
                }
            }
        };
        let (path, bytes) = bytes;
        // Decoding is CPU work: off the async workers.
        let parsed = tokio::task::spawn_blocking(move || parse(&bytes))
            .await
            .map_err(|e| Unavailable::Unreadable {
                path: path.clone(),
                detail: e.to_string(),
            })?;
        parsed.map_err(|e| Unavailable::Unreadable {
            path,
            detail: e.to_string(),
        })
    }

    /// An epoch's bundle, and its intake report being fetched and decoded in the background meanwhile (the
    /// report is the larger: a caller audits the bundle while it arrives).
    pub async fn epoch(
        &self,
        root: &alloy::primitives::B256,
    ) -> (
        Result<EpochBundle, Unavailable>,
        tokio::task::JoinHandle<Result<IntakeReport, Unavailable>>,
    ) {
        let (me, r) = (self.clone(), *root);
        let report = tokio::spawn(async move { me.intake(&r).await });
        (self.bundle(root).await, report)
    }

    /// The epoch bundle published for `root` (`epochs/<root>.msgpack` or `.json`, C23).
    ///
    /// # Errors
    /// As [`Publications::get`], or [`Unavailable::Unreadable`].
    pub async fn bundle(&self, root: &alloy::primitives::B256) -> Result<EpochBundle, Unavailable> {
        self.either(&format!("epochs/{root:#x}"), EpochBundle::from_bytes)
            .await
    }

    /// The intake report published for `root` (`epochs/<root>.intake.msgpack` or `.json`, C23).
    ///
    /// # Errors
    /// As [`Publications::bundle`].
    pub async fn intake(
        &self,
        root: &alloy::primitives::B256,
    ) -> Result<IntakeReport, Unavailable> {
        self.either(
            &format!("epochs/{root:#x}.intake"),
            IntakeReport::from_bytes,
        )
        .await
    }
}
