// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test, Vm} from "forge-std/Test.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId, PoolIdLibrary} from "@uniswap/v4-core/src/types/PoolId.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {StateLibrary} from "@uniswap/v4-core/src/libraries/StateLibrary.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {DuelHook} from "../src/DuelHook.sol";
import {DuelMath} from "../src/libraries/DuelMath.sol";
import {LaunchToken} from "../src/LaunchToken.sol";
import {HookSalt} from "../script/HookSalt.sol";
import {V4Deployer} from "./utils/V4Deployer.sol";
import {V4PoolDriver} from "./utils/V4PoolDriver.sol";
import {TestERC20} from "./utils/TestERC20.sol";
import {IUnlockCallback} from "@uniswap/v4-core/src/interfaces/callback/IUnlockCallback.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";

/// Issue 35, item 1: a swapper that calls `sync(erc20)` before its swap, then pays that token in and settles (a legal
/// v4 sequence). When its swap settles a duel round, the buyback used to pay with `settle{value}`, which reverts
/// `NonzeroNativeValue` after a `sync` of an ERC-20: the buyback failed and the pot carried, every round.
contract SyncingSwapper is IUnlockCallback {
    IPoolManager immutable pm;

    constructor(IPoolManager pm_) {
        pm = pm_;
    }

    receive() external payable {}

    /// Sells `amountIn` of `key`'s token (currency1) for ETH, with `sync(token)` before the swap.
    function sellWithSyncFirst(PoolKey memory key, uint256 amountIn) external {
        pm.unlock(abi.encode(key, amountIn));
    }

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        (PoolKey memory key, uint256 amountIn) = abi.decode(data, (PoolKey, uint256));
        pm.sync(key.currency1); // sync first
        BalanceDelta d = pm.swap(
            key, SwapParams({zeroForOne: false, amountSpecified: -int256(amountIn), sqrtPriceLimitX96: TickMath.MAX_SQRT_PRICE - 1}), ""
        );
        TestERC20(Currency.unwrap(key.currency1)).transfer(address(pm), uint256(uint128(-d.amount1()))); // transfer
        pm.settle(); // settle the synced token
        pm.take(key.currency0, address(this), uint256(uint128(d.amount0())));
        return "";
    }
}

/// A token that can be told to refuse transfers to the burn address (so the duel buyback's burn reverts).
contract RefusingToken is TestERC20 {
    bool public refuse;

    constructor() TestERC20("Refuses", "NOPE", 18) {}

    function setRefuse(bool r) external {
        refuse = r;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (refuse && to == 0x000000000000000000000000000000000000dEaD) revert("no burns");
        super._update(from, to, value);
    }
}

contract DuelMathHarness {
    function share(int256 t) external pure returns (uint256) {
        return DuelMath.shareAWad(t);
    }

    function ema(uint256 e, uint256 p, uint256 dt) external pure returns (uint256) {
        return DuelMath.emaUpdate(e, p, dt);
    }

    function firstClose(uint64 s) external pure returns (uint64) {
        return DuelMath.firstClose(s);
    }

    function capSqrt(uint256 cap) external pure returns (uint256) {
        return DuelMath.capSqrtPriceX96(cap);
    }

    function price(uint160 s) external pure returns (uint256) {
        return DuelMath.tokenPriceWad(s);
    }
}

/// B1, B3, B5 pure rules with eden-core's worked examples.
contract DuelMathTest is Test {
    DuelMathHarness h;
    uint64 constant H = 3_600;
    uint64 constant DAY0 = 1_735_689_600; // 2025-01-01 00:00 UTC

    function setUp() public {
        h = new DuelMathHarness();
    }

    function test_schedule() public view {
        for (uint64 k; k < 6; ++k) assertEq(h.firstClose(DAY0 + k * 4 * H) - (DAY0 + k * 4 * H), 4 * H);
        assertEq(h.firstClose(DAY0 + 9 * H + 30 * 60), DAY0 + 16 * H);
        assertEq(h.firstClose(DAY0 + 1) - (DAY0 + 1), 8 * H - 1);
        assertEq(h.firstClose(DAY0 + 4 * H - 1), DAY0 + 8 * H);
        assertEq(h.firstClose(DAY0 + 22 * H), DAY0 + 28 * H);
        (uint64 s, uint64 e) = DuelMath.roundWindow(DAY0 + 9 * H, DAY0 + 16 * H, 0);
        assertEq(s, DAY0 + 9 * H);
        assertEq(e, DAY0 + 16 * H);
        (s, e) = DuelMath.roundWindow(DAY0 + 9 * H, DAY0 + 16 * H, 3);
        assertEq(s, DAY0 + 24 * H);
        assertEq(e, DAY0 + 28 * H);
        assertEq(DuelMath.roundAt(DAY0 + 16 * H, DAY0 + 16 * H - 1), 0);
        assertEq(DuelMath.roundAt(DAY0 + 16 * H, DAY0 + 16 * H), 1);
        assertEq(DuelMath.roundAt(DAY0 + 16 * H, DAY0 + 20 * H), 2);
    }

    function testFuzz_firstRoundLastsFourToEightHours(uint64 start) public view {
        start = uint64(bound(start, 0, type(uint64).max / 2));
        uint64 fc = h.firstClose(start);
        assertEq(fc % (4 * H), 0);
        assertGe(fc - start, 4 * H);
        assertLe(fc - start, 8 * H);
    }

    function test_split() public view {
        assertEq(h.share(0), 0.5e18);
        assertEq(h.share(6_932), 666_670_702_599_016_194);
        assertEq(h.share(-6_932), 333_329_297_400_983_805);
        assertEq(h.share(1) - h.share(0), 24_998_750_062_496);
        assertEq(h.share(887_272), 1e18 - 1);
        assertEq(h.share(2 * 887_272), 1e18 - 1);
        assertEq(h.share(500_000), 1e18 - 1);
        assertEq(h.share(-887_272), 0);
        assertEq(h.share(type(int256).min), 0);
    }

    function testFuzz_splitMonotoneAndSymmetric(int256 t) public view {
        t = bound(t, -900_000, 900_000);
        assertLe(h.share(t), h.share(t + 1));
        uint256 sum = h.share(t) + h.share(-t);
        assertLe(sum, 1e18);
        assertGe(sum + 2, 1e18);
    }

    function test_ema() public view {
        assertEq(h.ema(2e18, 4e18, 1_800), 3e18);
        assertEq(h.ema(4e18, 2e18, 1_800), 3e18);
        assertEq(h.ema(2e18, 1_000e18, 0), 2e18);
        // Rounds toward the lower price: rising floors, falling ceils.
        assertEq(h.ema(1, 10, 1), 1);
        assertEq(h.ema(10, 1, 1), 9);
    }

    function testFuzz_capSqrtPriceIsTheSmallestAtOrBelowTheCap(uint128 cap) public view {
        cap = uint128(bound(cap, 1e6, 1e30));
        uint256 s = h.capSqrt(cap);
        vm.assume(s >= TickMath.MIN_SQRT_PRICE && s < TickMath.MAX_SQRT_PRICE);
        assertLe(h.price(uint160(s)), cap);
        // One step lower the exact price is above the cap: 2^192 * 1e18 > cap * (s - 1)².
        (uint256 hi, uint256 lo) = Math.mul512(cap, (s - 1) * (s - 1));
        assertTrue(hi == 0 && lo < DuelMath.Q192_WAD);
    }
}

/// The hook on the real PoolManager (npm bytecode), pools initialised and swapped through the real v4 code.
contract DuelHookTest is Test {
    using StateLibrary for IPoolManager;
    using PoolIdLibrary for PoolKey;

    uint64 constant H = 3_600;
    uint64 constant DAY0 = 1_735_689_600;
    uint64 constant START = DAY0 + 9 * H + 30 * 60; // 09:30 UTC: round 0 ends at 16:00
    uint64 constant CLOSE0 = DAY0 + 16 * H;
    /// sqrt price of 1,000,000 tokens per ETH.
    uint160 constant SQRT_1M = uint160(1_000 << 96);

    IPoolManager pm;
    DuelHook hook;
    V4PoolDriver driver;
    TestERC20 tokenA;
    TestERC20 tokenB;
    PoolKey keyA;
    PoolKey keyB;
    address owner = makeAddr("owner");
    uint256 duelId;

    // Reference model of B2 (core duel::mean_tick): every (time, d) after a user swap, seeded at creation.
    uint64[] obsT;
    int256[] obsD;

    function setUp() public {
        vm.warp(START);
        pm = V4Deployer.deployPoolManager(address(this));
        bytes memory init = abi.encodePacked(type(DuelHook).creationCode, abi.encode(pm, owner));
        (bytes32 salt, address expected) = HookSalt.find(address(this), keccak256(init), hook_flags());
        hook = new DuelHook{salt: salt}(pm, owner);
        assertEq(address(hook), expected);
        driver = new V4PoolDriver(pm);
        vm.deal(address(driver), 1_000_000 ether);
        tokenA = new TestERC20("A", "A", 18);
        tokenB = new TestERC20("B", "B", 18);
        tokenA.mint(address(driver), 1e40);
        tokenB.mint(address(driver), 1e40);
        keyA = _pool(tokenA, SQRT_1M);
        keyB = _pool(tokenB, SQRT_1M);
        vm.prank(owner);
        duelId = hook.createDuel(keyA, keyB);
        _observe();
    }

    function hook_flags() internal pure returns (uint160) {
        return (1 << 7) | (1 << 6);
    }

    function _pool(TestERC20 token, uint160 sqrtP) internal returns (PoolKey memory key) {
        key = PoolKey({
            currency0: Currency.wrap(address(0)),
            currency1: Currency.wrap(address(token)),
            fee: 3_000,
            tickSpacing: 60,
            hooks: IHooks(address(hook))
        });
        pm.initialize(key, sqrtP);
        driver.addFullRange(key, 1e21); // ~1 ETH against ~1,000,000 tokens
    }

    function _tick(PoolKey memory key) internal view returns (int24 t) {
        (, t,,) = pm.getSlot0(key.toId());
    }

    function _d() internal view returns (int256) {
        return int256(-_tick(keyA)) - int256(-_tick(keyB));
    }

    function _observe() internal {
        obsT.push(uint64(block.timestamp));
        obsD.push(_d());
    }

    /// Buys (`up`) or sells the token of `key` for/with `amount` (ETH in when buying, tokens in when selling).
    function _swap(PoolKey memory key, bool up, uint256 amount) internal {
        driver.swapExactIn(key, up, amount);
        _observe();
    }

    /// core `round_mean_tick` over the recorded observations.
    function _refMean(uint64 start, uint64 end) internal view returns (int256 mean, bool hadSwap) {
        int256 d = 0;
        uint64 cursor = start;
        int256 integral;
        for (uint256 i; i < obsT.length; ++i) {
            if (obsT[i] >= end) continue;
            if (obsT[i] >= start) {
                if (i > 0) hadSwap = true; // index 0 is the creation seed, not a swap
                integral += d * int256(uint256(obsT[i] - cursor));
                cursor = obsT[i];
            }
            d = obsD[i];
        }
        integral += d * int256(uint256(end - cursor));
        mean = integral / int256(uint256(end - start));
    }

    // ---------------------------------------------------------------- deployment and creation

    function test_hookAddressMustCarryExactlyTheSwapFlags() public {
        vm.expectRevert();
        new DuelHook(pm, owner); // a plain CREATE address lacks the flags
        assertEq(uint160(address(hook)) & ((1 << 14) - 1), hook.HOOK_FLAGS());
    }

    function test_createDuelChecks() public {
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, address(this)));
        hook.createDuel(keyA, keyB);
        vm.startPrank(owner);
        vm.expectRevert(DuelHook.SamePool.selector);
        hook.createDuel(keyA, keyA);
        vm.expectRevert(abi.encodeWithSelector(DuelHook.PoolAlreadyInDuel.selector, keyA.toId()));
        hook.createDuel(keyA, keyB);
        TestERC20 c = new TestERC20("C", "C", 18);
        PoolKey memory noHook = PoolKey(Currency.wrap(address(0)), Currency.wrap(address(c)), 3_000, 60, IHooks(address(0)));
        vm.expectRevert(abi.encodeWithSelector(DuelHook.NotDuelPool.selector, noHook.toId()));
        hook.createDuel(noHook, keyB);
        PoolKey memory uninit = PoolKey(Currency.wrap(address(0)), Currency.wrap(address(c)), 3_000, 60, IHooks(address(hook)));
        vm.expectRevert(abi.encodeWithSelector(DuelHook.PoolNotInitialized.selector, uninit.toId()));
        hook.createDuel(uninit, keyB);
        (address lo, address hi) = address(tokenA) < address(c) ? (address(tokenA), address(c)) : (address(c), address(tokenA));
        PoolKey memory erc = PoolKey(Currency.wrap(lo), Currency.wrap(hi), 3_000, 60, IHooks(address(hook)));
        vm.expectRevert(DuelHook.NotNativeEthPool.selector);
        hook.createDuel(erc, keyB);
        vm.stopPrank();
        vm.expectRevert(abi.encodeWithSelector(DuelHook.UnknownDuel.selector, 5));
        hook.getDuel(5);
        DuelHook.Duel memory d = hook.getDuel(duelId);
        assertEq(d.start, START);
        assertEq(d.firstClose, CLOSE0);
        assertEq(d.heldD, 0);
        assertEq(d.emaA.value, DuelMath.tokenPriceWad(SQRT_1M));
        assertEq(hook.liveShareA(duelId), 0.5e18);
    }

    // ---------------------------------------------------------------- B2, B7

    function test_firstSwapAfterTheCloseSettlesBeforeItRuns() public {
        vm.warp(START + 1 * H);
        _swap(keyA, true, 0.01 ether); // A up
        assertGt(_d(), 0);
        vm.warp(START + 5 * H);
        _swap(keyB, true, 0.03 ether); // B up more: B leads from here
        assertLt(_d(), 0);
        (int256 refMean, bool refSwap) = _refMean(START, CLOSE0);
        (uint64 r, bool awaiting, int256 live, DuelHook.Winner lw) = hook.pendingResult(duelId);
        assertEq(r, 0);
        assertFalse(awaiting);
        vm.warp(CLOSE0 + 10);
        (r, awaiting, live, lw) = hook.pendingResult(duelId);
        assertTrue(awaiting);
        assertEq(live, refMean);
        // Late trading after the close cannot change the result: the first swap settles it before it runs.
        vm.expectEmit(address(hook));
        emit DuelHook.RoundSettled(duelId, 0, refMean > 0 ? DuelHook.Winner.A : DuelHook.Winner.B, refMean, 0, 0, 0);
        _swap(keyA, true, 1 ether);
        DuelHook.RoundResult memory res = hook.result(duelId, 0);
        assertTrue(res.settled);
        assertTrue(refSwap);
        assertEq(res.meanTick, refMean);
        assertEq(uint8(res.winner), uint8(lw));
        // A led 4 h by a smaller margin, B 2.5 h by a larger one: the integral decides.
        assertTrue(res.winner == DuelHook.Winner.A || res.winner == DuelHook.Winner.B);
        DuelHook.Duel memory d = hook.getDuel(duelId);
        assertEq(d.activeRound, 1);
        assertTrue(d.hadSwap);
    }

    function test_settleWhenNobodyTradesAndNothingToSettle() public {
        vm.expectRevert(abi.encodeWithSelector(DuelHook.NothingToSettle.selector, duelId));
        hook.settle(duelId);
        vm.warp(START + H);
        _swap(keyA, true, 0.05 ether);
        vm.warp(CLOSE0);
        hook.settle(duelId);
        DuelHook.RoundResult memory res = hook.result(duelId, 0);
        assertEq(uint8(res.winner), uint8(DuelHook.Winner.A));
        (int256 refMean,) = _refMean(START, CLOSE0);
        assertEq(res.meanTick, refMean);
        assertEq(hook.getDuel(duelId).streakA, 1);
        vm.expectRevert(abi.encodeWithSelector(DuelHook.NothingToSettle.selector, duelId));
        hook.settle(duelId);
    }

    function test_noSwapNoWinnerAndTinyMeansNoWinner() public {
        // Round 0 without any swap: no winner even though d may be non-zero.
        vm.warp(CLOSE0);
        hook.settle(duelId);
        assertEq(uint8(hook.result(duelId, 0).winner), uint8(DuelHook.Winner.None));
        // A swap that moves nothing (|mean| < 1 tick) in round 1: no winner.
        vm.warp(CLOSE0 + H);
        _swap(keyA, true, 1);
        vm.warp(CLOSE0 + 4 * H);
        hook.settle(duelId);
        DuelHook.RoundResult memory res = hook.result(duelId, 1);
        assertEq(res.meanTick, 0);
        assertEq(uint8(res.winner), uint8(DuelHook.Winner.None));
    }

    function test_idleDuelWakesInTheCurrentRound() public {
        vm.warp(START + H);
        _swap(keyA, true, 0.05 ether); // A leads from here on
        vm.warp(CLOSE0 + 3 days + 5);
        vm.expectEmit(address(hook));
        emit DuelHook.RoundsSkipped(duelId, 1, 18); // rounds 1..18 had no swap
        _swap(keyB, true, 0.001 ether);
        DuelHook.Duel memory d = hook.getDuel(duelId);
        assertEq(d.activeRound, 19);
        assertEq(d.streakA, 1);
        assertFalse(hook.result(duelId, 5).settled);
        // The new round integrates the carried d from its own start.
        (uint64 s,) = hook.roundWindow(duelId, 19);
        assertEq(s, CLOSE0 + 3 days);
    }

    /// B6: no-winner rounds do not break a streak; only the other side winning ends it.
    function test_streaks() public {
        vm.warp(START + H);
        _swap(keyA, true, 0.05 ether); // A leads
        vm.warp(CLOSE0 + 1);
        _swap(keyA, true, 0.001 ether); // settles round 0 (A), trades in round 1 (A still leads)
        vm.warp(CLOSE0 + 4 * H + 1);
        _swap(keyA, true, 0.001 ether); // settles round 1 (A)
        // Round 2 has a swap; round 3 has none (skipped, no winner).
        vm.warp(CLOSE0 + 12 * H + 1);
        _swap(keyB, true, 0.5 ether); // settles round 2 (A), skips 3; B takes the lead
        DuelHook.Duel memory d = hook.getDuel(duelId);
        assertEq(d.streakA, 3);
        assertEq(d.bestA, 3);
        vm.warp(CLOSE0 + 16 * H + 1);
        hook.settle(duelId); // round 4: B wins
        d = hook.getDuel(duelId);
        assertEq(d.streakA, 0);
        assertEq(d.streakB, 1);
        assertEq(d.bestA, 3);
        assertEq(d.bestB, 1);
    }

    // ---------------------------------------------------------------- B4, B5 pot and buyback

    function test_buybackUpToTheCapBurnsAndRollsTheRest() public {
        vm.deal(address(this), 100 ether);
        hook.fund{value: 10 ether}(duelId);
        vm.expectRevert(DuelHook.ZeroAmount.selector);
        hook.fund(duelId);
        vm.warp(START + 2 * H);
        _swap(keyA, true, 0.05 ether); // A leads
        vm.warp(CLOSE0);
        (uint160 sqrtBefore,,,) = pm.getSlot0(keyA.toId());
        uint256 priceBefore = DuelMath.tokenPriceWad(sqrtBefore);
        DuelHook.Duel memory d0 = hook.getDuel(duelId);
        uint256 ema = DuelMath.emaUpdate(d0.emaA.value, priceBefore, CLOSE0 - d0.emaA.last);
        uint256 cap = DuelMath.capWad(ema, priceBefore);
        hook.settle(duelId);
        DuelHook.RoundResult memory res = hook.result(duelId, 0);
        assertEq(uint8(res.winner), uint8(DuelHook.Winner.A));
        assertGt(res.ethSpent, 0);
        assertLt(res.ethSpent, 10 ether); // a ~1 ETH pool cannot absorb 10 ETH below the cap
        assertEq(tokenA.balanceOf(hook.BURN_ADDRESS()), res.tokensBurned);
        DuelHook.Duel memory d = hook.getDuel(duelId);
        assertEq(d.pot, 10 ether - res.ethSpent);
        assertEq(pm.balanceOf(address(hook), 0), d.pot); // the pot is the hook's claims on ETH
        assertEq(d.emaA.value, ema);
        (uint160 sqrtAfter,,,) = pm.getSlot0(keyA.toId());
        assertLe(DuelMath.tokenPriceWad(sqrtAfter), cap);
        assertEq(sqrtAfter, DuelMath.capSqrtPriceX96(cap)); // stopped exactly at the cap
        // The buyback moved A's price: the held d follows it, but the buyback is not round activity.
        assertEq(d.heldD, _d());
        assertFalse(d.hadSwap);
        // Nobody trades in round 1: it is skipped at the next settlement; the unspent pot is still there.
        vm.warp(CLOSE0 + 8 * H);
        hook.settle(duelId);
        assertEq(hook.getDuel(duelId).pot, 10 ether - res.ethSpent);
        assertEq(uint8(hook.result(duelId, 1).winner), uint8(DuelHook.Winner.None));
    }

    function test_emaBelowThePriceLimitsTheBuyback() public {
        vm.deal(address(this), 10 ether);
        hook.fund{value: 5 ether}(duelId);
        // A pumps 20 % one minute before the close: its EMA lags, so cap = 1.1 * EMA < price: nothing is bought.
        vm.warp(CLOSE0 - 60);
        _swap(keyA, true, 0.1 ether);
        vm.warp(CLOSE0);
        hook.settle(duelId);
        DuelHook.RoundResult memory res = hook.result(duelId, 0);
        assertEq(uint8(res.winner), uint8(DuelHook.Winner.A));
        assertEq(res.ethSpent, 0);
        assertEq(hook.getDuel(duelId).pot, 5 ether);
    }

    function test_potRollsOverWithoutAWinner() public {
        vm.deal(address(this), 1 ether);
        hook.fund{value: 1 ether}(duelId);
        vm.warp(CLOSE0);
        hook.settle(duelId);
        assertEq(hook.getDuel(duelId).pot, 1 ether);
        assertEq(hook.result(duelId, 0).ethSpent, 0);
    }

    /// A second duel over `ka` / `kb` with `pot` in its pot, two hours into round 0.
    function _fundedDuel(PoolKey memory ka, PoolKey memory kb, uint256 pot) internal returns (uint256 id) {
        vm.prank(owner);
        id = hook.createDuel(ka, kb);
        vm.deal(address(this), pot);
        hook.fund{value: pot}(id);
        vm.warp(START + 2 * H);
    }

    /// Review finding 7: a revert inside the buyback (here the winner refuses the burn transfer) blocked every swap
    /// in both duel pools. The round now settles without the buyback, the pot waits, and trading goes on.
    function test_review7_aFailingBuybackNeverBlocksTrading() public {
        RefusingToken nope = new RefusingToken();
        TestERC20 other = new TestERC20("O", "O", 18);
        nope.mint(address(driver), 1e40);
        other.mint(address(driver), 1e40);
        PoolKey memory kn = _pool(TestERC20(address(nope)), SQRT_1M);
        PoolKey memory ko = _pool(other, SQRT_1M);
        uint256 id = _fundedDuel(kn, ko, 5 ether);
        driver.swapExactIn(kn, true, 0.01 ether); // NOPE leads the round
        nope.setRefuse(true);
        vm.warp(CLOSE0);
        vm.expectEmit(address(hook));
        emit DuelHook.BuybackFailed(id, 0, 5 ether);
        driver.swapExactIn(ko, true, 0.01 ether); // the settling swap goes through
        DuelHook.RoundResult memory res = hook.result(id, 0);
        assertTrue(res.settled);
        assertEq(uint8(res.winner), uint8(DuelHook.Winner.A));
        assertEq(res.ethSpent, 0);
        assertEq(hook.getDuel(id).pot, 5 ether); // waits for the next round
        assertEq(hook.getDuel(id).streakA, 1);
        driver.swapExactIn(kn, false, 1e18); // and both pools keep trading
        driver.swapExactIn(ko, false, 1e18);
        // Once the token accepts burns again, a later winning round spends the pot.
        nope.setRefuse(false);
        driver.swapExactIn(kn, true, 0.05 ether);
        vm.warp(CLOSE0 + 4 * H);
        hook.settle(id);
        assertGt(hook.result(id, 1).ethSpent, 0);
    }

    /// Issue 35, item 1: one dust swap with `sync(token)` before it, sent as the round's first swap after the close,
    /// used to cancel the winner's buyback (the pot carried, `BuybackFailed`), every round. The pot is now claims and
    /// the buyback pays by burning them: the same swap settles the round with the buyback spent and burned, exactly
    /// as an ordinary swap at that moment does.
    function test_secondReview_aSyncBeforeTheSettlingSwapCannotCancelTheBuyback() public {
        vm.deal(address(this), 10 ether);
        hook.fund{value: 5 ether}(duelId);
        assertEq(pm.balanceOf(address(hook), 0), 5 ether);
        assertEq(address(hook).balance, 0);
        vm.warp(START + 2 * H);
        _swap(keyA, true, 0.05 ether); // A leads
        // The reference: the same round settled by an ordinary swap, in a snapshot.
        uint256 snap = vm.snapshotState();
        vm.warp(CLOSE0);
        driver.swapExactIn(keyB, false, 1e15);
        DuelHook.RoundResult memory ordinary = hook.result(duelId, 0);
        assertGt(ordinary.ethSpent, 0);
        vm.revertToState(snap);
        // The attack: a dust sale of B with sync(B) first, as the first swap after the close.
        SyncingSwapper s = new SyncingSwapper(pm);
        tokenB.mint(address(s), 1e15);
        vm.warp(CLOSE0);
        vm.recordLogs();
        s.sellWithSyncFirst(keyB, 1e15);
        Vm.Log[] memory logs = vm.getRecordedLogs();
        for (uint256 i; i < logs.length; ++i) {
            assertTrue(logs[i].topics[0] != DuelHook.BuybackFailed.selector, "no BuybackFailed");
        }
        DuelHook.RoundResult memory res = hook.result(duelId, 0);
        assertTrue(res.settled);
        assertEq(uint8(res.winner), uint8(DuelHook.Winner.A));
        assertEq(res.ethSpent, ordinary.ethSpent, "the buyback spent what an ordinary swap's settlement spends");
        assertEq(res.tokensBurned, ordinary.tokensBurned);
        assertEq(hook.getDuel(duelId).pot, 5 ether - res.ethSpent);
        assertEq(pm.balanceOf(address(hook), 0), 5 ether - res.ethSpent);
    }

    /// A pot is funded outside an unlock only (its ETH becomes claims in the hook's own unlock); plain ETH sent to
    /// the hook, which no pot would count, is refused.
    function test_secondReview_potsAreFundedOnlyThroughFund() public {
        vm.deal(address(this), 2 ether);
        (bool ok,) = address(hook).call{value: 1 ether}("");
        assertFalse(ok, "plain ETH is refused");
        FundingInsideUnlock f = new FundingInsideUnlock(pm, hook);
        vm.deal(address(f), 1 ether);
        vm.expectRevert();
        f.fundInsideUnlock(duelId);
        hook.fund{value: 1 ether}(duelId);
        assertEq(pm.balanceOf(address(hook), 0), 1 ether);
    }

    /// Seed 004 ("the winner's supply shrinks"): a launch token (ERC20Burnable) bought back is burned, so its
    /// `totalSupply` falls by exactly what the round bought and nothing sits at 0xdEaD; the hook keeps none.
    function test_launchTokenBuybackLowersTotalSupply() public {
        LaunchToken win = new LaunchToken("Win", "WIN", 1e40, address(driver));
        TestERC20 other = new TestERC20("O", "O", 18);
        other.mint(address(driver), 1e40);
        PoolKey memory kw = _pool(TestERC20(address(win)), SQRT_1M);
        PoolKey memory ko = _pool(other, SQRT_1M);
        uint256 id = _fundedDuel(kw, ko, 5 ether);
        driver.swapExactIn(kw, true, 0.01 ether); // WIN leads the round
        uint256 supplyBefore = win.totalSupply();
        vm.warp(CLOSE0);
        vm.recordLogs();
        hook.settle(id);
        DuelHook.RoundResult memory res = hook.result(id, 0);
        assertEq(uint8(res.winner), uint8(DuelHook.Winner.A));
        assertGt(res.tokensBurned, 0);
        assertEq(win.totalSupply(), supplyBefore - res.tokensBurned);
        assertEq(win.balanceOf(hook.BURN_ADDRESS()), 0);
        assertEq(win.balanceOf(address(hook)), 0);
        bool seen;
        Vm.Log[] memory logs = vm.getRecordedLogs();
        for (uint256 i; i < logs.length; ++i) {
            if (logs[i].topics[0] == DuelHook.BurnedTo.selector) {
                assertEq(address(uint160(uint256(logs[i].topics[1]))), address(win));
                assertEq(address(uint160(uint256(logs[i].topics[2]))), address(0));
                assertEq(abi.decode(logs[i].data, (uint256)), res.tokensBurned);
                seen = true;
            }
        }
        assertTrue(seen);
    }

    /// A token without `burn` (TestERC20) is sent to 0xdEaD instead, and the event says so.
    function test_tokenWithoutBurnGoesToDead() public {
        vm.deal(address(this), 10 ether);
        hook.fund{value: 1 ether}(duelId);
        vm.warp(START + 2 * H);
        _swap(keyA, true, 0.05 ether);
        vm.warp(CLOSE0);
        uint256 supplyBefore = tokenA.totalSupply();
        hook.settle(duelId);
        DuelHook.RoundResult memory res = hook.result(duelId, 0);
        assertGt(res.tokensBurned, 0);
        assertEq(tokenA.totalSupply(), supplyBefore);
        assertEq(tokenA.balanceOf(hook.BURN_ADDRESS()), res.tokensBurned);
    }

    /// Review finding 7: near v4's minimum price (tick spacing 1, so the full-range bound is MIN_SQRT_PRICE itself)
    /// the buyback's price limit fell outside v4's bounds and the swap reverted. The limit is clamped inside them,
    /// and whatever happens in the buyback frame, the settling swap goes through.
    function test_review7_aCapNearTheMinimumPriceNeverBlocksTrading() public {
        TestERC20 dear = new TestERC20("Dear", "DEAR", 18);
        TestERC20 other = new TestERC20("O", "O", 18);
        dear.mint(address(driver), 1e40);
        other.mint(address(driver), 1e40);
        PoolKey memory kd = PoolKey({
            currency0: Currency.wrap(address(0)),
            currency1: Currency.wrap(address(dear)),
            fee: 3_000,
            tickSpacing: 1,
            hooks: IHooks(address(hook))
        });
        pm.initialize(kd, TickMath.getSqrtPriceAtTick(TickMath.MIN_TICK + 200));
        driver.addFullRange(kd, 1e4); // ~180,000 ETH against a handful of token wei
        PoolKey memory ko = _pool(other, SQRT_1M);
        uint256 id = _fundedDuel(kd, ko, 1 ether);
        driver.swapExactIn(ko, true, 0.01 ether); // round activity; DEAR leads by its price
        vm.warp(CLOSE0);
        driver.swapExactIn(ko, true, 0.01 ether); // settles: DEAR wins, its buyback runs at the bound
        DuelHook.RoundResult memory res = hook.result(id, 0);
        assertTrue(res.settled);
        assertEq(uint8(res.winner), uint8(DuelHook.Winner.A));
        (uint160 sqrtAfter,,,) = pm.getSlot0(kd.toId());
        assertGt(sqrtAfter, TickMath.MIN_SQRT_PRICE);
        assertEq(hook.getDuel(id).pot + res.ethSpent, 1 ether);
        driver.swapExactIn(kd, false, 1e6); // DEAR's pool still trades
    }

    function test_review7_theBuybackFrameIsOnlyForTheHookItself() public {
        vm.expectRevert(abi.encodeWithSelector(DuelHook.OnlySelf.selector, address(this)));
        hook.buyback(duelId, true);
    }

    function test_callbacksOnlyFromThePoolManager() public {
        vm.expectRevert(abi.encodeWithSelector(DuelHook.OnlyPoolManager.selector, address(this)));
        hook.unlockCallback(abi.encode(duelId));
    }

    /// Random swap sequences across several rounds: mean ticks, winners and streaks equal the reference model
    /// (core `round_mean_tick` / `Streaks`), and ETH is conserved (pot + spent == funded).
    uint32 refStreakA;
    uint32 refStreakB;
    uint256 refSpent;

    function testFuzz_randomSwapsMatchTheReference(uint8[12] memory kinds, uint16[12] memory gaps, uint64[12] memory amounts)
        public
    {
        vm.deal(address(this), 10 ether);
        hook.fund{value: 2 ether}(duelId);
        for (uint256 i; i < 12; ++i) _step(kinds[i], gaps[i], amounts[i]);
        DuelHook.Duel memory d = hook.getDuel(duelId);
        assertEq(d.streakA, refStreakA, "streakA");
        assertEq(d.streakB, refStreakB, "streakB");
        assertEq(d.pot + refSpent, 2 ether, "pot");
        assertEq(pm.balanceOf(address(hook), 0), d.pot, "the pot is held as claims on ETH");
        assertEq(address(hook).balance, 0);
    }

    function _step(uint8 kind, uint16 gap, uint64 amount) internal {
        vm.warp(block.timestamp + bound(gap, 0, 5 * H));
        uint64 activeBefore = hook.getDuel(duelId).activeRound;
        uint64 current = hook.currentRound(duelId);
        uint256 amt = bound(amount, 1e12, 0.2 ether);
        uint8 k = kind % 5;
        if (k == 4) {
            if (current == activeBefore) return;
            hook.settle(duelId);
            _observeNoSwap();
        } else {
            _swap(k < 2 ? keyA : keyB, k % 2 == 0, k % 2 == 0 ? amt : amt * 1_000_000);
        }
        if (current == activeBefore) return;
        (uint64 s, uint64 e) = hook.roundWindow(duelId, activeBefore);
        (int256 refMean, bool refSwap) = _refMeanExcludingBuybacks(s, e);
        DuelHook.RoundResult memory res = hook.result(duelId, activeBefore);
        assertTrue(res.settled);
        assertEq(res.meanTick, refMean, "meanTick");
        DuelHook.Winner w =
            !refSwap || refMean == 0 ? DuelHook.Winner.None : (refMean > 0 ? DuelHook.Winner.A : DuelHook.Winner.B);
        assertEq(uint8(res.winner), uint8(w), "winner");
        if (w == DuelHook.Winner.A) (refStreakA, refStreakB) = (refStreakA + 1, 0);
        if (w == DuelHook.Winner.B) (refStreakA, refStreakB) = (0, refStreakB + 1);
        refSpent += res.ethSpent;
    }

    // Buybacks move d without being swaps: the model records them as d changes that are not round activity.
    bool[] obsIsSwap;

    function _observeNoSwap() internal {
        obsT.push(uint64(block.timestamp));
        obsD.push(_d());
        while (obsIsSwap.length < obsT.length - 1) obsIsSwap.push(true);
        obsIsSwap.push(false);
    }

    function _refMeanExcludingBuybacks(uint64 start, uint64 end) internal returns (int256 mean, bool hadSwap) {
        while (obsIsSwap.length < obsT.length) obsIsSwap.push(true);
        int256 d = 0;
        uint64 cursor = start;
        int256 integral;
        for (uint256 i; i < obsT.length; ++i) {
            if (obsT[i] >= end) continue;
            if (obsT[i] >= start) {
                if (i > 0 && obsIsSwap[i]) hadSwap = true;
                integral += d * int256(uint256(obsT[i] - cursor));
                cursor = obsT[i];
            }
            d = obsD[i];
        }
        integral += d * int256(uint256(end - cursor));
        mean = integral / int256(uint256(end - start));
    }
}

/// Calls `DuelHook.fund` from inside its own PoolManager unlock (refused: `FundInsideUnlock`).
contract FundingInsideUnlock is IUnlockCallback {
    IPoolManager immutable pm;
    DuelHook immutable hook;

    constructor(IPoolManager pm_, DuelHook hook_) {
        pm = pm_;
        hook = hook_;
    }

    function fundInsideUnlock(uint256 duelId) external {
        pm.unlock(abi.encode(duelId));
    }

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        hook.fund{value: 1 ether}(abi.decode(data, (uint256)));
        return "";
    }
}
