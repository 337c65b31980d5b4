//! `eden payouts`: holder payout rounds from a snapshot at a past block (C18), posted and published.
//!
//! A snapshot reads the token's `Transfer` logs up to block `b` into balances, checks every balance against
//! `balanceOf` at `b` (a token whose balances do not follow its logs, such as a rebasing or fee-on-transfer
//! one, is refused), excludes the deployment's own addresses (pool manager, curve, locker, hooks, distributor,
//! fee lanes, router, `0x0`, `0xdEaD`) and the escrows and vaults listed on the distributor at `b` (C18a,
//! `eden_core::holders::listed`), allocates with `eden-core`
//! (`allocate_down`), and builds the round's OpenZeppelin `standard-v1` tree. The snapshot file records `b`,
//! its hash, every balance and every exclusion, so anyone re-derives the same tree from the chain.

use crate::abi::HolderDistributor;
use crate::chain::{confirm, Chain, Sent};
use crate::config;
use crate::error::{OpError, Result, TxError};
use alloy::eips::BlockId;
use alloy::primitives::{Address, U256};
use alloy::providers::Provider;
use alloy::rpc::types::Filter;
use alloy::sol_types::SolEvent;
use eden_core::holders::{
    allocate_down, excluded_at, payout_tree, Excluded, Holder, HolderAllocation, HolderBalance,
    HolderExclusions, PayoutContext, PayoutSnapshot, SNAPSHOT_FORMAT,
};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

alloy::sol! {
    #[sol(rpc)]
    interface IERC20Balances {
        event Transfer(address indexed from, address indexed to, uint256 value);
        function balanceOf(address account) external view returns (uint256);
    }
}

/// `balanceOf` reads in flight at once.
const BALANCE_READS_IN_FLIGHT: usize = 16;

/// Inputs of `eden payouts snapshot`.
#[derive(Debug, Clone)]
pub struct SnapshotArgs {
    /// The token.
    pub token: Address,
    /// The asset paid.
    pub asset: Address,
    /// The round's epoch.
    pub epoch: u64,
    /// `T`.
    pub total: U256,
    /// The snapshot block `b`.
    pub block: u64,
    /// Logs from here (default: the deployment block).
    pub from_block: Option<u64>,
}

/// `eden payouts snapshot`: balances at `b` from the `Transfer` logs, checked against `balanceOf` at `b`.
/// Returns the snapshot with the round's tree (built once here; `publish` and `post` rebuild it from the file).
pub async fn snapshot(
    chain: &Chain,
    a: &SnapshotArgs,
) -> Result<(PayoutSnapshot, eden_core::merkle::StandardMerkleTree)> {
    use futures::stream::{self, StreamExt, TryStreamExt};
    let (head, _) = chain.head().await?;
    if a.block > head {
        return Err(OpError::Refused(format!(
            "block {} is not mined yet (head {head})",
            a.block
        )));
    }
    let from = a.from_block.unwrap_or(chain.net.deployment_block);
    let filter = Filter::new()
        .address(a.token)
        .event_signature(IERC20Balances::Transfer::SIGNATURE_HASH);
    let logs = chain.logs(&filter, from, a.block).await?;
    let mut balances: BTreeMap<Address, U256> = BTreeMap::new();
    for log in logs {
        let ev = log
            .log_decode::<IERC20Balances::Transfer>()
            .map_err(OpError::rpc)?
            .inner
            .data;
        if !ev.from.is_zero() {
            let b = balances.entry(ev.from).or_default();
            *b = b.checked_sub(ev.value).ok_or_else(|| {
                OpError::Refused(format!(
                    "{} sends more than its logged balance in block {}: the logs from block {from} do not hold the token's whole history (pass --from-block)",
                    ev.from,
                    log.block_number.unwrap_or_default()
                ))
            })?;
        }
        let b = balances.entry(ev.to).or_default();
        *b = b.saturating_add(ev.value);
    }
    balances.remove(&Address::ZERO);
    // Every address seen, checked against the token's own view at `b`.
    let token = IERC20Balances::new(a.token, chain.provider.clone());
    let accounts: Vec<Address> = balances.keys().copied().collect();
    let onchain: Vec<U256> = stream::iter(accounts.iter().map(|&acct| {
        let token = &token;
        async move {
            token
                .balanceOf(acct)
                .block(BlockId::number(a.block))
                .call()
                .await
                .map_err(|e| OpError::Rpc(format!("balanceOf({acct}) at block {}: {e}", a.block)))
        }
    }))
    .buffered(BALANCE_READS_IN_FLIGHT)
    .try_collect()
    .await?;
    for (acct, chain_balance) in accounts.iter().zip(&onchain) {
        if balances[acct] != *chain_balance {
            return Err(OpError::Refused(format!(
                "{acct} holds {chain_balance} at block {} but its Transfer logs say {}: the token's balances do not follow its logs (rebasing or fee-on-transfer), so no snapshot is taken",
                a.block, balances[acct]
            )));
        }
    }
    let block = chain
        .provider
        .get_block_by_number(a.block.into())
        .await
        .map_err(OpError::rpc)?
        .ok_or_else(|| OpError::Rpc(format!("no block {}", a.block)))?;
    // Exclusions: the deployment's own, then those listed on the distributor at `b` (C18a).
    let changes =
        eden_chain::payouts::exclusion_changes(chain, chain.net.contracts.holder_distributor)
            .await?;
    let excluded: Vec<Excluded> = excluded_at(&chain.net.contracts, &changes, a.block)
        .into_iter()
        .map(|(acct, role)| Excluded {
            account: acct,
            role: role.to_string(),
            balance: balances.get(&acct).copied().unwrap_or_default(),
        })
        .collect();
    let held: Vec<HolderBalance> = balances
        .iter()
        .filter(|(_, b)| !b.is_zero())
        .map(|(acct, b)| HolderBalance {
            account: *acct,
            balance: *b,
        })
        .collect();
    let exclusions = HolderExclusions {
        vaults: excluded.iter().map(|e| e.account).collect(),
        ..Default::default()
    };
    let alloc: HolderAllocation = allocate_down(a.total, &held, &exclusions)
        .map_err(|e| OpError::Refused(format!("allocation: {e}")))?;
    let distributor = chain.net.contracts.holder_distributor;
    let context = PayoutContext {
        distributor,
        chain_id: U256::from(chain.net.chain_id),
        token: a.token,
        asset: a.asset,
        epoch: a.epoch,
    };
    let tree =
        payout_tree(context, &alloc).map_err(|e| OpError::Refused(format!("payout tree: {e}")))?;
    let snap = PayoutSnapshot {
        format: SNAPSHOT_FORMAT.into(),
        chain_id: chain.net.chain_id,
        distributor,
        token: a.token,
        asset: a.asset,
        epoch: a.epoch,
        block: a.block,
        block_hash: block.header.hash,
        from_block: from,
        total: a.total,
        eligible_supply: alloc.eligible_supply,
        allocated: alloc.allocated,
        dust: alloc.dust,
        root: tree.root(),
        excluded,
        holders: alloc
            .amounts
            .iter()
            .map(|h| Holder {
                account: h.account,
                balance: h.balance,
                amount: h.amount,
            })
            .collect(),
    };
    Ok((snap, tree))
}

/// Reads a snapshot file.
pub fn read_snapshot(path: &Path) -> Result<PayoutSnapshot> {
    PayoutSnapshot::from_json(&String::from_utf8_lossy(&config::read_bytes(path)?))
        .map_err(|e| OpError::input(path.display().to_string(), e))
}

/// The snapshot's tree, rebuilt (it must give the snapshot's root).
pub fn tree(snap: &PayoutSnapshot) -> Result<eden_core::merkle::StandardMerkleTree> {
    snap.tree().map_err(|e| OpError::input("snapshot", e))
}

/// What `eden payouts post` did.
#[derive(Debug, Clone, Serialize)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "result"
)]
pub enum Posted {
    /// The root was posted.
    Posted {
        /// The round's epoch.
        epoch: u64,
        /// The transaction.
        sent: Sent,
    },
    /// This root is already the round's: nothing sent.
    AlreadyPosted {
        /// The round's epoch.
        epoch: u64,
    },
}

/// `eden payouts post`: posts the snapshot's root (the distributor's poster only), after checking it
/// rebuilds from the snapshot, names this deployment, and the pot holds its total.
pub async fn post(chain: &Chain, snap: &PayoutSnapshot) -> Result<Posted> {
    let me = chain.sender()?;
    if snap.chain_id != chain.net.chain_id
        || snap.distributor != chain.net.contracts.holder_distributor
    {
        return Err(OpError::Refused(format!(
            "the snapshot is for distributor {} on chain {}, not this deployment",
            snap.distributor, snap.chain_id
        )));
    }
    tree(snap)?;
    let d = HolderDistributor::new(snap.distributor, chain.provider.clone());
    let round = d
        .round(snap.token, snap.asset, snap.epoch)
        .call()
        .await
        .map_err(OpError::rpc)?;
    if round.root == snap.root {
        return Ok(Posted::AlreadyPosted { epoch: snap.epoch });
    }
    let poster = d.poster().call().await.map_err(OpError::rpc)?;
    if poster != me {
        return Err(OpError::Refused(format!(
            "only the distributor's poster {poster} posts roots; this key is {me}"
        )));
    }
    let last = d
        .lastEpoch(snap.token, snap.asset)
        .call()
        .await
        .map_err(OpError::rpc)?;
    if snap.epoch <= last {
        return Err(OpError::Refused(format!(
            "round {} is not after the last posted round {last}",
            snap.epoch
        )));
    }
    let pot = d
        .pot(snap.token, snap.asset)
        .call()
        .await
        .map_err(OpError::rpc)?;
    if pot < snap.total {
        return Err(OpError::Refused(format!(
            "the pot holds {pot}, less than the round's total {}: fund it first",
            snap.total
        )));
    }
    let total = u128::try_from(snap.total)
        .map_err(|_| OpError::input("snapshot", "total does not fit in uint128"))?;
    let pending = d
        .postRoot(
            snap.token, snap.asset, snap.epoch, snap.root, total, snap.block,
        )
        .send()
        .await
        .map_err(TxError::refused)?;
    Ok(Posted::Posted {
        epoch: snap.epoch,
        sent: confirm(pending).await?,
    })
}

/// What `eden payouts publish` wrote.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PayoutPublished {
    /// Files written.
    pub written: Vec<PathBuf>,
    /// Files already there with the same content.
    pub unchanged: Vec<PathBuf>,
}

/// `eden payouts publish`: `payouts/<root>.json` (the tree, OpenZeppelin `standard-v1` dump) and
/// `payouts/<root>.snapshot.json` (block, balances, exclusions) into `dir`; never overwrites other content.
pub fn publish(snap: &PayoutSnapshot, dir: &Path) -> Result<PayoutPublished> {
    let tree = tree(snap)?;
    let files = [
        (
            dir.join(eden_chain::payouts::tree_path(&snap.root)),
            serde_json::to_vec(&tree.dump()).map_err(|e| OpError::input("tree", e))?,
        ),
        (
            dir.join(eden_chain::payouts::snapshot_path(&snap.root)),
            serde_json::to_vec_pretty(snap).map_err(|e| OpError::input("snapshot", e))?,
        ),
    ];
    let mut out = PayoutPublished {
        written: vec![],
        unchanged: vec![],
    };
    for (path, content) in files {
        if crate::epoch::write_once(&path, &content)? {
            out.written.push(path);
        } else {
            out.unchanged.push(path);
        }
    }
    Ok(out)
}
