// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test} from "forge-std/Test.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {StateLibrary} from "@uniswap/v4-core/src/libraries/StateLibrary.sol";
import {Position} from "@uniswap/v4-core/src/libraries/Position.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {Launchpad} from "../src/Launchpad.sol";
import {LaunchLocker} from "../src/LaunchLocker.sol";
import {LaunchpadFixture, TestSwapper} from "./utils/LaunchpadFixture.sol";

/// Random buys, sells, pool swaps, fee collections and attacks on the locker, over one ETH launch.
contract LaunchpadHandler is Test {
    using StateLibrary for IPoolManager;

    Launchpad public immutable pad;
    IPoolManager public immutable pm;
    LaunchLocker public immutable locker;
    TestSwapper public immutable swapper;
    address public immutable token;
    uint256 public immutable t0;
    address[3] public actors = [address(0xA11), address(0xB22), address(0xC33)];

    uint128 public seededLiquidity;
    /// Tokens the pool-fee collections burned, and the quote they paid the sink.
    uint256 public burned;
    uint256 public poolFeesPaid;
    uint256 public lockerTokensAtGraduation;
    bool public lockerShrank;

    constructor(Launchpad pad_, address token_) {
        pad = pad_;
        pm = pad_.poolManager();
        locker = pad_.locker();
        token = token_;
        t0 = block.timestamp;
        swapper = new TestSwapper(pm);
        for (uint256 i; i < 3; ++i) {
            vm.deal(actors[i], 100 ether);
        }
    }

    function buy(uint256 who, uint256 x, uint256 dt) external {
        address a = actors[who % 3];
        x = bound(x, 1, a.balance > 12 ether ? 12 ether : a.balance);
        if (x == 0) return;
        vm.warp(block.timestamp + bound(dt, 0, 30));
        vm.prank(a);
        pad.buy{value: x}(token, x, 0, block.timestamp);
        _afterGraduationCheck();
    }

    function sell(uint256 who, uint256 frac) external {
        address a = actors[who % 3];
        uint256 bal = IERC20(token).balanceOf(a);
        if (bal == 0) return;
        uint256 y = bound(frac, 1, bal);
        vm.startPrank(a);
        IERC20(token).approve(address(pad), y);
        pad.sell(token, y, 0, block.timestamp);
        vm.stopPrank();
    }

    function swapInPool(uint256 who, bool ethIn, uint256 amount) external {
        if (!pad.launchOf(token).graduated) return;
        address a = actors[who % 3];
        (PoolKey memory key,) = pad.poolOf(token);
        if (ethIn) {
            amount = bound(amount, 1, a.balance > 5 ether ? 5 ether : a.balance);
            if (amount == 0) return;
            vm.prank(a);
            swapper.swapExactIn{value: amount}(key, true, amount);
        } else {
            uint256 bal = IERC20(token).balanceOf(a);
            if (bal == 0) return;
            amount = bound(amount, 1, bal);
            vm.startPrank(a);
            IERC20(token).approve(address(swapper), amount);
            swapper.swapExactIn(key, false, amount);
            vm.stopPrank();
        }
        _afterGraduationCheck();
    }

    function collect() external {
        pad.collectFees(token);
    }

    /// #14: a graduated launch's pool fees, collected by anyone (reverts when nothing was earned).
    function collectPool(uint256 who) external {
        if (!pad.launchOf(token).graduated) return;
        vm.prank(actors[who % 3]);
        try pad.collectPoolFees(token) returns (uint256 q, uint256 b) {
            poolFeesPaid += q;
            burned += b;
        } catch {}
        _afterGraduationCheck();
    }

    /// Anyone poking the locker: every path must revert and nothing may leave it.
    function attackLocker(uint256 who, int24 lo, int24 hi, uint128 liq) external {
        PoolKey memory key = pad.poolKeyOf(token);
        vm.startPrank(actors[who % 3]);
        try locker.addLiquidity(key, lo, hi, liq) {
            lockerShrank = true; // must be unreachable
        } catch {}
        try locker.unlockCallback(abi.encode(key, lo, hi, liq)) {
            lockerShrank = true;
        } catch {}
        try pm.initialize(key, TickMath.MIN_SQRT_PRICE) {
            lockerShrank = true;
        } catch {}
        vm.stopPrank();
        _afterGraduationCheck();
    }

    function _afterGraduationCheck() internal {
        if (!pad.launchOf(token).graduated) return;
        (, PoolId id) = pad.poolOf(token);
        bytes32 pos =
            Position.calculatePositionKey(address(locker), TickMath.minUsableTick(60), TickMath.maxUsableTick(60), 0);
        uint128 liq = pm.getPositionLiquidity(id, pos);
        uint256 held = IERC20(token).balanceOf(address(locker));
        if (seededLiquidity == 0) {
            seededLiquidity = liq;
            lockerTokensAtGraduation = held;
        }
        if (liq < seededLiquidity || held < lockerTokensAtGraduation) lockerShrank = true;
    }

    function actorCount() external pure returns (uint256) {
        return 3;
    }
}

contract LaunchpadInvariantTest is LaunchpadFixture {
    LaunchpadHandler internal handler;
    address internal token;
    uint256 internal ethTotal;

    function setUp() public {
        vm.warp(1_700_000_000);
        _deployLaunchpad();
        token = pad.launch("Inv", "INV", address(0), 0);
        handler = new LaunchpadHandler(pad, token);
        targetContract(address(handler));
        ethTotal = _ethEverywhere();
    }

    function _ethEverywhere() internal view returns (uint256 sum) {
        for (uint256 i; i < 3; ++i) {
            sum += handler.actors(i).balance;
        }
        sum += address(pad).balance + address(pad.locker()).balance + address(pm).balance + address(sink).balance
        + address(handler.swapper()).balance;
    }

    /// (Φ + Q) × Y ≥ Φ × S, Q ≤ G, Y ≥ S/5 while on the curve; Q = G, Y = S/5 once graduated.
    function invariant_curve() public view {
        Launchpad.Launch memory l = pad.launchOf(token);
        assertGe((l.virtualQuote + l.quoteRaised) * l.tokenReserve, l.virtualQuote * S);
        assertLe(l.quoteRaised, G_ETH);
        assertGe(l.tokenReserve, S / 5);
        if (l.graduated) {
            assertEq(l.quoteRaised, G_ETH);
            assertEq(l.tokenReserve, S / 5);
        }
    }

    /// No ETH is created or lost across buys, sells, graduation, pool swaps and fee collection.
    function invariant_ethConserved() public view {
        assertEq(_ethEverywhere(), ethTotal);
        Launchpad.Launch memory l = pad.launchOf(token);
        assertEq(address(pad).balance, (l.graduated ? 0 : l.quoteRaised) + l.feesAccrued);
        assertEq(address(sink).balance, sink.received(token));
        assertGe(sink.received(token), handler.poolFeesPaid());
    }

    /// No token is created or lost: S = actors + curve + locker + pool + what the pool-fee collections burned, and
    /// the supply fell by exactly that.
    function invariant_tokensConserved() public view {
        uint256 sum;
        for (uint256 i; i < 3; ++i) {
            sum += IERC20(token).balanceOf(handler.actors(i));
        }
        sum += IERC20(token).balanceOf(address(pad)) + IERC20(token).balanceOf(address(pad.locker()))
        + IERC20(token).balanceOf(address(pm)) + IERC20(token).balanceOf(address(handler.swapper()));
        assertEq(sum + handler.burned(), S);
        assertEq(IERC20(token).totalSupply(), S - handler.burned());
        Launchpad.Launch memory l = pad.launchOf(token);
        if (!l.graduated) assertEq(IERC20(token).balanceOf(address(pad)), l.tokenReserve);
    }

    /// The locker never withdraws: its position and its token holdings never shrink.
    function invariant_lockerNeverWithdraws() public view {
        assertFalse(handler.lockerShrank());
    }
}
