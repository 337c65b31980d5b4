//! Benchmark: one full scoring epoch of 100k projects × 12 features
//! (normalise → raw → gate → smooth → score leaves → root, plus input commitments and `inputsRoot`).
//!
//! Run: `cargo run -p eden-core --example bench_epoch --profile bench-native`
//! (optional arguments: number of projects, repetitions).

use alloy_primitives::{Address, B256, U256};
use eden_core::math::WAD;
use eden_core::scoring::epoch::{
    build_epoch, EpochInput, PreviousScore, ProjectData, ProjectInput,
};
use eden_core::scoring::{Feature, ForgeryTier, TrackConfig};
use std::time::Instant;

fn track() -> TrackConfig {
    let milli = WAD / U256::from(1000u32);
    let mut features = Vec::new();
    let spec: [(ForgeryTier, u64); 12] = [
        (ForgeryTier::MoneyVerified, 200),
        (ForgeryTier::MoneyVerified, 150),
        (ForgeryTier::MoneyVerified, 100),
        (ForgeryTier::MoneyVerified, 100),
        (ForgeryTier::CounterpartyVerified, 50),
        (ForgeryTier::CounterpartyVerified, 50),
        (ForgeryTier::CounterpartyVerified, 50),
        (ForgeryTier::CounterpartyVerified, 50),
        (ForgeryTier::CounterpartyVerified, 50),
        (ForgeryTier::CounterpartyVerified, 50),
        (ForgeryTier::SelfReported, 75),
        (ForgeryTier::SelfReported, 75),
    ];
    for (i, (tier, w)) in spec.into_iter().enumerate() {
        features.push(Feature {
            name: format!("f{i}"),
            tier,
            weight_wad: milli * U256::from(w),
            ref_lo: U256::ZERO,
            ref_hi: U256::from(1_000_000u64),
        });
    }
    TrackConfig {
        name: "bench".into(),
        features,
        ..TrackConfig::agents()
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let reps: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(3);
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    let mut rnd = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut projects = Vec::with_capacity(n as usize);
    let mut previous = Vec::new();
    for i in 0..n {
        let mut b = [0u8; 20];
        b[..8].copy_from_slice(&rnd().to_be_bytes());
        b[12..].copy_from_slice(&i.to_be_bytes());
        let project = Address::from(b);
        let features = (0..12)
            .map(|k| U256::from(rnd() % (1_000 << (k % 8))))
            .collect();
        let claims = rnd() % 20;
        projects.push(ProjectInput {
            project,
            data: ProjectData {
                track: "bench".into(),
                features,
                claims,
                failed: if claims == 0 {
                    0
                } else {
                    rnd() % (claims + 1) / 4
                },
                verified_output: U256::from(rnd() % 5),
                age_secs: rnd() % (60 * 86_400),
            },
            salt: B256::from(U256::from(rnd() | 1)),
            private: i % 2 == 0,
        });
        if i % 3 == 0 {
            previous.push(PreviousScore {
                project,
                score_wad: U256::from(rnd() % 100) * WAD,
            });
        }
    }
    let input = EpochInput {
        epoch: 1,
        tracks: vec![track()],
        projects,
        previous,
        ..Default::default()
    };
    println!(
        "epoch of {n} projects × 12 features ({} with a previous score)",
        input.previous.len()
    );
    let mut best = f64::MAX;
    let mut root = B256::ZERO;
    let mut bundle = None;
    for r in 0..reps {
        let t = Instant::now();
        let b = build_epoch(&input).expect("valid bench input");
        let dt = t.elapsed().as_secs_f64();
        best = best.min(dt);
        println!("  run {}: build_epoch {:.3} s (root {})", r + 1, dt, b.root);
        root = b.root;
        bundle = Some(b);
    }
    let b = bundle.expect("at least one run");
    let t = Instant::now();
    let json = b.to_json().expect("json");
    let dj = t.elapsed().as_secs_f64();
    println!("best build_epoch: {best:.3} s (target < 1 s native); root {root}");
    println!(
        "bundle JSON: {:.1} MB in {dj:.3} s",
        json.len() as f64 / 1e6
    );
}
