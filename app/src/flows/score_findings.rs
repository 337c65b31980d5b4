//! What the score's verification finds ([`super::verify_score`]), typed: said by [`super::words`].

use crate::chain::rpc::RpcError;
use crate::chain::world::WorldError;
use alloy_primitives::{Address, B256, U256};
use eden_core::check::{LightFinding, ScoreFinding};

/// Why a score's bundle is not trusted (C1–C7, C22), each a variant; [`super::words::score_flag`] says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScoreFlag {
    /// Core's check of the systematic score.
    Score(ScoreFinding),
    /// Core's check of the light publication.
    Light(LightFinding),
    /// The root was signed by another key than the registry's signer (C6).
    SignedBy {
        /// Who signed.
        signer: Address,
        /// The registry's signer.
        registry_signer: Address,
    },
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
