//! `eden grade`: the thesis grader (C8).

use super::{connect, Cli};
use clap::Args;
use eden_operator::output::Out;
use eden_operator::OpError;
use std::path::PathBuf;

#[derive(Args)]
pub(crate) struct GradeCli {
    /// The publication directory (records in grades/, snapshots in snapshots/, the configuration in grader/).
    #[arg(long)]
    dir: PathBuf,
    /// The model's OpenAI-compatible base URL (the embedded one: `node model/serve.mjs`).
    #[arg(
        long,
        env = "EDEN_GRADER_URL",
        default_value = "http://127.0.0.1:8089/v1"
    )]
    model_url: String,
    /// The model's name there (default: the first the endpoint lists at /models).
    #[arg(long, env = "EDEN_GRADER_MODEL")]
    model: Option<String>,
    /// The environment variable holding the model endpoint's key, if it needs one.
    #[arg(long, default_value = "EDEN_GRADER_API_KEY")]
    model_key_env: String,
    /// The verifier's base URL (default: the model's).
    #[arg(long, env = "EDEN_VERIFIER_URL")]
    verifier_url: Option<String>,
    /// The verifier's model name (default: the model's).
    #[arg(long, env = "EDEN_VERIFIER_MODEL")]
    verifier_model: Option<String>,
    /// The environment variable holding the verifier endpoint's key.
    #[arg(long, default_value = "EDEN_VERIFIER_API_KEY")]
    verifier_key_env: String,
    /// Seconds allowed per model answer.
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..))]
    model_timeout: u64,
    /// Attempts per model answer (malformed, 429, 5xx and timeouts are retried).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=10))]
    model_attempts: u32,
    /// The rubric samples' temperature, in thousandths.
    #[arg(long, default_value_t = 700, value_parser = clap::value_parser!(u32).range(0..=2000))]
    temperature_milli: u32,
    /// Seconds allowed per source fetch (redirects included).
    #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u64).range(1..))]
    fetch_timeout: u64,
    /// Let the model's injection judgment flag a thesis (q = 0) beside the deterministic screening. Off by
    /// default: the embedded 270M model flags every text; turn it on with a model that can tell.
    #[arg(long)]
    count_model_judgment: bool,
    /// A non-public host:port sources may be fetched from (a local test host; repeat for several).
    #[arg(long = "allow-host")]
    allow_hosts: Vec<String>,
}

/// The model's name and weights hash from `{url}/models` (the first listed), for a model not named.
async fn listed_model(url: &str, key: Option<&str>) -> Result<(String, Option<String>), OpError> {
    let mut req = reqwest::Client::new().get(format!("{}/models", url.trim_end_matches('/')));
    if let Some(k) = key {
        req = req.bearer_auth(k);
    }
    let what = "--model-url";
    let v: serde_json::Value = req
        .timeout(std::time::Duration::from_secs(10))
        .send()
        .await
        .map_err(|e| {
            OpError::input(
                what,
                format!("{url}/models: {e} (is the model server running? node model/serve.mjs)"),
            )
        })?
        .json()
        .await
        .map_err(|e| OpError::input(what, format!("{url}/models: {e}")))?;
    let m = &v["data"][0];
    let id = m["id"].as_str().ok_or_else(|| {
        OpError::input(what, format!("{url}/models lists no model; pass --model"))
    })?;
    Ok((id.to_string(), m["sha256"].as_str().map(str::to_string)))
}

/// Runs `eden grade`.
pub(crate) async fn run(cli: &Cli, g: &GradeCli, out: Out) -> Result<(), OpError> {
    use eden_operator::grade::{
        self, fetch::SourceFetcher, model::ModelEndpoint, store::GradeStore, Grader,
    };
    use std::time::Duration;
    let chain = connect(cli, out, false).await?;
    let key = std::env::var(&g.model_key_env)
        .ok()
        .filter(|k| !k.is_empty());
    let (model, sha) = match &g.model {
        Some(m) => (m.clone(), None),
        None => listed_model(&g.model_url, key.as_deref()).await?,
    };
    let endpoint = |base_url: String, model: String, api_key: Option<String>| ModelEndpoint {
        base_url,
        model,
        api_key,
        timeout: Duration::from_secs(g.model_timeout),
        attempts: g.model_attempts,
    };
    let verifier_key = std::env::var(&g.verifier_key_env)
        .ok()
        .filter(|k| !k.is_empty())
        .or(key.clone());
    let verifier = endpoint(
        g.verifier_url
            .clone()
            .unwrap_or_else(|| g.model_url.clone()),
        g.verifier_model.clone().unwrap_or_else(|| model.clone()),
        verifier_key,
    );
    let fetcher = SourceFetcher::new(&g.allow_hosts, Duration::from_secs(g.fetch_timeout))
        .map_err(|e| OpError::input("--allow-host", e))?;
    let grader = Grader::new(
        endpoint(g.model_url.clone(), model.clone(), key),
        verifier,
        fetcher,
        sha,
        g.temperature_milli,
        g.count_model_judgment,
    );
    out.step(format!("grading with {model} at {}", g.model_url));
    let store = GradeStore::new(&g.dir);
    let progress = |l: &grade::GradeLine, i: usize, n: usize| {
        let what = match (l.status, l.quality_wad, &l.reason) {
            ("failed", _, Some(r)) => format!("failed: {r}"),
            (s, Some(q), _) => format!("{s}, q = {}", eden_operator::output::wad(q)),
            (s, ..) => s.to_string(),
        };
        let ms = if l.ms > 0 {
            format!(" in {:.1} s", l.ms as f64 / 1000.0)
        } else {
            String::new()
        };
        eprintln!("· [{i}/{n}] score #{}: {what}{ms}", l.score_id);
    };
    let r = grade::grade_all(&chain, &grader, &store, &progress).await?;
    out.done(&r, || {
        format!(
            "{} theses on chain: {} graded, {} failed (retried next run), {} graded before; configuration grader/{}.json",
            r.scored, r.graded, r.failed, r.kept, r.config
        )
    });
    Ok(())
}
