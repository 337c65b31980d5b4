//! C18 (pinned) Floor allocation: `amount_i = ⌊T × b_i / Σb⌋` over the eligible balances.
//!
//! Eligible: a positive balance of an account not in [`HolderExclusions`]. `Σb` is over the
//! eligible balances only. Rounding is down (512-bit mulDiv), so `Σ amount_i ≤ T`; the remainder
//! `dust = T − Σ amount_i` (< number of holders) is never in a leaf and rolls over with the
//! unclaimed amounts. **Decided:** accounts whose amount rounds to 0 get no leaf; with no eligible
//! balance at all nothing is allocated and all of `T` is dust. The result is sorted by account, so
//! it does not depend on the input order; a duplicated account is an error.

use super::exclusions::HolderExclusions;
use super::{math, HoldersError};
use crate::math::{checked_add, checked_sub, mul_div_down};
use alloy_primitives::{Address, U256};
use std::collections::BTreeMap;

/// One balance at the snapshot block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct HolderBalance {
    /// The holder.
    pub account: Address,
    /// Its balance `b_i` at the snapshot block.
    #[serde(with = "crate::serde_dec::u256")]
    pub balance: U256,
}

/// One holder's payout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct HolderAmount {
    /// The holder.
    #[serde(with = "crate::serde_dec::checksum")]
    pub account: Address,
    /// `b_i`.
    #[serde(with = "crate::serde_dec::u256")]
    pub balance: U256,
    /// `⌊T × b_i / Σb⌋` (> 0).
    #[serde(with = "crate::serde_dec::u256")]
    pub amount: U256,
}

/// The allocation of one epoch's holder payout.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct HolderAllocation {
    /// `T`.
    #[serde(with = "crate::serde_dec::u256")]
    pub total: U256,
    /// `Σb` over eligible balances.
    #[serde(with = "crate::serde_dec::u256")]
    pub eligible_supply: U256,
    /// `Σ amount_i`.
    #[serde(with = "crate::serde_dec::u256")]
    pub allocated: U256,
    /// `T − Σ amount_i`.
    #[serde(with = "crate::serde_dec::u256")]
    pub dust: U256,
    /// How many balances were excluded (protocol addresses).
    #[serde(with = "crate::serde_dec::int")]
    pub excluded: usize,
    /// The payouts, sorted by account, amounts > 0 (not serialised here: a published
    /// allocation lists them with their leaves and proofs).
    #[serde(skip)]
    pub amounts: Vec<HolderAmount>,
}

/// Checks `T ≤ available` (the holder pot).
///
/// # Errors
/// [`HoldersError::AllocationExceedsAvailable`].
pub fn allocatable(total: U256, available: U256) -> Result<(), HoldersError> {
    if total > available {
        return Err(HoldersError::AllocationExceedsAvailable { total, available });
    }
    Ok(())
}

/// C18: allocates `total` over `balances` minus `exclusions`, rounding each amount down.
///
/// # Errors
/// [`HoldersError::DuplicateAccount`]; overflow of `Σb` on absurd balances.
pub fn allocate_down(
    total: U256,
    balances: &[HolderBalance],
    exclusions: &HolderExclusions,
) -> Result<HolderAllocation, HoldersError> {
    let excluded_set = exclusions.set();
    let mut eligible: BTreeMap<Address, U256> = BTreeMap::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut excluded = 0usize;
    let mut supply = U256::ZERO;
    for b in balances {
        if !seen.insert(b.account) {
            return Err(HoldersError::DuplicateAccount(b.account));
        }
        if excluded_set.contains(&b.account) {
            excluded += 1;
            continue;
        }
        if b.balance.is_zero() {
            continue;
        }
        supply = checked_add(supply, b.balance).map_err(math("Σb"))?;
        eligible.insert(b.account, b.balance);
    }
    let mut amounts = Vec::with_capacity(eligible.len());
    let mut allocated = U256::ZERO;
    if !supply.is_zero() {
        for (account, balance) in eligible {
            let amount = mul_div_down(total, balance, supply).map_err(math("T × b / Σb"))?;
            if amount.is_zero() {
                continue;
            }
            allocated = checked_add(allocated, amount).map_err(math("Σ amount"))?;
            amounts.push(HolderAmount {
                account,
                balance,
                amount,
            });
        }
    }
    let dust = checked_sub(total, allocated).map_err(math("dust"))?;
    Ok(HolderAllocation {
        total,
        eligible_supply: supply,
        allocated,
        dust,
        excluded,
        amounts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holders::DEAD_ADDRESS;
    use proptest::prelude::*;

    fn bal(i: u8, b: u64) -> HolderBalance {
        HolderBalance {
            account: Address::repeat_byte(i),
            balance: U256::from(b),
        }
    }

    #[test]
    fn floor_allocation_with_dust() {
        let pool = Address::repeat_byte(0xee);
        let ex = HolderExclusions {
            pool: Some(pool),
            ..Default::default()
        };
        let balances = [
            bal(3, 1),
            bal(1, 6),
            bal(2, 3),
            HolderBalance {
                account: pool,
                balance: U256::from(1_000_000u64),
            },
            HolderBalance {
                account: DEAD_ADDRESS,
                balance: U256::from(5u8),
            },
            bal(4, 0),
        ];
        let a = allocate_down(U256::from(1_000u32), &balances, &ex).unwrap();
        assert_eq!(a.eligible_supply, U256::from(10u8));
        assert_eq!(a.excluded, 2);
        let got: Vec<(u8, u64)> = a
            .amounts
            .iter()
            .map(|h| (h.account.0[0], h.amount.to::<u64>()))
            .collect();
        assert_eq!(got, vec![(1, 600), (2, 300), (3, 100)]);
        assert_eq!(a.dust, U256::ZERO);
        // T = 1,000 over 3 equal holders: 333 each, dust 1.
        let a = allocate_down(
            U256::from(1_000u32),
            &[bal(1, 5), bal(2, 5), bal(3, 5)],
            &ex,
        )
        .unwrap();
        assert_eq!(a.allocated, U256::from(999u32));
        assert_eq!(a.dust, U256::from(1u8));
    }

    #[test]
    fn edge_cases() {
        let ex = HolderExclusions::default();
        let a = allocate_down(U256::from(7u8), &[], &ex).unwrap();
        assert_eq!((a.allocated, a.dust), (U256::ZERO, U256::from(7u8)));
        // Tiny holder rounds to 0: no leaf.
        let a = allocate_down(U256::from(10u8), &[bal(1, 1_000), bal(2, 1)], &ex).unwrap();
        assert_eq!(a.amounts.len(), 1);
        assert_eq!(a.amounts[0].amount, U256::from(9u8)); // ⌊10 × 1000 / 1001⌋
        assert_eq!(a.dust, U256::from(1u8));
        assert_eq!(
            allocate_down(U256::from(1u8), &[bal(1, 1), bal(1, 2)], &ex),
            Err(HoldersError::DuplicateAccount(Address::repeat_byte(1)))
        );
        assert!(allocatable(U256::from(2u8), U256::from(1u8)).is_err());
        assert!(allocatable(U256::from(1u8), U256::from(1u8)).is_ok());
    }

    proptest! {
        /// Σ amount ≤ T, dust < number of holders, order-independent.
        #[test]
        fn floor_properties(total in any::<u128>(), bs in proptest::collection::vec(any::<u64>(), 0..40)) {
            let balances: Vec<HolderBalance> = bs.iter().enumerate()
                .map(|(i, b)| HolderBalance { account: Address::with_last_byte(i as u8 + 1), balance: U256::from(*b) })
                .collect();
            let ex = HolderExclusions::default();
            let a = allocate_down(U256::from(total), &balances, &ex).unwrap();
            prop_assert_eq!(a.allocated + a.dust, U256::from(total));
            if !a.eligible_supply.is_zero() {
                prop_assert!(a.dust < U256::from(balances.len().max(1)));
            }
            let mut rev = balances.clone();
            rev.reverse();
            prop_assert_eq!(allocate_down(U256::from(total), &rev, &ex).unwrap(), a);
        }
    }
}
