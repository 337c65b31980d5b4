//! The HTTP side every source adapter shares: one client with a timeout, GET a JSON document, errors in words.

use serde_json::Value;
use std::time::Duration;

/// A source's HTTP API at a base URL.
pub struct Api {
    client: reqwest::Client,
    base: String,
}

impl Api {
    /// The API at `base` (no trailing slash needed), each request limited to `timeout`.
    pub fn new(base: &str, timeout: Duration) -> Api {
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .build()
            .unwrap_or_default();
        Api {
            client,
            base: base.trim_end_matches('/').to_string(),
        }
    }

    /// The full URL of `path` (which starts with `/`, or is already a full URL).
    pub fn url(&self, path: &str) -> String {
        if path.starts_with("http://") || path.starts_with("https://") {
            path.to_string()
        } else {
            format!("{}{path}", self.base)
        }
    }

    /// GETs `path` with `headers` and parses the body as JSON.
    ///
    /// # Errors
    /// The request, a non-2xx status or a body that is not JSON, in words naming the URL.
    pub async fn get(&self, path: &str, headers: &[(&str, &str)]) -> Result<Value, String> {
        let url = self.url(path);
        let mut req = self.client.get(&url);
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let resp = req.send().await.map_err(|e| format!("GET {url}: {e}"))?;
        if !resp.status().is_success() {
            return Err(format!("GET {url}: HTTP {}", resp.status()));
        }
        resp.json()
            .await
            .map_err(|e| format!("GET {url}: not JSON ({e})"))
    }
}

/// A JSON value as a non-negative integer (a JSON integer or a decimal string).
pub fn as_u256(v: &Value) -> Result<alloy::primitives::U256, String> {
    use alloy::primitives::U256;
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

/// A field of a source's record, required: its absence names the record and the field.
pub fn field<'a>(record: &'a Value, name: &str, what: &str) -> Result<&'a Value, String> {
    record
        .get(name)
        .ok_or_else(|| format!("{what} has no '{name}'"))
}

/// A unix-seconds field: an integer, or an RFC 3339 time (as GitHub and most trackers write them).
pub fn time_secs(v: &Value, what: &str) -> Result<u64, String> {
    match v {
        Value::Number(n) => n
            .as_u64()
            .ok_or_else(|| format!("{what}: {n} is not a unix time")),
        Value::String(s) => chrono::DateTime::parse_from_rfc3339(s)
            .map(|t| t.timestamp().max(0) as u64)
            .map_err(|e| format!("{what}: '{s}' is not an RFC 3339 time ({e})")),
        other => Err(format!("{what}: {other} is not a time")),
    }
}
