//! `eden config`: the scoring configuration published by its hash and pinned on chain (C2a,
//! `eden_core::scoring::pinned`).
//!
//! - [`publish`] writes a configuration's canonical bytes under `config/<hash>.json` in a publication
//!   directory (never overwriting a different file), after validating every track.
//! - [`pin`] sends `EpochRegistry.pinConfig(hash, version, firstEpoch)` when this key is the registry's owner;
//!   under the timelock it sends nothing and returns the call to schedule.

use crate::chain::{confirm, Chain, Sent};
use crate::epoch::write_once;
use crate::error::{OpError, Result, TxError};
use alloy::primitives::{Address, Bytes, B256};
use alloy::sol_types::SolCall;
use eden_core::scoring::pinned::{config_path, ScoringConfig};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Reads and validates a configuration file (any JSON layout).
///
/// # Errors
/// An unreadable file or a configuration that breaks a rule, naming the file.
pub fn read(path: &Path) -> Result<ScoringConfig> {
    let text =
        std::fs::read_to_string(path).map_err(|e| OpError::input(path.display().to_string(), e))?;
    ScoringConfig::parse(&text).map_err(|e| OpError::input(path.display().to_string(), e))
}

/// What `eden config publish` did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Published {
    /// keccak256 of the published bytes: what the chain pins.
    pub hash: B256,
    /// The configuration's version.
    pub version: u64,
    /// Where it is.
    pub path: PathBuf,
    /// False when the same file was already there.
    pub written: bool,
}

/// Writes `config`'s canonical bytes under `dir/config/<hash>.json`.
///
/// # Errors
/// A different file already at that path, or the filesystem's.
pub fn publish(config: &ScoringConfig, dir: &Path) -> Result<Published> {
    let hash = config.hash();
    let path = dir.join(config_path(&hash));
    let written = write_once(&path, &config.canonical())?;
    Ok(Published {
        hash,
        version: config.version,
        path,
        written,
    })
}

/// What `eden config pin` did.
#[derive(Debug, Clone, Serialize)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "result"
)]
pub enum Pinned {
    /// Sent by the owner's key.
    Pinned {
        /// The hash pinned.
        hash: B256,
        /// Its version.
        version: u64,
        /// Its first epoch.
        first_epoch: u64,
        /// The transaction.
        sent: Sent,
    },
    /// This key is not the owner (the timelock is): nothing sent; the call for the owner to schedule.
    Schedule {
        /// The registry's owner.
        owner: Address,
        /// The registry (the call's target).
        target: Address,
        /// `pinConfig(hash, version, firstEpoch)`'s calldata.
        calldata: Bytes,
    },
}

/// Pins `config` from `first_epoch` on (C2a): sent when this key is the registry's owner; otherwise the call to
/// schedule through the timelock. Refuses an epoch the registry already proposed (it would revert).
///
/// # Errors
/// The node's, or the registry refusing the pin.
pub async fn pin(chain: &Chain, config: &ScoringConfig, first_epoch: u64) -> Result<Pinned> {
    use crate::abi::EpochRegistry;
    let reg = chain.registry();
    let hash = config.hash();
    let next = reg.nextEpoch().call().await.map_err(OpError::rpc)?;
    if first_epoch < next {
        return Err(OpError::Refused(format!(
            "epoch {first_epoch} is already proposed (the next is {next}): a configuration applies only to future epochs"
        )));
    }
    let owner = reg.owner().call().await.map_err(OpError::rpc)?;
    if chain.from != Some(owner) {
        return Ok(Pinned::Schedule {
            owner,
            target: chain.net.contracts.epoch_registry,
            calldata: EpochRegistry::pinConfigCall {
                configHash: hash,
                version: config.version,
                firstEpoch: first_epoch,
            }
            .abi_encode()
            .into(),
        });
    }
    let pending = reg
        .pinConfig(hash, config.version, first_epoch)
        .send()
        .await
        .map_err(TxError::refused)?;
    Ok(Pinned::Pinned {
        hash,
        version: config.version,
        first_epoch,
        sent: confirm(pending).await?,
    })
}
