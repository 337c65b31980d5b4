//! Holder payout rounds (C18), read once for the app and the operator: every round ever posted to the
//! distributor (its `RootPosted` events, each `(token, asset, epoch)` once) with its state now, read in one
//! batch; and where a round's tree and snapshot are published, named by its root.

use crate::abi::HolderDistributor;
use crate::batch::Batch;
use crate::log::LogFilter;
use crate::read::{ChainRead, ReadError};
use alloy_primitives::{Address, B256, U256};
use alloy_sol_types::SolCall;
use eden_core::holders::ExclusionChange;

/// Where a payout round's tree is published under a base URL: `payouts/0x<64 hex>.json` (the OpenZeppelin
/// `standard-v1` dump).
pub fn tree_path(root: &B256) -> String {
    format!("payouts/{root}.json")
}

/// Where a payout round's snapshot is published: `payouts/0x<64 hex>.snapshot.json` (C18).
pub fn snapshot_path(root: &B256) -> String {
    format!("payouts/{root}.snapshot.json")
}

/// A round's state as `HolderDistributor.round` returns it (root, total, claimed, opening, closing,
/// settled).
pub type RoundState = <HolderDistributor::roundCall as SolCall>::Return;

/// A posted round and its state now.
#[derive(Debug, Clone)]
pub struct PostedRound {
    /// The token whose holders it pays.
    pub token: Address,
    /// The asset it pays in.
    pub asset: Address,
    /// The epoch it pays for.
    pub epoch: u64,
    /// Its state now (the root is zero once revoked).
    pub state: RoundState,
}

/// Every round posted to `distributor` in blocks `[from, to]`, in the order first posted, with its state
/// now in one batch.
///
/// # Errors
/// The transport's; a log or an answer that does not decode.
pub async fn rounds<R: ChainRead>(
    chain: &R,
    distributor: Address,
    from: u64,
    to: u64,
) -> Result<Vec<PostedRound>, ReadError<R::Error>> {
    let filter = LogFilter::event::<HolderDistributor::RootPosted>(distributor, None);
    let logs = chain
        .logs(&filter, from, to)
        .await
        .map_err(ReadError::Transport)?;
    let mut posted: Vec<(Address, Address, u64)> = Vec::new();
    for l in &logs {
        let e: HolderDistributor::RootPosted = l.decode()?;
        let key = (e.token, e.asset, e.epoch);
        if !posted.contains(&key) {
            posted.push(key);
        }
    }
    let mut b = Batch::new();
    let slots: Vec<_> = posted
        .iter()
        .map(|&(token, asset, epoch)| {
            b.add(
                distributor,
                &HolderDistributor::roundCall {
                    token,
                    asset,
                    epoch,
                },
            )
        })
        .collect();
    let mut a = b.run(chain).await?;
    posted
        .into_iter()
        .zip(slots)
        .map(|((token, asset, epoch), s)| {
            Ok(PostedRound {
                token,
                asset,
                epoch,
                state: a.take(s)?,
            })
        })
        .collect()
}

/// A pair's holder pot and its latest round (C18a: what decides whether a round is due).
#[derive(Debug, Clone)]
pub struct PairPot {
    /// The token.
    pub token: Address,
    /// The asset.
    pub asset: Address,
    /// What the pot holds, unallocated.
    pub pot: U256,
    /// The pair's latest posted epoch (0: none yet).
    pub last_epoch: u64,
    /// That round's state, when there is one.
    pub last: Option<RoundState>,
}

/// Each pair's pot and latest round, in at most two batches whatever their number.
///
/// # Errors
/// The transport's; an answer that does not decode.
pub async fn pots<R: ChainRead>(
    chain: &R,
    distributor: Address,
    pairs: &[(Address, Address)],
) -> Result<Vec<PairPot>, ReadError<R::Error>> {
    let mut b = Batch::new();
    let slots: Vec<_> = pairs
        .iter()
        .map(|&(token, asset)| {
            (
                b.add(distributor, &HolderDistributor::potCall { token, asset }),
                b.add(
                    distributor,
                    &HolderDistributor::lastEpochCall { token, asset },
                ),
            )
        })
        .collect();
    let mut a = b.run(chain).await?;
    let mut out = Vec::with_capacity(pairs.len());
    for (&(token, asset), (pot, last)) in pairs.iter().zip(slots) {
        out.push(PairPot {
            token,
            asset,
            pot: a.take(pot)?,
            last_epoch: a.take(last)?,
            last: None,
        });
    }
    let mut b = Batch::new();
    let rounds: Vec<_> = out
        .iter()
        .enumerate()
        .filter(|(_, p)| p.last_epoch > 0)
        .map(|(i, p)| {
            let call = HolderDistributor::roundCall {
                token: p.token,
                asset: p.asset,
                epoch: p.last_epoch,
            };
            (i, b.add(distributor, &call))
        })
        .collect();
    let mut a = b.run(chain).await?;
    for (i, slot) in rounds {
        out[i].last = Some(a.take(slot)?);
    }
    Ok(out)
}

/// The distributor's exclusion list, every change oldest first with its block (C18a), from state in one call.
///
/// # Errors
/// The transport's; an answer that does not decode.
pub async fn exclusion_changes<R: ChainRead>(
    chain: &R,
    distributor: Address,
) -> Result<Vec<ExclusionChange>, ReadError<R::Error>> {
    let mut b = Batch::new();
    let slot = b.add(distributor, &HolderDistributor::exclusionChangesCall {});
    let changes = b.run(chain).await?.take(slot)?;
    Ok(changes
        .into_iter()
        .map(|c| ExclusionChange {
            account: c.account,
            excluded: c.excluded,
            block: c.blockNumber,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::Log;
    use alloy_primitives::{Bytes, LogData, U256};
    use alloy_sol_types::{SolEvent, SolValue};
    use std::collections::BTreeMap;

    const HD: Address = Address::repeat_byte(0xd0);

    fn posted(token: u8, epoch: u64, root: u8) -> Log {
        let data: LogData = HolderDistributor::RootPosted {
            token: Address::repeat_byte(token),
            asset: Address::ZERO,
            epoch,
            root: B256::repeat_byte(root),
            total: U256::from(100),
            opensAt: 0,
            closesAt: 0,
        }
        .encode_log_data();
        Log {
            address: Some(HD),
            topics: data.topics().to_vec(),
            data: data.data,
            block_number: U256::from(epoch),
            transaction_hash: B256::ZERO,
            log_index: None,
        }
    }

    struct Dist;

    impl ChainRead for Dist {
        type Error = String;

        async fn logs(&self, _: &LogFilter, _: u64, _: u64) -> Result<Vec<Log>, String> {
            // Round (2, 1) re-posted after a revocation: one round, read once.
            Ok(vec![
                posted(2, 1, 0xa),
                posted(1, 1, 0xb),
                posted(2, 1, 0xc),
            ])
        }

        async fn block_timestamps(&self, _: &[u64]) -> Result<BTreeMap<u64, u64>, String> {
            unreachable!()
        }

        async fn call_batch(
            &self,
            calls: &[(Address, Bytes)],
            _: Option<u64>,
        ) -> Result<Vec<Result<Bytes, String>>, String> {
            Ok(calls
                .iter()
                .map(|(_, d)| {
                    let c = HolderDistributor::roundCall::abi_decode(d).unwrap();
                    let state = HolderDistributor::Round {
                        root: B256::repeat_byte(c.token[0]),
                        total: 100,
                        claimed: 40,
                        opensAt: 1,
                        closesAt: 2,
                        settled: false,
                        snapshotBlock: 7,
                    };
                    Ok(state.abi_encode().into())
                })
                .collect())
        }
    }

    #[test]
    fn each_round_once_in_the_order_first_posted_with_its_state_now() {
        let r = futures::executor::block_on(rounds(&Dist, HD, 0, 9)).unwrap();
        let keys: Vec<_> = r.iter().map(|p| (p.token, p.epoch, p.state.root)).collect();
        assert_eq!(
            keys,
            [
                (Address::repeat_byte(2), 1, B256::repeat_byte(2)),
                (Address::repeat_byte(1), 1, B256::repeat_byte(1)),
            ]
        );
        assert_eq!((r[0].state.total, r[0].state.claimed), (100, 40));
        assert_eq!(
            tree_path(&B256::repeat_byte(0xab)),
            format!("payouts/0x{}.json", "ab".repeat(32))
        );
    }
}
