//! The chain layer's transport types, below every reader: [`RpcError`], the HTTP calls (`fetch`
//! GET and JSON POST), JSON-RPC error objects in words, and the log types. The log reader
//! ([`crate::chain::logs`]), its cache ([`crate::chain::log_cache`]), the network layer and the
//! JSON-RPC client ([`crate::chain::rpc`]) all build on it, so none of them imports another in a
//! circle.

use crate::chain::abi::revert_reason;
use alloy_primitives::{hex, Bytes};
use serde_json::Value;

/// Why a request failed, in words a person can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RpcError {
    /// The node could not be reached.
    #[error("cannot reach the chain node: {0}")]
    Network(String),
    /// The call or transaction would revert (reason decoded).
    #[error("{0}")]
    Revert(String),
    /// Any other JSON-RPC error.
    #[error("the node answered with an error: {0}")]
    Node(String),
    /// The answer could not be read.
    #[error("unexpected answer from the node: {0}")]
    Decode(String),
    /// The node is rate-limiting (HTTP 429, or a JSON-RPC "rate limit" error), still after backoff.
    #[error("the node is rate-limiting requests: {0}")]
    RateLimited(String),
    /// A GET answered with an HTTP error status.
    #[error("{url}: HTTP {status}")]
    Http {
        /// The URL.
        url: String,
        /// The status code.
        status: u16,
    },
}

/// GETs a URL and returns its body as text (gloo-net's `fetch`).
pub async fn fetch_text(url: &str) -> Result<String, RpcError> {
    let resp = gloo_net::http::Request::get(url)
        .send()
        .await
        .map_err(|e| RpcError::Network(e.to_string()))?;
    if !resp.ok() {
        return Err(RpcError::Http {
            url: url.to_owned(),
            status: resp.status(),
        });
    }
    // Every document fetched here is JSON. A static host that serves a single-page app answers an
    // unknown path with the app's own index.html and status 200: that page is "not found", never a
    // document that failed to parse.
    if is_html(resp.headers().get("content-type").as_deref()) {
        return Err(RpcError::Http {
            url: url.to_owned(),
            status: 404,
        });
    }
    resp.text()
        .await
        .map_err(|e| RpcError::Network(e.to_string()))
}

/// The browser's byte fetcher for publications (`eden_chain::publication`): gloo-net's `fetch`, with
/// not found (404, 410, or a static host's HTML fallback) as `None`.
pub struct BrowserFetch;

impl eden_chain::publication::Fetch for BrowserFetch {
    type Error = RpcError;

    async fn get(&self, url: &str) -> Result<Option<Vec<u8>>, RpcError> {
        let resp = gloo_net::http::Request::get(url)
            .send()
            .await
            .map_err(|e| RpcError::Network(e.to_string()))?;
        let content_type = resp.headers().get("content-type");
        if eden_chain::publication::is_not_found(resp.status(), content_type.as_deref()) {
            return Ok(None);
        }
        if !resp.ok() {
            return Err(RpcError::Http {
                url: url.to_owned(),
                status: resp.status(),
            });
        }
        resp.binary()
            .await
            .map(Some)
            .map_err(|e| RpcError::Network(e.to_string()))
    }
}

/// Whether a `content-type` names an HTML page (a static host's fallback, not a JSON document).
pub(crate) use eden_chain::publication::is_html;

/// POSTs a JSON body and returns the parsed JSON answer (gloo-net's `fetch`).
pub(crate) async fn post_json(url: &str, body: &str) -> Result<Value, RpcError> {
    let resp = gloo_net::http::Request::post(url)
        .header("content-type", "application/json")
        .body(body)
        .map_err(|e| RpcError::Network(e.to_string()))?
        .send()
        .await
        .map_err(|e| RpcError::Network(e.to_string()))?;
    if resp.status() == 429 {
        return Err(RpcError::RateLimited(format!("{url}: HTTP 429")));
    }
    let status = resp.status();
    let text = resp
        .text()
        .await
        .map_err(|e| RpcError::Network(e.to_string()))?;
    match serde_json::from_str(&text) {
        Ok(v) => Ok(v),
        // A proxy's or gateway's error page: the status says more than the body.
        Err(_) if !(200..300).contains(&status) => Err(RpcError::Http {
            url: url.to_owned(),
            status,
        }),
        Err(e) => Err(RpcError::Decode(e.to_string())),
    }
}

/// The revert data of a JSON-RPC error object: a hex string in `data` (or in `data.data`, as some
/// nodes nest it).
pub fn revert_data(err: &Value) -> Option<Bytes> {
    let d = err.get("data")?;
    let s = d
        .as_str()
        .or_else(|| d.get("data").and_then(Value::as_str))?;
    hex::decode(s.trim_start_matches("0x"))
        .ok()
        .map(Bytes::from)
}

/// Interprets a JSON-RPC error object; revert data (a hex string in `data`) becomes [`RpcError::Revert`].
pub fn error_from(err: &Value) -> RpcError {
    let message = err
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("error")
        .to_owned();
    if let Some(bytes) = revert_data(err) {
        return RpcError::Revert(revert_reason(&bytes));
    }
    if message.contains("revert") {
        return RpcError::Revert(message);
    }
    let lower = message.to_lowercase();
    if err.get("code").and_then(Value::as_i64) == Some(429)
        || lower.contains("rate limit")
        || lower.contains("too many requests")
    {
        return RpcError::RateLimited(message);
    }
    RpcError::Node(message)
}

pub use eden_chain::log::{Log, LogFilter};

/// A shared reader's error: the transport's as it was, anything else as an answer that could not be
/// read.
impl From<eden_chain::read::ReadError<RpcError>> for RpcError {
    fn from(e: eden_chain::read::ReadError<RpcError>) -> Self {
        match e {
            eden_chain::read::ReadError::Transport(e) => e,
            other => RpcError::Decode(other.to_string()),
        }
    }
}
