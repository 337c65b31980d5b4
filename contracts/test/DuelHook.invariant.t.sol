// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test} from "forge-std/Test.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {DuelHook} from "../src/DuelHook.sol";
import {HookSalt} from "../script/HookSalt.sol";
import {V4Deployer} from "./utils/V4Deployer.sol";
import {V4PoolDriver} from "./utils/V4PoolDriver.sol";
import {TestERC20} from "./utils/TestERC20.sol";
import {SyncingSwapper} from "./DuelHook.t.sol";

/// Drives one duel with random fundings, buys and sells in both pools (some through a swapper that calls
/// `sync(token)` before its swap, issue 35 item 1), settlements and time.
contract DuelHookHandler is Test {
    IPoolManager public immutable pm;
    DuelHook public immutable hook;
    V4PoolDriver public immutable driver;
    SyncingSwapper public immutable syncer;
    PoolKey public keyA;
    PoolKey public keyB;
    uint256 public funded;
    uint256 public spentByResults;
    uint64 public roundsChecked;

    constructor(IPoolManager pm_, DuelHook hook_, V4PoolDriver driver_, PoolKey memory a, PoolKey memory b) {
        pm = pm_;
        hook = hook_;
        driver = driver_;
        keyA = a;
        keyB = b;
        syncer = new SyncingSwapper(pm_);
        TestERC20(Currency.unwrap(a.currency1)).mint(address(syncer), 1e30);
        TestERC20(Currency.unwrap(b.currency1)).mint(address(syncer), 1e30);
    }

    function fund(uint256 amount) external {
        amount = bound(amount, 1, 3 ether);
        vm.deal(address(this), amount);
        hook.fund{value: amount}(0);
        funded += amount;
    }

    function buy(bool a, uint256 amount) external {
        driver.swapExactIn(a ? keyA : keyB, true, bound(amount, 1e12, 0.2 ether));
    }

    function sell(bool a, uint256 amount) external {
        driver.swapExactIn(a ? keyA : keyB, false, bound(amount, 1e15, 2e23));
    }

    function sellWithSyncFirst(bool a, uint256 amount) external {
        syncer.sellWithSyncFirst(a ? keyA : keyB, bound(amount, 1e12, 1e21));
    }

    function settle() external {
        if (hook.currentRound(0) == hook.getDuel(0).activeRound) return;
        hook.settle(0);
    }

    function warp(uint256 dt) external {
        vm.warp(block.timestamp + bound(dt, 1, 6 hours));
    }

    /// The ETH every settled round's buyback spent, summed over the rounds settled so far.
    function spentSoFar() external returns (uint256 total) {
        uint64 active = hook.getDuel(0).activeRound;
        for (uint64 r; r < active; ++r) total += hook.result(0, r).ethSpent;
        spentByResults = total;
    }

    receive() external payable {}
}

contract DuelHookInvariantTest is Test {
    IPoolManager pm;
    DuelHook hook;
    DuelHookHandler handler;

    function setUp() public {
        vm.warp(1_735_689_600 + 9 hours);
        pm = V4Deployer.deployPoolManager(address(this));
        bytes memory init = abi.encodePacked(type(DuelHook).creationCode, abi.encode(pm, address(this)));
        (bytes32 salt,) = HookSalt.find(address(this), keccak256(init), (1 << 7) | (1 << 6));
        hook = new DuelHook{salt: salt}(pm, address(this));
        V4PoolDriver driver = new V4PoolDriver(pm);
        vm.deal(address(driver), 1_000_000 ether);
        PoolKey memory a = _pool(driver, new TestERC20("A", "A", 18));
        PoolKey memory b = _pool(driver, new TestERC20("B", "B", 18));
        hook.createDuel(a, b);
        handler = new DuelHookHandler(pm, hook, driver, a, b);
        targetContract(address(handler));
    }

    function _pool(V4PoolDriver driver, TestERC20 token) internal returns (PoolKey memory key) {
        token.mint(address(driver), 1e40);
        key = PoolKey(Currency.wrap(address(0)), Currency.wrap(address(token)), 3_000, 60, IHooks(address(hook)));
        pm.initialize(key, uint160(1_000 << 96));
        driver.addFullRange(key, 1e21);
    }

    /// Issue 35, item 1: the pot is exactly the hook's claims on ETH, and the hook holds no ETH of its own.
    function invariant_thePotIsTheHooksClaims() public view {
        assertEq(pm.balanceOf(address(hook), 0), hook.getDuel(0).pot);
        assertEq(address(hook).balance, 0);
    }

    /// Nothing leaves the pot but the buybacks the round results record: funded = pot + spent.
    function invariant_everyWeiFundedIsInThePotOrSpentByARecordedBuyback() public {
        assertEq(handler.funded(), hook.getDuel(0).pot + handler.spentSoFar());
    }
}
