//! Logs found through the contracts' own record of where their events are (D12), so a first visit
//! costs the same on a year-old deployment as on a new one. No Leptos here.
//!
//! 1. Ask the contract which of its recorded blocks lie in the range (`EventBlocks.eventBlocks`, one
//!    `eth_call` per key at the range's last block; pages of [`PAGE`] blocks).
//! 2. Ask the node for the filter's logs in exactly those blocks: consecutive blocks joined into
//!    ranges of at most the network's log range ([`eden_chain::logs::block_runs`]), all of them in
//!    JSON-RPC batches (one round trip per [`crate::chain::rpc::MAX_BATCH`] ranges).
//!
//! A contract without the record (an older deployment, an address with no code) answers the call with
//! a revert or nothing: the reader then scans the range as before
//! ([`crate::chain::rpc::Rpc::get_logs`], which runs both steps over its transport). Nothing is
//! taken on trust that was not before: the node that answers the logs answers the record too.

use crate::chain::abi::IEventBlocks;
use crate::chain::transport::{Log, LogFilter, RpcError};
use alloy_primitives::{Address, B256, U256};
use eden_chain::logs::{block_runs, PageError};
use serde_json::Value;
use std::future::Future;

/// Blocks asked for per `eventBlocks` call.
pub const PAGE: u64 = 5_000;

/// Where the blocks of a filter's logs are recorded: the contract keeping the record and its keys
/// (`B256::ZERO`: the contract's own events; a pool id: that pool's swaps through a hook).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockIndex {
    pub at: Address,
    pub keys: Vec<B256>,
}

impl BlockIndex {
    /// The contract's record of its own events.
    pub fn own(at: Address) -> Self {
        Self {
            at,
            keys: vec![B256::ZERO],
        }
    }
}

/// Whether an error of the `eventBlocks` call means "this contract keeps no record" (it reverted, or
/// answered something that is not the record), so the range is scanned instead.
pub fn keeps_no_record(e: &RpcError) -> bool {
    matches!(e, RpcError::Revert(_) | RpcError::Decode(_))
}

/// The blocks in `[from, to]` recorded under any of `index`'s keys, ascending, each once: per key,
/// `ask(at, key, next, to)` answers one `eventBlocks` page (its blocks and `more`), asked again from
/// after its last block while `more`; the keys are read concurrently.
///
/// # Errors
/// `ask`'s (see [`keeps_no_record`] for the ones that mean there is no record); a page naming a block
/// outside the range asked, as [`RpcError::Node`] (a record that does not match the chain fails the
/// read, named, rather than counting as no record).
pub async fn recorded_blocks<F, Fut>(
    index: &BlockIndex,
    from: u64,
    to: u64,
    ask: F,
) -> Result<Vec<u64>, RpcError>
where
    F: Fn(Address, B256, u64, u64) -> Fut,
    Fut: Future<Output = Result<(Vec<u64>, bool), RpcError>>,
{
    let reads = index
        .keys
        .iter()
        .map(|&key| recorded_under(index.at, key, from, to, &ask));
    let mut blocks: Vec<u64> = futures::future::try_join_all(reads)
        .await?
        .into_iter()
        .flatten()
        .collect();
    blocks.sort_unstable();
    blocks.dedup();
    Ok(blocks)
}

async fn recorded_under<F, Fut>(
    at: Address,
    key: B256,
    from: u64,
    to: u64,
    ask: &F,
) -> Result<Vec<u64>, RpcError>
where
    F: Fn(Address, B256, u64, u64) -> Fut,
    Fut: Future<Output = Result<(Vec<u64>, bool), RpcError>>,
{
    let mut out = Vec::new();
    let mut next = from;
    loop {
        let (page, more) = ask(at, key, next, to).await?;
        if page.iter().any(|&b| b < next || b > to) {
            // A node that answers this is not to be read from quietly: named, never scanned around.
            return Err(RpcError::Node(format!(
                "the event record of {at} answered a block outside {next}–{to}"
            )));
        }
        let last = page.last().copied();
        out.extend(page);
        match (more, last) {
            (true, Some(l)) if l < to => next = l + 1,
            _ => return Ok(out),
        }
    }
}

/// The `eventBlocks` call for one page from `next` (at most [`PAGE`] blocks).
pub fn page_call(key: B256, next: u64, to: u64) -> IEventBlocks::eventBlocksCall {
    IEventBlocks::eventBlocksCall {
        key,
        fromBlock: next,
        toBlock: to,
        max: U256::from(PAGE),
    }
}

/// The logs matching `filter` in exactly `blocks`, in chain order: the blocks' runs of at most
/// `max_range` blocks ([`block_runs`]), all asked through `batch` (JSON-RPC batches of
/// `eth_getLogs`; each request's answer in order).
///
/// # Errors
/// `batch`'s; the first failing range, named (a node refusing a range this short is an error too).
pub async fn logs_in_blocks<F, Fut>(
    filter: &LogFilter,
    blocks: &[u64],
    max_range: u64,
    batch: F,
) -> Result<Vec<Log>, RpcError>
where
    F: FnOnce(Vec<(&'static str, Value)>) -> Fut,
    Fut: Future<Output = Result<Vec<Result<Value, RpcError>>, RpcError>>,
{
    let runs = block_runs(blocks, max_range);
    let requests = runs
        .iter()
        .map(|&(lo, hi)| ("eth_getLogs", filter.to_json(lo, hi)))
        .collect();
    let mut out = Vec::new();
    for (answer, (lo, hi)) in batch(requests).await?.into_iter().zip(runs) {
        let v = answer.map_err(|e| e.in_range(lo, hi))?;
        let mut logs: Vec<Log> = serde_json::from_value(v)
            .map_err(|e| RpcError::Decode(e.to_string()).in_range(lo, hi))?;
        out.append(&mut logs);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reverts_and_empty_answers_mean_no_record_but_the_network_does_not() {
        assert!(keeps_no_record(&RpcError::Revert(
            "execution reverted".into()
        )));
        assert!(keeps_no_record(&RpcError::Decode("buffer overrun".into())));
        assert!(!keeps_no_record(&RpcError::Network("offline".into())));
        assert!(!keeps_no_record(&RpcError::RateLimited("429".into())));
    }

    fn ready<T>(f: impl Future<Output = T>) -> T {
        futures::executor::block_on(f)
    }

    type Page = std::future::Ready<Result<(Vec<u64>, bool), RpcError>>;

    /// A record of `blocks` answering pages of `page` blocks, counting the pages asked.
    fn pages(
        blocks: Vec<u64>,
        page: usize,
        asked: &std::cell::Cell<usize>,
    ) -> impl Fn(Address, B256, u64, u64) -> Page + '_ {
        move |_, _, next, to| {
            asked.set(asked.get() + 1);
            let in_range: Vec<u64> = blocks
                .iter()
                .copied()
                .filter(|&b| b >= next && b <= to)
                .collect();
            let more = in_range.len() > page;
            std::future::ready(Ok((in_range.into_iter().take(page).collect(), more)))
        }
    }

    #[test]
    fn a_record_is_read_page_by_page_and_the_keys_merged() {
        let asked = std::cell::Cell::new(0);
        let index = BlockIndex {
            at: Address::repeat_byte(1),
            keys: vec![B256::ZERO],
        };
        let all: Vec<u64> = (10..=30).step_by(2).collect();
        let got = ready(recorded_blocks(&index, 12, 28, pages(all, 3, &asked))).unwrap();
        assert_eq!(got, vec![12, 14, 16, 18, 20, 22, 24, 26, 28]);
        assert_eq!(asked.get(), 3, "pages of 3: 12–16, 18–22, 24–28");

        let two = BlockIndex {
            at: Address::repeat_byte(1),
            keys: vec![B256::ZERO, B256::repeat_byte(2)],
        };
        let asked = std::cell::Cell::new(0);
        let got = ready(recorded_blocks(&two, 0, 100, pages(vec![5, 7], 10, &asked))).unwrap();
        assert_eq!(
            got,
            vec![5, 7],
            "the same blocks under both keys, once each"
        );
    }

    #[test]
    fn a_record_answering_outside_the_range_is_refused() {
        let index = BlockIndex::own(Address::repeat_byte(1));
        let liar = |_, _, _, _| std::future::ready(Ok((vec![3u64], false)));
        let e = ready(recorded_blocks(&index, 10, 20, liar)).unwrap_err();
        assert!(matches!(&e, RpcError::Node(m) if m.contains("outside 10–20")));
        assert!(!keeps_no_record(&e), "a lying record is not scanned around");
    }

    #[test]
    fn logs_are_asked_per_run_in_one_batch_and_a_failed_run_is_named() {
        let filter = LogFilter {
            address: Address::repeat_byte(1),
            topics: vec![],
        };
        let asked = std::cell::RefCell::new(Vec::new());
        let batch = |requests: Vec<(&'static str, Value)>| {
            asked.borrow_mut().extend(requests.iter().map(|(_, p)| {
                (
                    p[0]["fromBlock"].as_str().unwrap().to_string(),
                    p[0]["toBlock"].as_str().unwrap().to_string(),
                )
            }));
            let answers = requests.iter().map(|_| Ok(Value::Array(vec![]))).collect();
            std::future::ready(Ok(answers))
        };
        let logs = ready(logs_in_blocks(&filter, &[5, 6, 9], 10, batch)).unwrap();
        assert!(logs.is_empty());
        assert_eq!(
            *asked.borrow(),
            vec![("0x5".into(), "0x6".into()), ("0x9".into(), "0x9".into())]
        );

        let failing = |requests: Vec<(&'static str, Value)>| {
            let mut answers: Vec<Result<Value, RpcError>> =
                requests.iter().map(|_| Ok(Value::Array(vec![]))).collect();
            answers[1] = Err(RpcError::Node("boom".into()));
            std::future::ready(Ok(answers))
        };
        let e = ready(logs_in_blocks(&filter, &[5, 9], 10, failing)).unwrap_err();
        assert!(matches!(e, RpcError::Node(m) if m.contains("9–9") && m.contains("boom")));
    }

    #[test]
    fn a_contracts_own_record_is_under_key_zero() {
        let a = Address::repeat_byte(1);
        assert_eq!(BlockIndex::own(a).keys, vec![B256::ZERO]);
    }
}
