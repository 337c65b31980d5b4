//! `eden keep` on anvil with the whole deployment (both halves, as the demo deploys): every keeper duty is made
//! due for real (a root past its window, a challenge nobody ruled on, launches with curve fees and a final
//! score, a graduated launch with a liquidity escrow, a scorer lane, a closed payout round, a duel round
//! nobody traded through, a commit never revealed, ETH in the ROOT buyback's lane), then a keeper that is nobody in particular does each one
//! exactly once: a second pass sends nothing. A dry run sends nothing; liquidity sweeps are the fee lanes'
//! keeper's, and a small fee is left until it is worth its gas.

mod common;
use common::eden;

use alloy::primitives::{keccak256, Address, B256, U256};
use alloy::sol_types::SolCall;
use eden_contracts_diff::{deploy_full, serve_dir, start_node, test_chain_id, tx, Node};
use eden_core::fixtures::cohort;
use eden_core::registry::EpochStatus;
use eden_core::scoring::build_epoch;
use eden_operator::abi::{
    CallLedger, DuelHook, EpochRegistry, FeeLanes, HolderDistributor, Launchpad, RootBuyback,
};
use serde_json::{json, Value};
use std::path::Path;

alloy::sol! {
    #[sol(rpc)]
    interface LaunchToken {
        function totalSupply() external view returns (uint256);
    }
}
use std::process::Command;

/// Anvil account 0: the deployer (root signer, poster, the fee lanes' keeper and owner).
const KEY0: &str = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
/// Anvil account 7: a keeper with no role anywhere.
const KEY7: &str = "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356";

alloy::sol! {
    function mint(address to, uint256 amount);
    function approve(address spender, uint256 amount) returns (bool);
    function setAnswer(int256 answer);
}

fn ok(network: &Path, key: Option<&str>, args: &[&str]) -> Value {
    let (ok, v, err) = eden(network, key, args);
    assert!(ok, "eden {args:?}: {v} {err}");
    v
}

/// The (call, target) pairs of a keeper report whose result is `result`.
fn with_result(report: &Value, result: &str) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = report["done"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["result"] == result)
        .map(|d| {
            (
                d["call"].as_str().unwrap().to_string(),
                d["target"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    v.sort();
    v
}

async fn send(node: &Node, from: Address, to: Address, call: impl SolCall, value: U256) {
    node.send_mined(tx(from, to, call.abi_encode()).value(value))
        .await;
}

fn addr(v: &Value) -> Address {
    v.as_str().unwrap().parse().unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn each_keeper_duty_happens_once() {
    let node = start_node(test_chain_id(42));
    let d = deploy_full(&node, &[]);
    let dir = std::env::temp_dir().join(format!("eden-keep-{}", node.chain_id));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let pubdir = dir.join("public");
    let (host, _) = serve_dir(pubdir.clone());
    let j = &d.json;
    let network = dir.join("network.json");
    std::fs::write(
        &network,
        json!({
            "format": "eden-network-v1", "chainId": node.chain_id, "name": "keeper test",
            "nativeCurrency": {"name": "Ether", "symbol": "ETH", "decimals": 18},
            "rpcUrls": [node.url],
            "contracts": {
                "epochRegistry": j["epochRegistry"], "holderDistributor": j["holderDistributor"],
                "launchpad": j["launchpad"], "launchLocker": j["launchLocker"], "poolManager": j["poolManager"],
                "feeLanes": j["feeLanes"], "scorerRegistry": j["scorerRegistry"], "callLedger": j["callLedger"],
                "duelHook": j["duelHook"],
            },
            "deploymentBlock": j["startBlock"], "publications": [format!("http://127.0.0.1:{host}/")],
        })
        .to_string(),
    )
    .unwrap();
    let p = |x: &Path| x.display().to_string();
    let a = &node.accounts;
    let (deployer, keeper) = (a[0], a[7]);
    let pv = &node.provider;
    let pad = Launchpad::new(d.launchpad, pv);
    let lanes = FeeLanes::new(d.fee_lanes, pv);
    let reg = EpochRegistry::new(d.epoch_registry, pv);
    let hd = HolderDistributor::new(d.holder_distributor, pv);
    let (scorers, ledger, hook) = (
        addr(&j["scorerRegistry"]),
        addr(&j["callLedger"]),
        addr(&j["duelHook"]),
    );

    // Two ETH launches: T is bought once, U is bought to graduation; U's creator fixed a 25 % own-token
    // buyback (§7).
    let quarter = 250_000_000_000_000_000u64;
    for (who, name, share) in [(a[1], "Keep T", 0), (a[2], "Keep U", quarter)] {
        let call = Launchpad::launchCall {
            name: name.into(),
            symbol: "KEEP".into(),
            quote: Address::ZERO,
            ownBuybackShare: share,
        };
        send(&node, who, d.launchpad, call, U256::ZERO).await;
    }
    // Past the launch's snipe-tax window.
    node.increase_time(3_600).await;
    let t = pad.tokens(U256::ZERO).call().await.unwrap();
    let u = pad.tokens(U256::from(1u8)).call().await.unwrap();
    let buy = |token: Address, amount: U256| Launchpad::buyCall {
        token,
        quoteIn: amount,
        minTokensOut: U256::ZERO,
        deadline: U256::from(u64::MAX),
    };
    let eth = U256::from(10u64).pow(U256::from(18u8));
    send(&node, a[3], d.launchpad, buy(t, eth), eth).await;
    let grad = d.eth_virtual_quote * U256::from(5u8);
    send(&node, a[3], d.launchpad, buy(u, grad), grad).await;
    assert!(pad.launchOf(u).call().await.unwrap().graduated);
    // T's scorer pool takes ETH from its lane.
    send(
        &node,
        deployer,
        scorers,
        eden_operator::abi::ScorerRegistry::configurePoolCall {
            token: t,
            asset: Address::ZERO,
        },
        U256::ZERO,
    )
    .await;

    // The first epoch scores T and U; it is published, signed and proposed with the real tool. The second is
    // proposed and challenged, and nobody rules on the challenge.
    let first = d.first_epoch;
    for (epoch, sub) in [(first, "e1"), (first + 1, "e2")] {
        let mut input = cohort(6);
        input.epoch = epoch;
        input.previous.clear();
        input.projects[1].project = t;
        input.projects[3].project = u;
        input.projects[5].project = Address::repeat_byte(0x40 + (epoch - first) as u8);
        let bundle = build_epoch(&input).unwrap();
        let bdir = dir.join(sub);
        std::fs::create_dir_all(&bdir).unwrap();
        std::fs::write(bdir.join("bundle.json"), bundle.to_json().unwrap()).unwrap();
        ok(
            &network,
            None,
            &[
                "epoch",
                "publish",
                "--bundle",
                &p(&bdir.join("bundle.json")),
                "--dir",
                &p(&pubdir),
            ],
        );
        ok(
            &network,
            Some(KEY0),
            &["epoch", "sign", "--bundle", &p(&bdir.join("bundle.json"))],
        );
        ok(
            &network,
            Some(KEY0),
            &[
                "epoch",
                "propose",
                "--signature",
                &p(&bdir.join("signature.json")),
            ],
        );
    }
    let bundle1: eden_core::scoring::EpochBundle = eden_core::scoring::EpochBundle::from_json(
        &std::fs::read_to_string(dir.join("e1/bundle.json")).unwrap(),
    )
    .unwrap();
    let score_of = |x: Address| {
        bundle1
            .projects
            .iter()
            .find(|r| r.project == x)
            .unwrap()
            .published_wad
    };
    let bond = reg.bond().call().await.unwrap();
    send(
        &node,
        a[4],
        d.epoch_registry,
        EpochRegistry::challengeCall { epoch: first + 1 },
        bond,
    )
    .await;

    // A payout round of T, posted now.
    let pot = eth / U256::from(10u8);
    send(
        &node,
        deployer,
        d.holder_distributor,
        HolderDistributor::fundCall {
            token: t,
            asset: Address::ZERO,
            amount: pot,
        },
        pot,
    )
    .await;
    let post = HolderDistributor::postRootCall {
        token: t,
        asset: Address::ZERO,
        epoch: 1,
        root: B256::repeat_byte(7),
        total: pot.to(),
        snapshotBlock: 1,
    };
    send(&node, deployer, d.holder_distributor, post, U256::ZERO).await;

    // An agent commits a call and never reveals it.
    let root_token = addr(&j["root"]);
    let stake = U256::from(100u8) * eth;
    send(
        &node,
        deployer,
        root_token,
        mintCall {
            to: a[5],
            amount: stake,
        },
        U256::ZERO,
    )
    .await;
    send(
        &node,
        a[5],
        root_token,
        approveCall {
            spender: ledger,
            amount: stake,
        },
        U256::ZERO,
    )
    .await;
    send(
        &node,
        a[5],
        ledger,
        CallLedger::stakeCall { amount: stake },
        U256::ZERO,
    )
    .await;
    send(
        &node,
        a[5],
        ledger,
        CallLedger::commitCall {
            commitment: keccak256("never revealed"),
        },
        U256::ZERO,
    )
    .await;

    // 91 days pass: every window is over, and nobody trades through the duel.
    node.increase_time(91 * 86_400).await;
    node.mine().await;
    // The local ETH/USD and stablecoin/USD feeds answer again (the prices fail closed on an answer
    // older than 25 h).
    for (feed, answer) in [
        (addr(&j["ethUsdFeed"]), 300_000_000_000_i64),
        (addr(&j["stablecoinUsdFeed"]), 100_000_000_i64),
    ] {
        send(
            &node,
            deployer,
            feed,
            setAnswerCall {
                answer: alloy::primitives::I256::try_from(answer).unwrap(),
            },
            U256::ZERO,
        )
        .await;
    }

    // A dry run finds every duty and sends nothing.
    let dry = ok(&network, None, &["keep", "--once", "--dry-run"]);
    let due = with_result(&dry, "wouldSend");
    let tt = format!("token {t}");
    let ut = format!("token {u}");
    let expected: Vec<(String, String)> = {
        let mut v = vec![
            ("finalize".to_string(), format!("epoch {first}")),
            ("lapse".into(), format!("epoch {}", first + 1)),
            ("collectFees".into(), tt.clone()),
            ("collectFees".into(), ut.clone()),
            (
                "rollover".into(),
                format!("round 1 of {t} (asset {})", Address::ZERO),
            ),
            ("settle".into(), format!("duel {}", j["duelId"])),
            ("expire".into(), "call 0".into()),
        ];
        v.sort();
        v
    };
    // (Scores wait for the finalize the dry run did not send.)
    assert_eq!(due, expected, "{dry}");

    // The keeper: every duty once.
    let before = node.nonce(keeper).await;
    let r = ok(&network, Some(KEY7), &["keep", "--once"]);
    let sent = with_result(&r, "sent");
    let mut want = expected.clone();
    want.extend([
        ("updateScore".to_string(), tt.clone()),
        ("updateScore".into(), ut.clone()),
        ("pullFees".into(), tt.clone()),
    ]);
    if !want.contains(&("run".to_string(), "ETH".to_string())) {
        want.push(("run".to_string(), "ETH".to_string())); // the buyback lane the fee collections filled
    }
    want.sort();
    assert_eq!(sent, want, "{r}");
    assert_eq!(node.nonce(keeper).await, before + want.len() as u64);
    // The liquidity and own-token buyback sweeps are the fee lanes' keeper's: named, not sent.
    let refused = with_result(&r, "wouldRevert");
    assert_eq!(
        refused,
        vec![
            ("sweepLiquidity".to_string(), ut.clone()),
            ("sweepOwnBuyback".to_string(), ut.clone())
        ],
        "{r}"
    );
    for d in r["done"].as_array().unwrap() {
        eprintln!(
            "{} {}: gas {}",
            d["call"], d["target"], d["sent"]["gasUsed"]
        );
    }

    // The chain agrees, and the split of T's fees used the score recorded just before.
    let st = reg.status(first).call().await.unwrap();
    assert_eq!(EpochStatus::from_code(st._0), EpochStatus::Final);
    // C7 (second review): a lapsed challenge returns the proposal to pending with a fresh window and its
    // challenge count kept; nothing reopens the slot.
    let st2 = reg.status(first + 1).call().await.unwrap();
    assert_eq!(EpochStatus::from_code(st2._0), EpochStatus::Pending);
    assert_eq!(reg.challengeCount(first + 1).call().await.unwrap(), 1);
    for x in [t, u] {
        assert_eq!(lanes.scoreEpochOf(x).call().await.unwrap(), first);
        assert_eq!(lanes.scoreOf(x).call().await.unwrap(), score_of(x));
        assert!(pad.launchOf(x).call().await.unwrap().feesAccrued.is_zero());
    }
    let collect_t = r["done"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["call"] == "collectFees" && d["target"] == tt.as_str())
        .unwrap()["sent"]["tx"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let split = node
        .receipt(collect_t)
        .await
        .inner
        .logs()
        .iter()
        .find_map(|l| l.log_decode::<FeeLanes::FeesSplit>().ok())
        .unwrap()
        .inner
        .data;
    let params = lanes.params().call().await.unwrap();
    assert_eq!(
        split.creatorShare,
        lanes.creatorShare(t).call().await.unwrap()
    );
    assert!(
        split.creatorShare > params.fUnverified,
        "the split paid more than the floor"
    );
    assert!(lanes
        .scorerPool(t, Address::ZERO)
        .call()
        .await
        .unwrap()
        .is_zero());
    assert!(hd.round(t, Address::ZERO, 1).call().await.unwrap().settled);
    let call0 = CallLedger::new(ledger, pv)
        .getCall(U256::ZERO)
        .call()
        .await
        .unwrap();
    assert_eq!(call0.status, 4, "expired");
    let duel = DuelHook::new(hook, pv)
        .getDuel(U256::from(j["duelId"].as_u64().unwrap()))
        .call()
        .await
        .unwrap();
    assert!(duel.activeRound > 0);

    // C26: the buyback pulled its lane, bought ROOT, burned two thirds and locked the rest in ROOT's pool.
    let rb = RootBuyback::new(lanes.buyback().call().await.unwrap(), pv);
    assert_eq!(rb.address(), &addr(&j["rootBuyback"]));
    assert!(lanes
        .buybackPool(Address::ZERO)
        .call()
        .await
        .unwrap()
        .is_zero());
    let run_tx = r["done"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["call"] == "run")
        .unwrap()["sent"]["tx"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let bought = node
        .receipt(run_tx)
        .await
        .inner
        .logs()
        .iter()
        .find_map(|l| l.log_decode::<RootBuyback::RootBoughtBack>().ok())
        .unwrap()
        .inner
        .data;
    assert!(bought.rootBought >= bought.minRootOut && !bought.rootBurned.is_zero());
    assert_eq!(
        rb.totalRootBurned().call().await.unwrap(),
        bought.rootBurned
    );
    assert_eq!(
        rb.positionLiquidity().call().await.unwrap(),
        bought.liquidity
    );
    eprintln!(
        "buyback: {} wei in, {} ROOT wei bought, {} burned, liquidity {}",
        bought.amountIn, bought.rootBought, bought.rootBurned, bought.liquidity
    );

    // Again: nothing is due, nothing is sent.
    let again = ok(&network, Some(KEY7), &["keep", "--once"]);
    assert!(with_result(&again, "sent").is_empty(), "{again}");
    assert_eq!(node.nonce(keeper).await, before + want.len() as u64);

    // C18a: the rollover refilled T's holder pot and the fee lanes filled U's, so a round of each is due; the
    // poster's keeper snapshots each at a mined block, publishes its tree and snapshot, then posts it. Not
    // due again the same day.
    let pubdir = dir.join("public");
    let pd = pubdir.display().to_string();
    let p = ok(
        &network,
        Some(KEY0),
        &["keep", "payouts", "--payout-dir", &pd],
    );
    let mut rounds = vec![
        (
            "postRoot".to_string(),
            format!("round 2 of {t} (asset {})", Address::ZERO),
        ),
        (
            "postRoot".to_string(),
            format!("round 1 of {u} (asset {})", Address::ZERO),
        ),
    ];
    rounds.sort();
    assert_eq!(with_result(&p, "sent"), rounds, "{p}");
    let round = hd.round(t, Address::ZERO, 2).call().await.unwrap();
    assert!(round.snapshotBlock > 0 && !round.settled);
    for f in [
        eden_chain::payouts::tree_path(&round.root),
        eden_chain::payouts::snapshot_path(&round.root),
    ] {
        assert!(pubdir.join(&f).exists(), "{f} published before the post");
    }
    let p = ok(
        &network,
        Some(KEY0),
        &["keep", "payouts", "--payout-dir", &pd],
    );
    assert!(with_result(&p, "sent").is_empty(), "{p}");

    // The fee lanes' keeper sweeps U's escrows into its pool, once each: liquidity added, and the own-token
    // buyback buys U and burns it (the supply falls by what it bought).
    assert!(!lanes.liquidityEscrow(u).call().await.unwrap().is_zero());
    let own = lanes.ownBuybackEscrow(u).call().await.unwrap();
    assert!(!own.is_zero());
    let u_token = LaunchToken::new(u, pv);
    let supply = u_token.totalSupply().call().await.unwrap();
    let s = ok(&network, Some(KEY0), &["keep", "sweep"]);
    assert_eq!(
        with_result(&s, "sent"),
        vec![
            ("sweepLiquidity".to_string(), ut.clone()),
            ("sweepOwnBuyback".to_string(), ut.clone())
        ],
        "{s}"
    );
    for d in s["done"].as_array().unwrap() {
        if d["result"] == "sent" {
            eprintln!("{}: gas {}", d["call"], d["sent"]["gasUsed"]);
        }
    }
    assert!(lanes.liquidityEscrow(u).call().await.unwrap().is_zero());
    assert!(lanes.ownBuybackEscrow(u).call().await.unwrap().is_zero());
    let swept_tx = s["done"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["call"] == "sweepOwnBuyback")
        .unwrap()["sent"]["tx"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let receipt = node.receipt(swept_tx).await;
    let swept = receipt
        .inner
        .logs()
        .iter()
        .find_map(|l| l.log_decode::<FeeLanes::OwnBuybackSwept>().ok())
        .unwrap_or_else(|| panic!("{s} {receipt:?}"))
        .inner
        .data;
    assert_eq!(swept.quoteIn, own);
    assert!(!swept.tokensBurned.is_zero());
    assert_eq!(
        u_token.totalSupply().call().await.unwrap(),
        supply - swept.tokensBurned
    );
    let s = ok(&network, Some(KEY0), &["keep", "sweep"]);
    assert!(with_result(&s, "sent").is_empty(), "{s}");

    // A tiny fee waits until it is worth its gas; asked to weigh nothing, the keeper collects it.
    let tiny = U256::from(10_000_000_000u64);
    send(&node, a[3], d.launchpad, buy(t, tiny), tiny).await;
    // (The sweeps' swaps paid U's pool its fee: that small amount waits too.)
    let f = ok(&network, Some(KEY7), &["keep", "fees"]);
    assert_eq!(
        with_result(&f, "notWorthIt"),
        vec![
            ("collectFees".to_string(), tt.clone()),
            ("collectPoolFees".to_string(), ut.clone())
        ],
        "{f}"
    );
    assert!(with_result(&f, "sent").is_empty(), "{f}");
    let f = ok(&network, Some(KEY7), &["keep", "fees", "--min-gain", "0"]);
    assert!(
        with_result(&f, "sent").contains(&("collectFees".to_string(), tt.clone())),
        "{f}"
    );

    // Long-running: a keeper started with no work finds the next duty when it comes due, within a pass.
    let log = dir.join("keep.log");
    let child = Command::new(env!("CARGO_BIN_EXE_eden"))
        .arg("--network")
        .arg(&network)
        .args(["keep", "--interval", "1"])
        .env("EDEN_PRIVATE_KEY", KEY7)
        .stdout(std::fs::File::create(&log).unwrap())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let _keeper = Keeper(child);
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    let n = node.nonce(keeper).await;
    send(&node, a[3], d.launchpad, buy(t, eth), eth).await;
    let t0 = std::time::Instant::now();
    while !pad.launchOf(t).call().await.unwrap().feesAccrued.is_zero() {
        assert!(
            t0.elapsed().as_secs() < 60,
            "the running keeper did not collect T's fees"
        );
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
    // collectFees, then the scorer lane it filled.
    let t0 = std::time::Instant::now();
    while node.nonce(keeper).await < n + 2 {
        assert!(
            t0.elapsed().as_secs() < 60,
            "the running keeper did not pull T's scorer lane"
        );
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    let text = std::fs::read_to_string(&log).unwrap();
    // The buyback lane those fees filled is run too when it is worth its gas.
    let runs = text.matches("run ETH: done").count() as u64;
    assert_eq!(
        node.nonce(keeper).await,
        n + 2 + runs,
        "nothing more was due: {text}"
    );
    assert!(
        text.contains("collectFees token") && text.contains("pullFees token"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A long-running keeper, stopped when the test ends (even by a failed assertion).
struct Keeper(std::process::Child);

impl Drop for Keeper {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
