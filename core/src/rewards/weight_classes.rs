//! C13 (pinned) `ω_max` tracked in logarithmic weight classes, bit for bit as the contract
//! (`contracts/src/libraries/WeightClasses.sol`, `RewardMath.classOf`).
//!
//! Every earning weight `ω > 0` is counted in class [`class_of`]`(ω) = ⌊1024 · log₂ ω⌋`
//! (classes `2^(1/1024)` wide, [`CLASS_BITS`] = 10 fractional bits), computed by exact binary-log
//! bit extraction: the mantissa is normalised to 128 bits (`[2^127, 2^128)`) and squared ten
//! times, each squaring yielding one fractional bit.
//!
//! A class keeps a count and the largest weight that entered it while it was non-empty; when its
//! count drops to 0 it is emptied (its maximum forgotten). The tracked `ω_max`
//! ([`WeightClasses::max`]) is the kept maximum of the highest non-empty class. When the
//! heaviest position of the top class leaves while lighter ones of the same class stay, the
//! tracked value stays at the old weight: it is stale only on the high side (by less than
//! `2^(1/1024)`), which makes `D = max(W, ⌈ω_max / c⌉)` larger and payouts lower, never higher.
//! It is exact when each class holds one weight or only equal weights.
//!
//! The contract finds the top class through a two-level bitmap; a `BTreeMap` of the non-empty
//! classes gives the same answer here.

use alloy_primitives::U256;
use std::collections::BTreeMap;

/// Fractional bits of the class index: 1,024 classes per octave.
pub const CLASS_BITS: u32 = 10;

/// The largest weight the contract accepts (`uint192` storage).
pub const MAX_CLASSED_WEIGHT: U256 = U256::from_limbs([u64::MAX, u64::MAX, u64::MAX, 0]);

/// Why a weight-class update was rejected (the contract reverts in these cases).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WeightClassError {
    /// The weight does not fit the contract's `uint192` class maximum.
    #[error("weight {0} is too large for a weight class (at most 2^192 - 1)")]
    WeightTooLarge(U256),
    /// A weight was removed from a class that does not hold it.
    #[error("weight {weight} removed from empty weight class {class}")]
    NotCounted {
        /// The weight removed.
        weight: U256,
        /// Its class.
        class: u32,
    },
    /// A chain's tracked `ω_max` that no history of these open weights can produce.
    #[error("the tracked maximum weight {tracked_max} is not in the top class of the open weights (their maximum {open_max})")]
    TrackedMaxOutsideTopClass {
        /// The chain's `maxWeight`.
        tracked_max: U256,
        /// The open weights' maximum.
        open_max: U256,
    },
}

/// `⌊1024 · log₂ x⌋` for `x ≥ 1`, exactly as `RewardMath.classOf` (monotone in `x`; `x = 0`
/// gives 0 as in Solidity, where `Math.log2(0) = 0`). At most `256·1024 − 1`.
pub fn class_of(x: U256) -> u32 {
    // Math.log2 (floor), 0 for 0.
    let msb: usize = if x.is_zero() { 0 } else { x.bit_len() - 1 };
    // Normalise into [2^127, 2^128) (0 stays 0).
    let mut m: U256 = if msb <= 127 {
        x << (127 - msb)
    } else {
        x >> (msb - 127)
    };
    let mut frac: u32 = 0;
    let two_128: U256 = U256::from(1u8) << 128;
    for _ in 0..CLASS_BITS {
        // m < 2^128 here, so m·m < 2^256: the product never wraps.
        m = m.wrapping_mul(m) >> 127; // in [2^127, 2^129)
        frac <<= 1;
        if m >= two_128 {
            m >>= 1;
            frac |= 1;
        }
    }
    // msb ≤ 255, so this is < 2^18.
    ((msb as u32) << CLASS_BITS) | frac
}

/// One class: how many weights it counts and the largest that entered while it was non-empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WeightClass {
    /// Weights counted.
    pub count: u64,
    /// The largest weight that entered while the class was non-empty.
    pub max_weight: U256,
}

/// The non-empty weight classes of one token's earning positions (C13). See the module doc.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WeightClasses {
    classes: BTreeMap<u32, WeightClass>,
}

impl WeightClasses {
    /// No weight counted.
    pub fn new() -> Self {
        Self::default()
    }

    /// Counts `weight` (0 is ignored), as `WeightClasses.insert`.
    ///
    /// # Errors
    /// [`WeightClassError::WeightTooLarge`] above `2^192 − 1`; a count overflow (2^64 weights
    /// in one class) is reported the same way as the contract reverts.
    pub fn insert(&mut self, weight: U256) -> Result<(), WeightClassError> {
        if weight.is_zero() {
            return Ok(());
        }
        if weight > MAX_CLASSED_WEIGHT {
            return Err(WeightClassError::WeightTooLarge(weight));
        }
        let k = self.classes.entry(class_of(weight)).or_insert(WeightClass {
            count: 0,
            max_weight: U256::ZERO,
        });
        k.count = k
            .count
            .checked_add(1)
            .ok_or(WeightClassError::WeightTooLarge(weight))?;
        if weight > k.max_weight {
            k.max_weight = weight;
        }
        Ok(())
    }

    /// Uncounts `weight` (0 is ignored), as `WeightClasses.remove`: the class keeps its maximum
    /// until its count reaches 0, then is emptied.
    ///
    /// # Errors
    /// [`WeightClassError::NotCounted`] when the weight's class is empty (the contract's
    /// underflow revert).
    pub fn remove(&mut self, weight: U256) -> Result<(), WeightClassError> {
        if weight.is_zero() {
            return Ok(());
        }
        let class = class_of(weight);
        let Some(k) = self.classes.get_mut(&class) else {
            return Err(WeightClassError::NotCounted { weight, class });
        };
        k.count = k.count.saturating_sub(1);
        if k.count == 0 {
            self.classes.remove(&class);
        }
        Ok(())
    }

    /// The tracked `ω_max`: the kept maximum of the highest non-empty class (0 when empty),
    /// as `WeightClasses.max`. Never below the true maximum of the counted weights.
    pub fn max(&self) -> U256 {
        self.classes
            .last_key_value()
            .map_or(U256::ZERO, |(_, k)| k.max_weight)
    }

    /// The classes of the open `weights` as a contract that tracks `tracked_max` holds them: each
    /// class counts its weights and keeps their largest, and the top class keeps `tracked_max`
    /// (the contract's `maxWeight`, which may be stale on the high side within that class). A
    /// lower class's kept maximum cannot be read from the chain; it is its true maximum here.
    ///
    /// # Errors
    /// A weight above the class maximum; [`WeightClassError::TrackedMaxOutsideTopClass`] when
    /// `tracked_max` is below the open weights' maximum or in another class than it.
    pub fn from_open(weights: &[U256], tracked_max: U256) -> Result<Self, WeightClassError> {
        let mut c = Self::new();
        for w in weights {
            c.insert(*w)?;
        }
        match c.classes.last_key_value().map(|(k, v)| (*k, v.max_weight)) {
            None if tracked_max.is_zero() => {}
            Some((top, max)) if class_of(tracked_max) == top && tracked_max >= max => {
                if let Some(k) = c.classes.get_mut(&top) {
                    k.max_weight = tracked_max;
                }
            }
            open => {
                return Err(WeightClassError::TrackedMaxOutsideTopClass {
                    tracked_max,
                    open_max: open.map_or(U256::ZERO, |(_, m)| m),
                })
            }
        }
        Ok(c)
    }

    /// The class `class`, if non-empty.
    pub fn class(&self, class: u32) -> Option<WeightClass> {
        self.classes.get(&class).copied()
    }

    /// Whether no weight is counted.
    pub fn is_empty(&self) -> bool {
        self.classes.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::testing::u;
    use crate::rewards::test_util::{milli, wad};
    use proptest::prelude::*;

    /// Vectors of `ScorerRegistry.t.sol::test_classes` plus hand-checked ones.
    #[test]
    fn class_of_vectors() {
        assert_eq!(class_of(U256::ZERO), 0);
        assert_eq!(class_of(u(1)), 0);
        assert_eq!(class_of(u(2)), 1_024);
        assert_eq!(class_of(u(3)), 1_623); // ⌊1024 · 1.58496…⌋ = ⌊1622.999…⌋
        assert_eq!(class_of(u(4)), 2_048);
        assert_eq!(class_of(u(5)), 2_377); // 1024 · 2.321928… = 2377.65…
        assert_eq!(class_of(u(7)), 2_874); // 1024 · 2.807354… = 2874.73…
        assert_eq!(class_of(U256::from(1u8) << 255), 255 * 1_024);
        assert_eq!(class_of(U256::MAX), 256 * 1_024 - 1);
        // 45e18 and 40e18 are different classes; 45e18 and 45e18 + 1 the same.
        assert_ne!(class_of(wad(45)), class_of(wad(40)));
        assert_eq!(class_of(wad(45)), class_of(wad(45) + u(1)));
        // log2(45e18) = 65.286…: 1024 · 65.2865… = 66853.4…
        assert_eq!(class_of(wad(45)), 66_853);
        // 44.9995e18 (quality 0.9 − 1e-5, c = 1) is in 45e18's class.
        assert_eq!(class_of(wad(45) - milli(1) / u(2)), class_of(wad(45)));
    }

    /// `ScorerRegistry.t.sol::test_maxWeightStaleHigh` in miniature: the heavier weight of a
    /// class leaves, the lighter stays, the tracked maximum stays high; it drops when the class
    /// empties.
    #[test]
    fn stale_on_the_high_side_only() {
        let heavy = wad(45);
        let light = wad(45) - milli(1) / u(2);
        let low = wad(40);
        let mut c = WeightClasses::new();
        assert_eq!(c.max(), U256::ZERO);
        c.insert(low).unwrap();
        c.insert(heavy).unwrap();
        c.insert(light).unwrap();
        assert_eq!(c.max(), heavy);
        c.remove(heavy).unwrap();
        assert_eq!(c.max(), heavy); // stale, high side
        assert_eq!(
            c.class(class_of(heavy)),
            Some(WeightClass {
                count: 1,
                max_weight: heavy
            })
        );
        c.remove(light).unwrap();
        assert_eq!(c.max(), low); // class emptied: exact again
        c.remove(low).unwrap();
        assert_eq!(c.max(), U256::ZERO);
        assert!(c.is_empty());
        // The emptied class forgot its maximum: re-entering with the light weight is exact.
        c.insert(light).unwrap();
        assert_eq!(c.max(), light);
    }

    #[test]
    fn zero_ignored_and_errors() {
        let mut c = WeightClasses::new();
        c.insert(U256::ZERO).unwrap();
        c.remove(U256::ZERO).unwrap();
        assert!(c.is_empty());
        assert_eq!(
            c.remove(wad(1)),
            Err(WeightClassError::NotCounted {
                weight: wad(1),
                class: class_of(wad(1))
            })
        );
        c.insert(MAX_CLASSED_WEIGHT).unwrap();
        assert_eq!(
            c.insert(MAX_CLASSED_WEIGHT + u(1)),
            Err(WeightClassError::WeightTooLarge(MAX_CLASSED_WEIGHT + u(1)))
        );
        assert_eq!(c.max(), MAX_CLASSED_WEIGHT);
    }

    fn any_u256() -> impl Strategy<Value = U256> {
        prop::array::uniform4(any::<u64>()).prop_map(U256::from_limbs)
    }

    /// Weights in 1..2^192, spread over magnitudes.
    fn weight() -> impl Strategy<Value = U256> {
        (any_u256(), 0usize..192).prop_map(|(x, bits)| {
            let w = x >> (255 - bits);
            if w.is_zero() {
                U256::from(1u8)
            } else {
                w
            }
        })
    }

    proptest! {
        #[test]
        fn class_monotone_in_weight(a in any_u256(), b in any_u256()) {
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            prop_assert!(class_of(lo) <= class_of(hi));
        }

        #[test]
        fn class_is_narrow(a in weight()) {
            // Class c holds [2^(c/1024), 2^((c+1)/1024)): doubling moves exactly 1024 classes.
            prop_assume!(a < (U256::from(1u8) << 254));
            prop_assert_eq!(class_of(a << 1), class_of(a) + 1_024);
        }

        #[test]
        fn tracked_max_at_least_true_max(
            ws in prop::collection::vec(weight(), 1..12),
            near in prop::collection::vec((0usize..12, 0u64..1_000_000), 0..12),
            removals in prop::collection::vec(any::<prop::sample::Index>(), 0..12),
        ) {
            // Near-equal weights to crowd some classes.
            let mut all = ws.clone();
            for (i, d) in near {
                let base = ws[i % ws.len()];
                all.push(base.saturating_add(U256::from(d)).min(MAX_CLASSED_WEIGHT));
            }
            let mut c = WeightClasses::new();
            for w in &all {
                c.insert(*w).unwrap();
            }
            let mut live = all.clone();
            for r in removals {
                let true_max = live.iter().copied().max().unwrap_or(U256::ZERO);
                let tracked = c.max();
                prop_assert!(tracked >= true_max);
                // Stale by less than one class: same class as the true maximum.
                if !true_max.is_zero() {
                    prop_assert_eq!(class_of(tracked), class_of(true_max));
                }
                if live.is_empty() {
                    break;
                }
                let w = live.remove(r.index(live.len()));
                c.remove(w).unwrap();
            }
            if live.is_empty() {
                prop_assert_eq!(c.max(), U256::ZERO);
            }
        }

        #[test]
        fn exact_when_classes_distinct(
            ws in prop::collection::vec(weight(), 1..12),
            removals in prop::collection::vec(any::<prop::sample::Index>(), 0..12),
        ) {
            let mut live: Vec<U256> = Vec::new();
            for w in ws {
                if live.iter().all(|x| class_of(*x) != class_of(w)) {
                    live.push(w);
                }
            }
            let mut c = WeightClasses::new();
            for w in &live {
                c.insert(*w).unwrap();
            }
            for r in removals {
                prop_assert_eq!(c.max(), live.iter().copied().max().unwrap_or(U256::ZERO));
                if live.is_empty() {
                    break;
                }
                let w = live.remove(r.index(live.len()));
                c.remove(w).unwrap();
            }
            prop_assert_eq!(c.max(), live.iter().copied().max().unwrap_or(U256::ZERO));
        }
    }
}
