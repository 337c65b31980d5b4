//! The one place a flow's typed findings become words for people. Flows and core return findings as enum
//! variants; the views call these.

use super::score_findings::{PreviousFlag, PreviousTie, ScoreFlag};
use crate::fmt;
use alloy_primitives::U256;
use eden_core::check::{LightFinding, ScoreFinding};

/// A score of `v` (WAD) as people read it: `"36.353658 points"`.
fn points(v: U256) -> String {
    format!("{} points", fmt::units(v, 18, 6))
}

/// Why a score's bundle is not trusted, in words.
pub fn score_flag(f: &ScoreFlag) -> String {
    match f {
        ScoreFlag::Score(f) => score_finding(f),
        ScoreFlag::Light(f) => light_finding(f),
        ScoreFlag::SignedBy {
            signer,
            registry_signer,
        } => format!("the root was signed by {signer}, not by the registry's signer {registry_signer}"),
        ScoreFlag::SignedRootDiffers => {
            "the signed root differs from the root this bundle builds".into()
        }
        ScoreFlag::SignedInputsDiffer { signed, bundle } => format!(
            "the signed inputsRoot is {signed}, not the bundle's {bundle}: its inputs are not the ones signed"
        ),
        ScoreFlag::Previous(p) => previous_flag(p),
    }
}

/// A systematic-score finding (core's) in words.
pub fn score_finding(f: &ScoreFinding) -> String {
    match f {
        ScoreFinding::RootDiffers { rebuilt, claimed } => format!(
            "the bundle's leaves build root {rebuilt}, not the root {claimed} the bundle claims"
        ),
        ScoreFinding::LeafMismatch => {
            "the project's leaf in the bundle does not hash from its address and score".into()
        }
        ScoreFinding::OnchainRootDiffers { onchain, rebuilt } => format!("the on-chain final root is {onchain}; this bundle builds {rebuilt}: the bundle was changed after it was committed"),
        ScoreFinding::ProofDoesNotReachChain => {
            "the project's proof does not reach the on-chain root".into()
        }
        ScoreFinding::RecomputeDiffers {
            step,
            from_own_file,
        } => format!(
            "recomputing from {} differs first at step '{}'",
            if *from_own_file {
                "your inputs file"
            } else {
                "the public inputs"
            },
            step.name()
        ),
    }
}

/// A light publication's finding (core's) in words.
pub fn light_finding(f: &LightFinding) -> String {
    match f {
        LightFinding::TrackPackDiffers => {
            "the track's light pack is for another epoch or root than the project's".into()
        }
        LightFinding::BoundUnproven { feature, why } => format!(
            "feature {feature}'s normalisation bound is not proven against the committed column: {why}"
        ),
        LightFinding::CutoffUnproven => {
            "the block the epoch's theses were read at is not the one committed in its inputsRoot".into()
        }
    }
}

/// C4 not tied to the chain, in words.
pub fn previous_flag(f: &PreviousFlag) -> String {
    match f {
        PreviousFlag::NoEpochNamed { previous } => format!(
            "the bundle smooths from a previous score of {} but names no previous epoch, so it cannot be tied to a leaf",
            points(*previous)
        ),
        PreviousFlag::NotFinal { epoch, error } => {
            format!("the previous epoch {epoch} the bundle names is not final on chain ({error})")
        }
        PreviousFlag::LeafDiffers {
            previous,
            leaf,
            epoch,
        } => format!(
            "the bundle smooths from a previous score of {}, but the project's leaf in final epoch {epoch} is {}",
            points(*previous),
            points(*leaf)
        ),
        PreviousFlag::LeafUnproven { epoch } => format!(
            "the project's published leaf in epoch {epoch} does not reach that epoch's final root"
        ),
        PreviousFlag::NoLeaf { previous, epoch } => format!(
            "the bundle smooths from a previous score of {}, but final epoch {epoch} publishes no leaf for the project",
            points(*previous)
        ),
        PreviousFlag::Unreadable { epoch, error } => format!(
            "the previous score is not tied to final epoch {epoch}: its publication could not be read ({error})"
        ),
    }
}

/// C4 tied to the chain, in words.
pub fn previous_tie(t: &PreviousTie) -> String {
    match t {
        PreviousTie::NoEpoch => "0 (the bundle names no previous final epoch)".into(),
        PreviousTie::NoLeaf { epoch } => {
            format!("0 (final epoch {epoch} publishes no leaf for the project)")
        }
        PreviousTie::Leaf { score, epoch } => {
            format!("{} = its leaf in final epoch {epoch} ✓", points(*score))
        }
    }
}
