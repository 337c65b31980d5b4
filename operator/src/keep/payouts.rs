//! `payouts` (C18a): post each due holder payout round, so no hand runs `eden payouts` daily.
//!
//! A pair (a launch's token, its quote asset) has a round due when its holder pot holds a balance and its
//! latest round was posted at least [`ROUND_INTERVAL`] ago (or it has none). The keeper then:
//! 1. snapshots the token's balances at `head − 2` (a mined block) with the deployment's own accounts and the
//!    distributor's listed ones excluded ([`crate::payouts::snapshot`]), allocating the whole pot;
//! 2. publishes the round's tree and snapshot under `--payout-dir` (named by the root), before anything is
//!    sent, so the root is never on chain without the files that let anyone check it;
//! 3. posts the root with its snapshot block (`postRoot`), weighed like any ETH-moving call.
//!
//! It must be the distributor's poster; a dry run snapshots but writes nothing. A missing `--payout-dir` is
//! reported, never worked around.

use super::look::Eye;
use super::{Due, Duty, KeeperDuty, Outcome, PassAt, Weigh};
use crate::abi::HolderDistributor::{self, EpochNotAfter, SnapshotNotAfter};
use crate::error::Result;
use crate::payouts::{publish, snapshot, SnapshotArgs};
use alloy::primitives::{Address, U256};
use alloy::sol_types::{SolCall, SolError};
use eden_chain::lanes::Parts;
use eden_core::holders::{PayoutSnapshot, CLAIM_DELAY};

/// How often a pair's round is due at most (C18a: daily).
pub(super) const ROUND_INTERVAL: u64 = 24 * 3600;
/// How far below the head the snapshot block is taken, so a shallow reorganisation does not move it.
pub(super) const SNAPSHOT_DEPTH: u64 = 2;

/// The duty.
pub(super) struct Payouts;

/// A pair whose round is due, and its snapshot (or why it could not be taken or published).
#[derive(Debug, Clone)]
pub(super) struct DueRound {
    token: Address,
    asset: Address,
    pot: U256,
    last_posted: Option<u64>,
    snapshot: std::result::Result<PayoutSnapshot, String>,
}

/// The distributor and the rounds due.
#[derive(Debug, Clone)]
pub(super) struct Seen {
    distributor: Address,
    rounds: Vec<DueRound>,
}

/// Whether a pair's round is due at `now`: its pot holds something and its latest round (posted at
/// `opens_at − CLAIM_DELAY`) is at least [`ROUND_INTERVAL`] old.
pub(super) fn round_due(pot: U256, last_opens_at: Option<u64>, now: u64) -> bool {
    !pot.is_zero()
        && last_opens_at.is_none_or(|o| now >= o.saturating_sub(CLAIM_DELAY) + ROUND_INTERVAL)
}

impl KeeperDuty for Payouts {
    const DUTY: Duty = Duty::Payouts;
    type Seen = Seen;

    async fn look(eye: &mut Eye<'_>) -> Result<Seen> {
        let distributor = eye.chain.net.contracts.holder_distributor;
        let pairs: Vec<(Address, Address)> = eye
            .lanes(Parts::RECORD)
            .await?
            .iter()
            .map(|l| (l.token, l.launch.quote))
            .collect();
        let pots = eden_chain::payouts::pots(eye.chain, distributor, &pairs).await?;
        let d = HolderDistributor::new(distributor, eye.chain.provider.clone());
        let poster = d.poster().call().await.map_err(crate::OpError::rpc)?;
        // Only the poster posts: another key reports the round due and takes no snapshot.
        let refused = match (eye.me, eye.payout_dir, eye.dry_run) {
            (Some(me), _, _) if me != poster => Some(format!(
                "this key {me} is not the distributor's poster {poster}"
            )),
            (_, None, false) => {
                Some("no --payout-dir to publish the round's tree and snapshot in".to_string())
            }
            _ => None,
        };
        let mut rounds = Vec::new();
        for p in pots {
            let last_opens_at = p.last.as_ref().map(|r| r.opensAt);
            if !round_due(p.pot, last_opens_at, eye.now) {
                continue;
            }
            let args = SnapshotArgs {
                token: p.token,
                asset: p.asset,
                epoch: p.last_epoch + 1,
                total: p.pot,
                block: eye.head.saturating_sub(SNAPSHOT_DEPTH),
                from_block: None,
            };
            let snap = match &refused {
                Some(why) => Err(why.clone()),
                None => match snapshot(eye.chain, &args).await {
                    Ok((s, _)) => match eye.payout_dir.filter(|_| !eye.dry_run) {
                        Some(dir) => publish(&s, dir).map(|_| s).map_err(|e| e.to_string()),
                        None => Ok(s),
                    },
                    Err(e) => Err(e.to_string()),
                },
            };
            rounds.push(DueRound {
                token: p.token,
                asset: p.asset,
                pot: p.pot,
                last_posted: last_opens_at.map(|o| o.saturating_sub(CLAIM_DELAY)),
                snapshot: snap,
            });
        }
        Ok(Seen {
            distributor,
            rounds,
        })
    }

    fn due(seen: &Seen, _: &PassAt) -> Vec<Due> {
        seen.rounds
            .iter()
            .map(|r| {
                let why = match r.last_posted {
                    Some(t) => format!("the pot holds {}; the last round was posted at {t}", r.pot),
                    None => format!("the pot holds {}; no round yet", r.pot),
                };
                match &r.snapshot {
                    Err(reason) => Due::Blocked {
                        signature: HolderDistributor::postRootCall::SIGNATURE,
                        target: format!("a round of {} (asset {})", r.token, r.asset),
                        why,
                        outcome: Outcome::Unavailable {
                            reason: reason.clone(),
                        },
                    },
                    Ok(s) => Due::call(
                        seen.distributor,
                        &HolderDistributor::postRootCall {
                            token: s.token,
                            asset: s.asset,
                            epoch: s.epoch,
                            root: s.root,
                            total: s.total.saturating_to(),
                            snapshotBlock: s.block,
                        },
                        format!("round {} of {} (asset {})", s.epoch, s.token, s.asset),
                        format!(
                            "{why}; {} holders at block {}, root {}",
                            s.holders.len(),
                            s.block,
                            s.root
                        ),
                        &[EpochNotAfter::SELECTOR, SnapshotNotAfter::SELECTOR],
                        Weigh::amount_if_eth(s.asset, s.total),
                    ),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_is_due_daily_while_the_pot_holds_something() {
        let day = ROUND_INTERVAL;
        let one = U256::from(1);
        assert!(round_due(one, None, 0));
        assert!(!round_due(U256::ZERO, None, 0));
        // posted at 1,000 (opens a review later)
        let opens = 1_000 + CLAIM_DELAY;
        assert!(!round_due(one, Some(opens), 1_000 + day - 1));
        assert!(round_due(one, Some(opens), 1_000 + day));
        assert!(!round_due(U256::ZERO, Some(opens), 1_000 + 5 * day));
    }
}
