//! The contracts' bindings, once for the app and the operator: alloy `sol!` over the committed ABIs in
//! `chain/abi/<Contract>.json`, which `scripts/gen-abi.mjs` writes from the forge artifacts and the test
//! command checks against them, so the bindings can never drift from the contracts.
//!
//! Each contract keeps its Solidity name (`Launchpad::buyCall`, `Launchpad::Launch`, …) and the
//! `I<Contract>` alias the app's code uses. With the `rpc` feature (the operator), each also gets alloy's
//! contract instance (`EpochRegistry::new(address, provider)`); without it (the browser) the same types are
//! plain encoders and decoders.
#![allow(missing_docs, unreachable_pub, clippy::too_many_arguments)]

/// One `sol!` per ABI file, with or without alloy's contract instances (`rpc`).
macro_rules! bindings {
    ($($name:ident => $file:tt),* $(,)?) => {$(
        #[cfg(feature = "rpc")]
        alloy_sol_types::sol!(#[sol(rpc)] #[derive(Debug)] $name, $file);
        #[cfg(not(feature = "rpc"))]
        alloy_sol_types::sol!(#[derive(Debug)] $name, $file);
    )*};
}

bindings! {
    Launchpad => "abi/Launchpad.json",
    LaunchToken => "abi/LaunchToken.json",
    LaunchLocker => "abi/LaunchLocker.json",
    EpochRegistry => "abi/EpochRegistry.json",
    HolderDistributor => "abi/HolderDistributor.json",
    FeeLanes => "abi/FeeLanes.json",
    DuelHook => "abi/DuelHook.json",
    CallLedger => "abi/CallLedger.json",
    RootPriceOracle => "abi/RootPriceOracle.json",
    RootBuyback => "abi/RootBuyback.json",
    ScorerRegistry => "abi/ScorerRegistry.json",
    SwapRouter => "abi/SwapRouter.json",
    SourceKeyRegistry => "abi/SourceKeyRegistry.json",
    // Every Eden contract's record of where its events are (D12), as one interface.
    EventBlocks => "abi/EventBlocks.json",
    // OpenZeppelin's TimelockController: the deployment's owner of the protocol contracts.
    TimelockController => "abi/TimelockController.json",
    // External interfaces: Chainlink's feed, Uniswap v4's `extsload` (the PoolManager's state reads) and
    // its events.
    AggregatorV3Interface => "abi/AggregatorV3Interface.json",
    IExtsload => "abi/IExtsload.json",
    IPoolManager => "abi/IPoolManager.json",
}

pub use AggregatorV3Interface as IAggregatorV3;
pub use CallLedger as ICallLedger;
pub use DuelHook as IDuelHook;
/// `DuelHook` events the duel page reads besides `RoundSettled` (`DuelCreated`).
pub use DuelHook as IDuelHookEvents;
pub use EpochRegistry as IEpochRegistry;
pub use EventBlocks as IEventBlocks;
pub use FeeLanes as IFeeLanes;
pub use HolderDistributor as IHolderDistributor;
pub use IExtsload as IPoolManagerState;
/// v4 `PoolManager` events whose ticks the duel page replays (B2): a pool's first price and every swap.
pub use IPoolManager as IPoolManagerEvents;
pub use LaunchToken as IERC20;
pub use Launchpad as ILaunchpad;
pub use RootBuyback as IRootBuyback;
pub use RootPriceOracle as IRootPriceOracle;
pub use ScorerRegistry as IScorerRegistry;
pub use SourceKeyRegistry as ISourceKeyRegistry;
pub use SwapRouter as ISwapRouter;
pub use TimelockController as ITimelock;

/// Deployless readers (D3): the artifact carries the creation code, run by `eth_call` with no `to`. In
/// their own module, as `sol!` declares the structs they share with the launchpad (`Launchpad.Launch`)
/// beside them.
pub mod lens {
    #![allow(missing_docs, unreachable_pub, clippy::too_many_arguments)]
    alloy_sol_types::sol!(
        #[derive(Debug)]
        LaunchLens,
        "abi/LaunchLens.json"
    );
}
pub use lens::LaunchLens;

alloy_sol_types::sol! {
    /// Multicall3 (mds1/multicall; at the same address on most chains): the functions the readers use,
    /// as forge-std's `IMulticall3` declares them.
    #[derive(Debug)]
    interface IMulticall3 {
        struct Call3 {
            address target;
            bool allowFailure;
            bytes callData;
        }
        struct Result {
            bool success;
            bytes returnData;
        }
        function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory returnData);
        function getBlockNumber() external view returns (uint256 blockNumber);
        function getCurrentBlockTimestamp() external view returns (uint256 timestamp);
    }
}
