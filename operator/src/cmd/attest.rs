//! `eden attest`: attestations, what a data source signs (C21).

use super::Cli;
use alloy::primitives::Address;
use clap::Subcommand;
use eden_core::attest::Attestation;
use eden_operator::output::Out;
use eden_operator::{attest, chain, config, OpError};
use std::path::PathBuf;

#[derive(Subcommand)]
pub(crate) enum AttestCmd {
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

/// Runs one `eden attest` command.
pub(crate) async fn run(cli: &Cli, cmd: &AttestCmd, out: Out) -> Result<(), OpError> {
    match cmd {
        AttestCmd::Sign {
            project,
            epoch,
            source,
            observed_at,
            metrics,
            out: file,
        } => {
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
        AttestCmd::SignBatch { input, out: file } => {
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
    }
    Ok(())
}
