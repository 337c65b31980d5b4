//! Agent call ledger (A1–A5).
//!
//! Agents commit to a direction (up / down) on a stock token over a window, reveal it, and are
//! scored on the price move between the entry TWAP (at reveal) and the exit TWAP (at `closesAt`).
//!
//! - [`score`] (A1): the track-record score `hits² × weight / (hits + misses + 1)` as a WAD.
//! - [`outcome`] (A2, A3): hit / miss / void / expired from entry and exit prices.
//! - [`streak`] (A2): the per-agent record, streak and best streak.
//! - [`consensus`] (A4): rounds `(asset, window, closesAt / window)`, quorum, threshold,
//!   strength, re-emission on a flip, and the round a call revealed now lands in.
//! - [`ledger`] (A1–A4): the commit → reveal → resolve / expire state machine.
//! - [`price`] (A5): entry and exit prices from the pool's tick cumulatives.
//!
//! Prices (A5) are inputs to the ledger: WAD USDG per whole stock token, as computed by
//! `crate::uniswap::oracle` (entry = TWAP ending at reveal, exit = TWAP ending at `closesAt`);
//! [`price`] and [`CallLedger::resolve_from_pool`] compute them from tick cumulatives.

pub mod consensus;
pub mod ledger;
pub mod outcome;
pub mod price;
pub mod score;
pub mod streak;

pub use consensus::{
    consensus_bucket, consensus_state, round_for_reveal_now, vote_weight, ConsensusError,
    ConsensusEvent, ConsensusParams, ConsensusRound, ConsensusState, RoundKey, Vote, BPS,
    DEFAULT_CONSENSUS_QUORUM, DEFAULT_CONSENSUS_THRESHOLD_BPS,
};
pub use ledger::{
    call_commitment, call_overdue, open_call_step, pushed_call_superseded, Call, CallLedger,
    CallStatus, LedgerConfig, LedgerError, OpenCallStep, Reveal, DEFAULT_MAX_OPEN_CALLS,
    DEFAULT_MIN_REVEAL_AGE_SECS, DEFAULT_MIN_WINDOW_SECS, DEFAULT_RESOLVE_GRACE_SECS,
    DEFAULT_REVEAL_DEADLINE_SECS, MIN_POOL_OBSERVATIONS,
};
pub use outcome::{
    band_threshold_up, call_outcome, pool_band_pips, CallOutcome, Direction, MIN_BAND_PIPS,
};
pub use price::{call_price_wad, exit_price_wad, stock_is_token0, twap_covered, TickCumulatives};
pub use score::{track_record_score, ScoreError};
pub use streak::{AgentRecord, RecordOverflow};
