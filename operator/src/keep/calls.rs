//! `calls` (A1): expire every commit not revealed by its deadline; it counts as a miss. The ledger decides the
//! deadline (`NotExpiredYet` is "not due"), so every open commit is asked.

use super::look::Eye;
use super::{Due, Duty, KeeperDuty, PassAt, Weigh};
use crate::abi::CallLedger::{self, CallExpired, Committed, NotExpiredYet, Revealed, WrongStatus};
use crate::error::Result;
use alloy::primitives::{Address, U256};
use alloy::sol_types::SolError;
use std::collections::BTreeSet;

/// The duty.
pub(super) struct Calls;

/// The ledger and the ids of calls committed and neither revealed nor expired.
#[derive(Debug, Clone)]
pub(super) struct Seen {
    ledger: Address,
    open: BTreeSet<U256>,
}

/// The commits neither revealed nor expired.
fn open_calls(
    committed: impl IntoIterator<Item = U256>,
    closed: impl IntoIterator<Item = U256>,
) -> BTreeSet<U256> {
    let mut open: BTreeSet<U256> = committed.into_iter().collect();
    for id in closed {
        open.remove(&id);
    }
    open
}

impl KeeperDuty for Calls {
    const DUTY: Duty = Duty::Calls;
    type Seen = Option<Seen>;

    async fn look(eye: &mut Eye<'_>) -> Result<Option<Seen>> {
        let Some(ledger) = eye.chain.net.contracts.call_ledger else {
            return Ok(None);
        };
        let committed = eye.events::<Committed>(ledger).await?;
        let revealed = eye.events::<Revealed>(ledger).await?;
        let expired = eye.events::<CallExpired>(ledger).await?;
        let open = open_calls(
            committed.into_iter().map(|e| e.id),
            revealed
                .into_iter()
                .map(|e| e.id)
                .chain(expired.into_iter().map(|e| e.id)),
        );
        Ok(Some(Seen { ledger, open }))
    }

    fn due(seen: &Option<Seen>, _at: &PassAt) -> Vec<Due> {
        let Some(seen) = seen else {
            return vec![];
        };
        seen.open
            .iter()
            .map(|&id| {
                Due::call(
                    seen.ledger,
                    &CallLedger::expireCall { id },
                    format!("call {id}"),
                    "committed and not revealed by its deadline: a miss",
                    &[NotExpiredYet::SELECTOR, WrongStatus::SELECTOR],
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
    fn only_commits_neither_revealed_nor_expired_are_expired() {
        let n = |i: u8| U256::from(i);
        let open = open_calls([n(1), n(2), n(3), n(4)], [n(2), n(4)]);
        let seen = Some(Seen {
            ledger: Address::repeat_byte(6),
            open,
        });
        assert_eq!(
            calls_of(&Calls::due(&seen, &at(0))),
            [
                ("expire(uint256)", "call 1".to_string()),
                ("expire(uint256)", "call 3".to_string())
            ]
        );
    }
}
