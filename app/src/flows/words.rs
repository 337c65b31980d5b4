//! The one place a flow's typed findings become words for people. Flows and core return findings as enum
//! variants; the views call these.

use super::score_findings::{HumanFlag, InputsFlag, PreviousFlag, PreviousTie, ScoreFlag};
use super::score_grades::GradeUnread;
use crate::fmt;
use alloy_primitives::U256;
use alloy_primitives::{B256, I256};
use eden_core::attest::ClaimOutcome;
use eden_core::check::{
    CountingFinding, CreatorFinding, HumanFinding, LaneState, LightFinding, ScoreFinding,
};
use eden_core::scoring::counting::{WhyCounts, WhyNot};

/// A score of `v` (WAD) as people read it: `"36.353658 points"`.
fn points(v: U256) -> String {
    format!("{} points", fmt::units(v, 18, 6))
}

/// Why a score's bundle is not trusted, in words.
pub fn score_flag(f: &ScoreFlag) -> String {
    match f {
        ScoreFlag::Score(f) => score_finding(f),
        ScoreFlag::Light(f) => light_finding(f),
        ScoreFlag::Approvals(e) => format!("the proposal's approvals break the committee's rule: {e}"),
        ScoreFlag::NotTheMembers(u) => match &u.recovered {
            Ok(who) => format!(
                "the approval in the name of {} was signed by {who}, and {} is not a contract that could approve otherwise",
                u.member, u.member
            ),
            Err(e) => format!(
                "the approval in the name of {} is not a signature ({e}), and {} is not a contract that could approve otherwise",
                u.member, u.member
            ),
        },
        ScoreFlag::SignedRootDiffers => {
            "the signed root differs from the root this bundle builds".into()
        }
        ScoreFlag::SignedInputsDiffer { signed, bundle } => format!(
            "the signed inputsRoot is {signed}, not the bundle's {bundle}: its inputs are not the ones signed"
        ),
        ScoreFlag::Previous(p) => previous_flag(p),
        ScoreFlag::Config(f) => format!("not the scoring configuration pinned on chain: {f}"),
        ScoreFlag::ConfigMissing(e) => {
            format!("the scoring configuration pinned on chain for this epoch is not published: {e}")
        }
        ScoreFlag::ConfigNotPinned(e) => format!("the published scoring configuration: {e}"),
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

/// A human-score finding in words.
pub fn human_finding(f: &HumanFinding) -> String {
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

/// A counting finding in words.
pub fn counting_finding(f: &CountingFinding) -> String {
    match f {
        CountingFinding::CutoffMissing => "the bundle does not say which block its theses were read at, though the chain has scores before its proposal".into(),
        CountingFinding::CutoffAfterProposal { cutoff, proposal } => format!("the theses were read at block {cutoff}, after the proposal's block {proposal}"),
        CountingFinding::CutoffStale { cutoff_time, proposal_time } => format!(
            "the theses were read at {}, more than a day before the proposal ({}): an old view of the chain",
            fmt::date_utc(*cutoff_time),
            fmt::date_utc(*proposal_time)
        ),
        CountingFinding::CutoffTimeWrong { published, chain } => format!("the bundle dates its cutoff block {}, the chain {}", fmt::date_utc(*published), fmt::date_utc(*chain)),
        CountingFinding::LeftPreDataDiffers => "the bundle's set of projects that left pre-data is not the previous epoch's with this cohort added".into(),
        CountingFinding::ThesisLeftOut { score_id } => format!("score #{score_id} counts but the bundle leaves it out"),
        CountingFinding::ThesisDoesNotCount { score_id, why } => format!(
            "score #{score_id} is in the bundle but does not count: {}",
            why.map_or("no such score on chain".to_string(), |w| why_not(&w))
        ),
        CountingFinding::ReplaysProjectThatLeftPreData { project } => format!("{} left pre-data with its first systematic score, yet the bundle replays it again", fmt::short_addr(&project.to_string())),
        CountingFinding::PreDataWithoutScore { project } => format!("{} is replayed as pre-data but has no score on chain", fmt::short_addr(&project.to_string())),
        CountingFinding::PreDataLeftOut { project } => format!("{} has scores and never had a systematic score, yet the bundle does not replay it", fmt::short_addr(&project.to_string())),
        CountingFinding::GradeNotInForce { score_id, field } => format!("score #{score_id}: the bundle's {field} is not the adjudicator's override in force"),
    }
}

/// Why a thesis counts, in words.
pub fn why_counts(w: &WhyCounts) -> String {
    match w {
        WhyCounts::Window { ends } => format!(
            "its scorer's latest, inside its 30-day window (to {})",
            fmt::day_utc(*ends)
        ),
        WhyCounts::PreDataReplay => "pre-data project: every score is replayed".into(),
    }
}

/// Why a thesis does not count, in words.
pub fn why_not(w: &WhyNot) -> String {
    match w {
        WhyNot::WindowEnded { ended } => {
            format!("its 30-day window ended {}", fmt::day_utc(*ended))
        }
        WhyNot::Replaced { by } => format!("replaced by the same scorer's score #{by}"),
        WhyNot::AfterCutoff => "scored after the epoch's cutoff".into(),
        WhyNot::ProjectNotInEpoch => {
            "the project left pre-data and has no systematic score this epoch".into()
        }
    }
}

/// Why a human score is not trusted, in words.
pub fn human_flag(f: &HumanFlag) -> String {
    match f {
        HumanFlag::Human(f) => human_finding(f),
        HumanFlag::Counting(f) => counting_finding(f),
        HumanFlag::CopyVerdict {
            thesis,
            bundle_verdict,
            bundle_matched,
            verdict,
            similarity_bps,
            matched,
        } => format!(
            "thesis {}: the bundle grades it {} (matching {}), but the copy check of its on-chain text against every earlier score gives {} ({} similar to {})",
            short(*thesis),
            eden_core::leaves::Verdict::name_of_code(*bundle_verdict),
            short(*bundle_matched),
            verdict.name(),
            fmt::percent_bps(*similarity_bps),
            short(*matched)
        ),
        HumanFlag::TargetsUnread(e) => {
            format!("the targets could not be checked against the ScorerRegistry: {e}")
        }
        HumanFlag::Signer(f) => score_flag(f),
    }
}

/// A creator-share finding in words.
pub fn creator_finding(f: &CreatorFinding) -> String {
    match f {
        CreatorFinding::ShareDiffers { chain, recomputed } => format!("FeeLanes.creatorShare is {chain}, the ramp recomputed from its parameters gives {recomputed}"),
        CreatorFinding::SplitDiffers => {
            "FeeLanes.previewSplit differs from the split recomputed here".into()
        }
    }
}

/// Where the selected epoch's score stands in FeeLanes, which records and pays only the latest final
/// epoch's score: the project's published score (C27), a pre-data one included.
pub fn epoch_note(epoch: u64, state: &LaneState) -> String {
    if state.latest_final != Some(epoch) {
        match state.latest_final {
            Some(l) => {
                format!(" (not the latest final epoch: FeeLanes pays only on epoch {l}'s score)")
            }
            None => " (once it is final and FeeLanes.updateScore records it)".into(),
        }
    } else if state.recorded && state.stored_epoch == epoch {
        " (the score FeeLanes holds)".into()
    } else {
        " (once FeeLanes.updateScore records it; until then FeeLanes pays the floor)".into()
    }
}

/// What FeeLanes pays on now, in words.
pub fn paid_now_note(state: &LaneState) -> String {
    match (state.recorded, state.latest_final) {
        (false, _) => " (no score recorded in FeeLanes yet: the floor)".into(),
        (true, Some(l)) if l == state.stored_epoch => format!(
            " at the score recorded from epoch {}: {} points",
            state.stored_epoch,
            crate::fmt::units(state.stored_score, 18, 5)
        ),
        (true, l) => format!(
            " (the score recorded from epoch {} is no longer the latest final epoch's{}: the floor until the latest is recorded)",
            state.stored_epoch,
            l.map_or(String::new(), |l| format!(", {l}"))
        ),
    }
}

/// A claim's outcome in words, with the class that colours it.
pub fn claim_outcome(o: &ClaimOutcome) -> (&'static str, String) {
    match o {
        ClaimOutcome::Used { value, refetched } => (
            "ok",
            format!(
                "used: {}{}",
                fmt::units_exact(*value, 0),
                if *refetched { " (re-fetched)" } else { "" }
            ),
        ),
        ClaimOutcome::Failed { why } => ("bad", format!("failed: {why}")),
        ClaimOutcome::Ignored { why } => ("muted", format!("not a claim: {why}")),
    }
}

/// Why a project's verified inputs are not trusted, in words.
pub fn inputs_flag(f: &InputsFlag) -> String {
    match f {
        InputsFlag::OtherEpoch { report, bundle } => {
            format!("the intake report is for epoch {report}, not {bundle}")
        }
        InputsFlag::OtherDeployment => {
            "the intake report's attestations are for another deployment".into()
        }
        InputsFlag::WindowStartDiffers {
            report,
            previous_epoch,
            proposed,
        } => format!(
            "the intake's window starts at {report}, but epoch {previous_epoch} was proposed at {proposed}: observations were taken over another window"
        ),
        InputsFlag::SnapshotAfterProposal { snapshot, proposed } => format!(
            "the intake's snapshot {snapshot} is after the epoch's proposal at {proposed}"
        ),
        InputsFlag::WindowUnread(e) => {
            format!("the intake's window could not be read from the registry: {e}")
        }
        InputsFlag::InputsDiffer => "re-run from the published attestations, the intake gives other inputs than the bundle's".into(),
        InputsFlag::CountsDiffer => {
            "the report's claim and failure counts differ from the re-run".into()
        }
    }
}

/// Why a grading record could not be re-derived, in words.
pub fn grade_unread(g: &GradeUnread) -> String {
    match g {
        GradeUnread::NoRecord => "the bundle names no grading record for this grade".into(),
        GradeUnread::Unpublished(e) => e.clone(),
        GradeUnread::NotOnChain => "no Scored event of this score on chain".into(),
        GradeUnread::ThesesUnread(e) => format!("the theses on chain could not be read: {e}"),
    }
}

/// Why a `claimTo` was not sent, in words.
pub fn claim_to_refusal(r: &super::claim::ClaimToRefusal) -> String {
    use super::claim::ClaimToRefusal;
    match r {
        ClaimToRefusal::DigestUnread(e) => format!("Reading the distributor's digest: {e}"),
        ClaimToRefusal::DigestDiffers => "The distributor's ClaimTo digest differs from the one computed here: nothing was signed.".into(),
        ClaimToRefusal::SignedAs { signer, account } => {
            format!("The wallet signed as {signer}, not as {account}: not sent.")
        }
        ClaimToRefusal::Signature(e) => format!("The wallet's signature: {e}"),
    }
}
