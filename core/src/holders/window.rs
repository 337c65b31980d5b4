//! C18 claim window and rollover.
//!
//! A payout root is claimable from [`CLAIM_DELAY`] (24 h) after it is posted, for
//! [`CLAIM_PERIOD`] (90 days). **Decided (boundaries):** open on `[opens_at, closes_at)` with
//! `opens_at = root_at + 24 h` and `closes_at = opens_at + 90 days`. Each leaf pays once. After the
//! window the remainder `T − claimed` (unclaimed leaves plus the allocation dust) rolls into the
//! next round: `available_next = rolled + new inflow`.

use super::allocation::HolderAllocation;
use super::{math, HoldersError};
use crate::math::{checked_add, checked_sub};
use alloy_primitives::{Address, U256};
use std::collections::{BTreeMap, BTreeSet};

/// The review delay before a root is claimable: 24 hours (seconds).
pub const CLAIM_DELAY: u64 = 24 * 60 * 60;
/// How long a root stays claimable: 90 days (seconds).
pub const CLAIM_PERIOD: u64 = 90 * 24 * 60 * 60;

/// Where a time falls in a claim window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimStatus {
    /// Before `opens_at` (the 24 h review).
    NotYetOpen,
    /// Claimable.
    Open,
    /// After `closes_at`: the remainder rolls over.
    Expired,
}

/// The claim window of one payout root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClaimWindow {
    /// `root_at + 24 h`.
    pub opens_at: u64,
    /// `opens_at + 90 days` (exclusive).
    pub closes_at: u64,
}

impl ClaimWindow {
    /// The window of a root posted at `root_at`.
    ///
    /// # Errors
    /// [`HoldersError::TimeOverflow`] for absurd times.
    pub fn after_root(root_at: u64) -> Result<Self, HoldersError> {
        let opens_at = root_at
            .checked_add(CLAIM_DELAY)
            .ok_or(HoldersError::TimeOverflow("claim window opens_at"))?;
        let closes_at = opens_at
            .checked_add(CLAIM_PERIOD)
            .ok_or(HoldersError::TimeOverflow("claim window closes_at"))?;
        Ok(ClaimWindow {
            opens_at,
            closes_at,
        })
    }

    /// The status at `now`.
    pub fn status(&self, now: u64) -> ClaimStatus {
        if now < self.opens_at {
            ClaimStatus::NotYetOpen
        } else if now < self.closes_at {
            ClaimStatus::Open
        } else {
            ClaimStatus::Expired
        }
    }
}

/// One epoch's payout round: its window, leaves and claims.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HolderRound {
    /// The claim window.
    pub window: ClaimWindow,
    /// `T`.
    pub total: U256,
    /// Σ claimed so far.
    pub claimed: U256,
    amounts: BTreeMap<Address, U256>,
    claimed_by: BTreeSet<Address>,
}

impl HolderRound {
    /// A round for `allocation` whose root was posted at `root_at`.
    ///
    /// # Errors
    /// Absurd times.
    pub fn new(allocation: &HolderAllocation, root_at: u64) -> Result<Self, HoldersError> {
        Ok(HolderRound {
            window: ClaimWindow::after_root(root_at)?,
            total: allocation.total,
            claimed: U256::ZERO,
            amounts: allocation
                .amounts
                .iter()
                .map(|h| (h.account, h.amount))
                .collect(),
            claimed_by: BTreeSet::new(),
        })
    }

    /// `account` claims its leaf at `now`; returns the amount.
    ///
    /// # Errors
    /// Outside the window, no leaf, or already claimed.
    pub fn claim(&mut self, now: u64, account: Address) -> Result<U256, HoldersError> {
        if self.window.status(now) != ClaimStatus::Open {
            return Err(HoldersError::ClaimWindowClosed {
                opens_at: self.window.opens_at,
                closes_at: self.window.closes_at,
                now,
            });
        }
        let amount = *self
            .amounts
            .get(&account)
            .ok_or(HoldersError::NoPayout(account))?;
        if !self.claimed_by.insert(account) {
            return Err(HoldersError::AlreadyClaimed(account));
        }
        self.claimed = checked_add(self.claimed, amount).map_err(math("claimed"))?;
        Ok(amount)
    }

    /// What rolls into the next round once the window closed: `T − claimed`.
    ///
    /// # Errors
    /// [`HoldersError::RoundStillOpen`] before `closes_at`.
    pub fn rollover(&self, now: u64) -> Result<U256, HoldersError> {
        if self.window.status(now) != ClaimStatus::Expired {
            return Err(HoldersError::RoundStillOpen {
                closes_at: self.window.closes_at,
                now,
            });
        }
        checked_sub(self.total, self.claimed).map_err(math("rollover"))
    }
}

/// The holder pot of the next round: `rolled + inflow`.
///
/// # Errors
/// Overflow on absurd amounts.
pub fn next_round_available(rolled: U256, inflow: U256) -> Result<U256, HoldersError> {
    checked_add(rolled, inflow).map_err(math("next round available"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holders::{allocate_down, HolderBalance, HolderExclusions};

    const DAY: u64 = 86_400;

    #[test]
    fn window_boundaries() {
        let w = ClaimWindow::after_root(1_000).unwrap();
        assert_eq!(w.opens_at, 1_000 + DAY);
        assert_eq!(w.closes_at, 1_000 + DAY + 90 * DAY);
        assert_eq!(w.status(1_000 + DAY - 1), ClaimStatus::NotYetOpen);
        assert_eq!(w.status(1_000 + DAY), ClaimStatus::Open);
        assert_eq!(w.status(w.closes_at - 1), ClaimStatus::Open);
        assert_eq!(w.status(w.closes_at), ClaimStatus::Expired);
        assert!(ClaimWindow::after_root(u64::MAX).is_err());
    }

    #[test]
    fn claims_and_rollover() {
        let a = Address::repeat_byte(1);
        let b = Address::repeat_byte(2);
        let balances = [
            HolderBalance {
                account: a,
                balance: U256::from(2u8),
            },
            HolderBalance {
                account: b,
                balance: U256::from(1u8),
            },
        ];
        let alloc = allocate_down(
            U256::from(1_000u32),
            &balances,
            &HolderExclusions::default(),
        )
        .unwrap();
        assert_eq!(alloc.dust, U256::from(1u8)); // 666 + 333
        let mut round = HolderRound::new(&alloc, 0).unwrap();
        assert!(matches!(
            round.claim(DAY - 1, a),
            Err(HoldersError::ClaimWindowClosed { .. })
        ));
        assert_eq!(round.claim(DAY, a).unwrap(), U256::from(666u32));
        assert_eq!(
            round.claim(DAY + 1, a),
            Err(HoldersError::AlreadyClaimed(a))
        );
        assert_eq!(
            round.claim(DAY + 1, Address::repeat_byte(9)),
            Err(HoldersError::NoPayout(Address::repeat_byte(9)))
        );
        assert!(matches!(
            round.rollover(DAY + 90 * DAY - 1),
            Err(HoldersError::RoundStillOpen { .. })
        ));
        assert!(round.claim(DAY + 90 * DAY, b).is_err());
        // b's 333 and the dust roll over.
        let rolled = round.rollover(DAY + 90 * DAY).unwrap();
        assert_eq!(rolled, U256::from(334u32));
        assert_eq!(
            next_round_available(rolled, U256::from(66u8)).unwrap(),
            U256::from(400u32)
        );
    }
}
