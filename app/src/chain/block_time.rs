//! Blocks by the chain's clock (issue 39's 24 h change): where a moment falls among blocks, from block
//! headers read in batches, never one header per round trip.
//!
//! - [`block_at_or_before`]: a block at or before a moment. The headers at `head − 2^k` (k = 6 … 24) and
//!   the head's own come in one batch; the latest of them at or before the moment is the answer. When the
//!   moment is at least 64 blocks back, it is at most twice as far back as the moment's own block, so a
//!   window read from it reads at most twice the window.
//! - [`first_at_or_after`]: in a sorted list of blocks (the blocks a read's logs are in), the first whose
//!   time is at or after a moment. Each round trip reads up to [`PROBES`] headers spread over what is
//!   left ([`Search`]), so a list of n blocks takes about ⌈log₃₂ n⌉ round trips.
//!
//! Block times never go down along the chain, which both rely on.

use crate::chain::rpc::{Rpc, RpcError};
use std::collections::BTreeMap;

/// Headers read per round trip of [`first_at_or_after`].
pub const PROBES: usize = 32;

/// The ladder [`block_at_or_before`] reads: the head, then `head − 2^k` for k = 6 … 24 (none below
/// block 0), newest first.
pub fn ladder(head: u64) -> Vec<u64> {
    let mut v: Vec<u64> = std::iter::once(head)
        .chain((6..=24).map(|k| head.saturating_sub(1 << k)))
        .collect();
    v.dedup();
    v
}

/// The latest of `times` (block → time) at or before `moment`; the earliest block read when none is
/// (a chain with more than 2^24 blocks after the moment: the window is then cut there).
fn latest_at_or_before(times: &BTreeMap<u64, u64>, moment: u64) -> u64 {
    times
        .iter()
        .rev()
        .find(|(_, &t)| t <= moment)
        .or_else(|| times.iter().next())
        .map_or(0, |(&b, _)| b)
}

/// A block at or before `moment` (unix seconds), at most twice as far from `head` as the moment's own
/// block when that is 64 blocks or more back, in one round trip. `head` itself when the head is that
/// old (nothing happened since).
///
/// # Errors
/// When a header cannot be read.
pub async fn block_at_or_before(rpc: &Rpc, head: u64, moment: u64) -> Result<u64, RpcError> {
    let times = rpc.block_timestamps(&ladder(head)).await?;
    Ok(latest_at_or_before(&times, moment))
}

/// A search in a sorted list of blocks for the first whose time is at or after a moment: every index
/// below `lo` is known to be earlier, every index from `hi` on at or after.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Search {
    lo: usize,
    hi: usize,
}

impl Search {
    /// A search over `len` blocks.
    pub fn new(len: usize) -> Self {
        Self { lo: 0, hi: len }
    }

    /// The answer, once [`Self::probes`] is empty: the first index at or after the moment (`len` when none is).
    pub fn found(&self) -> Option<usize> {
        (self.lo >= self.hi).then_some(self.lo)
    }

    /// The indexes to read next: all that are left when they are [`PROBES`] or fewer, otherwise
    /// [`PROBES`] spread evenly from `lo`.
    pub fn probes(&self) -> Vec<usize> {
        let n = self.hi - self.lo;
        if n <= PROBES {
            return (self.lo..self.hi).collect();
        }
        let mut v: Vec<usize> = (0..PROBES).map(|j| self.lo + n * j / PROBES).collect();
        v.dedup();
        v
    }

    /// Narrows the search with the times read for `probes` (ascending): `at_or_after(i)` says whether
    /// index `i`'s block is at or after the moment.
    pub fn narrow(&mut self, probes: &[usize], at_or_after: impl Fn(usize) -> bool) {
        for &i in probes {
            if at_or_after(i) {
                self.hi = i;
                return;
            }
            self.lo = i + 1;
        }
    }
}

/// The index of the first of `blocks` (ascending) whose time is at or after `moment`; `blocks.len()`
/// when none is.
///
/// # Errors
/// When a header cannot be read.
pub async fn first_at_or_after(rpc: &Rpc, blocks: &[u64], moment: u64) -> Result<usize, RpcError> {
    let mut s = Search::new(blocks.len());
    loop {
        if let Some(i) = s.found() {
            return Ok(i);
        }
        let probes = s.probes();
        let numbers: Vec<u64> = probes.iter().map(|&i| blocks[i]).collect();
        let times = rpc.block_timestamps(&numbers).await?;
        s.narrow(&probes, |i| {
            times.get(&blocks[i]).is_some_and(|&t| t >= moment)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ladder_is_the_head_then_powers_of_two_back() {
        let l = ladder(100_000_000);
        assert_eq!(l.len(), 20);
        assert_eq!(&l[..3], &[100_000_000, 100_000_000 - 64, 100_000_000 - 128]);
        assert_eq!(*l.last().unwrap(), 100_000_000 - (1 << 24));
        // A young chain: the rungs below block 0 are block 0, once.
        assert_eq!(ladder(100), vec![100, 36, 0]);
    }

    #[test]
    fn the_latest_rung_at_or_before_the_moment() {
        let times: BTreeMap<u64, u64> = [(0, 0), (36, 500), (100, 1_000)].into();
        assert_eq!(latest_at_or_before(&times, 600), 36);
        assert_eq!(latest_at_or_before(&times, 1_000), 100);
        assert_eq!(latest_at_or_before(&times, 0), 0);
        let late: BTreeMap<u64, u64> = [(5, 50), (9, 90)].into();
        assert_eq!(
            latest_at_or_before(&late, 10),
            5,
            "none at or before: the earliest read"
        );
    }

    /// Runs a search against block times `time(block)`: the answer and the round trips it took.
    fn run(blocks: &[u64], moment: u64, time: impl Fn(u64) -> u64) -> (usize, usize) {
        let mut s = Search::new(blocks.len());
        let mut rounds = 0;
        while s.found().is_none() {
            let p = s.probes();
            assert!(!p.is_empty() && p.len() <= PROBES);
            s.narrow(&p, |i| time(blocks[i]) >= moment);
            rounds += 1;
        }
        (s.found().unwrap(), rounds)
    }

    #[test]
    fn an_empty_list_needs_no_read() {
        assert_eq!(run(&[], 5, |b| b), (0, 0));
    }

    // proptest is a native dev-dependency only (the app's tests also run as wasm in Chromium).
    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            /// The answer is a linear scan's, in at most ⌈log₃₂ n⌉ + 1 round trips.
            #[test]
            fn finds_what_a_scan_finds(
                gaps in proptest::collection::vec(1u64..50, 0..3_000),
                secs in 1u64..15,
                moment in 0u64..600_000,
            ) {
                let blocks: Vec<u64> = gaps.iter().scan(0u64, |b, g| { *b += g; Some(*b) }).collect();
                let time = |b: u64| b * secs;
                let (i, rounds) = run(&blocks, moment, time);
                let scan = blocks.iter().position(|&b| time(b) >= moment).unwrap_or(blocks.len());
                prop_assert_eq!(i, scan);
                let mut bound = 1;
                let mut n = PROBES;
                while n < blocks.len() { n *= PROBES; bound += 1; }
                prop_assert!(rounds <= bound + 1, "{} rounds for {} blocks", rounds, blocks.len());
            }
        }
    }
}
