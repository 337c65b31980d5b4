//! Benchmark (a program, not a test): the thesis grader (C8) on this machine.
//!
//! 1. Grounding `G` of 1,000 theses (5 quotes each, one 24 kB HTML snapshot each), native, one core and
//!    every core, beside the goal (under 1 s).
//! 2. Theses graded per minute with the embedded model (`node model/serve.mjs`, Gemma 3 270M on llama.cpp):
//!    each thesis's injection judgment and three rubric samples (and the verifier when the median is
//!    ≥ 0.8), as `eden grade` asks them, over the OpenAI-compatible API.
//!
//! Run: `bash scripts/bench.sh --grader` (prints, and writes `bench/results/grader.txt`).

use alloy::primitives::{Address, U256};
use eden_core::scoring::grounding::{thesis_grounding, Snapshot};
use eden_operator::grade::model::{
    judgment_schema, rubric_from, rubric_schema, Decoding, ModelEndpoint,
};
use eden_operator::grade::prompt;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn page(i: usize) -> String {
    let mut p = String::from(
        "<!doctype html><html><head><title>Report</title><style>p{}</style></head><body>",
    );
    for k in 0..400 {
        p.push_str(&format!(
            "<p>In week {k} project {i} <b>resolved {} tickets</b> and served {} users.</p>",
            k * 7 + i,
            k * 13 + i
        ));
    }
    p.push_str("</body></html>");
    p
}

fn thesis(i: usize) -> String {
    let mut t = String::from("A thesis with quotes: ");
    for q in 0..5 {
        let k = q * 61 + i % 50;
        t.push_str(&format!(
            "\"resolved {} tickets and served {} users\" [1], ",
            k * 7 + i,
            k * 13 + i
        ));
    }
    t.push_str(&format!("\n\n[1]: https://reports.example.org/{i}\n"));
    t
}

#[tokio::main]
async fn main() {
    // 1. Grounding.
    let n = 1_000;
    let inputs: Vec<(String, BTreeMap<String, Snapshot>)> = (0..n)
        .map(|i| {
            let snaps = BTreeMap::from([(
                format!("https://reports.example.org/{i}"),
                Snapshot {
                    content_type: "text/html".into(),
                    body: page(i),
                },
            )]);
            (thesis(i), snaps)
        })
        .collect();
    let bytes: usize = inputs
        .iter()
        .map(|(_, s)| s.values().map(|x| x.body.len()).sum::<usize>())
        .sum();
    let t0 = Instant::now();
    let one: Vec<_> = inputs.iter().map(|(t, s)| thesis_grounding(t, s)).collect();
    let single = t0.elapsed();
    let t1 = Instant::now();
    let all: Vec<_> = inputs
        .par_iter()
        .map(|(t, s)| thesis_grounding(t, s))
        .collect();
    let multi = t1.elapsed();
    assert!(
        one.iter()
            .chain(&all)
            .all(|g| g.grounded == 5 && g.counted == 5),
        "every quote is on its page"
    );
    println!(
        "grounding: {n} theses x 5 quotes, {:.1} MB of HTML snapshots: {:.0} ms on one core, {:.0} ms on {} cores (goal: under 1,000 ms)",
        bytes as f64 / 1e6,
        single.as_secs_f64() * 1e3,
        multi.as_secs_f64() * 1e3,
        rayon::current_num_threads()
    );

    // 2. The embedded model.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    if !root.join("model/gemma-3-270m-q4_k_m.gguf").exists() {
        println!("model: skipped (run: bash scripts/setup.sh model)");
        return;
    }
    let t_load = Instant::now();
    let mut child = Command::new("node")
        .arg(root.join("model/serve.mjs"))
        .args(["--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("node model/serve.mjs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port: u16 = line
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .expect("listening <port>");
    let load = t_load.elapsed();
    let m = ModelEndpoint {
        base_url: format!("http://127.0.0.1:{port}/v1"),
        model: "embedded".into(),
        api_key: None,
        timeout: Duration::from_secs(120),
        attempts: 3,
    };
    let client = reqwest::Client::new();
    let k = 5;
    let mut requests = 0;
    let t2 = Instant::now();
    for (text, snaps) in inputs.iter().take(k) {
        let g = thesis_grounding(text, snaps);
        let user = prompt::user_message(
            Address::ZERO,
            U256::from(60u64) * U256::from(10u64).pow(U256::from(18u8)),
            text,
            &g,
        );
        let d = |t: f64, seed: u32| Decoding {
            temperature: t,
            seed,
            max_tokens: 64,
        };
        m.ask(
            &client,
            prompt::JUDGMENT,
            &user,
            &judgment_schema(),
            d(0.0, 0),
        )
        .await
        .expect("judgment");
        requests += 1;
        let mut means = Vec::new();
        for seed in [1, 2, 3] {
            let (raw, v) = m
                .ask(
                    &client,
                    prompt::RUBRIC,
                    &user,
                    &rubric_schema(),
                    d(0.7, seed),
                )
                .await
                .expect("sample");
            let r = rubric_from(raw, &v);
            means
                .push(u32::from(r.relevance) + u32::from(r.specificity) + u32::from(r.consistency));
            requests += 1;
        }
        means.sort();
        if means[1] >= 24 {
            m.ask(
                &client,
                prompt::VERIFIER,
                &user,
                &rubric_schema(),
                d(0.0, 0),
            )
            .await
            .expect("verifier");
            requests += 1;
        }
    }
    let took = t2.elapsed().as_secs_f64();
    let _ = child.kill();
    let _ = child.wait();
    println!(
        "model: Gemma 3 270M Q4_K_M on llama.cpp, {} threads: loaded in {:.1} s; {k} theses ({requests} requests) in {took:.1} s: {:.1} theses per minute, {:.2} s per request",
        2,
        load.as_secs_f64(),
        k as f64 * 60.0 / took,
        took / requests as f64
    );
}
