use super::*;
use crate::attest::typed::{attestation_domain, attestation_signing_hash, Attestation, Metric};
use crate::scoring::{build_epoch, EpochInput};
use alloy_primitives::address;
use k256::ecdsa::SigningKey;
use proptest::prelude::*;

const EPOCH: u64 = 20_500;
const P: Address = address!("0x00000000000000000000000000000000000000a1");
const Q: Address = address!("0x00000000000000000000000000000000000000a2");
const REG: Address = address!("0x00000000000000000000000000000000000000e1");

fn key(n: u8) -> SigningKey {
    SigningKey::from_slice(&[n; 32]).unwrap()
}
fn addr(k: &SigningKey) -> Address {
    Address::from_private_key(k)
}

fn sign(k: &SigningKey, a: Attestation) -> SignedAttestation {
    let d = attestation_domain(31_337, REG);
    let digest = attestation_signing_hash(&d, &a);
    let (sig, rec) = k.sign_prehash_recoverable(digest.as_slice()).unwrap();
    let (sig, rec) = match sig.normalize_s() {
        Some(n) => (n, rec.to_byte() ^ 1),
        None => (sig, rec.to_byte()),
    };
    let mut b = sig.to_bytes().to_vec();
    b.push(27 + rec);
    SignedAttestation {
        attestation: a,
        signature: b.into(),
    }
}

fn att(project: Address, source: &str, at: u64, metrics: &[(&str, u64)]) -> Attestation {
    Attestation {
        project,
        epoch: EPOCH,
        source: source.into(),
        observedAt: at,
        metrics: metrics
            .iter()
            .map(|(n, v)| Metric {
                name: (*n).into(),
                value: U256::from(*v),
            })
            .collect(),
    }
}

fn config() -> IntakeConfig {
    let m = |name: &str, tol: u32| MetricRule {
        name: name.into(),
        tolerance_bps: tol,
    };
    IntakeConfig {
        sources: vec![
            SourceRule {
                name: "github".into(),
                metrics: vec![m("resolved_work", 100), m("unique_counterparties", 0)],
                refetch: true,
                adapter: None,
            },
            SourceRule {
                name: "stripe".into(),
                metrics: vec![m("settled_revenue_cents", 0)],
                refetch: true,
                adapter: Some(AdapterKind::Payments),
            },
            SourceRule {
                name: "helpdesk".into(),
                metrics: vec![m("resolved_work", 0), m("self_reported_uptime_bps", 0)],
                refetch: true,
                adapter: Some(AdapterKind::WorkTracker),
            },
        ],
        output_features: [("agents".to_string(), "resolved_work".to_string())]
            .into_iter()
            .collect(),
    }
}

fn book() -> KeyBook {
    let mut b = KeyBook::new();
    b.register(P, addr(&key(1)), source_id("github"), 1_000);
    b.register(P, addr(&key(2)), source_id("stripe"), 1_000);
    b.register(P, addr(&key(3)), source_id("helpdesk"), 2_000);
    b.register(Q, addr(&key(1)), source_id("github"), 1_500);
    b
}

struct Run {
    tracks: Vec<TrackConfig>,
    config: IntakeConfig,
    keys: KeyBook,
    refetch: RefetchTable,
}

impl Run {
    fn new() -> Run {
        let mut refetch = RefetchTable::new();
        for (p, m, v) in [
            (P, "resolved_work", 400u64),
            (P, "unique_counterparties", 30),
            (Q, "resolved_work", 50),
            (Q, "unique_counterparties", 5),
        ] {
            refetch.insert(
                (p, "github".into(), m.into()),
                Refetch::Value {
                    value: U256::from(v),
                    excluded: vec![],
                },
            );
        }
        Run {
            tracks: vec![TrackConfig::agents()],
            config: config(),
            keys: book(),
            refetch,
        }
    }
    fn go(&self, subs: &[Submission]) -> Result<Intake, IntakeError> {
        let d = attestation_domain(31_337, REG);
        let p = IntakeParams {
            epoch: EPOCH,
            domain: &d,
            window_start: 5_000,
            snapshot: 10_000,
            tracks: &self.tracks,
            config: &self.config,
            keys: &self.keys,
        };
        intake(&p, subs, &recover_signers(&d, subs), &self.mirrored(subs))
    }

    /// The re-fetch table with stripe's and helpdesk's own systems agreeing with what their keys signed
    /// (the first value of each), where the test set no value of its own.
    fn mirrored(&self, subs: &[Submission]) -> RefetchTable {
        let mut t = self.refetch.clone();
        for s in subs {
            for a in &s.attestations {
                let a = &a.attestation;
                if a.source == "github" || a.project != s.project || a.epoch != EPOCH {
                    continue;
                }
                for m in &a.metrics {
                    if t.get(a.project, &a.source, &m.name).is_none() {
                        t.insert(
                            (a.project, a.source.clone(), m.name.clone()),
                            Refetch::Value {
                                value: m.value,
                                excluded: vec![],
                            },
                        );
                    }
                }
            }
        }
        t
    }
}

fn sub(project: Address, atts: Vec<SignedAttestation>) -> Submission {
    Submission {
        project,
        track: "agents".into(),
        private: false,
        salt: B256::ZERO,
        attestations: atts,
    }
}

fn honest() -> Vec<SignedAttestation> {
    vec![
        sign(
            &key(1),
            att(
                P,
                "github",
                6_000,
                &[("resolved_work", 402), ("unique_counterparties", 30)],
            ),
        ),
        sign(
            &key(2),
            att(P, "stripe", 6_000, &[("settled_revenue_cents", 90_000)]),
        ),
        sign(
            &key(3),
            att(
                P,
                "helpdesk",
                6_000,
                &[("resolved_work", 410), ("self_reported_uptime_bps", 9_900)],
            ),
        ),
    ]
}

fn outcome_of<'a>(i: &'a Intake, metric: &str, attestation: usize) -> &'a ClaimOutcome {
    &i.projects[0]
        .claims
        .iter()
        .find(|c| c.metric == metric && c.attestation == attestation)
        .unwrap()
        .outcome
}

#[test]
fn honest_project_uses_the_refetched_value_and_the_smallest_of_two_sources() {
    let r = Run::new();
    let i = r.go(&[sub(P, honest())]).unwrap();
    let d = &i.projects[0].input.data;
    let t = TrackConfig::agents();
    let f = |n: &str| d.features[t.features.iter().position(|x| x.name == n).unwrap()];
    // github attested 402, re-fetched 400 (within 1 %): 400 used; helpdesk says 410: the smaller wins
    assert_eq!(f("resolved_work"), U256::from(400u32));
    assert_eq!(f("unique_counterparties"), U256::from(30u32));
    assert_eq!(f("settled_revenue_cents"), U256::from(90_000u32));
    assert_eq!(f("self_reported_uptime_bps"), U256::from(9_900u32));
    assert_eq!((d.claims, d.failed), (5, 0));
    assert_eq!(d.verified_output, U256::from(400u32));
    assert_eq!(d.age_secs, 10_000 - 1_000); // from the first registered key
    assert_eq!(
        outcome_of(&i, "resolved_work", 0),
        &ClaimOutcome::Used {
            value: U256::from(400u32),
            refetched: true
        }
    );
}

#[test]
fn each_failure_counts_against_the_project_with_its_reason() {
    let r = Run::new();
    let base = honest();
    let cases: Vec<(SignedAttestation, &str)> = vec![
        // bad signature: a flipped byte of s
        (
            {
                let mut s = base[1].clone();
                let mut b = s.signature.to_vec();
                b[40] ^= 1;
                s.signature = b.into();
                s
            },
            "unregisteredKey",
        ), // a flipped s recovers some other key
        (
            {
                let mut s = base[1].clone();
                let mut b = s.signature.to_vec();
                b[64] = 29;
                s.signature = b.into();
                s
            },
            "badSignature",
        ),
        // a key nobody registered
        (
            sign(
                &key(9),
                att(P, "stripe", 6_000, &[("settled_revenue_cents", 1)]),
            ),
            "unregisteredKey",
        ),
        // github's key signing as stripe
        (
            sign(
                &key(1),
                att(P, "stripe", 6_000, &[("settled_revenue_cents", 1)]),
            ),
            "keyForOtherSource",
        ),
        // helpdesk's key before it was registered (2,000) — and outside the window
        (
            sign(&key(3), att(P, "helpdesk", 1_999, &[("resolved_work", 1)])),
            "keyNotValid",
        ),
        // observed before the window
        (
            sign(
                &key(2),
                att(P, "stripe", 5_000, &[("settled_revenue_cents", 1)]),
            ),
            "observedOutsideWindow",
        ),
        // observed after the snapshot
        (
            sign(
                &key(2),
                att(P, "stripe", 10_001, &[("settled_revenue_cents", 1)]),
            ),
            "observedOutsideWindow",
        ),
        // re-fetch disagrees by more than 1 %
        (
            sign(&key(1), att(P, "github", 6_000, &[("resolved_work", 405)])),
            "refetchMismatch",
        ),
    ];
    for (a, want) in cases {
        let i = r.go(&[sub(P, vec![a])]).unwrap();
        let c = &i.projects[0].claims[0];
        let json = serde_json::to_value(c).unwrap();
        assert_eq!(json["outcome"], "failed", "{want}: {json}");
        assert_eq!(json["reason"], want, "{json}");
        let d = &i.projects[0].input.data;
        assert_eq!((d.claims, d.failed), (1, 1), "{want}");
        assert!(
            d.features.iter().all(|f| f.is_zero()),
            "{want}: a failed claim contributes nothing"
        );
    }
}

#[test]
fn a_revoked_key_fails_from_its_revocation_on() {
    let mut r = Run::new();
    r.keys.revoke(P, addr(&key(2)), 7_000);
    let early = sign(
        &key(2),
        att(P, "stripe", 6_999, &[("settled_revenue_cents", 5)]),
    );
    let late = sign(
        &key(2),
        att(P, "stripe", 7_000, &[("settled_revenue_cents", 5)]),
    );
    let i = r.go(&[sub(P, vec![early])]).unwrap();
    assert!(matches!(
        i.projects[0].claims[0].outcome,
        ClaimOutcome::Used { .. }
    ));
    let i = r.go(&[sub(P, vec![late])]).unwrap();
    assert!(matches!(
        i.projects[0].claims[0].outcome,
        ClaimOutcome::Failed {
            why: FailReason::KeyNotValid {
                revoked_at: 7_000,
                ..
            }
        }
    ));
}

#[test]
fn a_source_contradicting_itself_fails_both_an_exact_copy_is_ignored() {
    let r = Run::new();
    let a = sign(
        &key(2),
        att(P, "stripe", 6_000, &[("settled_revenue_cents", 5)]),
    );
    let b = sign(
        &key(2),
        att(P, "stripe", 6_001, &[("settled_revenue_cents", 50)]),
    );
    let i = r.go(&[sub(P, vec![a.clone(), b])]).unwrap();
    let d = &i.projects[0].input.data;
    assert_eq!((d.claims, d.failed), (2, 2));
    let i = r.go(&[sub(P, vec![a.clone(), a])]).unwrap();
    let d = &i.projects[0].input.data;
    assert_eq!((d.claims, d.failed), (1, 0));
    assert_eq!(
        i.projects[0].claims[1].outcome,
        ClaimOutcome::Ignored {
            why: IgnoreReason::Duplicate
        }
    );
}

#[test]
fn what_is_not_a_claim_is_reported_and_never_counted() {
    let r = Run::new();
    let mut other_epoch = att(P, "stripe", 6_000, &[("settled_revenue_cents", 5)]);
    other_epoch.epoch = EPOCH - 1;
    let atts = vec![
        sign(&key(1), att(Q, "github", 6_000, &[("resolved_work", 50)])), // Q's, handed in by P
        sign(&key(2), other_epoch),
        sign(&key(2), att(P, "dune", 6_000, &[("resolved_work", 5)])),
        sign(
            &key(2),
            att(
                P,
                "stripe",
                6_000,
                &[
                    ("token_price", 5),
                    ("tradingVolume", 5),
                    ("holders", 5),
                    ("liquidity", 5),
                    ("paying_users", 5),  // an apps feature, not an agents one
                    ("resolved_work", 5), // not a stripe metric
                    ("settled_revenue_cents", 7),
                    ("settled_revenue_cents", 9), // twice: the first is taken
                ],
            ),
        ),
    ];
    let mut r2 = Run::new();
    r2.refetch.clear(); // github unreachable
    let i = r.go(&[sub(P, atts.clone())]).unwrap();
    let reasons: Vec<String> = i.projects[0]
        .claims
        .iter()
        .map(|c| {
            let v = serde_json::to_value(c).unwrap();
            format!(
                "{}:{}",
                v["outcome"].as_str().unwrap(),
                v["reason"].as_str().unwrap_or("-")
            )
        })
        .collect();
    assert_eq!(
        reasons,
        [
            "ignored:otherProject",
            "ignored:otherEpoch",
            "ignored:unknownSource",
            "ignored:forbiddenInput",
            "ignored:forbiddenInput",
            "ignored:forbiddenInput",
            "ignored:forbiddenInput",
            "ignored:notInTrack",
            "ignored:notFromThisSource",
            "used:-",
            "ignored:duplicateMetric",
        ]
    );
    let d = &i.projects[0].input.data;
    assert_eq!((d.claims, d.failed), (1, 0));
    // an unreachable re-fetch source drops the claim without counting it
    let i = r2.go(&[sub(P, vec![honest()[0].clone()])]).unwrap();
    assert!(i.projects[0].claims.iter().all(|c| matches!(
        c.outcome,
        ClaimOutcome::Ignored {
            why: IgnoreReason::RefetchUnavailable { .. }
        }
    )));
    assert_eq!(i.projects[0].input.data.claims, 0);
}

#[test]
fn cohort_errors_name_the_submission_and_config_errors_the_field() {
    let r = Run::new();
    let mut s = sub(P, honest());
    s.track = "nope".into();
    assert_eq!(
        r.go(&[s]).unwrap_err().to_string(),
        "submissions[0]: track: unknown track 'nope'"
    );
    let e = r.go(&[sub(P, vec![]), sub(P, vec![])]).unwrap_err();
    assert!(e.to_string().starts_with("submissions[1]: project:"), "{e}");
    let mut s = sub(P, vec![]);
    s.private = true;
    assert!(r.go(&[s]).unwrap_err().to_string().contains("salt"));
    let mut bad = Run::new();
    bad.config.sources[1].metrics[0].name = "volume".into();
    assert!(bad
        .go(&[])
        .unwrap_err()
        .to_string()
        .contains("sources[1].metrics[0].name"));
    let mut bad = Run::new();
    bad.config
        .output_features
        .insert("agents".into(), "self_reported_uptime_bps".into());
    assert!(bad
        .go(&[])
        .unwrap_err()
        .to_string()
        .contains("self-reported"));
    let mut bad = Run::new();
    bad.config.sources[0].metrics[0].tolerance_bps = 10_001;
    assert!(bad
        .go(&[])
        .unwrap_err()
        .to_string()
        .contains("toleranceBps"));
}

#[test]
fn failed_claims_lower_the_score_through_the_penalty() {
    // 20 honest projects so the cohort sets its own bounds; project P additionally hands in a failing claim.
    let r = Run::new();
    let build = |extra: bool| {
        let mut subs = vec![];
        for n in 0..20u8 {
            let p = Address::with_last_byte(0x10 + n);
            let mut atts = vec![sign(
                &key(2),
                att(
                    p,
                    "stripe",
                    6_000,
                    &[("settled_revenue_cents", 1_000 + 100 * n as u64)],
                ),
            )];
            if extra && n == 7 {
                atts.push(sign(
                    &key(9),
                    att(p, "helpdesk", 6_000, &[("resolved_work", 1)]),
                ));
            }
            subs.push(sub(p, atts));
        }
        let mut r2 = Run::new();
        for n in 0..20u8 {
            r2.keys.register(
                Address::with_last_byte(0x10 + n),
                addr(&key(2)),
                source_id("stripe"),
                100,
            );
        }
        let _ = &r;
        let i = r2.go(&subs).unwrap();
        build_epoch(&EpochInput {
            epoch: EPOCH,
            tracks: r2.tracks.clone(),
            projects: i.inputs(),
            ..Default::default()
        })
        .unwrap()
    };
    let clean = build(false);
    let dirty = build(true);
    let p7 = Address::with_last_byte(0x17);
    let s = |b: &crate::scoring::EpochBundle| {
        b.projects.iter().find(|x| x.project == p7).unwrap().raw_wad
    };
    assert!(s(&dirty) < s(&clean), "{} < {}", s(&dirty), s(&clean));
}

#[test]
fn tolerance_is_exact_at_the_edge() {
    let v = U256::from(10_000u32);
    assert!(within_tolerance(U256::from(10_100u32), v, 100));
    assert!(!within_tolerance(U256::from(10_101u32), v, 100));
    assert!(within_tolerance(U256::from(9_900u32), v, 100));
    assert!(!within_tolerance(U256::from(9_899u32), v, 100));
    assert!(within_tolerance(U256::MAX, U256::MAX, 0));
    assert!(!within_tolerance(U256::from(1u8), U256::ZERO, 10_000));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever is handed in: failed ≤ claims, the counts match the report, every feature value is
    /// one of its used values and no larger than any of them, and nothing panics.
    #[test]
    fn intake_invariants(spec in proptest::collection::vec(
        (0u8..4, 0usize..3, 4_000u64..11_000, proptest::collection::vec((0usize..6, 0u64..1_000), 0..5), any::<bool>()),
        0..8,
    )) {
        let r = Run::new();
        let names = ["resolved_work", "unique_counterparties", "settled_revenue_cents", "self_reported_uptime_bps", "price", "paying_users"];
        let sources = ["github", "stripe", "helpdesk"];
        let atts: Vec<SignedAttestation> = spec.iter().map(|(k, s, at, ms, other)| {
            let metrics: Vec<(&str, u64)> = ms.iter().map(|(n, v)| (names[*n], *v)).collect();
            sign(&key(k + 1), att(if *other { Q } else { P }, sources[*s], *at, &metrics))
        }).collect();
        let i = r.go(&[sub(P, atts)]).unwrap();
        let p = &i.projects[0];
        let (used, failed, _) = i.totals();
        prop_assert_eq!(p.input.data.claims as usize, used + failed);
        prop_assert_eq!(p.input.data.failed as usize, failed);
        let t = TrackConfig::agents();
        for (k, f) in t.features.iter().enumerate() {
            let vals: Vec<U256> = p.claims.iter().filter(|c| c.metric == f.name).filter_map(|c| match c.outcome {
                ClaimOutcome::Used { value, .. } => Some(value), _ => None }).collect();
            let got = p.input.data.features[k];
            if vals.is_empty() { prop_assert_eq!(got, U256::ZERO); }
            else { prop_assert!(vals.contains(&got) && vals.iter().all(|v| *v >= got)); }
        }
    }

    /// The attestation parser never panics on mutated input, and what it accepts round-trips.
    #[test]
    fn parser_never_panics(cut in 0usize..400, flip in 0usize..400, byte in any::<u8>()) {
        let good = honest()[0].to_json();
        let mut b = good.clone().into_bytes();
        let n = b.len();
        b[flip % n] = byte;
        b.truncate(cut.max(1).min(n) + (n - cut.min(n)));
        let text = String::from_utf8_lossy(&b);
        if let Ok(a) = SignedAttestation::from_json(&text) {
            prop_assert_eq!(SignedAttestation::from_json(&a.to_json()).unwrap(), a);
        }
        let _ = SignedAttestation::list_from_json(&format!("[{text}]"));
        let _ = serde_json::from_str::<Submission>(&text);
    }
}

/// A cohort of a public project `P` (github re-fetched: one value, one unreachable) and a private `Q`, taken
/// in, and its published report.
fn published() -> (Run, [Submission; 2], Intake, crate::attest::IntakeReport) {
    use crate::attest::report::{IntakeReport, ReportProject, INTAKE_FORMAT};
    let mut r = Run::new();
    r.refetch.insert(
        (P, "github".into(), "unique_counterparties".into()),
        Refetch::Unavailable {
            reason: "HTTP 503".into(),
        },
    );
    let mut q = sub(
        Q,
        vec![sign(
            &key(2),
            att(Q, "github", 6_000, &[("resolved_work", 50)]),
        )],
    );
    q.private = true;
    q.salt = B256::repeat_byte(7);
    let subs = [sub(P, honest()), q];
    let i = r.go(&subs).unwrap();
    let report = IntakeReport {
        format: INTAKE_FORMAT.into(),
        epoch: EPOCH,
        chain_id: 31_337,
        source_key_registry: REG,
        window_start: 5_000,
        snapshot: 10_000,
        key_block: 1,
        config: r.config.clone(),
        projects: i
            .projects
            .iter()
            .zip(&subs)
            .map(|(p, s)| ReportProject::of(p, s, &r.refetch))
            .collect(),
    };
    (r, subs, i, report)
}

#[test]
fn a_published_report_round_trips_and_re_runs_to_the_same_inputs() {
    use crate::attest::report::{recheck_project, IntakeReport, SourceRefetches, INTAKE_FORMAT};
    let (r, subs, i, report) = published();
    // The public entry states its attestations and re-fetches, not its outcomes (its re-run gives them);
    // the private one its outcomes only.
    let (p, q) = (&report.projects[0], &report.projects[1]);
    assert!(p.outcomes.is_empty());
    assert_eq!(p.attestations, subs[0].attestations);
    assert_eq!(
        p.refetches[..1],
        vec![SourceRefetches {
            source: "github".into(),
            values: vec![
                (
                    "resolved_work".into(),
                    Refetch::Value {
                        value: U256::from(400u32),
                        excluded: vec![],
                    }
                ),
                (
                    "unique_counterparties".into(),
                    Refetch::Unavailable {
                        reason: "HTTP 503".into()
                    }
                ),
            ],
        }]
    );
    // (stripe's and helpdesk's own systems agreed with their keys: their values follow.)
    assert_eq!(p.refetches.len(), 3);
    assert_eq!(q.outcomes, i.projects[1].claims);
    assert!(q.attestations.is_empty() && q.refetches.is_empty());
    let json = serde_json::to_string(&report).unwrap();
    assert!(json.contains(
        r#""refetches":[{"source":"github","values":{"resolved_work":"400","unique_counterparties":{"unavailable":"HTTP 503"}}},"#
    ), "{json}");
    let back = IntakeReport::from_json(&json).unwrap();
    assert_eq!(back, report);
    // The compact encoding (C23) reads back the same report, from_bytes takes either form, and the compact
    // one is smaller.
    let packed = report.to_msgpack().unwrap();
    assert_eq!(IntakeReport::from_bytes(&packed).unwrap(), report);
    assert_eq!(IntakeReport::from_bytes(json.as_bytes()).unwrap(), report);
    assert!(
        packed.len() < json.len(),
        "{} vs {}",
        packed.len(),
        json.len()
    );
    let mut other = report.clone();
    other.format = "eden-intake-v1".into();
    assert!(IntakeReport::from_bytes(&other.to_msgpack().unwrap())
        .unwrap_err()
        .to_string()
        .starts_with("format"));
    // The re-run from the report alone gives the operator's inputs and every claim's outcome, the
    // re-fetched value used and the unreachable one not a claim.
    let again = recheck_project(&back, &back.projects[0], &r.tracks, &r.keys).unwrap();
    assert_eq!(again.input.data, i.projects[0].input.data);
    assert_eq!(again.claims, i.projects[0].claims);
    assert!(again.claims.iter().any(|c| c.outcome
        == ClaimOutcome::Ignored {
            why: IgnoreReason::RefetchUnavailable {
                detail: "HTTP 503".into()
            }
        }));
    // a wrong format tag, or a field of the wrong type, is named
    let bad = json.replace(INTAKE_FORMAT, "eden-intake-v1");
    assert!(IntakeReport::from_json(&bad)
        .unwrap_err()
        .to_string()
        .starts_with("format"));
    let bad = json.replace("\"snapshot\":10000", "\"snapshot\":\"x\"");
    assert!(
        IntakeReport::from_json(&bad)
            .unwrap_err()
            .to_string()
            .starts_with("snapshot"),
        "{}",
        IntakeReport::from_json(&bad).unwrap_err()
    );
}

#[test]
fn a_report_entry_of_the_wrong_shape_is_refused_and_named() {
    use crate::attest::report::{IntakeReport, SourceRefetches};
    let (_, subs, i, report) = published();
    // In either encoding.
    let refused = |b: &IntakeReport| {
        let json = IntakeReport::from_json(&serde_json::to_string(b).unwrap()).unwrap_err();
        let packed = IntakeReport::from_bytes(&b.to_msgpack().unwrap()).unwrap_err();
        assert_eq!(json.to_string(), packed.to_string());
        json.to_string()
    };
    let mut b = report.clone();
    b.projects[0].outcomes = i.projects[0].claims.clone();
    assert!(refused(&b).starts_with("projects[0].outcomes: a public project's outcomes follow"));
    let mut b = report.clone();
    b.projects[1].attestations = subs[1].attestations.clone();
    assert!(refused(&b).starts_with("projects[1].attestations: a private project's"));
    let mut b = report.clone();
    b.projects[1].refetches = report.projects[0].refetches.clone();
    assert!(refused(&b).starts_with("projects[1].refetches: a private project's"));
    let mut b = report.clone();
    b.projects[0].refetches.push(SourceRefetches {
        source: "github".into(),
        values: vec![],
    });
    assert_eq!(
        refused(&b),
        "projects[0].refetches[3].source: 'github' is listed twice"
    );
    // A metric re-fetched twice, or an unreachable source stated otherwise, in the JSON text.
    let json = serde_json::to_string(&report).unwrap();
    for (from, to, why) in [
        (
            r#""resolved_work":"400""#,
            r#""resolved_work":"400","resolved_work":"401""#,
            "'resolved_work' is listed twice",
        ),
        (
            r#"{"unavailable":"HTTP 503"}"#,
            r#"{"unavailable":"HTTP 503","why":"x"}"#,
            "unknown field `why`",
        ),
        (
            r#"{"unavailable":"HTTP 503"}"#,
            "{}",
            "missing field `unavailable`",
        ),
        (
            r#""resolved_work":"400""#,
            r#""resolved_work":"-4""#,
            "decimal",
        ),
    ] {
        let e = IntakeReport::from_json(&json.replace(from, to))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("projects[0].refetches[0].values") && e.contains(why),
            "{e}"
        );
    }
}

/// The published report's JSON and compact bytes, made once.
fn published_bytes() -> &'static (Vec<u8>, Vec<u8>) {
    static BYTES: std::sync::OnceLock<(Vec<u8>, Vec<u8>)> = std::sync::OnceLock::new();
    BYTES.get_or_init(|| {
        let report = published().3;
        (
            serde_json::to_vec(&report).unwrap(),
            report.to_msgpack().unwrap(),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]
    /// A damaged report (a byte changed, or cut short), in either encoding, is read or refused, never a
    /// panic; what is read writes back to bytes that read the same.
    #[test]
    fn a_damaged_report_is_read_or_refused(at in any::<prop::sample::Index>(), byte in any::<u8>(), cut in any::<bool>(), json in any::<bool>()) {
        use crate::attest::report::IntakeReport;
        let (j, m) = published_bytes();
        let mut b = if json { j.clone() } else { m.clone() };
        let k = at.index(b.len());
        if cut { b.truncate(k) } else { b[k] = byte }
        if let Ok(r) = IntakeReport::from_bytes(&b) {
            prop_assert_eq!(IntakeReport::from_bytes(&r.to_msgpack().unwrap()).unwrap(), r.clone());
            prop_assert_eq!(IntakeReport::from_json(&serde_json::to_string(&r).unwrap()).unwrap(), r);
        }
    }
}

#[test]
fn the_watchtower_audit_re_runs_every_public_intake_against_the_bundle() {
    use crate::check::{audit_intake, public_submissions, EpochFinding, IntakeAnchor};
    let (r, _, i, report) = published();
    let bundle = build_epoch(&EpochInput {
        epoch: EPOCH,
        tracks: r.tracks.clone(),
        projects: i.inputs(),
        ..Default::default()
    })
    .unwrap();
    let anchor = IntakeAnchor {
        chain_id: 31_337,
        source_key_registry: REG,
    };
    let audit = |report: &crate::attest::IntakeReport| {
        let subs = public_submissions(report);
        let signers = recover_signers(&attestation_domain(31_337, REG), &subs);
        audit_intake(report, &subs, &signers, &bundle, anchor, &r.keys)
    };
    assert_eq!(audit(&report), vec![]);
    // A re-fetched value the operator did not use, its counts, a changed attested number: each is named.
    let differs = |what| vec![EpochFinding::IntakeDiffers { project: P, what }];
    let mut b = report.clone();
    b.projects[0].refetches[0].values[0].1 = Refetch::Value {
        value: U256::from(398u32),
        excluded: vec![],
    };
    assert_eq!(audit(&b), differs("inputs"));
    let mut b = report.clone();
    b.projects[0].failed += 1;
    assert_eq!(audit(&b), differs("counts"));
    let mut b = report.clone();
    b.projects[0].attestations[1].attestation.metrics[0].value += U256::from(1u8);
    assert_eq!(audit(&b), differs("inputs"));
    // A public project the report leaves out.
    let mut b = report.clone();
    b.projects.remove(0);
    assert_eq!(audit(&b), vec![EpochFinding::IntakeMissing { project: P }]);
}

#[test]
fn refetch_table_replaces_and_finds_by_borrowed_names() {
    let mut t = RefetchTable::new();
    let p = Address::repeat_byte(1);
    assert!(t.is_empty());
    let v = |x: u64| Refetch::Value {
        value: U256::from(x),
        excluded: vec![],
    };
    assert_eq!(t.insert((p, "github".into(), "stars".into()), v(1)), None);
    assert_eq!(t.insert((p, "github".into(), "forks".into()), v(2)), None);
    assert_eq!(
        t.insert((p, "github".into(), "stars".into()), v(3)),
        Some(v(1))
    );
    assert_eq!(t.len(), 2);
    assert_eq!(t.get(p, "github", "stars"), Some(&v(3)));
    assert_eq!(t.get(p, "ledger", "stars"), None);
    assert_eq!(t.get(Address::repeat_byte(2), "github", "stars"), None);
    t.clear();
    assert!(t.is_empty());
}

/// Every outcome and reason a claim can carry reads back from both encodings through the hand-written
/// reader (`claim_de`), and a missing field or an unknown reason is named.
#[test]
fn every_claim_outcome_reads_back_from_json_and_compact() {
    use crate::attest::{Claim, ClaimOutcome, FailReason, IgnoreReason};
    let key = Address::repeat_byte(0x4b);
    let outcomes = vec![
        ClaimOutcome::Used {
            value: U256::from(121u32),
            refetched: true,
        },
        ClaimOutcome::Used {
            value: U256::MAX,
            refetched: false,
        },
        ClaimOutcome::Failed {
            why: FailReason::BadSignature {
                detail: "s too high".into(),
            },
        },
        ClaimOutcome::Failed {
            why: FailReason::UnregisteredKey { key },
        },
        ClaimOutcome::Failed {
            why: FailReason::KeyForOtherSource { key },
        },
        ClaimOutcome::Failed {
            why: FailReason::KeyNotValid {
                key,
                observed_at: 5,
                registered_at: 6,
                revoked_at: 0,
            },
        },
        ClaimOutcome::Failed {
            why: FailReason::ObservedOutsideWindow {
                observed_at: 1,
                window_start: 2,
                snapshot: 3,
            },
        },
        ClaimOutcome::Failed {
            why: FailReason::ConflictingAttestations,
        },
        ClaimOutcome::Failed {
            why: FailReason::RefetchMismatch {
                refetched: U256::ZERO,
                tolerance_bps: 500,
                excluded: vec![],
            },
        },
        ClaimOutcome::Ignored {
            why: IgnoreReason::OtherProject { project: key },
        },
        ClaimOutcome::Ignored {
            why: IgnoreReason::OtherEpoch { epoch: 9 },
        },
        ClaimOutcome::Ignored {
            why: IgnoreReason::UnknownSource,
        },
        ClaimOutcome::Ignored {
            why: IgnoreReason::Duplicate,
        },
        ClaimOutcome::Ignored {
            why: IgnoreReason::ForbiddenInput {
                name: "price".into(),
            },
        },
        ClaimOutcome::Ignored {
            why: IgnoreReason::NotFromThisSource { name: "x".into() },
        },
        ClaimOutcome::Ignored {
            why: IgnoreReason::NotInTrack {
                name: "x".into(),
                track: "apps".into(),
            },
        },
        ClaimOutcome::Ignored {
            why: IgnoreReason::DuplicateMetric { name: "x".into() },
        },
        ClaimOutcome::Ignored {
            why: IgnoreReason::RefetchUnavailable {
                detail: "HTTP 503".into(),
            },
        },
    ];
    let claims: Vec<Claim> = outcomes
        .into_iter()
        .enumerate()
        .map(|(i, outcome)| Claim {
            attestation: i,
            source: "github".into(),
            metric: "resolved_work".into(),
            attested: U256::from(i as u64) << 200,
            outcome,
        })
        .collect();
    let json = serde_json::to_string(&claims).unwrap();
    assert_eq!(serde_json::from_str::<Vec<Claim>>(&json).unwrap(), claims);
    // A compact publication is a map (C23).
    let wrapped = std::collections::BTreeMap::from([("claims".to_string(), claims.clone())]);
    let packed = crate::compact::to_msgpack(&wrapped).unwrap();
    assert_eq!(
        crate::compact::from_msgpack::<std::collections::BTreeMap<String, Vec<Claim>>>(&packed)
            .unwrap(),
        wrapped
    );
    // Unknown fields are ignored; a missing one, a duplicate one or an unknown reason is named.
    let first = serde_json::to_value(&claims[0]).unwrap();
    let mut extra = first.clone();
    extra["note"] = serde_json::json!({"any": [1, 2]});
    assert_eq!(serde_json::from_value::<Claim>(extra).unwrap(), claims[0]);
    let mut missing = first.clone();
    missing.as_object_mut().unwrap().remove("value");
    assert!(serde_json::from_value::<Claim>(missing)
        .unwrap_err()
        .to_string()
        .contains("value"));
    let dup = json.replacen(
        "\"source\":\"github\"",
        "\"source\":\"a\",\"source\":\"b\"",
        1,
    );
    assert!(serde_json::from_str::<Vec<Claim>>(&dup)
        .unwrap_err()
        .to_string()
        .contains("duplicate field `source`"));
    let bad = serde_json::to_string(&claims[3])
        .unwrap()
        .replace("unregisteredKey", "madeUp");
    assert!(serde_json::from_str::<Claim>(&bad)
        .unwrap_err()
        .to_string()
        .contains("madeUp"));
}

/// C21a: a money- or counterparty-verified feature counts only from a source re-fetched from its own system;
/// from a signed-only source it is below its tier, named, and not counted. A self-reported feature still counts.
#[test]
fn a_signed_only_source_cannot_carry_a_verified_tier() {
    let mut r = Run::new();
    for s in &mut r.config.sources {
        if s.name != "github" {
            s.refetch = false;
            s.adapter = None;
        }
    }
    assert!(!r.config.sources[1].verifies() && r.config.sources[0].verifies());
    let i = r.go(&[sub(P, honest())]).unwrap();
    let below: Vec<(&str, String)> = i.projects[0]
        .claims
        .iter()
        .filter_map(|c| match &c.outcome {
            ClaimOutcome::Ignored {
                why: why @ IgnoreReason::BelowTier { .. },
            } => Some((c.metric.as_str(), why.to_string())),
            _ => None,
        })
        .collect();
    assert_eq!(
        below,
        [
            ("settled_revenue_cents", "'settled_revenue_cents' is money-verified, but this source is signed only, never re-fetched: it does not count at that tier".to_string()),
            ("resolved_work", "'resolved_work' is counterparty-verified, but this source is signed only, never re-fetched: it does not count at that tier".to_string()),
        ]
    );
    let d = &i.projects[0].input.data;
    let t = TrackConfig::agents();
    let f = |n: &str| d.features[t.features.iter().position(|x| x.name == n).unwrap()];
    assert_eq!(f("settled_revenue_cents"), U256::ZERO);
    assert_eq!(f("self_reported_uptime_bps"), U256::from(9_900u32));
    // github (re-fetched) 2, helpdesk's self-reported uptime 1; the two below their tier are not claims.
    assert_eq!((d.claims, d.failed), (3, 0));
}

/// C21a: a claim whose attested value counted what the source's adapter left out fails, naming each item;
/// the report carries the exclusions beside the value and reads back in both encodings.
#[test]
fn a_mismatch_names_what_the_adapter_left_out_and_the_report_keeps_it() {
    use crate::attest::anomaly::{Anomaly, Exclusion};
    use crate::attest::report::{IntakeReport, ReportProject, INTAKE_FORMAT};
    let mut r = Run::new();
    let refund = Exclusion {
        kind: Anomaly::Refund,
        item: "ch_3Ppartial".into(),
        amount: U256::from(20_000u32),
        detail: "20000 of 50000 refunded".into(),
    };
    r.refetch.insert(
        (P, "stripe".into(), "settled_revenue_cents".into()),
        Refetch::Value {
            value: U256::from(70_000u32),
            excluded: vec![refund.clone()],
        },
    );
    let subs = vec![sub(P, honest())];
    let i = r.go(&subs).unwrap();
    let why = match outcome_of(&i, "settled_revenue_cents", 1) {
        ClaimOutcome::Failed { why } => why.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        why.to_string(),
        "re-fetch disagrees: the source says 70000, tolerance 0 bps; it left out refund ch_3Ppartial (20000 of 50000 refunded)"
    );
    let table = r.mirrored(&subs);
    let report = IntakeReport {
        format: INTAKE_FORMAT.into(),
        epoch: EPOCH,
        chain_id: 31_337,
        source_key_registry: REG,
        window_start: 5_000,
        snapshot: 10_000,
        key_block: 1,
        config: r.config.clone(),
        projects: vec![ReportProject::of(&i.projects[0], &subs[0], &table)],
    };
    let stripe = report.projects[0]
        .refetches
        .iter()
        .find(|s| s.source == "stripe")
        .unwrap();
    assert_eq!(
        stripe.values[0].1,
        Refetch::Value {
            value: U256::from(70_000u32),
            excluded: vec![refund],
        }
    );
    let json = serde_json::to_string(&report).unwrap();
    assert!(
        json.contains(r#""settled_revenue_cents":{"value":"70000","excluded":[{"kind":"refund""#),
        "{json}"
    );
    assert_eq!(IntakeReport::from_json(&json).unwrap(), report);
    assert_eq!(
        IntakeReport::from_bytes(&report.to_msgpack().unwrap()).unwrap(),
        report
    );
    // The published entry re-runs to the same failure, exclusions included.
    let again = crate::attest::report::recheck_project(
        &report,
        &report.projects[0],
        &[TrackConfig::agents()],
        &r.keys,
    );
    assert!(format!("{again:?}").contains("ch_3Ppartial"), "{again:?}");
}
