//! Holder payouts (§8, C18).
//!
//! Every epoch, for token `j` and pair asset `a`, balances are snapshotted at a past block,
//! excluding the protocol's own addresses ([`exclusions`]). With `T` the amount allocated from the
//! holder pot (`T ≤ available`):
//!
//! ```text
//! amount_i = ⌊T × b_i / Σb⌋
//! ```
//!
//! - [`exclusions`]: pool, curve, locker, hook, escrows, vesting locks, vaults, the distributor,
//!   `0x0` and `0x…dEaD`.
//! - [`allocation`]: the floor allocation; the remainder `T − Σ amount_i` is tracked as dust.
//! - [`leaf`]: leaves bind (distributor, chainId, token, asset, epoch, account, amount), encoded as
//!   OpenZeppelin `StandardMerkleTree` leaves.
//! - [`claim_to`]: the EIP-712 `ClaimTo` a holder signs to have its leaf paid to another address.
//! - [`listed`]: the deployment's own accounts and the distributor's exclusion list at a block (C18a).
//! - [`snapshot`]: a round's published snapshot (block, balances, exclusions), rebuilt to its root.
//! - [`window`]: claimable from 24 h after the root for 90 days; then the unclaimed remainder
//!   (including the dust) rolls into the next round.

pub mod allocation;
pub mod claim_to;
pub mod exclusions;
pub mod leaf;
pub mod listed;
pub mod snapshot;
pub mod window;

pub use allocation::{allocatable, allocate_down, HolderAllocation, HolderAmount, HolderBalance};
pub use claim_to::{
    claim_to_domain, claim_to_signing_hash, claim_to_typed_data, recover_claim_to_signer, ClaimTo,
};
pub use exclusions::{HolderExclusions, DEAD_ADDRESS};
pub use leaf::{
    find_payout, payout_leaves, payout_tree, FoundPayout, PayoutContext, PayoutLeaf, LEAF_TYPES,
};
pub use listed::{
    check_excluded, excluded_at, listed_at, own_accounts, ExclusionChange, ExclusionMismatch,
    LISTED_ROLE,
};
pub use snapshot::{
    BalanceMismatch, Excluded, Holder, PayoutSnapshot, SnapshotError, SNAPSHOT_FORMAT,
};
pub use window::{
    next_round_available, ClaimStatus, ClaimWindow, HolderRound, CLAIM_DELAY, CLAIM_PERIOD,
};

use crate::math::MathError;
use alloy_primitives::{Address, U256};

/// Why a holder payout computation was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HoldersError {
    /// The same account appears twice in the balances.
    #[error("balances: account {0} appears more than once")]
    DuplicateAccount(Address),
    /// `T` is more than the pot holds.
    #[error("total {total} exceeds the holder pot's available {available}")]
    AllocationExceedsAvailable {
        /// Requested `T`.
        total: U256,
        /// Available.
        available: U256,
    },
    /// A claim outside the window.
    #[error("claim at {now} is outside the claim window [{opens_at}, {closes_at})")]
    ClaimWindowClosed {
        /// When it opens.
        opens_at: u64,
        /// When it closes.
        closes_at: u64,
        /// The time asked about.
        now: u64,
    },
    /// A rollover before the window closed.
    #[error("the round is still claimable until {closes_at} (now {now}): nothing rolls over yet")]
    RoundStillOpen {
        /// When it closes.
        closes_at: u64,
        /// The time asked about.
        now: u64,
    },
    /// The account has no leaf in this round.
    #[error("account {0} has no payout in this round")]
    NoPayout(Address),
    /// The account already claimed.
    #[error("account {0} already claimed this round")]
    AlreadyClaimed(Address),
    /// Nothing was allocated: there is no payout tree.
    #[error("no holder receives a payout: there is no payout tree")]
    NoPayouts,
    /// The Merkle tree could not be built.
    #[error("payout tree: {0}")]
    Merkle(crate::merkle::MerkleError),
    /// A time computation overflowed.
    #[error("time overflow: {0}")]
    TimeOverflow(&'static str),
    /// Integer arithmetic failed on absurd amounts.
    #[error("arithmetic error in {context}: {source}")]
    Math {
        /// The step that failed.
        context: &'static str,
        /// The underlying error.
        source: MathError,
    },
}

pub(crate) fn math(context: &'static str) -> impl Fn(MathError) -> HoldersError {
    move |source| HoldersError::Math { context, source }
}
