//! The Score page's human part (C5, C7, C9, C10), checked: the project's graded theses and its human score
//! recomputed by `eden_core::check::check_human_in` (envelope or pre-data replay), the targets cross-checked
//! against the registry's `Scored` events, every leaf recomputed and the human leaf's proof walked to the
//! on-chain final root. Findings stay typed ([`eden_core::check::HumanFinding`]); [`super::words`] says them.

use super::score_findings::HumanFlag;
use crate::error::AppError;
use alloy_primitives::{Address, B256};
use eden_core::check;
pub use eden_core::check::ScoredEvent;

/// The outcome of checking one project's human score in one epoch: core's report
/// ([`eden_core::check::HumanCheck`], reached through `Deref`, its findings typed), the registry's own
/// answer, the theses' texts and grading records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HumanCheck {
    /// Core's report.
    pub check: check::HumanCheck,
    /// `EpochRegistry.verifyScore` of the human (published) score on the same proof (final epochs only).
    pub registry_says: Option<Result<bool, AppError>>,
    /// Why the bundle's human part is not trusted: core's findings, then what the score's verification
    /// adds (counting, the copy check, the signature); empty when everything matches.
    pub flags: Vec<HumanFlag>,
    /// Each graded thesis's text, from its `Scored` event (§4: on chain), when its keccak-256 is
    /// the hash the registry computed.
    pub texts: std::collections::BTreeMap<B256, String>,
    /// Each graded thesis's grading record, re-derived (C8).
    pub grades: Vec<super::score_grades::GradeRow>,
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

/// The check of `project`'s human score (`eden_core::check::check_human`):
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
    let flags = check
        .findings
        .iter()
        .cloned()
        .map(HumanFlag::Human)
        .collect();
    Ok(Some(HumanCheck {
        check,
        registry_says: None,
        flags,
        texts: Default::default(),
        grades: Vec::new(),
        publication_base: None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flows::words::{self, path_words, signed_wad};
    use alloy_primitives::{I256, U256};
    use eden_core::check::{ChainTarget, HumanDetail};

    /// The findings in words, as the page shows them.
    fn flags(c: &HumanCheck) -> Vec<String> {
        c.flags.iter().map(words::human_flag).collect()
    }
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
            assert!(c.flags.is_empty() && c.verified(), "{p}: {:?}", flags(&c));
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
        assert!(c.flags.is_empty(), "{:?}", flags(&c));
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
        assert!(c.flags.is_empty(), "{:?}", flags(&c));
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
            flags(&v).iter().any(|f| f.contains("FeeLanes says")),
            "{:?}",
            flags(&v)
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
            flags(&c)
                .iter()
                .any(|f| f.contains("no score 161 on chain")),
            "{:?}",
            flags(&c)
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
            flags(&c2).iter().any(|f| f.contains("by this scorer")),
            "{:?}",
            flags(&c2)
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
            flags(&c)
                .iter()
                .any(|f| f.contains("differs from the recomputed")),
            "{:?}",
            flags(&c)
        );
        assert!(
            flags(&c)
                .iter()
                .any(|f| f.contains("not the project's score leaf")),
            "{:?}",
            flags(&c)
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
        assert!(flags(&c).iter().any(|f| f.contains('Δ')), "{:?}", flags(&c));
        // A pre-data path that is not the replay.
        let mut t = b;
        t.human.iter_mut().find(|h| h.project == PRE).unwrap().path =
            Some(vec![w(18, 0), w(23, 0), w(21, 0)]);
        let c = check_human(&check::BundleTree::new(&t), PRE, Some(t.root), None, None)
            .unwrap()
            .unwrap();
        assert!(
            flags(&c).iter().any(|f| f.contains("path")),
            "{:?}",
            flags(&c)
        );
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
