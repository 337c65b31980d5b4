//! Contract bindings: `eden_chain`'s, the same the app uses, with alloy's contract instances (the `rpc`
//! feature): `EpochRegistry::new(address, provider)`.

pub use eden_chain::abi::{
    CallLedger, DuelHook, EpochRegistry, FeeLanes, HolderDistributor, LaunchLocker, Launchpad,
    RootBuyback, ScorerRegistry, SourceKeyRegistry,
};
