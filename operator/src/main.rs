//! `eden`: the operator's command-line tool. See `eden --help` and `eden <command> --help`.

use alloy::primitives::Address;
use clap::{Args, Parser, Subcommand};
use eden_core::attest::Attestation;
use eden_operator::chain::{self, Chain, DEFAULT_KEY_ENV};
use eden_operator::epoch::{self, BuildArgs, Finalized, Proposed, SignedRoot};
use eden_operator::keep::{self, Done, Duty, KeepOpts, Outcome};
use eden_operator::output::{eth, Out};
use eden_operator::payouts::{self, Posted, SnapshotArgs};
use eden_operator::publication::Publications;
use eden_operator::watch::{self, Action, RootReport, WatchOpts};
use eden_operator::{attest, config, OpError};
use std::path::PathBuf;
use std::process::ExitCode;

/// The Eden operator's tool: verified inputs, epochs built, signed, proposed, published and finalized.
///
/// Keys are never flags: a private key comes from the environment variable named by --key-env (default
/// EDEN_PRIVATE_KEY), or from --keystore FILE with its password in EDEN_KEYSTORE_PASSWORD.
#[derive(Parser)]
#[command(name = "eden", version, propagate_version = true)]
struct Cli {
    /// Print the result as JSON on stdout (progress stays on stderr).
    #[arg(long, global = true)]
    json: bool,
    /// The deployment's network description (eden-network-v1).
    #[arg(
        long,
        global = true,
        env = "EDEN_NETWORK",
        default_value = ".eden/network-31337.json"
    )]
    network: PathBuf,
    /// JSON-RPC URL (default: the network description's first).
    #[arg(long, global = true)]
    rpc_url: Option<String>,
    /// Publication base URL to read from instead of the network description's (repeat for several).
    #[arg(long = "publications", global = true)]
    publications: Vec<String>,
    /// Blocks per eth_getLogs request (a range the node refuses is halved and asked again).
    #[arg(long, global = true, default_value_t = chain::LOG_BLOCKS, value_parser = clap::value_parser!(u64).range(1..))]
    log_blocks: u64,
    /// A keystore file (password in EDEN_KEYSTORE_PASSWORD).
    #[arg(long, global = true)]
    keystore: Option<PathBuf>,
    /// The environment variable holding the private key.
    #[arg(long, global = true, default_value = DEFAULT_KEY_ENV)]
    key_env: String,
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Attestations (what a data source signs, C21).
    #[command(subcommand)]
    Attest(AttestCmd),
    /// A project's source keys in the SourceKeyRegistry (C21).
    #[command(subcommand)]
    Keys(KeysCmd),
    /// Epochs: build, sign, propose, publish, finalize (C5–C7).
    #[command(subcommand)]
    Epoch(EpochCmd),
    /// The watchtower: checks every pending root against its publication and challenges a wrong one with
    /// the bond before its window closes (C24). A correct root is left alone; nothing is challenged twice.
    Watch(WatchCli),
    /// Holder payout rounds (C18): a snapshot at a past block, posted and published.
    #[command(subcommand)]
    Payouts(PayoutsCmd),
    /// The keepers: finalize roots, record scores in the fee lanes, collect and pull fees, sweep, roll over
    /// payout rounds, settle idle duel rounds, expire stale commits, each when due (and, where it moves ETH,
    /// worth its gas). Runs until stopped; `--once` or a duty's name does one pass.
    Keep(KeepCli),
    /// Grades every thesis scored on chain that has no graded record yet (C8): copy check, sources fetched
    /// and snapshotted, grounding G by code, injection screening, three rubric samples and the verifier
    /// from an OpenAI-compatible model; one grading record per thesis in the publication directory.
    Grade(GradeCli),
}

#[derive(Args)]
struct GradeCli {
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

#[derive(Args)]
struct KeepCli {
    /// One duty, one pass (default: every duty, until stopped).
    #[command(subcommand)]
    duty: Option<Duty>,
    /// One pass over every duty, then exit.
    #[arg(long, global = true)]
    once: bool,
    /// Seconds between passes.
    #[arg(long, global = true, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..))]
    interval: u64,
    /// Simulate and report only: never send a transaction (no key needed).
    #[arg(long, global = true)]
    dry_run: bool,
    /// Send an ETH-moving call only when the ETH it moves is at least this many times its gas cost.
    #[arg(long, global = true, default_value_t = 2)]
    min_gain: u64,
    /// Slippage allowed on a liquidity sweep's swap, in basis points below its simulated output.
    #[arg(long, global = true, default_value_t = 100, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    slippage_bps: u64,
}

#[derive(Subcommand)]
enum PayoutsCmd {
    /// Balances at block B from the token's Transfer logs (each checked against balanceOf at B), the
    /// deployment's and configured exclusions, the allocation and the round's tree.
    Snapshot {
        /// The token whose holders are paid.
        #[arg(long)]
        token: Address,
        /// The snapshot block b (a past block).
        #[arg(long)]
        block: u64,
        /// The round's epoch.
        #[arg(long)]
        epoch: u64,
        /// The round's total T, in the asset's smallest unit (wei).
        #[arg(long)]
        total: alloy::primitives::U256,
        /// The asset paid (default 0x0: ETH).
        #[arg(long, default_value_t = Address::ZERO)]
        asset: Address,
        /// An escrow, vesting lock or vault to exclude (repeat).
        #[arg(long)]
        exclude: Vec<Address>,
        /// Read the token's logs from this block (default: the deployment block).
        #[arg(long)]
        from_block: Option<u64>,
        /// Output directory (snapshot.json, tree.json).
        #[arg(long)]
        out: PathBuf,
    },
    /// Posts a snapshot's root to the HolderDistributor (its poster's key).
    Post {
        /// The snapshot (from `eden payouts snapshot`).
        #[arg(long)]
        snapshot: PathBuf,
    },
    /// Writes payouts/<root>.json (the tree, OpenZeppelin standard-v1 dump) and payouts/<root>.snapshot.json.
    Publish {
        /// The snapshot.
        #[arg(long)]
        snapshot: PathBuf,
        /// The publication directory.
        #[arg(long)]
        dir: PathBuf,
    },
}

#[derive(Args)]
struct WatchCli {
    /// One pass over the pending roots, then exit (default: run until stopped).
    #[arg(long)]
    once: bool,
    /// Seconds between passes.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..))]
    interval: u64,
    /// Check and report only: never send a transaction (no key needed).
    #[arg(long)]
    dry_run: bool,
    /// Seconds after a proposal during which a missing publication is awaited rather than challenged.
    #[arg(long, default_value_t = 3600)]
    publication_grace: u64,
    /// Re-ask this OpenAI-compatible model (base URL ending in /v1; the pinned model, e.g. the embedded one)
    /// every answer a grading record says it gave, and report the ones that differ (never challenged).
    #[arg(long)]
    rerun_model: Option<String>,
}

#[derive(Subcommand)]
enum AttestCmd {
    /// Signs one attestation: one project, source and epoch, every metric of that source.
    Sign {
        /// The project.
        #[arg(long)]
        project: Address,
        /// The epoch.
        #[arg(long)]
        epoch: u64,
        /// The source's name (as registered).
        #[arg(long)]
        source: String,
        /// When the data was observed (unix seconds; default now).
        #[arg(long)]
        observed_at: Option<u64>,
        /// A metric, name=value (repeat).
        #[arg(long = "metric", required = true)]
        metrics: Vec<String>,
        /// Write here (default stdout).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Signs every attestation in a JSON array (the wire form without signatures) with one key.
    SignBatch {
        /// The unsigned attestations.
        #[arg(long)]
        input: PathBuf,
        /// Where the signed array goes.
        #[arg(long)]
        out: PathBuf,
    },
}

#[derive(Subcommand)]
enum KeysCmd {
    /// Registers a source key for a project (sent by the project's controller).
    Register {
        /// The project.
        #[arg(long)]
        project: Address,
        /// The source's name.
        #[arg(long)]
        source: String,
        /// The key's address.
        #[arg(long)]
        key: Address,
    },
    /// Revokes a key (by the project's controller or the key itself).
    Revoke {
        /// The project.
        #[arg(long)]
        project: Address,
        /// The key's address.
        #[arg(long)]
        key: Address,
    },
}

#[derive(Args)]
struct BuildCli {
    /// The epoch (default: the registry's next).
    #[arg(long)]
    epoch: Option<u64>,
    /// Track configurations: a JSON file, or preset names (agents,apps,research).
    #[arg(long, default_value = "agents,apps,research")]
    tracks: String,
    /// The intake configuration (sources, their metrics and tolerances, output features).
    #[arg(long)]
    intake: PathBuf,
    /// Directory of submission files (one JSON per project).
    #[arg(long)]
    submissions: PathBuf,
    /// Re-fetch adapters (JSON).
    #[arg(long)]
    refetch: Option<PathBuf>,
    /// The latest final epoch's bundle (its scores are s(t-1)), JSON or compact (`epochs/<root>.msgpack`).
    #[arg(long)]
    previous: Option<PathBuf>,
    /// The publication directory `eden grade` wrote its grading records into. The theses that count
    /// (C9a, C10a) are read from the chain; each takes its grade in force from the adjudicator's override or
    /// from its record here (C8, C9b), bound to it by a grade leaf in inputsRoot.
    #[arg(long)]
    grades: Option<PathBuf>,
    /// Snapshot time (default: the latest block's timestamp).
    #[arg(long)]
    snapshot: Option<u64>,
    /// Output directory (bundle.json, intake.json, private/).
    #[arg(long)]
    out: PathBuf,
}

#[derive(Subcommand)]
enum EpochCmd {
    /// Builds the epoch from attested inputs: signatures, key registry, re-fetches, scores, tree.
    Build(BuildCli),
    /// Signs a bundle's root (EIP-712, C6) for a proposer.
    Sign {
        /// The bundle (JSON or compact).
        #[arg(long)]
        bundle: PathBuf,
        /// The proposer the signature names (default: the signer itself).
        #[arg(long)]
        proposer: Option<Address>,
        /// Signature validity.
        #[arg(long, default_value_t = 72)]
        valid_hours: u64,
        /// Write here (default: signature.json beside the bundle).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Proposes a signed root with the bond.
    Propose {
        /// The signed root (from `eden epoch sign`).
        #[arg(long)]
        signature: PathBuf,
    },
    /// Writes the publication layout into a directory any static host can serve: the bundle and the intake
    /// report in JSON and compact MessagePack (C23), and every project's and track's light pack (C22).
    Publish {
        /// The bundle (JSON or compact).
        #[arg(long)]
        bundle: PathBuf,
        /// The intake report, JSON or compact (default: intake.json beside the bundle, if present).
        #[arg(long)]
        intake: Option<PathBuf>,
        /// The publication directory.
        #[arg(long)]
        dir: PathBuf,
    },
    /// Finalizes a pending root whose challenge window has passed.
    Finalize {
        /// The epoch.
        #[arg(long)]
        epoch: u64,
    },
}

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    let out = Out { json: cli.json };
    match run(cli, out).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if out.json {
                println!("{}", serde_json::json!({ "error": e.to_string() }));
            }
            eprintln!("eden: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn connect(cli: &Cli, out: Out, with_key: bool) -> Result<Chain, OpError> {
    let mut net = config::network(&cli.network)?;
    if !cli.publications.is_empty() {
        net.publications = cli.publications.clone();
        net.validate()
            .map_err(|e| OpError::input("--publications", e))?;
    }
    let key = if with_key {
        Some(chain::signer(cli.keystore.as_deref(), &cli.key_env)?)
    } else {
        None
    };
    out.step(format!("chain {} ({})", net.chain_id, net.name));
    let mut chain = Chain::connect(net, cli.rpc_url.as_deref(), key).await?;
    chain.log_blocks = cli.log_blocks;
    Ok(chain)
}

/// A watchtower report for people: one line, and the first reason when the root is wrong.
fn watch_line(r: &RootReport) -> String {
    let p = &r.proposal;
    let what = match &r.action {
        Action::LeftAlone => "correct, left alone".to_string(),
        Action::Challenged { sent, bond } => format!(
            "WRONG, challenged with {} ETH (tx {}, gas {})",
            eth(*bond),
            sent.tx,
            sent.gas_used
        ),
        Action::WouldChallenge => "WRONG, would challenge (dry run or no key)".into(),
        Action::AlreadyChallenged => "WRONG, already challenged by this account".into(),
        Action::ChallengeLimit => "WRONG, but its challenges are used up".into(),
        Action::AwaitingPublication { until } => {
            format!("publication not there yet; awaited until {until}")
        }
        Action::TransactionPending => {
            "WRONG, but a transaction of this account is pending; next pass".into()
        }
    };
    let mut s = format!(
        "epoch {} root {} (deadline {}): {what}",
        p.epoch, p.root, p.deadline
    );
    if let Some(a) = &r.audit {
        let t = &r.timings;
        s += &format!(
            "\n  {} projects ({} recomputed), {} theses, {} human; {} signatures in {} ms; fetch {} ms, audit {} ms, report wait {} ms, intake {} ms",
            a.projects, a.recomputed, a.theses, a.human, t.signatures, t.signature_ms, t.fetch_ms, t.audit_ms, t.report_wait_ms, t.intake_ms
        );
        if a.findings.len() > 1 || a.omitted > 0 {
            s += &format!("\n  {} findings", a.findings.len() + a.omitted);
        }
    }
    if r.is_wrong() {
        if let Some(why) = r.first_reason() {
            s += &format!("\n  first: {why}");
        }
    }
    s
}

async fn run_watch(cli: &Cli, w: &WatchCli, out: Out) -> Result<(), OpError> {
    let chain = connect(cli, out, !w.dry_run).await?;
    let pubs = Publications::new(chain.net.publication_bases());
    let opts = WatchOpts {
        dry_run: w.dry_run,
        publication_grace: w.publication_grace,
        rerun_model: w
            .rerun_model
            .as_ref()
            .map(|url| eden_operator::grade::model::ModelEndpoint {
                base_url: url.clone(),
                model: "pinned".into(),
                api_key: std::env::var("EDEN_GRADER_API_KEY")
                    .ok()
                    .filter(|k| !k.is_empty()),
                timeout: std::time::Duration::from_secs(120),
                attempts: 3,
            }),
    };
    let mut memory = watch::Memory::default();
    if w.once {
        let reports = watch::pass(&chain, &pubs, &opts, &mut memory).await?;
        out.done(&reports, || {
            if reports.is_empty() {
                "no pending root".into()
            } else {
                reports
                    .iter()
                    .map(watch_line)
                    .collect::<Vec<_>>()
                    .join("\n")
            }
        });
        return Ok(());
    }
    out.step(format!(
        "watching {} every {} s{}",
        chain.net.contracts.epoch_registry,
        w.interval,
        if w.dry_run { " (dry run)" } else { "" }
    ));
    let mut backoff = w.interval;
    let mut last: std::collections::HashMap<(u64, alloy::primitives::B256), String> =
        Default::default();
    loop {
        match watch::pass(&chain, &pubs, &opts, &mut memory).await {
            Ok(reports) => {
                backoff = w.interval;
                for r in &reports {
                    // Each root's verdict is printed once, and again when the action changes.
                    let line = watch_line(r);
                    let key = (r.proposal.epoch, r.proposal.root);
                    if last.get(&key) != Some(&line) {
                        if out.json {
                            println!("{}", serde_json::to_string(r).unwrap_or_default());
                        } else {
                            println!("{line}");
                        }
                        last.insert(key, line);
                    }
                }
            }
            Err(e) => {
                backoff = (backoff * 2).min(600);
                eprintln!("eden watch: {e}; next try in {backoff} s");
            }
        }
        tokio::time::sleep(std::time::Duration::from_secs(backoff)).await;
    }
}

/// A keeper action for people: one line.
fn keep_line(d: &Done) -> String {
    let what = match &d.outcome {
        Outcome::Sent { sent } => format!("done (tx {}, gas {})", sent.tx, sent.gas_used),
        Outcome::WouldSend => "due; not sent (dry run or no key)".into(),
        Outcome::NotWorthIt { amount, cost } => format!(
            "not worth it yet: moves {} ETH for {} ETH of gas",
            eth(*amount),
            eth(*cost)
        ),
        Outcome::WouldRevert { reason } => format!("not sent: it would revert ({reason})"),
        Outcome::Unavailable { reason } => format!("not possible now: {reason}"),
        Outcome::Failed { error } => format!("FAILED: {error}"),
    };
    format!("{} {}: {what}; because {}", d.call, d.target, d.why)
}

async fn run_keep(cli: &Cli, k: &KeepCli, out: Out) -> Result<(), OpError> {
    let chain = connect(cli, out, !k.dry_run).await?;
    let pubs = Publications::new(chain.net.publication_bases());
    let opts = KeepOpts {
        dry_run: k.dry_run,
        min_gain: k.min_gain,
        slippage_bps: k.slippage_bps,
        duties: match k.duty {
            Some(d) => vec![d],
            None => Duty::ALL.to_vec(),
        },
    };
    let mut memory = keep::Memory::default();
    if k.once || k.duty.is_some() {
        let r = keep::pass(&chain, &pubs, &opts, &mut memory).await?;
        out.done(&r, || {
            if r.transaction_pending {
                "a transaction of this account is pending: nothing done".into()
            } else if r.done.is_empty() {
                "nothing due".into()
            } else {
                r.done.iter().map(keep_line).collect::<Vec<_>>().join("\n")
            }
        });
        return Ok(());
    }
    out.step(format!(
        "keeping {} every {} s{}",
        chain.net.name,
        k.interval,
        if k.dry_run { " (dry run)" } else { "" }
    ));
    let mut backoff = k.interval;
    // What was last said about each (call, target), so a standing "not worth it" is said once.
    let mut last: std::collections::HashMap<(&'static str, String), String> = Default::default();
    loop {
        match keep::pass(&chain, &pubs, &opts, &mut memory).await {
            Ok(r) => {
                backoff = k.interval;
                for d in &r.done {
                    let line = keep_line(d);
                    let key = (d.call, d.target.clone());
                    if d.sent() || last.get(&key) != Some(&line) {
                        if out.json {
                            println!("{}", serde_json::to_string(d).unwrap_or_default());
                        } else {
                            println!("{line}");
                        }
                        last.insert(key, line);
                    }
                }
            }
            Err(e) => {
                backoff = (backoff * 2).min(600);
                eprintln!("eden keep: {e}; next try in {backoff} s");
            }
        }
        tokio::time::sleep(std::time::Duration::from_secs(backoff)).await;
    }
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

async fn run_grade(cli: &Cli, g: &GradeCli, out: Out) -> Result<(), OpError> {
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

async fn run(cli: Cli, out: Out) -> Result<(), OpError> {
    match &cli.cmd {
        Cmd::Watch(w) => run_watch(&cli, w, out).await?,
        Cmd::Keep(k) => run_keep(&cli, k, out).await?,
        Cmd::Grade(g) => run_grade(&cli, g, out).await?,
        Cmd::Payouts(PayoutsCmd::Snapshot {
            token,
            block,
            epoch,
            total,
            asset,
            exclude,
            from_block,
            out: dir,
        }) => {
            let chain = connect(&cli, out, false).await?;
            out.step(format!(
                "reading {token}'s Transfer logs up to block {block}"
            ));
            let (snap, tree) = payouts::snapshot(
                &chain,
                &SnapshotArgs {
                    token: *token,
                    asset: *asset,
                    epoch: *epoch,
                    total: *total,
                    block: *block,
                    from_block: *from_block,
                    exclude: exclude.clone(),
                },
            )
            .await?;
            config::write(
                &dir.join("snapshot.json"),
                serde_json::to_vec_pretty(&snap).map_err(|e| OpError::input("snapshot", e))?,
            )?;
            config::write(
                &dir.join("tree.json"),
                serde_json::to_vec(&tree.dump()).map_err(|e| OpError::input("tree", e))?,
            )?;
            out.done(&snap, || {
                let mut s = format!(
                    "round {} of {token} at block {block}: {} holders, root {}\n  total {} allocated {} dust {} (eligible supply {})",
                    snap.epoch, snap.holders.len(), snap.root, snap.total, snap.allocated, snap.dust, snap.eligible_supply
                );
                for e in snap.excluded.iter().filter(|e| !e.balance.is_zero()) {
                    s += &format!("\n  excluded {} ({}): {}", e.account, e.role, e.balance);
                }
                s += &format!("\n  wrote {}", dir.join("snapshot.json").display());
                s
            });
        }
        Cmd::Payouts(PayoutsCmd::Post { snapshot }) => {
            let snap = payouts::read_snapshot(snapshot)?;
            let chain = connect(&cli, out, true).await?;
            let r = payouts::post(&chain, &snap).await?;
            out.done(&r, || match &r {
                Posted::Posted { epoch, sent } => format!(
                    "round {epoch} posted (tx {}, gas {}); claimable after the 24 h review",
                    sent.tx, sent.gas_used
                ),
                Posted::AlreadyPosted { epoch } => {
                    format!("round {epoch} already has this root; nothing sent")
                }
            });
        }
        Cmd::Payouts(PayoutsCmd::Publish { snapshot, dir }) => {
            let snap = payouts::read_snapshot(snapshot)?;
            let r = payouts::publish(&snap, dir)?;
            out.done(&r, || {
                let mut s = String::new();
                for w in &r.written {
                    s += &format!("wrote {}\n", w.display());
                }
                for w in &r.unchanged {
                    s += &format!("already published {}\n", w.display());
                }
                s.trim_end().to_string()
            });
        }
        Cmd::Attest(AttestCmd::Sign {
            project,
            epoch,
            source,
            observed_at,
            metrics,
            out: file,
        }) => {
            let net = config::network(&cli.network)?;
            let reg = net.contracts.source_key_registry.ok_or_else(|| {
                OpError::Refused("the network description has no sourceKeyRegistry".into())
            })?;
            let key = chain::signer(cli.keystore.as_deref(), &cli.key_env)?;
            let metrics = metrics
                .iter()
                .map(|m| attest::parse_metric(m))
                .collect::<Result<Vec<_>, _>>()?;
            let observed = observed_at.unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_secs())
                    .unwrap_or(0)
            });
            let signed = attest::sign(
                &key,
                net.chain_id,
                reg,
                Attestation {
                    project: *project,
                    epoch: *epoch,
                    source: source.clone(),
                    observedAt: observed,
                    metrics,
                },
            )?;
            match file {
                Some(f) => {
                    config::write(f, signed.to_json())?;
                    out.done(&serde_json::json!({ "written": f, "signer": key.address() }), || {
                        format!("attestation for {project} (epoch {epoch}, {source}) signed by {} → {}", key.address(), f.display())
                    });
                }
                None => println!("{}", signed.to_json()),
            }
        }
        Cmd::Attest(AttestCmd::SignBatch { input, out: file }) => {
            let net = config::network(&cli.network)?;
            let reg = net.contracts.source_key_registry.ok_or_else(|| {
                OpError::Refused("the network description has no sourceKeyRegistry".into())
            })?;
            let key = chain::signer(cli.keystore.as_deref(), &cli.key_env)?;
            let unsigned: Vec<attest::Unsigned> = config::load(input)?;
            let signed = unsigned
                .iter()
                .enumerate()
                .map(|(i, u)| attest::sign(&key, net.chain_id, reg, u.typed(i)?))
                .collect::<Result<Vec<_>, _>>()?;
            config::write(
                file,
                &serde_json::to_string(&signed).map_err(|e| OpError::input("attestations", e))?,
            )?;
            out.done(
                &serde_json::json!({ "written": file, "signed": signed.len(), "signer": key.address() }),
                || format!("{} attestations signed by {} → {}", signed.len(), key.address(), file.display()),
            );
        }
        Cmd::Keys(k) => {
            let chain = connect(&cli, out, true).await?;
            match k {
                KeysCmd::Register {
                    project,
                    source,
                    key,
                } => {
                    let sent = attest::register(&chain, *project, source, *key).await?;
                    out.done(&sent, || {
                        format!(
                            "registered {key} for {source} of {project} (tx {}, block {}, gas {})",
                            sent.tx, sent.block, sent.gas_used
                        )
                    });
                }
                KeysCmd::Revoke { project, key } => {
                    let sent = attest::revoke(&chain, *project, *key).await?;
                    out.done(&sent, || {
                        format!(
                            "revoked {key} for {project} (tx {}, block {})",
                            sent.tx, sent.block
                        )
                    });
                }
            }
        }
        Cmd::Epoch(EpochCmd::Build(b)) => {
            let chain = connect(&cli, out, false).await?;
            out.step("reading source keys, submissions and re-fetches");
            let args = BuildArgs {
                epoch: b.epoch,
                tracks: b.tracks.clone(),
                intake: b.intake.clone(),
                submissions: b.submissions.clone(),
                refetch: b.refetch.clone(),
                previous: b.previous.clone(),
                grades: b.grades.clone(),
                snapshot: b.snapshot,
                out: b.out.clone(),
            };
            let r = epoch::build(&chain, &args).await?;
            out.done(&r, || {
                let mut s = format!(
                    "epoch {}: {} projects, root {}\n  claims: {} used, {} failed, {} not claims; {} signatures checked in {} ms; built in {} ms",
                    r.epoch, r.projects, r.root, r.claims_used, r.claims_failed, r.claims_ignored, r.signatures, r.signature_ms, r.build_ms
                );
                if let Some(a) = r.human_as_of {
                    s += &format!(
                        "\n  theses: {} counting at block {} ({} by the adjudicator's override), {} pre-data projects",
                        r.theses_graded, a.block, r.theses_overridden, r.pre_data
                    );
                    if !r.theses_waiting.is_empty() {
                        s += &format!("; waiting for an epoch with their project: #{}", r.theses_waiting.join(", #"));
                    }
                }
                for (p, why) in &r.failures {
                    s += &format!("\n  failed: {p}: {why}");
                }
                for f in &r.bad_files {
                    s += &format!("\n  unreadable submission {}: {}", f.file.display(), f.error);
                }
                for (p, v) in &r.verified_from_chain {
                    s += &format!(
                        "\n  pre-data {p}: {} in FeeLanes (the adjudicator's badge), used instead of the file's flag",
                        if *v { "Verified" } else { "not Verified" }
                    );
                }
                for w in &r.written {
                    s += &format!("\n  wrote {}", w.display());
                }
                s
            });
        }
        Cmd::Epoch(EpochCmd::Sign {
            bundle,
            proposer,
            valid_hours,
            out: file,
        }) => {
            let key = chain::signer(cli.keystore.as_deref(), &cli.key_env)?;
            let chain = connect(&cli, out, false).await?;
            let signed = epoch::sign(&chain, &key, bundle, *proposer, valid_hours * 3600).await?;
            let path = file
                .clone()
                .unwrap_or_else(|| bundle.with_file_name("signature.json"));
            config::write(
                &path,
                &serde_json::to_string_pretty(&signed)
                    .map_err(|e| OpError::input("signature", e))?,
            )?;
            out.done(&signed, || {
                format!(
                    "epoch {} root {} signed for proposer {} until {} → {}",
                    signed.epoch,
                    signed.root,
                    signed.proposer,
                    signed.expiry,
                    path.display()
                )
            });
        }
        Cmd::Epoch(EpochCmd::Propose { signature }) => {
            let signed: SignedRoot = config::load(signature)?;
            let chain = connect(&cli, out, true).await?;
            let r = epoch::propose(&chain, &signed).await?;
            out.done(&r, || match &r {
                Proposed::Proposed { epoch, bond, sent, deadline } => format!(
                    "epoch {epoch} proposed with a bond of {} ETH (tx {}, gas {}); challengeable until {deadline}",
                    eth(*bond), sent.tx, sent.gas_used
                ),
                Proposed::AlreadyProposed { epoch, block } => {
                    format!("epoch {epoch}: this root was already proposed (block {block}); nothing sent")
                }
            });
        }
        Cmd::Epoch(EpochCmd::Publish {
            bundle,
            intake,
            dir,
        }) => {
            let intake = intake.clone().or_else(|| {
                let p = bundle.with_file_name("intake.json");
                p.is_file().then_some(p)
            });
            let r = epoch::publish(bundle, intake.as_deref(), dir)?;
            out.done(&r, || {
                let mut s = String::new();
                for w in &r.written {
                    s += &format!("wrote {}\n", w.display());
                }
                for w in &r.unchanged {
                    s += &format!("already published {}\n", w.display());
                }
                s += &format!(
                    "light packs: {} written, {} already published\n",
                    r.packs_written, r.packs_unchanged
                );
                s.trim_end().to_string()
            });
        }
        Cmd::Epoch(EpochCmd::Finalize { epoch: e }) => {
            let chain = connect(&cli, out, true).await?;
            let r = epoch::finalize(&chain, *e).await?;
            out.done(&r, || match &r {
                Finalized::Finalized { epoch, sent } => format!(
                    "epoch {epoch} final (tx {}, gas {})",
                    sent.tx, sent.gas_used
                ),
                Finalized::AlreadyFinal { epoch } => {
                    format!("epoch {epoch} is already final; nothing sent")
                }
            });
        }
    }
    Ok(())
}
