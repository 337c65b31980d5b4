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
    /// No usable key (keystore, environment variable), or a signature that does not verify.
    #[error("key: {0}")]
    Key(#[from] KeyError),
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
    /// A shared reader's answer that is not what the contract returns (`eden_chain`).
    #[error("rpc: {0}")]
    Answer(Box<eden_chain::read::AnswerError>),
    /// The node's answer is not what the step needs (a missing block, a log without its position, …).
    #[error("rpc: {0}")]
    Rpc(String),
    /// A transaction was refused, reverted or not followed to its receipt.
    #[error("transaction: {0}")]
    Tx(#[from] TxError),
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

/// Why there is no usable key, or what was signed does not verify.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// A keystore was given without its password in the environment.
    #[error("{env} is not set (the password of {})", path.display())]
    NoPassword {
        /// The password's environment variable.
        env: &'static str,
        /// The keystore.
        path: PathBuf,
    },
    /// The keystore did not decrypt.
    #[error("{}: {source}", path.display())]
    Keystore {
        /// The keystore.
        path: PathBuf,
        /// alloy's error.
        source: Box<alloy::signers::local::LocalSignerError>,
    },
    /// Neither a keystore nor the key's environment variable.
    #[error(
        "no key: set {env} to a private key, or pass --keystore FILE (password in {password_env})"
    )]
    NoKey {
        /// The key's environment variable.
        env: String,
        /// The keystore password's.
        password_env: &'static str,
    },
    /// The environment variable does not hold a private key.
    #[error("{env}: not a private key ({source})")]
    NotAKey {
        /// The key's environment variable.
        env: String,
        /// alloy's error.
        source: Box<alloy::signers::local::LocalSignerError>,
    },
    /// The command sends a transaction and was given no key.
    #[error("this command sends a transaction: give a key")]
    NeedsKey,
    /// The signer failed.
    #[error("signing: {0}")]
    Sign(Box<alloy::signers::Error>),
    /// What was signed does not recover under the contracts' rules.
    #[error("the signature does not verify: {0}")]
    Signature(#[from] eden_core::eip712::SignatureError),
}

/// Why a transaction did not land.
#[derive(Debug, thiserror::Error)]
pub enum TxError {
    /// The contract refused it (its simulation or its send): the revert in the protocol's words, with alloy's
    /// error kept whole (its revert data can be read).
    #[error("{reason}")]
    Refused {
        /// The revert in words (`eden_chain::revert`).
        reason: String,
        /// alloy's error.
        source: Box<alloy::contract::Error>,
    },
    /// It was sent but not followed to its receipt (a timeout, a dropped transaction).
    #[error("{0}")]
    Pending(Box<alloy::providers::PendingTransactionError>),
    /// It was mined and reverted.
    #[error("{0} reverted")]
    Reverted(alloy::primitives::B256),
}

impl TxError {
    /// A contract's refusal, in the protocol's words.
    pub fn refused(e: alloy::contract::Error) -> TxError {
        let reason = match e.as_revert_data() {
            Some(data) if !data.is_empty() => eden_chain::revert::revert_reason(&data),
            _ => e.to_string(),
        };
        TxError::Refused {
            reason,
            source: Box::new(e),
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_operator_error_stays_small_to_move() {
        // Every `Result<_, OpError>` carries it: the large alloy errors inside are boxed.
        assert!(
            std::mem::size_of::<OpError>() <= 128,
            "{}",
            std::mem::size_of::<OpError>()
        );
    }
}
