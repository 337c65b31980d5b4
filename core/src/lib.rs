//! # eden-core
//!
//! Exact integer math of the Eden protocol, shared by the browser app (wasm32) and native tools.
//! Every rule cites its label in `docs/protocol.md` (A1…A5, B1…B7, C1…C27; D1…D10 for the clients).
//!
//! Amounts are integers (`U256`, WAD = 10^18). Rounding direction is part of each function's
//! name or doc and always favours the protocol where money moves. Bad input is an error, never
//! a panic.

pub mod math;
pub(crate) mod par;
pub(crate) mod serde_dec;

pub mod attest;
pub mod committee;
pub mod ecrecover;
pub mod eip712;
pub mod leaves;
pub mod merkle;
pub mod uniswap;

pub mod burns;
pub mod creator;
pub mod holders;
pub mod human;
pub mod rewards;
pub mod scoring;

pub mod check;
pub mod compact;
pub mod decode;
pub mod network;
pub mod registry;

pub mod calls;
pub mod curve;
pub mod duel;

#[cfg(feature = "js")]
pub mod js;

#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures;
