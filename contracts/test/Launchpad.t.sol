// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {StateLibrary} from "@uniswap/v4-core/src/libraries/StateLibrary.sol";
import {FullMath} from "@uniswap/v4-core/src/libraries/FullMath.sol";
import {CustomRevert} from "@uniswap/v4-core/src/libraries/CustomRevert.sol";
import {Hooks} from "@uniswap/v4-core/src/libraries/Hooks.sol";
import {Position} from "@uniswap/v4-core/src/libraries/Position.sol";
import {Launchpad} from "../src/Launchpad.sol";
import {LaunchLocker} from "../src/LaunchLocker.sol";
import {CurveMath} from "../src/libraries/CurveMath.sol";
import {GraduationMath} from "../src/libraries/GraduationMath.sol";
import {LaunchpadFixture, TestSwapper} from "./utils/LaunchpadFixture.sol";
import {TestERC20} from "./utils/TestERC20.sol";

contract LaunchpadTest is LaunchpadFixture {
    using StateLibrary for IPoolManager;

    address internal alice = makeAddr("alice");
    address internal bob = makeAddr("bob");
    address internal token;
    uint256 internal t0;

    function setUp() public {
        vm.warp(1_700_000_000);
        _deployLaunchpad();
        vm.deal(alice, 10_000 ether);
        vm.deal(bob, 10_000 ether);
        vm.prank(alice);
        token = pad.launch("Eden Test", "EDT", address(0), 0);
        t0 = block.timestamp;
    }

    function _buy(address who, uint256 x, uint256 atSecond) internal returns (uint256 out, uint256 used) {
        vm.warp(t0 + atSecond);
        vm.prank(who);
        (out, used) = pad.buy{value: x}(token, x, 0, block.timestamp);
    }

    function _sell(address who, uint256 y) internal returns (uint256 out) {
        vm.startPrank(who);
        IERC20(token).approve(address(pad), y);
        out = pad.sell(token, y, 0, block.timestamp);
        vm.stopPrank();
    }

    // ---------------------------------------------------------------- deployment & config

    function test_deploy_lockerIsBeforeInitializeHookOwnedByPad() public view {
        LaunchLocker locker = pad.locker();
        assertEq(uint160(address(locker)) & ((1 << 14) - 1), (1 << 13) | (1 << 6));
        assertEq(locker.launchpad(), address(pad));
        assertEq(address(locker.poolManager()), address(pm));
        assertEq(pad.supply(), S);
        assertEq(pad.feeBps(), FEE_BPS);
        assertEq(pad.virtualQuoteOf(address(0)), PHI_ETH);
        assertEq(pad.owner(), padOwner);
    }

    function test_deploy_rejectsBadConfig() public {
        Launchpad.Config memory c = _config(bytes32(0));
        c.poolManager = IPoolManager(address(0));
        vm.expectRevert(abi.encodeWithSelector(Launchpad.InvalidConfig.selector, "poolManager"));
        new Launchpad(padOwner, c);
        c = _config(bytes32(0));
        c.supply = S + 1;
        vm.expectRevert(abi.encodeWithSelector(Launchpad.InvalidConfig.selector, "supply"));
        new Launchpad(padOwner, c);
        c = _config(bytes32(0));
        c.feeBps = 10_000;
        vm.expectRevert(abi.encodeWithSelector(Launchpad.InvalidConfig.selector, "feeBps"));
        new Launchpad(padOwner, c);
        c = _config(bytes32(0));
        c.poolFee = 1_000_001;
        vm.expectRevert(abi.encodeWithSelector(Launchpad.InvalidConfig.selector, "poolFee"));
        new Launchpad(padOwner, c);
        c = _config(bytes32(0));
        c.tickSpacing = 0;
        vm.expectRevert(abi.encodeWithSelector(Launchpad.InvalidConfig.selector, "tickSpacing"));
        new Launchpad(padOwner, c);
        c = _config(bytes32(0));
        c.feeSink = address(0);
        vm.expectRevert(abi.encodeWithSelector(Launchpad.InvalidConfig.selector, "feeSink"));
        new Launchpad(padOwner, c);
        c = _config(bytes32(0));
        c.ethVirtualQuote = S / 25 + 1; // S ≥ 25Φ
        vm.expectRevert();
        new Launchpad(padOwner, c);
    }

    function test_deploy_rejectsUnminedLockerSalt() public {
        address predicted = vm.computeCreateAddress(address(this), vm.getNonce(address(this)));
        bytes32 h = keccak256(abi.encodePacked(type(LaunchLocker).creationCode, abi.encode(pm)));
        bytes32 bad;
        while (uint160(vm.computeCreate2Address(bad, h, predicted)) & 0x3FFF == 0x2000) {
            bad = bytes32(uint256(bad) + 1);
        }
        vm.expectRevert(
            abi.encodeWithSelector(LaunchLocker.BadHookAddress.selector, vm.computeCreate2Address(bad, h, predicted))
        );
        new Launchpad(padOwner, _config(bad));
    }

    function test_setQuoteAsset() public {
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, address(this)));
        pad.setQuoteAsset(address(7), 1);
        vm.startPrank(padOwner);
        vm.expectRevert(abi.encodeWithSelector(Launchpad.InvalidConfig.selector, "virtualQuote"));
        pad.setQuoteAsset(address(7), S / 25 + 1);
        vm.expectRevert(abi.encodeWithSelector(Launchpad.InvalidConfig.selector, "virtualQuote"));
        pad.setQuoteAsset(address(0), 0);
        vm.expectEmit(address(pad));
        emit Launchpad.QuoteAssetSet(address(7), 3_125e6);
        pad.setQuoteAsset(address(7), 3_125e6);
        assertEq(pad.virtualQuoteOf(address(7)), 3_125e6);
        pad.setQuoteAsset(address(7), 0);
        vm.stopPrank();
        vm.expectRevert(abi.encodeWithSelector(Launchpad.QuoteAssetNotAllowed.selector, address(7)));
        pad.launch("x", "x", address(7), 0);
    }

    /// Issue 38: the quote assets come from state. Each asset is listed once, in the order first allowed (ETH from
    /// the constructor first), and stays listed when disallowed (Φ = 0 says so); a failed set lists nothing.
    function test_quoteAssets_listedOnceInOrder() public {
        address[] memory before = pad.quoteAssets();
        assertEq(before.length, 1);
        assertEq(before[0], address(0));
        vm.startPrank(padOwner);
        pad.setQuoteAsset(address(7), 3_125e6);
        pad.setQuoteAsset(address(8), 1e6);
        pad.setQuoteAsset(address(7), 0);
        pad.setQuoteAsset(address(7), 2e6);
        vm.expectRevert(abi.encodeWithSelector(Launchpad.InvalidConfig.selector, "virtualQuote"));
        pad.setQuoteAsset(address(9), S / 25 + 1);
        vm.stopPrank();
        address[] memory after_ = pad.quoteAssets();
        assertEq(after_.length, 3);
        assertEq(after_[1], address(7));
        assertEq(after_[2], address(8));
    }

    function test_setFeeSink() public {
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, address(this)));
        pad.setFeeSink(address(7));
        vm.startPrank(padOwner);
        vm.expectRevert(abi.encodeWithSelector(Launchpad.InvalidConfig.selector, "feeSink"));
        pad.setFeeSink(address(0));
        pad.setFeeSink(address(7));
        vm.stopPrank();
        assertEq(pad.feeSink(), address(7));
    }

    // ---------------------------------------------------------------- launch

    function test_launch_mintsWholeSupplyToCurve() public view {
        assertEq(IERC20(token).totalSupply(), S);
        assertEq(IERC20(token).balanceOf(address(pad)), S);
        Launchpad.Launch memory l = pad.launchOf(token);
        assertEq(l.quote, address(0));
        assertEq(l.creator, alice);
        assertEq(l.launchTime, t0);
        assertEq(l.virtualQuote, PHI_ETH);
        assertEq(l.quoteRaised, 0);
        assertEq(l.tokenReserve, S);
        assertFalse(l.graduated);
        assertEq(pad.launchCount(), 1);
        assertEq(pad.tokens(0), token);
    }

    function test_launch_unknownToken() public {
        vm.expectRevert(abi.encodeWithSelector(Launchpad.UnknownToken.selector, address(7)));
        pad.launchOf(address(7));
        vm.expectRevert(abi.encodeWithSelector(Launchpad.UnknownToken.selector, address(7)));
        pad.buy{value: 1}(address(7), 1, 0, block.timestamp);
    }

    // ---------------------------------------------------------------- buy: worked examples (eden-core curve::buy)

    function test_buy_plainAfterSnipeWindow() public {
        uint256 before = alice.balance;
        vm.expectEmit(address(pad));
        emit Launchpad.Bought(
            token,
            alice,
            1 ether,
            0.01 ether,
            441964285714285714285714285,
            0,
            0.99 ether,
            S - 441964285714285714285714285
        );
        (uint256 out, uint256 used) = _buy(alice, 1 ether, 15);
        assertEq(out, 441964285714285714285714285);
        assertEq(used, 1 ether);
        assertEq(IERC20(token).balanceOf(alice), out);
        assertEq(alice.balance, before - 1 ether);
        Launchpad.Launch memory l = pad.launchOf(token);
        assertEq(l.quoteRaised, 0.99 ether);
        assertEq(l.feesAccrued, 0.01 ether);
        assertEq(address(pad).balance, 1 ether);
    }

    function test_buy_antiSnipeTax() public {
        assertEq(pad.quoteBuy(token, 1 ether).fee, 0.99 ether); // t = 0: 99 %
        vm.warp(t0 + 5);
        assertEq(pad.quoteBuy(token, 1 ether).fee, 0.66 ether);
        vm.warp(t0 + 10);
        assertEq(pad.quoteBuy(token, 1 ether).fee, 0.33 ether);
        vm.warp(t0 + 14);
        assertEq(pad.quoteBuy(token, 1 ether).fee, 0.066 ether);
        vm.warp(t0 + 15);
        assertEq(pad.quoteBuy(token, 1 ether).fee, 0.01 ether);
        assertEq(pad.quoteBuy(token, 101).fee, 2); // rounds up
        for (uint256 t; t < 20; ++t) {
            uint256 expect = t < 15 ? 990_000 * (15 - t) / 15 : 10_000;
            assertEq(CurveMath.buyFeeRatePips(FEE_BPS, t), expect);
        }
        assertEq(CurveMath.buyFeeRatePips(800, 14), 80_000); // the larger of the two, never the sum
    }

    function test_buy_exactGraduationSellsEightyPercent() public {
        uint256 gross = 5050505050505050506; // ceil(5e18 / 0.99)
        (uint256 out, uint256 used) = _buy(bob, gross, 100);
        assertEq(out, S * 4 / 5);
        assertEq(used, gross);
        Launchpad.Launch memory l = pad.launchOf(token);
        assertTrue(l.graduated);
        assertEq(l.quoteRaised, G_ETH);
        assertEq(l.tokenReserve, S / 5);
    }

    function test_buy_crossingIsClampedAndRefunded() public {
        _buy(alice, 3 ether, 20);
        Launchpad.Launch memory l = pad.launchOf(token);
        uint256 room = G_ETH - l.quoteRaised;
        CurveMath.Buy memory q = pad.quoteBuy(token, 10 ether);
        assertTrue(q.graduates);
        assertEq(q.quoteUsed + q.refund, 10 ether);
        assertEq(q.quoteUsed - q.fee, room);
        assertEq(q.fee, FullMath.mulDivRoundingUp(q.quoteUsed, 10_000, 1_000_000));
        assertEq(q.tokensOut, l.tokenReserve - S / 5);
        assertFalse(pad.quoteBuy(token, q.quoteUsed - 1).graduates);
        uint256 before = bob.balance;
        (uint256 out, uint256 used) = _buy(bob, 10 ether, 20);
        assertEq(out, q.tokensOut);
        assertEq(used, q.quoteUsed);
        assertEq(bob.balance, before - used); // the excess came back
        assertEq(pad.launchOf(token).quoteRaised, G_ETH);
    }

    function test_buy_crossingDuringSnipeWindowUsesTaxRate() public {
        (uint256 out, uint256 used) = _buy(bob, 1_000 ether, 0);
        assertEq(used, 500 ether);
        assertEq(pad.launchOf(token).feesAccrued, 495 ether);
        assertEq(out, S * 4 / 5);
        assertEq(bob.balance, 10_000 ether - 500 ether);
    }

    function test_buy_reverts() public {
        vm.warp(t0 + 20);
        vm.startPrank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(Launchpad.DeadlineExpired.selector, block.timestamp - 1, block.timestamp)
        );
        pad.buy{value: 1 ether}(token, 1 ether, 0, block.timestamp - 1);
        vm.expectRevert(abi.encodeWithSelector(Launchpad.WrongValue.selector, 1 ether, 2 ether));
        pad.buy{value: 1 ether}(token, 2 ether, 0, block.timestamp);
        vm.expectRevert(CurveMath.ZeroQuoteIn.selector);
        pad.buy(token, 0, 0, block.timestamp);
        uint256 out = pad.quoteBuy(token, 1 ether).tokensOut;
        vm.expectRevert(abi.encodeWithSelector(Launchpad.TokensOutBelowMin.selector, out, out + 1));
        pad.buy{value: 1 ether}(token, 1 ether, out + 1, block.timestamp);
        pad.buy{value: 1 ether}(token, 1 ether, out, block.timestamp); // exactly the minimum is fine
        vm.stopPrank();
    }

    function test_buy_refundToRejectingContractReverts() public {
        NoEth ne = new NoEth();
        vm.deal(address(ne), 100 ether);
        vm.warp(t0 + 20);
        vm.expectRevert();
        ne.buy(pad, token, 100 ether);
        ne.buy(pad, token, 1 ether); // no refund, fine
    }

    // ---------------------------------------------------------------- sell

    function test_sell_backEverythingReturnsNetMinusFee() public {
        (uint256 out,) = _buy(alice, 1 ether, 20);
        (uint256 quoteOut, uint256 fee) = pad.quoteSell(token, out);
        assertEq(quoteOut + fee, 0.99 ether);
        assertEq(fee, 0.0099 ether);
        uint256 before = alice.balance;
        vm.startPrank(alice);
        IERC20(token).approve(address(pad), out);
        vm.expectEmit(address(pad));
        emit Launchpad.Sold(token, alice, out, quoteOut, fee, 0, S);
        assertEq(pad.sell(token, out, quoteOut, block.timestamp), quoteOut);
        vm.stopPrank();
        assertEq(alice.balance, before + quoteOut);
        Launchpad.Launch memory l = pad.launchOf(token);
        assertEq(l.quoteRaised, 0);
        assertEq(l.tokenReserve, S);
        assertEq(l.feesAccrued, 0.01 ether + 0.0099 ether);
        assertEq(address(pad).balance, l.feesAccrued);
    }

    function test_sell_reverts() public {
        (uint256 out,) = _buy(alice, 1 ether, 20);
        vm.startPrank(alice);
        IERC20(token).approve(address(pad), type(uint256).max);
        vm.expectRevert(CurveMath.ZeroTokensIn.selector);
        pad.sell(token, 0, 0, block.timestamp);
        vm.expectRevert(abi.encodeWithSelector(CurveMath.ExceedsSold.selector, out + 1, out));
        pad.sell(token, out + 1, 0, block.timestamp);
        (uint256 q,) = pad.quoteSell(token, out);
        vm.expectRevert(abi.encodeWithSelector(Launchpad.QuoteOutBelowMin.selector, q, q + 1));
        pad.sell(token, out, q + 1, block.timestamp);
        vm.expectRevert(
            abi.encodeWithSelector(Launchpad.DeadlineExpired.selector, block.timestamp - 1, block.timestamp)
        );
        pad.sell(token, out, 0, block.timestamp - 1);
        IERC20(token).approve(address(pad), out - 1);
        vm.expectRevert(
            abi.encodeWithSelector(IERC20Errors.ERC20InsufficientAllowance.selector, address(pad), out - 1, out)
        );
        pad.sell(token, out, 0, block.timestamp);
        vm.stopPrank();
    }

    // ---------------------------------------------------------------- graduation (C20)

    function test_graduation_createsExactPoolAndLocksEverything() public {
        _buy(alice, 2 ether, 30);
        PoolKey memory key = pad.poolKeyOf(token);
        assertEq(Currency.unwrap(key.currency0), address(0)); // native ETH is currency0
        assertEq(Currency.unwrap(key.currency1), token);
        assertEq(address(key.hooks), address(pad.locker()));

        _buy(bob, 50 ether, 40);
        LaunchLocker locker = pad.locker();
        (PoolKey memory k2, PoolId id) = pad.poolOf(token);
        assertEq(PoolId.unwrap(id), PoolId.unwrap(key.toId()));
        assertEq(k2.fee, POOL_FEE);

        // exact opening price: isqrt(0.16 S × 2^192 / G) = sqrt(32,000,000) × 2^96 floored (eden-core vector)
        (uint160 sqrtP,,,) = pm.getSlot0(id);
        assertEq(sqrtP, 448182167798289119349855505819665);
        GraduationMath.Pool memory p = GraduationMath.pool(address(0), token, G_ETH, S, TICK_SPACING);
        assertEq(p.sqrtPriceX96, sqrtP);
        assertEq(p.tickLower, -887_220);
        assertEq(p.tickUpper, 887_220);
        assertEq(p.amount0, G_ETH);
        assertEq(p.amount1, S * 16 / 100);

        // the full-range position belongs to the locker
        bytes32 posId = Position.calculatePositionKey(address(locker), p.tickLower, p.tickUpper, bytes32(0));
        assertEq(pm.getPositionLiquidity(id, posId), p.liquidity);
        assertEq(pm.getLiquidity(id), p.liquidity);

        // nothing of this launch is left on the curve; the pool got at most G and 0.16 S, the rest is locked
        assertEq(IERC20(token).balanceOf(address(pad)), 0);
        uint256 poolEth = address(pm).balance;
        uint256 poolTok = IERC20(token).balanceOf(address(pm));
        assertLe(poolEth, G_ETH);
        assertLe(poolTok, S * 16 / 100);
        assertEq(poolEth + address(locker).balance, G_ETH);
        assertEq(poolTok + IERC20(token).balanceOf(address(locker)), S / 5);
        assertGe(IERC20(token).balanceOf(address(locker)), S * 4 / 100);
        assertEq(address(pad).balance, pad.launchOf(token).feesAccrued);
    }

    function test_graduation_curveRefusesTradesAndNamesPool() public {
        _buy(bob, 50 ether, 40);
        PoolId id = pad.poolKeyOf(token).toId();
        vm.startPrank(alice);
        vm.expectRevert(abi.encodeWithSelector(Launchpad.AlreadyGraduated.selector, token, id));
        pad.buy{value: 1 ether}(token, 1 ether, 0, block.timestamp);
        vm.expectRevert(abi.encodeWithSelector(Launchpad.AlreadyGraduated.selector, token, id));
        pad.sell(token, 1, 0, block.timestamp);
        vm.expectRevert(abi.encodeWithSelector(Launchpad.AlreadyGraduated.selector, token, id));
        pad.quoteBuy(token, 1 ether);
        vm.expectRevert(abi.encodeWithSelector(Launchpad.AlreadyGraduated.selector, token, id));
        pad.quoteSell(token, 1);
        vm.stopPrank();
    }

    function test_poolOf_revertsBeforeGraduation() public {
        vm.expectRevert(abi.encodeWithSelector(Launchpad.NotGraduated.selector, token));
        pad.poolOf(token);
    }

    function test_graduation_poolTradesAfterwards() public {
        _buy(bob, 50 ether, 40);
        TestSwapper sw = new TestSwapper(pm);
        PoolKey memory key = pad.poolKeyOf(token);
        vm.prank(alice);
        BalanceDelta d = sw.swapExactIn{value: 0.1 ether}(key, true, 0.1 ether);
        assertEq(d.amount0(), -0.1 ether);
        assertGt(d.amount1(), 0);
        uint256 got = uint256(uint128(d.amount1()));
        assertEq(IERC20(token).balanceOf(alice), got);
        vm.startPrank(alice);
        IERC20(token).approve(address(sw), got);
        sw.swapExactIn(key, false, got);
        vm.stopPrank();
    }

    /// D12: every swap of a graduated pool records its block under the pool's id, once per block; only the
    /// PoolManager may call the hook.
    function test_graduatedPoolSwapsRecordTheirBlocks() public {
        _buy(bob, 50 ether, 40);
        TestSwapper sw = new TestSwapper(pm);
        PoolKey memory key = pad.poolKeyOf(token);
        bytes32 pool = keccak256(abi.encode(key));
        LaunchLocker locker = pad.locker();
        assertEq(locker.eventBlockCount(pool), 0);
        vm.roll(block.number + 5);
        vm.prank(alice);
        sw.swapExactIn{value: 0.1 ether}(key, true, 0.1 ether);
        vm.prank(alice);
        sw.swapExactIn{value: 0.1 ether}(key, true, 0.1 ether);
        vm.roll(block.number + 3);
        vm.prank(alice);
        sw.swapExactIn{value: 0.1 ether}(key, true, 0.1 ether);
        (uint64[] memory blocks, bool more) = locker.eventBlocks(pool, 0, uint64(block.number), 10);
        assertEq(blocks.length, 2);
        assertEq(blocks[0], block.number - 3);
        assertEq(blocks[1], block.number);
        assertFalse(more);

        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(LaunchLocker.OnlyPoolManager.selector, alice));
        locker.afterSwap(alice, key, SwapParams({zeroForOne: true, amountSpecified: -1, sqrtPriceLimitX96: 0}), BalanceDelta.wrap(0), "");
    }

    function test_frontRunInitializeIsRefused() public {
        PoolKey memory key = pad.poolKeyOf(token);
        vm.expectRevert(
            abi.encodeWithSelector(
                CustomRevert.WrappedError.selector,
                address(pad.locker()),
                IHooks.beforeInitialize.selector,
                abi.encodeWithSelector(LaunchLocker.InitializeOnlyByLocker.selector),
                abi.encodeWithSelector(Hooks.HookCallFailed.selector)
            )
        );
        pm.initialize(key, 1 << 96);
        // graduation is unaffected
        _buy(bob, 50 ether, 40);
        assertTrue(pad.launchOf(token).graduated);
    }

    function test_everyLaunchGraduatesIdentically() public {
        // path 1: one big taxed buy at launch; path 2: many buys and a sell
        _buy(bob, 1_000 ether, 0); // net 10 ETH after the 99 % tax: crosses G
        vm.prank(alice);
        address t2 = pad.launch("Two", "TWO", address(0), 0);
        uint256 start = block.timestamp;
        address saved = token;
        token = t2;
        t0 = start;
        _buy(alice, 0.333 ether, 2);
        _buy(alice, 1 ether, 20);
        _buy(bob, 0.7 ether, 40);
        _sell(alice, IERC20(t2).balanceOf(alice) / 3);
        _buy(bob, 50 ether, 90);
        (, PoolId id1) = pad.poolOf(saved);
        (, PoolId id2) = pad.poolOf(t2);
        (uint160 p1,,,) = pm.getSlot0(id1);
        (uint160 p2,,,) = pm.getSlot0(id2);
        assertEq(p1, p2);
        assertEq(pm.getLiquidity(id1), pm.getLiquidity(id2));
        Launchpad.Launch memory a = pad.launchOf(saved);
        Launchpad.Launch memory b = pad.launchOf(t2);
        assertEq(a.quoteRaised, b.quoteRaised);
        assertEq(a.tokenReserve, b.tokenReserve);
    }

    // ---------------------------------------------------------------- stablecoin pairs

    function _stableLaunch(address at) internal returns (TestERC20 usd, address t) {
        deployCodeTo("TestERC20.sol:TestERC20", abi.encode("USD Coin", "USDC", uint8(6)), at);
        usd = TestERC20(at);
        vm.prank(padOwner);
        pad.setQuoteAsset(at, 3_125e6);
        t = pad.launch("Stable", "STB", at, 0);
        usd.mint(alice, 100_000e6);
        vm.prank(alice);
        usd.approve(address(pad), type(uint256).max);
    }

    function test_stablecoin_buySellAndGraduate_lowAddress() public {
        _stableRoundTrip(address(0xabc));
    }

    function test_stablecoin_buySellAndGraduate_highAddress() public {
        _stableRoundTrip(address(0xF000000000000000000000000000000000000001));
    }

    function _stableRoundTrip(address at) internal {
        (TestERC20 usd, address t) = _stableLaunch(at);
        vm.warp(block.timestamp + 100);
        vm.startPrank(alice);
        vm.expectRevert(abi.encodeWithSelector(Launchpad.WrongValue.selector, 1, 0));
        pad.buy{value: 1}(t, 1_000e6, 0, block.timestamp);
        (uint256 out, uint256 used) = pad.buy(t, 1_000e6, 0, block.timestamp);
        assertEq(used, 1_000e6);
        assertEq(usd.balanceOf(address(pad)), 1_000e6);
        IERC20(t).approve(address(pad), out);
        uint256 back = pad.sell(t, out / 2, 0, block.timestamp);
        assertEq(usd.balanceOf(alice), 100_000e6 - 1_000e6 + back);
        // the crossing buy pulls only what it uses
        uint256 balBefore = usd.balanceOf(alice);
        (, used) = pad.buy(t, 50_000e6, 0, block.timestamp);
        vm.stopPrank();
        assertEq(usd.balanceOf(alice), balBefore - used);
        assertTrue(pad.launchOf(t).graduated);
        assertEq(pad.launchOf(t).quoteRaised, 12_500e6);
        assertEq(usd.balanceOf(address(pad)), pad.launchOf(t).feesAccrued);
        _checkStablePool(at, t);
    }

    function _checkStablePool(address quote, address t) internal view {
        (PoolKey memory key, PoolId id) = pad.poolOf(t);
        bool quoteIs0 = quote < t;
        assertEq(Currency.unwrap(key.currency0), quoteIs0 ? quote : t);
        GraduationMath.Pool memory p = GraduationMath.pool(quote, t, 12_500e6, S, TICK_SPACING);
        (uint160 sqrtP,,,) = pm.getSlot0(id);
        assertEq(sqrtP, p.sqrtPriceX96);
        uint256 target = quoteIs0
            ? FullMath.mulDiv(S * 16 / 100, 1 << 192, 12_500e6)
            : FullMath.mulDiv(12_500e6, 1 << 192, S * 16 / 100);
        uint256 r = uint256(sqrtP);
        assertLe(r * r, target);
        assertGt((r + 1) * (r + 1), target);
        assertEq(pm.getLiquidity(id), p.liquidity);
    }

    // ---------------------------------------------------------------- fees

    function test_collectFees_eth() public {
        _buy(alice, 1 ether, 20);
        vm.expectEmit(address(pad));
        emit Launchpad.FeesCollected(token, address(0), address(sink), 0.01 ether);
        assertEq(pad.collectFees(token), 0.01 ether);
        assertEq(sink.received(token), 0.01 ether);
        assertEq(address(sink).balance, 0.01 ether);
        assertEq(pad.launchOf(token).feesAccrued, 0);
        vm.expectRevert(abi.encodeWithSelector(Launchpad.NothingToCollect.selector, token));
        pad.collectFees(token);
    }

    function test_collectFees_erc20() public {
        (TestERC20 usd, address t) = _stableLaunch(address(0xabc));
        vm.warp(block.timestamp + 100);
        vm.prank(alice);
        pad.buy(t, 1_000e6, 0, block.timestamp);
        pad.collectFees(t);
        assertEq(usd.balanceOf(address(sink)), 10e6);
        assertEq(sink.received(t), 10e6);
    }

    // ---------------------------------------------------------------- pool fees after graduation (#14)

    /// Graduates `token` and trades `rounds` round trips of `eth` in its pool; returns the pool key.
    function _graduateAndTrade(uint256 eth, uint256 rounds) internal returns (PoolKey memory key) {
        _buy(bob, 50 ether, 40);
        key = pad.poolKeyOf(token);
        TestSwapper sw = new TestSwapper(pm);
        vm.startPrank(alice);
        for (uint256 i; i < rounds; ++i) {
            BalanceDelta d = sw.swapExactIn{value: eth}(key, true, eth);
            uint256 got = uint256(uint128(d.amount1()));
            IERC20(token).approve(address(sw), got);
            sw.swapExactIn(key, false, got);
        }
        vm.stopPrank();
    }

    /// The locked position's fees reach the fee sink like curve fees (quote side) and the token side is burned; the
    /// position's liquidity never moves, and a second collection finds nothing.
    function test_collectPoolFees_routesTheQuoteAndBurnsTheToken() public {
        PoolKey memory key = _graduateAndTrade(1 ether, 3);
        PoolId id = key.toId();
        uint128 liquidityBefore = pm.getLiquidity(id);
        uint256 sinkBefore = sink.received(token);
        uint256 supplyBefore = IERC20(token).totalSupply();
        (uint256 quote, uint256 burned) = pad.collectPoolFees(token);
        // 3 buys of 1 ETH at 0.3 %: the full-range position holds all the liquidity, so it earned all the fees but
        // v4's rounding (fee growth per liquidity rounds down).
        assertApproxEqAbs(quote, 3 * 0.003 ether, 10);
        assertLe(quote, 3 * 0.003 ether);
        assertGt(burned, 0);
        assertEq(sink.received(token) - sinkBefore, quote);
        assertEq(IERC20(token).totalSupply(), supplyBefore - burned);
        assertEq(pm.getLiquidity(id), liquidityBefore, "liquidity never moves");
        assertEq(address(pad).balance, pad.launchOf(token).feesAccrued, "nothing stays in the launchpad");
        vm.expectRevert(abi.encodeWithSelector(Launchpad.NothingToCollect.selector, token));
        pad.collectPoolFees(token);
    }

    function test_collectPoolFees_rules() public {
        vm.expectRevert(abi.encodeWithSelector(Launchpad.NotGraduated.selector, token));
        pad.collectPoolFees(token);
        _graduateAndTrade(0.5 ether, 1);
        // Only the launchpad drives the locker, and only the PoolManager may send the launchpad ETH.
        LaunchLocker locker = pad.locker();
        PoolKey memory key = pad.poolKeyOf(token);
        vm.expectRevert(abi.encodeWithSelector(LaunchLocker.OnlyLaunchpad.selector, address(this)));
        locker.collectFees(key, true, address(this));
        vm.deal(address(this), 1 ether);
        (bool ok, bytes memory err) = address(pad).call{value: 1}("");
        assertFalse(ok);
        assertEq(err, abi.encodeWithSelector(Launchpad.UnexpectedEth.selector, address(this)));
        // Anyone may collect; the proceeds go to the sink, never to the caller.
        uint256 before = bob.balance;
        vm.prank(bob);
        pad.collectPoolFees(token);
        assertEq(bob.balance, before);
    }

    /// Fuzz: whatever is traded, a collection pays the sink exactly what the position earned (v4's own fee
    /// accounting, read back through the quote the call returns), burns the token side, and never changes the
    /// pool's liquidity; collecting twice in a row never pays twice.
    function testFuzz_collectPoolFees_neverTwiceNeverLiquidity(uint96 eth, uint8 rounds) public {
        eth = uint96(bound(eth, 1e12, 5 ether));
        rounds = uint8(bound(rounds, 1, 4));
        PoolKey memory key = _graduateAndTrade(eth, rounds);
        uint128 liquidityBefore = pm.getLiquidity(key.toId());
        uint256 sinkBefore = sink.received(token);
        (uint256 quote,) = pad.collectPoolFees(token);
        // At most 0.3 % of the ETH paid in; v4 rounds each swap's fee up, by a wei or two.
        assertLe(quote, uint256(eth) * rounds * 3 / 1000 + 2 * uint256(rounds));
        assertEq(sink.received(token) - sinkBefore, quote);
        assertEq(pm.getLiquidity(key.toId()), liquidityBefore);
        vm.expectRevert(abi.encodeWithSelector(Launchpad.NothingToCollect.selector, token));
        pad.collectPoolFees(token);
    }

    // ---------------------------------------------------------------- locker

    function test_locker_onlyLaunchpadAndPoolManager() public {
        LaunchLocker locker = pad.locker();
        PoolKey memory key = pad.poolKeyOf(token);
        vm.expectRevert(abi.encodeWithSelector(LaunchLocker.OnlyLaunchpad.selector, address(this)));
        locker.initializePool(key, 1 << 96);
        vm.expectRevert(abi.encodeWithSelector(LaunchLocker.OnlyLaunchpad.selector, address(this)));
        locker.addLiquidity(key, -60, 60, 1);
        vm.expectRevert(abi.encodeWithSelector(LaunchLocker.OnlyPoolManager.selector, address(this)));
        locker.unlockCallback(abi.encode(key, int24(-60), int24(60), uint128(1)));
        vm.expectRevert(LaunchLocker.InitializeOnlyByLocker.selector);
        locker.beforeInitialize(address(locker), key, 1 << 96);
        vm.startPrank(address(pad));
        key.hooks = IHooks(address(0));
        vm.expectRevert(LaunchLocker.NotLockerPool.selector);
        locker.initializePool(key, 1 << 96);
        vm.expectRevert(LaunchLocker.NotLockerPool.selector);
        locker.addLiquidity(key, -60, 60, 1);
        key.hooks = IHooks(address(locker));
        vm.expectRevert(LaunchLocker.ZeroLiquidity.selector);
        locker.addLiquidity(key, -60, 60, 0);
        vm.stopPrank();
    }

    function test_locker_rejectsWrongHookAddress() public {
        vm.expectRevert();
        new LaunchLocker(pm); // deployed by CREATE at an address without the exact flag bits
    }

    // ---------------------------------------------------------------- fuzz

    function testFuzz_buySell_keepsInvariantAndNeverProfits(uint256 x, uint32 at, uint256 frac) public {
        x = bound(x, 1, 20 ether);
        (uint256 out, uint256 used) = _buy(alice, x, bound(at, 0, 1000));
        Launchpad.Launch memory l = pad.launchOf(token);
        _assertCurveInvariant(l);
        if (l.graduated || out == 0) return;
        uint256 y = bound(frac, 1, out);
        uint256 back = _sell(alice, y);
        assertLe(back, used); // a round trip never makes money
        _assertCurveInvariant(pad.launchOf(token));
    }

    function testFuzz_quoteMatchesFill(uint256 x, uint32 at) public {
        x = bound(x, 1, 50 ether);
        vm.warp(t0 + bound(at, 0, 100));
        CurveMath.Buy memory q = pad.quoteBuy(token, x);
        vm.prank(alice);
        (uint256 out, uint256 used) = pad.buy{value: x}(token, x, q.tokensOut, block.timestamp);
        assertEq(out, q.tokensOut);
        assertEq(used, q.quoteUsed);
        assertEq(pad.launchOf(token).feesAccrued, q.fee);
        assertEq(pad.launchOf(token).graduated, q.graduates);
    }

    function _assertCurveInvariant(Launchpad.Launch memory l) internal pure {
        // (Φ + Q) × Y ≥ Φ × S, Q ≤ G, Y ≥ S/5
        assertGe((l.virtualQuote + l.quoteRaised) * l.tokenReserve, l.virtualQuote * S);
        assertLe(l.quoteRaised, 4 * l.virtualQuote);
        assertGe(l.tokenReserve, S / 5);
    }
}

contract NoEth {
    function buy(Launchpad pad, address token, uint256 x) external {
        pad.buy{value: x}(token, x, 0, block.timestamp);
    }
}
