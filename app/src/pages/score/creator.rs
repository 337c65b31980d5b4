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
use crate::flows::score_creator::CreatorCheck;
use crate::flows::words::{self, epoch_note, paid_now_note};
use crate::state::Ctx;
use alloy_primitives::U256;
use leptos::prelude::*;

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
    let ok = c.findings.is_empty();
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
            <ul class="flags">{c.findings.iter().map(|f| view! { <li>{words::creator_finding(f)}</li> }).collect_view()}</ul>
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
