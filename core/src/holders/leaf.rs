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

/// A holder's payout found in a published payout tree: its amount and its proof.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundPayout {
    /// The payout.
    pub amount: U256,
    /// The leaf, rebuilt from the round's own context, the account and the amount.
    pub leaf: B256,
    /// The proof from the leaf to the tree's root.
    pub proof: Vec<B256>,
}

/// Finds `account`'s payout in a published tree (C18) for the round `context`: the tree must use
/// [`LEAF_TYPES`]; a value counts only if its leaf, rebuilt from `context` (never from the
/// value's own context fields), the account and the amount, is a leaf of the tree. The caller
/// compares the tree's root with the round's on-chain root. `Ok(None)`: no payout for `account`.
///
/// # Errors
/// [`HoldersError::Merkle`] when the tree has another leaf encoding.
pub fn find_payout(
    tree: &StandardMerkleTree,
    context: PayoutContext,
    account: Address,
) -> Result<Option<FoundPayout>, HoldersError> {
    if tree.leaf_encoding() != LEAF_TYPES {
        return Err(HoldersError::Merkle(
            crate::merkle::MerkleError::InvalidDump(format!(
                "a payout tree has leaf encoding {:?}, not {LEAF_TYPES:?}",
                tree.leaf_encoding()
            )),
        ));
    }
    for (i, v) in tree.entries() {
        let fields = v.as_array();
        let field = |k: usize| fields.and_then(|f| f.get(k)).and_then(|x| x.as_str());
        let Some(who) = field(5).and_then(|s| s.parse::<Address>().ok()) else {
            continue;
        };
        if who != account {
            continue;
        }
        let Some(amount) = field(6).and_then(|s| crate::serde_dec::u256::parse(s).ok()) else {
            continue;
        };
        let leaf = PayoutLeaf {
            context,
            account,
            amount,
        }
        .hash();
        if tree.leaf_hash(v).ok() != Some(leaf) {
            continue; // a value of another round (distributor, chain, token, asset or epoch)
        }
        let proof = tree.get_proof(i).map_err(HoldersError::Merkle)?;
        return Ok(Some(FoundPayout {
            amount,
            leaf,
            proof,
        }));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::{address, b256};

    #[test]
    fn a_payout_is_found_only_for_its_own_round() {
        let context = PayoutContext {
            distributor: address!("1111111111111111111111111111111111111111"),
            chain_id: U256::from(8453u32),
            token: address!("2222222222222222222222222222222222222222"),
            asset: Address::ZERO,
            epoch: 42,
        };
        let a = address!("aAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa");
        let alloc = HolderAllocation {
            total: U256::from(900u32),
            eligible_supply: U256::from(900u32),
            allocated: U256::from(900u32),
            dust: U256::ZERO,
            excluded: 0,
            amounts: vec![
                crate::holders::HolderAmount {
                    account: a,
                    balance: U256::from(600u32),
                    amount: U256::from(600u32),
                },
                crate::holders::HolderAmount {
                    account: Address::repeat_byte(0xbb),
                    balance: U256::from(300u32),
                    amount: U256::from(300u32),
                },
            ],
        };
        let tree = payout_tree(context, &alloc).unwrap();
        // Through the OZ dump, as a client reads a publication.
        let loaded =
            StandardMerkleTree::load_json(serde_json::to_value(tree.dump()).unwrap()).unwrap();
        let found = find_payout(&loaded, context, a).unwrap().unwrap();
        assert_eq!(found.amount, U256::from(600u32));
        assert_eq!(
            crate::merkle::process_proof(found.leaf, &found.proof),
            tree.root()
        );
        assert_eq!(
            find_payout(&loaded, context, Address::repeat_byte(0xcc)).unwrap(),
            None
        );
        // The same tree read for another epoch, token or chain holds nothing for anyone.
        for other in [
            PayoutContext {
                epoch: 43,
                ..context
            },
            PayoutContext {
                token: Address::repeat_byte(9),
                ..context
            },
            PayoutContext {
                chain_id: U256::from(1u8),
                ..context
            },
        ] {
            assert_eq!(find_payout(&loaded, other, a).unwrap(), None);
        }
        // A tree of another encoding is refused.
        let other = StandardMerkleTree::of(
            vec![serde_json::json!([a.to_checksum(None), "1"])],
            &["address", "uint256"],
            Options::default(),
        )
        .unwrap();
        assert!(find_payout(&other, context, a).is_err());
    }

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
