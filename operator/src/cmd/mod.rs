//! The `eden` commands, one module each with its arguments and `run()` (the way foundry's `cast/src/cmd/`
//! is laid out), and [`forever`], the pacing the long-running ones share.

mod attest;
mod epoch;
mod forever;
mod grade;
mod keep;
mod keys;
mod payouts;
mod pin;
mod watch;

use attest::AttestCmd;
use clap::{Parser, Subcommand};
use eden_operator::chain::{self, Chain, DEFAULT_KEY_ENV};
use eden_operator::output::Out;
use eden_operator::{config, OpError};
use epoch::EpochCmd;
use grade::GradeCli;
use keep::KeepCli;
use keys::KeysCmd;
use payouts::PayoutsCmd;
use std::path::PathBuf;
use watch::WatchCli;

/// The Eden operator's tool: verified inputs, epochs built, signed, proposed, published and finalized.
///
/// Keys are never flags: a private key comes from the environment variable named by --key-env (default
/// EDEN_PRIVATE_KEY), or from --keystore FILE with its password in EDEN_KEYSTORE_PASSWORD.
#[derive(Parser)]
#[command(name = "eden", version, propagate_version = true)]
pub(crate) struct Cli {
    /// Print the result as JSON on stdout (progress stays on stderr).
    #[arg(long, global = true)]
    pub(crate) json: bool,
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
    /// eth_getLogs requests of one scan in flight at once (1 to 16).
    #[arg(long, global = true, default_value_t = eden_chain::logs::DEFAULT_LOG_REQUESTS as u64, value_parser = clap::value_parser!(u64).range(1..=eden_chain::logs::MAX_LOG_REQUESTS as u64))]
    log_requests: u64,
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
pub(crate) enum Cmd {
    /// Attestations (what a data source signs, C21).
    #[command(subcommand)]
    Attest(AttestCmd),
    /// A project's source keys in the SourceKeyRegistry (C21).
    #[command(subcommand)]
    Keys(KeysCmd),
    /// Epochs: build, sign, propose, publish, finalize (C5–C7).
    #[command(subcommand)]
    Epoch(EpochCmd),
    /// The scoring configuration: published by its hash, pinned on chain with a version and first epoch (C2a).
    #[command(subcommand)]
    Config(pin::ConfigCmd),
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

/// The chain of the network description (or `--rpc-url`), with the operator's key when `with_key`.
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
    chain.log_requests = usize::try_from(cli.log_requests).unwrap_or(1);
    Ok(chain)
}

/// What a publish wrote and what was already there, a line each.
fn written_lines(written: &[PathBuf], unchanged: &[PathBuf]) -> String {
    let mut s = String::new();
    for w in written {
        s += &format!("wrote {}\n", w.display());
    }
    for w in unchanged {
        s += &format!("already published {}\n", w.display());
    }
    s
}

/// Runs the command `cli` names.
pub(crate) async fn run(cli: Cli, out: Out) -> Result<(), OpError> {
    match &cli.cmd {
        Cmd::Watch(w) => watch::run(&cli, w, out).await,
        Cmd::Keep(k) => keep::run(&cli, k, out).await,
        Cmd::Grade(g) => grade::run(&cli, g, out).await,
        Cmd::Payouts(p) => payouts::run(&cli, p, out).await,
        Cmd::Attest(a) => attest::run(&cli, a, out).await,
        Cmd::Keys(k) => keys::run(&cli, k, out).await,
        Cmd::Epoch(e) => epoch::run(&cli, e, out).await,
        Cmd::Config(c) => pin::run(&cli, c, out).await,
    }
}
