// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title BuybackMath: the arithmetic of one ROOT buyback run (C26), bit for bit with eden-core `burns::buyback`.
/// @notice Of the ETH `E` a run spends, `keep = floor(E/4)` is the liquidity's ETH leg and `buy = E - keep` buys
/// ROOT; of the ROOT `R` bought, `floor(2R/3)` is burned and the rest is the liquidity's ROOT leg (half burned and a
/// quarter each leg, in value). The minimum out is `ceil(value * (BPS - slippageBps) * 1e14 / price)`. A pair asset
/// other than ETH is valued with its own USD feed (`assetUsdWadUp`, decided after the second review), and its hop to
/// ETH must return at least that value at ETH/USD less the slippage (`minRootOutUp` with ETH/USD as the price).
library BuybackMath {
    uint256 internal constant BPS = 10_000;
    uint8 internal constant MAX_ASSET_DECIMALS = 18;

    error SlippageAboveOne(uint256 slippageBps);
    error AssetDecimals(uint8 decimals);
    error ZeroPrice();

    /// @notice `keep = floor(E/4)`, `buy = E - keep`.
    function splitEth(uint256 eth) internal pure returns (uint256 buy, uint256 keep) {
        keep = eth >> 2;
        buy = eth - keep;
    }

    /// @notice The ROOT burned of `rootBought`: `floor(2R/3)` (= R - ceil(R/3), no overflow).
    function burnShare(uint256 rootBought) internal pure returns (uint256) {
        return rootBought - Math.ceilDiv(rootBought, 3);
    }

    /// @notice An asset amount in USD WAD at `priceWad` USD per whole unit: `ceil(amount * priceWad / 10^decimals)`
    /// (rounded up: the minimums derived from it are then never below the asset's value).
    function assetUsdWadUp(uint256 amount, uint8 decimals, uint256 priceWad) internal pure returns (uint256) {
        if (decimals > MAX_ASSET_DECIMALS) revert AssetDecimals(decimals);
        return Math.mulDiv(amount, priceWad, 10 ** decimals, Math.Rounding.Ceil);
    }

    /// @notice The value of a run's bought part: `v - floor(v/4)`.
    function buyValue(uint256 value) internal pure returns (uint256 buy) {
        (buy,) = splitEth(value);
    }

    /// @notice The least ROOT (wei) a buy worth `value` may return at `price` (same unit per whole ROOT), rounded up.
    /// With ETH/USD as `price` and a USD value, the least ETH (wei) a stablecoin hop may return.
    function minRootOutUp(uint256 value, uint256 price, uint256 slippageBps) internal pure returns (uint256) {
        if (slippageBps > BPS) revert SlippageAboveOne(slippageBps);
        if (price == 0) revert ZeroPrice();
        return Math.mulDiv(value, (BPS - slippageBps) * 1e14, price, Math.Rounding.Ceil);
    }
}
