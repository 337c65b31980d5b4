//! `eden keep`: the keepers.

use super::forever::{Pace, Said};
use super::{connect, Cli};
use clap::Args;
use eden_operator::keep::{self, Done, Duty, KeepOpts, Outcome};
use eden_operator::output::{eth, Out};
use eden_operator::publication::Publications;
use eden_operator::OpError;

#[derive(Args)]
pub(crate) struct KeepCli {
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
    /// Where the payouts duty publishes each round's tree and snapshot (payouts/<root>.json and
    /// payouts/<root>.snapshot.json) before posting its root: the deployment's publication directory.
    #[arg(long, global = true)]
    payout_dir: Option<std::path::PathBuf>,
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

/// Runs `eden keep`: one pass with `--once` or a duty's name, else until stopped.
pub(crate) async fn run(cli: &Cli, k: &KeepCli, out: Out) -> Result<(), OpError> {
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
        payout_dir: k.payout_dir.clone(),
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
    let mut pace = Pace::every(k.interval);
    // What was last said about each (call, target), so a standing "not worth it" is said once; a sent
    // transaction is always said.
    let mut said = Said::new();
    loop {
        match keep::pass(&chain, &pubs, &opts, &mut memory).await {
            Ok(r) => {
                pace.ok();
                for d in &r.done {
                    let key = (d.call, d.target.clone());
                    said.say(key, d, &keep_line(d), out.json, d.sent());
                }
            }
            Err(e) => pace.failed("eden keep", &e),
        }
        pace.sleep().await;
    }
}
