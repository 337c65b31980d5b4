//! C13 (pinned) The cap and the conservative denominator, §5.3.
//!
//! `W = Σ ω_k` over earning positions, `ω_max = max ω_k`, `D = max(W, ω_max / c)` with
//! `c = 5 %`. Scorer k earns `ω_k / D` of the pool rate; the rest returns to the ROOT buyback.
//! Since `D ≥ ω_max / c ≥ ω_k / c`, no scorer ever exceeds `c`, and since `D ≥ W` the pool is
//! never overpaid.
//!
//! Rounding: `ω_max / c = ⌈ω_max × 10,000 / capBps⌉` (up: a larger `D` pays less, never more;
//! exact for `c = 5 %`); each share `⌊ω_k × 10^18 / D⌋` (down).
//!
//! Example (a unit test): ω = 40, 30, 45 → W = 115, D = 900, shares 4.44 %, 3.33 %, 5 %,
//! 12.8 % paid in total (115/900 = 12.777…%).
//!
//! The contract tracks `ω_max` in logarithmic weight classes (`2^(1/1024)` wide), which can only
//! be stale on the high side and so only lowers payouts; this module uses the exact maximum
//! unless a caller passes the on-chain value.

use super::{math, RewardsError};
use crate::math::{checked_add, mul_div_down, mul_div_up, WAD};
use alloy_primitives::U256;

/// The per-scorer cap `c`: 5 % = 500 basis points.
pub const CAP_BPS: u32 = 500;
const BPS: u32 = 10_000;

/// `D = max(W, ⌈ω_max × 10,000 / capBps⌉)`.
///
/// # Errors
/// [`RewardsError::InvalidCap`] unless `1 ≤ capBps ≤ 10,000`.
pub fn conservative_denominator_up(
    total_weight: U256,
    max_weight: U256,
    cap_bps: u32,
) -> Result<U256, RewardsError> {
    if cap_bps == 0 || cap_bps > BPS {
        return Err(RewardsError::InvalidCap(cap_bps));
    }
    let by_cap =
        mul_div_up(max_weight, U256::from(BPS), U256::from(cap_bps)).map_err(math("ω_max / c"))?;
    Ok(total_weight.max(by_cap))
}

/// The capped split of a pool's rate.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct CappedShares {
    /// `W`.
    #[serde(with = "crate::serde_dec::u256")]
    pub total_weight: U256,
    /// `ω_max`.
    #[serde(with = "crate::serde_dec::u256")]
    pub max_weight: U256,
    /// `D`.
    #[serde(with = "crate::serde_dec::u256")]
    pub denominator: U256,
    /// `⌊ω_k / D⌋` per input weight, WAD of the pool rate, in input order.
    #[serde(with = "crate::serde_dec::u256_vec")]
    pub shares: Vec<U256>,
    /// `⌊W / D⌋`: the fraction paid in total (WAD); the rest is returned.
    #[serde(with = "crate::serde_dec::u256")]
    pub paid: U256,
}

/// C13 for a list of weights. With no weight (or all zero) `D = 0` and every share is 0.
///
/// # Errors
/// An invalid cap; overflow of `Σ ω`.
pub fn capped_shares(weights: &[U256], cap_bps: u32) -> Result<CappedShares, RewardsError> {
    let mut total = U256::ZERO;
    let mut max = U256::ZERO;
    for w in weights {
        total = checked_add(total, *w).map_err(math("Σ ω"))?;
        max = max.max(*w);
    }
    let denominator = conservative_denominator_up(total, max, cap_bps)?;
    if denominator.is_zero() {
        return Ok(CappedShares {
            total_weight: total,
            max_weight: max,
            denominator,
            shares: vec![U256::ZERO; weights.len()],
            paid: U256::ZERO,
        });
    }
    let shares = weights
        .iter()
        .map(|w| mul_div_down(*w, WAD, denominator).map_err(math("ω_k / D")))
        .collect::<Result<Vec<_>, _>>()?;
    let paid = mul_div_down(total, WAD, denominator).map_err(math("W / D"))?;
    Ok(CappedShares {
        total_weight: total,
        max_weight: max,
        denominator,
        shares,
        paid,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rewards::test_util::wad;
    use proptest::prelude::*;

    #[test]
    fn seed_example_c13() {
        let r = capped_shares(&[wad(40), wad(30), wad(45)], CAP_BPS).unwrap();
        assert_eq!(r.total_weight, wad(115));
        assert_eq!(r.denominator, wad(900));
        assert_eq!(r.shares[0], U256::from(44_444_444_444_444_444u64)); // 4.44 %
        assert_eq!(r.shares[1], U256::from(33_333_333_333_333_333u64)); // 3.33 %
        assert_eq!(r.shares[2], U256::from(50_000_000_000_000_000u64)); // 5 %
        assert_eq!(r.paid, U256::from(127_777_777_777_777_777u64)); // 12.8 %
    }

    #[test]
    fn twenty_equal_scorers_take_the_whole_stream() {
        let r = capped_shares(&vec![wad(40); 20], CAP_BPS).unwrap();
        assert_eq!(r.denominator, wad(800));
        assert_eq!(r.paid, WAD);
        let r = capped_shares(&vec![wad(40); 19], CAP_BPS).unwrap();
        assert_eq!(r.denominator, wad(800));
        assert_eq!(r.paid, U256::from(950_000_000_000_000_000u64));
    }

    #[test]
    fn empty_and_bad_cap() {
        let r = capped_shares(&[], CAP_BPS).unwrap();
        assert_eq!((r.denominator, r.paid), (U256::ZERO, U256::ZERO));
        let r = capped_shares(&[U256::ZERO], CAP_BPS).unwrap();
        assert_eq!(r.shares, vec![U256::ZERO]);
        assert_eq!(
            capped_shares(&[wad(1)], 0),
            Err(RewardsError::InvalidCap(0))
        );
        assert_eq!(
            capped_shares(&[wad(1)], 10_001),
            Err(RewardsError::InvalidCap(10_001))
        );
        // A 100 % cap is plain proportional sharing.
        let r = capped_shares(&[wad(1), wad(3)], 10_000).unwrap();
        assert_eq!(
            r.shares,
            vec![
                WAD / U256::from(4u8),
                WAD * U256::from(3u8) / U256::from(4u8)
            ]
        );
    }

    proptest! {
        /// No scorer ever exceeds the cap; the total never exceeds 1.
        #[test]
        fn never_above_cap(ws in proptest::collection::vec(any::<u128>(), 0..40), cap in 1u32..=10_000) {
            let weights: Vec<U256> = ws.iter().map(|w| U256::from(*w)).collect();
            let r = capped_shares(&weights, cap).unwrap();
            let cap_wad = U256::from(cap) * WAD / U256::from(10_000u32);
            let mut sum = U256::ZERO;
            for s in &r.shares {
                prop_assert!(*s <= cap_wad);
                sum += *s;
            }
            prop_assert!(sum <= r.paid && r.paid <= WAD);
        }
    }
}
