//! The scorer registry (C11–C14), discovered from the chain: the registry and the ROOT price
//! oracle come from the network description, ROOT and the ETH/USD feed from them, the tokens a
//! thesis can be about from the launchpad, and the graded theses from the registry's `Scored`
//! events. A thesis text is off chain: it is the publication `theses/<hash>.txt`, used only when its
//! keccak-256 is the hash on chain. No Leptos here.

use crate::chain::abi::{IAggregatorV3, ILaunchpad, IRootPriceOracle, IScorerRegistry, IERC20};
use crate::chain::multicall::Batch;
use crate::chain::rpc::{Rpc, RpcError};
use crate::chain::world::World;
use alloy_primitives::{Address, B256, U256};
use eden_core::check::ScoredEvent;
use eden_core::scoring::copy_detect::thesis_hash;

/// Where a thesis text is published under a base URL, by its hash: `theses/0x<64 hex>.txt`.
pub fn thesis_path(hash: &B256) -> String {
    format!("theses/{hash}.txt")
}

/// A token a thesis can be about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenRef {
    pub token: Address,
    pub symbol: String,
}

/// A graded thesis whose text was published (and matches its on-chain hash).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishedThesis {
    pub thesis_hash: B256,
    pub thesis: String,
}

/// What the Scorer page reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScorerRef {
    pub registry: Address,
    pub root: Address,
    pub oracle: Address,
    pub feed: Address,
    /// The launchpad's tokens, in launch order.
    pub tokens: Vec<TokenRef>,
    /// Every graded thesis's text that was published, in scoring order (the copy check's corpus).
    pub theses: Vec<PublishedThesis>,
    /// How many graded theses have no (matching) published text.
    pub unpublished: usize,
}

impl ScorerRef {
    /// The published text of the thesis with `hash`.
    pub fn thesis(&self, hash: &B256) -> Option<String> {
        self.theses
            .iter()
            .find(|t| t.thesis_hash == *hash)
            .map(|t| t.thesis.clone())
    }
}

/// The registry's view, `None` when the description has no registry or no ROOT price oracle.
///
/// # Errors
/// When the chain cannot be read.
pub async fn discover(w: &World) -> Result<Option<ScorerRef>, RpcError> {
    let (Some(registry), Some(oracle)) =
        (w.contracts.scorer_registry, w.contracts.root_price_oracle)
    else {
        return Ok(None);
    };
    let rpc = w.rpc();
    let pad = w.contracts.launchpad;
    let mut b = Batch::new();
    let root = b.add(registry, &IScorerRegistry::rootCall {});
    let feed = b.add(oracle, &IRootPriceOracle::ethUsdFeedCall {});
    let count = b.add(pad, &ILaunchpad::launchCountCall {});
    let a = b.run(&rpc).await?;
    let n = u64::try_from(a.get(count)?).unwrap_or(0);
    let (tokens, theses) = futures::join!(
        launch_tokens(&rpc, pad, n),
        published_theses(w, &rpc, registry)
    );
    let (tokens, (theses, unpublished)) = (tokens?, theses?);
    Ok(Some(ScorerRef {
        registry,
        root: a.get(root)?,
        oracle,
        feed: a.get(feed)?,
        tokens,
        theses,
        unpublished,
    }))
}

/// A scorer's record in the registry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScorerRecord {
    pub registered: bool,
    pub registered_at: u64,
    pub last_score_at: u64,
    pub unstake_requested_at: u64,
    pub stake: U256,
}

/// What the Scorer page reads for an account: when the ETH/USD feed last updated, ROOT's USD price
/// (WAD; its own result, since the oracle refuses a stale or thin price), and the account's record
/// and ROOT balance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScorerAccount {
    pub feed_updated: u64,
    pub price_usd: Result<U256, RpcError>,
    pub record: Option<ScorerRecord>,
    pub balance: U256,
}

/// The feed, ROOT's price, and `me`'s record and ROOT balance, in one batch.
///
/// # Errors
/// When the batch, the feed, the record or the balance cannot be read.
pub async fn account(
    rpc: &Rpc,
    s: &ScorerRef,
    me: Option<Address>,
) -> Result<ScorerAccount, RpcError> {
    let mut b = Batch::new();
    let feed = b.add(s.feed, &IAggregatorV3::latestRoundDataCall {});
    let price = b.add(s.oracle, &IRootPriceOracle::rootPriceCall {});
    let mine = me.map(|a| {
        (
            b.add(s.registry, &IScorerRegistry::scorerCall { who: a }),
            b.add(s.root, &IERC20::balanceOfCall { account: a }),
        )
    });
    let a = b.run(rpc).await?;
    let (record, balance) = match mine {
        Some((record, balance)) => {
            let r = a.get(record)?;
            (
                Some(ScorerRecord {
                    registered: r.registered,
                    registered_at: r.registeredAt,
                    last_score_at: r.lastScoreAt,
                    unstake_requested_at: r.unstakeRequestedAt,
                    stake: r.stake,
                }),
                a.get(balance)?,
            )
        }
        None => (None, U256::ZERO),
    };
    Ok(ScorerAccount {
        feed_updated: u64::try_from(a.get(feed)?.updatedAt).unwrap_or(u64::MAX),
        price_usd: a.get(price).map(|p| p.priceUsd),
        record,
        balance,
    })
}

/// What a score on `token` burns, in USD (WAD): `ScorerRegistry.scoreBurnUsd` (C15).
///
/// # Errors
/// When the call fails.
pub async fn score_burn_usd(
    rpc: &Rpc,
    registry: Address,
    token: Address,
) -> Result<U256, RpcError> {
    rpc.call(registry, &IScorerRegistry::scoreBurnUsdCall { token })
        .await
}

/// The launchpad's `n` tokens with their symbols, in launch order (two batched round trips).
async fn launch_tokens(rpc: &Rpc, pad: Address, n: u64) -> Result<Vec<TokenRef>, RpcError> {
    let mut b = Batch::new();
    let slots: Vec<_> = (0..n)
        .map(|i| b.add(pad, &ILaunchpad::tokensCall(U256::from(i))))
        .collect();
    let a = b.run(rpc).await?;
    let tokens = slots
        .into_iter()
        .map(|s| a.get(s))
        .collect::<Result<Vec<_>, _>>()?;
    let mut b = Batch::new();
    let syms: Vec<_> = tokens
        .iter()
        .map(|&t| b.add(t, &IERC20::symbolCall {}))
        .collect();
    let a = b.run(rpc).await?;
    Ok(tokens
        .into_iter()
        .zip(syms)
        .map(|(token, s)| TokenRef {
            token,
            symbol: a.get(s).unwrap_or_else(|_| "?".into()),
        })
        .collect())
}

/// Every score of `registry` since `from_block` (its `Scored` events), in submission order.
///
/// # Errors
/// When the logs cannot be read or do not decode.
pub async fn scored_events(
    rpc: &Rpc,
    registry: Address,
    from_block: u64,
) -> Result<Vec<ScoredEvent>, RpcError> {
    Ok(rpc
        .events::<IScorerRegistry::Scored>(registry, None, from_block)
        .await?
        .into_iter()
        .map(|(e, _)| ScoredEvent {
            score_id: e.scoreId,
            scorer: e.scorer,
            token: e.token,
            thesis_hash: e.thesisHash,
            target: e.targetScore,
        })
        .collect())
}

/// The texts of every graded thesis (`Scored` events), fetched at once; a text is kept only when
/// its hash is the one on chain.
async fn published_theses(
    w: &World,
    rpc: &Rpc,
    registry: Address,
) -> Result<(Vec<PublishedThesis>, usize), RpcError> {
    let mut hashes: Vec<B256> = Vec::new();
    for e in scored_events(rpc, registry, w.deployment_block).await? {
        if !hashes.contains(&e.thesis_hash) {
            hashes.push(e.thesis_hash);
        }
    }
    let texts = futures::future::join_all(
        hashes
            .iter()
            .map(|h| async move { w.fetch_publication(&thesis_path(h)).await.ok() }),
    )
    .await;
    let mut out = Vec::new();
    for (h, text) in hashes.iter().zip(texts) {
        if let Some(t) = text.filter(|t| thesis_hash(t) == *h) {
            out.push(PublishedThesis {
                thesis_hash: *h,
                thesis: t,
            });
        }
    }
    let unpublished = hashes.len() - out.len();
    Ok((out, unpublished))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn theses_are_named_by_their_hash() {
        let h = thesis_hash("a thesis");
        assert_eq!(thesis_path(&h), format!("theses/{h}.txt"));
        assert!(thesis_path(&h).starts_with("theses/0x"));
    }
}
