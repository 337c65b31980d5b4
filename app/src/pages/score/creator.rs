//! Score page, creator share (C17): what a score buys the project's creator, with the parameters
//! **read from FeeLanes on chain** (never the code's placeholders). The share is recomputed here
//! with `eden_core::creator` and cross-checked against `FeeLanes.creatorShare` and
//! `FeeLanes.previewSplit` (an example fee of one whole unit of the launch's quote asset: 1 ETH, or
//! 1 of its stablecoin).
//!
//! FeeLanes records a project's score only from a final **score** leaf of the **latest final
//! epoch** (`updateScore` → `EpochRegistry.verifyScore`), and the stored score counts only while its
//! epoch is still the latest final one (`eden_core::creator::current_score`; otherwise the floor), so
//! the share "now" is the one at that current score; the share the selected epoch's score would buy
//! once recorded is shown next to it.
//!
//! The other lanes of the example fee follow FeeLanes' split (the creator's amount, φ_LP escrow of it,
//! and the rest pro rata to the lane weights, buyback taking the dust), computed by
//! `eden_core::creator::lane_split` and cross-checked against `previewSplit`.

use crate::chain::abi::{IFeeLanes, ILaunchpad};
use crate::chain::fee_lanes::OwnBuybacks;
use crate::error::AppError;
use crate::state::Ctx;
use alloy_primitives::{Address, B256, U256};
pub use eden_core::check::LaneState;
use eden_core::check::{self, CreatorFinding};
use leptos::prelude::*;

/// The creator share check: core's report ([`eden_core::check::CreatorCheck`], reached through
/// `Deref`) and its findings in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreatorCheck {
    /// Core's report.
    pub check: check::CreatorCheck,
    /// Differences from the contract, in words; empty when everything matches.
    pub flags: Vec<String>,
    /// FeeLanes and the project (its token), for the actions below.
    pub lanes: Address,
    pub token: Address,
    /// `FeeLanes.creatorBalance`: what the creator has earned and not been paid yet.
    pub owed: U256,
    /// `FeeLanes.ownBuybackEscrow`: the creator's own-token buyback waiting for the keeper (§7).
    pub own_escrow: U256,
    /// The own-token buybacks swept so far.
    pub own_done: OwnBuybacks,
    /// The selected epoch's verified score leaf, when FeeLanes would record it now.
    pub record: Option<RecordScore>,
    /// The registry's adjudicator, who alone sets or revokes Verified (§4.4).
    pub adjudicator: Address,
    /// The launch's fees not yet in the lanes.
    pub pending: PendingFees,
}

/// A launch's fees not yet collected into the lanes: anyone may collect them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PendingFees {
    pub launchpad: Address,
    /// Curve fees (`Launchpad.collectFees`).
    pub curve: U256,
    /// A graduated launch's pool fees (`Launchpad.collectPoolFees`, simulated): quote for the
    /// lanes and the tokens it burns (#14).
    pub pool: Option<(U256, U256)>,
}

/// A final score leaf FeeLanes does not hold yet: `updateScore(token, epoch, score, proof)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordScore {
    pub epoch: u64,
    pub score_wad: U256,
    pub proof: Vec<B256>,
}

/// The leaf FeeLanes would record now (C17): the epoch is the latest final one, its score leaf
/// reaches the final root, and FeeLanes holds no score of this epoch or a later one yet
/// (`updateScore` reverts `StaleScore` otherwise).
pub fn record_now(state: &LaneState, leaf: Option<RecordScore>) -> Option<RecordScore> {
    let leaf = leaf?;
    let latest = state.latest_final?;
    let held = state.recorded && state.stored_epoch >= leaf.epoch;
    (leaf.epoch == latest && !held).then_some(leaf)
}

impl std::ops::Deref for CreatorCheck {
    type Target = check::CreatorCheck;
    fn deref(&self) -> &check::CreatorCheck {
        &self.check
    }
}

/// A creator-share finding in words.
pub fn creator_finding_words(f: &CreatorFinding) -> String {
    match f {
        CreatorFinding::ShareDiffers { chain, recomputed } => format!("FeeLanes.creatorShare is {chain}, the ramp recomputed from its parameters gives {recomputed}"),
        CreatorFinding::SplitDiffers => {
            "FeeLanes.previewSplit differs from the split recomputed here".into()
        }
    }
}

/// The check of the share and the example split (`eden_core::check::check_creator`), in words.
///
/// # Errors
/// Invalid on-chain parameters or an out-of-range score, in plain words.
pub fn check_creator(
    state: LaneState,
    epoch: u64,
    epoch_score: Option<U256>,
    pre_data: bool,
) -> Result<CreatorCheck, AppError> {
    let check =
        check::check_creator(state, epoch, epoch_score, pre_data).map_err(AppError::from)?;
    let flags = check.findings.iter().map(creator_finding_words).collect();
    Ok(CreatorCheck {
        check,
        flags,
        lanes: Address::ZERO,
        token: Address::ZERO,
        owed: U256::ZERO,
        own_escrow: U256::ZERO,
        own_done: OwnBuybacks::default(),
        record: None,
        adjudicator: Address::ZERO,
        pending: PendingFees::default(),
    })
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

/// The creator-share section of the result.
#[component]
pub fn CreatorView(
    check: Option<Result<CreatorCheck, AppError>>,
    /// Runs after an action here confirmed (the check is run again).
    on_done: Callback<()>,
) -> impl IntoView {
    use crate::fmt::percent_wad;
    use crate::ui::Amount;
    let c = match check {
        None => return view! { <div class="result empty" id="creator-share"><strong>"Creator share: "</strong>"FeeLanes is not deployed on this network."</div> }.into_any(),
        Some(Err(e)) => return view! { <div class="result bad" id="creator-share" role="alert"><strong>"Creator share: "</strong>{e.to_string()}</div> }.into_any(),
        Some(Ok(c)) => c,
    };
    let ok = c.flags.is_empty();
    let p = c.state.params;
    let floor = if c.state.verified {
        p.share.f_backed
    } else {
        p.share.f_unverified
    };
    let s = c.split;
    let (dec, sym) = (c.state.fee_decimals, c.state.fee_symbol.clone());
    let lane = move |name: &'static str, v: U256| view! { <dt>{name}</dt><dd><Amount raw=v decimals=dec unit=sym.clone() sig=6 />{format!(" ({})", percent_wad(v, 4))}</dd> };
    view! {
        <div class=if ok { "result ok" } else { "result bad" } id="creator-share" role="status">
            <strong title="rule C17 in docs/protocol.md">{if ok { "Creator share: FeeLanes agrees. " } else { "Creator share flagged: " }}</strong>
            {format!("{} floor {}, ceiling {} (FeeLanes' parameters on chain).", if c.state.verified { "Backed by the adjudicator (its badge):" } else { "Not backed by the adjudicator:" }, percent_wad(floor, 4), percent_wad(p.share.ceiling, 4))}
            <ul class="flags">{c.flags.iter().map(|f| view! { <li>{f.clone()}</li> }).collect_view()}</ul>
            <dl>
                {c.share_at_epoch.zip(c.epoch_score).map(|(sh, sc)| view! {
                    <dt>{if c.pre_data { "This epoch's pre-data score buys" } else { "This epoch's published score buys" }}</dt><dd id="share-at-epoch"><span title=crate::fmt::units_exact(sh, 16)>{percent_wad(sh, 5)}</span>" of every fee at S = "<Amount raw=sc decimals=18 unit="points" sig=5 />{epoch_note(c.epoch, &c.state)}</dd>
                })}
                <dt>"Paid now"</dt><dd id="share-now"><span title=crate::fmt::units_exact(c.share_now, 16)>{percent_wad(c.share_now, 5)}</span>
                    {paid_now_note(&c.state)}
                    {if c.share_now == c.state.chain_share { " = FeeLanes.creatorShare ✓" } else { " ≠ FeeLanes.creatorShare" }}</dd>
            </dl>
            <OwnBuyback share=c.state.own_buyback_share escrow=c.own_escrow done=c.own_done decimals=dec symbol=c.state.fee_symbol.clone() />
            <CreatorActions c=c.clone() on_done=on_done />
            <details>
                <summary id="split-summary">{format!("Split of an example fee of 1 {} now{}", c.state.fee_symbol, if c.split == c.state.preview { ": equals FeeLanes.previewSplit ✓" } else { ": differs from FeeLanes.previewSplit" })}</summary>
                <dl>
                    {lane("To the creator", s.to_creator)}
                    {lane("Liquidity escrow (φ_LP of the creator's)", s.to_liquidity)}
                    {lane("Own-token buyback (the launch's share of the creator's payout)", s.to_own_buyback)}
                    {lane("Scorer pool", s.to_scorers)}
                    {lane("Holder pot", s.to_holders)}
                    {lane("ROOT buyback", s.to_buyback)}
                    {lane("of which unearned by the creator (ceiling − share)", s.unearned)}
                </dl>
            </details>
        </div>
    }
    .into_any()
}

/// §7: the share of the creator's payout that buys back and burns the token, fixed at launch, and what waits
/// in its escrow for the lanes' keeper (`FeeLanes.sweepOwnBuyback`, after graduation, with a minimum out).
#[component]
fn OwnBuyback(
    share: U256,
    escrow: U256,
    done: OwnBuybacks,
    decimals: u8,
    symbol: String,
) -> impl IntoView {
    use crate::fmt::percent_wad;
    use crate::ui::Amount;
    let text = if share.is_zero() {
        "No own-token buyback: the creator chose none at launch.".to_string()
    } else {
        format!(
            "Own-token buyback: {} of the creator's payout (after the liquidity escrow) buys the token in its pool and burns it; fixed at launch. ",
            percent_wad(share, 4)
        )
    };
    let sym = symbol.clone();
    view! {
        <p id="own-buyback" data-share=share.to_string() data-escrow=escrow.to_string() data-burned=done.burned.to_string()>{text}
            {(done.sweeps > 0).then(|| view! { {format!("{} so far: ", if done.sweeps == 1 { "One buyback".to_string() } else { format!("{} buybacks", done.sweeps) })}<Amount raw=done.quote_in decimals=decimals unit=sym.clone() sig=6 />{format!(" spent, {} tokens bought and burned. ", crate::fmt::units(done.burned, 18, 6))}})}
            {(!escrow.is_zero()).then(|| view! { "Waiting for the keeper's sweep: "<Amount raw=escrow decimals=decimals unit=symbol.clone() sig=6 />"." })}</p>
    }
}

/// Anyone records the verified latest final score in FeeLanes (`updateScore`, so the split pays on
/// it) and pays the creator what FeeLanes owes (`claimCreator`, always to the launch's creator).
#[component]
fn CreatorActions(c: CreatorCheck, on_done: Callback<()>) -> impl IntoView {
    use crate::chain::rpc::TxRequest;
    use crate::ui::Amount;
    use alloy_sol_types::SolCall;
    let ctx = Ctx::get();
    let (lanes, token) = (c.lanes, c.token);
    let run = move |label: String, data: Vec<u8>| {
        leptos::task::spawn_local(async move {
            if crate::send::send(ctx, label, TxRequest::call(lanes, data)).await {
                on_done.run(());
            }
        });
    };
    let record = c.record.clone().map(|r| {
        let label = format!("Record epoch {}'s score in FeeLanes", r.epoch);
        let data = IFeeLanes::updateScoreCall {
            token,
            epoch: r.epoch,
            scoreWad: r.score_wad,
            proof: r.proof.clone(),
        }
        .abi_encode();
        view! {
            <p id="record-score-row">"FeeLanes pays on this epoch's score once it is recorded; anyone may record it with the proof checked above. "
                <button class="secondary" id="record-score" on:click=move |_| run(label.clone(), data.clone())>"Record this score in FeeLanes"</button></p>
        }
    });
    let (dec, sym) = (c.state.fee_decimals, c.state.fee_symbol.clone());
    let owed = c.owed;
    let claim = if owed.is_zero() {
        view! { <p class="muted" id="creator-owed">"FeeLanes owes the creator nothing now."</p> }
            .into_any()
    } else {
        let label = format!("Pay the creator {} {sym}", crate::fmt::units(owed, dec, 6));
        let data = IFeeLanes::claimCreatorCall { token }.abi_encode();
        view! {
            <p id="creator-owed">"Earned by the creator, not paid yet: "<Amount raw=owed decimals=dec unit=sym.clone() sig=6 />" "
                <button class="secondary" id="claim-creator" title="Anyone may send it; FeeLanes pays the launch's creator" on:click=move |_| run(label.clone(), data.clone())>"Pay the creator"</button></p>
        }.into_any()
    };
    // Fees not in the lanes yet: curve fees, and a graduated launch's pool fees (#14), split by FeeLanes
    // like every fee once anyone collects them.
    let pend = c.pending;
    let pad = pend.launchpad;
    let collect = move |label: String, data: Vec<u8>| {
        leptos::task::spawn_local(async move {
            if crate::send::send(ctx, label, TxRequest::call(pad, data)).await {
                on_done.run(());
            }
        });
    };
    let curve = (!pend.curve.is_zero()).then(|| {
        let data = ILaunchpad::collectFeesCall { token }.abi_encode();
        let label = format!("Collect {} {} of curve fees into the lanes", crate::fmt::units(pend.curve, dec, 6), sym);
        view! {
            <p id="curve-fees">"Curve fees not yet in the lanes: "<Amount raw=pend.curve decimals=dec unit=sym.clone() sig=6 />" "
                <button class="secondary" id="collect-curve-fees" on:click=move |_| collect(label.clone(), data.clone())>"Collect into the lanes"</button></p>
        }
    });
    let pool = pend.pool.map(|(quote, burned)| {
        let data = ILaunchpad::collectPoolFeesCall { token }.abi_encode();
        let label = format!("Collect {} {} of pool fees into the lanes", crate::fmt::units(quote, dec, 6), sym);
        view! {
            <p id="pool-fees" data-quote=quote.to_string() data-burn=burned.to_string()>"The graduated pool's fees, not yet in the lanes: "<Amount raw=quote decimals=dec unit=sym.clone() sig=6 />
                {format!(" (and {} of the token, burned when collected) ", crate::fmt::units(burned, 18, 6))}
                <button class="secondary" id="collect-pool-fees" on:click=move |_| collect(label.clone(), data.clone())>"Collect into the lanes"</button></p>
        }
    });
    // §4.4: the adjudicator (and only it: FeeLanes refuses anyone else) grants or revokes Verified.
    let verified = c.state.verified;
    let adjudicator = c.adjudicator;
    let badge = move || {
        (ctx.wallet.with(|w| w.account) == Some(adjudicator) && !adjudicator.is_zero()).then(|| {
            let (label, text) = if verified {
                ("Revoke the backed badge (adjudicator)".to_string(), "Revoke the backed badge")
            } else {
                ("Grant the backed badge (adjudicator)".to_string(), "Grant the backed badge")
            };
            let data = IFeeLanes::setVerifiedCall {
                token,
                isVerified: !verified,
            }
            .abi_encode();
            view! {
                <p id="verified-row">"You are the registry's adjudicator: your badge (Verified in §4.4, \"backed\" here) lifts the creator's floor and the pre-data cap, and never changes a score. "
                    <button class="secondary" id="set-verified" data-verified=verified.to_string() on:click=move |_| run(label.clone(), data.clone())>{text}</button></p>
            }
        })
    };
    view! { {record}{claim}{curve}{pool}{badge} }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eden_core::check::LaneParams;
    use eden_core::creator::CreatorShareParams;
    use eden_core::math::WAD;

    /// The example fee of an ETH pair: 1 ETH.
    const EXAMPLE_FEE: U256 = U256::from_limbs([1_000_000_000_000_000_000, 0, 0, 0]);

    fn pct(x: u64) -> U256 {
        U256::from(x) * U256::from(10_000_000_000_000_000u64)
    }

    /// The deploy script's placeholder lanes (Deploy.s.sol): 10 / 20 / 40 %, weights 0.2 / 0.3 / 0.1, φ_LP 0.25.
    fn params() -> LaneParams {
        LaneParams {
            share: CreatorShareParams {
                f_backed: pct(20),
                f_unverified: pct(10),
                ceiling: pct(40),
            },
            scorer_weight: pct(20),
            holder_weight: pct(30),
            buyback_weight: pct(10),
            lp_share: pct(25),
        }
    }

    #[test]
    fn split_adds_up_and_follows_the_ramp() {
        let p = params();
        // S = 50 points, unverified: 10 % + 30 % × 0.5 = 25 %.
        let s = p
            .split(U256::from(50u8) * WAD, false, EXAMPLE_FEE, U256::ZERO)
            .unwrap();
        assert_eq!(s.creator_share, pct(25));
        assert_eq!(s.creator_amount, pct(25));
        assert_eq!(s.unearned, pct(15));
        assert_eq!(s.to_liquidity + s.to_creator, s.creator_amount);
        assert_eq!(
            s.to_creator + s.to_liquidity + s.to_scorers + s.to_holders + s.to_buyback,
            EXAMPLE_FEE
        );
        // The rest (75 %) pro rata 2 : 3 : 1.
        assert_eq!(s.to_scorers, pct(25));
        assert_eq!(s.to_holders, U256::from(375_000_000_000_000_000u64));
    }

    #[test]
    fn a_contract_that_disagrees_is_flagged() {
        let p = params();
        // A launch whose creator fixed a 30 % own-token buyback (§7).
        let preview = p.split(U256::ZERO, true, EXAMPLE_FEE, pct(30)).unwrap();
        let state = LaneState {
            params: p,
            verified: true,
            own_buyback_share: pct(30),
            stored_score: U256::ZERO,
            stored_epoch: 0,
            recorded: false,
            latest_final: Some(7),
            chain_share: pct(20),
            fee: EXAMPLE_FEE,
            fee_symbol: "ETH".into(),
            fee_decimals: 18,
            preview,
        };
        let c = check_creator(state.clone(), 7, Some(U256::from(80u8) * WAD), false).unwrap();
        assert!(c.flags.is_empty(), "{:?}", c.flags);
        assert_eq!(c.share_now, pct(20));
        // Verified: 20 % + 20 % × 0.8 = 36 %.
        assert_eq!(c.share_at_epoch, Some(pct(36)));
        assert_eq!(
            epoch_note(7, &state),
            " (once FeeLanes.updateScore records it; until then FeeLanes pays the floor)"
        );
        let later = LaneState {
            latest_final: Some(8),
            ..state.clone()
        };
        assert!(epoch_note(7, &later).contains("only on epoch 8"));
        let held = LaneState {
            recorded: true,
            stored_epoch: 7,
            ..state.clone()
        };
        assert!(epoch_note(7, &held).contains("holds"));
        // A recorded score of an older epoch pays the floor, like FeeLanes.currentScore.
        let stale = LaneState {
            recorded: true,
            stored_epoch: 6,
            stored_score: U256::from(90u8) * WAD,
            ..state.clone()
        };
        let c6 = check_creator(stale.clone(), 7, None, false).unwrap();
        assert_eq!((c6.current, c6.share_now), (U256::ZERO, pct(20)));
        assert!(paid_now_note(&stale).contains("no longer the latest"));
        assert_eq!(c.split.to_own_buyback, pct(15) * pct(30) / WAD);
        // A preview that ignores the launch's own-buyback share is flagged.
        let ignored = LaneState {
            own_buyback_share: U256::ZERO,
            ..state.clone()
        };
        assert_eq!(
            check_creator(ignored, 7, None, false).unwrap().flags.len(),
            1
        );
        let mut bad = state;
        bad.chain_share = pct(21);
        bad.preview.to_buyback += U256::from(1u8);
        let c = check_creator(bad, 7, None, false).unwrap();
        assert_eq!(c.flags.len(), 2, "{:?}", c.flags);
        assert!(check_creator(
            LaneState {
                stored_score: U256::from(101u8) * WAD,
                recorded: true,
                stored_epoch: 7,
                ..c.state.clone()
            },
            7,
            None,
            false
        )
        .is_err());
    }

    #[test]
    fn a_score_is_offered_for_recording_only_when_feelanes_would_take_it() {
        let state = LaneState {
            params: params(),
            verified: false,
            own_buyback_share: U256::ZERO,
            stored_score: U256::ZERO,
            stored_epoch: 0,
            recorded: false,
            latest_final: Some(7),
            chain_share: pct(10),
            fee: EXAMPLE_FEE,
            fee_symbol: "ETH".into(),
            fee_decimals: 18,
            preview: params()
                .split(U256::ZERO, false, EXAMPLE_FEE, U256::ZERO)
                .unwrap(),
        };
        let leaf = |epoch| {
            Some(RecordScore {
                epoch,
                score_wad: U256::from(60u8) * WAD,
                proof: vec![],
            })
        };
        assert_eq!(record_now(&state, leaf(7)), leaf(7));
        assert_eq!(
            record_now(&state, leaf(6)),
            None,
            "not the latest final epoch"
        );
        assert_eq!(record_now(&state, None), None, "no verified leaf");
        let held = LaneState {
            recorded: true,
            stored_epoch: 7,
            ..state.clone()
        };
        assert_eq!(record_now(&held, leaf(7)), None, "already held");
        let older = LaneState {
            recorded: true,
            stored_epoch: 6,
            ..state.clone()
        };
        assert_eq!(record_now(&older, leaf(7)), leaf(7));
        let none_final = LaneState {
            latest_final: None,
            ..state
        };
        assert_eq!(record_now(&none_final, leaf(7)), None);
    }
}
