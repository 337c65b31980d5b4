//! The source-key registry (C21), read once for the app and the operator: which `(project, key)` pairs it
//! ever registered, and a [`KeyBook`] of their records and the projects' first registrations (their age
//! anchor) at a block, read in one batch. Raw values; `eden_core::attest` decides with them.

use crate::abi::SourceKeyRegistry;
use crate::log::LogFilter;
use crate::read::{batch, decode_answer, ChainRead, ReadError};
use alloy_primitives::Address;
use eden_core::attest::KeyBook;

/// Every `(project, key)` `registry` registered in blocks `[from, to]`, each once, in the order of its first
/// `SourceKeyRegistered` event.
///
/// # Errors
/// The transport's; a log that does not decode as `SourceKeyRegistered`.
pub async fn registered_keys<R: ChainRead>(
    chain: &R,
    registry: Address,
    from: u64,
    to: u64,
) -> Result<Vec<(Address, Address)>, ReadError<R::Error>> {
    let filter = LogFilter::event::<SourceKeyRegistry::SourceKeyRegistered>(registry, None);
    let logs = chain
        .logs(&filter, from, to)
        .await
        .map_err(ReadError::Transport)?;
    let mut pairs = Vec::with_capacity(logs.len());
    for l in &logs {
        let e: SourceKeyRegistry::SourceKeyRegistered = l.decode()?;
        if !pairs.contains(&(e.project, e.key)) {
            pairs.push((e.project, e.key));
        }
    }
    Ok(pairs)
}

/// `keyOf(project, key)` for every pair and `firstRegisteredAt(project)` for every project in `projects`,
/// against the state after `block` (`None`: the latest), in one batch, as a key book. A key the registry
/// never saw stays out of the book (its attestations then fail as unregistered, C21).
///
/// # Errors
/// The transport's; a read that reverts or does not decode.
pub async fn key_book<R: ChainRead>(
    chain: &R,
    registry: Address,
    projects: &[Address],
    pairs: &[(Address, Address)],
    block: Option<u64>,
) -> Result<KeyBook, ReadError<R::Error>> {
    use alloy_sol_types::SolCall;
    let calls = pairs
        .iter()
        .map(|&(project, key)| SourceKeyRegistry::keyOfCall { project, key }.abi_encode())
        .chain(
            projects
                .iter()
                .map(|&project| SourceKeyRegistry::firstRegisteredAtCall { project }.abi_encode()),
        )
        .map(|data| (registry, data.into()))
        .collect();
    let mut answers = batch(chain, calls, block).await?;
    let firsts = answers.split_off(pairs.len());
    let mut book = KeyBook::new();
    for (&(project, key), answer) in pairs.iter().zip(answers) {
        let r = decode_answer::<SourceKeyRegistry::keyOfCall, _>(answer)?;
        if r.registeredAt != 0 {
            book.register(project, key, r.source, r.registeredAt);
            if r.revokedAt != 0 {
                book.revoke(project, key, r.revokedAt);
            }
        }
    }
    for (&project, answer) in projects.iter().zip(firsts) {
        let first = decode_answer::<SourceKeyRegistry::firstRegisteredAtCall, _>(answer)?;
        book.note_first_registered(project, first);
    }
    Ok(book)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::Log;
    use alloy_primitives::{Bytes, B256};
    use alloy_sol_types::{SolCall, SolValue};
    use std::collections::BTreeMap;

    /// A registry as a table of answers by calldata; `short` drops the last answer of a batch.
    struct Registry {
        answers: BTreeMap<Vec<u8>, Result<Bytes, String>>,
        short: bool,
    }

    impl ChainRead for Registry {
        type Error = String;

        async fn logs(&self, _: &LogFilter, _: u64, _: u64) -> Result<Vec<Log>, String> {
            Ok(vec![])
        }

        async fn block_timestamps(&self, _: &[u64]) -> Result<BTreeMap<u64, u64>, String> {
            Ok(BTreeMap::new())
        }

        async fn call_batch(
            &self,
            calls: &[(Address, Bytes)],
            block: Option<u64>,
        ) -> Result<Vec<Result<Bytes, String>>, String> {
            assert_eq!(block, Some(7), "read at the block asked for");
            let mut out: Vec<_> = calls
                .iter()
                .map(|(_, data)| self.answers[&data.to_vec()].clone())
                .collect();
            if self.short {
                out.pop();
            }
            Ok(out)
        }
    }

    fn record(source: u8, registered: u64, revoked: u64) -> Result<Bytes, String> {
        let r = SourceKeyRegistry::SourceKey {
            source: B256::repeat_byte(source),
            registeredAt: registered,
            revokedAt: revoked,
        };
        Ok(r.abi_encode().into())
    }

    #[test]
    fn the_book_keeps_registered_keys_their_revocations_and_the_age_anchor() {
        let (p, k1, k2, k3) = (
            Address::repeat_byte(0xaa),
            Address::repeat_byte(1),
            Address::repeat_byte(2),
            Address::repeat_byte(3),
        );
        let key = |key| SourceKeyRegistry::keyOfCall { project: p, key }.abi_encode();
        let first = SourceKeyRegistry::firstRegisteredAtCall { project: p }.abi_encode();
        let mut reg = Registry {
            answers: BTreeMap::from([
                (key(k1), record(9, 100, 0)),
                (key(k2), record(8, 150, 200)),
                (key(k3), record(0, 0, 0)),
                (first.clone(), Ok(50u64.abi_encode().into())),
            ]),
            short: false,
        };
        let pairs = [(p, k1), (p, k2), (p, k3)];
        let book =
            futures::executor::block_on(key_book(&reg, Address::ZERO, &[p], &pairs, Some(7)))
                .unwrap();
        assert_eq!(book.len(), 2, "a key never registered stays out");
        assert_eq!(book.get(p, k1).unwrap().registered_at, 100);
        assert_eq!(book.get(p, k2).unwrap().revoked_at, 200);
        assert_eq!(
            book.first_registered_at(p),
            Some(50),
            "the registry's anchor, not the earliest key"
        );

        reg.answers.insert(first, Ok(Bytes::new()));
        let empty =
            futures::executor::block_on(key_book(&reg, Address::ZERO, &[p], &pairs, Some(7)));
        assert!(
            matches!(
                empty,
                Err(ReadError::Return { call, .. }) if call == SourceKeyRegistry::firstRegisteredAtCall::SIGNATURE
            ),
            "an empty answer (no code) is an error, not a zero"
        );
        reg.short = true;
        let short =
            futures::executor::block_on(key_book(&reg, Address::ZERO, &[p], &pairs, Some(7)));
        assert!(matches!(
            short,
            Err(ReadError::Batch {
                sent: 4,
                answered: 3
            })
        ));
    }
}
