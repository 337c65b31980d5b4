//! The call ledger state machine (A1–A4): commit → reveal → resolve, or commit → expire.
//!
//! 1. **Commit** (`commit`): an agent whose stake is at least `minStake` posts
//!    `commitment = keccak256(abi.encode(address agent, address asset, uint8 direction,
//!    uint64 window, bytes32 salt))` with `direction` 0 = down, 1 = up (**decided**; the same
//!    32-byte words as `bool up` / `uint256 window`, so either Solidity spelling hashes equally).
//!    A commitment can be posted once.
//! 2. **Reveal** (`reveal`): the agent opens the commitment at `now` with
//!    `committedAt + minRevealAge ≤ now ≤ committedAt + revealDeadline` (**decided**:
//!    [`DEFAULT_REVEAL_DEADLINE_SECS`] = 1 hour, a [`LedgerConfig`] parameter; **decided after the
//!    second review**: [`DEFAULT_MIN_REVEAL_AGE_SECS`] = 300 s, the TWAP window, so a call copied
//!    from a public reveal needs a commitment made before it, and a copy committed after it enters
//!    on a window that starts at or after it). The entry price
//!    is the TWAP ending at reveal (A5, an input), `closesAt = now + window`, and the reveal adds
//!    `vote = 1 + score(agent)` to round `(asset, window, closesAt / window)` (A4), which may
//!    emit a [`ConsensusEvent`] (appended to the consensus log). **decided**: one vote per agent
//!    per round, so `voters` counts distinct agents (quorum 3 = three staked agents): a later
//!    reveal by the same agent into the same round is still a scored call but adds no vote
//!    ([`LedgerConfig::one_vote_per_agent`], default `true`; `false` makes every reveal a vote).
//! 3. **Resolve** (`resolve`) at any `now ≥ closesAt` with the exit TWAP ending at `closesAt`,
//!    or `None` when the observation buffer no longer covers it: hit / miss / void (A3), applied
//!    to the agent's record (A2). **decided** (after the contract review): resolved after
//!    `closesAt + resolveGrace` ([`DEFAULT_RESOLVE_GRACE_SECS`], 1 hour), or with no exit price,
//!    the call is a **miss**, never a void: an agent cannot void a losing call by leaving it
//!    unresolved or by pushing the pool's observation buffer past it.
//!    **decided** (after the review, A5): a call entered on pushed prices whose `closesAt` is
//!    after the asset's pool was set resolves from neither source ([`pushed_call_superseded`],
//!    [`CallLedger::resolve_superseded`]): void in time, a miss when late.
//! 4. **Expire** (`expire`): a commit not revealed by its deadline (`now > committedAt +
//!    revealDeadline`) expires and counts as a miss (A2).
//! 5. **Overdue calls count at once** (decided after the review): [`CallLedger::score_at`]
//!    counts every open call past its reveal deadline (committed) or past `closesAt +
//!    resolveGrace` (revealed) as a miss before anyone expires or resolves it, exactly as
//!    `CallLedger.score` does on chain; the vote of a reveal uses that score. An agent has at
//!    most [`DEFAULT_MAX_OPEN_CALLS`] open calls.
//!
//! **decided**: a window must be at least the TWAP window ([`DEFAULT_MIN_WINDOW_SECS`], 300 s,
//! so the exit window starts at or after the reveal and never overlaps the entry window);
//! `minStake` must be non-zero; commits need `stake ≥ minStake` (weight ≥ 1); the score behind a
//! vote is the agent's score at reveal. Every operation is atomic: on error nothing changes.

use super::consensus::{
    consensus_bucket, round_for_reveal_now, vote_weight, ConsensusError, ConsensusEvent,
    ConsensusParams, ConsensusRound, ConsensusState, RoundKey,
};
use super::outcome::{call_outcome, pool_band_pips, CallOutcome, Direction};
use super::price::{exit_price_wad, TickCumulatives};
use super::score::ScoreError;
use super::streak::{AgentRecord, RecordOverflow};
use crate::math::U256;
use crate::uniswap::oracle::OracleError;
use alloy_primitives::{keccak256, Address, B256};
use alloy_sol_types::{sol_data, SolType};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Seconds after a commit within which it must be revealed (decided: 1 hour).
pub const DEFAULT_REVEAL_DEADLINE_SECS: u64 = 3_600;
/// Seconds a commitment must age before it can be revealed (decided after the second review: the
/// A5 TWAP window, `CallLedger.MIN_REVEAL_AGE`).
pub const DEFAULT_MIN_REVEAL_AGE_SECS: u64 = 300;
/// The shortest call window: the A5 TWAP window (decided: entry and exit windows never overlap).
pub const DEFAULT_MIN_WINDOW_SECS: u64 = 300;
/// Seconds after `closesAt` within which a call must be resolved, else it is a miss (decided).
pub const DEFAULT_RESOLVE_GRACE_SECS: u64 = 3_600;
/// Open (committed or revealed) calls one agent may have at once (decided: 16).
pub const DEFAULT_MAX_OPEN_CALLS: u64 = 16;

/// The fewest observations a call-ledger pool must have room for (`observationCardinalityNext`)
/// before the ledger takes it (A5; the seed's launch pools carry 1,800 to 6,000).
pub const MIN_POOL_OBSERVATIONS: u16 = 1_800;

/// Whether a call entered on pushed prices has no exit price of its own (A5, decided after the
/// review): pushes stop when the asset's pool takes over (`pool_active_at`, 0 = no pool; decided
/// after the second review: a time fixed in the `setPool` call itself, so whoever executes the
/// timelocked call cannot choose it), so a pushed
/// call closing after that would resolve on a stale last push, and resolving it on the pool would
/// mix two sources an agent could bet on. Such a call is void (a miss when resolved late).
/// `CallLedger._supersededAt` on chain.
#[must_use]
pub fn pushed_call_superseded(pushed_price: bool, closes_at: u64, pool_active_at: u64) -> bool {
    pushed_price && pool_active_at != 0 && closes_at > pool_active_at
}

/// Whether an open call already counts as a miss at `now` (decided after the contract review):
/// committed and past its reveal deadline (`committedAt + revealDeadline`), or revealed and past
/// `closesAt + resolveGrace`. `closes_at` is `None` while the call is only committed.
pub fn call_overdue(
    committed_at: u64,
    closes_at: Option<u64>,
    now: u64,
    reveal_deadline_secs: u64,
    resolve_grace_secs: u64,
) -> bool {
    match closes_at {
        None => now > committed_at.saturating_add(reveal_deadline_secs),
        Some(c) => now > c.saturating_add(resolve_grace_secs),
    }
}

/// What can be done next with an open call at `now` (A2, A3; the contract's `reveal`, `resolve` and
/// `expire` guards). `closes_at` is `None` while the call is only committed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenCallStep {
    /// Committed: its agent may reveal it from `opens` until `deadline` (both inclusive).
    AwaitReveal {
        /// `committedAt + minRevealAge`: the first second a reveal is accepted.
        opens: u64,
        /// `committedAt + revealDeadline`.
        deadline: u64,
    },
    /// Committed and past its reveal deadline: anyone may expire it (a miss).
    Expire,
    /// Revealed: it closes at `closes_at`; nothing to do before.
    Running {
        /// The call's `closesAt`.
        closes_at: u64,
    },
    /// Revealed and closed: anyone may resolve it; `late` when past `closesAt + resolveGrace`,
    /// where it resolves as a miss whatever the price did.
    Resolve {
        /// Past `closesAt + resolveGrace`.
        late: bool,
    },
}

/// The next step of an open call at `now` (see [`OpenCallStep`]).
pub fn open_call_step(
    committed_at: u64,
    closes_at: Option<u64>,
    now: u64,
    min_reveal_age_secs: u64,
    reveal_deadline_secs: u64,
    resolve_grace_secs: u64,
) -> OpenCallStep {
    match closes_at {
        None => {
            let deadline = committed_at.saturating_add(reveal_deadline_secs);
            if now > deadline {
                OpenCallStep::Expire
            } else {
                OpenCallStep::AwaitReveal {
                    opens: committed_at.saturating_add(min_reveal_age_secs),
                    deadline,
                }
            }
        }
        Some(c) if now < c => OpenCallStep::Running { closes_at: c },
        Some(c) => OpenCallStep::Resolve {
            late: now > c.saturating_add(resolve_grace_secs),
        },
    }
}

/// The commitment an agent posts:
/// `keccak256(abi.encode(agent, asset, uint8(direction), uint64(window), salt))`.
pub fn call_commitment(
    agent: Address,
    asset: Address,
    direction: Direction,
    window: u64,
    salt: B256,
) -> B256 {
    type Encoded = (
        sol_data::Address,
        sol_data::Address,
        sol_data::Uint<8>,
        sol_data::Uint<64>,
        sol_data::FixedBytes<32>,
    );
    keccak256(Encoded::abi_encode(&(
        agent,
        asset,
        direction.code(),
        window,
        salt,
    )))
}

/// Why a ledger operation was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LedgerError {
    /// `minStake` of the configuration is zero.
    #[error("minStake: must be greater than zero")]
    ZeroMinStake,
    /// The agent has no record (never staked).
    #[error("agent: {0} has no stake")]
    UnknownAgent(Address),
    /// The agent's stake is below `minStake`.
    #[error("stake: {stake} is below minStake {min_stake}")]
    InsufficientStake {
        /// The agent's stake.
        stake: U256,
        /// The configured minimum.
        min_stake: U256,
    },
    /// The commitment was already posted.
    #[error("commitment: {0} was already posted")]
    DuplicateCommitment(B256),
    /// No call with this id.
    #[error("callId: no call {0}")]
    UnknownCall(u64),
    /// The caller is not the agent who committed.
    #[error("agent: {caller} did not commit call {id}")]
    NotCallAgent {
        /// The call.
        id: u64,
        /// Who tried.
        caller: Address,
    },
    /// The call is not in the state the operation needs.
    #[error("call {id}: is {actual}, expected {expected}")]
    WrongState {
        /// The call.
        id: u64,
        /// The state it is in.
        actual: &'static str,
        /// The state the operation needs.
        expected: &'static str,
    },
    /// The revealed values do not hash to the commitment.
    #[error("reveal: (agent, asset, direction, window, salt) does not match the commitment")]
    CommitmentMismatch,
    /// `now` is before the commit.
    #[error("now: {now} is before the commit at {committed_at}")]
    BeforeCommit {
        /// Given time.
        now: u64,
        /// Commit time.
        committed_at: u64,
    },
    /// The commitment is younger than the minimum reveal age.
    #[error("now: {now} is before {opens_at}, when the commitment is old enough to be revealed")]
    RevealTooEarly {
        /// Given time.
        now: u64,
        /// First second a reveal is accepted.
        opens_at: u64,
    },
    /// The reveal deadline has passed.
    #[error("now: {now} is past the reveal deadline {deadline}")]
    RevealDeadlinePassed {
        /// Given time.
        now: u64,
        /// Last second a reveal is accepted.
        deadline: u64,
    },
    /// The commit can still be revealed.
    #[error("now: {now} is not past the reveal deadline {deadline}; the commit cannot expire yet")]
    NotExpiredYet {
        /// Given time.
        now: u64,
        /// Last second a reveal is accepted.
        deadline: u64,
    },
    /// The call has not closed.
    #[error("now: {now} is before closesAt {closes_at}")]
    NotClosedYet {
        /// Given time.
        now: u64,
        /// When the call closes.
        closes_at: u64,
    },
    /// A window of zero seconds.
    #[error("window: must be greater than zero seconds")]
    ZeroWindow,
    /// A window shorter than the TWAP window.
    #[error("window: {window} s is shorter than the minimum {min} s")]
    WindowTooShort {
        /// The window asked for.
        window: u64,
        /// The minimum.
        min: u64,
    },
    /// The agent already has the most open calls allowed.
    #[error("agent: already {0} open calls (the most allowed)")]
    TooManyOpenCalls(u64),
    /// `now + window` passes `u64::MAX`.
    #[error("closesAt: now + window does not fit in 64 bits")]
    TimeOverflow,
    /// Too many calls.
    #[error("callId: the ledger is full")]
    TooManyCalls,
    /// The score could not be computed.
    #[error(transparent)]
    Score(#[from] ScoreError),
    /// A record counter would overflow.
    #[error(transparent)]
    Record(#[from] RecordOverflow),
    /// The consensus round refused the vote.
    #[error(transparent)]
    Consensus(#[from] ConsensusError),
    /// The oracle price could not be computed from the given tick cumulatives.
    #[error("price: {0}")]
    Price(#[from] OracleError),
}

/// Ledger parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LedgerConfig {
    /// The minimum stake (weight 1), in the stake token's smallest unit.
    pub min_stake: U256,
    /// Seconds after a commit during which it can be revealed.
    pub reveal_deadline_secs: u64,
    /// Seconds a commit must age before it can be revealed.
    pub min_reveal_age_secs: u64,
    /// Quorum and threshold.
    pub consensus: ConsensusParams,
    /// Only an agent's first reveal in a round adds a vote (decided default: `true`).
    pub one_vote_per_agent: bool,
    /// The shortest window a reveal accepts.
    pub min_window_secs: u64,
    /// Seconds after `closesAt` within which a resolution reads the exit price.
    pub resolve_grace_secs: u64,
    /// Open calls one agent may have at once.
    pub max_open_calls: u64,
}

impl LedgerConfig {
    /// `min_stake` with the default reveal deadline, quorum and threshold.
    pub fn with_min_stake(min_stake: U256) -> Self {
        LedgerConfig {
            min_stake,
            reveal_deadline_secs: DEFAULT_REVEAL_DEADLINE_SECS,
            min_reveal_age_secs: DEFAULT_MIN_REVEAL_AGE_SECS,
            consensus: ConsensusParams::default(),
            one_vote_per_agent: true,
            min_window_secs: DEFAULT_MIN_WINDOW_SECS,
            resolve_grace_secs: DEFAULT_RESOLVE_GRACE_SECS,
            max_open_calls: DEFAULT_MAX_OPEN_CALLS,
        }
    }
}

/// What a reveal fixed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reveal {
    /// The stock token.
    pub asset: Address,
    /// Up or down.
    pub direction: Direction,
    /// Seconds from reveal to close.
    pub window: u64,
    /// Reveal time.
    pub revealed_at: u64,
    /// `revealed_at + window`.
    pub closes_at: u64,
    /// Entry TWAP (WAD USDG per token).
    pub entry_price: U256,
    /// The vote weight added to the round (WAD, `1 + score`); `None` when the agent had already
    /// voted in this round (one vote per agent).
    pub vote: Option<U256>,
}

/// Where a call is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "status"
)]
pub enum CallStatus {
    /// Committed, not revealed.
    Committed,
    /// Revealed, waiting for `closesAt`.
    Revealed,
    /// Resolved as hit, miss or void.
    Resolved {
        /// The outcome.
        outcome: CallOutcome,
        /// Exit TWAP, `None` when not computable.
        exit_price: Option<U256>,
    },
    /// Never revealed in time (a miss).
    Expired,
}

impl CallStatus {
    fn name(&self) -> &'static str {
        match self {
            CallStatus::Committed => "committed",
            CallStatus::Revealed => "revealed",
            CallStatus::Resolved { .. } => "resolved",
            CallStatus::Expired => "expired",
        }
    }
}

/// One call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Call {
    /// The agent.
    pub agent: Address,
    /// The commitment.
    pub commitment: B256,
    /// Commit time.
    pub committed_at: u64,
    /// What the reveal fixed, once revealed.
    pub reveal: Option<Reveal>,
    /// Its status.
    pub status: CallStatus,
}

impl Call {
    /// The last second a reveal is accepted (saturating at `u64::MAX`).
    pub fn reveal_deadline(&self, reveal_deadline_secs: u64) -> u64 {
        self.committed_at.saturating_add(reveal_deadline_secs)
    }
}

/// The in-memory call ledger (A1–A4).
#[derive(Debug, Clone)]
pub struct CallLedger {
    config: LedgerConfig,
    agents: BTreeMap<Address, AgentRecord>,
    calls: Vec<Call>,
    /// Commitments posted, per agent (a copied hash cannot block its agent).
    commitments: BTreeSet<(Address, B256)>,
    rounds: BTreeMap<RoundKey, ConsensusRound>,
    round_voters: BTreeSet<(RoundKey, Address)>,
    consensus_log: Vec<ConsensusEvent>,
}

impl CallLedger {
    /// An empty ledger.
    ///
    /// # Errors
    /// [`LedgerError::ZeroMinStake`] when `config.min_stake == 0`.
    pub fn new(config: LedgerConfig) -> Result<Self, LedgerError> {
        if config.min_stake.is_zero() {
            return Err(LedgerError::ZeroMinStake);
        }
        Ok(CallLedger {
            config,
            agents: BTreeMap::new(),
            calls: Vec::new(),
            commitments: BTreeSet::new(),
            rounds: BTreeMap::new(),
            round_voters: BTreeSet::new(),
            consensus_log: Vec::new(),
        })
    }

    /// The configuration.
    pub const fn config(&self) -> &LedgerConfig {
        &self.config
    }

    /// Sets an agent's stake (creating its record if new).
    pub fn set_stake(&mut self, agent: Address, stake: U256) {
        self.agents.entry(agent).or_default().stake = stake;
    }

    /// An agent's record.
    pub fn record(&self, agent: Address) -> Option<&AgentRecord> {
        self.agents.get(&agent)
    }

    /// A1: an agent's score from its recorded outcomes only (0 for an unknown agent).
    ///
    /// # Errors
    /// [`LedgerError::Score`] when the score overflows.
    pub fn score(&self, agent: Address) -> Result<U256, LedgerError> {
        match self.agents.get(&agent) {
            Some(r) => Ok(r.score(self.config.min_stake)?),
            None => Ok(U256::ZERO),
        }
    }

    /// A1 at `now`, as `CallLedger.score` reads it: the agent's overdue open calls
    /// ([`CallLedger::overdue_calls`]) count as misses.
    ///
    /// # Errors
    /// [`LedgerError::Score`] when the score overflows.
    pub fn score_at(&self, agent: Address, now: u64) -> Result<U256, LedgerError> {
        match self.agents.get(&agent) {
            Some(r) => {
                let mut with_overdue = *r;
                with_overdue.misses = r
                    .misses
                    .checked_add(self.overdue_calls(agent, now))
                    .ok_or(RecordOverflow("misses"))?;
                Ok(with_overdue.score(self.config.min_stake)?)
            }
            None => Ok(U256::ZERO),
        }
    }

    /// The agent's open calls that already count as misses at `now`: committed past the reveal
    /// deadline, or revealed past `closesAt + resolveGrace`.
    pub fn overdue_calls(&self, agent: Address, now: u64) -> u64 {
        let (deadline, grace) = (
            self.config.reveal_deadline_secs,
            self.config.resolve_grace_secs,
        );
        self.calls
            .iter()
            .filter(|c| c.agent == agent)
            .filter(|c| match (c.status, c.reveal) {
                (CallStatus::Committed, _) => {
                    call_overdue(c.committed_at, None, now, deadline, grace)
                }
                (CallStatus::Revealed, Some(r)) => {
                    call_overdue(c.committed_at, Some(r.closes_at), now, deadline, grace)
                }
                _ => false,
            })
            .count() as u64
    }

    /// The agent's open (committed or revealed) calls.
    pub fn open_calls(&self, agent: Address) -> u64 {
        self.calls
            .iter()
            .filter(|c| {
                c.agent == agent && matches!(c.status, CallStatus::Committed | CallStatus::Revealed)
            })
            .count() as u64
    }

    /// A call by id.
    pub fn call(&self, id: u64) -> Option<&Call> {
        usize::try_from(id).ok().and_then(|i| self.calls.get(i))
    }

    /// Number of calls ever committed.
    pub fn call_count(&self) -> u64 {
        self.calls.len() as u64
    }

    /// A round by key.
    pub fn round(&self, key: &RoundKey) -> Option<&ConsensusRound> {
        self.rounds.get(key)
    }

    /// Every consensus event, in emission order.
    pub fn consensus_log(&self) -> &[ConsensusEvent] {
        &self.consensus_log
    }

    /// A4: the state of the round a call on `(asset, window)` revealed at `now` would land in
    /// (`bucket = (now + window) / window`), and its key.
    ///
    /// # Errors
    /// [`LedgerError::ZeroWindow`] / [`LedgerError::TimeOverflow`] for a bad window.
    pub fn consensus(
        &self,
        asset: Address,
        window: u64,
        now: u64,
    ) -> Result<(RoundKey, ConsensusState), LedgerError> {
        let bucket = round_for_reveal_now(now, window).map_err(time_error)?;
        let key = RoundKey {
            asset,
            window,
            bucket,
        };
        let round = self
            .rounds
            .get(&key)
            .copied()
            .unwrap_or(ConsensusRound::new(key));
        Ok((key, round.state(&self.config.consensus)?))
    }

    /// Step 1: posts a commitment at `now`; returns the call id.
    ///
    /// # Errors
    /// [`LedgerError::UnknownAgent`], [`LedgerError::InsufficientStake`],
    /// [`LedgerError::TooManyOpenCalls`], [`LedgerError::DuplicateCommitment`],
    /// [`LedgerError::TooManyCalls`].
    pub fn commit(
        &mut self,
        agent: Address,
        commitment: B256,
        now: u64,
    ) -> Result<u64, LedgerError> {
        let record = self
            .agents
            .get(&agent)
            .ok_or(LedgerError::UnknownAgent(agent))?;
        if record.stake < self.config.min_stake {
            return Err(LedgerError::InsufficientStake {
                stake: record.stake,
                min_stake: self.config.min_stake,
            });
        }
        let open = self.open_calls(agent);
        if open >= self.config.max_open_calls {
            return Err(LedgerError::TooManyOpenCalls(open));
        }
        if self.commitments.contains(&(agent, commitment)) {
            return Err(LedgerError::DuplicateCommitment(commitment));
        }
        let id = u64::try_from(self.calls.len()).map_err(|_| LedgerError::TooManyCalls)?;
        self.commitments.insert((agent, commitment));
        self.calls.push(Call {
            agent,
            commitment,
            committed_at: now,
            reveal: None,
            status: CallStatus::Committed,
        });
        Ok(id)
    }

    /// Step 2: `agent` reveals call `id` at `now` with the entry TWAP `entry_price`. Returns the
    /// consensus event this vote emitted, if any (also appended to the log).
    ///
    /// # Errors
    /// [`LedgerError::UnknownCall`], [`LedgerError::NotCallAgent`], [`LedgerError::WrongState`],
    /// [`LedgerError::BeforeCommit`], [`LedgerError::RevealDeadlinePassed`],
    /// [`LedgerError::CommitmentMismatch`], [`LedgerError::WindowTooShort`],
    /// [`LedgerError::TimeOverflow`], and score or weight overflows.
    #[allow(clippy::too_many_arguments)]
    pub fn reveal(
        &mut self,
        id: u64,
        agent: Address,
        asset: Address,
        direction: Direction,
        window: u64,
        salt: B256,
        entry_price: U256,
        now: u64,
    ) -> Result<Option<ConsensusEvent>, LedgerError> {
        let deadline_secs = self.config.reveal_deadline_secs;
        let call = *self.call(id).ok_or(LedgerError::UnknownCall(id))?;
        if call.agent != agent {
            return Err(LedgerError::NotCallAgent { id, caller: agent });
        }
        expect_state(id, &call, "committed", |s| {
            matches!(s, CallStatus::Committed)
        })?;
        if now < call.committed_at {
            return Err(LedgerError::BeforeCommit {
                now,
                committed_at: call.committed_at,
            });
        }
        let opens_at = call
            .committed_at
            .saturating_add(self.config.min_reveal_age_secs);
        if now < opens_at {
            return Err(LedgerError::RevealTooEarly { now, opens_at });
        }
        let deadline = call.reveal_deadline(deadline_secs);
        if now > deadline {
            return Err(LedgerError::RevealDeadlinePassed { now, deadline });
        }
        if call_commitment(agent, asset, direction, window, salt) != call.commitment {
            return Err(LedgerError::CommitmentMismatch);
        }
        if window < self.config.min_window_secs.max(1) {
            return Err(LedgerError::WindowTooShort {
                window,
                min: self.config.min_window_secs.max(1),
            });
        }
        let closes_at = now.checked_add(window).ok_or(LedgerError::TimeOverflow)?;
        let bucket = consensus_bucket(closes_at, window).map_err(time_error)?;
        let key = RoundKey {
            asset,
            window,
            bucket,
        };
        let votes = !(self.config.one_vote_per_agent && self.round_voters.contains(&(key, agent)));
        let mut vote = None;
        let mut event = None;
        if votes {
            let weight = vote_weight(self.score_at(agent, now)?)?;
            let mut round = self
                .rounds
                .get(&key)
                .copied()
                .unwrap_or(ConsensusRound::new(key));
            event = round.add_vote(direction, weight, &self.config.consensus)?;
            // Everything checked: commit the changes.
            self.rounds.insert(key, round);
            self.round_voters.insert((key, agent));
            if let Some(e) = event {
                self.consensus_log.push(e);
            }
            vote = Some(weight);
        }
        let slot = self.call_mut(id)?;
        slot.reveal = Some(Reveal {
            asset,
            direction,
            window,
            revealed_at: now,
            closes_at,
            entry_price,
            vote,
        });
        slot.status = CallStatus::Revealed;
        Ok(event)
    }

    /// Step 3 on pushed prices (band 0, A3): resolves revealed call `id` at `now ≥ closesAt` with
    /// the exit price at `closesAt` (`None` when it cannot be read). Anyone may call. After
    /// `closesAt + resolveGrace`, or with no exit price, the call is a miss (the exit is then not
    /// recorded).
    ///
    /// # Errors
    /// [`LedgerError::UnknownCall`], [`LedgerError::WrongState`], [`LedgerError::NotClosedYet`],
    /// [`LedgerError::Record`].
    pub fn resolve(
        &mut self,
        id: u64,
        exit_price: Option<U256>,
        now: u64,
    ) -> Result<CallOutcome, LedgerError> {
        self.resolve_in_band(id, exit_price, 0, now)
    }

    /// Step 3 with the call's band (A3): a move smaller than `band_pips` of the entry is void.
    ///
    /// # Errors
    /// As [`CallLedger::resolve`].
    pub fn resolve_in_band(
        &mut self,
        id: u64,
        exit_price: Option<U256>,
        band_pips: u32,
        now: u64,
    ) -> Result<CallOutcome, LedgerError> {
        let (call, reveal, in_time) = self.closed_call(id, now)?;
        let exit_price = exit_price.filter(|_| in_time);
        let outcome = match exit_price {
            None => CallOutcome::Miss,
            Some(_) => call_outcome(reveal.direction, reveal.entry_price, exit_price, band_pips),
        };
        self.apply_outcome(call.agent, outcome)?;
        self.call_mut(id)?.status = CallStatus::Resolved {
            outcome,
            exit_price,
        };
        Ok(outcome)
    }

    /// Revealed call `id` once closed at `now`, and whether `now` is within its resolve grace.
    fn closed_call(&self, id: u64, now: u64) -> Result<(Call, Reveal, bool), LedgerError> {
        let call = *self.call(id).ok_or(LedgerError::UnknownCall(id))?;
        expect_state(id, &call, "revealed", |s| matches!(s, CallStatus::Revealed))?;
        let reveal = call.reveal.ok_or(LedgerError::WrongState {
            id,
            actual: "committed",
            expected: "revealed",
        })?;
        if now < reveal.closes_at {
            return Err(LedgerError::NotClosedYet {
                now,
                closes_at: reveal.closes_at,
            });
        }
        let in_time = now
            <= reveal
                .closes_at
                .saturating_add(self.config.resolve_grace_secs);
        Ok((call, reveal, in_time))
    }

    /// Step 3 for a pushed call closing after its asset's pool was set
    /// ([`pushed_call_superseded`]): void when resolved within the grace, a miss after it, with no
    /// exit price either way.
    ///
    /// # Errors
    /// As [`CallLedger::resolve`].
    pub fn resolve_superseded(&mut self, id: u64, now: u64) -> Result<CallOutcome, LedgerError> {
        let (call, _, in_time) = self.closed_call(id, now)?;
        let outcome = if in_time {
            CallOutcome::Void
        } else {
            CallOutcome::Miss
        };
        self.apply_outcome(call.agent, outcome)?;
        self.call_mut(id)?.status = CallStatus::Resolved {
            outcome,
            exit_price: None,
        };
        Ok(outcome)
    }

    /// Step 3 from the pool (A5): resolves call `id` with the pool's tick cumulatives at
    /// `closesAt − 300` and `closesAt` (`None` when the observation buffer no longer covers
    /// `closesAt`: a miss). `stock_is_token0` is the pool's token order; `fee_pips` its swap fee,
    /// which sets the call's band ([`pool_band_pips`], A3).
    ///
    /// # Errors
    /// As [`CallLedger::resolve`]; [`LedgerError::Price`] when the cumulatives give no price.
    pub fn resolve_from_pool(
        &mut self,
        id: u64,
        exit_cumulatives: Option<TickCumulatives>,
        stock_is_token0: bool,
        fee_pips: u32,
        now: u64,
    ) -> Result<CallOutcome, LedgerError> {
        let exit = exit_price_wad(exit_cumulatives, stock_is_token0)?;
        self.resolve_in_band(id, exit, pool_band_pips(fee_pips), now)
    }

    /// Step 4: expires committed call `id` at `now` past its reveal deadline (a miss, A2).
    /// Anyone may call.
    ///
    /// # Errors
    /// [`LedgerError::UnknownCall`], [`LedgerError::WrongState`], [`LedgerError::NotExpiredYet`],
    /// [`LedgerError::Record`].
    pub fn expire(&mut self, id: u64, now: u64) -> Result<(), LedgerError> {
        let call = *self.call(id).ok_or(LedgerError::UnknownCall(id))?;
        expect_state(id, &call, "committed", |s| {
            matches!(s, CallStatus::Committed)
        })?;
        let deadline = call.reveal_deadline(self.config.reveal_deadline_secs);
        if now <= deadline {
            return Err(LedgerError::NotExpiredYet { now, deadline });
        }
        self.apply_outcome(call.agent, CallOutcome::Expired)?;
        self.call_mut(id)?.status = CallStatus::Expired;
        Ok(())
    }

    fn apply_outcome(&mut self, agent: Address, outcome: CallOutcome) -> Result<(), LedgerError> {
        let record = self
            .agents
            .get_mut(&agent)
            .ok_or(LedgerError::UnknownAgent(agent))?;
        record.apply(outcome)?;
        Ok(())
    }

    fn call_mut(&mut self, id: u64) -> Result<&mut Call, LedgerError> {
        usize::try_from(id)
            .ok()
            .and_then(|i| self.calls.get_mut(i))
            .ok_or(LedgerError::UnknownCall(id))
    }
}

fn expect_state(
    id: u64,
    call: &Call,
    expected: &'static str,
    ok: impl Fn(&CallStatus) -> bool,
) -> Result<(), LedgerError> {
    if ok(&call.status) {
        Ok(())
    } else {
        Err(LedgerError::WrongState {
            id,
            actual: call.status.name(),
            expected,
        })
    }
}

fn time_error(e: ConsensusError) -> LedgerError {
    match e {
        ConsensusError::ZeroWindow => LedgerError::ZeroWindow,
        ConsensusError::TimeOverflow => LedgerError::TimeOverflow,
        other => LedgerError::Consensus(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::testing::{u as w, E18 as ONE};
    use crate::math::WAD;
    use alloy_primitives::b256;
    use proptest::prelude::*;

    const T0: u64 = 1_750_000_000;
    const HOUR: u64 = 3_600;

    #[test]
    fn open_call_steps_follow_the_contract_guards() {
        let step = |closes, now| open_call_step(T0, closes, now, 300, HOUR, HOUR);
        // Reveal from committedAt + 300 s until committedAt + 1 h inclusive (`block.timestamp <
        // opensAt` and `block.timestamp > deadline` revert), then expire.
        for now in [T0, T0 + HOUR] {
            assert_eq!(
                step(None, now),
                OpenCallStep::AwaitReveal {
                    opens: T0 + 300,
                    deadline: T0 + HOUR
                }
            );
        }
        assert_eq!(step(None, T0 + HOUR + 1), OpenCallStep::Expire);
        // Resolve from closesAt (`block.timestamp < closesAt` reverts); late past the grace.
        let c = T0 + 2 * HOUR;
        assert_eq!(step(Some(c), c - 1), OpenCallStep::Running { closes_at: c });
        assert_eq!(step(Some(c), c), OpenCallStep::Resolve { late: false });
        assert_eq!(
            step(Some(c), c + HOUR),
            OpenCallStep::Resolve { late: false }
        );
        assert_eq!(
            step(Some(c), c + HOUR + 1),
            OpenCallStep::Resolve { late: true }
        );
        // A late step is exactly an overdue call.
        for now in [c, c + HOUR, c + HOUR + 1, T0 + HOUR + 1] {
            let late = matches!(step(Some(c), now), OpenCallStep::Resolve { late: true });
            assert_eq!(late, now >= c && call_overdue(T0, Some(c), now, HOUR, HOUR));
        }
    }

    fn agent(i: u8) -> Address {
        Address::repeat_byte(i)
    }
    fn salt(i: u8) -> B256 {
        B256::repeat_byte(i)
    }
    const ASSET: Address = Address::repeat_byte(0xa5);

    /// A ledger whose commits can be revealed at once: the tests of the other rules reveal soon
    /// after committing; `reveals_wait_for_the_minimum_age` tests the age with the default.
    fn ledger() -> CallLedger {
        let mut l = CallLedger::new(LedgerConfig {
            min_reveal_age_secs: 0,
            ..LedgerConfig::with_min_stake(w(100 * ONE))
        })
        .unwrap();
        for i in 1..=9 {
            l.set_stake(agent(i), w(100 * ONE));
        }
        l
    }

    /// Commits and reveals in one go; returns the id and the event.
    fn call(
        l: &mut CallLedger,
        a: u8,
        d: Direction,
        entry: u128,
        now: u64,
    ) -> (u64, Option<ConsensusEvent>) {
        let s = salt(a);
        let c = call_commitment(agent(a), ASSET, d, HOUR, s);
        let id = l.commit(agent(a), c, now).unwrap();
        let e = l
            .reveal(id, agent(a), ASSET, d, HOUR, s, w(entry), now + 10)
            .unwrap();
        (id, e)
    }

    #[test]
    fn commitment_is_keccak_of_abi_encode() {
        let agent = Address::repeat_byte(0x11);
        let asset = Address::repeat_byte(0x22);
        let s = B256::repeat_byte(0x33);
        let mut enc = Vec::new();
        enc.extend_from_slice(&[0u8; 12]);
        enc.extend_from_slice(agent.as_slice());
        enc.extend_from_slice(&[0u8; 12]);
        enc.extend_from_slice(asset.as_slice());
        let mut dir = [0u8; 32];
        dir[31] = 1;
        enc.extend_from_slice(&dir);
        let mut win = [0u8; 32];
        win[24..].copy_from_slice(&3_600u64.to_be_bytes());
        enc.extend_from_slice(&win);
        enc.extend_from_slice(s.as_slice());
        assert_eq!(enc.len(), 160);
        assert_eq!(
            call_commitment(agent, asset, Direction::Up, 3_600, s),
            keccak256(&enc)
        );
        // Vectors from @metamask/abi-utils + keccak256 (ethereum-cryptography): the same for
        // (address,address,uint8,uint64,bytes32) and (address,address,bool,uint256,bytes32).
        assert_eq!(
            call_commitment(agent, asset, Direction::Up, 3_600, s),
            b256!("0x0d7e0aa46e221fe9c6e1520659104579c6a623a9f013fd12d7b6787947108fa1")
        );
        assert_eq!(
            call_commitment(agent, asset, Direction::Down, 3_600, s),
            b256!("0x190f148a44e928dbfadf2dc169c01bbf8254e67a79aa512d3c6be9e096868286")
        );
    }

    #[test]
    fn full_life_hit_miss_void() {
        let mut l = ledger();
        let (a, _) = call(&mut l, 1, Direction::Up, 150 * ONE, T0);
        // Same agent and salt, other direction: a different commitment, allowed.
        let (b, _) = call(&mut l, 1, Direction::Down, 150 * ONE, T0 + 100);
        let rec = *l.record(agent(1)).unwrap();
        assert_eq!((rec.hits, rec.misses), (0, 0));
        let closes = l.call(a).unwrap().reveal.unwrap().closes_at;
        assert_eq!(closes, T0 + 10 + HOUR);
        assert_eq!(
            l.resolve(a, Some(w(151 * ONE)), closes - 1),
            Err(LedgerError::NotClosedYet {
                now: closes - 1,
                closes_at: closes
            })
        );
        assert_eq!(
            l.resolve(a, Some(w(151 * ONE)), closes),
            Ok(CallOutcome::Hit)
        );
        // Within the grace the exit price is the one at closesAt (an input).
        assert_eq!(
            l.resolve(b, Some(w(151 * ONE)), closes + DEFAULT_RESOLVE_GRACE_SECS),
            Ok(CallOutcome::Miss)
        );
        let (c, _) = call(&mut l, 2, Direction::Up, 150 * ONE, T0);
        assert_eq!(
            l.resolve(c, Some(w(150 * ONE)), T0 + 2 * HOUR),
            Ok(CallOutcome::Void)
        );
        // No exit price any more: a miss, never a void (decided after the review).
        let (d, _) = call(&mut l, 3, Direction::Up, 150 * ONE, T0);
        assert_eq!(l.resolve(d, None, T0 + 90 * HOUR), Ok(CallOutcome::Miss));
        let r1 = l.record(agent(1)).unwrap();
        assert_eq!(
            (r1.hits, r1.misses, r1.voids, r1.streak, r1.best_streak),
            (1, 1, 0, 0, 1)
        );
        let r2 = l.record(agent(2)).unwrap();
        assert_eq!((r2.hits, r2.misses, r2.voids), (0, 0, 1));
        // Resolving twice is refused; a committed call cannot be resolved.
        assert!(matches!(
            l.resolve(a, Some(w(1)), closes),
            Err(LedgerError::WrongState {
                actual: "resolved",
                ..
            })
        ));
        assert_eq!(
            l.call(a).unwrap().status,
            CallStatus::Resolved {
                outcome: CallOutcome::Hit,
                exit_price: Some(w(151 * ONE))
            }
        );
        let c = call_commitment(agent(4), ASSET, Direction::Up, HOUR, salt(4));
        let id = l.commit(agent(4), c, T0).unwrap();
        assert!(matches!(
            l.resolve(id, Some(w(1)), T0 + 9 * HOUR),
            Err(LedgerError::WrongState {
                actual: "committed",
                ..
            })
        ));
        assert_eq!(l.resolve(999, None, T0), Err(LedgerError::UnknownCall(999)));
        assert_eq!(l.expire(999, T0), Err(LedgerError::UnknownCall(999)));
    }

    /// Second review (check): a commitment hash copied by another agent and posted first does not block
    /// its own agent, and the copy can never be revealed.
    #[test]
    fn a_copied_commitment_cannot_block_its_agent() {
        let mut l = ledger();
        let c = call_commitment(agent(1), ASSET, Direction::Up, HOUR, salt(1));
        let copied = l.commit(agent(2), c, T0).unwrap();
        let id = l.commit(agent(1), c, T0).unwrap();
        assert!(reveal_up_salt_1(&mut l, id, 1, T0).is_ok());
        assert_eq!(
            reveal_up_salt_1(&mut l, copied, 2, T0),
            Err(LedgerError::CommitmentMismatch)
        );
    }

    /// Agent `a` reveals call `id` as "up over an hour with salt 1" at `now`, entry 1.
    fn reveal_up_salt_1(
        l: &mut CallLedger,
        id: u64,
        a: u8,
        now: u64,
    ) -> Result<Option<ConsensusEvent>, LedgerError> {
        l.reveal(
            id,
            agent(a),
            ASSET,
            Direction::Up,
            HOUR,
            salt(1),
            w(ONE),
            now,
        )
    }

    /// Second review, item 5 (`CallLedger.t.sol`'s copy test): with the default configuration a
    /// commitment is revealed from `committedAt + 300` to `committedAt + 3600`, both inclusive.
    #[test]
    fn reveals_wait_for_the_minimum_age() {
        let mut l = CallLedger::new(LedgerConfig::with_min_stake(w(100 * ONE))).unwrap();
        l.set_stake(agent(1), w(100 * ONE));
        let c = call_commitment(agent(1), ASSET, Direction::Up, HOUR, salt(1));
        let id = l.commit(agent(1), c, T0).unwrap();
        let r = |l: &mut CallLedger, now| reveal_up_salt_1(l, id, 1, now);
        for now in [T0, T0 + 299] {
            assert_eq!(
                r(&mut l, now),
                Err(LedgerError::RevealTooEarly {
                    now,
                    opens_at: T0 + 300
                })
            );
        }
        assert!(r(&mut l, T0 + 300).is_ok());
        assert_eq!(
            l.call(id).unwrap().reveal.unwrap().closes_at,
            T0 + 300 + HOUR
        );
    }

    proptest! {
        /// A reveal is accepted exactly inside `[committedAt + 300, committedAt + 3600]`.
        #[test]
        fn a_reveal_is_accepted_exactly_inside_its_window(age in 0u64..2 * HOUR) {
            let mut l = CallLedger::new(LedgerConfig::with_min_stake(w(100 * ONE))).unwrap();
            l.set_stake(agent(1), w(100 * ONE));
            let c = call_commitment(agent(1), ASSET, Direction::Up, HOUR, salt(1));
            let id = l.commit(agent(1), c, T0).unwrap();
            let got = reveal_up_salt_1(&mut l, id, 1, T0 + age);
            prop_assert_eq!(got.is_ok(), (300..=HOUR).contains(&age));
        }
    }

    #[test]
    fn reveal_rules() {
        let mut l = ledger();
        let c = call_commitment(agent(1), ASSET, Direction::Up, HOUR, salt(1));
        let id = l.commit(agent(1), c, T0).unwrap();
        assert_eq!(
            l.commit(agent(1), c, T0),
            Err(LedgerError::DuplicateCommitment(c))
        );
        let r = |l: &mut CallLedger, who: u8, d, win, s, now| {
            l.reveal(id, agent(who), ASSET, d, win, s, w(ONE), now)
        };
        assert_eq!(
            r(&mut l, 2, Direction::Up, HOUR, salt(1), T0),
            Err(LedgerError::NotCallAgent {
                id,
                caller: agent(2)
            })
        );
        assert_eq!(
            r(&mut l, 1, Direction::Down, HOUR, salt(1), T0),
            Err(LedgerError::CommitmentMismatch)
        );
        assert_eq!(
            r(&mut l, 1, Direction::Up, HOUR + 1, salt(1), T0),
            Err(LedgerError::CommitmentMismatch)
        );
        assert_eq!(
            r(&mut l, 1, Direction::Up, HOUR, salt(2), T0),
            Err(LedgerError::CommitmentMismatch)
        );
        assert_eq!(
            r(&mut l, 1, Direction::Up, HOUR, salt(1), T0 - 1),
            Err(LedgerError::BeforeCommit {
                now: T0 - 1,
                committed_at: T0
            })
        );
        assert_eq!(
            r(
                &mut l,
                1,
                Direction::Up,
                HOUR,
                salt(1),
                T0 + DEFAULT_REVEAL_DEADLINE_SECS + 1
            ),
            Err(LedgerError::RevealDeadlinePassed {
                now: T0 + DEFAULT_REVEAL_DEADLINE_SECS + 1,
                deadline: T0 + DEFAULT_REVEAL_DEADLINE_SECS
            })
        );
        assert_eq!(
            l.expire(id, T0 + DEFAULT_REVEAL_DEADLINE_SECS),
            Err(LedgerError::NotExpiredYet {
                now: T0 + 3_600,
                deadline: T0 + 3_600
            })
        );
        // Failed attempts changed nothing; the last second of the deadline is accepted.
        assert_eq!(l.call(id).unwrap().status, CallStatus::Committed);
        assert_eq!(
            r(
                &mut l,
                1,
                Direction::Up,
                HOUR,
                salt(1),
                T0 + DEFAULT_REVEAL_DEADLINE_SECS
            ),
            Ok(None)
        );
        assert!(matches!(
            r(&mut l, 1, Direction::Up, HOUR, salt(1), T0 + 1),
            Err(LedgerError::WrongState {
                actual: "revealed",
                ..
            })
        ));
        assert!(matches!(
            l.expire(id, T0 + 10 * HOUR),
            Err(LedgerError::WrongState {
                actual: "revealed",
                ..
            })
        ));
        assert_eq!(
            l.reveal(99, agent(1), ASSET, Direction::Up, HOUR, salt(1), w(1), T0),
            Err(LedgerError::UnknownCall(99))
        );
    }

    #[test]
    fn zero_window_and_time_overflow() {
        let mut l = ledger();
        let c = call_commitment(agent(1), ASSET, Direction::Up, 0, salt(1));
        let id = l.commit(agent(1), c, T0).unwrap();
        assert_eq!(
            l.reveal(id, agent(1), ASSET, Direction::Up, 0, salt(1), w(ONE), T0),
            Err(LedgerError::WindowTooShort {
                window: 0,
                min: 300
            })
        );
        let c = call_commitment(agent(2), ASSET, Direction::Up, u64::MAX, salt(2));
        let id = l.commit(agent(2), c, T0).unwrap();
        assert_eq!(
            l.reveal(
                id,
                agent(2),
                ASSET,
                Direction::Up,
                u64::MAX,
                salt(2),
                w(ONE),
                T0
            ),
            Err(LedgerError::TimeOverflow)
        );
        // Commit at u64::MAX: the deadline saturates; reveal is fine, expiry never comes.
        let c = call_commitment(agent(3), ASSET, Direction::Up, HOUR, salt(3));
        let id = l.commit(agent(3), c, u64::MAX).unwrap();
        assert!(matches!(
            l.expire(id, u64::MAX),
            Err(LedgerError::NotExpiredYet { .. })
        ));
        assert_eq!(l.consensus(ASSET, 0, T0), Err(LedgerError::ZeroWindow));
        assert_eq!(
            l.consensus(ASSET, HOUR, u64::MAX),
            Err(LedgerError::TimeOverflow)
        );
    }

    #[test]
    fn stake_rules() {
        assert_eq!(
            CallLedger::new(LedgerConfig::with_min_stake(U256::ZERO)).err(),
            Some(LedgerError::ZeroMinStake)
        );
        let mut l = ledger();
        let c = call_commitment(agent(50), ASSET, Direction::Up, HOUR, salt(1));
        assert_eq!(
            l.commit(agent(50), c, T0),
            Err(LedgerError::UnknownAgent(agent(50)))
        );
        l.set_stake(agent(50), w(99 * ONE));
        assert_eq!(
            l.commit(agent(50), c, T0),
            Err(LedgerError::InsufficientStake {
                stake: w(99 * ONE),
                min_stake: w(100 * ONE)
            })
        );
        assert_eq!(l.score(agent(51)), Ok(U256::ZERO));
    }

    #[test]
    fn expired_commit_is_a_miss_and_resets_the_streak() {
        let mut l = ledger();
        let (a, _) = call(&mut l, 1, Direction::Up, 10 * ONE, T0);
        l.resolve(a, Some(w(11 * ONE)), T0 + 2 * HOUR).unwrap();
        assert_eq!(l.record(agent(1)).unwrap().streak, 1);
        let c = call_commitment(agent(1), ASSET, Direction::Up, HOUR, salt(77));
        let id = l.commit(agent(1), c, T0 + 3 * HOUR).unwrap();
        l.expire(id, T0 + 4 * HOUR + 1).unwrap();
        let r = l.record(agent(1)).unwrap();
        assert_eq!((r.hits, r.misses, r.streak, r.best_streak), (1, 1, 0, 1));
        assert_eq!(l.call(id).unwrap().status, CallStatus::Expired);
        // 1 hit 1 miss, weight 1: 1/3.
        assert_eq!(l.score(agent(1)).unwrap(), w(333_333_333_333_333_333));
    }

    #[test]
    fn votes_use_the_score_at_reveal_and_rounds_emit_events() {
        let mut l = ledger();
        // Agent 1 builds a record of 2 hits: score 4/3, vote 2.333….
        for k in 0..2 {
            let s = salt(100 + k);
            let c = call_commitment(agent(1), ASSET, Direction::Up, HOUR, s);
            let id = l.commit(agent(1), c, T0).unwrap();
            l.reveal(id, agent(1), ASSET, Direction::Up, HOUR, s, w(ONE), T0)
                .unwrap();
            l.resolve(id, Some(w(2 * ONE)), T0 + HOUR).unwrap();
        }
        assert_eq!(l.score(agent(1)).unwrap(), w(1_333_333_333_333_333_333));
        // Both reveals landed in the same round before either resolved: only the first voted (1).
        let (k0, s0) = l.consensus(ASSET, HOUR, T0).unwrap();
        assert_eq!((s0.voters, s0.up_weight), (1, WAD));
        assert_eq!(l.call(0).unwrap().reveal.unwrap().vote, Some(WAD));
        assert_eq!(l.call(1).unwrap().reveal.unwrap().vote, None);
        assert_eq!(l.round(&k0).unwrap().voters, 1);
        assert!(l.consensus_log().is_empty());
        // A new round two days later (t is a bucket boundary minus 10 s, so all reveals at t + 10
        // land in bucket (t + 10 + HOUR) / HOUR).
        let t = (T0 / HOUR + 48) * HOUR - 10;
        let (key, before) = l.consensus(ASSET, HOUR, t + 10).unwrap();
        assert_eq!(
            (before.voters, before.reached, before.direction),
            (0, false, None)
        );
        assert_eq!(key.bucket, (t + 10 + HOUR) / HOUR);
        let (_, e1) = call(&mut l, 1, Direction::Down, ONE, t);
        let (_, e2) = call(&mut l, 2, Direction::Up, ONE, t);
        let (id3, e3) = call(&mut l, 3, Direction::Up, ONE, t);
        // down 2.333… vs up 2: 53.8 %, no consensus.
        assert_eq!((e1, e2, e3), (None, None, None));
        assert_eq!(l.call(id3).unwrap().reveal.unwrap().vote, Some(WAD));
        let (_, e4) = call(&mut l, 4, Direction::Down, ONE, t);
        assert_eq!(e4, None); // 3.333… / 5.333… = 62.5 %
        let (_, e5) = call(&mut l, 5, Direction::Down, ONE, t);
        let e5 = e5.unwrap(); // 4.333… / 6.333… = 68.42 %
        let vote1 = w(2_333_333_333_333_333_333);
        assert_eq!(e5.key, key);
        assert_eq!(
            (e5.direction, e5.voters, e5.strength_bps),
            (Direction::Down, 5, 6_842)
        );
        assert_eq!(
            (e5.up_weight, e5.down_weight),
            (w(2 * ONE), vote1 + w(2 * ONE))
        );
        let (_, state) = l.consensus(ASSET, HOUR, t + 10).unwrap();
        assert_eq!(
            (state.reached, state.direction, state.strength_bps),
            (true, Some(Direction::Down), 6_842)
        );
        // Up needs lead ≥ 66.67 %: with down at 4.333…, up must reach ≥ 8.667…: 7 more fresh votes.
        let mut events = Vec::new();
        for a in 6..=12 {
            l.set_stake(agent(a), w(100 * ONE));
            let (_, e) = call(&mut l, a, Direction::Up, ONE, t);
            events.push(e);
        }
        assert!(events[..6].iter().all(Option::is_none));
        let flip = events[6].unwrap();
        // up 9 vs down 4.333…: 9 / 13.333… = 67.5 %.
        assert_eq!(
            (flip.direction, flip.voters, flip.strength_bps),
            (Direction::Up, 12, 6_750)
        );
        assert_eq!(l.consensus_log(), &[e5, flip]);
        // A different window is a different round.
        let (_, other) = l.consensus(ASSET, 2 * HOUR, t + 10).unwrap();
        assert_eq!(other.voters, 0);
        // One bucket later the round is empty.
        let (_, next) = l.consensus(ASSET, HOUR, t + 10 + HOUR).unwrap();
        assert_eq!(next.voters, 0);
    }

    #[test]
    fn resolve_from_pool_cumulatives() {
        use crate::calls::price::call_price_wad;
        let mut l = ledger();
        // Entry from a pool sitting at tick −225,000 (stock is token0), exit at −224,999.
        let entry = call_price_wad(
            TickCumulatives {
                start: 0,
                end: 300 * -225_000,
            },
            true,
        )
        .unwrap();
        let s = salt(1);
        let c = call_commitment(agent(1), ASSET, Direction::Up, HOUR, s);
        let id = l.commit(agent(1), c, T0).unwrap();
        l.reveal(id, agent(1), ASSET, Direction::Up, HOUR, s, entry, T0)
            .unwrap();
        // One tick up is inside a 0.3 % pool's band (A3): void, not the hit a held push would farm.
        let mut spare = l.clone();
        let one_tick = TickCumulatives {
            start: 7,
            end: 7 + 300 * -224_999,
        };
        assert_eq!(
            spare.resolve_from_pool(id, Some(one_tick), true, 3_000, T0 + HOUR),
            Ok(CallOutcome::Void)
        );
        // Forty ticks (≈ 0.4 %) cover it: a hit.
        let exit = TickCumulatives {
            start: 7,
            end: 7 + 300 * -224_960,
        };
        assert_eq!(
            l.resolve_from_pool(id, Some(exit), true, 3_000, T0 + HOUR),
            Ok(CallOutcome::Hit)
        );
        // A second call whose exit is no longer covered: a miss.
        let c = call_commitment(agent(2), ASSET, Direction::Down, HOUR, s);
        let id = l.commit(agent(2), c, T0).unwrap();
        l.reveal(id, agent(2), ASSET, Direction::Down, HOUR, s, entry, T0)
            .unwrap();
        let bad = TickCumulatives {
            start: 0,
            end: i64::MAX,
        };
        assert!(matches!(
            l.resolve_from_pool(id, Some(bad), true, 3_000, T0 + HOUR),
            Err(LedgerError::Price(_))
        ));
        assert_eq!(l.call(id).unwrap().status, CallStatus::Revealed);
        assert_eq!(
            l.resolve_from_pool(id, None, true, 3_000, T0 + HOUR),
            Ok(CallOutcome::Miss)
        );
    }

    #[test]
    fn windows_shorter_than_the_twap_are_refused() {
        let mut l = ledger();
        let c = call_commitment(agent(1), ASSET, Direction::Up, 299, salt(1));
        let id = l.commit(agent(1), c, T0).unwrap();
        assert_eq!(
            l.reveal(id, agent(1), ASSET, Direction::Up, 299, salt(1), w(ONE), T0),
            Err(LedgerError::WindowTooShort {
                window: 299,
                min: 300
            })
        );
        let c = call_commitment(agent(2), ASSET, Direction::Up, 300, salt(2));
        let id = l.commit(agent(2), c, T0).unwrap();
        l.reveal(id, agent(2), ASSET, Direction::Up, 300, salt(2), w(ONE), T0)
            .unwrap();
        assert_eq!(l.call(id).unwrap().reveal.unwrap().closes_at, T0 + 300);
    }

    #[test]
    fn a_call_resolved_after_the_grace_is_a_miss_even_when_it_hit() {
        let mut l = ledger();
        let (id, _) = call(&mut l, 1, Direction::Up, 100 * ONE, T0);
        let closes = l.call(id).unwrap().reveal.unwrap().closes_at;
        let late = closes + DEFAULT_RESOLVE_GRACE_SECS + 1;
        assert_eq!(
            l.resolve(id, Some(w(200 * ONE)), late),
            Ok(CallOutcome::Miss)
        );
        assert_eq!(
            l.call(id).unwrap().status,
            CallStatus::Resolved {
                outcome: CallOutcome::Miss,
                exit_price: None
            }
        );
    }

    #[test]
    fn a_pushed_call_closing_after_the_pool_was_set_is_void_or_late_a_miss() {
        // Closing at or before the pool was set: the pushes up to then are final.
        assert!(!pushed_call_superseded(true, 1_000, 1_000));
        assert!(pushed_call_superseded(true, 1_001, 1_000));
        assert!(!pushed_call_superseded(true, 1_001, 0)); // no pool
        assert!(!pushed_call_superseded(false, 1_001, 1_000)); // priced by the pool
        let mut l = ledger();
        let (a, _) = call(&mut l, 1, Direction::Up, 100 * ONE, T0);
        let (b, _) = call(&mut l, 2, Direction::Up, 100 * ONE, T0);
        let closes = l.call(a).unwrap().reveal.unwrap().closes_at;
        assert_eq!(
            l.resolve_superseded(a, closes - 1),
            Err(LedgerError::NotClosedYet {
                now: closes - 1,
                closes_at: closes
            })
        );
        assert_eq!(l.resolve_superseded(a, closes), Ok(CallOutcome::Void));
        let late = closes + DEFAULT_RESOLVE_GRACE_SECS + 1;
        assert_eq!(l.resolve_superseded(b, late), Ok(CallOutcome::Miss));
        assert_eq!(l.record(agent(1)).unwrap().voids, 1);
        assert_eq!(l.record(agent(2)).unwrap().misses, 1);
        assert!(matches!(
            l.resolve_superseded(a, late),
            Err(LedgerError::WrongState { .. })
        ));
    }

    #[test]
    fn overdue_calls_count_as_misses_before_anyone_settles_them() {
        let mut l = ledger();
        // One hit on record: score 0.5.
        let (hit, _) = call(&mut l, 1, Direction::Up, 100 * ONE, T0);
        let closes = l.call(hit).unwrap().reveal.unwrap().closes_at;
        l.resolve(hit, Some(w(101 * ONE)), closes).unwrap();
        let t = closes + 1;
        assert_eq!(l.score_at(agent(1), t).unwrap(), w(ONE / 2));
        // A hedge committed and never revealed, and a revealed call left unresolved.
        let c = call_commitment(agent(1), ASSET, Direction::Down, HOUR, salt(9));
        let hedge = l.commit(agent(1), c, t).unwrap();
        let c = call_commitment(agent(1), ASSET, Direction::Up, HOUR, salt(8));
        let open = l.commit(agent(1), c, t).unwrap();
        l.reveal(
            open,
            agent(1),
            ASSET,
            Direction::Up,
            HOUR,
            salt(8),
            w(100 * ONE),
            t,
        )
        .unwrap();
        let open_closes = l.call(open).unwrap().reveal.unwrap().closes_at;
        assert_eq!(l.overdue_calls(agent(1), t + HOUR), 0);
        // Past the reveal deadline the hedge counts: 1² / (1 + 1 + 1).
        assert_eq!(l.overdue_calls(agent(1), t + HOUR + 1), 1);
        assert_eq!(l.score_at(agent(1), t + HOUR + 1).unwrap(), w(ONE / 3));
        // Past closesAt + grace the unresolved call counts too: 1 / 4.
        let late = open_closes + DEFAULT_RESOLVE_GRACE_SECS + 1;
        assert_eq!(l.overdue_calls(agent(1), late), 2);
        assert_eq!(l.score_at(agent(1), late).unwrap(), w(ONE / 4));
        // The recorded score is unchanged until someone settles; settling changes nothing more.
        assert_eq!(l.score(agent(1)).unwrap(), w(ONE / 2));
        l.expire(hedge, late).unwrap();
        l.resolve(open, Some(w(200 * ONE)), late).unwrap();
        assert_eq!(l.overdue_calls(agent(1), late), 0);
        assert_eq!(l.score(agent(1)).unwrap(), w(ONE / 4));
        assert_eq!(l.score_at(agent(1), late).unwrap(), w(ONE / 4));
    }

    #[test]
    fn open_calls_are_capped() {
        let mut l = ledger();
        for i in 0..DEFAULT_MAX_OPEN_CALLS {
            let c = call_commitment(
                agent(1),
                ASSET,
                Direction::Up,
                HOUR,
                B256::from(U256::from(i)),
            );
            l.commit(agent(1), c, T0).unwrap();
        }
        let c = call_commitment(
            agent(1),
            ASSET,
            Direction::Up,
            HOUR,
            B256::repeat_byte(0xff),
        );
        assert_eq!(
            l.commit(agent(1), c, T0),
            Err(LedgerError::TooManyOpenCalls(DEFAULT_MAX_OPEN_CALLS))
        );
        l.expire(0, T0 + HOUR + 1).unwrap();
        l.commit(agent(1), c, T0 + HOUR + 1).unwrap();
    }

    #[test]
    fn call_serialises_as_camel_case_json() {
        let mut l = ledger();
        let (id, _) = call(&mut l, 1, Direction::Up, 150 * ONE, T0);
        l.resolve(id, Some(w(151 * ONE)), T0 + 2 * HOUR).unwrap();
        let v = serde_json::to_value(l.call(id).unwrap()).unwrap();
        assert_eq!(v["status"]["status"], "resolved");
        assert_eq!(v["status"]["outcome"], "hit");
        assert!(v["status"].get("exitPrice").is_some());
        assert_eq!(v["reveal"]["direction"], "up");
        assert_eq!(v["reveal"]["closesAt"], T0 + 10 + HOUR);
        assert_eq!(v["committedAt"], T0);
    }

    #[test]
    fn one_vote_per_agent_is_a_parameter() {
        for (one_vote, voters, event) in [(true, 1, false), (false, 3, true)] {
            let mut config = LedgerConfig::with_min_stake(w(100 * ONE));
            config.one_vote_per_agent = one_vote;
            let mut l = CallLedger::new(config).unwrap();
            l.set_stake(agent(1), w(100 * ONE));
            let mut events = Vec::new();
            for k in 0..3 {
                let s = salt(k);
                let c = call_commitment(agent(1), ASSET, Direction::Up, HOUR, s);
                let id = l
                    .commit(agent(1), c, T0 - DEFAULT_MIN_REVEAL_AGE_SECS)
                    .unwrap();
                events.push(
                    l.reveal(
                        id,
                        agent(1),
                        ASSET,
                        Direction::Up,
                        HOUR,
                        s,
                        w(ONE),
                        T0 + k as u64,
                    )
                    .unwrap(),
                );
            }
            let (_, st) = l.consensus(ASSET, HOUR, T0).unwrap();
            assert_eq!(st.voters, voters);
            assert_eq!(events[2].is_some(), event);
            assert_eq!(l.consensus_log().len(), usize::from(event));
        }
    }

    #[derive(Debug, Clone)]
    enum Op {
        Commit {
            agent: u8,
            up: bool,
            window: u64,
            salt: u8,
            dt: u64,
        },
        Reveal {
            call: u8,
            entry: u64,
            dt: u64,
        },
        Resolve {
            call: u8,
            exit: Option<u64>,
            dt: u64,
        },
        Expire {
            call: u8,
            dt: u64,
        },
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            2 => (1u8..6, any::<bool>(), prop_oneof![1 => Just(0u64), 4 => Just(60u64), 4 => Just(HOUR), 1 => Just(u64::MAX)], any::<u8>(), 0u64..1_000)
                .prop_map(|(agent, up, window, salt, dt)| Op::Commit { agent, up, window, salt, dt }),
            3 => (any::<u8>(), 1u64..5, prop_oneof![3 => 0u64..600, 1 => 0u64..4_000]).prop_map(|(call, entry, dt)| Op::Reveal { call, entry, dt }),
            3 => (any::<u8>(), proptest::option::of(1u64..5), 0u64..2_000).prop_map(|(call, exit, dt)| Op::Resolve { call, exit, dt }),
            1 => (any::<u8>(), 0u64..8_000).prop_map(|(call, dt)| Op::Expire { call, dt }),
        ]
    }

    /// Mostly one of the last four calls; sometimes any id, including one past the end.
    fn pick(r: u8, len: usize) -> u64 {
        let len = len as u64;
        if r < 200 {
            len.saturating_sub(1 + u64::from(r % 4))
        } else {
            u64::from(r) % (len + 1)
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Random operation sequences never panic, errors change nothing, and every agent's
        /// record equals the tally of its settled calls.
        #[test]
        fn random_sequences_keep_records_consistent(ops in proptest::collection::vec(op(), 0..60)) {
            let mut l = ledger();
            let mut now = T0;
            let mut secrets: Vec<(u8, Direction, u64, B256)> = Vec::new();
            for op in ops {
                let before = (l.calls.clone(), l.agents.clone(), l.rounds.clone(), l.consensus_log.clone());
                let result: Result<(), LedgerError> = match op {
                    Op::Commit { agent: a, up, window, salt: s, dt } => {
                        now += dt;
                        let d = Direction::from_up(up);
                        let c = call_commitment(agent(a), ASSET, d, window, salt(s));
                        match l.commit(agent(a), c, now) {
                            Ok(id) => {
                                prop_assert_eq!(id as usize, secrets.len());
                                secrets.push((a, d, window, salt(s)));
                                Ok(())
                            }
                            Err(e) => {
                                prop_assert!(matches!(e, LedgerError::DuplicateCommitment(_)));
                                Err(e)
                            }
                        }
                    }
                    Op::Reveal { call, entry, dt } => {
                        now += dt;
                        let id = pick(call, secrets.len());
                        let (a, d, window, s) = secrets.get(id as usize).copied().unwrap_or((1, Direction::Up, HOUR, salt(0)));
                        l.reveal(id, agent(a), ASSET, d, window, s, U256::from(entry), now).map(|_| ())
                    }
                    Op::Resolve { call, exit, dt } => {
                        now += dt;
                        let id = pick(call, secrets.len());
                        l.resolve(id, exit.map(U256::from), now).map(|_| ())
                    }
                    Op::Expire { call, dt } => {
                        now += dt;
                        let id = pick(call, secrets.len());
                        l.expire(id, now)
                    }
                };
                if result.is_err() {
                    prop_assert_eq!(&before.0, &l.calls);
                    prop_assert_eq!(&before.1, &l.agents);
                    prop_assert_eq!(&before.2, &l.rounds);
                    prop_assert_eq!(&before.3, &l.consensus_log);
                }
            }
            for a in 1u8..6 {
                let mut expected = AgentRecord::new(w(100 * ONE));
                for c in l.calls.iter().filter(|c| c.agent == agent(a)) {
                    match c.status {
                        CallStatus::Resolved { outcome, .. } => expected.apply(outcome).unwrap(),
                        CallStatus::Expired => expected.apply(CallOutcome::Expired).unwrap(),
                        _ => {}
                    }
                }
                let got = l.record(agent(a)).unwrap();
                // Order of settlement can differ from commit order, so compare counts only.
                prop_assert_eq!((got.hits, got.misses, got.voids), (expected.hits, expected.misses, expected.voids));
                prop_assert!(got.streak <= got.best_streak && got.best_streak <= got.hits);
            }
            // Every round's tallies equal the votes of the calls revealed into it.
            for (key, round) in &l.rounds {
                let (mut up, mut down, mut n) = (U256::ZERO, U256::ZERO, 0u64);
                let mut agents = BTreeSet::new();
                for (c, r) in l.calls.iter().filter_map(|c| c.reveal.map(|r| (c, r))) {
                    if r.asset == key.asset && r.window == key.window && r.closes_at / r.window == key.bucket {
                        agents.insert(c.agent);
                    }
                    if r.asset == key.asset && r.window == key.window && r.closes_at / r.window == key.bucket {
                        match (r.direction, r.vote) {
                            (Direction::Up, Some(v)) => { up += v; n += 1; }
                            (Direction::Down, Some(v)) => { down += v; n += 1; }
                            (_, None) => {}
                        }
                    }
                }
                prop_assert_eq!((round.up_weight, round.down_weight, round.voters), (up, down, n));
                // One vote per agent: voters are the distinct agents who revealed into the round.
                prop_assert_eq!(n, agents.len() as u64);
            }
        }
    }
}
