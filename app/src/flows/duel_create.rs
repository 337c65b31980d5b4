//! Creating a duel (B1): the form's tokens, fee and spacing checked, both pools (ETH against each token, on
//! the hook) checked to have a price, and the transaction: `createDuel` from an owner that is an account, or
//! the timelock's `schedule` of it when the owner is the deployment's timelock.

use crate::chain::abi::{IDuelHook, IPoolManagerState, ITimelock};
use crate::chain::governance::{self, DuelOwner, ScheduledDuel};
use crate::chain::pool::Key;
use crate::chain::rpc::TxRequest;
use crate::chain::world::World;
use crate::error::AppError;
use crate::fmt;
use alloy_primitives::aliases::{I24, U24};
use alloy_primitives::{keccak256, Address, U256};
use alloy_sol_types::{SolCall, SolValue};
use eden_core::uniswap::state;

/// The key of the ETH pool of `token` on `hook`.
pub fn key_of(token: Address, fee: u32, spacing: i32, hook: Address) -> IDuelHook::PoolKey {
    IDuelHook::PoolKey {
        currency0: Address::ZERO,
        currency1: token,
        fee: U24::from(fee),
        tickSpacing: I24::try_from(spacing).unwrap_or_default(),
        hooks: hook,
    }
}

/// Checks the form and both pools' prices; the two keys.
pub async fn keys_checked(
    w: &World,
    hook: Address,
    a: &str,
    b: &str,
    fee: &str,
    spacing: &str,
) -> Result<(IDuelHook::PoolKey, IDuelHook::PoolKey), AppError> {
    let addr = |what: &str, s: &str| {
        s.trim()
            .parse::<Address>()
            .ok()
            .filter(|a| !a.is_zero())
            .ok_or_else(|| {
                AppError::missing(format!(
                    "{what}: type the token's address (0x and 40 hex digits)"
                ))
            })
    };
    let (ta, tb) = (addr("Token A", a)?, addr("Token B", b)?);
    if ta == tb {
        return Err(AppError::missing("the two tokens must differ"));
    }
    let fee: u32 = fee
        .trim()
        .parse()
        .ok()
        .filter(|f| *f < 1_000_000)
        .ok_or_else(|| {
            AppError::missing(
                "the pool fee is in hundredths of a bip, below 1,000,000 (3000 is 0.3 %)",
            )
        })?;
    let spacing: i32 = spacing
        .trim()
        .parse()
        .ok()
        .filter(|s| (1..=32_767).contains(s))
        .ok_or_else(|| AppError::missing("the tick spacing is a whole number from 1 to 32,767"))?;
    let (ka, kb) = (
        key_of(ta, fee, spacing, hook),
        key_of(tb, fee, spacing, hook),
    );
    let rpc = w.rpc();
    for (k, name) in [(&ka, "A"), (&kb, "B")] {
        let id = Key::from(k).id();
        let word = rpc
            .call(
                w.contracts.pool_manager,
                &IPoolManagerState::extsload_0Call {
                    slot: state::pool_state_slot(id),
                },
            )
            .await?;
        if state::Slot0::from_word(word).sqrt_price_x96.is_zero() {
            return Err(AppError::missing(format!(
                "token {name}'s ETH pool on this hook (fee {fee}, spacing {spacing}) has no price yet: initialize it first"
            )));
        }
    }
    Ok((ka, kb))
}

/// The transaction that creates the duel of `ka` and `kb` on `hook` for `owner`, with its label: the
/// timelock's `schedule` (a salt unique to the call and the chain time `now`) or `createDuel` itself.
pub fn create_request(
    hook: Address,
    owner: &DuelOwner,
    ka: IDuelHook::PoolKey,
    kb: IDuelHook::PoolKey,
    now: u64,
) -> (String, TxRequest) {
    let short = |k: &IDuelHook::PoolKey| fmt::short_addr(&k.currency1.to_checksum(None));
    match &owner.timelock {
        Some(t) => {
            let data = IDuelHook::createDuelCall {
                keyA: ka.clone(),
                keyB: kb.clone(),
            }
            .abi_encode();
            let salt =
                keccak256((alloy_primitives::Bytes::from(data), U256::from(now)).abi_encode());
            let label = format!(
                "Propose a duel {} vs {} (executable after {})",
                short(&ka),
                short(&kb),
                fmt::duration(t.min_delay)
            );
            let call = governance::schedule_create(hook, ka, kb, salt, t.min_delay);
            (label, TxRequest::call(t.address, call.abi_encode()))
        }
        None => {
            let label = format!("Create a duel {} vs {}", short(&ka), short(&kb));
            let call = IDuelHook::createDuelCall { keyA: ka, keyB: kb };
            (label, TxRequest::call(hook, call.abi_encode()))
        }
    }
}

/// The timelock's `execute` of a scheduled `createDuel` on `hook`, with its label.
pub fn execute_request(hook: Address, s: &ScheduledDuel) -> (String, ITimelock::executeCall) {
    let call = ITimelock::executeCall {
        target: hook,
        value: U256::ZERO,
        payload: s.data.clone(),
        predecessor: s.predecessor,
        salt: s.salt,
    };
    let label = format!(
        "Create the scheduled duel {} vs {}",
        fmt::short_addr(&s.key_a.currency1.to_checksum(None)),
        fmt::short_addr(&s.key_b.currency1.to_checksum(None))
    );
    (label, call)
}
