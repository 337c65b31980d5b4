// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/// @notice The tick accumulator of ROOT's own pool, as recorded by the pool's hook (C16).
/// `observe` has Uniswap's semantics: tick cumulatives `secondsAgos[i]` seconds before now, reverting when the
/// recorded history does not reach that far back.
interface IRootTickOracle {
    /// @notice When the pool was initialised (its first observation).
    function initializedAt() external view returns (uint32);
    /// @notice Whether ROOT is the pool's token0 (false in a v4 ROOT/ETH pool: native ETH is currency0).
    function rootIsToken0() external view returns (bool);
    function observe(uint32[] calldata secondsAgos) external view returns (int56[] memory tickCumulatives);
}
