//! The chain layer: JSON-RPC ([`rpc`]), its one log reader ([`logs`], cached by [`log_cache`]) and
//! batched calls
//! ([`multicall`]), the contracts' ABIs
//! ([`abi`]), which deployment to use ([`network`]), the connected deployment and its publications
//! ([`world`]), and what is discovered from the chain: epochs ([`epochs`]), payout rounds
//! ([`payouts`]), duels ([`duels`]), the calls ledger ([`calls`]), the scorer registry
//! ([`scorer`]) with a scorer's positions ([`positions`]) and the grading records of its theses ([`grades`]), the launchpad ([`launchpad`]) and the fee lanes ([`fee_lanes`]). No Leptos: pages and the wallet read
//! the chain through here.

pub mod abi;
pub mod block_time;
pub mod calls;
pub mod coalesce;
pub mod duels;
pub mod epochs;
pub mod event_blocks;
pub mod fee_lanes;
pub mod governance;
pub mod grades;
pub mod launchpad;
pub mod log_cache;
pub mod logs;
pub mod multicall;
pub mod network;
pub mod page_early;
pub mod payouts;
pub mod pool;
pub mod positions;
pub mod provable;
pub mod root_buyback;
pub mod rpc;
pub mod scorer;
pub mod scores;
pub mod shared;
pub mod sources;
pub mod tokens;
pub mod transport;
pub mod usd;
pub mod world;
