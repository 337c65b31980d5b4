//! A project's human score in one epoch, checked (C5, C8–C10): every graded thesis with its
//! target, quality `q`, verdict → originality multiplier `c` and whether it counts; the score
//! recomputed by the C9 envelope (a project with a systematic score `S`) or the C10 pre-data replay
//! (from 0, capped at 50, or 100 for a Verified project); each thesis' target cross-checked against
//! the ScorerRegistry's `Scored` events (same score id, scorer, token and thesis hash); every leaf
//! recomputed from its values and the project's score leaf's proof walked (C27) to the on-chain final root. A pending
//! or challenged epoch has no final root (C7): its numbers are recomputed, not verified.

use super::tree::{BundleTree, CheckError};
use crate::human::{
    human_envelope, pre_data_replay, PreDataSubmission, Thesis, CAP_UNVERIFIED_POINTS,
    CAP_VERIFIED_POINTS, COUNTING_QUALITY,
};
use crate::leaves::{quality_leaf, score_leaf, Verdict};
use crate::math::points::POINTS_PER_UNIT_U256;
use crate::merkle::process_proof;
use crate::scoring::human_layer::{HumanMode, ThesisRecord};
use crate::scoring::EpochBundle;
use alloy_primitives::{Address, B256, I256, U256};
use serde::Serialize;

/// A `Scored` event of the ScorerRegistry (the fields checked here).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct ScoredEvent {
    /// `Scored.scoreId`.
    #[serde(with = "crate::serde_dec::u256_id")]
    #[cfg_attr(feature = "js", tsify(type = "IntegerLike"))]
    pub score_id: U256,
    /// `Scored.scorer`.
    pub scorer: Address,
    /// `Scored.token`.
    pub token: Address,
    /// `Scored.thesisHash`.
    pub thesis_hash: B256,
    /// `Scored.targetScore`, WAD points.
    #[serde(with = "crate::serde_dec::u256")]
    pub target: U256,
}

/// How a thesis' target compares with the chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", tag = "kind", content = "target")]
pub enum ChainTarget {
    /// The registry's events were not read.
    NotChecked,
    /// The chain's `Scored` event has the bundle's target.
    Matches,
    /// The chain's target differs.
    Differs(#[serde(with = "crate::serde_dec::u256")] U256),
    /// No `Scored` event has this score id with this scorer, token and thesis hash.
    NotFound,
}

/// One thesis row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ThesisRow {
    /// The thesis hash.
    pub thesis_hash: B256,
    /// The target `y`, WAD points.
    #[serde(with = "crate::serde_dec::u256")]
    pub target: U256,
    /// `q`, WAD.
    #[serde(with = "crate::serde_dec::u256")]
    pub quality: U256,
    /// The verdict (serialised as its code, as in the bundle).
    #[serde(serialize_with = "crate::leaves::verdict_code::serialize")]
    pub verdict: Verdict,
    /// The originality multiplier `c` (WAD).
    #[serde(with = "crate::serde_dec::u256")]
    pub multiplier: U256,
    /// Counts toward the human score (C9: `q ≥ 0.3`; C10: `q·c > 0`).
    pub counts: bool,
    /// The target against the chain's `Scored` events.
    pub chain: ChainTarget,
    /// The thesis' quality leaf (recomputed from its values) reaches the on-chain final root;
    /// `None` without a final root.
    pub leaf_in_root: Option<bool>,
}

/// The mode-specific numbers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", tag = "mode")]
pub enum HumanDetail {
    /// C9, all recomputed.
    #[serde(rename_all = "camelCase")]
    Envelope {
        /// `S`, WAD points.
        #[serde(with = "crate::serde_dec::u256")]
        systematic: U256,
        /// `4·s_sys·(1 − s_sys)`, WAD.
        #[serde(with = "crate::serde_dec::u256")]
        envelope: U256,
        /// Δ after the clamp, signed WAD.
        #[serde(serialize_with = "crate::serde_dec::i256::serialize")]
        delta: I256,
        /// Theses that counted.
        counted: usize,
    },
    /// C10: the score after each submission (WAD points), from 0; the cap used.
    #[serde(rename_all = "camelCase")]
    PreData {
        /// The path.
        #[serde(with = "crate::serde_dec::u256_vec")]
        path: Vec<U256>,
        /// Replayed with the Verified cap.
        verified: bool,
        /// The cap, WAD points.
        #[serde(with = "crate::serde_dec::u256")]
        cap: U256,
    },
}

/// Why a bundle's human part is not trusted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "kind"
)]
pub enum HumanFinding {
    /// A thesis' published quality leaf does not hash from its values.
    QualityLeafMismatch {
        /// The thesis.
        thesis: B256,
    },
    /// The chain's `Scored` event has another target.
    TargetDiffers {
        /// The thesis.
        thesis: B256,
        /// The chain's target.
        #[serde(with = "crate::serde_dec::u256")]
        chain: U256,
        /// The bundle's target.
        #[serde(with = "crate::serde_dec::u256")]
        bundle: U256,
    },
    /// No score on chain by this scorer on this project carries the thesis.
    ScoreNotOnChain {
        /// The thesis.
        thesis: B256,
        /// The score id the grade names.
        #[serde(with = "crate::serde_dec::u256")]
        score_id: U256,
    },
    /// A thesis' quality leaf does not reach the on-chain root.
    QualityLeafNotInRoot {
        /// The thesis.
        thesis: B256,
    },
    /// The envelope starts from another `S` than the project's score leaf.
    EnvelopeStartDiffers {
        /// The human record's `S`.
        #[serde(with = "crate::serde_dec::u256")]
        envelope: U256,
        /// The score leaf's `S`.
        #[serde(with = "crate::serde_dec::u256")]
        leaf: U256,
    },
    /// An envelope score without a score leaf this epoch.
    EnvelopeWithoutScoreLeaf,
    /// The bundle's envelope differs from the recomputed one.
    EnvelopeDiffers {
        /// The bundle's.
        #[serde(with = "crate::serde_dec::u256")]
        bundle: U256,
        /// Recomputed.
        #[serde(with = "crate::serde_dec::u256")]
        recomputed: U256,
    },
    /// The bundle's Δ differs from the recomputed one.
    DeltaDiffers {
        /// The bundle's.
        #[serde(serialize_with = "crate::serde_dec::i256::serialize")]
        bundle: I256,
        /// Recomputed.
        #[serde(serialize_with = "crate::serde_dec::i256::serialize")]
        recomputed: I256,
    },
    /// The bundle counts another number of theses.
    CountedDiffers {
        /// The bundle's count.
        bundle: u64,
        /// Recomputed.
        recomputed: usize,
    },
    /// The pre-data replay used another Verified flag than FeeLanes holds.
    VerifiedDiffers {
        /// The bundle's flag.
        bundle: bool,
        /// FeeLanes' flag.
        chain: bool,
    },
    /// The bundle's pre-data path is not the replay.
    PathDiffers {
        /// The cap replayed with (Verified: 100).
        verified: bool,
    },
    /// A pre-data score for a project that has a systematic score this epoch (C10 ends there).
    PreDataWithSystematicScore,
    /// The bundle's human score differs from the recomputed one.
    ScoreDiffers {
        /// The bundle's, WAD points.
        #[serde(with = "crate::serde_dec::u256")]
        bundle: U256,
        /// Recomputed.
        #[serde(with = "crate::serde_dec::u256")]
        recomputed: U256,
    },
    /// The human record's leaf is not the score leaf of the project and its human score (C27).
    LeafMismatch,
    /// The project record's published score (its score leaf's value) is not the recomputed
    /// envelope score (C27).
    PublishedDiffers {
        /// The project record's `publishedWad`.
        #[serde(with = "crate::serde_dec::u256")]
        published: U256,
        /// Recomputed.
        #[serde(with = "crate::serde_dec::u256")]
        recomputed: U256,
    },
    /// The bundle's leaves build another root than the one it claims.
    RootDiffers {
        /// Rebuilt from the leaves.
        rebuilt: B256,
        /// Claimed by the bundle.
        claimed: B256,
    },
    /// The on-chain final root is not the one this bundle builds.
    OnchainRootDiffers {
        /// On chain.
        onchain: B256,
        /// Rebuilt.
        rebuilt: B256,
    },
    /// The score leaf's proof does not reach the on-chain root.
    ProofDoesNotReachChain,
}

/// The outcome of checking one project's human score in one epoch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct HumanCheck {
    /// The mode's numbers.
    pub detail: HumanDetail,
    /// Every graded thesis of the project, in submission order.
    pub rows: Vec<ThesisRow>,
    /// The bundle's human score (its published score, in its score leaf, C27), WAD points.
    #[serde(with = "crate::serde_dec::u256")]
    pub bundle_score: U256,
    /// The human score recomputed here, WAD points.
    #[serde(with = "crate::serde_dec::u256")]
    pub recomputed: U256,
    /// The project's score leaf of the human score (C27).
    pub leaf: B256,
    /// Its proof in the full epoch tree.
    pub proof: Vec<B256>,
    /// The root of the full epoch tree rebuilt from every leaf's values.
    pub full_root: B256,
    /// The on-chain final root, when the epoch is final.
    pub onchain_root: Option<B256>,
    /// The score leaf's proof reaches the on-chain final root.
    pub reaches_chain: bool,
    /// Why the bundle's human part is not trusted; empty when everything matches.
    pub findings: Vec<HumanFinding>,
}

impl HumanCheck {
    /// Everything matches and the leaf reaches an on-chain final root.
    pub fn verified(&self) -> bool {
        self.findings.is_empty() && self.reaches_chain
    }
}

fn chain_target(scored: Option<&[ScoredEvent]>, project: Address, t: &ThesisRecord) -> ChainTarget {
    let Some(events) = scored else {
        return ChainTarget::NotChecked;
    };
    // The score the grade names: its id, scorer, token and thesis hash must all be the chain's.
    match events.iter().find(|e| {
        e.score_id == t.score_id
            && e.scorer == t.scorer
            && e.token == project
            && e.thesis_hash == t.thesis_hash
    }) {
        None => ChainTarget::NotFound,
        Some(e) if e.target == t.target_score_wad => ChainTarget::Matches,
        Some(e) => ChainTarget::Differs(e.target),
    }
}

/// Checks `project`'s human score in `bundle`: `Ok(None)` when the bundle has none. `scored` are the
/// ScorerRegistry's `Scored` events (`None`: not read); `chain_verified` is the project's Verified
/// flag on chain (FeeLanes), checked against the one the pre-data replay used for its cap (C10).
///
/// # Errors
/// Unusable bundle data ([`CheckError`]): a bad verdict code, an envelope without any systematic
/// score, a recomputation that fails on out-of-range values.
pub fn check_human(
    bundle: &EpochBundle,
    project: Address,
    onchain_root: Option<B256>,
    scored: Option<&[ScoredEvent]>,
    chain_verified: Option<bool>,
) -> Result<Option<HumanCheck>, CheckError> {
    check_human_in(
        &BundleTree::new(bundle),
        project,
        onchain_root,
        scored,
        chain_verified,
    )
}

/// [`check_human`] on a bundle whose tree other checks share (built at most once, not once a
/// thesis).
///
/// # Errors
/// As [`check_human`].
pub fn check_human_in(
    tree: &BundleTree<'_>,
    project: Address,
    onchain_root: Option<B256>,
    scored: Option<&[ScoredEvent]>,
    chain_verified: Option<bool>,
) -> Result<Option<HumanCheck>, CheckError> {
    let bundle = tree.bundle();
    let Some(rec) = bundle.human.iter().find(|h| h.project == project) else {
        return Ok(None);
    };
    let theses: Vec<&ThesisRecord> = bundle
        .theses
        .iter()
        .filter(|t| t.project == project)
        .collect();
    let mut findings = Vec::new();
    let mut rows = Vec::with_capacity(theses.len());
    for t in &theses {
        let bad = |source| CheckError::InvalidVerdict {
            thesis: t.thesis_hash,
            source,
        };
        let verdict = Verdict::try_from(t.verdict).map_err(bad)?;
        let multiplier = verdict.multiplier_wad();
        let leaf = quality_leaf(&t.quality_leaf().map_err(bad)?);
        if t.leaf != leaf {
            findings.push(HumanFinding::QualityLeafMismatch {
                thesis: t.thesis_hash,
            });
        }
        let counts = match rec.mode {
            HumanMode::PreData => !(t.quality_wad * multiplier).is_zero(),
            HumanMode::Envelope => t.quality_wad >= COUNTING_QUALITY,
        };
        let chain = chain_target(scored, project, t);
        match chain {
            ChainTarget::Differs(c) => findings.push(HumanFinding::TargetDiffers {
                thesis: t.thesis_hash,
                chain: c,
                bundle: t.target_score_wad,
            }),
            ChainTarget::NotFound => findings.push(HumanFinding::ScoreNotOnChain {
                thesis: t.thesis_hash,
                score_id: t.score_id,
            }),
            _ => {}
        }
        let leaf_in_root = match onchain_root {
            Some(r) => Some(
                tree.root_and_proof(leaf)?
                    .1
                    .is_some_and(|p| process_proof(leaf, &p) == r),
            ),
            None => None,
        };
        if leaf_in_root == Some(false) {
            findings.push(HumanFinding::QualityLeafNotInRoot {
                thesis: t.thesis_hash,
            });
        }
        rows.push(ThesisRow {
            leaf_in_root,
            thesis_hash: t.thesis_hash,
            target: t.target_score_wad,
            quality: t.quality_wad,
            verdict,
            multiplier,
            counts,
            chain,
        });
    }
    let (detail, recomputed) = match rec.mode {
        HumanMode::Envelope => {
            let score_leaf_value = bundle
                .projects
                .iter()
                .find(|p| p.project == project)
                .map(|p| p.score_wad);
            let systematic = match (rec.systematic_wad, score_leaf_value) {
                (Some(s), Some(leaf)) => {
                    if s != leaf {
                        findings.push(HumanFinding::EnvelopeStartDiffers { envelope: s, leaf });
                    }
                    leaf
                }
                (None, Some(leaf)) => leaf,
                (Some(s), None) => {
                    findings.push(HumanFinding::EnvelopeWithoutScoreLeaf);
                    s
                }
                (None, None) => return Err(CheckError::EnvelopeWithoutSystematic),
            };
            let input: Vec<Thesis> = theses
                .iter()
                .zip(&rows)
                .map(|(t, r)| Thesis {
                    quality: t.quality_wad,
                    multiplier: r.multiplier,
                    submitted: t.target_score_wad / POINTS_PER_UNIT_U256,
                })
                .collect();
            let r = human_envelope(systematic / POINTS_PER_UNIT_U256, &input).map_err(|e| {
                CheckError::Recompute {
                    what: "envelope",
                    message: e.to_string(),
                }
            })?;
            if let Some(e) = rec.envelope_wad.filter(|e| *e != r.envelope) {
                findings.push(HumanFinding::EnvelopeDiffers {
                    bundle: e,
                    recomputed: r.envelope,
                });
            }
            if let Some(d) = rec.delta_wad.filter(|d| *d != r.delta) {
                findings.push(HumanFinding::DeltaDiffers {
                    bundle: d,
                    recomputed: r.delta,
                });
            }
            if let Some(n) = rec
                .counted
                .filter(|n| usize::try_from(*n).ok() != Some(r.counted))
            {
                findings.push(HumanFinding::CountedDiffers {
                    bundle: n,
                    recomputed: r.counted,
                });
            }
            (
                HumanDetail::Envelope {
                    systematic,
                    envelope: r.envelope,
                    delta: r.delta,
                    counted: r.counted,
                },
                r.score * POINTS_PER_UNIT_U256,
            )
        }
        HumanMode::PreData => {
            // The cap the bundle replayed with, checked against the chain's Verified flag.
            let verified = rec.verified.or(chain_verified).unwrap_or(false);
            if let (Some(b), Some(c)) = (rec.verified, chain_verified) {
                if b != c {
                    findings.push(HumanFinding::VerifiedDiffers {
                        bundle: b,
                        chain: c,
                    });
                }
            }
            let subs: Vec<PreDataSubmission> = theses
                .iter()
                .zip(&rows)
                .map(|(t, r)| PreDataSubmission {
                    target: t.target_score_wad,
                    quality: t.quality_wad,
                    multiplier: r.multiplier,
                })
                .collect();
            let path = pre_data_replay(&subs, verified).map_err(|e| CheckError::Recompute {
                what: "pre-data path",
                message: e.to_string(),
            })?;
            if rec.path.as_ref().is_some_and(|p| *p != path) {
                findings.push(HumanFinding::PathDiffers { verified });
            }
            if bundle.projects.iter().any(|p| p.project == project) {
                findings.push(HumanFinding::PreDataWithSystematicScore);
            }
            let last = path.last().copied().unwrap_or_default();
            (
                HumanDetail::PreData {
                    path,
                    verified,
                    cap: if verified {
                        CAP_VERIFIED_POINTS
                    } else {
                        CAP_UNVERIFIED_POINTS
                    },
                },
                last,
            )
        }
    };
    if recomputed != rec.score_wad {
        findings.push(HumanFinding::ScoreDiffers {
            bundle: rec.score_wad,
            recomputed,
        });
    }
    if rec.mode == HumanMode::Envelope {
        let published = bundle
            .projects
            .iter()
            .find(|p| p.project == project)
            .map(|p| p.published_wad);
        if let Some(published) = published.filter(|p| *p != recomputed) {
            findings.push(HumanFinding::PublishedDiffers {
                published,
                recomputed,
            });
        }
    }
    // C27: the human score is the project's published score, in its score leaf.
    let leaf = score_leaf(project, rec.score_wad);
    if rec.leaf != leaf {
        findings.push(HumanFinding::LeafMismatch);
    }
    let (full_root, proof) = tree.root_and_proof(leaf)?;
    let proof = proof.unwrap_or_default();
    if full_root != bundle.root {
        findings.push(HumanFinding::RootDiffers {
            rebuilt: full_root,
            claimed: bundle.root,
        });
    }
    let reaches_chain = onchain_root.is_some_and(|r| r == process_proof(leaf, &proof));
    if let Some(r) = onchain_root {
        if r != full_root {
            findings.push(HumanFinding::OnchainRootDiffers {
                onchain: r,
                rebuilt: full_root,
            });
        } else if !reaches_chain {
            findings.push(HumanFinding::ProofDoesNotReachChain);
        }
    }
    Ok(Some(HumanCheck {
        detail,
        rows,
        bundle_score: rec.score_wad,
        recomputed,
        leaf,
        proof,
        full_root,
        onchain_root,
        reaches_chain,
        findings,
    }))
}
