//! Differential test 3, `HolderDistributor` (C18) against `eden_core::holders`.
//!
//! A token is launched and bought on the deployed launchpad; its balances at a snapshot block
//! (protocol addresses and `0x…dEaD` excluded) go through core's floor allocation and payout tree
//! (`payout_tree`). For an ETH round and a stablecoin round: the pot is funded, the root posted,
//! claims are refused before the 24 h review ends and accepted from its first second; every
//! account claims with core's proof and receives exactly its amount; a second claim reverts
//! (`AlreadyClaimed`, naming core's leaf hash), a tampered amount reverts (`InvalidProof`, naming
//! core's hash of the tampered leaf); after 90 days claims close and the unclaimed remainder
//! (core's `HolderRound::rollover`) returns to the pot.

#[cfg(not(eden_artifacts))]
#[test]
fn holders_need_forge_artifacts() {
    panic!("contracts/out is missing: run `cd contracts && ../node_modules/.bin/forge build --offline` first");
}

#[cfg(eden_artifacts)]
mod diff {
    use alloy::primitives::{keccak256, Address, Bytes, U256};
    use alloy::providers::Provider;
    use alloy::sol_types::{SolCall, SolInterface};
    use eden_contracts_diff::bindings::distributor::HolderDistributor::{
        self, HolderDistributorErrors,
    };
    use eden_contracts_diff::bindings::launchpad::Launchpad;
    use eden_contracts_diff::bindings::stablecoin::TestERC20;
    use eden_contracts_diff::bindings::token::LaunchToken;
    use eden_contracts_diff::{deploy, start_node, test_chain_id, tx, Deployment, Node, Rng};
    use eden_core::holders::{
        allocate_down, payout_leaves, payout_tree, HolderBalance, HolderExclusions, HolderRound,
        HoldersError, PayoutContext, PayoutLeaf, DEAD_ADDRESS, LEAF_TYPES,
    };
    use eden_core::merkle;
    use serde_json::json;
    use std::io::Write;
    use std::time::Instant;

    const EPOCH: u64 = 20_500;

    fn decode(data: &Bytes) -> HolderDistributorErrors {
        HolderDistributorErrors::abi_decode(data)
            .unwrap_or_else(|e| panic!("undecodable revert {data}: {e}"))
    }

    fn claim_call(l: &PayoutLeaf, amount: U256, proof: Vec<alloy::primitives::B256>) -> Vec<u8> {
        HolderDistributor::claimCall {
            token: l.context.token,
            asset: l.context.asset,
            epoch: l.context.epoch,
            account: l.account,
            amount,
            proof,
        }
        .abi_encode()
    }

    struct Tally {
        claims: usize,
        refused: usize,
    }

    async fn balance_of(node: &Node, asset: Address, a: Address) -> U256 {
        if asset.is_zero() {
            node.balance(a).await
        } else {
            TestERC20::new(asset, node.provider.clone())
                .balanceOf(a)
                .call()
                .await
                .unwrap()
        }
    }

    /// What both rounds share: the chain, the token and its snapshot.
    struct Setup<'a> {
        node: &'a Node,
        d: &'a Deployment,
        token: Address,
        balances: &'a [HolderBalance],
        exclusions: &'a HolderExclusions,
    }

    /// One round in `asset`: fund `total`, post core's root, claim (all but the first `skip`
    /// accounts), roll over.
    async fn round(s: &Setup<'_>, asset: Address, total: U256, skip: usize, tally: &mut Tally) {
        let Setup {
            node,
            d,
            token,
            balances,
            exclusions,
        } = *s;
        let poster = d.deployer;
        let submitter = d.deployer; // pays the gas, so every holder's balance moves by its amount only
        let dist = HolderDistributor::new(d.holder_distributor, node.provider.clone());
        let alloc = allocate_down(total, balances, exclusions).expect("core allocation");
        assert!(alloc.amounts.len() >= 3, "a few accounts get a payout");
        let ctx = PayoutContext {
            distributor: d.holder_distributor,
            chain_id: U256::from(node.chain_id),
            token,
            asset,
            epoch: EPOCH,
        };
        let tree = payout_tree(ctx, &alloc).expect("core payout tree");
        let leaves = payout_leaves(ctx, &alloc);

        // Fund the pot and post the root with T = total (the dust stays in the round and rolls over).
        let fund = HolderDistributor::fundCall {
            token,
            asset,
            amount: total,
        }
        .abi_encode();
        let fund_tx = tx(poster, d.holder_distributor, fund);
        node.send_mined(if asset.is_zero() {
            fund_tx.value(total)
        } else {
            fund_tx
        })
        .await;
        assert_eq!(dist.pot(token, asset).call().await.unwrap(), total);
        let post = HolderDistributor::postRootCall {
            token,
            asset,
            epoch: EPOCH,
            root: tree.root(),
            total: total.to(),
            snapshotBlock: node.provider.get_block_number().await.unwrap(),
        };
        let r = node
            .send_mined(tx(poster, d.holder_distributor, post.abi_encode()))
            .await;
        let posted_at = node.latest_timestamp().await;
        assert_eq!(
            Some(node.provider.get_block_number().await.unwrap()),
            r.block_number
        );
        let mut core_round = HolderRound::new(&alloc, posted_at).expect("core round");
        let on_chain = dist.round(token, asset, EPOCH).call().await.unwrap();
        assert_eq!(
            (
                on_chain.root,
                U256::from(on_chain.total),
                on_chain.opensAt,
                on_chain.closesAt
            ),
            (
                tree.root(),
                total,
                core_round.window.opens_at,
                core_round.window.closes_at
            ),
            "round (root, total, opensAt, closesAt) vs core"
        );
        assert_eq!(dist.pot(token, asset).call().await.unwrap(), U256::ZERO);

        // Every leaf hash equals the contract's; before the review ends, claims are refused by both.
        for (i, l) in leaves.iter().enumerate() {
            let chain_leaf = dist
                .leafHash(token, asset, EPOCH, l.account, l.amount)
                .call()
                .await
                .unwrap();
            assert_eq!(chain_leaf, l.hash(), "leafHash of {}", l.account);
            let value = json!(l.oz_values());
            assert_eq!(tree.leaf_hash(&value).unwrap(), l.hash());
            assert!(merkle::verify(
                &tree.root(),
                &LEAF_TYPES,
                &value,
                &tree.get_proof(i).unwrap()
            )
            .unwrap());
        }
        let first = &leaves[0];
        let early = tx(
            submitter,
            d.holder_distributor,
            claim_call(first, first.amount, tree.get_proof(0).unwrap()),
        );
        let opens = core_round.window.opens_at;
        node.set_next_timestamp(opens - 1).await;
        let r = node.send_mined_any(early.clone().gas_limit(300_000)).await;
        assert!(
            !r.status(),
            "claim one second before the window opened succeeded"
        );
        assert!(matches!(
            core_round.claim(opens - 1, first.account),
            Err(HoldersError::ClaimWindowClosed { .. })
        ));
        match decode(&node.call_at(early, opens - 1).await.unwrap_err()) {
            HolderDistributorErrors::NotOpen(e) => {
                assert_eq!((e.opensAt, e.timestamp), (opens, U256::from(opens - 1)))
            }
            other => panic!("expected NotOpen, got {other:?}"),
        }
        tally.refused += 1;

        // From the first second of the window: each account claims with core's proof.
        node.set_next_timestamp(opens).await;
        let mut claimed = U256::ZERO;
        for (i, l) in leaves.iter().enumerate().skip(skip) {
            let proof = tree.get_proof(i).unwrap();
            let before = balance_of(node, asset, l.account).await;
            let now = node.latest_timestamp().await + 1;
            let want = core_round.claim(now, l.account).expect("core claim");
            assert_eq!(want, l.amount);
            let r = node
                .send_mined(
                    tx(
                        submitter,
                        d.holder_distributor,
                        claim_call(l, l.amount, proof.clone()),
                    )
                    .gas_limit(300_000),
                )
                .await;
            let ev = r
                .inner
                .logs()
                .iter()
                .find_map(|lg| lg.log_decode::<HolderDistributor::Claimed>().ok())
                .expect("Claimed event")
                .inner
                .data;
            assert_eq!(
                (ev.account, ev.amount, ev.epoch),
                (l.account, l.amount, EPOCH)
            );
            let after = balance_of(node, asset, l.account).await;
            assert_eq!(
                after - before,
                l.amount,
                "{} received its amount exactly",
                l.account
            );
            claimed += l.amount;
            tally.claims += 1;

            // A second claim: refused by both, naming core's leaf.
            assert_eq!(
                core_round.claim(now, l.account),
                Err(HoldersError::AlreadyClaimed(l.account))
            );
            let again = tx(
                submitter,
                d.holder_distributor,
                claim_call(l, l.amount, proof.clone()),
            );
            match decode(&node.call(again.clone()).await.unwrap_err()) {
                HolderDistributorErrors::AlreadyClaimed(e) => assert_eq!(e.leaf, l.hash()),
                other => panic!("expected AlreadyClaimed, got {other:?}"),
            }
            assert!(
                !node.send_mined_any(again.gas_limit(300_000)).await.status(),
                "second claim mined"
            );
            tally.refused += 1;
        }
        // Tampered amounts (+1, −1, the whole total) of unclaimed and claimed leaves: refused by both.
        for (i, l) in leaves.iter().enumerate() {
            let proof = tree.get_proof(i).unwrap();
            for bad in [
                l.amount + U256::from(1u8),
                l.amount - U256::from(1u8),
                total,
            ] {
                let tampered = PayoutLeaf { amount: bad, ..*l };
                let value = json!(tampered.oz_values());
                assert!(
                    !merkle::verify(&tree.root(), &LEAF_TYPES, &value, &proof).unwrap(),
                    "core accepts a tampered amount"
                );
                let call = tx(
                    submitter,
                    d.holder_distributor,
                    claim_call(l, bad, proof.clone()),
                );
                match decode(&node.call(call).await.unwrap_err()) {
                    HolderDistributorErrors::InvalidProof(e) => assert_eq!(e.leaf, tampered.hash()),
                    HolderDistributorErrors::AlreadyClaimed(e) if i >= skip => {
                        panic!("tampered leaf {} already claimed?", e.leaf)
                    }
                    other => panic!("expected InvalidProof, got {other:?}"),
                }
                tally.refused += 1;
            }
        }
        // An excluded address (the curve) has no leaf in core and no valid proof on-chain.
        assert!(exclusions.is_excluded(&d.launchpad));
        let stranger = PayoutLeaf {
            account: d.launchpad,
            ..leaves[0]
        };
        let call = tx(
            submitter,
            d.holder_distributor,
            claim_call(&stranger, stranger.amount, tree.get_proof(0).unwrap()),
        );
        assert!(matches!(
            decode(&node.call(call).await.unwrap_err()),
            HolderDistributorErrors::InvalidProof(_)
        ));
        assert_eq!(
            core_round.claim(node.latest_timestamp().await, d.launchpad),
            Err(HoldersError::NoPayout(d.launchpad))
        );
        tally.refused += 1;

        let on_chain = dist.round(token, asset, EPOCH).call().await.unwrap();
        assert_eq!(U256::from(on_chain.claimed), claimed);
        assert_eq!(core_round.claimed, claimed);

        // After 90 days: claims close, the remainder (unclaimed + dust) rolls into the pot.
        let closes = core_round.window.closes_at;
        let roll = tx(
            submitter,
            d.holder_distributor,
            HolderDistributor::rolloverCall {
                token,
                asset,
                epoch: EPOCH,
            }
            .abi_encode(),
        );
        match decode(&node.call_at(roll.clone(), closes - 1).await.unwrap_err()) {
            HolderDistributorErrors::StillOpen(e) => assert_eq!(e.closesAt, closes),
            other => panic!("expected StillOpen, got {other:?}"),
        }
        assert!(matches!(
            core_round.rollover(closes - 1),
            Err(HoldersError::RoundStillOpen { .. })
        ));
        if skip > 0 {
            let l = &leaves[0];
            let late = tx(
                submitter,
                d.holder_distributor,
                claim_call(l, l.amount, tree.get_proof(0).unwrap()),
            );
            match decode(&node.call_at(late, closes).await.unwrap_err()) {
                HolderDistributorErrors::Closed(e) => assert_eq!(e.closesAt, closes),
                other => panic!("expected Closed, got {other:?}"),
            }
            assert!(matches!(
                core_round.claim(closes, l.account),
                Err(HoldersError::ClaimWindowClosed { .. })
            ));
            tally.refused += 1;
        }
        node.set_next_timestamp(closes).await;
        let r = node.send_mined(roll.gas_limit(200_000)).await;
        let ev = r
            .inner
            .logs()
            .iter()
            .find_map(|lg| lg.log_decode::<HolderDistributor::RolledOver>().ok())
            .expect("RolledOver event")
            .inner
            .data;
        let remainder = core_round.rollover(closes).expect("core rollover");
        assert_eq!(ev.remainder, remainder, "rollover remainder vs core");
        assert_eq!(remainder, total - claimed);
        assert!(remainder >= alloc.dust);
        assert_eq!(dist.pot(token, asset).call().await.unwrap(), remainder);
        assert_eq!(
            balance_of(node, asset, d.holder_distributor).await,
            remainder,
            "distributor holds exactly the pot"
        );
    }

    #[tokio::test(flavor = "current_thread")]
    async fn distributor_pays_core_payout_tree() {
        let started = Instant::now();
        let seed = Rng::seed_from_env(0xEDE0_0003);
        let mut rng = Rng::new(seed);
        let node = start_node(test_chain_id(3));
        let d = deploy(&node, &[]);
        let creator = d.deployer;
        let traders: Vec<Address> = node.accounts[1..7].to_vec();
        let fresh = Address::from_slice(&keccak256("eden.diff.holder")[12..]);

        // A launch, bought by six traders; one gives part of its tokens to a fresh address and
        // part to 0x…dEaD.
        let pad = Launchpad::new(d.launchpad, node.provider.clone());
        let launch = Launchpad::launchCall {
            name: "Held".into(),
            symbol: "HELD".into(),
            quote: Address::ZERO,
            ownBuybackShare: 0,
        };
        node.send_mined(tx(creator, d.launchpad, launch.abi_encode()))
            .await;
        let token = pad.tokens(U256::ZERO).call().await.unwrap();
        for &a in &traders {
            let amount = rng.u256_between(U256::from(10u64.pow(15)), U256::from(10u64.pow(18)));
            let buy = Launchpad::buyCall {
                token,
                quoteIn: amount,
                minTokensOut: U256::ZERO,
                deadline: U256::from(u64::MAX),
            };
            node.send_mined(tx(a, d.launchpad, buy.abi_encode()).value(amount))
                .await;
        }
        let tok = LaunchToken::new(token, node.provider.clone());
        let giver = traders[0];
        let held = tok.balanceOf(giver).call().await.unwrap();
        for (to, part) in [
            (fresh, held / U256::from(3u8)),
            (DEAD_ADDRESS, held / U256::from(5u8)),
        ] {
            let t = LaunchToken::transferCall { to, value: part };
            node.send_mined(tx(giver, token, t.abi_encode())).await;
        }
        // Snapshot block: balances of every holder and of the protocol addresses.
        let snapshot = node.provider.get_block_number().await.unwrap();
        let mut who: Vec<Address> = traders.clone();
        who.extend([
            fresh,
            DEAD_ADDRESS,
            d.launchpad,
            d.launch_locker,
            d.holder_distributor,
            creator,
        ]);
        let mut balances = Vec::new();
        for a in who {
            let b = tok
                .balanceOf(a)
                .block(snapshot.into())
                .call()
                .await
                .unwrap();
            balances.push(HolderBalance {
                account: a,
                balance: b,
            });
        }
        // Later transfers do not count.
        let t = LaunchToken::transferCall {
            to: fresh,
            value: U256::from(1u8),
        };
        node.send_mined(tx(traders[1], token, t.abi_encode())).await;
        let exclusions = HolderExclusions {
            pool: Some(d.pool_manager),
            curve: Some(d.launchpad),
            locker: Some(d.launch_locker),
            hook: Some(d.launch_locker),
            distributor: Some(d.holder_distributor),
            ..Default::default()
        };

        let mut tally = Tally {
            claims: 0,
            refused: 0,
        };
        let setup = Setup {
            node: &node,
            d: &d,
            token,
            balances: &balances,
            exclusions: &exclusions,
        };
        // ETH round: every account claims.
        let t_eth = U256::from(3_700_000_000_000_000_123u128);
        round(&setup, Address::ZERO, t_eth, 0, &mut tally).await;
        // Stablecoin round: one account does not claim; its amount rolls over with the dust.
        let t_usd = U256::from(12_345_678_901u64);
        let usd = TestERC20::new(d.stablecoin, node.provider.clone());
        node.send_mined(tx(
            creator,
            d.stablecoin,
            TestERC20::mintCall {
                to: creator,
                amount: t_usd,
            }
            .abi_encode(),
        ))
        .await;
        let approve = TestERC20::approveCall {
            spender: d.holder_distributor,
            value: t_usd,
        };
        node.send_mined(tx(creator, d.stablecoin, approve.abi_encode()))
            .await;
        round(&setup, d.stablecoin, t_usd, 1, &mut tally).await;
        assert_eq!(usd.balanceOf(creator).call().await.unwrap(), U256::ZERO);

        let alloc = allocate_down(t_eth, &balances, &exclusions).unwrap();
        writeln!(
            std::io::stderr(),
            "holders: {} holders (of {} snapshot balances, {} excluded) × 2 rounds (ETH, stablecoin): {} claims paid exactly \
             core's amounts, {} claims refused by both (early, second, tampered amount, excluded, closed), rollover \
             equal core, seed {seed:#x}, {:.1}s",
            alloc.amounts.len(),
            balances.len(),
            alloc.excluded,
            tally.claims,
            tally.refused,
            started.elapsed().as_secs_f64()
        )
        .ok();
    }
}
