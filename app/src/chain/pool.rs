//! A v4 pool's swap state through `PoolManager.extsload` (D7): `Slot0`, the in-range liquidity,
//! and the tick bitmap words and ticks an exact quote crosses, read in batches and extended when
//! a quote needs more. The quote itself is `eden_core::uniswap::swap`.

use alloy_primitives::{Address, B256, U256};
use eden_core::uniswap::swap::{self, ExactInQuote, PoolState, SwapError, TickReads};
use eden_core::uniswap::{state, tick_bitmap};

use super::abi::{IDuelHook, ILaunchpad, IPoolManagerState, ISwapRouter};
use super::rpc::Rpc;
use super::rpc::RpcError;

/// Why a pool could not be read or quoted: the chain layer's own error (the app's error type
/// wraps it), so this module depends on nothing above it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    /// The node or the network.
    #[error(transparent)]
    Rpc(#[from] RpcError),
    /// `extsload` answered another number of words than asked.
    #[error("PoolManager.extsload: {got} values for {asked} slots")]
    ShortRead { got: usize, asked: usize },
    /// The pool's own refusal (not initialized, no liquidity, …), in eden-core's words.
    #[error(transparent)]
    Swap(#[from] SwapError),
    /// A swap that crosses more of the pool than a quote reads.
    #[error("this swap crosses more of the pool than a quote reads: try a smaller amount")]
    TooFar,
}

/// A pool key in plain Rust (each contract's `sol!` declares its own `PoolKey`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub currency0: Address,
    pub currency1: Address,
    pub fee: u32,
    pub tick_spacing: i32,
    pub hooks: Address,
}

impl Key {
    /// `PoolIdLibrary.toId`.
    pub fn id(&self) -> B256 {
        state::pool_id(
            self.currency0,
            self.currency1,
            self.fee,
            self.tick_spacing,
            self.hooks,
        )
    }

    /// The key as the swap router takes it.
    pub fn for_router(&self) -> ISwapRouter::PoolKey {
        ISwapRouter::PoolKey {
            currency0: self.currency0,
            currency1: self.currency1,
            fee: alloy_primitives::aliases::U24::from(self.fee),
            tickSpacing: alloy_primitives::aliases::I24::try_from(self.tick_spacing)
                .unwrap_or_default(),
            hooks: self.hooks,
        }
    }
}

impl From<&ILaunchpad::PoolKey> for Key {
    fn from(k: &ILaunchpad::PoolKey) -> Self {
        Key {
            currency0: k.currency0,
            currency1: k.currency1,
            fee: k.fee.to::<u32>(),
            tick_spacing: k.tickSpacing.as_i32(),
            hooks: k.hooks,
        }
    }
}

impl From<&IDuelHook::PoolKey> for Key {
    fn from(k: &IDuelHook::PoolKey) -> Self {
        Key {
            currency0: k.currency0,
            currency1: k.currency1,
            fee: k.fee.to::<u32>(),
            tick_spacing: k.tickSpacing.as_i32(),
            hooks: k.hooks,
        }
    }
}

/// A pool's state at one read, with the ticks read so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolSnapshot {
    pub key: Key,
    pub state: PoolState,
    pub reads: TickReads,
}

/// Bitmap words read on each side of the current one with the state: most swaps need no more.
const WORDS_AROUND: i16 = 2;

/// Words read at once when a quote needs one more: it and the next ones in the swap's direction.
const WORDS_AHEAD: i16 = 4;

/// A quote gives up after this many extra reads (a swap across more than ~160 words).
const MAX_EXTRA_READS: usize = 40;

/// `extsload(bytes32[])` of `slots`, in order.
async fn load(rpc: &Rpc, pool_manager: Address, slots: Vec<B256>) -> Result<Vec<B256>, PoolError> {
    if slots.is_empty() {
        return Ok(Vec::new());
    }
    let n = slots.len();
    let values = rpc
        .call(pool_manager, &IPoolManagerState::extsload_2Call { slots })
        .await?;
    if values.len() != n {
        return Err(PoolError::ShortRead {
            got: values.len(),
            asked: n,
        });
    }
    Ok(values)
}

/// `extsload` of one slot per item, in order.
async fn load_each<T: Copy>(
    rpc: &Rpc,
    pool_manager: Address,
    items: &[T],
    slot: impl Fn(T) -> B256,
) -> Result<Vec<B256>, PoolError> {
    load(rpc, pool_manager, items.iter().map(|&x| slot(x)).collect()).await
}

/// Reads `words` of the bitmap and the `liquidityNet` of every initialized tick in them.
async fn read_words(
    rpc: &Rpc,
    pool_manager: Address,
    snap: &mut PoolSnapshot,
    words: &[i16],
) -> Result<(), PoolError> {
    let id = snap.key.id();
    let words: Vec<i16> = words
        .iter()
        .copied()
        .filter(|w| !snap.reads.words.contains_key(w))
        .collect();
    let values = load_each(rpc, pool_manager, &words, |w| {
        tick_bitmap::bitmap_word_slot(id, w)
    })
    .await?;
    let mut ticks = Vec::new();
    for (&w, v) in words.iter().zip(values) {
        let word = U256::from_be_bytes(v.0);
        for bit in 0..256usize {
            if word.bit(bit) {
                ticks.push((i32::from(w) * 256 + bit as i32) * snap.key.tick_spacing);
            }
        }
        snap.reads.words.insert(w, word);
    }
    let nets = load_each(rpc, pool_manager, &ticks, |t| {
        tick_bitmap::tick_info_slot(id, t)
    })
    .await?;
    for (t, v) in ticks.into_iter().zip(nets) {
        snap.reads
            .nets
            .insert(t, tick_bitmap::liquidity_net_from_word(v));
    }
    Ok(())
}

/// The pool's state now, with the bitmap words around its price.
///
/// # Errors
/// When the PoolManager cannot be read, or the pool has no price.
pub async fn snapshot(
    rpc: &Rpc,
    pool_manager: Address,
    key: Key,
) -> Result<PoolSnapshot, PoolError> {
    let id = key.id();
    let v = load(
        rpc,
        pool_manager,
        vec![state::pool_state_slot(id), state::liquidity_slot(id)],
    )
    .await?;
    let slot0 = state::Slot0::from_word(v[0]);
    if slot0.sqrt_price_x96.is_zero() {
        return Err(SwapError::NotInitialized.into());
    }
    let mut snap = PoolSnapshot {
        key,
        state: PoolState {
            sqrt_price_x96: slot0.sqrt_price_x96,
            tick: slot0.tick,
            protocol_fee: slot0.protocol_fee,
            lp_fee: slot0.lp_fee,
            liquidity: state::liquidity_from_word(v[1]),
            tick_spacing: key.tick_spacing,
        },
        reads: TickReads::default(),
    };
    let here = tick_bitmap::word_for_step(slot0.tick, key.tick_spacing, true);
    let words: Vec<i16> = (-WORDS_AROUND..=WORDS_AROUND)
        .filter_map(|d| here.checked_add(d))
        .collect();
    read_words(rpc, pool_manager, &mut snap, &words).await?;
    Ok(snap)
}

/// The exact output of swapping `amount_in` (D7), reading more of the bitmap as the swap needs
/// it (kept in `snap` for the next quote).
///
/// # Errors
/// The pool's own refusals in words, or a failed read.
pub async fn quote_exact_in(
    rpc: &Rpc,
    pool_manager: Address,
    snap: &mut PoolSnapshot,
    zero_for_one: bool,
    amount_in: U256,
) -> Result<ExactInQuote, PoolError> {
    for _ in 0..MAX_EXTRA_READS {
        match swap::quote_exact_in(&snap.state, zero_for_one, amount_in, &snap.reads) {
            Err(SwapError::NeedWord(w)) => {
                let ahead: Vec<i16> = (0..WORDS_AHEAD)
                    .filter_map(|d| {
                        if zero_for_one {
                            w.checked_sub(d)
                        } else {
                            w.checked_add(d)
                        }
                    })
                    .collect();
                read_words(rpc, pool_manager, snap, &ahead).await?;
            }
            Err(SwapError::NeedTick(t)) => {
                // A word read without its ticks (never from `read_words`): read the one tick.
                let v = load(
                    rpc,
                    pool_manager,
                    vec![tick_bitmap::tick_info_slot(snap.key.id(), t)],
                )
                .await?;
                snap.reads
                    .nets
                    .insert(t, tick_bitmap::liquidity_net_from_word(v[0]));
            }
            other => return other.map_err(PoolError::from),
        }
    }
    Err(PoolError::TooFar)
}
