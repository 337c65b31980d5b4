//! The duel hook's duels (B5–B7), read once for the app and the operator: how many there are and each
//! one's record (its two pools, round, pot), in one batch whatever their number.

use crate::abi::DuelHook;
use crate::batch::Batch;
use crate::read::{ChainRead, ReadError};
use alloy_primitives::{Address, U256};
use alloy_sol_types::SolCall;

/// A duel's record as `DuelHook.getDuel` returns it.
pub type DuelRecord = <DuelHook::getDuelCall as SolCall>::Return;

/// The most duels a list reads: a hook claiming more is not read (one that lies about its count cannot
/// make a reader send requests without end).
pub const MAX_DUELS: u64 = 100_000;

/// `duelCount`, saturated to `u64`.
///
/// # Errors
/// The transport's; an answer that does not decode.
pub async fn count<R: ChainRead>(chain: &R, hook: Address) -> Result<u64, ReadError<R::Error>> {
    let mut b = Batch::new();
    let n = b.add(hook, &DuelHook::duelCountCall {});
    let n = b.run(chain).await?.take(n)?;
    Ok(u64::try_from(n).unwrap_or(u64::MAX))
}

/// Every duel of `hook` by id: the count, then every record in one batch.
///
/// # Errors
/// The transport's; a read that reverts or does not decode; a count over [`MAX_DUELS`].
pub async fn list<R: ChainRead>(
    chain: &R,
    hook: Address,
) -> Result<Vec<(u64, DuelRecord)>, ReadError<R::Error>> {
    let n = count(chain, hook).await?;
    if n > MAX_DUELS {
        return Err(ReadError::Unexpected(format!(
            "the duel hook says it has {n} duels; at most {MAX_DUELS} are read"
        )));
    }
    let mut b = Batch::new();
    let slots: Vec<_> = (0..n)
        .map(|i| {
            b.add(
                hook,
                &DuelHook::getDuelCall {
                    duelId: U256::from(i),
                },
            )
        })
        .collect();
    let mut a = b.run(chain).await?;
    (0..n)
        .zip(slots)
        .map(|(i, s)| Ok((i, a.take(s)?)))
        .collect()
}
