//! `eden keys`: a project's source keys in the SourceKeyRegistry (C21).

use super::{connect, Cli};
use alloy::primitives::Address;
use clap::Subcommand;
use eden_operator::output::Out;
use eden_operator::{attest, OpError};

#[derive(Subcommand)]
pub(crate) enum KeysCmd {
    /// Registers a source key for a project (sent by the project's controller).
    Register {
        /// The project.
        #[arg(long)]
        project: Address,
        /// The source's name.
        #[arg(long)]
        source: String,
        /// The key's address.
        #[arg(long)]
        key: Address,
    },
    /// Revokes a key (by the project's controller or the key itself).
    Revoke {
        /// The project.
        #[arg(long)]
        project: Address,
        /// The key's address.
        #[arg(long)]
        key: Address,
    },
}

/// Runs one `eden keys` command.
pub(crate) async fn run(cli: &Cli, k: &KeysCmd, out: Out) -> Result<(), OpError> {
    let chain = connect(cli, out, true).await?;
    match k {
        KeysCmd::Register {
            project,
            source,
            key,
        } => {
            let sent = attest::register(&chain, *project, source, *key).await?;
            out.done(&sent, || {
                format!(
                    "registered {key} for {source} of {project} (tx {}, block {}, gas {})",
                    sent.tx, sent.block, sent.gas_used
                )
            });
        }
        KeysCmd::Revoke { project, key } => {
            let sent = attest::revoke(&chain, *project, *key).await?;
            out.done(&sent, || {
                format!(
                    "revoked {key} for {project} (tx {}, block {})",
                    sent.tx, sent.block
                )
            });
        }
    }
    Ok(())
}
