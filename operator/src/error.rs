//! What can go wrong, typed. Per-claim problems are never errors: they are in the intake report.

use std::path::PathBuf;

/// An operator command's failure; the message says what to do where it can.
#[derive(Debug, thiserror::Error)]
pub enum OpError {
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A file or argument is malformed.
    #[error("{what}: {message}")]
    Input {
        /// The file or argument.
        what: String,
        /// What is wrong.
        message: String,
    },
    /// No usable key (keystore, environment variable).
    #[error("key: {0}")]
    Key(String),
    /// The node could not be reached or answered an error (alloy's transport error, kept whole).
    #[error("rpc: {0}")]
    Transport(#[from] alloy::transports::TransportError),
    /// A contract call failed (alloy's contract error, kept whole: its revert data can be read).
    #[error("rpc: {0}")]
    Contract(#[from] alloy::contract::Error),
    /// A page of logs the node did not serve.
    #[error("rpc: logs of blocks {from}–{to}: {source}")]
    Logs {
        /// The page's first block.
        from: u64,
        /// Its last block.
        to: u64,
        /// The node's failure.
        #[source]
        source: alloy::transports::TransportError,
    },
    /// A log or a return value that does not decode as its ABI type.
    #[error("rpc: an answer that does not decode: {0}")]
    Decode(#[from] alloy::sol_types::Error),
    /// The node's answer is not what the step needs (a missing block, a log without its position, …).
    #[error("rpc: {0}")]
    Rpc(String),
    /// A transaction reverted or was refused.
    #[error("transaction: {0}")]
    Tx(String),
    /// The chain's state does not allow the step (wrong epoch, window open, …).
    #[error("{0}")]
    Refused(String),
    /// The epoch could not be built.
    #[error(transparent)]
    Epoch(#[from] eden_core::scoring::EpochError),
    /// The cohort could not be taken in.
    #[error(transparent)]
    Intake(#[from] eden_core::attest::IntakeError),
}

impl OpError {
    /// An [`OpError::Input`].
    pub fn input(what: impl Into<String>, message: impl ToString) -> OpError {
        OpError::Input {
            what: what.into(),
            message: message.to_string(),
        }
    }

    /// A node's or a contract's failure, kept typed ([`OpError::Transport`], [`OpError::Contract`],
    /// [`OpError::Decode`]).
    pub fn rpc(e: impl Into<OpError>) -> OpError {
        e.into()
    }
}

/// Result of an operator step.
pub type Result<T, E = OpError> = std::result::Result<T, E>;
