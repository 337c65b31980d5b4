//! The chain layer: JSON-RPC ([`rpc`]), its one log reader ([`logs`]) and batched calls
//! ([`multicall`]), the contracts' ABIs
//! ([`abi`]), which deployment to use ([`network`]), the connected deployment and its publications
//! ([`world`]), and the registry's epoch status ([`epochs`]). No Leptos: pages and the wallet read
//! the chain through here.

pub mod abi;
pub mod epochs;
pub mod logs;
pub mod multicall;
pub mod network;
pub mod rpc;
pub mod world;
