//! The contracts' ABI as the app uses it: the bindings and the revert words are `eden_chain`'s, shared with
//! the operator (one `sol!` per contract over `chain/abi`, one table of reverts in words).

pub use eden_chain::abi::*;
pub use eden_chain::revert::revert_reason;
