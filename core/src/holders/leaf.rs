//! C18 payout leaves, bound to (distributor, chainId, token, asset, epoch, account, amount).
//!
//! **Decided (encoding):** an OpenZeppelin `StandardMerkleTree` leaf (C5 convention) of types
//! [`LEAF_TYPES`] = `["address","uint256","address","address","uint64","address","uint256"]`:
//! `leaf = keccak256(bytes.concat(keccak256(abi.encode(distributor, chainId, token, asset, epoch,
//! account, amount))))`. `asset` is the pair asset paid out (address 0 for native ETH). The leaf
//! hashes match `@openzeppelin/merkle-tree` 1.0.8 (`StandardMerkleTree.of(values, LEAF_TYPES)`).

use super::allocation::HolderAllocation;
use crate::leaves::standard_leaf_hash;
use alloy_primitives::{Address, B256, U256};
use alloy_sol_types::SolValue;

/// The OpenZeppelin `StandardMerkleTree` leaf encoding of a payout.
pub const LEAF_TYPES: [&str; 7] = ["address", "uint256", "address", "address", "uint64", "address", "uint256"];

/// What every leaf of one epoch's payout binds besides account and amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PayoutContext {
    /// The distributor contract.
    pub distributor: Address,
    /// The chain id.
    pub chain_id: U256,
    /// The token whose holders are paid.
    pub token: Address,
    /// The pair asset paid (0x0 for native ETH).
    pub asset: Address,
    /// The epoch.
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
        (c.distributor, c.chain_id, c.token, c.asset, c.epoch, self.account, self.amount).abi_encode_params()
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
    allocation.amounts.iter().map(|h| PayoutLeaf { context, account: h.account, amount: h.amount }).collect()
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
            let leaf = PayoutLeaf { context, account, amount: U256::from(amount) };
            assert_eq!(leaf.abi_encode().len(), 7 * 32);
            assert_eq!(leaf.hash(), want);
        }
    }
}
