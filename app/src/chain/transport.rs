//! The chain layer's transport types, below every reader: [`RpcError`], the HTTP calls (`fetch`
//! GET and JSON POST), JSON-RPC error objects in words, and the log types. The log reader
//! ([`crate::chain::logs`]), its cache ([`crate::chain::log_cache`]), the network layer and the
//! JSON-RPC client ([`crate::chain::rpc`]) all build on it, so none of them imports another in a
//! circle.

use crate::chain::abi::revert_reason;
use crate::chain::page_early::PageEarly;
use alloy_primitives::{hex, Bytes};
use futures::future::{FutureExt, LocalBoxFuture, Shared};
use serde_json::Value;
use std::cell::RefCell;

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

/// GETs a URL and returns its body as text (gloo-net's `fetch`), or takes the answer of the same GET the
/// page sent before the app started ([`PageEarly`]).
pub async fn fetch_text(url: &str) -> Result<String, RpcError> {
    if let Some(early) = PageEarly::take(url, None, js_sys::Date::now(), EARLY_FOR_MS) {
        let a = early.answer().await.map_err(RpcError::Network)?;
        return text_answer(url, a.status, a.content_type.as_deref(), a.text);
    }
    let resp = gloo_net::http::Request::get(url)
        .send()
        .await
        .map_err(|e| RpcError::Network(e.to_string()))?;
    let (status, content_type) = (resp.status(), resp.headers().get("content-type"));
    if !resp.ok() {
        return text_answer(url, status, content_type.as_deref(), String::new());
    }
    let text = resp
        .text()
        .await
        .map_err(|e| RpcError::Network(e.to_string()))?;
    text_answer(url, status, content_type.as_deref(), text)
}

/// A GET's answer as [`fetch_text`] returns it: an error status is [`RpcError::Http`]. Every document
/// fetched here is JSON. A static host that serves a single-page app answers an unknown path with the
/// app's own index.html and status 200: that page is "not found" (404), never a document that failed
/// to parse.
fn text_answer(
    url: &str,
    status: u16,
    content_type: Option<&str>,
    text: String,
) -> Result<String, RpcError> {
    let http = |status| RpcError::Http {
        url: url.to_owned(),
        status,
    };
    if !(200..300).contains(&status) {
        return Err(http(status));
    }
    if is_html(content_type) {
        return Err(http(404));
    }
    Ok(text)
}

/// The browser's byte fetcher for publications (`eden_chain::publication`): gloo-net's `fetch`, with
/// not found (404, 410, or a static host's HTML fallback) as `None`; or the same GET the page sent before
/// the app started ([`PageEarly`]).
pub struct BrowserFetch;

impl eden_chain::publication::Fetch for BrowserFetch {
    type Error = RpcError;

    async fn get(&self, url: &str) -> Result<Option<Vec<u8>>, RpcError> {
        // The deployment's metadata file may have been fetched by the page before the app started (as text:
        // the page fetches no binary publication early).
        if let Some(early) = PageEarly::take(url, None, js_sys::Date::now(), EARLY_FOR_MS) {
            let a = early.answer().await.map_err(RpcError::Network)?;
            if eden_chain::publication::is_not_found(a.status, a.content_type.as_deref()) {
                return Ok(None);
            }
            return text_answer(url, a.status, a.content_type.as_deref(), a.text)
                .map(|t| Some(t.into_bytes()));
        }
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

/// An answer shared between the request sent early and the reader that takes it.
type SharedAnswer = Shared<LocalBoxFuture<'static, Result<Value, RpcError>>>;

/// A request sent before its reader asked ([`post_json_early`]).
struct Early {
    url: String,
    body: String,
    /// When it was sent (ms, wall clock).
    sent_ms: f64,
    answer: SharedAnswer,
}

/// Requests sent early that wait at once, at most (the oldest is dropped).
const EARLY_MAX: usize = 4;
/// How long an early answer may be taken after its request was sent (ms): a reader that asks later is sent
/// its own request, so no page shows an answer older than a read it could have made.
const EARLY_FOR_MS: f64 = 10_000.0;

thread_local! {
    /// The requests sent early and not yet taken.
    static EARLY: RefCell<Vec<Early>> = const { RefCell::new(Vec::new()) };
}

/// Sends the POST `body` to `url` now, before its reader asks (D11, "Reads sent early"): the app sends a route's
/// first read while it is still connecting, at the same time as the connection probe. The reader's own
/// [`post_json_or_early`] of the byte-identical request to the same URL, within [`EARLY_FOR_MS`], takes this answer
/// instead of sending it again, once; a request nobody takes in time is dropped with its answer. When the page's
/// loader already sent it ([`PageEarly`]), that request is the one kept.
pub(crate) fn post_json_early(url: &str, body: String) {
    let (u, b) = (url.to_owned(), body.clone());
    let now = js_sys::Date::now();
    let early = PageEarly::take(url, Some(&body), now, EARLY_FOR_MS);
    let sent_ms = early.as_ref().map_or(now, |e| e.sent_ms);
    let answer: SharedAnswer = match early {
        Some(early) => async move { early_json(&u, early).await }
            .boxed_local()
            .shared(),
        None => async move { post_json(&u, &b).await }
            .boxed_local()
            .shared(),
    };
    // Driven here, so it is in flight even while nobody awaits it.
    wasm_bindgen_futures::spawn_local(answer.clone().map(drop));
    remember_early(Early {
        url: url.to_owned(),
        body,
        sent_ms,
        answer,
    });
}

/// Keeps an early request for its reader: it replaces a waiting one with the same URL and body (a new
/// connection's, after a failed one), and the oldest waiting one goes when [`EARLY_MAX`] already wait.
fn remember_early(early: Early) {
    EARLY.with(|e| {
        let mut e = e.borrow_mut();
        e.retain(|w| (&w.url, &w.body) != (&early.url, &early.body));
        if e.len() == EARLY_MAX {
            drop(e.remove(0));
        }
        e.push(early);
    });
}

/// The answer of the early request with this URL and body, sent at most [`EARLY_FOR_MS`] before `now_ms`,
/// removed from the waiting ones (as is every one too old to be taken).
fn take_early(url: &str, body: &str, now_ms: f64) -> Option<SharedAnswer> {
    EARLY.with(|e| {
        let mut e = e.borrow_mut();
        e.retain(|w| now_ms - w.sent_ms <= EARLY_FOR_MS);
        let i = e.iter().position(|w| w.url == url && w.body == body)?;
        Some(e.remove(i).answer)
    })
}

/// [`post_json`], or the answer of the same request sent early, by the app ([`post_json_early`]) or by the page
/// before the app started ([`PageEarly`]), when there is one: for the requests sent early (`Rpc::run_code`,
/// `Rpc::probe`); every other request goes straight to [`post_json`].
pub(crate) async fn post_json_or_early(url: &str, body: &str) -> Result<Value, RpcError> {
    let now = js_sys::Date::now();
    if let Some(answer) = take_early(url, body, now) {
        return answer.await;
    }
    match PageEarly::take(url, Some(body), now, EARLY_FOR_MS) {
        Some(early) => early_json(url, early).await,
        None => post_json(url, body).await,
    }
}

/// The answer to a POST the page sent early, as [`post_json`] returns it.
async fn early_json(url: &str, early: PageEarly) -> Result<Value, RpcError> {
    let a = early.answer().await.map_err(RpcError::Network)?;
    json_answer(url, a.status, &a.text)
}

/// POSTs a JSON body now and returns the parsed JSON answer (gloo-net's `fetch`).
pub(crate) async fn post_json(url: &str, body: &str) -> Result<Value, RpcError> {
    let resp = gloo_net::http::Request::post(url)
        .header("content-type", "application/json")
        .body(body)
        .map_err(|e| RpcError::Network(e.to_string()))?
        .send()
        .await
        .map_err(|e| RpcError::Network(e.to_string()))?;
    let status = resp.status();
    if status == 429 {
        return json_answer(url, status, "");
    }
    let text = resp
        .text()
        .await
        .map_err(|e| RpcError::Network(e.to_string()))?;
    json_answer(url, status, &text)
}

/// A JSON POST's answer as [`post_json`] returns it: HTTP 429 is [`RpcError::RateLimited`], a body that
/// is not JSON is the status's error when the status is one, [`RpcError::Decode`] when not.
fn json_answer(url: &str, status: u16, text: &str) -> Result<Value, RpcError> {
    if status == 429 {
        return Err(RpcError::RateLimited(format!("{url}: HTTP 429")));
    }
    match serde_json::from_str(text) {
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

#[cfg(test)]
mod early_tests {
    use super::*;
    use serde_json::json;

    fn early(url: &str, body: &str, sent_ms: f64, v: u64) -> Early {
        Early {
            url: url.into(),
            body: body.into(),
            sent_ms,
            answer: futures::future::ready(Ok(json!(v))).boxed_local().shared(),
        }
    }

    fn taken(url: &str, body: &str, now_ms: f64) -> Option<Result<Value, RpcError>> {
        take_early(url, body, now_ms).map(|a| a.now_or_never().expect("ready"))
    }

    #[test]
    fn an_early_answer_goes_to_the_same_request_to_the_same_url_once() {
        remember_early(early("http://a/", r#"{"id":1}"#, 0.0, 7));
        assert!(
            taken("http://b/", r#"{"id":1}"#, 1.0).is_none(),
            "another URL"
        );
        assert!(
            taken("http://a/", r#"{"id":2}"#, 1.0).is_none(),
            "another body"
        );
        assert_eq!(taken("http://a/", r#"{"id":1}"#, 1.0), Some(Ok(json!(7))));
        assert!(
            taken("http://a/", r#"{"id":1}"#, 1.0).is_none(),
            "taken once"
        );
    }

    #[test]
    fn a_newer_request_replaces_the_same_one_still_waiting() {
        // A failed connection's early read, then the retry's: the retry's answer is taken.
        remember_early(early("http://d/", "x", 0.0, 1));
        remember_early(early("http://d/", "x", 5.0, 2));
        assert_eq!(taken("http://d/", "x", 6.0), Some(Ok(json!(2))));
        assert!(taken("http://d/", "x", 6.0).is_none());
    }

    #[test]
    fn an_answer_too_old_is_never_taken() {
        remember_early(early("http://e/", "x", 0.0, 1));
        assert!(taken("http://e/", "x", EARLY_FOR_MS + 1.0).is_none());
        remember_early(early("http://e/", "y", 0.0, 2));
        assert_eq!(taken("http://e/", "y", EARLY_FOR_MS), Some(Ok(json!(2))));
    }

    #[test]
    fn at_most_early_max_wait_and_the_oldest_goes_first() {
        for i in 0..=EARLY_MAX as u64 {
            remember_early(early("http://c/", &i.to_string(), 0.0, i));
        }
        assert!(
            taken("http://c/", "0", 0.0).is_none(),
            "the oldest was dropped"
        );
        for i in 1..=EARLY_MAX as u64 {
            assert_eq!(taken("http://c/", &i.to_string(), 0.0), Some(Ok(json!(i))));
        }
    }
}
