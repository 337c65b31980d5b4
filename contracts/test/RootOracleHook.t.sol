// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test} from "forge-std/Test.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {Hooks} from "@uniswap/v4-core/src/libraries/Hooks.sol";
import {CustomRevert} from "@uniswap/v4-core/src/libraries/CustomRevert.sol";
import {RootOracleHook} from "../src/RootOracleHook.sol";
import {AggregatorV3Interface} from "../src/interfaces/AggregatorV3Interface.sol";
import {RootPriceOracle} from "../src/RootPriceOracle.sol";
import {MockAggregatorV3} from "../src/mocks/MockAggregatorV3.sol";
import {MockRoot} from "../src/mocks/MockRoot.sol";
import {HookSalt} from "../script/HookSalt.sol";
import {V4Deployer} from "./utils/V4Deployer.sol";
import {V4PoolDriver} from "./utils/V4PoolDriver.sol";

/// C16 end to end on the real PoolManager: ROOT's ETH pool, its recording hook, and the price oracle over it.
contract RootOracleHookTest is Test {
    uint256 constant NOW = 1_800_000_000;
    IPoolManager pm;
    RootOracleHook hook;
    MockRoot root;
    V4PoolDriver driver;
    PoolKey key;
    MockAggregatorV3 feed;

    function setUp() public {
        vm.warp(NOW - 30 days);
        pm = V4Deployer.deployPoolManager(address(this));
        root = new MockRoot(address(this));
        bytes memory init =
            abi.encodePacked(type(RootOracleHook).creationCode, abi.encode(pm, address(root), uint24(3_000), int24(60), address(this)));
        (bytes32 salt,) = HookSalt.find(address(this), keccak256(init), (1 << 12) | (1 << 7));
        hook = new RootOracleHook{salt: salt}(pm, address(root), 3_000, 60, address(this));
        key = hook.poolKey();
        driver = new V4PoolDriver(pm);
        vm.deal(address(driver), 1_000_000 ether);
        root.mint(address(driver), 1e40);
        feed = new MockAggregatorV3(address(this), 8, "ETH / USD", 3_000e8);
    }

    function _cum(uint32 ago) internal view returns (int56) {
        uint32[] memory a = new uint32[](1);
        a[0] = ago;
        return hook.observe(a)[0];
    }

    function test_hookAddressAndPoolKey() public {
        assertEq(uint160(address(hook)) & ((1 << 14) - 1), hook.HOOK_FLAGS());
        assertEq(Currency.unwrap(key.currency1), address(root));
        assertFalse(hook.rootIsToken0());
        vm.expectRevert();
        new RootOracleHook(pm, address(root), 3_000, 60, address(this)); // plain CREATE address: wrong flags
        // Another pool using this hook cannot be initialised.
        MockRoot other = new MockRoot(address(this));
        PoolKey memory k2 = PoolKey(Currency.wrap(address(0)), Currency.wrap(address(other)), 3_000, 60, IHooks(address(hook)));
        vm.expectRevert();
        pm.initialize(k2, TickMath.getSqrtPriceAtTick(0));
        vm.expectRevert(abi.encodeWithSelector(RootOracleHook.OnlyPoolManager.selector, address(this)));
        hook.afterInitialize(address(this), key, 0, 0);
    }

    /// Second review (check): the deploy initializes ROOT's pool in a later transaction than the hook's deployment.
    /// A front-runner initializing it first at a price of its choosing (here 1,000x the deploy's) reverts in the
    /// hook; the deployment's own initialization then sets the price and the oracle's first tick.
    function test_secondReview_onlyTheInitializerStartsThePool() public {
        address attacker = makeAddr("attacker");
        vm.prank(attacker);
        vm.expectRevert(
            abi.encodeWithSelector(
                CustomRevert.WrappedError.selector,
                address(hook),
                IHooks.afterInitialize.selector,
                abi.encodeWithSelector(RootOracleHook.NotInitializer.selector, attacker),
                abi.encodeWithSelector(Hooks.HookCallFailed.selector)
            )
        );
        pm.initialize(key, TickMath.getSqrtPriceAtTick(75_000 + 69_078));
        pm.initialize(key, TickMath.getSqrtPriceAtTick(75_000)); // not initialized by the attempt
        assertEq(hook.initializedAt(), NOW - 30 days);
        assertEq(hook.recordedTick(), 75_000);
    }

    /// The core's pinned C16 example, produced by real swaps: 75,000 for a month, 76,013 for the last 30 min.
    function test_pinnedExampleFromRealSwaps() public {
        pm.initialize(key, TickMath.getSqrtPriceAtTick(75_000));
        driver.addFullRange(key, 1e22);
        assertEq(hook.initializedAt(), NOW - 30 days);
        vm.warp(NOW - 1_800);
        driver.swapToTick(key, 76_013);
        vm.warp(NOW);
        feed.setAnswerAt(3_000e8, NOW - 3_600);
        RootPriceOracle o = new RootPriceOracle(hook, feed, AggregatorV3Interface(address(0)));
        RootPriceOracle.RootPrice memory p = o.rootPrice();
        assertEq(p.shortTick, 76_013);
        assertEq(p.anchorTick, 75_127);
        assertEq(p.priceUsd, 1_499_973_749_039_178_000);
        assertEq(o.rootForUsd(100e18, type(uint256).max), 66_667_833_396_455_051_977);
        assertEq(hook.observationCount(), 2);
    }

    /// A swap cannot move a TWAP ending in its own block, and a spike is walked at most 9,116 ticks per second.
    function test_manipulationResistance() public {
        pm.initialize(key, TickMath.getSqrtPriceAtTick(76_000));
        driver.addFullRange(key, 1e22);
        vm.warp(NOW);
        int56 before = _cum(0);
        driver.swapToTick(key, 176_000); // +100,000 ticks now
        assertEq(_cum(0), before); // nothing in this second
        assertEq(hook.recordedTick(), 76_000);
        vm.warp(NOW + 1);
        assertEq(_cum(0) - before, 76_000 + 9_116); // one second, truncated
        assertEq(hook.recordedTick(), 76_000 + 9_116);
        driver.swapToTick(key, 76_000); // back down after one second
        vm.warp(NOW + 2);
        assertEq(_cum(0) - before, (76_000 + 9_116) + 76_000);
    }
}
