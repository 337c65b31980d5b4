//! What the score's verification finds ([`super::verify_score`]), typed: said by [`super::words`].

use crate::chain::rpc::RpcError;
use crate::chain::world::WorldError;
use crate::error::AppError;
use alloy_primitives::{B256, U256};
use eden_core::check::{CountingFinding, HumanFinding, LightFinding, ScoreFinding};
use eden_core::committee::{ApprovalError, Unrecovered};
use eden_core::leaves::Verdict;
use eden_core::scoring::pinned::{PinError, PinFinding};

/// Why a score's bundle is not trusted (C1–C7, C22), each a variant; [`super::words::score_flag`] says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScoreFlag {
    /// Core's check of the systematic score.
    Score(ScoreFinding),
    /// Core's check of the light publication.
    Light(LightFinding),
    /// The proposal's approvals break the committee's rule (C7a): a non-member, a member twice, too few.
    Approvals(ApprovalError),
    /// An approval is not its member's signature, and the member is an account with a key (C7a): only a
    /// contract member may approve other than by its own key's signature.
    NotTheMembers(Unrecovered),
    /// The signed root is not the root the bundle builds.
    SignedRootDiffers,
    /// The signed inputsRoot is not the bundle's: its inputs are not the ones signed.
    SignedInputsDiffer {
        /// The inputsRoot signed.
        signed: B256,
        /// The bundle's.
        bundle: B256,
    },
    /// The previous score is not tied to the previous final epoch's leaf (C4).
    Previous(PreviousFlag),
    /// A track differs from the scoring configuration pinned on chain for the epoch (C2a).
    Config(PinFinding),
    /// The configuration pinned for the epoch is not published (C2a).
    ConfigMissing(WorldError),
    /// What is published under the pinned hash is not the pinned configuration (C2a).
    ConfigNotPinned(PinError),
}

/// C4 tied to the chain, when it holds: where the previous score the bundle smooths from comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PreviousTie {
    /// 0: the bundle names no previous final epoch.
    NoEpoch,
    /// 0: the previous final epoch publishes no leaf for the project.
    NoLeaf {
        /// The previous final epoch.
        epoch: u64,
    },
    /// The project's leaf in the previous final epoch, proven against its final root.
    Leaf {
        /// The leaf's score (WAD).
        score: U256,
        /// The previous final epoch.
        epoch: u64,
    },
}

/// C4 not tied to the chain: why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PreviousFlag {
    /// A previous score above 0 with no previous epoch named.
    NoEpochNamed {
        /// The previous score (WAD).
        previous: U256,
    },
    /// The previous epoch named is not final on chain.
    NotFinal {
        /// The epoch.
        epoch: u64,
        /// Why its final root could not be read.
        error: RpcError,
    },
    /// The project's leaf there is another score.
    LeafDiffers {
        /// The previous score the bundle smooths from (WAD).
        previous: U256,
        /// The leaf's score (WAD).
        leaf: U256,
        /// The epoch.
        epoch: u64,
    },
    /// The project's published leaf there does not reach that epoch's final root.
    LeafUnproven {
        /// The epoch.
        epoch: u64,
    },
    /// A previous score above 0, and no leaf for the project there.
    NoLeaf {
        /// The previous score (WAD).
        previous: U256,
        /// The epoch.
        epoch: u64,
    },
    /// Its publication could not be read, so the tie is unchecked.
    Unreadable {
        /// The epoch.
        epoch: u64,
        /// Why.
        error: WorldError,
    },
}

/// Why a project's human score is not trusted (C5, C8, C9, C9a–C10a), each a variant;
/// [`super::words::human_flag`] says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HumanFlag {
    /// Core's check of the human score.
    Human(HumanFinding),
    /// The bundle did not take exactly the theses that count on chain: the score was computed from the
    /// wrong list.
    Counting(CountingFinding),
    /// C8 in the chain's order: the copy check of the thesis's on-chain text against every earlier one
    /// gives another verdict or match than the bundle's.
    CopyVerdict {
        /// The thesis.
        thesis: B256,
        /// The bundle's verdict code.
        bundle_verdict: u8,
        /// The thesis the bundle says it matches.
        bundle_matched: B256,
        /// The copy check's verdict.
        verdict: Verdict,
        /// How similar the closest earlier text is (basis points).
        similarity_bps: u32,
        /// The earlier thesis it matches.
        matched: B256,
    },
    /// The targets could not be checked against the ScorerRegistry.
    TargetsUnread(AppError),
    /// The root's signature (C6): the human score is in the same signed root.
    Signer(ScoreFlag),
}

/// Why a project's verified inputs (C21) are not trusted, each a variant; [`super::words::inputs_flag`] says
/// it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputsFlag {
    /// The intake report is for another epoch.
    OtherEpoch {
        /// The report's epoch.
        report: u64,
        /// The bundle's.
        bundle: u64,
    },
    /// Its attestations are for another chain or SourceKeyRegistry.
    OtherDeployment,
    /// The observation window does not start where the chain says: when the previous epoch was proposed.
    WindowStartDiffers {
        /// The report's window start.
        report: u64,
        /// The previous epoch.
        previous_epoch: u64,
        /// When the chain says it was proposed.
        proposed: u64,
    },
    /// The snapshot is after the epoch's own proposal.
    SnapshotAfterProposal {
        /// The report's snapshot time.
        snapshot: u64,
        /// The proposal's time.
        proposed: u64,
    },
    /// The window could not be read from the registry.
    WindowUnread(RpcError),
    /// Re-run from the published attestations, the intake gives other inputs than the bundle's.
    InputsDiffer,
    /// The report's claim and failure counts differ from the re-run.
    CountsDiffer,
}
