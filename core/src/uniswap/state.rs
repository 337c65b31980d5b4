//! A Uniswap v4 `PoolManager`'s pool state read through `extsload`, as v4-core's
//! `StateLibrary` does: the storage slot of a pool's `Pool.State`, its `Slot0` word decoded, and
//! its in-range liquidity (B5 buyback, C20 graduation, the launch and duel pages' prices).
//!
//! `Pool.State` lives in `PoolManager`'s `pools` mapping at [`POOLS_SLOT`]; its first word is
//! `Slot0` (`sqrtPriceX96` in bits 0–159, `tick` int24 in 160–183, `protocolFee` in 184–207,
//! `lpFee` in 208–231) and its liquidity is [`LIQUIDITY_OFFSET`] words further.

use alloy_primitives::{keccak256, Address, B256, U256};
use alloy_sol_types::SolValue;

/// `StateLibrary.POOLS_SLOT`: the `pools` mapping's slot in `PoolManager`.
pub const POOLS_SLOT: U256 = U256::from_limbs([6, 0, 0, 0]);

/// `StateLibrary.LIQUIDITY_OFFSET`: `Pool.State.liquidity`'s word offset.
pub const LIQUIDITY_OFFSET: U256 = U256::from_limbs([3, 0, 0, 0]);

/// `PoolId` of a `PoolKey`: `keccak256(abi.encode(currency0, currency1, fee, tickSpacing,
/// hooks))` (`PoolIdLibrary.toId`).
pub fn pool_id(
    currency0: Address,
    currency1: Address,
    fee: u32,
    tick_spacing: i32,
    hooks: Address,
) -> B256 {
    // Each field in its own 32-byte word, as abi.encode of the struct (uint24 / int24 widened
    // with their sign).
    let spacing = alloy_primitives::I256::try_from(tick_spacing).unwrap_or_default();
    keccak256((currency0, currency1, U256::from(fee), spacing, hooks).abi_encode())
}

/// `StateLibrary._getPoolStateSlot`: `keccak256(abi.encodePacked(poolId, POOLS_SLOT))`, the
/// slot of the pool's `Slot0` word.
pub fn pool_state_slot(pool_id: B256) -> B256 {
    keccak256((pool_id, POOLS_SLOT).abi_encode())
}

/// The slot of the pool's in-range liquidity (`StateLibrary.getLiquidity`).
pub fn liquidity_slot(pool_id: B256) -> B256 {
    B256::from(U256::from_be_bytes(pool_state_slot(pool_id).0).wrapping_add(LIQUIDITY_OFFSET))
}

/// A pool's `Slot0`, as `StateLibrary.getSlot0` decodes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot0 {
    /// The current price, Q64.96 (zero for a pool never initialised).
    pub sqrt_price_x96: U256,
    /// The current tick (int24).
    pub tick: i32,
    /// The protocol fee (two 12-bit values, one per direction).
    pub protocol_fee: u32,
    /// The LP fee in hundredths of a bip.
    pub lp_fee: u32,
}

impl Slot0 {
    /// Decodes the `Slot0` word read at [`pool_state_slot`].
    pub fn from_word(word: B256) -> Self {
        let w = U256::from_be_bytes(word.0);
        let bits24 = |shift: usize| (w >> shift).as_limbs()[0] as u32 & 0x00FF_FFFF;
        let tick24 = bits24(160);
        Slot0 {
            sqrt_price_x96: w & ((U256::from(1u8) << 160) - U256::from(1u8)),
            // int24 → i32 with its sign: shift the 24 bits to the top and back.
            tick: ((tick24 << 8) as i32) >> 8,
            protocol_fee: bits24(184),
            lp_fee: bits24(208),
        }
    }

    /// The word these values are stored as (for tests and fixtures).
    pub fn to_word(&self) -> B256 {
        let tick24 = U256::from((self.tick as u32) & 0x00FF_FFFF);
        let w: U256 = (self.sqrt_price_x96 & ((U256::from(1u8) << 160) - U256::from(1u8)))
            | (tick24 << 160usize)
            | (U256::from(self.protocol_fee & 0x00FF_FFFF) << 184usize)
            | (U256::from(self.lp_fee & 0x00FF_FFFF) << 208usize);
        B256::from(w.to_be_bytes::<32>())
    }
}

/// The liquidity word read at [`liquidity_slot`] (a `uint128`; higher bits are not part of it).
pub fn liquidity_from_word(word: B256) -> u128 {
    let w = U256::from_be_bytes(word.0);
    let limbs = w.as_limbs();
    u128::from(limbs[0]) | (u128::from(limbs[1]) << 64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uniswap::tick_math::{get_sqrt_price_at_tick, MAX_TICK, MIN_TICK};
    use alloy_primitives::{address, b256};
    use alloy_sol_types::sol;
    use proptest::prelude::*;

    sol! {
        struct PoolKey { address currency0; address currency1; uint24 fee; int24 tickSpacing; address hooks; }
    }

    #[test]
    fn pool_id_is_keccak_of_the_abi_encoded_key() {
        for (fee, spacing) in [(3000u32, 60i32), (0x80_0000, -1), (0, 1), (10_000, 200)] {
            let key = PoolKey {
                currency0: Address::ZERO,
                currency1: address!("00000000000000000000000000000000000000aa"),
                fee: alloy_primitives::aliases::U24::from(fee),
                tickSpacing: alloy_primitives::aliases::I24::try_from(spacing).unwrap(),
                hooks: address!("00000000000000000000000000000000000000bb"),
            };
            assert_eq!(
                pool_id(key.currency0, key.currency1, fee, spacing, key.hooks),
                keccak256(key.abi_encode())
            );
        }
    }

    #[test]
    fn state_slot_is_keccak_of_id_and_slot_6() {
        let id = b256!("1111111111111111111111111111111111111111111111111111111111111111");
        let mut packed = [0u8; 64];
        packed[..32].copy_from_slice(id.as_slice());
        packed[63] = 6;
        assert_eq!(pool_state_slot(id), keccak256(packed));
        assert_eq!(
            U256::from_be_bytes(liquidity_slot(id).0),
            U256::from_be_bytes(keccak256(packed).0) + U256::from(3)
        );
    }

    #[test]
    fn slot0_fields_and_negative_ticks() {
        let s = Slot0 {
            sqrt_price_x96: get_sqrt_price_at_tick(-887_272).unwrap(),
            tick: -887_272,
            protocol_fee: 0x00A_00B,
            lp_fee: 3000,
        };
        assert_eq!(Slot0::from_word(s.to_word()), s);
        // The bit layout: tick −1 is 0xFFFFFF at bits 160–183.
        let w = Slot0 {
            sqrt_price_x96: U256::ZERO,
            tick: -1,
            protocol_fee: 0,
            lp_fee: 0,
        }
        .to_word();
        assert_eq!(
            U256::from_be_bytes(w.0),
            U256::from(0xFF_FFFFu32) << 160usize
        );
        assert_eq!(
            liquidity_from_word(B256::from(U256::MAX.to_be_bytes::<32>())),
            u128::MAX
        );
    }

    proptest! {
        #[test]
        fn slot0_round_trips(tick in MIN_TICK..=MAX_TICK, pf in 0u32..(1 << 24), fee in 0u32..(1 << 24)) {
            let s = Slot0 {
                sqrt_price_x96: get_sqrt_price_at_tick(i64::from(tick)).unwrap(),
                tick,
                protocol_fee: pf,
                lp_fee: fee,
            };
            prop_assert_eq!(Slot0::from_word(s.to_word()), s);
        }
    }
}
