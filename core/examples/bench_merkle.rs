//! Benchmark: `StandardMerkleTree::of` + every proof, for 10k and 100k `[address, uint256]`
//! leaves (the same data as `bench/merkle.mjs`: splitmix64 seeded with 42).
//!
//! ```text
//! cargo run -p eden-core --example bench_merkle --profile bench-native [-- --json] [sizes…]
//! ```
//!
//! Prints a table, or one JSON object per size with `--json` (read by `bench/merkle.mjs`).

use std::time::Instant;

use eden_core::merkle::{Options, StandardMerkleTree};
use serde_json::{json, Value};

/// splitmix64, as in bench/merkle.mjs.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// `n` leaves `[address, uint256]`: address from three draws (20 bytes), amount = a·b as u128.
fn leaves(n: usize) -> Vec<Value> {
    let mut rng = SplitMix64(42);
    (0..n)
        .map(|_| {
            let (a, b, c) = (rng.next(), rng.next(), rng.next());
            let addr = format!("0x{a:016x}{b:016x}{:08x}", c >> 32);
            let amount = u128::from(rng.next()) * u128::from(rng.next() >> 8);
            json!([addr, amount.to_string()])
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let as_json = args.iter().any(|a| a == "--json");
    let mut sizes: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    if sizes.is_empty() {
        sizes = vec![10_000, 100_000];
    }
    if !as_json {
        println!("size     | of ms   | proofs ms | total ms | root");
    }
    for n in sizes {
        let data = leaves(n);
        // Best of a few runs (the first warms the allocator and caches).
        let runs = if n <= 10_000 { 5 } else { 3 };
        let mut best = (f64::INFINITY, 0.0, 0.0);
        let mut root = String::new();
        for _ in 0..runs {
            let values = data.clone();
            let t0 = Instant::now();
            let tree =
                match StandardMerkleTree::of(values, &["address", "uint256"], Options::default()) {
                    Ok(t) => t,
                    Err(e) => {
                        eprintln!("bench_merkle: {e}");
                        std::process::exit(1);
                    }
                };
            let t1 = Instant::now();
            let mut total_len = 0usize;
            for i in 0..n {
                total_len += tree.get_proof(i).map(|p| p.len()).unwrap_or(0);
            }
            let t2 = Instant::now();
            std::hint::black_box(total_len);
            let of_ms = (t1 - t0).as_secs_f64() * 1e3;
            let proofs_ms = (t2 - t1).as_secs_f64() * 1e3;
            if of_ms + proofs_ms < best.0 {
                best = (of_ms + proofs_ms, of_ms, proofs_ms);
            }
            root = eden_core::merkle::tree::to_hex(&tree.root());
        }
        if as_json {
            println!(
                "{}",
                json!({"size": n, "ofMs": best.1, "proofsMs": best.2, "totalMs": best.0, "root": root})
            );
        } else {
            println!(
                "{n:<8} | {:>7.1} | {:>9.1} | {:>8.1} | {root}",
                best.1, best.2, best.0
            );
        }
    }
}
