//! `eden epoch`: epochs built from attested inputs, signed, proposed, published and finalized (C5–C7).

use super::{connect, Cli};
use alloy::primitives::Address;
use clap::{Args, Subcommand};
use eden_operator::epoch::{self, BuildArgs, Expiry, Finalized, Proposed, SignedRoot};
use eden_operator::output::{eth, Out};
use eden_operator::{chain, config, OpError};
use std::path::PathBuf;

#[derive(Args)]
pub(crate) struct BuildCli {
    /// The epoch (default: the registry's next).
    #[arg(long)]
    epoch: Option<u64>,
    /// Track configurations: a JSON file, or preset names (agents,apps,research); only where the chain pins
    /// no scoring configuration for the epoch (C2a).
    #[arg(long, default_value = "agents,apps,research")]
    tracks: String,
    /// The whole scoring configuration (C2a, `eden config publish`): required, and must be the one in force,
    /// when the chain pins one for the epoch.
    #[arg(long, conflicts_with = "tracks")]
    config: Option<PathBuf>,
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
pub(crate) enum EpochCmd {
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
        /// Signature validity from the chain's head.
        #[arg(long, default_value_t = 72, conflicts_with = "expiry")]
        valid_hours: u64,
        /// Valid until this unix time instead: every member of a committee signs the same expiry (C7a).
        #[arg(long)]
        expiry: Option<u64>,
        /// Write here (default: signature.json beside the bundle).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Gathers committee members' signatures of one root and proposes it with the bond (C7a).
    Propose {
        /// A member's signed root (from `eden epoch sign`); repeat for each member, at least the
        /// committee's threshold.
        #[arg(long, required = true, num_args = 1..)]
        signature: Vec<PathBuf>,
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

/// Runs one `eden epoch` command.
pub(crate) async fn run(cli: &Cli, cmd: &EpochCmd, out: Out) -> Result<(), OpError> {
    match cmd {
        EpochCmd::Build(b) => {
            let chain = connect(cli, out, false).await?;
            out.step("reading source keys, submissions and re-fetches");
            let args = BuildArgs {
                epoch: b.epoch,
                tracks: b.tracks.clone(),
                config: b
                    .config
                    .as_deref()
                    .map(eden_operator::pinned::read)
                    .transpose()?,
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
        EpochCmd::Sign {
            bundle,
            proposer,
            valid_hours,
            expiry,
            out: file,
        } => {
            let key = chain::signer(cli.keystore.as_deref(), &cli.key_env)?;
            let chain = connect(cli, out, false).await?;
            let signed = epoch::sign(
                &chain,
                &key,
                bundle,
                *proposer,
                expiry.map_or(Expiry::For(valid_hours * 3600), Expiry::At),
            )
            .await?;
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
                    "epoch {} root {} signed by {} for proposer {} until {} → {}",
                    signed.epoch,
                    signed.root,
                    signed.member,
                    signed.proposer,
                    signed.expiry,
                    path.display()
                )
            });
        }
        EpochCmd::Propose { signature } => {
            let signed = signature
                .iter()
                .map(|p| config::load::<SignedRoot>(p))
                .collect::<Result<Vec<_>, _>>()?;
            let chain = connect(cli, out, true).await?;
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
        EpochCmd::Publish {
            bundle,
            intake,
            dir,
        } => {
            let intake = intake.clone().or_else(|| {
                let p = bundle.with_file_name("intake.json");
                p.is_file().then_some(p)
            });
            let r = epoch::publish(bundle, intake.as_deref(), dir)?;
            out.done(&r, || {
                let mut s = super::written_lines(&r.written, &r.unchanged);
                s += &format!(
                    "light packs: {} written, {} already published\n",
                    r.packs_written, r.packs_unchanged
                );
                s.trim_end().to_string()
            });
        }
        EpochCmd::Finalize { epoch: e } => {
            let chain = connect(cli, out, true).await?;
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
