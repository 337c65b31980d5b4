//! `eden payouts` on anvil with the real contracts (C18, C18a): a snapshot at a past block ignores every later
//! transfer and excludes the deployment's accounts and those the owner listed on the distributor by that
//! block (not after), its balances are the token's own `balanceOf` at that block, the root is posted once
//! with its snapshot block, the tree is published as OpenZeppelin's `standard-v1` dump, the audit finds it
//! right and revokes a wrong round in its review, and a holder claims its amount on chain with a proof from
//! the published tree.

mod common;
use common::eden;

use alloy::primitives::{Address, U256};
use alloy::providers::Provider;
use alloy::rpc::types::TransactionRequest;
use alloy::sol_types::SolCall;
use eden_contracts_diff::{deploy, serve_dir, start_node, test_chain_id};
use eden_core::holders::{find_payout, DEAD_ADDRESS};
use eden_core::merkle::StandardMerkleTree;
use serde_json::{json, Value};
use std::path::Path;

const KEY0: &str = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
/// Anvil's account 9: the deployment's payout guardian.
const KEY9: &str = "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6";

alloy::sol! {
    function mint(address to, uint256 amount);
    function transfer(address to, uint256 amount) returns (bool);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_snapshot_at_a_past_block_posted_published_and_claimed() {
    let node = start_node(test_chain_id(41));
    let d = deploy(&node, &[]);
    let dir = std::env::temp_dir().join(format!("eden-payouts-{}", node.chain_id));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let j = &d.json;
    let network = dir.join("network.json");
    std::fs::write(
        &network,
        json!({
            "format": "eden-network-v1", "chainId": node.chain_id, "name": "payouts test",
            "nativeCurrency": {"name": "Ether", "symbol": "ETH", "decimals": 18},
            "rpcUrls": [node.url],
            "contracts": {
                "epochRegistry": j["epochRegistry"], "holderDistributor": j["holderDistributor"],
                "launchpad": j["launchpad"], "launchLocker": j["launchLocker"], "poolManager": j["poolManager"],
                "feeLanes": j["feeLanes"],
            },
            "deploymentBlock": j["startBlock"], "publications": ["http://127.0.0.1:1/"],
        })
        .to_string(),
    )
    .unwrap();
    let ok = |key: Option<&str>, args: &[&str]| {
        let (ok, v, err) = eden(&network, key, args);
        assert!(ok, "eden {args:?}: {v} {err}");
        v
    };
    let token: Address = j["stablecoin"].as_str().unwrap().parse().unwrap();
    let distributor: Address = j["holderDistributor"].as_str().unwrap().parse().unwrap();
    let vault = Address::repeat_byte(0x7a);
    let [_, a, b, c, late] = [0, 1, 2, 3, 4].map(|i| node.accounts[i]);
    let call = |from: Address, data: Vec<u8>| {
        TransactionRequest::default()
            .from(from)
            .to(token)
            .input(data.into())
    };
    let units = |n: u64| U256::from(n) * U256::from(1_000_000u64);
    let dist = eden_operator::abi::HolderDistributor::new(distributor, node.provider.clone());
    let list = |acct: Address, on: bool| {
        let dist = &dist;
        let owner = node.accounts[0];
        async move {
            let r = dist
                .setExcluded(acct, on)
                .from(owner)
                .send()
                .await
                .unwrap()
                .get_receipt()
                .await
                .unwrap();
            assert!(r.status());
        }
    };
    // The owner lists the vault (an escrow or vesting lock) before b.
    list(vault, true).await;
    // Before b: A 1,000 and B 500 minted; A pays C 100 and burns 50 to 0xdEaD; B parks 20 in the
    // distributor and 30 in a vault.
    for tx in [
        call(
            a,
            mintCall {
                to: a,
                amount: units(1000),
            }
            .abi_encode(),
        ),
        call(
            b,
            mintCall {
                to: b,
                amount: units(500),
            }
            .abi_encode(),
        ),
        call(
            a,
            transferCall {
                to: c,
                amount: units(100),
            }
            .abi_encode(),
        ),
        call(
            a,
            transferCall {
                to: DEAD_ADDRESS,
                amount: units(50),
            }
            .abi_encode(),
        ),
        call(
            b,
            transferCall {
                to: distributor,
                amount: units(20),
            }
            .abi_encode(),
        ),
        call(
            b,
            transferCall {
                to: vault,
                amount: units(30),
            }
            .abi_encode(),
        ),
    ] {
        assert!(node.send_mined(tx).await.status());
    }
    let snap_block = node.provider.get_block_number().await.unwrap();
    // Listed after b: it does not change the round at b.
    list(c, true).await;
    // After b: none of this may count.
    for tx in [
        call(
            a,
            transferCall {
                to: b,
                amount: units(300),
            }
            .abi_encode(),
        ),
        call(
            late,
            mintCall {
                to: late,
                amount: units(999),
            }
            .abi_encode(),
        ),
    ] {
        assert!(node.send_mined(tx).await.status());
    }

    let p = |x: &Path| x.display().to_string();
    let (block, total) = (snap_block.to_string(), "1000000000000000000".to_string());
    let tok = format!("{token:#x}");
    let out = dir.join("round");
    let snapshot_to = |to: &Path| {
        ok(
            None,
            &[
                "payouts",
                "snapshot",
                "--token",
                &tok,
                "--block",
                &block,
                "--epoch",
                "7",
                "--total",
                &total,
                "--out",
                &p(to),
            ],
        )
    };
    let snap = snapshot_to(&out);
    // The balances at b, from the logs, equal to balanceOf at b: later transfers ignored.
    let holders: Vec<(Address, U256)> = snap["holders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["account"].as_str().unwrap().parse().unwrap(),
                h["balance"].as_str().unwrap().parse().unwrap(),
            )
        })
        .collect();
    let mut want = vec![(a, units(850)), (b, units(450)), (c, units(100))];
    want.sort();
    assert_eq!(holders, want, "{snap}");
    assert_eq!(snap["block"].as_u64(), Some(snap_block));
    // Every listed exclusion, with the balance it held at b.
    let excluded = |acct: Address| {
        snap["excluded"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["account"].as_str().unwrap().parse::<Address>().unwrap() == acct)
            .map(|e| {
                (
                    e["role"].as_str().unwrap().to_string(),
                    e["balance"].as_str().unwrap().to_string(),
                )
            })
    };
    assert_eq!(
        excluded(DEAD_ADDRESS),
        Some(("dead".into(), units(50).to_string()))
    );
    assert_eq!(
        excluded(distributor),
        Some(("distributor".into(), units(20).to_string()))
    );
    assert_eq!(
        excluded(vault),
        Some(("listed".into(), units(30).to_string()))
    );
    assert_eq!(excluded(Address::ZERO).map(|e| e.0), Some("zero".into()));
    for role in ["poolManager", "curve", "locker", "feeLanes"] {
        assert!(
            snap["excluded"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["role"] == role),
            "{role} excluded"
        );
    }
    // Deterministic: taken again, the same file.
    let again = snapshot_to(&dir.join("again"));
    assert_eq!(again, snap);
    // A block not mined yet is refused.
    let (okk, v, _) = eden(
        &network,
        None,
        &[
            "payouts",
            "snapshot",
            "--token",
            &tok,
            "--block",
            "99999999",
            "--epoch",
            "7",
            "--total",
            &total,
            "--out",
            &p(&dir.join("x")),
        ],
    );
    assert!(
        !okk && v["error"].as_str().unwrap().contains("not mined"),
        "{v}"
    );

    // Post: refused before the pot holds the total; funded, posted once.
    let snapshot = p(&out.join("snapshot.json"));
    let (okk, v, _) = eden(
        &network,
        Some(KEY0),
        &["payouts", "post", "--snapshot", &snapshot],
    );
    assert!(
        !okk && v["error"].as_str().unwrap().contains("fund it first"),
        "{v}"
    );
    let fund = dist
        .fund(token, Address::ZERO, U256::from(10u8).pow(U256::from(18u8)))
        .value(U256::from(10u8).pow(U256::from(18u8)))
        .from(node.accounts[0])
        .send()
        .await
        .unwrap()
        .get_receipt()
        .await
        .unwrap();
    assert!(fund.status());
    assert_eq!(
        ok(Some(KEY0), &["payouts", "post", "--snapshot", &snapshot])["result"],
        "posted"
    );
    assert_eq!(
        ok(Some(KEY0), &["payouts", "post", "--snapshot", &snapshot])["result"],
        "alreadyPosted"
    );

    // Publish (twice: unchanged), then a holder claims from the published tree.
    let pubdir = dir.join("public");
    let r = ok(
        None,
        &[
            "payouts",
            "publish",
            "--snapshot",
            &snapshot,
            "--dir",
            &p(&pubdir),
        ],
    );
    assert_eq!(r["written"].as_array().unwrap().len(), 2, "{r}");
    let r = ok(
        None,
        &[
            "payouts",
            "publish",
            "--snapshot",
            &snapshot,
            "--dir",
            &p(&pubdir),
        ],
    );
    assert_eq!(r["unchanged"].as_array().unwrap().len(), 2, "{r}");
    let root = snap["root"].as_str().unwrap().to_lowercase();
    assert_eq!(
        dist.round(token, Address::ZERO, 7)
            .call()
            .await
            .unwrap()
            .snapshotBlock,
        snap_block,
        "the round records its snapshot block"
    );

    // The audit re-derives the round in review from the chain: it matches.
    let (port, host_down) = serve_dir(pubdir.clone());
    let host = format!("http://127.0.0.1:{port}/");
    let audit = |key: Option<&str>| ok(key, &["payouts", "audit", "--publications", &host]);
    let a = audit(None);
    assert_eq!(a[0]["verdict"], "matches", "{a}");
    assert_eq!(a[0]["snapshotBlock"].as_u64(), Some(snap_block), "{a}");
    // A poster that pays a listed vault: round 8 at a later block with the vault unlisted in the tree. The
    // audit rebuilds the round from the chain and the guardian revokes it in its review.
    let bad_block = node.provider.get_block_number().await.unwrap();
    let mut bad: Value = snap.clone();
    bad["epoch"] = json!("8");
    bad["block"] = json!(bad_block.to_string());
    let bad_snap: eden_core::holders::PayoutSnapshot = serde_json::from_value(bad).unwrap();
    let leaves = [(vault, units(30)), (c, units(100))];
    let bad_tree = eden_core::holders::payout_tree(
        bad_snap.context(),
        &eden_core::holders::HolderAllocation {
            amounts: leaves
                .iter()
                .map(|&(account, amount)| eden_core::holders::HolderAmount {
                    account,
                    balance: amount,
                    amount,
                })
                .collect(),
            total: units(130),
            eligible_supply: units(130),
            allocated: units(130),
            dust: U256::ZERO,
            excluded: 0,
        },
    )
    .unwrap();
    let refund = dist
        .fund(token, Address::ZERO, units(130))
        .value(units(130))
        .from(node.accounts[0])
        .send()
        .await
        .unwrap()
        .get_receipt()
        .await
        .unwrap();
    assert!(refund.status());
    let post_bad = dist
        .postRoot(
            token,
            Address::ZERO,
            8,
            bad_tree.root(),
            units(130).to(),
            bad_block,
        )
        .from(node.accounts[0])
        .send()
        .await
        .unwrap()
        .get_receipt()
        .await
        .unwrap();
    assert!(post_bad.status());
    let a = audit(None);
    let bad_report = a
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["epoch"] == 8)
        .unwrap();
    assert_eq!(bad_report["verdict"], "differs", "{a}");
    assert_eq!(bad_report["action"], "flagged", "{a}");
    let a = audit(Some(KEY9));
    let bad_report = a
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["epoch"] == 8)
        .unwrap();
    assert_eq!(bad_report["action"], "revoked", "{a}");
    assert!(
        dist.round(token, Address::ZERO, 8)
            .call()
            .await
            .unwrap()
            .settled
    );
    let a = audit(Some(KEY9));
    assert_eq!(
        a.as_array().unwrap().len(),
        1,
        "only round 7 is left in review: {a}"
    );
    host_down.store(true, std::sync::atomic::Ordering::SeqCst);

    let dump: Value = serde_json::from_str(
        &std::fs::read_to_string(pubdir.join(format!("payouts/{root}.json"))).unwrap(),
    )
    .unwrap();
    assert_eq!(dump["format"], "standard-v1");
    let tree = StandardMerkleTree::load_json(dump).unwrap();
    let round = dist.round(token, Address::ZERO, 7).call().await.unwrap();
    assert_eq!(
        tree.root(),
        round.root,
        "the published tree is the posted root"
    );
    let context = eden_core::holders::PayoutContext {
        distributor,
        chain_id: U256::from(node.chain_id),
        token,
        asset: Address::ZERO,
        epoch: 7,
    };
    let found = find_payout(&tree, context, c).unwrap().unwrap();
    assert!(
        find_payout(&tree, context, vault).unwrap().is_none(),
        "a vault is paid nothing"
    );
    assert!(
        find_payout(&tree, context, late).unwrap().is_none(),
        "a later holder is paid nothing"
    );
    node.increase_time(25 * 3600).await;
    node.mine().await;
    let before = node.balance(c).await;
    let claim = dist
        .claim(
            token,
            Address::ZERO,
            7,
            c,
            found.amount,
            found.proof.clone(),
        )
        .from(node.accounts[0])
        .send()
        .await
        .unwrap()
        .get_receipt()
        .await
        .unwrap();
    assert!(claim.status());
    assert_eq!(node.balance(c).await - before, found.amount);
    let _ = std::fs::remove_dir_all(&dir);
}
