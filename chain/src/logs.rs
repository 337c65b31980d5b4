//! Log paging, once for the app and the operator: every `eth_getLogs` scan goes through [`read_logs`]
//! (D3). A scan is cut into windows of the network's log range (D1 settings, default 10,000 blocks), and up
//! to the network's requests in flight (default [`DEFAULT_LOG_REQUESTS`]) windows are read at once; the
//! logs come back in chain order whatever order the answers arrive in. Inside a window, a range the node
//! refuses ("range too large", "too many results", the wordings public nodes use) is halved and read again,
//! down to a single block, and the range grows back (doubling, up to the limit) after each answer; the
//! smallest range a node accepted is where the windows after it start. Where a contract records the blocks of
//! its events (D12), the reader asks for exactly those blocks instead, joined by [`block_runs`].

use futures_util::stream::{self, StreamExt, TryStreamExt};
use std::cell::Cell;
use std::future::Future;

/// `eth_getLogs` requests of one scan in flight at once, by default: a scan of a long chain costs about a
/// quarter of the round trips' time in sequence, and stays well inside a public node's per-second limits.
pub const DEFAULT_LOG_REQUESTS: usize = 4;
/// The most a network's settings may ask for.
pub const MAX_LOG_REQUESTS: usize = 16;

/// What [`read_logs`] needs to know of a transport's error.
pub trait PageError: Sized {
    /// Whether the node asks for fewer blocks (see [`refuses_range`] for the wordings).
    fn refuses_range(&self) -> bool;
    /// The same error, naming the block range `[lo, hi]` it happened on.
    fn in_range(self, lo: u64, hi: u64) -> Self;
}

/// Whether a node's error message means "ask for fewer blocks": the wordings of geth ("exceed maximum
/// block range"), Infura ("query returned more than 10000 results"), Alchemy ("Log response size
/// exceeded"), QuickNode ("is limited to a 10,000 range"), Ankr ("block range is too wide") and others
/// ("range too large", "too many results", "limit exceeded").
pub fn refuses_range(message: &str) -> bool {
    let m = message.to_lowercase();
    [
        "range too large",
        "range is too large",
        "block range",
        "too many results",
        "more than",
        "response size",
        "limited to",
        "too wide",
        "limit exceeded",
        "query timeout",
    ]
    .iter()
    .any(|w| m.contains(w))
}

/// Reads the logs of blocks `[from, to]` through `fetch(lo, hi)` (one `eth_getLogs` of `[lo, hi]`, in
/// whichever log type the transport has): windows of `max_range` blocks, up to `in_flight` of them at once
/// (at least 1), each paged and split as the module doc says; the logs in chain order.
///
/// # Errors
/// The first error, in chain order, that is not a refused range (or a refused single block), naming its
/// range.
pub async fn read_logs<T, E, F, Fut>(
    fetch: F,
    from: u64,
    to: u64,
    max_range: u64,
    in_flight: usize,
) -> Result<Vec<T>, E>
where
    E: PageError,
    F: Fn(u64, u64) -> Fut,
    Fut: Future<Output = Result<Vec<T>, E>>,
{
    let max_range = max_range.max(1);
    let accepted = Cell::new(max_range);
    let windows = windows(from, to, max_range);
    let pages: Vec<Vec<T>> =
        stream::iter(windows.map(|(lo, hi)| read_window(&fetch, lo, hi, &accepted)))
            .buffered(in_flight.max(1))
            .try_collect()
            .await?;
    Ok(pages.into_iter().flatten().collect())
}

/// The recorded blocks of an event index (D12: `EventBlocks.eventBlocks`), ascending, as the fewest
/// `eth_getLogs` ranges that cover exactly them: consecutive blocks join one range of at most `max_range`
/// blocks, any gap starts a new one. Duplicates and disorder are tolerated (the blocks are sorted first).
pub fn block_runs(blocks: &[u64], max_range: u64) -> Vec<(u64, u64)> {
    let max_range = max_range.max(1);
    let mut sorted = blocks.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut runs: Vec<(u64, u64)> = Vec::new();
    for b in sorted {
        match runs.last_mut() {
            Some((lo, hi)) if hi.checked_add(1) == Some(b) && b - *lo < max_range => *hi = b,
            _ => runs.push((b, b)),
        }
    }
    runs
}

/// `[from, to]` cut into consecutive windows of `size` blocks (the last one shorter), in chain order.
fn windows(from: u64, to: u64, size: u64) -> impl Iterator<Item = (u64, u64)> {
    let mut lo = Some(from).filter(|&f| f <= to);
    std::iter::from_fn(move || {
        let l = lo?;
        let hi = l.saturating_add(size - 1).min(to);
        lo = hi.checked_add(1).filter(|&n| n <= to);
        Some((l, hi))
    })
}

/// One window `[from, to]` in chain order, starting at the smallest range the node accepted so far
/// (`accepted`, shared by the scan's windows) and lowering it when the node refuses.
async fn read_window<T, E, F, Fut>(
    fetch: &F,
    from: u64,
    to: u64,
    accepted: &Cell<u64>,
) -> Result<Vec<T>, E>
where
    E: PageError,
    F: Fn(u64, u64) -> Fut,
    Fut: Future<Output = Result<Vec<T>, E>>,
{
    let max_range = (to - from).saturating_add(1);
    let mut range = accepted.get().min(max_range);
    let mut out = Vec::new();
    let mut lo = from;
    while lo <= to {
        let hi = lo.saturating_add(range - 1).min(to);
        match fetch(lo, hi).await {
            Ok(mut logs) => {
                out.append(&mut logs);
                if hi == to {
                    break;
                }
                lo = hi + 1;
                range = range.saturating_mul(2).min(max_range);
            }
            Err(e) if hi > lo && e.refuses_range() => {
                range = (hi - lo).div_ceil(2).max(1);
                accepted.set(accepted.get().min(range));
            }
            Err(e) => return Err(e.in_range(lo, hi)),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_wordings_for_too_large_are_recognised() {
        for m in [
            "exceed maximum block range: 5000",
            "query returned more than 10000 results",
            "Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range",
            "eth_getLogs is limited to a 10,000 range",
            "block range is too wide",
            "range too large",
        ] {
            assert!(refuses_range(m), "{m}");
        }
        assert!(!refuses_range("nonce too low"));
    }

    /// A node that holds one log per block, refuses ranges over `cap` blocks, and records what it was
    /// asked and how many requests were in flight at most.
    struct Node {
        cap: u64,
        asked: std::cell::RefCell<Vec<(u64, u64)>>,
        in_flight: Cell<usize>,
        most: Cell<usize>,
    }

    #[derive(Debug, PartialEq)]
    enum Failure {
        TooWide,
        Down(u64, u64),
    }

    impl PageError for Failure {
        fn refuses_range(&self) -> bool {
            *self == Failure::TooWide
        }
        fn in_range(self, lo: u64, hi: u64) -> Self {
            match self {
                Failure::TooWide => Failure::Down(lo, hi),
                other => other,
            }
        }
    }

    impl Node {
        fn new(cap: u64) -> Self {
            Node {
                cap,
                asked: Default::default(),
                in_flight: Cell::new(0),
                most: Cell::new(0),
            }
        }

        async fn get(&self, lo: u64, hi: u64) -> Result<Vec<u64>, Failure> {
            self.asked.borrow_mut().push((lo, hi));
            self.in_flight.set(self.in_flight.get() + 1);
            self.most.set(self.most.get().max(self.in_flight.get()));
            // Let the other windows start before this one answers.
            yield_now().await;
            self.in_flight.set(self.in_flight.get() - 1);
            if hi - lo + 1 > self.cap {
                return Err(Failure::TooWide);
            }
            Ok((lo..=hi).collect())
        }
    }

    /// Pending once, so that `buffered` polls the next window.
    async fn yield_now() {
        let mut once = false;
        std::future::poll_fn(|cx| {
            if once {
                std::task::Poll::Ready(())
            } else {
                once = true;
                cx.waker().wake_by_ref();
                std::task::Poll::Pending
            }
        })
        .await
    }

    fn scan(
        node: &Node,
        from: u64,
        to: u64,
        range: u64,
        in_flight: usize,
    ) -> Result<Vec<u64>, Failure> {
        futures::executor::block_on(read_logs(
            |lo, hi| node.get(lo, hi),
            from,
            to,
            range,
            in_flight,
        ))
    }

    #[test]
    fn recorded_blocks_become_the_fewest_ranges_within_the_log_range() {
        assert_eq!(block_runs(&[], 10), []);
        assert_eq!(block_runs(&[7], 10), [(7, 7)]);
        assert_eq!(
            block_runs(&[3, 4, 5, 9, 10, 20], 10),
            [(3, 5), (9, 10), (20, 20)]
        );
        assert_eq!(block_runs(&[1, 2, 3, 4, 5], 2), [(1, 2), (3, 4), (5, 5)]);
        assert_eq!(block_runs(&[5, 3, 4, 4], 0), [(3, 3), (4, 4), (5, 5)]);
        assert_eq!(
            block_runs(&[u64::MAX - 1, u64::MAX], 5),
            [(u64::MAX - 1, u64::MAX)]
        );
    }

    proptest::proptest! {
        /// The ranges cover exactly the blocks given, none longer than the log range, in order, apart.
        #[test]
        fn block_runs_cover_exactly_the_blocks(
            blocks in proptest::collection::vec(0u64..200, 0..60),
            max_range in 0u64..12,
        ) {
            let runs = block_runs(&blocks, max_range);
            let covered: Vec<u64> = runs.iter().flat_map(|&(lo, hi)| lo..=hi).collect();
            let mut want = blocks.clone();
            want.sort_unstable();
            want.dedup();
            proptest::prop_assert_eq!(covered, want);
            for w in runs.windows(2) {
                proptest::prop_assert!(w[0].1 < w[1].0);
            }
            for (lo, hi) in runs {
                proptest::prop_assert!(hi - lo < max_range.max(1));
            }
        }
    }

    #[test]
    fn windows_cover_the_range_once_in_order() {
        assert_eq!(
            windows(5, 14, 4).collect::<Vec<_>>(),
            [(5, 8), (9, 12), (13, 14)]
        );
        assert_eq!(windows(5, 5, 4).collect::<Vec<_>>(), [(5, 5)]);
        assert_eq!(windows(6, 5, 4).count(), 0);
        assert_eq!(
            windows(u64::MAX - 1, u64::MAX, 10).collect::<Vec<_>>(),
            [(u64::MAX - 1, u64::MAX)]
        );
    }

    #[test]
    fn a_scan_reads_its_windows_at_once_and_answers_in_chain_order() {
        let node = Node::new(100);
        let logs = scan(&node, 1, 1_000, 100, 4).unwrap();
        assert_eq!(logs, (1..=1_000).collect::<Vec<_>>());
        assert_eq!(node.asked.borrow().len(), 10, "one request per window");
        assert_eq!(node.most.get(), 4, "never more than the limit in flight");
        let one = Node::new(100);
        scan(&one, 1, 1_000, 100, 1).unwrap();
        assert_eq!(one.most.get(), 1);
    }

    #[test]
    fn a_refused_range_is_halved_and_later_windows_start_at_what_was_accepted() {
        let node = Node::new(30);
        let logs = scan(&node, 0, 399, 100, 1).unwrap();
        assert_eq!(logs, (0..400).collect::<Vec<_>>());
        let asked = node.asked.borrow();
        // The first window learns 25 (100 → 50 → 25); the next windows start there and grow back to 50.
        assert_eq!(&asked[..3], &[(0, 99), (0, 49), (0, 24)]);
        assert_eq!(
            asked[asked.iter().position(|&(lo, _)| lo == 100).unwrap()],
            (100, 124)
        );
        assert!(asked.iter().all(|&(lo, hi)| hi - lo < 100));
    }

    #[test]
    fn a_node_that_refuses_one_block_fails_the_scan_naming_it() {
        let node = Node::new(0);
        assert_eq!(scan(&node, 7, 9, 10, 2), Err(Failure::Down(7, 7)));
    }
}
