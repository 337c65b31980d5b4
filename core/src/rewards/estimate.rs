//! What a new scorer would earn on a token (C12–C13 applied to a pool's current state).
//!
//! Given the pool's current drip rate, the weights of its open positions and `ω_max`, and a
//! candidate thesis quality `q` and multiplier `c`, the estimate adds the candidate's weight
//! `ω = q_eff·√σ` to the pool and reports its capped share `ω / D'` with
//! `D' = max(W + ω, max(ω_max, ω) / c)`, and the reward over [`ESTIMATE_HORIZON`] (30 days).
//!
//! **Assumptions (documented; the estimate is not a promise):** the drip continues at the
//! current rate for the whole 30 days (new fees keep arriving at the pace of the last week;
//! in reality a drip with no new funding ends 7 days after its last funding), and the other
//! positions stay as they are (no expiries, no newcomers). A scorer re-scoring a token where it
//! already has a position must leave its old weight out of `weights` (the re-score replaces it).
//!
//! Rounding: `share = ⌊ω·10^18 / D'⌋`, `reward = ⌊rate_wad · 30 days · ω / (D' · 10^18)⌋`
//! (one division, down).

use super::capped::conservative_denominator_up;
use super::position::{weight, POSITION_DURATION};
use super::{math, RewardsError};
use crate::math::{checked_add, mul_div_down, MathError, WAD};
use alloy_primitives::U256;

/// The estimate's horizon: one position's lifetime, 30 days.
pub const ESTIMATE_HORIZON: u64 = POSITION_DURATION;

/// The state of a token's reward pool that the estimate needs.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct PoolSnapshot {
    /// The current drip rate, pair-asset units per second as a WAD.
    #[serde(with = "crate::serde_dec::u256")]
    pub rate_wad: U256,
    /// The weights `ω` (WAD) of the currently open positions.
    #[serde(with = "crate::serde_dec::u256_vec")]
    pub weights: Vec<U256>,
    /// The pool's `ω_max` when known (the contract's weight-class value may be higher than the
    /// exact maximum); `None` uses `max(weights)`. Never below `max(weights)`.
    #[serde(default, with = "crate::serde_dec::opt_u256")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub max_weight: Option<U256>,
    /// The cap in basis points (C13: 500, the default on input).
    #[serde(default = "default_cap_bps", with = "crate::serde_dec::int")]
    #[cfg_attr(feature = "js", tsify(optional))]
    pub cap_bps: u32,
}

fn default_cap_bps() -> u32 {
    super::CAP_BPS
}

/// The estimate for one candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct RewardEstimate {
    /// The candidate's weight `ω`, WAD.
    #[serde(with = "crate::serde_dec::u256")]
    pub weight: U256,
    /// `W + ω`.
    #[serde(with = "crate::serde_dec::u256")]
    pub total_weight: U256,
    /// `max(ω_max, ω)`.
    #[serde(with = "crate::serde_dec::u256")]
    pub max_weight: U256,
    /// `D'`.
    #[serde(with = "crate::serde_dec::u256")]
    pub denominator: U256,
    /// `⌊ω / D'⌋`, WAD of the pool rate.
    #[serde(with = "crate::serde_dec::u256")]
    pub share: U256,
    /// The candidate's reward rate, units per second as a WAD (down).
    #[serde(with = "crate::serde_dec::u256")]
    pub reward_rate_wad: U256,
    /// The reward over 30 days at that rate (down), pair-asset units.
    #[serde(with = "crate::serde_dec::u256")]
    pub reward_30d: U256,
}

/// Estimates the stream share and 30-day reward of a new scorer with `quality`, `multiplier`.
///
/// # Errors
/// Out-of-range quality or multiplier, an invalid cap, or overflow on absurd amounts.
pub fn estimate_reward(
    pool: &PoolSnapshot,
    quality: U256,
    multiplier: U256,
) -> Result<RewardEstimate, RewardsError> {
    let omega = weight(quality, multiplier)?;
    let mut total = omega;
    let mut max = omega;
    for w in &pool.weights {
        total = checked_add(total, *w).map_err(math("Σ ω"))?;
        max = max.max(*w);
    }
    if let Some(m) = pool.max_weight {
        max = max.max(m);
    }
    let denominator = conservative_denominator_up(total, max, pool.cap_bps)?;
    if omega.is_zero() || denominator.is_zero() {
        return Ok(RewardEstimate {
            weight: omega,
            total_weight: total,
            max_weight: max,
            denominator,
            share: U256::ZERO,
            reward_rate_wad: U256::ZERO,
            reward_30d: U256::ZERO,
        });
    }
    let share = mul_div_down(omega, WAD, denominator).map_err(math("ω / D"))?;
    let reward_rate_wad =
        mul_div_down(pool.rate_wad, omega, denominator).map_err(math("rate·ω/D"))?;
    let over_horizon = pool
        .rate_wad
        .checked_mul(U256::from(ESTIMATE_HORIZON))
        .ok_or(RewardsError::Math {
            context: "rate × 30 days",
            source: MathError::Overflow,
        })?;
    let denom_wad = denominator.checked_mul(WAD).ok_or(RewardsError::Math {
        context: "D × 10^18",
        source: MathError::Overflow,
    })?;
    let reward_30d = mul_div_down(over_horizon, omega, denom_wad).map_err(math("30-day reward"))?;
    Ok(RewardEstimate {
        weight: omega,
        total_weight: total,
        max_weight: max,
        denominator,
        share,
        reward_rate_wad,
        reward_30d,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rewards::capped::CAP_BPS;
    use crate::rewards::test_util::{milli, wad};

    #[test]
    fn third_scorer_of_the_seed_pool() {
        // Pool with ω = 40, 30; a candidate of q = 0.9 joins → the C13 example, 5 % for it.
        // Rate: 1 unit per second (WAD) → 30 days × 5 % = 129,600 units.
        let pool = PoolSnapshot {
            rate_wad: WAD,
            weights: vec![wad(40), wad(30)],
            max_weight: None,
            cap_bps: CAP_BPS,
        };
        let e = estimate_reward(&pool, milli(900), WAD).unwrap();
        assert_eq!(e.weight, wad(45));
        assert_eq!(e.total_weight, wad(115));
        assert_eq!(e.denominator, wad(900));
        assert_eq!(e.share, U256::from(50_000_000_000_000_000u64));
        assert_eq!(e.reward_rate_wad, U256::from(50_000_000_000_000_000u64));
        assert_eq!(e.reward_30d, U256::from(129_600u64));
    }

    #[test]
    fn a_lighter_candidate_and_a_stale_max() {
        let pool = PoolSnapshot {
            rate_wad: WAD,
            weights: vec![wad(45)],
            max_weight: None,
            cap_bps: CAP_BPS,
        };
        let e = estimate_reward(&pool, milli(600), WAD).unwrap();
        assert_eq!(e.denominator, wad(900));
        assert_eq!(e.share, U256::from(33_333_333_333_333_333u64));
        // An on-chain ω_max stale on the high side lowers the estimate.
        let stale = PoolSnapshot {
            max_weight: Some(wad(50)),
            ..pool
        };
        let e2 = estimate_reward(&stale, milli(600), WAD).unwrap();
        assert_eq!(e2.denominator, wad(1000));
        assert!(e2.reward_30d < e.reward_30d);
    }

    #[test]
    fn below_floor_earns_nothing() {
        let pool = PoolSnapshot {
            rate_wad: WAD,
            weights: vec![],
            max_weight: None,
            cap_bps: CAP_BPS,
        };
        let e = estimate_reward(&pool, milli(290), WAD).unwrap();
        assert_eq!(
            (e.weight, e.share, e.reward_30d),
            (U256::ZERO, U256::ZERO, U256::ZERO)
        );
        // Alone in a pool, the cap binds: 5 %.
        let e = estimate_reward(&pool, WAD, WAD).unwrap();
        assert_eq!(e.share, U256::from(50_000_000_000_000_000u64));
    }
}
