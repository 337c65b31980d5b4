//! The log reader's cache: every scan's logs, kept per deployment in the browser's IndexedDB up to
//! a confirmed depth, so a reload reads only the blocks after them. A cache key names the chain,
//! the hash of the deployment block (a restarted local chain, or another chain with the same id,
//! never reuses another's logs), the filter and the first block. Blocks within
//! [`CONFIRMED_DEPTH`] of the head are never cached (they may still be reorganised). When IndexedDB
//! is unavailable (a private window), scans simply are not cached. No Leptos here.
//!
//! A deployment's cached scans are read from IndexedDB **once** per page load, in one transaction,
//! started by the first scan ([`get`] waits for that one read, then looks in memory; nothing reads it at
//! connect, so a page that scans no logs never loads this code, D11). Every scan a page starts together so
//! continues in the same browser task, and the requests they make next (a contract's record of its
//! event blocks, D12) travel as one JSON-RPC batch (D3). One IndexedDB read per scan would finish
//! each in its own task, and each scan's next request would go alone.

use crate::chain::transport::Log;
use futures::future::{FutureExt, LocalBoxFuture, Shared};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Blocks below the head that are read again on every scan (never cached).
pub const CONFIRMED_DEPTH: u64 = 64;

const DB: &str = "eden-logs";
const STORE: &str = "scans";

/// The logs of one filter over blocks `[from, to]`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CachedScan {
    pub from: u64,
    pub to: u64,
    pub logs: Vec<Log>,
}

/// What a scan of `[from, to]` still has to read given `cached`: the cached logs it can use and
/// the first block to read (`None`: nothing left to read).
pub fn plan(cached: Option<&CachedScan>, from: u64, to: u64) -> (Vec<Log>, Option<u64>) {
    match cached {
        Some(c) if c.from == from && c.to >= from => {
            let reuse: Vec<Log> = c
                .logs
                .iter()
                .filter(|l| l.position().0 <= to)
                .cloned()
                .collect();
            let next = c.to.checked_add(1).filter(|&n| n <= to);
            (reuse, next)
        }
        _ => (Vec::new(), Some(from)),
    }
}

/// The scan to keep after reading up to `to`: its logs up to the confirmed block
/// `to - CONFIRMED_DEPTH`, or `None` when no block of it is confirmed yet.
pub fn to_keep(logs: &[Log], from: u64, to: u64) -> Option<CachedScan> {
    let confirmed = to.checked_sub(CONFIRMED_DEPTH)?;
    (confirmed >= from).then(|| CachedScan {
        from,
        to: confirmed,
        logs: logs
            .iter()
            .filter(|l| l.position().0 <= confirmed)
            .cloned()
            .collect(),
    })
}

async fn open() -> Option<rexie::Rexie> {
    rexie::Rexie::builder(DB)
        .version(1)
        .add_object_store(rexie::ObjectStore::new(STORE))
        .build()
        .await
        .ok()
}

/// One deployment's cached scans in memory, by key.
type Scans = Rc<RefCell<HashMap<String, CachedScan>>>;

thread_local! {
    /// Each deployment's scans, read once (the read shared by every scan waiting for it).
    static LOADED: RefCell<HashMap<String, Shared<LocalBoxFuture<'static, Scans>>>> =
        RefCell::new(HashMap::new());
}

/// Every key of deployment `prefix` lies in `[prefix|, prefix|\u{ffff}]`.
fn range_of(prefix: &str) -> Option<rexie::KeyRange> {
    rexie::KeyRange::bound(
        &format!("{prefix}|").into(),
        &format!("{prefix}|\u{ffff}").into(),
        None,
        None,
    )
    .ok()
}

/// Reads every cached scan of deployment `prefix` in one transaction (none, if unreadable).
async fn load(prefix: String) -> Scans {
    let mut scans = HashMap::new();
    let read = async {
        let db = open().await?;
        let tx = db
            .transaction(&[STORE], rexie::TransactionMode::ReadOnly)
            .ok()?;
        let store = tx.store(STORE).ok()?;
        let keys = store.get_all_keys(range_of(&prefix), None).await.ok()?;
        let values = store.get_all(range_of(&prefix), None).await.ok()?;
        Some(keys.into_iter().zip(values).collect::<Vec<_>>())
    };
    for (k, v) in read.await.unwrap_or_default() {
        let (Some(k), Some(v)) = (k.as_string(), v.as_string()) else {
            continue;
        };
        if let Ok(scan) = serde_json::from_str(&v) {
            scans.insert(k, scan);
        }
    }
    Rc::new(RefCell::new(scans))
}

/// The one read of deployment `prefix`'s scans (started by the first to ask).
fn read_of(prefix: &str) -> Shared<LocalBoxFuture<'static, Scans>> {
    LOADED.with(|m| {
        m.borrow_mut()
            .entry(prefix.to_owned())
            .or_insert_with(|| load(prefix.to_owned()).boxed_local().shared())
            .clone()
    })
}

/// Deployment `prefix`'s scans: read on the first call, then from memory.
async fn scans(prefix: &str) -> Scans {
    read_of(prefix).await
}

/// The cached scan of deployment `prefix` under `key`, if any (and readable).
pub async fn get(prefix: &str, key: &str) -> Option<CachedScan> {
    scans(prefix).await.borrow().get(key).cloned()
}

/// Keeps `scan` of deployment `prefix` under `key`: in memory now, and in IndexedDB in a task of
/// its own (best effort: a full or unavailable store only loses the cache after this page load).
/// The reader does not wait for the write: an IndexedDB transaction ends in a browser task of its
/// own, so a reader that waited would send its next request apart from the others' (D3).
pub async fn put(prefix: &str, key: &str, scan: &CachedScan) {
    scans(prefix)
        .await
        .borrow_mut()
        .insert(key.to_owned(), scan.clone());
    let (key, scan) = (key.to_owned(), scan.clone());
    wasm_bindgen_futures::spawn_local(async move {
        let Some(db) = open().await else { return };
        let Ok(text) = serde_json::to_string(&scan) else {
            return;
        };
        let Ok(tx) = db.transaction(&[STORE], rexie::TransactionMode::ReadWrite) else {
            return;
        };
        if let Ok(store) = tx.store(STORE) {
            let _ = store
                .put(&text.as_str().into(), Some(&key.as_str().into()))
                .await;
        }
        let _ = tx.done().await;
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::{Bytes, B256, U256};

    fn log_at(block: u64) -> Log {
        Log {
            address: None,
            topics: vec![B256::ZERO],
            data: Bytes::new(),
            block_number: U256::from(block),
            transaction_hash: B256::repeat_byte(1),
            log_index: Some(U256::ZERO),
        }
    }

    fn blocks(logs: &[Log]) -> Vec<u64> {
        logs.iter().map(|l| l.position().0).collect()
    }

    #[test]
    fn a_reload_reads_only_the_blocks_after_the_cached_ones() {
        // First scan of [0, 1000]: nothing cached, everything read; blocks up to 936 kept.
        let (reuse, next) = plan(None, 0, 1_000);
        assert!(reuse.is_empty());
        assert_eq!(next, Some(0));
        let read = vec![log_at(5), log_at(900), log_at(990)];
        let kept = to_keep(&read, 0, 1_000).unwrap();
        assert_eq!((kept.from, kept.to), (0, 1_000 - CONFIRMED_DEPTH));
        assert_eq!(blocks(&kept.logs), [5, 900]);
        // The next scan, to block 1,200: the cached logs, then only blocks 937 onwards.
        let (reuse, next) = plan(Some(&kept), 0, 1_200);
        assert_eq!(blocks(&reuse), [5, 900]);
        assert_eq!(next, Some(937));
        // A scan that ends inside the cached range reads nothing new.
        let (reuse, next) = plan(Some(&kept), 0, 600);
        assert_eq!(blocks(&reuse), [5]);
        assert_eq!(next, None);
        // A scan from another first block does not use it.
        assert_eq!(plan(Some(&kept), 10, 1_200).1, Some(10));
    }

    #[test]
    fn nothing_within_the_confirmed_depth_is_kept() {
        assert!(to_keep(&[log_at(3)], 0, CONFIRMED_DEPTH - 1).is_none());
        assert!(to_keep(&[log_at(3)], 100, 100 + CONFIRMED_DEPTH - 1).is_none());
        let k = to_keep(&[log_at(3)], 0, CONFIRMED_DEPTH).unwrap();
        assert_eq!((k.to, k.logs.len()), (0, 0));
    }

    #[test]
    fn a_cached_scan_survives_its_json_round_trip() {
        let scan = CachedScan {
            from: 0,
            to: 10,
            logs: vec![log_at(7)],
        };
        let back: CachedScan =
            serde_json::from_str(&serde_json::to_string(&scan).unwrap()).unwrap();
        assert_eq!(blocks(&back.logs), [7]);
        assert_eq!(back.logs[0].transaction_hash, B256::repeat_byte(1));
    }
}
