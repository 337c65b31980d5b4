//! Nearest-rank percentile (C1, pinned): on a column sorted ascending,
//! `P_p = x_(⌈p·n/100⌉)` (1-based rank; a rank of 0, only possible for `p = 0`, is taken as 1).
//!
//! Example (§2.2): {3,5,6,8,9,10,11,12,12,14,15,16,18,19,20,22,24,25,28,400} gives `P5 = 3`
//! (1st value) and `P95 = 28` (19th value).

use crate::math::U256;

/// Why a percentile cannot be taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PercentileError {
    /// No values.
    #[error("values: the column is empty")]
    Empty,
    /// `p` outside 0..=100.
    #[error("p: percentile {0} is outside 0..=100")]
    OutOfRange(u32),
}

/// The 1-based nearest rank `max(1, ⌈p·n/100⌉)` of percentile `p` in a column of `n` values.
///
/// # Errors
/// [`PercentileError::Empty`] for `n = 0`, [`PercentileError::OutOfRange`] for `p > 100`.
pub fn nearest_rank_position(n: usize, p: u32) -> Result<usize, PercentileError> {
    if n == 0 {
        return Err(PercentileError::Empty);
    }
    if p > 100 {
        return Err(PercentileError::OutOfRange(p));
    }
    let rank = (u128::from(p) * n as u128).div_ceil(100);
    // rank ≤ n because p ≤ 100, so it fits in usize.
    Ok((rank as usize).max(1))
}

/// `P_p` of a column **sorted ascending** (the caller sorts, once per column).
///
/// # Errors
/// As [`nearest_rank_position`].
pub fn nearest_rank(sorted: &[U256], p: u32) -> Result<U256, PercentileError> {
    let rank = nearest_rank_position(sorted.len(), p)?;
    sorted.get(rank - 1).copied().ok_or(PercentileError::Empty)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    pub(crate) fn seed_cohort() -> Vec<U256> {
        [
            3u64, 5, 6, 8, 9, 10, 11, 12, 12, 14, 15, 16, 18, 19, 20, 22, 24, 25, 28, 400,
        ]
        .into_iter()
        .map(U256::from)
        .collect()
    }

    #[test]
    fn seed_example_p5_p95() {
        let c = seed_cohort();
        assert_eq!(nearest_rank_position(20, 5), Ok(1));
        assert_eq!(nearest_rank_position(20, 95), Ok(19));
        assert_eq!(nearest_rank(&c, 5), Ok(U256::from(3u8)));
        assert_eq!(nearest_rank(&c, 95), Ok(U256::from(28u8)));
    }

    #[test]
    fn edges() {
        assert_eq!(nearest_rank(&[], 5), Err(PercentileError::Empty));
        assert_eq!(
            nearest_rank(&[U256::from(1u8)], 101),
            Err(PercentileError::OutOfRange(101))
        );
        assert_eq!(nearest_rank_position(21, 5), Ok(2)); // ⌈1.05⌉
        assert_eq!(nearest_rank_position(21, 95), Ok(20)); // ⌈19.95⌉
        assert_eq!(nearest_rank_position(7, 0), Ok(1));
        assert_eq!(nearest_rank_position(7, 100), Ok(7));
        assert_eq!(nearest_rank_position(usize::MAX, 100), Ok(usize::MAX));
    }

    proptest! {
        #[test]
        fn rank_is_within_column(n in 1usize..100_000, p in 0u32..=100) {
            let r = nearest_rank_position(n, p).unwrap();
            prop_assert!(r >= 1 && r <= n);
            // smallest rank with r·100 ≥ p·n
            prop_assert!(r as u128 * 100 >= u128::from(p) * n as u128);
            prop_assert!(r == 1 || (r as u128 - 1) * 100 < u128::from(p) * n as u128);
        }
    }
}
