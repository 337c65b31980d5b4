//! A payout round's snapshot (C18): `payouts/<root>.snapshot.json`, format [`SNAPSHOT_FORMAT`], written by
//! `eden payouts snapshot`. It records the snapshot block `b` and its hash, the round's total, every eligible
//! balance at `b` with its amount, and every excluded address with its balance at `b`; [`PayoutSnapshot::tree`]
//! rebuilds the round's tree from it, which must give its root (and the chain's), so the numbers a holder
//! reads beside its claim are the ones the posted root commits to.

use super::{
    allocate_down, payout_tree, HolderBalance, HolderExclusions, HoldersError, PayoutContext,
};
use crate::merkle::StandardMerkleTree;
use crate::serde_dec;
use alloy_primitives::{Address, B256, U256};
use serde::{Deserialize, Serialize};

/// The snapshot file's format tag.
pub const SNAPSHOT_FORMAT: &str = "eden-payout-snapshot-v1";

/// An address that receives no payout, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Excluded {
    /// The address.
    pub account: Address,
    /// What it is (`poolManager`, `curve`, `locker`, `hook`, `distributor`, `feeLanes`, `router`, `zero`,
    /// `dead`, `configured`, …).
    pub role: String,
    /// Its balance at the snapshot block.
    #[serde(with = "serde_dec::u256")]
    pub balance: U256,
}

/// One eligible holder's balance and payout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Holder {
    /// The holder.
    pub account: Address,
    /// Balance at the snapshot block.
    #[serde(with = "serde_dec::u256")]
    pub balance: U256,
    /// Its payout, `⌊T·b/Σb⌋`.
    #[serde(with = "serde_dec::u256")]
    pub amount: U256,
}

/// A payout round's snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PayoutSnapshot {
    /// [`SNAPSHOT_FORMAT`].
    pub format: String,
    /// Chain id.
    #[serde(with = "serde_dec::int")]
    pub chain_id: u64,
    /// The `HolderDistributor`.
    pub distributor: Address,
    /// The token whose holders are paid.
    pub token: Address,
    /// The asset paid (`0x0` for ETH).
    pub asset: Address,
    /// The round's epoch.
    #[serde(with = "serde_dec::int")]
    pub epoch: u64,
    /// The snapshot block `b`.
    #[serde(with = "serde_dec::int")]
    pub block: u64,
    /// Its hash.
    pub block_hash: B256,
    /// The first block whose logs were read.
    #[serde(with = "serde_dec::int")]
    pub from_block: u64,
    /// `T`, the round's total.
    #[serde(with = "serde_dec::u256")]
    pub total: U256,
    /// `Σb` over eligible holders.
    #[serde(with = "serde_dec::u256")]
    pub eligible_supply: U256,
    /// `Σ amount`.
    #[serde(with = "serde_dec::u256")]
    pub allocated: U256,
    /// `T − Σ amount`, left in the pot.
    #[serde(with = "serde_dec::u256")]
    pub dust: U256,
    /// The round's root.
    pub root: B256,
    /// Every excluded address (with its balance, zero when it held none).
    pub excluded: Vec<Excluded>,
    /// Every eligible holder with a payout, by address.
    pub holders: Vec<Holder>,
}

/// How a snapshot's balances differ from the token's own at its block (C18a).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BalanceMismatch {
    /// One account's balance.
    #[error("the snapshot gives {account} a balance of {stated} at block {block}, but the token says {chain}")]
    Account {
        /// The account.
        account: Address,
        /// The snapshot's balance.
        stated: U256,
        /// `balanceOf` at the block.
        chain: U256,
        /// The snapshot block.
        block: u64,
    },
    /// The balances do not add up to the supply: someone is missing.
    #[error("the snapshot's balances add up to {stated} at block {block}, but the token's supply is {supply}: a holder is missing")]
    Supply {
        /// Σ of the stated balances.
        stated: U256,
        /// `totalSupply` at the block.
        supply: U256,
        /// The snapshot block.
        block: u64,
    },
}

/// Why a snapshot is not usable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SnapshotError {
    /// It does not parse, or is of another format.
    #[error("the snapshot is not valid: {0}")]
    Invalid(String),
    /// Its balances cannot be allocated (a duplicated account, an overflow).
    #[error("the snapshot's balances: {0}")]
    Allocation(#[from] HoldersError),
    /// Its balances allocate to other amounts or another root than it states.
    #[error("the snapshot's balances allocate to root {rebuilt}, not its root {stated}")]
    RootDiffers {
        /// Rebuilt.
        rebuilt: B256,
        /// Stated.
        stated: B256,
    },
}

impl PayoutSnapshot {
    /// Parses a snapshot file.
    ///
    /// # Errors
    /// [`SnapshotError::Invalid`] naming what is wrong.
    pub fn from_json(text: &str) -> Result<PayoutSnapshot, SnapshotError> {
        let s: PayoutSnapshot =
            serde_json::from_str(text).map_err(|e| SnapshotError::Invalid(e.to_string()))?;
        if s.format != SNAPSHOT_FORMAT {
            return Err(SnapshotError::Invalid(format!(
                "format '{}' is not {SNAPSHOT_FORMAT}",
                s.format
            )));
        }
        Ok(s)
    }

    /// The round's context (what every leaf binds, C18).
    pub fn context(&self) -> PayoutContext {
        PayoutContext {
            distributor: self.distributor,
            chain_id: U256::from(self.chain_id),
            token: self.token,
            asset: self.asset,
            epoch: self.epoch,
        }
    }

    /// The round's tree rebuilt from the snapshot's balances and exclusions with `eden-core`'s allocation;
    /// it must list the snapshot's amounts and give its root.
    ///
    /// # Errors
    /// [`SnapshotError`] when it does not.
    pub fn tree(&self) -> Result<StandardMerkleTree, SnapshotError> {
        let mut balances: Vec<HolderBalance> = self
            .holders
            .iter()
            .map(|h| HolderBalance {
                account: h.account,
                balance: h.balance,
            })
            .collect();
        balances.extend(
            self.excluded
                .iter()
                .filter(|e| !e.balance.is_zero())
                .map(|e| HolderBalance {
                    account: e.account,
                    balance: e.balance,
                }),
        );
        let exclusions = HolderExclusions {
            vaults: self.excluded.iter().map(|e| e.account).collect(),
            ..Default::default()
        };
        let alloc = allocate_down(self.total, &balances, &exclusions)?;
        let tree = payout_tree(self.context(), &alloc)?;
        let same_amounts = alloc.amounts.len() == self.holders.len()
            && alloc
                .amounts
                .iter()
                .zip(&self.holders)
                .all(|(a, h)| a.account == h.account && a.amount == h.amount);
        if tree.root() != self.root || !same_amounts {
            return Err(SnapshotError::RootDiffers {
                rebuilt: tree.root(),
                stated: self.root,
            });
        }
        Ok(tree)
    }

    /// Every balance the snapshot states, holders first then excluded accounts that held some (C18a): what
    /// [`PayoutSnapshot::check_balances`] compares with the token's own `balanceOf` at the snapshot block.
    pub fn stated_balances(&self) -> Vec<(Address, U256)> {
        self.holders
            .iter()
            .map(|h| (h.account, h.balance))
            .chain(
                self.excluded
                    .iter()
                    .filter(|e| !e.balance.is_zero())
                    .map(|e| (e.account, e.balance)),
            )
            .collect()
    }

    /// C18a: the snapshot re-checked against the token at its block. `on_chain[i]` is `balanceOf` of
    /// [`PayoutSnapshot::stated_balances`]`[i]`'s account and `supply` is `totalSupply`, both at `block`: every
    /// stated balance must be the token's, and together they must be its whole supply, so no holder was left
    /// out (the token's burns to `0x0` leave the supply, and `0x0` holds nothing here).
    ///
    /// # Errors
    /// [`BalanceMismatch`] naming the first account that differs, or the missing supply.
    pub fn check_balances(&self, on_chain: &[U256], supply: U256) -> Result<(), BalanceMismatch> {
        let stated = self.stated_balances();
        let mut sum = U256::ZERO;
        for (i, (account, balance)) in stated.iter().enumerate() {
            let chain = on_chain.get(i).copied().unwrap_or_default();
            if chain != *balance {
                return Err(BalanceMismatch::Account {
                    account: *account,
                    stated: *balance,
                    chain,
                    block: self.block,
                });
            }
            sum = sum.saturating_add(*balance);
        }
        if sum != supply {
            return Err(BalanceMismatch::Supply {
                stated: sum,
                supply,
                block: self.block,
            });
        }
        Ok(())
    }

    /// `account`'s balance at the snapshot block: `Some((balance, excluded role))`, `None` when it held none.
    pub fn balance_of(&self, account: Address) -> Option<(U256, Option<&str>)> {
        if let Some(h) = self.holders.iter().find(|h| h.account == account) {
            return Some((h.balance, None));
        }
        self.excluded
            .iter()
            .find(|e| e.account == account && !e.balance.is_zero())
            .map(|e| (e.balance, Some(e.role.as_str())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_checks_against_every_balance_and_the_supply() {
        let s = snap();
        let stated = s.stated_balances();
        let chain: Vec<U256> = stated.iter().map(|(_, b)| *b).collect();
        let supply = chain.iter().fold(U256::ZERO, |a, b| a + b);
        s.check_balances(&chain, supply).unwrap();
        let mut off = chain.clone();
        off[0] += U256::from(1);
        assert!(matches!(
            s.check_balances(&off, supply),
            Err(BalanceMismatch::Account { .. })
        ));
        let e = s
            .check_balances(&chain, supply + U256::from(5))
            .unwrap_err();
        assert!(e.to_string().contains("a holder is missing"), "{e}");
    }

    fn snap() -> PayoutSnapshot {
        let (a, b) = (Address::repeat_byte(0xa1), Address::repeat_byte(0xb2));
        let mut s = PayoutSnapshot {
            format: SNAPSHOT_FORMAT.into(),
            chain_id: 31_337,
            distributor: Address::repeat_byte(0xd1),
            token: Address::repeat_byte(0x70),
            asset: Address::ZERO,
            epoch: 7,
            block: 42,
            block_hash: B256::repeat_byte(4),
            from_block: 1,
            total: U256::from(1_000u32),
            eligible_supply: U256::from(3u8),
            allocated: U256::from(999u32),
            dust: U256::from(1u8),
            root: B256::ZERO,
            excluded: vec![Excluded {
                account: super::super::DEAD_ADDRESS,
                role: "dead".into(),
                balance: U256::from(5u8),
            }],
            holders: vec![
                Holder {
                    account: a,
                    balance: U256::from(1u8),
                    amount: U256::from(333u32),
                },
                Holder {
                    account: b,
                    balance: U256::from(2u8),
                    amount: U256::from(666u32),
                },
            ],
        };
        s.root = match s.tree() {
            Err(SnapshotError::RootDiffers { rebuilt, .. }) => rebuilt,
            other => panic!("{other:?}"),
        };
        s
    }

    #[test]
    fn a_snapshot_rebuilds_its_root_and_reads_back() {
        let s = snap();
        assert_eq!(s.tree().unwrap().root(), s.root);
        let text = serde_json::to_string(&s).unwrap();
        assert!(text.contains("\"total\":\"1000\""), "{text}");
        assert_eq!(PayoutSnapshot::from_json(&text).unwrap(), s);
        assert_eq!(
            s.balance_of(Address::repeat_byte(0xb2)),
            Some((U256::from(2u8), None))
        );
        assert_eq!(
            s.balance_of(super::super::DEAD_ADDRESS),
            Some((U256::from(5u8), Some("dead")))
        );
        assert_eq!(s.balance_of(Address::repeat_byte(0xcc)), None);
    }

    #[test]
    fn a_changed_balance_amount_or_format_is_refused() {
        let mut s = snap();
        s.holders[0].balance += U256::from(1u8);
        assert!(matches!(s.tree(), Err(SnapshotError::RootDiffers { .. })));
        let mut s = snap();
        s.holders[1].amount += U256::from(1u8);
        assert!(matches!(s.tree(), Err(SnapshotError::RootDiffers { .. })));
        // An excluded vault listed as a holder instead changes the allocation, so the root.
        let mut s = snap();
        let vault = Address::repeat_byte(0x7a);
        s.holders.push(Holder {
            account: vault,
            balance: U256::from(5u8),
            amount: U256::from(1u8),
        });
        assert!(matches!(s.tree(), Err(SnapshotError::RootDiffers { .. })));
        let mut s = snap();
        s.format = "other".into();
        assert!(PayoutSnapshot::from_json(&serde_json::to_string(&s).unwrap()).is_err());
    }
}
