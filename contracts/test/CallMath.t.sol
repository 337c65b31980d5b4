// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test} from "forge-std/Test.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {CallMath} from "../src/libraries/CallMath.sol";

contract CallMathHarness {
    function score(uint64 h, uint64 m, uint256 stake, uint256 minStake) external pure returns (uint256) {
        return CallMath.computeScore(h, m, stake, minStake);
    }

    function vote(uint256 s) external pure returns (uint256) {
        return CallMath.voteWeight(s);
    }

    function state(uint256 up, uint256 down, uint64 voters, uint64 quorum, uint16 bps)
        external
        pure
        returns (CallMath.ConsensusState memory)
    {
        return CallMath.consensusState(up, down, voters, quorum, bps);
    }
}

/// A1 and A4 pure rules, with the worked examples of eden-core `calls::{score, consensus}`.
contract CallMathTest is Test {
    CallMathHarness h;
    uint256 constant ONE = 1e18;

    function setUp() public {
        h = new CallMathHarness();
    }

    // ---------------------------------------------------------------- A1

    function test_seedExamplesWeightOne() public view {
        uint256[4] memory mins = [uint256(1), 100 * ONE, 2_500 * ONE, type(uint256).max / 3];
        for (uint256 i; i < 4; ++i) {
            uint256 m = mins[i];
            assertEq(h.score(1, 0, m, m), 500_000_000_000_000_000); // 0.5
            assertEq(h.score(2, 0, m, m), 1_333_333_333_333_333_333); // 1.333...
            assertEq(h.score(10, 0, m, m), 9_090_909_090_909_090_909); // 10/10
            assertEq(h.score(14, 6, m, m), 9_333_333_333_333_333_333); // 14 hits 6 misses
        }
    }

    function test_seedExampleDoubleStake() public view {
        assertEq(h.score(14, 6, 200 * ONE, 100 * ONE), 18_666_666_666_666_666_666);
    }

    function test_zeroHitsOrZeroStakeScoreZero() public view {
        assertEq(h.score(0, 0, ONE, ONE), 0);
        assertEq(h.score(0, type(uint64).max, type(uint256).max, 1), 0);
        assertEq(h.score(5, 5, 0, 1), 0);
    }

    function test_zeroMinStakeReverts() public {
        vm.expectRevert(CallMath.ZeroMinStake.selector);
        h.score(1, 0, ONE, 0);
        vm.expectRevert(CallMath.ZeroMinStake.selector);
        h.score(0, 0, 0, 0);
    }

    function test_overflowReverts() public {
        vm.expectRevert(CallMath.ScoreOverflow.selector);
        h.score(1, 0, type(uint256).max, 1);
        vm.expectRevert(CallMath.ScoreOverflow.selector);
        h.score(type(uint64).max, 0, type(uint256).max, 1);
    }

    function test_extremesDoNotOverflowWhenTheResultFits() public view {
        uint256 hm = type(uint64).max;
        // Denominator above 2^256 (512-bit path).
        assertEq(h.score(type(uint64).max, type(uint64).max, type(uint256).max, type(uint256).max), hm * hm * ONE / (2 * hm + 1));
        assertEq(h.score(3, 0, type(uint256).max, type(uint256).max), 2_250_000_000_000_000_000);
        uint256 x = type(uint256).max / ONE;
        assertEq(h.score(1, type(uint64).max, x, 1), Math.mulDiv(x, ONE, hm + 2));
    }

    function testFuzz_matchesDirectFormulaWhenSmall(uint32 hits, uint32 misses, uint96 stake, uint96 minStake) public view {
        vm.assume(minStake > 0);
        uint256 expected = uint256(hits) * hits * stake * ONE / (uint256(minStake) * (uint256(hits) + misses + 1));
        assertEq(h.score(hits, misses, stake, minStake), expected);
    }

    function testFuzz_addingAHitNeverLowersTheScore(uint64 hits, uint64 misses, uint256 stake, uint256 minStake) public view {
        hits = uint64(bound(hits, 0, type(uint64).max - 1));
        minStake = bound(minStake, 1, type(uint256).max);
        try h.score(hits, misses, stake, minStake) returns (uint256 before) {
            try h.score(hits + 1, misses, stake, minStake) returns (uint256 afterHit) {
                assertGe(afterHit, before);
            } catch (bytes memory err) {
                assertEq(bytes4(err), CallMath.ScoreOverflow.selector); // only by growing past 2^256
            }
        } catch {}
    }

    function testFuzz_addingAMissNeverRaisesTheScore(uint64 hits, uint64 misses, uint256 stake, uint256 minStake) public view {
        misses = uint64(bound(misses, 0, type(uint64).max - 1));
        minStake = bound(minStake, 1, type(uint256).max);
        try h.score(hits, misses + 1, stake, minStake) returns (uint256 afterMiss) {
            try h.score(hits, misses, stake, minStake) returns (uint256 before) {
                assertLe(afterMiss, before);
            } catch (bytes memory err) {
                assertEq(bytes4(err), CallMath.ScoreOverflow.selector);
            }
        } catch {}
    }

    function testFuzz_smallMonotonicity(uint16 hits, uint16 misses, uint96 stake, uint96 minStake) public view {
        vm.assume(minStake > 0);
        uint256 s = h.score(hits, misses, stake, minStake);
        assertGe(h.score(uint64(hits) + 1, misses, stake, minStake), s);
        assertLe(h.score(hits, uint64(misses) + 1, stake, minStake), s);
    }

    // ---------------------------------------------------------------- A4

    function test_voteWeights() public {
        assertEq(h.vote(0), ONE);
        assertEq(h.vote(0.5e18), 1.5e18);
        vm.expectRevert(CallMath.WeightOverflow.selector);
        h.vote(type(uint256).max);
    }

    function test_thresholdBoundaryTwoToOne() public view {
        CallMath.ConsensusState memory s = h.state(2 * ONE, ONE, 3, 3, 6_667);
        assertFalse(s.reached);
        assertTrue(s.hasDirection);
        assertEq(s.direction, CallMath.UP);
        assertEq(s.strengthBps, 6_666);
        assertTrue(h.state(2 * ONE, ONE, 3, 3, 6_666).reached);
        s = h.state(6_667, 3_333, 3, 3, 6_667);
        assertTrue(s.reached);
        assertEq(s.strengthBps, 6_667);
        s = h.state(66_669, 33_331, 3, 3, 6_667);
        assertFalse(s.reached);
        assertEq(s.strengthBps, 6_666);
    }

    function test_strengthIsRoundedDown() public view {
        uint256 proven = h.vote(9_333_333_333_333_333_333);
        CallMath.ConsensusState memory s = h.state(proven, 2 * ONE, 3, 3, 6_667);
        assertTrue(s.reached);
        assertEq(s.direction, CallMath.UP);
        assertEq(s.strengthBps, 8_378);
    }

    function test_tiesHaveNoDirectionAndNoConsensus() public view {
        uint16[3] memory bps = [uint16(0), 5_000, 6_667];
        for (uint256 i; i < 3; ++i) {
            CallMath.ConsensusState memory s = h.state(ONE, ONE, 10, 0, bps[i]);
            assertFalse(s.reached);
            assertFalse(s.hasDirection);
            assertEq(s.strengthBps, 5_000);
            s = h.state(0, 0, 0, 0, bps[i]);
            assertFalse(s.reached);
            assertFalse(s.hasDirection);
            assertEq(s.strengthBps, 0);
        }
    }

    function test_quorumIsRequired() public view {
        CallMath.ConsensusState memory s = h.state(100 * ONE, 0, 2, 3, 6_667);
        assertFalse(s.reached);
        assertEq(s.strengthBps, 10_000);
        s = h.state(0, 100 * ONE, 3, 3, 6_667);
        assertTrue(s.reached);
        assertEq(s.direction, CallMath.DOWN);
    }

    function test_hugeWeightsCrossMultiplyIn512Bits() public {
        uint256 big = type(uint256).max / 2;
        CallMath.ConsensusState memory s = h.state(big, big / 3, 3, 3, 6_667);
        assertTrue(s.reached);
        assertEq(s.strengthBps, 7_500);
        vm.expectRevert(CallMath.WeightOverflow.selector);
        h.state(type(uint256).max, 1, 3, 3, 6_667);
    }

    function testFuzz_stateMatchesDefinition(uint128 up, uint128 down, uint64 voters, uint64 quorum, uint16 bps) public view {
        bps = uint16(bound(bps, 0, 10_000));
        CallMath.ConsensusState memory s = h.state(up, down, voters, quorum, bps);
        uint256 total = uint256(up) + down;
        uint256 lead = up > down ? up : down;
        assertEq(s.hasDirection, up != down);
        assertEq(s.strengthBps, total == 0 ? 0 : lead * 10_000 / total);
        assertEq(s.reached, up != down && voters >= quorum && lead * 10_000 >= uint256(bps) * total);
    }
}
