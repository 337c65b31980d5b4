// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {FullMath} from "@uniswap/v4-core/src/libraries/FullMath.sol";

/// @title OracleMath: Uniswap `OracleLibrary` prices in solc 0.8 (A5, C16), bit for bit with eden-core
/// `uniswap::oracle`.
/// @notice
/// - `getQuoteAtTick` is v3-periphery `OracleLibrary.getQuoteAtTick` exactly: `sqrtRatioX96` from TickMath
///   (v4 `getSqrtPriceAtTick` has v3's constants and rounding); `ratioX192 = sqrt²` while
///   `sqrt <= type(uint128).max`, else `ratioX128 = mulDiv(sqrt, sqrt, 2^64)`; full-precision `mulDiv`,
///   rounded down. `baseIsToken0` is `baseToken < quoteToken`.
/// - `meanTickFloor` is `OracleLibrary.consult`'s mean: `(cumEnd - cumStart) / seconds` rounded toward -inf (A5).
///   `meanTickCeil` rounds toward +inf; `meanTickTowardLowerPrice` picks the direction that lowers the base
///   token's price (C16: floor when the base is token0, ceiling when it is token1).
/// - `stockPriceWad` (A5, decided): `getQuoteAtTick(avgTick, 1e18, stock, USDG) * 1e12`, the USDG (6 decimals)
///   value of one whole stock token (18 decimals) as a WAD.
library OracleMath {
    /// @notice A5 TWAP window: 300 s.
    uint32 internal constant TWAP_WINDOW_SECONDS = 300;
    /// @notice One whole stock token (18 decimals): the base amount of a call price.
    uint128 internal constant ONE_STOCK_TOKEN = 1e18;
    /// @notice Scales a USDG amount (6 decimals) to a WAD.
    uint256 internal constant USDG_TO_WAD = 1e12;

    error ZeroWindow();
    error MeanTickOutOfRange(int256 meanTick);

    /// @notice `OracleLibrary.getQuoteAtTick(tick, baseAmount, base, quote)` with the order given directly.
    function getQuoteAtTick(int24 tick, uint128 baseAmount, bool baseIsToken0) internal pure returns (uint256 quoteAmount) {
        uint160 sqrtRatioX96 = TickMath.getSqrtPriceAtTick(tick);
        if (sqrtRatioX96 <= type(uint128).max) {
            uint256 ratioX192 = uint256(sqrtRatioX96) * sqrtRatioX96;
            quoteAmount = baseIsToken0
                ? FullMath.mulDiv(ratioX192, baseAmount, 1 << 192)
                : FullMath.mulDiv(1 << 192, baseAmount, ratioX192);
        } else {
            uint256 ratioX128 = FullMath.mulDiv(sqrtRatioX96, sqrtRatioX96, 1 << 64);
            quoteAmount = baseIsToken0
                ? FullMath.mulDiv(ratioX128, baseAmount, 1 << 128)
                : FullMath.mulDiv(1 << 128, baseAmount, ratioX128);
        }
    }

    /// @notice Mean tick between two cumulatives `seconds_` apart, rounded toward negative infinity.
    function meanTickFloor(int56 cumStart, int56 cumEnd, uint32 seconds_) internal pure returns (int24) {
        return _meanTick(cumStart, cumEnd, seconds_, false);
    }

    /// @notice Mean tick rounded toward positive infinity.
    function meanTickCeil(int56 cumStart, int56 cumEnd, uint32 seconds_) internal pure returns (int24) {
        return _meanTick(cumStart, cumEnd, seconds_, true);
    }

    /// @notice C16: the mean tick rounded toward the lower price of the base token.
    function meanTickTowardLowerPrice(int56 cumStart, int56 cumEnd, uint32 seconds_, bool baseIsToken0)
        internal
        pure
        returns (int24)
    {
        return _meanTick(cumStart, cumEnd, seconds_, !baseIsToken0);
    }

    /// @notice A5: USDG per whole stock token as a WAD at `avgTick`.
    function stockPriceWad(int24 avgTick, bool stockIsToken0) internal pure returns (uint256) {
        return getQuoteAtTick(avgTick, ONE_STOCK_TOKEN, stockIsToken0) * USDG_TO_WAD;
    }

    /// @notice A5: the TWAP price (WAD USDG per stock token) from two cumulatives `seconds_` apart.
    function twapPriceWad(int56 cumStart, int56 cumEnd, uint32 seconds_, bool stockIsToken0)
        internal
        pure
        returns (uint256)
    {
        return stockPriceWad(meanTickFloor(cumStart, cumEnd, seconds_), stockIsToken0);
    }

    function _meanTick(int56 cumStart, int56 cumEnd, uint32 seconds_, bool ceil) private pure returns (int24) {
        if (seconds_ == 0) revert ZeroWindow();
        int256 delta = int256(cumEnd) - int256(cumStart);
        int256 secs = int256(uint256(seconds_));
        int256 mean = delta / secs; // truncates toward zero
        int256 rem = delta % secs;
        if (!ceil && rem < 0) mean -= 1;
        if (ceil && rem > 0) mean += 1;
        if (mean < TickMath.MIN_TICK || mean > TickMath.MAX_TICK) revert MeanTickOutOfRange(mean);
        return int24(mean);
    }
}
