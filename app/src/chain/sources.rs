//! The source-key registry (C21) for the Score page: the records of the keys a project's published
//! attestations recover to, and the project's first registration (its age anchor), in one batch, through
//! `eden_chain::sources` (the reader the operator uses too). No Leptos here.

use crate::chain::rpc::{Rpc, RpcError};
use alloy_primitives::Address;
use eden_core::attest::KeyBook;

/// `keyOf(project, key)` for every key in `keys` and `firstRegisteredAt(project)`, as a key book.
/// A key the registry never saw stays out of the book (its attestations then fail as unregistered).
///
/// # Errors
/// When the batch fails or a read reverts.
pub async fn key_book(
    rpc: &Rpc,
    registry: Address,
    project: Address,
    keys: &[Address],
) -> Result<KeyBook, RpcError> {
    let pairs: Vec<(Address, Address)> = keys.iter().map(|&k| (project, k)).collect();
    Ok(eden_chain::sources::key_book(rpc, registry, &[project], &pairs, None).await?)
}
