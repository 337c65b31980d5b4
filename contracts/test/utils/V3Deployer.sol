// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Vm} from "forge-std/Vm.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";

/// @notice ABI of the parts of Uniswap v3 (solc 0.7.6, deployed from npm bytecode) the tests drive.
interface IV3Factory {
    function createPool(address tokenA, address tokenB, uint24 fee) external returns (address pool);
    function getPool(address tokenA, address tokenB, uint24 fee) external view returns (address);
}

interface IV3Pool {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function initialize(uint160 sqrtPriceX96) external;
    function increaseObservationCardinalityNext(uint16 observationCardinalityNext) external;
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
    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data)
        external
        returns (uint256 amount0, uint256 amount1);
    function swap(
        address recipient,
        bool zeroForOne,
        int256 amountSpecified,
        uint160 sqrtPriceLimitX96,
        bytes calldata data
    ) external returns (int256 amount0, int256 amount1);
    function observe(uint32[] calldata secondsAgos)
        external
        view
        returns (int56[] memory tickCumulatives, uint160[] memory secondsPerLiquidityCumulativeX128s);
}

/// @notice Deploys the real UniswapV3Factory from the hardhat artifact `@uniswap/v3-core` publishes on npm
/// (the factory carries the pool's creation code, so pools are the audited bytecode too).
library V3Deployer {
    Vm private constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));
    string internal constant FACTORY_ARTIFACT =
        "../node_modules/@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json";

    function deployFactory() internal returns (IV3Factory factory) {
        bytes memory code = vm.getCode(FACTORY_ARTIFACT);
        address a;
        assembly ("memory-safe") {
            a := create(0, add(code, 0x20), mload(code))
        }
        require(a != address(0) && a.code.length > 0, "V3Deployer: factory deploy failed");
        factory = IV3Factory(a);
    }
}

/// @notice Mints liquidity into and swaps against a v3 pool, paying from its own token balances (tests only).
contract V3PoolDriver {
    function mint(IV3Pool pool, int24 tickLower, int24 tickUpper, uint128 liquidity) external {
        pool.mint(address(this), tickLower, tickUpper, liquidity, abi.encode(pool));
    }

    /// Exact-input swap of `amountIn`, no price limit.
    function swapExactIn(IV3Pool pool, bool zeroForOne, uint256 amountIn) public returns (int256 a0, int256 a1) {
        (a0, a1) = pool.swap(
            address(this),
            zeroForOne,
            int256(amountIn),
            zeroForOne ? TickMath.MIN_SQRT_PRICE + 1 : TickMath.MAX_SQRT_PRICE - 1,
            abi.encode(pool)
        );
    }

    /// Swaps toward `sqrtPriceLimitX96` with a large exact input (moves the price to the limit if liquidity allows).
    function swapToPrice(IV3Pool pool, uint160 sqrtPriceLimitX96) external {
        (uint160 current,,,,,,) = pool.slot0();
        if (current == sqrtPriceLimitX96) return;
        bool zeroForOne = sqrtPriceLimitX96 < current;
        pool.swap(address(this), zeroForOne, type(int128).max, sqrtPriceLimitX96, abi.encode(pool));
    }

    function uniswapV3MintCallback(uint256 owed0, uint256 owed1, bytes calldata data) external {
        IV3Pool pool = abi.decode(data, (IV3Pool));
        require(msg.sender == address(pool), "driver: not pool");
        if (owed0 > 0) IERC20(pool.token0()).transfer(msg.sender, owed0);
        if (owed1 > 0) IERC20(pool.token1()).transfer(msg.sender, owed1);
    }

    function uniswapV3SwapCallback(int256 d0, int256 d1, bytes calldata data) external {
        IV3Pool pool = abi.decode(data, (IV3Pool));
        require(msg.sender == address(pool), "driver: not pool");
        if (d0 > 0) IERC20(pool.token0()).transfer(msg.sender, uint256(d0));
        if (d1 > 0) IERC20(pool.token1()).transfer(msg.sender, uint256(d1));
    }
}
