//! `eden keep`: the keepers. Each duty is a permissionless call the protocol needs someone to make; the keeper
//! makes it when it is due and, where it moves money, when it is worth its gas:
//!
//! | duty | call | due when |
//! |---|---|---|
//! | `finalize` | `EpochRegistry.finalize`, `lapse` | a pending root's window has passed (C7); a challenge has had no ruling for 7 days |
//! | `scores` | `FeeLanes.updateScore` | a launch's recorded score is not its published score (C27) in the latest final epoch (C17: only ever the latest) |
//! | `fees` | `Launchpad.collectFees`, `ScorerRegistry.pullFees` | curve fees accrued; a scorer lane holds fees (C11) |
//! | `sweep` | `ScorerRegistry.sweepReturned`, `FeeLanes.sweepLiquidity`, `FeeLanes.sweepOwnBuyback` | returned rewards wait; a graduated launch's liquidity escrow (§9.3) or own-token buyback escrow (§7) holds quote |
//! | `buyback` | `RootBuyback.run` | the buyback lane or the buyback contract holds a pair asset (C26) |
//! | `rollover` | `HolderDistributor.rollover` | a payout round's claim period is over (C18) |
//! | `payouts` | `HolderDistributor.postRoot` | a pair's holder pot holds a balance and its last round is a day old (C18a); the round's tree and snapshot are published first |
//! | `duels` | `DuelHook.settle` | a duel round closed and nobody traded since (B7) |
//! | `calls` | `CallLedger.expire` | a committed call was not revealed in time |
//!
//! Duties run in that order in a pass, so a launch's fees are split on the score recorded just before.
//!
//! **Due** is decided by the contract itself: every call is first simulated (`eth_call`) from the keeper's
//! account and sent only if it would succeed; the revert that means "not due" (`WindowOpen`, `NothingToPay`,
//! `NothingToSettle`, …) is silence, any other revert is reported and not sent. **Worth it**: a call that moves
//! ETH is sent only when the amount moved is at least `min_gain` times its gas cost (estimate × gas price);
//! an ERC-20 amount has no ETH price here and is moved whenever it is non-zero. Finalizing, recording scores,
//! rollovers, settlements and expiries are required, never weighed.
//!
//! **Once**: every decision is re-derived from the chain on every pass (logs from the deployment block, the
//! settled part kept in memory for the run; the contracts' state), never from a local file, so a restarted
//! keeper resumes where the chain is; each call is mined before the next is simulated; and a pass sends nothing
//! while a transaction of the keeper's account is pending, so a restart or a slow node cannot make it send a
//! duty twice.
//!
//! ## Steps of a pass, and the modules
//! Each duty is a [`KeeperDuty`]: `look` reads what it needs (through [`look::Eye`]), and `due` is the pure
//! rule that turns what it saw into the calls due, unit-tested without a node. One pipeline
//! ([`send::Sender`]) then simulates, weighs and sends every due call.
//!
//! | module | concern |
//! |---|---|
//! | [`look`] | the reads duties share: events since the deployment block, the launches, a simulation |
//! | [`send`] | one due call: simulate → not due / refused / weigh its gas → send and await it |
//! | [`finalize`], [`scores`], [`fees`], [`sweep`], [`buyback`], [`rollover`], [`payouts`], [`duels`], [`calls`] | one duty each |

mod buyback;
mod calls;
mod duels;
mod fees;
mod finalize;
mod look;
mod payouts;
mod rollover;
mod scores;
mod send;
mod sweep;

use crate::chain::{Chain, Sent};
use crate::error::Result;
use crate::publication::Publications;
use alloy::primitives::{Address, B256, U256};
use alloy::sol_types::SolCall;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Arc;

pub use send::min_out_rounded_up;

/// A keeper duty (see the module doc for what each calls and when); also `eden keep <duty>`, one pass of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, clap::Subcommand)]
#[serde(rename_all = "camelCase")]
pub enum Duty {
    /// Finalize pending roots past their window; lapse challenges nobody ruled on in 7 days.
    Finalize,
    /// Record each launch's latest final score in FeeLanes (never an older one).
    Scores,
    /// Collect curve fees into the lanes; pull scorer lanes into the scorer pools.
    Fees,
    /// Sweep returned scorer rewards to the buyback; sweep liquidity escrows into graduated pools.
    Sweep,
    /// Run the ROOT buyback for every pair asset it holds or its fee lane holds.
    Buyback,
    /// Roll over payout rounds whose claim period is over.
    Rollover,
    /// Post each due holder payout round (snapshot, publish, post).
    Payouts,
    /// Settle duel rounds that closed with no trade since.
    Duels,
    /// Expire commits not revealed by their deadline.
    Calls,
}

impl Duty {
    /// Every duty, in the order a pass runs them.
    pub const ALL: [Duty; 9] = [
        Duty::Finalize,
        Duty::Scores,
        Duty::Fees,
        Duty::Sweep,
        Duty::Buyback,
        Duty::Rollover,
        Duty::Payouts,
        Duty::Duels,
        Duty::Calls,
    ];
}

/// How the keeper acts.
#[derive(Debug, Clone)]
pub struct KeepOpts {
    /// Simulate and report only: never send.
    pub dry_run: bool,
    /// An ETH-moving call is sent only when the amount is at least this many times its gas cost.
    pub min_gain: u64,
    /// Slippage allowed on a liquidity sweep's swap below the simulated amount (basis points).
    pub slippage_bps: u64,
    /// The duties to perform, run in [`Duty::ALL`]'s order.
    pub duties: Vec<Duty>,
    /// Where the `payouts` duty publishes each round's tree and snapshot before posting it.
    pub payout_dir: Option<std::path::PathBuf>,
}

/// What became of one due call.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "result"
)]
pub enum Outcome {
    /// Sent and mined.
    Sent {
        /// The transaction.
        sent: Sent,
    },
    /// Due, but a dry run (or no key) sends nothing.
    WouldSend,
    /// Due, but the ETH it moves is less than `min_gain` times its gas cost.
    NotWorthIt {
        /// Wei moved.
        #[serde(serialize_with = "decimal")]
        amount: U256,
        /// Wei of gas it would cost.
        #[serde(serialize_with = "decimal")]
        cost: U256,
    },
    /// The simulation reverted for a reason other than "not due": not sent.
    WouldRevert {
        /// The contract's error.
        reason: String,
    },
    /// What the duty needs could not be read (a publication); retried next pass.
    Unavailable {
        /// Why.
        reason: String,
    },
    /// Sent, but it failed.
    Failed {
        /// Why.
        error: String,
    },
}

/// One due call and what became of it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Done {
    /// The duty.
    pub duty: Duty,
    /// The contract function.
    pub call: &'static str,
    /// What it is about (`epoch 3`, `token 0x…`, `duel 1`, `call 7`).
    pub target: String,
    /// Why it is due.
    pub why: String,
    /// What became of it.
    #[serde(flatten)]
    pub outcome: Outcome,
}

impl Done {
    /// True when a transaction was sent and mined.
    pub fn sent(&self) -> bool {
        matches!(self.outcome, Outcome::Sent { .. })
    }
}

/// One pass's report.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PassReport {
    /// A transaction of the keeper's account was pending: nothing was done.
    pub transaction_pending: bool,
    /// Every due call found, in order.
    pub done: Vec<Done>,
}

/// What a long-running keeper keeps between passes: only what the chain fixes forever (the launches, in
/// `Launchpad.tokens` order, and the checked score tables of final roots), never a decision.
#[derive(Default)]
pub struct Memory {
    tokens: Vec<Address>,
    finals: HashMap<(u64, B256), Arc<scores::FinalScores>>,
}

/// What every duty's rule may depend on besides what it read: the pass's chain time and the keeper itself.
#[derive(Debug, Clone, Copy)]
struct PassAt {
    /// The head block's timestamp (unix seconds).
    now: u64,
    /// The keeper's account, when it has a key.
    me: Option<Address>,
    /// Slippage allowed below a probed swap (basis points).
    slippage_bps: u64,
}

/// How a due call is weighed against its gas before it is sent.
#[derive(Debug, Clone, Copy)]
enum Weigh {
    /// Sent whenever the contract accepts it: a duty the protocol requires (finalizing, recording scores,
    /// rollovers, settlements, expiries), or an ERC-20 amount, which has no ETH price here.
    Unweighed,
    /// It moves this much ETH (wei), known before the call.
    Eth(U256),
    /// It moves the ETH (wei) its simulated return names; `None` when the return does not read.
    EthReturned(fn(&[u8]) -> Option<U256>),
}

impl Weigh {
    /// What a call moving `asset` (zero: ETH) weighs: the ETH its return names, read by `read`; an ERC-20
    /// amount is not weighed (it has no ETH price here).
    fn returned_if_eth(asset: Address, read: fn(&[u8]) -> Option<U256>) -> Weigh {
        if asset.is_zero() {
            Weigh::EthReturned(read)
        } else {
            Weigh::Unweighed
        }
    }

    /// What a call moving `amount` of `asset` (zero: ETH) weighs, known before the call.
    fn amount_if_eth(asset: Address, amount: U256) -> Weigh {
        if asset.is_zero() {
            Weigh::Eth(amount)
        } else {
            Weigh::Unweighed
        }
    }
}

/// One call a duty's rule found due, before the contract is asked.
#[derive(Debug, Clone)]
struct DueCall {
    /// The contract.
    to: Address,
    /// The Solidity function (`finalize(uint64)`).
    signature: &'static str,
    /// Its calldata.
    data: Vec<u8>,
    /// What it is about.
    target: String,
    /// Why it is due.
    why: String,
    /// The reverts that mean "not due after all": silence, not a report.
    not_due: Vec<[u8; 4]>,
    /// Whether and how it is weighed against its gas.
    weigh: Weigh,
}

/// What a duty's rule found: a call to attempt, or one it cannot make, with what became of it.
#[derive(Debug, Clone)]
enum Due {
    /// Simulate, weigh and send it.
    Call(DueCall),
    /// Due, but it cannot be made this pass (not allowed, a probe refused, a publication missing).
    Blocked {
        /// The Solidity function.
        signature: &'static str,
        /// What it is about.
        target: String,
        /// Why it is due.
        why: String,
        /// Why it is not made.
        outcome: Outcome,
    },
}

impl Due {
    /// A call of `call` on `to`.
    fn call<C: SolCall>(
        to: Address,
        call: &C,
        target: String,
        why: impl Into<String>,
        not_due: &[[u8; 4]],
        weigh: Weigh,
    ) -> Due {
        Due::Call(DueCall {
            to,
            signature: C::SIGNATURE,
            data: call.abi_encode(),
            target,
            why: why.into(),
            not_due: not_due.to_vec(),
            weigh,
        })
    }

    /// Its target, for tests and reports.
    #[cfg(test)]
    fn target(&self) -> &str {
        match self {
            Due::Call(c) => &c.target,
            Due::Blocked { target, .. } => target,
        }
    }
}

/// A keeper duty: what one pass reads for it, and the pure rule of which calls are due from what it read.
trait KeeperDuty {
    /// Which duty this is.
    const DUTY: Duty;
    /// What one pass reads for it.
    type Seen;
    /// Reads it from the chain (and the publications).
    async fn look(eye: &mut look::Eye<'_>) -> Result<Self::Seen>;
    /// The calls due, from what was read, at `at`. No I/O.
    fn due(seen: &Self::Seen, at: &PassAt) -> Vec<Due>;
}

/// One pass over `opts.duties` (see the module doc).
///
/// # Errors
/// A chain read that fails (the caller retries the pass); a failed send is an [`Outcome::Failed`], not an
/// error, so one duty's failure does not stop the others.
pub async fn pass(
    chain: &Chain,
    pubs: &Publications,
    opts: &KeepOpts,
    memory: &mut Memory,
) -> Result<PassReport> {
    if let Some(me) = chain.from {
        if chain.has_pending_tx(me).await? {
            return Ok(PassReport {
                transaction_pending: true,
                done: vec![],
            });
        }
    }
    let (head, now) = chain.head().await?;
    let at = PassAt {
        now,
        me: chain.from,
        slippage_bps: opts.slippage_bps,
    };
    let mut eye = look::Eye {
        chain,
        pubs,
        memory,
        head,
        me: chain.from,
        launches: None,
        now,
        dry_run: opts.dry_run,
        payout_dir: opts.payout_dir.as_deref(),
    };
    let mut sender = send::Sender::new(chain, opts);
    for duty in Duty::ALL {
        if !opts.duties.contains(&duty) {
            continue;
        }
        match duty {
            Duty::Finalize => run::<finalize::Finalize>(&mut eye, &mut sender, &at).await?,
            Duty::Scores => run::<scores::Scores>(&mut eye, &mut sender, &at).await?,
            // Curve fees reach the scorer lanes first, so the lanes are read after they are collected.
            Duty::Fees => {
                run::<fees::CurveFees>(&mut eye, &mut sender, &at).await?;
                run::<fees::ScorerLanes>(&mut eye, &mut sender, &at).await?;
            }
            Duty::Sweep => {
                run::<sweep::Returned>(&mut eye, &mut sender, &at).await?;
                run::<sweep::Escrows>(&mut eye, &mut sender, &at).await?;
            }
            Duty::Buyback => run::<buyback::Buyback>(&mut eye, &mut sender, &at).await?,
            Duty::Rollover => run::<rollover::Rollover>(&mut eye, &mut sender, &at).await?,
            Duty::Payouts => run::<payouts::Payouts>(&mut eye, &mut sender, &at).await?,
            Duty::Duels => run::<duels::Duels>(&mut eye, &mut sender, &at).await?,
            Duty::Calls => run::<calls::Calls>(&mut eye, &mut sender, &at).await?,
        }
    }
    Ok(PassReport {
        transaction_pending: false,
        done: sender.done,
    })
}

/// One duty: look, decide, then make each due call in order (each mined before the next is simulated).
async fn run<D: KeeperDuty>(
    eye: &mut look::Eye<'_>,
    sender: &mut send::Sender<'_>,
    at: &PassAt,
) -> Result<()> {
    let seen = D::look(eye).await?;
    for due in D::due(&seen, at) {
        sender.make(D::DUTY, due).await?;
    }
    Ok(())
}

fn decimal<S: serde::Serializer>(v: &U256, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.collect_str(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pass at chain time `now`, by a keeper with no key, allowing 1 % slippage.
    pub(super) fn at(now: u64) -> PassAt {
        PassAt {
            now,
            me: None,
            slippage_bps: 100,
        }
    }

    /// The (function, target) of each due call; a blocked one as `blocked: <function>`.
    pub(super) fn calls_of(due: &[Due]) -> Vec<(&'static str, String)> {
        due.iter()
            .map(|d| match d {
                Due::Call(c) => (c.signature, c.target.clone()),
                Due::Blocked { .. } => ("blocked", d.target().to_string()),
            })
            .collect()
    }

    /// The one call due.
    pub(super) fn only_call(due: &[Due]) -> &DueCall {
        match due {
            [Due::Call(c)] => c,
            other => panic!("one call expected, got {other:?}"),
        }
    }
}
