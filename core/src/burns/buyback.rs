//! C26 (decided) The ROOT buyback (§5.5, §9.3): the arithmetic of one `RootBuyback.run`, bit for
//! bit with `contracts/src/libraries/BuybackMath.sol`.
//!
//! The seed: everything scorers are not paid and the buyback lane "is bought as ROOT and burned";
//! "half of the ROOT bought by the buyback is treated the same way in ROOT's own pool (sell half
//! for ETH, add both legs, locked in the genesis liquidity contract); the other half is burned".
//!
//! **Decided:** the buyback never sells back ROOT it has just bought (that would pay the pool fee
//! twice for nothing). Of the ETH `E` a run spends, it keeps [`split_eth`]`(E).keep = ⌊E/4⌋` as the
//! liquidity's ETH leg (what selling half of the liquidity half would have returned) and buys ROOT
//! with the rest; of the ROOT `R` bought, [`burn_share`]`(R) = ⌊2R/3⌋` is burned (half of what all
//! of `E` would have bought) and the rest is the liquidity's ROOT leg. In value: half burned, a
//! quarter each leg, as the seed says.
//!
//! **The minimum out** is taken from `RootPriceOracle` (C16, the lower of the two TWAPs: the
//! protocol-favourable price, which asks for *more* ROOT): the ROOT the bought part is worth at that
//! price, less at most `slippage_bps`, rounded up ([`min_root_out_up`]), from the ETH the run
//! actually spends. **Decided after the second review:** a pair asset other than ETH is valued
//! with its own USD feed ([`asset_usd_wad_up`]; before, every such asset counted as one dollar, so
//! a stock pair asset got a wrong minimum), and its hop to ETH must return at least that value at
//! ETH/USD less the slippage ([`min_root_out_up`] with ETH/USD as the price): each leg of a run is
//! bounded by its own oracle.

use crate::math::{mul_div_up, MathError, WAD};
use alloy_primitives::U256;

/// Basis points in one.
pub const BPS: u64 = 10_000;
/// The largest slippage a deployment may configure (10 %).
pub const MAX_SLIPPAGE_BPS: u64 = 1_000;
/// The largest stablecoin decimals accepted (its amount is scaled up to a WAD exactly).
pub const MAX_ASSET_DECIMALS: u8 = 18;

/// What a run does with the ETH it spends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EthSplit {
    /// ETH swapped for ROOT.
    pub buy: U256,
    /// ETH kept as the liquidity's ETH leg, `⌊E/4⌋`.
    pub keep: U256,
}

/// `keep = ⌊E/4⌋`, `buy = E − keep` (the buy takes the remainder).
#[must_use]
pub fn split_eth(eth: U256) -> EthSplit {
    let keep = eth >> 2;
    EthSplit {
        buy: eth - keep,
        keep,
    }
}

/// The ROOT to burn of `root_bought`: `⌊2R/3⌋` (the liquidity leg takes the remainder).
#[must_use]
pub fn burn_share(root_bought: U256) -> U256 {
    // 2R/3 = R − ⌈R/3⌉ with no overflow for any R.
    let third_up = root_bought / U256::from(3)
        + U256::from(u8::from(!(root_bought % U256::from(3)).is_zero()));
    root_bought - third_up
}

/// An asset amount in USD WAD at `price_wad` USD per whole unit (its own feed, C16's checks):
/// `⌈amount × price_wad / 10^decimals⌉`, rounded up so the minimums derived from it are never
/// below the asset's value (`BuybackMath.assetUsdWadUp`).
///
/// # Errors
/// [`MathError::Overflow`] when `decimals > 18` or the result does not fit.
pub fn asset_usd_wad_up(amount: U256, decimals: u8, price_wad: U256) -> Result<U256, MathError> {
    if decimals > MAX_ASSET_DECIMALS {
        return Err(MathError::Overflow);
    }
    mul_div_up(
        amount,
        price_wad,
        U256::from(10u8).pow(U256::from(decimals)),
    )
}

/// The value of a run's bought part: `v − ⌊v/4⌋` of the value `v` spent (ETH wei or USD WAD).
#[must_use]
pub fn buy_value(value: U256) -> U256 {
    split_eth(value).buy
}

/// The minimum ROOT (wei) for a buy worth `value` (ETH wei or USD WAD) at `price` (the same unit per
/// whole ROOT): `⌈value × (BPS − slippage_bps) × 10^14 / price⌉` (`10^18 / BPS = 10^14`; rounded up,
/// which favours the protocol).
///
/// # Errors
/// [`MathError::DivisionByZero`] for a zero price; [`MathError::Overflow`] when the slippage
/// exceeds [`BPS`] or the result does not fit.
pub fn min_root_out_up(value: U256, price: U256, slippage_bps: u64) -> Result<U256, MathError> {
    if slippage_bps > BPS {
        return Err(MathError::Overflow);
    }
    let k = U256::from(BPS - slippage_bps) * (WAD / U256::from(BPS));
    mul_div_up(value, k, price)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn u(x: u128) -> U256 {
        U256::from(x)
    }

    #[test]
    fn one_eth_at_the_demo_price() {
        // 1 ETH, 0.0005 ETH per ROOT, 3 % slippage: 0.75 ETH buys at least 1,455 ROOT.
        let s = split_eth(u(1_000_000_000_000_000_000));
        assert_eq!(s.keep, u(250_000_000_000_000_000));
        assert_eq!(s.buy, u(750_000_000_000_000_000));
        let min = min_root_out_up(s.buy, u(500_000_000_000_000), 300).unwrap();
        assert_eq!(min, u(1_455_000_000_000_000_000_000));
        assert_eq!(burn_share(u(1_500)), u(1_000));
        assert_eq!(burn_share(u(1_501)), u(1_000));
        assert_eq!(burn_share(u(1_502)), u(1_001));
    }

    #[test]
    fn stablecoin_value() {
        assert_eq!(
            asset_usd_wad_up(u(3_000_000_000), 6, WAD).unwrap(),
            u(3_000) * WAD
        );
        assert_eq!(asset_usd_wad_up(u(7), 18, WAD).unwrap(), u(7));
        assert_eq!(asset_usd_wad_up(u(7), 19, WAD), Err(MathError::Overflow));
        // A stock pair asset at $50.25 (8-decimal feed scaled to a WAD): 3 tokens are $150.75, not $3.
        let price = u(50_250_000_000_000_000_000);
        assert_eq!(
            asset_usd_wad_up(u(3) * WAD, 18, price).unwrap(),
            u(150_750_000_000_000_000_000)
        );
        // Rounded up: one unit of a 6-decimal coin at $0.999999999999999999.
        assert_eq!(
            asset_usd_wad_up(u(1), 6, WAD - u(1)).unwrap(),
            u(1_000_000_000_000)
        );
        // The hop's least ETH for $3,000 at $3,000 per ETH, 3 % slippage: 0.97 ETH.
        assert_eq!(
            min_root_out_up(u(3_000) * WAD, u(3_000) * WAD, 300).unwrap(),
            u(970_000_000_000_000_000)
        );
        assert_eq!(buy_value(u(3_000) * WAD), u(2_250) * WAD);
        // $2,250 at $1.5 per ROOT, no slippage: exactly 1,500 ROOT.
        assert_eq!(
            min_root_out_up(u(2_250) * WAD, u(1_500_000_000_000_000_000), 0).unwrap(),
            u(1_500) * WAD
        );
    }

    #[test]
    fn rounding_is_up_and_bad_input_fails() {
        assert_eq!(
            min_root_out_up(u(1), u(3), 0).unwrap(),
            u(333_333_333_333_333_334)
        );
        assert_eq!(
            min_root_out_up(u(1), U256::ZERO, 0),
            Err(MathError::DivisionByZero)
        );
        assert_eq!(
            min_root_out_up(u(1), u(1), BPS + 1),
            Err(MathError::Overflow)
        );
        assert_eq!(
            min_root_out_up(U256::MAX, u(1), 0),
            Err(MathError::Overflow)
        );
    }

    proptest! {
        /// The split and the burn add up exactly, and the burn is within one wei of two thirds.
        #[test]
        fn parts_add_up(e in any::<[u64; 4]>(), r in any::<[u64; 4]>()) {
            let e = U256::from_limbs(e);
            let r = U256::from_limbs(r);
            let s = split_eth(e);
            prop_assert_eq!(s.buy + s.keep, e);
            prop_assert!(s.buy >= s.keep * U256::from(3));
            let b = burn_share(r);
            prop_assert!(b <= r);
            // 2R − 3b ∈ [0, 3): the burn is ⌊2R/3⌋ (in 512 bits, no overflow).
            let wide = |x: U256| ruint::aliases::U512::from(x);
            let (two_r, three_b) = (wide(r) * wide(U256::from(2)), wide(b) * wide(U256::from(3)));
            prop_assert!(three_b <= two_r);
            prop_assert!(two_r - three_b < wide(U256::from(3)));
        }

        /// More slippage never asks for more ROOT; a higher price never asks for more.
        #[test]
        fn minimum_is_monotone(v in 1u128.., p in 1u128.., s1 in 0u64..=BPS, s2 in 0u64..=BPS) {
            let (lo, hi) = if s1 <= s2 { (s1, s2) } else { (s2, s1) };
            let a = min_root_out_up(U256::from(v), U256::from(p), lo).unwrap();
            let b = min_root_out_up(U256::from(v), U256::from(p), hi).unwrap();
            prop_assert!(b <= a);
            let c = min_root_out_up(U256::from(v), U256::from(p) + U256::from(1u8), lo).unwrap();
            prop_assert!(c <= a);
        }
    }
}
