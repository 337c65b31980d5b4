//! `eden payouts`: holder payout rounds (C18): a snapshot at a past block, posted and published.

use super::{connect, Cli};
use alloy::primitives::Address;
use clap::Subcommand;
use eden_operator::output::Out;
use eden_operator::payout_audit::{self, Action, RoundAudit, Verdict};
use eden_operator::payouts::{self, Posted, SnapshotArgs};
use eden_operator::{config, OpError};
use std::path::PathBuf;

#[derive(Subcommand)]
pub(crate) enum PayoutsCmd {
    /// Balances at block B from the token's Transfer logs (each checked against balanceOf at B), the
    /// deployment's own accounts and those listed on the distributor at B excluded, the allocation and the round's tree.
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
    /// Re-derives every round still in its 24 h review from the chain; revokes one that differs when this
    /// key is the distributor's guardian or owner, else reports it (C18a).
    Audit {
        /// Report only: never revoke.
        #[arg(long)]
        dry_run: bool,
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

/// Runs one `eden payouts` command.
pub(crate) async fn run(cli: &Cli, cmd: &PayoutsCmd, out: Out) -> Result<(), OpError> {
    match cmd {
        PayoutsCmd::Snapshot {
            token,
            block,
            epoch,
            total,
            asset,
            from_block,
            out: dir,
        } => {
            let chain = connect(cli, out, false).await?;
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
        PayoutsCmd::Post { snapshot } => {
            let snap = payouts::read_snapshot(snapshot)?;
            let chain = connect(cli, out, true).await?;
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
        PayoutsCmd::Audit { dry_run } => {
            // Anyone may audit: with no key, a wrong round is reported for the guardian.
            let has_key =
                cli.keystore.is_some() || std::env::var(&cli.key_env).is_ok_and(|k| !k.is_empty());
            let chain = connect(cli, out, has_key).await?;
            let pubs = eden_operator::publication::Publications::new(chain.net.publication_bases());
            let r = payout_audit::audit(&chain, &pubs, *dry_run).await?;
            out.done(&r, || audit_lines(&r));
        }
        PayoutsCmd::Publish { snapshot, dir } => {
            let snap = payouts::read_snapshot(snapshot)?;
            let r = payouts::publish(&snap, dir)?;
            out.done(&r, || {
                super::written_lines(&r.written, &r.unchanged)
                    .trim_end()
                    .to_string()
            });
        }
    }
    Ok(())
}

/// The audit for people: one line per round in review.
pub(crate) fn audit_lines(r: &[RoundAudit]) -> String {
    if r.is_empty() {
        return "no payout round is in its review".into();
    }
    r.iter()
        .map(|a| {
            let verdict = match &a.verdict {
                Verdict::Matches => "matches the chain".to_string(),
                Verdict::Awaited => "its snapshot is not published yet".to_string(),
                Verdict::Differs { reason } => format!("WRONG: {reason}"),
            };
            let action = match &a.action {
                Action::None => String::new(),
                Action::Revoked { sent } => format!("; revoked (tx {})", sent.tx),
                Action::WouldRevoke => "; would revoke (dry run)".into(),
                Action::Flagged => "; this key cannot revoke it: the guardian must".into(),
                Action::Failed { error } => format!("; the revoke FAILED: {error}"),
            };
            format!(
                "round {} of {} (asset {}) at block {}: {verdict}{action}",
                a.epoch, a.token, a.asset, a.snapshot_block
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}
