//! The app's one error type: everything a read, a check, a wallet request or a signature can fail
//! with, each in words a person can act on. Pages show `AppError`s; they never build them from
//! strings of other errors.

use crate::chain::rpc::RpcError;
use crate::chain::world::WorldError;
use crate::tx::SignError;
use crate::wallet::WalletError;
use eden_core::check::CheckError;
use eden_core::rewards::{ResumeError, RewardsError};

/// Why something the page needs could not be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AppError {
    /// A JSON-RPC request failed or reverted.
    #[error(transparent)]
    Rpc(#[from] RpcError),
    /// A launch could not be read.
    #[error(transparent)]
    Launch(#[from] crate::chain::launchpad::LaunchError),
    /// A v4 pool could not be read or quoted.
    #[error(transparent)]
    Pool(#[from] crate::chain::pool::PoolError),
    /// The network or a publication could not be loaded.
    #[error(transparent)]
    World(#[from] WorldError),
    /// The wallet refused or failed.
    #[error(transparent)]
    Wallet(#[from] WalletError),
    /// The burner could not sign.
    #[error(transparent)]
    Sign(#[from] SignError),
    /// A published bundle could not be checked at all.
    #[error(transparent)]
    Check(#[from] CheckError),
    /// A reward computation failed.
    #[error(transparent)]
    Rewards(#[from] RewardsError),
    /// The chain's reward pool cannot be resumed.
    #[error(transparent)]
    Resume(#[from] ResumeError),
    /// A protocol computation in eden-core refused its inputs (a curve, a duel, a call, a price…).
    #[error(transparent)]
    Protocol(#[from] ProtocolError),
    /// A trade form refuses the amount (more than held, more than the curve sold), in words.
    #[error(transparent)]
    Trade(#[from] crate::flows::trade::TradeRefusal),
    /// A value the person typed is not valid (the message says what to type).
    #[error(transparent)]
    Input(#[from] crate::fmt::InputError),
    /// A duel's price observations cannot be rebuilt from the logs.
    #[error(transparent)]
    Observations(#[from] crate::flows::duel_mean::ObservationError),
    /// A publication or description could not be fetched.
    #[error("{url}: {message}")]
    Fetch {
        /// What was fetched.
        url: String,
        /// Why not.
        message: String,
    },
    /// Something read (a publication, a transaction, a file) does not decode.
    #[error("{what}: {message}")]
    Decode {
        /// What was read.
        what: String,
        /// Why it does not decode.
        message: String,
    },
    /// An epoch publishes no score for an address (D9: said as such, naming both).
    #[error("no score for {project} in epoch {epoch}: the epoch publishes no leaf for this address (a project scored in a later epoch, or not a project)")]
    NoScore {
        /// The address checked.
        project: alloy_primitives::Address,
        /// The epoch.
        epoch: u64,
    },
    /// What the page needs is not on chain or not published.
    #[error("{0}")]
    Missing(String),
    /// An error while doing `context`.
    #[error("{context}: {source}")]
    Context {
        /// What was being done ("reading FeeLanes.params").
        context: String,
        /// The error.
        source: Box<AppError>,
    },
}

impl AppError {
    /// A missing piece, in words.
    pub fn missing(what: impl Into<String>) -> Self {
        AppError::Missing(what.into())
    }

    /// `what` does not decode because of `message`.
    pub fn decode(what: impl Into<String>, message: impl std::fmt::Display) -> Self {
        AppError::Decode {
            what: what.into(),
            message: message.to_string(),
        }
    }
}

/// A shared reader's error (`eden_chain`): as the transport's ([`RpcError`]).
impl From<eden_chain::read::ReadError<RpcError>> for AppError {
    fn from(e: eden_chain::read::ReadError<RpcError>) -> Self {
        AppError::Rpc(e.into())
    }
}

/// Declares [`ProtocolError`] with one variant per eden-core error type, and `From` each type
/// straight into [`AppError::Protocol`]: each type is named once.
macro_rules! protocol_errors {
    ($($(#[$doc:meta])* $variant:ident($t:ty)),* $(,)?) => {
        /// An eden-core error of one of the protocol's areas.
        #[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
        pub enum ProtocolError {
            $($(#[$doc])* #[error(transparent)] $variant(#[from] $t),)*
        }

        $(impl From<$t> for AppError {
            fn from(e: $t) -> Self {
                AppError::Protocol(e.into())
            }
        })*
    };
}

protocol_errors!(
    /// A v4 pool swap quote (D7).
    PoolSwap(eden_core::uniswap::swap::SwapError),
    /// The bonding curve (B1–B4).
    Curve(eden_core::curve::CurveError),
    /// A duel (B5–B7).
    Duel(eden_core::duel::DuelError),
    /// Call consensus (A4).
    Consensus(eden_core::calls::consensus::ConsensusError),
    /// An agent's track-record score (A4).
    CallScore(eden_core::calls::score::ScoreError),
    /// A burn's price (C16).
    Price(eden_core::burns::price::PriceError),
    /// A signature (C6).
    Signature(eden_core::eip712::SignatureError),
    /// A verdict code (C8).
    Verdict(eden_core::leaves::InvalidVerdict),
    /// A project's own inputs file.
    InputsFile(eden_core::check::InvalidInputsFile),
);

/// An error shown on the page (`ErrorBox`, a field's message) is its words.
impl From<AppError> for String {
    fn from(e: AppError) -> String {
        e.to_string()
    }
}

/// `.context("reading X")` on any result whose error becomes an [`AppError`].
pub trait Context<T> {
    /// Wraps the error with what was being done.
    fn context(self, context: impl Into<String>) -> Result<T, AppError>;
}

impl<T, E: Into<AppError>> Context<T> for Result<T, E> {
    fn context(self, context: impl Into<String>) -> Result<T, AppError> {
        self.map_err(|e| AppError::Context {
            context: context.into(),
            source: Box::new(e.into()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_read_as_before() {
        let e = Err::<(), _>(RpcError::Decode("x".into())).context("reading FeeLanes.params");
        assert_eq!(
            e.unwrap_err().to_string(),
            "reading FeeLanes.params: unexpected answer from the node: x"
        );
        assert_eq!(
            AppError::missing("no ScorerRegistry").to_string(),
            "no ScorerRegistry"
        );
        assert_eq!(
            AppError::from(WalletError::Cancelled).to_string(),
            "cancelled in the wallet"
        );
    }
}
