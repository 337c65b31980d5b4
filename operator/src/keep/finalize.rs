//! `finalize` (C7): finalize a pending root once its challenge window has passed; lapse a challenge the
//! adjudicator has not ruled on within 7 days (the registry decides the 7 days: `AdjudicationOpen` is "not due").

use super::look::Eye;
use super::{Due, Duty, KeeperDuty, PassAt, Weigh};
use crate::abi::EpochRegistry::{self, AdjudicationOpen, NotChallenged, NotPending, WindowOpen};
use crate::error::Result;
use alloy::primitives::Address;
use alloy::sol_types::SolError;
use eden_core::registry::{EpochSlot, EpochStatus};

/// The duty.
pub(super) struct Finalize;

/// Every proposed epoch's slot.
#[derive(Debug, Clone)]
pub(super) struct Seen {
    registry: Address,
    epochs: Vec<(u64, EpochSlot)>,
}

impl KeeperDuty for Finalize {
    const DUTY: Duty = Duty::Finalize;
    type Seen = Seen;

    async fn look(eye: &mut Eye<'_>) -> Result<Seen> {
        let registry = eye.chain.net.contracts.epoch_registry;
        let from = eye.chain.net.deployment_block;
        let read = eden_chain::epochs::discover(eye.chain, registry, from, eye.head, None).await?;
        let epochs = read
            .epochs
            .into_iter()
            .rev()
            .map(|e| (e.epoch(), e.slot))
            .collect();
        Ok(Seen { registry, epochs })
    }

    fn due(seen: &Seen, at: &PassAt) -> Vec<Due> {
        let mut due = Vec::new();
        for &(epoch, slot) in &seen.epochs {
            let target = format!("epoch {epoch}");
            if slot.finalizable(at.now) {
                due.push(Due::call(
                    seen.registry,
                    &EpochRegistry::finalizeCall { epoch },
                    target,
                    format!("its challenge window ended at {}", slot.deadline),
                    &[WindowOpen::SELECTOR, NotPending::SELECTOR],
                    Weigh::Unweighed,
                ));
            } else if slot.status == EpochStatus::Challenged {
                due.push(Due::call(
                    seen.registry,
                    &EpochRegistry::lapseCall { epoch },
                    target,
                    "challenged, and the adjudicator has not ruled within 7 days",
                    &[AdjudicationOpen::SELECTOR, NotChallenged::SELECTOR],
                    Weigh::Unweighed,
                ));
            }
        }
        due
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keep::tests::{at, calls_of};

    fn slot(status: EpochStatus, deadline: u64) -> EpochSlot {
        EpochSlot {
            status,
            deadline,
            challenges: 0,
        }
    }

    #[test]
    fn a_pending_root_is_finalized_from_its_deadline_and_a_challenge_lapsed() {
        let seen = Seen {
            registry: Address::repeat_byte(1),
            epochs: vec![
                (1, slot(EpochStatus::Final, 50)),
                (2, slot(EpochStatus::Pending, 100)),
                (3, slot(EpochStatus::Pending, 101)),
                (4, slot(EpochStatus::Challenged, 90)),
                (5, slot(EpochStatus::NotProposed, 0)),
            ],
        };
        let due = Finalize::due(&seen, &at(100));
        assert_eq!(
            calls_of(&due),
            [
                ("finalize(uint64)", "epoch 2".to_string()),
                ("lapse(uint64)", "epoch 4".to_string())
            ]
        );
        assert_eq!(
            calls_of(&Finalize::due(&seen, &at(99))),
            [("lapse(uint64)", "epoch 4".to_string())],
            "a second before the deadline the window is open"
        );
    }
}
