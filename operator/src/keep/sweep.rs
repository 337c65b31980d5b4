//! `sweep` (C11, §9.3, §7): returned scorer rewards to the buyback; then each graduated launch's escrows into its
//! pool: the liquidity escrow (φ_LP of the creator's amount, added as locked liquidity) and the own-token
//! buyback escrow. An escrow sweep is the fee lanes' keeper's or owner's; its swap is probed first with a
//! minimum no swap can meet (the locker's error names what it would buy) and sent with that amount less the
//! allowed slippage, rounded up, as its minimum.

use super::look::{Eye, Sim};
use super::send::{min_out_rounded_up, reason};
use super::{Due, Duty, KeeperDuty, Outcome, PassAt, Weigh};
use crate::abi::{FeeLanes, LaunchLocker, ScorerRegistry};
use crate::error::Result;
use alloy::primitives::{Address, U256};
use alloy::sol_types::{SolCall, SolError};
use eden_chain::lanes::Parts;

/// Returned scorer rewards to the buyback.
pub(super) struct Returned;

/// Graduated launches' escrows into their pools.
pub(super) struct Escrows;

/// A graduated launch's escrow that a sweep spends in its pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Escrow {
    /// φ_LP of the creator's amount, added as locked liquidity (§9.3).
    Liquidity,
    /// The launch-time share of the creator's payout, buying the token back and burning it (§7).
    OwnBuyback,
}

impl Escrow {
    fn noun(self) -> &'static str {
        match self {
            Escrow::Liquidity => "liquidity escrow",
            Escrow::OwnBuyback => "own-token buyback escrow",
        }
    }

    fn signature(self) -> &'static str {
        match self {
            Escrow::Liquidity => FeeLanes::sweepLiquidityCall::SIGNATURE,
            Escrow::OwnBuyback => FeeLanes::sweepOwnBuybackCall::SIGNATURE,
        }
    }

    fn calldata(self, token: Address, min: U256) -> Vec<u8> {
        match self {
            Escrow::Liquidity => FeeLanes::sweepLiquidityCall {
                token,
                minTokensOut: min,
            }
            .abi_encode(),
            Escrow::OwnBuyback => FeeLanes::sweepOwnBuybackCall {
                token,
                minTokensOut: min,
            }
            .abi_encode(),
        }
    }

    /// What the swap would buy, from the locker's revert to an unmeetable minimum.
    fn bought(self, revert: &[u8]) -> Option<U256> {
        match self {
            Escrow::Liquidity => LaunchLocker::GrowthBelowMin::abi_decode(revert)
                .ok()
                .map(|e| e.tokensBought),
            Escrow::OwnBuyback => LaunchLocker::BuybackBelowMin::abi_decode(revert)
                .ok()
                .map(|e| e.tokensBought),
        }
    }
}

/// What probing an escrow's swap said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Probe {
    /// The keeper may not sweep: not probed.
    NotAllowed,
    /// The swap would buy this many tokens.
    Buys(U256),
    /// The sweep reverted for another reason, in words.
    Refused(String),
    /// The sweep would succeed even with an unmeetable minimum: nothing to sweep (no swap happens).
    Nothing,
}

/// One escrow holding quote.
#[derive(Debug, Clone)]
pub(super) struct EscrowSeen {
    token: Address,
    kind: Escrow,
    amount: U256,
    /// The launch's pair asset (zero: ETH, weighed against gas).
    quote: Address,
    probe: Probe,
}

/// The fee lanes, who may sweep, and every graduated launch's non-empty escrow.
#[derive(Debug, Clone)]
pub(super) struct SeenEscrows {
    lanes: Address,
    keeper: Address,
    owner: Address,
    escrows: Vec<EscrowSeen>,
}

/// The scorer registry and every configured pool's asset.
#[derive(Debug, Clone)]
pub(super) struct SeenPools {
    registry: Address,
    pools: Vec<(Address, Address)>,
}

impl KeeperDuty for Returned {
    const DUTY: Duty = Duty::Sweep;
    type Seen = Option<SeenPools>;

    async fn look(eye: &mut Eye<'_>) -> Result<Option<SeenPools>> {
        let Some(registry) = eye.chain.net.contracts.scorer_registry else {
            return Ok(None);
        };
        let pools = eye
            .lanes(Parts::POOL)
            .await?
            .into_iter()
            .filter_map(|l| l.scorer_pool.map(|p| (l.token, p.asset)))
            .collect();
        Ok(Some(SeenPools { registry, pools }))
    }

    fn due(seen: &Option<SeenPools>, _at: &PassAt) -> Vec<Due> {
        let Some(seen) = seen else {
            return vec![];
        };
        seen.pools
            .iter()
            .map(|&(token, asset)| {
                let weigh = Weigh::returned_if_eth(asset, |ret| {
                    ScorerRegistry::sweepReturnedCall::abi_decode_returns(ret).ok()
                });
                Due::call(
                    seen.registry,
                    &ScorerRegistry::sweepReturnedCall { token },
                    format!("token {token}"),
                    "scorer rewards returned by ended positions wait for the buyback",
                    &[ScorerRegistry::NothingToSweep::SELECTOR],
                    weigh,
                )
            })
            .collect()
    }
}

/// Only the fee lanes' keeper or owner may sweep an escrow.
fn may_sweep(me: Option<Address>, keeper: Address, owner: Address) -> bool {
    me.is_some_and(|me| me == keeper || me == owner)
}

impl KeeperDuty for Escrows {
    const DUTY: Duty = Duty::Sweep;
    type Seen = Option<SeenEscrows>;

    async fn look(eye: &mut Eye<'_>) -> Result<Option<SeenEscrows>> {
        let Some(lanes) = eye.chain.net.contracts.fee_lanes else {
            return Ok(None);
        };
        let eden_chain::lanes::LaneRoles { keeper, owner, .. } =
            eden_chain::lanes::roles(eye.chain, lanes).await?;
        let allowed = may_sweep(eye.me, keeper, owner);
        let mut escrows = Vec::new();
        for l in eye.lanes(Parts::LANES).await? {
            let (token, quote) = (l.token, l.launch.quote);
            let Some(h) = l.lanes else { continue };
            let (liquidity, own) = (h.liquidity_escrow, h.own_buyback_escrow);
            // An escrow is swept into the pool: only once the launch has graduated.
            if (liquidity.is_zero() && own.is_zero()) || !l.launch.graduated {
                continue;
            }
            for (amount, kind) in [(liquidity, Escrow::Liquidity), (own, Escrow::OwnBuyback)] {
                if amount.is_zero() {
                    continue;
                }
                let probe = if !allowed {
                    Probe::NotAllowed
                } else {
                    match eye.simulate(lanes, kind.calldata(token, U256::MAX)).await? {
                        Sim::Ok(_) => Probe::Nothing,
                        Sim::Revert { data, message } => match kind.bought(&data) {
                            Some(b) => Probe::Buys(b),
                            None => Probe::Refused(reason(&data).unwrap_or(message)),
                        },
                    }
                };
                escrows.push(EscrowSeen {
                    token,
                    kind,
                    amount,
                    quote,
                    probe,
                });
            }
        }
        Ok(Some(SeenEscrows {
            lanes,
            keeper,
            owner,
            escrows,
        }))
    }

    fn due(seen: &Option<SeenEscrows>, at: &PassAt) -> Vec<Due> {
        let Some(seen) = seen else {
            return vec![];
        };
        let mut due = Vec::new();
        for e in &seen.escrows {
            let target = format!("token {}", e.token);
            let why = format!("{} waits in its {}", e.amount, e.kind.noun());
            let blocked = |reason: String| Due::Blocked {
                signature: e.kind.signature(),
                target: target.clone(),
                why: why.clone(),
                outcome: Outcome::WouldRevert { reason },
            };
            if !may_sweep(at.me, seen.keeper, seen.owner) {
                due.push(blocked(format!(
                    "only FeeLanes' keeper ({}) or owner ({}) may sweep the {}",
                    seen.keeper,
                    seen.owner,
                    e.kind.noun()
                )));
                continue;
            }
            let bought = match &e.probe {
                Probe::Buys(b) => *b,
                Probe::Refused(reason) => {
                    due.push(blocked(reason.clone()));
                    continue;
                }
                Probe::Nothing | Probe::NotAllowed => continue,
            };
            let min = min_out_rounded_up(bought, at.slippage_bps);
            let weigh = Weigh::amount_if_eth(e.quote, e.amount);
            due.push(Due::Call(super::DueCall {
                to: seen.lanes,
                signature: e.kind.signature(),
                data: e.kind.calldata(e.token, min),
                target: target.clone(),
                why: why.clone(),
                not_due: vec![FeeLanes::NothingToPay::SELECTOR],
                weigh,
            }));
        }
        due
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keep::tests::{at, calls_of, only_call};

    fn seen(probe: Probe, quote: Address) -> Option<SeenEscrows> {
        Some(SeenEscrows {
            lanes: Address::repeat_byte(1),
            keeper: Address::repeat_byte(0x4e),
            owner: Address::repeat_byte(0x0e),
            escrows: vec![EscrowSeen {
                token: Address::repeat_byte(0xa),
                kind: Escrow::Liquidity,
                amount: U256::from(1_000u64),
                quote,
                probe,
            }],
        })
    }

    fn as_keeper(now: u64) -> PassAt {
        PassAt {
            me: Some(Address::repeat_byte(0x4e)),
            ..at(now)
        }
    }

    #[test]
    fn an_escrow_is_swept_with_the_probed_amount_less_slippage_as_its_minimum() {
        let due = Escrows::due(
            &seen(Probe::Buys(U256::from(10_001u64)), Address::ZERO),
            &as_keeper(0),
        );
        let call = only_call(&due);
        let sent = FeeLanes::sweepLiquidityCall::abi_decode(&call.data).unwrap();
        assert_eq!(
            sent.minTokensOut,
            U256::from(9_901u64),
            "1 % below, rounded up"
        );
        assert!(matches!(call.weigh, Weigh::Eth(a) if a == U256::from(1_000u64)));
        let erc20 = Escrows::due(
            &seen(Probe::Buys(U256::from(1u8)), Address::repeat_byte(0x55)),
            &as_keeper(0),
        );
        assert!(matches!(only_call(&erc20).weigh, Weigh::Unweighed));
    }

    #[test]
    fn a_sweep_by_anyone_else_or_a_refused_probe_is_reported_not_sent() {
        let by_stranger = Escrows::due(&seen(Probe::NotAllowed, Address::ZERO), &at(0));
        assert!(matches!(
            &by_stranger[..],
            [Due::Blocked { outcome: Outcome::WouldRevert { reason }, .. }] if reason.contains("only FeeLanes' keeper")
        ));
        let refused = Escrows::due(
            &seen(Probe::Refused("paused".into()), Address::ZERO),
            &as_keeper(0),
        );
        assert_eq!(calls_of(&refused)[0].0, "blocked");
        assert!(Escrows::due(&seen(Probe::Nothing, Address::ZERO), &as_keeper(0)).is_empty());
    }

    #[test]
    fn returned_rewards_are_swept_for_every_configured_pool() {
        let seen = Some(SeenPools {
            registry: Address::repeat_byte(2),
            pools: vec![(Address::repeat_byte(0xa), Address::ZERO)],
        });
        assert_eq!(
            calls_of(&Returned::due(&seen, &at(0))),
            [(
                "sweepReturned(address)",
                format!("token {}", Address::repeat_byte(0xa))
            )]
        );
    }
}
