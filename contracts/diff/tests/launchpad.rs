//! Differential test 2, `Launchpad` + `CurveMath` + `GraduationMath` (C19, C20) against `eden_core::curve`.
//!
//! Several launches (ETH and the deploy script's 6-decimal stablecoin) take thousands of random
//! buys and sells of random sizes. Blocks are mined on demand with a chosen timestamp, so the
//! seconds since launch of every trade are known exactly (trades at t = 0, in the launch block,
//! and all through the 15 s anti-snipe window). Every fill (tokens out, fee, quote used, refund;
//! sell out and fee; the resulting Q and Y) must equal core's quote exactly; after every block the
//! contract's `quoteBuy`/`quoteSell` views (clamped buys included) and its slippage reverts (which
//! carry the contract's own amounts) are compared with core by `eth_call`. Each launch ends with a
//! crossing buy that graduates with a refund (two of them inside the anti-snipe window); then the
//! v4 pool's `sqrtPriceX96`, tick and liquidity read through the PoolManager's `extsload` equal
//! `eden_core::curve::graduation`, the curve refuses trades, and no quote or token was created or
//! lost (every balance is accounted for, gas included).

#[cfg(not(eden_artifacts))]
#[test]
fn launchpad_needs_forge_artifacts() {
    panic!("contracts/out is missing: run `cd contracts && ../node_modules/.bin/forge build --offline` first");
}

#[cfg(eden_artifacts)]
mod diff {
    use alloy::primitives::{keccak256, Address, B256, U256};
    use alloy::rpc::types::{TransactionReceipt, TransactionRequest};
    use alloy::sol_types::{SolCall, SolInterface};
    use eden_contracts_diff::bindings::extsload::IExtsload;
    use eden_contracts_diff::bindings::launchpad::Launchpad::{self, LaunchpadErrors};
    use eden_contracts_diff::bindings::stablecoin::TestERC20;
    use eden_contracts_diff::bindings::token::LaunchToken;
    use eden_contracts_diff::{
        deploy, gas_cost, start_node, test_chain_id, tx, Deployment, Node, Rng,
    };
    use eden_core::curve::fee::FEE_DENOMINATOR_PIPS;
    use eden_core::curve::{
        apply_buy, apply_sell, buy_fee_rate_pips, graduation_pool, graduation_sqrt_price_x96,
        quote_buy, quote_sell, BuyQuote, CurveState, SellQuote,
    };
    use eden_core::math::mul_div_up;
    use eden_core::uniswap::sqrt_price_math::{get_amount0_delta, get_amount1_delta};
    use eden_core::uniswap::state;
    use eden_core::uniswap::tick_math::{get_sqrt_price_at_tick, get_tick_at_sqrt_price};
    use std::collections::HashMap;
    use std::io::Write;
    use std::time::Instant;

    const BUY_GAS: u64 = 400_000;
    const GRADUATE_GAS: u64 = 3_000_000;
    const FAR: u64 = 1 << 40;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Pair {
        /// Native ETH (always currency0 of the pool).
        Eth,
        /// The deploy script's stablecoin (a high address: the token is usually currency0).
        Usdc,
        /// A copy of it at a low address (the stablecoin is always currency0).
        UsdcLow,
    }

    /// One launch of the run: its pair, how many random trades, and when the crossing buy comes
    /// (`None`: after `trades` random trades past the window; `Some(t)`, `t ≤ 15`: after trades
    /// through the window up to second `t`, at `t`).
    struct Plan {
        pair: Pair,
        trades: usize,
        graduate_at: Option<u64>,
    }

    /// What a transaction of a block must do.
    enum Expect {
        /// A setup transaction (launch, approve): must succeed.
        Ok,
        Buy {
            trader: Address,
            q: BuyQuote,
            after: CurveState,
        },
        Sell {
            trader: Address,
            tokens_in: U256,
            q: SellQuote,
            after: CurveState,
        },
        /// Must revert (slippage, deadline, graduated).
        Revert(&'static str),
    }

    struct Launch {
        token: Address,
        quote: Address,
        t0: u64,
        state: CurveState,
        holdings: HashMap<Address, U256>,
        fees: U256,
    }

    #[derive(Default)]
    struct Stats {
        buys: usize,
        sells: usize,
        in_window: usize,
        at_launch: usize,
        expected_reverts: usize,
        views: usize,
        clamped_views: usize,
        slippage_calls: usize,
        graduations: usize,
        quote_is_currency0: usize,
    }

    struct Run {
        node: Node,
        d: Deployment,
        rng: Rng,
        traders: Vec<Address>,
        creator: Address,
        nonces: HashMap<Address, u64>,
        eth: HashMap<Address, U256>,
        /// Expected stablecoin balances, by (asset, account).
        erc20: HashMap<(Address, Address), U256>,
        usdc_low: Address,
        now: u64,
        stats: Stats,
        /// Per quote asset (address 0 = ETH), over all graduations: what the v4 pool received,
        /// what the locker kept, and the launchpad's uncollected fees.
        pool_q: HashMap<Address, U256>,
        locker_q: HashMap<Address, U256>,
        fees_q: HashMap<Address, U256>,
    }

    /// A stablecoin at a low address, so that it sorts before every launched token.
    const USDC_LOW: Address = Address::new([
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0e, 0xde, 0x00,
    ]);

    fn pool_id(key: &[B256; 5]) -> B256 {
        keccak256(key.iter().flat_map(|w| w.0).collect::<Vec<u8>>())
    }

    fn word_addr(a: Address) -> B256 {
        a.into_word()
    }

    impl Run {
        fn next_nonce(&mut self, a: Address) -> u64 {
            let n = self.nonces.get_mut(&a).expect("known sender");
            *n += 1;
            *n - 1
        }

        /// Mines one block at `ts` with `txs` (in order) and checks every receipt against its expectation.
        async fn block(
            &mut self,
            ts: u64,
            txs: Vec<(TransactionRequest, Expect)>,
        ) -> Vec<TransactionReceipt> {
            assert!(ts > self.now, "timestamps must increase");
            self.node.set_next_timestamp(ts).await;
            let mut hashes = Vec::with_capacity(txs.len());
            let mut expects = Vec::with_capacity(txs.len());
            for (t, e) in txs {
                let from = t.from.expect("from");
                let t = t.nonce(self.next_nonce(from));
                hashes.push(self.node.send(t).await);
                expects.push(e);
            }
            let n = self.node.mine().await;
            self.now = ts;
            let receipts = self.node.block_receipts(n).await;
            let got: Vec<_> = receipts.iter().map(|r| r.transaction_hash).collect();
            assert_eq!(
                got, hashes,
                "block {n}: transactions not mined in the order sent"
            );
            for (r, e) in receipts.iter().zip(&expects) {
                *self.eth.get_mut(&r.from).expect("known sender") -= gas_cost(r);
                self.check(r, e);
            }
            receipts
        }

        fn check(&mut self, r: &TransactionReceipt, e: &Expect) {
            match e {
                Expect::Ok => assert!(
                    r.status(),
                    "setup transaction {} reverted",
                    r.transaction_hash
                ),
                Expect::Revert(why) => {
                    assert!(
                        !r.status(),
                        "transaction {} should have reverted ({why})",
                        r.transaction_hash
                    );
                    self.stats.expected_reverts += 1;
                }
                Expect::Buy { trader, q, after } => {
                    assert!(
                        r.status(),
                        "buy {} reverted; core expected {q:?}",
                        r.transaction_hash
                    );
                    let ev = r
                        .inner
                        .logs()
                        .iter()
                        .find_map(|l| l.log_decode::<Launchpad::Bought>().ok())
                        .expect("Bought event")
                        .inner
                        .data;
                    let chain = (
                        ev.buyer,
                        ev.tokensOut,
                        ev.fee,
                        ev.quoteUsed,
                        ev.refund,
                        ev.quoteRaised,
                        ev.tokenReserve,
                    );
                    let core = (
                        *trader,
                        q.tokens_out,
                        q.fee,
                        q.quote_used,
                        q.refund,
                        after.quote_raised,
                        after.token_reserve,
                    );
                    assert_eq!(
                        chain, core,
                        "buy {}: contract (buyer, tokensOut, fee, quoteUsed, refund, Q, Y) vs core",
                        r.transaction_hash
                    );
                    self.stats.buys += 1;
                }
                Expect::Sell {
                    trader,
                    tokens_in,
                    q,
                    after,
                } => {
                    assert!(
                        r.status(),
                        "sell {} reverted; core expected {q:?}",
                        r.transaction_hash
                    );
                    let ev = r
                        .inner
                        .logs()
                        .iter()
                        .find_map(|l| l.log_decode::<Launchpad::Sold>().ok())
                        .expect("Sold event")
                        .inner
                        .data;
                    let chain = (
                        ev.seller,
                        ev.tokensIn,
                        ev.quoteOut,
                        ev.fee,
                        ev.quoteRaised,
                        ev.tokenReserve,
                    );
                    let core = (
                        *trader,
                        *tokens_in,
                        q.quote_out,
                        q.fee,
                        after.quote_raised,
                        after.token_reserve,
                    );
                    assert_eq!(
                        chain, core,
                        "sell {}: contract (seller, tokensIn, quoteOut, fee, Q, Y) vs core",
                        r.transaction_hash
                    );
                    self.stats.sells += 1;
                }
            }
        }

        fn quote_addr(&self, p: Pair) -> Address {
            match p {
                Pair::Eth => Address::ZERO,
                Pair::Usdc => self.d.stablecoin,
                Pair::UsdcLow => self.usdc_low,
            }
        }

        fn pay(&mut self, quote: Address, who: Address, minus: U256, plus: U256) {
            let b = if quote.is_zero() {
                self.eth.get_mut(&who).expect("known trader")
            } else {
                self.erc20.get_mut(&(quote, who)).expect("known trader")
            };
            *b = *b - minus + plus;
        }

        /// A random buy amount: tiny, small or typical for a curve whose target is `g`.
        fn buy_amount(&mut self, g: U256) -> U256 {
            let one = U256::from(1u8);
            match self.rng.below(100) {
                0..=7 => U256::from(1 + self.rng.below(1_000)),
                8..=19 => self
                    .rng
                    .u256_log(U256::from(1_000u32), g / U256::from(10_000u32)),
                _ => self
                    .rng
                    .u256_log(g / U256::from(10_000u32), g / U256::from(30u32))
                    .max(one),
            }
        }

        /// Plans one random trade on `l` at `t` seconds after launch (block timestamp `ts`); updates the model.
        fn plan_trade(&mut self, l: &mut Launch, ts: u64) -> (TransactionRequest, Expect) {
            let t = ts - l.t0;
            let pad = self.d.launchpad;
            let st = l.state;
            let g = st.graduation_target().unwrap();
            let holders: Vec<Address> = self
                .traders
                .iter()
                .copied()
                .filter(|a| l.holdings.get(a).is_some_and(|b| !b.is_zero()))
                .collect();
            let q_pct = (st.quote_raised * U256::from(100u8) / g).to::<u64>();
            let sell = !holders.is_empty() && self.rng.chance(30 + q_pct / 2);
            let deadline = match self.rng.below(100) {
                0..=19 => ts, // the boundary: block.timestamp == deadline passes
                _ => ts + 3_600,
            };
            let sabotage = self.rng.chance(3);
            if sell {
                let trader = *self.rng.pick(&holders);
                let bal = l.holdings[&trader];
                let tokens_in = match self.rng.below(100) {
                    0..=9 => bal,
                    10..=19 => U256::from(1 + self.rng.below(1_000)).min(bal),
                    _ => self.rng.u256_between(U256::from(1u8), bal),
                };
                let q = quote_sell(&st, tokens_in).expect("core quotes the sell");
                let (min, deadline, why) = if sabotage {
                    if self.rng.chance(50) {
                        (
                            q.quote_out + U256::from(1u8),
                            deadline,
                            Some("quoteOut below min"),
                        )
                    } else {
                        (U256::ZERO, ts - 1, Some("deadline expired"))
                    }
                } else {
                    (
                        if self.rng.chance(50) {
                            q.quote_out
                        } else {
                            U256::ZERO
                        },
                        deadline,
                        None,
                    )
                };
                let call = Launchpad::sellCall {
                    token: l.token,
                    tokensIn: tokens_in,
                    minQuoteOut: min,
                    deadline: U256::from(deadline),
                };
                let req = tx(trader, pad, call.abi_encode()).gas_limit(BUY_GAS);
                if let Some(why) = why {
                    return (req, Expect::Revert(why));
                }
                let (after, q2) = apply_sell(&st, tokens_in, min).expect("core applies the sell");
                assert_eq!(q, q2);
                l.state = after;
                *l.holdings.get_mut(&trader).unwrap() -= tokens_in;
                l.fees += q.fee;
                self.pay(l.quote, trader, U256::ZERO, q.quote_out);
                if t < 15 {
                    self.stats.in_window += 1;
                }
                if t == 0 {
                    self.stats.at_launch += 1;
                }
                return (
                    req,
                    Expect::Sell {
                        trader,
                        tokens_in,
                        q,
                        after,
                    },
                );
            }
            let trader = *self.rng.pick(&self.traders.clone());
            let mut amount = self.buy_amount(g);
            let mut q = quote_buy(&st, amount, t).expect("core quotes the buy");
            while q.graduates {
                amount /= U256::from(2u8);
                amount = amount.max(U256::from(1u8));
                q = quote_buy(&st, amount, t).expect("core quotes the buy");
            }
            let (min, deadline, why) = if sabotage {
                if self.rng.chance(50) {
                    (
                        q.tokens_out + U256::from(1u8),
                        deadline,
                        Some("tokensOut below min"),
                    )
                } else {
                    (U256::ZERO, ts - 1, Some("deadline expired"))
                }
            } else {
                (
                    if self.rng.chance(50) {
                        q.tokens_out
                    } else {
                        U256::ZERO
                    },
                    deadline,
                    None,
                )
            };
            let req = self.buy_request(l, trader, amount, min, deadline, BUY_GAS);
            if let Some(why) = why {
                return (req, Expect::Revert(why));
            }
            let after = self.apply_buy_model(l, trader, amount, t, min, q);
            if t < 15 {
                self.stats.in_window += 1;
            }
            if t == 0 {
                self.stats.at_launch += 1;
            }
            (req, Expect::Buy { trader, q, after })
        }

        fn buy_request(
            &self,
            l: &Launch,
            trader: Address,
            amount: U256,
            min: U256,
            deadline: u64,
            gas: u64,
        ) -> TransactionRequest {
            let call = Launchpad::buyCall {
                token: l.token,
                quoteIn: amount,
                minTokensOut: min,
                deadline: U256::from(deadline),
            };
            let req = tx(trader, self.d.launchpad, call.abi_encode()).gas_limit(gas);
            if l.quote.is_zero() {
                req.value(amount)
            } else {
                req
            }
        }

        fn apply_buy_model(
            &mut self,
            l: &mut Launch,
            trader: Address,
            amount: U256,
            t: u64,
            min: U256,
            q: BuyQuote,
        ) -> CurveState {
            let (after, q2) = apply_buy(&l.state, amount, t, min).expect("core applies the buy");
            assert_eq!(q, q2);
            l.state = after;
            *l.holdings.entry(trader).or_default() += q.tokens_out;
            l.fees += q.fee;
            self.pay(l.quote, trader, q.quote_used, U256::ZERO);
            after
        }

        /// After a block: the contract's stored launch equals the model, and by `eth_call` on the
        /// latest state with the block time overridden to a chosen second `t` after launch (every
        /// second of the anti-snipe window, or now), the contract's `quoteBuy`/`quoteSell` views
        /// (clamped buys included) and its slippage and deadline reverts (which carry the contract's
        /// own amounts) equal core's quotes at that `t`.
        async fn compare_views(&mut self, l: &Launch) {
            let pad = Launchpad::new(self.d.launchpad, self.node.provider.clone());
            let s = pad.launchOf(l.token).call().await.unwrap();
            assert_eq!(
                (s.quoteRaised, s.tokenReserve, s.feesAccrued, s.graduated),
                (l.state.quote_raised, l.state.token_reserve, l.fees, false),
                "launchOf({}) (Q, Y, fees, graduated) vs model",
                l.token
            );
            let st = l.state;
            let g = st.graduation_target().unwrap();
            let now_t = self.now - l.t0;
            let pick_t = |rng: &mut Rng| if rng.chance(50) { now_t } else { rng.below(21) };
            let view_buy = |amount: U256| {
                tx(
                    self.creator,
                    self.d.launchpad,
                    Launchpad::quoteBuyCall {
                        token: l.token,
                        quoteIn: amount,
                    }
                    .abi_encode(),
                )
            };
            for k in 0..3 {
                let t = pick_t(&mut self.rng);
                let amount = if k == 0 {
                    // Always past the target: the clamp with its refund.
                    let f = U256::from(buy_fee_rate_pips(st.fee_bps, t));
                    let d = U256::from(FEE_DENOMINATOR_PIPS);
                    mul_div_up(g - st.quote_raised, d, d - f).unwrap()
                        + self.rng.u256_below(g / U256::from(4u8))
                } else {
                    self.rng.u256_log(U256::from(1u8), g * U256::from(2u8))
                };
                let ret = self
                    .node
                    .call_at(view_buy(amount), l.t0 + t)
                    .await
                    .expect("quoteBuy view reverted");
                let v = Launchpad::quoteBuyCall::abi_decode_returns(&ret).unwrap();
                let c = quote_buy(&st, amount, t).unwrap();
                assert_eq!(
                    (v.tokensOut, v.fee, v.quoteUsed, v.refund, v.graduates),
                    (c.tokens_out, c.fee, c.quote_used, c.refund, c.graduates),
                    "quoteBuy({amount}) view at t = {t} vs core at Q={} Y={}",
                    st.quote_raised,
                    st.token_reserve
                );
                assert!(k != 0 || c.graduates);
                self.stats.views += 1;
                self.stats.clamped_views += usize::from(c.graduates);
            }
            let sold = st.tokens_sold();
            if !sold.is_zero() {
                let y = self.rng.u256_between(U256::from(1u8), sold);
                let v = pad.quoteSell(l.token, y).call().await.unwrap();
                let c = quote_sell(&st, y).unwrap();
                assert_eq!(
                    (v.quoteOut, v.fee),
                    (c.quote_out, c.fee),
                    "quoteSell({y}) view vs core"
                );
                self.stats.views += 1;
            }
            // Slippage reverts carry the contract's own amounts.
            let t = pick_t(&mut self.rng);
            let trader = *self.rng.pick(&self.traders.clone());
            let mut amount = self.buy_amount(g);
            let mut q = quote_buy(&st, amount, t).unwrap();
            while q.graduates {
                amount = (amount / U256::from(2u8)).max(U256::from(1u8));
                q = quote_buy(&st, amount, t).unwrap();
            }
            let min = q.tokens_out + U256::from(1u8);
            let req = self.buy_request(l, trader, amount, min, FAR, BUY_GAS);
            match LaunchpadErrors::abi_decode(
                &self
                    .node
                    .call_at(req, l.t0 + t)
                    .await
                    .expect_err("buy above min must revert"),
            )
            .unwrap()
            {
                LaunchpadErrors::TokensOutBelowMin(e) => assert_eq!(
                    (e.tokensOut, e.minTokensOut),
                    (q.tokens_out, min),
                    "buy({amount}) at t = {t}: slippage revert vs core"
                ),
                other => panic!("expected TokensOutBelowMin, got {other:?}"),
            }
            self.stats.slippage_calls += 1;
            // A deadline one second in the past.
            let at = l.t0 + t;
            if at > 0 {
                let req = self.buy_request(l, trader, amount, U256::ZERO, at - 1, BUY_GAS);
                match LaunchpadErrors::abi_decode(
                    &self
                        .node
                        .call_at(req, at)
                        .await
                        .expect_err("expired buy must revert"),
                )
                .unwrap()
                {
                    LaunchpadErrors::DeadlineExpired(e) => {
                        assert_eq!(
                            (e.deadline, e.timestamp),
                            (U256::from(at - 1), U256::from(at))
                        )
                    }
                    other => panic!("expected DeadlineExpired, got {other:?}"),
                }
                self.stats.slippage_calls += 1;
            }
            if let Some((&seller, &bal)) = l.holdings.iter().find(|(_, b)| !b.is_zero()) {
                let y = self.rng.u256_between(U256::from(1u8), bal);
                let q = quote_sell(&st, y).unwrap();
                let min = q.quote_out + U256::from(1u8);
                let call = Launchpad::sellCall {
                    token: l.token,
                    tokensIn: y,
                    minQuoteOut: min,
                    deadline: U256::from(FAR),
                };
                let req = tx(seller, self.d.launchpad, call.abi_encode()).gas_limit(BUY_GAS);
                match LaunchpadErrors::abi_decode(
                    &self
                        .node
                        .call(req)
                        .await
                        .expect_err("sell above min must revert"),
                )
                .unwrap()
                {
                    LaunchpadErrors::QuoteOutBelowMin(e) => {
                        assert_eq!(
                            (e.quoteOut, e.minQuoteOut),
                            (q.quote_out, min),
                            "sell({y}) slippage revert vs core"
                        )
                    }
                    other => panic!("expected QuoteOutBelowMin, got {other:?}"),
                }
                self.stats.slippage_calls += 1;
            }
        }

        /// One whole launch: launch block (with trades at t = 0), the anti-snipe window, random
        /// trades, the crossing buy, and every post-graduation check.
        async fn launch(&mut self, plan: &Plan) {
            let pad_addr = self.d.launchpad;
            let quote = self.quote_addr(plan.pair);
            let phi = match plan.pair {
                Pair::Eth => self.d.eth_virtual_quote,
                Pair::Usdc | Pair::UsdcLow => self.d.stablecoin_virtual_quote,
            };
            let pad_nonce = self.node.nonce(pad_addr).await;
            let token = pad_addr.create(pad_nonce);
            let t0 = self.now + 1 + self.rng.below(100);
            let mut l = Launch {
                token,
                quote,
                t0,
                state: CurveState::new(phi, self.d.supply, self.d.fee_bps, t0)
                    .expect("core curve state"),
                holdings: HashMap::new(),
                fees: U256::ZERO,
            };
            // Launch block: launch, every trader approves the (predicted) token, a few trades at t = 0.
            let mut txs = Vec::new();
            let call = Launchpad::launchCall {
                name: "Diff".into(),
                symbol: "DIFF".into(),
                quote,
                ownBuybackShare: 0,
            };
            txs.push((
                tx(self.creator, pad_addr, call.abi_encode()).gas_limit(GRADUATE_GAS),
                Expect::Ok,
            ));
            for &a in &self.traders.clone() {
                let call = LaunchToken::approveCall {
                    spender: pad_addr,
                    value: U256::MAX,
                };
                txs.push((
                    tx(a, token, call.abi_encode()).gas_limit(100_000),
                    Expect::Ok,
                ));
            }
            let mut done = 0;
            let graduate_now = plan.graduate_at == Some(0);
            if !graduate_now {
                for _ in 0..3 + self.rng.below(8) {
                    txs.push(self.plan_trade(&mut l, t0));
                    done += 1;
                }
            }
            if graduate_now {
                self.graduate(&mut l, t0, txs).await;
                return;
            }
            let receipts = self.block(t0, txs).await;
            let ev = receipts[0]
                .inner
                .logs()
                .iter()
                .find_map(|lg| lg.log_decode::<Launchpad::Launched>().ok())
                .expect("Launched event")
                .inner
                .data;
            assert_eq!(
                (ev.token, ev.quote, ev.supply, ev.virtualQuote),
                (token, quote, self.d.supply, phi)
            );
            let on_chain = Launchpad::new(pad_addr, self.node.provider.clone())
                .launchOf(token)
                .call()
                .await
                .unwrap();
            assert_eq!(on_chain.launchTime, t0);
            self.compare_views(&l).await;

            // The anti-snipe window, t = 1…14, a few trades in most seconds.
            let window_end = plan.graduate_at.unwrap_or(15);
            for t in 1..window_end.min(15) {
                if !self.rng.chance(75) {
                    continue;
                }
                let ts = t0 + t;
                let k = 1 + self.rng.below(8);
                let txs: Vec<_> = (0..k).map(|_| self.plan_trade(&mut l, ts)).collect();
                done += k as usize;
                self.block(ts, txs).await;
                self.compare_views(&l).await;
            }
            if let Some(t) = plan.graduate_at {
                assert!(t <= 15, "graduate_at is a second of the window (or 15)");
                self.graduate(&mut l, t0 + t, Vec::new()).await;
                return;
            }
            // Random trading after the window.
            let mut ts = t0 + 15;
            while done < plan.trades {
                let k = (1 + self.rng.below(40) as usize).min(plan.trades - done);
                let txs: Vec<_> = (0..k).map(|_| self.plan_trade(&mut l, ts)).collect();
                done += k;
                self.block(ts, txs).await;
                self.compare_views(&l).await;
                ts += 1 + self.rng.below(120);
            }
            self.graduate(&mut l, ts, Vec::new()).await;
        }

        /// The crossing buy (with a refund) at `ts`, after `txs`, followed in the same block by a
        /// buy and a sell that must revert; then the pool and every balance.
        async fn graduate(
            &mut self,
            l: &mut Launch,
            ts: u64,
            mut txs: Vec<(TransactionRequest, Expect)>,
        ) {
            let t = ts - l.t0;
            let st = l.state;
            let g = st.graduation_target().unwrap();
            let room = g - st.quote_raised;
            let f = U256::from(buy_fee_rate_pips(st.fee_bps, t));
            let d = U256::from(FEE_DENOMINATOR_PIPS);
            let used = mul_div_up(room, d, d - f).unwrap();
            let extra = self.rng.u256_between(U256::from(1u8), g / U256::from(10u8));
            let amount = used + extra;
            let buyer = *self.rng.pick(&self.traders.clone());
            let q = quote_buy(&st, amount, t).unwrap();
            assert!(
                q.graduates && q.refund == extra && q.quote_used == used,
                "core clamp: {q:?}"
            );
            let req = self.buy_request(l, buyer, amount, q.tokens_out, ts, GRADUATE_GAS);
            let after = self.apply_buy_model(l, buyer, amount, t, q.tokens_out, q);
            assert_eq!(after.quote_raised, g);
            txs.push((
                req,
                Expect::Buy {
                    trader: buyer,
                    q,
                    after,
                },
            ));
            let grad_index = txs.len() - 1;
            // Trades after graduation in the same block: refused.
            let other = *self.rng.pick(&self.traders.clone());
            txs.push((
                self.buy_request(l, other, g / U256::from(100u8), U256::ZERO, FAR, BUY_GAS),
                Expect::Revert("graduated (buy)"),
            ));
            let call = Launchpad::sellCall {
                token: l.token,
                tokensIn: U256::from(1u8),
                minQuoteOut: U256::ZERO,
                deadline: U256::from(FAR),
            };
            txs.push((
                tx(buyer, self.d.launchpad, call.abi_encode()).gas_limit(BUY_GAS),
                Expect::Revert("graduated (sell)"),
            ));
            let receipts = self.block(ts, txs).await;
            if t < 15 {
                self.stats.in_window += 1;
            }
            if t == 0 {
                self.stats.at_launch += 1;
            }

            // Graduation: event vs core.
            let pool = graduation_pool(&after, l.quote, l.token, self.d.tick_spacing)
                .expect("core graduation pool");
            let ev = receipts[grad_index]
                .inner
                .logs()
                .iter()
                .find_map(|lg| lg.log_decode::<Launchpad::Graduated>().ok())
                .expect("Graduated event")
                .inner
                .data;
            let sqrt_lo = get_sqrt_price_at_tick(pool.tick_lower.into()).unwrap();
            let sqrt_hi = get_sqrt_price_at_tick(pool.tick_upper.into()).unwrap();
            let paid0 =
                get_amount0_delta(pool.sqrt_price_x96, sqrt_hi, pool.liquidity, true).unwrap();
            let paid1 =
                get_amount1_delta(sqrt_lo, pool.sqrt_price_x96, pool.liquidity, true).unwrap();
            assert_eq!(
                (
                    U256::from(ev.sqrtPriceX96),
                    ev.liquidity,
                    ev.paid0,
                    ev.paid1,
                    ev.tokensLocked
                ),
                (
                    pool.sqrt_price_x96,
                    pool.liquidity,
                    paid0,
                    paid1,
                    pool.tokens_locked
                ),
                "Graduated (sqrtPriceX96, liquidity, paid0, paid1, tokensLocked) vs core"
            );
            assert_eq!(
                pool.sqrt_price_x96,
                graduation_sqrt_price_x96(pool.amount0, pool.amount1).unwrap()
            );

            // The pool key and id the launchpad reports, and the v4 pool's state (extsload).
            let key = [
                word_addr(pool.currency0),
                word_addr(pool.currency1),
                B256::from(U256::from(self.d.pool_fee)),
                B256::from(U256::from(self.d.tick_spacing as u32)),
                word_addr(self.d.launch_locker),
            ];
            let id = pool_id(&key);
            assert_eq!(
                ev.poolId, id,
                "Graduated poolId vs keccak256(abi.encode(key))"
            );
            assert_eq!(
                state::pool_id(
                    pool.currency0,
                    pool.currency1,
                    self.d.pool_fee,
                    self.d.tick_spacing,
                    self.d.launch_locker
                ),
                id,
                "eden_core::uniswap::state::pool_id vs the launchpad's"
            );
            let pad = Launchpad::new(self.d.launchpad, self.node.provider.clone());
            let po = pad.poolOf(l.token).call().await.unwrap();
            assert_eq!(po.poolId, id);
            assert_eq!(
                (po.key.currency0, po.key.currency1, po.key.hooks),
                (pool.currency0, pool.currency1, self.d.launch_locker)
            );
            let ext = IExtsload::new(self.d.pool_manager, self.node.provider.clone());
            // eden_core's StateLibrary model (slots and Slot0 decoding) against the real PoolManager.
            let word = ext
                .extsload_0(state::pool_state_slot(id))
                .call()
                .await
                .unwrap();
            let slot0 = state::Slot0::from_word(word);
            let (sqrt_price, tick, lp_fee) = (slot0.sqrt_price_x96, slot0.tick, slot0.lp_fee);
            assert_eq!(slot0.protocol_fee, 0, "no protocol fee on a fresh pool");
            let liq_word = ext
                .extsload_0(state::liquidity_slot(id))
                .call()
                .await
                .unwrap();
            assert_eq!(
                U256::from_be_bytes(liq_word.0),
                U256::from(state::liquidity_from_word(liq_word)),
                "the liquidity word holds a uint128"
            );
            let liquidity = U256::from(state::liquidity_from_word(liq_word));
            assert_eq!(
                (sqrt_price, tick, lp_fee, liquidity),
                (
                    graduation_sqrt_price_x96(pool.amount0, pool.amount1).unwrap(),
                    get_tick_at_sqrt_price(pool.sqrt_price_x96).unwrap(),
                    self.d.pool_fee,
                    U256::from(pool.liquidity)
                ),
                "PoolManager slot0 (sqrtPriceX96, tick, lpFee) and liquidity vs core graduation"
            );
            let s = pad.launchOf(l.token).call().await.unwrap();
            assert_eq!(
                (s.graduated, s.quoteRaised, s.feesAccrued),
                (true, g, l.fees)
            );

            // The curve refuses trades, naming the pool.
            let expect_graduated = |data: alloy::primitives::Bytes| {
                match LaunchpadErrors::abi_decode(&data).unwrap() {
                    LaunchpadErrors::AlreadyGraduated(e) => {
                        assert_eq!((e.token, e.poolId), (l.token, id))
                    }
                    other => panic!("expected AlreadyGraduated, got {other:?}"),
                }
            };
            let qb = Launchpad::quoteBuyCall {
                token: l.token,
                quoteIn: U256::from(1u8),
            };
            expect_graduated(
                self.node
                    .call(tx(buyer, self.d.launchpad, qb.abi_encode()))
                    .await
                    .unwrap_err(),
            );
            let qs = Launchpad::quoteSellCall {
                token: l.token,
                tokensIn: U256::from(1u8),
            };
            expect_graduated(
                self.node
                    .call(tx(buyer, self.d.launchpad, qs.abi_encode()))
                    .await
                    .unwrap_err(),
            );
            let b = self.buy_request(l, buyer, U256::from(1_000u32), U256::ZERO, FAR, BUY_GAS);
            expect_graduated(self.node.call(b).await.unwrap_err());

            // Conservation: tokens (traders' model, launchpad 0, pool + locker = S/5), quote.
            let tok = LaunchToken::new(l.token, self.node.provider.clone());
            for &a in &self.traders {
                let want = l.holdings.get(&a).copied().unwrap_or_default();
                assert_eq!(
                    tok.balanceOf(a).call().await.unwrap(),
                    want,
                    "token balance of {a}"
                );
            }
            let (pool_quote, pool_tokens) = if pool.quote_is_currency0 {
                (paid0, paid1)
            } else {
                (paid1, paid0)
            };
            let grad_reserve = after.token_reserve;
            assert_eq!(
                tok.balanceOf(self.d.launchpad).call().await.unwrap(),
                U256::ZERO
            );
            assert_eq!(
                tok.balanceOf(self.d.pool_manager).call().await.unwrap(),
                pool_tokens
            );
            assert_eq!(
                tok.balanceOf(self.d.launch_locker).call().await.unwrap(),
                grad_reserve - pool_tokens
            );
            assert_eq!(grad_reserve, self.d.supply / U256::from(5u8));
            *self.pool_q.entry(l.quote).or_default() += pool_quote;
            *self.locker_q.entry(l.quote).or_default() += g - pool_quote;
            *self.fees_q.entry(l.quote).or_default() += l.fees;
            self.check_quote_balances().await;
            self.stats.graduations += 1;
            self.stats.quote_is_currency0 += usize::from(pool.quote_is_currency0);
        }

        /// Every trader's ETH (gas included) and stablecoin balances, and the quote held by the
        /// launchpad (uncollected fees), the PoolManager and the locker, per quote asset.
        async fn check_quote_balances(&self) {
            for asset in [Address::ZERO, self.d.stablecoin, self.usdc_low] {
                let usd = TestERC20::new(asset, self.node.provider.clone());
                let bal = |a: Address| {
                    let usd = usd.clone();
                    async move {
                        if asset.is_zero() {
                            self.node.balance(a).await
                        } else {
                            usd.balanceOf(a).call().await.unwrap()
                        }
                    }
                };
                for &a in &self.traders {
                    let want = if asset.is_zero() {
                        self.eth[&a]
                    } else {
                        self.erc20[&(asset, a)]
                    };
                    assert_eq!(bal(a).await, want, "balance of {a} in {asset}");
                }
                let get = |m: &HashMap<Address, U256>| m.get(&asset).copied().unwrap_or_default();
                assert_eq!(
                    bal(self.d.launchpad).await,
                    get(&self.fees_q),
                    "launchpad {asset} = uncollected fees"
                );
                assert_eq!(
                    bal(self.d.pool_manager).await,
                    get(&self.pool_q),
                    "PoolManager {asset}"
                );
                assert_eq!(
                    bal(self.d.launch_locker).await,
                    get(&self.locker_q),
                    "locker {asset}"
                );
            }
        }
    }

    #[tokio::test(flavor = "current_thread")]
    async fn launchpad_fills_equal_core_quotes() {
        let started = Instant::now();
        let seed = Rng::seed_from_env(0xEDE0_0002);
        let node = start_node(test_chain_id(2));
        let d = deploy(&node, &[]);
        assert_eq!(
            (d.fee_bps, d.tick_spacing),
            (100, 60),
            "deploy defaults changed: review the test"
        );
        let creator = node.accounts[0];
        let traders: Vec<Address> = node.accounts[1..].to_vec();

        // The stablecoin, and a copy of its code at a low address allowed as a quote asset too;
        // every trader gets both (minted, approved), while automining.
        let code = node
            .rpc("eth_getCode", serde_json::json!([d.stablecoin, "latest"]))
            .await;
        node.rpc("anvil_setCode", serde_json::json!([USDC_LOW, code]))
            .await;
        let allow = Launchpad::setQuoteAssetCall {
            asset: USDC_LOW,
            virtualQuote: d.stablecoin_virtual_quote,
        };
        node.send_mined(tx(creator, d.launchpad, allow.abi_encode()).gas_limit(200_000))
            .await;
        let usd_amount = U256::from(100_000_000u64) * U256::from(1_000_000u64);
        let mut erc20 = HashMap::new();
        for asset in [d.stablecoin, USDC_LOW] {
            for &a in &traders {
                let mint = TestERC20::mintCall {
                    to: a,
                    amount: usd_amount,
                };
                node.send_mined(tx(creator, asset, mint.abi_encode()).gas_limit(200_000))
                    .await;
                let approve = TestERC20::approveCall {
                    spender: d.launchpad,
                    value: U256::MAX,
                };
                node.send_mined(tx(a, asset, approve.abi_encode()).gas_limit(200_000))
                    .await;
                erc20.insert((asset, a), usd_amount);
            }
        }
        let mut nonces = HashMap::new();
        let mut eth = HashMap::new();
        for &a in &node.accounts {
            nonces.insert(a, node.nonce(a).await);
            eth.insert(a, node.balance(a).await);
        }
        node.set_automine(false).await;
        let now = node.latest_timestamp().await;
        let mut run = Run {
            node,
            d,
            rng: Rng::new(seed),
            traders,
            creator,
            nonces,
            eth,
            erc20,
            usdc_low: USDC_LOW,
            now,
            stats: Stats::default(),
            pool_q: HashMap::new(),
            locker_q: HashMap::new(),
            fees_q: HashMap::new(),
        };
        let plans = [
            Plan {
                pair: Pair::Eth,
                trades: 2_000,
                graduate_at: None,
            },
            Plan {
                pair: Pair::Usdc,
                trades: 1_500,
                graduate_at: None,
            },
            Plan {
                pair: Pair::UsdcLow,
                trades: 1_500,
                graduate_at: None,
            },
            Plan {
                pair: Pair::Eth,
                trades: 1_500,
                graduate_at: None,
            },
            Plan {
                pair: Pair::Eth,
                trades: 0,
                graduate_at: Some(6),
            },
            Plan {
                pair: Pair::Usdc,
                trades: 0,
                graduate_at: Some(0),
            },
            Plan {
                pair: Pair::UsdcLow,
                trades: 0,
                graduate_at: Some(14),
            },
            Plan {
                pair: Pair::Eth,
                trades: 0,
                graduate_at: Some(15),
            },
        ];
        for p in &plans {
            run.launch(p).await;
        }
        let s = &run.stats;
        writeln!(
            std::io::stderr(),
            "launchpad: {} trades equal core exactly ({} buys, {} sells; {} in the anti-snipe window, {} at t = 0), \
             {} expected reverts (slippage, deadline, after graduation), {} view quotes ({} clamped) and {} slippage/deadline \
             reverts equal core by eth_call, {} graduations (quote = currency0 in {}) with sqrtPriceX96/tick/liquidity \
             equal core, seed {seed:#x}, {:.1}s",
            s.buys + s.sells,
            s.buys,
            s.sells,
            s.in_window,
            s.at_launch,
            s.expected_reverts,
            s.views,
            s.clamped_views,
            s.slippage_calls,
            s.graduations,
            s.quote_is_currency0,
            started.elapsed().as_secs_f64()
        )
        .ok();
        assert!(
            s.buys + s.sells >= 5_000,
            "fewer than 5,000 trades compared"
        );
    }
}
