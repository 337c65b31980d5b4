//! `eden watch`: the watchtower (C24).

use super::forever::{Pace, Said};
use super::{connect, Cli};
use clap::Args;
use eden_operator::output::{eth, Out};
use eden_operator::payout_audit;
use eden_operator::publication::Publications;
use eden_operator::watch::{self, Action, RootReport, WatchOpts};
use eden_operator::OpError;

#[derive(Args)]
pub(crate) struct WatchCli {
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
    let a = &r.approvers;
    let mut s = format!(
        "epoch {} root {} (deadline {}): {what}\n  approved by {} of the {} members of committee #{} (threshold {})",
        p.epoch,
        p.root,
        p.deadline,
        a.signed.len() + a.by_contract.len(),
        a.members,
        a.committee,
        a.threshold
    );
    for f in &a.faults {
        s += &format!("\n  approvals: {f}");
    }
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

/// Runs `eden watch`: one pass with `--once`, else until stopped.
pub(crate) async fn run(cli: &Cli, w: &WatchCli, out: Out) -> Result<(), OpError> {
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
    let mut pace = Pace::every(w.interval);
    // Each root's verdict is printed once, and again when the action changes.
    let mut said = Said::new();
    // Payout rounds in review are audited on every pass too (C18a), each verdict said once.
    let mut said_payouts = Said::new();
    loop {
        match watch::pass(&chain, &pubs, &opts, &mut memory).await {
            Ok(reports) => {
                pace.ok();
                for r in &reports {
                    let key = (r.proposal.epoch, r.proposal.root);
                    said.say(key, r, &watch_line(r), out.json, false);
                }
            }
            Err(e) => pace.failed("eden watch", &e),
        }
        match payout_audit::audit(&chain, &pubs, w.dry_run).await {
            Ok(rounds) => {
                for a in &rounds {
                    let key = (a.token, a.asset, a.epoch, a.root);
                    let line = super::payouts::audit_lines(std::slice::from_ref(a));
                    said_payouts.say(key, a, &line, out.json, false);
                }
            }
            Err(e) => pace.failed("eden watch (payouts)", &e),
        }
        pace.sleep().await;
    }
}
