//! Typed view calls sent together: a [`Batch`] collects calls of any contracts, each [`Slot`] remembers
//! its call's type, and the [`Answers`] decode each as its function's return. The transport decides how
//! the batch travels ([`ChainRead::call_batch`]: a Multicall3 `aggregate3`, a JSON-RPC batch, calls in
//! flight together), so a page's or a pass's round trips do not grow with what it reads.

use crate::read::{batch, ChainRead, ReadError};
use alloy_primitives::{Address, Bytes};
use alloy_sol_types::SolCall;
use std::marker::PhantomData;

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

/// The answers of a batch, in the order its calls were added: each call's return data or its own error
/// (its revert).
#[derive(Debug)]
pub struct Answers<E> {
    out: Vec<Option<Result<Bytes, E>>>,
}

impl Batch {
    /// An empty batch.
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

    /// Calls added so far.
    pub fn len(&self) -> usize {
        self.calls.len()
    }

    /// No call added.
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }

    /// Sends the batch against the latest state.
    ///
    /// # Errors
    /// The transport's for the batch as a whole (a single call's revert is that call's answer), or a
    /// batch answered short.
    pub async fn run<R: ChainRead>(
        self,
        chain: &R,
    ) -> Result<Answers<R::Error>, ReadError<R::Error>> {
        self.run_at(chain, None).await
    }

    /// Sends the batch against the state after `block` (`None`: the latest).
    ///
    /// # Errors
    /// As [`Batch::run`].
    pub async fn run_at<R: ChainRead>(
        self,
        chain: &R,
        block: Option<u64>,
    ) -> Result<Answers<R::Error>, ReadError<R::Error>> {
        if self.calls.is_empty() {
            return Ok(Answers { out: vec![] });
        }
        let out = batch(chain, self.calls, block).await?;
        Ok(Answers {
            out: out.into_iter().map(Some).collect(),
        })
    }
}

impl<E> Answers<E> {
    /// Answers as a transport returned them, one per call in order (for tests and transports).
    pub fn from_results(out: Vec<Result<Bytes, E>>) -> Self {
        Answers {
            out: out.into_iter().map(Some).collect(),
        }
    }

    /// The decoded answer of the call at `slot`, taken out of the answers (a second take of the same slot
    /// is [`ReadError::Missing`]).
    ///
    /// # Errors
    /// The call's own error (its revert), or an answer that does not decode as the call's return (an
    /// address without code answers empty: an error, not a zero).
    pub fn take<C: SolCall>(&mut self, slot: Slot<C>) -> Result<C::Return, ReadError<E>> {
        let answer = self
            .out
            .get_mut(slot.index)
            .and_then(Option::take)
            .ok_or(ReadError::Missing { call: C::SIGNATURE })?;
        crate::read::decode_answer::<C, E>(answer)
    }
}

impl<E: Clone> Answers<E> {
    /// The decoded answer of the call at `slot`, leaving it in place.
    ///
    /// # Errors
    /// As [`Answers::take`].
    pub fn get<C: SolCall>(&self, slot: Slot<C>) -> Result<C::Return, ReadError<E>> {
        let answer = self
            .out
            .get(slot.index)
            .and_then(Option::as_ref)
            .ok_or(ReadError::Missing { call: C::SIGNATURE })?
            .clone();
        crate::read::decode_answer::<C, E>(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::IERC20;
    use alloy_primitives::U256;
    use alloy_sol_types::SolValue;

    #[test]
    fn answers_decode_by_their_calls_type_and_keep_reverts_apart() {
        let mut b = Batch::new();
        let sym = b.add(Address::repeat_byte(1), &IERC20::symbolCall {});
        let dec = b.add(Address::repeat_byte(1), &IERC20::decimalsCall {});
        let bad = b.add(Address::repeat_byte(2), &IERC20::decimalsCall {});
        assert_eq!(b.len(), 3);
        let mut a = Answers::from_results(vec![
            Ok("MEAD".to_string().abi_encode().into()),
            Ok(U256::from(18u8).abi_encode().into()),
            Err("no".to_string()),
        ]);
        assert_eq!(a.get(sym).unwrap(), "MEAD");
        assert_eq!(a.take(dec).unwrap(), 18);
        assert!(
            matches!(a.take(dec), Err(ReadError::Missing { .. })),
            "taken once"
        );
        assert_eq!(a.get(bad), Err(ReadError::Transport("no".to_string())));
        // An address without code answers empty: a decode error, not a zero.
        let a = Answers::<String>::from_results(vec![Ok(Bytes::new())]);
        assert!(matches!(a.get(sym), Err(ReadError::Return { .. })));
    }
}
