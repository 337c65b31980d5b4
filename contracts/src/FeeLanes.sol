// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {EpochRegistry} from "./EpochRegistry.sol";
import {HolderDistributor} from "./HolderDistributor.sol";
import {Launchpad, ICurveFeeSink} from "./Launchpad.sol";
import {EventBlocks} from "./libraries/EventBlocks.sol";

/// @title FeeLanes: splits every trading fee between creator, scorer pool, holder pot and ROOT buyback (C17, §7, §9.3).
/// @notice Called by the Launchpad with a launch's fees (ETH or its stablecoin). For a fee `F`:
///
/// - creator share `creator(S) = floor + ⌊(ceiling − floor) × S / 100⌋` (WAD), `floor = fBacked` for a
///   Verified project else `fUnverified`, `S` = the project's score in the latest final epoch (WAD points 0–100,
///   proven against that epoch's `EpochRegistry` root). Decided after the review: only the latest final epoch's
///   score counts, whoever records it; until it is recorded (or when the project has none in it) `S = 0`, so
///   nobody gains by not recording a newer, lower score. Bit for bit eden-core
///   `creator::creator_split`: `creatorAmount = ⌊F × creator(S)⌋`, `lane = ⌊F × ceiling⌋`,
///   unearned `= lane − creatorAmount`.
/// - Decided: the other lanes share everything the creator did not get, `F − creatorAmount` (their own
///   base shares plus the unearned part), pro rata to their weights: `scorer = ⌊R × wS / W⌋`,
///   `holder = ⌊R × wH / W⌋`, `buyback = R − scorer − holder` (`W = wS + wH + wB`; the buyback lane takes
///   rounding dust). Weights and the ceiling sum to exactly 1 (WAD).
/// - Of the creator amount, `⌊creatorAmount × lpShare⌋` (φ_LP) is escrowed for the token's pool
///   (liquidity growth, §9.3); of the creator's payout that remains, the launch-time own-token buyback share
///   (`Launchpad.ownBuybackShareOf`, §7) is escrowed as `⌊payout × share⌋` to buy back and burn the token
///   (decided #14: a share of the payout after φ_LP, so the two never exceed the creator amount whatever φ_LP
///   becomes); the rest is claimable by the launch's creator.
/// - The holder lane is pushed into the `HolderDistributor` pot of (token, asset) at once; the scorer
///   and buyback lanes accrue here and are pulled by their configured receivers (scorer rewards contract,
///   ROOT buyback executor).
/// - `sweepLiquidity` (keeper) sends a graduated token's escrow to the locker, which swaps half for the
///   token in its pool and adds both legs as locked full-range liquidity. Escrow earned before
///   graduation waits for the first sweep after it.
/// - `sweepOwnBuyback` (keeper) sends a graduated token's own-buyback escrow to the locker, which buys the token in
///   its pool (at least `minTokensOut`) and burns it. Escrow earned before graduation waits likewise.
///
/// The project of a launch is the token address (score leaves are keyed by it). The Tokenomics values are
/// configuration; the deploy script's defaults are placeholders, not protocol facts (C17 decided).
contract FeeLanes is ICurveFeeSink, Ownable2Step, ReentrancyGuardTransient, EventBlocks {
    using SafeERC20 for IERC20;

    uint256 public constant WAD = 1e18;
    uint256 public constant HUNDRED_POINTS = 100e18;

    /// @notice Lane parameters, all WAD fractions of a fee (or of the creator amount for `lpShare`).
    struct Params {
        uint64 fBacked;
        uint64 fUnverified;
        uint64 ceiling;
        uint64 scorerWeight;
        uint64 holderWeight;
        uint64 buybackWeight;
        uint64 lpShare;
    }

    struct Split {
        uint256 creatorShare; // creator(S), WAD
        uint256 creatorAmount;
        uint256 unearned;
        uint256 toCreator;
        uint256 toLiquidity;
        uint256 toOwnBuyback;
        uint256 toScorers;
        uint256 toHolders;
        uint256 toBuyback;
    }

    EpochRegistry public immutable registry;
    HolderDistributor public immutable distributor;
    Launchpad public launchpad;

    Params public params;
    address public scorerRewards;
    address public buyback;
    address public keeper;

    mapping(address token => bool) public verified;
    /// @notice The last recorded score (WAD points), its epoch and whether one was recorded; it counts only while
    /// its epoch is the registry's latest final epoch (`currentScore`).
    mapping(address token => uint256) public scoreOf;
    mapping(address token => uint64) public scoreEpochOf;
    mapping(address token => bool) public scoreRecorded;

    /// @notice Creator earnings per launch, in the launch's quote asset.
    mapping(address token => uint256) public creatorBalance;
    /// @notice Liquidity-growth escrow per launch, in the launch's quote asset.
    mapping(address token => uint256) public liquidityEscrow;
    /// @notice The creator's own-token buyback escrow per launch (§7), in the launch's quote asset.
    mapping(address token => uint256) public ownBuybackEscrow;
    /// @notice Scorer-pool lane per (token, asset), pulled by `scorerRewards`.
    mapping(address token => mapping(address asset => uint256)) public scorerPool;
    /// @notice ROOT-buyback lane per asset, pulled by `buyback`.
    mapping(address asset => uint256) public buybackPool;

    event ParamsSet(Params params);
    event LaunchpadSet(address launchpad);
    event ReceiversSet(address scorerRewards, address buyback, address keeper);
    event VerifiedSet(address indexed token, bool verified);
    event ScoreUpdated(address indexed token, uint64 indexed epoch, uint256 scoreWad);
    event FeesSplit(
        address indexed token,
        address indexed asset,
        uint256 fee,
        uint256 creatorShare,
        uint256 toCreator,
        uint256 toLiquidity,
        uint256 toOwnBuyback,
        uint256 toScorers,
        uint256 toHolders,
        uint256 toBuyback
    );
    event CreatorClaimed(address indexed token, address indexed creator, uint256 amount);
    event ScorerPoolPulled(address indexed token, address indexed asset, address to, uint256 amount);
    event BuybackPulled(address indexed asset, address to, uint256 amount);
    event LiquiditySwept(address indexed token, uint256 quoteIn, uint128 liquidity);
    event OwnBuybackSwept(address indexed token, uint256 quoteIn, uint256 tokensBurned);

    error InvalidParams(string field);
    error ZeroAddress();
    error LaunchpadAlreadySet();
    error NotLaunchpad(address caller);
    error NotAuthorized(address caller);
    error NotAdjudicator(address caller);
    error WrongValue(uint256 sent, uint256 expected);
    error StaleScore(uint64 epoch, uint64 latest);
    error NotLatestFinal(uint64 epoch, uint64 latestFinal);
    error ScoreOutOfRange(uint256 scoreWad);
    error InvalidScoreProof(address token, uint64 epoch, uint256 scoreWad);
    error NothingToPay();
    error EthTransferFailed(address to, uint256 amount);

    constructor(address owner_, EpochRegistry registry_, HolderDistributor distributor_, Params memory p)
        Ownable(owner_)
    {
        if (address(registry_) == address(0) || address(distributor_) == address(0)) revert ZeroAddress();
        registry = registry_;
        distributor = distributor_;
        _setParams(p);
    }

    // ------------------------------------------------------------------------------------------------
    // Configuration (owner; the Verified badge: the adjudicator)

    /// @notice One-time link to the launchpad whose fees this contract splits.
    function setLaunchpad(Launchpad launchpad_) external onlyOwner {
        if (address(launchpad) != address(0)) revert LaunchpadAlreadySet();
        if (address(launchpad_) == address(0)) revert ZeroAddress();
        launchpad = launchpad_;
        _markEventBlock();
        emit LaunchpadSet(address(launchpad_));
    }

    function setParams(Params calldata p) external onlyOwner {
        _setParams(p);
    }

    function setReceivers(address scorerRewards_, address buyback_, address keeper_) external onlyOwner {
        scorerRewards = scorerRewards_;
        buyback = buyback_;
        keeper = keeper_;
        _markEventBlock();
        emit ReceiversSet(scorerRewards_, buyback_, keeper_);
    }

    /// @notice §4.4: the registry's adjudicator (never a signer; rotated only by the registry's timelocked owner)
    /// sets or revokes a project's manual Verified badge. Verified never changes a score; it lifts the creator's
    /// floor from `fUnverified` to `fBacked` (C17) and, in the epochs, the pre-data cap from 50 to 100 (C10).
    /// Decided after the review: the owner no longer can; the adjudicator alone holds this power.
    function setVerified(address token, bool isVerified) external {
        if (msg.sender != registry.adjudicator()) revert NotAdjudicator(msg.sender);
        if (token == address(0)) revert ZeroAddress();
        verified[token] = isVerified;
        _markEventBlock();
        emit VerifiedSet(token, isVerified);
    }

    function _setParams(Params memory p) private {
        if (p.ceiling > WAD) revert InvalidParams("ceiling");
        if (p.fBacked > p.ceiling) revert InvalidParams("fBacked");
        if (p.fUnverified > p.ceiling) revert InvalidParams("fUnverified");
        if (p.lpShare > WAD) revert InvalidParams("lpShare");
        uint256 w = uint256(p.scorerWeight) + p.holderWeight + p.buybackWeight;
        if (w == 0 || w + p.ceiling != WAD) revert InvalidParams("weights");
        params = p;
        _markEventBlock();
        emit ParamsSet(p);
    }

    // ------------------------------------------------------------------------------------------------
    // Score (C17: the latest final score, both ways)

    /// @notice Records a project's score in the registry's latest final epoch (once per epoch). Anyone may call.
    function updateScore(address token, uint64 epoch, uint256 scoreWad, bytes32[] calldata proof) external {
        uint64 latestFinal = registry.latestFinalEpoch();
        if (epoch != latestFinal) revert NotLatestFinal(epoch, latestFinal);
        uint64 latest = scoreEpochOf[token];
        if (scoreRecorded[token] && epoch <= latest) revert StaleScore(epoch, latest);
        if (scoreWad > HUNDRED_POINTS) revert ScoreOutOfRange(scoreWad);
        if (!registry.verifyScore(epoch, token, scoreWad, proof)) revert InvalidScoreProof(token, epoch, scoreWad);
        scoreOf[token] = scoreWad;
        scoreEpochOf[token] = epoch;
        scoreRecorded[token] = true;
        _markEventBlock();
        emit ScoreUpdated(token, epoch, scoreWad);
    }

    /// @notice The score the split uses now: the recorded one while its epoch is the latest final epoch, else 0.
    function currentScore(address token) public view returns (uint256) {
        if (!scoreRecorded[token] || !registry.hasFinalEpoch()) return 0;
        return scoreEpochOf[token] == registry.latestFinalEpoch() ? scoreOf[token] : 0;
    }

    /// @notice creator(S) for a token now (WAD), rounded down.
    function creatorShare(address token) public view returns (uint256) {
        Params memory p = params;
        uint256 floor = verified[token] ? p.fBacked : p.fUnverified;
        return floor + Math.mulDiv(p.ceiling - floor, currentScore(token), HUNDRED_POINTS);
    }

    /// @notice The launch's own-token buyback share (WAD of the creator's payout, §7); 0 for a non-launch.
    function ownBuybackShare(address token) public view returns (uint256) {
        return address(launchpad) == address(0) ? 0 : launchpad.ownBuybackShareOf(token);
    }

    /// @notice Whether the launchpad launched `token`, and in which quote asset (`address(0)` = ETH): the asset its
    /// scorer lane is paid in, which the scorer registry's reward pool for it must hold (#40: a launch's pool is
    /// configured from this, without an owner call). `(false, 0)` for any other token, or before the launchpad is set.
    function launchQuote(address token) external view returns (bool launched, address quote) {
        if (address(launchpad) == address(0)) return (false, address(0));
        return launchpad.quoteOf(token);
    }

    /// @notice How a fee of `fee` on `token` would be split now.
    function previewSplit(address token, uint256 fee) public view returns (Split memory s) {
        Params memory p = params;
        s.creatorShare = creatorShare(token);
        s.creatorAmount = Math.mulDiv(fee, s.creatorShare, WAD);
        s.unearned = Math.mulDiv(fee, p.ceiling, WAD) - s.creatorAmount;
        s.toLiquidity = Math.mulDiv(s.creatorAmount, p.lpShare, WAD);
        uint256 payout = s.creatorAmount - s.toLiquidity;
        s.toOwnBuyback = Math.mulDiv(payout, ownBuybackShare(token), WAD);
        s.toCreator = payout - s.toOwnBuyback;
        uint256 rest = fee - s.creatorAmount;
        uint256 w = uint256(p.scorerWeight) + p.holderWeight + p.buybackWeight;
        s.toScorers = Math.mulDiv(rest, p.scorerWeight, w);
        s.toHolders = Math.mulDiv(rest, p.holderWeight, w);
        s.toBuyback = rest - s.toScorers - s.toHolders;
    }

    // ------------------------------------------------------------------------------------------------
    // Fees in

    /// @inheritdoc ICurveFeeSink
    function onCurveFees(address token, address asset, uint256 amount) external payable nonReentrant {
        if (msg.sender != address(launchpad)) revert NotLaunchpad(msg.sender);
        if (msg.value != (asset == address(0) ? amount : 0)) {
            revert WrongValue(msg.value, asset == address(0) ? amount : 0);
        }
        Split memory s = previewSplit(token, amount);
        creatorBalance[token] += s.toCreator;
        liquidityEscrow[token] += s.toLiquidity;
        if (s.toOwnBuyback != 0) ownBuybackEscrow[token] += s.toOwnBuyback;
        scorerPool[token][asset] += s.toScorers;
        buybackPool[asset] += s.toBuyback;
        _markEventBlock();
        emit FeesSplit(
            token,
            asset,
            amount,
            s.creatorShare,
            s.toCreator,
            s.toLiquidity,
            s.toOwnBuyback,
            s.toScorers,
            s.toHolders,
            s.toBuyback
        );
        if (s.toHolders != 0) {
            if (asset == address(0)) {
                distributor.fund{value: s.toHolders}(token, asset, s.toHolders);
            } else {
                IERC20(asset).forceApprove(address(distributor), s.toHolders);
                distributor.fund(token, asset, s.toHolders);
            }
        }
    }

    // ------------------------------------------------------------------------------------------------
    // Payouts

    /// @notice Pays the launch creator everything earned so far. Anyone may trigger; the creator is paid.
    function claimCreator(address token) external nonReentrant returns (uint256 amount) {
        Launchpad.Launch memory l = launchpad.launchOf(token);
        amount = creatorBalance[token];
        if (amount == 0) revert NothingToPay();
        creatorBalance[token] = 0;
        _markEventBlock();
        emit CreatorClaimed(token, l.creator, amount);
        _pay(l.quote, l.creator, amount);
    }

    /// @notice The scorer rewards contract pulls a token's scorer lane.
    function pullScorerPool(address token, address asset) external nonReentrant returns (uint256 amount) {
        if (msg.sender != scorerRewards) revert NotAuthorized(msg.sender);
        amount = scorerPool[token][asset];
        if (amount == 0) revert NothingToPay();
        scorerPool[token][asset] = 0;
        _markEventBlock();
        emit ScorerPoolPulled(token, asset, msg.sender, amount);
        _pay(asset, msg.sender, amount);
    }

    /// @notice The ROOT buyback executor pulls the buyback lane of an asset.
    function pullBuyback(address asset) external nonReentrant returns (uint256 amount) {
        if (msg.sender != buyback) revert NotAuthorized(msg.sender);
        amount = buybackPool[asset];
        if (amount == 0) revert NothingToPay();
        buybackPool[asset] = 0;
        _markEventBlock();
        emit BuybackPulled(asset, msg.sender, amount);
        _pay(asset, msg.sender, amount);
    }

    /// @notice Liquidity growth (§9.3): adds a graduated token's escrow to its pool as locked liquidity.
    /// Keeper or owner only (the swap leg takes `minTokensOut` against sandwiching).
    function sweepLiquidity(address token, uint256 minTokensOut) external nonReentrant returns (uint128 liquidity) {
        if (msg.sender != keeper && msg.sender != owner()) revert NotAuthorized(msg.sender);
        uint256 amount = liquidityEscrow[token];
        if (amount == 0) revert NothingToPay();
        liquidityEscrow[token] = 0;
        address locker = address(launchpad.locker());
        _pay(launchpad.launchOf(token).quote, locker, amount);
        liquidity = launchpad.growLiquidity(token, amount, minTokensOut);
        _markEventBlock();
        emit LiquiditySwept(token, amount, liquidity);
    }

    /// @notice The creator's own-token buyback (§7): spends a graduated token's own-buyback escrow buying the token
    /// in its pool and burns it. Keeper or owner only (the swap takes `minTokensOut` against sandwiching).
    function sweepOwnBuyback(address token, uint256 minTokensOut)
        external
        nonReentrant
        returns (uint256 tokensBurned)
    {
        if (msg.sender != keeper && msg.sender != owner()) revert NotAuthorized(msg.sender);
        uint256 amount = ownBuybackEscrow[token];
        if (amount == 0) revert NothingToPay();
        ownBuybackEscrow[token] = 0;
        _pay(launchpad.launchOf(token).quote, address(launchpad.locker()), amount);
        tokensBurned = launchpad.buyBackOwnToken(token, amount, minTokensOut);
        _markEventBlock();
        emit OwnBuybackSwept(token, amount, tokensBurned);
    }

    function _pay(address asset, address to, uint256 amount) private {
        if (asset == address(0)) {
            (bool ok,) = to.call{value: amount}("");
            if (!ok) revert EthTransferFailed(to, amount);
        } else {
            IERC20(asset).safeTransfer(to, amount);
        }
    }
}
