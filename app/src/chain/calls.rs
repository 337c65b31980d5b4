//! The calls ledger (A1–A5), discovered from the chain: one log scan of its `PoolSet`, `Staked`,
//! `Committed` and `Revealed` events gives the asset agents call (the first with a pool), the
//! windows they called it over and the agents; the stake token's labels are read beside the logs,
//! the asset's symbol after them. The ledger's state for the Calls page comes in two batched round
//! trips ([`read_ledger`]). No Leptos here.

use crate::chain::abi::{ICallLedger, IERC20};
use crate::chain::multicall::{run_with_block, Batch};
use crate::chain::rpc::{LogFilter, Rpc, RpcError};
use alloy_primitives::{Address, B256, U256};
use alloy_sol_types::SolEvent;

/// The window offered when no call has been revealed yet (an hour).
pub const DEFAULT_WINDOW_SECS: u64 = 3_600;

/// What the Calls page shows: the ledger, the asset, the windows and the agents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallsRef {
    pub ledger: Address,
    pub asset: Address,
    pub asset_symbol: String,
    /// The ERC-20 agents stake (`stakeToken`).
    pub stake_token: Address,
    pub stake_symbol: String,
    pub stake_decimals: u8,
    /// The windows revealed calls used for the asset, shortest first.
    pub windows: Vec<u64>,
    /// Every agent that staked or committed, in order of first appearance.
    pub agents: Vec<Address>,
}

/// The ledger's asset, windows and agents since `from_block`; `None` while no asset has a pool.
///
/// # Errors
/// When the logs or the symbols cannot be read.
pub async fn discover(
    rpc: &Rpc,
    ledger: Address,
    from_block: u64,
) -> Result<Option<CallsRef>, RpcError> {
    // The block the logs are read to, with the stake token, whose labels are read beside the logs.
    let (latest, stake_token) = futures::try_join!(
        rpc.block_number(),
        rpc.call(ledger, &ICallLedger::stakeTokenCall {})
    )?;
    let filter = LogFilter {
        address: ledger,
        topics: vec![Some(vec![
            ICallLedger::PoolSet::SIGNATURE_HASH,
            ICallLedger::Staked::SIGNATURE_HASH,
            ICallLedger::Committed::SIGNATURE_HASH,
            ICallLedger::Revealed::SIGNATURE_HASH,
        ])],
    };
    let (logs, stake_labels) = futures::try_join!(
        rpc.get_logs(&filter, from_block, latest),
        crate::chain::tokens::TokenLabels::read(rpc, [stake_token])
    )?;
    let mut pools: Vec<(Address, Address)> = Vec::new();
    let mut agents: Vec<Address> = Vec::new();
    let mut revealed: Vec<(Address, u64)> = Vec::new();
    let mut agent = |a: Address| {
        if !agents.contains(&a) {
            agents.push(a);
        }
    };
    for l in &logs {
        let topics = l.topics.iter().copied();
        match l.topics.first() {
            Some(&t) if t == ICallLedger::PoolSet::SIGNATURE_HASH => {
                if let Ok(e) = ICallLedger::PoolSet::decode_raw_log(topics, &l.data) {
                    pools.retain(|(a, _)| *a != e.asset);
                    pools.push((e.asset, e.pool));
                }
            }
            Some(&t) if t == ICallLedger::Staked::SIGNATURE_HASH => {
                if let Ok(e) = ICallLedger::Staked::decode_raw_log(topics, &l.data) {
                    agent(e.agent);
                }
            }
            Some(&t) if t == ICallLedger::Committed::SIGNATURE_HASH => {
                if let Ok(e) = ICallLedger::Committed::decode_raw_log(topics, &l.data) {
                    agent(e.agent);
                }
            }
            Some(&t) if t == ICallLedger::Revealed::SIGNATURE_HASH => {
                if let Ok(e) = ICallLedger::Revealed::decode_raw_log(topics, &l.data) {
                    revealed.push((e.asset, e.window));
                }
            }
            _ => {}
        }
    }
    let Some(asset) = pools
        .iter()
        .find(|(_, pool)| !pool.is_zero())
        .map(|(a, _)| *a)
    else {
        return Ok(None);
    };
    let mut windows: Vec<u64> = revealed
        .iter()
        .filter(|(a, _)| *a == asset)
        .map(|(_, w)| *w)
        .collect();
    windows.sort_unstable();
    windows.dedup();
    if windows.is_empty() {
        windows.push(DEFAULT_WINDOW_SECS);
    }
    let (stake_symbol, stake_decimals) = stake_labels.get(stake_token);
    let asset_symbol = rpc.call(asset, &IERC20::symbolCall {}).await;
    Ok(Some(CallsRef {
        ledger,
        asset,
        asset_symbol: asset_symbol.unwrap_or_else(|_| "?".into()),
        stake_token,
        stake_symbol,
        stake_decimals,
        windows,
        agents,
    }))
}
/// The id of `agent`'s call committed with `commitment` since `from_block` (its `Committed`
/// event), `None` when there is none.
///
/// # Errors
/// When the logs cannot be read or do not decode.
pub async fn committed_id(
    rpc: &Rpc,
    ledger: Address,
    from_block: u64,
    agent: Address,
    commitment: B256,
) -> Result<Option<U256>, RpcError> {
    Ok(rpc
        .events::<ICallLedger::Committed>(ledger, None, from_block)
        .await?
        .into_iter()
        .find(|(c, _)| c.commitment == commitment && c.agent == agent)
        .map(|(c, _)| c.id))
}

/// An agent, its record and its open calls (id, call).
pub type AgentRead = (
    Address,
    ICallLedger::AgentRecord,
    Vec<(U256, ICallLedger::Call)>,
);

/// The ledger's state as the Calls page reads it.
#[derive(Clone)]
pub struct LedgerRead {
    /// The latest block's time.
    pub now: u64,
    pub min_stake: U256,
    pub quorum: u64,
    pub threshold_bps: u16,
    /// Each agent asked for, with its record and its open calls (id, call).
    pub agents: Vec<AgentRead>,
    /// The connected account's balance of the stake token and its allowance to the ledger.
    pub wallet: Option<(U256, U256)>,
    /// Each window's current consensus round on the asset.
    pub windows: Vec<(u64, ICallLedger::consensusReturn)>,
    /// The last 20 rounds of the consensus log, newest first.
    pub log: Vec<ICallLedger::ConsensusRecord>,
    /// When the asset's pool takes over from pushed prices (`priceSource(asset).poolActiveAt`, A5): a call entered on pushed
    /// prices and closing after it resolves void.
    pub pool_active_at: u64,
    /// The band a pool-priced call's move must cover, in pips (`bandPips(asset)`, A3: the pool's fee,
    /// at least 100); 0 while the asset has no pool.
    pub band_pips: u32,
}

/// Reads the ledger for `agents` in two batched round trips whatever their number (after the
/// latest block): the parameters, every agent's record and open call ids, the consensus of each
/// window, the consensus log's length and `me`'s stake-token balance and allowance; then each open
/// call and the last 20 log rounds.
///
/// # Errors
/// When a round fails or a read reverts.
pub async fn read_ledger(
    rpc: &Rpc,
    c: &CallsRef,
    agents: &[Address],
    me: Option<Address>,
) -> Result<LedgerRead, RpcError> {
    let mut b = Batch::new();
    let wallet = me.map(|owner| {
        (
            b.add(c.stake_token, &IERC20::balanceOfCall { account: owner }),
            b.add(
                c.stake_token,
                &IERC20::allowanceCall {
                    owner,
                    spender: c.ledger,
                },
            ),
        )
    });
    let min_stake = b.add(c.ledger, &ICallLedger::minStakeCall {});
    let quorum = b.add(c.ledger, &ICallLedger::consensusQuorumCall {});
    let threshold = b.add(c.ledger, &ICallLedger::consensusThresholdBpsCall {});
    let log_len = b.add(c.ledger, &ICallLedger::consensusLogLengthCall {});
    let source = b.add(c.ledger, &ICallLedger::priceSourceCall { asset: c.asset });
    let band = b.add(c.ledger, &ICallLedger::bandPipsCall { asset: c.asset });
    let per_agent: Vec<_> = agents
        .iter()
        .map(|&a| {
            (
                b.add(c.ledger, &ICallLedger::agentRecordCall { who: a }),
                b.add(c.ledger, &ICallLedger::openCallIdsCall { agent: a }),
            )
        })
        .collect();
    let per_window: Vec<_> = c
        .windows
        .iter()
        .map(|&window| {
            b.add(
                c.ledger,
                &ICallLedger::consensusCall {
                    asset: c.asset,
                    window,
                },
            )
        })
        .collect();
    // First round trip: the chain's time with the ledger's settings, records and windows.
    let (_, now, first) = run_with_block(rpc, b).await?;
    let n = u64::try_from(first.get(log_len)?).unwrap_or(0);
    // Second round trip: every open call of every agent, and the last 20 consensus rounds.
    let mut b = Batch::new();
    let mut records = Vec::with_capacity(agents.len());
    for (&a, (record, open)) in agents.iter().zip(per_agent) {
        let calls: Vec<_> = first
            .get(open)?
            .into_iter()
            .map(|id| (id, b.add(c.ledger, &ICallLedger::getCallCall { id })))
            .collect();
        records.push((a, first.get(record)?, calls));
    }
    let log_slots: Vec<_> = (0..n)
        .rev()
        .take(20)
        .map(|i| {
            b.add(
                c.ledger,
                &ICallLedger::consensusLogAtCall { i: U256::from(i) },
            )
        })
        .collect();
    let second = b.run(rpc).await?;
    Ok(LedgerRead {
        now,
        min_stake: first.get(min_stake)?,
        quorum: first.get(quorum)?,
        threshold_bps: first.get(threshold)?,
        agents: records
            .into_iter()
            .map(|(a, r, calls)| {
                let calls = calls
                    .into_iter()
                    .map(|(id, s)| second.get(s).map(|call| (id, call)))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok((a, r, calls))
            })
            .collect::<Result<_, RpcError>>()?,
        windows: c
            .windows
            .iter()
            .zip(per_window)
            .map(|(&w, s)| first.get(s).map(|cur| (w, cur)))
            .collect::<Result<_, _>>()?,
        wallet: match wallet {
            Some((bal, allow)) => Some((first.get(bal)?, first.get(allow)?)),
            None => None,
        },
        log: log_slots
            .into_iter()
            .map(|s| second.get(s))
            .collect::<Result<_, _>>()?,
        pool_active_at: first.get(source)?.poolActiveAt,
        band_pips: first.get(band)?.to::<u32>(),
    })
}
