//! Differential test 1, `EpochRegistry` (C5–C7) against `eden-core` scoring, Merkle tree and EIP-712.
//!
//! `eden_core::scoring::build_epoch` builds the bundle of a 50-project cohort; the test signs its
//! EIP-712 `EpochRoot` with a known dev key (the registry's authorised signer, configured at deploy
//! with `EDEN_SIGNER`), checks core's signing hash against the contract's `epochRootDigest`,
//! proposes with the bond, lets the 72 h window pass, finalizes, and then every score leaf verifies
//! on-chain (`verifyScore`) and in core with core's proof. Tampered leaves, proofs and signatures
//! are rejected by both sides, for the same reason.

#[cfg(not(eden_artifacts))]
#[test]
fn registry_needs_forge_artifacts() {
    panic!("contracts/out is missing: run `cd contracts && ../node_modules/.bin/forge build --offline` first");
}

#[cfg(eden_artifacts)]
mod diff {
    use alloy::primitives::{keccak256, Address, Bytes, B256, U256};
    use alloy::sol_types::{SolCall, SolInterface};
    use eden_contracts_diff::bindings::registry::EdenLeaves::Grade;
    use eden_contracts_diff::bindings::registry::EpochRegistry::{self, EpochRegistryErrors};
    use eden_contracts_diff::{deploy, start_node, test_chain_id, tx, Deployment, Node, Rng};
    use eden_core::eip712::{
        eden_domain, epoch_root_signing_hash, recover_epoch_root_signer, EpochRoot, SignatureError,
        SECP256K1_N,
    };
    use eden_core::leaves::SCORE_LEAF_ENCODING;
    use eden_core::merkle::{self, Leaf, Options, StandardMerkleTree};
    use eden_core::scoring::epoch::{PreviousScore, ProjectData};
    use eden_core::scoring::{build_epoch, EpochBundle, EpochInput, ProjectInput, TrackConfig};
    use k256::ecdsa::SigningKey;
    use serde_json::json;
    use std::io::Write;
    use std::time::Instant;

    const EPOCH: u64 = 20_500;
    const PROJECTS_PER_TRACK: [(&str, u64); 3] = [("agents", 34), ("apps", 10), ("research", 6)];

    /// A deterministic cohort of 50 projects over three tracks (agents ≥ 20: cohort bounds; the
    /// others reference bounds), some private, some with previous scores, some gated out.
    fn cohort(rng: &mut Rng) -> EpochInput {
        let mut projects = Vec::new();
        let mut previous = Vec::new();
        let mut n = 0u64;
        for (track, count) in PROJECTS_PER_TRACK {
            for _ in 0..count {
                let project =
                    Address::from_slice(&keccak256(format!("eden.diff.project.{n}"))[12..]);
                let features = (0..4)
                    .map(|k| U256::from(rng.below(2_000 * (k + 1) * (k + 1))))
                    .collect();
                let claims = rng.below(12);
                projects.push(ProjectInput {
                    project,
                    data: ProjectData {
                        track: track.into(),
                        features,
                        claims,
                        failed: if claims == 0 {
                            0
                        } else {
                            rng.below(claims + 1)
                        },
                        verified_output: U256::from(rng.below(5)),
                        age_secs: if rng.chance(15) { 3_600 } else { 40 * 86_400 },
                    },
                    salt: B256::from(U256::from(n + 1)),
                    private: rng.chance(40),
                });
                if rng.chance(50) {
                    let points =
                        U256::from(rng.below(100_000_001)) * U256::from(1_000_000_000_000u64);
                    previous.push(PreviousScore {
                        project,
                        score_wad: points,
                    });
                }
                n += 1;
            }
        }
        EpochInput {
            epoch: EPOCH,
            tracks: vec![
                TrackConfig::agents(),
                TrackConfig::apps(),
                TrackConfig::research(),
            ],
            projects,
            previous,
            ..Default::default()
        }
    }

    /// The root signer (a known dev key, not one of anvil's accounts) and a fresh anvil (test number
    /// `test_no`) with the protocol deployed to accept it from epoch [`EPOCH`].
    fn chain_with_signer(test_no: u64) -> (SigningKey, Address, Node, Deployment) {
        let key =
            SigningKey::from_bytes(&keccak256("eden.diff.root-signer").0.into()).expect("dev key");
        let signer = Address::from_public_key(key.verifying_key());
        let node: Node = start_node(test_chain_id(test_no));
        let d = deploy(
            &node,
            &[
                ("EDEN_SIGNER", signer.to_string()),
                ("EDEN_FIRST_EPOCH", EPOCH.to_string()),
            ],
        );
        (key, signer, node, d)
    }

    fn sign(key: &SigningKey, digest: B256) -> [u8; 65] {
        let (sig, recid) = key
            .sign_prehash_recoverable(digest.as_slice())
            .expect("k256 sign");
        let mut out = [0u8; 65];
        out[..64].copy_from_slice(&sig.to_bytes());
        out[64] = 27 + recid.to_byte();
        out
    }

    /// How the contract rejects a signature, and what core says about it; `true` when they agree.
    fn same_rejection(
        core: &Result<Address, SignatureError>,
        chain: &EpochRegistryErrors,
        signer: Address,
    ) -> bool {
        match (core, chain) {
            // A different signer: the contract names the same recovered address.
            (Ok(a), EpochRegistryErrors::InvalidSigner(e)) => *a != signer && e.recovered == *a,
            (Err(SignatureError::HighS), EpochRegistryErrors::ECDSAInvalidSignatureS(_)) => true,
            (
                Err(
                    SignatureError::InvalidV(_)
                    | SignatureError::Unrecoverable
                    | SignatureError::InvalidScalar,
                ),
                EpochRegistryErrors::ECDSAInvalidSignature(_),
            ) => true,
            _ => false,
        }
    }

    fn decode(data: &Bytes) -> EpochRegistryErrors {
        EpochRegistryErrors::abi_decode(data)
            .unwrap_or_else(|e| panic!("undecodable revert {data}: {e}"))
    }

    #[tokio::test(flavor = "current_thread")]
    async fn registry_accepts_core_bundle_and_every_leaf_verifies() {
        let started = Instant::now();
        let seed = Rng::seed_from_env(0xEDE0_0001);
        let mut rng = Rng::new(seed);
        let input = cohort(&mut rng);
        let bundle: EpochBundle = build_epoch(&input).expect("core builds the epoch");
        let n = bundle.projects.len();
        assert!(n >= 25, "cohort of {n}");

        let (key, signer, node, d) = chain_with_signer(1);
        assert_eq!(d.root_signer, signer);
        assert_eq!(d.first_epoch, EPOCH);
        let reg = EpochRegistry::new(d.epoch_registry, node.provider.clone());
        let committee = reg.currentCommittee().call().await.unwrap();
        assert_eq!(
            (committee.id, committee.members, committee.threshold),
            (0, vec![signer], 1),
            "the deployment's 1-of-1 committee (C7a)"
        );
        assert_eq!(
            reg.nextEpoch().call().await.unwrap(),
            EPOCH,
            "registry nextEpoch"
        );
        assert_eq!(
            reg.bond().call().await.unwrap(),
            d.bond_wei,
            "registry bond"
        );

        // EIP-712: domain separator and digest, core vs contract.
        let domain = eden_domain(node.chain_id, d.epoch_registry);
        assert_eq!(
            reg.domainSeparator().call().await.unwrap(),
            domain.separator(),
            "domain separator"
        );
        let expiry = node.latest_timestamp().await + 3_600;
        let proposer = node.accounts[1];
        let msg = EpochRoot {
            epoch: EPOCH,
            root: bundle.root,
            inputsRoot: bundle.inputs_root,
            proposer,
            expiry,
        };
        let digest = epoch_root_signing_hash(&domain, &msg);
        let chain_digest = reg
            .epochRootDigest(EPOCH, bundle.root, bundle.inputs_root, proposer, expiry)
            .call()
            .await
            .unwrap();
        assert_eq!(
            digest, chain_digest,
            "core epoch_root_signing_hash vs contract epochRootDigest"
        );
        let sig = sign(&key, digest);
        assert_eq!(
            recover_epoch_root_signer(&domain, &msg, &sig),
            Ok(signer),
            "core recovers the signer"
        );
        // The signature names its proposer: for any other account it recovers someone else.
        let other = EpochRoot {
            proposer: node.accounts[2],
            ..msg.clone()
        };
        assert_ne!(
            recover_epoch_root_signer(&domain, &other, &sig),
            Ok(signer),
            "a copied signature is not the signer's for another proposer"
        );

        let propose = |sig: &[u8]| {
            let call = EpochRegistry::proposeCall {
                epoch: EPOCH,
                root: bundle.root,
                inputsRoot: bundle.inputs_root,
                expiry,
                approvals: vec![EpochRegistry::Approval {
                    member: signer,
                    signature: Bytes::copy_from_slice(sig),
                }],
            };
            tx(proposer, d.epoch_registry, call.abi_encode()).value(d.bond_wei)
        };

        // Nothing is readable before a root is final.
        let tree = StandardMerkleTree::of(
            bundle
                .score_leaves()
                .iter()
                .map(|(a, s)| json!([a.to_string(), s.to_string()]))
                .collect(),
            &SCORE_LEAF_ENCODING,
            Options::default(),
        )
        .expect("core score tree");
        assert_eq!(
            tree.root(),
            bundle.root,
            "merkle::StandardMerkleTree root vs bundle root"
        );
        let (p0, s0) = bundle.score_leaves()[0];
        let verify0 = EpochRegistry::verifyScoreCall {
            epoch: EPOCH,
            project: p0,
            scoreWad: s0,
            proof: tree.get_proof(0).unwrap(),
        };
        let not_final = |data: Bytes, epoch: u64, status: u8| match decode(&data) {
            EpochRegistryErrors::NotFinal(e) => {
                assert!(e.epoch == epoch && e.status == status, "{e:?}")
            }
            other => panic!("expected NotFinal, got {other:?}"),
        };
        not_final(
            node.call(tx(proposer, d.epoch_registry, verify0.abi_encode()))
                .await
                .unwrap_err(),
            EPOCH,
            0,
        );

        // Tampered signatures: every byte flipped (low bit, then high bit), the high-s twin.
        let mut variants: Vec<(String, Vec<u8>)> = Vec::new();
        for i in 0..65 {
            for mask in [0x01u8, 0x80] {
                let mut t = sig.to_vec();
                t[i] ^= mask;
                variants.push((format!("byte {i} ^ {mask:#04x}"), t));
            }
        }
        let s = U256::from_be_slice(&sig[32..64]);
        let mut twin = sig.to_vec();
        twin[32..64].copy_from_slice(&(SECP256K1_N - s).to_be_bytes::<32>());
        twin[64] = if sig[64] == 27 { 28 } else { 27 };
        variants.push(("high-s twin (r, n - s, v')".into(), twin.clone()));
        variants.push(("64 bytes (no v)".into(), sig[..64].to_vec()));
        let mut tallies = [0usize; 3]; // other signer, high s, invalid
        for (label, bad) in &variants {
            let core = recover_epoch_root_signer(&domain, &msg, bad);
            assert_ne!(
                core,
                Ok(signer),
                "core accepts tampered signature ({label})"
            );
            let chain = decode(
                &node
                    .call(propose(bad))
                    .await
                    .expect_err("contract accepted a tampered signature"),
            );
            let agree = match (&core, &chain) {
                (
                    Err(SignatureError::WrongLength(64)),
                    EpochRegistryErrors::ECDSAInvalidSignatureLength(e),
                ) => e.length == U256::from(64u8),
                _ => same_rejection(&core, &chain, signer),
            };
            assert!(agree, "{label}: core {core:?} vs contract {chain:?}");
            tallies[match core {
                Ok(_) => 0,
                Err(SignatureError::HighS) => 1,
                Err(_) => 2,
            }] += 1;
        }
        // The high-s twin is also refused by a mined transaction.
        let r = node.send_mined_any(propose(&twin).gas_limit(500_000)).await;
        assert!(!r.status(), "high-s twin proposal was mined successfully");

        // Known, documented divergence (core `eip712` "decided"): core also accepts v ∈ {0, 1},
        // OpenZeppelin ECDSA does not (ecrecover fails, `ECDSAInvalidSignature`).
        let mut v01 = sig.to_vec();
        v01[64] -= 27;
        let core_v01 = recover_epoch_root_signer(&domain, &msg, &v01);
        let chain_v01 = decode(
            &node
                .call(propose(&v01))
                .await
                .expect_err("contract accepted v in {0,1}"),
        );
        assert!(
            matches!(core_v01, Err(SignatureError::InvalidV(_))),
            "{core_v01:?}"
        );
        assert!(
            matches!(chain_v01, EpochRegistryErrors::ECDSAInvalidSignature(_)),
            "{chain_v01:?}"
        );

        // Propose with the real signature and the bond.
        let r = node.send_mined(propose(&sig).gas_limit(500_000)).await;
        let ev = r
            .inner
            .logs()
            .iter()
            .find_map(|l| l.log_decode::<EpochRegistry::RootProposed>().ok())
            .expect("RootProposed event")
            .inner
            .data;
        assert_eq!(
            (ev.epoch, ev.root, ev.inputsRoot, ev.expiry, ev.proposer),
            (EPOCH, bundle.root, bundle.inputs_root, expiry, proposer)
        );
        let deadline = ev.deadline;
        not_final(
            node.call(tx(proposer, d.epoch_registry, verify0.abi_encode()))
                .await
                .unwrap_err(),
            EPOCH,
            1,
        );

        // Finalize: refused inside the window, accepted after 72 h.
        let finalize = tx(
            proposer,
            d.epoch_registry,
            EpochRegistry::finalizeCall { epoch: EPOCH }.abi_encode(),
        )
        .gas_limit(200_000);
        assert!(
            !node.send_mined_any(finalize.clone()).await.status(),
            "finalized inside the window"
        );
        node.increase_time(72 * 3_600).await;
        let r = node.send_mined(finalize).await;
        assert!(r
            .inner
            .logs()
            .iter()
            .any(|l| l.log_decode::<EpochRegistry::RootFinalized>().is_ok()));
        assert!(node.latest_timestamp().await >= deadline);
        assert_eq!(reg.finalRoot(EPOCH).call().await.unwrap(), bundle.root);
        assert_eq!(
            reg.finalInputsRoot(EPOCH).call().await.unwrap(),
            bundle.inputs_root
        );
        assert_eq!(
            reg.credit(proposer).call().await.unwrap(),
            d.bond_wei,
            "the proposer's bond is returned"
        );

        // Every leaf verifies on-chain and in core; tampered leaves and proofs fail in both.
        let mut verified = 0;
        let mut tampered = 0;
        for (i, rec) in bundle.projects.iter().enumerate() {
            let proof = tree.get_proof(i).expect("core proof");
            let value = json!([rec.project.to_string(), rec.score_wad.to_string()]);
            assert_eq!(tree.leaf_hash(&value).unwrap(), rec.leaf);
            assert_eq!(
                reg.scoreLeaf(rec.project, rec.score_wad)
                    .call()
                    .await
                    .unwrap(),
                rec.leaf,
                "scoreLeaf {}",
                rec.project
            );
            let core_ok =
                merkle::verify(&bundle.root, &SCORE_LEAF_ENCODING, &value, &proof).unwrap();
            assert!(
                core_ok && tree.verify(Leaf::Index(i), &proof).unwrap(),
                "core rejects leaf {i}"
            );
            let chain_ok = reg
                .verifyScore(EPOCH, rec.project, rec.score_wad, proof.clone())
                .call()
                .await
                .unwrap();
            assert!(
                chain_ok,
                "verifyScore rejects leaf {i} ({}, {})",
                rec.project, rec.score_wad
            );
            verified += 1;

            // score + 1
            let bumped = rec.score_wad + U256::from(1u8);
            let v = json!([rec.project.to_string(), bumped.to_string()]);
            assert!(
                !merkle::verify(&bundle.root, &SCORE_LEAF_ENCODING, &v, &proof).unwrap(),
                "core accepts score+1 ({i})"
            );
            assert!(
                !reg.verifyScore(EPOCH, rec.project, bumped, proof.clone())
                    .call()
                    .await
                    .unwrap(),
                "contract accepts score+1 ({i})"
            );
            // another project's address
            let other = bundle.projects[(i + 1) % n].project;
            let v = json!([other.to_string(), rec.score_wad.to_string()]);
            assert!(!merkle::verify(&bundle.root, &SCORE_LEAF_ENCODING, &v, &proof).unwrap());
            assert!(!reg
                .verifyScore(EPOCH, other, rec.score_wad, proof.clone())
                .call()
                .await
                .unwrap());
            // a flipped proof element
            let mut bad = proof.clone();
            let k = i % bad.len();
            bad[k].0[31] ^= 1;
            assert!(!merkle::verify(&bundle.root, &SCORE_LEAF_ENCODING, &value, &bad).unwrap());
            assert!(!reg
                .verifyScore(EPOCH, rec.project, rec.score_wad, bad)
                .call()
                .await
                .unwrap());
            tampered += 3;
        }
        // Another epoch is not final: the contract reverts, it never verifies against nothing.
        let next = EpochRegistry::verifyScoreCall {
            epoch: EPOCH + 1,
            ..verify0
        };
        not_final(
            node.call(tx(proposer, d.epoch_registry, next.abi_encode()))
                .await
                .unwrap_err(),
            EPOCH + 1,
            0,
        );

        writeln!(
            std::io::stderr(),
            "registry: {n} projects ({} with a non-zero score), {verified} score leaves verified on-chain and in core, {tampered} tampered leaves/proofs \
             rejected by both, {} tampered signatures rejected by both ({} other signer, {} high-s, {} invalid), \
             seed {seed:#x}, {:.1}s",
            bundle.projects.iter().filter(|p| !p.score_wad.is_zero()).count(),
            variants.len(),
            tallies[0],
            tallies[1],
            tallies[2],
            started.elapsed().as_secs_f64()
        )
        .ok();
    }

    /// The human layer (C5, C9, C10, C27): a cohort plus graded theses and pre-data projects; core's one
    /// epoch root is proposed and finalized, then every score (the published score, one per project),
    /// quality and systematic leaf verifies on-chain (`verifyScore` / `verifyQuality` /
    /// `verifySystematic`) with core's proof (`EpochBundle::proof`), the contract's leaf hashes equal
    /// core's, and tampered values are refused by both: a project's systematic score does not verify as
    /// its published score where a human move changed it.
    #[tokio::test(flavor = "current_thread")]
    async fn registry_verifies_the_human_layer() {
        use eden_core::leaves::Verdict;
        use eden_core::merkle::tree::process_proof;
        use eden_core::scoring::human_layer::{GradedThesis, HumanMode, PreDataProject};
        let started = Instant::now();
        let seed = Rng::seed_from_env(0xEDE0_0002);
        let mut rng = Rng::new(seed);
        let mut input = cohort(&mut rng);
        let fresh: Vec<Address> = (0..3)
            .map(|i| Address::from_slice(&keccak256(format!("eden.diff.fresh.{i}"))[12..]))
            .collect();
        input.pre_data = fresh
            .iter()
            .enumerate()
            .map(|(i, &project)| PreDataProject {
                project,
                verified: i == 0,
            })
            .collect();
        for i in 0..40u64 {
            let project = if rng.chance(25) {
                fresh[rng.below(3) as usize]
            } else {
                input.projects[rng.below(input.projects.len() as u64) as usize].project
            };
            let verdict = Verdict::try_from(rng.below(4) as u8).unwrap();
            input.theses.push(GradedThesis {
                scorer_registry: Address::from_slice(&keccak256("eden.diff.scorer-registry")[12..]),
                score_id: U256::from(i),
                scorer: Address::from_slice(
                    &keccak256(format!("eden.diff.scorer.{}", i % 7))[12..],
                ),
                project,
                thesis_hash: keccak256(format!("eden.diff.thesis.{i}")),
                target_score_wad: U256::from(rng.below(100_001))
                    * U256::from(1_000_000_000_000_000u64),
                quality_wad: U256::from(rng.below(1_000_001)) * U256::from(1_000_000_000_000u64),
                verdict,
                matched_thesis: if verdict == Verdict::Original {
                    B256::ZERO
                } else {
                    keccak256(format!("eden.diff.thesis.{}", i / 2))
                },
                grade_record: B256::ZERO,
            });
        }
        let bundle = build_epoch(&input).expect("core builds the epoch with its human layer");
        assert_eq!(bundle.theses.len(), 40);
        assert!(bundle.human.len() >= 3);

        let (key, signer, node, d) = chain_with_signer(4);
        let reg = EpochRegistry::new(d.epoch_registry, node.provider.clone());
        let expiry = node.latest_timestamp().await + 3_600;
        let proposer = node.accounts[1];
        let msg = EpochRoot {
            epoch: EPOCH,
            root: bundle.root,
            inputsRoot: bundle.inputs_root,
            proposer,
            expiry,
        };
        let sig = sign(
            &key,
            epoch_root_signing_hash(&eden_domain(node.chain_id, d.epoch_registry), &msg),
        );
        let call = EpochRegistry::proposeCall {
            epoch: EPOCH,
            root: bundle.root,
            inputsRoot: bundle.inputs_root,
            expiry,
            approvals: vec![EpochRegistry::Approval {
                member: signer,
                signature: Bytes::copy_from_slice(&sig),
            }],
        };
        node.send_mined(
            tx(proposer, d.epoch_registry, call.abi_encode())
                .value(d.bond_wei)
                .gas_limit(500_000),
        )
        .await;
        node.increase_time(72 * 3_600).await;
        node.send_mined(
            tx(
                proposer,
                d.epoch_registry,
                EpochRegistry::finalizeCall { epoch: EPOCH }.abi_encode(),
            )
            .gas_limit(200_000),
        )
        .await;
        assert_eq!(reg.finalRoot(EPOCH).call().await.unwrap(), bundle.root);

        let proof = |leaf: &B256| {
            let p = bundle.proof(leaf).expect("core proof");
            assert_eq!(
                process_proof(*leaf, &p),
                bundle.root,
                "core proof walks to the root"
            );
            p
        };
        let mut checked = [0usize; 4]; // score, quality, systematic, tampered
        for rec in &bundle.projects {
            assert!(
                reg.verifyScore(EPOCH, rec.project, rec.published_wad, proof(&rec.leaf))
                    .call()
                    .await
                    .unwrap(),
                "verifyScore {}",
                rec.project
            );
            checked[0] += 1;
            let Some(sys) = rec.systematic_leaf else {
                assert_eq!(rec.published_wad, rec.score_wad);
                continue;
            };
            assert_eq!(
                reg.systematicLeaf(rec.project, rec.score_wad)
                    .call()
                    .await
                    .unwrap(),
                sys,
                "systematicLeaf"
            );
            let p = proof(&sys);
            assert!(
                reg.verifySystematic(EPOCH, rec.project, rec.score_wad, p.clone())
                    .call()
                    .await
                    .unwrap(),
                "verifySystematic {}",
                rec.project
            );
            // The systematic score is not a score leaf (domain tag): FeeLanes cannot be given it
            // instead of the published score, nor the systematic leaf's value under the other tag.
            assert!(!reg
                .verifyScore(EPOCH, rec.project, rec.score_wad, p.clone())
                .call()
                .await
                .unwrap());
            assert!(!reg
                .verifySystematic(EPOCH, rec.project, rec.published_wad, proof(&rec.leaf))
                .call()
                .await
                .unwrap());
            checked[2] += 1;
            checked[3] += 2;
        }
        for t in &bundle.theses {
            let grade = |t: &eden_core::scoring::human_layer::ThesisRecord| Grade {
                scorerRegistry: t.scorer_registry,
                scoreId: t.score_id,
                scorer: t.scorer,
                project: t.project,
                thesisHash: t.thesis_hash,
                qualityWad: t.quality_wad,
                verdict: t.verdict,
                matchedThesis: t.matched_thesis,
            };
            assert_eq!(
                reg.qualityLeaf(grade(t)).call().await.unwrap(),
                t.leaf,
                "qualityLeaf"
            );
            let p = proof(&t.leaf);
            assert!(
                reg.verifyQuality(EPOCH, grade(t), p.clone())
                    .call()
                    .await
                    .unwrap(),
                "verifyQuality {}",
                t.thesis_hash
            );
            let mut bumped = t.clone();
            bumped.quality_wad += U256::from(1u8);
            assert!(!reg
                .verifyQuality(EPOCH, grade(&bumped), p.clone())
                .call()
                .await
                .unwrap());
            let mut other = t.clone();
            other.verdict = (t.verdict + 1) % 4;
            assert!(!reg
                .verifyQuality(EPOCH, grade(&other), p.clone())
                .call()
                .await
                .unwrap());
            // The grade of one score proves no other score (another id, another scorer).
            let mut moved = t.clone();
            moved.score_id += U256::from(1_000u32);
            assert!(!reg
                .verifyQuality(EPOCH, grade(&moved), p.clone())
                .call()
                .await
                .unwrap());
            let mut stolen = t.clone();
            stolen.scorer = Address::repeat_byte(0xbd);
            assert!(!reg
                .verifyQuality(EPOCH, grade(&stolen), p)
                .call()
                .await
                .unwrap());
            checked[3] += 2;
            checked[1] += 1;
            checked[3] += 2;
        }
        for h in &bundle.human {
            // The human score is the published one: an envelope project's score leaf, a pre-data
            // project's only leaf.
            assert_eq!(
                reg.scoreLeaf(h.project, h.score_wad).call().await.unwrap(),
                h.leaf,
                "scoreLeaf of a human score"
            );
            let p = proof(&h.leaf);
            assert!(
                reg.verifyScore(EPOCH, h.project, h.score_wad, p.clone())
                    .call()
                    .await
                    .unwrap(),
                "verifyScore {}",
                h.project
            );
            assert!(!reg
                .verifyScore(EPOCH, h.project, h.score_wad + U256::from(1u8), p)
                .call()
                .await
                .unwrap());
            checked[0] += usize::from(h.mode == HumanMode::PreData);
            checked[3] += 1;
        }
        writeln!(
            std::io::stderr(),
            "registry human layer: {} score, {} quality and {} systematic leaves ({} pre-data) verified on-chain under one root, \
             {} tampered values rejected, seed {seed:#x}, {:.1}s",
            checked[0], checked[1], checked[2], fresh.len(), checked[3], started.elapsed().as_secs_f64()
        )
        .ok();
    }
}
