//! The grader's model, reached through the OpenAI-compatible chat-completions API (C8, decided).
//!
//! Any server that speaks `POST {base}/chat/completions` works: the embedded one (`model/serve.mjs`,
//! llama.cpp on the CPU), llama.cpp's own server, vLLM, Ollama, a hosted provider. The key, if any, comes
//! from an environment variable and is sent as `Authorization: Bearer`. The answer is asked for as a
//! JSON object under a JSON schema (`response_format.json_schema`, which constrains decoding where the
//! server supports it) and validated here against the same bounds; a malformed answer, a timeout, a 429
//! or a 5xx is retried up to [`ModelEndpoint::attempts`] times with a doubling pause (a `Retry-After` is
//! honoured up to 30 s), then the thesis's grading fails with the reason and is retried by the next run.

use eden_core::scoring::grade_record::{InjectionJudgment, RubricAnswer, RUBRIC_MAX};
use serde_json::{json, Value};
use std::time::Duration;

/// An OpenAI-compatible endpoint and model.
#[derive(Debug, Clone)]
pub struct ModelEndpoint {
    /// Base URL ending in `/v1` (the path `chat/completions` is appended).
    pub base_url: String,
    /// The model's name at that endpoint.
    pub model: String,
    /// Bearer key, if the endpoint needs one.
    pub api_key: Option<String>,
    /// Per-request timeout.
    pub timeout: Duration,
    /// Attempts per answer (at least 1).
    pub attempts: u32,
}

/// Why a model gave no usable answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// No answer within the timeout.
    #[error("the model did not answer within {0} s")]
    Timeout(u64),
    /// Rate limited (429) on every attempt.
    #[error("the model endpoint is rate limiting (HTTP 429)")]
    RateLimited,
    /// An error status.
    #[error("the model endpoint answered HTTP {status}: {body}")]
    Status {
        /// The status.
        status: u16,
        /// The start of the body.
        body: String,
    },
    /// An answer that is not the JSON object the schema asks for.
    #[error("malformed answer ({detail}): {raw}")]
    Malformed {
        /// What is wrong.
        detail: String,
        /// The start of the answer.
        raw: String,
    },
    /// The endpoint could not be reached.
    #[error("the model endpoint could not be reached: {0}")]
    Transport(String),
}

impl ModelError {
    fn retryable(&self) -> bool {
        match self {
            ModelError::Status { status, .. } => *status >= 500,
            ModelError::Transport(_) => false,
            _ => true,
        }
    }
}

/// The rubric answer's JSON schema: three integers bounded to 0–[`RUBRIC_MAX`] (as an `enum`, which
/// grammar-constrained decoders honour).
pub fn rubric_schema() -> Value {
    let n: Vec<u8> = (0..=RUBRIC_MAX).collect();
    json!({
        "type": "object",
        "properties": {
            "relevance": { "type": "integer", "enum": n },
            "specificity": { "type": "integer", "enum": n },
            "consistency": { "type": "integer", "enum": n },
        },
        "required": ["relevance", "specificity", "consistency"],
        "additionalProperties": false,
    })
}

/// The injection judgment's JSON schema.
pub fn judgment_schema() -> Value {
    json!({
        "type": "object",
        "properties": { "instructsGrader": { "type": "boolean" } },
        "required": ["instructsGrader"],
        "additionalProperties": false,
    })
}

/// One request's decoding.
#[derive(Debug, Clone, Copy)]
pub struct Decoding {
    /// Temperature.
    pub temperature: f64,
    /// Seed.
    pub seed: u32,
    /// Most tokens in the answer.
    pub max_tokens: u32,
}

impl ModelEndpoint {
    /// Asks for a JSON object under `schema`; returns the raw answer and its parsed value.
    ///
    /// # Errors
    /// [`ModelError`] after the last attempt.
    pub async fn ask(
        &self,
        client: &reqwest::Client,
        system: &str,
        user: &str,
        schema: &Value,
        d: Decoding,
    ) -> Result<(String, Value), ModelError> {
        let mut pause = Duration::from_millis(500);
        let mut last = ModelError::Transport("no attempt".into());
        for attempt in 0..self.attempts.max(1) {
            if attempt > 0 {
                tokio::time::sleep(pause).await;
                pause *= 2;
            }
            match self.ask_once(client, system, user, schema, d).await {
                Ok(ok) => return Ok(ok),
                Err((e, retry_after)) => {
                    if let Some(r) = retry_after {
                        pause = r.min(Duration::from_secs(30));
                    }
                    let again = e.retryable();
                    last = e;
                    if !again {
                        break;
                    }
                }
            }
        }
        Err(last)
    }

    async fn ask_once(
        &self,
        client: &reqwest::Client,
        system: &str,
        user: &str,
        schema: &Value,
        d: Decoding,
    ) -> Result<(String, Value), (ModelError, Option<Duration>)> {
        let body = json!({
            "model": self.model,
            "messages": [
                { "role": "system", "content": system },
                { "role": "user", "content": user },
            ],
            "temperature": d.temperature,
            "seed": d.seed,
            "max_tokens": d.max_tokens,
            "response_format": { "type": "json_schema", "json_schema": { "name": "answer", "strict": true, "schema": schema } },
        });
        let url = format!("{}/chat/completions", self.base_url.trim_end_matches('/'));
        let mut req = client.post(&url).json(&body).timeout(self.timeout);
        if let Some(k) = &self.api_key {
            req = req.bearer_auth(k);
        }
        let secs = self.timeout.as_secs();
        let resp = req
            .send()
            .await
            .map_err(|e| (reqwest_error(&e, secs), None))?;
        let status = resp.status().as_u16();
        let retry_after = resp
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|s| s.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let text = resp
            .text()
            .await
            .map_err(|e| (reqwest_error(&e, secs), None))?;
        if status == 429 {
            return Err((ModelError::RateLimited, retry_after));
        }
        if !(200..300).contains(&status) {
            return Err((
                ModelError::Status {
                    status,
                    body: clip(&text),
                },
                retry_after,
            ));
        }
        let malformed = |detail: &str, raw: &str| {
            (
                ModelError::Malformed {
                    detail: detail.into(),
                    raw: clip(raw),
                },
                None,
            )
        };
        let envelope: Value =
            serde_json::from_str(&text).map_err(|_| malformed("not a chat completion", &text))?;
        let content = envelope["choices"][0]["message"]["content"]
            .as_str()
            .ok_or_else(|| malformed("no choices[0].message.content", &text))?
            .to_string();
        let value: Value = serde_json::from_str(content.trim())
            .map_err(|e| malformed(&e.to_string(), &content))?;
        check_schema(&value, schema).map_err(|d| malformed(&d, &content))?;
        Ok((content, value))
    }
}

/// A transport error as the grader reports it: a timeout names the limit.
fn reqwest_error(e: &reqwest::Error, secs: u64) -> ModelError {
    if e.is_timeout() {
        ModelError::Timeout(secs)
    } else {
        ModelError::Transport(e.to_string())
    }
}

/// Validates `v` against the subset of JSON Schema the grader's schemas use: an object with
/// `required` fields, no others, integers within an `enum`, booleans.
fn check_schema(v: &Value, schema: &Value) -> Result<(), String> {
    let obj = v.as_object().ok_or("not a JSON object")?;
    let props = schema["properties"]
        .as_object()
        .ok_or("schema without properties")?;
    for k in obj.keys() {
        if !props.contains_key(k) {
            return Err(format!("unexpected field {k:?}"));
        }
    }
    for (k, p) in props {
        let x = obj.get(k).ok_or_else(|| format!("missing field {k:?}"))?;
        match p["type"].as_str() {
            Some("integer") => {
                let n = x
                    .as_u64()
                    .ok_or_else(|| format!("{k}: not a non-negative integer"))?;
                if let Some(allowed) = p["enum"].as_array() {
                    if !allowed.iter().any(|a| a.as_u64() == Some(n)) {
                        return Err(format!("{k}: {n} is out of range"));
                    }
                }
            }
            Some("boolean") if !x.is_boolean() => return Err(format!("{k}: not a boolean")),
            _ => {}
        }
    }
    Ok(())
}

/// A rubric answer from a validated value.
pub fn rubric_from(raw: String, v: &Value) -> RubricAnswer {
    let n = |k: &str| v[k].as_u64().unwrap_or(0).min(u64::from(RUBRIC_MAX)) as u8;
    RubricAnswer {
        relevance: n("relevance"),
        specificity: n("specificity"),
        consistency: n("consistency"),
        raw,
    }
}

/// A judgment from a validated value.
pub fn judgment_from(raw: String, v: &Value) -> InjectionJudgment {
    InjectionJudgment {
        instructs_grader: v["instructsGrader"].as_bool().unwrap_or(false),
        raw,
    }
}

fn clip(s: &str) -> String {
    let mut end = s.len().min(300);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_held_to_the_schema() {
        let s = rubric_schema();
        assert!(check_schema(
            &json!({"relevance": 7, "specificity": 0, "consistency": 10}),
            &s
        )
        .is_ok());
        for bad in [
            json!({"relevance": 11, "specificity": 0, "consistency": 10}),
            json!({"relevance": 7, "specificity": 0}),
            json!({"relevance": 7, "specificity": 0, "consistency": 1, "extra": 1}),
            json!({"relevance": 0.5, "specificity": 0, "consistency": 1}),
            json!([1, 2, 3]),
        ] {
            assert!(check_schema(&bad, &s).is_err(), "{bad}");
        }
        assert!(check_schema(&json!({"instructsGrader": "no"}), &judgment_schema()).is_err());
    }
}
