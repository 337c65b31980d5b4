// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {FullMath} from "@uniswap/v4-core/src/libraries/FullMath.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {LiquidityAmounts} from "@uniswap/v4-core/test/utils/LiquidityAmounts.sol";

/// @title GraduationMath: the Uniswap v4 pool a curve graduates into (C20), bit for bit with eden-core `curve::graduation`.
/// @notice At `Q = G` the curve holds `Y = S/5`. The pool is seeded with `G` quote and `0.16·S` tokens
/// (`4 × S/25`); `0.04·S` (`S/25`) is locked. `currency0 < currency1` by address (native ETH = address 0
/// is always currency0). `sqrtPriceX96 = isqrt(floor(amount1 × 2^192 / amount0))`, inside
/// `[MIN_SQRT_PRICE, MAX_SQRT_PRICE)`. The position is full range for the tick spacing
/// (`minUsableTick`, `maxUsableTick`) with `LiquidityAmounts.getLiquidityForAmounts` (rounded down).
library GraduationMath {
    uint256 internal constant POOL_SUPPLY_UNITS = 4; // 0.16·S = 4 × S/25
    uint256 internal constant SUPPLY_UNITS = 25;

    error SupplyNotMultipleOf25(uint256 supply);
    error SqrtPriceOutOfRange(uint256 sqrtPriceX96);

    struct Pool {
        address currency0;
        address currency1;
        bool quoteIsCurrency0;
        uint256 amount0;
        uint256 amount1;
        uint160 sqrtPriceX96;
        int24 tickLower;
        int24 tickUpper;
        uint128 liquidity;
        uint256 tokensLocked;
    }

    /// @notice (tokens to the pool, tokens locked) = (0.16·S, 0.04·S).
    function tokenSplit(uint256 supply) internal pure returns (uint256 toPool, uint256 locked) {
        if (supply % SUPPLY_UNITS != 0) revert SupplyNotMultipleOf25(supply);
        locked = supply / SUPPLY_UNITS;
        toPool = locked * POOL_SUPPLY_UNITS;
    }

    /// @notice isqrt(floor(amount1 × 2^192 / amount0)), exact (512-bit product, floor division, floor root).
    function sqrtPriceX96(uint256 amount0, uint256 amount1) internal pure returns (uint160) {
        uint256 root = Math.sqrt(FullMath.mulDiv(amount1, 1 << 192, amount0));
        if (root < TickMath.MIN_SQRT_PRICE || root >= TickMath.MAX_SQRT_PRICE) revert SqrtPriceOutOfRange(root);
        return uint160(root);
    }

    /// @notice The graduation pool of a curve that raised `graduationQuote` (= G) with supply `supply`.
    function pool(address quote, address token, uint256 graduationQuote, uint256 supply, int24 tickSpacing)
        internal
        pure
        returns (Pool memory p)
    {
        (uint256 toPool, uint256 locked) = tokenSplit(supply);
        p.tokensLocked = locked;
        p.quoteIsCurrency0 = quote < token;
        (p.currency0, p.currency1, p.amount0, p.amount1) =
            p.quoteIsCurrency0 ? (quote, token, graduationQuote, toPool) : (token, quote, toPool, graduationQuote);
        p.sqrtPriceX96 = sqrtPriceX96(p.amount0, p.amount1);
        p.tickLower = TickMath.minUsableTick(tickSpacing);
        p.tickUpper = TickMath.maxUsableTick(tickSpacing);
        p.liquidity = LiquidityAmounts.getLiquidityForAmounts(
            p.sqrtPriceX96,
            TickMath.getSqrtPriceAtTick(p.tickLower),
            TickMath.getSqrtPriceAtTick(p.tickUpper),
            p.amount0,
            p.amount1
        );
    }
}
