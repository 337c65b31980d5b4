//! Holder payout rounds (C18), discovered from the chain: every `RootPosted` event of the
//! distributor, each round's state and the tokens' symbols read in batches; a round's tree is
//! the publication named by its root ([`tree_path`], the OpenZeppelin `standard-v1` dump), loaded
//! and checked by `eden-core` and rejected unless it has that root. No Leptos here.

use crate::chain::abi::IHolderDistributor;
use crate::chain::multicall::Batch;
use crate::chain::rpc::{Rpc, RpcError};
use crate::chain::tokens::TokenLabels;
use crate::chain::world::{World, WorldError};
use alloy_primitives::{Address, B256, U256};
use eden_core::holders::{find_payout, FoundPayout, PayoutContext, PayoutSnapshot};
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

/// `round`'s snapshot ([`snapshot_path`]), checked with `eden-core`: it must name this deployment's
/// distributor and chain and this round's token, asset and epoch, and its balances must allocate to the
/// round's on-chain root ([`PayoutSnapshot::tree`]).
pub async fn snapshot_of(w: &World, round: &Round) -> SnapshotView {
    let text = match w.fetch_publication(&snapshot_path(&round.root)).await {
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
/// checked at once ([`payout_of`]), then whether each leaf was claimed, in one batch.
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
    let a = b.run(&rpc).await?;
    let snapshots = futures::future::join_all(found.iter().map(|(r, _)| snapshot_of(w, r))).await;
    for (((r, p), slot), snap) in found.into_iter().zip(claimed).zip(snapshots) {
        out.found.push((r, p, a.get(slot)?, snap));
    }
    Ok(out)
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
