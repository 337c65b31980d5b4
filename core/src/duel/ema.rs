//! The 30-minute EMA and the buyback cap (B5).
//!
//! Decided (B5): on each update `ema += (p − ema) × Δt / (Δt + 1800)`, `Δt` = seconds since the
//! last update, the first observation seeds it. `p` is the price that held since the last
//! update (the pool price before the swap that triggers it), a WAD of ETH per whole token.
//! The step rounds toward the lower price (down when rising, up when falling): a lower EMA
//! means a lower cap, the protocol-favourable side for the buyback. `Δt = 0` changes nothing.
//!
//! Cap (pinned): `cap = min(EMA, current price) × 11,000 / 10,000`, rounded down.

use super::DuelError;
use crate::math::{mul_div_down, mul_div_up};
use alloy_primitives::U256;

/// The EMA time constant: 30 minutes.
pub const EMA_WINDOW_SECONDS: u64 = 1_800;
/// The cap multiplier: 110 % of the reference price.
pub const CAP_MULTIPLIER_BPS: u64 = 11_000;
/// Basis-point denominator.
pub const BPS: u64 = 10_000;

/// An EMA value and when it was last updated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct Ema {
    /// The EMA, a WAD of ETH per whole token.
    #[serde(rename = "emaWad", with = "crate::serde_dec::u256")]
    pub value_wad: U256,
    /// Unix seconds of the last update.
    #[serde(with = "crate::serde_dec::int")]
    pub last_update: u64,
}

/// Updates `prev` (or seeds it when `None`) with `price_wad` at `now`.
///
/// # Errors
/// [`DuelError::TimeWentBackwards`] when `now` is before the last update.
pub fn ema_update(prev: Option<Ema>, price_wad: U256, now: u64) -> Result<Ema, DuelError> {
    let Some(prev) = prev else {
        return Ok(Ema {
            value_wad: price_wad,
            last_update: now,
        });
    };
    if now < prev.last_update {
        return Err(DuelError::TimeWentBackwards {
            last: prev.last_update,
            now,
        });
    }
    let dt = U256::from(now - prev.last_update);
    let den = dt + U256::from(EMA_WINDOW_SECONDS);
    let ema = prev.value_wad;
    let value_wad = if price_wad >= ema {
        // ≤ ema + (p − ema): cannot overflow.
        ema + mul_div_down(price_wad - ema, dt, den)?
    } else {
        // ≤ ema − p: cannot underflow.
        ema - mul_div_up(ema - price_wad, dt, den)?
    };
    Ok(Ema {
        value_wad,
        last_update: now,
    })
}

/// The buyback cap, `min(ema, current) × 1.10`, rounded down.
///
/// # Errors
/// [`DuelError::Math`] on overflow.
pub fn buyback_cap_wad(ema_wad: U256, current_price_wad: U256) -> Result<U256, DuelError> {
    Ok(mul_div_down(
        ema_wad.min(current_price_wad),
        U256::from(CAP_MULTIPLIER_BPS),
        U256::from(BPS),
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::WAD;
    use proptest::prelude::*;

    fn w(x: u64) -> U256 {
        U256::from(x) * WAD
    }

    #[test]
    fn first_observation_seeds() {
        assert_eq!(
            ema_update(None, w(3), 100).unwrap(),
            Ema {
                value_wad: w(3),
                last_update: 100
            }
        );
    }

    #[test]
    fn half_weight_after_thirty_minutes() {
        // Δt = 1800: the EMA moves half way.
        let e = ema_update(
            Some(Ema {
                value_wad: w(2),
                last_update: 0,
            }),
            w(4),
            1_800,
        )
        .unwrap();
        assert_eq!(e.value_wad, w(3));
        let e = ema_update(
            Some(Ema {
                value_wad: w(4),
                last_update: 0,
            }),
            w(2),
            1_800,
        )
        .unwrap();
        assert_eq!(e.value_wad, w(3));
        // Δt = 0 (same block): no change, a same-second spike cannot move it.
        let e = ema_update(
            Some(Ema {
                value_wad: w(2),
                last_update: 7,
            }),
            w(1_000),
            7,
        )
        .unwrap();
        assert_eq!(e.value_wad, w(2));
    }

    #[test]
    fn rounds_toward_the_lower_price() {
        // Rising: (10 − 1) × 1 / 1801 = 0.00499…, floors to 0 → stays 1.
        let e = ema_update(
            Some(Ema {
                value_wad: U256::from(1u8),
                last_update: 0,
            }),
            U256::from(10u8),
            1,
        )
        .unwrap();
        assert_eq!(e.value_wad, U256::from(1u8));
        // Falling: ceil of the decrement → 10 − 1 = 9.
        let e = ema_update(
            Some(Ema {
                value_wad: U256::from(10u8),
                last_update: 0,
            }),
            U256::from(1u8),
            1,
        )
        .unwrap();
        assert_eq!(e.value_wad, U256::from(9u8));
        assert_eq!(
            ema_update(
                Some(Ema {
                    value_wad: w(1),
                    last_update: 9
                }),
                w(1),
                8
            ),
            Err(DuelError::TimeWentBackwards { last: 9, now: 8 })
        );
    }

    #[test]
    fn cap_is_ten_percent_above_the_lower_reference() {
        // The EMA is lower: cap on the EMA.
        assert_eq!(buyback_cap_wad(w(100), w(150)).unwrap(), w(110));
        // The current price is lower: cap on the price.
        assert_eq!(buyback_cap_wad(w(100), w(80)).unwrap(), w(88));
        assert_eq!(
            buyback_cap_wad(U256::from(9u8), U256::from(9u8)).unwrap(),
            U256::from(9u8)
        ); // 9.9 → 9
    }

    proptest! {
        /// The EMA stays between its old value and the price.
        #[test]
        fn ema_between_old_and_price(e in any::<u128>(), p in any::<u128>(), dt in any::<u32>()) {
            let (e, p) = (U256::from(e), U256::from(p));
            let n = ema_update(Some(Ema { value_wad: e, last_update: 0 }), p, u64::from(dt)).unwrap();
            prop_assert!(n.value_wad >= e.min(p) && n.value_wad <= e.max(p));
        }

        #[test]
        fn no_panic(e in any::<[u64; 4]>(), p in any::<[u64; 4]>(), a in any::<u64>(), b in any::<u64>()) {
            let _ = ema_update(Some(Ema { value_wad: U256::from_limbs(e), last_update: a }), U256::from_limbs(p), b);
            let _ = buyback_cap_wad(U256::from_limbs(e), U256::from_limbs(p));
        }
    }
}
