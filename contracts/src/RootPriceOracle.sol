// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {AggregatorV3Interface} from "./interfaces/AggregatorV3Interface.sol";
import {IRootTickOracle} from "./interfaces/IRootTickOracle.sol";
import {OracleMath} from "./libraries/OracleMath.sol";

/// @title RootPriceOracle: the keeper-free ROOT price of the burns (C16, seed §6.2), bit for bit with eden-core
/// `burns::price`.
/// @notice `priceUSD = min(TWAP_short, TWAP_anchor)(ROOT in ETH) * ETH/USD`:
/// - TWAPs come from the tick accumulator ROOT's pool hook records (`IRootTickOracle`): the short window is
///   `SHORT_WINDOW` = 30 min (decided), the anchor `ANCHOR_WINDOW` = 4 h, shortened to the pool's age when younger.
///   Mean ticks round toward the lower ROOT price (floor when ROOT is token0, ceiling when token1).
/// - Tick -> price: `OracleLibrary.getQuoteAtTick(tick, 1e18, ROOT, ETH)` (ETH WAD per whole ROOT, rounded down).
/// - ETH/USD from a Chainlink `AggregatorV3Interface`, scaled to a WAD rounded down; `priceUSD = floor(priceEth *
///   ethUsd / 1e18)`.
/// - The ROOT amount for a USD amount rounds up (decided): `ceil(usd * 1e18 / priceUSD)`, accepted in `[1, maxRootIn]`.
/// Fail closed, each with its own error: answer not positive, from the future, older than `MAX_ANSWER_AGE` (25 h),
/// absurd decimals; pool not initialised or younger than the short window; a window the accumulator does not cover;
/// a price that rounds to zero; an amount out of bounds.
/// On an L2 (decided after the review) the deployment may name Chainlink's sequencer-uptime feed: then the ETH/USD
/// answer is used only while the sequencer is up (answer 0) and has been up for `SEQUENCER_GRACE` (1 h) since its
/// last restart; otherwise `SequencerDown` / `SequencerGracePeriod`. The zero address means no such feed (L1).
contract RootPriceOracle {
    uint32 public constant SHORT_WINDOW = 30 minutes;
    uint32 public constant ANCHOR_WINDOW = 4 hours;
    uint256 public constant MAX_ANSWER_AGE = 25 hours;
    uint8 public constant MAX_ANSWER_DECIMALS = 36;
    uint128 internal constant ONE_ROOT = 1e18;
    /// @notice After a sequencer restart, prices are refused for this long (Chainlink's recommended pattern).
    uint256 public constant SEQUENCER_GRACE = 1 hours;

    IRootTickOracle public immutable tickOracle;
    AggregatorV3Interface public immutable ethUsdFeed;
    /// @notice Chainlink L2 sequencer-uptime feed (answer 0 = up, 1 = down); zero address on L1.
    AggregatorV3Interface public immutable sequencerUptimeFeed;

    struct RootPrice {
        int24 shortTick;
        int24 anchorTick;
        uint32 anchorWindow;
        uint256 shortPriceEth;
        uint256 anchorPriceEth;
        uint256 priceEth;
        uint256 ethUsd;
        uint256 priceUsd;
    }

    error NonPositiveAnswer(int256 answer);
    error AnswerFromFuture(uint256 updatedAt, uint256 now_);
    error StaleAnswer(uint256 age, uint256 max);
    error AnswerDecimals(uint8 decimals);
    error PoolNotInitialized(uint256 initializedAt, uint256 now_);
    error PoolTooYoung(uint32 window, uint256 age);
    error WindowNotCovered(uint32 window);
    error ZeroPrice();
    error AmountOutOfBounds(uint256 amount, uint256 min, uint256 max);
    error SequencerDown();
    error SequencerGracePeriod(uint256 upSince, uint256 until);

    constructor(IRootTickOracle tickOracle_, AggregatorV3Interface ethUsdFeed_, AggregatorV3Interface sequencerUptimeFeed_)
    {
        tickOracle = tickOracle_;
        ethUsdFeed = ethUsdFeed_;
        sequencerUptimeFeed = sequencerUptimeFeed_;
    }

    /// @notice Reverts unless the L2 sequencer (when a feed is set) is up and past its grace period.
    function checkSequencer() public view {
        if (address(sequencerUptimeFeed) == address(0)) return;
        (, int256 answer, uint256 startedAt,,) = sequencerUptimeFeed.latestRoundData();
        if (answer != 0) revert SequencerDown();
        if (startedAt == 0 || block.timestamp < startedAt + SEQUENCER_GRACE) {
            revert SequencerGracePeriod(startedAt, startedAt + SEQUENCER_GRACE);
        }
    }

    /// @notice ETH/USD as a WAD after the fail-closed checks.
    function ethUsdWad() public view returns (uint256) {
        return feedUsdWad(ethUsdFeed);
    }

    /// @notice Any asset's USD feed (USD per whole unit) as a WAD, after the same fail-closed checks as ETH/USD (the
    /// sequencer, a positive answer, not from the future, at most 25 h old, at most 36 decimals). `RootBuyback`
    /// prices each pair asset with its own feed (decided after the second review).
    function feedUsdWad(AggregatorV3Interface feed) public view returns (uint256) {
        checkSequencer();
        (, int256 answer,, uint256 updatedAt,) = feed.latestRoundData();
        if (answer <= 0) revert NonPositiveAnswer(answer);
        if (updatedAt > block.timestamp) revert AnswerFromFuture(updatedAt, block.timestamp);
        uint256 age = block.timestamp - updatedAt;
        if (age > MAX_ANSWER_AGE) revert StaleAnswer(age, MAX_ANSWER_AGE);
        uint8 dec = feed.decimals();
        if (dec > MAX_ANSWER_DECIMALS) revert AnswerDecimals(dec);
        return Math.mulDiv(uint256(answer), 1e18, 10 ** dec);
    }

    /// @notice The anchor window now: 4 h, or the pool's age when younger (at least the short window).
    function anchorWindow() public view returns (uint32) {
        uint256 init = tickOracle.initializedAt();
        if (init > block.timestamp) revert PoolNotInitialized(init, block.timestamp);
        uint256 age = block.timestamp - init;
        if (age < SHORT_WINDOW) revert PoolTooYoung(SHORT_WINDOW, age);
        return age < ANCHOR_WINDOW ? uint32(age) : ANCHOR_WINDOW;
    }

    /// @notice C16: the ROOT price (USD WAD per whole ROOT) with every intermediate value.
    function rootPrice() public view returns (RootPrice memory p) {
        p.ethUsd = ethUsdWad();
        p.anchorWindow = anchorWindow();
        uint32[] memory agos = new uint32[](3);
        agos[1] = SHORT_WINDOW;
        agos[2] = p.anchorWindow;
        int56[] memory cum = _observe(agos);
        bool t0 = tickOracle.rootIsToken0();
        p.shortTick = OracleMath.meanTickTowardLowerPrice(cum[1], cum[0], SHORT_WINDOW, t0);
        p.anchorTick = OracleMath.meanTickTowardLowerPrice(cum[2], cum[0], p.anchorWindow, t0);
        p.shortPriceEth = OracleMath.getQuoteAtTick(p.shortTick, ONE_ROOT, t0);
        p.anchorPriceEth = OracleMath.getQuoteAtTick(p.anchorTick, ONE_ROOT, t0);
        p.priceEth = p.shortPriceEth < p.anchorPriceEth ? p.shortPriceEth : p.anchorPriceEth;
        p.priceUsd = Math.mulDiv(p.priceEth, p.ethUsd, 1e18);
        if (p.priceUsd == 0) revert ZeroPrice();
    }

    /// @notice USD (WAD) per whole ROOT.
    function rootPriceUsd() external view returns (uint256) {
        return rootPrice().priceUsd;
    }

    /// @notice The ROOT (wei) to burn for `usd` (USD WAD): `ceil(usd * 1e18 / priceUSD)`, in `[1, maxRootIn]`.
    function rootForUsd(uint256 usd, uint256 maxRootIn) external view returns (uint256 amount) {
        return rootForUsdAt(usd, rootPrice().priceUsd, maxRootIn);
    }

    /// @notice `rootForUsd` at a given price.
    function rootForUsdAt(uint256 usd, uint256 priceUsd, uint256 maxRootIn) public pure returns (uint256 amount) {
        if (priceUsd == 0) revert ZeroPrice();
        (uint256 hi,) = Math.mul512(usd, 1e18);
        if (hi >= priceUsd) revert AmountOutOfBounds(type(uint256).max, 1, maxRootIn); // even the floor overflows
        amount = Math.mulDiv(usd, 1e18, priceUsd);
        if (mulmod(usd, 1e18, priceUsd) != 0) {
            if (amount == type(uint256).max) revert AmountOutOfBounds(type(uint256).max, 1, maxRootIn);
            amount += 1;
        }
        if (amount < 1 || amount > maxRootIn) revert AmountOutOfBounds(amount, 1, maxRootIn);
    }

    /// @dev All cumulatives at once; on failure, names the first window (in order now, short, anchor) not covered.
    function _observe(uint32[] memory agos) private view returns (int56[] memory) {
        try tickOracle.observe(agos) returns (int56[] memory cum) {
            return cum;
        } catch {
            for (uint256 i; i < agos.length; ++i) {
                uint32[] memory one = new uint32[](1);
                one[0] = agos[i];
                try tickOracle.observe(one) returns (int56[] memory) {}
                catch {
                    revert WindowNotCovered(agos[i]);
                }
            }
            revert WindowNotCovered(agos[agos.length - 1]);
        }
    }
}
