//! The human layer from the chain on anvil with the real contracts (C9a, C9b, C10a): three epochs in a row,
//! each built by `eden epoch build` from the registry's `Scored` and `GradeOverridden` events, with no list of
//! theses handed in.
//!
//! - Epoch 1: scorer A's thesis on P0 (in the cohort) counts in its window; P1 has a thesis but no systematic
//!   score, so it is replayed as pre-data. Both grades are the adjudicator's overrides.
//! - Between epochs 1 and 2 the adjudicator overrides A's grade again: epoch 2 uses the new grade. P1 enters the
//!   cohort: it leaves pre-data.
//! - Epoch 3: P1 is out of the cohort again and is not replayed (pre-data ended for good). A root built from a
//!   view of the chain ten days old (A's thesis still inside its window there) is proposed and challenged; the
//!   root built from the chain as it is leaves A's aged-out thesis out and is left alone.
//!
//! The watchtower leaves every correct root alone.

mod common;
use common::eden;

use alloy::primitives::{Address, U256};
use alloy::sol_types::SolCall;
use eden_contracts_diff::{deploy_full, serve_dir, start_node, test_chain_id, tx, Node};
use eden_core::scoring::EpochBundle;
use eden_operator::abi::{EpochRegistry, ScorerRegistry};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

alloy::sol! {
    function transfer(address to, uint256 amount) returns (bool);
    function approve(address spender, uint256 amount) returns (bool);
    function setAnswer(int256 answer);
}

/// Anvil account 0: deployer, root signer and proposer.
const KEY0: &str = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
/// Anvil accounts 1 and 2: the projects P0 and P1 (each its own controller).
const PROJECT_KEYS: [&str; 2] = [
    "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
    "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
];
/// Anvil account 7: a watchtower.
const WATCHER: &str = "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356";
const GITHUB_KEY: &str = "0x1111111111111111111111111111111111111111111111111111111111111111";
const DAY: u64 = 86_400;

fn addr_of(key: &str) -> Address {
    key.parse::<alloy::signers::local::PrivateKeySigner>()
        .unwrap()
        .address()
}

fn addr(v: &Value) -> Address {
    v.as_str().unwrap().parse().unwrap()
}

async fn send(node: &Node, from: Address, to: Address, call: impl SolCall) {
    node.send_mined(tx(from, to, call.abi_encode())).await;
}

fn write(p: &Path, v: &Value) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, serde_json::to_string_pretty(v).unwrap()).unwrap();
}

struct World {
    network: PathBuf,
    dir: PathBuf,
    pubdir: PathBuf,
}

impl World {
    fn ok(&self, key: Option<&str>, args: &[&str]) -> Value {
        let (ok, v, err) = eden(&self.network, key, args);
        assert!(ok, "eden {args:?} failed: {v} {err}");
        v
    }

    /// Each of `projects` hands in one github attestation for `epoch`, observed a minute ago.
    fn submissions(&self, epoch: u64, now: u64, projects: &[Address]) -> PathBuf {
        let subs = self.dir.join(format!("subs-{epoch}-{now}"));
        for (i, p) in projects.iter().enumerate() {
            let att = self.ok(
                Some(GITHUB_KEY),
                &[
                    "attest",
                    "sign",
                    "--project",
                    &format!("{p:#x}"),
                    "--epoch",
                    &epoch.to_string(),
                    "--source",
                    "github",
                    "--observed-at",
                    &(now - 60).to_string(),
                    "--metric",
                    &format!("resolved_work={}", 100 + 50 * i),
                ],
            );
            write(
                &subs.join(format!("{i}.json")),
                &json!({"project": p, "track": "agents", "attestations": [att]}),
            );
        }
        subs
    }

    fn build(
        &self,
        label: &str,
        epoch: u64,
        subs: &Path,
        previous: Option<&Path>,
    ) -> (Value, PathBuf) {
        let out = self.dir.join(label);
        let p = |x: &Path| x.display().to_string();
        let mut a = vec![
            "epoch".to_string(),
            "build".into(),
            "--epoch".into(),
            epoch.to_string(),
            "--intake".into(),
            p(&self.dir.join("intake.json")),
            "--submissions".into(),
            p(subs),
            "--grades".into(),
            p(&self.pubdir),
            "--out".into(),
            p(&out),
        ];
        if let Some(prev) = previous {
            a.push("--previous".into());
            a.push(p(prev));
        }
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        (self.ok(None, &refs), out.join("bundle.json"))
    }

    fn sign_propose_publish(&self, bundle: &Path) {
        let b = bundle.display().to_string();
        let dir = bundle.parent().unwrap().display().to_string();
        let pd = self.pubdir.display().to_string();
        self.ok(None, &["epoch", "publish", "--bundle", &b, "--dir", &pd]);
        self.ok(Some(KEY0), &["epoch", "sign", "--bundle", &b]);
        let r = self.ok(
            Some(KEY0),
            &[
                "epoch",
                "propose",
                "--signature",
                &format!("{dir}/signature.json"),
            ],
        );
        assert_eq!(r["result"], "proposed", "{r}");
    }

    /// `eden watch --once --dry-run`: this epoch's report.
    fn watch(&self, epoch: u64) -> Value {
        let v = self.ok(
            None,
            &["watch", "--once", "--dry-run", "--publication-grace", "0"],
        );
        v.as_array()
            .unwrap_or_else(|| panic!("{v}"))
            .iter()
            .find(|r| r["proposal"]["epoch"] == epoch)
            .unwrap_or_else(|| panic!("no report of epoch {epoch}: {v}"))
            .clone()
    }
}

fn bundle(path: &Path) -> EpochBundle {
    EpochBundle::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn three_epochs_of_theses_from_the_chain() {
    let node = start_node(test_chain_id(44));
    let d = deploy_full(&node, &[]);
    let dir = std::env::temp_dir().join(format!("eden-human-{}", node.chain_id));
    let _ = std::fs::remove_dir_all(&dir);
    let pubdir = dir.join("public");
    std::fs::create_dir_all(&pubdir).unwrap();
    let (host, _) = serve_dir(pubdir.clone());
    let j = &d.json;
    let network = dir.join("network.json");
    write(
        &network,
        &json!({
            "format": "eden-network-v1", "chainId": node.chain_id, "name": "human layer test",
            "nativeCurrency": {"name": "Ether", "symbol": "ETH", "decimals": 18},
            "rpcUrls": [node.url],
            "contracts": {
                "epochRegistry": j["epochRegistry"], "holderDistributor": j["holderDistributor"],
                "launchpad": j["launchpad"], "launchLocker": j["launchLocker"], "poolManager": j["poolManager"],
                "sourceKeyRegistry": j["sourceKeyRegistry"], "feeLanes": j["feeLanes"],
                "scorerRegistry": j["scorerRegistry"],
            },
            "deploymentBlock": j["startBlock"], "publications": [format!("http://127.0.0.1:{host}/")],
        }),
    );
    write(
        &dir.join("intake.json"),
        &json!({
            "sources": [{"name": "github", "metrics": [{"name": "resolved_work"}]}],
            "outputFeatures": {"agents": "resolved_work", "apps": "paying_users", "research": "verified_citations"}
        }),
    );
    let w = World {
        network,
        dir: dir.clone(),
        pubdir,
    };
    let projects: Vec<Address> = PROJECT_KEYS.iter().map(|k| addr_of(k)).collect();
    let (p0, p1) = (projects[0], projects[1]);
    let github = format!("{:#x}", addr_of(GITHUB_KEY));
    for (k, p) in PROJECT_KEYS.iter().zip(&projects) {
        w.ok(
            Some(k),
            &[
                "keys",
                "register",
                "--project",
                &format!("{p:#x}"),
                "--source",
                "github",
                "--key",
                &github,
            ],
        );
    }

    // Two scorers (anvil accounts 3 and 4): A scores P0, B scores P1.
    let a = &node.accounts;
    let (deployer, scorer_a, scorer_b, adjudicator) = (a[0], a[3], a[4], a[9]);
    let reg = addr(&j["scorerRegistry"]);
    let root = addr(&j["root"]);
    let wad = U256::from(10u64).pow(U256::from(18u8));
    node.increase_time(3_600).await; // the ROOT pool's TWAP needs 30 minutes of history
    node.mine().await;
    send(
        &node,
        deployer,
        addr(&j["ethUsdFeed"]),
        setAnswerCall {
            answer: alloy::primitives::I256::try_from(300_000_000_000_i64).unwrap(),
        },
    )
    .await;
    for (who, token, target, text) in [
        (scorer_a, p0, 70u64, "P0 resolves its work steadily."),
        (scorer_b, p1, 40, "P1 has a build and no data yet."),
    ] {
        let cap = U256::from(20_000u64) * wad;
        send(
            &node,
            deployer,
            root,
            transferCall {
                to: who,
                amount: U256::from(30_000u64) * wad,
            },
        )
        .await;
        send(
            &node,
            who,
            root,
            approveCall {
                spender: reg,
                amount: cap,
            },
        )
        .await;
        send(
            &node,
            who,
            reg,
            ScorerRegistry::registerCall { maxBurnRoot: cap },
        )
        .await;
        send(
            &node,
            who,
            reg,
            ScorerRegistry::scoreCall {
                token,
                targetScore: U256::from(target) * wad,
                thesis: text.into(),
                maxBurnRoot: cap,
            },
        )
        .await;
    }
    let scored_at = node.latest_timestamp().await;
    // The adjudicator grades both (§4.1: the override wins; no model runs in this test).
    let over = |id: u64, q_pct: u64, verdict: u8| ScorerRegistry::overrideGradeCall {
        scoreId: U256::from(id),
        qualityWad: U256::from(q_pct) * wad / U256::from(100u8),
        verdict,
    };
    send(&node, adjudicator, reg, over(0, 80, 0)).await;
    send(&node, adjudicator, reg, over(1, 60, 0)).await;

    // 15 days pass (the minimum age counts from the first key).
    node.increase_time(15 * DAY).await;
    node.mine().await;
    let e1 = d.first_epoch;
    let now = node.latest_timestamp().await;
    let subs = w.submissions(e1, now, &[p0]);
    let (r, b1) = w.build("e1", e1, &subs, None);
    assert_eq!(
        (
            r["thesesGraded"].as_u64(),
            r["thesesOverridden"].as_u64(),
            r["preData"].as_u64()
        ),
        (Some(2), Some(2), Some(1)),
        "{r}"
    );
    let bundle1 = bundle(&b1);
    assert_eq!(bundle1.left_pre_data, vec![p0]);
    assert_eq!(bundle1.pre_data().next().map(|h| h.project), Some(p1));
    w.sign_propose_publish(&b1);
    let rep = w.watch(e1);
    assert_eq!(rep["action"]["result"], "leftAlone", "{rep}");
    node.increase_time(72 * 3600 + 60).await;
    node.mine().await;
    w.ok(
        Some(KEY0),
        &["epoch", "finalize", "--epoch", &e1.to_string()],
    );

    // An override lands between the epochs: A's thesis is now similar, q 0.4.
    send(&node, adjudicator, reg, over(0, 40, 1)).await;
    let e2 = e1 + 1;
    let now = node.latest_timestamp().await;
    let subs = w.submissions(e2, now, &[p0, p1]);
    let (r, b2) = w.build("e2", e2, &subs, Some(&b1));
    assert_eq!(
        (r["thesesGraded"].as_u64(), r["preData"].as_u64()),
        (Some(2), Some(0)),
        "P1 left pre-data: {r}"
    );
    let bundle2 = bundle(&b2);
    let t0 = bundle2
        .theses
        .iter()
        .find(|t| t.score_id == U256::ZERO)
        .unwrap();
    assert_eq!(
        (t0.quality_wad, t0.verdict),
        (U256::from(4u8) * wad / U256::from(10u8), 1)
    );
    let mut left = vec![p0, p1];
    left.sort();
    assert_eq!(bundle2.left_pre_data, left);
    w.sign_propose_publish(&b2);
    let rep = w.watch(e2);
    assert_eq!(rep["action"]["result"], "leftAlone", "{rep}");
    node.increase_time(72 * 3600 + 60).await;
    node.mine().await;
    w.ok(
        Some(KEY0),
        &["epoch", "finalize", "--epoch", &e2.to_string()],
    );

    // Epoch 3, built now (day 21): A's thesis still counts; P1 is out of the cohort and is not replayed.
    let e3 = e2 + 1;
    let now = node.latest_timestamp().await;
    assert!(now < scored_at + 30 * DAY);
    let subs = w.submissions(e3, now, &[p0]);
    let (r, stale) = w.build("e3-stale", e3, &subs, Some(&b2));
    assert_eq!(
        (
            r["thesesGraded"].as_u64(),
            r["preData"].as_u64(),
            r["thesesWaiting"].clone()
        ),
        (Some(1), Some(0), json!(["1"])),
        "{r}"
    );
    // Ten days later A's window has closed. The root built from the old view is signed and proposed anyway:
    // the watchtower challenges it.
    node.increase_time(10 * DAY).await;
    node.mine().await;
    w.sign_propose_publish(&stale);
    let rep = w.watch(e3);
    assert_eq!(rep["action"]["result"], "wouldChallenge", "{rep}");
    let findings = rep["audit"]["findings"].to_string();
    assert!(findings.contains("cutoffStale"), "{findings}");
    let send_eth = alloy::rpc::types::TransactionRequest::default()
        .from(deployer)
        .to(addr_of(WATCHER))
        .value(wad);
    node.send_mined(send_eth).await;
    let v = w.ok(
        Some(WATCHER),
        &["watch", "--once", "--publication-grace", "0"],
    );
    assert_eq!(v[0]["action"]["result"], "challenged", "{v}");
    let registry = EpochRegistry::new(d.epoch_registry, node.provider.clone());
    assert!(registry
        .resolve(e3, true)
        .from(adjudicator)
        .send()
        .await
        .unwrap()
        .get_receipt()
        .await
        .unwrap()
        .status());

    // Built from the chain as it is: no thesis counts (A's aged out, B's project is not in the epoch).
    let now = node.latest_timestamp().await;
    let subs = w.submissions(e3, now, &[p0]);
    let (r, fresh) = w.build("e3", e3, &subs, Some(&b2));
    assert_eq!(
        (
            r["thesesGraded"].as_u64(),
            r["preData"].as_u64(),
            r["thesesWaiting"].clone()
        ),
        (Some(0), Some(0), json!(["1"])),
        "{r}"
    );
    let bundle3 = bundle(&fresh);
    assert!(bundle3.theses.is_empty() && bundle3.human.is_empty());
    w.sign_propose_publish(&fresh);
    let rep = w.watch(e3);
    assert_eq!(rep["action"]["result"], "leftAlone", "{rep}");
}
