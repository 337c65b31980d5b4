//! `eden`, the operator's tool (C21, C5–C7): verified inputs, epochs built, signed, proposed, published and
//! finalized, on any deployment named by its network description (`eden-network-v1`).
//!
//! Layers, one way: [`abi`] (contract bindings) and [`config`] (files in) → [`chain`] (provider, signer,
//! reads) → [`refetch`] (independent sources) → [`epoch`] and [`attest`] (the commands' work) → `main.rs`
//! (arguments and output). Every rule is `eden-core`'s; this crate only gathers inputs and sends
//! transactions.

pub mod abi;
pub mod attest;
pub mod chain;
pub mod config;
pub mod epoch;
pub mod error;
pub mod output;
pub mod refetch;

pub use error::OpError;
