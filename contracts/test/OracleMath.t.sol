// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test} from "forge-std/Test.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {OracleMath} from "../src/libraries/OracleMath.sol";

contract OracleMathHarness {
    function quote(int24 tick, uint128 base, bool baseIsToken0) external pure returns (uint256) {
        return OracleMath.getQuoteAtTick(tick, base, baseIsToken0);
    }

    function meanFloor(int56 a, int56 b, uint32 s) external pure returns (int24) {
        return OracleMath.meanTickFloor(a, b, s);
    }

    function meanCeil(int56 a, int56 b, uint32 s) external pure returns (int24) {
        return OracleMath.meanTickCeil(a, b, s);
    }

    function meanLower(int56 a, int56 b, uint32 s, bool base0) external pure returns (int24) {
        return OracleMath.meanTickTowardLowerPrice(a, b, s, base0);
    }

    function stockPrice(int24 tick, bool stock0) external pure returns (uint256) {
        return OracleMath.stockPriceWad(tick, stock0);
    }

    function twap(int56 a, int56 b, uint32 s, bool stock0) external pure returns (uint256) {
        return OracleMath.twapPriceWad(a, b, s, stock0);
    }
}

/// A5 / C16 oracle math against the vectors of eden-core `uniswap::oracle` (independent big-integer reference).
contract OracleMathTest is Test {
    OracleMathHarness h;
    uint128 constant E18 = 1e18;

    function setUp() public {
        h = new OracleMathHarness();
    }

    function test_tickZeroIsParity() public view {
        assertEq(h.quote(0, E18, true), E18);
        assertEq(h.quote(0, E18, false), E18);
        assertEq(h.quote(0, 0, true), 0);
    }

    function test_handCheckableTicks() public view {
        assertEq(h.quote(1, E18, true), 1_000_100_000_000_000_000);
        assertEq(h.quote(1, E18, false), 999_900_009_999_000_099);
        assertEq(h.quote(-1, E18, true), 999_900_009_999_000_099);
        assertEq(h.quote(-1, E18, false), 1_000_099_999_999_999_999);
    }

    function test_knownVectorsBothOrders() public view {
        int24[10] memory ticks = [int24(-230_259), -230_258, 230_258, 230_259, 100_000, -100_000, 443_636, 443_637, 887_272, -887_272];
        uint256[10] memory asToken0 = [
            uint256(100110275),
            100120286,
            9987985790911238726647298253,
            9988984589490329850519962983,
            22015456048552198645701,
            45422633889328,
            18446050711097703529776342895654370894,
            18447895316168813300129320530133980662,
            340256786836388094070642339899681172762184831912720469415,
            0
        ];
        uint256[10] memory asToken1 = [
            uint256(9988984589490329850519953454),
            9987985790911238726647281928,
            100120286,
            100110275,
            45422633889328,
            22015456048552198645701,
            0,
            0,
            0,
            340256786698763678858396856460488307819979090561464864775
        ];
        for (uint256 i; i < 10; ++i) {
            assertEq(h.quote(ticks[i], E18, true), asToken0[i]);
            assertEq(h.quote(ticks[i], E18, false), asToken1[i]);
        }
    }

    function test_bothBranchesAndExtremes() public view {
        assertLe(TickMath.getSqrtPriceAtTick(443_636), type(uint128).max);
        assertGt(TickMath.getSqrtPriceAtTick(443_637), type(uint128).max);
        assertEq(
            h.quote(887_272, type(uint128).max, true),
            115783384785599357996676985412062652720342362943929506828539444553934033845703
        );
        assertEq(
            h.quote(-887_272, type(uint128).max, false),
            115783384738768196242144082653949453838306988932806144552194799290216044976282
        );
    }

    function test_invalidTicksRevert() public {
        vm.expectRevert();
        h.quote(887_273, E18, true);
        vm.expectRevert();
        h.stockPrice(-887_273, true);
    }

    function test_stockPriceBothOrders() public view {
        assertEq(h.stockPrice(-230_259, true), 100110275000000000000);
        assertEq(h.stockPrice(230_259, false), 100110275000000000000);
        assertEq(h.stockPrice(0, true), 1e30);
    }

    function test_meanTickRoundsTowardNegativeInfinity() public view {
        assertEq(h.meanFloor(0, 3000, 300), 10);
        assertEq(h.meanFloor(0, 3001, 300), 10);
        assertEq(h.meanFloor(0, 3299, 300), 10);
        assertEq(h.meanFloor(0, -3000, 300), -10);
        assertEq(h.meanFloor(0, -3001, 300), -11);
        assertEq(h.meanFloor(0, -1, 300), -1);
        assertEq(h.meanFloor(1000, 1000, 300), 0);
        assertEq(h.meanFloor(-69_077_700, -69_146_777, 300), -231);
        assertEq(h.meanCeil(0, -3001, 300), -10);
        assertEq(h.meanCeil(0, 3001, 300), 11);
        assertEq(h.meanLower(0, 3001, 300, true), 10);
        assertEq(h.meanLower(0, 3001, 300, false), 11);
    }

    function test_meanTickErrors() public {
        vm.expectRevert(OracleMath.ZeroWindow.selector);
        h.meanFloor(0, 1, 0);
        vm.expectRevert(abi.encodeWithSelector(OracleMath.MeanTickOutOfRange.selector, int256(887_273)));
        h.meanFloor(0, 887_273 * 300, 300);
        assertEq(h.meanFloor(0, 887_272 * 300 + 299, 300), 887_272);
        assertEq(h.meanFloor(0, -887_272 * 300, 300), -887_272);
        vm.expectRevert(abi.encodeWithSelector(OracleMath.MeanTickOutOfRange.selector, int256(-887_273)));
        h.meanFloor(0, -887_272 * 300 - 1, 300);
        vm.expectRevert();
        h.meanFloor(type(int56).min, type(int56).max, 1);
    }

    function test_twapCombinesMeanAndQuote() public view {
        int56 start = 5_000_000_000;
        assertEq(h.twap(start, start - 230_259 * 300 - 1, 300, true), h.stockPrice(-230_260, true));
        assertEq(h.twap(start, start - 230_259 * 300, 300, true), 100110275000000000000);
    }

    function testFuzz_quoteMonotonicInTick(int24 t, uint128 base) public view {
        t = int24(bound(t, TickMath.MIN_TICK, TickMath.MAX_TICK - 1));
        assertLe(h.quote(t, base, true), h.quote(t + 1, base, true));
        assertGe(h.quote(t, base, false), h.quote(t + 1, base, false));
    }

    function testFuzz_meanTickMatchesFloorDivision(int56 a, int32 delta, uint32 s) public view {
        s = uint32(bound(s, 2_500, 10_000_000)); // |delta / s| < 2^31 / 2500 stays in the tick range
        vm.assume(int256(a) + delta <= type(int56).max && int256(a) + delta >= type(int56).min);
        int56 b = int56(int256(a) + delta);
        int256 d = int256(delta);
        int256 fl = d >= 0 ? d / int256(uint256(s)) : -((-d + int256(uint256(s)) - 1) / int256(uint256(s)));
        assertEq(h.meanFloor(a, b, s), fl);
        int256 ce = d >= 0 ? (d + int256(uint256(s)) - 1) / int256(uint256(s)) : -((-d) / int256(uint256(s)));
        assertEq(h.meanCeil(a, b, s), ce);
    }
}
