//! The registered source keys (C21), as `SourceKeyRegistry` holds them: per project and key, the source
//! the key signs for and its validity window `[registeredAt, revokedAt)` (`revokedAt = 0`: not revoked).
//! A client fills a [`KeyBook`] from the registry's `SourceKeyRegistered`/`SourceKeyRevoked` logs (or
//! `keyOf` calls) and checks attestations against it; the window makes the check the same at any later time.

use alloy_primitives::{Address, B256};
// foldhash (alloy's map): looked up once per attestation of a 100,000-project cohort.
use alloy_primitives::map::HashMap;

/// One key's record for one project.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyRecord {
    /// `keccak256(bytes(source name))` ([`super::source_id`]).
    pub source: B256,
    /// Registration time (unix seconds).
    pub registered_at: u64,
    /// Revocation time, 0 when not revoked.
    pub revoked_at: u64,
}

impl KeyRecord {
    /// Whether the key signs `source` at time `t`: `registeredAt ≤ t < revokedAt`.
    pub fn valid_at(&self, source: B256, t: u64) -> bool {
        self.source == source
            && self.registered_at <= t
            && (self.revoked_at == 0 || t < self.revoked_at)
    }
}

/// Every registered key, by project and key address.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeyBook {
    keys: HashMap<(Address, Address), KeyRecord>,
    first: HashMap<Address, u64>,
}

impl KeyBook {
    /// An empty book.
    pub fn new() -> KeyBook {
        KeyBook::default()
    }

    /// Records a registration (as the `SourceKeyRegistered` log says); a second registration of the same
    /// key for the same project is ignored, as the registry refuses it.
    pub fn register(&mut self, project: Address, key: Address, source: B256, at: u64) {
        if self.keys.contains_key(&(project, key)) {
            return;
        }
        self.keys.insert(
            (project, key),
            KeyRecord {
                source,
                registered_at: at,
                revoked_at: 0,
            },
        );
        let first = self.first.entry(project).or_insert(at);
        *first = (*first).min(at);
    }

    /// Records the project's first registration time as the registry holds it
    /// (`firstRegisteredAt`, which may be earlier than every key in the book); 0 is ignored.
    pub fn note_first_registered(&mut self, project: Address, at: u64) {
        if at != 0 {
            let first = self.first.entry(project).or_insert(at);
            *first = (*first).min(at);
        }
    }

    /// Records a revocation (the first one counts, as on chain).
    pub fn revoke(&mut self, project: Address, key: Address, at: u64) {
        if let Some(r) = self.keys.get_mut(&(project, key)) {
            if r.revoked_at == 0 {
                r.revoked_at = at;
            }
        }
    }

    /// The record of `key` for `project`.
    pub fn get(&self, project: Address, key: Address) -> Option<&KeyRecord> {
        self.keys.get(&(project, key))
    }

    /// When the project registered its first key (`SourceKeyRegistry.firstRegisteredAt`, its age anchor).
    pub fn first_registered_at(&self, project: Address) -> Option<u64> {
        self.first.get(&project).copied()
    }

    /// Number of key records.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the book is empty.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::address;

    #[test]
    fn window_is_half_open_and_history_is_never_rewritten() {
        let p = address!("0x00000000000000000000000000000000000000aa");
        let k = address!("0x00000000000000000000000000000000000000bb");
        let s = B256::repeat_byte(1);
        let mut book = KeyBook::new();
        book.register(p, k, s, 100);
        book.register(p, k, B256::repeat_byte(2), 50); // refused on chain: ignored
        assert_eq!(book.get(p, k).unwrap().source, s);
        assert_eq!(book.first_registered_at(p), Some(100));
        book.revoke(p, k, 200);
        book.revoke(p, k, 300);
        let r = book.get(p, k).unwrap();
        assert!(!r.valid_at(s, 99));
        assert!(r.valid_at(s, 100));
        assert!(r.valid_at(s, 199));
        assert!(!r.valid_at(s, 200));
        assert!(!r.valid_at(B256::repeat_byte(2), 150));
    }
}
