//! Batched view calls, so a page's round trips do not grow with the number of launches, duels,
//! agents or positions it shows: a [`Batch`] of typed calls goes to the node as one Multicall3
//! `aggregate3` `eth_call` (each call allowed to fail on its own), or, on a chain without Multicall3,
//! as one JSON-RPC batch of `eth_call`s. Batches over [`MAX_CALLS`] calls go as several requests
//! at once. No Leptos here.

use crate::chain::abi::{revert_reason, IMulticall3};
use crate::chain::rpc::{Rpc, RpcError, TxRequest};
use alloy_primitives::{address, Address, Bytes};
use alloy_sol_types::SolCall;
use std::marker::PhantomData;

/// Multicall3's address on most chains (and on the local chain, scripts/deploy-multicall3.mjs).
pub const MULTICALL3: Address = address!("cA11bde05977b3631167028862bE2a173976CA11");
/// Calls per Multicall3 request: view calls of a few thousand gas each stay far below nodes'
/// `eth_call` gas caps, and fewer requests matter because a browser opens at most six connections
/// to one origin (a JSON-RPC batch is split further, at [`crate::chain::rpc::MAX_BATCH`]).
pub const MAX_CALLS: usize = 500;

/// A call's place in its batch, typed by the call (its answer decodes as `C::Return`).
pub struct Slot<C> {
    index: usize,
    call: PhantomData<fn() -> C>,
}

impl<C> Clone for Slot<C> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<C> Copy for Slot<C> {}

/// View calls to send together.
#[derive(Debug, Clone, Default)]
pub struct Batch {
    calls: Vec<(Address, Bytes)>,
}

/// The answers of a batch, in the order the calls were added.
#[derive(Debug, Clone)]
pub struct Answers {
    out: Vec<Result<Bytes, RpcError>>,
}

impl Batch {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `call` to `to`.
    pub fn add<C: SolCall>(&mut self, to: Address, call: &C) -> Slot<C> {
        self.calls.push((to, call.abi_encode().into()));
        Slot {
            index: self.calls.len() - 1,
            call: PhantomData,
        }
    }

    /// Sends the batch: through Multicall3 when `rpc` has one, else as JSON-RPC batches.
    ///
    /// # Errors
    /// When a request as a whole fails (the node, the network); a single call's revert is that
    /// call's answer ([`Answers::get`]).
    pub async fn run(self, rpc: &Rpc) -> Result<Answers, RpcError> {
        Ok(Answers {
            out: run_calls(rpc, &self.calls).await?,
        })
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
            None => rpc.call_batch(chunk).await,
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

impl Answers {
    /// The decoded answer of the call at `slot`.
    ///
    /// # Errors
    /// The call's revert, or an answer that does not decode as the call's return type (a call to
    /// an address without code answers empty).
    pub fn get<C: SolCall>(&self, slot: Slot<C>) -> Result<C::Return, RpcError> {
        let raw = self
            .out
            .get(slot.index)
            .ok_or_else(|| RpcError::Decode("no answer for this call".into()))?
            .as_ref()
            .map_err(Clone::clone)?;
        C::abi_decode_returns(raw).map_err(|e| RpcError::Decode(format!("{}: {e}", C::SIGNATURE)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::abi::IERC20;
    use alloy_primitives::U256;
    use alloy_sol_types::SolValue;

    #[test]
    fn answers_decode_by_their_calls_type_and_keep_reverts_apart() {
        let mut b = Batch::new();
        let sym = b.add(Address::repeat_byte(1), &IERC20::symbolCall {});
        let dec = b.add(Address::repeat_byte(1), &IERC20::decimalsCall {});
        let bad = b.add(Address::repeat_byte(2), &IERC20::decimalsCall {});
        assert_eq!(b.calls.len(), 3);
        let a = Answers {
            out: vec![
                Ok("MEAD".to_string().abi_encode().into()),
                Ok(U256::from(18u8).abi_encode().into()),
                Err(RpcError::Revert("no".into())),
            ],
        };
        assert_eq!(a.get(sym).unwrap(), "MEAD");
        assert_eq!(a.get(dec).unwrap(), 18);
        assert_eq!(a.get(bad), Err(RpcError::Revert("no".into())));
        // An address without code answers empty: a decode error, not a zero.
        let a = Answers {
            out: vec![Ok(Bytes::new())],
        };
        assert!(matches!(a.get(sym), Err(RpcError::Decode(_))));
    }
}
