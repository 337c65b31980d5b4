// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {LPFeeLibrary} from "@uniswap/v4-core/src/libraries/LPFeeLibrary.sol";
import {CurveMath} from "./libraries/CurveMath.sol";
import {GraduationMath} from "./libraries/GraduationMath.sol";
import {LaunchToken} from "./LaunchToken.sol";
import {LaunchLocker} from "./LaunchLocker.sol";
import {EventBlocks} from "./libraries/EventBlocks.sol";

/// @notice Receives the curve's trading fees (the fee lanes, C17).
interface ICurveFeeSink {
    /// @param token the launch the fees were earned on; @param asset the quote asset (address(0) = ETH).
    /// ETH arrives as msg.value; ERC-20 fees are transferred before the call.
    function onCurveFees(address token, address asset, uint256 amount) external payable;
}

/// @title Launchpad: fixed-supply launches on a bonding curve that graduate into Uniswap v4 (C19, C20).
/// @notice `launch` mints a token's whole supply `S` to this contract's curve, paired with ETH or an
/// allowed stablecoin (virtual quote Φ per quote asset, graduation at `G = 4Φ`). `buy`/`sell` trade at
/// the exact curve price (see `CurveMath`) with fee, anti-snipe tax, minimum-out and deadline. The
/// buy that reaches `G` is clamped there (the rest refunded) and graduates the launch in the same
/// transaction: the locker creates the v4 pool (ETH always currency0) at
/// `sqrtPriceX96 = isqrt(amount1·2^192/amount0)` and adds the `G` + `0.16·S` full-range position; that
/// position, the remaining `0.04·S` and any rounding dust are locked in the `LaunchLocker` forever.
/// After graduation the curve refuses trades and `poolOf` names the pool.
///
/// Fees (quote units) accrue per launch, outside Q, and `collectFees` forwards them to the fee sink
/// (the fee lanes). The creator fixes at launch the share of their payout that buys back and burns their own
/// token once it trades in its pool (§7, `ownBuybackShareOf`, at most `MAX_OWN_BUYBACK_SHARE`; decided #14). Configuration (S, τ, Φ per asset, pool fee, tick spacing) is set at deployment;
/// the defaults used by the deploy script are placeholders, not protocol facts (C19 decided).
contract Launchpad is Ownable2Step, ReentrancyGuardTransient, EventBlocks {
    using SafeERC20 for IERC20;

    struct Config {
        IPoolManager poolManager;
        bytes32 lockerSalt; // CREATE2 salt giving the locker a beforeInitialize-only hook address
        uint256 supply; // S, a multiple of 25 (C20), ≥ 25Φ for every quote asset
        uint16 feeBps; // τ in bps, < 10,000
        uint256 ethVirtualQuote; // Φ for ETH (1.25 ETH)
        uint24 poolFee; // v4 LP fee of graduation pools, in pips
        int24 tickSpacing; // of graduation pools
        address feeSink;
    }

    struct Launch {
        address quote; // address(0) = ETH
        uint64 launchTime;
        bool graduated;
        address creator;
        uint64 ownBuybackShare; // §7: WAD of the creator's payout buying back and burning the token, fixed at launch
        uint256 virtualQuote; // Φ, fixed at launch
        uint256 quoteRaised; // Q (G once graduated)
        uint256 tokenReserve; // Y (S/5 once graduated, then moved to the locker)
        uint256 feesAccrued; // uncollected fees, quote units
    }

    /// @notice The largest own-token buyback share a creator may choose (WAD, of the creator's payout; decided #14:
    /// at least half of what the creator earns is always paid out).
    uint64 public constant MAX_OWN_BUYBACK_SHARE = 0.5e18;

    IPoolManager public immutable poolManager;
    LaunchLocker public immutable locker;
    uint256 public immutable supply;
    uint16 public immutable feeBps;
    uint24 public immutable poolFee;
    int24 public immutable tickSpacing;

    address public feeSink;
    /// @notice Φ per allowed quote asset (address(0) = ETH); 0 = not allowed for new launches.
    mapping(address asset => uint256) public virtualQuoteOf;
    mapping(address token => Launch) private _launches;
    /// @dev Every asset ever allowed as a quote, in the order first allowed (issue 38: the launch form reads the
    /// assets from state, not by scanning `QuoteAssetSet` logs since deployment).
    address[] private _quoteAssets;
    mapping(address asset => bool) private _quoteListed;
    address[] public tokens;

    event QuoteAssetSet(address indexed asset, uint256 virtualQuote);
    event FeeSinkChanged(address indexed previous, address indexed current);
    event Launched(
        address indexed token,
        address indexed creator,
        address indexed quote,
        string name,
        string symbol,
        uint256 supply,
        uint256 virtualQuote
    );
    event Bought(
        address indexed token,
        address indexed buyer,
        uint256 quoteUsed,
        uint256 fee,
        uint256 tokensOut,
        uint256 refund,
        uint256 quoteRaised,
        uint256 tokenReserve
    );
    event Sold(
        address indexed token,
        address indexed seller,
        uint256 tokensIn,
        uint256 quoteOut,
        uint256 fee,
        uint256 quoteRaised,
        uint256 tokenReserve
    );
    event Graduated(
        address indexed token,
        PoolId indexed poolId,
        uint160 sqrtPriceX96,
        uint128 liquidity,
        uint256 paid0,
        uint256 paid1,
        uint256 tokensLocked
    );
    event FeesCollected(address indexed token, address indexed asset, address indexed sink, uint256 amount);
    event PoolFeesCollected(
        address indexed token, address indexed asset, address indexed sink, uint256 amount, uint256 tokensBurned
    );

    error InvalidConfig(string field);
    error QuoteAssetNotAllowed(address asset);
    error UnknownToken(address token);
    error AlreadyGraduated(address token, PoolId poolId);
    error NotGraduated(address token);
    error DeadlineExpired(uint256 deadline, uint256 timestamp);
    error WrongValue(uint256 sent, uint256 expected);
    error TokensOutBelowMin(uint256 tokensOut, uint256 minTokensOut);
    error QuoteOutBelowMin(uint256 quoteOut, uint256 minQuoteOut);
    error NothingToCollect(address token);
    error UnexpectedEth(address from);
    error EthTransferFailed(address to, uint256 amount);
    error NotFeeSink(address caller);
    error OwnBuybackShareTooHigh(uint64 share, uint64 max);

    constructor(address owner_, Config memory c) Ownable(owner_) {
        if (address(c.poolManager) == address(0)) revert InvalidConfig("poolManager");
        if (c.supply == 0 || c.supply % 25 != 0) revert InvalidConfig("supply");
        if (c.feeBps >= CurveMath.BPS) revert InvalidConfig("feeBps");
        if (c.poolFee > LPFeeLibrary.MAX_LP_FEE) revert InvalidConfig("poolFee");
        if (c.tickSpacing < TickMath.MIN_TICK_SPACING || c.tickSpacing > TickMath.MAX_TICK_SPACING) {
            revert InvalidConfig("tickSpacing");
        }
        if (c.feeSink == address(0)) revert InvalidConfig("feeSink");
        poolManager = c.poolManager;
        supply = c.supply;
        feeBps = c.feeBps;
        poolFee = c.poolFee;
        tickSpacing = c.tickSpacing;
        feeSink = c.feeSink;
        locker = new LaunchLocker{salt: c.lockerSalt}(c.poolManager);
        _setQuoteAsset(address(0), c.ethVirtualQuote);
        _markEventBlock();
        emit FeeSinkChanged(address(0), c.feeSink);
    }

    // ------------------------------------------------------------------------------------------------
    // Admin

    /// @notice Allows `asset` as a quote with virtual reserve Φ (`0` disallows it for new launches).
    function setQuoteAsset(address asset, uint256 virtualQuote) external onlyOwner {
        _setQuoteAsset(asset, virtualQuote);
    }

    function setFeeSink(address sink) external onlyOwner {
        if (sink == address(0)) revert InvalidConfig("feeSink");
        _markEventBlock();
        emit FeeSinkChanged(feeSink, sink);
        feeSink = sink;
    }

    function _setQuoteAsset(address asset, uint256 virtualQuote) private {
        // S ≥ 25Φ (core validity bound), and Φ > 0 for ETH.
        if (virtualQuote > supply / CurveMath.MIN_SUPPLY_PER_VIRTUAL_QUOTE) revert InvalidConfig("virtualQuote");
        if (asset == address(0) && virtualQuote == 0) revert InvalidConfig("virtualQuote");
        virtualQuoteOf[asset] = virtualQuote;
        if (!_quoteListed[asset]) {
            _quoteListed[asset] = true;
            _quoteAssets.push(asset);
        }
        _markEventBlock();
        emit QuoteAssetSet(asset, virtualQuote);
    }

    // ------------------------------------------------------------------------------------------------
    // Launch and trade

    /// @notice Launches a token whose whole supply `S` sits on a fresh curve against `quote`. `ownBuybackShare`
    /// (WAD, 0 to `MAX_OWN_BUYBACK_SHARE`) of the creator's payout will buy back and burn the token (§7); it can
    /// never change.
    function launch(string calldata name, string calldata symbol, address quote, uint64 ownBuybackShare)
        external
        nonReentrant
        returns (address token)
    {
        uint256 phi = virtualQuoteOf[quote];
        if (phi == 0) revert QuoteAssetNotAllowed(quote);
        if (ownBuybackShare > MAX_OWN_BUYBACK_SHARE) {
            revert OwnBuybackShareTooHigh(ownBuybackShare, MAX_OWN_BUYBACK_SHARE);
        }
        token = address(new LaunchToken(name, symbol, supply, address(this)));
        _launches[token] = Launch({
            quote: quote,
            launchTime: uint64(block.timestamp),
            graduated: false,
            creator: msg.sender,
            ownBuybackShare: ownBuybackShare,
            virtualQuote: phi,
            quoteRaised: 0,
            tokenReserve: supply,
            feesAccrued: 0
        });
        tokens.push(token);
        _markEventBlock();
        emit Launched(token, msg.sender, quote, name, symbol, supply, phi);
    }

    /// @notice Buys with `quoteIn` quote (ETH: exactly msg.value). A buy reaching G is clamped, refunded
    /// and graduates the launch. Reverts below `minTokensOut` or after `deadline`.
    function buy(address token, uint256 quoteIn, uint256 minTokensOut, uint256 deadline)
        external
        payable
        nonReentrant
        returns (uint256 tokensOut, uint256 quoteUsed)
    {
        Launch storage l = _tradable(token, deadline);
        bool eth = l.quote == address(0);
        if (msg.value != (eth ? quoteIn : 0)) revert WrongValue(msg.value, eth ? quoteIn : 0);
        CurveMath.Buy memory b = CurveMath.quoteBuy(
            l.virtualQuote,
            supply,
            l.quoteRaised,
            l.tokenReserve,
            quoteIn,
            CurveMath.buyFeeRatePips(feeBps, block.timestamp - l.launchTime)
        );
        if (b.tokensOut < minTokensOut) revert TokensOutBelowMin(b.tokensOut, minTokensOut);
        l.quoteRaised += b.quoteUsed - b.fee;
        l.tokenReserve -= b.tokensOut;
        l.feesAccrued += b.fee;
        if (!eth) IERC20(l.quote).safeTransferFrom(msg.sender, address(this), b.quoteUsed);
        IERC20(token).safeTransfer(msg.sender, b.tokensOut);
        _markEventBlock();
        emit Bought(token, msg.sender, b.quoteUsed, b.fee, b.tokensOut, b.refund, l.quoteRaised, l.tokenReserve);
        if (b.graduates) _graduate(token, l);
        if (eth && b.refund != 0) _sendEth(msg.sender, b.refund); // ERC-20 buys only pulled quoteUsed
        return (b.tokensOut, b.quoteUsed);
    }

    /// @notice Sells `tokensIn` back to the curve (needs allowance). Reverts below `minQuoteOut` or after `deadline`.
    function sell(address token, uint256 tokensIn, uint256 minQuoteOut, uint256 deadline)
        external
        nonReentrant
        returns (uint256 quoteOut)
    {
        Launch storage l = _tradable(token, deadline);
        uint256 fee;
        (quoteOut, fee) = CurveMath.quoteSell(l.virtualQuote, supply, l.quoteRaised, l.tokenReserve, tokensIn, feeBps);
        if (quoteOut < minQuoteOut) revert QuoteOutBelowMin(quoteOut, minQuoteOut);
        l.quoteRaised -= quoteOut + fee;
        l.tokenReserve += tokensIn;
        l.feesAccrued += fee;
        IERC20(token).safeTransferFrom(msg.sender, address(this), tokensIn);
        if (l.quote == address(0)) _sendEth(msg.sender, quoteOut);
        else IERC20(l.quote).safeTransfer(msg.sender, quoteOut);
        _markEventBlock();
        emit Sold(token, msg.sender, tokensIn, quoteOut, fee, l.quoteRaised, l.tokenReserve);
    }

    /// @notice Forwards a launch's accrued fees to the fee sink. Anyone may call.
    function collectFees(address token) external nonReentrant returns (uint256 amount) {
        Launch storage l = _existing(token);
        amount = l.feesAccrued;
        if (amount == 0) revert NothingToCollect(token);
        l.feesAccrued = 0;
        address sink = feeSink;
        _markEventBlock();
        emit FeesCollected(token, l.quote, sink, amount);
        if (l.quote == address(0)) {
            ICurveFeeSink(sink).onCurveFees{value: amount}(token, address(0), amount);
        } else {
            IERC20(l.quote).safeTransfer(sink, amount);
            ICurveFeeSink(sink).onCurveFees(token, l.quote, amount);
        }
    }

    /// @notice A graduated launch's pool fees (decided after the review, #14: §5, §7, §8 pay on every fee, curve or
    /// pool). Anyone may call. The locker pokes its locked full-range position (liquidity untouched, LaunchLocker),
    /// the quote side is split by the fee sink exactly like a curve fee (`onCurveFees`), and the token side is
    /// burned. Reverts `NothingToCollect` when the position has earned nothing since the last collection.
    function collectPoolFees(address token) external nonReentrant returns (uint256 amount, uint256 tokensBurned) {
        Launch storage l = _existing(token);
        if (!l.graduated) revert NotGraduated(token);
        (amount, tokensBurned) = locker.collectFees(_poolKey(token, l.quote), l.quote < token, address(this));
        if (amount == 0 && tokensBurned == 0) revert NothingToCollect(token);
        address sink = feeSink;
        _markEventBlock();
        emit PoolFeesCollected(token, l.quote, sink, amount, tokensBurned);
        if (amount == 0) return (amount, tokensBurned);
        if (l.quote == address(0)) {
            ICurveFeeSink(sink).onCurveFees{value: amount}(token, address(0), amount);
        } else {
            IERC20(l.quote).safeTransfer(sink, amount);
            ICurveFeeSink(sink).onCurveFees(token, l.quote, amount);
        }
    }

    /// @notice Takes the ETH side of pool fees, which the PoolManager sends here inside `collectPoolFees`; nothing
    /// else may send ETH (a buy sends it with `buy`).
    receive() external payable {
        if (msg.sender != address(poolManager)) revert UnexpectedEth(msg.sender);
    }

    /// @notice Liquidity growth (§9.3), driven by the fee sink: `quoteIn` of the launch's quote asset, already
    /// sent to the locker, is half swapped for the token and added as locked full-range liquidity.
    function growLiquidity(address token, uint256 quoteIn, uint256 minTokensOut)
        external
        nonReentrant
        returns (uint128 liquidity)
    {
        if (msg.sender != feeSink) revert NotFeeSink(msg.sender);
        Launch storage l = _existing(token);
        if (!l.graduated) revert NotGraduated(token);
        liquidity = locker.growLiquidity(_poolKey(token, l.quote), l.quote < token, quoteIn, minTokensOut);
    }

    /// @notice The creator's own-token buyback (§7), driven by the fee sink: `quoteIn` of the launch's quote asset,
    /// already sent to the locker, buys the token in its pool and every token bought is burned.
    function buyBackOwnToken(address token, uint256 quoteIn, uint256 minTokensOut)
        external
        nonReentrant
        returns (uint256 tokensBurned)
    {
        if (msg.sender != feeSink) revert NotFeeSink(msg.sender);
        Launch storage l = _existing(token);
        if (!l.graduated) revert NotGraduated(token);
        tokensBurned = locker.buyAndBurn(_poolKey(token, l.quote), l.quote < token, quoteIn, minTokensOut);
    }

    // ------------------------------------------------------------------------------------------------
    // Reads

    function launchOf(address token) external view returns (Launch memory) {
        return _existing(token);
    }

    /// @notice §7: the share (WAD) of the creator's payout that buys back and burns the token, fixed at launch; 0 for
    /// an address that is not a launch. The fee lanes escrow it (`FeeLanes.ownBuybackEscrow`) until the token trades
    /// in its pool.
    function ownBuybackShareOf(address token) external view returns (uint64) {
        return _launches[token].ownBuybackShare;
    }

    /// @notice Whether `token` was launched here, and its quote asset (`address(0)` = ETH); `(false, 0)` for an
    /// address that is not a launch (#40: the scorer registry configures a launch's reward pool from this).
    function quoteOf(address token) external view returns (bool launched, address quote) {
        Launch storage l = _launches[token];
        return (l.launchTime != 0, l.quote);
    }

    /// @notice Every asset ever allowed as a quote, in the order first allowed (ETH, `address(0)`, first); one set
    /// back to Φ = 0 stays listed, disallowed (`virtualQuoteOf` says which are allowed now). The owner's list: short.
    function quoteAssets() external view returns (address[] memory) {
        return _quoteAssets;
    }

    function launchCount() external view returns (uint256) {
        return tokens.length;
    }

    /// @notice Exact quote of a buy now (reverts as `buy` would for zero input / unknown / graduated).
    function quoteBuy(address token, uint256 quoteIn) external view returns (CurveMath.Buy memory) {
        Launch storage l = _existing(token);
        if (l.graduated) revert AlreadyGraduated(token, _poolKey(token, l.quote).toId());
        return CurveMath.quoteBuy(
            l.virtualQuote,
            supply,
            l.quoteRaised,
            l.tokenReserve,
            quoteIn,
            CurveMath.buyFeeRatePips(feeBps, block.timestamp - l.launchTime)
        );
    }

    /// @notice Exact quote of a sell now: (quoteOut, fee).
    function quoteSell(address token, uint256 tokensIn) external view returns (uint256 quoteOut, uint256 fee) {
        Launch storage l = _existing(token);
        if (l.graduated) revert AlreadyGraduated(token, _poolKey(token, l.quote).toId());
        return CurveMath.quoteSell(l.virtualQuote, supply, l.quoteRaised, l.tokenReserve, tokensIn, feeBps);
    }

    /// @notice The v4 pool key a launch graduates into (known from launch on).
    function poolKeyOf(address token) external view returns (PoolKey memory) {
        return _poolKey(token, _existing(token).quote);
    }

    /// @notice Where a graduated launch trades now; reverts `NotGraduated` before graduation.
    function poolOf(address token) external view returns (PoolKey memory key, PoolId poolId) {
        Launch storage l = _existing(token);
        if (!l.graduated) revert NotGraduated(token);
        key = _poolKey(token, l.quote);
        poolId = key.toId();
    }

    // ------------------------------------------------------------------------------------------------
    // Internal

    function _existing(address token) private view returns (Launch storage l) {
        l = _launches[token];
        if (l.tokenReserve == 0) revert UnknownToken(token);
    }

    function _tradable(address token, uint256 deadline) private view returns (Launch storage l) {
        l = _existing(token);
        if (l.graduated) revert AlreadyGraduated(token, _poolKey(token, l.quote).toId());
        if (block.timestamp > deadline) revert DeadlineExpired(deadline, block.timestamp);
    }

    function _poolKey(address token, address quote) private view returns (PoolKey memory key) {
        (address c0, address c1) = quote < token ? (quote, token) : (token, quote);
        key = PoolKey({
            currency0: Currency.wrap(c0),
            currency1: Currency.wrap(c1),
            fee: poolFee,
            tickSpacing: tickSpacing,
            hooks: IHooks(address(locker))
        });
    }

    /// @dev Q = G and Y = S/5 here. Everything moves to the locker, which creates the pool, adds the
    /// full-range position and keeps the rest.
    function _graduate(address token, Launch storage l) private {
        l.graduated = true;
        GraduationMath.Pool memory p = GraduationMath.pool(l.quote, token, l.quoteRaised, supply, tickSpacing);
        PoolKey memory key = _poolKey(token, l.quote);
        if (l.quote == address(0)) _sendEth(address(locker), l.quoteRaised);
        else IERC20(l.quote).safeTransfer(address(locker), l.quoteRaised);
        IERC20(token).safeTransfer(address(locker), l.tokenReserve);
        locker.initializePool(key, p.sqrtPriceX96);
        (uint256 paid0, uint256 paid1) = locker.addLiquidity(key, p.tickLower, p.tickUpper, p.liquidity);
        _markEventBlock();
        emit Graduated(token, key.toId(), p.sqrtPriceX96, p.liquidity, paid0, paid1, p.tokensLocked);
    }

    function _sendEth(address to, uint256 amount) private {
        (bool ok,) = to.call{value: amount}("");
        if (!ok) revert EthTransferFailed(to, amount);
    }
}
