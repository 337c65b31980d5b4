//! `fees` (C17, C11, #14): collect each launch's curve fees (and a graduated launch's pool-position fees) into
//! the fee lanes; then pull each configured scorer lane into its scorer pool. Two duties in that order: the
//! lanes are read after the fees reach them.

use super::look::Eye;
use super::{Due, Duty, KeeperDuty, PassAt, Weigh};
use crate::abi::{FeeLanes, Launchpad, ScorerRegistry};
use crate::error::Result;
use alloy::primitives::{Address, U256};
use alloy::sol_types::{SolCall, SolError};
use eden_chain::lanes::Parts;

/// Curve and pool-position fees into the lanes.
pub(super) struct CurveFees;

/// Scorer lanes into the scorer pools.
pub(super) struct ScorerLanes;

/// What the fee rules read of one launch.
#[derive(Debug, Clone, Copy)]
pub(super) struct LaunchFees {
    token: Address,
    /// The pair asset (zero: ETH, whose amounts are weighed against gas).
    quote: Address,
    graduated: bool,
    accrued: U256,
}

/// Every launch's fees, and the launchpad.
#[derive(Debug, Clone)]
pub(super) struct SeenLaunches {
    pad: Address,
    launches: Vec<LaunchFees>,
}

/// A configured scorer pool's lane.
#[derive(Debug, Clone, Copy)]
pub(super) struct Lane {
    token: Address,
    /// The pool's asset (zero: ETH).
    asset: Address,
    held: U256,
}

/// The scorer registry and every configured pool's lane.
#[derive(Debug, Clone)]
pub(super) struct SeenLanes {
    registry: Address,
    lanes: Vec<Lane>,
}

/// The ETH amount of a call whose return is one `uint256`.
fn returned_amount<C: SolCall<Return = U256>>(ret: &[u8]) -> Option<U256> {
    C::abi_decode_returns(ret).ok()
}

impl KeeperDuty for CurveFees {
    const DUTY: Duty = Duty::Fees;
    type Seen = SeenLaunches;

    async fn look(eye: &mut Eye<'_>) -> Result<SeenLaunches> {
        let pad = eye.chain.net.contracts.launchpad;
        let launches = eye
            .lanes(Parts::RECORD)
            .await?
            .into_iter()
            .map(|l| LaunchFees {
                token: l.token,
                quote: l.launch.quote,
                graduated: l.launch.graduated,
                accrued: l.launch.feesAccrued,
            })
            .collect();
        Ok(SeenLaunches { pad, launches })
    }

    fn due(seen: &SeenLaunches, _at: &PassAt) -> Vec<Due> {
        let not_due = [Launchpad::NothingToCollect::SELECTOR];
        let mut due = Vec::new();
        for l in &seen.launches {
            if l.graduated {
                // #14: the locked position's pool fees, split like curve fees (the token side burned).
                let weigh = Weigh::returned_if_eth(l.quote, |ret| {
                    Launchpad::collectPoolFeesCall::abi_decode_returns(ret)
                        .ok()
                        .map(|r| r.amount)
                });
                due.push(Due::call(
                    seen.pad,
                    &Launchpad::collectPoolFeesCall { token: l.token },
                    format!("token {}", l.token),
                    "its pool position earned fees",
                    &not_due,
                    weigh,
                ));
            }
            if l.accrued.is_zero() {
                continue;
            }
            let weigh =
                Weigh::returned_if_eth(l.quote, returned_amount::<Launchpad::collectFeesCall>);
            due.push(Due::call(
                seen.pad,
                &Launchpad::collectFeesCall { token: l.token },
                format!("token {}", l.token),
                format!("{} in curve fees accrued", l.accrued),
                &not_due,
                weigh,
            ));
        }
        due
    }
}

impl KeeperDuty for ScorerLanes {
    const DUTY: Duty = Duty::Fees;
    type Seen = Option<SeenLanes>;

    async fn look(eye: &mut Eye<'_>) -> Result<Option<SeenLanes>> {
        let (Some(registry), Some(_)) = (
            eye.chain.net.contracts.scorer_registry,
            eye.chain.net.contracts.fee_lanes,
        ) else {
            return Ok(None);
        };
        let lanes = eye
            .lanes(Parts::POOL_HELD)
            .await?
            .into_iter()
            .filter_map(|l| {
                l.scorer_pool.map(|p| Lane {
                    token: l.token,
                    asset: p.asset,
                    held: p.held,
                })
            })
            .collect();
        Ok(Some(SeenLanes { registry, lanes }))
    }

    fn due(seen: &Option<SeenLanes>, _at: &PassAt) -> Vec<Due> {
        let Some(seen) = seen else {
            return vec![];
        };
        // Below 1 % of the pool's undripped balance a pull would restart the drip for dust (C11, decided): the
        // registry refuses it (`FundingTooSmall`), and the fees wait in the lane until they reach it.
        let not_due = [
            FeeLanes::NothingToPay::SELECTOR,
            ScorerRegistry::ZeroAmount::SELECTOR,
            ScorerRegistry::FundingTooSmall::SELECTOR,
        ];
        seen.lanes
            .iter()
            .filter(|l| !l.held.is_zero())
            .map(|l| {
                let weigh = Weigh::returned_if_eth(
                    l.asset,
                    returned_amount::<ScorerRegistry::pullFeesCall>,
                );
                Due::call(
                    seen.registry,
                    &ScorerRegistry::pullFeesCall { token: l.token },
                    format!("token {}", l.token),
                    format!("its scorer lane holds {}", l.held),
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
    use alloy::sol_types::SolValue;

    fn launch(n: u8, quote: Address, graduated: bool, accrued: u64) -> LaunchFees {
        LaunchFees {
            token: Address::repeat_byte(n),
            quote,
            graduated,
            accrued: U256::from(accrued),
        }
    }

    #[test]
    fn fees_are_collected_where_accrued_and_pool_fees_on_every_graduated_launch() {
        let usdc = Address::repeat_byte(0x55);
        let seen = SeenLaunches {
            pad: Address::repeat_byte(1),
            launches: vec![
                launch(0xa, Address::ZERO, false, 0),
                launch(0xb, Address::ZERO, false, 30),
                launch(0xc, usdc, true, 0),
            ],
        };
        let due = CurveFees::due(&seen, &at(0));
        assert_eq!(
            calls_of(&due),
            [
                (
                    "collectFees(address)",
                    format!("token {}", Address::repeat_byte(0xb))
                ),
                (
                    "collectPoolFees(address)",
                    format!("token {}", Address::repeat_byte(0xc))
                ),
            ]
        );
        // ETH is weighed by what the simulation says it moves; an ERC-20 is not weighed.
        let (Due::Call(eth), Due::Call(erc20)) = (&due[0], &due[1]) else {
            panic!()
        };
        let Weigh::EthReturned(read) = eth.weigh else {
            panic!("{:?}", eth.weigh)
        };
        assert_eq!(read(&U256::from(30u8).abi_encode()), Some(U256::from(30u8)));
        assert_eq!(read(&[1, 2]), None);
        assert!(matches!(erc20.weigh, Weigh::Unweighed));
    }

    #[test]
    fn a_scorer_lane_is_pulled_only_when_it_holds_fees() {
        let seen = Some(SeenLanes {
            registry: Address::repeat_byte(2),
            lanes: vec![
                Lane {
                    token: Address::repeat_byte(0xa),
                    asset: Address::ZERO,
                    held: U256::ZERO,
                },
                Lane {
                    token: Address::repeat_byte(0xb),
                    asset: Address::ZERO,
                    held: U256::from(5u8),
                },
            ],
        });
        let due = ScorerLanes::due(&seen, &at(0));
        assert_eq!(
            calls_of(&due),
            [(
                "pullFees(address)",
                format!("token {}", Address::repeat_byte(0xb))
            )]
        );
        assert!(ScorerLanes::due(&None, &at(0)).is_empty());
    }
}
