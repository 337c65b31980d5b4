//! The full epoch tree (C5) rebuilt from a bundle: every score, quality and human leaf
//! **recomputed from its values** ([`EpochBundle::recomputed_leaves`]), so a record whose published
//! leaf hash was changed cannot hide.

use crate::leaves::InvalidVerdict;
use crate::scoring::{EpochBundle, EpochTree};
use alloy_primitives::B256;
use std::cell::OnceCell;

/// Why a bundle cannot be checked at all (as opposed to a finding about it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// A thesis carries a verdict code outside 0–3.
    #[error("thesis {thesis}: {source}")]
    InvalidVerdict {
        /// The thesis hash.
        thesis: B256,
        /// The bad code.
        source: InvalidVerdict,
    },
    /// The bundle has no leaves.
    #[error("the bundle has no leaves")]
    EmptyBundle,
    /// The project has no systematic score in the bundle.
    #[error("no systematic score in this epoch's bundle")]
    NoSystematicScore,
    /// An envelope-mode human score without any systematic score.
    #[error("an envelope score without a systematic score")]
    EnvelopeWithoutSystematic,
    /// The human score could not be recomputed.
    #[error("recomputing the {what}: {message}")]
    Recompute {
        /// "envelope" or "pre-data path".
        what: &'static str,
        /// The core error.
        message: String,
    },
    /// The creator share could not be recomputed from FeeLanes' parameters.
    #[error("the creator share{at}: {message}")]
    CreatorShare {
        /// "" or " at this epoch's score".
        at: &'static str,
        /// The core error.
        message: String,
    },
}

/// The root of the full epoch tree rebuilt from `bundle`'s values, and the proof of `leaf` in it
/// (`None` when `leaf` is not one of its leaves).
///
/// # Errors
/// [`CheckError::InvalidVerdict`] for a thesis with a bad verdict code, [`CheckError::EmptyBundle`].
pub fn full_tree(
    bundle: &EpochBundle,
    leaf: B256,
) -> Result<(B256, Option<Vec<B256>>), CheckError> {
    BundleTree::new(bundle).root_and_proof(leaf)
}

/// One bundle and its full epoch tree, rebuilt from the values the first time it is needed and
/// never again: the checks of a Score page (systematic, human, the signed root) share one.
#[derive(Debug)]
pub struct BundleTree<'a> {
    bundle: &'a EpochBundle,
    tree: OnceCell<Result<EpochTree, CheckError>>,
}

impl<'a> BundleTree<'a> {
    /// `bundle`'s tree, not built yet.
    pub fn new(bundle: &'a EpochBundle) -> Self {
        Self {
            bundle,
            tree: OnceCell::new(),
        }
    }

    /// The bundle.
    pub fn bundle(&self) -> &'a EpochBundle {
        self.bundle
    }

    /// The tree rebuilt from every recomputed leaf.
    ///
    /// # Errors
    /// [`CheckError::InvalidVerdict`] for a thesis with a bad verdict code,
    /// [`CheckError::EmptyBundle`].
    pub fn tree(&self) -> Result<&EpochTree, CheckError> {
        self.tree
            .get_or_init(|| {
                let leaves = self
                    .bundle
                    .recomputed_leaves()
                    .map_err(|(thesis, source)| CheckError::InvalidVerdict { thesis, source })?;
                EpochTree::new(leaves).ok_or(CheckError::EmptyBundle)
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The rebuilt root, and the proof of `leaf` (`None` when it is not a leaf).
    ///
    /// # Errors
    /// As [`BundleTree::tree`].
    pub fn root_and_proof(&self, leaf: B256) -> Result<(B256, Option<Vec<B256>>), CheckError> {
        let t = self.tree()?;
        Ok((t.root(), t.proof(&leaf)))
    }
}
