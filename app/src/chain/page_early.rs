//! Requests the page sent before the app started (D11, "Reads sent early"). The loader script in
//! `index.html` (written by `scripts/build-app.mjs`) fetches the default network description while the
//! wasm downloads and, when the app will connect through that description, sends the connection probe
//! (`Rpc::probe`) and, on the launch list's routes, the list's first page (`launchpad::lens`) to its first
//! RPC URL. It leaves them in `globalThis.__edenEarly`:
//! `[{url, body (null for a GET), sent (ms, wall clock), answer}]`, each `answer` a promise of
//! `{status, type, text}` or `{error}`, never rejected.
//!
//! The app takes one only for the byte-identical request to the same URL, once, and only while it is fresh
//! (the same rule as the app's own early requests, `transport`); every other request it sends itself. A
//! page whose loader sent other bytes (an older build, a change on one side only) therefore costs a second
//! request, never a wrong answer: the e2e suite fails when any of these requests is sent twice.

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The global the loader script fills.
const GLOBAL: &str = "__edenEarly";

/// A request the page sent early, taken by the app ([`PageEarly::take`]).
pub struct PageEarly {
    answer: js_sys::Promise,
    /// When the page sent it (ms, wall clock).
    pub sent_ms: f64,
}

/// What the page's request was answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageAnswer {
    /// The HTTP status.
    pub status: u16,
    /// The `content-type` header, if any.
    pub content_type: Option<String>,
    /// The body.
    pub text: String,
}

fn field(v: &JsValue, name: &str) -> JsValue {
    js_sys::Reflect::get(v, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

impl PageEarly {
    /// The page's request to `url` with exactly this `body` (`None`: a GET), sent at most `for_ms` before
    /// `now_ms` and not taken before; marked as taken. `None` outside a page with the loader.
    pub fn take(url: &str, body: Option<&str>, now_ms: f64, for_ms: f64) -> Option<Self> {
        let list = field(&js_sys::global(), GLOBAL)
            .dyn_into::<js_sys::Array>()
            .ok()?;
        list.iter().find_map(|e| {
            let sent_ms = field(&e, "sent").as_f64()?;
            let fresh = now_ms - sent_ms <= for_ms;
            let same = field(&e, "url").as_string().as_deref() == Some(url)
                && field(&e, "body").as_string().as_deref() == body;
            if !fresh || !same || field(&e, "taken").is_truthy() {
                return None;
            }
            js_sys::Reflect::set(&e, &JsValue::from_str("taken"), &JsValue::TRUE).ok()?;
            let answer = field(&e, "answer").dyn_into::<js_sys::Promise>().ok()?;
            Some(Self { answer, sent_ms })
        })
    }

    /// Its answer.
    ///
    /// # Errors
    /// The browser's words when the request could not be sent or its answer not read.
    pub async fn answer(self) -> Result<PageAnswer, String> {
        let a = JsFuture::from(self.answer)
            .await
            .map_err(|e| e.as_string().unwrap_or_else(|| format!("{e:?}")))?;
        if let Some(error) = field(&a, "error").as_string() {
            return Err(error);
        }
        let status = field(&a, "status")
            .as_f64()
            .and_then(|s| u16::try_from(s as i64).ok())
            .ok_or("the page's early request has no status")?;
        Ok(PageAnswer {
            status,
            content_type: field(&a, "type").as_string(),
            text: field(&a, "text").as_string().unwrap_or_default(),
        })
    }
}
