//! The full epoch tree (C5) rebuilt from a bundle: every score, quality and systematic leaf
//! **recomputed from its values** ([`EpochBundle::recomputed_leaves`]), so a record whose published
//! leaf hash was changed cannot hide.

use crate::leaves::InvalidVerdict;
use crate::merkle::process_proof;
use crate::scoring::epoch::ProjectData;
use crate::scoring::verify::{verify_record, Anchors};
use crate::scoring::{verify_project_score, EpochBundle, EpochTree};
use alloy_primitives::Address;
use alloy_primitives::B256;
use std::cell::OnceCell;
use std::collections::HashMap;

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
/// never again: the checks of a Score page (systematic, human, the signed root) share one. A **light**
/// tree ([`super::light::LightProofs::tree`]) holds a one-project bundle and the published proofs of
/// its leaves instead: nothing is rebuilt, every proof is walked.
#[derive(Debug)]
pub struct BundleTree<'a> {
    bundle: &'a EpochBundle,
    tree: OnceCell<Result<EpochTree, CheckError>>,
    light: Option<Light<'a>>,
}

#[derive(Debug, Clone, Copy)]
struct Light<'a> {
    proofs: &'a HashMap<B256, Vec<B256>>,
    inputs_proof: &'a [B256],
}

impl<'a> BundleTree<'a> {
    /// `bundle`'s tree, not built yet.
    pub fn new(bundle: &'a EpochBundle) -> Self {
        Self {
            bundle,
            tree: OnceCell::new(),
            light: None,
        }
    }

    /// A light tree: `bundle` holds one project's records, `proofs` each leaf's published proof and
    /// `inputs_proof` its inputs leaf's.
    pub(crate) fn light(
        bundle: &'a EpochBundle,
        proofs: &'a HashMap<B256, Vec<B256>>,
        inputs_proof: &'a [B256],
    ) -> Self {
        Self {
            bundle,
            tree: OnceCell::new(),
            light: Some(Light {
                proofs,
                inputs_proof,
            }),
        }
    }

    /// Whether this is a light tree (published proofs, not the whole bundle).
    pub fn is_light(&self) -> bool {
        self.light.is_some()
    }

    /// The bundle.
    pub fn bundle(&self) -> &'a EpochBundle {
        self.bundle
    }

    /// The tree rebuilt from every recomputed leaf.
    ///
    /// # Errors
    /// [`CheckError::InvalidVerdict`] for a thesis with a bad verdict code,
    /// [`CheckError::EmptyBundle`] (also for a light tree, which has no whole tree).
    pub fn tree(&self) -> Result<&EpochTree, CheckError> {
        if self.light.is_some() {
            return Err(CheckError::EmptyBundle);
        }
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

    /// The root the bundle's values give: the rebuilt tree's, or for a light tree the root every
    /// published proof reaches (the bundle's claimed root when they do not all reach one).
    ///
    /// # Errors
    /// As [`BundleTree::tree`] for a full tree.
    pub fn built_root(&self) -> Result<B256, CheckError> {
        match self.light {
            None => Ok(self.tree()?.root()),
            Some(l) => {
                let mut reached = l.proofs.iter().map(|(leaf, p)| process_proof(*leaf, p));
                let first = reached.next().unwrap_or(self.bundle.root);
                Ok(if reached.all(|r| r == first) {
                    first
                } else {
                    self.bundle.root
                })
            }
        }
    }

    /// The rebuilt root, and the proof of `leaf` (`None` when it is not a leaf). For a light tree:
    /// the root `leaf`'s published proof reaches, and that proof.
    ///
    /// # Errors
    /// As [`BundleTree::tree`].
    pub fn root_and_proof(&self, leaf: B256) -> Result<(B256, Option<Vec<B256>>), CheckError> {
        if let Some(l) = self.light {
            return Ok(match l.proofs.get(&leaf) {
                Some(p) => (process_proof(leaf, p), Some(p.clone())),
                None => (self.bundle.root, None),
            });
        }
        let t = self.tree()?;
        Ok((t.root(), t.proof(&leaf)))
    }

    /// Recomputes `project`'s score step by step (C1–C5): against the whole bundle, or for a light
    /// tree with the `inputsRoot` and `root` steps walking the published proofs.
    pub fn verify(
        &self,
        project: Address,
        inputs: &ProjectData,
        salt: B256,
    ) -> crate::scoring::VerifyReport {
        let Some(l) = self.light else {
            return verify_project_score(self.bundle, project, inputs, salt);
        };
        let b = self.bundle;
        let Some(rec) = b.projects.iter().find(|p| p.project == project) else {
            return verify_project_score(b, project, inputs, salt);
        };
        let tr = b.tracks.iter().find(|t| t.config.name == rec.track);
        let counted = tr.map_or(0, |t| t.cohort_size);
        let inputs_root = |c: B256| {
            let reached = process_proof(crate::leaves::inputs_leaf(project, c), l.inputs_proof);
            (b.inputs_root.to_string(), reached.to_string())
        };
        let root = |leaf: B256| {
            let reached = l
                .proofs
                .get(&leaf)
                .map(|p| process_proof(leaf, p) == b.root)
                .unwrap_or(false);
            (
                format!("{} (leaf included true)", b.root),
                format!("{} (leaf included {reached})", b.root),
            )
        };
        verify_record(
            rec,
            tr,
            counted,
            inputs,
            salt,
            b.envelope_score(project),
            &Anchors {
                inputs_root: &inputs_root,
                root: &root,
            },
        )
    }
}
