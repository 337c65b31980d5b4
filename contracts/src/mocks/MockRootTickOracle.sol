// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {IRootTickOracle} from "../interfaces/IRootTickOracle.sol";
import {TickAccumulator} from "../libraries/TickAccumulator.sol";

/// @notice Stand-in for ROOT's pool hook (tests and the local chain): the same truncated `TickAccumulator` the hook
/// keeps, driven by `swapTo(tick)` instead of real swaps. Anyone may drive it. Not for production.
contract MockRootTickOracle is IRootTickOracle {
    using TickAccumulator for TickAccumulator.State;

    TickAccumulator.State private _acc;
    bool public immutable rootIsToken0;
    int24 public poolTick;

    constructor(bool rootIsToken0_) {
        rootIsToken0 = rootIsToken0_;
    }

    /// @notice Pool initialisation at `tick`, now.
    function initialize(int24 tick) external {
        _acc.initialize(uint32(block.timestamp), tick);
        poolTick = tick;
    }

    /// @notice A swap now that leaves the pool at `tick` (the accumulator first records the tick held until now).
    function swapTo(int24 tick) external {
        _acc.update(uint32(block.timestamp), poolTick);
        poolTick = tick;
    }

    function initializedAt() external view returns (uint32) {
        return _acc.initializedAt();
    }

    function observe(uint32[] calldata secondsAgos) external view returns (int56[] memory) {
        return _acc.observe(uint32(block.timestamp), poolTick, secondsAgos);
    }

    function observationCount() external view returns (uint256) {
        return _acc.length();
    }
}
