//! One pipeline for every due call: simulate it from the keeper's account; a "not due" revert is silence and any
//! other revert a report; weigh the ETH it moves against its gas; then send it (unless a dry run) and await it.
//! Every exit is one [`Done`] in the pass's report.

use super::look::{simulate, transaction, Sim};
use super::{Done, Due, DueCall, Duty, KeepOpts, Outcome, Weigh};
use crate::chain::{confirm, Chain};
use crate::error::{OpError, Result};
use alloy::primitives::{Address, U256};
use alloy::providers::Provider;

/// How long a sent call is awaited before the pass reports it and moves on.
const MINE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(600);

/// Makes due calls and keeps what became of each.
pub(super) struct Sender<'a> {
    chain: &'a Chain,
    opts: &'a KeepOpts,
    me: Option<Address>,
    /// What became of every due call so far, in order.
    pub(super) done: Vec<Done>,
}

impl<'a> Sender<'a> {
    /// A sender from the chain's account (none: nothing is sent).
    pub(super) fn new(chain: &'a Chain, opts: &'a KeepOpts) -> Self {
        Sender {
            chain,
            opts,
            me: chain.from,
            done: Vec::new(),
        }
    }

    /// Makes one due call of `duty` (see the module doc).
    ///
    /// # Errors
    /// Only a node that does not answer a simulation, an estimate or a gas price; a failed send is reported.
    pub(super) async fn make(&mut self, duty: Duty, due: Due) -> Result<()> {
        let (signature, target, why, outcome) = match due {
            Due::Blocked {
                signature,
                target,
                why,
                outcome,
            } => (signature, target, why, outcome),
            Due::Call(call) => match self.outcome(&call).await? {
                Some(outcome) => (call.signature, call.target, call.why, outcome),
                None => return Ok(()),
            },
        };
        self.done.push(Done {
            duty,
            call: signature.split('(').next().unwrap_or(signature),
            target,
            why,
            outcome,
        });
        Ok(())
    }

    /// What becomes of `call`; `None` when the contract says it is not due after all.
    async fn outcome(&self, call: &DueCall) -> Result<Option<Outcome>> {
        let sim = simulate(self.chain, self.me, call.to, call.data.clone()).await?;
        let eth = match (sim, call.weigh) {
            (sim, _) if sim.not_due(&call.not_due) => return Ok(None),
            (Sim::Revert { data, message }, _) => {
                let reason = reason(&data).unwrap_or(message);
                return Ok(Some(Outcome::WouldRevert { reason }));
            }
            (Sim::Ok(_), Weigh::Unweighed) => None,
            (Sim::Ok(_), Weigh::Eth(amount)) => Some(amount),
            (Sim::Ok(ret), Weigh::EthReturned(read)) => match read(&ret) {
                Some(amount) => Some(amount),
                None => {
                    let reason = format!("unreadable return: 0x{}", alloy::hex::encode(&ret));
                    return Ok(Some(Outcome::WouldRevert { reason }));
                }
            },
        };
        if let Some(amount) = eth {
            let tx = transaction(self.me, call.to, call.data.clone());
            let gas = match self.chain.provider.estimate_gas(tx).await {
                Ok(g) => g,
                // The node refuses the estimate (the state moved since the simulation): reported, not sent.
                Err(e) if e.as_error_resp().is_some() => {
                    let reason = e
                        .as_error_resp()
                        .and_then(|p| p.as_revert_data())
                        .and_then(|d| reason(&d))
                        .unwrap_or_else(|| e.to_string());
                    return Ok(Some(Outcome::WouldRevert { reason }));
                }
                Err(e) => return Err(OpError::rpc(e)),
            };
            let price = self
                .chain
                .provider
                .get_gas_price()
                .await
                .map_err(OpError::rpc)?;
            let cost = U256::from(gas) * U256::from(price);
            if !worth_it(amount, cost, self.opts.min_gain) {
                return Ok(Some(Outcome::NotWorthIt { amount, cost }));
            }
        }
        if self.opts.dry_run || self.me.is_none() {
            return Ok(Some(Outcome::WouldSend));
        }
        let tx = transaction(self.me, call.to, call.data.clone());
        Ok(Some(match self.chain.provider.send_transaction(tx).await {
            // A transaction not mined in time is reported; the next pass waits while it is pending.
            Ok(p) => match confirm(p.with_timeout(Some(MINE_TIMEOUT))).await {
                Ok(sent) => Outcome::Sent { sent },
                Err(e) => Outcome::Failed {
                    error: e.to_string(),
                },
            },
            Err(e) => Outcome::Failed {
                error: e
                    .as_error_resp()
                    .and_then(|p| p.as_revert_data())
                    .and_then(|d| reason(&d))
                    .unwrap_or_else(|| e.to_string()),
            },
        }))
    }
}

/// An ETH-moving call is worth sending when it moves at least `min_gain` times its gas cost.
fn worth_it(amount: U256, cost: U256, min_gain: u64) -> bool {
    amount >= cost.saturating_mul(U256::from(min_gain))
}

/// `amount × (10,000 − slippage_bps) / 10,000`, rounded up (the bound is never looser than the tolerance).
pub fn min_out_rounded_up(amount: U256, slippage_bps: u64) -> U256 {
    let (s, d) = (U256::from(slippage_bps.min(10_000)), U256::from(10_000u64));
    // amount − ⌊amount × s / 10,000⌋, without overflow.
    amount - ((amount / d) * s + (amount % d) * s / d)
}

/// A revert in `eden_chain`'s words, with the Solidity error it is when it is one of the contracts':
/// "this duel's round has not closed yet: nothing to settle (NothingToSettle(uint256))".
pub(super) fn reason(data: &[u8]) -> Option<String> {
    if data.is_empty() {
        return None;
    }
    let words = eden_chain::revert::revert_reason(data);
    Some(match eden_chain::revert::error_signature(data) {
        Some(sig) if !words.contains(sig.split('(').next().unwrap_or(sig)) => {
            format!("{words} ({sig})")
        }
        _ => words,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::{CallLedger, DuelHook};
    use alloy::sol_types::SolError;

    #[test]
    fn min_out_is_rounded_up_and_never_above_the_amount() {
        assert_eq!(
            min_out_rounded_up(U256::from(10_000u64), 100),
            U256::from(9_900u64)
        );
        assert_eq!(
            min_out_rounded_up(U256::from(10_001u64), 100),
            U256::from(9_901u64)
        );
        assert_eq!(min_out_rounded_up(U256::from(1u64), 100), U256::from(1u64));
        assert_eq!(min_out_rounded_up(U256::from(7u64), 0), U256::from(7u64));
        assert_eq!(min_out_rounded_up(U256::from(7u64), 10_000), U256::ZERO);
        assert_eq!(min_out_rounded_up(U256::from(7u64), 20_000), U256::ZERO);
        let max = min_out_rounded_up(U256::MAX, 100);
        assert!(max < U256::MAX && max > U256::MAX / U256::from(100u8) * U256::from(98u8));
    }

    #[test]
    fn reverts_read_as_the_contracts_errors() {
        let data = DuelHook::NothingToSettle {
            duelId: U256::from(3u8),
        }
        .abi_encode();
        assert!(reason(&data).unwrap().contains("NothingToSettle"));
        assert_eq!(reason(&[]), None);
        let sim = Sim::Revert {
            data: data.into(),
            message: String::new(),
        };
        assert!(sim.not_due(&[DuelHook::NothingToSettle::SELECTOR]));
        assert!(!sim.not_due(&[CallLedger::NotExpiredYet::SELECTOR]));
        assert!(!Sim::Ok(Default::default()).not_due(&[DuelHook::NothingToSettle::SELECTOR]));
    }

    #[test]
    fn a_call_is_worth_its_gas_at_min_gain_times_the_cost() {
        let (amount, cost) = (U256::from(300u64), U256::from(100u64));
        assert!(worth_it(amount, cost, 3));
        assert!(!worth_it(amount, cost, 4));
        assert!(worth_it(amount, cost, 0));
        assert!(!worth_it(U256::from(1u8), U256::MAX, 2), "no overflow");
    }
}
