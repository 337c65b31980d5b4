//! The source-key registry (C21), read from the chain: the records of the keys a project's published
//! attestations recover to, and the project's first registration (its age anchor), in one batch. Raw
//! values; `eden_core::attest::recheck_project` decides with them. No Leptos here.

use crate::chain::abi::ISourceKeyRegistry;
use crate::chain::multicall::Batch;
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
    let mut b = Batch::new();
    let first = b.add(
        registry,
        &ISourceKeyRegistry::firstRegisteredAtCall { project },
    );
    let handles: Vec<_> = keys
        .iter()
        .map(|k| {
            b.add(
                registry,
                &ISourceKeyRegistry::keyOfCall { project, key: *k },
            )
        })
        .collect();
    let a = b.run(rpc).await?;
    let mut book = KeyBook::new();
    for (k, h) in keys.iter().zip(handles) {
        let r = a.get(h)?;
        if r.registeredAt != 0 {
            book.register(project, *k, r.source, r.registeredAt);
            if r.revokedAt != 0 {
                book.revoke(project, *k, r.revokedAt);
            }
        }
    }
    book.note_first_registered(project, a.get(first)?);
    Ok(book)
}
