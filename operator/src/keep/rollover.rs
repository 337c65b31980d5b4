//! `rollover` (C18): return the unclaimed remainder of every closed payout round to its pot.

use super::look::Eye;
use super::{Due, Duty, KeeperDuty, PassAt, Weigh};
use crate::abi::HolderDistributor::{self, AlreadySettled, StillOpen};
use crate::error::Result;
use alloy::primitives::{Address, U256};
use alloy::sol_types::SolError;

/// The duty.
pub(super) struct Rollover;

/// One posted payout round.
#[derive(Debug, Clone)]
pub(super) struct Round {
    token: Address,
    asset: Address,
    epoch: u64,
    closes_at: u64,
    settled: bool,
    unclaimed: U256,
}

/// The distributor and every round posted to it.
#[derive(Debug, Clone)]
pub(super) struct Seen {
    distributor: Address,
    rounds: Vec<Round>,
}

impl KeeperDuty for Rollover {
    const DUTY: Duty = Duty::Rollover;
    type Seen = Seen;

    async fn look(eye: &mut Eye<'_>) -> Result<Seen> {
        let distributor = eye.chain.net.contracts.holder_distributor;
        let from = eye.chain.net.deployment_block;
        let rounds = eden_chain::payouts::rounds(eye.chain, distributor, from, eye.head)
            .await?
            .into_iter()
            .map(|p| Round {
                token: p.token,
                asset: p.asset,
                epoch: p.epoch,
                closes_at: p.state.closesAt,
                settled: p.state.settled,
                unclaimed: U256::from(p.state.total).saturating_sub(U256::from(p.state.claimed)),
            })
            .collect();
        Ok(Seen {
            distributor,
            rounds,
        })
    }

    fn due(seen: &Seen, at: &PassAt) -> Vec<Due> {
        seen.rounds
            .iter()
            .filter(|r| !r.settled && at.now >= r.closes_at)
            .map(|r| {
                Due::call(
                    seen.distributor,
                    &HolderDistributor::rolloverCall {
                        token: r.token,
                        asset: r.asset,
                        epoch: r.epoch,
                    },
                    format!("round {} of {} (asset {})", r.epoch, r.token, r.asset),
                    format!(
                        "closed at {}; {} unclaimed returns to the pot",
                        r.closes_at, r.unclaimed
                    ),
                    &[StillOpen::SELECTOR, AlreadySettled::SELECTOR],
                    Weigh::Unweighed,
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keep::tests::{at, calls_of};

    #[test]
    fn a_round_rolls_over_from_its_close_once() {
        let round = |epoch, closes_at, settled| Round {
            token: Address::repeat_byte(0xa),
            asset: Address::ZERO,
            epoch,
            closes_at,
            settled,
            unclaimed: U256::from(3u8),
        };
        let seen = Seen {
            distributor: Address::repeat_byte(4),
            rounds: vec![
                round(1, 100, true),
                round(2, 100, false),
                round(3, 101, false),
            ],
        };
        let due = Rollover::due(&seen, &at(100));
        let calls = calls_of(&due);
        assert_eq!(calls.len(), 1);
        assert!(calls[0].1.starts_with("round 2 of"));
        let super::Due::Call(c) = &due[0] else {
            panic!()
        };
        assert_eq!(c.why, "closed at 100; 3 unclaimed returns to the pot");
    }
}
