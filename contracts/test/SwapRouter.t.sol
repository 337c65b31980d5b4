// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test} from "forge-std/Test.sol";
import {IERC20Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {SwapRouter} from "../src/SwapRouter.sol";
import {V4Deployer} from "./utils/V4Deployer.sol";
import {V4PoolDriver} from "./utils/V4PoolDriver.sol";
import {TestERC20} from "./utils/TestERC20.sol";

/// @notice The swap router (D7) against the real v4 PoolManager: it pays exactly what the pool's own
/// swap pays, takes input only from its caller, and every attack below fails.
contract SwapRouterTest is Test {
    IPoolManager pm;
    SwapRouter router;
    V4PoolDriver driver;
    TestERC20 token;
    PoolKey key; // ETH / token, full range plus a concentrated range
    PoolKey narrow; // ETH / token, one narrow range only
    address alice = makeAddr("alice");
    address mallory = makeAddr("mallory");
    uint160 constant SQRT_1M = 1000 << 96; // 1,000,000 tokens per ETH

    function setUp() public {
        pm = V4Deployer.deployPoolManager(address(this));
        router = new SwapRouter(pm);
        driver = new V4PoolDriver(pm);
        vm.deal(address(driver), 1_000_000 ether);
        token = new TestERC20("T", "T", 18);
        token.mint(address(driver), 1e40);
        key = PoolKey(Currency.wrap(address(0)), Currency.wrap(address(token)), 3000, 60, IHooks(address(0)));
        pm.initialize(key, SQRT_1M);
        driver.addFullRange(key, 1e21);
        driver.addLiquidity(key, 138_000, 138_600, 1e22);
        narrow = PoolKey(Currency.wrap(address(0)), Currency.wrap(address(token)), 500, 10, IHooks(address(0)));
        pm.initialize(narrow, SQRT_1M);
        driver.addLiquidity(narrow, 138_150, 138_250, 1e18);
        vm.deal(alice, 100 ether);
        vm.deal(mallory, 100 ether);
        token.mint(alice, 1e27);
        token.mint(mallory, 1e27);
    }

    /// The reference: the same swap through the pool directly (test driver), state rolled back.
    function _reference(PoolKey memory k, bool zeroForOne, uint256 amountIn) internal returns (uint256 out, uint256 spent) {
        uint256 snap = vm.snapshotState();
        BalanceDelta d = driver.swapExactIn(k, zeroForOne, amountIn);
        (int128 a, int128 b) = zeroForOne ? (d.amount0(), d.amount1()) : (d.amount1(), d.amount0());
        (out, spent) = (uint256(uint128(b)), uint256(uint128(-a)));
        vm.revertToState(snap);
    }

    function test_buyWithEth_paysWhatThePoolPays() public {
        (uint256 refOut, uint256 refIn) = _reference(key, true, 3 ether);
        uint256 before = token.balanceOf(alice);
        vm.prank(alice);
        (uint256 out, uint256 spent) = router.swapExactIn{value: 3 ether}(key, true, 3 ether, refOut, alice, block.timestamp);
        assertEq(out, refOut);
        assertEq(spent, refIn);
        assertEq(spent, 3 ether);
        assertEq(token.balanceOf(alice) - before, out);
        assertEq(address(router).balance, 0);
        assertEq(token.balanceOf(address(router)), 0);
    }

    function testFuzz_sellToken_paysWhatThePoolPays(uint256 amountIn) public {
        amountIn = bound(amountIn, 1, 1e25);
        (uint256 refOut,) = _reference(key, false, amountIn);
        vm.startPrank(alice);
        token.approve(address(router), amountIn);
        uint256 ethBefore = alice.balance;
        (uint256 out, uint256 spent) = router.swapExactIn(key, false, amountIn, 0, alice, block.timestamp);
        vm.stopPrank();
        assertEq(out, refOut);
        assertEq(spent, amountIn);
        assertEq(alice.balance - ethBefore, out);
        assertEq(token.allowance(alice, address(router)), 0);
    }

    function test_outputGoesToTheRecipient() public {
        address bob = makeAddr("bob");
        vm.prank(alice);
        (uint256 out,) = router.swapExactIn{value: 1 ether}(key, true, 1 ether, 0, bob, block.timestamp);
        assertEq(token.balanceOf(bob), out);
    }

    /// A pool that runs out of liquidity takes less; the native input it did not take comes back.
    function test_liquidityRunsOut_refundsTheRest() public {
        (uint256 refOut, uint256 refIn) = _reference(narrow, true, 50 ether);
        assertLt(refIn, 50 ether);
        uint256 before = alice.balance;
        vm.prank(alice);
        (uint256 out, uint256 spent) = router.swapExactIn{value: 50 ether}(narrow, true, 50 ether, 0, alice, block.timestamp);
        assertEq(out, refOut);
        assertEq(spent, refIn);
        assertEq(before - alice.balance, spent);
        assertEq(address(router).balance, 0);
    }

    function test_minimumOut_deadline_value_amount_recipient() public {
        (uint256 refOut,) = _reference(key, true, 1 ether);
        vm.startPrank(alice);
        vm.expectRevert(abi.encodeWithSelector(SwapRouter.TooLittleOut.selector, refOut, refOut + 1));
        router.swapExactIn{value: 1 ether}(key, true, 1 ether, refOut + 1, alice, block.timestamp);
        vm.expectRevert(abi.encodeWithSelector(SwapRouter.Expired.selector, block.timestamp - 1, block.timestamp));
        router.swapExactIn{value: 1 ether}(key, true, 1 ether, 0, alice, block.timestamp - 1);
        vm.expectRevert(abi.encodeWithSelector(SwapRouter.WrongValue.selector, 1 ether - 1, 1 ether));
        router.swapExactIn{value: 1 ether - 1}(key, true, 1 ether, 0, alice, block.timestamp);
        // ETH sent with a token input would be stuck: refused.
        token.approve(address(router), 1e18);
        vm.expectRevert(abi.encodeWithSelector(SwapRouter.WrongValue.selector, 1, 0));
        router.swapExactIn{value: 1}(key, false, 1e18, 0, alice, block.timestamp);
        vm.expectRevert(SwapRouter.ZeroAmount.selector);
        router.swapExactIn(key, false, 0, 0, alice, block.timestamp);
        vm.expectRevert(abi.encodeWithSelector(SwapRouter.AmountTooLarge.selector, uint256(1) << 127));
        router.swapExactIn(key, false, uint256(1) << 127, 0, alice, block.timestamp);
        vm.expectRevert(SwapRouter.ZeroRecipient.selector);
        router.swapExactIn{value: 1 ether}(key, true, 1 ether, 0, address(0), block.timestamp);
        vm.stopPrank();
    }

    /// Attack: spend someone else's allowance. The payer is always the caller.
    function test_attack_cannotSpendAnothersAllowance() public {
        vm.prank(alice);
        token.approve(address(router), type(uint256).max);
        uint256 aliceBefore = token.balanceOf(alice);
        vm.startPrank(mallory);
        token.approve(address(router), 0);
        vm.expectRevert(abi.encodeWithSelector(IERC20Errors.ERC20InsufficientAllowance.selector, address(router), 0, 1e18));
        router.swapExactIn(key, false, 1e18, 0, mallory, block.timestamp);
        vm.stopPrank();
        assertEq(token.balanceOf(alice), aliceBefore);
    }

    /// Attack: call the callback directly to have the router pay from a victim's allowance.
    function test_attack_callbackOnlyFromThePoolManager() public {
        vm.prank(alice);
        token.approve(address(router), type(uint256).max);
        bytes memory data = abi.encode(SwapRouter.Swap(key, false, 1e18, alice, mallory));
        vm.prank(mallory);
        vm.expectRevert(abi.encodeWithSelector(SwapRouter.OnlyPoolManager.selector, mallory));
        router.unlockCallback(data);
    }

    /// Attack: send ETH to the router so a later swap refunds it. It accepts none outside a swap.
    function test_attack_routerHoldsNoEth() public {
        vm.prank(mallory);
        (bool ok,) = address(router).call{value: 1 ether}("");
        assertFalse(ok);
        assertEq(address(router).balance, 0);
    }
}
