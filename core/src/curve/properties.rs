//! Property tests of the curve (C19): the invariant, no round-trip profit, `Q ≤ G`, tight
//! inverse quotes, and no panic on any input.

use super::*;
use crate::curve::state::{DEFAULT_TOTAL_SUPPLY, ETH_VIRTUAL_QUOTE};
use crate::math::mul_div_up;
use alloy_primitives::{U256, U512};
use proptest::prelude::*;

fn pow10(e: u32) -> U256 {
    U256::from(10u8).pow(U256::from(e))
}

/// `m × 10^e`: amounts spread over many orders of magnitude.
fn amount() -> impl Strategy<Value = U256> {
    (1u64..1_000, 0u32..23).prop_map(|(m, e)| U256::from(m) * pow10(e))
}

fn curve() -> impl Strategy<Value = CurveState> {
    let phi = prop_oneof![
        Just(ETH_VIRTUAL_QUOTE),
        Just(U256::from(3_125_000_000u64)),
        Just(U256::from(3_125u64) * pow10(18)),
        (1u64..1_000_000, 0u32..20).prop_map(|(m, e)| U256::from(m) * pow10(e)),
    ];
    (
        phi,
        prop_oneof![Just(None), (25u64..1_000_000_000).prop_map(Some)],
        0u32..1_000,
    )
        .prop_map(|(phi, mult, fee)| {
            let s = match mult {
                None if DEFAULT_TOTAL_SUPPLY >= phi * U256::from(25u8) => DEFAULT_TOTAL_SUPPLY,
                None => phi * U256::from(25u8),
                Some(m) => phi * U256::from(m),
            };
            CurveState::new(phi, s, fee, 0).unwrap()
        })
}

#[derive(Debug, Clone)]
enum Op {
    Buy(U256, u64),
    /// Sell this many thousandths of the sold tokens (at least one token).
    Sell(u16),
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    prop::collection::vec(
        prop_oneof![
            3 => (amount(), 0u64..40).prop_map(|(x, t)| Op::Buy(x, t)),
            2 => (0u16..=1000).prop_map(Op::Sell),
        ],
        1..25,
    )
}

fn check_state(s: &CurveState) -> Result<(), TestCaseError> {
    let a = s.virtual_quote + s.quote_raised;
    let k = U512::from(s.virtual_quote) * U512::from(s.total_supply);
    prop_assert!(
        U512::from(a) * U512::from(s.token_reserve) >= k,
        "invariant broken: {s:?}"
    );
    prop_assert!(
        s.quote_raised <= s.graduation_target().unwrap(),
        "Q above G: {s:?}"
    );
    prop_assert!(s.token_reserve <= s.total_supply);
    // With S ≥ 25Φ the curve keeps Φ + Q = ceil(Φ·S / Y): no rounding slack.
    prop_assert_eq!(
        a,
        mul_div_up(s.virtual_quote, s.total_supply, s.token_reserve).unwrap()
    );
    Ok(())
}

/// Runs `ops` from `s`, checking every state and the curve's books (Q = Σ net in − Σ gross out).
fn run(mut s: CurveState, ops: &[Op]) -> Result<Vec<CurveState>, TestCaseError> {
    let mut states = vec![s];
    let mut books = U256::ZERO;
    for op in ops {
        match *op {
            Op::Buy(x, t) => match apply_buy(&s, x, t, U256::ZERO) {
                Ok((next, q)) => {
                    prop_assert_eq!(q.quote_used + q.refund, x);
                    prop_assert!(q.fee <= q.quote_used);
                    books += q.quote_to_curve();
                    s = next;
                }
                Err(CurveError::Graduated) => prop_assert!(s.is_graduated()),
                Err(e) => prop_assert!(false, "buy failed: {e}"),
            },
            Op::Sell(frac) => {
                let y =
                    (s.tokens_sold() * U256::from(frac) / U256::from(1000u16)).max(U256::from(1u8));
                match apply_sell(&s, y, U256::ZERO) {
                    Ok((next, q)) => {
                        books -= q.gross();
                        s = next;
                    }
                    Err(CurveError::Graduated) => prop_assert!(s.is_graduated()),
                    Err(CurveError::ExceedsSold { .. }) => prop_assert!(s.tokens_sold().is_zero()),
                    Err(e) => prop_assert!(false, "sell failed: {e}"),
                }
            }
        }
        check_state(&s)?;
        prop_assert_eq!(books, s.quote_raised);
        states.push(s);
    }
    Ok(states)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// `(Φ + Q)·Y ≥ Φ·S` and `Q ≤ G` over random buy/sell sequences; the books balance.
    #[test]
    fn invariant_holds_over_random_sequences(s in curve(), ops in ops()) {
        run(s, &ops)?;
    }

    /// A buy followed by selling the same tokens never returns more quote than was paid.
    #[test]
    fn buy_then_sell_never_profits(s in curve(), ops in ops(), x in amount(), t in 0u64..40) {
        let states = run(s, &ops)?;
        for st in states {
            let Ok((after, b)) = apply_buy(&st, x, t, U256::ZERO) else { continue };
            if b.graduates || b.tokens_out.is_zero() {
                continue;
            }
            let q = quote_sell(&after, b.tokens_out).unwrap();
            prop_assert!(q.quote_out <= b.quote_used, "round trip profit: paid {} got {}", b.quote_used, q.quote_out);
            prop_assert!(q.gross() <= b.quote_to_curve());
        }
    }

    /// The inverse quotes are the smallest amounts that satisfy the forward quotes.
    #[test]
    fn inverse_quotes_are_tight(s in curve(), ops in ops(), want in amount(), t in 0u64..40, frac in 1u16..=1000) {
        let states = run(s, &ops)?;
        for st in states {
            if st.is_graduated() {
                continue;
            }
            let available = st.token_reserve - st.graduation_reserve().unwrap();
            let tokens = (available * U256::from(frac) / U256::from(1000u16)).max(U256::from(1u8)).min(available);
            if !tokens.is_zero() {
                let x = quote_in_for_tokens_out(&st, tokens, t).unwrap();
                prop_assert!(quote_buy(&st, x, t).unwrap().tokens_out >= tokens);
                if x > U256::from(1u8) {
                    prop_assert!(quote_buy(&st, x - U256::from(1u8), t).unwrap().tokens_out < tokens);
                }
            }
            match tokens_in_for_quote_out(&st, want) {
                Ok(y) => {
                    prop_assert!(quote_sell(&st, y).unwrap().quote_out >= want);
                    if y > U256::from(1u8) {
                        prop_assert!(quote_sell(&st, y - U256::from(1u8)).unwrap().quote_out < want);
                    }
                }
                Err(CurveError::ExceedsRaised { .. }) => {
                    let sold = st.tokens_sold();
                    if !sold.is_zero() {
                        prop_assert!(quote_sell(&st, sold).unwrap().quote_out < want);
                    }
                }
                Err(e) => prop_assert!(false, "inverse sell failed: {e}"),
            }
        }
    }

    /// No input makes any curve function panic.
    #[test]
    fn no_panic_on_any_input(
        l in any::<[[u64; 4]; 5]>(), fee in any::<u32>(), t in any::<u64>(), small in any::<[u64; 3]>(), d in any::<u8>(),
    ) {
        let st = CurveState {
            virtual_quote: U256::from_limbs(l[0]),
            total_supply: U256::from_limbs(l[1]),
            quote_raised: U256::from_limbs(l[2]),
            token_reserve: U256::from_limbs(l[3]),
            fee_bps: fee,
            launch_time: t,
        };
        let x = U256::from_limbs(l[4]);
        let near = CurveState {
            quote_raised: U256::from(small[0]),
            token_reserve: DEFAULT_TOTAL_SUPPLY - U256::from(small[1]),
            fee_bps: fee % 12_000,
            ..CurveState::eth_pair(0)
        };
        for s in [st, near] {
            for a in [x, U256::from(small[2]), U256::ZERO, U256::MAX] {
                let _ = quote_buy(&s, a, t);
                let _ = quote_sell(&s, a);
                let _ = apply_buy(&s, a, t, a);
                let _ = apply_sell(&s, a, a);
                let _ = quote_in_for_tokens_out(&s, a, t);
                let _ = tokens_in_for_quote_out(&s, a);
            }
            let _ = progress_bps(&s);
            let _ = progress_wad(&s);
            let _ = spot_price_wad(&s, d);
            let _ = market_cap_wad(&s, d);
            let _ = graduation_amounts(&s);
            let _ = graduation_pool(&s, alloy_primitives::Address::ZERO, alloy_primitives::Address::repeat_byte(1), i32::from(d));
        }
    }
}
