//! The app's one log reader: every `eth_getLogs` goes through `eden_chain`'s [`read_logs`] (by way
//! of [`crate::chain::rpc::Rpc::get_logs`]), the paging the operator uses too: ranges in chain
//! order, at most the network's log range per request (D1 settings), a range the node refuses
//! halved and read again. Here: which of the app's errors are refusals, and rate limits. Rate
//! limits (HTTP 429) are retried with backoff one level down, in [`crate::chain::rpc::Rpc::request`],
//! for every request alike. No Leptos here.

use crate::chain::transport::RpcError;
use std::future::Future;

pub use eden_chain::logs::read_logs;

/// Whether a node's error means "ask for fewer blocks": a node error in one of the wordings
/// [`eden_chain::logs::refuses_range`] knows.
pub fn refuses_range(e: &RpcError) -> bool {
    matches!(e, RpcError::Node(m) if eden_chain::logs::refuses_range(m))
}

impl eden_chain::logs::PageError for RpcError {
    fn refuses_range(&self) -> bool {
        refuses_range(self)
    }

    /// Names the block range in a failed request's error.
    fn in_range(self, lo: u64, hi: u64) -> Self {
        let ctx = |m: String| format!("logs of blocks {lo}–{hi}: {m}");
        match self {
            RpcError::Network(m) => RpcError::Network(ctx(m)),
            RpcError::Revert(m) | RpcError::Node(m) => RpcError::Node(ctx(m)),
            RpcError::Decode(m) => RpcError::Decode(ctx(m)),
            RpcError::RateLimited(m) => RpcError::RateLimited(ctx(m)),
            http @ RpcError::Http { .. } => RpcError::Network(ctx(http.to_string())),
        }
    }
}

/// Waits before retry `attempt` (0-based) of a rate-limited request, in milliseconds: 250, 500,
/// 1,000, 2,000, 4,000; `None` after the last (about 7.75 s in all).
pub fn backoff_ms(attempt: u32) -> Option<u32> {
    (attempt < 5).then(|| 250 << attempt)
}

/// Runs `f` until it succeeds or fails with something other than [`RpcError::RateLimited`],
/// waiting [`backoff_ms`] (through `sleep`) between attempts.
///
/// # Errors
/// `f`'s error; a rate limit that outlasts the backoff.
pub async fn with_backoff<T, F, Fut, S, SFut>(mut f: F, mut sleep: S) -> Result<T, RpcError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, RpcError>>,
    S: FnMut(u32) -> SFut,
    SFut: Future<Output = ()>,
{
    let mut attempt = 0;
    loop {
        match f().await {
            Err(RpcError::RateLimited(m)) => match backoff_ms(attempt) {
                Some(ms) => {
                    sleep(ms).await;
                    attempt += 1;
                }
                None => {
                    return Err(RpcError::RateLimited(format!(
                        "{m} (still limited after {} retries)",
                        attempt
                    )))
                }
            },
            other => return other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::transport::Log;
    use alloy_primitives::{Bytes, B256, U256};
    use std::cell::RefCell;
    use std::pin::pin;
    use std::task::{Context, Poll, Waker};

    /// Polls a future whose every await is already ready (the fakes below).
    fn ready<T>(f: impl Future<Output = T>) -> T {
        let mut f = pin!(f);
        match f.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(v) => v,
            Poll::Pending => panic!("the fake node never waits"),
        }
    }

    fn log_at(block: u64) -> Log {
        Log {
            address: None,
            topics: vec![B256::ZERO],
            data: Bytes::new(),
            block_number: U256::from(block),
            transaction_hash: B256::ZERO,
            log_index: Some(U256::ZERO),
        }
    }

    /// A node with one log in each block of `logs`, refusing ranges over `max_blocks` blocks or
    /// over `max_results` logs the way public nodes answer; records each request.
    struct FakeNode {
        logs: Vec<u64>,
        max_blocks: u64,
        max_results: usize,
        asked: RefCell<Vec<(u64, u64)>>,
    }

    impl FakeNode {
        fn get(&self, lo: u64, hi: u64) -> Result<Vec<Log>, RpcError> {
            self.asked.borrow_mut().push((lo, hi));
            if hi - lo + 1 > self.max_blocks {
                return Err(RpcError::Node(format!(
                    "block range too large (max {})",
                    self.max_blocks
                )));
            }
            let hits: Vec<Log> = self
                .logs
                .iter()
                .filter(|b| (lo..=hi).contains(b))
                .map(|&b| log_at(b))
                .collect();
            if hits.len() > self.max_results {
                return Err(RpcError::Node(format!(
                    "query returned more than {} results",
                    self.max_results
                )));
            }
            Ok(hits)
        }
    }

    fn blocks(logs: &[Log]) -> Vec<u64> {
        logs.iter().map(|l| l.position().0).collect()
    }

    #[test]
    fn a_range_within_the_limit_is_one_request_per_chunk() {
        let node = FakeNode {
            logs: vec![0, 5, 9_999, 10_000, 25_000],
            max_blocks: 10_000,
            max_results: 10_000,
            asked: RefCell::default(),
        };
        let logs = ready(read_logs(
            |lo, hi| ready_fut(node.get(lo, hi)),
            0,
            25_000,
            10_000,
            1,
        ))
        .unwrap();
        assert_eq!(blocks(&logs), [0, 5, 9_999, 10_000, 25_000]);
        assert_eq!(
            *node.asked.borrow(),
            [(0, 9_999), (10_000, 19_999), (20_000, 25_000)]
        );
    }

    #[test]
    fn a_node_with_a_smaller_cap_is_split_and_still_read_in_order() {
        let node = FakeNode {
            logs: (0..3_000).step_by(7).collect(),
            max_blocks: 1_000,
            max_results: 10_000,
            asked: RefCell::default(),
        };
        let logs = ready(read_logs(
            |lo, hi| ready_fut(node.get(lo, hi)),
            0,
            2_999,
            10_000,
            1,
        ))
        .unwrap();
        assert_eq!(blocks(&logs), (0..3_000).step_by(7).collect::<Vec<_>>());
        // Every block asked exactly once among the accepted requests, in order.
        let asked = node.asked.borrow();
        let accepted: Vec<_> = asked.iter().filter(|(lo, hi)| hi - lo < 1_000).collect();
        assert_eq!(accepted.first().unwrap().0, 0);
        for w in accepted.windows(2) {
            assert_eq!(w[0].1 + 1, w[1].0);
        }
        assert_eq!(accepted.last().unwrap().1, 2_999);
        assert!(asked.len() < 20, "{} requests", asked.len());
    }

    #[test]
    fn too_many_results_splits_a_dense_range() {
        // 50 logs in 10 blocks, at most 8 results per answer.
        let node = FakeNode {
            logs: (0..10).flat_map(|b| [b; 5]).collect(),
            max_blocks: 10_000,
            max_results: 8,
            asked: RefCell::default(),
        };
        let logs = ready(read_logs(
            |lo, hi| ready_fut(node.get(lo, hi)),
            0,
            9,
            10_000,
            1,
        ))
        .unwrap();
        assert_eq!(logs.len(), 50);
        assert_eq!(
            blocks(&logs),
            (0..10).flat_map(|b| [b; 5]).collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_single_block_over_the_result_cap_is_an_error_naming_it() {
        let node = FakeNode {
            logs: vec![4; 20],
            max_blocks: 10_000,
            max_results: 8,
            asked: RefCell::default(),
        };
        let e = ready(read_logs(
            |lo, hi| ready_fut(node.get(lo, hi)),
            0,
            9,
            10_000,
            1,
        ))
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "the node answered with an error: logs of blocks 4–4: query returned more than 8 results"
        );
    }

    #[test]
    fn other_errors_stop_the_read() {
        let e = ready(read_logs(
            |_, _| {
                ready_fut(Err::<Vec<Log>, _>(RpcError::Network(
                    "connection refused".into(),
                )))
            },
            0,
            20_000,
            10_000,
            1,
        ))
        .unwrap_err();
        assert_eq!(
            e,
            RpcError::Network("logs of blocks 0–9999: connection refused".into())
        );
    }

    #[test]
    fn the_end_of_the_block_space_terminates() {
        let node = FakeNode {
            logs: vec![u64::MAX],
            max_blocks: 10,
            max_results: 10,
            asked: RefCell::default(),
        };
        let logs = ready(read_logs(
            |lo, hi| ready_fut(node.get(lo, hi)),
            u64::MAX - 5,
            u64::MAX,
            10,
            1,
        ))
        .unwrap();
        assert_eq!(blocks(&logs), [u64::MAX]);
    }

    #[test]
    fn only_a_nodes_answer_in_a_range_wording_is_a_refusal() {
        // The wordings themselves are eden_chain's (tested there).
        let m = "query returned more than 10000 results";
        assert!(refuses_range(&RpcError::Node(m.into())));
        assert!(!refuses_range(&RpcError::Network(m.into())));
        assert!(!refuses_range(&RpcError::Node("nonce too low".into())));
    }

    #[test]
    fn rate_limits_are_retried_with_growing_waits() {
        let calls = RefCell::new(0);
        let waits = RefCell::new(Vec::new());
        let r = ready(with_backoff(
            || {
                *calls.borrow_mut() += 1;
                ready_fut(if *calls.borrow() < 3 {
                    Err(RpcError::RateLimited("HTTP 429".into()))
                } else {
                    Ok(7)
                })
            },
            |ms| {
                waits.borrow_mut().push(ms);
                std::future::ready(())
            },
        ));
        assert_eq!(r, Ok(7));
        assert_eq!(*waits.borrow(), [250, 500]);
        // A limit that never lifts gives up after the last wait.
        let waits = RefCell::new(Vec::new());
        let r: Result<(), _> = ready(with_backoff(
            || ready_fut(Err(RpcError::RateLimited("HTTP 429".into()))),
            |ms| {
                waits.borrow_mut().push(ms);
                std::future::ready(())
            },
        ));
        assert_eq!(*waits.borrow(), [250, 500, 1_000, 2_000, 4_000]);
        assert_eq!(
            r,
            Err(RpcError::RateLimited(
                "HTTP 429 (still limited after 5 retries)".into()
            ))
        );
        // Anything else is not retried.
        let calls = RefCell::new(0);
        let r: Result<(), _> = ready(with_backoff(
            || {
                *calls.borrow_mut() += 1;
                ready_fut(Err(RpcError::Node("nonce too low".into())))
            },
            |_| std::future::ready(()),
        ));
        assert_eq!(*calls.borrow(), 1);
        assert!(r.is_err());
    }

    fn ready_fut<T>(v: T) -> std::future::Ready<T> {
        std::future::ready(v)
    }
}
