//! `eden payouts`: holder payout rounds (C18): a snapshot at a past block, posted and published.

use super::{connect, Cli};
use alloy::primitives::Address;
use clap::Subcommand;
use eden_operator::output::Out;
use eden_operator::payouts::{self, Posted, SnapshotArgs};
use eden_operator::{config, OpError};
use std::path::PathBuf;

#[derive(Subcommand)]
pub(crate) enum PayoutsCmd {
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

/// Runs one `eden payouts` command.
pub(crate) async fn run(cli: &Cli, cmd: &PayoutsCmd, out: Out) -> Result<(), OpError> {
    match cmd {
        PayoutsCmd::Snapshot {
            token,
            block,
            epoch,
            total,
            asset,
            exclude,
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
