//! `buyback` (C26): `RootBuyback.run` for ETH and every asset the buyback has a route for, when it holds some
//! to spend. The buyback is the fee lanes' `buyback` receiver; a receiver that is not a `RootBuyback` (an
//! account) is left alone. A run the oracle guards refuse (price off the TWAP, a stale feed) is reported and
//! retried next pass.

use super::look::Eye;
use super::{Due, Duty, KeeperDuty, PassAt, Weigh};
use crate::abi::RootBuyback;
use crate::error::Result;
use alloy::primitives::{Address, U256};
use alloy::sol_types::{SolCall, SolError};
use eden_chain::batch::Batch;

/// The duty.
pub(super) struct Buyback;

/// The buyback and what it holds to spend, per pair asset (zero: ETH).
#[derive(Debug, Clone)]
pub(super) struct Seen {
    buyback: Address,
    pending: Vec<(Address, U256)>,
}

impl KeeperDuty for Buyback {
    const DUTY: Duty = Duty::Buyback;
    type Seen = Option<Seen>;

    async fn look(eye: &mut Eye<'_>) -> Result<Option<Seen>> {
        let Some(lanes) = eye.chain.net.contracts.fee_lanes else {
            return Ok(None);
        };
        let buyback = eden_chain::lanes::roles(eye.chain, lanes).await?.buyback;
        let from = eye.chain.net.deployment_block;
        let assets = eden_chain::buyback::routed_assets(eye.chain, buyback, from, eye.head).await?;
        // What a run would spend on each now, in one batch.
        let mut b = Batch::new();
        let slots: Vec<_> = assets
            .iter()
            .map(|&asset| (asset, b.add(buyback, &RootBuyback::pendingCall { asset })))
            .collect();
        let mut answers = b.run(eye.chain).await?;
        let mut pending = Vec::new();
        for (asset, slot) in slots {
            // Not a RootBuyback: nothing this duty can do.
            let Ok(amount) = answers.take(slot) else {
                break;
            };
            pending.push((asset, amount));
        }
        Ok(Some(Seen { buyback, pending }))
    }

    fn due(seen: &Option<Seen>, _at: &PassAt) -> Vec<Due> {
        let Some(seen) = seen else {
            return vec![];
        };
        let not_due = [
            RootBuyback::NothingToBuy::SELECTOR,
            RootBuyback::NoRoute::SELECTOR,
        ];
        seen.pending
            .iter()
            .filter(|(_, amount)| !amount.is_zero())
            .map(|&(asset, amount)| {
                let (target, weigh) = if asset.is_zero() {
                    let spent = |ret: &[u8]| {
                        RootBuyback::runCall::abi_decode_returns(ret)
                            .ok()
                            .map(|r| r.ethSpent)
                    };
                    ("ETH".to_string(), Weigh::EthReturned(spent))
                } else {
                    (format!("asset {asset}"), Weigh::Unweighed)
                };
                Due::call(
                    seen.buyback,
                    &RootBuyback::runCall { asset },
                    target,
                    format!("{amount} of the pair asset waits to buy ROOT"),
                    &not_due,
                    weigh,
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
    fn the_buyback_runs_for_each_asset_it_holds() {
        let usdc = Address::repeat_byte(0x55);
        let seen = Some(Seen {
            buyback: Address::repeat_byte(3),
            pending: vec![(Address::ZERO, U256::from(4u8)), (usdc, U256::ZERO)],
        });
        let due = Buyback::due(&seen, &at(0));
        assert_eq!(calls_of(&due), [("run(address)", "ETH".to_string())]);
        assert!(Buyback::due(&None, &at(0)).is_empty());
    }
}
