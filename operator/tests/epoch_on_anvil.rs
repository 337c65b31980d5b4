//! `eden` end to end on anvil with the real contracts (C21, C5–C7): source keys registered by the projects'
//! controllers, attestations signed by source keys, one source re-fetched over HTTP from a local server
//! that disagrees once, the epoch built, signed, proposed (twice: the second does nothing), published
//! (twice: unchanged), finalized once its window has passed, every score leaf verified on chain; then the
//! next epoch refuses to build without the final epoch's bundle and builds with it. Bad input (a malformed
//! submission file, a bad signature, a key of another project) is reported per claim, never a crash.

use alloy::primitives::{Address, B256, U256};
use alloy::providers::Provider;
use eden_contracts_diff::{deploy, serve_dir, start_node, test_chain_id};
use eden_core::scoring::EpochBundle;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

const KEY0: &str = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
/// Anvil accounts 1–3: three projects that are accounts (each its own controller).
const PROJECT_KEYS: [&str; 3] = [
    "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
    "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
    "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
];
const GITHUB_KEY: &str = "0x1111111111111111111111111111111111111111111111111111111111111111";
const STRIPE_KEY: &str = "0x2222222222222222222222222222222222222222222222222222222222222222";

struct Eden {
    network: PathBuf,
}

impl Eden {
    fn run(&self, key: Option<&str>, args: &[&str]) -> (bool, Value, String) {
        let mut c = Command::new(env!("CARGO_BIN_EXE_eden"));
        c.arg("--json")
            .arg("--network")
            .arg(&self.network)
            .args(args);
        c.env_remove("EDEN_PRIVATE_KEY");
        if let Some(k) = key {
            c.env("EDEN_PRIVATE_KEY", k);
        }
        let o = c.output().expect("run eden");
        let stdout = String::from_utf8_lossy(&o.stdout).to_string();
        let stderr = String::from_utf8_lossy(&o.stderr).to_string();
        let v = serde_json::from_str(&stdout).unwrap_or(Value::Null);
        (o.status.success(), v, stderr)
    }
    fn ok(&self, key: Option<&str>, args: &[&str]) -> Value {
        let (ok, v, err) = self.run(key, args);
        assert!(ok, "eden {args:?} failed: {v} {err}");
        v
    }
}

/// A command that must be refused, with `needle` in its error.
fn refused((ok, v, _): (bool, Value, String), needle: &str) {
    assert!(
        !ok && v["error"].as_str().unwrap_or_default().contains(needle),
        "{v}"
    );
}

fn addr_of(key: &str) -> Address {
    key.parse::<alloy::signers::local::PrivateKeySigner>()
        .unwrap()
        .address()
}

/// A one-route HTTP server: `GET /<project>/<epoch>` → `{"resolved": n, "counterparties": m}`.
fn serve(values: Vec<(Address, u64, u64)>) -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for s in l.incoming() {
            let Ok(mut s) = s else { continue };
            let mut buf = [0u8; 2048];
            let n = s.read(&mut buf).unwrap_or(0);
            let req = String::from_utf8_lossy(&buf[..n]).to_string();
            let path = req.split_whitespace().nth(1).unwrap_or("").to_lowercase();
            let body = values
                .iter()
                .find(|(p, _, _)| path.starts_with(&format!("/{p:#x}/")))
                .map(|(_, r, c)| {
                    json!({"resolved": r, "counterparties": c.to_string()}).to_string()
                });
            let resp = match body {
                Some(b) => format!("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{b}", b.len()),
                None => "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n".into(),
            };
            let _ = s.write_all(resp.as_bytes());
        }
    });
    port
}

/// A Stripe-compatible charges API (C21a): `GET /v1/charges?…` with `Stripe-Account: acct_<i>` → project i's
/// charges, one page.
fn serve_payments(charges: Vec<Vec<Value>>) -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for s in l.incoming() {
            let Ok(mut s) = s else { continue };
            let mut buf = [0u8; 4096];
            let n = s.read(&mut buf).unwrap_or(0);
            let req = String::from_utf8_lossy(&buf[..n]).to_lowercase();
            let account = req
                .lines()
                .find_map(|l| l.strip_prefix("stripe-account: acct_"))
                .and_then(|a| a.trim().parse::<usize>().ok());
            let resp = match account.and_then(|i| charges.get(i)) {
                Some(list) if req.starts_with("get /v1/charges?") => {
                    let b = json!({"object": "list", "data": list, "has_more": false}).to_string();
                    format!("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{b}", b.len())
                }
                _ => "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                    .into(),
            };
            let _ = s.write_all(resp.as_bytes());
        }
    });
    port
}

/// A TCP proxy to 127.0.0.1:`target` that can be cut: `cut(true)` drops every open connection and refuses
/// new ones (an RPC that drops mid-run), `cut(false)` restores it.
struct Proxy {
    port: u16,
    down: Arc<AtomicBool>,
    open: Arc<Mutex<Vec<TcpStream>>>,
}

impl Proxy {
    fn start(target: u16) -> Proxy {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        let down = Arc::new(AtomicBool::new(false));
        let open: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
        let (is_down, conns) = (down.clone(), open.clone());
        std::thread::spawn(move || {
            for c in l.incoming() {
                let Ok(c) = c else { continue };
                if is_down.load(Ordering::SeqCst) {
                    let _ = c.shutdown(Shutdown::Both);
                    continue;
                }
                let Ok(u) = TcpStream::connect(("127.0.0.1", target)) else {
                    continue;
                };
                conns.lock().unwrap().push(c.try_clone().unwrap());
                conns.lock().unwrap().push(u.try_clone().unwrap());
                let (mut c_in, mut u_out) = (c.try_clone().unwrap(), u.try_clone().unwrap());
                let (mut u_in, mut c_out) = (u, c);
                std::thread::spawn(move || {
                    let _ = std::io::copy(&mut c_in, &mut u_out);
                    let _ = u_out.shutdown(Shutdown::Both);
                });
                std::thread::spawn(move || {
                    let _ = std::io::copy(&mut u_in, &mut c_out);
                    let _ = c_out.shutdown(Shutdown::Both);
                });
            }
        });
        Proxy { port, down, open }
    }

    fn cut(&self, down: bool) {
        self.down.store(down, Ordering::SeqCst);
        if down {
            for c in self.open.lock().unwrap().drain(..) {
                let _ = c.shutdown(Shutdown::Both);
            }
        }
    }
}

/// A long-running `eden watch`, stopped when dropped (also when the test fails before stopping it).
struct Watcher(std::process::Child);

impl Drop for Watcher {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Anvil account 9, the deployment's adjudicator (Deploy.s.sol's default).
const ADJUDICATOR: &str = "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6";
/// Two more members of the signer committee (C7a); they sign, never send.
const MEMBER_KEYS: [&str; 2] = [
    "0x3333333333333333333333333333333333333333333333333333333333333333",
    "0x4444444444444444444444444444444444444444444444444444444444444444",
];
/// Two watchtowers (funded by the test).
const WATCHER_KEYS: [&str; 2] = [
    "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
    "0x8b3a350cf5c34c9194ca85829a2df0ec3134b87d4ee5c90c1b5a1a8da4b5d86e",
];

fn write(p: &Path, v: &Value) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, serde_json::to_string_pretty(v).unwrap()).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn an_epoch_from_attestations_to_final() {
    let node = start_node(test_chain_id(40));
    let d = deploy(&node, &[]);
    let dir = std::env::temp_dir().join(format!("eden-op-{}", node.chain_id));
    let _ = std::fs::remove_dir_all(&dir);
    let network = dir.join("network.json");
    let pubdir = dir.join("public");
    let (host, host_down) = serve_dir(pubdir.clone());
    let j = &d.json;
    write(
        &network,
        &json!({
            "format": "eden-network-v1", "chainId": node.chain_id, "name": "operator test",
            "nativeCurrency": {"name": "Ether", "symbol": "ETH", "decimals": 18},
            "rpcUrls": [node.url],
            "contracts": {
                "epochRegistry": j["epochRegistry"], "holderDistributor": j["holderDistributor"],
                "launchpad": j["launchpad"], "launchLocker": j["launchLocker"], "poolManager": j["poolManager"],
                "sourceKeyRegistry": j["sourceKeyRegistry"],
            },
            "deploymentBlock": j["startBlock"], "publications": ["http://127.0.0.1:1/", format!("http://127.0.0.1:{host}/")],
        }),
    );
    let eden = Eden { network };
    let projects: Vec<Address> = PROJECT_KEYS.iter().map(|k| addr_of(k)).collect();
    let (github, stripe) = (addr_of(GITHUB_KEY), addr_of(STRIPE_KEY));

    // Keys: each project registers its sources; a stranger cannot.
    for (k, p) in PROJECT_KEYS.iter().zip(&projects) {
        let ps = format!("{p:#x}");
        let r = eden.ok(
            Some(k),
            &[
                "keys",
                "register",
                "--project",
                &ps,
                "--source",
                "github",
                "--key",
                &format!("{github:#x}"),
            ],
        );
        assert!(r["gasUsed"].as_u64().unwrap() > 0);
        eden.ok(
            Some(k),
            &[
                "keys",
                "register",
                "--project",
                &ps,
                "--source",
                "stripe",
                "--key",
                &format!("{stripe:#x}"),
            ],
        );
    }
    refused(
        eden.run(
            Some(PROJECT_KEYS[0]),
            &[
                "keys",
                "register",
                "--project",
                &format!("{:#x}", projects[1]),
                "--source",
                "x",
                "--key",
                &format!("{github:#x}"),
            ],
        ),
        "controller",
    );
    // Without a key, a sending command says how to give one.
    refused(
        eden.run(
            None,
            &[
                "keys",
                "revoke",
                "--project",
                &format!("{:#x}", projects[0]),
                "--key",
                &format!("{github:#x}"),
            ],
        ),
        "EDEN_PRIVATE_KEY",
    );

    // 15 days pass (the minimum age counts from the first key), then the sources observe.
    node.increase_time(15 * 86_400).await;
    node.mine().await;
    let now = node.latest_timestamp().await;
    let epoch = d.first_epoch;
    let subs = dir.join("submissions");
    let att = |key: &str, project: Address, source: &str, metrics: &[(&str, u64)]| -> Value {
        let mut args = vec![
            "attest".to_string(),
            "sign".into(),
            "--project".into(),
            format!("{project:#x}"),
            "--epoch".into(),
            epoch.to_string(),
            "--source".into(),
            source.into(),
            "--observed-at".into(),
            (now - 60).to_string(),
        ];
        for (n, v) in metrics {
            args.push("--metric".into());
            args.push(format!("{n}={v}"));
        }
        let mut c = Command::new(env!("CARGO_BIN_EXE_eden"));
        c.arg("--network")
            .arg(&eden.network)
            .args(&args)
            .env("EDEN_PRIVATE_KEY", key);
        let o = c.output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let work = [120u64, 340, 75];
    for (i, p) in projects.iter().enumerate() {
        let mut atts = vec![
            att(
                GITHUB_KEY,
                *p,
                "github",
                &[
                    ("resolved_work", work[i]),
                    ("unique_counterparties", 10 + i as u64),
                ],
            ),
            att(
                STRIPE_KEY,
                *p,
                "stripe",
                &[
                    ("settled_revenue_cents", 50_000 * (i as u64 + 1)),
                    ("token_price", 7),
                ],
            ),
        ];
        if i == 2 {
            // a bad signature (v = 29) and an attestation signed by an unregistered key
            let mut bad = atts[1].clone();
            let sig = bad["signature"].as_str().unwrap().to_string();
            bad["signature"] = Value::String(format!("{}1d", &sig[..sig.len() - 2]));
            bad["observedAt"] = json!((now - 30).to_string());
            atts.push(bad);
            atts.push(att(
                PROJECT_KEYS[2],
                *p,
                "stripe",
                &[("settled_revenue_cents", 1)],
            ));
        }
        write(
            &subs.join(format!("{i}.json")),
            &json!({"project": p, "track": "agents", "attestations": atts}),
        );
    }
    std::fs::write(subs.join("broken.json"), "{ not json").unwrap();

    // The re-fetch source agrees with projects 0 and 1 (within 1 %) and disagrees with project 2.
    let port = serve(vec![
        (projects[0], 121, 10),
        (projects[1], 340, 11),
        (projects[2], 40, 12),
    ]);
    // The payments processor (C21a): project 0's settled revenue nets a partial refund to what it attested;
    // project 1 attests a charge the payer disputed (a chargeback), so its claim fails naming it; project 2's
    // matches.
    let charge = |id: &str, amount: u64, refunded: u64, disputed: bool| {
        json!({"id": id, "object": "charge", "amount": amount, "amount_refunded": refunded, "currency": "usd",
               "status": "succeeded", "disputed": disputed, "customer": "cus_buyer", "created": now - 30, "metadata": {}})
    };
    let payments = serve_payments(vec![
        vec![charge("ch_p0_partial", 60_000, 10_000, false)],
        vec![
            charge("ch_p1_paid", 75_000, 0, false),
            charge("ch_p1_disputed", 25_000, 0, true),
        ],
        vec![charge("ch_p2_paid", 150_000, 0, false)],
    ]);
    let stripe_adapter = json!({"kind": "payments", "url": format!("http://127.0.0.1:{payments}"),
        "metrics": ["settled_revenue_cents"],
        "accounts": {format!("{:#x}", projects[0]): "acct_0", format!("{:#x}", projects[1]): "acct_1", format!("{:#x}", projects[2]): "acct_2"}});
    let github_adapter = json!({"kind": "http", "url": format!("http://127.0.0.1:{port}/{{project}}/{{epoch}}"),
                       "paths": {"resolved_work": "/resolved", "unique_counterparties": "/counterparties"}});
    write(
        &dir.join("refetch.json"),
        &json!({"github": github_adapter.clone(), "stripe": stripe_adapter}),
    );
    // The same without the payments adapter: a build must not claim a check it does not run.
    write(
        &dir.join("refetch-generic.json"),
        &json!({"github": github_adapter}),
    );
    write(
        &dir.join("intake.json"),
        &json!({
            "sources": [
                {"name": "github", "refetch": true, "metrics": [{"name": "resolved_work", "toleranceBps": 100}, {"name": "unique_counterparties"}]},
                {"name": "stripe", "refetch": true, "adapter": "payments", "metrics": [{"name": "settled_revenue_cents"}]}
            ],
            "outputFeatures": {"agents": "resolved_work", "apps": "paying_users", "research": "verified_citations"}
        }),
    );
    let out = dir.join("epoch-1");
    let p = |x: &Path| x.display().to_string();
    // C2a: the scoring configuration is published by its hash and pinned from this epoch on; a build under
    // any other configuration, or without one, is refused.
    let scoring = eden_core::scoring::pinned::ScoringConfig {
        format: eden_core::scoring::pinned::SCORING_CONFIG_FORMAT.into(),
        version: 1,
        tracks: ["agents", "apps", "research"]
            .map(|t| eden_core::scoring::TrackConfig::preset(t).unwrap())
            .to_vec(),
        grader: None,
    };
    let config_file = dir.join("scoring.json");
    std::fs::write(
        &config_file,
        serde_json::to_string_pretty(&scoring).unwrap(),
    )
    .unwrap();
    let mut other = scoring.clone();
    other.tracks[0].min_age_secs += 1;
    let other_file = dir.join("scoring-other.json");
    std::fs::write(&other_file, serde_json::to_string_pretty(&other).unwrap()).unwrap();
    let published = eden.ok(
        None,
        &[
            "config",
            "publish",
            "--config",
            &p(&config_file),
            "--dir",
            &p(&pubdir),
        ],
    );
    assert_eq!(
        published["hash"].as_str().unwrap().parse::<B256>().unwrap(),
        scoring.hash()
    );
    let pinned = eden.ok(
        Some(KEY0),
        &[
            "config",
            "pin",
            "--config",
            &p(&config_file),
            "--first-epoch",
            &epoch.to_string(),
        ],
    );
    assert_eq!(pinned["result"], "pinned", "{pinned}");
    // Not the owner: nothing sent, the call to schedule through the owner.
    let scheduled = eden.ok(
        Some(PROJECT_KEYS[0]),
        &[
            "config",
            "pin",
            "--config",
            &p(&other_file),
            "--first-epoch",
            &(epoch + 1).to_string(),
        ],
    );
    assert_eq!(scheduled["result"], "schedule", "{scheduled}");
    let build_with = |config: Option<&Path>, out: &Path, previous: Option<&Path>| {
        let mut a = vec![
            "epoch".to_string(),
            "build".into(),
            "--intake".into(),
            p(&dir.join("intake.json")),
            "--submissions".into(),
            p(&subs),
            "--refetch".into(),
            p(&dir.join("refetch.json")),
            "--out".into(),
            p(out),
            // The key book's logs in pages of 3 blocks: several pages on this chain.
            "--log-blocks".into(),
            "3".into(),
        ];
        if let Some(prev) = previous {
            a.push("--previous".into());
            a.push(p(prev));
        }
        if let Some(c) = config {
            a.push("--config".into());
            a.push(p(c));
        }
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        eden.run(None, &refs)
    };
    refused(
        build_with(None, &out, None),
        "pins scoring configuration version 1",
    );
    refused(build_with(Some(&other_file), &out, None), "not in force");
    // C21a: a re-fetch configuration that gives the payments source no payments adapter is refused.
    refused(
        eden.run(
            None,
            &[
                "epoch",
                "build",
                "--intake",
                &p(&dir.join("intake.json")),
                "--submissions",
                &p(&subs),
                "--refetch",
                &p(&dir.join("refetch-generic.json")),
                "--config",
                &p(&config_file),
                "--out",
                &p(&dir.join("epoch-generic")),
            ],
        ),
        "source 'stripe' is verified by the payments adapter",
    );
    let build = |out: &Path, previous: Option<&Path>| build_with(Some(&config_file), out, previous);
    let (ok, r, err) = build(&out, None);
    assert_eq!(r["config"]["version"], 1, "{r}");
    assert!(ok, "{r} {err}");
    assert_eq!(r["epoch"], epoch);
    assert_eq!(r["projects"], 3);
    assert_eq!(r["signatures"], 8);
    // used: 3 × (resolved, counterparties, revenue) minus project 2's mismatched resolved_work and project 1's
    // revenue = 7; failed: those two + the bad signature + the unregistered key = 4; ignored: 3 token_price + 1
    // bad-sig token_price.
    assert_eq!(
        (
            r["claimsUsed"].as_u64(),
            r["claimsFailed"].as_u64(),
            r["claimsIgnored"].as_u64()
        ),
        (Some(7), Some(4), Some(4)),
        "{r}"
    );
    assert_eq!(r["badFiles"].as_array().unwrap().len(), 1);
    let failures = r["failures"].to_string();
    assert!(
        failures.contains(&format!("{:#x}", projects[2]).to_lowercase())
            || failures
                .to_lowercase()
                .contains(&format!("{:#x}", projects[2])),
        "{failures}"
    );
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("intake.json")).unwrap()).unwrap();
    let p0 = &report["projects"][0];
    // A public project's entry states its re-fetched values (the operator's word), not its outcomes,
    // which its re-run gives (C21, eden-intake-v2).
    assert_eq!(report["format"], "eden-intake-v2");
    assert_eq!(p0["outcomes"].as_array().map(Vec::len), Some(0));
    assert_eq!(
        p0["refetches"],
        serde_json::json!([
            {"source": "github", "values": {"resolved_work": "121", "unique_counterparties": "10"}},
            {"source": "stripe", "values": {"settled_revenue_cents": {"value": "50000", "excluded": [
                {"kind": "refund", "item": "ch_p0_partial", "amount": "10000", "detail": "10000 of 60000 refunded"}
            ]}}}
        ])
    );
    // Project 1's revenue claim fails naming the chargeback its source left out.
    assert!(
        failures.contains("it left out chargeback ch_p1_disputed (disputed by the payer)")
            || r["failures"]
                .to_string()
                .contains("chargeback ch_p1_disputed"),
        "{}",
        r["failures"]
    );
    assert_eq!(
        p0["attestations"].as_array().unwrap().len(),
        2,
        "public attestations are published"
    );
    let bundle =
        EpochBundle::from_json(&std::fs::read_to_string(out.join("bundle.json")).unwrap()).unwrap();

    // Anyone re-runs each public project's intake from the published report and the chain's keys, and
    // gets exactly the bundle's public inputs (C21).
    let report = eden_core::attest::IntakeReport::from_json(
        &std::fs::read_to_string(out.join("intake.json")).unwrap(),
    )
    .unwrap();
    let net = eden_operator::config::network(&eden.network).unwrap();
    let chain = eden_operator::chain::Chain::connect(net, None, None)
        .await
        .unwrap();
    let keys = chain.key_book(report.key_block).await.unwrap();
    let tracks = eden_operator::config::tracks("agents,apps,research").unwrap();
    for rp in &report.projects {
        let again = eden_core::attest::recheck_project(&report, rp, &tracks, &keys).unwrap();
        let rec = bundle
            .projects
            .iter()
            .find(|r| r.project == rp.project)
            .unwrap();
        assert_eq!(rec.inputs.as_ref(), Some(&again.input.data));
        assert_eq!(
            (again.input.data.claims, again.input.data.failed),
            (rp.claims, rp.failed)
        );
    }
    // The re-run gives each claim's outcome: the re-fetched value used where the report states one.
    let again =
        eden_core::attest::recheck_project(&report, &report.projects[0], &tracks, &keys).unwrap();
    let used0 = again
        .claims
        .iter()
        .find(|c| c.metric == "resolved_work")
        .unwrap();
    assert_eq!(
        used0.outcome,
        eden_core::attest::ClaimOutcome::Used {
            value: U256::from(121u32),
            refetched: true
        }
    );
    // A changed number in a published attestation no longer recovers to a registered key.
    let mut forged = report.clone();
    forged.projects[0].attestations[0].attestation.metrics[0].value += U256::from(1u8);
    let again =
        eden_core::attest::recheck_project(&forged, &forged.projects[0], &tracks, &keys).unwrap();
    assert_ne!(
        Some(&again.input.data),
        bundle
            .projects
            .iter()
            .find(|r| r.project == forged.projects[0].project)
            .unwrap()
            .inputs
            .as_ref()
    );

    // A wrong root proposed first, signed by the signer (a dishonest or compromised operator): one public
    // project's score raised by 1 wei and the tree re-rooted, so only recomputing the score shows it. The
    // watchtower challenges it (C24); every run below is a fresh process, so its state comes from the chain.
    let bad_dir = dir.join("tampered");
    let mut bad = bundle.clone();
    let i = bad
        .projects
        .iter()
        .position(|r| !r.private && r.score_wad > U256::ZERO)
        .expect("a public project passed the gate");
    let victim = bad.projects[i].project;
    bad.projects[i].score_wad += U256::from(1u8);
    bad.projects[i].published_wad = bad.projects[i].score_wad;
    bad.projects[i].leaf = eden_core::leaves::score_leaf(victim, bad.projects[i].score_wad);
    bad.root = eden_core::check::full_tree(&bad, B256::ZERO).unwrap().0;
    std::fs::create_dir_all(&bad_dir).unwrap();
    std::fs::write(bad_dir.join("bundle.json"), bad.to_json().unwrap()).unwrap();
    std::fs::copy(out.join("intake.json"), bad_dir.join("intake.json")).unwrap();
    eden.ok(
        Some(KEY0),
        &[
            "epoch",
            "sign",
            "--bundle",
            &p(&bad_dir.join("bundle.json")),
        ],
    );
    let r = eden.ok(
        Some(KEY0),
        &[
            "epoch",
            "propose",
            "--signature",
            &p(&bad_dir.join("signature.json")),
        ],
    );
    assert_eq!(r["result"], "proposed", "{r}");
    let watch = |key: Option<&str>, extra: &[&str]| -> Value {
        let mut args = vec!["watch", "--once"];
        args.extend_from_slice(extra);
        eden.ok(key, &args)
    };
    for k in WATCHER_KEYS {
        let tx = alloy::rpc::types::TransactionRequest::default()
            .from(node.accounts[0])
            .to(addr_of(k))
            .value(U256::from(10u8).pow(U256::from(18u8)));
        let sent = node.provider.send_transaction(tx).await.unwrap();
        assert!(sent.get_receipt().await.unwrap().status());
    }
    let action = |v: &Value| v[0]["action"]["result"].as_str().unwrap_or("").to_string();
    // Not published yet: awaited during the grace period, not challenged.
    let v = watch(Some(WATCHER_KEYS[0]), &[]);
    assert_eq!(action(&v), "awaitingPublication", "{v}");
    eden.ok(
        None,
        &[
            "epoch",
            "publish",
            "--bundle",
            &p(&bad_dir.join("bundle.json")),
            "--dir",
            &p(&pubdir),
        ],
    );
    // A dry run names the wrong record and sends nothing.
    let v = watch(None, &["--dry-run", "--publication-grace", "0"]);
    assert_eq!(action(&v), "wouldChallenge", "{v}");
    let first = &v[0]["audit"]["findings"][0];
    assert_eq!(first["kind"], "scoreDiffers", "{v}");
    assert_eq!(
        first["project"]
            .as_str()
            .unwrap()
            .parse::<Address>()
            .unwrap(),
        victim
    );
    assert_eq!(first["step"], "published", "{v}");
    assert!(
        v[0]["timings"]["signatures"].as_u64().unwrap() > 0,
        "attestations checked: {v}"
    );
    // The watchtower challenges with the bond.
    let watcher = addr_of(WATCHER_KEYS[0]);
    let v = watch(Some(WATCHER_KEYS[0]), &["--publication-grace", "0"]);
    assert_eq!(action(&v), "challenged", "{v}");
    // Restarted: the root is challenged, so nothing is pending and nothing is sent.
    let nonce = node.provider.get_transaction_count(watcher).await.unwrap();
    let v = watch(Some(WATCHER_KEYS[0]), &["--publication-grace", "0"]);
    assert_eq!(v, json!([]));
    // The adjudicator rejects the challenge (a fresh window opens): this watchtower never challenges twice,
    // a second one does.
    let adjudicator = addr_of(ADJUDICATOR);
    let reg = eden_operator::abi::EpochRegistry::new(d.epoch_registry, node.provider.clone());
    let resolve = |upheld: bool| {
        let reg = reg.clone();
        async move {
            reg.resolve(epoch, upheld)
                .from(adjudicator)
                .send()
                .await
                .unwrap()
                .get_receipt()
                .await
                .unwrap()
        }
    };
    assert!(resolve(false).await.status());
    let v = watch(Some(WATCHER_KEYS[0]), &["--publication-grace", "0"]);
    assert_eq!(action(&v), "alreadyChallenged", "{v}");
    assert_eq!(
        node.provider.get_transaction_count(watcher).await.unwrap(),
        nonce,
        "no duplicate transaction"
    );
    let v = watch(Some(WATCHER_KEYS[1]), &["--publication-grace", "0"]);
    assert_eq!(action(&v), "challenged", "{v}");
    // Upheld: both bonds to the second watchtower, the slot reopens and the wrong root is struck.
    assert!(resolve(true).await.status());
    assert_eq!(
        reg.credit(addr_of(WATCHER_KEYS[1])).call().await.unwrap(),
        U256::from(2u8) * reg.bond().call().await.unwrap()
    );

    // The owner (the deployer, before the timelock accepts the handover) makes the signer a 2-of-3 committee
    // (C7a): the wrong root above stays approved by committee #0, the corrected one needs two of three.
    let members = [KEY0, MEMBER_KEYS[0], MEMBER_KEYS[1]].map(addr_of);
    let set = reg
        .setCommittee(members.to_vec(), 2)
        .from(addr_of(KEY0))
        .send()
        .await
        .unwrap()
        .get_receipt()
        .await
        .unwrap();
    assert!(set.status());

    // Sign (only a committee member may), gather, propose, propose again (into the reopened slot).
    let bundle_arg = p(&out.join("bundle.json"));
    refused(
        eden.run(
            Some(PROJECT_KEYS[0]),
            &["epoch", "sign", "--bundle", &bundle_arg],
        ),
        "not a signer of committee #1",
    );
    let expiry = (node.latest_timestamp().await + 3_600).to_string();
    let proposer = format!("{:#x}", addr_of(KEY0));
    let sig = p(&out.join("signature.json"));
    let sig_b = p(&out.join("signature-b.json"));
    let s = eden.ok(
        Some(KEY0),
        &[
            "epoch",
            "sign",
            "--bundle",
            &bundle_arg,
            "--expiry",
            &expiry,
            "--out",
            &sig,
        ],
    );
    assert_eq!(
        s["root"].as_str().unwrap().parse::<B256>().unwrap(),
        bundle.root
    );
    eden.ok(
        Some(MEMBER_KEYS[1]),
        &[
            "epoch",
            "sign",
            "--bundle",
            &bundle_arg,
            "--expiry",
            &expiry,
            "--proposer",
            &proposer,
            "--out",
            &sig_b,
        ],
    );
    refused(
        eden.run(
            Some(PROJECT_KEYS[0]),
            &[
                "epoch",
                "propose",
                "--signature",
                &sig,
                "--signature",
                &sig_b,
            ],
        ),
        "proposer",
    );
    // One approval is too few; the same member twice is one member.
    refused(
        eden.run(Some(KEY0), &["epoch", "propose", "--signature", &sig]),
        "committee #1 needs 2",
    );
    refused(
        eden.run(
            Some(KEY0),
            &["epoch", "propose", "--signature", &sig, "--signature", &sig],
        ),
        "approves twice",
    );
    let r = eden.ok(
        Some(KEY0),
        &[
            "epoch",
            "propose",
            "--signature",
            &sig_b,
            "--signature",
            &sig,
        ],
    );
    assert_eq!(r["result"], "proposed", "{r}");
    println!(
        "propose, 2-of-3 committee: {} gas (transaction)",
        r["sent"]["gasUsed"]
    );
    let r = eden.ok(
        Some(KEY0),
        &[
            "epoch",
            "propose",
            "--signature",
            &sig,
            "--signature",
            &sig_b,
        ],
    );
    assert_eq!(r["result"], "alreadyProposed", "{r}");

    // Publish twice.
    let r = eden.ok(
        None,
        &[
            "epoch",
            "publish",
            "--bundle",
            &p(&out.join("bundle.json")),
            "--dir",
            &p(&pubdir),
        ],
    );
    // The bundle and the intake report, each in JSON and compact (C23).
    assert_eq!(r["written"].as_array().unwrap().len(), 4, "{r}");
    // A light pack per project and per track (C22).
    let packs = bundle.projects.len() + bundle.tracks.len();
    assert_eq!(r["packsWritten"].as_u64(), Some(packs as u64), "{r}");
    let r = eden.ok(
        None,
        &[
            "epoch",
            "publish",
            "--bundle",
            &p(&out.join("bundle.json")),
            "--dir",
            &p(&pubdir),
        ],
    );
    assert_eq!(
        (
            r["written"].as_array().unwrap().len(),
            r["unchanged"].as_array().unwrap().len()
        ),
        (0, 4)
    );
    assert_eq!(r["packsUnchanged"].as_u64(), Some(packs as u64), "{r}");
    assert!(pubdir
        .join(format!("epochs/{:#x}.json", bundle.root))
        .is_file());
    // The compact publications read back to the same bundle and report (C23).
    let compact = pubdir.join(format!("epochs/{:#x}.msgpack", bundle.root));
    let packed = std::fs::read(&compact).unwrap();
    assert!(eden_core::compact::is_msgpack(&packed));
    assert_eq!(EpochBundle::from_bytes(&packed).unwrap(), bundle);
    let report_json = eden_core::attest::IntakeReport::from_json(
        &std::fs::read_to_string(out.join("intake.json")).unwrap(),
    )
    .unwrap();
    let report_packed =
        std::fs::read(pubdir.join(format!("epochs/{:#x}.intake.msgpack", bundle.root))).unwrap();
    assert_eq!(
        eden_core::attest::IntakeReport::from_bytes(&report_packed).unwrap(),
        report_json
    );
    // Every project's light pack checks against the root alone, as the Score page does.
    for rec in &bundle.projects {
        let text = std::fs::read_to_string(pubdir.join(eden_core::check::project_pack_path(
            &bundle.root,
            rec.project,
        )))
        .unwrap();
        let pack = eden_core::check::ProjectPack::from_json(&text).unwrap();
        let track = eden_core::check::TrackPack::from_json(
            &std::fs::read_to_string(
                pubdir.join(eden_core::check::track_pack_path(&bundle.root, &rec.track)),
            )
            .unwrap(),
        )
        .unwrap();
        let light = eden_core::check::LightProofs::new(&pack, Some(&track));
        assert!(light.findings().is_empty(), "{:?}", light.findings());
        let c =
            eden_core::check::check_score_in(&light.tree(), rec.project, Some(bundle.root), None)
                .unwrap();
        assert!(
            c.findings.is_empty() && c.leaf_reaches_chain,
            "{:?}",
            c.findings
        );
        assert!(pack.intake.is_some(), "its intake travels with it");
    }

    // The watchtower checks the correct root (every public score, attestation and the tree) and leaves it;
    // it names the committee that approved it and the members who signed (C7a).
    let v = watch(Some(WATCHER_KEYS[0]), &[]);
    assert_eq!(action(&v), "leftAlone", "{v}");
    assert_eq!(
        v[0]["approvers"],
        json!({
            "committee": 1,
            "threshold": 2,
            "members": 3,
            "signed": [addr_of(MEMBER_KEYS[1]), addr_of(KEY0)],
            "byContract": [],
        }),
        "{v}"
    );
    assert_eq!(v[0]["audit"]["findings"], json!([]), "{v}");
    assert_eq!(
        v[0]["audit"]["recomputed"].as_u64(),
        Some(bundle.projects.iter().filter(|r| !r.private).count() as u64)
    );

    // Finalize: refused inside the window, done after it, then nothing to do.
    let es = epoch.to_string();
    refused(
        eden.run(Some(KEY0), &["epoch", "finalize", "--epoch", &es]),
        "pending until",
    );
    node.increase_time(72 * 3600 + 1).await;
    node.mine().await;
    assert_eq!(
        eden.ok(Some(KEY0), &["epoch", "finalize", "--epoch", &es])["result"],
        "finalized"
    );
    assert_eq!(
        eden.ok(Some(KEY0), &["epoch", "finalize", "--epoch", &es])["result"],
        "alreadyFinal"
    );

    // Every score leaf (the published score, C27) verifies on chain.
    let reg = eden_operator::abi::EpochRegistry::new(d.epoch_registry, node.provider.clone());
    for rec in &bundle.projects {
        let leaf = eden_core::leaves::score_leaf(rec.project, rec.published_wad);
        let proof = bundle.proof(&leaf).unwrap();
        assert!(reg
            .verifyScore(epoch, rec.project, rec.published_wad, proof)
            .call()
            .await
            .unwrap());
    }
    assert!(
        bundle.projects.iter().any(|r| r.score_wad > U256::ZERO),
        "somebody passed the gate"
    );

    // The next epoch needs the final epoch's bundle (s(t-1), C4), and builds with it.
    refused(build(&dir.join("epoch-2"), None), "--previous");
    // The previous bundle read from its compact publication.
    let (ok, v, err) = build(&dir.join("epoch-2"), Some(&compact));
    // the old attestations name the previous epoch: every value is reported, none is a claim
    assert!(ok, "{v} {err}");
    assert_eq!(
        (v["epoch"].as_u64(), v["claimsUsed"].as_u64()),
        (Some(epoch + 1), Some(0))
    );

    // Faults (C24): a long-running watchtower whose RPC drops mid-run and whose publication host is down
    // still challenges a wrong root in time, and a restarted one sends nothing twice. Epoch 2 is built right
    // but proposed with one public score raised.
    let e2 = dir.join("epoch-2");
    let mut bad2 =
        EpochBundle::from_json(&std::fs::read_to_string(e2.join("bundle.json")).unwrap()).unwrap();
    let i = bad2.projects.iter().position(|r| !r.private).unwrap();
    bad2.projects[i].score_wad += U256::from(1u8);
    bad2.projects[i].published_wad = bad2.projects[i].score_wad;
    bad2.projects[i].leaf =
        eden_core::leaves::score_leaf(bad2.projects[i].project, bad2.projects[i].score_wad);
    // And one track's gate is not the pinned configuration's (C2a): the watchtower names that too.
    bad2.tracks[0].config.min_age_secs += 1;
    bad2.root = eden_core::check::full_tree(&bad2, B256::ZERO).unwrap().0;
    let bad2_dir = dir.join("tampered-2");
    std::fs::create_dir_all(&bad2_dir).unwrap();
    std::fs::write(bad2_dir.join("bundle.json"), bad2.to_json().unwrap()).unwrap();
    std::fs::copy(e2.join("intake.json"), bad2_dir.join("intake.json")).unwrap();
    // Two of the committee sign it (C7a): the watchtower audits the content, not how many approved it.
    let expiry = (node.latest_timestamp().await + 3_600).to_string();
    let (bad2_bundle, bad2_sig, bad2_sig_b) = (
        p(&bad2_dir.join("bundle.json")),
        p(&bad2_dir.join("signature.json")),
        p(&bad2_dir.join("signature-b.json")),
    );
    eden.ok(
        Some(KEY0),
        &[
            "epoch",
            "sign",
            "--bundle",
            &bad2_bundle,
            "--expiry",
            &expiry,
        ],
    );
    eden.ok(
        Some(MEMBER_KEYS[0]),
        &[
            "epoch",
            "sign",
            "--bundle",
            &bad2_bundle,
            "--expiry",
            &expiry,
            "--proposer",
            &proposer,
            "--out",
            &bad2_sig_b,
        ],
    );
    let r = eden.ok(
        Some(KEY0),
        &[
            "epoch",
            "propose",
            "--signature",
            &bad2_sig,
            "--signature",
            &bad2_sig_b,
        ],
    );
    assert_eq!(r["result"], "proposed", "{r}");
    eden.ok(
        None,
        &[
            "epoch",
            "publish",
            "--bundle",
            &p(&bad2_dir.join("bundle.json")),
            "--dir",
            &p(&pubdir),
        ],
    );
    host_down.store(true, Ordering::SeqCst);
    let anvil_port: u16 = node.url.rsplit(':').next().unwrap().parse().unwrap();
    let rpc = Proxy::start(anvil_port);
    let rpc_url = format!("http://127.0.0.1:{}", rpc.port);
    let log = |name: &str| std::fs::File::create(dir.join(name)).unwrap();
    let start_watcher = |name: &str| {
        Command::new(env!("CARGO_BIN_EXE_eden"))
            .args([
                "--json",
                "--network",
                &p(&eden.network),
                "--rpc-url",
                &rpc_url,
            ])
            .args(["watch", "--interval", "1", "--publication-grace", "3600"])
            .env("EDEN_PRIVATE_KEY", WATCHER_KEYS[0])
            .stdout(log(&format!("{name}.out")))
            .stderr(log(&format!("{name}.err")))
            .spawn()
            .map(Watcher)
            .unwrap()
    };
    let nonce0 = node.provider.get_transaction_count(watcher).await.unwrap();
    let w = start_watcher("watch-1");
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
    let wait_for = |what: &str, f: &dyn Fn() -> bool| {
        let t = std::time::Instant::now();
        while !f() {
            assert!(t.elapsed().as_secs() < 90, "timed out waiting for {what}");
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
    };
    // The host is down: the root is awaited, not challenged (within the grace period).
    wait_for("awaitingPublication", &|| {
        read("watch-1.out").contains("awaitingPublication")
    });
    // The RPC drops mid-run: the pass fails, the watchtower backs off and resumes.
    rpc.cut(true);
    wait_for("a failed pass", &|| {
        read("watch-1.err").contains("next try in")
    });
    rpc.cut(false);
    // The host comes back: the root is challenged.
    host_down.store(false, Ordering::SeqCst);
    let e2n = epoch + 1;
    let t = std::time::Instant::now();
    while reg.status(e2n).call().await.unwrap()._0 != 2 {
        assert!(
            t.elapsed().as_secs() < 90,
            "not challenged: {}",
            read("watch-1.err")
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    // The challenge is mined before the watchtower has its receipt and prints its report: wait for it.
    wait_for("the challenged report", &|| {
        read("watch-1.out").contains("\"challenged\"")
    });
    assert!(
        read("watch-1.out").contains("minAgeSecs"),
        "the track that is not the pinned one is named: {}",
        read("watch-1.out")
    );
    drop(w);
    // Restarted: it re-derives everything from the chain, sees the challenge, and sends nothing.
    let w = start_watcher("watch-2");
    wait_for("a pass", &|| read("watch-2.err").contains("watching"));
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    drop(w);
    assert_eq!(
        node.provider.get_transaction_count(watcher).await.unwrap(),
        nonce0 + 1,
        "exactly one challenge sent: {}",
        read("watch-2.out")
    );
    assert!(
        !read("watch-2.err").contains("next try in"),
        "{}",
        read("watch-2.err")
    );
    let _ = node.provider.get_block_number().await;
    let _ = std::fs::remove_dir_all(&dir);
}
