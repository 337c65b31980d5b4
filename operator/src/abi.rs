//! Contract bindings: `sol!` over the committed ABIs in `app/abi` (generated from the forge artifacts by
//! `scripts/gen-abi.mjs`, checked in CI), the same ones the app uses.
#![allow(missing_docs, clippy::too_many_arguments)]

alloy::sol!(
    #[sol(rpc)]
    #[derive(Debug)]
    EpochRegistry,
    "../app/abi/EpochRegistry.json"
);

alloy::sol!(
    #[sol(rpc)]
    #[derive(Debug)]
    SourceKeyRegistry,
    "../app/abi/SourceKeyRegistry.json"
);

alloy::sol!(
    #[sol(rpc)]
    #[derive(Debug)]
    HolderDistributor,
    "../app/abi/HolderDistributor.json"
);

alloy::sol!(
    #[sol(rpc)]
    #[derive(Debug)]
    Launchpad,
    "../app/abi/Launchpad.json"
);

alloy::sol!(
    #[sol(rpc)]
    #[derive(Debug)]
    FeeLanes,
    "../app/abi/FeeLanes.json"
);

alloy::sol!(
    #[sol(rpc)]
    #[derive(Debug)]
    ScorerRegistry,
    "../app/abi/ScorerRegistry.json"
);

alloy::sol!(
    #[sol(rpc)]
    #[derive(Debug)]
    DuelHook,
    "../app/abi/DuelHook.json"
);

alloy::sol!(
    #[sol(rpc)]
    #[derive(Debug)]
    CallLedger,
    "../app/abi/CallLedger.json"
);

alloy::sol!(
    #[sol(rpc)]
    #[derive(Debug)]
    RootBuyback,
    "../app/abi/RootBuyback.json"
);
