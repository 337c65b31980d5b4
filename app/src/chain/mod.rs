//! The chain layer: JSON-RPC ([`rpc`]), the contracts' ABIs ([`abi`]), the network and its
//! publications ([`world`]), and the registry's epoch status ([`epochs`]). No Leptos: pages and the
//! wallet read the chain through here.

pub mod abi;
pub mod epochs;
pub mod rpc;
pub mod world;
