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
//! settled part kept in memory for the run; the contracts' state), never from a local file, so a restarted keeper resumes where the chain is; each call is
//! mined before the next is simulated; and a pass sends nothing while a transaction of the keeper's account is
//! pending, so a restart or a slow node cannot make it send a duty twice.

use crate::abi::{
    CallLedger, DuelHook, EpochRegistry, FeeLanes, HolderDistributor, LaunchLocker, Launchpad,
    RootBuyback, ScorerRegistry,
};
use crate::chain::{confirm, Chain, Sent};
use crate::error::{OpError, Result};
use crate::publication::Publications;
use alloy::primitives::{Address, Bytes, B256, U256};
use alloy::providers::Provider;
use alloy::rpc::types::{Filter, Log, TransactionRequest};
use alloy::sol_types::{SolCall, SolError, SolEvent};
use eden_core::registry::{EpochSlot, EpochStatus};
use eden_core::scoring::EpochTree;
use serde::Serialize;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

/// A graduated launch's escrow that a sweep spends in its pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Escrow {
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

/// How long a sent call is awaited before the pass reports it and moves on.
const MINE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(600);

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
    /// Settle duel rounds that closed with no trade since.
    Duels,
    /// Expire commits not revealed by their deadline.
    Calls,
}

impl Duty {
    /// Every duty, in the order a pass runs them.
    pub const ALL: [Duty; 8] = [
        Duty::Finalize,
        Duty::Scores,
        Duty::Fees,
        Duty::Sweep,
        Duty::Buyback,
        Duty::Rollover,
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
}

/// What became of one due call.
#[derive(Debug, Clone, Serialize)]
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
    finals: HashMap<(u64, B256), Arc<FinalScores>>,
}

/// A final epoch's score leaves (one per project: its published score, C27), checked against its final root.
struct FinalScores {
    tree: EpochTree,
    scores: HashMap<Address, (U256, B256)>,
}

/// A simulation's result: the return data, or the revert.
enum Sim {
    Ok(Bytes),
    Revert { data: Bytes, message: String },
}

impl Sim {
    /// The revert's selector, when the revert carries one.
    fn selector(&self) -> Option<[u8; 4]> {
        match self {
            Sim::Revert { data, .. } if data.len() >= 4 => data[..4].try_into().ok(),
            _ => None,
        }
    }

    /// True when it reverted with one of `not_due`.
    fn not_due(&self, not_due: &[[u8; 4]]) -> bool {
        self.selector().is_some_and(|s| not_due.contains(&s))
    }
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
    let mut k = Keeper {
        chain,
        opts,
        me: chain.from,
        head,
        now,
        done: Vec::new(),
    };
    for duty in Duty::ALL {
        if !opts.duties.contains(&duty) {
            continue;
        }
        match duty {
            Duty::Finalize => k.finalize().await?,
            Duty::Scores => k.scores(pubs, memory).await?,
            Duty::Fees => k.fees(memory).await?,
            Duty::Sweep => k.sweep(memory).await?,
            Duty::Buyback => k.buyback().await?,
            Duty::Rollover => k.rollover().await?,
            Duty::Duels => k.duels().await?,
            Duty::Calls => k.calls().await?,
        }
    }
    Ok(PassReport {
        transaction_pending: false,
        done: k.done,
    })
}

struct Keeper<'a> {
    chain: &'a Chain,
    opts: &'a KeepOpts,
    me: Option<Address>,
    head: u64,
    now: u64,
    done: Vec<Done>,
}

impl Keeper<'_> {
    fn tx(&self, to: Address, call: &impl SolCall) -> TransactionRequest {
        self.tx_data(to, call.abi_encode())
    }

    /// A transaction of already encoded calldata from the keeper's account.
    fn tx_data(&self, to: Address, data: Vec<u8>) -> TransactionRequest {
        let t = TransactionRequest::default().to(to).input(data.into());
        match self.me {
            Some(me) => t.from(me),
            None => t,
        }
    }

    /// `eth_call` of `tx` at the latest block.
    async fn simulate(&self, tx: &TransactionRequest) -> Result<Sim> {
        match self.chain.provider.call(tx.clone()).await {
            Ok(b) => Ok(Sim::Ok(b)),
            Err(e) => match e.as_error_resp() {
                Some(p) => Ok(Sim::Revert {
                    data: p.as_revert_data().unwrap_or_default(),
                    message: p.message.to_string(),
                }),
                None => Err(OpError::rpc(e)),
            },
        }
    }

    /// Decodes a simulation's return as `C`'s, or reports its revert (unless it is one of `not_due`).
    /// `None`: not due, or reported.
    fn due<C: SolCall>(
        &mut self,
        sim: Sim,
        not_due: &[[u8; 4]],
        duty: Duty,
        target: &str,
        why: &str,
    ) -> Option<C::Return> {
        if sim.not_due(not_due) {
            return None;
        }
        match sim {
            Sim::Ok(ret) => match C::abi_decode_returns(&ret) {
                Ok(r) => Some(r),
                Err(e) => {
                    self.record(
                        duty,
                        C::SIGNATURE,
                        target,
                        why,
                        Outcome::WouldRevert {
                            reason: format!("unreadable return: {e}"),
                        },
                    );
                    None
                }
            },
            Sim::Revert { data, message } => {
                let reason = reason(&data).unwrap_or(message);
                self.record(
                    duty,
                    C::SIGNATURE,
                    target,
                    why,
                    Outcome::WouldRevert { reason },
                );
                None
            }
        }
    }

    fn record(&mut self, duty: Duty, call: &'static str, target: &str, why: &str, o: Outcome) {
        self.done.push(Done {
            duty,
            call: call.split('(').next().unwrap_or(call),
            target: target.to_string(),
            why: why.to_string(),
            outcome: o,
        });
    }

    /// Sends a due call (simulated already), weighing `eth_moved` against its gas cost when given.
    async fn send<C: SolCall>(
        &mut self,
        duty: Duty,
        to: Address,
        call: &C,
        target: &str,
        why: &str,
        eth_moved: Option<U256>,
    ) -> Result<()> {
        let tx = self.tx(to, call);
        if let Some(amount) = eth_moved {
            let gas = match self.chain.provider.estimate_gas(tx.clone()).await {
                Ok(g) => g,
                // The node refuses the estimate (the state moved since the simulation): reported, not sent.
                Err(e) if e.as_error_resp().is_some() => {
                    let reason = e
                        .as_error_resp()
                        .and_then(|p| p.as_revert_data())
                        .and_then(|d| reason(&d))
                        .unwrap_or_else(|| e.to_string());
                    self.record(
                        duty,
                        C::SIGNATURE,
                        target,
                        why,
                        Outcome::WouldRevert { reason },
                    );
                    return Ok(());
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
            if amount < cost.saturating_mul(U256::from(self.opts.min_gain)) {
                self.record(
                    duty,
                    C::SIGNATURE,
                    target,
                    why,
                    Outcome::NotWorthIt { amount, cost },
                );
                return Ok(());
            }
        }
        if self.opts.dry_run || self.me.is_none() {
            self.record(duty, C::SIGNATURE, target, why, Outcome::WouldSend);
            return Ok(());
        }
        let outcome = match self.chain.provider.send_transaction(tx).await {
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
        };
        self.record(duty, C::SIGNATURE, target, why, outcome);
        Ok(())
    }

    /// Simulates `call` and, when it is due, sends it; `eth_moved` names the ETH it moves (from its simulated
    /// return), which is weighed against its gas.
    #[allow(clippy::too_many_arguments)]
    async fn attempt<C: SolCall>(
        &mut self,
        duty: Duty,
        to: Address,
        call: C,
        target: &str,
        why: &str,
        not_due: &[[u8; 4]],
        eth_moved: impl FnOnce(C::Return) -> Option<U256>,
    ) -> Result<()> {
        let sim = self.simulate(&self.tx(to, &call)).await?;
        if let Some(r) = self.due::<C>(sim, not_due, duty, target, why) {
            let eth = eth_moved(r);
            self.send(duty, to, &call, target, why, eth).await?;
        }
        Ok(())
    }

    async fn logs<E: SolEvent>(&self, at: Address) -> Result<Vec<(Log, E)>> {
        let filter = Filter::new().address(at).event_signature(E::SIGNATURE_HASH);
        self.chain
            .logs_since_deployment(&filter, self.head)
            .await?
            .into_iter()
            .map(|l| {
                let ev = l.log_decode::<E>().map_err(OpError::rpc)?.inner.data;
                Ok((l, ev))
            })
            .collect()
    }

    /// The launches, read once each (`Launchpad.tokens` only grows).
    async fn tokens(&self, memory: &mut Memory) -> Result<Vec<Address>> {
        let pad = Launchpad::new(self.chain.net.contracts.launchpad, &self.chain.provider);
        let n: u64 = pad
            .launchCount()
            .call()
            .await
            .map_err(OpError::rpc)?
            .try_into()
            .unwrap_or(u64::MAX);
        for i in memory.tokens.len() as u64..n {
            memory.tokens.push(
                pad.tokens(U256::from(i))
                    .call()
                    .await
                    .map_err(OpError::rpc)?,
            );
        }
        Ok(memory.tokens.clone())
    }

    /// C7: finalize pending roots whose window has passed; lapse challenges left without a ruling.
    async fn finalize(&mut self) -> Result<()> {
        use EpochRegistry::{
            AdjudicationOpen, NotChallenged, NotPending, RootProposed, WindowOpen,
        };
        let at = self.chain.net.contracts.epoch_registry;
        let reg = self.chain.registry();
        let epochs: BTreeSet<u64> = self
            .logs::<RootProposed>(at)
            .await?
            .into_iter()
            .map(|(_, e)| e.epoch)
            .collect();
        for epoch in epochs {
            let st = reg.status(epoch).call().await.map_err(OpError::rpc)?;
            let target = format!("epoch {epoch}");
            let slot = EpochSlot {
                status: EpochStatus::from_code(st._0),
                deadline: st.deadline,
                challenges: 0,
            };
            match slot.status {
                EpochStatus::Pending if slot.finalizable(self.now) => {
                    let call = EpochRegistry::finalizeCall { epoch };
                    let why = format!("its challenge window ended at {}", st.deadline);
                    let not_due = [WindowOpen::SELECTOR, NotPending::SELECTOR];
                    self.attempt(Duty::Finalize, at, call, &target, &why, &not_due, |_| None)
                        .await?;
                }
                EpochStatus::Challenged => {
                    let call = EpochRegistry::lapseCall { epoch };
                    let why = "challenged, and the adjudicator has not ruled within 7 days";
                    let not_due = [AdjudicationOpen::SELECTOR, NotChallenged::SELECTOR];
                    self.attempt(Duty::Finalize, at, call, &target, why, &not_due, |_| None)
                        .await?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// C17: record each launch's score of the latest final epoch in the fee lanes (never an older one).
    async fn scores(&mut self, pubs: &Publications, memory: &mut Memory) -> Result<()> {
        use FeeLanes::{NotLatestFinal, StaleScore};
        let Some(at) = self.chain.net.contracts.fee_lanes else {
            return Ok(());
        };
        let reg = self.chain.registry();
        if !reg.hasFinalEpoch().call().await.map_err(OpError::rpc)? {
            return Ok(());
        }
        let latest = reg.latestFinalEpoch().call().await.map_err(OpError::rpc)?;
        let root = reg.finalRoot(latest).call().await.map_err(OpError::rpc)?;
        let lanes = FeeLanes::new(at, &self.chain.provider);
        let mut scores: Option<Arc<FinalScores>> = None;
        for token in self.tokens(memory).await? {
            let recorded = lanes
                .scoreRecorded(token)
                .call()
                .await
                .map_err(OpError::rpc)?;
            let held = lanes
                .scoreEpochOf(token)
                .call()
                .await
                .map_err(OpError::rpc)?;
            if recorded && held >= latest {
                continue;
            }
            let table = match &scores {
                Some(t) => t.clone(),
                None => match final_scores(pubs, memory, latest, root).await {
                    Ok(t) => {
                        scores = Some(t.clone());
                        t
                    }
                    Err(reason) => {
                        self.record(
                            Duty::Scores,
                            FeeLanes::updateScoreCall::SIGNATURE,
                            &format!("epoch {latest}"),
                            "the latest final epoch's scores are needed to record them",
                            Outcome::Unavailable { reason },
                        );
                        return Ok(());
                    }
                },
            };
            // No leaf for this launch in the latest final epoch: nothing to record.
            let Some(&(score, leaf)) = table.scores.get(&token) else {
                continue;
            };
            let Some(proof) = table.tree.proof(&leaf) else {
                continue;
            };
            let call = FeeLanes::updateScoreCall {
                token,
                epoch: latest,
                scoreWad: score,
                proof,
            };
            let target = format!("token {token}");
            let why = if recorded {
                format!("FeeLanes holds epoch {held}'s score; epoch {latest} is the latest final")
            } else {
                format!("FeeLanes holds no score; epoch {latest} is the latest final")
            };
            let not_due = [StaleScore::SELECTOR, NotLatestFinal::SELECTOR];
            self.attempt(Duty::Scores, at, call, &target, &why, &not_due, |_| None)
                .await?;
        }
        Ok(())
    }

    /// C17/C11: curve fees into the lanes, then each scorer lane into its scorer pool.
    async fn fees(&mut self, memory: &mut Memory) -> Result<()> {
        let pad_at = self.chain.net.contracts.launchpad;
        let pad = Launchpad::new(pad_at, &self.chain.provider);
        let tokens = self.tokens(memory).await?;
        for &token in &tokens {
            let l = pad.launchOf(token).call().await.map_err(OpError::rpc)?;
            if l.graduated {
                // #14: the locked position's pool fees, split like curve fees (the token side burned).
                let call = Launchpad::collectPoolFeesCall { token };
                let target = format!("token {token}");
                let not_due = [Launchpad::NothingToCollect::SELECTOR];
                self.attempt(
                    Duty::Fees,
                    pad_at,
                    call,
                    &target,
                    "its pool position earned fees",
                    &not_due,
                    |r| l.quote.is_zero().then_some(r.amount),
                )
                .await?;
            }
            if l.feesAccrued.is_zero() {
                continue;
            }
            let call = Launchpad::collectFeesCall { token };
            let target = format!("token {token}");
            let why = format!("{} in curve fees accrued", l.feesAccrued);
            let not_due = [Launchpad::NothingToCollect::SELECTOR];
            self.attempt(
                Duty::Fees,
                pad_at,
                call,
                &target,
                &why,
                &not_due,
                |amount| l.quote.is_zero().then_some(amount),
            )
            .await?;
        }
        let (Some(reg_at), Some(lanes_at)) = (
            self.chain.net.contracts.scorer_registry,
            self.chain.net.contracts.fee_lanes,
        ) else {
            return Ok(());
        };
        let sr = ScorerRegistry::new(reg_at, &self.chain.provider);
        let lanes = FeeLanes::new(lanes_at, &self.chain.provider);
        for &token in &tokens {
            let p = sr.pool(token).call().await.map_err(OpError::rpc)?;
            if !p.configured {
                continue;
            }
            let lane = lanes
                .scorerPool(token, p.asset)
                .call()
                .await
                .map_err(OpError::rpc)?;
            if lane.is_zero() {
                continue;
            }
            let call = ScorerRegistry::pullFeesCall { token };
            let target = format!("token {token}");
            let why = format!("its scorer lane holds {lane}");
            // Below 1 % of the pool's undripped balance a pull would restart the drip for dust
            // (C11, decided): the fees wait in the lane until they reach it.
            let not_due = [
                FeeLanes::NothingToPay::SELECTOR,
                ScorerRegistry::ZeroAmount::SELECTOR,
                ScorerRegistry::FundingTooSmall::SELECTOR,
            ];
            self.attempt(
                Duty::Fees,
                reg_at,
                call,
                &target,
                &why,
                &not_due,
                |amount| p.asset.is_zero().then_some(amount),
            )
            .await?;
        }
        Ok(())
    }

    /// C11/§9.3: returned scorer rewards to the buyback; graduated launches' liquidity escrows into their pools.
    async fn sweep(&mut self, memory: &mut Memory) -> Result<()> {
        let tokens = self.tokens(memory).await?;
        if let Some(reg_at) = self.chain.net.contracts.scorer_registry {
            let sr = ScorerRegistry::new(reg_at, &self.chain.provider);
            for &token in &tokens {
                let p = sr.pool(token).call().await.map_err(OpError::rpc)?;
                if !p.configured {
                    continue;
                }
                let call = ScorerRegistry::sweepReturnedCall { token };
                let target = format!("token {token}");
                let why = "scorer rewards returned by ended positions wait for the buyback";
                let not_due = [ScorerRegistry::NothingToSweep::SELECTOR];
                self.attempt(
                    Duty::Sweep,
                    reg_at,
                    call,
                    &target,
                    why,
                    &not_due,
                    |amount| p.asset.is_zero().then_some(amount),
                )
                .await?;
            }
        }
        let Some(lanes_at) = self.chain.net.contracts.fee_lanes else {
            return Ok(());
        };
        let lanes = FeeLanes::new(lanes_at, &self.chain.provider);
        let pad = Launchpad::new(self.chain.net.contracts.launchpad, &self.chain.provider);
        let keeper = lanes.keeper().call().await.map_err(OpError::rpc)?;
        let owner = lanes.owner().call().await.map_err(OpError::rpc)?;
        let allowed = self.me.is_some_and(|me| me == keeper || me == owner);
        for &token in &tokens {
            let liquidity = lanes
                .liquidityEscrow(token)
                .call()
                .await
                .map_err(OpError::rpc)?;
            let own = lanes
                .ownBuybackEscrow(token)
                .call()
                .await
                .map_err(OpError::rpc)?;
            if liquidity.is_zero() && own.is_zero() {
                continue;
            }
            let l = pad.launchOf(token).call().await.map_err(OpError::rpc)?;
            if !l.graduated {
                continue;
            }
            let auth = (allowed, keeper, owner);
            for (escrow, kind) in [(liquidity, Escrow::Liquidity), (own, Escrow::OwnBuyback)] {
                if !escrow.is_zero() {
                    self.sweep_escrow(lanes_at, token, kind, escrow, l.quote, auth)
                        .await?;
                }
            }
        }
        Ok(())
    }

    /// C26: `RootBuyback.run` for ETH and every asset the buyback has a route for, when it could spend some now. The buyback is
    /// the fee lanes' `buyback` receiver; a receiver that is not a `RootBuyback` (an account) is left alone. A run
    /// the oracle guards refuse (price off the TWAP, stale feed) is reported and retried next pass.
    async fn buyback(&mut self) -> Result<()> {
        let Some(lanes_at) = self.chain.net.contracts.fee_lanes else {
            return Ok(());
        };
        let lanes = FeeLanes::new(lanes_at, &self.chain.provider);
        let at = lanes.buyback().call().await.map_err(OpError::rpc)?;
        let rb = RootBuyback::new(at, &self.chain.provider);
        // The assets it has a route for, from its `RouteSet` logs (as the app finds them); ETH always. An asset
        // without a route has nothing pending, so no launch needs to be read for its quote.
        let mut assets = BTreeSet::from([Address::ZERO]);
        assets.extend(
            self.logs::<RootBuyback::RouteSet>(at)
                .await?
                .into_iter()
                .map(|(_, e)| e.asset),
        );
        for asset in assets {
            // Not a RootBuyback (or no route for the asset): nothing this duty can do.
            let Ok(pending) = rb.pending(asset).call().await else {
                return Ok(());
            };
            if pending.is_zero() {
                continue;
            }
            let target = if asset.is_zero() {
                "ETH".to_string()
            } else {
                format!("asset {asset}")
            };
            let why = format!("{pending} of the pair asset waits to buy ROOT");
            let not_due = [
                RootBuyback::NothingToBuy::SELECTOR,
                RootBuyback::NoRoute::SELECTOR,
            ];
            let call = RootBuyback::runCall { asset };
            self.attempt(Duty::Buyback, at, call, &target, &why, &not_due, |o| {
                asset.is_zero().then_some(o.ethSpent)
            })
            .await?;
        }
        Ok(())
    }

    /// One of a graduated launch's escrows into its pool (§9.3 liquidity, §7 own-token buyback): the lanes'
    /// keeper or owner only; the swap's output is probed with a minimum no swap can meet (the locker's error
    /// names what it would buy) and the call sent with that output less the slippage as its minimum.
    async fn sweep_escrow(
        &mut self,
        lanes_at: Address,
        token: Address,
        kind: Escrow,
        escrow: U256,
        quote: Address,
        (allowed, keeper, owner): (bool, Address, Address),
    ) -> Result<()> {
        let target = format!("token {token}");
        let why = format!("{escrow} waits in its {}", kind.noun());
        if !allowed {
            self.record(
                Duty::Sweep,
                kind.signature(),
                &target,
                &why,
                Outcome::WouldRevert {
                    reason: format!(
                        "only FeeLanes' keeper ({keeper}) or owner ({owner}) may sweep the {}",
                        kind.noun()
                    ),
                },
            );
            return Ok(());
        }
        let bought = match self
            .simulate(&self.tx_data(lanes_at, kind.calldata(token, U256::MAX)))
            .await?
        {
            Sim::Revert { data, message } => match kind.bought(&data) {
                Some(b) => b,
                None => {
                    let reason = reason(&data).unwrap_or(message);
                    self.record(
                        Duty::Sweep,
                        kind.signature(),
                        &target,
                        &why,
                        Outcome::WouldRevert { reason },
                    );
                    return Ok(());
                }
            },
            Sim::Ok(_) => return Ok(()),
        };
        let min = min_out_rounded_up(bought, self.opts.slippage_bps);
        let not_due = [FeeLanes::NothingToPay::SELECTOR];
        let eth = quote.is_zero().then_some(escrow);
        match kind {
            Escrow::Liquidity => {
                let call = FeeLanes::sweepLiquidityCall {
                    token,
                    minTokensOut: min,
                };
                self.attempt(Duty::Sweep, lanes_at, call, &target, &why, &not_due, |_| {
                    eth
                })
                .await
            }
            Escrow::OwnBuyback => {
                let call = FeeLanes::sweepOwnBuybackCall {
                    token,
                    minTokensOut: min,
                };
                self.attempt(Duty::Sweep, lanes_at, call, &target, &why, &not_due, |_| {
                    eth
                })
                .await
            }
        }
    }

    /// C18: return the unclaimed remainder of every closed payout round to its pot.
    async fn rollover(&mut self) -> Result<()> {
        use HolderDistributor::{AlreadySettled, RootPosted, StillOpen};
        let at = self.chain.net.contracts.holder_distributor;
        let hd = HolderDistributor::new(at, &self.chain.provider);
        let rounds: BTreeSet<(Address, Address, u64)> = self
            .logs::<RootPosted>(at)
            .await?
            .into_iter()
            .map(|(_, e)| (e.token, e.asset, e.epoch))
            .collect();
        for (token, asset, epoch) in rounds {
            let r = hd
                .round(token, asset, epoch)
                .call()
                .await
                .map_err(OpError::rpc)?;
            if r.settled || self.now < r.closesAt {
                continue;
            }
            let call = HolderDistributor::rolloverCall {
                token,
                asset,
                epoch,
            };
            let target = format!("round {epoch} of {token} (asset {asset})");
            let why = format!(
                "closed at {}; {} unclaimed returns to the pot",
                r.closesAt,
                U256::from(r.total) - U256::from(r.claimed)
            );
            let not_due = [StillOpen::SELECTOR, AlreadySettled::SELECTOR];
            self.attempt(Duty::Rollover, at, call, &target, &why, &not_due, |_| None)
                .await?;
        }
        Ok(())
    }

    /// B7: settle every duel whose active round has closed with no trade since.
    async fn duels(&mut self) -> Result<()> {
        let Some(at) = self.chain.net.contracts.duel_hook else {
            return Ok(());
        };
        let hook = DuelHook::new(at, &self.chain.provider);
        let n: u64 = hook
            .duelCount()
            .call()
            .await
            .map_err(OpError::rpc)?
            .try_into()
            .unwrap_or(u64::MAX);
        for id in 0..n {
            let call = DuelHook::settleCall {
                duelId: U256::from(id),
            };
            let target = format!("duel {id}");
            let why = "its round closed and nobody has traded since";
            let not_due = [DuelHook::NothingToSettle::SELECTOR];
            self.attempt(Duty::Duels, at, call, &target, why, &not_due, |_| None)
                .await?;
        }
        Ok(())
    }

    /// Calls: expire every commit not revealed by its deadline (it counts as a miss, A1).
    async fn calls(&mut self) -> Result<()> {
        use CallLedger::{CallExpired, Committed, NotExpiredYet, Revealed, WrongStatus};
        let Some(at) = self.chain.net.contracts.call_ledger else {
            return Ok(());
        };
        let mut open: BTreeSet<U256> = self
            .logs::<Committed>(at)
            .await?
            .into_iter()
            .map(|(_, e)| e.id)
            .collect();
        for (_, e) in self.logs::<Revealed>(at).await? {
            open.remove(&e.id);
        }
        for (_, e) in self.logs::<CallExpired>(at).await? {
            open.remove(&e.id);
        }
        for id in open {
            let call = CallLedger::expireCall { id };
            let target = format!("call {id}");
            let why = "committed and not revealed by its deadline: a miss";
            let not_due = [NotExpiredYet::SELECTOR, WrongStatus::SELECTOR];
            self.attempt(Duty::Calls, at, call, &target, why, &not_due, |_| None)
                .await?;
        }
        Ok(())
    }
}

/// `amount × (10,000 − slippage_bps) / 10,000`, rounded up (the bound is never looser than the tolerance).
pub fn min_out_rounded_up(amount: U256, slippage_bps: u64) -> U256 {
    let (s, d) = (U256::from(slippage_bps.min(10_000)), U256::from(10_000u64));
    // amount − ⌊amount × s / 10,000⌋, without overflow.
    amount - ((amount / d) * s + (amount % d) * s / d)
}

/// The latest final epoch's score table: its bundle from the publications, every leaf recomputed from its
/// values, the tree checked to give the final root (kept for the epoch).
async fn final_scores(
    pubs: &Publications,
    memory: &mut Memory,
    epoch: u64,
    root: B256,
) -> std::result::Result<Arc<FinalScores>, String> {
    if let Some(t) = memory.finals.get(&(epoch, root)) {
        return Ok(t.clone());
    }
    let bundle = pubs.bundle(&root).await.map_err(|e| e.to_string())?;
    let table = tokio::task::block_in_place(|| {
        let leaves = bundle
            .recomputed_leaves()
            .map_err(|(h, e)| format!("thesis {h}: {e}"))?;
        // C27: each project's one score leaf, its published score (pre-data projects included).
        let scores: HashMap<Address, (U256, B256)> = bundle
            .score_leaves()
            .into_iter()
            .map(|(p, s)| (p, (s, eden_core::leaves::score_leaf(p, s))))
            .collect();
        let tree = EpochTree::new(leaves).ok_or("the bundle has no leaves")?;
        if tree.root() != root {
            return Err(format!(
                "the published bundle gives root {}, not the final root {root}",
                tree.root()
            ));
        }
        Ok(FinalScores { tree, scores })
    })?;
    let t = Arc::new(table);
    memory.finals.insert((epoch, root), t.clone());
    Ok(t)
}

/// A revert's reason as one of the keeper's contracts' custom errors, where an ABI knows it.
/// A revert in `eden_chain`'s words, with the Solidity error it is when it is one of the contracts':
/// "this duel's round has not closed yet: nothing to settle (NothingToSettle(uint256))".
fn reason(data: &[u8]) -> Option<String> {
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

fn decimal<S: serde::Serializer>(v: &U256, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.collect_str(v)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let sim = Sim::Revert {
            data: data.into(),
            message: String::new(),
        };
        assert!(sim.not_due(&[DuelHook::NothingToSettle::SELECTOR]));
        assert!(!sim.not_due(&[CallLedger::NotExpiredYet::SELECTOR]));
    }
}
