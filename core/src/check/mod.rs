//! Checking someone else's epoch against the chain (C5–C7, C9, C10, C17): the verifications the
//! Score page runs, in one place, so the app, the JavaScript API and native tools share them.
//!
//! Each check is pure: it takes a published bundle and the few values read from the chain (the
//! final root, the `Scored` events, FeeLanes' state) and returns a report whose findings are enum
//! variants, never words. Turning a report into words is the caller's job.
//!
//! | module | checks |
//! |---|---|
//! | [`tree`] | the full epoch tree rebuilt from every leaf's values (C5) |
//! | [`score`] | a project's systematic score: leaf, proof, root, the step-by-step recomputation (C1–C5) |
//! | [`human`] | a project's human score: quality leaves, chain targets, the C9 envelope or the C10 replay |
//! | [`light`] | one project's light publications (C22): its leaves' proofs, its track's bounds proven against committed columns |
//! | [`counting`] | which theses an epoch took: the cutoff, the 30-day window, latest per scorer, pre-data ended for good, the grade in force (C9a, C9b, C10a) |
//! | [`grades`] | a proposed epoch's grades against their published grading records (C8) |
//! | [`epoch`] | a whole proposed epoch, as a watchtower checks it: every leaf, track, score, previous score, human record and public intake |
//! | [`creator`] | the creator share and fee split FeeLanes pays on (C17) |

pub mod counting;
pub mod creator;
pub mod epoch;
pub mod grades;
pub mod human;
pub mod light;
pub mod score;
pub mod tree;

pub use counting::{
    check_counting, check_project_counting, overridden_ids, CountingChain, CountingFinding,
    CountingRow, PreviousLeft, ProjectCounting,
};
pub use creator::{check_creator, CreatorCheck, CreatorFinding, LaneParams, LaneState};
pub use epoch::{
    audit_epoch, audit_intake, public_submissions, take_public_submissions, verified_findings,
    EpochAudit, EpochFinding, IntakeAnchor, LeafKind, Previous, PreviousFinal, Proposal,
    TrackFault,
};
pub use grades::{audit_grades, PublishedGrade};
pub use human::{
    check_human, check_human_in, ChainTarget, HumanCheck, HumanDetail, HumanFinding, ScoredEvent,
    ThesisRow,
};
pub use light::{
    build_packs, project_pack_path, track_pack_path, LightFinding, LightProofs, Packs, ProjectPack,
    TrackPack,
};
pub use score::{
    check_score, check_score_in, parse_own_inputs, InvalidInputsFile, OwnInputs, ScoreCheck,
    ScoreFinding,
};
pub use tree::{full_tree, BundleTree, CheckError};

#[cfg(test)]
mod tests;
