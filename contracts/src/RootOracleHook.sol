// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {Hooks} from "@uniswap/v4-core/src/libraries/Hooks.sol";
import {StateLibrary} from "@uniswap/v4-core/src/libraries/StateLibrary.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId, PoolIdLibrary} from "@uniswap/v4-core/src/types/PoolId.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {BeforeSwapDelta, BeforeSwapDeltaLibrary} from "@uniswap/v4-core/src/types/BeforeSwapDelta.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {IRootTickOracle} from "./interfaces/IRootTickOracle.sol";
import {TickAccumulator} from "./libraries/TickAccumulator.sol";

/// @title RootOracleHook: the hook of ROOT's own ETH pool, recording its tick accumulator (C16, seed §6.2).
/// @notice Hook of exactly one v4 pool, fixed at deployment: native ETH (currency0) against ROOT (currency1), with the
/// given fee and tick spacing, and this hook. Address permission bits: exactly afterInitialize and beforeSwap (mined
/// with CREATE2). `afterInitialize` starts the accumulator at the pool's tick; every swap first accumulates the tick
/// held since the last one (`TickAccumulator`: the recorded tick moves at most 9,116 ticks per elapsed second), so
/// a swap can never move a TWAP that ends at its own block. `observe` serves `RootPriceOracle` (IRootTickOracle).
/// ROOT is token1, so `rootIsToken0()` is false: the pool tick prices ETH in ROOT.
/// Decided after the second review: only `initializer`, fixed at deployment, may initialize the pool. The deploy
/// initializes it in a later transaction than the hook's deployment; before, whoever initialized first chose ROOT's
/// starting price (the genesis liquidity would then be added at it) and the oracle's starting tick.
contract RootOracleHook is IRootTickOracle {
    using TickAccumulator for TickAccumulator.State;
    using StateLibrary for IPoolManager;
    using PoolIdLibrary for PoolKey;

    uint160 public constant HOOK_FLAGS = Hooks.AFTER_INITIALIZE_FLAG | Hooks.BEFORE_SWAP_FLAG;

    IPoolManager public immutable poolManager;
    address public immutable root;
    PoolId public immutable poolId;
    /// @notice The one account whose `PoolManager.initialize` of the ROOT pool is accepted.
    address public immutable initializer;
    uint24 public immutable fee;
    int24 public immutable tickSpacing;

    TickAccumulator.State private _acc;

    error BadHookAddress(address hook);
    error OnlyPoolManager(address caller);
    error NotRootPool();
    error NotInitializer(address sender);

    constructor(IPoolManager poolManager_, address root_, uint24 fee_, int24 tickSpacing_, address initializer_) {
        if (uint160(address(this)) & Hooks.ALL_HOOK_MASK != HOOK_FLAGS) revert BadHookAddress(address(this));
        poolManager = poolManager_;
        root = root_;
        fee = fee_;
        tickSpacing = tickSpacing_;
        initializer = initializer_;
        poolId = poolKey().toId();
    }

    /// @notice The ROOT/ETH pool this hook records.
    function poolKey() public view returns (PoolKey memory) {
        return PoolKey({
            currency0: Currency.wrap(address(0)),
            currency1: Currency.wrap(root),
            fee: fee,
            tickSpacing: tickSpacing,
            hooks: IHooks(address(this))
        });
    }

    modifier onlyRootPool(PoolKey calldata key) {
        if (msg.sender != address(poolManager)) revert OnlyPoolManager(msg.sender);
        if (PoolId.unwrap(key.toId()) != PoolId.unwrap(poolId)) revert NotRootPool();
        _;
    }

    function afterInitialize(address sender, PoolKey calldata key, uint160, int24 tick)
        external
        onlyRootPool(key)
        returns (bytes4)
    {
        if (sender != initializer) revert NotInitializer(sender);
        _acc.initialize(uint32(block.timestamp), tick);
        return IHooks.afterInitialize.selector;
    }

    function beforeSwap(address, PoolKey calldata key, SwapParams calldata, bytes calldata)
        external
        onlyRootPool(key)
        returns (bytes4, BeforeSwapDelta, uint24)
    {
        _acc.update(uint32(block.timestamp), _poolTick());
        return (IHooks.beforeSwap.selector, BeforeSwapDeltaLibrary.ZERO_DELTA, 0);
    }

    // ------------------------------------------------------------------ IRootTickOracle

    function initializedAt() external view returns (uint32) {
        return _acc.initializedAt();
    }

    function rootIsToken0() external pure returns (bool) {
        return false;
    }

    function observe(uint32[] calldata secondsAgos) external view returns (int56[] memory) {
        return _acc.observe(uint32(block.timestamp), _poolTick(), secondsAgos);
    }

    /// @notice Number of stored observations.
    function observationCount() external view returns (uint256) {
        return _acc.length();
    }

    /// @notice The recorded (truncated) tick now.
    function recordedTick() external view returns (int24) {
        return _acc.recordedTickNow(uint32(block.timestamp), _poolTick());
    }

    function _poolTick() private view returns (int24 tick) {
        (, tick,,) = poolManager.getSlot0(poolId);
    }
}
