// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IUnlockCallback} from "@uniswap/v4-core/src/interfaces/callback/IUnlockCallback.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId, PoolIdLibrary} from "@uniswap/v4-core/src/types/PoolId.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {ModifyLiquidityParams, SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {StateLibrary} from "@uniswap/v4-core/src/libraries/StateLibrary.sol";
import {LiquidityAmounts} from "@uniswap/v4-core/test/utils/LiquidityAmounts.sol";
import {IERC20Burnable} from "./interfaces/IERC20Burnable.sol";
import {RootPriceOracle} from "./RootPriceOracle.sol";
import {AggregatorV3Interface} from "./interfaces/AggregatorV3Interface.sol";
import {RootOracleHook} from "./RootOracleHook.sol";
import {BuybackMath} from "./libraries/BuybackMath.sol";
import {EventBlocks} from "./libraries/EventBlocks.sol";

/// @notice The fee lanes' ROOT-buyback lane, as `RootBuyback` pulls it (`FeeLanes`).
interface IBuybackLane {
    function buyback() external view returns (address);
    function buybackPool(address asset) external view returns (uint256);
    function pullBuyback(address asset) external returns (uint256);
}

/// @title RootBuyback: the ROOT buyback and ROOT's genesis liquidity (C26, §5.5, §9.3).
/// @notice Receives the pair assets the protocol sends to the buyback (the fee lanes' buyback lane, which `run`
/// pulls; scorer rewards nobody earned, which `ScorerRegistry.sweepReturned` sends) and turns them into ROOT:
/// - `run(asset)` (anyone, any time): spends at most `maxInPerCall` of the asset. A stablecoin is first sold for ETH
///   in its configured v4 pool; of the ETH `E`, `floor(E/4)` is kept and the rest buys ROOT in ROOT's own pool; of
///   the ROOT `R` bought, `floor(2R/3)` is burned and the rest, with the kept ETH (and whatever is left from earlier
///   runs), is added as full-range liquidity owned by this contract. In value: half burned, half into the genesis
///   liquidity as the seed says, without selling back ROOT just bought (`BuybackMath`, eden-core `burns::buyback`).
/// - Sandwich-safe: the ROOT bought must be at least the value of the ETH that buys it at `RootPriceOracle`'s ETH
///   price (the lower of the 30 min and 4 h TWAPs, which no swap in this block can move) less `slippageBps`, and after
///   the buy the pool's tick must be within `maxTickDeviation` of the 30 min TWAP tick, so the liquidity is never
///   added at a pushed price. Decided after the second review: a pair asset other than ETH is priced with its own USD
///   feed (a route cannot be set without one; before, every such asset was valued at $1), and its hop to ETH must
///   return at least that value at ETH/USD less `slippageBps` (`HopBelowMin`): each leg is bounded by its own oracle.
///   Any failure reverts the whole run; the assets stay here for a later one. The per-call bound caps the impact.
/// - Locked: no code path passes a negative liquidity delta or moves an asset anywhere but into the PoolManager (and
///   the ROOT burned). The position's fees are folded into each add; dust waits for the next run.
/// The owner (governance) only sets routes and per-call bounds; a route's output is still bounded by the oracle.
contract RootBuyback is IUnlockCallback, Ownable2Step, ReentrancyGuardTransient, EventBlocks {
    using SafeERC20 for IERC20;
    using StateLibrary for IPoolManager;
    using PoolIdLibrary for PoolKey;

    /// @notice The largest slippage a deployment may configure (10 %).
    uint256 public constant MAX_SLIPPAGE_BPS = 1_000;
    /// @notice The largest tick distance from the TWAP a deployment may configure (about 10 %).
    uint24 public constant MAX_TICK_DEVIATION = 1_000;

    IPoolManager public immutable poolManager;
    RootPriceOracle public immutable oracle;
    IBuybackLane public immutable lanes;
    /// @notice ROOT (currency1 of its own ETH pool).
    address public immutable root;
    RootOracleHook public immutable rootHook;
    uint256 public immutable slippageBps;
    uint24 public immutable maxTickDeviation;

    /// @notice How a pair asset reaches ETH: `hop` is its v4 pool against native ETH (unused for ETH itself).
    struct Route {
        PoolKey hop;
        uint256 maxInPerCall;
        uint8 decimals;
        AggregatorV3Interface usdFeed; // the asset's own USD feed (unused for ETH)
    }

    /// @notice What one run did.
    struct Outcome {
        uint256 ethSpent;
        uint256 rootBought;
        uint256 rootBurned;
        uint128 liquidity;
        uint256 ethToLiquidity;
        uint256 rootToLiquidity;
        uint256 minRootOut;
    }

    /// @dev What `run` hands its unlock callback.
    struct RunArgs {
        address asset;
        uint256 amountIn;
        uint256 minEthOut; // the hop's least ETH (0 for ETH itself)
        uint256 priceEth; // the oracle's ETH per whole ROOT
        int24 twapTick;
        PoolKey hop;
    }

    mapping(address asset => Route) internal _routes;
    /// @notice Each asset's amount spent by runs.
    mapping(address asset => uint256) public spent;
    uint256 public totalRootBurned;
    uint256 public totalEthToLiquidity;
    uint256 public totalRootToLiquidity;
    uint256 public runs;

    event RouteSet(address indexed asset, PoolId hop, uint256 maxInPerCall, uint8 decimals, address usdFeed);
    event RootBoughtBack(
        address indexed asset,
        address indexed caller,
        uint256 amountIn,
        uint256 minRootOut,
        uint256 ethSpent,
        uint256 rootBought,
        uint256 rootBurned,
        uint128 liquidity,
        uint256 ethToLiquidity,
        uint256 rootToLiquidity
    );

    error BadConfig();
    error BadRoute(address asset);
    error NoRoute(address asset);
    error NothingToBuy(address asset);
    error BuybackBelowMin(uint256 rootBought, uint256 minRootOut);
    error HopBelowMin(uint256 ethOut, uint256 minEthOut);
    error PriceOffOracle(int24 tick, int24 twapTick);
    error OnlyPoolManager(address caller);

    constructor(
        address owner_,
        IPoolManager poolManager_,
        RootPriceOracle oracle_,
        RootOracleHook rootHook_,
        IBuybackLane lanes_,
        uint256 slippageBps_,
        uint24 maxTickDeviation_,
        uint256 ethMaxInPerCall
    ) Ownable(owner_) {
        if (
            slippageBps_ > MAX_SLIPPAGE_BPS || maxTickDeviation_ > MAX_TICK_DEVIATION || address(lanes_) == address(0)
                || address(rootHook_.poolManager()) != address(poolManager_)
                || address(oracle_.tickOracle()) != address(rootHook_)
        ) revert BadConfig();
        poolManager = poolManager_;
        oracle = oracle_;
        rootHook = rootHook_;
        lanes = lanes_;
        root = rootHook_.root();
        slippageBps = slippageBps_;
        maxTickDeviation = maxTickDeviation_;
        _routes[address(0)].maxInPerCall = ethMaxInPerCall;
        _routes[address(0)].decimals = 18;
        _markEventBlock();
        emit RouteSet(address(0), PoolId.wrap(bytes32(0)), ethMaxInPerCall, 18, address(0));
    }

    /// @notice Pair assets arrive as ETH from the fee lanes, the scorer registry and the PoolManager.
    receive() external payable {}

    /// @notice ROOT's own pool: native ETH against ROOT, with its recording hook.
    function rootPoolKey() public view returns (PoolKey memory) {
        return rootHook.poolKey();
    }

    /// @notice The route of `asset` (`maxInPerCall == 0`: none).
    function routeOf(address asset) external view returns (Route memory) {
        return _routes[asset];
    }

    /// @notice The genesis liquidity this contract holds in ROOT's pool (it only ever grows).
    function positionLiquidity() public view returns (uint128 liquidity) {
        PoolKey memory k = rootPoolKey();
        (liquidity,,) = poolManager.getPositionInfo(
            k.toId(), address(this), TickMath.minUsableTick(k.tickSpacing), TickMath.maxUsableTick(k.tickSpacing), 0
        );
    }

    /// @notice What a run of `asset` would spend now: its balance here plus its fee-lane pool, at most the bound.
    function pending(address asset) public view returns (uint256 amountIn) {
        amountIn = _balance(asset);
        if (lanes.buyback() == address(this)) amountIn += lanes.buybackPool(asset);
        uint256 cap = _routes[asset].maxInPerCall;
        if (amountIn > cap) amountIn = cap;
    }

    /// @notice Sets how a pair asset reaches ETH (`hop`: its v4 pool against native ETH), its USD feed and its
    /// per-call bound, or ETH's bound (`asset == 0`, `hop` and `usdFeed` ignored). A zero bound stops runs of the
    /// asset; an asset without a feed has no route.
    function setRoute(address asset, PoolKey calldata hop, uint256 maxInPerCall, AggregatorV3Interface usdFeed)
        external
        onlyOwner
    {
        if (asset == root) revert BadRoute(asset);
        Route storage r = _routes[asset];
        r.maxInPerCall = maxInPerCall;
        if (asset == address(0)) {
            _markEventBlock();
            emit RouteSet(asset, PoolId.wrap(bytes32(0)), maxInPerCall, 18, address(0));
            return;
        }
        if (!hop.currency0.isAddressZero() || Currency.unwrap(hop.currency1) != asset) revert BadRoute(asset);
        if (address(usdFeed) == address(0)) revert BadRoute(asset);
        uint8 dec = IERC20Metadata(asset).decimals();
        if (dec > 18) revert BadRoute(asset);
        r.hop = hop;
        r.decimals = dec;
        r.usdFeed = usdFeed;
        _markEventBlock();
        emit RouteSet(asset, hop.toId(), maxInPerCall, dec, address(usdFeed));
    }

    /// @notice Buys ROOT with up to `maxInPerCall` of `asset` (pulling its fee-lane pool first), burns two thirds of
    /// it and adds the rest with a quarter of the ETH to the genesis liquidity. Anyone may call; reverts rather than
    /// buy below the oracle's minimum or add liquidity at a price off the TWAP.
    function run(address asset) external nonReentrant returns (Outcome memory o) {
        Route memory r = _routes[asset];
        if (r.maxInPerCall == 0) revert NoRoute(asset);
        if (lanes.buyback() == address(this) && lanes.buybackPool(asset) != 0) lanes.pullBuyback(asset);
        uint256 amountIn = _balance(asset);
        if (amountIn > r.maxInPerCall) amountIn = r.maxInPerCall;
        if (amountIn == 0) revert NothingToBuy(asset);
        RootPriceOracle.RootPrice memory p = oracle.rootPrice();
        uint256 minEthOut; // the hop's least ETH: the asset's value at its own feed, at ETH/USD, less the slippage
        if (asset != address(0)) {
            uint256 usd = BuybackMath.assetUsdWadUp(amountIn, r.decimals, oracle.feedUsdWad(r.usdFeed));
            minEthOut = BuybackMath.minRootOutUp(usd, p.ethUsd, slippageBps);
        }
        o = abi.decode(
            poolManager.unlock(abi.encode(RunArgs(asset, amountIn, minEthOut, p.priceEth, p.shortTick, r.hop))),
            (Outcome)
        );
        if (o.rootBurned != 0) IERC20Burnable(root).burn(o.rootBurned);
        spent[asset] += amountIn;
        totalRootBurned += o.rootBurned;
        totalEthToLiquidity += o.ethToLiquidity;
        totalRootToLiquidity += o.rootToLiquidity;
        runs += 1;
        _markEventBlock();
        emit RootBoughtBack(
            asset,
            msg.sender,
            amountIn,
            o.minRootOut,
            o.ethSpent,
            o.rootBought,
            o.rootBurned,
            o.liquidity,
            o.ethToLiquidity,
            o.rootToLiquidity
        );
    }

    /// @inheritdoc IUnlockCallback
    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        if (msg.sender != address(poolManager)) revert OnlyPoolManager(msg.sender);
        RunArgs memory a = abi.decode(data, (RunArgs));
        Outcome memory o;
        int256 eth; // this contract's net ETH delta
        if (a.asset == address(0)) {
            o.ethSpent = a.amountIn;
        } else {
            BalanceDelta h = _swap(a.hop, false, a.amountIn); // the asset (currency1) for ETH (currency0)
            _settle(a.hop.currency1, h.amount1());
            o.ethSpent = uint256(uint128(h.amount0()));
            if (o.ethSpent < a.minEthOut) revert HopBelowMin(o.ethSpent, a.minEthOut);
            eth = h.amount0();
        }
        // The ROOT bought is bounded by the ETH that buys it, at the oracle's ETH price (C16).
        o.minRootOut = BuybackMath.minRootOutUp(BuybackMath.buyValue(o.ethSpent), a.priceEth, slippageBps);
        PoolKey memory key = rootPoolKey();
        (uint256 buy, uint256 keep) = BuybackMath.splitEth(o.ethSpent);
        BalanceDelta b = _swap(key, true, buy); // ETH (currency0) for ROOT (currency1)
        eth += b.amount0();
        o.rootBought = uint256(uint128(b.amount1()));
        if (o.rootBought < o.minRootOut) revert BuybackBelowMin(o.rootBought, o.minRootOut);
        o.rootBurned = BuybackMath.burnShare(o.rootBought);
        (int256 ethAdded, int256 rootAdded) = _addLiquidity(key, a.twapTick, keep, o);
        _settle(key.currency0, SafeCast.toInt128(eth + ethAdded));
        _settle(key.currency1, SafeCast.toInt128(int256(b.amount1()) + rootAdded));
        return abi.encode(o);
    }

    /// @dev After the buy: the tick must be near the TWAP; then the kept ETH and the ROOT not burned (with ROOT
    /// left here by earlier runs) are added full range. Returns this contract's deltas of the add (fees included).
    function _addLiquidity(PoolKey memory key, int24 twapTick, uint256 keep, Outcome memory o)
        private
        returns (int256 ethDelta, int256 rootDelta)
    {
        (uint160 sqrtP, int24 tick,,) = poolManager.getSlot0(key.toId());
        int256 dev = int256(tick) - int256(twapTick);
        if (dev > int256(uint256(maxTickDeviation)) || -dev > int256(uint256(maxTickDeviation))) {
            revert PriceOffOracle(tick, twapTick);
        }
        // ROOT held here is only ever waiting for the liquidity (earlier runs' dust and fees).
        uint256 rootForLiquidity = o.rootBought - o.rootBurned + IERC20(root).balanceOf(address(this));
        int24 lo = TickMath.minUsableTick(key.tickSpacing);
        int24 hi = TickMath.maxUsableTick(key.tickSpacing);
        o.liquidity = LiquidityAmounts.getLiquidityForAmounts(
            sqrtP, TickMath.getSqrtPriceAtTick(lo), TickMath.getSqrtPriceAtTick(hi), keep, rootForLiquidity
        );
        if (o.liquidity == 0) return (0, 0);
        // The delta is a uint128 liquidity, so always an add, never a removal.
        (BalanceDelta added, BalanceDelta fees) = poolManager.modifyLiquidity(
            key,
            ModifyLiquidityParams({
                tickLower: lo, tickUpper: hi, liquidityDelta: int256(uint256(o.liquidity)), salt: bytes32(0)
            }),
            ""
        );
        // `added` is the principal plus the fees the position earned since the last add.
        o.ethToLiquidity = uint256(int256(fees.amount0()) - added.amount0());
        o.rootToLiquidity = uint256(int256(fees.amount1()) - added.amount1());
        return (added.amount0(), added.amount1());
    }

    function _swap(PoolKey memory key, bool zeroForOne, uint256 amountIn) private returns (BalanceDelta) {
        return poolManager.swap(
            key,
            SwapParams({
                zeroForOne: zeroForOne,
                amountSpecified: -int256(amountIn),
                sqrtPriceLimitX96: zeroForOne ? TickMath.MIN_SQRT_PRICE + 1 : TickMath.MAX_SQRT_PRICE - 1
            }),
            ""
        );
    }

    /// @dev Pays a negative delta from this contract's balance; takes a positive one into this contract.
    function _settle(Currency currency, int128 amount) private {
        if (amount < 0) {
            uint256 paid = uint256(uint128(-amount));
            if (currency.isAddressZero()) {
                poolManager.settle{value: paid}();
            } else {
                poolManager.sync(currency);
                IERC20(Currency.unwrap(currency)).safeTransfer(address(poolManager), paid);
                poolManager.settle();
            }
        } else if (amount > 0) {
            poolManager.take(currency, address(this), uint256(uint128(amount)));
        }
    }

    function _balance(address asset) private view returns (uint256) {
        return asset == address(0) ? address(this).balance : IERC20(asset).balanceOf(address(this));
    }
}
