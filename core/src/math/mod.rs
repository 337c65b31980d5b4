//! Fixed-point arithmetic on `U256` (WAD = 10^18), with 512-bit intermediates.
//!
//! Every function that divides names its rounding direction (`_down` / `_up`). Overflow and
//! division by zero are returned as [`MathError`], never panics.

mod full_math;
pub mod points;
mod wad;

pub use full_math::{mul_div_down, mul_div_up, mul_shr_down};
pub use wad::{
    checked_add, checked_sub, format_wad, parse_wad, wad_div_down, wad_div_up, wad_mul_down,
    wad_mul_up, WAD,
};

pub use alloy_primitives::{I256, U256};
pub use ruint::aliases::U512;

/// Why an integer operation could not produce a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MathError {
    /// A division (or `mul_div`) by zero.
    #[error("division by zero")]
    DivisionByZero,
    /// The exact result does not fit in 256 bits.
    #[error("overflow: the result does not fit in 256 bits")]
    Overflow,
    /// A subtraction would go below zero.
    #[error("underflow: the result would be negative")]
    Underflow,
}

/// Shorthands for tests across the crate.
#[cfg(test)]
pub(crate) mod testing {
    use alloy_primitives::U256;

    /// `U256::from(x)`.
    pub(crate) fn u(x: u128) -> U256 {
        U256::from(x)
    }

    /// One whole 18-decimal token (10^18) as a `u128`.
    pub(crate) const E18: u128 = 1_000_000_000_000_000_000;

    /// Any `U256`, weighted toward the edges: full width, 128- and 64-bit values, 0 and `MAX`.
    pub(crate) fn any_u256() -> impl proptest::strategy::Strategy<Value = U256> {
        use proptest::prelude::*;
        prop_oneof![
            any::<[u64; 4]>().prop_map(U256::from_limbs),
            any::<u128>().prop_map(U256::from),
            any::<u64>().prop_map(U256::from),
            Just(U256::ZERO),
            Just(U256::MAX),
        ]
    }
}
