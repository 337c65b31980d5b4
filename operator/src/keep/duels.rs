//! `duels` (B7): settle every duel whose active round has closed with no trade since. The hook decides which
//! have (`NothingToSettle` is "not due"), so every duel is asked.

use super::look::Eye;
use super::{Due, Duty, KeeperDuty, PassAt, Weigh};
use crate::abi::DuelHook;
use crate::error::{OpError, Result};
use alloy::primitives::{Address, U256};
use alloy::sol_types::SolError;

/// The duty.
pub(super) struct Duels;

/// The hook and how many duels it has.
#[derive(Debug, Clone, Copy)]
pub(super) struct Seen {
    hook: Address,
    count: u64,
}

impl KeeperDuty for Duels {
    const DUTY: Duty = Duty::Duels;
    type Seen = Option<Seen>;

    async fn look(eye: &mut Eye<'_>) -> Result<Option<Seen>> {
        let Some(hook) = eye.chain.net.contracts.duel_hook else {
            return Ok(None);
        };
        let count = eden_chain::duels::count(eye.chain, hook).await?;
        if count > eden_chain::duels::MAX_DUELS {
            return Err(OpError::Refused(format!(
                "the duel hook {hook} says it has {count} duels; the keeper settles at most {}",
                eden_chain::duels::MAX_DUELS
            )));
        }
        Ok(Some(Seen { hook, count }))
    }

    fn due(seen: &Option<Seen>, _at: &PassAt) -> Vec<Due> {
        let Some(seen) = seen else {
            return vec![];
        };
        (0..seen.count)
            .map(|id| {
                Due::call(
                    seen.hook,
                    &DuelHook::settleCall {
                        duelId: U256::from(id),
                    },
                    format!("duel {id}"),
                    "its round closed and nobody has traded since",
                    &[DuelHook::NothingToSettle::SELECTOR],
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
    fn every_duel_is_asked_to_settle() {
        let seen = Some(Seen {
            hook: Address::repeat_byte(5),
            count: 2,
        });
        assert_eq!(
            calls_of(&Duels::due(&seen, &at(0))),
            [
                ("settle(uint256)", "duel 0".to_string()),
                ("settle(uint256)", "duel 1".to_string())
            ]
        );
    }
}
