//! The scorer registry (C11–C14), discovered from the chain: the registry and the ROOT price
//! oracle come from the network description, ROOT and the ETH/USD feed from them, the tokens a
//! thesis can be about from the launchpad, and every thesis from the registry's `Scored` events,
//! which carry its text (§4: theses are on chain; the registry computes the hash, and a text is used
//! only when its keccak-256 is that hash). No Leptos here.

use crate::chain::abi::{IAggregatorV3, ILaunchpad, IRootPriceOracle, IScorerRegistry, IERC20};
use crate::chain::multicall::Batch;
use crate::chain::rpc::{Rpc, RpcError};
use crate::chain::world::World;
use alloy_primitives::{Address, B256, U256};
use eden_core::check::ScoredEvent;
use eden_core::scoring::copy_detect::thesis_hash;

/// A token a thesis can be about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenRef {
    pub token: Address,
    pub symbol: String,
}

/// A scored thesis's text, from its `Scored` event (it matches the hash the registry computed).
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
    /// Every scored thesis's text, in submission (score id) order: the copy check's corpus and
    /// order (C8). A text scored twice is listed once, at its first score.
    pub theses: Vec<PublishedThesis>,
    /// How many scored theses' texts do not hash to their on-chain hash (none from an honest node).
    pub unpublished: usize,
}

impl ScorerRef {
    /// The text of the thesis with `hash`.
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
    // The theses need only the registry: read beside the batch, not after it (D3).
    let (a, theses) = futures::join!(
        b.run(&rpc),
        scored_theses(&rpc, registry, w.deployment_block)
    );
    let a = a?;
    let n = u64::try_from(a.get(count)?).unwrap_or(0);
    let tokens = launch_tokens(&rpc, pad, n).await;
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
        price_usd: a.get(price).map(|p| p.priceUsd).map_err(RpcError::from),
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
    Ok(scored_with_texts(rpc, registry, from_block)
        .await?
        .into_iter()
        .map(|(e, _)| e)
        .collect())
}

/// Every `Scored` event of `registry` since `from_block` with its thesis text (§4: on chain), in
/// score id order (the submission order).
///
/// # Errors
/// When the logs cannot be read or do not decode.
pub async fn scored_with_texts(
    rpc: &Rpc,
    registry: Address,
    from_block: u64,
) -> Result<Vec<(ScoredEvent, String)>, RpcError> {
    let mut out: Vec<(ScoredEvent, String)> = rpc
        .events::<IScorerRegistry::Scored>(registry, None, from_block)
        .await?
        .into_iter()
        .map(|(e, _)| {
            (
                ScoredEvent {
                    score_id: e.scoreId,
                    scorer: e.scorer,
                    token: e.token,
                    thesis_hash: e.thesisHash,
                    target: e.targetScore,
                },
                e.thesis,
            )
        })
        .collect();
    out.sort_by_key(|(e, _)| e.score_id);
    Ok(out)
}

/// The texts of every scored thesis, from the `Scored` events (§4: on chain), first score first; a
/// text is kept only when its keccak-256 is the hash the registry computed.
async fn scored_theses(
    rpc: &Rpc,
    registry: Address,
    from_block: u64,
) -> Result<(Vec<PublishedThesis>, usize), RpcError> {
    Ok(corpus(scored_with_texts(rpc, registry, from_block).await?))
}

/// The copy check's corpus from scored theses in score id order: each hash once (its first
/// score), a text whose hash differs from the event's left out and counted.
fn corpus(scored: Vec<(ScoredEvent, String)>) -> (Vec<PublishedThesis>, usize) {
    let mut out: Vec<PublishedThesis> = Vec::new();
    let mut mismatched = 0;
    for (e, text) in scored {
        if out.iter().any(|t| t.thesis_hash == e.thesis_hash) {
            continue;
        }
        if thesis_hash(&text) == e.thesis_hash {
            out.push(PublishedThesis {
                thesis_hash: e.thesis_hash,
                thesis: text,
            });
        } else {
            mismatched += 1;
        }
    }
    (out, mismatched)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(id: u64, text: &str) -> ScoredEvent {
        ScoredEvent {
            score_id: U256::from(id),
            scorer: Address::ZERO,
            token: Address::ZERO,
            thesis_hash: thesis_hash(text),
            target: U256::ZERO,
        }
    }

    #[test]
    fn the_corpus_is_every_text_once_in_score_order_and_refuses_a_wrong_text() {
        let mut forged = ev(3, "what the chain hashed");
        forged.thesis_hash = thesis_hash("what the chain hashed");
        let (theses, mismatched) = corpus(vec![
            (ev(0, "first"), "first".into()),
            (ev(1, "second"), "second".into()),
            (ev(2, "first"), "first".into()),
            (forged, "another text".into()),
        ]);
        let texts: Vec<_> = theses.iter().map(|t| t.thesis.as_str()).collect();
        assert_eq!(texts, ["first", "second"]);
        assert_eq!(mismatched, 1);
    }
}
