// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/// @notice The read-only part of a Uniswap v3 pool the call ledger needs (the v3 sources are solc 0.7.6
/// and cannot be imported from 0.8; these signatures are ABI-identical to `IUniswapV3PoolImmutables`
/// and `IUniswapV3PoolDerivedState`).
interface IUniswapV3PoolOracle {
    function token0() external view returns (address);
    function token1() external view returns (address);
    /// @notice The pool's swap fee in hundredths of a bip (`IUniswapV3PoolImmutables.fee`: 3000 = 0.3 %).
    function fee() external view returns (uint24);

    /// @notice The pool's slot0 (`IUniswapV3PoolState.slot0`); the ledger reads `observationCardinalityNext`.
    function slot0()
        external
        view
        returns (
            uint160 sqrtPriceX96,
            int24 tick,
            uint16 observationIndex,
            uint16 observationCardinality,
            uint16 observationCardinalityNext,
            uint8 feeProtocol,
            bool unlocked
        );

    /// @notice Tick cumulatives (and seconds-per-liquidity cumulatives) `secondsAgos[i]` seconds ago.
    /// Reverts ("OLD") when the observation buffer does not reach that far back.
    function observe(uint32[] calldata secondsAgos)
        external
        view
        returns (int56[] memory tickCumulatives, uint160[] memory secondsPerLiquidityCumulativeX128s);
}
