//! A project's systematic score in one epoch, checked (C1–C5, C7): the full epoch tree rebuilt
//! from every leaf's values and compared with the bundle's root and the on-chain final root, the
//! project's score leaf recomputed and its proof walked to that root, and the score recomputed step
//! by step ([`verify_project_score`]) from the project's own inputs file or the bundle's public
//! inputs.

use super::tree::{BundleTree, CheckError};
use crate::leaves::{score_leaf, systematic_leaf};
use crate::merkle::process_proof;
use crate::scoring::epoch::ProjectData;
use crate::scoring::{EpochBundle, VerifyReport, VerifyStep};
use alloy_primitives::{Address, B256, U256};
use serde::Serialize;

/// A project's own inputs file (read where the project is, never uploaded): the [`ProjectData`]
/// fields `{track, features, claims, failed, verifiedOutput, ageSecs}` plus `salt` for private
/// inputs.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, Serialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct OwnInputs {
    /// The inputs.
    #[serde(flatten)]
    pub data: ProjectData,
    /// The commitment salt of private inputs.
    #[serde(default)]
    pub salt: Option<B256>,
}

/// An inputs file that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the inputs file is not valid: {0}")]
pub struct InvalidInputsFile(pub String);

/// Parses an inputs file.
///
/// # Errors
/// [`InvalidInputsFile`] naming what is wrong.
pub fn parse_own_inputs(text: &str) -> Result<OwnInputs, InvalidInputsFile> {
    serde_json::from_str(text).map_err(|e| InvalidInputsFile(e.to_string()))
}

/// Why a bundle's systematic score is not trusted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "kind"
)]
pub enum ScoreFinding {
    /// The bundle's leaves build another root than the one it claims.
    RootDiffers {
        /// Rebuilt from the leaves.
        rebuilt: B256,
        /// Claimed by the bundle.
        claimed: B256,
    },
    /// The project's published leaf does not hash from its address and score.
    LeafMismatch,
    /// The on-chain final root is not the one this bundle builds: it was changed after commitment.
    OnchainRootDiffers {
        /// On chain.
        onchain: B256,
        /// Rebuilt.
        rebuilt: B256,
    },
    /// The project's proof does not reach the on-chain root.
    ProofDoesNotReachChain,
    /// Recomputing the score differs first at `step`.
    RecomputeDiffers {
        /// The first differing step.
        step: VerifyStep,
        /// From the project's own inputs file (else the bundle's public inputs).
        from_own_file: bool,
    },
}

/// The outcome of checking one project's systematic score in one epoch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ScoreCheck {
    /// The bundle's systematic score `S`, WAD points.
    #[serde(with = "crate::serde_dec::u256")]
    pub score_wad: U256,
    /// The project's published score `P` (C27), WAD points: `S`, or the human layer's where the epoch
    /// grades theses on the project (its own check proves that one).
    #[serde(with = "crate::serde_dec::u256")]
    pub published_wad: U256,
    /// The on-chain final root, when the epoch is final.
    pub onchain_root: Option<B256>,
    /// The root the bundle claims.
    pub bundle_root: B256,
    /// The root rebuilt from every leaf's values.
    pub rebuilt_root: B256,
    /// The leaf carrying `S`: the score leaf, or the systematic leaf where `P` differs (C27).
    pub leaf: B256,
    /// Its proof in the full tree.
    pub proof: Vec<B256>,
    /// The proof reaches the on-chain final root.
    pub leaf_reaches_chain: bool,
    /// The step-by-step recomputation, when inputs were available.
    pub report: Option<VerifyReport>,
    /// `report` was computed from the person's own inputs file.
    pub from_own_file: bool,
    /// The project's inputs are private (only a commitment is published).
    pub private: bool,
    /// Why the bundle is not trusted; empty when everything matches.
    pub findings: Vec<ScoreFinding>,
}

/// Checks `project`'s systematic score in `bundle` against `onchain_root` (the final root; `None`
/// before the epoch is final), recomputing from `own` inputs or else the bundle's public inputs.
///
/// # Errors
/// [`CheckError::NoSystematicScore`] when the project has no score leaf this epoch (a pre-data
/// project), or an unusable bundle.
pub fn check_score(
    bundle: &EpochBundle,
    project: Address,
    onchain_root: Option<B256>,
    own: Option<&OwnInputs>,
) -> Result<ScoreCheck, CheckError> {
    check_score_in(&BundleTree::new(bundle), project, onchain_root, own)
}

/// [`check_score`] on a bundle whose tree other checks share (built at most once).
///
/// # Errors
/// As [`check_score`].
pub fn check_score_in(
    tree: &BundleTree<'_>,
    project: Address,
    onchain_root: Option<B256>,
    own: Option<&OwnInputs>,
) -> Result<ScoreCheck, CheckError> {
    let bundle = tree.bundle();
    let mut findings = Vec::new();
    let rec = bundle
        .projects
        .iter()
        .find(|p| p.project == project)
        .ok_or(CheckError::NoSystematicScore)?;
    // C27: S is in the score leaf, or in the systematic leaf where a human move set the published
    // score (the human layer's check covers that one).
    let (leaf, listed) = match rec.systematic_leaf {
        Some(l) => (systematic_leaf(rec.project, rec.score_wad), l),
        None => (score_leaf(rec.project, rec.score_wad), rec.leaf),
    };
    // C5: the epoch root covers every score, quality and systematic leaf.
    let (rebuilt_root, proof) = tree.root_and_proof(leaf)?;
    let proof = proof.unwrap_or_default();
    let reached = process_proof(leaf, &proof);
    if rebuilt_root != bundle.root {
        findings.push(ScoreFinding::RootDiffers {
            rebuilt: rebuilt_root,
            claimed: bundle.root,
        });
    }
    if listed != leaf || (rec.systematic_leaf.is_none() && rec.published_wad != rec.score_wad) {
        findings.push(ScoreFinding::LeafMismatch);
    }
    let leaf_reaches_chain = onchain_root.is_some_and(|r| r == reached);
    match onchain_root {
        Some(r) if r != rebuilt_root => findings.push(ScoreFinding::OnchainRootDiffers {
            onchain: r,
            rebuilt: rebuilt_root,
        }),
        Some(_) if !leaf_reaches_chain => findings.push(ScoreFinding::ProofDoesNotReachChain),
        _ => {}
    }
    let report = match own {
        Some(o) => Some(tree.verify(project, &o.data, o.salt.unwrap_or(B256::ZERO))),
        None => rec
            .inputs
            .as_ref()
            .map(|inputs| tree.verify(project, inputs, B256::ZERO)),
    };
    let from_own_file = own.is_some();
    if let Some(step) = report.as_ref().and_then(|r| r.first_mismatch) {
        findings.push(ScoreFinding::RecomputeDiffers {
            step,
            from_own_file,
        });
    }
    Ok(ScoreCheck {
        score_wad: rec.score_wad,
        published_wad: rec.published_wad,
        onchain_root,
        bundle_root: bundle.root,
        rebuilt_root,
        leaf,
        proof,
        leaf_reaches_chain,
        report,
        from_own_file,
        private: rec.private,
        findings,
    })
}
