// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IUnlockCallback} from "@uniswap/v4-core/src/interfaces/callback/IUnlockCallback.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {SwapParams, ModifyLiquidityParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {StateLibrary} from "@uniswap/v4-core/src/libraries/StateLibrary.sol";
import {PoolIdLibrary} from "@uniswap/v4-core/src/types/PoolId.sol";

/// @notice Adds liquidity to and swaps against v4 pools through the real PoolManager, paying from its own balances
/// (ETH and ERC-20s held by this contract). Tests only.
contract V4PoolDriver is IUnlockCallback {
    using PoolIdLibrary for PoolKey;
    IPoolManager public immutable pm;

    constructor(IPoolManager pm_) {
        pm = pm_;
    }

    receive() external payable {}

    function addLiquidity(PoolKey memory key, int24 lower, int24 upper, uint128 liquidity) external {
        pm.unlock(abi.encode(uint8(0), abi.encode(key, lower, upper, liquidity)));
    }

    function addFullRange(PoolKey memory key, uint128 liquidity) external {
        pm.unlock(
            abi.encode(
                uint8(0),
                abi.encode(key, TickMath.minUsableTick(key.tickSpacing), TickMath.maxUsableTick(key.tickSpacing), liquidity)
            )
        );
    }

    /// Exact-input swap of `amountIn` with no price limit.
    function swapExactIn(PoolKey memory key, bool zeroForOne, uint256 amountIn) external returns (BalanceDelta d) {
        d = abi.decode(pm.unlock(abi.encode(uint8(1), abi.encode(key, zeroForOne, amountIn))), (BalanceDelta));
    }

    /// Swaps until the pool's price is exactly `getSqrtPriceAtTick(tick)` (so its tick is `tick`); needs enough liquidity.
    function swapToTick(PoolKey memory key, int24 tick) external returns (BalanceDelta d) {
        d = abi.decode(pm.unlock(abi.encode(uint8(2), abi.encode(key, tick))), (BalanceDelta));
    }

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        require(msg.sender == address(pm), "driver: not pm");
        (uint8 action, bytes memory args) = abi.decode(data, (uint8, bytes));
        BalanceDelta d;
        PoolKey memory key;
        if (action == 0) {
            int24 lower;
            int24 upper;
            uint128 liquidity;
            (key, lower, upper, liquidity) = abi.decode(args, (PoolKey, int24, int24, uint128));
            (d,) = pm.modifyLiquidity(
                key,
                ModifyLiquidityParams({
                    tickLower: lower,
                    tickUpper: upper,
                    liquidityDelta: int256(uint256(liquidity)),
                    salt: bytes32(0)
                }),
                ""
            );
        } else if (action == 2) {
            int24 tick;
            (key, tick) = abi.decode(args, (PoolKey, int24));
            uint160 limit = TickMath.getSqrtPriceAtTick(tick);
            (uint160 current,,,) = StateLibrary.getSlot0(pm, key.toId());
            d = pm.swap(
                key,
                SwapParams({zeroForOne: limit < current, amountSpecified: -int256(1e30), sqrtPriceLimitX96: limit}),
                ""
            );
        } else {
            bool zeroForOne;
            uint256 amountIn;
            (key, zeroForOne, amountIn) = abi.decode(args, (PoolKey, bool, uint256));
            d = pm.swap(
                key,
                SwapParams({
                    zeroForOne: zeroForOne,
                    amountSpecified: -int256(amountIn),
                    sqrtPriceLimitX96: zeroForOne ? TickMath.MIN_SQRT_PRICE + 1 : TickMath.MAX_SQRT_PRICE - 1
                }),
                ""
            );
        }
        _move(key.currency0, d.amount0());
        _move(key.currency1, d.amount1());
        return abi.encode(d);
    }

    function _move(Currency c, int128 amount) private {
        if (amount < 0) {
            uint256 owed = uint256(uint128(-amount));
            if (c.isAddressZero()) {
                pm.settle{value: owed}();
            } else {
                pm.sync(c);
                IERC20(Currency.unwrap(c)).transfer(address(pm), owed);
                pm.settle();
            }
        } else if (amount > 0) {
            pm.take(c, address(this), uint256(uint128(amount)));
        }
    }
}
