//! `eden config`: the scoring configuration published by its hash and pinned on chain (C2a).

use super::{connect, Cli};
use clap::Subcommand;
use eden_operator::output::Out;
use eden_operator::pinned::{self, Pinned};
use eden_operator::OpError;
use std::path::PathBuf;

#[derive(Subcommand)]
pub(crate) enum ConfigCmd {
    /// Validates a scoring configuration and writes its canonical bytes as `config/<hash>.json` under a
    /// publication directory; prints the hash the chain pins.
    Publish {
        /// The configuration (`eden-scoring-config-v1`: version, tracks, the grader's configuration hash).
        #[arg(long)]
        config: PathBuf,
        /// The publication directory.
        #[arg(long)]
        dir: PathBuf,
    },
    /// Pins the configuration on the epoch registry from an epoch on (sent when this key is the owner; under
    /// the timelock, prints the call to schedule).
    Pin {
        /// The configuration.
        #[arg(long)]
        config: PathBuf,
        /// The first epoch it applies to (not yet proposed).
        #[arg(long)]
        first_epoch: u64,
    },
}

/// Runs one `eden config` command.
pub(crate) async fn run(cli: &Cli, c: &ConfigCmd, out: Out) -> Result<(), OpError> {
    match c {
        ConfigCmd::Publish { config, dir } => {
            let cfg = pinned::read(config)?;
            let p = pinned::publish(&cfg, dir)?;
            out.done(&p, || {
                format!(
                    "configuration version {} is {} → {}{}",
                    p.version,
                    p.hash,
                    p.path.display(),
                    if p.written {
                        ""
                    } else {
                        " (already published)"
                    }
                )
            });
        }
        ConfigCmd::Pin {
            config,
            first_epoch,
        } => {
            let cfg = pinned::read(config)?;
            let chain = connect(cli, out, true).await?;
            let r = pinned::pin(&chain, &cfg, *first_epoch).await?;
            out.done(&r, || match &r {
                Pinned::Pinned {
                    hash,
                    version,
                    first_epoch,
                    sent,
                } => format!(
                    "configuration version {version} ({hash}) pinned from epoch {first_epoch} (tx {}, gas {})",
                    sent.tx, sent.gas_used
                ),
                Pinned::Schedule {
                    owner,
                    target,
                    calldata,
                } => format!(
                    "this key is not the registry's owner ({owner}): schedule this call through it (48 h)\n  to {target}\n  data {calldata}"
                ),
            });
        }
    }
    Ok(())
}
