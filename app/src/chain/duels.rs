//! Duels (B1–B7), discovered from the chain: the hook's `duelCount` and each duel's pools, and
//! the two tokens' symbols, in two batched round trips whatever the number of duels. Each pool
//! pairs native ETH (`currency0`, the zero address) with its token (`currency1`). No Leptos here.

use crate::chain::abi::{IDuelHook, IERC20};
use crate::chain::multicall::Batch;
use crate::chain::rpc::{Rpc, RpcError};
use alloy_primitives::{Address, U256};

/// A duel: its hook, id and the two tokens with their symbols.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuelRef {
    pub duel_id: u64,
    pub hook: Address,
    pub token_a: Address,
    pub token_b: Address,
    pub symbol_a: String,
    pub symbol_b: String,
}

/// The token of a duel pool: the currency that is not native ETH.
fn token_of(key: &IDuelHook::PoolKey) -> Address {
    if key.currency0.is_zero() {
        key.currency1
    } else {
        key.currency0
    }
}

/// Every duel of `hook`, by id.
///
/// # Errors
/// When the hook cannot be read.
pub async fn discover(rpc: &Rpc, hook: Address) -> Result<Vec<DuelRef>, RpcError> {
    let n: U256 = rpc.call(hook, &IDuelHook::duelCountCall {}).await?;
    let n = u64::try_from(n).unwrap_or(0);
    let mut b = Batch::new();
    let slots: Vec<_> = (0..n)
        .map(|i| {
            b.add(
                hook,
                &IDuelHook::getDuelCall {
                    duelId: U256::from(i),
                },
            )
        })
        .collect();
    let a = b.run(rpc).await?;
    let mut pairs = Vec::with_capacity(slots.len());
    for (i, s) in slots.into_iter().enumerate() {
        let d = a.get(s)?;
        pairs.push((i as u64, token_of(&d.keyA), token_of(&d.keyB)));
    }
    let mut b = Batch::new();
    let syms: Vec<_> = pairs
        .iter()
        .map(|&(_, ta, tb)| {
            (
                b.add(ta, &IERC20::symbolCall {}),
                b.add(tb, &IERC20::symbolCall {}),
            )
        })
        .collect();
    let a = b.run(rpc).await?;
    Ok(pairs
        .into_iter()
        .zip(syms)
        .map(|((duel_id, token_a, token_b), (sa, sb))| DuelRef {
            duel_id,
            hook,
            token_a,
            token_b,
            symbol_a: a.get(sa).unwrap_or_else(|_| "?".into()),
            symbol_b: a.get(sb).unwrap_or_else(|_| "?".into()),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_is_the_currency_that_is_not_eth() {
        let t = Address::repeat_byte(7);
        let key = |c0, c1| IDuelHook::PoolKey {
            currency0: c0,
            currency1: c1,
            fee: Default::default(),
            tickSpacing: Default::default(),
            hooks: Address::ZERO,
        };
        assert_eq!(token_of(&key(Address::ZERO, t)), t);
        assert_eq!(token_of(&key(t, Address::repeat_byte(9))), t);
    }
}
