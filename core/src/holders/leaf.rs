//! C18 payout leaves, bound to (distributor, chainId, token, asset, epoch, account, amount).
//!
//! **Decided (encoding):** an OpenZeppelin `StandardMerkleTree` leaf (C5 convention) of types
//! [`LEAF_TYPES`] = `["address","uint256","address","address","uint64","address","uint256"]`:
//! `leaf = keccak256(bytes.concat(keccak256(abi.encode(distributor, chainId, token, asset, epoch,
//! account, amount))))`. `asset` is the pair asset paid out (address 0 for native ETH). The leaf
//! hashes match `@openzeppelin/merkle-tree` 1.0.8 (`StandardMerkleTree.of(values, LEAF_TYPES)`).
//!
//! [`payout_tree`] builds the epoch's tree with [`crate::merkle::StandardMerkleTree`] (leaves
//! sorted by hash, the OZ default): root, proofs and dump identical to the JS library. An
//! allocation with no payout has no tree ([`HoldersError::NoPayouts`]).

use super::allocation::HolderAllocation;
use super::HoldersError;
use crate::leaves::standard_leaf_hash;
use crate::merkle::{Options, StandardMerkleTree};
use alloy_primitives::{Address, B256, U256};
use alloy_sol_types::SolValue;

/// The OpenZeppelin `StandardMerkleTree` leaf encoding of a payout.
pub const LEAF_TYPES: [&str; 7] = [
    "address", "uint256", "address", "address", "uint64", "address", "uint256",
];

/// What every leaf of one epoch's payout binds besides account and amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct PayoutContext {
    /// The distributor contract.
    pub distributor: Address,
    /// The chain id.
    #[serde(with = "crate::serde_dec::u256_id")]
    #[cfg_attr(feature = "js", tsify(type = "IntegerLike"))]
    pub chain_id: U256,
    /// The token whose holders are paid.
    pub token: Address,
    /// The pair asset paid (0x0 for native ETH).
    pub asset: Address,
    /// The epoch.
    #[serde(with = "crate::serde_dec::int")]
    pub epoch: u64,
}

/// One payout leaf.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PayoutLeaf {
    /// The binding context.
    pub context: PayoutContext,
    /// The holder.
    pub account: Address,
    /// Its payout.
    pub amount: U256,
}

impl PayoutLeaf {
    /// `abi.encode(distributor, chainId, token, asset, epoch, account, amount)`.
    pub fn abi_encode(&self) -> Vec<u8> {
        let c = &self.context;
        (
            c.distributor,
            c.chain_id,
            c.token,
            c.asset,
            c.epoch,
            self.account,
            self.amount,
        )
            .abi_encode_params()
    }

    /// The `StandardMerkleTree` leaf hash: `keccak256(keccak256(abi.encode(...)))`.
    pub fn hash(&self) -> B256 {
        standard_leaf_hash(&self.abi_encode())
    }

    /// The values as `@openzeppelin/merkle-tree` takes them (hex, decimal strings), in
    /// [`LEAF_TYPES`] order.
    pub fn oz_values(&self) -> Vec<String> {
        let c = &self.context;
        vec![
            c.distributor.to_checksum(None),
            c.chain_id.to_string(),
            c.token.to_checksum(None),
            c.asset.to_checksum(None),
            c.epoch.to_string(),
            self.account.to_checksum(None),
            self.amount.to_string(),
        ]
    }
}

/// The leaves of an allocation, in its (account) order.
pub fn payout_leaves(context: PayoutContext, allocation: &HolderAllocation) -> Vec<PayoutLeaf> {
    allocation
        .amounts
        .iter()
        .map(|h| PayoutLeaf {
            context,
            account: h.account,
            amount: h.amount,
        })
        .collect()
}

/// The epoch's payout tree: an OZ `StandardMerkleTree` of [`LEAF_TYPES`] over the allocation's
/// leaves (value `i` is the allocation's `i`-th payout; the tree sorts leaves by hash).
///
/// # Errors
/// [`HoldersError::NoPayouts`] when nothing was allocated; [`HoldersError::Merkle`] otherwise
/// (not expected: every value is well-typed).
pub fn payout_tree(
    context: PayoutContext,
    allocation: &HolderAllocation,
) -> Result<StandardMerkleTree, HoldersError> {
    if allocation.amounts.is_empty() {
        return Err(HoldersError::NoPayouts);
    }
    let values = payout_leaves(context, allocation)
        .iter()
        .map(|l| serde_json::Value::from(l.oz_values()))
        .collect();
    StandardMerkleTree::of(values, &LEAF_TYPES, Options::default()).map_err(HoldersError::Merkle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::{address, b256};

    #[test]
    fn matches_openzeppelin_merkle_tree() {
        // Reference: @openzeppelin/merkle-tree 1.0.8, StandardMerkleTree.of(values, LEAF_TYPES).leafHash(v).
        let context = PayoutContext {
            distributor: address!("1111111111111111111111111111111111111111"),
            chain_id: U256::from(8453u32),
            token: address!("2222222222222222222222222222222222222222"),
            asset: Address::ZERO,
            epoch: 42,
        };
        let cases = [
            (
                address!("aAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa"),
                600u32,
                b256!("d6ab330eb39b884cf565a2f15d0885555d1ccf3a8da0ca942d63a59823a1be04"),
            ),
            (
                address!("bBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"),
                300,
                b256!("598ceb856b1fac0cfe8b27803d67ba719463dc4b55c7d1da836c76c582d067bb"),
            ),
            (
                address!("CcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"),
                99,
                b256!("c431e8e6baa1b338663ca1bea5d38bd5f948e8ae25363058cebab2a40e3ebd0b"),
            ),
        ];
        for (account, amount, want) in cases {
            let leaf = PayoutLeaf {
                context,
                account,
                amount: U256::from(amount),
            };
            assert_eq!(leaf.abi_encode().len(), 7 * 32);
            assert_eq!(leaf.hash(), want);
        }
        // The same three leaves as a tree: OZ root 0x8496…43aa.
        let alloc = HolderAllocation {
            total: U256::from(999u32),
            eligible_supply: U256::from(999u32),
            allocated: U256::from(999u32),
            dust: U256::ZERO,
            excluded: 0,
            amounts: cases
                .iter()
                .map(|(account, amount, _)| crate::holders::HolderAmount {
                    account: *account,
                    balance: U256::from(*amount),
                    amount: U256::from(*amount),
                })
                .collect(),
        };
        let tree = payout_tree(context, &alloc).unwrap();
        assert_eq!(
            tree.root(),
            b256!("84963a9790c9b251b59948cdbea68a336a356dec6a31f898aeba60f50ea743aa")
        );
        for (i, leaf) in payout_leaves(context, &alloc).iter().enumerate() {
            let proof = tree.get_proof(i).unwrap();
            assert_eq!(
                crate::merkle::process_proof(leaf.hash(), &proof),
                tree.root()
            );
        }
        let empty = HolderAllocation {
            amounts: vec![],
            ..alloc
        };
        assert_eq!(
            payout_tree(context, &empty).unwrap_err(),
            HoldersError::NoPayouts
        );
    }
}
