//! `eden payouts audit` (C18a): every holder payout round still in its 24 h review, re-derived from the chain
//! and compared with what was posted; the guardian revokes a round that differs, anyone else flags it.
//!
//! For each round posted to the distributor that is neither settled nor open yet:
//! 1. its published snapshot (`payouts/<root>.snapshot.json`) is fetched; a round still unpublished
//!    [`PUBLICATION_GRACE`] after it was posted is wrong (nobody can check it);
//! 2. the round is re-derived: the token's balances at the round's recorded snapshot block from its
//!    `Transfer` logs (each checked against `balanceOf`), the deployment's own accounts and the accounts listed
//!    on the distributor at that block excluded, the round's total allocated ([`crate::payouts::snapshot`]);
//!    its root must be the posted one, and the published snapshot must rebuild it too;
//! 3. a round that differs is revoked (`revokeRoot`) when this key is the distributor's guardian or owner
//!    and this is not a dry run; otherwise it is reported, for whoever holds that key.
//!
//! The long-running `eden watch` runs the same audit on every pass.

use crate::abi::HolderDistributor;
use crate::chain::{confirm, Chain, Sent};
use crate::error::{Result, TxError};
use crate::payouts::{snapshot, SnapshotArgs};
use crate::publication::{Publications, Unavailable};
use alloy::primitives::{Address, B256, U256};
use eden_chain::payouts::snapshot_path;
use eden_core::holders::{PayoutSnapshot, CLAIM_DELAY};
use serde::Serialize;

/// How long after posting a round's snapshot may be missing before the round counts as wrong (seconds).
pub const PUBLICATION_GRACE: u64 = 3600;

/// What the audit found about one round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "verdict"
)]
pub enum Verdict {
    /// Re-derived from the chain, it has the posted root, and its publication rebuilds it.
    Matches,
    /// Its snapshot is not published yet, within the grace.
    Awaited,
    /// It is wrong.
    Differs {
        /// Why, in words.
        reason: String,
    },
}

/// What the audit did about a wrong round.
#[derive(Debug, Clone, Serialize)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "action"
)]
pub enum Action {
    /// Nothing to do.
    None,
    /// Revoked: its total returned to the pot.
    Revoked {
        /// The transaction.
        sent: Sent,
    },
    /// This key could revoke it, but this is a dry run.
    WouldRevoke,
    /// This key is neither the guardian nor the owner: reported for them.
    Flagged,
    /// The revoke was sent and failed.
    Failed {
        /// Why.
        error: String,
    },
}

/// One round in review, audited.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundAudit {
    /// The token.
    pub token: Address,
    /// The asset.
    pub asset: Address,
    /// The epoch.
    pub epoch: u64,
    /// The posted root.
    pub root: B256,
    /// Its snapshot block.
    pub snapshot_block: u64,
    /// The finding.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// What was done.
    #[serde(flatten)]
    pub action: Action,
}

/// The verdict on a posted round from its re-derivation and its publication: pure, unit-tested.
pub fn verdict(
    posted_root: B256,
    rederived: std::result::Result<B256, String>,
    published: std::result::Result<Option<PayoutSnapshot>, String>,
    overdue: bool,
) -> Verdict {
    let differs = |reason: String| Verdict::Differs { reason };
    match rederived {
        Err(e) => return differs(format!("it cannot be re-derived from the chain: {e}")),
        Ok(r) if r != posted_root => {
            return differs(format!(
                "the chain's balances and exclusions at its block give root {r}, not {posted_root}"
            ))
        }
        Ok(_) => {}
    }
    match published {
        Ok(Some(s)) => match s.tree() {
            Ok(t) if t.root() == posted_root => Verdict::Matches,
            Ok(t) => differs(format!(
                "its published snapshot builds root {}, not the posted one",
                t.root()
            )),
            Err(e) => differs(format!("its published snapshot: {e}")),
        },
        Ok(None) if overdue => differs(format!(
            "its snapshot is still not published {PUBLICATION_GRACE} s after posting"
        )),
        Ok(None) => Verdict::Awaited,
        Err(e) => differs(format!("its published snapshot is unusable: {e}")),
    }
}

/// Audits every round in review (see the module doc).
///
/// # Errors
/// A chain read that fails; a wrong round is a finding, not an error.
pub async fn audit(chain: &Chain, pubs: &Publications, dry_run: bool) -> Result<Vec<RoundAudit>> {
    let distributor = chain.net.contracts.holder_distributor;
    let (head, now) = chain.head().await?;
    let rounds =
        eden_chain::payouts::rounds(chain, distributor, chain.net.deployment_block, head).await?;
    let d = HolderDistributor::new(distributor, chain.provider.clone());
    // Whether this key may revoke: read once, at the first wrong round.
    let mut may_revoke = None;
    let mut out = Vec::new();
    for r in rounds {
        let s = &r.state;
        if s.root.is_zero() || s.settled || now >= s.opensAt {
            continue;
        }
        let posted_at = s.opensAt.saturating_sub(CLAIM_DELAY);
        let args = SnapshotArgs {
            token: r.token,
            asset: r.asset,
            epoch: r.epoch,
            total: U256::from(s.total),
            block: s.snapshotBlock,
            from_block: None,
        };
        // A refusal (the token's balances do not follow its logs, an allocation that fails) is a finding;
        // a read that fails is retried on the next pass, never a reason to revoke.
        let rederived = match snapshot(chain, &args).await {
            Ok((snap, _)) => Ok(snap.root),
            Err(crate::OpError::Refused(m)) => Err(m),
            Err(e) => return Err(e),
        };
        let published = match pubs.get(&snapshot_path(&s.root)).await {
            Ok(bytes) => PayoutSnapshot::from_json(&String::from_utf8_lossy(&bytes))
                .map(Some)
                .map_err(|e| e.to_string()),
            Err(Unavailable::NotFound { .. } | Unavailable::Unreachable { .. }) => Ok(None),
            Err(e) => Err(e.to_string()),
        };
        let v = verdict(
            s.root,
            rederived,
            published,
            now >= posted_at + PUBLICATION_GRACE,
        );
        let action = match &v {
            Verdict::Differs { .. } => {
                revoke(
                    chain,
                    &d,
                    &mut may_revoke,
                    (r.token, r.asset, r.epoch),
                    dry_run,
                )
                .await?
            }
            _ => Action::None,
        };
        out.push(RoundAudit {
            token: r.token,
            asset: r.asset,
            epoch: r.epoch,
            root: s.root,
            snapshot_block: s.snapshotBlock,
            verdict: v,
            action,
        });
    }
    Ok(out)
}

/// Revokes a wrong round when this key may (the guardian or the owner) and this is not a dry run. Whether it
/// may is read from the distributor once per audit (`may_revoke`, `None` until the first wrong round).
async fn revoke(
    chain: &Chain,
    d: &HolderDistributor::HolderDistributorInstance<alloy::providers::DynProvider>,
    may_revoke: &mut Option<bool>,
    (token, asset, epoch): (Address, Address, u64),
    dry_run: bool,
) -> Result<Action> {
    let Some(me) = chain.from else {
        return Ok(Action::Flagged);
    };
    let may = match *may_revoke {
        Some(may) => may,
        None => {
            let (guardian, owner) =
                futures::try_join!(async { d.guardian().call().await }, async {
                    d.owner().call().await
                })
                .map_err(crate::OpError::rpc)?;
            *may_revoke.insert(me == guardian || me == owner)
        }
    };
    if !may {
        return Ok(Action::Flagged);
    }
    if dry_run {
        return Ok(Action::WouldRevoke);
    }
    let sent = match d.revokeRoot(token, asset, epoch).send().await {
        Ok(p) => confirm(p).await,
        Err(e) => Err(TxError::refused(e).into()),
    };
    Ok(match sent {
        Ok(sent) => Action::Revoked { sent },
        Err(e) => Action::Failed {
            error: e.to_string(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use eden_core::holders::SnapshotError;

    fn snap(root: B256) -> PayoutSnapshot {
        let mut s: PayoutSnapshot = serde_json::from_value(serde_json::json!({
            "format": eden_core::holders::SNAPSHOT_FORMAT, "chainId": "31337",
            "distributor": Address::repeat_byte(2), "token": Address::repeat_byte(7), "asset": Address::ZERO,
            "epoch": "1", "block": "9", "blockHash": B256::ZERO, "fromBlock": "0", "total": "10",
            "eligibleSupply": "4", "allocated": "10", "dust": "0", "root": root,
            "excluded": [], "holders": [
                {"account": Address::repeat_byte(0x51), "balance": "1", "amount": "2"},
                {"account": Address::repeat_byte(0x52), "balance": "3", "amount": "7"}
            ]
        }))
        .unwrap();
        s.allocated = U256::from(9);
        s.dust = U256::from(1);
        s
    }

    #[test]
    fn a_round_is_right_only_if_the_chain_and_its_publication_both_give_its_root() {
        let good = match snap(B256::ZERO).tree() {
            Err(SnapshotError::RootDiffers { rebuilt, .. }) => snap(rebuilt),
            other => panic!("{other:?}"),
        };
        good.tree().unwrap();
        let root = good.root;
        assert_eq!(
            verdict(root, Ok(root), Ok(Some(good.clone())), true),
            Verdict::Matches
        );
        assert_eq!(verdict(root, Ok(root), Ok(None), false), Verdict::Awaited);
        let v = verdict(root, Ok(root), Ok(None), true);
        assert!(matches!(&v, Verdict::Differs { reason } if reason.contains("not published")));
        // a poster's root the chain does not give: revoked whatever is published
        let other = B256::repeat_byte(9);
        let v = verdict(other, Ok(root), Ok(Some(good.clone())), false);
        assert!(matches!(&v, Verdict::Differs { reason } if reason.contains("give root")));
        // a publication that does not rebuild the root
        let v = verdict(other, Ok(other), Ok(Some(good)), false);
        assert!(matches!(&v, Verdict::Differs { reason } if reason.contains("published snapshot")));
        let v = verdict(root, Err("logs unavailable".into()), Ok(None), false);
        assert!(matches!(&v, Verdict::Differs { reason } if reason.contains("re-derived")));
    }
}
