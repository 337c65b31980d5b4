//! `eden`, the operator's tool (C21, C5–C7, C24): verified inputs, epochs built, signed, proposed, published
//! and finalized, the watchtower that checks and challenges anyone's proposed roots, and the keepers, on any deployment
//! named by its network description (`eden-network-v1`).
//!
//! Layers, one way: [`abi`] (contract bindings) and [`config`] (files in) → [`chain`] (provider, signer,
//! reads) and [`publication`] (publications read from the bases) → [`refetch`] (independent sources) →
//! [`epoch`], [`attest`], [`watch`], [`keep`] and [`payouts`] (the commands' work) → `main.rs`
//! (arguments and output). Every rule is `eden-core`'s; this crate only gathers inputs and sends
//! transactions.

pub mod abi;
pub mod attest;
pub mod chain;
pub mod config;
pub mod epoch;
pub mod error;
pub mod grade;
pub mod human;
pub mod keep;
pub mod output;
pub mod payout_audit;
pub mod payouts;
pub mod pinned;
pub mod publication;
pub mod refetch;
pub mod watch;

pub use error::OpError;
