// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Script} from "forge-std/Script.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {CallLedger} from "../src/CallLedger.sol";
import {ScorerRegistry, IQualityVerifier, IRootBurnPricer, IScorerFeeSource} from "../src/ScorerRegistry.sol";
import {RootPriceOracle} from "../src/RootPriceOracle.sol";
import {AggregatorV3Interface} from "../src/interfaces/AggregatorV3Interface.sol";
import {RootOracleHook} from "../src/RootOracleHook.sol";
import {RootBuyback, IBuybackLane} from "../src/RootBuyback.sol";
import {DuelHook} from "../src/DuelHook.sol";
import {MockAggregatorV3} from "../src/mocks/MockAggregatorV3.sol";
import {MockRoot} from "../src/mocks/MockRoot.sol";
import {TestERC20} from "../test/utils/TestERC20.sol";
import {V3PoolDriver, IV3Factory, IV3Pool} from "../test/utils/V3Deployer.sol";
import {V4PoolDriver} from "../test/utils/V4PoolDriver.sol";
import {HookSalt} from "./HookSalt.sol";
import {Governance} from "./Governance.sol";
import {TimelockController} from "@openzeppelin/contracts/governance/TimelockController.sol";

interface IFeeLanesReceivers {
    function buyback() external view returns (address);
    function keeper() external view returns (address);
    function setReceivers(address scorerRewards, address buyback, address keeper) external;
}

/// @notice Second half of the local deployment (run after `Deploy`, which wrote `../.eden/deploy-<chainId>.json`):
/// the Uniswap v3 factory (npm bytecode) with USDG and a stock token pool for the `CallLedger`; ROOT (mock), its ETH
/// pool on v4 with the `RootOracleHook`, a settable ETH/USD feed and the `RootPriceOracle`; the `ScorerRegistry`
/// (quality proofs against the `EpochRegistry`, scorer lane pulled from `FeeLanes`); the `DuelHook` with two duel
/// tokens, their ETH pools and a duel. Adds every address to the same deploy JSON (scripts/deploy-local-ii.sh merges
/// it into `.eden/addresses.json`). Hooks are deployed through the CREATE2 factory with mined salts.
/// Every value marked PLACEHOLDER is configuration, not a protocol fact.
contract DeployII is Script {
    uint256 internal constant ANVIL_KEY_0 = 0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80;
    string internal constant V3_FACTORY_ARTIFACT =
        "../node_modules/@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json";

    uint256 internal constant AGENT_MIN_STAKE = 100e18; // PLACEHOLDER (A1 minStake, in ROOT)
    int24 internal constant STOCK_TICK = -220_000; // PLACEHOLDER opening price of the test stock (~$279)
    int24 internal constant ROOT_TICK = 76_013; // PLACEHOLDER ROOT pool tick (~0.0005 ETH per ROOT)
    int256 internal constant ETH_USD = 3_000e8; // PLACEHOLDER local ETH/USD answer (8 decimals)
    uint24 internal constant POOL_FEE = 3_000; // PLACEHOLDER
    int24 internal constant TICK_SPACING = 60; // PLACEHOLDER
    int24 internal constant USDC_ETH_TICK = -196_256; // PLACEHOLDER ~3,000 test USDC (6 decimals) per ETH
    uint256 internal constant BUYBACK_SLIPPAGE_BPS = 300; // PLACEHOLDER (C26)
    uint24 internal constant BUYBACK_MAX_TICK_DEVIATION = 300; // PLACEHOLDER (C26, ~3 %)
    uint256 internal constant BUYBACK_ETH_PER_CALL = 0.5 ether; // PLACEHOLDER (C26)
    uint256 internal constant BUYBACK_USDC_PER_CALL = 1_500e6; // PLACEHOLDER (C26)

    struct Out {
        address v3Factory;
        address usdg;
        address stock;
        address stockPool;
        address callLedger;
        address root;
        address rootOracleHook;
        address ethUsdFeed;
        address stablecoinUsdFeed;
        address rootPriceOracle;
        address rootBuyback;
        address scorerRegistry;
        address duelHook;
        address duelTokenA;
        address duelTokenB;
        uint256 duelId;
    }

    function run() external returns (Out memory o) {
        uint256 pk = vm.envOr("DEPLOYER_PRIVATE_KEY", ANVIL_KEY_0);
        address deployer = vm.addr(pk);
        string memory path = string.concat("../.eden/deploy-", vm.toString(block.chainid), ".json");
        string memory prev = vm.readFile(path);
        IPoolManager pm = IPoolManager(vm.parseJsonAddress(prev, ".poolManager"));
        address registry = vm.parseJsonAddress(prev, ".epochRegistry");
        address lanes = vm.parseJsonAddress(prev, ".feeLanes");

        vm.startBroadcast(pk);
        _calls(o, deployer);
        _root(o, deployer, pm);
        _buyback(o, deployer, pm, lanes, vm.parseJsonAddress(prev, ".stablecoin"));
        ScorerRegistry reg = new ScorerRegistry(
            deployer, IERC20(o.root), IQualityVerifier(registry), IRootBurnPricer(o.rootPriceOracle), o.rootBuyback
        );
        o.scorerRegistry = address(reg);
        reg.setFeeSource(IScorerFeeSource(lanes));
        IFeeLanesReceivers fl = IFeeLanesReceivers(lanes);
        fl.setReceivers(address(reg), o.rootBuyback, fl.keeper());
        _duel(o, deployer, pm);
        // Governance: the same 48 h timelock takes over this half too (scheduled when the deployer is its proposer).
        TimelockController tl = TimelockController(payable(vm.parseJsonAddress(prev, ".timelock")));
        if (tl.hasRole(tl.PROPOSER_ROLE(), deployer)) {
            Governance.startHandover(tl, handoverTargets(o), Governance.HANDOVER_SALT_II);
        }
        vm.stopBroadcast();

        _write(o, prev, path);
    }

    /// @notice The contracts of this half that the timelock takes over.
    function handoverTargets(Out memory o) internal pure returns (address[] memory t) {
        t = new address[](4);
        (t[0], t[1], t[2], t[3]) = (o.callLedger, o.scorerRegistry, o.duelHook, o.rootBuyback);
    }

    function _calls(Out memory o, address deployer) internal {
        bytes memory code = vm.getCode(V3_FACTORY_ARTIFACT);
        address f;
        assembly ("memory-safe") {
            f := create(0, add(code, 0x20), mload(code))
        }
        require(f != address(0), "DeployII: v3 factory");
        o.v3Factory = f;
        TestERC20 usdg = new TestERC20("USDG (local test)", "USDG", 6);
        TestERC20 stock = new TestERC20("Test Stock (local)", "tSTOCK", 18);
        o.usdg = address(usdg);
        o.stock = address(stock);
        IV3Pool pool = IV3Pool(IV3Factory(f).createPool(address(stock), address(usdg), POOL_FEE));
        o.stockPool = address(pool);
        // The opening tick prices token0 in token1; flip it when the stock is token1.
        int24 tick = address(stock) < address(usdg) ? STOCK_TICK : -STOCK_TICK;
        pool.initialize(TickMath.getSqrtPriceAtTick(tick));
        // A5: the ledger takes a pool only with room for 1,800 observations; grown in three steps (each new slot is
        // a fresh storage write, about 22,000 gas, so 1,800 at once would not fit a 30M block).
        pool.increaseObservationCardinalityNext(600);
        pool.increaseObservationCardinalityNext(1_200);
        pool.increaseObservationCardinalityNext(1_800);
        V3PoolDriver driver = new V3PoolDriver();
        stock.mint(address(driver), 1e30);
        usdg.mint(address(driver), 1e30);
        driver.mint(pool, -887_220, 887_220, 1e18);
        // ROOT is created in _root; the ledger's stake token is ROOT, so deploy ROOT first here.
        MockRoot root = new MockRoot(deployer);
        o.root = address(root);
        CallLedger ledger = new CallLedger(deployer, IERC20(address(root)), address(usdg), AGENT_MIN_STAKE, true);
        ledger.setPool(address(stock), address(pool), uint64(block.timestamp));
        o.callLedger = address(ledger);
    }

    function _root(Out memory o, address deployer, IPoolManager pm) internal {
        bytes memory init = abi.encodePacked(
            type(RootOracleHook).creationCode, abi.encode(pm, o.root, POOL_FEE, TICK_SPACING, deployer)
        );
        (bytes32 salt, address expected) = HookSalt.find(CREATE2_FACTORY, keccak256(init), (1 << 12) | (1 << 7));
        RootOracleHook hook = new RootOracleHook{salt: salt}(pm, o.root, POOL_FEE, TICK_SPACING, deployer);
        require(address(hook) == expected, "DeployII: root hook address");
        o.rootOracleHook = address(hook);
        pm.initialize(hook.poolKey(), TickMath.getSqrtPriceAtTick(ROOT_TICK));
        V4PoolDriver driver = new V4PoolDriver(pm);
        MockRoot(o.root).mint(address(driver), 1e27);
        MockRoot(o.root).mint(deployer, 1e26); // local test ROOT for scorers and agents
        (bool ok,) = address(driver).call{value: 10 ether}("");
        require(ok, "DeployII: fund driver");
        driver.addFullRange(hook.poolKey(), 1e20);
        MockAggregatorV3 feed = new MockAggregatorV3(deployer, 8, "ETH / USD (local)", ETH_USD);
        o.ethUsdFeed = address(feed);
        o.rootPriceOracle = address(new RootPriceOracle(hook, feed, AggregatorV3Interface(address(0))));
    }

    /// @notice C26: the ROOT buyback (ROOT's genesis liquidity holder), with a route for the test stablecoin through
    /// a plain v4 ETH/USDC pool seeded here.
    function _buyback(Out memory o, address deployer, IPoolManager pm, address lanes, address stablecoin) internal {
        RootBuyback rb = new RootBuyback(
            deployer,
            pm,
            RootPriceOracle(o.rootPriceOracle),
            RootOracleHook(o.rootOracleHook),
            IBuybackLane(lanes),
            BUYBACK_SLIPPAGE_BPS,
            BUYBACK_MAX_TICK_DEVIATION,
            BUYBACK_ETH_PER_CALL
        );
        o.rootBuyback = address(rb);
        PoolKey memory usdcEth =
            PoolKey(Currency.wrap(address(0)), Currency.wrap(stablecoin), 500, 10, IHooks(address(0)));
        pm.initialize(usdcEth, TickMath.getSqrtPriceAtTick(USDC_ETH_TICK));
        V4PoolDriver driver = new V4PoolDriver(pm);
        TestERC20(stablecoin).mint(address(driver), 1e12 * 1e6);
        (bool ok,) = address(driver).call{value: 10 ether}("");
        require(ok, "DeployII: fund driver");
        driver.addFullRange(usdcEth, 4e14); // about 7.3 ETH and 21,900 USDC
        // The stablecoin's own USD feed (decided after the second review: every pair asset is priced by its feed).
        o.stablecoinUsdFeed = address(new MockAggregatorV3(deployer, 8, "USDC / USD (local)", 1e8));
        rb.setRoute(stablecoin, usdcEth, BUYBACK_USDC_PER_CALL, AggregatorV3Interface(o.stablecoinUsdFeed));
    }

    function _duel(Out memory o, address deployer, IPoolManager pm) internal {
        bytes memory init = abi.encodePacked(type(DuelHook).creationCode, abi.encode(pm, deployer));
        (bytes32 salt, address expected) = HookSalt.find(CREATE2_FACTORY, keccak256(init), (1 << 7) | (1 << 6));
        DuelHook hook = new DuelHook{salt: salt}(pm, deployer);
        require(address(hook) == expected, "DeployII: duel hook address");
        o.duelHook = address(hook);
        V4PoolDriver driver = new V4PoolDriver(pm);
        (bool ok,) = address(driver).call{value: 10 ether}("");
        require(ok, "DeployII: fund driver");
        TestERC20 a = new TestERC20("Duel A (local)", "DUELA", 18);
        TestERC20 b = new TestERC20("Duel B (local)", "DUELB", 18);
        o.duelTokenA = address(a);
        o.duelTokenB = address(b);
        a.mint(address(driver), 1e30);
        b.mint(address(driver), 1e30);
        PoolKey memory ka = _duelPool(pm, driver, hook, a);
        PoolKey memory kb = _duelPool(pm, driver, hook, b);
        o.duelId = hook.createDuel(ka, kb);
    }

    function _duelPool(IPoolManager pm, V4PoolDriver driver, DuelHook hook, TestERC20 token)
        internal
        returns (PoolKey memory key)
    {
        key = PoolKey(Currency.wrap(address(0)), Currency.wrap(address(token)), POOL_FEE, TICK_SPACING, IHooks(address(hook)));
        pm.initialize(key, uint160(1_000 << 96)); // PLACEHOLDER: 1,000,000 tokens per ETH
        driver.addFullRange(key, 1e20);
    }

    function _write(Out memory o, string memory prev, string memory path) internal {
        string memory k = "eden2";
        vm.serializeJson(k, prev);
        vm.serializeAddress(k, "v3Factory", o.v3Factory);
        vm.serializeAddress(k, "usdg", o.usdg);
        vm.serializeAddress(k, "testStock", o.stock);
        vm.serializeAddress(k, "testStockPool", o.stockPool);
        vm.serializeAddress(k, "callLedger", o.callLedger);
        vm.serializeAddress(k, "root", o.root);
        vm.serializeAddress(k, "rootOracleHook", o.rootOracleHook);
        vm.serializeAddress(k, "ethUsdFeed", o.ethUsdFeed);
        vm.serializeAddress(k, "stablecoinUsdFeed", o.stablecoinUsdFeed);
        vm.serializeAddress(k, "rootPriceOracle", o.rootPriceOracle);
        vm.serializeAddress(k, "rootBuyback", o.rootBuyback);
        vm.serializeAddress(k, "scorerRegistry", o.scorerRegistry);
        vm.serializeAddress(k, "duelHook", o.duelHook);
        vm.serializeAddress(k, "duelTokenA", o.duelTokenA);
        vm.serializeAddress(k, "duelTokenB", o.duelTokenB);
        vm.serializeAddress(k, "handoverII", handoverTargets(o));
        string memory json = vm.serializeUint(k, "duelId", o.duelId);
        vm.writeJson(json, path);
    }
}
