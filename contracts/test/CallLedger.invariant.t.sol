// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test} from "forge-std/Test.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {CallLedger} from "../src/CallLedger.sol";
import {TestERC20} from "./utils/TestERC20.sol";

/// Drives random commits, reveals, resolutions, expiries, price pushes and time.
contract CallLedgerHandler is Test {
    CallLedger public immutable ledger;
    TestERC20 public immutable stakeToken;
    address public immutable updater;
    address public constant ASSET = address(0xA5A5);
    address[4] public agents;
    bytes32[] public salts; // salt of call id i
    uint8[] public dirs;
    uint64[] public windows;
    uint256 public price = 100e18;
    uint256 public staked;

    constructor(CallLedger ledger_, TestERC20 stakeToken_, address updater_) {
        ledger = ledger_;
        stakeToken = stakeToken_;
        updater = updater_;
        for (uint256 i; i < 4; ++i) {
            agents[i] = address(uint160(0xA9E0 + i));
            _stake(i, 100e18 + i * 37e18);
        }
    }

    function _stake(uint256 i, uint256 amount) internal {
        stakeToken.mint(agents[i], amount);
        vm.startPrank(agents[i]);
        stakeToken.approve(address(ledger), amount);
        ledger.stake(amount);
        vm.stopPrank();
        staked += amount;
    }

    function stake(uint256 i, uint256 amount) external {
        _stake(i % 4, bound(amount, 1, 1_000e18));
    }

    function unstake(uint256 i, uint256 amount) external {
        address a = agents[i % 4];
        CallLedger.AgentRecord memory r = ledger.agentRecord(a);
        if (r.openCalls != 0 || r.stake == 0) return;
        amount = bound(amount, 1, r.stake);
        vm.prank(a);
        ledger.unstake(amount);
        staked -= amount;
    }

    function commit(uint256 i, bool up, uint256 window, bytes32 salt) external {
        address a = agents[i % 4];
        if (ledger.agentRecord(a).stake < ledger.minStake()) return;
        if (ledger.agentRecord(a).openCalls >= ledger.MAX_OPEN_CALLS()) return;
        uint64 w = uint64(bound(window, ledger.MIN_WINDOW(), 4 hours));
        uint8 d = up ? 1 : 0;
        bytes32 c = ledger.callCommitment(a, ASSET, d, w, salt);
        if (ledger.commitmentUsed(a, c)) return;
        vm.prank(a);
        ledger.commit(c);
        salts.push(salt);
        dirs.push(d);
        windows.push(w);
    }

    function reveal(uint256 id) external {
        if (salts.length == 0) return;
        id %= salts.length;
        CallLedger.Call memory c = ledger.getCall(id);
        if (c.status != CallLedger.Status.Committed || block.timestamp > c.committedAt + 3600) return;
        vm.prank(c.agent);
        if (block.timestamp < c.committedAt + ledger.MIN_REVEAL_AGE()) {
            // Second review, item 5: a young commitment is refused, whoever tries.
            vm.expectRevert(
                abi.encodeWithSelector(CallLedger.RevealTooEarly.selector, block.timestamp, c.committedAt + ledger.MIN_REVEAL_AGE())
            );
        }
        ledger.reveal(id, ASSET, dirs[id], windows[id], salts[id]);
    }

    function resolve(uint256 id) external {
        if (salts.length == 0) return;
        id %= salts.length;
        CallLedger.Call memory c = ledger.getCall(id);
        if (c.status != CallLedger.Status.Revealed || block.timestamp < c.closesAt) return;
        ledger.resolve(id);
    }

    function expire(uint256 id) external {
        if (salts.length == 0) return;
        id %= salts.length;
        CallLedger.Call memory c = ledger.getCall(id);
        if (c.status != CallLedger.Status.Committed || block.timestamp <= c.committedAt + 3600) return;
        ledger.expire(id);
    }

    function push(uint256 p) external {
        price = bound(p, 90e18, 110e18);
        vm.prank(updater);
        ledger.pushPrice(ASSET, price);
    }

    function warp(uint256 dt) external {
        // Mostly short steps, so reveals land both before and after MIN_REVEAL_AGE.
        vm.warp(block.timestamp + (dt % 2 == 0 ? bound(dt, 1, 600) : bound(dt, 1, 3 hours)));
    }

    function callCount() external view returns (uint256) {
        return salts.length;
    }

    function agent(uint256 i) external view returns (address) {
        return agents[i];
    }
}

contract CallLedgerInvariantTest is Test {
    CallLedger ledger;
    TestERC20 stakeToken;
    CallLedgerHandler handler;

    function setUp() public {
        vm.warp(1_750_000_000);
        address updater = makeAddr("updater");
        stakeToken = new TestERC20("Stake", "STK", 18);
        ledger = new CallLedger(address(this), IERC20(address(stakeToken)), address(0x05D6), 100e18, true);
        ledger.setUpdater(address(0xA5A5), updater);
        vm.prank(updater);
        ledger.pushPrice(address(0xA5A5), 100e18);
        handler = new CallLedgerHandler(ledger, stakeToken, updater);
        targetContract(address(handler));
    }

    /// The ledger holds exactly the stakes.
    function invariant_stakeIsFullyBacked() public view {
        uint256 sum;
        for (uint256 i; i < 4; ++i) sum += ledger.agentRecord(handler.agent(i)).stake;
        assertEq(sum, handler.staked());
        assertEq(stakeToken.balanceOf(address(ledger)), sum);
    }

    /// Every finished call is counted once in its agent's record; open calls are exactly the unfinished ones (and
    /// the agent's open list names them); streak <= bestStreak <= hits; the score is the A1 formula of the record
    /// with every overdue open call (committed past its reveal deadline, revealed past closesAt + grace) a miss.
    function invariant_recordsMatchCalls() public view {
        uint256 n = ledger.callCount();
        uint256[4] memory finished;
        uint256[4] memory open;
        uint64[4] memory overdue;
        for (uint256 id; id < n; ++id) {
            CallLedger.Call memory c = ledger.getCall(id);
            uint256 k = uint160(c.agent) - 0xA9E0;
            if (c.status == CallLedger.Status.Resolved || c.status == CallLedger.Status.Expired) {
                finished[k]++;
            } else {
                open[k]++;
                if (c.status == CallLedger.Status.Committed && block.timestamp > c.committedAt + 3600) overdue[k]++;
                if (c.status == CallLedger.Status.Revealed && block.timestamp > c.closesAt + 3600) overdue[k]++;
            }
        }
        for (uint256 k; k < 4; ++k) {
            address a = handler.agent(k);
            CallLedger.AgentRecord memory r = ledger.agentRecord(a);
            assertEq(uint256(r.hits) + r.misses + r.voids, finished[k]);
            assertEq(r.openCalls, open[k]);
            assertEq(ledger.openCallIds(a).length, open[k]);
            assertLe(r.openCalls, ledger.MAX_OPEN_CALLS());
            assertLe(r.streak, r.bestStreak);
            assertLe(r.bestStreak, r.hits);
            assertEq(ledger.overdueCalls(a), overdue[k]);
            assertEq(ledger.score(a), ledger.computeScore(r.hits, r.misses + overdue[k], r.stake, 100e18));
        }
    }

    /// Second review, item 5: every revealed call was revealed at least `MIN_REVEAL_AGE` after its commit and no later
    /// than its deadline.
    function invariant_revealsOnlyInsideTheirWindow() public view {
        for (uint256 id; id < ledger.callCount(); ++id) {
            CallLedger.Call memory c = ledger.getCall(id);
            if (c.revealedAt == 0) continue;
            assertGe(c.revealedAt, c.committedAt + ledger.MIN_REVEAL_AGE());
            assertLe(c.revealedAt, c.committedAt + ledger.REVEAL_DEADLINE());
        }
    }
}
