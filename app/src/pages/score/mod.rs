//! Score page (C5–C7, C9, C10, C17): pick a project, see every epoch's status on chain (pending /
//! challenged / final, with the challenge-window countdown) with what anyone may do about it
//! (challenge with the bond, finalize, withdraw credited bonds; the adjudicator's ruling:
//! [`epoch_table`]), and verify the project's score in the
//! browser: the full epoch tree (score, quality and systematic leaves, each recomputed from its values) is
//! rebuilt and its root compared with the **on-chain final root**, the project's leaf proof is walked
//! to that root, public inputs are recomputed step by step
//! (`eden_core::scoring::verify_project_score`), and the root's EIP-712 signature (read from the
//! proposing transaction) is recovered and compared with the registry's signer. A bundle that does
//! not match the chain is flagged, naming what differs. Below it: the project's human score (C9
//! envelope or C10 pre-data path, [`human`]) and the creator share the score buys with
//! FeeLanes' on-chain parameters (C17, [`creator`]).

pub mod counting;
pub mod creator;
pub mod epoch_table;
pub mod grades;
pub mod human;
pub mod inputs;
pub mod pick;

use crate::chain::abi::IEpochRegistry;
use crate::chain::rpc::{Rpc, RpcError};
use crate::chain::world::{LightPublication, World, WorldError};
use crate::error::{AppError, Context};
use crate::fmt;
use crate::pages::score_where_traded::ScoreHistory;
use crate::state::{Ctx, Load};
use crate::ui::{caught, with_world, Amount, Loading};
use alloy_primitives::{Address, B256, U256};
use creator::PendingFees;
use creator::{check_creator, record_now, CreatorCheck, CreatorView, RecordScore};
use eden_core::check::{
    self, check_score_in, BundleTree, LightFinding, LightProofs, OwnInputs, ScoreFinding,
};
use eden_core::eip712::{eden_domain, recover_epoch_root_signer, EpochRoot};
use eden_core::scoring::EpochBundle;
use epoch_table::{BondCredit, EpochTable};
use human::{check_human, HumanCheck, HumanView, ScoredEvent};
use inputs::{check_inputs, InputsCheck, InputsView};
use leptos::prelude::*;

use crate::chain::epochs::{self, bundle_path, discover, ChainEpoch, Registry};
use crate::chain::fee_lanes;

/// An epoch as discovered on chain ([`crate::chain::epochs::discover`]).
type EpochRow = ChainEpoch;

/// The outcome of checking one project in one epoch: core's report
/// ([`eden_core::check::ScoreCheck`], reached through `Deref`), the proposal's signer, and every
/// finding in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoreCheck {
    /// Core's report.
    pub check: check::ScoreCheck,
    pub signer: Result<Address, AppError>,
    pub expected_signer: Address,
    /// Why the bundle is not trusted, in words; empty when everything matches.
    pub flags: Vec<String>,
    /// What the check was made from.
    pub source: CheckSource,
    /// The previous score's tie to the previous final epoch's leaf (C4), in words, when it holds.
    pub previous: Option<String>,
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

/// A light publication's finding in words.
fn light_finding_words(f: &LightFinding) -> String {
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

/// C4 tied to the chain: the previous score the bundle smoothed from is the project's leaf in the final
/// epoch the bundle names (read from that epoch's light publication, checked against its final root on
/// chain). `Ok` in words when it holds, `Err` as a flag when it does not.
async fn previous_tie(w: &World, bundle: &EpochBundle, project: Address) -> Result<String, String> {
    let prev = bundle
        .projects
        .iter()
        .find(|p| p.project == project)
        .map(|p| p.previous_score_wad)
        .unwrap_or_default();
    let points = |v: U256| format!("{} points", fmt::units(v, 18, 6));
    let Some(pe) = bundle.previous_epoch else {
        return if prev.is_zero() {
            Ok("0 (the bundle names no previous final epoch)".into())
        } else {
            Err(format!(
                "the bundle smooths from a previous score of {} but names no previous epoch, so it cannot be tied to a leaf",
                points(prev)
            ))
        };
    };
    let root = epochs::final_root(&w.rpc(), w.contracts.epoch_registry, pe)
        .await
        .map_err(|e| {
            format!("the previous epoch {pe} the bundle names is not final on chain ({e})")
        })?;
    match w.fetch_light(root, project).await {
        Ok(l) => match l.pack.proven_score(root) {
            Some(s) if s == prev => Ok(format!("{} = its leaf in final epoch {pe} ✓", points(s))),
            Some(s) => Err(format!(
                "the bundle smooths from a previous score of {}, but the project's leaf in final epoch {pe} is {}",
                points(prev),
                points(s)
            )),
            None => Err(format!(
                "the project's published leaf in epoch {pe} does not reach that epoch's final root"
            )),
        },
        // Only a host's "not found" says the epoch publishes no leaf for the project; a host that is
        // down or failing leaves the tie unchecked, which is flagged rather than taken as "no leaf".
        Err(WorldError::Fetch(RpcError::Http {
            status: 404 | 410,
            ..
        })) if prev.is_zero() => Ok(format!(
            "0 (final epoch {pe} publishes no leaf for the project)"
        )),
        Err(WorldError::Fetch(RpcError::Http {
            status: 404 | 410,
            ..
        })) => Err(format!(
            "the bundle smooths from a previous score of {}, but final epoch {pe} publishes no leaf for the project",
            points(prev)
        )),
        Err(e) => Err(format!(
            "the previous score is not tied to final epoch {pe}: its publication could not be read ({e})"
        )),
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

/// A systematic-score finding in words.
pub fn score_finding_words(f: &ScoreFinding) -> String {
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

/// The check of `project`'s systematic score (`eden_core::check::check_score`), its findings in words.
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
    let flags = check.findings.iter().map(score_finding_words).collect();
    Ok(ScoreCheck {
        check,
        signer: Err(AppError::missing("not checked")),
        expected_signer: Address::ZERO,
        flags,
        source: CheckSource::Full,
        previous: None,
    })
}

/// Who signed the proposed root (EIP-712, C6: the signature names the proposer, the
/// `RootProposed` event's indexed proposer), and the root and inputs root signed.
fn proposal_signer(
    w: &World,
    row: &EpochRow,
    call: &IEpochRegistry::proposeCall,
) -> Result<(Address, B256, B256), AppError> {
    let msg = EpochRoot {
        epoch: call.epoch,
        root: call.root,
        inputsRoot: call.inputsRoot,
        proposer: row.proposer,
        expiry: call.expiry,
    };
    let domain = eden_domain(w.chain_id, w.contracts.epoch_registry);
    let signer =
        recover_epoch_root_signer(&domain, &msg, &call.signature).map_err(AppError::from)?;
    Ok((signer, call.root, call.inputsRoot))
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
    pub signer: Result<Address, AppError>,
    pub expected_signer: Address,
    /// The human score (C9 / C10); `None` when the bundle has no graded theses for the project.
    pub human: Result<Option<HumanCheck>, AppError>,
    /// The creator share (C17); `None` without FeeLanes.
    pub creator: Option<Result<CreatorCheck, AppError>>,
    /// The verified inputs (C21); `None` without a SourceKeyRegistry.
    pub inputs: Option<Result<InputsCheck, AppError>>,
    /// Which theses count (C9a, C9b, C10a); `None` without a ScorerRegistry.
    pub counting: Option<Result<counting::CountingCheck, AppError>>,
}

/// C8 in the chain's order (§4): each of `project`'s graded theses has the verdict and matched
/// thesis that the copy check of its on-chain text against every earlier scored text gives
/// (`eden_core::scoring::copy_detect::verdict_in_chain_order`); a difference is a flag.
fn copy_verdict_flags(
    bundle: &eden_core::scoring::EpochBundle,
    project: Address,
    scored: &[(ScoredEvent, String)],
) -> Vec<String> {
    use eden_core::scoring::copy_detect::verdict_in_chain_order;
    let corpus: Vec<(U256, B256, &str)> = scored
        .iter()
        .map(|(e, t)| (e.score_id, e.thesis_hash, t.as_str()))
        .collect();
    bundle
        .theses
        .iter()
        .filter(|t| t.project == project)
        .filter_map(|t| {
            let r = verdict_in_chain_order(t.score_id, &corpus)?;
            (u8::from(r.verdict) != t.verdict || r.matched_thesis != t.matched_thesis).then(|| {
                format!(
                    "thesis {}: the bundle grades it {} (matching {}), but the copy check of its on-chain text against every earlier score gives {} ({} similar to {})",
                    human::short(t.thesis_hash),
                    eden_core::leaves::Verdict::name_of_code(t.verdict),
                    human::short(t.matched_thesis),
                    r.verdict.name(),
                    crate::fmt::percent_bps(r.similarity_bps()),
                    human::short(r.matched_thesis)
                )
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

/// One project checked against one epoch. The bundle, the epoch's proposal on chain (final root,
/// signer, proposing transaction) and the fee lanes are read at once; then the `Scored` events
/// when the bundle grades theses on the project, and `verifyScore` of the published score for a final epoch.
async fn run_check(
    w: World,
    row: EpochRow,
    project: Address,
    own: Option<OwnInputs>,
) -> Result<EpochCheck, AppError> {
    let rpc = w.rpc();
    let reg = w.contracts.epoch_registry;
    let (light, proposal, lanes) = futures::join!(
        w.fetch_light(row.root, project),
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
        epoch: row.epoch,
    };
    let loaded = match light {
        Ok(l) => Loaded::Light(Box::new((LightProofs::new(&l.pack, l.track.as_ref()), l))),
        Err(WorldError::Fetch(light_err)) => match w.fetch_bundle(&bundle_path(&row.root)).await {
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
        },
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
    if bundle.epoch != row.epoch {
        return Err(AppError::Missing(format!(
            "the bundle is for epoch {}, not {}",
            bundle.epoch, row.epoch
        )));
    }
    let scored_here = bundle.projects.iter().any(|p| p.project == project)
        || bundle.envelope_score(project).is_some()
        || bundle.theses.iter().any(|t| t.project == project);
    if !scored_here {
        return Err(no_score());
    }
    let proposal = proposal?;
    let inputs = check_inputs(&w, row.root, bundle, project, intake).await;
    let (onchain, expected) = (proposal.final_root, proposal.signer);
    let mut score = check_bundle(&tree, project, onchain, own.as_ref());
    let built_root = tree.built_root().map_err(AppError::from)?;
    let mut signer_flags = Vec::new();
    if let Loaded::Light(b) = &loaded {
        signer_flags.extend(b.0.findings().iter().map(light_finding_words));
    }
    let signed = proposal
        .call
        .map_err(AppError::from)
        .and_then(|call| proposal_signer(&w, &row, &call));
    let signer = match signed {
        Ok((s, signed_root, signed_inputs)) => {
            if s != expected {
                signer_flags.push(format!(
                    "the root was signed by {s}, not by the registry's signer {expected}"
                ));
            }
            if signed_root != built_root {
                signer_flags
                    .push("the signed root differs from the root this bundle builds".into());
            }
            // The inputs (and the columns the bounds come from, C22) are the ones signed.
            if signed_inputs != bundle.inputs_root {
                signer_flags.push(format!(
                    "the signed inputsRoot is {signed_inputs}, not the bundle's {}: its inputs are not the ones signed",
                    bundle.inputs_root
                ));
            }
            Ok(s)
        }
        Err(e) => Err(e),
    };
    let previous = match &score {
        Ok(_) => Some(previous_tie(&w, bundle, project).await),
        Err(_) => None,
    };
    if let Ok(c) = &mut score {
        c.expected_signer = expected;
        c.signer = signer.clone();
        c.flags.extend(signer_flags.iter().cloned());
        c.source = source;
        match previous {
            Some(Ok(words)) => c.previous = Some(words),
            Some(Err(flag)) => c.flags.push(flag),
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
    let counting = counting::check_counting(&w, bundle, row.proposed_block, project).await;
    if let (Ok(Some(h)), Some(Ok(c))) = (&mut human, &counting) {
        h.flags.extend(c.flags.iter().cloned());
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
            h.flags.push(format!(
                "the targets could not be checked against the ScorerRegistry: {e}"
            ));
        }
        h.flags.extend(signer_flags.iter().cloned());
        if onchain.is_some() {
            h.registry_says = Some(
                epochs::verify_score(
                    &rpc,
                    reg,
                    row.epoch,
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
            epoch: row.epoch,
            score_wad,
            proof,
        }),
        _ => None,
    };
    let lanes_at = w.contracts.fee_lanes.unwrap_or_default();
    let creator = lanes.map(|r| {
        r.and_then(|l| {
            let record = record_now(&l.state, leaf);
            check_creator(l.state, row.epoch, epoch_score, pre_data).map(|c| CreatorCheck {
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
        status: row.status,
        score,
        signer,
        expected_signer: expected,
        human,
        creator,
        inputs,
        counting,
    })
}

/// Every proposed epoch and its status on chain, latest first, with the bond, the adjudicator and
/// `account`'s credited bonds.
async fn epoch_rows(w: &World, account: Option<Address>) -> Result<Registry, AppError> {
    Ok(discover(
        &w.rpc(),
        w.contracts.epoch_registry,
        w.deployment_block,
        account,
    )
    .await?)
}

/// The Score page's check, as the view reads it: `None` before any, loading while the latest
/// dispatch runs, then its result.
/// What one check is dispatched with: the network, the epoch, the project and its own inputs.
type CheckInput = (World, EpochRow, Address, Option<OwnInputs>);

#[derive(Clone, Copy)]
struct CheckSlot(Action<CheckInput, Result<EpochCheck, AppError>>);

impl CheckSlot {
    fn get(&self) -> Option<Load<EpochCheck>> {
        if self.0.pending().get() {
            return Some(Load::Loading);
        }
        self.0.value().get().map(|r| match r {
            Ok(c) => Load::Ready(c),
            Err(e) => Load::Failed(e),
        })
    }

    /// Clears the result (another project or epoch was picked).
    fn clear(&self) {
        self.0.value().set(None);
    }
}

#[component]
pub fn ScorePage() -> impl IntoView {
    let ctx = Ctx::get();
    view! {
        <section class="card">
            <h1>"Scores"</h1>
            <p class="lede">"Each day's scores are committed on chain as one Merkle root, signed by the scorer (EIP-712), challengeable for 72 hours, then final. Pick a project: your browser checks its score against the final root on chain."</p>
            {with_world(move |w| view! { <ScoreBody world=w /> })}
        </section>
        {let _ = ctx;}
    }
}

#[component]
fn ScoreBody(world: World) -> impl IntoView {
    let ctx = Ctx::get();
    let mut names: Vec<(String, Address)> = world
        .meta
        .projects
        .iter()
        .filter_map(|(a, m)| a.parse::<Address>().ok().map(|a| (m.name.clone(), a)))
        .collect();
    names.sort();
    let has_names = !names.is_empty();
    // D9: the search knows the named projects and the launches' symbols (one deployless call).
    let (wl, named) = (world.clone(), names.clone());
    // Re-read on every confirmed transaction; a failed read is tried twice more, then said (names and
    // addresses still work without symbols).
    let launches = LocalResource::new(move || {
        ctx.refresh.track();
        let w = wl.clone();
        async move {
            let mut tries = 0;
            loop {
                match crate::chain::launchpad::all(&w.rpc(), w.contracts.launchpad).await {
                    Ok(v) => return Ok(v),
                    Err(e) if tries >= 2 => return Err(AppError::from(e)),
                    Err(_) => {
                        tries += 1;
                        gloo_timers::future::TimeoutFuture::new(500 * tries).await;
                    }
                }
            }
        }
    });
    let known = Memo::new(move |_| {
        let l = launches.get().and_then(Result::ok).unwrap_or_default();
        pick::candidates(
            named.iter().map(|(n, a)| (*a, n.clone())),
            l.into_iter().map(|i| (i.token, i.name, i.symbol)),
        )
    });
    // The candidate at an address, if the page can name it.
    let candidate = move |a: Address| known.with(|k| k.iter().find(|c| c.address == a).cloned());
    let query = RwSignal::new(String::new());
    let picked = Memo::new(move |_| pick::resolve(&query.get(), &known.get()));
    let me = ctx
        .wallet
        .get_untracked()
        .account
        .filter(|a| world.project_name(a).is_some());
    // A link from where the project is traded (`/score?project=0x…`, issue 42 item 4) picks it and
    // verifies it in the latest final epoch as soon as the epochs are read.
    let from_link: Option<Address> = leptos_router::hooks::use_query_map()
        .with_untracked(|q| q.get("project"))
        .and_then(|a| a.parse().ok());
    let project = RwSignal::new(from_link.or(me).or_else(|| names.first().map(|(_, a)| *a)));
    let selected: RwSignal<Option<u64>> = RwSignal::new(None);
    // The check of one project in one epoch: an action, so only the latest dispatch's result shows.
    let check_action = Action::new_local(move |(w, row, p, mine): &CheckInput| {
        run_check(w.clone(), row.clone(), *p, mine.clone())
    });
    let check = CheckSlot(check_action);
    // A query names the project, or nothing: never the list's earlier choice (D9).
    Effect::new(move |_| match picked.get() {
        Some(pick::Pick::Project(a)) if project.get_untracked() != Some(a) => {
            project.set(Some(a));
            check.clear();
        }
        None | Some(pick::Pick::Project(_)) => {}
        Some(_) => {
            project.set(None);
            check.clear();
        }
    });
    let own: RwSignal<Option<Result<OwnInputs, AppError>>> = RwSignal::new(None);
    // Connecting (or switching to) an account that is a project picks it.
    let w0 = world.clone();
    Effect::new(move |prev: Option<Option<Address>>| {
        let account = ctx.wallet.with(|w| w.account);
        if prev.is_some_and(|p| p != account) {
            if let Some(a) = account.filter(|a| w0.project_name(a).is_some()) {
                project.set(Some(a));
                check.clear();
            }
        }
        account
    });
    let w1 = world.clone();
    // Every epoch's status; re-read on every confirmed transaction, a newer read superseding an
    // older one.
    let rows = LocalResource::new(move || {
        ctx.refresh.track();
        let account = ctx.wallet.with(|w| w.account);
        let w = w1.clone();
        async move {
            epoch_rows(&w, account)
                .await
                .context("Reading the epochs from the EpochRegistry")
        }
    });
    // The first load selects the latest final epoch.
    Effect::new(move |_| {
        if let Some(Ok(reg)) = rows.get() {
            if selected.get_untracked().is_none() {
                selected.set(reg.epochs.iter().find(|r| r.status == 3).map(|r| r.epoch));
            }
        }
    });
    let w2 = world.clone();
    let verify = move || {
        let (Some(p), Some(e), Some(Ok(rs))) = (
            project.get_untracked(),
            selected.get_untracked(),
            rows.get_untracked(),
        ) else {
            return;
        };
        let Some(row) = rs.epochs.into_iter().find(|r| r.epoch == e) else {
            return;
        };
        let mine = own.get_untracked().and_then(Result::ok);
        check_action.dispatch_local((w2.clone(), row, p, mine));
    };
    let verify2 = verify.clone();
    let verify3 = verify.clone();
    let verify4 = verify.clone();
    let pending_link = StoredValue::new(from_link.is_some());
    Effect::new(move |_| {
        if pending_link.get_value() && selected.get().is_some() && matches!(rows.get(), Some(Ok(_)))
        {
            pending_link.set_value(false);
            verify4();
        }
    });
    let on_done = Callback::new(move |()| verify3());
    let world_for_names = world.clone();
    let world_for_table = world.clone();
    view! {
        <label class="field">
            <span class="label">"Project"</span>
            <select id="project" on:change=move |ev| { query.set(String::new()); project.set(event_target_value(&ev).parse().ok()); check.clear(); }>
                <option value="" disabled=true selected=move || project.get().is_none()>"— none picked —"</option>
                {names.into_iter().map(|(n, a)| view! { <option value=a.to_string() selected=move || project.get() == Some(a)>{n}" · "{fmt::short_addr(&a.to_checksum(None))}</option> }).collect_view()}
            </select>
            <span class="hint">{if has_names { "Names come from the deployment's metadata file and are not verified: the address is what is checked." } else { "This deployment publishes no project names: type the project's address." }}</span>
        </label>
        <label class="field">
            <span class="label">"Or find a project: its name, symbol or address"</span>
            {move || launches.get().and_then(Result::err).map(|e| view! { <span class="hint" id="symbols-unread">{format!("Launch symbols could not be read ({e}); names and addresses still work.")}</span> })}
            <input id="project-query" placeholder="GARD, Acorn, 0x…" spellcheck="false" autocomplete="off" prop:value=move || query.get() on:input=move |ev| query.set(event_target_value(&ev)) />
            {move || {
                match picked.get()? {
                    pick::Pick::Project(a) => Some(view! { <span class="muted" id="project-query-result">{format!("→ {} · {}", candidate(a).map_or_else(|| "an unnamed address".into(), |c| c.label()), a.to_checksum(None))}</span> }.into_any()),
                    pick::Pick::Choices(cs) => Some(view! {
                        <span class="warn" id="project-query-result">"Several projects match; pick one: "
                            {cs.into_iter().map(|c| { let a = c.address; view! { <button class="secondary project-choice" data-address=a.to_string() on:click=move |_| query.set(a.to_checksum(None))>{c.label()}</button>" " } }).collect_view()}
                        </span>
                    }.into_any()),
                    pick::Pick::NoMatch(q) => Some(view! { <span class="bad" id="project-query-error">{format!("No project is named '{q}', and no launch has that symbol. Type a name, a symbol or a full address (0x and 40 hex digits).")}</span> }.into_any()),
                    pick::Pick::NotAnAddress(q) => Some(view! { <span class="bad" id="project-query-error">{format!("'{q}' is not an address: an address is 0x and 40 hex digits.")}</span> }.into_any()),
                }
            }}
        </label>
        <label class="field">
            <span class="label">"Your inputs file (optional)"</span>
            <span class="hint">"A JSON file with your project's inputs {track, features, claims, failed, verifiedOutput, ageSecs, salt}. It is read here, in your browser, and never uploaded; the score is then recomputed from it step by step."</span>
            <input type="file" id="inputs-file" accept="application/json,.json" on:change=move |ev| {
                use wasm_bindgen::JsCast;
                let file = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()).and_then(|i| i.files()).and_then(|f| f.get(0));
                check.clear();
                let Some(file) = file else { own.set(None); return };
                leptos::task::spawn_local(async move {
                    let text = wasm_bindgen_futures::JsFuture::from(file.text()).await.ok().and_then(|v| v.as_string());
                    own.set(Some(text.ok_or_else(|| AppError::missing("the file could not be read")).and_then(|t| parse_own_inputs(&t))));
                });
            } />
            {move || own.get().map(|r| match r {
                Ok(o) => view! { <span class="muted" id="inputs-status">{format!("Read locally: track {}, {} features{}.", o.data.track, o.data.features.len(), if o.salt.is_some() { ", with salt" } else { "" })}</span> }.into_any(),
                Err(e) => view! { <span class="bad" id="inputs-status">{e.to_string()}</span> }.into_any(),
            })}
        </label>
        {
            // Issue 42 item 4: the picked project's published score over the latest final epochs, dated.
            let w = world.clone();
            move || project.get().map(|p| view! { <h2>"Score history"</h2><ScoreHistory world=w.clone() project=p /> })
        }
        <h2>"Epochs"</h2>
        <Transition fallback=|| view! { <Loading what="Reading epoch status from the registry…" /> }>
        <ErrorBoundary fallback=caught>
        {move || rows.get().map(|loaded| loaded.map(|reg| {
            let (registry, currency) = (world_for_table.contracts.epoch_registry, world_for_table.description().native_currency.symbol.clone());
            view! {
                <BondCredit credit=reg.credit registry=registry currency=currency.clone() />
                {if reg.epochs.is_empty() {
                    view! { <p class="empty">"No epochs yet."</p> }.into_any()
                } else {
                    let v = verify2.clone();
                    let on_pick = Callback::new(move |e: u64| { selected.set(Some(e)); check.clear(); v(); });
                    view! { <EpochTable reg=reg registry=registry currency=currency selected=selected on_pick=on_pick /> }.into_any()
                }}
            }
        }))}
        </ErrorBoundary>
        </Transition>
        <div class="actions">
            <button class="primary" id="verify-score" disabled=move || project.get().is_none() on:click=move |_| verify()>{move || match project.get() {
                None => "Pick a project to verify".to_string(),
                Some(a) => format!("Verify {} in the selected epoch", candidate(a).map_or_else(|| fmt::short_addr(&a.to_checksum(None)), |c| c.name)),
            }}</button>
        </div>
        {move || check.get().map(|c| match c {
            Load::Loading => view! { <Loading what="Fetching the bundle and checking it against the chain…" /> }.into_any(),
            Load::Failed(e) => view! { <div class="result bad" id="score-result" role="alert">{e.to_string()}</div> }.into_any(),
            Load::Ready(e) => {
                // The result names the project it is about (D9), from the check itself.
                let checked = e.project;
                let name = untrack(|| candidate(checked)).map(|c| c.label()).or_else(|| world_for_names.project_name(&checked)).unwrap_or_else(|| "Unnamed project".into());
                let name = format!("{name} ({})", checked.to_checksum(None));
                let EpochCheck { project: _, status, score, signer, expected_signer, human, creator, inputs, counting } = e;
                // Issue 42 item 8: after a flagged score, the other parts' checks cannot vouch for the
                // bundle; they are shown without their green (`.after-flag`), under a sentence saying so.
                let flagged = matches!(&score, Ok(c) if !c.flags.is_empty());
                view! {
                    {match score {
                        Ok(c) => score_view(c, name).into_any(),
                        Err(msg) => view! {
                            <div class="result empty" id="score-result" role="status">
                                <strong>{format!("{name}: ")}</strong>{msg.to_string()}{matches!(human, Ok(Some(_))).then_some(": its human score below comes from its graded theses alone (pre-data, C10).")}
                                <dl><dt>"EIP-712 signer"</dt><dd id="signer-check">{signer_words(&signer, expected_signer)}</dd></dl>
                            </div>
                        }.into_any(),
                    }}
                    <div class=if flagged { "after-flag" } else { "" }>
                    {flagged.then(|| view! { <p class="banner warn" id="after-flag-note">"The score above is flagged, so this bundle does not hold. The checks below are of its other parts: where they agree, they do not make the bundle right."</p> })}
                    <h2>"Verified inputs"</h2>
                    <InputsView check=inputs />
                    <h2>"Human score"</h2>
                    <HumanView check=human status=status />
                    <counting::CountingView check=counting />
                    <h2>"Creator share"</h2>
                    <CreatorView check=creator on_done=on_done />
                    </div>
                }.into_any()
            }
        })}
    }
}

/// A recomputation step's value for people (issue 42 item 8): a WAD (an integer of more than 12
/// digits) as its exact decimal, anything else (a digest, a count) as it is.
fn step_value(v: &str) -> String {
    match U256::from_str_radix(v, 10) {
        Ok(x) if v.len() > 12 => fmt::units_exact(x, 18),
        _ => v.to_owned(),
    }
}

/// The signer line: recovered signer against the registry's.
fn signer_words(signer: &Result<Address, AppError>, expected: Address) -> String {
    match signer {
        Ok(s) if *s == expected => format!("{} = the registry's signer ✓", s.to_checksum(None)),
        Ok(s) => format!(
            "{} ≠ the registry's signer {}",
            s.to_checksum(None),
            expected.to_checksum(None)
        ),
        Err(e) => format!("not recovered: {e}"),
    }
}

/// The systematic score's result box.
fn score_view(c: ScoreCheck, name: String) -> impl IntoView {
    let ok = c.flags.is_empty()
        && c.leaf_reaches_chain
        && c.signer.as_ref().is_ok_and(|s| *s == c.expected_signer);
    let pending = c.onchain_root.is_none();
    let class = if ok {
        "result ok"
    } else if pending && c.flags.is_empty() {
        "result empty"
    } else {
        "result bad"
    };
    let score = c.score_wad;
    let moved = (c.published_wad != score).then_some(c.published_wad);
    view! {
        <div class=class id="score-result" role="status">
            <strong>{if ok { "Verified against the chain. ".to_string() } else if pending && c.flags.is_empty() { "Not final yet. ".to_string() } else { "Flagged: this bundle does not match the chain. ".to_string() }}</strong>
            {format!("{name}: {}score ", if moved.is_some() { "systematic " } else { "" })}<Amount raw=score decimals=18 unit="points" sig=5 />
            {moved.map(|p| view! { <p id="published-score">"Published score (what FeeLanes and the creator share read, C27): "<Amount raw=p decimals=18 unit="points" sig=5 />" — the human layer's, checked below. The systematic score is kept in its own leaf: the next epoch smooths from it."</p> })}
            <ul class="flags">{c.flags.iter().map(|f| view! { <li>{f.clone()}</li> }).collect_view()}</ul>
            <dl>
                <dt>"Checked from"</dt><dd id="check-source">{match c.source {
                    CheckSource::Light { bytes } => format!("the project's light publication: {} kB (its leaves' proofs and its track's bounds proven against the signed inputsRoot; the whole cohort is the watchtower's to check)", fmt::thousands(bytes.div_ceil(1000) as u64)),
                    CheckSource::Full => "the whole epoch bundle".to_string(),
                }}</dd>
                <dt>"On-chain final root"</dt><dd><code>{c.onchain_root.map_or("— (not final yet)".to_string(), |r| r.to_string())}</code></dd>
                <dt>{match c.source { CheckSource::Light { .. } => "Root the proof reaches", CheckSource::Full => "Root rebuilt from the bundle" }}</dt><dd><code>{c.rebuilt_root.to_string()}</code></dd>
                {c.previous.clone().map(|p| view! { <dt>"Previous score"</dt><dd id="previous-score">{p}</dd> })}
                <dt>"Proof"</dt><dd>{format!("{} hashes; {}", c.proof.len(), if c.leaf_reaches_chain { "reaches the on-chain root" } else { "does not reach an on-chain final root" })}</dd>
                <dt>"EIP-712 signer"</dt><dd id="signer-check">{signer_words(&c.signer, c.expected_signer)}</dd>
            </dl>
            {(c.report.is_none() && c.private).then(|| view! { <p class="muted">"This project's inputs are private: only their commitment is published. Pick its inputs file above to recompute the score from it."</p> })}
            {c.check.report.clone().map(|r| view! {
                <details open=!r.matches>
                    <summary id="recompute-summary">{format!("Recomputed from {}: {}", if c.from_own_file { "your inputs file" } else { "the public inputs" }, if r.matches { "every step matches".to_string() } else { format!("differs first at '{}'", r.first_mismatch.map_or("", |s| s.name())) })}</summary>
                    <ol class="steps">
                        {r.steps.into_iter().map(|s| {
                            let name = s.step.name();
                            view! { <li class=if s.ok { "ok" } else { "bad" }><strong>{name}</strong>{if s.ok { " ✓".to_string() } else { format!(": published {}, recomputed {}", step_value(&s.expected), step_value(&s.computed)) }}</li> }
                        }).collect_view()}
                    </ol>
                </details>
            })}
        </div>
    }
}

#[cfg(test)]
mod step_value_tests {
    #[test]
    fn a_wad_reads_as_a_decimal() {
        assert_eq!(
            super::step_value("36353657776000000001"),
            "36.353657776000000001"
        );
        assert_eq!(super::step_value("7"), "7");
        assert_eq!(super::step_value("0xabc"), "0xabc");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
            c.flags.iter().any(|f| f.contains("on-chain final root")),
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
        assert!(c.flags.iter().any(|f| f.contains("your inputs file")));
        assert!(parse_own_inputs("{\"track\": 1}")
            .unwrap_err()
            .to_string()
            .contains("not valid"));
    }
}
