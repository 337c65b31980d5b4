//! Verify a project's score in one epoch, in the browser, against the chain (C1–C7, C9, C17, C21, C22):
//!
//! 1. read at once the project's light publication (or the whole bundle), the epoch's proposal on chain
//!    (final root, the committee that approved it, proposing transaction) and the fee lanes' state;
//! 2. rebuild the tree and walk the project's proof to the on-chain root, recompute the public inputs step
//!    by step (`eden_core::check::check_score_in`), check the root's EIP-712 approvals against the committee
//!    (C7a, `eden_core::committee::check_approvals`);
//! 3. tie the previous score to the previous final epoch's leaf (C4);
//! 4. check the human layer ([`super::score_human`]), which theses count ([`super::score_counting`]), the
//!    grades, the verified inputs and the creator share.
//!
//! Every finding is typed: a [`ScoreFlag`] here, a [`HumanFlag`] or an [`super::score_findings::InputsFlag`] in
//! the sub-checks; [`super::words`] says them.

use super::score_counting;
use super::score_creator::{check_creator, record_now, CreatorCheck, PendingFees, RecordScore};
use super::score_findings::{HumanFlag, PreviousFlag, PreviousTie, ScoreFlag};
use super::score_grades as grades;
use super::score_human::{check_human, HumanCheck, ScoredEvent};
use super::score_inputs::{check_inputs, InputsCheck};
use crate::chain::epochs::{self, bundle_path, ChainEpoch};
use crate::chain::fee_lanes;
use crate::chain::rpc::{Rpc, RpcError};
use crate::chain::world::{LightPublication, World, WorldError};
use crate::error::{AppError, Context};
use alloy_primitives::{Address, B256};
use eden_core::check::{self, check_score_in, BundleTree, LightProofs, OwnInputs};
use eden_core::committee::{check_approvals, Committee};
use eden_core::eip712::eden_domain;
use eden_core::scoring::EpochBundle;

/// The outcome of checking one project in one epoch: core's report
/// ([`eden_core::check::ScoreCheck`], reached through `Deref`), who approved the proposal, and every
/// finding, typed ([`ScoreFlag`]; [`super::words`] says them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoreCheck {
    /// Core's report.
    pub check: check::ScoreCheck,
    /// Who approved the proposed root (C6, C7a).
    pub approved: Result<Approved, AppError>,
    /// The scoring configuration pinned on chain for the epoch (C2a), `None` when none is.
    pub config: Result<Option<epochs::ConfigPin>, AppError>,
    /// Why the bundle is not trusted; empty when everything matches.
    pub flags: Vec<ScoreFlag>,
    /// What the check was made from.
    pub source: CheckSource,
    /// The previous score's tie to the previous final epoch's leaf (C4), when it holds.
    pub previous: Option<PreviousTie>,
}

/// What a check downloaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckSource {
    /// The project's light publication (C22), this many bytes.
    Light { bytes: usize },
    /// The whole epoch bundle (a deployment without light publications).
    Full,
}

/// What one check runs on: a project's light publication, or the whole bundle.
enum Loaded {
    Light(Box<(LightProofs, LightPublication)>),
    Full(Box<EpochBundle>),
}

/// C4 tied to the chain: the previous score the bundle smoothed from is the project's leaf in the final
/// epoch the bundle names (read from that epoch's light publication, checked against its final root on
/// chain).
async fn previous_tie(
    w: &World,
    bundle: &EpochBundle,
    project: Address,
) -> Result<PreviousTie, PreviousFlag> {
    let prev = bundle
        .projects
        .iter()
        .find(|p| p.project == project)
        .map(|p| p.previous_score_wad)
        .unwrap_or_default();
    let Some(pe) = bundle.previous_epoch else {
        return if prev.is_zero() {
            Ok(PreviousTie::NoEpoch)
        } else {
            Err(PreviousFlag::NoEpochNamed { previous: prev })
        };
    };
    let root = epochs::final_root(&w.rpc(), w.contracts.epoch_registry, pe)
        .await
        .map_err(|error| PreviousFlag::NotFinal {
            epoch: pe,
            error: error.into(),
        })?;
    match w.fetch_light(root, project).await {
        Ok(l) => match l.pack.proven_score(root) {
            Some(s) if s == prev => Ok(PreviousTie::Leaf {
                score: s,
                epoch: pe,
            }),
            Some(s) => Err(PreviousFlag::LeafDiffers {
                previous: prev,
                leaf: s,
                epoch: pe,
            }),
            None => Err(PreviousFlag::LeafUnproven { epoch: pe }),
        },
        // Only a host's "not found" says the epoch publishes no leaf for the project; a host that is
        // down or failing leaves the tie unchecked, which is flagged rather than taken as "no leaf".
        Err(WorldError::Fetch(RpcError::Http {
            status: 404 | 410, ..
        })) if prev.is_zero() => Ok(PreviousTie::NoLeaf { epoch: pe }),
        Err(WorldError::Fetch(RpcError::Http {
            status: 404 | 410, ..
        })) => Err(PreviousFlag::NoLeaf {
            previous: prev,
            epoch: pe,
        }),
        Err(error) => Err(PreviousFlag::Unreadable { epoch: pe, error }),
    }
}

impl std::ops::Deref for ScoreCheck {
    type Target = check::ScoreCheck;
    fn deref(&self) -> &check::ScoreCheck {
        &self.check
    }
}

/// Parses an inputs file (`eden_core::check::parse_own_inputs`).
///
/// # Errors
/// A readable message naming what is wrong.
pub fn parse_own_inputs(text: &str) -> Result<OwnInputs, AppError> {
    check::parse_own_inputs(text).map_err(AppError::from)
}

/// The check of `project`'s systematic score (`eden_core::check::check_score`), its findings typed.
///
/// # Errors
/// No systematic score for the project in this bundle, or an unusable bundle, in words.
pub fn check_bundle(
    tree: &BundleTree<'_>,
    project: Address,
    onchain_root: Option<B256>,
    own: Option<&OwnInputs>,
) -> Result<ScoreCheck, AppError> {
    let check = check_score_in(tree, project, onchain_root, own).map_err(AppError::from)?;
    let flags = check
        .findings
        .iter()
        .cloned()
        .map(ScoreFlag::Score)
        .collect();
    Ok(ScoreCheck {
        check,
        approved: Err(AppError::missing("not checked")),
        config: Err(AppError::missing("not checked")),
        flags,
        source: CheckSource::Full,
        previous: None,
    })
}

/// C2a: the epoch's tracks against the configuration pinned for it, fetched by its hash from the
/// publication and taken only when it is the pin; nothing to check when none is pinned.
async fn pinned_config(
    w: &World,
    pin: Option<epochs::ConfigPin>,
    bundle: &EpochBundle,
) -> Vec<ScoreFlag> {
    use eden_core::scoring::pinned::{check_tracks, config_path, ScoringConfig};
    let Some(pin) = pin else {
        return vec![];
    };
    let bytes = match w.fetch_publication_bytes(&config_path(&pin.hash)).await {
        Ok(b) => b,
        Err(e) => return vec![ScoreFlag::ConfigMissing(e)],
    };
    match ScoringConfig::from_pinned(&bytes, pin.hash, pin.version) {
        Ok(c) => check_tracks(&c, bundle.tracks.iter().map(|t| &t.config))
            .into_iter()
            .map(ScoreFlag::Config)
            .collect(),
        Err(e) => vec![ScoreFlag::ConfigNotPinned(e)],
    }
}

/// Who approved a proposed root (C7a): the committee the registry recorded at the proposal, and which of its
/// members approved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Approved {
    /// The committee that accepted the proposal.
    pub committee: Committee,
    /// Members whose own key signed the root (EIP-712, C6), in the transaction's order.
    pub signed: Vec<Address>,
    /// Contract members whose approval the registry checked by ERC-1271 when it accepted the proposal.
    pub by_contract: Vec<Address>,
}

impl Approved {
    /// True when at least the threshold of distinct members approved (C7a).
    pub fn enough(&self) -> bool {
        self.signed.len() + self.by_contract.len() >= usize::from(self.committee.threshold)
    }
}

/// The proposal's approvals checked against its committee (`eden_core::committee::check_approvals`, C7a; the
/// signatures name the `RootProposed` event's proposer, C6). An approval that is not its member's own
/// signature holds only for a member with code (ERC-1271, checked by the registry); anything else is a flag.
async fn approvals(
    w: &World,
    rpc: &Rpc,
    input: &epochs::ProposeInput,
    committee: Committee,
    flags: &mut Vec<ScoreFlag>,
) -> Result<Approved, AppError> {
    let domain = eden_domain(w.chain_id, w.contracts.epoch_registry);
    let mut out = Approved {
        committee,
        signed: Vec::new(),
        by_contract: Vec::new(),
    };
    match check_approvals(&domain, &input.message, &input.approvals, &out.committee) {
        Err(e) => flags.push(ScoreFlag::Approvals(e)),
        Ok(c) => {
            out.signed = c.signed;
            for u in c.unrecovered {
                if epochs::has_code(rpc, u.member).await? {
                    out.by_contract.push(u.member);
                } else {
                    flags.push(ScoreFlag::NotTheMembers(u));
                }
            }
        }
    }
    Ok(out)
}

/// Everything checked for one project in one epoch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpochCheck {
    /// The project checked (D9: the one the person picked or named; the result names it).
    pub project: Address,
    /// The epoch's status on chain (C7).
    pub status: u8,
    /// The systematic score (C1–C5); an error when the project has none this epoch (pre-data).
    pub score: Result<ScoreCheck, AppError>,
    /// Who approved the proposed root (C6, C7a).
    pub approved: Result<Approved, AppError>,
    /// The human score (C9 / C10); `None` when the bundle has no graded theses for the project.
    pub human: Result<Option<HumanCheck>, AppError>,
    /// The creator share (C17); `None` without FeeLanes.
    pub creator: Option<Result<CreatorCheck, AppError>>,
    /// The verified inputs (C21); `None` without a SourceKeyRegistry.
    pub inputs: Option<Result<InputsCheck, AppError>>,
    /// Which theses count (C9a, C9b, C10a); `None` without a ScorerRegistry.
    pub counting: Option<Result<score_counting::CountingCheck, AppError>>,
}

/// C8 in the chain's order (§4): each of `project`'s graded theses has the verdict and matched
/// thesis that the copy check of its on-chain text against every earlier scored text gives
/// (`eden_core::scoring::copy_detect::verdict_in_chain_order`); a difference is a flag.
fn copy_verdict_flags(
    bundle: &eden_core::scoring::EpochBundle,
    project: Address,
    scored: &[(ScoredEvent, String)],
) -> Vec<HumanFlag> {
    use eden_core::scoring::copy_detect::verdict_in_chain_order;
    let corpus = grades::corpus(scored);
    bundle
        .theses
        .iter()
        .filter(|t| t.project == project)
        .filter_map(|t| {
            let r = verdict_in_chain_order(t.score_id, &corpus)?;
            (u8::from(r.verdict) != t.verdict || r.matched_thesis != t.matched_thesis).then(|| {
                HumanFlag::CopyVerdict {
                    thesis: t.thesis_hash,
                    bundle_verdict: t.verdict,
                    bundle_matched: t.matched_thesis,
                    verdict: r.verdict,
                    similarity_bps: r.similarity_bps(),
                    matched: r.matched_thesis,
                }
            })
        })
        .collect()
}

/// The ScorerRegistry's `Scored` events, for the targets' cross-check, each with its thesis text
/// (§4: on chain).
async fn scored_events(rpc: &Rpc, w: &World) -> Result<Vec<(ScoredEvent, String)>, AppError> {
    let reg = w
        .contracts
        .scorer_registry
        .ok_or_else(|| AppError::missing("no ScorerRegistry on this network"))?;
    Ok(crate::chain::scorer::scored_with_texts(rpc, reg, w.deployment_block).await?)
}

/// One project checked against one epoch: the flow of the Score page's *Verify*. The bundle, the epoch's
/// proposal on chain (final root, committee, proposing transaction) and the fee lanes are read at once; then
/// the `Scored` events when the bundle grades theses on the project, and `verifyScore` of the published
/// score for a final epoch.
///
/// # Errors
/// No score for the project in this epoch; a publication or the chain that cannot be read.
pub async fn verify_score(
    w: World,
    row: ChainEpoch,
    project: Address,
    own: Option<OwnInputs>,
) -> Result<EpochCheck, AppError> {
    let rpc = w.rpc();
    let reg = w.contracts.epoch_registry;
    let (light, proposal, lanes) = futures::join!(
        w.fetch_light(row.proposal.root, project),
        epochs::proposal(&rpc, reg, &row),
        async {
            // C17: FeeLanes' parameters and the project's Verified flag (which also sets the C10 cap).
            match w.contracts.fee_lanes {
                Some(fl) => Some(
                    fee_lanes::lane_state(
                        &rpc,
                        fl,
                        reg,
                        w.contracts.launchpad,
                        project,
                        w.deployment_block,
                    )
                    .await
                    .context("reading the creator share from FeeLanes"),
                ),
                None => None,
            }
        },
    );
    // C22: the project's light publication when the deployment publishes one; else the whole bundle.
    let no_score = || AppError::NoScore {
        project,
        epoch: row.epoch(),
    };
    let loaded = match light {
        Ok(l) => Loaded::Light(Box::new((LightProofs::new(&l.pack, l.track.as_ref()), l))),
        Err(WorldError::Fetch(light_err)) => {
            match w.fetch_bundle(&bundle_path(&row.proposal.root)).await {
                Ok(b) => Loaded::Full(Box::new(b)),
                // Neither the project's pack nor the whole bundle is published, and the pack's host said
                // "not found": the epoch has no leaf for this address.
                Err(WorldError::Fetch(RpcError::Http {
                    status: 404 | 410, ..
                })) if matches!(
                    light_err,
                    RpcError::Http {
                        status: 404 | 410,
                        ..
                    }
                ) =>
                {
                    return Err(no_score())
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(e) => return Err(e.into()),
    };
    let (tree, source, intake) = match &loaded {
        Loaded::Light(b) => (
            b.0.tree(),
            CheckSource::Light { bytes: b.1.bytes },
            Some((b.1.pack.intake.clone(), b.1.pack.tracks.clone())),
        ),
        Loaded::Full(b) => (BundleTree::new(b), CheckSource::Full, None),
    };
    let bundle = tree.bundle();
    if bundle.epoch != row.epoch() {
        return Err(AppError::Missing(format!(
            "the bundle is for epoch {}, not {}",
            bundle.epoch,
            row.epoch()
        )));
    }
    let scored_here = bundle.projects.iter().any(|p| p.project == project)
        || bundle.envelope_score(project).is_some()
        || bundle.theses.iter().any(|t| t.project == project);
    if !scored_here {
        return Err(no_score());
    }
    let proposal = proposal?;
    let inputs = check_inputs(&w, row.proposal.root, bundle, project, intake).await;
    let onchain = proposal.final_root;
    let mut score = check_bundle(&tree, project, onchain, own.as_ref());
    let built_root = tree.built_root().map_err(AppError::from)?;
    let mut signer_flags = Vec::new();
    if let Loaded::Light(b) = &loaded {
        signer_flags.extend(b.0.findings().iter().cloned().map(ScoreFlag::Light));
    }
    let approved = match (proposal.call, proposal.committee) {
        (Ok(input), Ok(committee)) => {
            if input.message.root != built_root {
                signer_flags.push(ScoreFlag::SignedRootDiffers);
            }
            // The inputs (and the columns the bounds come from, C22) are the ones signed.
            if input.message.inputsRoot != bundle.inputs_root {
                signer_flags.push(ScoreFlag::SignedInputsDiffer {
                    signed: input.message.inputsRoot,
                    bundle: bundle.inputs_root,
                });
            }
            approvals(&w, &rpc, &input, committee, &mut signer_flags).await
        }
        (Err(e), _) | (_, Err(e)) => Err(AppError::from(e)),
    };
    let config = match proposal.config {
        Ok(pin) => {
            signer_flags.extend(pinned_config(&w, pin, bundle).await);
            Ok(pin)
        }
        Err(e) => Err(AppError::from(e)),
    };
    let previous = match &score {
        Ok(_) => Some(previous_tie(&w, bundle, project).await),
        Err(_) => None,
    };
    if let Ok(c) = &mut score {
        c.approved = approved.clone();
        c.config = config;
        c.flags.extend(signer_flags.iter().cloned());
        c.source = source;
        match previous {
            Some(Ok(tie)) => c.previous = Some(tie),
            Some(Err(flag)) => c.flags.push(ScoreFlag::Previous(flag)),
            None => {}
        }
    }
    let chain_verified = match &lanes {
        Some(Ok(l)) => Some(l.state.verified),
        _ => None,
    };
    let scored = if bundle.theses.iter().any(|t| t.project == project) {
        Some(scored_events(&rpc, &w).await)
    } else {
        None
    };
    let events: Option<Vec<ScoredEvent>> = scored
        .as_ref()
        .and_then(|r| r.as_ref().ok())
        .map(|v| v.iter().map(|(e, _)| *e).collect());
    let mut human = check_human(&tree, project, onchain, events.as_deref(), chain_verified);
    // C9a, C9b, C10a: the theses the bundle took are the ones that count on chain; a difference flags the
    // human score too (it was computed from the wrong list).
    let counting = score_counting::check_counting(&w, bundle, row.proposal.block, project).await;
    if let (Ok(Some(h)), Some(Ok(c))) = (&mut human, &counting) {
        h.flags
            .extend(c.counting.findings.iter().cloned().map(HumanFlag::Counting));
    }
    if let Ok(Some(h)) = &mut human {
        if let Some(Ok(list)) = &scored {
            h.set_texts(list);
            h.flags.extend(copy_verdict_flags(bundle, project, list));
            h.grades = grades::check_grades(&w, bundle, project, list).await;
            h.publication_base = w
                .description()
                .publication_bases()
                .into_iter()
                .find(|b| b.starts_with("http"));
        }
        if let Some(Err(e)) = &scored {
            h.flags.push(HumanFlag::TargetsUnread(e.clone()));
        }
        h.flags
            .extend(signer_flags.iter().cloned().map(HumanFlag::Signer));
        if onchain.is_some() {
            h.registry_says = Some(
                epochs::verify_score(
                    &rpc,
                    reg,
                    row.epoch(),
                    project,
                    h.bundle_score,
                    h.proof.clone(),
                )
                .await
                .map_err(AppError::from),
            );
        }
    }
    // C27: the published score, the one FeeLanes records and the creator share follows: the human
    // layer's where the epoch grades theses on the project (or it is pre-data), else the systematic one.
    let moved = bundle.envelope_score(project).is_some();
    let published = match (&human, &score) {
        (Ok(Some(h)), _) => Some((h.bundle_score, h.proof.clone(), h.reaches_chain)),
        (_, Ok(c)) if !moved => Some((
            c.check.score_wad,
            c.check.proof.clone(),
            c.check.leaf_reaches_chain,
        )),
        _ => None,
    };
    let epoch_score = published.as_ref().map(|p| p.0);
    let pre_data = score.is_err() && epoch_score.is_some();
    // The score leaf FeeLanes records (C17), once its proof reaches the final root.
    let leaf = match published {
        Some((score_wad, proof, true)) if onchain.is_some() => Some(RecordScore {
            epoch: row.epoch(),
            score_wad,
            proof,
        }),
        _ => None,
    };
    let lanes_at = w.contracts.fee_lanes.unwrap_or_default();
    let creator = lanes.map(|r| {
        r.and_then(|l| {
            let record = record_now(&l.state, leaf);
            check_creator(l.state, row.epoch(), epoch_score, pre_data).map(|c| CreatorCheck {
                lanes: lanes_at,
                token: project,
                owed: l.owed,
                own_escrow: l.own_buyback_escrow,
                own_done: l.own_buybacks,
                adjudicator: l.adjudicator,
                pending: PendingFees {
                    launchpad: l.launchpad,
                    curve: l.curve_fees,
                    pool: l.pool_fees,
                },
                record,
                ..c
            })
        })
    });
    Ok(EpochCheck {
        project,
        status: row.slot.status.code(),
        score,
        approved,
        human,
        creator,
        inputs,
        counting,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flows::words;
    use alloy_primitives::U256;
    use eden_core::scoring::epoch::{build_epoch, EpochInput};
    use eden_core::scoring::{EpochBundle, TrackConfig};

    use crate::test_util::projects;

    fn bundle() -> EpochBundle {
        let track = TrackConfig::preset("agents").unwrap();
        let projects = projects();
        build_epoch(&EpochInput {
            epoch: 7,
            tracks: vec![track],
            projects,
            previous: vec![],
            ..Default::default()
        })
        .unwrap()
    }

    #[test]
    fn an_honest_bundle_verifies_against_its_root() {
        let b = bundle();
        let c = check_bundle(
            &BundleTree::new(&b),
            Address::repeat_byte(3),
            Some(b.root),
            None,
        )
        .unwrap();
        assert!(c.flags.is_empty(), "{:?}", c.flags);
        assert!(c.leaf_reaches_chain);
        assert!(c.report.clone().unwrap().matches);
    }

    #[test]
    fn a_tampered_bundle_is_flagged() {
        let b = bundle();
        let onchain = b.root;
        let mut t = b.clone();
        t.projects[2].score_wad += U256::from(1u8);
        let c = check_bundle(
            &BundleTree::new(&t),
            t.projects[2].project,
            Some(onchain),
            None,
        )
        .unwrap();
        assert!(!c.flags.is_empty());
        assert!(!c.leaf_reaches_chain);
        assert!(
            c.flags
                .iter()
                .any(|f| words::score_flag(f).contains("on-chain final root")),
            "{:?}",
            c.flags
        );
        assert!(check_bundle(
            &BundleTree::new(&b),
            Address::repeat_byte(99),
            Some(onchain),
            None
        )
        .is_err());
    }

    #[test]
    fn own_inputs_file_recomputes_and_names_the_first_mismatch() {
        let b = bundle();
        let p = Address::repeat_byte(2);
        let rec = b.projects.iter().find(|r| r.project == p).unwrap();
        let json = serde_json::to_string(rec.inputs.as_ref().unwrap()).unwrap();
        let own = parse_own_inputs(&json).unwrap();
        let c = check_bundle(&BundleTree::new(&b), p, Some(b.root), Some(&own)).unwrap();
        assert!(
            c.from_own_file && c.report.as_ref().unwrap().matches,
            "{:?}",
            c.flags
        );
        let mut wrong = own.clone();
        wrong.data.claims += 1;
        let c = check_bundle(&BundleTree::new(&b), p, Some(b.root), Some(&wrong)).unwrap();
        let r = c.report.clone().unwrap();
        assert_eq!(
            r.first_mismatch,
            Some(eden_core::scoring::VerifyStep::Commitment)
        );
        assert!(c
            .flags
            .iter()
            .any(|f| words::score_flag(f).contains("your inputs file")));
        assert!(parse_own_inputs("{\"track\": 1}")
            .unwrap_err()
            .to_string()
            .contains("not valid"));
    }
}
