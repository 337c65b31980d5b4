//! A whole proposed epoch checked against its proposal (C4–C10, C21, C22, C24): what a watchtower runs on
//! a pending root before its 72 h window closes (`eden watch`), so that anyone with a laptop can hold the
//! signer to the rules.
//!
//! [`audit_epoch`] takes the published bundle, the proposal as the registry's `RootProposed` event states it,
//! and the previous final epoch's bundle (when the bundle names one), and checks, in this order:
//!
//! 1. the publication is of the proposed epoch, root and inputs root;
//! 2. projects are in strictly increasing address order (one record each);
//! 3. every leaf hashes from its values (score, quality, human), and all of them rebuild the root;
//! 4. every track: a valid configuration, its cohort size, and its bounds: reference bounds under 20
//!    projects, else each feature's column rebuilt from the public inputs and the published private values
//!    gives the committed column root and the bounds (C22);
//! 5. the inputs tree (every commitment, a public one recomputed from its inputs, and the column
//!    commitments) rebuilds the inputs root;
//! 6. every public project's score recomputed from its inputs, step by step (as
//!    [`verify_project_score`](crate::scoring::verify_project_score), without its per-project tree);
//! 7. each record's previous score is the previous final epoch's published score (0 when absent, C4);
//! 8. the human layer (C9 envelopes, C10 pre-data replays) recomputed from the theses and the systematic
//!    scores gives the published theses and human records.
//!
//! [`audit_intake`] then re-runs every public project's intake (C21) from the published intake report with
//! the chain's source keys, as [`recheck_project`](crate::attest::recheck_project) does for one project,
//! in one pass over the cohort; the attestation signatures are recovered beforehand
//! ([`public_submissions`], [`crate::attest::recover_signers`]) so a caller can time them apart and recover
//! them on every core.
//!
//! A finding names the first wrong record and why; findings are capped at [`MAX_FINDINGS`] (the rest are
//! counted), so a wholly wrong publication still gives a short report.

use crate::attest::{attestation_domain, Cohort, IntakeParams, IntakeReport, KeyBook, Submission};
use crate::eip712::SignatureError;
use crate::leaves::{quality_leaf, systematic_leaf};
use crate::scoring::bundle::ProjectRecord;
use crate::scoring::bundle::{HumanMode, PreDataProject};
use crate::scoring::columns::column_root;
use crate::scoring::epoch::{
    encode_commitment, inputs_tag, normalise_into, normalised_digest, score_steps, PreparedTrack,
    Steps,
};
use crate::scoring::human_layer::build_human_layer;
use crate::scoring::normalise::{Bounds, BoundsSource, N_MIN};
use crate::scoring::smooth::unit_from_points;
use crate::scoring::verify::{verify_record, Anchors};
use crate::scoring::{tree, EpochBundle, TrackConfig, VerifyStep};
use alloy_primitives::{keccak256, Address, B256, U256};
use serde::Serialize;
use std::collections::{HashMap, HashSet};

/// At most this many findings are listed; the rest are counted in [`EpochAudit::omitted`].
pub const MAX_FINDINGS: usize = 64;

/// What the registry's `RootProposed` event commits for an epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Proposal {
    /// Epoch.
    pub epoch: u64,
    /// Proposed root.
    pub root: B256,
    /// Proposed inputs root.
    pub inputs_root: B256,
}

/// The previous final epoch as the chain holds it, with its published bundle.
#[derive(Debug, Clone, Copy)]
pub struct PreviousFinal<'a> {
    /// Its epoch number.
    pub epoch: u64,
    /// Its final root (`EpochRegistry.finalRoot`).
    pub root: B256,
    /// Its bundle (checked here to build `root`'s score leaves).
    pub bundle: &'a EpochBundle,
}

/// What the chain says the bundle's previous scores (C4) must come from: the latest epoch that was final
/// when this one was proposed.
#[derive(Debug, Clone, Copy)]
pub enum Previous<'a> {
    /// No epoch was final: every previous score is 0 and no previous epoch is named.
    NoFinalEpoch,
    /// This final epoch, with its bundle.
    Final(PreviousFinal<'a>),
    /// This final epoch, whose bundle could not be read: the named epoch is checked, the scores are not.
    Unavailable {
        /// The epoch.
        epoch: u64,
    },
}

/// Which kind of leaf.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum LeafKind {
    /// `(address, uint256)` score leaf.
    Score,
    /// A graded thesis's quality leaf.
    Quality,
    /// A human record's score leaf (C27: the project's published score).
    Human,
    /// A project's systematic leaf (C27: present exactly when its published score is the envelope's).
    Systematic,
}

/// Why a track record is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "fault"
)]
pub enum TrackFault {
    /// Two tracks of the same name.
    Duplicate,
    /// The configuration is not valid.
    InvalidConfig {
        /// Why.
        why: String,
    },
    /// The published cohort size is not the number of projects in the track.
    CohortSize {
        /// Published.
        published: u64,
        /// Counted.
        counted: u64,
    },
    /// Not one bound per feature.
    BoundsCount {
        /// Bounds published.
        bounds: usize,
        /// Features.
        features: usize,
    },
    /// A cohort under 20 projects must use its reference bounds.
    NotReferenceBounds {
        /// Feature index.
        feature: u64,
    },
    /// A cohort of 20 or more lacks this feature's column commitment (or has it twice, or out of order).
    ColumnMissing {
        /// Feature index.
        feature: u64,
    },
    /// The private values published are not one per private project of the track.
    PrivateValues {
        /// Feature index.
        feature: u64,
        /// Published.
        published: usize,
        /// Private projects in the track.
        private: usize,
    },
    /// The column rebuilt from the public inputs and the private values differs from the commitment.
    ColumnDiffers {
        /// Feature index.
        feature: u64,
        /// Rebuilt.
        rebuilt: B256,
        /// Committed.
        published: B256,
    },
    /// The bounds are not the column's P5/P95.
    BoundsDiffer {
        /// Feature index.
        feature: u64,
    },
}

/// Something wrong with a proposed epoch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "kind"
)]
pub enum EpochFinding {
    /// The publication is of another epoch.
    EpochDiffers {
        /// Published.
        published: u64,
        /// Proposed.
        proposed: u64,
    },
    /// The publication claims another root than the one proposed.
    RootNotProposed {
        /// Published.
        published: B256,
        /// Proposed.
        proposed: B256,
    },
    /// The publication claims another inputs root than the one proposed.
    InputsRootNotProposed {
        /// Published.
        published: B256,
        /// Proposed.
        proposed: B256,
    },
    /// Records out of address order or duplicated.
    ProjectOrder {
        /// Index of the record.
        index: usize,
        /// Its project.
        project: Address,
    },
    /// A published leaf hash is not the hash of its values.
    LeafDiffers {
        /// Kind.
        leaf: LeafKind,
        /// Index in its list.
        index: usize,
        /// Published.
        published: B256,
        /// Hashed from the values.
        recomputed: B256,
    },
    /// A project record's published score is not the one C27 names: its envelope human record's
    /// score when it has one, else its systematic score.
    PublishedDiffers {
        /// Index in the projects.
        index: usize,
        /// The project.
        project: Address,
        /// Published (`publishedWad`).
        published: U256,
        /// What C27 names.
        expected: U256,
    },
    /// A thesis's verdict code is not 0–3.
    InvalidVerdict {
        /// Index in the theses.
        index: usize,
    },
    /// Every leaf recomputed from its values rebuilds another root.
    RootDiffers {
        /// Rebuilt.
        rebuilt: B256,
        /// Published.
        published: B256,
    },
    /// The commitments and column commitments rebuild another inputs root.
    InputsRootDiffers {
        /// Rebuilt.
        rebuilt: B256,
        /// Published.
        published: B256,
    },
    /// A track record is wrong.
    TrackDiffers {
        /// The track.
        track: String,
        /// Why.
        why: TrackFault,
    },
    /// A project names a track the bundle does not describe.
    UnknownTrack {
        /// The project.
        project: Address,
        /// Its track.
        track: String,
    },
    /// A public record without its inputs, or a private one with them.
    InputsPublication {
        /// The project.
        project: Address,
        /// Whether the record says private.
        private: bool,
    },
    /// A public project's score recomputed from its inputs differs, first at `step`.
    ScoreDiffers {
        /// The project.
        project: Address,
        /// First differing step.
        step: VerifyStep,
        /// The bundle's value there.
        published: String,
        /// The recomputed value.
        recomputed: String,
    },
    /// The bundle names another previous epoch than the chain's (C4).
    PreviousEpochDiffers {
        /// Named by the bundle.
        named: Option<u64>,
        /// The previous final epoch given.
        previous_final: Option<u64>,
    },
    /// The previous bundle given does not build the previous final root: nothing about s(t-1) can be
    /// checked with it.
    PreviousBundleWrong {
        /// Its root.
        published: B256,
        /// The final root.
        final_root: B256,
    },
    /// A record's previous score is not the previous final epoch's published score (C4).
    PreviousScoreDiffers {
        /// The project.
        project: Address,
        /// The record's.
        published: U256,
        /// The previous final epoch's (0 when it had none).
        previous_final: U256,
    },
    /// The human layer cannot be rebuilt from the published theses (a rule of C8–C10 is broken).
    HumanLayerInvalid {
        /// Why.
        why: String,
    },
    /// A published thesis record differs from the one recomputed.
    ThesisDiffers {
        /// Index.
        index: usize,
    },
    /// A project's human record differs from the one recomputed (or is missing, or extra).
    HumanDiffers {
        /// The project.
        project: Address,
    },
    /// A pre-data project's Verified flag (its C10 cap) is not the adjudicator's badge on chain
    /// (`FeeLanes.verified` at the proposal's block, §4.4).
    VerifiedDiffers {
        /// The project.
        project: Address,
        /// The bundle's flag.
        published: bool,
        /// The chain's.
        chain: bool,
    },
    /// The intake report is not the one of this epoch and deployment.
    IntakeReportDiffers {
        /// The field.
        field: &'static str,
        /// The report's value.
        published: String,
        /// The expected value.
        expected: String,
    },
    /// A public project of the bundle is not a public project of the intake report.
    IntakeMissing {
        /// The project.
        project: Address,
    },
    /// The intake cannot be re-run at all (configuration, tracks, duplicated submissions).
    IntakeInvalid {
        /// Why.
        why: String,
    },
    /// Re-running a project's intake gives other inputs than the bundle publishes (an attestation that does
    /// not recover to a registered key is one cause), or other claim and failure counts than the report
    /// states.
    IntakeDiffers {
        /// The project.
        project: Address,
        /// `"inputs"` or `"counts"`.
        what: &'static str,
    },
    /// A graded thesis names no grading record (C8: every grade rests on one).
    GradeRecordMissing {
        /// The score.
        #[serde(with = "crate::serde_dec::u256")]
        score_id: U256,
    },
    /// A graded thesis's record, its configuration or a snapshot is not published as named.
    GradeRecordUnavailable {
        /// The score.
        #[serde(with = "crate::serde_dec::u256")]
        score_id: U256,
        /// The record's hash.
        record: B256,
        /// Why.
        why: String,
    },
    /// The bundle's grade is not the one its record gives (the first differing field).
    GradeDiffersFromRecord {
        /// The score.
        #[serde(with = "crate::serde_dec::u256")]
        score_id: U256,
        /// The field.
        field: &'static str,
    },
    /// The record does not re-check against the chain's theses and its snapshots.
    GradeRecordWrong {
        /// The score.
        #[serde(with = "crate::serde_dec::u256")]
        score_id: U256,
        /// What the re-check found.
        finding: crate::scoring::grade_record::RecordFinding,
    },
    /// The theses the epoch took are not the ones that count (C9a, C9b, C10a).
    Counting {
        /// What [`super::counting::check_counting`] found.
        finding: super::counting::CountingFinding,
    },
    /// A track differs from the scoring configuration pinned on chain for the epoch (C2a).
    Config {
        /// What [`crate::scoring::pinned::check_tracks`] found.
        finding: crate::scoring::pinned::PinFinding,
    },
}

/// The outcome of an epoch audit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EpochAudit {
    /// Epoch.
    pub epoch: u64,
    /// The proposed root.
    pub root: B256,
    /// Score records.
    pub projects: usize,
    /// Public projects whose score was recomputed from their inputs.
    pub recomputed: usize,
    /// Theses.
    pub theses: usize,
    /// Human records.
    pub human: usize,
    /// What is wrong, the first wrong record first; empty when the epoch is correct.
    pub findings: Vec<EpochFinding>,
    /// Findings beyond [`MAX_FINDINGS`], not listed.
    pub omitted: usize,
}

impl EpochAudit {
    /// True when nothing is wrong.
    pub fn is_correct(&self) -> bool {
        self.findings.is_empty()
    }

    fn push(&mut self, f: EpochFinding) {
        if self.findings.len() < MAX_FINDINGS {
            self.findings.push(f);
        } else {
            self.omitted += 1;
        }
    }

    /// Adds findings of a later pass (the intake's).
    pub fn extend(&mut self, more: impl IntoIterator<Item = EpochFinding>) {
        for f in more {
            self.push(f);
        }
    }
}

/// §4.4, C10: every pre-data human record's Verified flag (its replay cap, 50 or 100) against the
/// adjudicator's badge on chain, `chain_verified(project)` (`FeeLanes.verified` at the proposal's
/// block; `None` when the deployment has no `FeeLanes`, then nothing is compared). An operator who
/// lifts a project's cap without the badge is caught here.
pub fn verified_findings(
    bundle: &EpochBundle,
    chain_verified: impl Fn(Address) -> Option<bool>,
) -> Vec<EpochFinding> {
    bundle
        .human
        .iter()
        .filter_map(|h| {
            let published = h.verified?;
            let chain = chain_verified(h.project)?;
            (published != chain).then_some(EpochFinding::VerifiedDiffers {
                project: h.project,
                published,
                chain,
            })
        })
        .collect()
}

/// Checks a whole published epoch against its proposal (steps 1–8 of the module doc). `previous` is what the
/// chain says its previous scores come from.
pub fn audit_epoch(
    bundle: &EpochBundle,
    proposal: &Proposal,
    previous: Previous<'_>,
) -> EpochAudit {
    let mut a = EpochAudit {
        epoch: proposal.epoch,
        root: proposal.root,
        projects: bundle.projects.len(),
        recomputed: 0,
        theses: bundle.theses.len(),
        human: bundle.human.len(),
        findings: Vec::new(),
        omitted: 0,
    };
    // 1. the proposal
    if bundle.epoch != proposal.epoch {
        a.push(EpochFinding::EpochDiffers {
            published: bundle.epoch,
            proposed: proposal.epoch,
        });
    }
    if bundle.root != proposal.root {
        a.push(EpochFinding::RootNotProposed {
            published: bundle.root,
            proposed: proposal.root,
        });
    }
    if bundle.inputs_root != proposal.inputs_root {
        a.push(EpochFinding::InputsRootNotProposed {
            published: bundle.inputs_root,
            proposed: proposal.inputs_root,
        });
    }
    // 2. order
    let mut ordered = true;
    for (i, w) in bundle.projects.windows(2).enumerate() {
        if w[0].project >= w[1].project {
            ordered = false;
            a.push(EpochFinding::ProjectOrder {
                index: i + 1,
                project: w[1].project,
            });
        }
    }
    // 3. leaves and root
    leaves_and_root(bundle, &mut a);
    // 4. tracks
    let tracks_ok = tracks(bundle, &mut a);
    // 5. inputs root
    inputs_root(bundle, &mut a);
    // 6. every public score
    a.recomputed = scores(bundle, &tracks_ok, &mut a);
    // 7. previous scores
    previous_scores(bundle, previous, &mut a);
    // 8. human layer (it looks records up by address, so it needs the order)
    if ordered {
        human_layer(bundle, &mut a);
    }
    a
}

fn leaves_and_root(bundle: &EpochBundle, a: &mut EpochAudit) {
    let mut leaves =
        Vec::with_capacity(bundle.projects.len() + bundle.theses.len() + bundle.human.len());
    let score_leaves = crate::par::map_init(
        &bundle.projects,
        || (),
        |_, p| tree::score_leaf(p.project, p.published_wad),
    );
    for ((i, p), leaf) in bundle.projects.iter().enumerate().zip(score_leaves) {
        // C27: the published score is the envelope's where the epoch grades theses on the project.
        let moved = bundle.envelope_score(p.project);
        let systematic = moved.map(|_| systematic_leaf(p.project, p.score_wad));
        if p.systematic_leaf != systematic {
            a.push(EpochFinding::LeafDiffers {
                leaf: LeafKind::Systematic,
                index: i,
                published: p.systematic_leaf.unwrap_or_default(),
                recomputed: systematic.unwrap_or_default(),
            });
        }
        leaves.extend(systematic);
        let expected = moved.unwrap_or(p.score_wad);
        if p.published_wad != expected {
            a.push(EpochFinding::PublishedDiffers {
                index: i,
                project: p.project,
                published: p.published_wad,
                expected,
            });
        }
        if leaf != p.leaf {
            a.push(EpochFinding::LeafDiffers {
                leaf: LeafKind::Score,
                index: i,
                published: p.leaf,
                recomputed: leaf,
            });
        }
        leaves.push(leaf);
    }
    for (i, t) in bundle.theses.iter().enumerate() {
        match t.quality_leaf() {
            Ok(q) => {
                let leaf = quality_leaf(&q);
                if leaf != t.leaf {
                    a.push(EpochFinding::LeafDiffers {
                        leaf: LeafKind::Quality,
                        index: i,
                        published: t.leaf,
                        recomputed: leaf,
                    });
                }
                leaves.push(leaf);
            }
            Err(_) => {
                a.push(EpochFinding::InvalidVerdict { index: i });
                leaves.push(t.leaf);
            }
        }
    }
    for (i, h) in bundle.human.iter().enumerate() {
        let leaf = tree::score_leaf(h.project, h.score_wad);
        if leaf != h.leaf {
            a.push(EpochFinding::LeafDiffers {
                leaf: LeafKind::Human,
                index: i,
                published: h.leaf,
                recomputed: leaf,
            });
        }
        // An envelope project's score leaf is its project record's (in the tree once).
        if h.mode == HumanMode::PreData {
            leaves.push(leaf);
        }
    }
    let rebuilt = tree::root(leaves).unwrap_or(B256::ZERO);
    if rebuilt != bundle.root {
        a.push(EpochFinding::RootDiffers {
            rebuilt,
            published: bundle.root,
        });
    }
}

/// Checks every track; returns, per track in bundle order, whether its bounds can be trusted for
/// recomputing scores.
fn tracks(bundle: &EpochBundle, a: &mut EpochAudit) -> Vec<bool> {
    let mut ok = Vec::with_capacity(bundle.tracks.len());
    for (t, tr) in bundle.tracks.iter().enumerate() {
        let name = &tr.config.name;
        let fault = |a: &mut EpochAudit, why: TrackFault| {
            a.push(EpochFinding::TrackDiffers {
                track: name.clone(),
                why,
            })
        };
        if bundle.tracks[..t].iter().any(|u| &u.config.name == name) {
            fault(a, TrackFault::Duplicate);
            ok.push(false);
            continue;
        }
        if let Err(e) = tr.config.validate() {
            fault(a, TrackFault::InvalidConfig { why: e.to_string() });
            ok.push(false);
            continue;
        }
        let members: Vec<&ProjectRecord> = bundle
            .projects
            .iter()
            .filter(|p| &p.track == name)
            .collect();
        let counted = members.len() as u64;
        let mut good = true;
        if tr.cohort_size != counted {
            fault(
                a,
                TrackFault::CohortSize {
                    published: tr.cohort_size,
                    counted,
                },
            );
            good = false;
        }
        let features = &tr.config.features;
        if tr.bounds.len() != features.len() {
            fault(
                a,
                TrackFault::BoundsCount {
                    bounds: tr.bounds.len(),
                    features: features.len(),
                },
            );
            ok.push(false);
            continue;
        }
        if (counted as usize) < N_MIN {
            for (f, (b, feat)) in tr.bounds.iter().zip(features).enumerate() {
                let reference = b.source == BoundsSource::Reference
                    && b.lo == feat.ref_lo
                    && b.hi == feat.ref_hi;
                if !reference {
                    fault(a, TrackFault::NotReferenceBounds { feature: f as u64 });
                    good = false;
                }
            }
            ok.push(good);
            continue;
        }
        let private = members.iter().filter(|p| p.private).count();
        // Each feature's column rebuilt (on every core with `native`).
        let features_idx: Vec<usize> = (0..features.len()).collect();
        let faults = crate::par::map_init(&features_idx, Vec::new, |column, &f| {
            column_fault(tr, &members, private, f, column)
        });
        for why in faults.into_iter().flatten() {
            fault(a, why);
            good = false;
        }
        // Columns must be exactly one per feature, in feature order (the inputs tree commits them so).
        if tr.columns.len() != features.len()
            || tr
                .columns
                .iter()
                .enumerate()
                .any(|(f, c)| c.feature != f as u64)
        {
            if good {
                fault(
                    a,
                    TrackFault::ColumnMissing {
                        feature: tr.columns.len() as u64,
                    },
                );
            }
            good = false;
        }
        ok.push(good);
    }
    ok
}

/// Feature `f`'s column commitment checked against the public inputs and the published private values
/// (C22): `None` when it rebuilds and gives the bounds.
fn column_fault(
    tr: &crate::scoring::bundle::TrackRecord,
    members: &[&ProjectRecord],
    private: usize,
    f: usize,
    column: &mut Vec<U256>,
) -> Option<TrackFault> {
    let fi = f as u64;
    let (b, feat) = (&tr.bounds[f], &tr.config.features[f]);
    let mut col = tr.columns.iter().filter(|c| c.feature == fi);
    let (Some(c), None) = (col.next(), col.next()) else {
        return Some(TrackFault::ColumnMissing { feature: fi });
    };
    let counted = members.len() as u64;
    if c.private_values.len() != private || c.n != counted {
        return Some(TrackFault::PrivateValues {
            feature: fi,
            published: c.private_values.len(),
            private,
        });
    }
    column.clear();
    // A public record without inputs is reported in step 6; its value is unknown here.
    column.extend(
        members
            .iter()
            .filter(|p| !p.private)
            .filter_map(|p| p.inputs.as_ref().and_then(|d| d.features.get(f).copied())),
    );
    column.extend_from_slice(&c.private_values);
    column.sort_unstable();
    let rebuilt = column_root(column);
    if column.len() != members.len() || rebuilt != c.root {
        return Some(TrackFault::ColumnDiffers {
            feature: fi,
            rebuilt,
            published: c.root,
        });
    }
    (Bounds::for_sorted_column(column, feat.ref_lo, feat.ref_hi) != *b)
        .then_some(TrackFault::BoundsDiffer { feature: fi })
}

fn inputs_root(bundle: &EpochBundle, a: &mut EpochAudit) {
    // Public commitments are recomputed in step 6 (a wrong one is a `commitment` step there); here the
    // tree of the published commitments and columns must give the published inputs root.
    let mut leaves: Vec<B256> = crate::par::map_init(
        &bundle.projects,
        || (),
        |_, p| tree::inputs_leaf(p.project, p.commitment),
    );
    leaves.extend(bundle.inputs_extra_leaves());
    let rebuilt = tree::root(leaves).unwrap_or(B256::ZERO);
    if rebuilt != bundle.inputs_root {
        a.push(EpochFinding::InputsRootDiffers {
            rebuilt,
            published: bundle.inputs_root,
        });
    }
}

/// Step 6: every public project recomputed (on every core with `native`); returns how many.
fn scores(bundle: &EpochBundle, tracks_ok: &[bool], a: &mut EpochAudit) -> usize {
    let prepared: Vec<Option<PreparedTrack>> = bundle
        .tracks
        .iter()
        .zip(tracks_ok)
        .map(|(t, ok)| ok.then(|| PreparedTrack::new(&t.config)))
        .collect();
    let tag = inputs_tag();
    let outcomes = crate::par::map_init(
        &bundle.projects,
        || (Vec::<u128>::new(), Vec::<u8>::new()),
        |(xhat, buf), rec| -> Option<EpochFinding> {
            match (&rec.inputs, rec.private) {
                (None, true) => return None,
                (Some(_), true) | (None, false) => {
                    return Some(EpochFinding::InputsPublication {
                        project: rec.project,
                        private: rec.private,
                    })
                }
                (Some(_), false) => {}
            }
            let data = rec.inputs.as_ref()?;
            let Some(t) = bundle
                .tracks
                .iter()
                .position(|t| t.config.name == rec.track)
            else {
                return Some(EpochFinding::UnknownTrack {
                    project: rec.project,
                    track: rec.track.clone(),
                });
            };
            // A track whose bounds are wrong is reported once in step 4.
            let prepared = prepared[t].as_ref()?;
            let tr = &bundle.tracks[t];
            let fast = data.track == rec.track
                && data.features.len() == tr.bounds.len()
                && data.failed <= data.claims
                && {
                    let track_hash = keccak256(data.track.as_bytes());
                    encode_commitment(buf, &tag, rec.project, &track_hash, data, B256::ZERO);
                    keccak256(&buf[..]) == rec.commitment
                }
                && {
                    normalise_into(xhat, &data.features, &tr.bounds);
                    normalised_digest(buf, xhat) == rec.normalised_digest
                }
                // Every step, the published score included; that the record's leaf hashes from that score is
                // step 3's check.
                && unit_from_points(rec.previous_score_wad, "previousScoreWad").is_ok_and(|s| {
                    score_steps(prepared, data, xhat, s.saturating_to()) == steps_of(rec)
                });
            if fast {
                return None;
            }
            // Something differs: the step-by-step report names the first step.
            let anchors = Anchors {
                inputs_root: &|c: B256| (rec.commitment.to_string(), c.to_string()),
                root: &|leaf: B256| (rec.leaf.to_string(), leaf.to_string()),
            };
            let envelope = bundle.envelope_score(rec.project);
            let report = verify_record(
                rec,
                Some(tr),
                tr.cohort_size,
                data,
                B256::ZERO,
                envelope,
                &anchors,
            );
            let step = report.steps.iter().find(|s| !s.ok)?;
            Some(EpochFinding::ScoreDiffers {
                project: rec.project,
                step: step.step,
                published: step.expected.clone(),
                recomputed: step.computed.clone(),
            })
        },
    );
    let recomputed = bundle.projects.iter().filter(|p| !p.private).count();
    a.extend(outcomes.into_iter().flatten());
    recomputed
}

fn steps_of(rec: &ProjectRecord) -> Steps {
    let narrow = |x: U256| u128::try_from(x).unwrap_or(u128::MAX);
    Steps {
        weighted: narrow(rec.weighted_wad),
        penalty: narrow(rec.penalty_wad),
        raw: narrow(rec.raw_wad),
        merit: narrow(rec.merit_wad),
        gate: rec.gate,
        gated: narrow(rec.gated_wad),
        smoothed: narrow(rec.smoothed_wad),
        points: rec.score_wad,
    }
}

fn previous_scores(bundle: &EpochBundle, previous: Previous<'_>, a: &mut EpochAudit) {
    let named = bundle.previous_epoch;
    let prev = match previous {
        Previous::Final(p) => p,
        Previous::Unavailable { epoch } => {
            if named != Some(epoch) {
                a.push(EpochFinding::PreviousEpochDiffers {
                    named,
                    previous_final: Some(epoch),
                });
            }
            return;
        }
        Previous::NoFinalEpoch => {
            if named.is_some() {
                a.push(EpochFinding::PreviousEpochDiffers {
                    named,
                    previous_final: None,
                });
            }
            // Without a final epoch every project starts from 0 (C4).
            for p in &bundle.projects {
                if !p.previous_score_wad.is_zero() {
                    a.push(EpochFinding::PreviousScoreDiffers {
                        project: p.project,
                        published: p.previous_score_wad,
                        previous_final: U256::ZERO,
                    });
                }
            }
            return;
        }
    };
    if named != Some(prev.epoch) {
        a.push(EpochFinding::PreviousEpochDiffers {
            named,
            previous_final: Some(prev.epoch),
        });
    }
    // The previous bundle's score leaves must build its final root, else its scores prove nothing.
    let built = prev.bundle.recomputed_leaves().ok().and_then(tree::root);
    if prev.bundle.epoch != prev.epoch || built != Some(prev.root) {
        a.push(EpochFinding::PreviousBundleWrong {
            published: prev.bundle.root,
            final_root: prev.root,
        });
        return;
    }
    // C4, C27: smoothing starts from each project's systematic score `S` (its record, proven by its score
    // leaf or, where a human move set the published score, its systematic leaf), never from a published
    // human score; a pre-data project has no `S` and starts from 0.
    let mut before: Vec<(Address, U256)> = prev
        .bundle
        .projects
        .iter()
        .map(|r| (r.project, r.score_wad))
        .collect();
    before.sort_unstable_by_key(|p| p.0);
    for p in &bundle.projects {
        let want = before
            .binary_search_by_key(&p.project, |q| q.0)
            .map(|k| before[k].1)
            .unwrap_or(U256::ZERO);
        if p.previous_score_wad != want {
            a.push(EpochFinding::PreviousScoreDiffers {
                project: p.project,
                published: p.previous_score_wad,
                previous_final: want,
            });
        }
    }
}

fn human_layer(bundle: &EpochBundle, a: &mut EpochAudit) {
    if bundle.theses.is_empty() && bundle.human.is_empty() {
        return;
    }
    let mut theses = Vec::with_capacity(bundle.theses.len());
    for t in &bundle.theses {
        let Ok(g) = t.graded() else {
            return; // reported in step 3
        };
        theses.push(g);
    }
    let pre_data: Vec<PreDataProject> = bundle
        .human
        .iter()
        .filter(|h| h.mode == HumanMode::PreData)
        .map(|h| PreDataProject {
            project: h.project,
            verified: h.verified.unwrap_or(false),
        })
        .collect();
    let (thesis_records, human) = match build_human_layer(&theses, &pre_data, &bundle.projects) {
        Ok(x) => x,
        Err(e) => {
            a.push(EpochFinding::HumanLayerInvalid { why: e.to_string() });
            return;
        }
    };
    for (i, (got, want)) in bundle.theses.iter().zip(&thesis_records).enumerate() {
        if got != want {
            a.push(EpochFinding::ThesisDiffers { index: i });
        }
    }
    // Both lists by address: walk them together.
    let (mut i, mut j) = (0, 0);
    while i < bundle.human.len() || j < human.len() {
        let (p, q) = (bundle.human.get(i), human.get(j));
        match (p, q) {
            (Some(p), Some(q)) if p.project == q.project => {
                if p != q {
                    a.push(EpochFinding::HumanDiffers { project: p.project });
                }
                i += 1;
                j += 1;
            }
            (Some(p), Some(q)) if p.project < q.project => {
                a.push(EpochFinding::HumanDiffers { project: p.project });
                i += 1;
            }
            (Some(p), None) => {
                a.push(EpochFinding::HumanDiffers { project: p.project });
                i += 1;
            }
            (_, Some(q)) => {
                a.push(EpochFinding::HumanDiffers { project: q.project });
                j += 1;
            }
            (None, None) => break,
        }
    }
}

/// The intake report's public projects as submissions, in report order: what [`audit_intake`] re-runs.
/// Recover their signers with [`crate::attest::recover_signers`] (or in parallel, same shape).
pub fn public_submissions(report: &IntakeReport) -> Vec<Submission> {
    report
        .projects
        .iter()
        .filter(|p| !p.private)
        .map(|p| public_submission(p, p.attestations.clone()))
        .collect()
}

/// [`public_submissions`] without copying: the public projects' attestations are moved out of `report`
/// (left empty there), which [`audit_intake`] does not need again.
pub fn take_public_submissions(report: &mut IntakeReport) -> Vec<Submission> {
    report
        .projects
        .iter_mut()
        .filter(|p| !p.private)
        .map(|p| {
            let attestations = std::mem::take(&mut p.attestations);
            public_submission(p, attestations)
        })
        .collect()
}

/// A public project's submission as its report part states it.
fn public_submission(
    p: &crate::attest::ReportProject,
    attestations: Vec<crate::attest::SignedAttestation>,
) -> Submission {
    Submission {
        project: p.project,
        track: p.track.clone(),
        private: false,
        salt: B256::ZERO,
        attestations,
    }
}

/// Where the intake report must point: this deployment's chain and `SourceKeyRegistry`.
#[derive(Debug, Clone, Copy)]
pub struct IntakeAnchor {
    /// Chain id.
    pub chain_id: u64,
    /// The deployment's `SourceKeyRegistry`.
    pub source_key_registry: Address,
}

/// Re-runs every public project's intake from `report` (C21) with `keys` read from the chain, and compares
/// it with `bundle`'s public inputs and the report's counts. `subs` are [`public_submissions`]`(report)`
/// and `signers` their recovered signers (the attestations may have been moved out of `report` by
/// [`take_public_submissions`]).
pub fn audit_intake(
    report: &IntakeReport,
    subs: &[Submission],
    signers: &[Vec<Result<Address, SignatureError>>],
    bundle: &EpochBundle,
    anchor: IntakeAnchor,
    keys: &KeyBook,
) -> Vec<EpochFinding> {
    let mut out = Vec::new();
    let mut field = |field: &'static str, published: String, expected: String| {
        if published != expected {
            out.push(EpochFinding::IntakeReportDiffers {
                field,
                published,
                expected,
            });
        }
    };
    field("epoch", report.epoch.to_string(), bundle.epoch.to_string());
    field(
        "chainId",
        report.chain_id.to_string(),
        anchor.chain_id.to_string(),
    );
    field(
        "sourceKeyRegistry",
        report.source_key_registry.to_string(),
        anchor.source_key_registry.to_string(),
    );
    if !out.is_empty() {
        return out;
    }
    let tracks: Vec<TrackConfig> = bundle.tracks.iter().map(|t| t.config.clone()).collect();
    let public: Vec<&crate::attest::ReportProject> =
        report.projects.iter().filter(|p| !p.private).collect();
    let domain = attestation_domain(report.chain_id, report.source_key_registry);
    let params = IntakeParams {
        epoch: report.epoch,
        domain: &domain,
        window_start: report.window_start,
        snapshot: report.snapshot,
        tracks: &tracks,
        config: &report.config,
        keys,
    };
    if subs.len() != public.len()
        || subs
            .iter()
            .zip(&public)
            .any(|(s, p)| s.project != p.project)
    {
        out.push(EpochFinding::IntakeInvalid {
            why: "the submissions are not the report's public projects".into(),
        });
        return out;
    }
    let cohort = match Cohort::check(&params, subs, signers) {
        Ok(c) => c,
        Err(e) => {
            out.push(EpochFinding::IntakeInvalid { why: e.to_string() });
            return out;
        }
    };
    let records: HashMap<Address, &ProjectRecord> =
        bundle.projects.iter().map(|r| (r.project, r)).collect();
    let indices: Vec<usize> = (0..subs.len()).collect();
    // Each public project's intake re-run and compared (on every core with `native`).
    let compared = crate::par::map_init(
        &indices,
        || (),
        |_, &i| -> Option<EpochFinding> {
            let project = public[i].project;
            let rec = records.get(&project).filter(|r| !r.private)?;
            // The operator's re-fetched values, as the report states them (a watchtower may re-fetch to check).
            let got = cohort.take_input(i, public[i]);
            if rec.inputs.as_ref() != Some(&got.data) {
                Some(EpochFinding::IntakeDiffers {
                    project,
                    what: "inputs",
                })
            } else if !public[i].counts_match(&got.data) {
                Some(EpochFinding::IntakeDiffers {
                    project,
                    what: "counts",
                })
            } else {
                None
            }
        },
    );
    out.extend(compared.into_iter().flatten());
    let reported: HashSet<Address> = public.iter().map(|p| p.project).collect();
    for rec in bundle.projects.iter().filter(|r| !r.private) {
        if !reported.contains(&rec.project) {
            out.push(EpochFinding::IntakeMissing {
                project: rec.project,
            });
        }
    }
    out
}

#[cfg(test)]
#[path = "epoch_tests.rs"]
mod tests;
