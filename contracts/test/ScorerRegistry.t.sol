// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ScorerRegistry, IQualityVerifier, IRootBurnPricer, IScorerFeeSource} from "../src/ScorerRegistry.sol";
import {RootPriceOracle} from "../src/RootPriceOracle.sol";
import {EdenLeaves} from "../src/libraries/EdenLeaves.sol";
import {RewardMath} from "../src/libraries/RewardMath.sol";
import {EpochRegistry} from "../src/EpochRegistry.sol";
import {MerkleBuilder} from "./utils/MerkleBuilder.sol";
import {Approvals} from "./utils/Approvals.sol";
import {ScorerFixture} from "./utils/ScorerFixture.sol";
import {Vm} from "forge-std/Vm.sol";

contract RewardMathHarness {
    function classOf(uint256 x) external pure returns (uint256) {
        return RewardMath.classOf(x);
    }

    function weight(uint256 q, uint256 c) external pure returns (uint256) {
        return RewardMath.weight(q, c);
    }

    function multiplier(uint8 v) external pure returns (uint256) {
        return RewardMath.multiplier(v);
    }

    function denominator(uint256 w, uint256 m) external pure returns (uint256) {
        return RewardMath.denominator(w, m);
    }

    function segment(uint256 r, uint256 w, uint256 d) external pure returns (uint256, uint256) {
        return RewardMath.segment(r, w, d);
    }

    function released(uint256 a, uint64 s, uint64 t) external pure returns (uint256) {
        return RewardMath.released(a, s, t);
    }

    function minFundingUp(uint256 u) external pure returns (uint256) {
        return RewardMath.minFundingUp(u);
    }
}

/// C11-C14 pure rules with eden-core's worked examples.
contract RewardMathTest is ScorerFixture {
    RewardMathHarness h;

    function setUp() public override {
        h = new RewardMathHarness();
    }

    /// eden-core `min_funding_up`'s examples, then the rule for every undripped balance: `max(1, ceil(u / 100))`.
    function testFuzz_minFundingIsOnePercentRoundedUp(uint256 u) public view {
        assertEq(h.minFundingUp(0), 1);
        assertEq(h.minFundingUp(100), 1);
        assertEq(h.minFundingUp(101), 2);
        assertEq(h.minFundingUp(7_000), 70);
        assertEq(h.minFundingUp(7_001), 71);
        assertEq(h.minFundingUp(u), u == 0 ? 1 : u / 100 + (u % 100 == 0 ? 0 : 1));
    }

    function test_weights() public {
        assertEq(h.weight(0.8e18, WAD), 40e18);
        assertEq(h.weight(0.6e18, WAD), 30e18);
        assertEq(h.weight(0.9e18, WAD), 45e18);
        assertEq(h.weight(0.8e18, h.multiplier(2)), 20e18); // derivative: half
        assertEq(h.weight(0.8e18, h.multiplier(3)), 0); // copy
        assertEq(h.weight(0.3e18, WAD), 15e18); // the floor itself counts
        assertEq(h.weight(0.3e18 - 1, WAD), 0);
        assertEq(h.multiplier(0), WAD);
        assertEq(h.multiplier(1), WAD);
        vm.expectRevert(abi.encodeWithSelector(RewardMath.BadVerdict.selector, uint8(4)));
        h.multiplier(4);
        vm.expectRevert(abi.encodeWithSelector(RewardMath.FractionOutOfRange.selector, WAD + 1));
        h.weight(WAD + 1, WAD);
        vm.expectRevert(abi.encodeWithSelector(RewardMath.FractionOutOfRange.selector, WAD + 1));
        h.weight(WAD, WAD + 1);
    }

    /// C13 example: omega 40, 30, 45 -> W 115, D 900.
    function test_conservativeDenominator() public view {
        assertEq(h.denominator(115e18, 45e18), 900e18);
        assertEq(h.denominator(2_000e18, 45e18), 2_000e18);
        assertEq(h.denominator(1, 1), 20);
        assertEq(h.denominator(0, 0), 0);
        // omega_max / c rounds up: 1 wei of weight needs 20 of denominator; 3 -> 60.
        assertEq(h.denominator(0, 3), 60);
    }

    function test_segment() public view {
        (uint256 inc, uint256 ret) = h.segment(1_000, 0, 0);
        assertEq(inc, 0);
        assertEq(ret, 1_000);
        (inc, ret) = h.segment(1_000, 115e18, 900e18);
        assertEq(inc, 1); // floor(R * ACC / D) = floor(1000 / 900)
        assertEq(ret, 1_000 - 128); // ceil(1000 * 115 / 900) = 128
    }

    function test_dripExactFraction() public view {
        assertEq(h.released(700, 100, 100), 0);
        assertEq(h.released(700, 100, 99), 0);
        assertEq(h.released(700, 0, 3.5 days), 350);
        assertEq(h.released(7, 0, 1 days), 1);
        assertEq(h.released(7, 0, 7 days), 7);
        assertEq(h.released(7, 0, 70 days), 7);
    }

    function test_classes() public view {
        assertEq(h.classOf(1), 0);
        assertEq(h.classOf(2), 1_024);
        assertEq(h.classOf(3), 1_623); // floor(1024 * 1.58496...)
        assertEq(h.classOf(1 << 255), 255 * 1_024);
        assertEq(h.classOf(type(uint256).max), 256 * 1_024 - 1);
        // 45e18 and 40e18 are different classes; 45e18 and 45e18 + 1 the same.
        assertTrue(h.classOf(45e18) != h.classOf(40e18));
        assertEq(h.classOf(45e18), h.classOf(45e18 + 1));
    }

    function testFuzz_classesAreMonotoneAndNarrow(uint256 a, uint256 b) public view {
        a = bound(a, 1, type(uint256).max);
        b = bound(b, 1, type(uint256).max);
        if (a > b) (a, b) = (b, a);
        assertLe(h.classOf(a), h.classOf(b));
        // Same class -> the ratio is below 2^(1/1024) (~1.000677): b * 10^6 < a * 1000677 (with slack for rounding).
        if (h.classOf(a) == h.classOf(b) && a < type(uint256).max / 1_001_000) assertLt(b * 1_000_000, a * 1_000_700);
    }
}

contract ScorerRegistryTest is ScorerFixture {
    address alice = makeAddr("alice");
    address bob = makeAddr("bob");
    address carol = makeAddr("carol");

    // ---------------------------------------------------------------- admin

    function test_constructorAndAdmin() public {
        vm.expectRevert(ScorerRegistry.ZeroAddress.selector);
        new ScorerRegistry(owner, IERC20(address(0)), verifier, IRootBurnPricer(address(oracle)), buyback);
        vm.expectRevert(ScorerRegistry.ZeroAddress.selector);
        new ScorerRegistry(owner, rootToken, IQualityVerifier(address(0)), IRootBurnPricer(address(oracle)), buyback);
        vm.expectRevert(ScorerRegistry.ZeroAddress.selector);
        new ScorerRegistry(owner, rootToken, verifier, IRootBurnPricer(address(0)), buyback);
        vm.expectRevert(ScorerRegistry.ZeroAddress.selector);
        new ScorerRegistry(owner, rootToken, verifier, IRootBurnPricer(address(oracle)), address(0));

        bytes memory notOwner = abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, address(this));
        vm.expectRevert(notOwner);
        reg.configurePool(address(1), address(0));
        vm.expectRevert(notOwner);
        reg.setBuyback(address(1));
        vm.expectRevert(notOwner);
        reg.setRootPricer(IRootBurnPricer(address(1)));
        vm.expectRevert(notOwner);
        reg.setRewardEstimate(TOKEN_E, 1);
        vm.startPrank(owner);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.PoolAlreadyConfigured.selector, TOKEN_E));
        reg.configurePool(TOKEN_E, address(usdg));
        vm.expectRevert(ScorerRegistry.ZeroAddress.selector);
        reg.configurePool(address(0), address(0));
        vm.expectRevert(ScorerRegistry.ZeroAddress.selector);
        reg.setBuyback(address(0));
        vm.expectRevert(ScorerRegistry.ZeroAddress.selector);
        reg.setRootPricer(IRootBurnPricer(address(0)));
        reg.setBuyback(address(0xB));
        vm.stopPrank();
        assertEq(reg.buyback(), address(0xB));
        assertEq(reg.pool(TOKEN_U).asset, address(usdg));
    }

    // ---------------------------------------------------------------- C15 register / score / unstake

    function test_registerStakesAndBurnsOneHundredDollars() public {
        uint256 supply = rootToken.totalSupply();
        _register(alice);
        ScorerRegistry.Scorer memory s = reg.scorer(alice);
        assertTrue(s.registered);
        assertEq(s.stake, 2_500e18);
        assertEq(rootToken.balanceOf(address(reg)), 2_500e18);
        assertEq(rootToken.balanceOf(alice), 1_000e18 - BURN_100);
        assertEq(rootToken.totalSupply(), supply + 3_500e18 - BURN_100);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.AlreadyRegistered.selector, alice));
        reg.register(type(uint256).max);
    }

    function test_registerFailsClosed() public {
        rootToken.mint(bob, 10_000e18);
        vm.startPrank(bob);
        rootToken.approve(address(reg), type(uint256).max);
        // The payer's cap on the burn.
        vm.expectRevert(abi.encodeWithSelector(RootPriceOracle.AmountOutOfBounds.selector, BURN_100, 1, 66e18));
        reg.register(66e18);
        vm.stopPrank();
        // A stale ETH/USD answer: no burn, no registration.
        vm.warp(T0 + 25 hours);
        vm.prank(bob);
        vm.expectRevert(abi.encodeWithSelector(RootPriceOracle.StaleAnswer.selector, 25 hours + 3_600, 25 hours));
        reg.register(type(uint256).max);
        assertFalse(reg.scorer(bob).registered);
    }

    /// §4 (theses on chain): the text is in `Scored`, its hash is computed by the registry (keccak256 of the UTF-8
    /// bytes, eden-core `thesis_hash`), an empty or over-long thesis is refused, and the score id is the order.
    function test_thesisOnChain() public {
        _register(alice);
        _register(bob);
        _freshFeed();
        rootToken.mint(alice, 1_000e18);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.ThesisLength.selector, 0, 16_384));
        reg.score(TOKEN_E, 50e18, "", type(uint256).max);
        bytes memory long = new bytes(16_385);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.ThesisLength.selector, 16_385, 16_384));
        reg.score(TOKEN_E, 50e18, string(long), type(uint256).max);
        string memory text = unicode"Revenue doubled in Q3 — see the ledger.\n\nSources:\nhttps://example.org/q3";
        vm.recordLogs();
        uint256 id = _score(alice, TOKEN_E, text);
        Vm.Log[] memory logs = vm.getRecordedLogs();
        bool seen;
        for (uint256 i; i < logs.length; ++i) {
            if (logs[i].emitter != address(reg) || logs[i].topics[0] != ScorerRegistry.Scored.selector) continue;
            (, bytes32 h,, string memory emitted) = abi.decode(logs[i].data, (uint256, bytes32, uint256, string));
            assertEq(uint256(logs[i].topics[1]), id);
            assertEq(h, keccak256(bytes(text)));
            assertEq(emitted, text);
            seen = true;
        }
        assertTrue(seen);
        assertEq(reg.getScore(id).thesisHash, keccak256(bytes(text)));
        // The longest thesis is accepted; a later score has a later id.
        uint256 id2 = _score(bob, TOKEN_E, string(new bytes(16_384)));
        assertEq(id2, id + 1);
    }

    function test_scoreRules() public {
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.NotRegistered.selector, alice));
        reg.score(TOKEN_E, 50e18, "t", type(uint256).max);
        _register(alice);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.TargetOutOfRange.selector, 100e18 + 1));
        reg.score(TOKEN_E, 100e18 + 1, "t", type(uint256).max);
        uint256 supply = rootToken.totalSupply();
        uint256 id = _score(alice, TOKEN_E, "t1");
        assertEq(rootToken.totalSupply(), supply + 1_000e18 - BURN_100);
        ScorerRegistry.Score memory sc = reg.getScore(id);
        assertEq(sc.scorer, alice);
        assertEq(sc.token, TOKEN_E);
        assertEq(sc.targetScore, 50e18);
        assertEq(sc.burnedRoot, BURN_100);
        assertEq(reg.nextScoreAt(alice), T0 + 14 days);
        // One score every 14 days across all tokens.
        vm.warp(T0 + 14 days - 1);
        _freshFeed();
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.ScoreTooSoon.selector, uint64(T0 + 14 days)));
        reg.score(TOKEN_U, 50e18, "t2", type(uint256).max);
        vm.warp(T0 + 14 days);
        _score(alice, TOKEN_U, "t2");
        assertEq(reg.scoreCount(), 2);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.UnknownScore.selector, 2));
        reg.getScore(2);
    }

    function test_plannedBurnScalesWithThePublishedEstimate() public {
        assertEq(reg.scoreBurnUsd(TOKEN_E), 100e18);
        vm.startPrank(owner);
        reg.setRewardEstimate(TOKEN_E, 1_000e18); // 0.415 * 1000 = $415
        assertEq(reg.scoreBurnUsd(TOKEN_E), 415e18);
        reg.setRewardEstimate(TOKEN_E, 100e18); // $41.5 -> $42 < $100
        assertEq(reg.scoreBurnUsd(TOKEN_E), 100e18);
        reg.setRewardEstimate(TOKEN_E, 241e18); // $100.015 -> $101 (whole dollars, up)
        assertEq(reg.scoreBurnUsd(TOKEN_E), 101e18);
        reg.setRewardEstimate(TOKEN_E, 0);
        vm.stopPrank();
        assertEq(reg.scoreBurnUsd(TOKEN_E), 100e18);
    }

    function test_unstakeEndsEveryPositionAndWaitsSevenDays() public {
        _register(alice);
        _scoreAndProve(alice, TOKEN_E, 0.8e18, 0);
        vm.warp(T0 + 14 days);
        _scoreAndProve(alice, TOKEN_U, 0.8e18, 0);
        assertEq(reg.openTokens(alice).length, 2);
        assertEq(reg.pool(TOKEN_E).totalWeight, 40e18);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.NotUnstaking.selector, alice));
        reg.withdrawStake();
        vm.prank(alice);
        reg.requestUnstake();
        assertEq(reg.openTokens(alice).length, 0);
        assertFalse(reg.position(TOKEN_E, alice).open);
        assertFalse(reg.position(TOKEN_U, alice).open);
        assertEq(reg.pool(TOKEN_E).totalWeight, 0);
        assertEq(reg.maxWeight(TOKEN_E), 0);
        // Unstaking: no score, no proof, no second request.
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.Unstaking.selector, alice));
        reg.requestUnstake();
        vm.warp(T0 + 28 days);
        _freshFeed();
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.Unstaking.selector, alice));
        reg.score(TOKEN_E, 1, "x", type(uint256).max);
        vm.warp(T0 + 21 days - 1);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.CooldownActive.selector, uint64(T0 + 21 days)));
        reg.withdrawStake();
        vm.warp(T0 + 21 days);
        uint256 before = rootToken.balanceOf(alice);
        vm.prank(alice);
        reg.withdrawStake();
        assertEq(rootToken.balanceOf(alice), before + 2_500e18);
        assertFalse(reg.scorer(alice).registered);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.NotRegistered.selector, alice));
        reg.withdrawStake();
        // Re-registering burns again and keeps the 14-day interval.
        _register(alice);
        assertEq(reg.nextScoreAt(alice), T0 + 28 days);
    }

    // ---------------------------------------------------------------- C12 proofs and positions

    function test_proveRules() public {
        _register(alice);
        uint256 id = _score(alice, TOKEN_E, "thesis");
        bytes32[] memory none = new bytes32[](0);
        vm.expectRevert(ScorerRegistry.InvalidProof.selector);
        reg.prove(id, 7, 0.8e18, 0, bytes32(0), none);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.UnknownScore.selector, 99));
        reg.prove(99, 7, 0.8e18, 0, bytes32(0), none);
        vm.expectRevert(abi.encodeWithSelector(RewardMath.BadVerdict.selector, uint8(9)));
        reg.prove(id, 7, 0.8e18, 9, bytes32(0), none);
        vm.expectRevert(abi.encodeWithSelector(RewardMath.FractionOutOfRange.selector, 2e18));
        reg.prove(id, 7, 2e18, 0, bytes32(0), none);
        _prove(id, 0.8e18, 0);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.AlreadyProven.selector, id, uint64(7)));
        reg.prove(id, 7, 0.8e18, 0, bytes32(0), none);
        ScorerRegistry.Position memory p = reg.position(TOKEN_E, alice);
        assertTrue(p.open);
        assertEq(p.weight, 40e18);
        assertEq(p.end, T0 + 30 days);
        assertEq(p.scoreId, id);
        // Only the latest score on a token can be proven.
        vm.warp(T0 + 14 days);
        uint256 id2 = _score(alice, TOKEN_E, "thesis2");
        vm.warp(T0 + 28 days);
        uint256 id3 = _score(alice, TOKEN_E, "thesis3");
        _grade(7, id2, 0.5e18, 0);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.NotLatestScore.selector, id2, id3));
        reg.prove(id2, 7, 0.5e18, 0, bytes32(0), none);
        // Nor any score later than the prove window.
        vm.warp(T0 + 14 days + 30 days + 1);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.ProofTooLate.selector, id2, uint64(T0 + 44 days)));
        reg.prove(id2, 7, 0.5e18, 0, bytes32(0), none);
        // A token without a pool cannot open positions.
        uint256 id4 = _score(alice, address(0xF00), "t4");
        _grade(7, id4, 0.5e18, 0);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.PoolNotConfigured.selector, address(0xF00)));
        reg.prove(id4, 7, 0.5e18, 0, bytes32(0), none);
        // An unstaking scorer's score cannot be proven.
        _register(bob);
        uint256 id5 = _score(bob, TOKEN_E, "t5");
        vm.prank(bob);
        reg.requestUnstake();
        _grade(7, id5, 0.5e18, 0);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.Unstaking.selector, bob));
        reg.prove(id5, 7, 0.5e18, 0, bytes32(0), none);
    }

    /// Seed §5.3 / core `seed_pool_pays_12_8_percent`: q 0.8, 0.6, 0.9 -> 4.44 %, 3.33 %, 5 %; 12.8 % paid.
    function test_seedPoolPays12Point8Percent() public {
        _register(alice);
        _register(bob);
        _register(carol);
        _scoreAndProve(alice, TOKEN_E, 0.8e18, 0);
        _scoreAndProve(bob, TOKEN_E, 0.6e18, 1);
        _scoreAndProve(carol, TOKEN_E, 0.9e18, 0);
        assertEq(reg.pool(TOKEN_E).totalWeight, 115e18);
        assertEq(reg.maxWeight(TOKEN_E), 45e18);
        assertEq(reg.denominatorOf(TOKEN_E), 900e18);
        _fundEth(TOKEN_E, 604_800_000); // 1,000 per second for 7 days
        vm.warp(T0 + 7 days);
        reg.poke(TOKEN_E);
        assertEq(reg.owedStored(TOKEN_E, alice), 26_880_000);
        assertEq(reg.owedStored(TOKEN_E, bob), 20_160_000);
        assertEq(reg.owedStored(TOKEN_E, carol), 30_240_000);
        ScorerRegistry.Pool memory p = reg.pool(TOKEN_E);
        assertEq(p.returned, 527_520_000);
        assertEq(reg.undrippedStored(TOKEN_E), 0);
        assertEq(p.funded, 26_880_000 + 20_160_000 + 30_240_000 + 527_520_000); // dust 0
        uint256 before = carol.balance;
        vm.prank(carol);
        assertEq(reg.claim(TOKEN_E), 30_240_000);
        assertEq(carol.balance, before + 30_240_000);
        assertEq(reg.pool(TOKEN_E).paid, 30_240_000);
        vm.prank(carol);
        assertEq(reg.claim(TOKEN_E), 0);
        assertEq(reg.sweepReturned(TOKEN_E), 527_520_000);
        assertEq(buyback.balance, 527_520_000);
        vm.expectRevert(ScorerRegistry.NothingToSweep.selector);
        reg.sweepReturned(TOKEN_E);
    }

    /// A re-score replaces the position when its grade is proven; a position expires 30 days after its proof.
    function test_replacementAndExpiry() public {
        _register(alice);
        _scoreAndProve(alice, TOKEN_E, WAD, 0); // omega 50, alone: 5 % of the stream
        _fundEth(TOKEN_E, 7 * DAY * 1_000); // 1,000 per second
        vm.warp(T0 + 1 days);
        reg.poke(TOKEN_E);
        assertEq(reg.owedStored(TOKEN_E, alice), 1 days * 1_000 / 20);
        // Re-score at day 14, proven at day 15: the old position earns until day 15.
        vm.warp(T0 + 14 days);
        uint256 id = _score(alice, TOKEN_E, "again");
        assertTrue(reg.position(TOKEN_E, alice).open);
        vm.warp(T0 + 15 days);
        _fundEth(TOKEN_E, 7 * DAY * 1_000);
        vm.warp(T0 + 16 days);
        _prove(id, 0.5e18, 0); // replaced at day 16
        ScorerRegistry.Position memory p = reg.position(TOKEN_E, alice);
        assertEq(p.weight, 25e18);
        assertEq(p.end, T0 + 16 days + 30 days);
        // Old drip: 7 days at 1,000/s (5 %), new drip from day 15: 1 day at 1,000/s (5 %).
        assertEq(reg.owedStored(TOKEN_E, alice), 7 days * 1_000 / 20 + 1 days * 1_000 / 20);
        // The old queue entry (day 30) is skipped at expiry time; the new one ends at day 46.
        vm.warp(T0 + 31 days);
        reg.poke(TOKEN_E);
        assertTrue(reg.position(TOKEN_E, alice).open);
        vm.warp(T0 + 46 days);
        reg.poke(TOKEN_E);
        assertFalse(reg.position(TOKEN_E, alice).open);
        assertEq(reg.openTokens(alice).length, 0);
        assertEq(reg.pool(TOKEN_E).totalWeight, 0);
        ScorerRegistry.Pool memory pl = reg.pool(TOKEN_E);
        uint256 owed = reg.owedStored(TOKEN_E, alice);
        assertEq(owed, 7 days * 1_000 / 20 + 7 days * 1_000 / 20);
        assertEq(pl.funded, owed + pl.returned); // nothing undripped, no dust
    }

    /// An expiry in the middle of a drip returns the rest from that instant (core `expiry_mid_drip_returns_the_rest`).
    function test_expiryMidDrip() public {
        _register(alice);
        _scoreAndProve(alice, TOKEN_E, WAD, 0);
        vm.warp(T0 + 29 days);
        _fundEth(TOKEN_E, 7 * DAY * 20); // 20 per second: 1 per second to the capped scorer
        vm.warp(T0 + 36 days);
        reg.poke(TOKEN_E);
        assertEq(reg.owedStored(TOKEN_E, alice), 1 days);
        assertEq(reg.pool(TOKEN_E).returned, 7 days * 20 - 1 days);
        assertFalse(reg.position(TOKEN_E, alice).open);
    }

    function test_fundingRules() public {
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.PoolNotConfigured.selector, address(0xF00)));
        reg.fund(address(0xF00), 1);
        vm.expectRevert(ScorerRegistry.ZeroAmount.selector);
        reg.fund(TOKEN_E, 0);
        vm.deal(address(this), 10);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.WrongValue.selector, 9, 10));
        reg.fund{value: 9}(TOKEN_E, 10);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.WrongValue.selector, 1, 0));
        reg.fund{value: 1}(TOKEN_U, 10);
        // ERC-20 pool.
        usdg.mint(address(this), 1_000e6);
        usdg.approve(address(reg), type(uint256).max);
        reg.fund(TOKEN_U, 700e6);
        assertEq(usdg.balanceOf(address(reg)), 700e6);
        // A second funding halfway restarts the drip with U + a (C11).
        vm.warp(T0 + 3.5 days);
        reg.fund(TOKEN_U, 300e6);
        ScorerRegistry.Pool memory p = reg.pool(TOKEN_U);
        assertEq(p.dripAmount, 350e6 + 300e6);
        assertEq(p.dripStart, T0 + 3.5 days);
        assertEq(p.funded, 1_000e6);
        // No scorer: everything released is returned, and swept in the pair asset.
        vm.warp(T0 + 20 days);
        assertEq(reg.sweepReturned(TOKEN_U), 1_000e6);
        assertEq(usdg.balanceOf(buyback), 1_000e6);
    }

    /// Second review (check): `fund(token, 1 wei)` by anyone restarted the 7-day drip of the whole undripped balance,
    /// so hourly dust turned the linear release into a decay (about 63 % released after 7 days) and moved rewards
    /// from current positions to later ones. A funding below 1 % of the undripped balance now reverts; the release
    /// stays linear, exactly all of it after 7 days.
    function test_secondReview_hourlyDustCannotRestartTheDrip() public {
        usdg.mint(address(this), 1_000e6);
        usdg.approve(address(reg), type(uint256).max);
        reg.fund(TOKEN_U, 700e6);
        for (uint256 h = 1; h < 7 * 24; ++h) {
            vm.warp(T0 + h * 1 hours);
            uint256 minimum = reg.minFunding(TOKEN_U);
            vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.FundingTooSmall.selector, 1, minimum));
            reg.fund(TOKEN_U, 1);
        }
        ScorerRegistry.Pool memory p = reg.pool(TOKEN_U);
        assertEq(p.dripStart, T0, "the drip was never restarted");
        // With no scorer, all of it is released (and returned) after 7 days: the linear release held.
        vm.warp(T0 + 7 days);
        assertEq(reg.sweepReturned(TOKEN_U), 700e6);
        // 1 % of the undripped balance, rounded up, restarts it as C11 says; one unit less does not.
        reg.fund(TOKEN_U, 100e6);
        vm.warp(T0 + 7 days + 1 hours);
        uint256 undripped = 100e6 - (100e6 * uint256(1 hours)) / 7 days;
        assertEq(reg.minFunding(TOKEN_U), (undripped + 99) / 100);
        vm.expectRevert(
            abi.encodeWithSelector(ScorerRegistry.FundingTooSmall.selector, (undripped + 99) / 100 - 1, (undripped + 99) / 100)
        );
        reg.fund(TOKEN_U, (undripped + 99) / 100 - 1);
        reg.fund(TOKEN_U, (undripped + 99) / 100);
        assertEq(reg.pool(TOKEN_U).dripStart, T0 + 7 days + 1 hours);
    }

    function test_claimInTheStablecoin() public {
        _register(alice);
        _scoreAndProve(alice, TOKEN_U, 0.6e18, 0);
        usdg.mint(address(this), 1_000e6);
        usdg.approve(address(reg), type(uint256).max);
        reg.fund(TOKEN_U, 1_000e6);
        vm.warp(T0 + 7 days);
        vm.prank(alice);
        // Alone: 5 %, less the index floor: A = floor(1e9 * 1e18 / 600e18) = 1,666,666; owed = 30 * A = 49,999,980.
        assertEq(reg.claim(TOKEN_U), 49_999_980);
        assertEq(usdg.balanceOf(alice), 49_999_980);
        ScorerRegistry.Pool memory p = reg.pool(TOKEN_U);
        assertEq(p.funded - p.paid - p.returned, 20); // dust
        assertEq(p.returned, 1_000e6 - 50e6); // R - ceil(R * W / D)
    }

    /// omega_max in weight classes: stale only on the high side.
    function test_maxWeightIsStaleOnlyHigh() public {
        _register(alice);
        _register(bob);
        _scoreAndProve(alice, TOKEN_E, 0.9e18, 0); // 45e18
        _scoreAndProve(bob, TOKEN_E, 0.9e18 - 1e13, 0); // 44.9995e18: same class
        assertEq(RewardMath.classOf(45e18), RewardMath.classOf(reg.position(TOKEN_E, bob).weight));
        assertEq(reg.maxWeight(TOKEN_E), 45e18);
        vm.prank(alice);
        reg.requestUnstake();
        // The class still holds bob: the tracked max stays at 45e18 (>= the true 44.9995e18).
        assertEq(reg.maxWeight(TOKEN_E), 45e18);
        assertEq(reg.denominatorOf(TOKEN_E), 900e18);
        vm.prank(bob);
        reg.requestUnstake();
        assertEq(reg.maxWeight(TOKEN_E), 0);
        assertEq(reg.denominatorOf(TOKEN_E), 0);
    }

    function test_lowQualityAndCopiesOpenZeroWeightPositions() public {
        _register(alice);
        _register(bob);
        _scoreAndProve(alice, TOKEN_E, 0.29e18, 0);
        _scoreAndProve(bob, TOKEN_E, 0.95e18, 3);
        assertTrue(reg.position(TOKEN_E, alice).open);
        assertEq(reg.position(TOKEN_E, alice).weight, 0);
        assertEq(reg.position(TOKEN_E, bob).weight, 0);
        assertEq(reg.pool(TOKEN_E).totalWeight, 0);
        _fundEth(TOKEN_E, 1e18);
        vm.warp(T0 + 8 days);
        reg.poke(TOKEN_E);
        assertEq(reg.pool(TOKEN_E).returned, 1e18);
    }

    /// The 1-of-1 committee's approval of epoch 1's `root` for this contract (C7a).
    function _approve(EpochRegistry er, uint256 pk, bytes32 root, uint64 expiry)
        internal
        view
        returns (EpochRegistry.Approval[] memory)
    {
        (uint8 v, bytes32 rs, bytes32 ss) = vm.sign(pk, er.epochRootDigest(1, root, bytes32(0), address(this), expiry));
        return Approvals.one(vm.addr(pk), abi.encodePacked(rs, ss, v));
    }

    /// End to end with the real EpochRegistry: the quality leaf must be in a final root.
    function test_proofAgainstTheRealEpochRegistry() public {
        EpochRegistry er = new EpochRegistry(owner, vm.addr(0xA11CE), makeAddr("adj"), 1 ether, 1);
        ScorerRegistry r2 = new ScorerRegistry(owner, rootToken, IQualityVerifier(address(er)), IRootBurnPricer(address(oracle)), buyback);
        vm.prank(owner);
        r2.configurePool(TOKEN_E, address(0));
        _freshFeed();
        rootToken.mint(alice, 10_000e18);
        vm.startPrank(alice);
        rootToken.approve(address(r2), type(uint256).max);
        r2.register(type(uint256).max);
        uint256 id = r2.score(TOKEN_E, 70e18, "my thesis", type(uint256).max);
        vm.stopPrank();
        vm.warp(block.timestamp + 1); // the grading epoch is proposed after the score
        bytes32[] memory leaves = new bytes32[](3);
        leaves[0] = r2.qualityLeaf(id, 0.8e18, 1, keccak256("earlier"));
        leaves[1] = er.scoreLeaf(TOKEN_E, 0.5e18);
        leaves[2] = er.qualityLeaf(
            EdenLeaves.Grade(address(r2), id + 1, bob, TOKEN_E, keccak256("other"), 0.4e18, 0, bytes32(0))
        );
        assertEq(
            leaves[0],
            er.qualityLeaf(
                EdenLeaves.Grade(address(r2), id, alice, TOKEN_E, keccak256("my thesis"), 0.8e18, 1, keccak256("earlier"))
            )
        );
        bytes32 root = MerkleBuilder.root(leaves);
        vm.deal(address(this), 1 ether);
        er.propose{value: 1 ether}(
            1, root, bytes32(0), uint64(block.timestamp + 1 days), _approve(er, 0xA11CE, root, uint64(block.timestamp + 1 days))
        );
        bytes32[] memory proof = MerkleBuilder.proof(leaves, 0);
        // Pending root: not final, the proof is refused.
        vm.expectRevert();
        r2.prove(id, 1, 0.8e18, 1, keccak256("earlier"), proof);
        vm.warp(block.timestamp + 72 hours);
        er.finalize(1);
        // A wrong grade is refused; the real one opens the position (similar: c = 1).
        vm.expectRevert(ScorerRegistry.InvalidProof.selector);
        r2.prove(id, 1, 0.9e18, 1, keccak256("earlier"), proof);
        r2.prove(id, 1, 0.8e18, 1, keccak256("earlier"), proof);
        assertEq(r2.position(TOKEN_E, alice).weight, 40e18);
    }
}

/// Review findings 1 and 2, performed against the real EpochRegistry (signed, proposed, finalized roots).
contract ScorerRegistryReviewTest is ScorerFixture {
    uint256 internal constant SIGNER_PK = 0xA11CE;
    EpochRegistry internal er;
    ScorerRegistry internal r2;
    address internal adj = makeAddr("adjudicator");
    address internal alice = makeAddr("alice");
    address internal mallory = makeAddr("mallory");
    address internal griefer = makeAddr("griefer");
    uint64 internal nextEpoch = 1;

    function setUp() public override {
        super.setUp();
        er = new EpochRegistry(owner, vm.addr(SIGNER_PK), adj, 1 ether, 1);
        r2 = new ScorerRegistry(owner, rootToken, IQualityVerifier(address(er)), IRootBurnPricer(address(oracle)), buyback);
        vm.startPrank(owner);
        r2.configurePool(TOKEN_E, address(0));
        r2.configurePool(TOKEN_U, address(usdg));
        vm.stopPrank();
        _registerIn(r2, alice, 10_000e18);
        _registerIn(r2, mallory, 10_000e18);
        vm.deal(address(this), 1_000 ether);
    }

    function _scoreOn(address who, address token, string memory thesis) internal returns (uint256 id) {
        _freshFeed();
        vm.prank(who);
        id = r2.score(token, 70e18, thesis, type(uint256).max);
    }

    /// Proposes (signed for this contract) and finalizes the next epoch over `leaves`; returns its number.
    function _final(bytes32[] memory leaves) internal returns (uint64 epoch) {
        epoch = nextEpoch++;
        bytes32 root = MerkleBuilder.root(leaves);
        uint64 expiry = uint64(block.timestamp + 1 days);
        (uint8 v, bytes32 rs, bytes32 ss) =
            vm.sign(SIGNER_PK, er.epochRootDigest(epoch, root, bytes32(0), address(this), expiry));
        er.propose{value: 1 ether}(epoch, root, bytes32(0), expiry, Approvals.one(vm.addr(SIGNER_PK), abi.encodePacked(rs, ss, v)));
        vm.warp(block.timestamp + 72 hours);
        er.finalize(epoch);
    }

    function _two(bytes32 a, bytes32 b) internal pure returns (bytes32[] memory l) {
        l = new bytes32[](2);
        (l[0], l[1]) = (a, b);
    }

    /// Finding 1: mallory copies alice's public thesis hash onto a richer token and proves it with alice's leaf.
    function test_review1_aCopiedThesisHashInheritsNothing() public {
        string memory thesis = "alice's thesis";
        uint256 aliceId = _scoreOn(alice, TOKEN_E, thesis);
        vm.warp(block.timestamp + 1);
        bytes32[] memory leaves = _two(r2.qualityLeaf(aliceId, 0.9e18, 0, bytes32(0)), er.scoreLeaf(TOKEN_E, 1));
        uint64 e1 = _final(leaves);
        bytes32[] memory proof = MerkleBuilder.proof(leaves, 0);
        r2.prove(aliceId, e1, 0.9e18, 0, bytes32(0), proof);
        assertEq(r2.position(TOKEN_E, alice).weight, 45e18);
        // Mallory scores the same hash on another token: alice's leaf names alice's score, so it proves nothing.
        uint256 copyId = _scoreOn(mallory, TOKEN_U, thesis);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.EpochNotAfterScore.selector, e1, er.proposedAt(e1), uint64(block.timestamp)));
        r2.prove(copyId, e1, 0.9e18, 0, bytes32(0), proof);
        // Even in a root proposed after her score, alice's grade is not mallory's.
        vm.warp(block.timestamp + 1);
        uint64 e2 = _final(leaves);
        vm.expectRevert(ScorerRegistry.InvalidProof.selector);
        r2.prove(copyId, e2, 0.9e18, 0, bytes32(0), proof);
        assertFalse(r2.position(TOKEN_U, mallory).open);
    }

    /// Finding 1: a grade committed before the score existed (the next score id predicted) is refused.
    function test_review1_aGradeFromAnEpochBeforeTheScoreIsRefused() public {
        uint256 predicted = r2.scoreCount();
        string memory thesis = "later";
        bytes32 leaf = er.qualityLeaf(
            EdenLeaves.Grade(address(r2), predicted, alice, TOKEN_E, keccak256(bytes(thesis)), 1e18, 0, bytes32(0))
        );
        bytes32[] memory leaves = _two(leaf, er.scoreLeaf(TOKEN_E, 1));
        uint64 e1 = _final(leaves);
        uint256 id = _scoreOn(alice, TOKEN_E, thesis);
        assertEq(id, predicted);
        assertEq(r2.qualityLeaf(id, 1e18, 0, bytes32(0)), leaf);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.EpochNotAfterScore.selector, e1, er.proposedAt(e1), uint64(block.timestamp)));
        r2.prove(id, e1, 1e18, 0, bytes32(0), MerkleBuilder.proof(leaves, 0));
    }

    /// Fuzz, finding 1: a grade opens no score but its own (any other id, or the right id with another token,
    /// scorer or thesis, is not in the root).
    function testFuzz_review1_aGradeProvesOnlyItsOwnScore(uint256 seed) public {
        uint256 a = _scoreOn(alice, TOKEN_E, string(abi.encode("a", seed)));
        uint256 m = _scoreOn(mallory, TOKEN_E, string(abi.encode("m", seed)));
        vm.warp(block.timestamp + 1);
        uint256 q = bound(seed, 0.3e18, 1e18);
        bytes32[] memory leaves = _two(r2.qualityLeaf(a, q, 0, bytes32(0)), er.scoreLeaf(TOKEN_E, seed));
        uint64 e = _final(leaves);
        bytes32[] memory proof = MerkleBuilder.proof(leaves, 0);
        vm.expectRevert(ScorerRegistry.InvalidProof.selector);
        r2.prove(m, e, q, 0, bytes32(0), proof);
        r2.prove(a, e, q, 0, bytes32(0), proof);
    }

    /// Finding 2: a griefer proves a victim's score with a worse later leaf (a faulty "copy" re-grade) to lock it at
    /// weight 0; the earliest epoch's grade now wins and anyone restores it. The adjudicator's override wins over every
    /// leaf and re-weights the open position from then on.
    function test_review2_earliestGradeWinsAndTheOverrideWinsOverAll() public {
        uint256 id = _scoreOn(alice, TOKEN_E, "victim");
        vm.warp(block.timestamp + 1);
        bytes32[] memory good = _two(r2.qualityLeaf(id, 0.8e18, 0, bytes32(0)), er.scoreLeaf(TOKEN_E, 1));
        uint64 e1 = _final(good);
        bytes32[] memory bad = _two(r2.qualityLeaf(id, 0.8e18, 3, keccak256("x")), er.scoreLeaf(TOKEN_E, 2));
        uint64 e2 = _final(bad);
        vm.prank(griefer);
        r2.prove(id, e2, 0.8e18, 3, keccak256("x"), MerkleBuilder.proof(bad, 0));
        assertEq(r2.position(TOKEN_E, alice).weight, 0);
        // Anyone proves the earlier grade: it wins.
        r2.prove(id, e1, 0.8e18, 0, bytes32(0), MerkleBuilder.proof(good, 0));
        assertEq(r2.position(TOKEN_E, alice).weight, 40e18);
        assertEq(r2.pool(TOKEN_E).totalWeight, 40e18);
        assertEq(r2.getScore(id).gradeEpoch, e1);
        vm.prank(griefer);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.AlreadyProven.selector, id, e1));
        r2.prove(id, e2, 0.8e18, 3, keccak256("x"), MerkleBuilder.proof(bad, 0));
        // Rewards accrue at 40 until the override.
        r2.fund{value: 7 ether}(TOKEN_E, 7 ether);
        vm.warp(block.timestamp + 1 days);
        r2.poke(TOKEN_E);
        uint256 owedAt40 = r2.owedStored(TOKEN_E, alice);
        assertGt(owedAt40, 0);
        // Only the adjudicator overrides; its grade re-weights the position at once.
        vm.prank(griefer);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.NotAdjudicator.selector, griefer));
        r2.overrideGrade(id, 0, 3);
        vm.prank(adj);
        r2.overrideGrade(id, 0.5e18, 2); // derivative: 0.5 * 0.5 * 50 = 12.5
        assertEq(r2.position(TOKEN_E, alice).weight, 12.5e18);
        assertEq(r2.pool(TOKEN_E).totalWeight, 12.5e18);
        assertEq(r2.maxWeight(TOKEN_E) >= 12.5e18, true);
        assertEq(r2.owedStored(TOKEN_E, alice), owedAt40); // what accrued before stays
        // No leaf can change it any more.
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.GradeIsOverridden.selector, id));
        r2.prove(id, e1, 0.8e18, 0, bytes32(0), MerkleBuilder.proof(good, 0));
    }

    /// Proposes `epoch` over `leaves` (signed for this contract); returns the root.
    function _propose(uint64 epoch, bytes32[] memory leaves) internal returns (bytes32 root) {
        root = MerkleBuilder.root(leaves);
        uint64 expiry = uint64(block.timestamp + 1 days);
        (uint8 v, bytes32 rs, bytes32 ss) =
            vm.sign(SIGNER_PK, er.epochRootDigest(epoch, root, bytes32(0), address(this), expiry));
        er.propose{value: 1 ether}(epoch, root, bytes32(0), expiry, Approvals.one(vm.addr(SIGNER_PK), abi.encodePacked(rs, ss, v)));
    }

    /// Second review, item 3 (residual): the epoch grading a score is disputed, the adjudicator upholds the challenge
    /// 20 days later and the corrected root is re-proposed and final only after the score's 30 days. The proof
    /// deadline used to be the score's + 30 days: the score could never be proven. It now runs 30 days from the
    /// re-proposal, since the epoch was first proposed inside the score's window; an epoch first proposed after that
    /// window extends nothing.
    function test_secondReview_aDisputedGradeIsNotLockedOut() public {
        uint256 id = _scoreOn(alice, TOKEN_E, "graded in a disputed epoch");
        uint64 at = r2.getScore(id).at;
        vm.warp(block.timestamp + 1 days);
        uint64 e = nextEpoch++;
        bytes32[] memory wrong = _two(r2.qualityLeaf(id, 0.1e18, 0, bytes32(0)), er.scoreLeaf(TOKEN_E, 1));
        _propose(e, wrong);
        uint64 first = er.firstProposedAt(e);
        er.challenge{value: 1 ether}(e);
        vm.warp(block.timestamp + 6 days); // the adjudicator rules late, just inside its 7 days
        vm.prank(adj);
        er.resolve(e, true);
        vm.warp(at + 29 days); // the corrected root is re-proposed a day before the old deadline
        bytes32[] memory right = _two(r2.qualityLeaf(id, 0.8e18, 0, bytes32(0)), er.scoreLeaf(TOKEN_E, 2));
        _propose(e, right);
        assertEq(er.firstProposedAt(e), first, "kept across the re-proposal");
        er.challenge{value: 1 ether}(e); // and challenged again, rejected after 6 days
        vm.warp(block.timestamp + 6 days);
        vm.prank(adj);
        er.resolve(e, false);
        vm.warp(block.timestamp + 72 hours);
        er.finalize(e);
        assertGt(block.timestamp, at + r2.PROVE_WINDOW(), "final only after the score's own 30 days");
        r2.prove(id, e, 0.8e18, 0, bytes32(0), MerkleBuilder.proof(right, 0));
        assertEq(r2.position(TOKEN_E, alice).weight, 40e18);
        assertEq(r2.proveDeadline(at, first, er.proposedAt(e)), at + 29 days + r2.PROVE_WINDOW());
        // An epoch first proposed after the score's window extends nothing.
        assertEq(r2.proveDeadline(at, at + 30 days + 1, at + 30 days + 1), at + r2.PROVE_WINDOW());
        assertEq(r2.proveDeadline(at, at + 30 days, at + 40 days), at + 70 days);
    }

    /// Finding 2: a scorer held an unproven score and proved it when the pool was richest; proofs are now bounded to
    /// PROVE_WINDOW after the score.
    function test_review2_aScoreCannotBeProvenLate() public {
        uint256 id = _scoreOn(alice, TOKEN_E, "held back");
        vm.warp(block.timestamp + 1);
        bytes32[] memory leaves = _two(r2.qualityLeaf(id, 0.8e18, 0, bytes32(0)), er.scoreLeaf(TOKEN_E, 1));
        uint64 e = _final(leaves);
        // An epoch proposed right after the score, undisputed: 30 days from its proposal.
        uint64 deadline = r2.proveDeadline(r2.getScore(id).at, er.firstProposedAt(e), er.proposedAt(e));
        assertEq(deadline, er.proposedAt(e) + r2.PROVE_WINDOW());
        vm.warp(deadline + 1);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.ProofTooLate.selector, id, deadline));
        r2.prove(id, e, 0.8e18, 0, bytes32(0), MerkleBuilder.proof(leaves, 0));
        // The adjudicator can still grade it (and so open it while the scorer is eligible).
        vm.prank(adj);
        r2.overrideGrade(id, 0.6e18, 0);
        assertEq(r2.position(TOKEN_E, alice).weight, 30e18);
    }
}

/// Stands in for FeeLanes' scorer lane (pull by the registry).
contract MockFeeSource {
    mapping(address => mapping(address => uint256)) public lane;
    mapping(address => bool) public launched;
    mapping(address => address) public quoteOf;

    /// Marks `token` as a launch in `quote` (what FeeLanes reads from its launchpad).
    function launch(address token, address quote) external {
        launched[token] = true;
        quoteOf[token] = quote;
    }

    function launchQuote(address token) external view returns (bool, address) {
        return (launched[token], quoteOf[token]);
    }

    function credit(address token, address asset, uint256 amount) external payable {
        lane[token][asset] += amount;
    }

    function pullScorerPool(address token, address asset) external returns (uint256 amount) {
        amount = lane[token][asset];
        lane[token][asset] = 0;
        if (asset == address(0)) {
            (bool ok,) = msg.sender.call{value: amount}("");
            require(ok, "eth");
        } else {
            IERC20(asset).transfer(msg.sender, amount);
        }
    }
}

contract ScorerRegistryFeeSourceTest is ScorerFixture {
    function test_pullFeesDripsTheScorerLane() public {
        MockFeeSource src = new MockFeeSource();
        vm.expectRevert(ScorerRegistry.NoFeeSource.selector);
        reg.pullFees(TOKEN_E);
        vm.prank(owner);
        reg.setFeeSource(IScorerFeeSource(address(src)));
        vm.deal(address(this), 10 ether);
        src.credit{value: 3 ether}(TOKEN_E, address(0), 3 ether);
        assertEq(reg.pullFees(TOKEN_E), 3 ether);
        ScorerRegistry.Pool memory p = reg.pool(TOKEN_E);
        assertEq(p.funded, 3 ether);
        assertEq(p.dripAmount, 3 ether);
        vm.expectRevert(ScorerRegistry.ZeroAmount.selector);
        reg.pullFees(TOKEN_E);
        // ERC-20 lane.
        usdg.mint(address(src), 500e6);
        src.credit(TOKEN_U, address(usdg), 500e6);
        assertEq(reg.pullFees(TOKEN_U), 500e6);
        assertEq(usdg.balanceOf(address(reg)), 500e6);
        // Stray ETH is refused.
        (bool ok,) = address(reg).call{value: 1}("");
        assertFalse(ok);
    }
}

/// #40: a launch's reward pool is configured from its launch, in its quote asset, with no owner call; nobody can
/// choose another asset, configure a token that is not a launch, or configure a pool twice.
contract ScorerRegistryLaunchPoolTest is ScorerFixture {
    MockFeeSource src;
    address constant LAUNCH_U = address(0xE0E2); // launched in USDG, never configured by the owner
    address constant LAUNCH_E = address(0xE0E3); // launched in ETH, never configured by the owner
    address constant STRANGER = address(0xE0E4); // not a launch

    function setUp() public override {
        super.setUp();
        src = new MockFeeSource();
        src.launch(LAUNCH_U, address(usdg));
        src.launch(LAUNCH_E, address(0));
        vm.prank(owner);
        reg.setFeeSource(IScorerFeeSource(address(src)));
    }

    function test_aLaunchsFirstScorerProvesWithoutAnOwnerCall() public {
        address alice = makeAddr("alice");
        _register(alice);
        assertFalse(reg.pool(LAUNCH_U).configured);
        uint256 id = _scoreAndProve(alice, LAUNCH_U, 0.8e18, 1);
        ScorerRegistry.Pool memory p = reg.pool(LAUNCH_U);
        assertTrue(p.configured);
        assertEq(p.asset, address(usdg), "the launch's quote asset, where its scorer lane is paid");
        assertEq(p.dripStart, block.timestamp);
        ScorerRegistry.Position memory pos = reg.position(LAUNCH_U, alice);
        assertTrue(pos.open, "the proof opened a position");
        assertEq(pos.scoreId, id);
    }

    function test_fundAndPullFeesConfigureALaunchsPoolToo() public {
        vm.deal(address(this), 2 ether);
        reg.fund{value: 1 ether}(LAUNCH_E, 1 ether);
        assertEq(reg.pool(LAUNCH_E).asset, address(0));
        // USDG lane of a launch not yet configured: pulled into a pool in USDG.
        usdg.mint(address(src), 500e6);
        src.credit(LAUNCH_U, address(usdg), 500e6);
        assertEq(reg.pullFees(LAUNCH_U), 500e6);
        assertEq(reg.pool(LAUNCH_U).asset, address(usdg));
    }

    function test_anyoneConfiguresALaunchOnceInItsQuoteAndNothingElse() public {
        vm.prank(makeAddr("anyone"));
        reg.configureLaunchPool(LAUNCH_U);
        assertEq(reg.pool(LAUNCH_U).asset, address(usdg));
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.PoolAlreadyConfigured.selector, LAUNCH_U));
        reg.configureLaunchPool(LAUNCH_U);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.NotALaunch.selector, STRANGER));
        reg.configureLaunchPool(STRANGER);
        // Proving on a token that is neither configured nor a launch still fails as it always did.
        address bob = makeAddr("bob");
        _register(bob);
        uint256 id = _score(bob, STRANGER, "a thesis on a token nobody launched");
        _grade(7, id, 0.8e18, 1);
        vm.expectRevert(abi.encodeWithSelector(ScorerRegistry.PoolNotConfigured.selector, STRANGER));
        reg.prove(id, 7, 0.8e18, 1, bytes32(0), new bytes32[](0));
    }

    /// The attack the old owner call allowed by mistake: a launch's pool in an asset its lane is not paid in
    /// (its fees would sit in the lanes, unpullable). The owner cannot do it now either.
    function test_theOwnerCannotConfigureALaunchInAnotherAsset() public {
        vm.prank(owner);
        vm.expectRevert(
            abi.encodeWithSelector(ScorerRegistry.WrongPoolAsset.selector, LAUNCH_E, address(usdg), address(0))
        );
        reg.configurePool(LAUNCH_E, address(usdg));
        vm.prank(owner);
        reg.configurePool(LAUNCH_E, address(0));
        assertTrue(reg.pool(LAUNCH_E).configured);
        // A token that is not a launch is the owner's to configure, in any asset.
        vm.prank(owner);
        reg.configurePool(STRANGER, address(usdg));
    }
}
