//! Holder payout rounds (C18), discovered from the chain: every `RootPosted` event of the
//! distributor, each round's state and the tokens' symbols read in batches; a round's tree is
//! the publication named by its root ([`tree_path`], the OpenZeppelin `standard-v1` dump), loaded
//! and checked by `eden-core` and rejected unless it has that root. A round's published snapshot is checked
//! against the chain too (C18a): its block is the one the round records, its exclusions are the deployment's
//! own accounts and those listed on the distributor at that block, and every balance in it is the token's
//! `balanceOf` at that block, together its `totalSupply`. No Leptos here.

use crate::chain::abi::{IHolderDistributor, IERC20};
use crate::chain::multicall::Batch;
use crate::chain::rpc::{Rpc, RpcError};
use crate::chain::tokens::TokenLabels;
use crate::chain::world::{World, WorldError};
use alloy_primitives::{Address, B256, U256};
use eden_core::holders::{
    check_excluded, find_payout, ExclusionChange, FoundPayout, PayoutContext, PayoutSnapshot,
};
use eden_core::merkle::StandardMerkleTree;

pub use eden_chain::payouts::{snapshot_path, tree_path};

/// What a round's published snapshot says, once checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SnapshotView {
    /// It names this round and rebuilds its on-chain root: its block, exclusions and balances are the
    /// ones the root commits to.
    Checked(Box<PayoutSnapshot>),
    /// No snapshot is published for this round (the host says not found).
    NotPublished,
    /// It could not be read, or it does not rebuild the round's root (in words).
    Unusable(String),
}

/// `round`'s snapshot ([`snapshot_path`]) as `fetched`, checked with `eden-core`: it must name this deployment's
/// distributor and chain and this round's token, asset and epoch, and its balances must allocate to the
/// round's on-chain root ([`PayoutSnapshot::tree`]); its block must be the round's recorded snapshot block,
/// and its exclusions the chain's at that block (`changes`, C18a).
pub fn snapshot_of(
    w: &World,
    round: &Round,
    fetched: Result<String, WorldError>,
    changes: &[ExclusionChange],
) -> SnapshotView {
    let text = match fetched {
        Ok(t) => t,
        Err(WorldError::Fetch(RpcError::Http {
            status: 404 | 410, ..
        })) => return SnapshotView::NotPublished,
        Err(e) => return SnapshotView::Unusable(e.to_string()),
    };
    let snap = match PayoutSnapshot::from_json(&text) {
        Ok(s) => s,
        Err(e) => return SnapshotView::Unusable(e.to_string()),
    };
    if snap.context() != context(w, round) {
        return SnapshotView::Unusable(format!(
            "the snapshot is of round {} of {} on distributor {}, not this round",
            snap.epoch, snap.token, snap.distributor
        ));
    }
    if snap.block != round.snapshot_block {
        return SnapshotView::Unusable(format!(
            "the snapshot is of block {}, but the round records block {}",
            snap.block, round.snapshot_block
        ));
    }
    if let Err(e) = check_excluded(&snap, &w.contracts, changes) {
        return SnapshotView::Unusable(e.to_string());
    }
    match snap.tree() {
        Ok(t) if t.root() == round.root => SnapshotView::Checked(Box::new(snap)),
        Ok(t) => SnapshotView::Unusable(format!(
            "the snapshot builds root {}, not the round's on-chain root {}",
            t.root(),
            round.root
        )),
        Err(e) => SnapshotView::Unusable(e.to_string()),
    }
}

/// A payout round as the chain has it, with the symbols to show it by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    pub token: Address,
    pub symbol: String,
    pub token_decimals: u8,
    pub asset: Address,
    pub asset_symbol: String,
    pub asset_decimals: u8,
    pub epoch: u64,
    /// The root on chain now (the posted one, or zero once revoked).
    pub root: B256,
    pub opens_at: u64,
    pub closes_at: u64,
    /// Rolled over or revoked: nothing more can be claimed.
    pub settled: bool,
    /// The block whose balances it pays (C18a).
    pub snapshot_block: u64,
}

/// Every round posted to `distributor` since `from_block`, in posting order.
///
/// # Errors
/// When the logs or the rounds cannot be read.
pub async fn discover(
    rpc: &Rpc,
    distributor: Address,
    from_block: u64,
) -> Result<Vec<Round>, RpcError> {
    let latest = rpc.block_number().await?;
    let posted = eden_chain::payouts::rounds(rpc, distributor, from_block, latest).await?;
    let labels = TokenLabels::read(rpc, posted.iter().flat_map(|r| [r.token, r.asset])).await?;
    let mut out = Vec::with_capacity(posted.len());
    for p in posted {
        let (symbol, token_decimals) = labels.get(p.token);
        let (asset_symbol, asset_decimals) = labels.get(p.asset);
        out.push(Round {
            token: p.token,
            symbol,
            token_decimals,
            asset: p.asset,
            asset_symbol,
            asset_decimals,
            epoch: p.epoch,
            root: p.state.root,
            opens_at: p.state.opensAt,
            closes_at: p.state.closesAt,
            settled: p.state.settled,
            snapshot_block: p.state.snapshotBlock,
        });
    }
    Ok(out)
}

/// The binding context of `round`'s leaves on this deployment (C18).
pub fn context(w: &World, round: &Round) -> PayoutContext {
    PayoutContext {
        distributor: w.contracts.holder_distributor,
        chain_id: U256::from(w.chain_id),
        token: round.token,
        asset: round.asset,
        epoch: round.epoch,
    }
}

/// `account`'s payout in `round`, from the round's published tree: fetched by the round's root,
/// loaded and validated (every value hashes to its leaf), its root compared with the chain's, and
/// the leaf rebuilt from the round's own context ([`eden_core::holders::find_payout`]).
///
/// # Errors
/// [`WorldError`] when the tree is missing, malformed or of another root.
pub async fn payout_of(
    w: &World,
    round: &Round,
    account: Address,
) -> Result<Option<FoundPayout>, WorldError> {
    let text = w.fetch_publication(&tree_path(&round.root)).await?;
    let bad = |m: String| WorldError::BadTree {
        round: round.epoch,
        message: m,
    };
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    let tree = StandardMerkleTree::load_json(json).map_err(|e| bad(e.to_string()))?;
    if tree.root() != round.root {
        return Err(WorldError::WrongRoot {
            what: format!("the payout tree of {} round {}", round.symbol, round.epoch),
            want: round.root,
            got: tree.root(),
        });
    }
    find_payout(&tree, context(w, round), account).map_err(|e| bad(e.to_string()))
}

/// An account's payouts in every posted round: the rounds whose tree holds its leaf, each with
/// whether the leaf was claimed, and the rounds whose tree could not be used.
#[derive(Debug, Clone, Default)]
pub struct AccountPayouts {
    /// Round, payout, claimed, and the round's snapshot.
    pub found: Vec<(Round, FoundPayout, bool, SnapshotView)>,
    pub problems: Vec<WorldError>,
}

/// `account`'s payouts: the rounds discovered ([`discover`]), every round's tree fetched and
/// checked at once ([`payout_of`]), then whether each leaf was claimed and the exclusion list, in one
/// batch; each round's snapshot checked ([`snapshot_of`]) and every balance in it compared with the
/// token's at its block ([`balances_checked`]).
///
/// # Errors
/// When the rounds or the claimed flags cannot be read (a tree that cannot be used is a problem,
/// not an error).
pub async fn payouts_of(w: &World, account: Address) -> Result<AccountPayouts, RpcError> {
    let rpc = w.rpc();
    let dist = w.contracts.holder_distributor;
    let rounds: Vec<Round> = discover(&rpc, dist, w.deployment_block)
        .await?
        .into_iter()
        .filter(|r| !r.root.is_zero())
        .collect();
    let trees = futures::future::join_all(rounds.iter().map(|r| payout_of(w, r, account))).await;
    let mut out = AccountPayouts::default();
    let mut found = Vec::new();
    for (r, p) in rounds.into_iter().zip(trees) {
        match p {
            Ok(Some(p)) => found.push((r, p)),
            Ok(None) => {}
            Err(e) => out.problems.push(e),
        }
    }
    let mut b = Batch::new();
    let claimed: Vec<_> = found
        .iter()
        .map(|(_, p)| b.add(dist, &IHolderDistributor::claimedCall { leaf: p.leaf }))
        .collect();
    let list = b.add(dist, &IHolderDistributor::exclusionChangesCall {});
    // The snapshots are fetched while the chain is read; every snapshot's balances are then read
    // together, in one batch (D3).
    let fetches = futures::future::join_all(
        found
            .iter()
            .map(|(r, _)| async move { w.fetch_publication(&snapshot_path(&r.root)).await }),
    );
    let (a, fetched) = futures::join!(b.run(&rpc), fetches);
    let a = a?;
    let changes: Vec<ExclusionChange> = a
        .get(list)?
        .into_iter()
        .map(|c| ExclusionChange {
            account: c.account,
            excluded: c.excluded,
            block: c.blockNumber,
        })
        .collect();
    let snapshots = futures::future::join_all(
        found
            .iter()
            .zip(fetched)
            .map(|((r, _), text)| balances_checked(&rpc, r, snapshot_of(w, r, text, &changes))),
    )
    .await;
    for (((r, p), slot), snap) in found.into_iter().zip(claimed).zip(snapshots) {
        out.found.push((r, p, a.get(slot)?, snap));
    }
    Ok(out)
}

/// A checked snapshot stays checked only if the token agrees with it at the snapshot block (C18a): every
/// balance it states is the token's `balanceOf` there, and together they are its `totalSupply`, so no holder
/// was left out or paid on a made-up balance. One batch at that block (a few requests for a large holder list).
async fn balances_checked(rpc: &Rpc, round: &Round, view: SnapshotView) -> SnapshotView {
    let SnapshotView::Checked(snap) = view else {
        return view;
    };
    let stated = snap.stated_balances();
    let mut b = Batch::new();
    let supply = b.add(round.token, &IERC20::totalSupplyCall {});
    let slots: Vec<_> = stated
        .iter()
        .map(|(account, _)| b.add(round.token, &IERC20::balanceOfCall { account: *account }))
        .collect();
    let read = async {
        let a = b
            .run_at(rpc, Some(snap.block))
            .await
            .map_err(RpcError::from)?;
        let supply: U256 = a.get(supply).map_err(RpcError::from)?;
        let held = slots
            .into_iter()
            .map(|s| a.get(s).map_err(RpcError::from))
            .collect::<Result<Vec<U256>, RpcError>>()?;
        Ok::<_, RpcError>((held, supply))
    };
    match read.await {
        Ok((held, supply)) => match snap.check_balances(&held, supply) {
            Ok(()) => SnapshotView::Checked(snap),
            Err(e) => SnapshotView::Unusable(e.to_string()),
        },
        Err(e) => SnapshotView::Unusable(format!(
            "the token's balances at block {} could not be read: {e}",
            snap.block
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trees_are_named_by_their_root() {
        assert_eq!(
            tree_path(&B256::repeat_byte(1)),
            format!("payouts/0x{}.json", "01".repeat(32))
        );
        assert_eq!(
            snapshot_path(&B256::repeat_byte(1)),
            format!("payouts/0x{}.snapshot.json", "01".repeat(32))
        );
    }
}
