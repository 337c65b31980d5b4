//! Score page, human part (C5, C7, C9, C10): the graded theses of the selected project in the
//! selected epoch, and its human score recomputed here in WASM with `eden_core::human`:
//!
//! - envelope mode (C9, a project with a systematic score `S`): every thesis with its target, quality
//!   `q`, verdict → originality multiplier `c` and whether it counts (`q ≥ 0.3`); `s_sys = S/100`, the
//!   envelope `4·s_sys·(1 − s_sys)`, Δ and the human score `100·s`;
//! - pre-data mode (C10, no systematic data): the replay path from 0, one point per submission,
//!   capped at 50 (100 for a Verified project).
//!
//! Targets are cross-checked against the ScorerRegistry's `Scored` events on chain (same token and
//! thesis hash). Every leaf (score, quality, human) is recomputed from its values, the full epoch
//! tree (C5: score ∪ quality ∪ systematic leaves, sorted leaves, sorted pairs) is rebuilt, and the human
//! leaf's proof is walked to the on-chain final root. A pending or challenged epoch has no final root
//! (C7): its numbers are shown, labelled not final.

use crate::error::AppError;
use alloy_primitives::{Address, B256, I256, U256};
use eden_core::check::{self, HumanFinding};
pub use eden_core::check::{ChainTarget, HumanDetail, ScoredEvent};
use eden_core::human::BAND;
use leptos::prelude::*;

/// The outcome of checking one project's human score in one epoch: core's report
/// ([`eden_core::check::HumanCheck`], reached through `Deref`), the registry's own answer, and every
/// finding in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HumanCheck {
    /// Core's report.
    pub check: check::HumanCheck,
    /// `EpochRegistry.verifyScore` of the human (published) score on the same proof (final epochs only).
    pub registry_says: Option<Result<bool, AppError>>,
    /// Why the bundle's human part is not trusted, in words; empty when everything matches.
    pub flags: Vec<String>,
    /// Each graded thesis's text, from its `Scored` event (§4: on chain), when its keccak-256 is
    /// the hash the registry computed.
    pub texts: std::collections::BTreeMap<B256, String>,
    /// Each graded thesis's grading record, re-derived (C8).
    pub grades: Vec<super::grades::GradeRow>,
    /// The first publication base, for links to snapshots.
    pub publication_base: Option<String>,
}

impl std::ops::Deref for HumanCheck {
    type Target = check::HumanCheck;
    fn deref(&self) -> &check::HumanCheck {
        &self.check
    }
}

impl HumanCheck {
    /// Keeps the texts of this check's theses from the scored events (first score of a hash wins).
    pub fn set_texts(&mut self, scored: &[(ScoredEvent, String)]) {
        for r in &self.check.rows {
            if let Some((_, t)) = scored.iter().find(|(e, t)| {
                e.thesis_hash == r.thesis_hash
                    && eden_core::scoring::copy_detect::thesis_hash(t) == r.thesis_hash
            }) {
                self.texts.insert(r.thesis_hash, t.clone());
            }
        }
    }

    /// Everything matches and the leaf reaches an on-chain final root.
    pub fn verified(&self) -> bool {
        self.flags.is_empty()
            && self.reaches_chain
            && self
                .registry_says
                .as_ref()
                .is_none_or(|r| matches!(r, Ok(true)))
    }
}

/// A human-score finding in words.
pub fn human_finding_words(f: &HumanFinding) -> String {
    let fl = |b: bool| if b { "backed" } else { "not backed" };
    match f {
        HumanFinding::QualityLeafMismatch { thesis } => format!(
            "thesis {}: its quality leaf does not hash from its values",
            short(*thesis)
        ),
        HumanFinding::TargetDiffers {
            thesis,
            chain,
            bundle,
        } => format!(
            "thesis {}: the chain's Scored event has target {chain}, the bundle {bundle}",
            short(*thesis)
        ),
        HumanFinding::ScoreNotOnChain { thesis, score_id } => format!(
            "thesis {}: no score {score_id} on chain by this scorer on this project carries it",
            short(*thesis)
        ),
        HumanFinding::QualityLeafNotInRoot { thesis } => format!(
            "thesis {}: its quality leaf does not reach the on-chain root",
            short(*thesis)
        ),
        HumanFinding::EnvelopeStartDiffers { envelope, leaf } => format!(
            "the envelope starts from S = {envelope}, but the project's score leaf says {leaf}"
        ),
        HumanFinding::EnvelopeWithoutScoreLeaf => {
            "an envelope score without a systematic score leaf in this epoch".into()
        }
        HumanFinding::EnvelopeDiffers { bundle, recomputed } => {
            format!("the bundle's envelope {bundle} differs from the recomputed {recomputed}")
        }
        HumanFinding::DeltaDiffers { bundle, recomputed } => {
            format!("the bundle's Δ {bundle} differs from the recomputed {recomputed}")
        }
        HumanFinding::CountedDiffers { bundle, recomputed } => {
            format!("the bundle counts {bundle} theses, the recomputation {recomputed}")
        }
        HumanFinding::VerifiedDiffers { bundle, chain } => format!(
            "the bundle replays as {}, but FeeLanes says the project is {}",
            fl(*bundle),
            fl(*chain)
        ),
        HumanFinding::PathDiffers { verified } => format!(
            "the bundle's path differs from the replay with the {} cap",
            if *verified {
                "backed (100)"
            } else {
                "not-backed (50)"
            }
        ),
        HumanFinding::PreDataWithSystematicScore => "a pre-data score for a project that has a systematic score this epoch (C10 ends at the first one)".into(),
        HumanFinding::ScoreDiffers { bundle, recomputed } => {
            format!("the bundle's human score {bundle} differs from the recomputed {recomputed}")
        }
        HumanFinding::LeafMismatch => {
            "the human record's leaf in the bundle is not the project's score leaf of its human score".into()
        }
        HumanFinding::PublishedDiffers { published, recomputed } => format!(
            "the project's score leaf publishes {}, not its recomputed human score {} (C27)",
            crate::fmt::units_exact(*published, 18),
            crate::fmt::units_exact(*recomputed, 18)
        ),
        HumanFinding::RootDiffers { rebuilt, claimed } => format!(
            "the bundle's leaves build root {rebuilt}, not the root {claimed} the bundle claims"
        ),
        HumanFinding::OnchainRootDiffers { onchain, rebuilt } => {
            format!("the on-chain final root is {onchain}; this bundle builds {rebuilt}")
        }
        HumanFinding::ProofDoesNotReachChain => {
            "the score leaf's proof does not reach the on-chain root".into()
        }
    }
}

/// The check of `project`'s human score (`eden_core::check::check_human`), its findings in words:
/// `Ok(None)` when the bundle has no human score for `project`.
///
/// # Errors
/// Unusable bundle data (an invalid verdict code, an out-of-range field), in plain words.
pub fn check_human(
    tree: &check::BundleTree<'_>,
    project: Address,
    onchain_root: Option<B256>,
    scored: Option<&[ScoredEvent]>,
    chain_verified: Option<bool>,
) -> Result<Option<HumanCheck>, AppError> {
    let Some(check) = check::check_human_in(tree, project, onchain_root, scored, chain_verified)
        .map_err(AppError::from)?
    else {
        return Ok(None);
    };
    let flags = check.findings.iter().map(human_finding_words).collect();
    Ok(Some(HumanCheck {
        check,
        registry_says: None,
        flags,
        texts: Default::default(),
        grades: Vec::new(),
        publication_base: None,
    }))
}

/// `0x1234…abcd` of a hash.
pub fn short(h: B256) -> String {
    crate::fmt::short_addr(&h.to_string())
}

/// A signed WAD (`Δ`) with its sign: `+0.064`, `−0.012` (exact value on hover).
pub fn signed_wad(d: I256, sig: usize) -> (String, String) {
    let (neg, abs) = d.into_sign_and_abs();
    let sign = if neg.is_negative() && !abs.is_zero() {
        "−"
    } else {
        "+"
    };
    (
        format!("{sign}{}", crate::fmt::units(abs, 18, sig)),
        format!("{sign}{}", crate::fmt::units_exact(abs, 18)),
    )
}

/// The pre-data path in words: `0 → 18 → 23 → 20.5` (points).
pub fn path_words(path: &[U256]) -> String {
    std::iter::once("0".to_string())
        .chain(path.iter().map(|p| crate::fmt::units(*p, 18, 6)))
        .collect::<Vec<_>>()
        .join(" → ")
}

/// The human section of the result: `status` is the epoch's on-chain status (C7).
#[component]
pub fn HumanView(check: Result<Option<HumanCheck>, AppError>, status: u8) -> impl IntoView {
    use crate::ui::Amount;
    let c = match check {
        Err(e) => return view! { <div class="result bad" id="human-result" role="alert"><strong>"Human score: "</strong>{e.to_string()}</div> }.into_any(),
        Ok(None) => return view! { <div class="result empty" id="human-result"><strong>"Human score: "</strong>"No graded theses this epoch."</div> }.into_any(),
        Ok(Some(c)) => c,
    };
    let not_final = c.onchain_root.is_none();
    let ok = c.verified();
    let class = if ok {
        "result ok"
    } else if not_final && c.flags.is_empty() {
        "result empty"
    } else {
        "result bad"
    };
    let headline = if ok {
        "Human score verified against the chain. ".to_string()
    } else if not_final && c.flags.is_empty() {
        format!(
            "Human score not final: the epoch is {} (C7), so this is not a final score. ",
            crate::chain::epochs::status_name(status)
        )
    } else {
        "Human score flagged: ".to_string()
    };
    let mode_name = match &c.detail {
        HumanDetail::Envelope { .. } => "envelope (C9)",
        HumanDetail::PreData { .. } => "pre-data replay (C10)",
    };
    let envelope_mode = matches!(c.detail, HumanDetail::Envelope { .. });
    let rows = c.rows.clone();
    let texts = c.texts.clone();
    view! {
        <div class=class id="human-result" role="status" data-mode=if envelope_mode { "envelope" } else { "preData" }>
            <strong>{headline}</strong>
            {format!("Mode: {mode_name}; score ")}<Amount raw=c.recomputed decimals=18 unit="points" sig=5 />
            <ul class="flags">{c.flags.iter().map(|f| view! { <li>{f.clone()}</li> }).collect_view()}</ul>
            {if rows.is_empty() {
                view! { <p class="empty">"No graded theses for this project this epoch."</p> }.into_any()
            } else {
                view! {
                    <div class="table-wrap"><table class="theses" id="theses">
                        <thead><tr><th>"Thesis"</th><th>"Target"</th><th>"q"</th><th>"Verdict → c"</th><th>"Counts"</th><th>"On chain"</th><th>"Quality leaf"</th></tr></thead>
                        <tbody>
                        {rows.into_iter().map(|r| view! {
                            <tr>
                                <td>{match texts.get(&r.thesis_hash) {
                                    Some(t) => view! { <details class="thesis-text"><summary><code title=r.thesis_hash.to_string()>{short(r.thesis_hash)}</code></summary><p class="thesis-body">{t.clone()}</p></details> }.into_any(),
                                    None => view! { <code title=r.thesis_hash.to_string()>{short(r.thesis_hash)}</code> }.into_any(),
                                }}</td>
                                <td><Amount raw=r.target decimals=18 sig=4 /></td>
                                <td><Amount raw=r.quality decimals=18 sig=3 /></td>
                                <td>{r.verdict.name()}" → "<Amount raw=r.multiplier decimals=18 sig=2 /></td>
                                <td>{if r.counts { "yes" } else if envelope_mode { "no (q < 0.3)" } else { "no (q·c = 0)" }}</td>
                                <td>{match r.chain {
                                    ChainTarget::Matches => "Scored event ✓".to_string(),
                                    ChainTarget::Differs(t) => format!("differs: {}", crate::fmt::units(t, 18, 6)),
                                    ChainTarget::NotFound => "no such score on chain".to_string(),
                                    ChainTarget::NotChecked => "not read".to_string(),
                                }}</td>
                                <td>{match r.leaf_in_root {
                                    Some(true) => "in the final root ✓",
                                    Some(false) => "not in the final root",
                                    None => "no final root yet",
                                }}</td>
                            </tr>
                        }).collect_view()}
                        </tbody>
                    </table></div>
                    <super::grades::GradesView rows=c.grades.clone() base=c.publication_base.clone() />
                }.into_any()
            }}
            <dl>
                {match c.detail.clone() {
                    HumanDetail::Envelope { systematic, envelope, delta, counted } => {
                        let (d, d_exact) = signed_wad(delta, 4);
                        view! {
                            <dt>"Systematic score S"</dt><dd><Amount raw=systematic decimals=18 unit="points" sig=5 />" (s_sys = S / 100)"</dd>
                            <dt>"Envelope 4·s_sys·(1 − s_sys)"</dt><dd id="envelope"><Amount raw=envelope decimals=18 sig=5 /></dd>
                            <dt>"Δ (clamped to ±0.2)"</dt><dd id="delta"><span title=d_exact>{d}</span>{format!(" from {counted} counting {}{}", if counted == 1 { "thesis" } else { "theses" }, if delta.unsigned_abs() == BAND { ", at the clamp" } else { "" })}</dd>
                        }.into_any()
                    }
                    HumanDetail::PreData { path, verified, cap } => view! {
                        <dt>"Path from 0"</dt><dd id="predata-path">{path_words(&path)}" points"</dd>
                        <dt>"Cap"</dt><dd><Amount raw=cap decimals=18 unit="points" sig=3 />{if verified { " (backed: the adjudicator's badge)" } else { " (not backed by the adjudicator)" }}</dd>
                    }.into_any(),
                }}
                <dt>"Human score, recomputed"</dt><dd id="human-score"><Amount raw=c.recomputed decimals=18 unit="points" sig=6 />{if c.recomputed == c.bundle_score { " = the bundle's ✓".to_string() } else { format!(" ≠ the bundle's {}", crate::fmt::units_exact(c.bundle_score, 18)) }}</dd>
                <dt>"Score leaf (the published score, C27)"</dt><dd><code title=c.leaf.to_string()>{short(c.leaf)}</code>{format!(" · proof of {} hashes in the full epoch tree; {}", c.proof.len(), if c.reaches_chain { "reaches the on-chain final root" } else if not_final { "no final root on chain yet" } else { "does not reach the on-chain root" })}</dd>
                <dt>"EpochRegistry.verifyScore"</dt><dd id="verify-human">{match &c.registry_says {
                    Some(Ok(true)) => "true ✓".to_string(),
                    Some(Ok(false)) => "false".to_string(),
                    Some(Err(e)) => format!("not asked: {e}"),
                    None => "not asked (no final root)".to_string(),
                }}</dd>
            </dl>
        </div>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use eden_core::check::full_tree;
    use eden_core::leaves::Verdict;

    fn verdict_multiplier(code: u8) -> Result<(Verdict, U256), String> {
        let v = Verdict::try_from(code).map_err(|e| e.to_string())?;
        Ok((v, v.multiplier_wad()))
    }

    fn verdict_name(code: u8) -> &'static str {
        Verdict::name_of_code(code)
    }

    use eden_core::fixtures::{
        c9_example, human_epoch as built, scored_events as events, w, ENV, PRE,
    };

    #[test]
    fn core_bundles_recompute_and_their_root_is_the_full_tree() {
        let b = built();
        assert_eq!(full_tree(&b, B256::ZERO).unwrap().0, b.root);
        for h in &b.human {
            assert_eq!(b.proof(&h.leaf), full_tree(&b, h.leaf).unwrap().1);
        }
        let ev = events(&b);
        for p in [ENV, PRE] {
            let c = check_human(
                &check::BundleTree::new(&b),
                p,
                Some(b.root),
                Some(&ev),
                Some(false),
            )
            .unwrap()
            .unwrap();
            assert!(c.flags.is_empty() && c.verified(), "{p}: {:?}", c.flags);
        }
    }

    #[test]
    fn the_c9_example_recomputes_and_its_leaf_reaches_the_root() {
        let b = c9_example();
        let ev = events(&b);
        let c = check_human(
            &check::BundleTree::new(&b),
            ENV,
            Some(b.root),
            Some(&ev),
            None,
        )
        .unwrap()
        .unwrap();
        assert!(c.flags.is_empty(), "{:?}", c.flags);
        assert!(c.reaches_chain && c.verified());
        assert_eq!(c.recomputed, w(6384, 2));
        assert_eq!(
            c.detail,
            HumanDetail::Envelope {
                systematic: w(60, 0),
                envelope: w(96, 2),
                delta: I256::try_from(64_000_000_000_000_000i64).unwrap(),
                counted: 2
            }
        );
        let counts: Vec<bool> = c.rows.iter().map(|r| r.counts).collect();
        assert_eq!(counts, [true, true, false]);
        assert_eq!(c.rows[1].multiplier, w(5, 1));
        assert!(c.rows.iter().all(|r| r.chain == ChainTarget::Matches));
        assert!(c.rows.iter().all(|r| r.leaf_in_root == Some(true)));
        // The systematic score's proof reaches the same root (its public inputs no longer give the
        // S = 60 set here, which is the only flag).
        let s = crate::flows::verify_score::check_bundle(
            &check::BundleTree::new(&b),
            ENV,
            Some(b.root),
            None,
        )
        .unwrap();
        assert!(
            s.leaf_reaches_chain && s.rebuilt_root == b.root,
            "{:?}",
            s.flags
        );
        assert!(
            s.flags
                .iter()
                .all(|f| crate::flows::words::score_flag(f).contains("public inputs")),
            "{:?}",
            s.flags
        );
    }

    #[test]
    fn the_c10_example_replays_0_18_23_20_5() {
        let b = built();
        let c = check_human(&check::BundleTree::new(&b), PRE, Some(b.root), None, None)
            .unwrap()
            .unwrap();
        assert!(c.flags.is_empty(), "{:?}", c.flags);
        let HumanDetail::PreData { path, cap, .. } = &c.detail else {
            panic!("not pre-data")
        };
        assert_eq!(path_words(path), "0 → 18 → 23 → 20.5");
        assert_eq!(*cap, w(50, 0));
        assert!(c.rows.iter().all(|r| r.chain == ChainTarget::NotChecked));
        // Pending epoch (C7): no final root, numbers shown, not verified.
        let p = check_human(&check::BundleTree::new(&b), PRE, None, None, None)
            .unwrap()
            .unwrap();
        assert!(p.flags.is_empty() && !p.reaches_chain && !p.verified());
        assert!(p.rows.iter().all(|r| r.leaf_in_root.is_none()));
        // The chain says Verified, the bundle replayed with the unverified cap.
        let v = check_human(
            &check::BundleTree::new(&b),
            PRE,
            Some(b.root),
            None,
            Some(true),
        )
        .unwrap()
        .unwrap();
        assert!(
            v.flags.iter().any(|f| f.contains("FeeLanes says")),
            "{:?}",
            v.flags
        );
        // No human score for a project without theses.
        assert_eq!(
            check_human(
                &check::BundleTree::new(&b),
                Address::repeat_byte(2),
                Some(b.root),
                None,
                None
            )
            .unwrap(),
            None
        );
    }

    #[test]
    fn changed_numbers_and_chain_targets_are_flagged() {
        let b = c9_example();
        let mut ev = events(&b);
        ev[0].target += U256::from(1u8);
        let c = check_human(
            &check::BundleTree::new(&b),
            ENV,
            Some(b.root),
            Some(&ev[1..]),
            None,
        )
        .unwrap()
        .unwrap();
        assert!(
            c.flags.iter().any(|f| f.contains("no score 161 on chain")),
            "{:?}",
            c.flags
        );
        // A grade naming another scorer than the chain's score is flagged the same way.
        let mut other = events(&b);
        other[0].scorer = Address::repeat_byte(0xee);
        let c2 = check_human(
            &check::BundleTree::new(&b),
            ENV,
            Some(b.root),
            Some(&other),
            None,
        )
        .unwrap()
        .unwrap();
        assert!(
            c2.flags.iter().any(|f| f.contains("by this scorer")),
            "{:?}",
            c2.flags
        );
        let c = check_human(
            &check::BundleTree::new(&b),
            ENV,
            Some(b.root),
            Some(&ev),
            None,
        )
        .unwrap()
        .unwrap();
        assert!(matches!(c.rows[0].chain, ChainTarget::Differs(_)) && !c.verified());
        // A human score raised after the root was committed.
        let mut t = b.clone();
        let h = t.human.iter_mut().find(|h| h.project == ENV).unwrap();
        h.score_wad += w(1, 0);
        let c = check_human(&check::BundleTree::new(&t), ENV, Some(b.root), None, None)
            .unwrap()
            .unwrap();
        assert!(!c.reaches_chain);
        assert!(
            c.flags
                .iter()
                .any(|f| f.contains("differs from the recomputed")),
            "{:?}",
            c.flags
        );
        assert!(
            c.flags
                .iter()
                .any(|f| f.contains("not the project's score leaf")),
            "{:?}",
            c.flags
        );
        // A Δ that does not match.
        let mut t = b.clone();
        t.human
            .iter_mut()
            .find(|h| h.project == ENV)
            .unwrap()
            .delta_wad = Some(I256::MINUS_ONE);
        let c = check_human(&check::BundleTree::new(&t), ENV, Some(b.root), None, None)
            .unwrap()
            .unwrap();
        assert!(c.flags.iter().any(|f| f.contains('Δ')), "{:?}", c.flags);
        // A pre-data path that is not the replay.
        let mut t = b;
        t.human.iter_mut().find(|h| h.project == PRE).unwrap().path =
            Some(vec![w(18, 0), w(23, 0), w(21, 0)]);
        let c = check_human(&check::BundleTree::new(&t), PRE, Some(t.root), None, None)
            .unwrap()
            .unwrap();
        assert!(c.flags.iter().any(|f| f.contains("path")), "{:?}", c.flags);
    }

    #[test]
    fn verdicts_and_signed_deltas_read_as_people_write_them() {
        let half = U256::from(500_000_000_000_000_000u64);
        assert_eq!(verdict_multiplier(0).unwrap().1, eden_core::math::WAD);
        assert_eq!(verdict_multiplier(1).unwrap().1, eden_core::math::WAD);
        assert_eq!(verdict_multiplier(2).unwrap().1, half);
        assert_eq!(verdict_multiplier(3).unwrap().1, U256::ZERO);
        assert!(verdict_multiplier(4).unwrap_err().contains("not a verdict"));
        assert_eq!(verdict_name(2), "derivative");
        assert_eq!(
            signed_wad(I256::try_from(64_000_000_000_000_000i64).unwrap(), 4).0,
            "+0.064"
        );
        assert_eq!(
            signed_wad(I256::try_from(-12_000_000_000_000_000i64).unwrap(), 4).0,
            "−0.012"
        );
    }
}
