//! `eden-chain`: what the app (in the browser) and the operator (`eden`, native) share about the chain,
//! written once. It does no I/O of its own: each side brings its transport through the traits in
//! [`read`] (the app's browser JSON-RPC client, the operator's alloy provider), the way
//! `uniswap-v3-sdk` keeps pure code apart from its chain extensions.
//!
//! | module | what |
//! |---|---|
//! | [`abi`] | the contracts' bindings (`sol!` over `chain/abi`, generated from the forge artifacts) |
//! | [`batch`] | typed view calls sent together, each answer decoded as its call's return |
//! | [`buyback`] | the ROOT buyback's routed pair assets (C26) |
//! | [`revert`] | a revert in words: the protocol's custom errors, `Error(string)`, or the raw data |
//! | [`log`] | a log and a log filter, as `eth_getLogs` takes and returns them |
//! | [`logs`] | log paging: ranges a node refuses are halved, rate limits waited out |
//! | [`payouts`] | holder payout rounds (C18): every posted round and its state; where its tree and snapshot are |
//! | [`publication`] | publications from the deployment's bases, with one meaning of "not published" |
//! | [`read`] | the trait a chain transport implements: view calls in a batch, logs over a range, block times |
//! | [`duels`] | the duel hook's count and every duel's record (B5–B7) |
//! | [`epochs`] | the epoch registry (C7): each epoch's current proposal and slot, the registry's terms |
//! | [`lanes`] | every launch across launchpad, fee lanes and scorer pools in one batch; Verified flags at a block |
//! | [`launchpad`] | the launchpad's parameters and its tokens in launch order (B1) |
//! | [`human`] | the human layer's reads (C9a, C9b, C10a): every score and every grade override |
//! | [`sources`] | the source-key registry's book (C21): each key's record and each project's age anchor |

pub mod abi;
pub mod batch;
pub mod buyback;
pub mod duels;
pub mod epochs;
pub mod human;
pub mod lanes;
pub mod launchpad;
pub mod log;
pub mod logs;
pub mod payouts;
pub mod publication;
pub mod read;
pub mod revert;
pub mod sources;

// The rules over what is read (an epoch is finalizable, which theses count, …) are the protocol's and live
// in `eden_core` (`registry`, `scoring::counting`); the readers here only gather what they need.
