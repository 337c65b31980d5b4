//! Trade previews on a launch's curve (C19): exact buy/sell quotes from `eden_core::curve` over the
//! curve state `crate::chain::launchpad` reads, and the slippage setting applied as minimum-out
//! (rounded down: the minimum never exceeds the quoted amount).

use crate::chain::abi::{ILaunchpad, ISwapRouter};
use crate::chain::pool::Key;
use crate::chain::rpc::TxRequest;
use crate::fmt::InputError;
use alloy_primitives::{Address, U256};
use alloy_sol_types::SolCall;
use eden_core::curve::{self, fee, BuyQuote, CurveError, CurveState, SellQuote};
use eden_core::math::mul_div_down;

/// Slippage in basis points (`50` = 0.5 %); at most [`MAX_SLIPPAGE_BPS`].
pub const DEFAULT_SLIPPAGE_BPS: u32 = 100;
/// The largest slippage the app accepts (50 %).
pub const MAX_SLIPPAGE_BPS: u32 = 5_000;

/// `amount × (10,000 − slippage) / 10,000`, rounded down.
pub fn min_out_down(amount: U256, slippage_bps: u32) -> U256 {
    let keep = U256::from(10_000u32.saturating_sub(slippage_bps.min(MAX_SLIPPAGE_BPS)));
    mul_div_down(amount, keep, U256::from(10_000u32)).unwrap_or(U256::ZERO)
}

/// Parses a slippage percentage typed by a person (`"0.5"` → 50 bps).
///
/// # Errors
/// A readable message when it is not a percentage between 0 and 50.
pub fn parse_slippage_percent(s: &str) -> Result<u32, InputError> {
    let bps = crate::fmt::parse_units(s, 2).map_err(|e| InputError::Slippage(Box::new(e)))?;
    let bps =
        u32::try_from(bps).map_err(|_| InputError::Slippage(Box::new(InputError::TooLarge)))?;
    if bps > MAX_SLIPPAGE_BPS {
        return Err(InputError::SlippageAboveMax);
    }
    Ok(bps)
}

/// A buy preview: the exact quote, the fee rate used, and the minimum-out sent with the transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuyPreview {
    pub quote: BuyQuote,
    pub fee_pips: u32,
    pub snipe_pips: u32,
    pub min_tokens_out: U256,
    /// Price impact, bps rounded up (`eden_core::curve::buy_impact_bps_up`, D5).
    pub impact_bps: u32,
    /// The curve's progress to graduation after this buy (bps, rounded down).
    pub progress_after_bps: u32,
}

/// Quotes a buy of `quote_in` at chain time `now`.
///
/// # Errors
/// As [`curve::quote_buy`].
pub fn preview_buy(
    state: &CurveState,
    quote_in: U256,
    now: u64,
    slippage_bps: u32,
) -> Result<BuyPreview, CurveError> {
    let t = state.seconds_since_launch(now);
    let (after, quote) = curve::apply_buy(state, quote_in, t, U256::ZERO)?;
    Ok(BuyPreview {
        quote,
        fee_pips: fee::buy_fee_rate_pips(state.fee_bps, t),
        snipe_pips: fee::snipe_tax_pips(t),
        min_tokens_out: min_out_down(quote.tokens_out, slippage_bps),
        impact_bps: curve::buy_impact_bps_up(state, quote.quote_to_curve(), quote.tokens_out)?,
        progress_after_bps: curve::progress_bps(&after)?,
    })
}

/// A sell preview.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SellPreview {
    pub quote: SellQuote,
    pub min_quote_out: U256,
    /// Price impact, bps rounded up (`eden_core::curve::sell_impact_bps_up`, D5).
    pub impact_bps: u32,
    /// The curve's progress to graduation after this sale (bps, rounded down).
    pub progress_after_bps: u32,
}

/// Quotes a sell of `tokens_in`.
///
/// # Errors
/// As [`curve::quote_sell`].
pub fn preview_sell(
    state: &CurveState,
    tokens_in: U256,
    slippage_bps: u32,
) -> Result<SellPreview, CurveError> {
    let (after, quote) = curve::apply_sell(state, tokens_in, U256::ZERO)?;
    Ok(SellPreview {
        quote,
        min_quote_out: min_out_down(quote.quote_out, slippage_bps),
        impact_bps: curve::sell_impact_bps_up(state, tokens_in, quote.gross())?,
        progress_after_bps: curve::progress_bps(&after)?,
    })
}

/// How long a signed trade stays valid (seconds past the chain's time): the contracts refuse it after, so a
/// transaction stuck in a mempool cannot fill at a stale price.
pub const TRADE_DEADLINE_SECS: u64 = 600;

/// The curve buy of `preview` (C19): `Launchpad.buy(token, quoteIn, minTokensOut, deadline)`, with the quote
/// paid as the transaction's value when the launch's quote asset is ETH (`quote` zero); an ERC-20 quote is
/// approved first.
pub fn buy_request(
    launchpad: Address,
    token: Address,
    quote: Address,
    quote_in: U256,
    preview: &BuyPreview,
    now: u64,
) -> TxRequest {
    let call = ILaunchpad::buyCall {
        token,
        quoteIn: quote_in,
        minTokensOut: preview.min_tokens_out,
        deadline: U256::from(now + TRADE_DEADLINE_SECS),
    };
    let value = if quote.is_zero() {
        quote_in
    } else {
        U256::ZERO
    };
    TxRequest::paying(launchpad, call.abi_encode(), value)
}

/// The curve sale of `preview` (C19): `Launchpad.sell(token, tokensIn, minQuoteOut, deadline)`; the tokens
/// are approved first.
pub fn sell_request(
    launchpad: Address,
    token: Address,
    tokens_in: U256,
    preview: &SellPreview,
    now: u64,
) -> TxRequest {
    let call = ILaunchpad::sellCall {
        token,
        tokensIn: tokens_in,
        minQuoteOut: preview.min_quote_out,
        deadline: U256::from(now + TRADE_DEADLINE_SECS),
    };
    TxRequest::call(launchpad, call.abi_encode())
}

/// An exact-in swap in a graduated pool through the deployment's router, paid in ETH as value when `native`
/// (the pool's currency 0 is ETH and it is the side paid), at least `min_out` to `recipient`.
#[allow(clippy::too_many_arguments)]
pub fn swap_request(
    router: Address,
    key: &Key,
    zero_for_one: bool,
    amount_in: U256,
    min_out: U256,
    recipient: Address,
    native: bool,
    now: u64,
) -> TxRequest {
    let call = ISwapRouter::swapExactInCall {
        key: key.for_router(),
        zeroForOne: zero_for_one,
        amountIn: amount_in,
        minAmountOut: min_out,
        recipient,
        deadline: U256::from(now + TRADE_DEADLINE_SECS),
    };
    let value = if native { amount_in } else { U256::ZERO };
    TxRequest::paying(router, call.abi_encode(), value)
}

/// What a trade's price impact asks of the person before it is sent (D5): nothing up to 10 %; a
/// second confirmation above 10 %; typing "confirm" above 25 %. From 3 % it is shown as a warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImpactGate {
    None,
    Confirm,
    TypeConfirm,
}

/// The impact shown as a warning from here (bps).
pub const IMPACT_WARN_BPS: u32 = 300;

/// The gate for an impact of `bps`.
pub fn impact_gate(bps: u32) -> ImpactGate {
    match bps {
        0..=1_000 => ImpactGate::None,
        1_001..=2_500 => ImpactGate::Confirm,
        _ => ImpactGate::TypeConfirm,
    }
}

/// One side of a trade: an exact amount of an asset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leg {
    /// The amount, in the asset's smallest unit.
    pub amount: U256,
    /// The asset's decimals.
    pub decimals: u8,
    /// The asset's symbol.
    pub symbol: String,
}

impl Leg {
    /// `amount` of `symbol` with `decimals`.
    pub fn new(amount: U256, decimals: u8, symbol: &str) -> Self {
        Self {
            amount,
            decimals,
            symbol: symbol.to_owned(),
        }
    }

    /// The exact amount with its unit ("0.1 ETH").
    pub fn exact(&self) -> String {
        format!(
            "{} {}",
            crate::fmt::units_exact(self.amount, self.decimals),
            self.symbol
        )
    }
}

/// What the review step before every trade shows (issue 42 item 3, D5): what leaves the wallet,
/// what arrives at the quote, the least that can arrive at the slippage setting, the price impact,
/// and what comes back when the trade cannot take all of it (a graduating buy's refund, a pool that
/// runs out of liquidity). The impact's gate decides what the confirmation asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TradeReview {
    /// `"buy"` or `"sell"`.
    pub verb: &'static str,
    /// What leaves the wallet.
    pub pays: Leg,
    /// What arrives at the quote.
    pub receives: Leg,
    /// The least that arrives: the transaction's minimum-out.
    pub min_received: U256,
    /// The slippage setting the minimum was computed with (bps).
    pub slippage_bps: u32,
    /// Price impact, bps rounded up.
    pub impact_bps: u32,
    /// What is not taken and comes back (in what is paid's units), if anything.
    pub comes_back: Option<U256>,
}

impl TradeReview {
    /// A review of paying `pays` for `receives`.
    pub fn new(
        verb: &'static str,
        pays: Leg,
        receives: Leg,
        min_received: U256,
        slippage_bps: u32,
        impact_bps: u32,
    ) -> Self {
        Self {
            verb,
            pays,
            receives,
            min_received,
            slippage_bps,
            impact_bps,
            comes_back: None,
        }
    }

    /// The same review, with `back` of what is paid coming back (none when zero).
    pub fn with_back(mut self, back: U256) -> Self {
        self.comes_back = (!back.is_zero()).then_some(back);
        self
    }

    /// What the confirmation asks for this review's impact.
    pub fn gate(&self) -> ImpactGate {
        impact_gate(self.impact_bps)
    }

    /// The confirming button's words: the trade, with what leaves the wallet, repeated.
    pub fn go_label(&self) -> String {
        let base = trade_label(
            self.verb,
            Some(self.pays.amount),
            self.pays.decimals,
            &self.pays.symbol,
        );
        match self.gate() {
            ImpactGate::None => format!("Confirm: {}", lower_first(&base)),
            _ => format!("{base} anyway"),
        }
    }

    /// The impact's warning in words, from 3 % (D5).
    pub fn impact_warning(&self) -> Option<String> {
        (self.impact_bps >= IMPACT_WARN_BPS).then(|| {
            format!(
                "This {} moves the price by {}: you get much less than the current price suggests.",
                self.verb,
                crate::fmt::percent_bps(self.impact_bps)
            )
        })
    }
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_lowercase().chain(c).collect())
        .unwrap_or_default()
}

/// Seconds left in the anti-snipe window at `now` (0 once it is over).
pub fn snipe_seconds_left(state: &CurveState, now: u64) -> u64 {
    fee::SNIPE_WINDOW_SECONDS.saturating_sub(state.seconds_since_launch(now))
}

/// A trade button's words, repeating what leaves the wallet (D8): "Buy with 0.1 ETH", "Sell 1,000 GARD";
/// the bare verb until the amount reads.
pub fn trade_label(side: &str, pays: Option<U256>, decimals: u8, symbol: &str) -> String {
    let verb = if side == "buy" { "Buy" } else { "Sell" };
    match pays {
        Some(a) if side == "buy" => format!(
            "{verb} with {} {symbol}",
            crate::fmt::units_exact(a, decimals)
        ),
        Some(a) => format!("{verb} {} {symbol}", crate::fmt::units_exact(a, decimals)),
        None => verb.to_owned(),
    }
}

/// Why a trade form refuses an amount, in a person's words (issue 42: never a raw curve error).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TradeRefusal {
    /// More than the connected account holds.
    #[error("you hold {held} {symbol}: you cannot {verb} more than that")]
    MoreThanHeld {
        /// The balance, formatted.
        held: String,
        /// Its unit.
        symbol: String,
        /// "pay" or "sell".
        verb: &'static str,
    },
    /// A sale larger than everything the curve has sold.
    #[error("the curve has sold {sold} {symbol} in all: no sale back to it can be larger")]
    MoreThanSold {
        /// What the curve has sold, formatted.
        sold: String,
        /// The token's symbol.
        symbol: String,
    },
    /// Anything else the curve refuses, in its own words.
    #[error("{0}")]
    Curve(String),
}

/// A curve refusal in words for the token `symbol` (tokens have 18 decimals).
pub fn curve_refusal(e: &CurveError, symbol: &str) -> TradeRefusal {
    match e {
        CurveError::ExceedsSold { sold, .. } => TradeRefusal::MoreThanSold {
            sold: crate::fmt::units(*sold, 18, 6),
            symbol: symbol.to_owned(),
        },
        CurveError::ZeroAmount(_) => {
            TradeRefusal::Curve("enter an amount greater than zero".into())
        }
        other => TradeRefusal::Curve(other.to_string()),
    }
}

/// [`TradeRefusal::MoreThanHeld`] when `amount` is more than `held` (the account's balance of the
/// asset paid, `decimals` and `symbol` its own).
pub fn over_balance(
    amount: U256,
    held: U256,
    decimals: u8,
    symbol: &str,
    verb: &'static str,
) -> Option<TradeRefusal> {
    (amount > held).then(|| TradeRefusal::MoreThanHeld {
        held: crate::fmt::units_exact(held, decimals),
        symbol: symbol.to_owned(),
        verb,
    })
}

/// A slippage tolerance worth a word before trading (issue 42): one so tight a trade may fail, or so
/// loose that a front-runner can take the difference. The setting is this browser's, for every token.
pub fn slippage_warning(bps: u32) -> Option<String> {
    if bps < 10 {
        Some(format!(
            "{} is very tight: the trade fails if the price moves at all before it is mined. This setting applies to every trade in this browser.",
            crate::fmt::percent_bps(bps)
        ))
    } else if bps > 500 {
        Some(format!(
            "{} is unusually loose: the trade may fill up to that much worse than quoted, and a front-runner can take the difference. This setting applies to every trade in this browser.",
            crate::fmt::percent_bps(bps)
        ))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn refusals_are_words() {
        let sold = U256::from(5u128 * 10u128.pow(21));
        let e = CurveError::ExceedsSold {
            tokens_in: U256::from(10u128.pow(30)),
            sold,
        };
        let w = curve_refusal(&e, "MEAD").to_string();
        assert_eq!(
            w,
            "the curve has sold 5,000 MEAD in all: no sale back to it can be larger"
        );
        assert!(!w.contains("tokensIn"));
        let held = U256::from(10u128.pow(17));
        assert_eq!(
            over_balance(U256::from(10u128.pow(18)), held, 18, "ETH", "pay")
                .unwrap()
                .to_string(),
            "you hold 0.1 ETH: you cannot pay more than that"
        );
        assert_eq!(over_balance(held, held, 18, "ETH", "pay"), None);
    }

    #[test]
    fn a_review_names_what_leaves_and_what_arrives() {
        let e18 = U256::from(10u64.pow(18));
        let r = TradeReview::new(
            "buy",
            Leg::new(e18 / U256::from(10u8), 18, "ETH"),
            Leg::new(U256::from(5_000u64) * e18, 18, "MEAD"),
            U256::from(4_950u64) * e18,
            100,
            120,
        );
        assert_eq!(r.gate(), ImpactGate::None);
        assert_eq!(r.go_label(), "Confirm: buy with 0.1 ETH");
        assert_eq!(r.pays.exact(), "0.1 ETH");
        assert_eq!(r.impact_warning(), None);
        assert_eq!(r.clone().with_back(U256::ZERO).comes_back, None);
        // A crossing buy's 70.88 % (the review's case) asks for "confirm" typed, from the same review.
        let high = TradeReview {
            impact_bps: 7_088,
            ..r.clone()
        }
        .with_back(e18);
        assert_eq!(high.gate(), ImpactGate::TypeConfirm);
        assert_eq!(high.go_label(), "Buy with 0.1 ETH anyway");
        assert_eq!(high.comes_back, Some(e18));
        assert!(high.impact_warning().unwrap().contains("70.88 %"));
        let sell = TradeReview::new(
            "sell",
            Leg::new(U256::from(1_000u64) * e18, 18, "MEAD"),
            Leg::new(e18, 18, "ETH"),
            e18,
            100,
            1_500,
        );
        assert_eq!(sell.gate(), ImpactGate::Confirm);
        assert_eq!(sell.go_label(), "Sell 1000 MEAD anyway");
    }

    #[test]
    fn unusual_slippage_is_named() {
        assert!(slippage_warning(0).unwrap().contains("very tight"));
        assert!(slippage_warning(5_000).unwrap().contains("50 %"));
        assert_eq!(slippage_warning(100), None);
        assert_eq!(slippage_warning(500), None);
        assert!(slippage_warning(501).is_some());
    }

    #[test]
    fn a_trade_button_repeats_what_leaves_the_wallet() {
        let tenth = U256::from(100_000_000_000_000_000u128);
        assert_eq!(
            trade_label("buy", Some(tenth), 18, "ETH"),
            "Buy with 0.1 ETH"
        );
        assert_eq!(
            trade_label("sell", Some(U256::from(1_000_000_000u64)), 6, "USDC"),
            "Sell 1000 USDC"
        );
        assert_eq!(trade_label("buy", None, 18, "ETH"), "Buy");
        // The review's comma, read by the one parser, is what the button repeats.
        let typed = crate::fmt::parse_units("0,1", 18).unwrap();
        assert_eq!(
            trade_label("buy", Some(typed), 18, "ETH"),
            "Buy with 0.1 ETH"
        );
    }
    use super::*;
    use crate::chain::abi::ILaunchpad;
    use crate::chain::launchpad::curve_state;
    use alloy_primitives::Address;

    fn e18(x: u64) -> U256 {
        U256::from(x) * U256::from(10u64).pow(U256::from(18))
    }

    fn fresh(launch_time: u64) -> ILaunchpad::Launch {
        crate::test_util::fresh_launch(Address::ZERO, launch_time)
    }

    #[test]
    fn impact_gates_escalate() {
        assert_eq!(impact_gate(0), ImpactGate::None);
        assert_eq!(impact_gate(1_000), ImpactGate::None);
        assert_eq!(impact_gate(1_001), ImpactGate::Confirm);
        assert_eq!(impact_gate(2_500), ImpactGate::Confirm);
        assert_eq!(impact_gate(2_501), ImpactGate::TypeConfirm);
        // 1 ETH into a fresh ETH curve moves its price a lot; a thousandth of that barely.
        let s = curve_state(&fresh(0), curve::state::DEFAULT_TOTAL_SUPPLY, 100).unwrap();
        let big = preview_buy(&s, e18(1), 10_000, 100).unwrap();
        assert_eq!(impact_gate(big.impact_bps), ImpactGate::TypeConfirm);
        assert!(big.progress_after_bps > 0);
        let small = preview_buy(&s, e18(1) / U256::from(1_000u32), 10_000, 100).unwrap();
        assert!(small.impact_bps < IMPACT_WARN_BPS, "{}", small.impact_bps);
    }

    #[test]
    fn slippage_min_out() {
        assert_eq!(min_out_down(U256::from(10_000), 100), U256::from(9_900));
        assert_eq!(min_out_down(U256::from(999), 100), U256::from(989)); // 989.01 rounded down
        assert_eq!(min_out_down(U256::from(1_000), 0), U256::from(1_000));
        assert_eq!(min_out_down(U256::from(1_000), 9_000), U256::from(500)); // capped at 50 %
        assert_eq!(parse_slippage_percent("0.5").unwrap(), 50);
        assert_eq!(parse_slippage_percent("1").unwrap(), 100);
        assert!(parse_slippage_percent("51").is_err());
        assert!(parse_slippage_percent("0.001").is_err());
    }

    #[test]
    fn previews_match_the_core() {
        let l = fresh(1_000);
        let s = curve_state(&l, curve::state::DEFAULT_TOTAL_SUPPLY, 100).unwrap();
        // In the anti-snipe window the fee is the tax.
        let p = preview_buy(&s, e18(1), 1_003, 100).unwrap();
        assert_eq!(p.snipe_pips, 66_000 * 12);
        assert_eq!(p.fee_pips, 66_000 * 12);
        assert_eq!(snipe_seconds_left(&s, 1_003), 12);
        // After it: τ = 1 %.
        let p = preview_buy(&s, e18(1), 1_100, 100).unwrap();
        assert_eq!(p.fee_pips, 10_000);
        assert_eq!(p.quote, curve::quote_buy(&s, e18(1), 100).unwrap());
        assert_eq!(p.min_tokens_out, min_out_down(p.quote.tokens_out, 100));
        // A crossing buy is clamped and refunded.
        let p = preview_buy(&s, e18(7), 1_100, 100).unwrap();
        assert!(p.quote.graduates);
        assert!(p.quote.refund > U256::ZERO);
        assert_eq!(p.quote.quote_used + p.quote.refund, e18(7));
        // Sells: nothing sold yet.
        assert!(preview_sell(&s, e18(1), 100).is_err());
    }

    #[test]
    fn trade_requests_carry_the_preview_minimum_and_a_deadline() {
        let (pad, token, usdc) = (
            Address::repeat_byte(1),
            Address::repeat_byte(2),
            Address::repeat_byte(3),
        );
        let state = curve_state(&fresh(1_000), curve::state::DEFAULT_TOTAL_SUPPLY, 100).unwrap();
        let p = preview_buy(&state, e18(1), 5_000, 100).unwrap();
        let eth = buy_request(pad, token, Address::ZERO, e18(1), &p, 5_000);
        let call = ILaunchpad::buyCall::abi_decode(&eth.data).unwrap();
        assert_eq!((eth.to, eth.value), (pad, e18(1)), "ETH is paid as value");
        assert_eq!(call.minTokensOut, p.min_tokens_out);
        assert_eq!(call.deadline, U256::from(5_000 + TRADE_DEADLINE_SECS));
        let erc20 = buy_request(pad, token, usdc, e18(1), &p, 5_000);
        assert_eq!(
            erc20.value,
            U256::ZERO,
            "an ERC-20 quote is approved, not sent"
        );
        let (after, _) = curve::apply_buy(&state, e18(1), 4_000, U256::ZERO).unwrap();
        let s = preview_sell(&after, p.quote.tokens_out / U256::from(2u8), 100).unwrap();
        let sell = sell_request(pad, token, U256::from(7u8), &s, 5_000);
        let call = ILaunchpad::sellCall::abi_decode(&sell.data).unwrap();
        assert_eq!(
            (call.tokensIn, call.minQuoteOut),
            (U256::from(7u8), s.min_quote_out)
        );
        assert_eq!(sell.value, U256::ZERO);
    }
}
