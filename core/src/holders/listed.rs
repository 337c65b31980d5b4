//! C18a: which balances a round excludes, from state alone.
//!
//! A round excludes two kinds of accounts:
//! - **the deployment's own** ([`own_accounts`]): `0x0`, `0x…dEaD`, the pool manager, the bonding curve, the
//!   launch locker, the distributor, and where deployed the fee lanes, the duel hook, the swap router, the
//!   scorer registry and the call ledger;
//! - **the listed ones**: escrows, vesting locks and vaults the owner listed on the distributor
//!   (`setExcluded`, behind the timelock). The distributor keeps every change with its block, so the list in
//!   force at the snapshot block `b` is each account's last change with `block ≤ b` ([`listed_at`]).
//!
//! [`check_excluded`] compares a published snapshot's exclusions with that set: the operator's audit, the
//! watchtower and the Payouts page all run it, so a round that pays a vault (or leaves a holder out by
//! calling it excluded) is found from the chain, not from the poster's word.

use super::{PayoutSnapshot, DEAD_ADDRESS};
use crate::network::Contracts;
use alloy_primitives::Address;
use std::collections::{BTreeMap, BTreeSet};

/// The role a listed account is recorded under in a snapshot.
pub const LISTED_ROLE: &str = "listed";

/// One change of the distributor's exclusion list (`HolderDistributor.exclusionChanges`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExclusionChange {
    /// The account.
    pub account: Address,
    /// Listed (`true`) or unlisted.
    pub excluded: bool,
    /// The block the change took effect in.
    pub block: u64,
}

/// The deployment's own accounts with their roles (C18a), in a fixed order.
pub fn own_accounts(c: &Contracts) -> Vec<(Address, &'static str)> {
    let mut v = vec![
        (Address::ZERO, "zero"),
        (DEAD_ADDRESS, "dead"),
        (c.pool_manager, "poolManager"),
        (c.launchpad, "curve"),
        (c.launch_locker, "locker"),
        (c.holder_distributor, "distributor"),
    ];
    for (a, role) in [
        (c.fee_lanes, "feeLanes"),
        (c.duel_hook, "hook"),
        (c.swap_router, "router"),
        (c.scorer_registry, "scorerRegistry"),
        (c.call_ledger, "callLedger"),
    ] {
        if let Some(a) = a {
            v.push((a, role));
        }
    }
    v
}

/// The accounts listed at block `b`: each account's last change with `block ≤ b` (C18a).
pub fn listed_at(changes: &[ExclusionChange], b: u64) -> BTreeSet<Address> {
    let mut last: BTreeMap<Address, bool> = BTreeMap::new();
    for c in changes.iter().filter(|c| c.block <= b) {
        last.insert(c.account, c.excluded);
    }
    last.into_iter()
        .filter_map(|(a, on)| on.then_some(a))
        .collect()
}

/// Every account a round at block `b` excludes, with its role: the deployment's own first, then the
/// listed ones (an account both is recorded once, under its own role).
pub fn excluded_at(
    c: &Contracts,
    changes: &[ExclusionChange],
    b: u64,
) -> Vec<(Address, &'static str)> {
    let mut v = own_accounts(c);
    v.dedup_by_key(|(a, _)| *a);
    for a in listed_at(changes, b) {
        if !v.iter().any(|(x, _)| *x == a) {
            v.push((a, LISTED_ROLE));
        }
    }
    v
}

/// How a snapshot's exclusions differ from the chain's (C18a).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.describe())]
pub struct ExclusionMismatch {
    /// Excluded at the snapshot block but paid or missing from the snapshot's exclusions.
    pub missing: Vec<Address>,
    /// Excluded by the snapshot though neither the deployment's nor listed at its block.
    pub extra: Vec<Address>,
}

impl ExclusionMismatch {
    fn describe(&self) -> String {
        let list = |v: &[Address]| {
            v.iter()
                .map(|a| a.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match (self.missing.is_empty(), self.extra.is_empty()) {
            (false, true) => format!("the snapshot does not exclude {}", list(&self.missing)),
            (true, false) => format!(
                "the snapshot excludes {}, which is neither the deployment's nor listed at its block",
                list(&self.extra)
            ),
            _ => format!(
                "the snapshot does not exclude {} and excludes {}, which is neither the deployment's nor listed at its block",
                list(&self.missing),
                list(&self.extra)
            ),
        }
    }
}

/// Checks a snapshot's exclusions against the deployment's own accounts and the list in force at its block:
/// the same set, and no excluded account among its holders.
///
/// # Errors
/// [`ExclusionMismatch`] naming each account on one side only.
pub fn check_excluded(
    snap: &PayoutSnapshot,
    c: &Contracts,
    changes: &[ExclusionChange],
) -> Result<(), ExclusionMismatch> {
    let want: BTreeSet<Address> = excluded_at(c, changes, snap.block)
        .into_iter()
        .map(|(a, _)| a)
        .collect();
    let stated: BTreeSet<Address> = snap.excluded.iter().map(|e| e.account).collect();
    let paid: BTreeSet<Address> = snap.holders.iter().map(|h| h.account).collect();
    let missing: Vec<Address> = want
        .iter()
        .filter(|&&a| !stated.contains(&a) || paid.contains(&a))
        .copied()
        .collect();
    let extra: Vec<Address> = stated.difference(&want).copied().collect();
    if missing.is_empty() && extra.is_empty() {
        Ok(())
    } else {
        Err(ExclusionMismatch { missing, extra })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holders::{Excluded, Holder, SNAPSHOT_FORMAT};
    use alloy_primitives::{B256, U256};
    use proptest::prelude::*;

    fn a(n: u8) -> Address {
        Address::repeat_byte(n)
    }

    fn contracts() -> Contracts {
        serde_json::from_value(serde_json::json!({
            "epochRegistry": a(1), "holderDistributor": a(2), "launchpad": a(3),
            "launchLocker": a(4), "poolManager": a(5), "feeLanes": a(6),
        }))
        .unwrap()
    }

    fn change(n: u8, excluded: bool, block: u64) -> ExclusionChange {
        ExclusionChange {
            account: a(n),
            excluded,
            block,
        }
    }

    fn snapshot(block: u64, excluded: &[Address], holders: &[Address]) -> PayoutSnapshot {
        PayoutSnapshot {
            format: SNAPSHOT_FORMAT.into(),
            chain_id: 31337,
            distributor: a(2),
            token: a(0x70),
            asset: Address::ZERO,
            epoch: 1,
            block,
            block_hash: B256::ZERO,
            from_block: 0,
            total: U256::from(1),
            eligible_supply: U256::from(1),
            allocated: U256::from(1),
            dust: U256::ZERO,
            root: B256::ZERO,
            excluded: excluded
                .iter()
                .map(|&account| Excluded {
                    account,
                    role: "x".into(),
                    balance: U256::ZERO,
                })
                .collect(),
            holders: holders
                .iter()
                .map(|&account| Holder {
                    account,
                    balance: U256::from(1),
                    amount: U256::from(1),
                })
                .collect(),
        }
    }

    fn own() -> Vec<Address> {
        own_accounts(&contracts())
            .into_iter()
            .map(|(a, _)| a)
            .collect()
    }

    #[test]
    fn the_list_at_a_block_is_each_accounts_last_change_up_to_it() {
        let changes = [
            change(9, true, 10),
            change(8, true, 12),
            change(9, false, 20),
            change(9, true, 30),
        ];
        assert!(listed_at(&changes, 9).is_empty());
        assert_eq!(listed_at(&changes, 10), [a(9)].into());
        assert_eq!(listed_at(&changes, 19), [a(8), a(9)].into());
        assert_eq!(listed_at(&changes, 20), [a(8)].into());
        assert_eq!(listed_at(&changes, 30), [a(8), a(9)].into());
    }

    #[test]
    fn own_accounts_name_the_deployment_and_skip_what_it_lacks() {
        let roles: Vec<&str> = own_accounts(&contracts()).iter().map(|(_, r)| *r).collect();
        assert_eq!(
            roles,
            [
                "zero",
                "dead",
                "poolManager",
                "curve",
                "locker",
                "distributor",
                "feeLanes"
            ]
        );
        let at = excluded_at(&contracts(), &[change(9, true, 1), change(2, true, 1)], 5);
        assert_eq!(at.last(), Some(&(a(9), LISTED_ROLE)));
        assert_eq!(at.iter().filter(|(x, _)| *x == a(2)).count(), 1);
    }

    #[test]
    fn a_snapshot_must_exclude_exactly_the_chains_set() {
        let changes = [change(9, true, 10)];
        let mut want = own();
        want.push(a(9));
        check_excluded(&snapshot(10, &want, &[a(0x50)]), &contracts(), &changes).unwrap();
        // before the listing, the vault is a holder like any other
        check_excluded(&snapshot(9, &own(), &[a(9)]), &contracts(), &changes).unwrap();
        // a vault paid
        let e = check_excluded(&snapshot(10, &own(), &[a(9)]), &contracts(), &changes).unwrap_err();
        assert_eq!(e.missing, [a(9)]);
        assert!(e.to_string().contains("does not exclude"));
        // a holder called excluded to shrink the supply
        let mut more = want.clone();
        more.push(a(0x51));
        let e = check_excluded(&snapshot(10, &more, &[]), &contracts(), &changes).unwrap_err();
        assert_eq!(e.extra, [a(0x51)]);
        // excluded and paid at once
        let e = check_excluded(&snapshot(10, &want, &[a(9)]), &contracts(), &changes).unwrap_err();
        assert_eq!(e.missing, [a(9)]);
    }

    proptest! {
        /// Folding the changes in order gives the same list as replaying them one block at a time.
        #[test]
        fn listed_at_matches_a_replay(ops in proptest::collection::vec((0u8..4, any::<bool>(), 0u64..6), 0..20), b in 0u64..8) {
            let mut changes: Vec<ExclusionChange> = ops.iter().map(|&(n, on, blk)| change(n + 10, on, blk)).collect();
            changes.sort_by_key(|c| c.block);
            let mut state: BTreeSet<Address> = BTreeSet::new();
            for c in changes.iter().filter(|c| c.block <= b) {
                if c.excluded { state.insert(c.account); } else { state.remove(&c.account); }
            }
            prop_assert_eq!(listed_at(&changes, b), state);
        }
    }
}
