//! C18 exclusion list: balances that never receive holder payouts.
//!
//! The token's pool, bonding curve, launch locker and hook; escrows, vesting locks and vaults; the
//! distributor itself; and the burn addresses `0x0` and `0x000000000000000000000000000000000000dEaD`
//! (always excluded, whatever the configuration).

use alloy_primitives::{address, Address};
use std::collections::BTreeSet;

/// `0x000000000000000000000000000000000000dEaD`, the conventional burn address.
pub const DEAD_ADDRESS: Address = address!("000000000000000000000000000000000000dEaD");

/// The protocol addresses of one token whose balances are not holders'.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct HolderExclusions {
    /// The token's Uniswap pool (or pool manager holding its liquidity).
    pub pool: Option<Address>,
    /// The bonding curve.
    pub curve: Option<Address>,
    /// The launch locker.
    pub locker: Option<Address>,
    /// The pool hook.
    pub hook: Option<Address>,
    /// The holder distributor.
    pub distributor: Option<Address>,
    /// Escrow contracts.
    pub escrows: Vec<Address>,
    /// Vesting locks.
    pub vesting_locks: Vec<Address>,
    /// Vaults.
    pub vaults: Vec<Address>,
}

impl HolderExclusions {
    /// Every excluded address, including `0x0` and `0x…dEaD`.
    pub fn set(&self) -> BTreeSet<Address> {
        let mut s: BTreeSet<Address> = [Address::ZERO, DEAD_ADDRESS].into_iter().collect();
        s.extend(
            [
                self.pool,
                self.curve,
                self.locker,
                self.hook,
                self.distributor,
            ]
            .into_iter()
            .flatten(),
        );
        s.extend(
            self.escrows
                .iter()
                .chain(&self.vesting_locks)
                .chain(&self.vaults)
                .copied(),
        );
        s
    }

    /// Whether `account` is excluded.
    pub fn is_excluded(&self, account: &Address) -> bool {
        account.is_zero()
            || *account == DEAD_ADDRESS
            || [
                self.pool,
                self.curve,
                self.locker,
                self.hook,
                self.distributor,
            ]
            .contains(&Some(*account))
            || self.escrows.contains(account)
            || self.vesting_locks.contains(account)
            || self.vaults.contains(account)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn burn_addresses_always_excluded() {
        let e = HolderExclusions::default();
        assert!(e.is_excluded(&Address::ZERO));
        assert!(e.is_excluded(&DEAD_ADDRESS));
        assert!(!e.is_excluded(&Address::repeat_byte(1)));
        assert_eq!(e.set().len(), 2);
        let e = HolderExclusions {
            hook: Some(Address::repeat_byte(7)),
            vaults: vec![Address::repeat_byte(8)],
            ..e
        };
        assert!(e.is_excluded(&Address::repeat_byte(7)) && e.is_excluded(&Address::repeat_byte(8)));
        assert_eq!(e.set().len(), 4);
    }
}
