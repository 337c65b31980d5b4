//! The launchpad (C19, C20), read from the chain: its parameters, every launch with its curve state
//! and its tokens' labels in batched round trips whatever their number, a launch's trades from one
//! log scan, its graduated Uniswap v4 pool (the `Slot0` word through `extsload`,
//! `eden_core::uniswap::state`), and an account's balances of a launch's two tokens. No Leptos here.

use crate::chain::abi::{ILaunchpad, IPoolManagerState, IERC20};
use crate::chain::event_blocks::BlockIndex;
use crate::chain::multicall::Batch;
use crate::chain::rpc::{decode_event, Log, LogFilter, Rpc, RpcError};
use crate::chain::tokens::TokenLabels;
use alloy_primitives::{Address, B256, U256};
use alloy_sol_types::SolEvent;
use eden_core::curve::{self, CurveError, CurveState};
use eden_core::math::{mul_div_down, WAD};
use eden_core::uniswap::state;

/// The curve state of a launch read from chain (C19).
///
/// # Errors
/// [`CurveError::InvalidState`] when the record is not a state the curve can be in.
pub fn curve_state(
    l: &ILaunchpad::Launch,
    supply: U256,
    fee_bps: u32,
) -> Result<CurveState, CurveError> {
    let s = CurveState {
        virtual_quote: l.virtualQuote,
        total_supply: supply,
        quote_raised: l.quoteRaised,
        token_reserve: l.tokenReserve,
        fee_bps,
        launch_time: l.launchTime,
    };
    // A graduated launch moved its reserve to the locker; its record keeps Q = G.
    if !l.graduated {
        s.validate()?;
    }
    Ok(s)
}

/// Why a launch could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LaunchError {
    /// The node or the network.
    #[error(transparent)]
    Rpc(#[from] RpcError),
    /// A launch record that is not a curve state.
    #[error("a launch record is not a valid curve state: {0}")]
    Curve(#[from] CurveError),
    /// The launchpad has no launch of this token.
    #[error("no launch of {0} on this launchpad")]
    NoSuchLaunch(Address),
    /// The launchpad says it has more launches than a list is read for.
    #[error("the launchpad says it has {0} launches; the app lists at most {MAX_LAUNCHES}")]
    TooMany(u64),
}

impl From<eden_chain::read::ReadError<RpcError>> for LaunchError {
    fn from(e: eden_chain::read::ReadError<RpcError>) -> Self {
        LaunchError::Rpc(e.into())
    }
}

/// The most launches the list reads: a launchpad claiming more is not read (one that lies about its
/// count cannot make the app send requests without end).
pub const MAX_LAUNCHES: u64 = 100_000;

/// One launch as read from chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchInfo {
    pub token: Address,
    pub name: String,
    pub symbol: String,
    pub quote: Address,
    pub quote_symbol: String,
    pub quote_decimals: u8,
    pub creator: Address,
    pub graduated: bool,
    pub state: CurveState,
    /// §7: the share (WAD) of the creator's payout that buys back and burns the token, fixed at launch.
    pub own_buyback_share: U256,
}

impl LaunchInfo {
    /// Progress to graduation in basis points (a graduated launch is at 100 %).
    pub fn progress_bps(&self) -> u32 {
        if self.graduated {
            10_000
        } else {
            curve::progress_bps(&self.state).unwrap_or(0)
        }
    }
}

pub use eden_chain::launchpad::PadParams;

/// The launchpad's parameters, in one batch ([`eden_chain::launchpad::params`]).
pub async fn params(rpc: &Rpc, pad: Address) -> Result<PadParams, RpcError> {
    Ok(eden_chain::launchpad::params(rpc, pad).await?)
}

/// The launches of `tokens` in two batched round trips whatever their number: each token's launch
/// record, name and symbol; then the symbol and decimals of each distinct quote token.
pub async fn launches(
    rpc: &Rpc,
    pad: Address,
    tokens: &[Address],
    p: PadParams,
) -> Result<Vec<LaunchInfo>, LaunchError> {
    let mut b = Batch::new();
    let slots: Vec<_> = tokens
        .iter()
        .map(|&token| {
            (
                b.add(pad, &ILaunchpad::launchOfCall { token }),
                b.add(token, &IERC20::nameCall {}),
                b.add(token, &IERC20::symbolCall {}),
            )
        })
        .collect();
    let a = b.run(rpc).await?;
    let mut read = Vec::with_capacity(tokens.len());
    for (&token, (l, name, symbol)) in tokens.iter().zip(slots) {
        let l = a.get(l)?;
        // An address the launchpad never launched has an empty record.
        if l.launchTime == 0 {
            return Err(LaunchError::NoSuchLaunch(token));
        }
        read.push((
            token,
            l,
            a.get(name).unwrap_or_default(),
            a.get(symbol).unwrap_or_default(),
        ));
    }
    let labels = TokenLabels::read(rpc, read.iter().map(|(_, l, _, _)| l.quote)).await?;
    read.into_iter()
        .map(|(token, l, name, symbol)| {
            let (quote_symbol, quote_decimals) = labels.get(l.quote);
            Ok(LaunchInfo {
                token,
                name,
                symbol,
                quote: l.quote,
                quote_symbol,
                quote_decimals,
                creator: l.creator,
                graduated: l.graduated,
                own_buyback_share: U256::from(l.ownBuybackShare),
                state: curve_state(&l, p.supply, u32::from(p.fee_bps))?,
            })
        })
        .collect()
}

/// One launch: one round trip through the deployless reader; three (the parameters, the record, the
/// quote token's label) where it cannot run.
pub async fn launch(rpc: &Rpc, pad: Address, token: Address) -> Result<LaunchInfo, LaunchError> {
    let read = match lens::read(rpc, pad, &[token]).await? {
        Some((p, rows)) => lens::infos(rows, p)?,
        None => {
            let p = params(rpc, pad).await?;
            launches(rpc, pad, &[token], p).await?
        }
    };
    read.into_iter()
        .next()
        .ok_or(LaunchError::NoSuchLaunch(token))
}

/// The launchpad's first `count` tokens, in launch order, in one batch ([`eden_chain::launchpad::tokens`]).
pub async fn tokens(rpc: &Rpc, pad: Address, count: u64) -> Result<Vec<Address>, RpcError> {
    Ok(eden_chain::launchpad::tokens(rpc, pad, 0, count).await?)
}

/// Every launch, newest first: one round trip through the deployless reader ([`lens`]; one more
/// per [`lens::ROWS`] launches beyond the first page, all at once); where it cannot run, four round
/// trips whatever their number (the parameters, the token list, the launches, their quote tokens'
/// labels).
pub async fn all(rpc: &Rpc, pad: Address) -> Result<Vec<LaunchInfo>, LaunchError> {
    let mut list = match lens::read(rpc, pad, &[]).await? {
        Some((p, rows)) => lens::infos(rows, p)?,
        None => {
            let p = params(rpc, pad).await?;
            if p.count > MAX_LAUNCHES {
                return Err(LaunchError::TooMany(p.count));
            }
            let tokens = tokens(rpc, pad, p.count).await?;
            launches(rpc, pad, &tokens, p).await?
        }
    };
    list.reverse();
    Ok(list)
}

/// The launch list in one round trip through the deployless `LaunchLens` (D3).
pub mod lens;

/// Each curve launch's price change over the last 24 hours (issue 39).
pub mod day_change;

/// A quote asset new launches may pair with (C20): its virtual reserve Φ now is not zero.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuoteAsset {
    /// The zero address for ETH.
    pub asset: Address,
    /// Φ, in the asset's units.
    pub virtual_quote: U256,
    pub symbol: String,
    pub decimals: u8,
}

/// The quote assets a launch may use now ([`eden_chain::launchpad::quote_assets`]: from state, issue 38), with
/// their labels, ETH first.
///
/// # Errors
/// When a batch cannot be read.
pub async fn quote_assets(rpc: &Rpc, pad: Address) -> Result<Vec<QuoteAsset>, RpcError> {
    let allowed = eden_chain::launchpad::quote_assets(rpc, pad).await?;
    let labels = TokenLabels::read(rpc, allowed.iter().map(|(a, _)| *a)).await?;
    Ok(allowed
        .into_iter()
        .map(|(asset, virtual_quote)| {
            let (symbol, decimals) = labels.get(asset);
            QuoteAsset {
                asset,
                virtual_quote,
                symbol,
                decimals,
            }
        })
        .collect())
}

/// The token a confirmed `launch` created: its receipt's `Launched` event from `pad`.
pub fn launched_token(pad: Address, logs: &[crate::chain::rpc::Log]) -> Option<Address> {
    logs.iter()
        .filter(|l| l.topics.first() == Some(&ILaunchpad::Launched::SIGNATURE_HASH))
        .filter(|l| l.address == Some(pad))
        .find_map(|l| decode_event::<ILaunchpad::Launched>(l).ok())
        .map(|e| e.token)
}

/// A trade on a launch's curve, from the event log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trade {
    pub block: u64,
    /// In the v4 pool after graduation (D7), not on the curve.
    pub in_pool: bool,
    pub buy: bool,
    pub account: Address,
    pub quote: U256,
    pub tokens: U256,
    /// Spot price after the trade, WAD quote per token (from `eden_core::curve::spot_price_wad`).
    pub price_wad: U256,
    /// The transaction (an explorer's link).
    pub tx: B256,
    /// Its block's time (unix seconds), once read ([`with_times`]).
    pub time: Option<u64>,
}

/// The `last` latest of `trades` (in chain order) dated by their blocks' timestamps, read in one
/// JSON-RPC batch; the others keep `None`, and a failed read leaves every time unknown.
pub async fn with_times(rpc: &Rpc, trades: &mut [Trade], last: usize) {
    let from = trades.len().saturating_sub(last);
    let mut blocks: Vec<u64> = trades[from..].iter().map(|t| t.block).collect();
    blocks.dedup();
    if blocks.is_empty() {
        return;
    }
    if let Ok(times) = rpc.block_timestamps(&blocks).await {
        for t in &mut trades[from..] {
            t.time = times.get(&t.block).copied();
        }
    }
}

/// One trade on a launch's curve as its `Bought` or `Sold` event states it: the one decoding of both,
/// for the trade list and the 24 h change ([`day_change`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CurveTrade {
    pub token: Address,
    pub buy: bool,
    /// The buyer or the seller.
    pub account: Address,
    /// What a buy paid into the curve (`quoteUsed`, fee included) or a sale received (`quoteOut`, fee
    /// taken).
    pub quote: U256,
    /// Tokens bought or sold.
    pub tokens: U256,
    pub fee: U256,
    /// The curve's `Q` and token reserve after the trade.
    pub quote_raised: U256,
    pub token_reserve: U256,
}

impl CurveTrade {
    /// The two events' first topics: a log filter's for every curve trade.
    pub fn topics() -> Vec<B256> {
        vec![
            ILaunchpad::Bought::SIGNATURE_HASH,
            ILaunchpad::Sold::SIGNATURE_HASH,
        ]
    }

    /// Decodes a launchpad log whose first topic is `Bought` or `Sold`.
    ///
    /// # Errors
    /// When it is neither, or does not decode.
    pub fn decode(l: &Log) -> Result<Self, RpcError> {
        if l.topics.first() == Some(&ILaunchpad::Bought::SIGNATURE_HASH) {
            let e = decode_event::<ILaunchpad::Bought>(l)?;
            Ok(Self {
                token: e.token,
                buy: true,
                account: e.buyer,
                quote: e.quoteUsed,
                tokens: e.tokensOut,
                fee: e.fee,
                quote_raised: e.quoteRaised,
                token_reserve: e.tokenReserve,
            })
        } else {
            let e = decode_event::<ILaunchpad::Sold>(l)?;
            Ok(Self {
                token: e.token,
                buy: false,
                account: e.seller,
                quote: e.quoteOut,
                tokens: e.tokensIn,
                fee: e.fee,
                quote_raised: e.quoteRaised,
                token_reserve: e.tokenReserve,
            })
        }
    }

    /// The curve's `Q` before this trade (C19: exact from the event's own fields).
    ///
    /// # Errors
    /// When the amounts cannot have come from the curve.
    pub fn quote_raised_before(&self) -> Result<U256, CurveError> {
        if self.buy {
            curve::quote_raised_before_buy(self.quote_raised, self.quote, self.fee)
        } else {
            curve::quote_raised_before_sell(self.quote_raised, self.quote, self.fee)
        }
    }
}

/// Every trade on `info`'s curve in blocks `[from_block, latest]`, in chain order, from one log
/// read of its `Bought` and `Sold` events.
pub async fn trades(
    rpc: &Rpc,
    pad: Address,
    (from_block, latest): (u64, u64),
    info: &LaunchInfo,
) -> Result<Vec<Trade>, RpcError> {
    let filter = LogFilter {
        address: pad,
        topics: vec![
            Some(CurveTrade::topics()),
            Some(vec![info.token.into_word()]),
        ],
    };
    let price = |q: U256, y: U256| {
        let s = CurveState {
            quote_raised: q,
            token_reserve: y,
            ..info.state
        };
        curve::spot_price_wad(&s, info.quote_decimals).unwrap_or_default()
    };
    // The reader returns logs in chain order, buys and sells interleaved as they happened.
    let mut out = Vec::new();
    for l in rpc.get_logs(&filter, from_block, latest).await? {
        let t = CurveTrade::decode(&l)?;
        out.push(Trade {
            block: l.position().0,
            in_pool: false,
            buy: t.buy,
            account: t.account,
            quote: t.quote,
            tokens: t.tokens,
            price_wad: price(t.quote_raised, t.token_reserve),
            tx: l.transaction_hash,
            time: None,
        });
    }
    Ok(out)
}

/// Every swap in blocks `[from_block, latest]` in a graduated launch's pool `pool_id`, in chain
/// order (D7): the PoolManager's `Swap` logs of the pool in the blocks its hook `hooks` recorded
/// (D12), each with its payer from the swap router's `Swapped` log of the same transaction (a swap
/// through another contract names that contract).
///
/// # Errors
/// When the logs cannot be read or decoded.
pub async fn pool_trades(
    rpc: &Rpc,
    pool_manager: Address,
    router: Option<Address>,
    (from_block, latest): (u64, u64),
    info: &LaunchInfo,
    (pool_id, hooks): (B256, Address),
) -> Result<Vec<Trade>, RpcError> {
    use crate::chain::abi::{IPoolManagerEvents, ISwapRouter};
    let swaps = LogFilter {
        address: pool_manager,
        topics: vec![
            Some(vec![IPoolManagerEvents::Swap::SIGNATURE_HASH]),
            Some(vec![pool_id]),
        ],
    };
    // D12: the pool's hook (the launch locker) records the block of every swap of the pool.
    let recorded = BlockIndex {
        at: hooks,
        keys: vec![pool_id],
    };
    let swaps_read = rpc.get_logs_via(&swaps, from_block, latest, Some(&recorded));
    let (swaps, routed) = futures::join!(swaps_read, async {
        match router {
            Some(r) => {
                let f = LogFilter {
                    address: r,
                    topics: vec![
                        Some(vec![ISwapRouter::Swapped::SIGNATURE_HASH]),
                        Some(vec![pool_id]),
                    ],
                };
                rpc.get_logs(&f, from_block, latest).await
            }
            None => Ok(Vec::new()),
        }
    });
    let mut payer = std::collections::HashMap::new();
    for l in routed? {
        let e = decode_event::<ISwapRouter::Swapped>(&l)?;
        payer.insert(l.transaction_hash, e.payer);
    }
    let quote_is_0 = info.quote < info.token;
    let mut out = Vec::new();
    for l in swaps? {
        let e = decode_event::<IPoolManagerEvents::Swap>(&l)?;
        // The swapper's deltas: negative is paid into the pool.
        let (q, t) = if quote_is_0 {
            (e.amount0, e.amount1)
        } else {
            (e.amount1, e.amount0)
        };
        let abs = |x: i128| U256::from(x.unsigned_abs());
        let sqrt = U256::from(e.sqrtPriceX96);
        out.push(Trade {
            block: l.position().0,
            in_pool: true,
            buy: q < 0,
            account: payer.get(&l.transaction_hash).copied().unwrap_or(e.sender),
            quote: abs(q),
            tokens: abs(t),
            price_wad: price_from_sqrt(sqrt, quote_is_0, info.quote_decimals),
            tx: l.transaction_hash,
            time: None,
        });
    }
    Ok(out)
}

/// A graduated launch's v4 pool: id, current sqrtPriceX96 (read from the PoolManager's storage)
/// and price.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolView {
    /// The pool's key (D7: what a swap names).
    pub key: super::pool::Key,
    pub pool_id: B256,
    pub sqrt_price_x96: U256,
    pub tick: Option<i32>,
    /// Quote per whole token, WAD (rounded down).
    pub price_wad: U256,
}

/// Quote per token from a pool price where the quote is currency0 (ETH always is): `2^192 / sqrtP²`,
/// scaled to WAD of whole units, rounded down.
pub fn price_from_sqrt(sqrt_p: U256, quote_is_0: bool, quote_decimals: u8) -> U256 {
    let q96 = U256::from(1u8) << 96;
    let unit = U256::from(10u8).pow(U256::from(18 - quote_decimals.min(18)));
    let r = if quote_is_0 {
        // token1 per token0 = sqrtP²/2^192 ⇒ quote0 per token1 = 2^192/sqrtP².
        mul_div_down(q96, q96, sqrt_p).and_then(|x| mul_div_down(x, WAD, sqrt_p))
    } else {
        mul_div_down(sqrt_p, sqrt_p, q96).and_then(|x| mul_div_down(x, WAD, q96))
    };
    r.ok().and_then(|x| x.checked_mul(unit)).unwrap_or_default()
}

/// A graduated launch's pool key and id, as the launchpad records them (`poolOf`).
pub async fn pool_key(
    rpc: &Rpc,
    pad: Address,
    token: Address,
) -> Result<(super::pool::Key, B256), RpcError> {
    let of = rpc.call(pad, &ILaunchpad::poolOfCall { token }).await?;
    Ok((super::pool::Key::from(&of.key), of.poolId))
}

/// A graduated launch's pool `key` (id `pool_id`) now: its `Slot0` word from the PoolManager.
pub async fn pool(
    rpc: &Rpc,
    pool_manager: Address,
    info: &LaunchInfo,
    key: super::pool::Key,
    pool_id: B256,
) -> Result<PoolView, RpcError> {
    let word = rpc
        .call(
            pool_manager,
            &IPoolManagerState::extsload_0Call {
                slot: state::pool_state_slot(pool_id),
            },
        )
        .await?;
    let sqrt_p = state::Slot0::from_word(word).sqrt_price_x96;
    Ok(PoolView {
        key,
        pool_id,
        sqrt_price_x96: sqrt_p,
        tick: eden_core::uniswap::tick_math::get_tick_at_sqrt_price(sqrt_p).ok(),
        price_wad: price_from_sqrt(sqrt_p, info.quote < info.token, info.quote_decimals),
    })
}

/// `account`'s balances of `info`'s quote asset (ETH or an ERC-20) and of its token, in one round
/// trip: `(quote, token)`.
pub async fn balances(
    rpc: &Rpc,
    info: &LaunchInfo,
    account: Address,
) -> Result<(U256, U256), RpcError> {
    let mut b = Batch::new();
    let token = b.add(info.token, &IERC20::balanceOfCall { account });
    if info.quote.is_zero() {
        let (a, eth) = futures::future::join(b.run(rpc), rpc.balance(account)).await;
        Ok((eth?, a?.get(token)?))
    } else {
        let quote = b.add(info.quote, &IERC20::balanceOfCall { account });
        let a = b.run(rpc).await?;
        Ok((a.get(quote)?, a.get(token)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_launched_token_is_read_from_the_pads_own_event() {
        use crate::chain::rpc::Log;
        let pad = Address::repeat_byte(0xad);
        let token = Address::repeat_byte(0x70);
        let e = ILaunchpad::Launched {
            token,
            creator: Address::repeat_byte(1),
            quote: Address::ZERO,
            name: "Eden".into(),
            symbol: "EDN".into(),
            supply: U256::from(1u8),
            virtualQuote: U256::from(2u8),
        };
        let data = e.encode_log_data();
        let log = |address: Address| Log {
            address: Some(address),
            topics: data.topics().to_vec(),
            data: data.data.clone(),
            block_number: U256::from(1u8),
            transaction_hash: B256::ZERO,
            log_index: None,
        };
        assert_eq!(launched_token(pad, &[log(pad)]), Some(token));
        // The same event from another contract is not this launchpad's launch.
        assert_eq!(
            launched_token(pad, &[log(Address::repeat_byte(0xee))]),
            None
        );
        assert_eq!(launched_token(pad, &[]), None);
    }

    fn as_log(data: &alloy_primitives::LogData) -> Log {
        Log {
            address: Some(Address::repeat_byte(0xad)),
            topics: data.topics().to_vec(),
            data: data.data.clone(),
            block_number: U256::from(1u8),
            transaction_hash: B256::ZERO,
            log_index: None,
        }
    }

    #[test]
    fn a_buy_and_a_sale_decode_to_the_curve_before_them() {
        let u = |x: u64| U256::from(x);
        let (token, who) = (Address::repeat_byte(0x70), Address::repeat_byte(7));
        // A buy of 1,000 (fee 10 of it) that took Q to 5,990: Q was 5,000 before it.
        let bought = ILaunchpad::Bought {
            token,
            buyer: who,
            quoteUsed: u(1_000),
            fee: u(10),
            tokensOut: u(77),
            refund: u(0),
            quoteRaised: u(5_990),
            tokenReserve: u(900),
        };
        let b = CurveTrade::decode(&as_log(&bought.encode_log_data())).unwrap();
        assert_eq!((b.token, b.buy, b.account), (token, true, who));
        assert_eq!((b.quote, b.tokens, b.fee), (u(1_000), u(77), u(10)));
        assert_eq!((b.quote_raised, b.token_reserve), (u(5_990), u(900)));
        assert_eq!(b.quote_raised_before(), Ok(u(5_000)));
        // A sale paying out 500 (fee 5 on top) that took Q to 4,495: Q was 5,000 before it.
        let sold = ILaunchpad::Sold {
            token,
            seller: who,
            tokensIn: u(40),
            quoteOut: u(500),
            fee: u(5),
            quoteRaised: u(4_495),
            tokenReserve: u(940),
        };
        let s = CurveTrade::decode(&as_log(&sold.encode_log_data())).unwrap();
        assert_eq!(
            (s.buy, s.account, s.quote, s.tokens),
            (false, who, u(500), u(40))
        );
        assert_eq!(s.quote_raised_before(), Ok(u(5_000)));
        // A log that is neither does not decode.
        let other = ILaunchpad::Launched {
            token,
            creator: who,
            quote: Address::ZERO,
            name: "Eden".into(),
            symbol: "EDN".into(),
            supply: u(1),
            virtualQuote: u(2),
        };
        assert!(CurveTrade::decode(&as_log(&other.encode_log_data())).is_err());
    }

    #[test]
    fn pool_price_from_sqrt_price() {
        // sqrtP = 2^96 ⇒ price 1 (token1 per token0), so 1 quote per token either way (18 decimals).
        let q96 = U256::from(1u8) << 96;
        assert_eq!(price_from_sqrt(q96, true, 18), WAD);
        assert_eq!(price_from_sqrt(q96, false, 18), WAD);
        // sqrtP = 2^97 ⇒ 4 tokens per ETH ⇒ 0.25 ETH per token.
        assert_eq!(price_from_sqrt(q96 << 1, true, 18), WAD / U256::from(4u8));
    }
}
