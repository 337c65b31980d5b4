//! The app's way to send a batch of view calls ([`eden_chain::batch::Batch`], re-exported), so a page's
//! round trips do not grow with the number of launches, duels, agents or positions it shows: one Multicall3
//! `aggregate3` `eth_call` (each call allowed to fail on its own), or, on a chain without Multicall3,
//! as one JSON-RPC batch of `eth_call`s. Batches over [`MAX_CALLS`] calls go as several requests
//! at once. No Leptos here.

use crate::chain::abi::{revert_reason, IMulticall3};
use crate::chain::rpc::{Rpc, RpcError, TxRequest};
use alloy_primitives::{address, Address, Bytes};
use alloy_sol_types::SolCall;

/// Multicall3's address on most chains (and on the local chain, scripts/deploy-multicall3.mjs).
pub const MULTICALL3: Address = address!("cA11bde05977b3631167028862bE2a173976CA11");
/// Calls per Multicall3 request: view calls of a few thousand gas each stay far below nodes'
/// `eth_call` gas caps, and fewer requests matter because a browser opens at most six connections
/// to one origin (a JSON-RPC batch is split further, at [`crate::chain::rpc::MAX_BATCH`]).
pub const MAX_CALLS: usize = 500;

pub use eden_chain::batch::{Answers, Batch};

/// `batch` read at the latest block, with that block's number and timestamp, all of one state. With
/// Multicall3 (and at most [`MAX_CALLS`] calls) the block's number and time are two more calls of the
/// same `aggregate3`, which one `eth_call` runs against one block: one round trip. Without it, the
/// latest block first, then the batch at that block: two.
///
/// # Errors
/// When the block or the batch as a whole cannot be read.
pub async fn run_with_block(
    rpc: &Rpc,
    mut batch: Batch,
) -> Result<(u64, u64, Answers<RpcError>), RpcError> {
    match rpc.multicall {
        Some(mc) if batch.len() + 2 <= MAX_CALLS => {
            let number = batch.add(mc, &IMulticall3::getBlockNumberCall {});
            let time = batch.add(mc, &IMulticall3::getCurrentBlockTimestampCall {});
            let a = batch.run(rpc).await?;
            let (number, time) = (a.get(number)?, a.get(time)?);
            let to_u64 = |v: alloy_primitives::U256, what: &str| {
                u64::try_from(v).map_err(|_| RpcError::Decode(format!("Multicall3 {what}: {v}")))
            };
            Ok((
                to_u64(number, "block number")?,
                to_u64(time, "timestamp")?,
                a,
            ))
        }
        _ => {
            let (number, time) = rpc.latest_block().await?;
            Ok((number, time, batch.run_at(rpc, Some(number)).await?))
        }
    }
}

/// `calls` at the latest block: through Multicall3 when `rpc` has one, else as JSON-RPC batches; over
/// [`MAX_CALLS`] calls, as several requests at once. Each call's answer, in order.
///
/// # Errors
/// When a request as a whole fails (the node, the network).
pub async fn run_calls(
    rpc: &Rpc,
    calls: &[(Address, Bytes)],
) -> Result<Vec<Result<Bytes, RpcError>>, RpcError> {
    let runs = calls.chunks(MAX_CALLS).map(|chunk| async move {
        match rpc.multicall {
            Some(mc) => aggregate3(rpc, mc, chunk).await,
            None => rpc.eth_calls(chunk, None).await,
        }
    });
    let mut out = Vec::with_capacity(calls.len());
    for r in futures::future::join_all(runs).await {
        out.extend(r?);
    }
    Ok(out)
}

/// One `aggregate3` call, every call allowed to fail.
async fn aggregate3(
    rpc: &Rpc,
    mc: Address,
    calls: &[(Address, Bytes)],
) -> Result<Vec<Result<Bytes, RpcError>>, RpcError> {
    let call = IMulticall3::aggregate3Call {
        calls: calls
            .iter()
            .map(|(target, data)| IMulticall3::Call3 {
                target: *target,
                allowFailure: true,
                callData: data.clone(),
            })
            .collect(),
    };
    let out = rpc
        .call_raw(&TxRequest::call(mc, call.abi_encode()))
        .await?;
    let results = IMulticall3::aggregate3Call::abi_decode_returns(&out)
        .map_err(|e| RpcError::Decode(format!("Multicall3 answer: {e}")))?;
    if results.len() != calls.len() {
        return Err(RpcError::Decode(format!(
            "Multicall3 answered {} results for {} calls",
            results.len(),
            calls.len()
        )));
    }
    Ok(results
        .into_iter()
        .map(|r| {
            if r.success {
                Ok(r.returnData)
            } else {
                Err(RpcError::Revert(revert_reason(&r.returnData)))
            }
        })
        .collect())
}
