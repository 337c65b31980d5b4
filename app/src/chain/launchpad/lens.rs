//! The launch list through `LaunchLens` (D3): its creation code run by `eth_call` with no `to`,
//! answering with its revert data, so the launchpad's parameters, the records, the tokens' names
//! and symbols and the quote assets' labels come back in one round trip.

use super::{curve_state, LaunchError, LaunchInfo, PadParams, MAX_LAUNCHES};
use crate::chain::abi::{lens as lens_abi, ILaunchpad, LaunchLens};
use crate::chain::rpc::{Rpc, RpcError};
use alloy_primitives::{Address, Bytes, U256};
use alloy_sol_types::{SolConstructor, SolError};

/// Rows one call asks for: 500 rows read cold cost the reader 19.8M gas (forge, every account
/// cold: `contracts/test/LaunchLens.t.sol`), under the 30M most nodes allow an `eth_call`; under
/// a lower cap the reader stops early and says where.
pub const ROWS: u64 = 500;
/// Pages asked for at once after the first (a browser opens six connections to one origin).
const PAGES_AT_ONCE: usize = 6;

/// The reader's creation code with its arguments: `tokens` from index `start` (empty: the
/// launchpad's own list), at most `limit` rows.
pub fn code(pad: Address, tokens: &[Address], start: u64, limit: u64) -> Bytes {
    let args = LaunchLens::constructorCall {
        pad,
        tokens: tokens.to_vec(),
        start: U256::from(start),
        limit: U256::from(limit),
    }
    .abi_encode();
    [LaunchLens::BYTECODE.as_ref(), &args].concat().into()
}

/// Sends [`read`]'s first request now, before the reader asks (D11, "Reads sent early"): `read(rpc, pad,
/// tokens)` then takes its answer instead of sending it again.
pub fn read_early(rpc: &Rpc, pad: Address, tokens: &[Address]) {
    rpc.run_code_early(&code(pad, tokens, 0, ROWS));
}

/// One page, or `None` when the node cannot run the reader (it refuses calls without `to`, or
/// its gas cap does not reach one row): the caller reads with view calls instead.
async fn page(
    rpc: &Rpc,
    pad: Address,
    tokens: &[Address],
    start: u64,
    limit: u64,
) -> Result<Option<LaunchLens::Page>, RpcError> {
    match rpc.run_code(&code(pad, tokens, start, limit)).await {
        Ok(data) => Ok(LaunchLens::Answer::abi_decode(&data).ok().map(|a| a.page)),
        Err(RpcError::Revert(_) | RpcError::Node(_) | RpcError::Decode(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The parameters and the rows of `tokens` (empty: every launch, in launch order): a first
/// page, then the rest in pages of the first one's size, at once. `None`: the node cannot run
/// the reader.
///
/// # Errors
/// When the node cannot be reached or rate-limits after backoff; [`LaunchError::TooMany`].
pub async fn read(
    rpc: &Rpc,
    pad: Address,
    tokens: &[Address],
) -> Result<Option<(PadParams, Vec<LaunchLens::Row>)>, LaunchError> {
    let Some(first) = page(rpc, pad, tokens, 0, ROWS).await? else {
        return Ok(None);
    };
    let count = u64::try_from(first.count).unwrap_or(u64::MAX);
    if count > MAX_LAUNCHES {
        return Err(LaunchError::TooMany(count));
    }
    let p = PadParams {
        count,
        supply: first.supply,
        fee_bps: first.feeBps,
    };
    let mut pager = Pager::new(count, u64::try_from(first.next).unwrap_or(u64::MAX));
    let mut rows = first.rows;
    if pager.per == 0 && count > 0 {
        return Ok(None);
    }
    while !pager.done() {
        let starts = pager.starts();
        let pages =
            futures::future::join_all(starts.iter().map(|&s| page(rpc, pad, tokens, s, pager.per)))
                .await;
        for (s, answer) in starts.into_iter().zip(pages) {
            let Some(pg) = answer? else { return Ok(None) };
            match pager.take(s, u64::try_from(pg.next).unwrap_or(u64::MAX)) {
                Take::Rows => rows.extend(pg.rows),
                Take::AskAgain => break,
                Take::Invalid => return Ok(None),
            }
        }
    }
    Ok(Some((p, rows)))
}

/// Which pages to ask for after the first, and whether an answer continues the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pager {
    count: u64,
    /// The index of the first row not yet read.
    next: u64,
    /// Rows per page: as many as the first page read.
    per: u64,
}

/// What to do with a page's rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Take {
    /// They continue the list.
    Rows,
    /// A page before stopped early: this one is asked for again, from the new `next`.
    AskAgain,
    /// No progress or past the end: not an answer to go on with.
    Invalid,
}

impl Pager {
    fn new(count: u64, first_next: u64) -> Self {
        Self {
            count,
            next: first_next,
            per: first_next,
        }
    }

    fn done(&self) -> bool {
        self.next >= self.count
    }

    /// The next pages' first indices, at most [`PAGES_AT_ONCE`].
    fn starts(&self) -> Vec<u64> {
        (self.next..self.count)
            .step_by(usize::try_from(self.per.max(1)).unwrap_or(usize::MAX))
            .take(PAGES_AT_ONCE)
            .collect()
    }

    /// The page from `start` that read up to `end` (its `next`).
    fn take(&mut self, start: u64, end: u64) -> Take {
        if start != self.next {
            return Take::AskAgain;
        }
        if end <= start || end > self.count {
            return Take::Invalid;
        }
        self.next = end;
        Take::Rows
    }
}

/// The launchpad's record as its own ABI type (the reader's copy of `Launchpad.Launch`).
fn record(l: lens_abi::Launchpad::Launch) -> ILaunchpad::Launch {
    ILaunchpad::Launch {
        quote: l.quote,
        launchTime: l.launchTime,
        graduated: l.graduated,
        creator: l.creator,
        ownBuybackShare: l.ownBuybackShare,
        virtualQuote: l.virtualQuote,
        quoteRaised: l.quoteRaised,
        tokenReserve: l.tokenReserve,
        feesAccrued: l.feesAccrued,
    }
}

/// The rows as launches, labels as [`crate::chain::tokens::TokenLabels`] gives them ("?" for
/// a quote asset without a symbol).
///
/// # Errors
/// [`LaunchError::NoSuchLaunch`] for a row without a record; [`LaunchError::Curve`] for a record
/// that is not a curve state.
pub fn infos(rows: Vec<LaunchLens::Row>, p: PadParams) -> Result<Vec<LaunchInfo>, LaunchError> {
    rows.into_iter()
        .map(|r| {
            if r.launch.launchTime == 0 {
                return Err(LaunchError::NoSuchLaunch(r.token));
            }
            let l = record(r.launch);
            Ok(LaunchInfo {
                token: r.token,
                name: r.name,
                symbol: r.symbol,
                quote: l.quote,
                quote_symbol: if r.quoteSymbol.is_empty() {
                    "?".into()
                } else {
                    r.quoteSymbol
                },
                quote_decimals: r.quoteDecimals,
                creator: l.creator,
                graduated: l.graduated,
                own_buyback_share: U256::from(l.ownBuybackShare),
                state: curve_state(&l, p.supply, u32::from(p.fee_bps))?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_follow_each_other_and_one_that_stops_early_is_continued() {
        // 1,700 launches, 500 read first: the rest in pages of 500, at once.
        let mut p = Pager::new(1_700, 500);
        assert_eq!(p.starts(), vec![500, 1_000, 1_500]);
        assert_eq!(p.take(500, 1_000), Take::Rows);
        // The second page stopped early (a gas cap) at 1,300: the third is asked for again.
        assert_eq!(p.take(1_000, 1_300), Take::Rows);
        assert_eq!(p.take(1_500, 1_700), Take::AskAgain);
        assert!(!p.done());
        assert_eq!(p.starts(), vec![1_300]);
        assert_eq!(p.take(1_300, 1_700), Take::Rows);
        assert!(p.done());
    }

    #[test]
    fn no_progress_or_rows_past_the_end_stop_the_reader() {
        let mut p = Pager::new(1_000, 10);
        assert_eq!(p.take(10, 10), Take::Invalid);
        assert_eq!(p.take(10, 1_001), Take::Invalid);
        // At most six pages at once, whatever the count.
        assert_eq!(Pager::new(100_000, 1).starts().len(), PAGES_AT_ONCE);
    }

    #[test]
    fn lens_code_is_the_creation_code_then_the_arguments() {
        use crate::chain::abi::LaunchLens;
        use alloy_sol_types::SolValue;
        let pad = Address::repeat_byte(7);
        let code = code(pad, &[Address::repeat_byte(1)], 3, 500);
        let n = LaunchLens::BYTECODE.len();
        assert_eq!(&code[..n], LaunchLens::BYTECODE.as_ref());
        let args = <(Address, Vec<Address>, U256, U256)>::abi_decode_params(&code[n..]).unwrap();
        assert_eq!(
            args,
            (
                pad,
                vec![Address::repeat_byte(1)],
                U256::from(3),
                U256::from(500)
            )
        );
    }

    #[test]
    fn lens_rows_become_launches() {
        use crate::chain::abi::{lens::Launchpad::Launch, LaunchLens::Row};
        let supply = U256::from(1_000_000_000u64) * eden_core::math::WAD;
        let p = PadParams {
            count: 2,
            supply,
            fee_bps: 100,
        };
        let launch = Launch {
            quote: Address::repeat_byte(9),
            launchTime: 1_700_000_000,
            graduated: false,
            creator: Address::repeat_byte(2),
            ownBuybackShare: 300_000_000_000_000_000,
            virtualQuote: U256::from(1_250_000_000u64),
            quoteRaised: U256::ZERO,
            tokenReserve: supply,
            feesAccrued: U256::ZERO,
        };
        let row = |token: Address, launch: Launch| Row {
            token,
            launch,
            name: "Eden One".into(),
            symbol: "ONE".into(),
            quoteSymbol: String::new(),
            quoteDecimals: 6,
        };
        let read = infos(vec![row(Address::repeat_byte(1), launch.clone())], p).unwrap();
        // A quote asset without a symbol reads "?", as TokenLabels says it.
        assert_eq!(read[0].quote_symbol, "?");
        assert_eq!(read[0].quote_decimals, 6);
        assert_eq!(
            (read[0].name.as_str(), read[0].symbol.as_str()),
            ("Eden One", "ONE")
        );
        assert_eq!(read[0].state.virtual_quote, launch.virtualQuote);
        assert_eq!(read[0].progress_bps(), 0);
        assert_eq!(
            read[0].own_buyback_share,
            U256::from(300_000_000_000_000_000u64)
        );
        let none = Launch {
            launchTime: 0,
            ..launch
        };
        assert_eq!(
            infos(vec![row(Address::repeat_byte(3), none)], p),
            Err(LaunchError::NoSuchLaunch(Address::repeat_byte(3)))
        );
    }
}
