//! C16 (pinned; short window and rounding decided) The ROOT price of the burns, §6.2.
//!
//! ```text
//! priceUSD = min(TWAP_short, TWAP_anchor) (ROOT in ETH) × ETH/USD
//! ```
//!
//! - `TWAP_short` is over [`SHORT_WINDOW`] = 30 min (**decided**); the anchor over
//!   [`ANCHOR_WINDOW`] = 4 h, shortened to the pool's age when the pool is younger.
//! - Mean ticks are rounded toward the **lower ROOT price**: when ROOT is token0 the pool tick
//!   prices ROOT (`1.0001^tick` token1 per token0), so the mean rounds toward −∞ (floor, as
//!   Uniswap's `consult`); when ROOT is token1 a higher tick is a lower ROOT price, so the mean
//!   rounds toward +∞ (ceil). Both orders are handled (in v4 native ETH is always currency0).
//! - Tick → price is `OracleLibrary.getQuoteAtTick(tick, 10^18, ROOT, ETH)` (TickMath sqrt price,
//!   512-bit mulDiv, rounded down): ETH (WAD) per one whole ROOT; both tokens have 18 decimals.
//! - ETH/USD is a Chainlink-style answer with its `decimals` and `updatedAt`, scaled to a WAD
//!   rounded down; `priceUSD = ⌊priceETH × ethUsd / 10^18⌋` (down: a lower price burns more ROOT).
//! - The ROOT amount for a USD amount rounds **up** (**decided**): `⌈usd × 10^18 / priceUSD⌉`.
//!
//! Fail closed (no burn, no score), each failure its own [`PriceError`]: the ETH/USD answer older
//! than [`MAX_ANSWER_AGE`] (25 h), from the future, or not positive; a TWAP window not covered
//! (pool younger than the short window, or an observation missing); the amount out of bounds
//! (zero price, zero amount, above the payer's cap). The ROOT pool's hook truncates each recorded
//! tick move to 9,116 ticks per second; that is already in the cumulatives the caller reads.

use crate::math::{mul_div_down, mul_div_up, MathError, WAD};
use crate::uniswap::oracle::{
    get_quote_at_tick_ordered, mean_tick_toward_lower_price, OracleError,
};
use alloy_primitives::{I256, U256};

/// The short TWAP window: 30 minutes (seconds). Decided.
pub const SHORT_WINDOW: u32 = 30 * 60;
/// The anchor TWAP window: 4 hours (seconds), shortened to the pool's age.
pub const ANCHOR_WINDOW: u32 = 4 * 60 * 60;
/// The oldest acceptable ETH/USD answer: 25 hours (seconds).
pub const MAX_ANSWER_AGE: u64 = 25 * 60 * 60;
/// After an L2 sequencer restart, prices are refused for this long (`RootPriceOracle.SEQUENCER_GRACE`).
pub const SEQUENCER_GRACE: u64 = 60 * 60;
/// The largest accepted `decimals` of the ETH/USD feed (keeps `10^decimals` in 256 bits with room).
pub const MAX_ANSWER_DECIMALS: u8 = 36;

/// Why the ROOT price or a burn amount is unavailable (fail closed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PriceError {
    /// The ETH/USD answer is older than 25 h.
    #[error("ETH/USD answer is stale: updated {age} s ago, the limit is {max} s (25 h)")]
    StaleAnswer {
        /// `now − updatedAt`.
        age: u64,
        /// [`MAX_ANSWER_AGE`].
        max: u64,
    },
    /// The ETH/USD answer's `updatedAt` is after `now`.
    #[error("ETH/USD answer updatedAt {updated_at} is after now {now}")]
    AnswerFromFuture {
        /// `updatedAt`.
        updated_at: u64,
        /// `now`.
        now: u64,
    },
    /// The L2 sequencer-uptime feed says the sequencer is down.
    #[error("the L2 sequencer is down: prices are refused until it is back up for an hour")]
    SequencerDown,
    /// The sequencer restarted less than [`SEQUENCER_GRACE`] ago.
    #[error("the L2 sequencer has been up since {up_since}: prices are refused until {until}")]
    SequencerGracePeriod {
        /// The feed's `startedAt` (when it came back up).
        up_since: u64,
        /// `up_since + SEQUENCER_GRACE`.
        until: u64,
    },
    /// The ETH/USD answer is zero or negative.
    #[error("ETH/USD answer must be positive, got {0}")]
    NonPositiveAnswer(I256),
    /// The ETH/USD feed's decimals are absurd.
    #[error("ETH/USD decimals must be at most {MAX_ANSWER_DECIMALS}, got {0}")]
    AnswerDecimals(u8),
    /// The pool is younger than the short window: the window is not covered.
    #[error("TWAP window of {window} s is not covered: the ROOT pool is only {age} s old")]
    PoolTooYoung {
        /// The window needed.
        window: u32,
        /// The pool's age.
        age: u64,
    },
    /// The pool's initialisation time is after `now`.
    #[error("the ROOT pool was initialised at {initialized_at}, after now {now}")]
    PoolNotInitialized {
        /// `poolInitializedAt`.
        initialized_at: u64,
        /// `now`.
        now: u64,
    },
    /// No observation at `secondsAgo = window`: the window is not covered.
    #[error("TWAP window of {window} s is not covered: no observation at secondsAgo = {window}")]
    WindowNotCovered {
        /// The missing `secondsAgo`.
        window: u32,
    },
    /// The tick cumulatives give no valid mean tick or quote (corrupt observations).
    #[error("TWAP: {0}")]
    Oracle(#[from] OracleError),
    /// The price rounds to zero: no finite ROOT amount (amount out of bounds).
    #[error("ROOT price rounds to zero: the ROOT amount is out of bounds")]
    ZeroPrice,
    /// The ROOT amount is outside `[min, max]`.
    #[error("ROOT amount {amount} is out of bounds [{min}, {max}]")]
    AmountOutOfBounds {
        /// The computed amount.
        amount: U256,
        /// The lower bound.
        min: U256,
        /// The upper bound (the payer's cap).
        max: U256,
    },
    /// Integer arithmetic failed on absurd inputs.
    #[error("arithmetic error in {context}: {source}")]
    Math {
        /// The step that failed.
        context: &'static str,
        /// The underlying error.
        source: MathError,
    },
}

fn math(context: &'static str) -> impl Fn(MathError) -> PriceError {
    move |source| PriceError::Math { context, source }
}

/// One `observe` result: the tick cumulative `secondsAgo` seconds before `now`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct TickObservation {
    /// Seconds before `now`.
    #[serde(with = "crate::serde_dec::int")]
    pub seconds_ago: u32,
    /// `tickCumulative` (int56 on-chain).
    #[serde(with = "crate::serde_dec::int")]
    pub tick_cumulative: i64,
}

/// A Chainlink-style ETH/USD round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct EthUsdAnswer {
    /// `answer` (int256), scaled by `10^decimals`.
    #[serde(with = "crate::serde_dec::i256")]
    pub answer: I256,
    /// The feed's `decimals()` (8 for Chainlink ETH/USD).
    #[serde(with = "crate::serde_dec::int")]
    pub decimals: u8,
    /// `updatedAt`, unix seconds.
    #[serde(with = "crate::serde_dec::int")]
    pub updated_at: u64,
}

/// Everything [`root_price_usd`] reads.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct RootPriceInput {
    /// The current time (block timestamp).
    #[serde(with = "crate::serde_dec::int")]
    pub now: u64,
    /// When the ROOT pool was initialised (its age is `now − this`).
    #[serde(with = "crate::serde_dec::int")]
    pub pool_initialized_at: u64,
    /// Whether ROOT is the pool's token0 (false when ETH is currency0, as native ETH always is).
    pub root_is_token0: bool,
    /// Observations at `secondsAgo` = 0, [`SHORT_WINDOW`] and [`anchor_window`] (any order;
    /// extra ones are ignored).
    pub observations: Vec<TickObservation>,
    /// The ETH/USD answer.
    pub eth_usd: EthUsdAnswer,
}

/// The price and every intermediate value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct RootPrice {
    /// Mean tick over the short window (rounded toward the lower ROOT price).
    #[serde(with = "crate::serde_dec::int")]
    pub short_tick: i32,
    /// Mean tick over the anchor window.
    #[serde(with = "crate::serde_dec::int")]
    pub anchor_tick: i32,
    /// The anchor window used (4 h, or the pool's age).
    #[serde(with = "crate::serde_dec::int")]
    pub anchor_window: u32,
    /// ETH per ROOT over the short window (WAD).
    #[serde(with = "crate::serde_dec::u256")]
    pub short_price_eth: U256,
    /// ETH per ROOT over the anchor window (WAD).
    #[serde(with = "crate::serde_dec::u256")]
    pub anchor_price_eth: U256,
    /// `min` of the two (WAD).
    #[serde(with = "crate::serde_dec::u256")]
    pub price_eth: U256,
    /// ETH/USD (WAD).
    #[serde(with = "crate::serde_dec::u256")]
    pub eth_usd: U256,
    /// USD per ROOT (WAD).
    #[serde(with = "crate::serde_dec::u256")]
    pub price_usd: U256,
}

/// The anchor window at `now`: 4 h, or the pool's age when younger.
///
/// # Errors
/// [`PriceError::PoolNotInitialized`] when the pool starts after `now`;
/// [`PriceError::PoolTooYoung`] when it is younger than the short window.
pub fn anchor_window(now: u64, pool_initialized_at: u64) -> Result<u32, PriceError> {
    let age = now
        .checked_sub(pool_initialized_at)
        .ok_or(PriceError::PoolNotInitialized {
            initialized_at: pool_initialized_at,
            now,
        })?;
    if age < u64::from(SHORT_WINDOW) {
        return Err(PriceError::PoolTooYoung {
            window: SHORT_WINDOW,
            age,
        });
    }
    Ok(age.min(u64::from(ANCHOR_WINDOW)) as u32)
}

/// The mean tick `(cum_now − cum_ago) / window`, rounded toward the lower ROOT price: floor
/// when ROOT is token0, ceil when ROOT is token1 (`uniswap::oracle::mean_tick_toward_lower_price`).
///
/// # Errors
/// [`PriceError::Oracle`] for a zero window or a mean outside the tick range.
pub fn mean_tick_toward_lower_root_price(
    cum_now: i64,
    cum_ago: i64,
    window: u32,
    root_is_token0: bool,
) -> Result<i32, PriceError> {
    Ok(mean_tick_toward_lower_price(
        cum_ago,
        cum_now,
        window,
        root_is_token0,
    )?)
}

/// ETH (WAD) per one whole ROOT at `tick`: `OracleLibrary.getQuoteAtTick(tick, 10^18, ROOT, ETH)`,
/// rounded down (`uniswap::oracle::get_quote_at_tick_ordered`).
///
/// # Errors
/// [`PriceError::Oracle`] for a tick outside the range.
pub fn root_price_eth_at_tick_down(tick: i32, root_is_token0: bool) -> Result<U256, PriceError> {
    Ok(get_quote_at_tick_ordered(tick, ONE_ROOT, root_is_token0)?)
}

/// One whole ROOT (18 decimals): the base amount of the quote.
const ONE_ROOT: u128 = 1_000_000_000_000_000_000;

/// A Chainlink L2 sequencer-uptime answer: `answer` 0 = up, 1 = down; `started_at` = since when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SequencerStatus {
    /// 0 up, anything else down.
    pub answer: I256,
    /// When the current status began (`startedAt`).
    pub started_at: u64,
}

/// C16 on an L2 (decided after the contract review, `RootPriceOracle.checkSequencer`): with a
/// sequencer-uptime feed, prices count only while the sequencer is up and has been for
/// [`SEQUENCER_GRACE`]. `None` (no feed, an L1) always passes.
///
/// # Errors
/// [`PriceError::SequencerDown`], [`PriceError::SequencerGracePeriod`].
pub fn check_sequencer(status: Option<&SequencerStatus>, now: u64) -> Result<(), PriceError> {
    let Some(s) = status else { return Ok(()) };
    if !s.answer.is_zero() {
        return Err(PriceError::SequencerDown);
    }
    let until = s.started_at.saturating_add(SEQUENCER_GRACE);
    if s.started_at == 0 || now < until {
        return Err(PriceError::SequencerGracePeriod {
            up_since: s.started_at,
            until,
        });
    }
    Ok(())
}

/// ETH/USD as a WAD, rounded down, after the fail-closed checks.
///
/// # Errors
/// [`PriceError::NonPositiveAnswer`], [`PriceError::AnswerFromFuture`], [`PriceError::StaleAnswer`],
/// [`PriceError::AnswerDecimals`].
pub fn eth_usd_wad(answer: &EthUsdAnswer, now: u64) -> Result<U256, PriceError> {
    if answer.answer <= I256::ZERO {
        return Err(PriceError::NonPositiveAnswer(answer.answer));
    }
    if answer.updated_at > now {
        return Err(PriceError::AnswerFromFuture {
            updated_at: answer.updated_at,
            now,
        });
    }
    let age = now - answer.updated_at;
    if age > MAX_ANSWER_AGE {
        return Err(PriceError::StaleAnswer {
            age,
            max: MAX_ANSWER_AGE,
        });
    }
    if answer.decimals > MAX_ANSWER_DECIMALS {
        return Err(PriceError::AnswerDecimals(answer.decimals));
    }
    let scale = U256::from(10u8).pow(U256::from(answer.decimals));
    mul_div_down(answer.answer.unsigned_abs(), WAD, scale).map_err(math("ETH/USD scaling"))
}

fn observation(obs: &[TickObservation], seconds_ago: u32) -> Result<i64, PriceError> {
    obs.iter()
        .find(|o| o.seconds_ago == seconds_ago)
        .map(|o| o.tick_cumulative)
        .ok_or(PriceError::WindowNotCovered {
            window: seconds_ago,
        })
}

/// C16: the ROOT price in USD (WAD) with every intermediate value.
///
/// # Errors
/// Every fail-closed rule as its own [`PriceError`].
pub fn root_price_usd(input: &RootPriceInput) -> Result<RootPrice, PriceError> {
    let eth_usd = eth_usd_wad(&input.eth_usd, input.now)?;
    let anchor = anchor_window(input.now, input.pool_initialized_at)?;
    let cum_now = observation(&input.observations, 0)?;
    let cum_short = observation(&input.observations, SHORT_WINDOW)?;
    let cum_anchor = observation(&input.observations, anchor)?;
    let t0 = input.root_is_token0;
    let short_tick = mean_tick_toward_lower_root_price(cum_now, cum_short, SHORT_WINDOW, t0)?;
    let anchor_tick = mean_tick_toward_lower_root_price(cum_now, cum_anchor, anchor, t0)?;
    let short_price_eth = root_price_eth_at_tick_down(short_tick, t0)?;
    let anchor_price_eth = root_price_eth_at_tick_down(anchor_tick, t0)?;
    let price_eth = short_price_eth.min(anchor_price_eth);
    let price_usd = mul_div_down(price_eth, eth_usd, WAD).map_err(math("ETH price × ETH/USD"))?;
    if price_usd.is_zero() {
        return Err(PriceError::ZeroPrice);
    }
    Ok(RootPrice {
        short_tick,
        anchor_tick,
        anchor_window: anchor,
        short_price_eth,
        anchor_price_eth,
        price_eth,
        eth_usd,
        price_usd,
    })
}

/// The accepted range of a burn's ROOT amount (the upper bound is the payer's cap).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootAmountBounds {
    /// The smallest acceptable amount (1 wei: a burn is never free).
    pub min: U256,
    /// The largest acceptable amount (the payer's `maxRootIn`).
    pub max: U256,
}

impl RootAmountBounds {
    /// `[1, max]`: a payer's cap.
    pub fn payer_cap(max: U256) -> Self {
        RootAmountBounds {
            min: U256::from(1u8),
            max,
        }
    }
}

impl Default for RootAmountBounds {
    /// `[1, U256::MAX]`: no cap.
    fn default() -> Self {
        Self::payer_cap(U256::MAX)
    }
}

/// The ROOT (wei) to burn for `usd` (USD WAD) at `price_usd` (USD WAD per ROOT):
/// `⌈usd × 10^18 / price_usd⌉`, checked against `bounds`.
///
/// # Errors
/// [`PriceError::ZeroPrice`]; [`PriceError::AmountOutOfBounds`].
pub fn root_for_usd_up(
    usd: U256,
    price_usd: U256,
    bounds: RootAmountBounds,
) -> Result<U256, PriceError> {
    if price_usd.is_zero() {
        return Err(PriceError::ZeroPrice);
    }
    let amount = mul_div_up(usd, WAD, price_usd).map_err(|_| PriceError::AmountOutOfBounds {
        amount: U256::MAX,
        min: bounds.min,
        max: bounds.max,
    })?;
    if amount < bounds.min || amount > bounds.max {
        return Err(PriceError::AmountOutOfBounds {
            amount,
            min: bounds.min,
            max: bounds.max,
        });
    }
    Ok(amount)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const NOW: u64 = 1_800_000_000;

    fn answer(usd: i64, age: u64) -> EthUsdAnswer {
        EthUsdAnswer {
            answer: I256::try_from(usd * 100_000_000).unwrap(),
            decimals: 8,
            updated_at: NOW - age,
        }
    }

    /// Observations of a pool whose tick was `short` for the last 30 min and `early` before.
    fn obs(short: i64, early: i64, anchor: u32) -> Vec<TickObservation> {
        let c0 = 1_000_000_000i64;
        let at_short = c0 - short * i64::from(SHORT_WINDOW);
        let at_anchor = at_short - early * i64::from(anchor - SHORT_WINDOW);
        vec![
            TickObservation {
                seconds_ago: anchor,
                tick_cumulative: at_anchor,
            },
            TickObservation {
                seconds_ago: SHORT_WINDOW,
                tick_cumulative: at_short,
            },
            TickObservation {
                seconds_ago: 0,
                tick_cumulative: c0,
            },
        ]
    }

    #[test]
    fn mean_tick_rounds_toward_lower_root_price() {
        // Δ = −7 over 2 s: ROOT token0 → floor −4 (lower price); token1 → ceil −3 (higher tick = lower ROOT price).
        assert_eq!(
            mean_tick_toward_lower_root_price(0, 7, 2, true).unwrap(),
            -4
        );
        assert_eq!(
            mean_tick_toward_lower_root_price(0, 7, 2, false).unwrap(),
            -3
        );
        assert_eq!(mean_tick_toward_lower_root_price(7, 0, 2, true).unwrap(), 3);
        assert_eq!(
            mean_tick_toward_lower_root_price(7, 0, 2, false).unwrap(),
            4
        );
        assert_eq!(
            mean_tick_toward_lower_root_price(8, 0, 2, false).unwrap(),
            4
        );
        assert!(mean_tick_toward_lower_root_price(i64::MAX, i64::MIN, 1, true).is_err());
        assert!(mean_tick_toward_lower_root_price(0, 0, 0, true).is_err());
    }

    #[test]
    fn tick_zero_is_one_eth() {
        assert_eq!(root_price_eth_at_tick_down(0, true).unwrap(), WAD);
        assert_eq!(root_price_eth_at_tick_down(0, false).unwrap(), WAD);
    }

    #[test]
    fn price_orders_mirror() {
        // ROOT token1 at tick t ≈ ROOT token0 at −t; 1.0001^−76013 ≈ 0.000500012.
        let a = root_price_eth_at_tick_down(76_013, false).unwrap();
        let b = root_price_eth_at_tick_down(-76_013, true).unwrap();
        let diff = if a > b { a - b } else { b - a };
        assert!(diff <= U256::from(2u8), "{a} vs {b}");
        assert!(
            a > U256::from(499_990_000_000_000u64) && a < U256::from(500_020_000_000_000u64),
            "{a}"
        );
        // Large ticks take the ratioX128 branch and stay monotone.
        let hi = root_price_eth_at_tick_down(500_000, true).unwrap();
        let hi1 = root_price_eth_at_tick_down(500_001, true).unwrap();
        assert!(hi1 > hi);
    }

    #[test]
    fn end_to_end_takes_the_lower_window() {
        // ROOT token1 (ETH currency0). Last 30 min at tick 76,013 (≈ 0.0005 ETH), before at 75,000
        // (higher ROOT price): the short window is lower and wins. ETH $3,000.
        let input = RootPriceInput {
            now: NOW,
            pool_initialized_at: NOW - 30 * 86_400,
            root_is_token0: false,
            observations: obs(76_013, 75_000, ANCHOR_WINDOW),
            eth_usd: answer(3_000, 3_600),
        };
        let p = root_price_usd(&input).unwrap();
        assert_eq!(p.anchor_window, ANCHOR_WINDOW);
        assert_eq!(p.short_tick, 76_013);
        // (76,013·1800 + 75,000·12,600) / 14,400 = 75,126.625 → ceil 75,127 (token1).
        assert_eq!(p.anchor_tick, 75_127);
        assert_eq!(p.price_eth, p.short_price_eth);
        assert!(p.anchor_price_eth > p.short_price_eth);
        assert_eq!(p.eth_usd, U256::from(3_000u32) * WAD);
        assert_eq!(
            p.price_usd,
            mul_div_down(p.price_eth, p.eth_usd, WAD).unwrap()
        );
        // Pinned values (cross-checked between an independent getQuoteAtTick and uniswap::oracle).
        assert_eq!(p.short_price_eth, U256::from(499_991_249_679_726u64));
        assert_eq!(p.anchor_price_eth, U256::from(546_309_774_772_296u64));
        assert_eq!(p.price_usd, U256::from(1_499_973_749_039_178_000u64));
        // $100 of ROOT at ≈ $1.5: ≈ 66.66 ROOT, rounded up.
        let root = root_for_usd_up(
            U256::from(100u8) * WAD,
            p.price_usd,
            RootAmountBounds::default(),
        )
        .unwrap();
        assert_eq!(
            root,
            mul_div_up(U256::from(100u8) * WAD, WAD, p.price_usd).unwrap()
        );
        assert_eq!(root, U256::from(66_667_833_396_455_051_977u128));
        // Same pool with ROOT as token0 (tick sign flipped) gives the mirrored price within rounding.
        let flipped = RootPriceInput {
            root_is_token0: true,
            observations: obs(-76_013, -75_000, ANCHOR_WINDOW),
            ..input
        };
        let q = root_price_usd(&flipped).unwrap();
        assert_eq!(q.anchor_tick, -75_127); // floor(−75,126.625)
        let diff = if q.price_eth > p.price_eth {
            q.price_eth - p.price_eth
        } else {
            p.price_eth - q.price_eth
        };
        assert!(diff <= U256::from(2u8));
    }

    #[test]
    fn young_pool_shortens_the_anchor() {
        let input = RootPriceInput {
            now: NOW,
            pool_initialized_at: NOW - 7_200,
            root_is_token0: true,
            observations: obs(100, 50, 7_200),
            eth_usd: answer(2_000, 0),
        };
        let p = root_price_usd(&input).unwrap();
        assert_eq!(p.anchor_window, 7_200);
        // The anchor (lower ticks before) is the lower ROOT price when ROOT is token0.
        assert_eq!(p.anchor_tick, 62); // (100·1800 + 50·5400)/7200 = 62.5 → floor
        assert_eq!(p.price_eth, p.anchor_price_eth);
        // Without the 2 h observation the window is not covered.
        let missing = RootPriceInput {
            observations: obs(100, 50, 7_200)[1..].to_vec(),
            ..input.clone()
        };
        assert_eq!(
            root_price_usd(&missing),
            Err(PriceError::WindowNotCovered { window: 7_200 })
        );
        let young = RootPriceInput {
            pool_initialized_at: NOW - 1_799,
            ..input.clone()
        };
        assert_eq!(
            root_price_usd(&young),
            Err(PriceError::PoolTooYoung {
                window: SHORT_WINDOW,
                age: 1_799
            })
        );
        let future = RootPriceInput {
            pool_initialized_at: NOW + 1,
            ..input
        };
        assert!(matches!(
            root_price_usd(&future),
            Err(PriceError::PoolNotInitialized { .. })
        ));
    }

    #[test]
    fn chainlink_fail_closed() {
        assert_eq!(
            eth_usd_wad(&answer(3_000, MAX_ANSWER_AGE), NOW).unwrap(),
            U256::from(3_000u32) * WAD
        );
        assert_eq!(
            eth_usd_wad(&answer(3_000, MAX_ANSWER_AGE + 1), NOW),
            Err(PriceError::StaleAnswer {
                age: MAX_ANSWER_AGE + 1,
                max: MAX_ANSWER_AGE
            })
        );
        assert_eq!(
            eth_usd_wad(&answer(0, 0), NOW),
            Err(PriceError::NonPositiveAnswer(I256::ZERO))
        );
        assert!(matches!(
            eth_usd_wad(&answer(-1, 0), NOW),
            Err(PriceError::NonPositiveAnswer(_))
        ));
        let fut = EthUsdAnswer {
            updated_at: NOW + 1,
            ..answer(3_000, 0)
        };
        assert_eq!(
            eth_usd_wad(&fut, NOW),
            Err(PriceError::AnswerFromFuture {
                updated_at: NOW + 1,
                now: NOW
            })
        );
        let dec = EthUsdAnswer {
            decimals: 37,
            ..answer(3_000, 0)
        };
        assert_eq!(eth_usd_wad(&dec, NOW), Err(PriceError::AnswerDecimals(37)));
        // 20 decimals: rounds down.
        let a = EthUsdAnswer {
            answer: I256::try_from(123i64).unwrap(),
            decimals: 20,
            updated_at: NOW,
        };
        assert_eq!(eth_usd_wad(&a, NOW).unwrap(), U256::from(1u8));
    }

    #[test]
    fn amount_rounds_up_and_is_bounded() {
        let usd100 = U256::from(100u8) * WAD;
        // $3 per ROOT: 33.333… → rounds up.
        let price = U256::from(3u8) * WAD;
        assert_eq!(
            root_for_usd_up(usd100, price, RootAmountBounds::default()).unwrap(),
            U256::from(33_333_333_333_333_333_334u128)
        );
        assert_eq!(
            root_for_usd_up(usd100, U256::ZERO, RootAmountBounds::default()),
            Err(PriceError::ZeroPrice)
        );
        let cap = RootAmountBounds::payer_cap(U256::from(33u8) * WAD);
        assert!(matches!(
            root_for_usd_up(usd100, price, cap),
            Err(PriceError::AmountOutOfBounds { .. })
        ));
        assert!(matches!(
            root_for_usd_up(U256::ZERO, price, RootAmountBounds::default()),
            Err(PriceError::AmountOutOfBounds { .. })
        ));
        assert!(matches!(
            root_for_usd_up(U256::MAX, U256::from(1u8), RootAmountBounds::default()),
            Err(PriceError::AmountOutOfBounds { .. })
        ));
    }

    proptest! {
        /// The minimum of the two windows is never above either; the function never panics.
        #[test]
        fn never_panics(short in -887_272i64..=887_272, early in -887_272i64..=887_272, t0 in any::<bool>(), usd in 1i64..100_000) {
            let input = RootPriceInput {
                now: NOW,
                pool_initialized_at: NOW - 100_000,
                root_is_token0: t0,
                observations: obs(short, early, ANCHOR_WINDOW),
                eth_usd: answer(usd, 10),
            };
            if let Ok(p) = root_price_usd(&input) {
                prop_assert!(p.price_eth <= p.short_price_eth && p.price_eth <= p.anchor_price_eth);
                let _ = root_for_usd_up(U256::from(100u8) * WAD, p.price_usd, RootAmountBounds::default());
            }
        }
    }

    /// `RootPriceOracle.t.sol::test_review9_sequencerUptimeFeedGatesThePrice`.
    #[test]
    fn sequencer_feed_gates_prices() {
        let up = |started_at| SequencerStatus {
            answer: I256::ZERO,
            started_at,
        };
        assert_eq!(check_sequencer(None, NOW), Ok(()));
        assert_eq!(
            check_sequencer(
                Some(&SequencerStatus {
                    answer: I256::ONE,
                    started_at: NOW - 10
                }),
                NOW
            ),
            Err(PriceError::SequencerDown)
        );
        assert_eq!(
            check_sequencer(Some(&up(NOW - 600)), NOW),
            Err(PriceError::SequencerGracePeriod {
                up_since: NOW - 600,
                until: NOW + 3_000
            })
        );
        assert_eq!(check_sequencer(Some(&up(NOW - 3_600)), NOW), Ok(()));
    }
}
