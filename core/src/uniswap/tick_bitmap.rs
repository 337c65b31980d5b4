//! v4-core's `TickBitmap` over words read through `PoolManager.extsload` (`StateLibrary`
//! `getTickBitmap`, `getTickLiquidity`): where the next initialized tick is, and how much
//! liquidity crossing it adds or removes (D7 pool quote).
//!
//! A pool's bitmap is `mapping(int16 => uint256)`: bit `compressed & 0xff` of word
//! `compressed >> 8` is set when tick `compressed * tickSpacing` is initialized.

use alloy_primitives::{keccak256, B256, I256, U256};
use alloy_sol_types::SolValue;

use super::state::pool_state_slot;

/// `StateLibrary.TICKS_OFFSET`: `Pool.State.ticks`' word offset.
pub const TICKS_OFFSET: U256 = U256::from_limbs([4, 0, 0, 0]);

/// `StateLibrary.TICK_BITMAP_OFFSET`: `Pool.State.tickBitmap`'s word offset.
pub const TICK_BITMAP_OFFSET: U256 = U256::from_limbs([5, 0, 0, 0]);

/// `keccak256(abi.encodePacked(int256(key), mappingSlot))`: a signed key's slot in a mapping.
fn mapping_slot(key: i64, mapping: B256) -> B256 {
    let base = U256::from_be_bytes(mapping.0);
    keccak256((I256::try_from(key).unwrap_or_default(), base).abi_encode())
}

/// The slot of `pools[poolId].tickBitmap[word]` (`StateLibrary.getTickBitmap`).
pub fn bitmap_word_slot(pool_id: B256, word: i16) -> B256 {
    let base = U256::from_be_bytes(pool_state_slot(pool_id).0) + TICK_BITMAP_OFFSET;
    mapping_slot(i64::from(word), B256::from(base.to_be_bytes::<32>()))
}

/// The slot of `pools[poolId].ticks[tick]`'s first word (`StateLibrary._getTickInfoSlot`):
/// `liquidityGross` in its low 128 bits, `liquidityNet` in its high 128.
pub fn tick_info_slot(pool_id: B256, tick: i32) -> B256 {
    let base = U256::from_be_bytes(pool_state_slot(pool_id).0) + TICKS_OFFSET;
    mapping_slot(i64::from(tick), B256::from(base.to_be_bytes::<32>()))
}

/// `liquidityNet` from a tick info word (`sar(128, value)`).
pub fn liquidity_net_from_word(word: B256) -> i128 {
    i128::from_be_bytes(word.0[..16].try_into().unwrap_or([0; 16]))
}

/// `TickBitmap.compress`: `tick / tickSpacing` rounded toward negative infinity
/// (`tickSpacing > 0`, as every pool's is).
pub fn compress(tick: i32, tick_spacing: i32) -> i32 {
    tick.div_euclid(tick_spacing)
}

/// `TickBitmap.position`: the word (`compressed >> 8`, arithmetic) and the bit (`compressed & 0xff`).
pub fn position(compressed: i32) -> (i16, u8) {
    ((compressed >> 8) as i16, (compressed & 0xff) as u8)
}

/// The bitmap words one step of a swap reads: `nextInitializedTickWithinOneWord(tick, spacing,
/// lte)` looks at exactly this word.
pub fn word_for_step(tick: i32, tick_spacing: i32, lte: bool) -> i16 {
    let compressed = compress(tick, tick_spacing);
    position(if lte { compressed } else { compressed + 1 }).0
}

/// `TickBitmap.nextInitializedTickWithinOneWord`, given the one word it reads
/// ([`word_for_step`]): the next initialized tick at or left of `tick` (`lte`) or right of
/// it, or the word's edge when none is, and whether it is initialized.
pub fn next_initialized_tick_within_one_word(
    word: U256,
    tick: i32,
    tick_spacing: i32,
    lte: bool,
) -> (i32, bool) {
    let compressed = compress(tick, tick_spacing);
    if lte {
        let (_, bit) = position(compressed);
        // All bits at or right of `bit`.
        let mask = U256::MAX >> (255 - usize::from(bit));
        let masked = word & mask;
        if masked.is_zero() {
            ((compressed - i32::from(bit)) * tick_spacing, false)
        } else {
            let msb = (masked.bit_len() - 1) as i32;
            ((compressed - (i32::from(bit) - msb)) * tick_spacing, true)
        }
    } else {
        let compressed = compressed + 1;
        let (_, bit) = position(compressed);
        // All bits at or left of `bit`.
        let mask = !((U256::from(1u8) << usize::from(bit)) - U256::from(1u8));
        let masked = word & mask;
        if masked.is_zero() {
            ((compressed + (255 - i32::from(bit))) * tick_spacing, false)
        } else {
            let lsb = masked.trailing_zeros() as i32;
            ((compressed + (lsb - i32::from(bit))) * tick_spacing, true)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A bitmap with the given ticks set, as `flipTick` would.
    fn words(ticks: &[i32], spacing: i32) -> std::collections::BTreeMap<i16, U256> {
        let mut m = std::collections::BTreeMap::new();
        for &t in ticks {
            assert_eq!(t % spacing, 0);
            let (w, b) = position(t / spacing);
            *m.entry(w).or_insert(U256::ZERO) ^= U256::from(1u8) << usize::from(b);
        }
        m
    }

    /// The reference: scan tick by tick within the word the contract reads.
    fn scan(set: &[i32], tick: i32, spacing: i32, lte: bool) -> (i32, bool) {
        let c = compress(tick, spacing);
        if lte {
            let (w, _) = position(c);
            let lo = i32::from(w) * 256;
            for k in (lo..=c).rev() {
                if set.contains(&(k * spacing)) {
                    return (k * spacing, true);
                }
            }
            (lo * spacing, false)
        } else {
            let (w, _) = position(c + 1);
            let hi = i32::from(w) * 256 + 255;
            for k in (c + 1)..=hi {
                if set.contains(&(k * spacing)) {
                    return (k * spacing, true);
                }
            }
            (hi * spacing, false)
        }
    }

    #[test]
    fn compress_rounds_toward_negative_infinity() {
        assert_eq!(compress(-1, 60), -1);
        assert_eq!(compress(-60, 60), -1);
        assert_eq!(compress(-61, 60), -2);
        assert_eq!(compress(59, 60), 0);
        assert_eq!(compress(887_272, 60), 14_787);
        assert_eq!(position(-1), (-1, 255));
        assert_eq!(position(256), (1, 0));
    }

    /// v4-core's `test/libraries/TickBitmap.t.sol` cases: spacing 1, its `setUp` flips -10000,
    /// -200, -55, -4, 70, 78, 84, 139 and 240 (not 535: its loop stops one short).
    #[test]
    fn v4_core_tick_bitmap_cases() {
        let set = [-10_000, -200, -55, -4, 70, 78, 84, 139, 240];
        let at = |set: &[i32], tick: i32, lte: bool| {
            let m = words(set, 1);
            let w = *m.get(&word_for_step(tick, 1, lte)).unwrap_or(&U256::ZERO);
            next_initialized_tick_within_one_word(w, tick, 1, lte)
        };
        let next = |tick: i32, lte: bool| at(&set, tick, lte);
        // "returnsTheNextInitializedTickFromTheNextWord": 340 flipped first.
        let mut with_340 = set.to_vec();
        with_340.push(340);
        assert_eq!(at(&with_340, 328, false), (340, true));
        assert_eq!(next(508, false), (511, false));
        assert_eq!(next(383, false), (511, false));
        // lte = false
        assert_eq!(next(78, false), (84, true));
        assert_eq!(next(-55, false), (-4, true));
        assert_eq!(next(77, false), (78, true));
        assert_eq!(next(-56, false), (-55, true));
        assert_eq!(next(255, false), (511, false));
        assert_eq!(next(-257, false), (-200, true));
        // lte = true
        assert_eq!(next(78, true), (78, true));
        assert_eq!(next(79, true), (78, true));
        assert_eq!(next(258, true), (256, false));
        assert_eq!(next(256, true), (256, false));
        assert_eq!(next(72, true), (70, true));
        assert_eq!(next(-257, true), (-512, false));
        assert_eq!(next(1023, true), (768, false));
        assert_eq!(next(900, true), (768, false));
    }

    proptest! {
        #[test]
        fn next_tick_matches_a_scan(
            spacing in prop::sample::select(vec![1, 10, 60, 200]),
            raw in prop::collection::vec(-3000i32..3000, 0..12),
            tick in -800_000i32..800_000,
            near in -4000i32..4000,
            lte: bool,
        ) {
            // Ticks near the start, so that some steps find one.
            let tick = if near.abs() < 3000 { near } else { tick };
            let mut set: Vec<i32> = raw.iter().map(|t| t * spacing).collect();
            set.sort_unstable();
            set.dedup();
            let m = words(&set, spacing);
            let w = *m.get(&word_for_step(tick, spacing, lte)).unwrap_or(&U256::ZERO);
            prop_assert_eq!(next_initialized_tick_within_one_word(w, tick, spacing, lte), scan(&set, tick, spacing, lte));
        }
    }

    #[test]
    fn liquidity_net_is_the_signed_high_half() {
        let mut w = [0u8; 32];
        w[..16].copy_from_slice(&(-5i128).to_be_bytes());
        w[16..].copy_from_slice(&7u128.to_be_bytes());
        assert_eq!(liquidity_net_from_word(B256::from(w)), -5);
    }
}
