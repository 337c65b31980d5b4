// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test} from "forge-std/Test.sol";
import {ScorerRegistry} from "../src/ScorerRegistry.sol";
import {MockAggregatorV3} from "../src/mocks/MockAggregatorV3.sol";
import {MockRoot} from "../src/mocks/MockRoot.sol";
import {TestERC20} from "./utils/TestERC20.sol";
import {ScorerFixture, MockQualityVerifier} from "./utils/ScorerFixture.sol";

/// Random scorer populations: registrations, scores, proofs (random grades and verdicts), fundings in ETH and USDG,
/// claims, unstakes, withdrawals, re-registrations and time.
contract ScorerHandler is Test {
    ScorerRegistry public immutable reg;
    MockRoot public immutable rootToken;
    MockAggregatorV3 public immutable feed;
    MockQualityVerifier public immutable verifier;
    TestERC20 public immutable usdg;
    address[2] public tokens;
    address[8] public scorers;
    mapping(address token => mapping(address scorer => uint256)) public received;
    uint256 public calls;

    constructor(
        ScorerRegistry reg_,
        MockRoot root_,
        MockAggregatorV3 feed_,
        MockQualityVerifier verifier_,
        TestERC20 usdg_,
        address tokenE,
        address tokenU
    ) {
        reg = reg_;
        rootToken = root_;
        feed = feed_;
        verifier = verifier_;
        usdg = usdg_;
        tokens = [tokenE, tokenU];
        for (uint256 i; i < 8; ++i) {
            scorers[i] = address(uint160(0x5C0 + i));
            vm.prank(scorers[i]);
            rootToken.approve(address(reg), type(uint256).max);
        }
        usdg.approve(address(reg), type(uint256).max);
    }

    /// The first scorer from `i` on matching `want` (registered and free to score / unregistered), or address(0).
    function _pick(uint256 i, bool wantScorer) internal view returns (address) {
        for (uint256 k; k < 8; ++k) {
            address s = scorers[(i % 8 + k) % 8];
            ScorerRegistry.Scorer memory sc = reg.scorer(s);
            if (!wantScorer && !sc.registered) return s;
            if (wantScorer && sc.registered && sc.unstakeRequestedAt == 0 && block.timestamp >= reg.nextScoreAt(s)) {
                return s;
            }
        }
        return address(0);
    }

    function register(uint256 i) external {
        calls++;
        address s = _pick(i, false);
        if (s == address(0)) return;
        feed.setAnswer(3_000e8);
        rootToken.mint(s, 2_600e18);
        vm.prank(s);
        reg.register(type(uint256).max);
    }

    function scoreAndProve(uint256 i, uint256 t, uint256 q, uint256 verdict, uint8 prove) external {
        calls++;
        address s = _pick(i, true);
        if (s == address(0)) return;
        address token = tokens[t % 2];
        feed.setAnswer(3_000e8);
        rootToken.mint(s, 100e18);
        string memory thesis = vm.toString(keccak256(abi.encode(s, block.timestamp)));
        vm.prank(s);
        uint256 id = reg.score(token, 50e18, thesis, type(uint256).max);
        if (prove % 8 == 0) return; // mostly proven
        q = bound(q, 0, 1e18);
        uint8 v = uint8(verdict % 4);
        verifier.setLeaf(1, reg.qualityLeaf(id, q, v, bytes32(0)));
        reg.prove(id, 1, q, v, bytes32(0), new bytes32[](0));
    }

    /// The adjudicator overrides a random score's grade (re-weighting its open position, if any).
    function overrideGrade(uint256 id, uint256 q, uint256 verdict) external {
        calls++;
        uint256 n = reg.scoreCount();
        if (n == 0) return;
        vm.prank(verifier.adjudicator());
        reg.overrideGrade(id % n, bound(q, 0, 1e18), uint8(verdict % 4));
    }

    /// A score proven from epoch 1 is re-graded from an earlier epoch 0 (the earliest grade wins).
    function regrade(uint256 id, uint256 q, uint256 verdict) external {
        calls++;
        uint256 n = reg.scoreCount();
        if (n == 0) return;
        id %= n;
        ScorerRegistry.Score memory sc = reg.getScore(id);
        if (!sc.proven || sc.overridden || sc.gradeEpoch == 0 || block.timestamp > sc.at + 30 days) return;
        q = bound(q, 0, 1e18);
        uint8 v = uint8(verdict % 4);
        verifier.setLeaf(0, reg.qualityLeaf(id, q, v, bytes32(0)));
        reg.prove(id, 0, q, v, bytes32(0), new bytes32[](0));
    }

    function fund(uint256 t, uint256 amount) external {
        calls++;
        address token = tokens[t % 2];
        amount = bound(amount, 1, 1e24);
        uint256 minimum = reg.minFunding(token);
        if (amount < minimum) {
            // C11 (second review): dust below 1 % of the undripped balance never restarts the drip.
            vm.deal(address(this), amount);
            usdg.mint(address(this), amount);
            vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.FundingTooSmall.selector, amount, minimum));
            if (t % 2 == 0) reg.fund{value: amount}(token, amount);
            else reg.fund(token, amount);
            return;
        }
        if (t % 2 == 0) {
            vm.deal(address(this), amount);
            reg.fund{value: amount}(token, amount);
        } else {
            usdg.mint(address(this), amount);
            reg.fund(token, amount);
        }
    }

    function claim(uint256 i, uint256 t) external {
        calls++;
        address token = tokens[t % 2];
        reg.poke(token);
        address s = scorers[i % 8];
        for (uint256 k; k < 8 && reg.owedStored(token, s) == 0; ++k) s = scorers[(i % 8 + k) % 8];
        vm.prank(s);
        received[token][s] += reg.claim(token);
    }

    function unstake(uint256 i) external {
        calls++;
        address s = scorers[i % 8];
        ScorerRegistry.Scorer memory sc = reg.scorer(s);
        if (!sc.registered || sc.unstakeRequestedAt != 0) return;
        vm.prank(s);
        reg.requestUnstake();
    }

    function withdraw(uint256 i) external {
        calls++;
        address s = scorers[i % 8];
        ScorerRegistry.Scorer memory sc = reg.scorer(s);
        if (!sc.registered || sc.unstakeRequestedAt == 0 || block.timestamp < sc.unstakeRequestedAt + 7 days) return;
        vm.prank(s);
        reg.withdrawStake();
    }

    function sweep(uint256 t) external {
        calls++;
        address token = tokens[t % 2];
        ScorerRegistry.Pool memory p = reg.pool(token);
        reg.poke(token);
        p = reg.pool(token);
        if (p.returned == p.returnedSwept) return;
        reg.sweepReturned(token);
    }

    function warp(uint256 dt) external {
        calls++;
        vm.warp(block.timestamp + bound(dt, 1, 9 days));
    }

    function scorerAt(uint256 i) external view returns (address) {
        return scorers[i];
    }

    function tokenAt(uint256 i) external view returns (address) {
        return tokens[i];
    }

    receive() external payable {}
}

contract ScorerRegistryInvariantTest is ScorerFixture {
    ScorerHandler handler;

    function setUp() public override {
        super.setUp();
        handler = new ScorerHandler(reg, rootToken, feed, verifier, usdg, TOKEN_E, TOKEN_U);
        rootToken.transferOwnership(address(handler));
        feed.transferOwnership(address(handler));
        verifier.setAdjudicator(makeAddr("adjudicator"));
        targetContract(address(handler));
    }

    /// funded = paid + owed + undripped + returned + dust, dust >= 0 and small (all terms as of the pool's last
    /// update); the contract holds what is not yet paid out or swept.
    function invariant_solvency() public view {
        for (uint256 t; t < 2; ++t) {
            address token = handler.tokenAt(t);
            ScorerRegistry.Pool memory p = reg.pool(token);
            uint256 owed;
            for (uint256 i; i < 8; ++i) owed += reg.owedStored(token, handler.scorerAt(i));
            uint256 accounted = p.paid + owed + reg.undrippedStored(token) + p.returned;
            assertLe(accounted, p.funded, "insolvent");
            // Rounding dust: below (2 + W/ACC) per segment and 1 per settlement; generous bound per handler call.
            assertLe(p.funded - accounted, (handler.calls() + 1) * 1_000, "dust");
            uint256 held = t == 0 ? address(reg).balance : usdg.balanceOf(address(reg));
            assertGe(held, p.funded - p.paid - p.returnedSwept, "balance");
        }
    }

    /// No scorer is paid more than 5 % of what the pool released, and no open weight exceeds 5 % of D.
    function invariant_noScorerAboveFivePercent() public view {
        for (uint256 t; t < 2; ++t) {
            address token = handler.tokenAt(t);
            ScorerRegistry.Pool memory p = reg.pool(token);
            uint256 releasedSoFar = p.funded - reg.undrippedStored(token);
            uint256 d = reg.denominatorOf(token);
            for (uint256 i; i < 8; ++i) {
                address s = handler.scorerAt(i);
                uint256 got = handler.received(token, s) + reg.owedStored(token, s);
                assertLe(got * 10_000, releasedSoFar * 500, "cap");
                ScorerRegistry.Position memory pos = reg.position(token, s);
                if (pos.open) assertLe(pos.weight * 10_000, d * 500, "share");
            }
        }
    }

    /// The tracked omega_max is never below the true maximum open weight, and W is the sum of open weights.
    function invariant_weightsAreConsistent() public view {
        for (uint256 t; t < 2; ++t) {
            address token = handler.tokenAt(t);
            uint256 w;
            uint256 maxW;
            for (uint256 i; i < 8; ++i) {
                ScorerRegistry.Position memory pos = reg.position(token, handler.scorerAt(i));
                if (!pos.open) continue;
                // An open position always carries the weight of its score's grade in force (proof, earlier proof
                // or the adjudicator's override).
                assertEq(pos.weight, reg.getScore(pos.scoreId).weight, "grade in force");
                w += pos.weight;
                if (pos.weight > maxW) maxW = pos.weight;
            }
            // Positions past their end but not yet processed still count until the next advance: compare stored state.
            assertEq(reg.pool(token).totalWeight, w, "W");
            assertGe(reg.maxWeight(token), maxW, "omega_max");
            // Stale by less than one class (2^(1/1024) < 1.0007).
            assertLe(reg.maxWeight(token) * 10_000, maxW * 10_007 + (maxW == 0 ? 0 : 10_007), "omega_max stale");
        }
    }
}
