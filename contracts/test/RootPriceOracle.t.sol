// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test} from "forge-std/Test.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {RootPriceOracle} from "../src/RootPriceOracle.sol";
import {IRootTickOracle} from "../src/interfaces/IRootTickOracle.sol";
import {AggregatorV3Interface} from "../src/interfaces/AggregatorV3Interface.sol";
import {MockAggregatorV3} from "../src/mocks/MockAggregatorV3.sol";
import {MockRootTickOracle} from "../src/mocks/MockRootTickOracle.sol";
import {TickAccumulator} from "../src/libraries/TickAccumulator.sol";

/// An accumulator with a hole: `observe` reverts for one secondsAgo (window not covered).
contract GappyTickOracle is IRootTickOracle {
    uint32 public immutable initializedAt;
    uint32 public immutable gap;

    constructor(uint32 initializedAt_, uint32 gap_) {
        initializedAt = initializedAt_;
        gap = gap_;
    }

    function rootIsToken0() external pure returns (bool) {
        return true;
    }

    function observe(uint32[] calldata agos) external view returns (int56[] memory c) {
        c = new int56[](agos.length);
        for (uint256 i; i < agos.length; ++i) {
            if (agos[i] == gap) revert("OLD");
            c[i] = -int56(int32(agos[i])) * 10;
        }
    }
}

/// C16 against the pinned example of eden-core `burns::price` and every fail-closed rule.
contract RootPriceOracleTest is Test {
    uint256 constant NOW = 1_800_000_000;
    uint256 constant WAD = 1e18;
    MockAggregatorV3 feed;

    function setUp() public {
        vm.warp(NOW - 40 days);
        feed = new MockAggregatorV3(address(this), 8, "ETH / USD", 3_000e8);
    }

    function _oracle(bool rootIsToken0, uint256 initAt, int24 early, int24 late)
        internal
        returns (RootPriceOracle o, MockRootTickOracle t)
    {
        t = new MockRootTickOracle(rootIsToken0);
        vm.warp(initAt);
        t.initialize(early);
        vm.warp(NOW - 1_800);
        t.swapTo(late);
        vm.warp(NOW);
        feed.setAnswerAt(3_000e8, NOW - 3_600);
        o = new RootPriceOracle(t, feed, AggregatorV3Interface(address(0)));
    }

    /// Review finding 9: on an L2 the price is refused while the sequencer is down and for an hour after it restarts.
    function test_review9_sequencerUptimeFeedGatesThePrice() public {
        (RootPriceOracle plain, MockRootTickOracle t) = _oracle(false, NOW - 30 days, 75_000, 76_013);
        MockAggregatorV3 seq = new MockAggregatorV3(address(this), 0, "L2 Sequencer Uptime", 0);
        RootPriceOracle o = new RootPriceOracle(t, feed, seq);
        seq.setAnswerAt(1, NOW - 10); // down
        vm.expectRevert(RootPriceOracle.SequencerDown.selector);
        o.rootPriceUsd();
        seq.setAnswerAt(0, NOW - 600); // back up ten minutes ago
        vm.expectRevert(abi.encodeWithSelector(RootPriceOracle.SequencerGracePeriod.selector, NOW - 600, NOW + 3_000));
        o.rootForUsd(100e18, type(uint256).max);
        seq.setAnswerAt(0, NOW - 3_600); // up for an hour: the same price as with no feed
        assertEq(o.rootPriceUsd(), plain.rootPriceUsd());
    }

    /// core `end_to_end_takes_the_lower_window`: ROOT token1, 76,013 for the last 30 min, 75,000 before, ETH $3,000.
    function test_endToEndPinnedExample() public {
        (RootPriceOracle o,) = _oracle(false, NOW - 30 days, 75_000, 76_013);
        RootPriceOracle.RootPrice memory p = o.rootPrice();
        assertEq(p.anchorWindow, 4 hours);
        assertEq(p.shortTick, 76_013);
        assertEq(p.anchorTick, 75_127); // 75,126.625 rounded up (ROOT token1)
        assertEq(p.shortPriceEth, 499_991_249_679_726);
        assertEq(p.anchorPriceEth, 546_309_774_772_296);
        assertEq(p.priceEth, p.shortPriceEth);
        assertEq(p.ethUsd, 3_000 * WAD);
        assertEq(p.priceUsd, 1_499_973_749_039_178_000);
        assertEq(o.rootPriceUsd(), p.priceUsd);
        assertEq(o.rootForUsd(100 * WAD, type(uint256).max), 66_667_833_396_455_051_977);
    }

    function test_mirroredOrderRoundsTheOtherWay() public {
        (RootPriceOracle o,) = _oracle(true, NOW - 30 days, -75_000, -76_013);
        RootPriceOracle.RootPrice memory p = o.rootPrice();
        assertEq(p.anchorTick, -75_127); // floor(-75,126.625) (ROOT token0)
        assertApproxEqAbs(p.priceEth, 499_991_249_679_726, 2);
    }

    /// core `young_pool_shortens_the_anchor`.
    function test_youngPoolShortensTheAnchor() public {
        (RootPriceOracle o, MockRootTickOracle t) = _oracle(true, NOW - 7_200, 50, 100);
        feed.setAnswer(2_000e8);
        RootPriceOracle.RootPrice memory p = o.rootPrice();
        assertEq(p.anchorWindow, 7_200);
        assertEq(p.anchorTick, 62);
        assertEq(p.shortTick, 100);
        assertEq(p.priceEth, p.anchorPriceEth);
        t; // pool younger than the short window
        MockRootTickOracle y = new MockRootTickOracle(true);
        y.initialize(0);
        vm.warp(NOW + 1_799);
        feed.setAnswer(2_000e8);
        RootPriceOracle oy = new RootPriceOracle(y, feed, AggregatorV3Interface(address(0)));
        vm.expectRevert(abi.encodeWithSelector(RootPriceOracle.PoolTooYoung.selector, uint32(1_800), uint256(1_799)));
        oy.rootPrice();
        vm.warp(NOW + 1_800);
        feed.setAnswer(2_000e8);
        assertEq(oy.anchorWindow(), 1_800);
    }

    function test_windowNotCovered() public {
        vm.warp(NOW);
        feed.setAnswer(3_000e8);
        RootPriceOracle o = new RootPriceOracle(new GappyTickOracle(uint32(NOW - 7_200), 7_200), feed, AggregatorV3Interface(address(0)));
        vm.expectRevert(abi.encodeWithSelector(RootPriceOracle.WindowNotCovered.selector, uint32(7_200)));
        o.rootPrice();
        o = new RootPriceOracle(new GappyTickOracle(uint32(NOW - 7_200), 1_800), feed, AggregatorV3Interface(address(0)));
        vm.expectRevert(abi.encodeWithSelector(RootPriceOracle.WindowNotCovered.selector, uint32(1_800)));
        o.rootPrice();
        o = new RootPriceOracle(new GappyTickOracle(uint32(NOW + 1), 1), feed, AggregatorV3Interface(address(0)));
        vm.expectRevert(abi.encodeWithSelector(RootPriceOracle.PoolNotInitialized.selector, NOW + 1, NOW));
        o.rootPrice();
    }

    function test_chainlinkFailClosed() public {
        (RootPriceOracle o,) = _oracle(false, NOW - 30 days, 75_000, 76_013);
        feed.setAnswerAt(3_000e8, NOW - 25 hours);
        assertEq(o.ethUsdWad(), 3_000 * WAD);
        feed.setAnswerAt(3_000e8, NOW - 25 hours - 1);
        vm.expectRevert(abi.encodeWithSelector(RootPriceOracle.StaleAnswer.selector, 25 hours + 1, 25 hours));
        o.rootPrice();
        feed.setAnswerAt(0, NOW);
        vm.expectRevert(abi.encodeWithSelector(RootPriceOracle.NonPositiveAnswer.selector, int256(0)));
        o.rootPrice();
        feed.setAnswerAt(-1, NOW);
        vm.expectRevert(abi.encodeWithSelector(RootPriceOracle.NonPositiveAnswer.selector, int256(-1)));
        o.rootPrice();
        feed.setAnswerAt(3_000e8, NOW + 1);
        vm.expectRevert(abi.encodeWithSelector(RootPriceOracle.AnswerFromFuture.selector, NOW + 1, NOW));
        o.rootPrice();
        IRootTickOracle ticks = o.tickOracle();
        RootPriceOracle o37 = new RootPriceOracle(ticks, new MockAggregatorV3(address(this), 37, "x", 1), AggregatorV3Interface(address(0)));
        vm.expectRevert(abi.encodeWithSelector(RootPriceOracle.AnswerDecimals.selector, uint8(37)));
        o37.ethUsdWad();
        RootPriceOracle o20 = new RootPriceOracle(ticks, new MockAggregatorV3(address(this), 20, "x", 123), AggregatorV3Interface(address(0)));
        assertEq(o20.ethUsdWad(), 1); // rounds down
        // A price that rounds to zero fails closed.
        RootPriceOracle tiny = new RootPriceOracle(ticks, new MockAggregatorV3(address(this), 20, "x", 1), AggregatorV3Interface(address(0)));
        vm.expectRevert(RootPriceOracle.ZeroPrice.selector);
        tiny.rootPrice();
    }

    function test_amountRoundsUpAndIsBounded() public {
        (RootPriceOracle o,) = _oracle(false, NOW - 30 days, 75_000, 76_013);
        assertEq(o.rootForUsdAt(100 * WAD, 3 * WAD, type(uint256).max), 33_333_333_333_333_333_334);
        assertEq(o.rootForUsdAt(99 * WAD, 3 * WAD, 33 * WAD), 33 * WAD); // exact, at the cap
        vm.expectRevert(RootPriceOracle.ZeroPrice.selector);
        o.rootForUsdAt(100 * WAD, 0, type(uint256).max);
        vm.expectRevert(
            abi.encodeWithSelector(RootPriceOracle.AmountOutOfBounds.selector, 33_333_333_333_333_333_334, 1, 33 * WAD)
        );
        o.rootForUsdAt(100 * WAD, 3 * WAD, 33 * WAD);
        vm.expectRevert(abi.encodeWithSelector(RootPriceOracle.AmountOutOfBounds.selector, 0, 1, type(uint256).max));
        o.rootForUsdAt(0, 3 * WAD, type(uint256).max);
        vm.expectRevert(
            abi.encodeWithSelector(RootPriceOracle.AmountOutOfBounds.selector, type(uint256).max, 1, type(uint256).max)
        );
        o.rootForUsdAt(type(uint256).max, 1, type(uint256).max);
        // Through the live price, with the payer's cap.
        vm.expectRevert(
            abi.encodeWithSelector(RootPriceOracle.AmountOutOfBounds.selector, 66_667_833_396_455_051_977, 1, 66e18)
        );
        o.rootForUsd(100 * WAD, 66e18);
    }

    function testFuzz_amountIsTheCeiling(uint128 usd, uint128 price) public {
        vm.assume(price > 0 && usd > 0);
        RootPriceOracle o = new RootPriceOracle(IRootTickOracle(address(1)), AggregatorV3Interface(address(1)), AggregatorV3Interface(address(0)));
        assertEq(o.rootForUsdAt(usd, price, type(uint256).max), Math.mulDiv(usd, 1e18, price, Math.Rounding.Ceil));
    }
}

/// The hook's truncated accumulator (9,116 ticks per second).
contract TickAccumulatorTest is Test {
    MockRootTickOracle t;
    uint256 constant T = 1_700_000_000;

    function setUp() public {
        vm.warp(T);
        t = new MockRootTickOracle(true);
    }

    function _cum(uint32 ago) internal view returns (int56) {
        uint32[] memory a = new uint32[](1);
        a[0] = ago;
        return t.observe(a)[0];
    }

    function test_smallMovesAreNotTruncated() public {
        t.initialize(100);
        vm.warp(T + 10);
        assertEq(_cum(0), 1_000);
        t.swapTo(-9_000); // within 9,116 of 100
        vm.warp(T + 20);
        assertEq(_cum(0), 1_000 - 90_000);
        assertEq(_cum(10), 1_000);
        assertEq(_cum(15), 500);
    }

    function test_largeMovesWalkAtMost9116PerSecond() public {
        t.initialize(0);
        t.swapTo(100_000); // same second as the initialisation
        vm.warp(T + 5);
        assertEq(_cum(0), 9_116 * 15); // 9116 * (1 + 2 + 3 + 4 + 5)
        vm.warp(T + 20);
        // 10 moving seconds (9116 * 10 < 100,000 <= 9116 * 11), then 10 at 100,000.
        assertEq(_cum(0), 9_116 * 55 + 10 * 100_000);
        // Past values never change once observable.
        assertEq(_cum(15), 9_116 * 15);
        t.swapTo(0);
        vm.warp(T + 21);
        assertEq(_cum(16), 9_116 * 15);
        assertEq(_cum(1), 9_116 * 55 + 10 * 100_000);
        assertEq(_cum(0), 9_116 * 55 + 10 * 100_000 + (100_000 - 9_116));
        assertEq(t.observationCount(), 2);
    }

    function test_uncoveredAndUninitialised() public {
        uint32[] memory a = new uint32[](1);
        vm.expectRevert(TickAccumulator.NotInitialized.selector);
        t.observe(a);
        vm.expectRevert(TickAccumulator.NotInitialized.selector);
        t.swapTo(1);
        t.initialize(5);
        vm.expectRevert(TickAccumulator.AlreadyInitialized.selector);
        t.initialize(5);
        vm.warp(T + 100);
        a[0] = 101;
        vm.expectRevert(abi.encodeWithSelector(TickAccumulator.NotCovered.selector, uint32(T - 1), uint32(T)));
        t.observe(a);
        a[0] = 100;
        assertEq(t.observe(a)[0], 0);
    }

    /// Random swaps: the cumulative equals the sum of the per-second walk, computed one second at a time.
    function testFuzz_matchesPerSecondReference(int24[8] memory ticks, uint8[8] memory gaps) public {
        t.initialize(0);
        int256 r = 0;
        int256 p = 0;
        int256 cum = 0;
        for (uint256 i; i < 8; ++i) {
            uint256 dt = bound(gaps[i], 0, 12);
            for (uint256 k; k < dt; ++k) {
                int256 d = p - r;
                if (d > 9_116) d = 9_116;
                if (d < -9_116) d = -9_116;
                r += d;
                cum += r;
            }
            vm.warp(block.timestamp + dt);
            assertEq(_cum(0), cum);
            int24 next = int24(bound(ticks[i], -200_000, 200_000));
            t.swapTo(next);
            p = next;
        }
    }
}
