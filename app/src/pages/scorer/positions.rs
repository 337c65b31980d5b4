//! "My positions" on the Scorer page (C11–C14): for each open position of the connected scorer, the
//! graded thesis (quality `q` and verdict from the final epoch's quality leaf, C5/C8), the weight
//! `ω = ⌊q·c⌋·√σ` (C12, recomputed by `eden_core::rewards::weight` and checked against the chain),
//! the stream share `ω / D` with `D = max(W, ⌈ω_max / 5 %⌉)` (C13, `conservative_denominator_up`),
//! whether the 5 % cap binds, the pool's drip rate (C11, `Drip`), and the rewards accrued **now**,
//! computed in WASM by advancing the pool from its last on-chain update exactly as
//! `ScorerRegistry._advance` does (C14 `segment`, expiries at their own instants, `owed_down`), then
//! compared with the chain's own `claim` simulated at the latest block. A Claim button pays out through
//! the transaction tray.

use crate::chain::abi::IScorerRegistry;
use crate::chain::positions;
use crate::chain::scorer::ScorerRef;
use crate::chain::world::{World, WorldError};
use crate::error::{AppError, Context};
use crate::fmt;
use crate::state::Ctx;
use crate::ui::{caught, Amount, Loading};
use alloy_primitives::{Address, B256, U256};
use eden_core::leaves::Verdict;
use eden_core::math::{mul_div_down, WAD};
use eden_core::rewards::{
    conservative_denominator_up, weight, ChainPool, ChainPosition, Drip, RewardPool, CAP_BPS,
};
use eden_core::scoring::EpochBundle;
use leptos::prelude::*;
use std::collections::BTreeMap;

/// What `me` is owed at `t` (≥ the pool's last update): the pool resumed from the chain's stored
/// state and advanced as `ScorerRegistry._advance` does (`eden_core::rewards::resume`).
///
/// # Errors
/// A chain state the contract cannot produce, or arithmetic failure on absurd values, in words.
pub fn owed_at(
    replay: &Result<RewardPool, AppError>,
    me: &Address,
    t: u64,
) -> Result<U256, AppError> {
    let mut p = replay.clone()?;
    p.advance_to(t.max(p.now())).map_err(AppError::from)?;
    p.owed_of(me).map_err(AppError::from)
}

/// The graded thesis of a position, from its final epoch's quality leaf (bundle `theses`).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Grade {
    epoch: u64,
    quality: U256,
    verdict: Verdict,
    /// The grading record the leaf names (zero: none), re-checked on request (C8).
    record: B256,
}

#[derive(Debug, Clone, PartialEq)]
struct Row {
    token: Address,
    /// The score this position was opened by.
    score_id: U256,
    symbol: String,
    asset_symbol: String,
    asset_decimals: u8,
    pool: ChainPool,
    open: Vec<ChainPosition>,
    me: ChainPosition,
    /// The pool resumed from the chain (`RewardPool::resume`).
    replay: Result<RewardPool, AppError>,
    denominator_onchain: U256,
    target: U256,
    thesis_hash: B256,
    thesis: Option<String>,
    grade: Result<Grade, AppError>,
    chain_owed: Result<U256, AppError>,
    balance: U256,
}

#[derive(Debug, Clone, PartialEq)]
struct Positions {
    /// The account these positions were read for: a read made before a wallet switch is not shown.
    account: Option<Address>,
    block: u64,
    block_time: u64,
    rows: Vec<Row>,
}

/// The grade of score `score_id` of `registry` in an epoch's bundle (a quality leaf names its score).
fn grade_from_bundle(
    bundle: &EpochBundle,
    registry: Address,
    score_id: U256,
    epoch: u64,
) -> Result<Grade, AppError> {
    let entry = bundle
        .theses
        .iter()
        .find(|t| t.scorer_registry == registry && t.score_id == score_id)
        .ok_or_else(|| {
            AppError::Missing(format!(
                "epoch {epoch}'s bundle has no quality leaf for score {score_id}"
            ))
        })?;
    let verdict = Verdict::try_from(entry.verdict).map_err(AppError::from)?;
    Ok(Grade {
        epoch,
        quality: entry.quality_wad,
        verdict,
        record: entry.grade_record,
    })
}

/// What the chain says of `me`'s positions: the positions ([`crate::chain::positions`], five round
/// trips whatever their number) and the bundles of the final epochs that graded them.
#[derive(Clone)]
pub struct PositionsRead {
    me: Address,
    read: positions::Positions,
    bundles: BTreeMap<u64, Result<EpochBundle, WorldError>>,
}

async fn read(w: World, registry: Address, me: Address) -> Result<PositionsRead, AppError> {
    let read = positions::positions_of(&w.rpc(), registry, me, w.deployment_block).await?;
    let mut epochs: Vec<u64> = read
        .positions
        .iter()
        .filter(|p| !p.score.overridden)
        .map(|p| p.score.gradeEpoch)
        .collect();
    epochs.sort_unstable();
    epochs.dedup();
    let bundles = positions::final_bundles(&w, &epochs).await?;
    Ok(PositionsRead { me, read, bundles })
}

/// The connected account's positions in `registry` ([`Ctx::account_read`]), read as soon as the
/// page opens: it needs only the registry's address (the network description's), so it runs beside
/// the registry's discovery and its requests travel in the same batches (D3).
pub fn read_positions(
    world: World,
    registry: Address,
) -> LocalResource<Option<(Address, Result<PositionsRead, AppError>)>> {
    Ctx::get().account_read(move |me| {
        let w = world.clone();
        async move {
            read(w, registry, me)
                .await
                .context("Reading your positions and their pools")
        }
    })
}

/// The rows of `r`, each grade from its final epoch's bundle and each pool resumed as the contract
/// advances it; `s` names the tokens and the theses.
fn assemble(r: PositionsRead, s: &ScorerRef) -> Positions {
    let PositionsRead { me, read, bundles } = r;
    let reg = s.registry;
    let rows = read
        .positions
        .into_iter()
        .map(|p| {
            let open: Vec<ChainPosition> = p
                .openers
                .iter()
                .filter(|(_, q)| q.open)
                .map(|(who, q)| ChainPosition {
                    scorer: *who,
                    weight: q.weight,
                    snapshot: q.snapshot,
                    end: q.end,
                    owed_stored: (*who == me).then_some(p.owed_stored),
                })
                .collect();
            // The grade in force is the chain's: the adjudicator's override, or the leaf of
            // `gradeEpoch` (the earliest epoch it was proven from).
            let grade = if p.score.overridden {
                Err(AppError::missing(
                    "graded by the adjudicator's override (it wins over every leaf)",
                ))
            } else {
                match bundles.get(&p.score.gradeEpoch) {
                    Some(Ok(bundle)) => {
                        grade_from_bundle(bundle, reg, p.position.scoreId, p.score.gradeEpoch)
                    }
                    Some(Err(e)) => Err(AppError::from(e.clone())),
                    None => Err(AppError::missing("no bundle read for this epoch")),
                }
            };
            let pool = ChainPool {
                index: p.pool.index,
                total_weight: p.pool.totalWeight,
                max_weight: p.max_weight,
                drip: Drip {
                    amount: p.pool.dripAmount,
                    start: p.pool.dripStart,
                },
                last_update: p.pool.lastUpdate,
                cap_bps: CAP_BPS,
            };
            let symbol = s.tokens.iter().find(|t| t.token == p.token).map_or_else(
                || fmt::short_addr(&p.token.to_checksum(None)),
                |t| t.symbol.clone(),
            );
            Row {
                token: p.token,
                score_id: p.position.scoreId,
                symbol,
                asset_symbol: p.asset_symbol,
                asset_decimals: p.asset_decimals,
                replay: RewardPool::resume(&pool, &open).map_err(AppError::from),
                pool,
                open,
                me: ChainPosition {
                    scorer: me,
                    weight: p.position.weight,
                    snapshot: p.position.snapshot,
                    end: p.position.end,
                    owed_stored: Some(p.owed_stored),
                },
                denominator_onchain: p.denominator,
                target: p.score.targetScore,
                thesis_hash: p.score.thesisHash,
                thesis: s.thesis(&p.score.thesisHash),
                grade,
                chain_owed: p.claim.map_err(AppError::from),
                balance: p.balance,
            }
        })
        .collect();
    Positions {
        account: Some(me),
        block: read.block,
        block_time: read.block_time,
        rows,
    }
}

/// The "My positions" section of the Scorer page, over the read [`read_positions`] started.
#[component]
pub fn MyPositions(
    world: World,
    scorer: ScorerRef,
    read: LocalResource<Option<(Address, Result<PositionsRead, AppError>)>>,
) -> impl IntoView {
    let ctx = Ctx::get();
    let world = StoredValue::new(world);
    let s1 = scorer.clone();
    // Without an account there is nothing to read (the section says to connect one).
    let data = Signal::derive(move || {
        read.get().map(|loaded| match loaded {
            Some((_, r)) => r.map(|r| assemble(r, &s1)),
            None => Ok(Positions {
                account: None,
                block: 0,
                block_time: 0,
                rows: Vec::new(),
            }),
        })
    });
    let registry = scorer.registry;
    let claim = move |token: Address, symbol: String| {
        let call = IScorerRegistry::claimCall { token };
        crate::send::act(
            ctx,
            registry,
            format!("Claim scorer rewards on {symbol}"),
            call,
            U256::ZERO,
        );
    };
    view! {
        <h2 id="my-positions-title">"My positions"</h2>
        <Show when=move || ctx.wallet.get().account.is_some() fallback=|| view! { <p class="empty">"Connect a wallet to see your positions."</p> }>
            <Transition fallback=|| view! { <Loading what="Reading your positions and their pools…" /> }>
            <ErrorBoundary fallback=caught>
            {move || data.get().map(|loaded| loaded.map(|p| if !ctx.is_connected(p.account) {
                view! { <Loading what="Reading your positions and their pools…" /> }.into_any()
            } else if p.rows.is_empty() {
                view! { <p class="empty" id="no-positions">"No open positions. A score opens a 30-day position once its graded thesis is proven against a final epoch."</p> }.into_any()
            } else {
                view! {
                    <ul class="positions" id="positions" data-account=p.account.map(|a| a.to_string())>
                        {p.rows.into_iter().map(|r| view! { <PositionRow r=r world=world.get_value() registry=registry block=p.block block_time=p.block_time claim=claim /> }).collect_view()}
                    </ul>
                }.into_any()
            }))}
            </ErrorBoundary>
            </Transition>
        </Show>
    }
}

#[component]
fn PositionRow(
    r: Row,
    world: World,
    registry: Address,
    block: u64,
    block_time: u64,
    claim: impl Fn(Address, String) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let ctx = Ctx::get();
    let (dec, unit) = (r.asset_decimals, r.asset_symbol.clone());
    // C13 from the on-chain W and ω_max (checked against the registry's own D).
    let d = conservative_denominator_up(r.pool.total_weight, r.pool.max_weight, CAP_BPS)
        .unwrap_or(r.denominator_onchain);
    let share = if d.is_zero() {
        U256::ZERO
    } else {
        mul_div_down(r.me.weight, WAD, d).unwrap_or(U256::ZERO)
    };
    let paid = if d.is_zero() {
        U256::ZERO
    } else {
        mul_div_down(r.pool.total_weight, WAD, d).unwrap_or(U256::ZERO)
    };
    let binds = d > r.pool.total_weight;
    let at_cap = binds && r.me.weight == r.pool.max_weight;
    let cap_text = if binds {
        format!(
            "binds: D = ⌈ω_max / 5 %⌉ = {} > W = {}; {} of the stream is paid to scorers, the rest returns to the ROOT buyback{}",
            fmt::units(d, 18, 6),
            fmt::units(r.pool.total_weight, 18, 6),
            fmt::percent_wad(paid, 4),
            if at_cap { " (your share is at the cap)" } else { "" }
        )
    } else {
        format!(
            "does not bind: D = W = {} (no scorer reaches 5 %)",
            fmt::units(d, 18, 6)
        )
    };
    let d_check = if d == r.denominator_onchain {
        " ✓ equals the registry's D"
    } else {
        " ✗ differs from the registry's D"
    };
    let (pool, open, me) = (r.pool, r.open.clone(), r.me.scorer);
    let replay = r.replay.clone();
    let owed_block = owed_at(&replay, &me, block_time);
    let matches = match (&owed_block, &r.chain_owed) {
        (Ok(a), Ok(b)) if a == b => {
            "✓ the chain's claim at this block pays exactly this".to_string()
        }
        (Ok(_), Ok(b)) => format!(
            "✗ the chain's claim at this block would pay {}",
            fmt::units_exact(*b, dec)
        ),
        (_, Err(e)) => format!("(the chain's claim could not be simulated: {e})"),
        (Err(e), _) => format!("(not computed: {e})"),
    };
    let owed_now = move || owed_at(&replay, &me, ctx.chain_now().max(block_time));
    let rate = pool.drip.rate_wad_down(block_time).unwrap_or(U256::ZERO);
    let per_day = rate.saturating_mul(U256::from(86_400u64)) / WAD;
    let mine_per_day = mul_div_down(per_day, share, WAD).unwrap_or(U256::ZERO);
    let grade = r.grade.clone();
    let weight_view = match &grade {
        Ok(g) => match weight(g.quality, g.verdict.multiplier_wad()) {
            Ok(w2) if w2 == r.me.weight => " ✓ recomputed from q and c".to_string(),
            Ok(w2) => format!(" ✗ q and c give {}", fmt::units(w2, 18, 6)),
            Err(e) => format!(" ({e})"),
        },
        Err(_) => String::new(),
    };
    let end = r.me.end;
    let (token, symbol) = (r.token, r.symbol.clone());
    let sym = r.symbol.clone();
    let unit2 = unit.clone();
    view! {
        <li class="position-row" data-symbol=r.symbol.clone()>
            <div class="head">
                <strong>{format!("{} · target score ", r.symbol)}<Amount raw=r.target decimals=18 sig=4 />" points"</strong>
                <span class="muted">{move || { let now = ctx.chain_now(); if now < end { format!(" · ends in {}", fmt::duration(end - now)) } else { " · ended (30 days are over)".to_string() } }}</span>
            </div>
            {r.thesis.clone().map(|t| view! { <blockquote class="thesis">{t}</blockquote> })}
            <dl class="kv">
                <dt>"Quality q"</dt>
                <dd class="quality">{match &grade {
                    Ok(g) => format!("{} · {} (c = {}) · graded in final epoch {}", fmt::percent_wad(g.quality, 3), g.verdict.name(), fmt::units(g.verdict.multiplier_wad(), 18, 2), g.epoch),
                    Err(e) => e.to_string(),
                }}</dd>
                <dt>"Your share of the pool's rewards"</dt>
                <dd class="share">{fmt::percent_wad(share, 4)}{format!(" ({} open position{})", open.len(), if open.len() == 1 { "" } else { "s" })}</dd>
                <dt>"Pool drip"</dt>
                <dd><Amount raw=per_day decimals=dec unit=format!("{unit}/day") sig=4 />" over 7 days from each funding · yours ≈ "<Amount raw=mine_per_day decimals=dec unit=format!("{unit}/day") sig=4 /></dd>
                <dt>"Accrued now"</dt>
                <dd class="accrued">{move || match owed_now() {
                    Ok(v) => view! { <span class="accrued-now"><Amount raw=v decimals=dec unit=unit.clone() sig=8 /></span> }.into_any(),
                    Err(e) => view! { <span class="error">{e.to_string()}</span> }.into_any(),
                }}" (computed here, every second)"</dd>
                <dt>{format!("At block {block}")}</dt>
                <dd class="owed-at-block" data-block=block.to_string()>{match owed_block {
                    Ok(v) => view! { <Amount raw=v decimals=dec unit=unit2.clone() sig=8 /> }.into_any(),
                    Err(e) => view! { <span class="error">{e.to_string()}</span> }.into_any(),
                }}" "<span class="muted">{matches}</span></dd>
                <dt>"Your balance"</dt>
                <dd class="asset-balance"><Amount raw=r.balance decimals=dec unit=r.asset_symbol.clone() sig=8 /></dd>
            </dl>
            // Issue 42 item 8: the rules' formulas behind a disclosure, the words above.
            <details class="position-math">
                <summary>"How this is computed (C12)"</summary>
                <dl class="kv">
                    <dt>"Weight ω"</dt>
                    <dd>{fmt::units(r.me.weight, 18, 6)}" = ⌊q·c⌋ · √2,500 ROOT"{weight_view}</dd>
                    <dt>"Stream share ω / D"</dt>
                    <dd>{fmt::percent_wad(share, 4)}{format!(" of the pool's rate (W = {})", fmt::units(r.pool.total_weight, 18, 6))}</dd>
                    <dt>"5 % cap"</dt>
                    <dd class="cap">{cap_text}{d_check}</dd>
                </dl>
            </details>
            {match &grade {
                Ok(g) if !g.record.is_zero() => Some(view! { <crate::pages::score::grades::GradeRecordOf world=world.clone() registry=registry score_id=r.score_id record=g.record /> }),
                _ => None,
            }}
            <div class="actions">
                <button class="primary claim-position" on:click=move |_| claim(token, symbol.clone())>{format!("Claim {sym} rewards")}</button>
            </div>
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The reward replay's tests (one segment, expiries at their own instants, stored accrual)
    // live with `RewardPool::resume` in eden-core.

    #[test]
    fn bundle_grade_is_read() {
        use eden_core::scoring::epoch::{build_epoch, EpochInput};
        use eden_core::scoring::human_layer::GradedThesis;
        use eden_core::scoring::TrackConfig;
        let h = B256::repeat_byte(7);
        let bundle = build_epoch(&EpochInput {
            epoch: 5,
            tracks: vec![TrackConfig::preset("agents").unwrap()],
            projects: crate::test_util::projects(),
            theses: vec![GradedThesis {
                scorer_registry: Address::repeat_byte(0x5c),
                score_id: U256::from(3u8),
                scorer: Address::repeat_byte(9),
                project: Address::repeat_byte(1),
                thesis_hash: h,
                target_score_wad: U256::from(70u8) * WAD,
                quality_wad: U256::from(860_000_000_000_000_000u64),
                verdict: Verdict::Derivative,
                matched_thesis: B256::repeat_byte(8),
                grade_record: B256::ZERO,
            }],
            ..Default::default()
        })
        .unwrap();
        let g = grade_from_bundle(&bundle, Address::repeat_byte(0x5c), U256::from(3u8), 5).unwrap();
        assert_eq!(
            (g.quality, g.verdict, g.epoch),
            (
                U256::from(860_000_000_000_000_000u64),
                Verdict::Derivative,
                5
            )
        );
        assert!(
            grade_from_bundle(&bundle, Address::repeat_byte(0x5c), U256::from(4u8), 5).is_err()
        );
        assert!(
            grade_from_bundle(&bundle, Address::repeat_byte(0x5d), U256::from(3u8), 5).is_err()
        );
    }
}
