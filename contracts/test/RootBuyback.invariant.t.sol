// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test} from "forge-std/Test.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {RootBuyback} from "../src/RootBuyback.sol";
import {RootPriceOracle} from "../src/RootPriceOracle.sol";
import {BuybackMath} from "../src/libraries/BuybackMath.sol";
import {MockRoot} from "../src/mocks/MockRoot.sol";
import {MockAggregatorV3} from "../src/mocks/MockAggregatorV3.sol";
import {V4PoolDriver} from "./utils/V4PoolDriver.sol";
import {RootBuybackBase, MockBuybackLane} from "./RootBuyback.t.sol";

/// Random fee arrivals, trades in ROOT's pool, time and runs against the real buyback.
contract RootBuybackHandler is Test {
    RootBuyback immutable rb;
    MockBuybackLane immutable lanes;
    RootPriceOracle immutable oracle;
    V4PoolDriver immutable driver;
    MockRoot immutable root;
    PoolKey key;

    uint256 public ethIn;
    uint256 public ethBought; // the ETH of every run that bought ROOT (E - floor(E/4))
    uint256 public belowMin; // runs that returned less than the oracle minimum (must stay 0)
    uint256 public liquidityFell; // times the position's liquidity went down (must stay 0)
    uint256 public okRuns;

    constructor(
        RootBuyback rb_,
        MockBuybackLane lanes_,
        RootPriceOracle oracle_,
        V4PoolDriver driver_,
        MockRoot root_
    ) {
        (rb, lanes, oracle, driver, root) = (rb_, lanes_, oracle_, driver_, root_);
        key = rb_.rootPoolKey();
    }

    function accrue(uint256 amount) external {
        amount = bound(amount, 1, 3 ether);
        vm.deal(address(this), amount);
        lanes.accrue{value: amount}(address(0), amount);
        ethIn += amount;
    }

    function trade(uint256 amount, bool buyRoot) external {
        amount = bound(amount, 1e12, 0.2 ether);
        if (buyRoot) driver.swapExactIn(key, true, amount);
        else driver.swapExactIn(key, false, amount * 2_000);
    }

    function wait(uint256 secs) external {
        vm.warp(block.timestamp + bound(secs, 1, 6 hours));
        MockAggregatorV3(address(oracle.ethUsdFeed())).setAnswer(3_000e8); // a live feed
    }

    function run() external {
        uint256 amountIn = rb.pending(address(0));
        uint256 minOut;
        try oracle.rootPrice() returns (RootPriceOracle.RootPrice memory p) {
            minOut = BuybackMath.minRootOutUp(amountIn - amountIn / 4, p.priceEth, 300);
        } catch {
            return;
        }
        uint128 l0 = rb.positionLiquidity();
        try rb.run(address(0)) returns (RootBuyback.Outcome memory o) {
            okRuns += 1;
            ethBought += o.ethSpent - o.ethSpent / 4;
            if (o.rootBought < minOut) belowMin += 1;
        } catch {} // the guards (min out, tick band) or nothing to buy: the assets wait
        if (rb.positionLiquidity() < l0) liquidityFell += 1;
    }
}

/// C26 invariants: ROOT supply falls by exactly what the buyback burned; the genesis liquidity never falls; no run
/// ever bought below the oracle minimum; every wei of ETH that reached the lane is still waiting, was spent on
/// ROOT, or is in the locked liquidity (fees only add).
contract RootBuybackInvariantTest is RootBuybackBase {
    RootBuybackHandler handler;
    uint256 supply0;

    function setUp() public override {
        super.setUp();
        handler = new RootBuybackHandler(rb, lanes, oracle, driver, root);
        supply0 = root.totalSupply();
        feed.transferOwnership(address(handler));
        targetContract(address(handler));
    }

    function invariant_supplyFallsByTheBurns() public view {
        assertEq(root.totalSupply() + rb.totalRootBurned(), supply0);
    }

    function invariant_neverBelowMinAndLiquidityOnlyGrows() public view {
        assertEq(handler.belowMin(), 0);
        assertEq(handler.liquidityFell(), 0);
    }

    function invariant_ethAccountedFor() public view {
        uint256 held = lanes.buybackPool(address(0)) + address(rb).balance;
        assertGe(held + handler.ethBought() + rb.totalEthToLiquidity(), handler.ethIn());
    }
}
