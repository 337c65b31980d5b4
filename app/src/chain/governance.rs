//! Who may create a duel, and the duels waiting in the timelock (B1): the duel hook's owner, and
//! when it is OpenZeppelin's `TimelockController`, its delay, whether an account may propose,
//! and every `createDuel` scheduled through it with its state. No Leptos here.

use alloy_primitives::{keccak256, Address, Bytes, B256, U256};
use alloy_sol_types::{SolCall, SolEvent};

use super::abi::{IDuelHook, ITimelock};
use super::multicall::Batch;
use super::pool::Key;
use super::rpc::{decode_event, LogFilter, Rpc, RpcError};

/// A `createDuel` scheduled in the timelock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduledDuel {
    pub id: B256,
    pub key_a: Key,
    pub key_b: Key,
    /// The call as scheduled (what `execute` repeats).
    pub data: Bytes,
    pub predecessor: B256,
    pub salt: B256,
    /// `getTimestamp(id)`: 0 cancelled, 1 done, else when it becomes executable.
    pub ready_at: u64,
}

/// The timelock that owns the hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Timelock {
    pub address: Address,
    pub min_delay: u64,
    /// Whether the connected account holds `PROPOSER_ROLE`.
    pub may_propose: bool,
    pub scheduled: Vec<ScheduledDuel>,
}

/// Who creates duels on a hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuelOwner {
    pub owner: Address,
    /// `Some` when the owner is a timelock.
    pub timelock: Option<Timelock>,
}

/// `keccak256("PROPOSER_ROLE")`, OpenZeppelin's constant.
pub fn proposer_role() -> B256 {
    keccak256("PROPOSER_ROLE")
}

/// The hook's owner, and its timelock's state when it is one.
///
/// # Errors
/// When the hook, or the logs of a timelock owner, cannot be read.
pub async fn duel_owner(
    rpc: &Rpc,
    hook: Address,
    me: Option<Address>,
    from_block: u64,
) -> Result<DuelOwner, RpcError> {
    let owner = rpc.call(hook, &IDuelHook::ownerCall {}).await?;
    // An owner with `getMinDelay` is treated as a timelock; an account (or another contract) is not.
    let Ok(min_delay) = rpc.call(owner, &ITimelock::getMinDelayCall {}).await else {
        return Ok(DuelOwner {
            owner,
            timelock: None,
        });
    };
    let latest = rpc.block_number().await?;
    let scheduled = LogFilter {
        address: owner,
        topics: vec![Some(vec![ITimelock::CallScheduled::SIGNATURE_HASH])],
    };
    let salts = LogFilter {
        address: owner,
        topics: vec![Some(vec![ITimelock::CallSalt::SIGNATURE_HASH])],
    };
    let (scheduled, salts, may_propose) = futures::join!(
        rpc.get_logs(&scheduled, from_block, latest),
        rpc.get_logs(&salts, from_block, latest),
        async {
            match me {
                Some(a) => rpc
                    .call(
                        owner,
                        &ITimelock::hasRoleCall {
                            role: proposer_role(),
                            account: a,
                        },
                    )
                    .await
                    .unwrap_or(false),
                None => false,
            }
        }
    );
    let mut salt_of = std::collections::HashMap::new();
    for l in salts? {
        let e = decode_event::<ITimelock::CallSalt>(&l)?;
        salt_of.insert(e.id, e.salt);
    }
    let mut found = Vec::new();
    for l in scheduled? {
        let e = decode_event::<ITimelock::CallScheduled>(&l)?;
        if e.target != hook {
            continue;
        }
        let Ok(call) = IDuelHook::createDuelCall::abi_decode(&e.data) else {
            continue;
        };
        found.push(ScheduledDuel {
            id: e.id,
            key_a: Key::from(&call.keyA),
            key_b: Key::from(&call.keyB),
            data: e.data,
            predecessor: e.predecessor,
            salt: salt_of.get(&e.id).copied().unwrap_or_default(),
            ready_at: 0,
        });
    }
    let mut b = Batch::new();
    let slots: Vec<_> = found
        .iter()
        .map(|s| b.add(owner, &ITimelock::getTimestampCall { id: s.id }))
        .collect();
    let answers = b.run(rpc).await?;
    for (s, slot) in found.iter_mut().zip(slots) {
        s.ready_at = answers.get(slot)?.saturating_to::<u64>();
    }
    Ok(DuelOwner {
        owner,
        timelock: Some(Timelock {
            address: owner,
            min_delay: min_delay.saturating_to::<u64>(),
            may_propose,
            scheduled: found,
        }),
    })
}

/// The timelock's `schedule` of `createDuel(keyA, keyB)` on `hook`, after `delay`.
pub fn schedule_create(
    hook: Address,
    key_a: IDuelHook::PoolKey,
    key_b: IDuelHook::PoolKey,
    salt: B256,
    delay: u64,
) -> ITimelock::scheduleCall {
    ITimelock::scheduleCall {
        target: hook,
        value: U256::ZERO,
        data: IDuelHook::createDuelCall {
            keyA: key_a,
            keyB: key_b,
        }
        .abi_encode()
        .into(),
        predecessor: B256::ZERO,
        salt,
        delay: U256::from(delay),
    }
}
