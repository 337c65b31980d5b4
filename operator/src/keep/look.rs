//! The reads duties share: a contract's events since the deployment block, the launches, and a call simulated
//! from the keeper's account.

use super::Memory;
use crate::chain::Chain;
use crate::error::{OpError, Result};
use crate::publication::Publications;
use alloy::primitives::{Address, Bytes};
use alloy::providers::Provider;
use alloy::rpc::types::{Filter, TransactionRequest};
use alloy::sol_types::SolEvent;
use eden_chain::lanes::{LaneContracts, LaunchLanes, Parts};

/// What a duty reads through: the chain at the pass's head, the publications, and the run's memory.
pub(super) struct Eye<'a> {
    /// The chain.
    pub(super) chain: &'a Chain,
    /// The deployment's publications.
    pub(super) pubs: &'a Publications,
    /// What the run keeps between passes.
    pub(super) memory: &'a mut Memory,
    /// The pass's head block.
    pub(super) head: u64,
    /// The keeper's account, when it has a key.
    pub(super) me: Option<Address>,
    /// The launches as this pass first read them (`None`: not read yet this pass).
    pub(super) launches: Option<Vec<Address>>,
    /// The head block's timestamp.
    pub(super) now: u64,
    /// A dry run: a duty writes nothing either.
    pub(super) dry_run: bool,
    /// Where payout rounds are published.
    pub(super) payout_dir: Option<&'a std::path::Path>,
}

/// A simulation's result: the return data, or the revert.
#[derive(Debug, Clone)]
pub(super) enum Sim {
    /// It would succeed, returning this.
    Ok(Bytes),
    /// It would revert with this data (a custom error) and the node's message.
    Revert {
        /// The revert data.
        data: Bytes,
        /// The node's message.
        message: String,
    },
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
    pub(super) fn not_due(&self, not_due: &[[u8; 4]]) -> bool {
        self.selector().is_some_and(|s| not_due.contains(&s))
    }
}

impl Eye<'_> {
    /// Every `E` event `at` emitted from the deployment block to the head, decoded.
    pub(super) async fn events<E: SolEvent>(&self, at: Address) -> Result<Vec<E>> {
        let filter = Filter::new().address(at).event_signature(E::SIGNATURE_HASH);
        self.chain
            .logs_since_deployment(&filter, self.head)
            .await?
            .into_iter()
            .map(|l| Ok(l.log_decode::<E>().map_err(OpError::rpc)?.inner.data))
            .collect()
    }

    /// The launches, each read once per run (`Launchpad.tokens` only grows), and their count once per pass:
    /// every duty of a pass sees the launches as its first read found them, as it sees the logs up to the
    /// pass's head.
    pub(super) async fn tokens(&mut self) -> Result<Vec<Address>> {
        if let Some(launches) = &self.launches {
            return Ok(launches.clone());
        }
        let pad = self.chain.net.contracts.launchpad;
        let n = eden_chain::launchpad::params(self.chain, pad).await?.count;
        let known = self.memory.tokens.len() as u64;
        if n > known {
            let new = eden_chain::launchpad::tokens(self.chain, pad, known, n).await?;
            self.memory.tokens.extend(new);
        }
        self.launches = Some(self.memory.tokens.clone());
        Ok(self.memory.tokens.clone())
    }

    /// Every launch's record and the `parts` a duty needs of its fee-lane state and scorer pool
    /// ([`eden_chain::lanes::read_launches`]: at most two batches whatever their number), read when a duty
    /// looks: it sees what the duties before it in the pass sent (a launch's fees collected into the lanes, a
    /// score recorded).
    pub(super) async fn lanes(&mut self, parts: Parts) -> Result<Vec<LaunchLanes>> {
        let tokens = self.tokens().await?;
        let c = &self.chain.net.contracts;
        let at = LaneContracts {
            launchpad: c.launchpad,
            fee_lanes: c.fee_lanes,
            scorer_registry: c.scorer_registry,
        };
        Ok(eden_chain::lanes::read_launches(self.chain, at, &tokens, parts).await?)
    }

    /// `data` on `to`, simulated from the keeper's account at the latest block.
    pub(super) async fn simulate(&self, to: Address, data: Vec<u8>) -> Result<Sim> {
        simulate(self.chain, self.me, to, data).await
    }
}

/// `eth_call` of `data` on `to` from `from` at the latest block: its return, or its revert.
///
/// # Errors
/// The node did not answer (a transport error), as opposed to answering with a revert.
pub(super) async fn simulate(
    chain: &Chain,
    from: Option<Address>,
    to: Address,
    data: Vec<u8>,
) -> Result<Sim> {
    match chain.provider.call(transaction(from, to, data)).await {
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

/// A transaction of `data` on `to`, from `from` when the keeper has a key.
pub(super) fn transaction(from: Option<Address>, to: Address, data: Vec<u8>) -> TransactionRequest {
    let t = TransactionRequest::default().to(to).input(data.into());
    match from {
        Some(me) => t.from(me),
        None => t,
    }
}
