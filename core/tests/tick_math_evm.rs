//! Differential test of `uniswap::tick_math` against Uniswap's own bytecode (A5).
//!
//! Deploys `TickMathTest` from `@uniswap/v4-core` (`out/TickMathTest.sol/TickMathTest.json`, the
//! compiled contract shipped in the npm package) into an in-memory `revm`, then compares
//! `getSqrtPriceAtTick` and `getTickAtSqrtPrice` with ours on both ends of the range, their
//! neighbours, and thousands of seeded random inputs; out-of-range inputs must revert there
//! and be errors here.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;

use alloy_primitives::ruint::UintTryFrom;
use alloy_primitives::{aliases::I24, aliases::U160, Address, Bytes, TxKind, U256};
use alloy_sol_types::{sol, SolCall, SolError};
use eden_core::uniswap::tick_math::{
    get_sqrt_price_at_tick, get_tick_at_sqrt_price, MAX_SQRT_PRICE, MAX_TICK, MIN_SQRT_PRICE,
    MIN_TICK,
};
use revm::context::result::{ExecutionResult, Output};
use revm::context::{Context, TxEnv};
use revm::database::InMemoryDB;
use revm::handler::{ExecuteCommitEvm, ExecuteEvm, MainBuilder, MainContext, MainnetEvm};

sol! {
    interface ITickMathTest {
        function getSqrtPriceAtTick(int24 tick) external pure returns (uint160);
        function getTickAtSqrtPrice(uint160 sqrtPriceX96) external pure returns (int24);
        error InvalidTick(int24 tick);
        error InvalidSqrtPrice(uint160 sqrtPriceX96);
    }
}

/// Number of random ticks and of random sqrt prices (each).
const RANDOM_CASES: usize = 6_000;
const SEED: u64 = 0xEDE2_71C4_0A5E_0001;

/// Deterministic splitmix64 stream (no extra dependency; the seed is fixed).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[lo, hi]` (small ranges; the modulo bias is irrelevant here).
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo + 1) as u64)) as i64
    }

    fn u256_bits(&mut self, bits: usize) -> U256 {
        let v = U256::from_limbs([self.next(), self.next(), self.next(), self.next()]);
        if bits == 0 {
            U256::ZERO
        } else {
            v >> (256 - bits)
        }
    }
}

type Evm = MainnetEvm<revm::handler::MainnetContext<InMemoryDB>>;

struct TickMathTest {
    evm: Evm,
    address: Address,
}

enum CallResult {
    Ok(Bytes),
    Revert(Bytes),
}

fn artifact_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../node_modules/@uniswap/v4-core/out/TickMathTest.sol/TickMathTest.json")
}

impl TickMathTest {
    fn deploy() -> Self {
        let path = artifact_path();
        let json = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "cannot read {} ({e}). The TickMath differential test needs the npm dev dependencies: \
                 run `npm ci` at the repository root.",
                path.display()
            )
        });
        let artifact: serde_json::Value =
            serde_json::from_str(&json).expect("TickMathTest.json is not JSON");
        let code_hex = artifact["bytecode"]["object"]
            .as_str()
            .expect("TickMathTest.json has no bytecode.object");
        let code: Bytes = code_hex.parse().expect("bytecode.object is not hex");

        let mut evm = Context::mainnet()
            .modify_cfg_chained(|cfg| cfg.disable_nonce_check = true)
            .modify_block_chained(|block| block.gas_limit = 100_000_000)
            .with_db(InMemoryDB::default())
            .build_mainnet();
        let tx = TxEnv::builder()
            .kind(TxKind::Create)
            .data(code)
            .gas_limit(10_000_000)
            .build()
            .unwrap();
        let address = match evm.transact_commit(tx).expect("deploy transaction failed") {
            ExecutionResult::Success {
                output: Output::Create(_, Some(address)),
                ..
            } => address,
            other => panic!("TickMathTest deployment did not succeed: {other:?}"),
        };
        Self { evm, address }
    }

    fn call(&mut self, data: Vec<u8>) -> CallResult {
        let tx = TxEnv::builder()
            .kind(TxKind::Call(self.address))
            .data(data.into())
            .gas_limit(1_000_000)
            .build()
            .unwrap();
        match self
            .evm
            .transact(tx)
            .expect("call transaction invalid")
            .result
        {
            ExecutionResult::Success { output, .. } => CallResult::Ok(output.into_data()),
            ExecutionResult::Revert { output, .. } => CallResult::Revert(output),
            ExecutionResult::Halt { reason, .. } => panic!("TickMathTest halted: {reason:?}"),
        }
    }

    /// The contract's `getSqrtPriceAtTick`, or `None` if it reverted with `InvalidTick(tick)`.
    fn sqrt_price_at_tick(&mut self, tick: i32) -> Option<U256> {
        let t = I24::try_from(tick).expect("tick fits in int24");
        match self.call(ITickMathTest::getSqrtPriceAtTickCall { tick: t }.abi_encode()) {
            CallResult::Ok(out) => {
                let p: U160 =
                    ITickMathTest::getSqrtPriceAtTickCall::abi_decode_returns(&out).unwrap();
                Some(U256::from(p))
            }
            CallResult::Revert(out) => {
                let e =
                    ITickMathTest::InvalidTick::abi_decode(&out).expect("unexpected revert data");
                assert_eq!(e.tick, t);
                None
            }
        }
    }

    /// The contract's `getTickAtSqrtPrice`, or `None` if it reverted with `InvalidSqrtPrice`.
    fn tick_at_sqrt_price(&mut self, sqrt_price: U256) -> Option<i32> {
        let p: U160 = U160::uint_try_from(sqrt_price).expect("sqrt price fits in uint160");
        match self.call(ITickMathTest::getTickAtSqrtPriceCall { sqrtPriceX96: p }.abi_encode()) {
            CallResult::Ok(out) => {
                let t: I24 =
                    ITickMathTest::getTickAtSqrtPriceCall::abi_decode_returns(&out).unwrap();
                Some(t.as_i32())
            }
            CallResult::Revert(out) => {
                let e = ITickMathTest::InvalidSqrtPrice::abi_decode(&out)
                    .expect("unexpected revert data");
                assert_eq!(e.sqrtPriceX96, p);
                None
            }
        }
    }
}

fn check_tick(evm: &mut TickMathTest, tick: i32) -> bool {
    let theirs = evm.sqrt_price_at_tick(tick);
    let ours = get_sqrt_price_at_tick(i64::from(tick)).ok();
    assert_eq!(ours, theirs, "getSqrtPriceAtTick({tick})");
    theirs.is_some()
}

fn check_sqrt(evm: &mut TickMathTest, sqrt_price: U256) -> bool {
    let theirs = evm.tick_at_sqrt_price(sqrt_price);
    let ours = get_tick_at_sqrt_price(sqrt_price).ok();
    assert_eq!(ours, theirs, "getTickAtSqrtPrice({sqrt_price})");
    theirs.is_some()
}

#[test]
fn get_sqrt_price_at_tick_matches_uniswap_bytecode() {
    let mut evm = TickMathTest::deploy();
    let one = 1i32;
    for t in [
        MIN_TICK,
        MIN_TICK + one,
        MAX_TICK - one,
        MAX_TICK,
        0,
        1,
        -1,
        2,
        -2,
    ] {
        assert!(check_tick(&mut evm, t), "tick {t} must be valid");
    }
    for t in [
        MIN_TICK - 1,
        MAX_TICK + 1,
        -8_388_608,
        8_388_607,
        1_000_000,
        -1_000_000,
    ] {
        assert!(!check_tick(&mut evm, t), "tick {t} must revert");
    }
    // Every single-bit tick and its negation exercises each Q128 constant alone.
    for bit in 0..20 {
        let t = 1i32 << bit;
        if t <= MAX_TICK {
            assert!(check_tick(&mut evm, t));
            assert!(check_tick(&mut evm, -t));
        }
    }
    let mut rng = Rng(SEED);
    let mut valid = 0usize;
    for i in 0..RANDOM_CASES {
        // Mostly the full range; some near zero where real prices live after decimals.
        let t = if i % 4 == 0 {
            rng.range(-300_000, 300_000)
        } else {
            rng.range(-900_000, 900_000)
        };
        valid += usize::from(check_tick(&mut evm, t as i32));
    }
    assert!(
        valid > RANDOM_CASES * 9 / 10,
        "too few in-range random ticks: {valid}"
    );
}

#[test]
fn get_tick_at_sqrt_price_matches_uniswap_bytecode() {
    let mut evm = TickMathTest::deploy();
    let one = U256::from(1u8);
    for p in [
        MIN_SQRT_PRICE,
        MIN_SQRT_PRICE + one,
        MAX_SQRT_PRICE - one,
        one << 96,
        (one << 96) - one,
    ] {
        assert!(check_sqrt(&mut evm, p), "sqrt price {p} must be valid");
    }
    for p in [
        U256::ZERO,
        one,
        MIN_SQRT_PRICE - one,
        MAX_SQRT_PRICE,
        MAX_SQRT_PRICE + one,
        (one << 160) - one,
    ] {
        assert!(!check_sqrt(&mut evm, p), "sqrt price {p} must revert");
    }
    let mut rng = Rng(SEED ^ 0x5eed);
    let mut valid = 0usize;
    for i in 0..RANDOM_CASES {
        let p = match i % 3 {
            // Log-uniform: a random bit length, then random bits (covers every price scale).
            0 => {
                let bits = rng.range(32, 160) as usize;
                rng.u256_bits(bits)
            }
            // Exactly at a tick's price and one below it (the floor's edges).
            1 => {
                let t = rng.range(i64::from(MIN_TICK), i64::from(MAX_TICK));
                let at = get_sqrt_price_at_tick(t).unwrap();
                if rng.next() & 1 == 0 {
                    at
                } else {
                    at - one
                }
            }
            // Uniform over the valid range.
            _ => MIN_SQRT_PRICE + rng.u256_bits(160) % (MAX_SQRT_PRICE - MIN_SQRT_PRICE),
        };
        valid += usize::from(check_sqrt(&mut evm, p));
    }
    assert!(
        valid > RANDOM_CASES * 9 / 10,
        "too few in-range random sqrt prices: {valid}"
    );
}
