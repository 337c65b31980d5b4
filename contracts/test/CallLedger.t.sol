// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test} from "forge-std/Test.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {CallLedger} from "../src/CallLedger.sol";
import {CallMath} from "../src/libraries/CallMath.sol";
import {OracleMath} from "../src/libraries/OracleMath.sol";
import {TestERC20} from "./utils/TestERC20.sol";
import {V3Deployer, IV3Factory, IV3Pool, V3PoolDriver} from "./utils/V3Deployer.sol";

/// Shared setup: stake token, USDG (6 decimals), a ledger with minStake 100, nine staked agents, and a pushed-price asset.
abstract contract CallLedgerFixture is Test {
    uint256 internal constant ONE = 1e18;
    uint256 internal constant MIN_STAKE = 100e18;
    uint64 internal constant T0 = 1_750_000_000;
    uint64 internal constant HOUR = 3_600;
    uint8 internal constant UP = 1;
    uint8 internal constant DOWN = 0;

    CallLedger internal ledger;
    TestERC20 internal stakeToken;
    TestERC20 internal usdg;
    address internal owner = makeAddr("owner");
    address internal updater = makeAddr("updater");
    address internal constant ASSET = address(0xA5A5);
    address[10] internal agents;

    function setUp() public virtual {
        vm.warp(T0);
        stakeToken = new TestERC20("Stake", "STK", 18);
        usdg = new TestERC20("USDG", "USDG", 6);
        ledger = new CallLedger(owner, IERC20(address(stakeToken)), address(usdg), MIN_STAKE, true);
        for (uint256 i = 1; i < 10; ++i) {
            agents[i] = makeAddr(string.concat("agent", vm.toString(i)));
            _stake(agents[i], MIN_STAKE);
        }
        vm.prank(owner);
        ledger.setUpdater(ASSET, updater);
        _push(ASSET, 150 * ONE);
    }

    function _stake(address who, uint256 amount) internal {
        stakeToken.mint(who, amount);
        vm.startPrank(who);
        stakeToken.approve(address(ledger), amount);
        ledger.stake(amount);
        vm.stopPrank();
    }

    function _push(address asset, uint256 price) internal {
        vm.prank(updater);
        ledger.pushPrice(asset, price);
    }

    function _salt(uint256 i) internal pure returns (bytes32) {
        return bytes32(i);
    }

    function _commit(uint256 a, address asset, uint8 dir, uint64 window, bytes32 salt) internal returns (uint256 id) {
        bytes32 c = ledger.callCommitment(agents[a], asset, dir, window, salt);
        vm.prank(agents[a]);
        id = ledger.commit(c);
    }

    /// Commits `a`'s call `MIN_REVEAL_AGE` before now (the clock goes back, then returns), so it can be revealed now.
    function _commitAged(uint256 a, address asset, uint8 dir, uint64 window, bytes32 salt) internal returns (uint256 id) {
        uint256 t = block.timestamp;
        vm.warp(t - ledger.MIN_REVEAL_AGE());
        id = _commit(a, asset, dir, window, salt);
        vm.warp(t);
    }

    /// Commits `a`'s call, aged so it can be revealed now; `_reveal` opens it (split so a test can expect the
    /// reveal's events).
    function _commitOnly(uint256 a, address asset, uint8 dir, uint64 window) internal returns (uint256 id) {
        id = _commitAged(a, asset, dir, window, keccak256(abi.encode(a, ledger.callCount())));
    }

    function _reveal(uint256 id, uint256 a, address asset, uint8 dir, uint64 window) internal {
        vm.prank(agents[a]);
        ledger.reveal(id, asset, dir, window, keccak256(abi.encode(a, id)));
    }

    /// Commit and reveal `a`'s call in one go.
    function _call(uint256 a, address asset, uint8 dir, uint64 window) internal returns (uint256 id) {
        bytes32 salt = keccak256(abi.encode(a, ledger.callCount()));
        id = _commitAged(a, asset, dir, window, salt);
        vm.prank(agents[a]);
        ledger.reveal(id, asset, dir, window, salt);
    }

    function _rec(uint256 a) internal view returns (CallLedger.AgentRecord memory) {
        return ledger.agentRecord(agents[a]);
    }
}

contract CallLedgerTest is CallLedgerFixture {
    event Consensus(
        address indexed asset,
        uint64 indexed window,
        uint64 indexed bucket,
        uint8 direction,
        uint16 strengthBps,
        uint64 voters,
        uint256 upWeight,
        uint256 downWeight
    );

    // ---------------------------------------------------------------- construction and admin

    function test_constructorChecks() public {
        vm.expectRevert(CallLedger.ZeroAddress.selector);
        new CallLedger(owner, IERC20(address(0)), address(usdg), MIN_STAKE, true);
        vm.expectRevert(CallLedger.ZeroAddress.selector);
        new CallLedger(owner, IERC20(address(stakeToken)), address(0), MIN_STAKE, true);
        vm.expectRevert(CallMath.ZeroMinStake.selector);
        new CallLedger(owner, IERC20(address(stakeToken)), address(usdg), 0, true);
        assertEq(ledger.consensusQuorum(), 3);
        assertEq(ledger.consensusThresholdBps(), 6_667);
        assertEq(ledger.REVEAL_DEADLINE(), 3_600);
        assertEq(ledger.TWAP_WINDOW(), 300);
    }

    function test_setConsensusParams() public {
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, address(this)));
        ledger.setConsensusParams(2, 6_000);
        vm.startPrank(owner);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.ThresholdAbove100.selector, uint16(10_001)));
        ledger.setConsensusParams(3, 10_001);
        ledger.setConsensusParams(0, 10_000);
        vm.stopPrank();
        assertEq(ledger.consensusQuorum(), 0);
        assertEq(ledger.consensusThresholdBps(), 10_000);
    }

    function test_commitmentIsKeccakOfAbiEncode() public view {
        address a = address(0x1111111111111111111111111111111111111111);
        address s = address(0x2222222222222222222222222222222222222222);
        bytes32 salt = 0x3333333333333333333333333333333333333333333333333333333333333333;
        // Vectors from eden-core calls::ledger (@metamask/abi-utils + keccak256).
        assertEq(ledger.callCommitment(a, s, UP, 3_600, salt), 0x0d7e0aa46e221fe9c6e1520659104579c6a623a9f013fd12d7b6787947108fa1);
        assertEq(ledger.callCommitment(a, s, DOWN, 3_600, salt), 0x190f148a44e928dbfadf2dc169c01bbf8254e67a79aa512d3c6be9e096868286);
    }

    // ---------------------------------------------------------------- stake

    function test_stakeAndUnstake() public {
        address x = makeAddr("x");
        vm.expectRevert(CallLedger.ZeroAmount.selector);
        ledger.stake(0);
        _stake(x, 50e18);
        assertEq(ledger.agentRecord(x).stake, 50e18);
        vm.prank(x);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.InsufficientStake.selector, 50e18, MIN_STAKE));
        ledger.commit(bytes32(uint256(1)));
        _stake(x, 50e18);
        vm.prank(x);
        uint256 id = ledger.commit(bytes32(uint256(1)));
        vm.prank(x);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.OpenCalls.selector, uint64(1)));
        ledger.unstake(1);
        vm.warp(T0 + HOUR + 1);
        ledger.expire(id);
        vm.startPrank(x);
        vm.expectRevert(CallLedger.ZeroAmount.selector);
        ledger.unstake(0);
        vm.expectRevert(); // more than staked
        ledger.unstake(101e18);
        ledger.unstake(100e18);
        vm.stopPrank();
        assertEq(stakeToken.balanceOf(x), 100e18);
        assertEq(ledger.agentRecord(x).stake, 0);
    }

    // ---------------------------------------------------------------- commit / reveal / resolve / expire

    function test_fullLifeHitMissVoid() public {
        uint256 a = _call(1, ASSET, UP, HOUR);
        vm.warp(T0 + 100);
        uint256 b = _call(1, ASSET, DOWN, HOUR);
        CallLedger.Call memory ca = ledger.getCall(a);
        assertEq(ca.closesAt, T0 + HOUR);
        assertEq(ca.entryPrice, 150 * ONE);
        assertEq(ca.vote, ONE); // fresh agent: 1 + 0
        assertEq(ledger.getCall(b).vote, 0); // same agent, same round: no second vote
        assertEq(_rec(1).openCalls, 2);

        vm.warp(T0 + HOUR - 1);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.NotClosedYet.selector, T0 + HOUR - 1, T0 + HOUR));
        ledger.resolve(a);
        _push(ASSET, 151 * ONE); // at closesAt - 1: the price at closesAt
        vm.warp(T0 + HOUR);
        assertEq(uint8(ledger.resolve(a)), uint8(CallLedger.Outcome.Hit));
        _push(ASSET, 140 * ONE); // after a's close, before b's
        vm.warp(T0 + 100 + HOUR + 3_000); // within the resolve grace
        _push(ASSET, 999 * ONE); // after b's close: does not count
        assertEq(uint8(ledger.resolve(b)), uint8(CallLedger.Outcome.Hit)); // down: 140 < 150
        assertEq(ledger.getCall(b).exitPrice, 140 * ONE);

        // Equal prices void.
        vm.warp(T0 + 50 * HOUR);
        uint256 c = _call(2, ASSET, UP, HOUR);
        vm.warp(T0 + 52 * HOUR);
        assertEq(uint8(ledger.resolve(c)), uint8(CallLedger.Outcome.Void));
        // A miss.
        uint256 d = _call(2, ASSET, UP, HOUR);
        _push(ASSET, 998 * ONE);
        vm.warp(T0 + 54 * HOUR);
        assertEq(uint8(ledger.resolve(d)), uint8(CallLedger.Outcome.Miss));

        CallLedger.AgentRecord memory r1 = _rec(1);
        assertEq(r1.hits, 2);
        assertEq(r1.misses, 0);
        assertEq(r1.streak, 2);
        assertEq(r1.bestStreak, 2);
        assertEq(r1.openCalls, 0);
        CallLedger.AgentRecord memory r2 = _rec(2);
        assertEq(r2.voids, 1);
        assertEq(r2.misses, 1);
        assertEq(r2.hits, 0);

        vm.expectRevert(
            abi.encodeWithSelector(CallLedger.WrongStatus.selector, a, CallLedger.Status.Resolved, CallLedger.Status.Revealed)
        );
        ledger.resolve(a);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.UnknownCall.selector, 999));
        ledger.resolve(999);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.UnknownCall.selector, 999));
        ledger.expire(999);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.UnknownCall.selector, 999));
        ledger.getCall(999);
    }

    /// Second review (check): `commitmentUsed` was global, so a commitment hash copied from the mempool and posted first
    /// by another staked account made the victim's `commit` revert. Now it is per agent: the victim commits, and the
    /// copier's call can never be revealed (the commitment hashes the victim's address).
    function test_secondReview_aCopiedCommitmentCannotBlockItsAgent() public {
        bytes32 salt = _salt(7);
        bytes32 c = ledger.callCommitment(agents[1], ASSET, UP, HOUR, salt);
        vm.prank(agents[2]); // the front-runner
        uint256 copied = ledger.commit(c);
        vm.prank(agents[1]);
        uint256 id = ledger.commit(c);
        vm.warp(block.timestamp + ledger.MIN_REVEAL_AGE());
        vm.prank(agents[1]);
        ledger.reveal(id, ASSET, UP, HOUR, salt);
        vm.prank(agents[2]);
        vm.expectRevert(CallLedger.CommitmentMismatch.selector);
        ledger.reveal(copied, ASSET, UP, HOUR, salt);
    }

    /// Second review, item 5: a copier read a public `Revealed` call and committed and revealed the same call in one
    /// transaction (same entry, same close, same round). A reveal now needs a commitment `MIN_REVEAL_AGE` old: the
    /// copy made after the leader's reveal enters at least 300 s later, on a TWAP window that starts at or after the
    /// leader's reveal, and closes in another second; the atomic copy reverts.
    function test_secondReview_aRevealCannotBeCopiedInTheSameTransaction() public {
        uint256 leader = _call(1, ASSET, UP, HOUR); // committed 300 s ago, revealed now
        CallLedger.Call memory l = ledger.getCall(leader);
        // The copier, in the same block: commit and reveal the leader's call.
        bytes32 salt = _salt(99);
        uint256 copy = _commit(2, l.asset, l.direction, l.window, salt);
        vm.prank(agents[2]);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.RevealTooEarly.selector, T0, T0 + 300));
        ledger.reveal(copy, l.asset, l.direction, l.window, salt);
        // One second short of the age it is still refused; at the age it is a call of its own, 300 s later.
        _push(ASSET, 160 * ONE); // the market moved once the leader's call was public
        vm.warp(T0 + 299);
        vm.prank(agents[2]);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.RevealTooEarly.selector, T0 + 299, T0 + 300));
        ledger.reveal(copy, l.asset, l.direction, l.window, salt);
        vm.warp(T0 + 300);
        vm.prank(agents[2]);
        ledger.reveal(copy, l.asset, l.direction, l.window, salt);
        CallLedger.Call memory c = ledger.getCall(copy);
        assertEq(c.closesAt, l.closesAt + 300, "closes 300 s after the leader's call");
        assertTrue(c.entryPrice != l.entryPrice, "entered at the price after the leader's call was public");
    }

    /// Fuzz: a reveal succeeds exactly when `committedAt + MIN_REVEAL_AGE <= now <= committedAt + REVEAL_DEADLINE`.
    function testFuzz_revealOnlyInsideItsWindow(uint32 dt) public {
        uint256 age = bound(dt, 0, 2 * HOUR);
        bytes32 salt = _salt(5);
        uint256 id = _commit(1, ASSET, UP, HOUR, salt);
        vm.warp(T0 + age);
        vm.prank(agents[1]);
        if (age < 300) {
            vm.expectRevert(abi.encodeWithSelector(CallLedger.RevealTooEarly.selector, T0 + age, T0 + 300));
        } else if (age > HOUR) {
            vm.expectRevert(abi.encodeWithSelector(CallLedger.RevealDeadlinePassed.selector, T0 + age, T0 + HOUR));
        }
        ledger.reveal(id, ASSET, UP, HOUR, salt);
    }

    function test_revealRules() public {
        bytes32 salt = _salt(1);
        uint256 id = _commit(1, ASSET, UP, HOUR, salt);
        bytes32 c = ledger.callCommitment(agents[1], ASSET, UP, HOUR, salt);
        assertTrue(ledger.commitmentUsed(agents[1], c));
        vm.prank(agents[1]);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.DuplicateCommitment.selector, c));
        ledger.commit(c);

        vm.prank(agents[2]);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.NotCallAgent.selector, id, agents[2]));
        ledger.reveal(id, ASSET, UP, HOUR, salt);
        vm.startPrank(agents[1]);
        // A commitment younger than MIN_REVEAL_AGE cannot be revealed (second review, item 5).
        vm.expectRevert(abi.encodeWithSelector(CallLedger.RevealTooEarly.selector, T0, T0 + 300));
        ledger.reveal(id, ASSET, UP, HOUR, salt);
        vm.warp(T0 + 300);
        vm.expectRevert(CallLedger.CommitmentMismatch.selector);
        ledger.reveal(id, ASSET, DOWN, HOUR, salt);
        vm.expectRevert(CallLedger.CommitmentMismatch.selector);
        ledger.reveal(id, ASSET, UP, HOUR + 1, salt);
        vm.expectRevert(CallLedger.CommitmentMismatch.selector);
        ledger.reveal(id, ASSET, UP, HOUR, _salt(2));
        vm.expectRevert(CallLedger.CommitmentMismatch.selector);
        ledger.reveal(id, address(0xBEEF), UP, HOUR, salt);
        vm.stopPrank();

        vm.warp(T0 + HOUR + 1);
        vm.prank(agents[1]);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.RevealDeadlinePassed.selector, T0 + HOUR + 1, T0 + HOUR));
        ledger.reveal(id, ASSET, UP, HOUR, salt);

        vm.warp(T0 + HOUR);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.NotExpiredYet.selector, T0 + HOUR, T0 + HOUR));
        ledger.expire(id);
        // The last second of the deadline is accepted.
        vm.prank(agents[1]);
        ledger.reveal(id, ASSET, UP, HOUR, salt);
        assertEq(uint8(ledger.getCall(id).status), uint8(CallLedger.Status.Revealed));
        vm.prank(agents[1]);
        vm.expectRevert(
            abi.encodeWithSelector(CallLedger.WrongStatus.selector, id, CallLedger.Status.Revealed, CallLedger.Status.Committed)
        );
        ledger.reveal(id, ASSET, UP, HOUR, salt);
        vm.warp(T0 + 10 * HOUR);
        vm.expectRevert(
            abi.encodeWithSelector(CallLedger.WrongStatus.selector, id, CallLedger.Status.Revealed, CallLedger.Status.Committed)
        );
        ledger.expire(id);
        vm.prank(agents[1]);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.UnknownCall.selector, 99));
        ledger.reveal(99, ASSET, UP, HOUR, salt);
    }

    function test_revealRejectsBadDirectionZeroWindowOverflowAndMissingPrice() public {
        vm.startPrank(agents[1]);
        uint256 id0 = ledger.commit(ledger.callCommitment(agents[1], ASSET, 2, HOUR, 0));
        uint256 id1 = ledger.commit(ledger.callCommitment(agents[1], ASSET, UP, 0, 0));
        uint256 id2 = ledger.commit(ledger.callCommitment(agents[1], ASSET, UP, 299, 0));
        uint256 id3 = ledger.commit(ledger.callCommitment(agents[1], ASSET, UP, type(uint64).max, 0));
        uint256 id4 = ledger.commit(ledger.callCommitment(agents[1], address(0xB0B), UP, HOUR, 0));
        vm.warp(T0 + ledger.MIN_REVEAL_AGE());
        vm.expectRevert(abi.encodeWithSelector(CallLedger.BadDirection.selector, uint8(2)));
        ledger.reveal(id0, ASSET, 2, HOUR, 0);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.WindowTooShort.selector, uint64(0), uint64(300)));
        ledger.reveal(id1, ASSET, UP, 0, 0);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.WindowTooShort.selector, uint64(299), uint64(300)));
        ledger.reveal(id2, ASSET, UP, 299, 0);
        vm.expectRevert(CallLedger.TimeOverflow.selector);
        ledger.reveal(id3, ASSET, UP, type(uint64).max, 0);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.NoPriceSource.selector, address(0xB0B)));
        ledger.reveal(id4, address(0xB0B), UP, HOUR, 0);
        vm.stopPrank();
    }

    function test_expireCountsAsAMissAndResetsTheStreak() public {
        uint256 a = _call(1, ASSET, UP, HOUR);
        _push(ASSET, 151 * ONE);
        vm.warp(T0 + HOUR);
        ledger.resolve(a);
        assertEq(_rec(1).streak, 1);
        uint256 b = _commit(1, ASSET, UP, HOUR, _salt(77));
        vm.warp(T0 + 2 * HOUR + 1);
        vm.expectEmit(address(ledger));
        emit CallLedger.CallExpired(b, agents[1]);
        ledger.expire(b);
        CallLedger.AgentRecord memory r = _rec(1);
        assertEq(r.misses, 1);
        assertEq(r.streak, 0);
        assertEq(r.bestStreak, 1);
        assertEq(r.openCalls, 0);
        assertEq(uint8(ledger.getCall(b).outcome), uint8(CallLedger.Outcome.Expired));
        // 1 hit, 1 miss: 1 / 3
        assertEq(ledger.score(agents[1]), 333_333_333_333_333_333);
        vm.expectRevert(
            abi.encodeWithSelector(CallLedger.WrongStatus.selector, b, CallLedger.Status.Expired, CallLedger.Status.Committed)
        );
        ledger.expire(b);
    }

    /// Outcomes Hit, Hit, Void, Hit, Miss, Hit, Hit -> hits 5, misses 1, voids 1, streak 2, best 3 (core streak test).
    function test_streaks() public {
        uint8[7] memory seq = [1, 1, 3, 1, 2, 1, 1]; // 1 hit, 2 miss, 3 void
        uint256 price = 150 * ONE;
        for (uint256 i; i < seq.length; ++i) {
            uint256 id = _call(1, ASSET, UP, HOUR);
            if (seq[i] == 1) price += ONE;
            else if (seq[i] == 2) price -= ONE;
            if (seq[i] != 3) _push(ASSET, price);
            vm.warp(block.timestamp + HOUR);
            ledger.resolve(id);
            vm.warp(block.timestamp + 1);
        }
        CallLedger.AgentRecord memory r = _rec(1);
        assertEq(r.hits, 5);
        assertEq(r.misses, 1);
        assertEq(r.voids, 1);
        assertEq(r.streak, 2);
        assertEq(r.bestStreak, 3);
        assertEq(ledger.score(agents[1]), ledger.computeScore(5, 1, MIN_STAKE, MIN_STAKE));
    }

    // ---------------------------------------------------------------- consensus

    function test_threeFreshAgentsReachConsensusAtTheThirdVote() public {
        uint64 bucket = (T0 + HOUR) / HOUR;
        _call(1, ASSET, UP, HOUR);
        _call(2, ASSET, UP, HOUR);
        assertEq(ledger.consensusLogLength(), 0);
        uint256 id3 = _commitOnly(3, ASSET, UP, HOUR);
        vm.expectEmit(address(ledger));
        emit Consensus(ASSET, HOUR, bucket, UP, 10_000, 3, 3 * ONE, 0);
        _reveal(id3, 3, ASSET, UP, HOUR);
        _call(4, ASSET, UP, HOUR); // still up: no new event
        assertEq(ledger.consensusLogLength(), 1);
        CallLedger.ConsensusRecord memory e = ledger.consensusLogAt(0);
        assertEq(e.asset, ASSET);
        assertEq(e.bucket, bucket);
        assertEq(e.voters, 3);
        (uint64 b, CallMath.ConsensusState memory s) = ledger.consensus(ASSET, HOUR);
        assertEq(b, bucket);
        assertTrue(s.reached);
        assertEq(s.voters, 4);
        assertEq(s.upWeight, 4 * ONE);
    }

    function test_oneVotePerAgentPerRound() public {
        _call(1, ASSET, UP, HOUR);
        _call(1, ASSET, UP, HOUR);
        _call(1, ASSET, UP, HOUR);
        (, CallMath.ConsensusState memory s) = ledger.consensus(ASSET, HOUR);
        assertEq(s.voters, 1);
        assertFalse(s.reached);
        // Another window is another round.
        _call(1, ASSET, UP, 2 * HOUR);
        (, s) = ledger.consensus(ASSET, 2 * HOUR);
        assertEq(s.voters, 1);
    }

    function test_everyRevealVotesWhenOneVotePerAgentIsOff() public {
        CallLedger l2 = new CallLedger(owner, IERC20(address(stakeToken)), address(usdg), MIN_STAKE, false);
        vm.prank(owner);
        l2.setUpdater(ASSET, updater);
        vm.prank(updater);
        l2.pushPrice(ASSET, ONE);
        stakeToken.mint(agents[1], MIN_STAKE);
        vm.startPrank(agents[1]);
        stakeToken.approve(address(l2), MIN_STAKE);
        l2.stake(MIN_STAKE);
        uint256[3] memory ids;
        for (uint256 i; i < 3; ++i) {
            ids[i] = l2.commit(l2.callCommitment(agents[1], ASSET, UP, HOUR, bytes32(i)));
        }
        vm.warp(block.timestamp + l2.MIN_REVEAL_AGE());
        for (uint256 i; i < 3; ++i) {
            l2.reveal(ids[i], ASSET, UP, HOUR, bytes32(i));
        }
        vm.stopPrank();
        (, CallMath.ConsensusState memory s) = l2.consensus(ASSET, HOUR);
        assertEq(s.voters, 3);
        assertTrue(s.reached);
    }

    /// Gives agent `a` a record of 1 hit (score 0.5 * stake / minStake) on another asset.
    function _oneHit(uint256 a, uint256 extraStake) internal {
        address other = address(uint160(0xC0DE00 + a));
        vm.prank(owner);
        ledger.setUpdater(other, updater);
        _push(other, ONE);
        uint256 id = _call(a, other, UP, 300);
        vm.warp(block.timestamp + 299);
        _push(other, 2 * ONE);
        vm.warp(block.timestamp + 1);
        ledger.resolve(id);
        if (extraStake != 0) _stake(agents[a], extraStake);
    }

    /// The core's flip sequence: up x3 (weight 1) -> event up; down 10 -> event down (76.92 %); up 10 -> 56.5 %, no
    /// event; up 20 -> event up (76.74 %).
    function test_flipEmitsANewEventForTheNewDirection() public {
        // score = 0.5 * stake / minStake: stake 18x -> 9 (vote 10), 38x -> 19 (vote 20).
        _oneHit(4, 17 * MIN_STAKE);
        _oneHit(5, 17 * MIN_STAKE);
        _oneHit(6, 37 * MIN_STAKE);
        assertEq(ledger.score(agents[4]), 9 * ONE);
        assertEq(ledger.score(agents[6]), 19 * ONE);
        uint256 t = block.timestamp;
        uint64 bucket = uint64((t + HOUR) / HOUR);
        _call(1, ASSET, UP, HOUR);
        _call(2, ASSET, UP, HOUR);
        _call(3, ASSET, UP, HOUR);
        uint256 id4 = _commitOnly(4, ASSET, DOWN, HOUR);
        vm.expectEmit(address(ledger));
        emit Consensus(ASSET, HOUR, bucket, DOWN, 7_692, 4, 3 * ONE, 10 * ONE);
        _reveal(id4, 4, ASSET, DOWN, HOUR);
        _call(5, ASSET, UP, HOUR);
        uint256 id6 = _commitOnly(6, ASSET, UP, HOUR);
        vm.expectEmit(address(ledger));
        emit Consensus(ASSET, HOUR, bucket, UP, 7_674, 6, 33 * ONE, 10 * ONE);
        _reveal(id6, 6, ASSET, UP, HOUR);
        assertEq(ledger.consensusLogLength(), 3);
        CallLedger.ConsensusRecord memory e0 = ledger.consensusLogAt(0);
        assertEq(e0.direction, UP);
        assertEq(e0.strengthBps, 10_000);
        assertEq(e0.voters, 3);
    }

    function test_consensusBucketIsWhereARevealNowLands() public {
        vm.warp(36_000);
        _push(ASSET, ONE);
        (uint64 b,) = ledger.consensus(ASSET, HOUR);
        assertEq(b, 11);
        vm.warp(39_599);
        (b,) = ledger.consensus(ASSET, HOUR);
        assertEq(b, 11);
        vm.warp(39_600);
        (b,) = ledger.consensus(ASSET, HOUR);
        assertEq(b, 12);
        vm.expectRevert(CallLedger.ZeroWindow.selector);
        ledger.consensus(ASSET, 0);
        vm.expectRevert(CallLedger.TimeOverflow.selector);
        ledger.consensus(ASSET, type(uint64).max);
        // A call revealed now lands in that round.
        _call(1, ASSET, UP, HOUR);
        CallMath.ConsensusState memory s = ledger.roundState(ASSET, HOUR, 12);
        assertEq(s.voters, 1);
    }

    // ---------------------------------------------------------------- pushed prices

    function test_pushedPriceAccess() public {
        vm.expectRevert(abi.encodeWithSelector(CallLedger.NotUpdater.selector, address(this)));
        ledger.pushPrice(ASSET, ONE);
        vm.prank(updater);
        vm.expectRevert(CallLedger.ZeroAmount.selector);
        ledger.pushPrice(ASSET, 0);
        vm.prank(updater);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.NotUpdater.selector, updater));
        ledger.pushPrice(address(0xB0B), ONE);
        // Nobody named: even address(0) cannot push.
        vm.prank(address(0));
        vm.expectRevert(abi.encodeWithSelector(CallLedger.NotUpdater.selector, address(0)));
        ledger.pushPrice(address(0xB0B), ONE);
        vm.prank(owner);
        vm.expectRevert(CallLedger.ZeroAddress.selector);
        ledger.setUpdater(address(0), updater);
    }

    function test_pushedPriceHistory() public {
        // Several pushes in one second: the last holds.
        _push(ASSET, 151 * ONE);
        assertEq(ledger.priceNow(ASSET), 151 * ONE);
        vm.warp(T0 + 10);
        _push(ASSET, 160 * ONE);
        vm.warp(T0 + 20);
        _push(ASSET, 170 * ONE);
        (bool ok, uint256 p) = ledger.priceAt(ASSET, T0 - 1);
        assertFalse(ok);
        (ok, p) = ledger.priceAt(ASSET, T0);
        assertEq(p, 151 * ONE);
        (ok, p) = ledger.priceAt(ASSET, T0 + 15);
        assertEq(p, 160 * ONE);
        (ok, p) = ledger.priceAt(ASSET, T0 + 20);
        assertEq(p, 170 * ONE);
        (ok, p) = ledger.priceAt(ASSET, T0 + 21); // the future
        assertFalse(ok);
    }
}

/// A5 against real Uniswap v3 pools (npm bytecode): entry and exit TWAPs from `observe`, both token orders, and the
/// void when the observation buffer no longer covers `closesAt`.
contract CallLedgerV3Test is CallLedgerFixture {
    IV3Factory internal factory;
    V3PoolDriver internal driver;
    TestERC20 internal stockLow; // address below USDG: token0
    TestERC20 internal stockHigh; // address above USDG: token1
    IV3Pool internal poolLow;
    IV3Pool internal poolHigh;

    int24 internal constant TICK_100 = -230_259; // stock token0: 100.110275 USDG (core vector)
    uint16 internal constant MIN_OBS = 1_800; // CallLedger.MIN_OBSERVATIONS

    function setUp() public override {
        super.setUp();
        factory = V3Deployer.deployFactory();
        driver = new V3PoolDriver();
        for (uint256 i; address(stockLow) == address(0) || address(stockHigh) == address(0); ++i) {
            TestERC20 t = new TestERC20{salt: bytes32(i)}("Stock", "STK", 18);
            if (address(t) < address(usdg) && address(stockLow) == address(0)) stockLow = t;
            else if (address(t) > address(usdg) && address(stockHigh) == address(0)) stockHigh = t;
        }
        poolLow = _pool(stockLow, TICK_100, MIN_OBS);
        poolHigh = _pool(stockHigh, -TICK_100, MIN_OBS); // stock is token1: the mirrored tick is the same price
        vm.startPrank(owner);
        ledger.setPool(address(stockLow), address(poolLow), uint64(block.timestamp));
        ledger.setPool(address(stockHigh), address(poolHigh), uint64(block.timestamp));
        vm.stopPrank();
        vm.warp(block.timestamp + 600); // the pools' observations now cover 300 s
    }

    function _pool(TestERC20 stock, int24 tick, uint16 cardinality) internal returns (IV3Pool p) {
        p = IV3Pool(factory.createPool(address(stock), address(usdg), 3000));
        p.initialize(TickMath.getSqrtPriceAtTick(tick));
        if (cardinality > 1) p.increaseObservationCardinalityNext(cardinality);
        stock.mint(address(driver), 1e36);
        usdg.mint(address(driver), 1e36);
        driver.mint(p, -887_220, 887_220, 1e24);
    }

    function test_setPoolRules() public {
        vm.startPrank(owner);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.PoolAlreadySet.selector, address(stockLow), address(poolLow)));
        ledger.setPool(address(stockLow), address(poolHigh), uint64(block.timestamp));
        vm.expectRevert(abi.encodeWithSelector(CallLedger.PoolNotForAsset.selector, address(poolHigh), address(0xDEAD)));
        ledger.setPool(address(0xDEAD), address(poolHigh), uint64(block.timestamp));
        vm.expectRevert(CallLedger.ZeroAddress.selector);
        ledger.setPool(address(0), address(poolHigh), uint64(block.timestamp));
        vm.expectRevert(abi.encodeWithSelector(CallLedger.UpdaterNotAllowed.selector, address(stockLow)));
        ledger.setUpdater(address(stockLow), updater);
        vm.stopPrank();
        CallLedger.PriceSource memory s = ledger.priceSource(address(stockLow));
        assertEq(s.pool, address(poolLow));
        assertTrue(s.stockIsToken0);
        assertFalse(ledger.priceSource(address(stockHigh)).stockIsToken0);
        assertGt(s.poolActiveAt, 0);
        assertEq(ledger.MIN_OBSERVATIONS(), MIN_OBS);
    }

    /// A5 (seed: launch pools carry 1,800 to 6,000 observations): a pool with room for fewer is refused, and
    /// accepted once grown; the time it is set is recorded.
    function test_setPoolNeedsRoomFor1800Observations() public {
        TestERC20 short_ = new TestERC20{salt: bytes32(uint256(77))}("Short", "S", 18);
        IV3Pool p = _pool(short_, 0, MIN_OBS - 1);
        vm.prank(owner);
        vm.expectRevert(
            abi.encodeWithSelector(CallLedger.TooFewObservations.selector, address(p), MIN_OBS - 1, MIN_OBS)
        );
        ledger.setPool(address(short_), address(p), uint64(block.timestamp));
        p.increaseObservationCardinalityNext(MIN_OBS);
        vm.warp(block.timestamp + 5);
        vm.prank(owner);
        ledger.setPool(address(short_), address(p), uint64(block.timestamp));
        assertEq(ledger.priceSource(address(short_)).poolActiveAt, block.timestamp);
    }

    function test_poolAlwaysWinsOverPushes() public {
        TestERC20 mixed = new TestERC20{salt: bytes32(uint256(4242))}("Mixed", "M", 18);
        vm.prank(owner);
        ledger.setUpdater(address(mixed), updater);
        _push(address(mixed), 90 * ONE);
        uint256 early = _call(1, address(mixed), UP, HOUR); // priced by pushes
        assertTrue(ledger.getCall(early).pushedPrice);
        uint256 done = _call(3, address(mixed), UP, 600); // priced by pushes, closes before the pool
        vm.warp(block.timestamp + 300);
        _push(address(mixed), 95 * ONE);
        vm.warp(block.timestamp + 300);
        IV3Pool p = _pool(mixed, TICK_100, MIN_OBS);
        vm.prank(owner);
        ledger.setPool(address(mixed), address(p), uint64(block.timestamp));
        vm.prank(updater);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.UpdaterNotAllowed.selector, address(mixed)));
        ledger.pushPrice(address(mixed), ONE);
        vm.prank(owner);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.UpdaterNotAllowed.selector, address(mixed)));
        ledger.setUpdater(address(mixed), updater);
        vm.warp(block.timestamp + 600);
        // New calls use the pool.
        uint256 late = _call(2, address(mixed), UP, HOUR);
        assertFalse(ledger.getCall(late).pushedPrice);
        assertEq(ledger.getCall(late).entryPrice, 100110275000000000000);
        // A pushed call that closed when the pool was set resolves from the pushes (the history up to then is final).
        assertEq(uint8(ledger.resolve(done)), uint8(CallLedger.Outcome.Hit));
        assertEq(ledger.getCall(done).exitPrice, 95 * ONE);
        // The early call closes after the pool was set: never from pushes (the last push would be stale), never from
        // the pool (a different source): void, with no exit price, and counted as a void.
        vm.warp(ledger.getCall(early).closesAt);
        assertEq(uint8(ledger.resolve(early)), uint8(CallLedger.Outcome.Void));
        assertEq(ledger.getCall(early).exitPrice, 0);
        assertEq(_rec(1).voids, 1);
        assertEq(_rec(1).misses, 0);
    }

    /// Second review (check): `setPool` runs through the 48 h timelock, which anyone may execute once it is ready. An
    /// agent whose pushed-price call was losing executed it just before the call closed, and the call resolved void.
    /// The moment the pool takes over is now part of the scheduled call: executing it early changes nothing, the
    /// pushes go on until then, and the losing call is a miss.
    function test_secondReview_executingSetPoolEarlyCannotVoidALosingCall() public {
        TestERC20 timed = new TestERC20{salt: bytes32(uint256(4545))}("Timed", "T", 18);
        vm.prank(owner);
        ledger.setUpdater(address(timed), updater);
        _push(address(timed), 100 * ONE);
        uint256 loser = _call(1, address(timed), UP, HOUR); // up, closing in an hour
        uint64 closes = ledger.getCall(loser).closesAt;
        vm.warp(block.timestamp + 30 minutes);
        _push(address(timed), 90 * ONE); // the call is losing
        IV3Pool p = _pool(timed, TICK_100, MIN_OBS);
        // Governance scheduled the pool to take over a day from now; the agent executes the call at once.
        uint64 activeAt = uint64(block.timestamp + 1 days);
        vm.prank(owner);
        ledger.setPool(address(timed), address(p), activeAt);
        assertEq(ledger.priceSource(address(timed)).poolActiveAt, activeAt);
        // Pushes go on until then, and new calls still enter on them.
        vm.warp(block.timestamp + 10 minutes);
        _push(address(timed), 89 * ONE);
        assertTrue(ledger.getCall(_call(2, address(timed), UP, HOUR)).pushedPrice);
        vm.warp(closes);
        assertEq(uint8(ledger.resolve(loser)), uint8(CallLedger.Outcome.Miss), "a miss, not a void");
        assertEq(ledger.getCall(loser).exitPrice, 89 * ONE);
        // From activeAt on, the pool wins: pushes are refused and reveals enter on the pool.
        vm.warp(activeAt);
        vm.prank(updater);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.UpdaterNotAllowed.selector, address(timed)));
        ledger.pushPrice(address(timed), ONE);
        assertFalse(ledger.getCall(_call(3, address(timed), UP, HOUR)).pushedPrice);
        // A call executed after its activeAt takes over when executed, never in the past.
        TestERC20 late = new TestERC20{salt: bytes32(uint256(4646))}("Late", "L", 18);
        IV3Pool p2 = _pool(late, TICK_100, MIN_OBS);
        vm.prank(owner);
        ledger.setPool(address(late), address(p2), uint64(block.timestamp - 1 hours));
        assertEq(ledger.priceSource(address(late)).poolActiveAt, block.timestamp);
    }

    /// Attack: the updater's last push before the pool is set is far from the market (or an agent sees the pool's
    /// price coming). A pushed call closing after the pool is set gains nothing either way, and left unresolved past
    /// the grace it is a miss like any other.
    function test_supersededPushedCallCannotBeWonAndLateIsAMiss() public {
        TestERC20 gap = new TestERC20{salt: bytes32(uint256(4343))}("Gap", "G", 18);
        vm.prank(owner);
        ledger.setUpdater(address(gap), updater);
        _push(address(gap), 10 * ONE); // far below the pool's 100.11
        uint256 up = _call(1, address(gap), UP, HOUR);
        uint256 late = _call(2, address(gap), UP, HOUR);
        IV3Pool p = _pool(gap, TICK_100, MIN_OBS);
        vm.warp(block.timestamp + 1);
        vm.prank(owner);
        ledger.setPool(address(gap), address(p), uint64(block.timestamp));
        vm.warp(ledger.getCall(up).closesAt);
        (bool ok, uint256 now_) = ledger.priceAt(address(gap), uint64(block.timestamp));
        assertTrue(ok);
        assertGt(now_, 10 * ONE); // the pool would have made it a hit
        assertEq(uint8(ledger.resolve(up)), uint8(CallLedger.Outcome.Void));
        vm.warp(ledger.getCall(late).closesAt + ledger.RESOLVE_GRACE() + 1);
        assertEq(uint8(ledger.resolve(late)), uint8(CallLedger.Outcome.Miss));
        assertEq(_rec(1).hits, 0);
        assertEq(_rec(2).misses, 1);
    }

    function test_entryPriceIsTheCoreVectorInBothOrders() public {
        assertEq(ledger.priceNow(address(stockLow)), 100110275000000000000);
        assertEq(ledger.priceNow(address(stockHigh)), 100110275000000000000);
        uint256 id = _call(1, address(stockLow), UP, HOUR);
        assertEq(ledger.getCall(id).entryPrice, 100110275000000000000);
    }

    function test_entryRevertsWhenThePoolIsTooYoung() public {
        TestERC20 fresh = new TestERC20{salt: bytes32(uint256(999))}("Fresh", "F", 18);
        IV3Pool p = _pool(fresh, 0, MIN_OBS);
        vm.prank(owner);
        ledger.setPool(address(fresh), address(p), uint64(block.timestamp));
        vm.warp(block.timestamp + 10); // only 10 s of history
        uint256 id = _commitAged(1, address(fresh), UP, HOUR, 0);
        vm.prank(agents[1]);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.PriceUnavailable.selector, address(fresh)));
        ledger.reveal(id, address(fresh), UP, HOUR, 0);
    }

    function _expected(IV3Pool p, uint256 ago, bool stock0) internal view returns (uint256) {
        uint32[] memory agos = new uint32[](2);
        agos[0] = uint32(ago + 300);
        agos[1] = uint32(ago);
        (int56[] memory cum,) = p.observe(agos);
        return OracleMath.twapPriceWad(cum[0], cum[1], 300, stock0);
    }

    /// Up on the token0 stock, the price rises (USDG per stock up = tick up); down on the token1 stock, its price
    /// falls (tick up). Exit TWAPs are read at the end of the resolve grace, after more trading, and still equal
    /// the TWAP ending at closesAt.
    function test_hitsFromRealSwapsBothOrdersAndLateResolution() public {
        uint256 a = _call(1, address(stockLow), UP, HOUR);
        uint256 b = _call(2, address(stockHigh), DOWN, HOUR);
        uint64 closesAt = ledger.getCall(a).closesAt;
        vm.warp(block.timestamp + 1_000);
        driver.swapExactIn(poolLow, false, 1e24); // buy stock with USDG: token0 price up
        driver.swapExactIn(poolHigh, false, 1e28); // sell stock (token1) for USDG: stock price down
        vm.warp(closesAt);
        uint256 exitA = _expected(poolLow, 0, true);
        uint256 exitB = _expected(poolHigh, 0, false);
        (bool ok, uint256 viewA) = ledger.priceAt(address(stockLow), closesAt);
        assertTrue(ok);
        assertEq(viewA, exitA);
        // Later, with more trading in between, the exit is still the TWAP ending at closesAt.
        vm.warp(closesAt + HOUR / 2);
        driver.swapExactIn(poolLow, true, 5e28);
        driver.swapExactIn(poolHigh, true, 5e18);
        vm.warp(closesAt + ledger.RESOLVE_GRACE()); // the last second of the grace
        assertTrue(ledger.priceNow(address(stockLow)) != exitA);
        assertTrue(ledger.priceNow(address(stockHigh)) != exitB);
        ledger.resolve(a);
        ledger.resolve(b);
        CallLedger.Call memory ca = ledger.getCall(a);
        CallLedger.Call memory cb = ledger.getCall(b);
        assertEq(ca.exitPrice, exitA);
        assertEq(cb.exitPrice, exitB);
        assertGt(ca.exitPrice, ca.entryPrice);
        assertEq(uint8(ca.outcome), uint8(CallLedger.Outcome.Hit));
        assertLt(cb.exitPrice, cb.entryPrice);
        assertEq(uint8(cb.outcome), uint8(CallLedger.Outcome.Hit));
        // The same prices from the library over observe() at the exact times.
        assertEq(ca.exitPrice, _expected(poolLow, HOUR, true));
    }

    function test_noTradeMeansEqualPricesAndAVoid() public {
        uint256 a = _call(1, address(stockLow), UP, HOUR);
        vm.warp(block.timestamp + HOUR);
        assertEq(uint8(ledger.resolve(a)), uint8(CallLedger.Outcome.Void));
        assertEq(ledger.getCall(a).exitPrice, ledger.getCall(a).entryPrice);
    }

    /// Decided after the review: an exit price that can no longer be read is a miss, never a void.
    function test_missWhenTheObservationBufferNoLongerCoversClosesAt() public {
        TestERC20 thin = new TestERC20{salt: bytes32(uint256(1234))}("Thin", "T", 18);
        IV3Pool p = _pool(thin, 1_000, MIN_OBS); // the fewest observations a pool may keep
        vm.prank(owner);
        ledger.setPool(address(thin), address(p), uint64(block.timestamp));
        vm.warp(block.timestamp + 600);
        uint256 a = _call(1, address(thin), UP, HOUR);
        vm.warp(block.timestamp + HOUR);
        // At closesAt with no trade since, the latest observation is older: still covered (extrapolated).
        (bool ok,) = ledger.priceAt(address(thin), uint64(block.timestamp));
        assertTrue(ok);
        // A tick-moving swap every second after closesAt (v3 writes an observation only when the tick moves), one
        // more than the buffer holds, overwrites every observation at or before it (the attack the review found,
        // now 1,800 swaps long).
        for (uint256 i; i <= MIN_OBS; ++i) {
            vm.warp(block.timestamp + 1);
            driver.swapExactIn(p, i % 2 == 0, 1e21);
        }
        vm.warp(block.timestamp + 100);
        (ok,) = ledger.priceAt(address(thin), ledger.getCall(a).closesAt);
        assertFalse(ok);
        assertEq(uint8(ledger.resolve(a)), uint8(CallLedger.Outcome.Miss));
        CallLedger.AgentRecord memory r = _rec(1);
        assertEq(r.voids, 0);
        assertEq(r.misses, 1);
        assertEq(r.hits, 0);
        assertEq(ledger.getCall(a).exitPrice, 0);
    }

    function testFuzz_priceMatchesOracleMathOverObserve(uint96 amountIn, bool zeroForOne, uint16 dt) public {
        amountIn = uint96(bound(amountIn, 1e6, 1e26));
        driver.swapExactIn(poolLow, zeroForOne, amountIn);
        vm.warp(block.timestamp + bound(dt, 0, 1_000));
        assertEq(ledger.priceNow(address(stockLow)), _expected(poolLow, 0, true));
        driver.swapExactIn(poolHigh, zeroForOne, amountIn);
        vm.warp(block.timestamp + 1);
        assertEq(ledger.priceNow(address(stockHigh)), _expected(poolHigh, 0, false));
    }

    // ---------------------------------------------------------------- second review, item 2 (attack)

    /// Second review, item 2: the agent reveals and, in the same block, moves the pool a few ticks its way, less than
    /// the 0.3 % fee, so no arbitrageur undoes it. With nothing else trading, the exit mean is held past the entry for
    /// the cost of that fee: before, a hit; now the move is inside the pool's fee band and the call is void.
    function test_secondReview2_aPushInsideTheFeeBandIsVoid() public {
        assertEq(ledger.bandPips(address(stockLow)), 3000);
        uint256 id = _call(1, address(stockLow), UP, HOUR);
        (, int24 t0,,,,,) = poolLow.slot0();
        driver.swapExactIn(poolLow, false, 2e15); // the agent's push, in the reveal block
        (, int24 t1,,,,,) = poolLow.slot0();
        assertGt(t1, t0);
        assertLt(t1 - t0, 30); // inside the fee: never arbitraged
        CallLedger.Call memory c = ledger.getCall(id);
        vm.warp(c.closesAt);
        uint256 exit = _expected(poolLow, 0, true);
        assertGt(exit, c.entryPrice); // the exit TWAP is past the entry: the old rule's hit
        assertLt(exit - c.entryPrice, CallMath.bandThresholdUp(c.entryPrice, 3000));
        assertEq(uint8(ledger.resolve(id)), uint8(CallLedger.Outcome.Void));
        CallLedger.AgentRecord memory r = _rec(1);
        assertEq(r.hits, 0);
        assertEq(r.voids, 1);
        // Ten such calls farm nothing: the score stays zero.
        for (uint256 i; i < 10; ++i) {
            uint256 k = _call(1, address(stockLow), UP, HOUR);
            driver.swapExactIn(poolLow, false, 2e15);
            vm.warp(ledger.getCall(k).closesAt);
            assertEq(uint8(ledger.resolve(k)), uint8(CallLedger.Outcome.Void));
        }
        assertEq(ledger.score(agents[1]), 0);
    }

    /// The band is the pool's fee, at least `MIN_BAND_PIPS`; a call's band is its pool's, zero on pushed prices.
    function test_bandIsThePoolFeeAndZeroOnPushes() public {
        TestERC20 cheap = new TestERC20{salt: bytes32(uint256(505))}("Cheap", "C", 18);
        IV3Pool p = IV3Pool(factory.createPool(address(cheap), address(usdg), 500));
        p.initialize(TickMath.getSqrtPriceAtTick(TICK_100));
        p.increaseObservationCardinalityNext(MIN_OBS);
        vm.prank(owner);
        ledger.setPool(address(cheap), address(p), uint64(block.timestamp));
        assertEq(ledger.bandPips(address(cheap)), 500);
        assertEq(ledger.MIN_BAND_PIPS(), 100);
        uint256 pushed = _call(1, ASSET, UP, HOUR);
        uint256 pooled = _call(2, address(stockLow), UP, HOUR);
        assertEq(ledger.callBandPips(pushed), 0);
        assertEq(ledger.callBandPips(pooled), 3000);
        // On pushes, any move still decides (the updater's prices are no agent's to hold).
        _push(ASSET, 150 * ONE + 1);
        vm.warp(ledger.getCall(pushed).closesAt);
        assertEq(uint8(ledger.resolve(pushed)), uint8(CallLedger.Outcome.Hit));
    }

    /// Property: a pool-priced call whose exit moved less than its band is void, whatever the direction; one that
    /// moved at least the band is a hit or a miss by direction.
    function testFuzz_outcomeFollowsTheBand(uint96 amountIn, bool up, bool callUp) public {
        amountIn = uint96(bound(amountIn, 1e12, 1e26));
        uint8 dir = callUp ? UP : DOWN;
        uint256 id = _call(3, address(stockLow), dir, HOUR);
        driver.swapExactIn(poolLow, !up, amountIn);
        CallLedger.Call memory c = ledger.getCall(id);
        vm.warp(c.closesAt);
        uint256 exit = _expected(poolLow, 0, true);
        uint256 moved = exit > c.entryPrice ? exit - c.entryPrice : c.entryPrice - exit;
        CallLedger.Outcome o = ledger.resolve(id);
        if (moved < CallMath.bandThresholdUp(c.entryPrice, 3000)) {
            assertEq(uint8(o), uint8(CallLedger.Outcome.Void));
        } else {
            assertEq(uint8(o), uint8((exit > c.entryPrice) == callUp ? CallLedger.Outcome.Hit : CallLedger.Outcome.Miss));
        }
    }

    // ---------------------------------------------------------------- review findings 4 and 5 (attacks)

    function _avgTick(IV3Pool p, uint32 from, uint32 to) internal view returns (int56) {
        uint32[] memory agos = new uint32[](2);
        agos[0] = from;
        agos[1] = to;
        (int56[] memory cum,) = p.observe(agos);
        return (cum[1] - cum[0]) / int56(uint56(from - to));
    }

    /// Finding 4: with a 1 s window the exit TWAP shared 299 s with the entry and its last second was the tick the
    /// agent set with its own swap just before revealing. A window shorter than the TWAP window is now refused.
    function test_review4_windowShorterThanTheTwapIsRefused() public {
        uint256 id = _commitAged(1, address(stockLow), UP, 1, 0);
        driver.swapExactIn(poolLow, false, 1e24); // the agent pumps in the reveal block
        vm.prank(agents[1]);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.WindowTooShort.selector, uint64(1), uint64(300)));
        ledger.reveal(id, address(stockLow), UP, 1, 0);
    }

    /// Finding 4, the seed's claim "a five-minute TWAP cannot be moved in one transaction": a pump made in the reveal
    /// block leaves the entry price exactly where it was, a pump undone in the same transaction leaves every TWAP
    /// unchanged, and with the minimum window the exit window starts at the reveal, so the pump counts in it only for
    /// as long as its price holds against the market (here one second, until an arbitrageur swaps back).
    function test_review4_aPumpAtTheRevealCannotMoveTheTwaps() public {
        uint256 before = ledger.priceNow(address(stockLow));
        int56 tickBefore = _avgTick(poolLow, 300, 0);
        // Pump and dump inside one transaction (same block, same second): nothing moves.
        (int256 a0,) = driver.swapExactIn(poolLow, false, 1e24);
        driver.swapExactIn(poolLow, true, uint256(-a0));
        assertEq(ledger.priceNow(address(stockLow)), before);
        // The agent pumps, then reveals in the same block: the entry is the pre-pump TWAP.
        (, int24 spotBefore,,,,,) = poolLow.slot0();
        (a0,) = driver.swapExactIn(poolLow, false, 1e24);
        (, int24 pumped,,,,,) = poolLow.slot0();
        assertGt(pumped - spotBefore, 1_000); // a large move of the spot price
        uint256 id = _call(1, address(stockLow), UP, 300);
        CallLedger.Call memory c = ledger.getCall(id);
        assertEq(c.entryPrice, before);
        // One second later the market undoes the pump.
        vm.warp(block.timestamp + 1);
        driver.swapExactIn(poolLow, true, uint256(-a0));
        (, int24 afterArb,,,,,) = poolLow.slot0();
        vm.warp(c.closesAt);
        // The exit window [reveal, reveal + 300] held the pumped tick for one second only: 1/300 of its weight.
        int56 exitTick = _avgTick(poolLow, 300, 0);
        assertEq(exitTick, (int56(pumped) + 299 * int56(afterArb)) / 300);
        assertLt(exitTick - tickBefore, int56(pumped - spotBefore) / 100);
        // The entry window ended at the reveal: it saw none of the pump.
        assertEq(c.entryPrice, OracleMath.twapPriceWad(0, tickBefore * 300, 300, true));
    }

    /// Finding 5: a losing call left unresolved once voided when the observation buffer moved past it; now a call
    /// not resolved within the grace counts as a miss at once, in `score`, with nobody paying gas, and resolving it
    /// later can only record that miss, whatever the price did.
    function test_review5_anUnresolvedLosingCallCountsAgainstTheAgent() public {
        uint256 a = _call(1, ASSET, UP, HOUR);
        _push(ASSET, 140 * ONE); // the call is losing
        uint64 closesAt = ledger.getCall(a).closesAt;
        vm.warp(closesAt + ledger.RESOLVE_GRACE());
        assertEq(ledger.score(agents[1]), 0);
        assertEq(ledger.overdueCalls(agents[1]), 0);
        vm.warp(closesAt + ledger.RESOLVE_GRACE() + 1);
        assertEq(ledger.overdueCalls(agents[1]), 1); // counted without a transaction
        // Nobody resolves; the agent's next call votes with the miss counted: 1 + 0 (no hits either way) ...
        // ... and its score after a hit is 1 / (1 + 1 + 1), not 1 / 2.
        uint256 h = _call(1, address(0xA5A5), UP, HOUR);
        _push(ASSET, 200 * ONE);
        vm.warp(block.timestamp + HOUR);
        ledger.resolve(h);
        assertEq(ledger.score(agents[1]), ledger.computeScore(1, 1, MIN_STAKE, MIN_STAKE));
        // Resolved much later at a winning price: still a miss, the score does not move.
        assertEq(uint8(ledger.resolve(a)), uint8(CallLedger.Outcome.Miss));
        assertEq(ledger.getCall(a).exitPrice, 0);
        assertEq(ledger.score(agents[1]), ledger.computeScore(1, 1, MIN_STAKE, MIN_STAKE));
    }

    /// Finding 5: an agent commits both directions, copies another agent's public reveal with the matching one and
    /// leaves the hedge hanging; the hedge now counts as a miss as soon as its reveal deadline passes.
    function test_review5_aHangingHedgeCountsAsAMissWithoutExpire() public {
        uint256 upId = _commitAged(1, ASSET, UP, HOUR, bytes32("u"));
        _commitAged(1, ASSET, DOWN, HOUR, bytes32("d"));
        _call(2, ASSET, UP, HOUR); // the public reveal being copied
        vm.prank(agents[1]);
        ledger.reveal(upId, ASSET, UP, HOUR, bytes32("u"));
        _push(ASSET, 160 * ONE);
        vm.warp(block.timestamp + HOUR + 1); // past the hedge's reveal deadline
        ledger.resolve(upId); // a hit
        assertEq(ledger.score(agents[1]), ledger.computeScore(1, 1, MIN_STAKE, MIN_STAKE)); // hedge counted
        assertEq(ledger.agentRecord(agents[1]).misses, 0); // nobody expired it
        assertEq(ledger.overdueCalls(agents[1]), 1);
        // The stake stays locked until the agent itself settles the hedge.
        vm.prank(agents[1]);
        vm.expectRevert(abi.encodeWithSelector(CallLedger.OpenCalls.selector, uint64(1)));
        ledger.unstake(MIN_STAKE);
    }
}
