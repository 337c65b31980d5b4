// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";

/// @title DuelMath: duel rules (B1-B5), bit for bit with eden-core `duel::{schedule, mean_tick, split, ema, buyback}`.
/// @notice
/// - B1 schedule: closes at multiples of `ROUND_SECONDS` (4 h: 00:00, 04:00, ... UTC). Round 0 is
///   `[start, firstClose)` with `firstClose = ceil((start + 4h) / 4h) * 4h` (4 to 8 h); round k >= 1 is
///   `[firstClose + (k-1) * 4h, firstClose + k * 4h)`.
/// - B2 `meanTick = integral / length`, truncated toward zero (Solidity signed division).
/// - B3 `shareA = floor(sqrtP² * 1e18 / (sqrtP² + 2^192))`, `sqrtP = getSqrtPriceAtTick(clamp(tick))`.
/// - B5 EMA: `ema += (p - ema) * dt / (dt + 1800)`, each step rounded toward the lower price; cap =
///   `floor(min(ema, price) * 11000 / 10000)`.
/// - Prices: a token's price in ETH as a WAD from its ETH pool (native ETH is currency0):
///   `floor(2^192 * 1e18 / sqrtP²)`; the cap's sqrt price is the smallest `s` with price(s) <= cap:
///   `s = ceil(sqrt(ceil(2^192 * 1e18 / cap)))`.
library DuelMath {
    uint64 internal constant ROUND_SECONDS = 4 hours;
    uint64 internal constant EMA_WINDOW_SECONDS = 1_800;
    uint256 internal constant CAP_MULTIPLIER_BPS = 11_000;
    uint256 internal constant BPS = 10_000;
    uint256 internal constant WAD = 1e18;
    /// 2^192 * 1e18 (< 2^252).
    uint256 internal constant Q192_WAD = (1 << 192) * 1e18;

    error ZeroPrice();

    function firstClose(uint64 start) internal pure returns (uint64) {
        uint256 earliest = uint256(start) + ROUND_SECONDS;
        return uint64(Math.ceilDiv(earliest, ROUND_SECONDS) * ROUND_SECONDS);
    }

    /// @notice Round `index`'s `[start, end)` for a duel started at `duelStart` with first close `fc`.
    function roundWindow(uint64 duelStart, uint64 fc, uint64 index) internal pure returns (uint64 start, uint64 end) {
        if (index == 0) return (duelStart, fc);
        start = fc + (index - 1) * ROUND_SECONDS;
        end = start + ROUND_SECONDS;
    }

    /// @notice The index of the round containing `t >= duelStart`.
    function roundAt(uint64 fc, uint64 t) internal pure returns (uint64) {
        if (t < fc) return 0;
        return 1 + (t - fc) / ROUND_SECONDS;
    }

    /// @notice B3 share of A (WAD, rounded down) at tick `d`.
    function shareAWad(int256 d) internal pure returns (uint256) {
        if (d > TickMath.MAX_TICK) d = TickMath.MAX_TICK;
        if (d < TickMath.MIN_TICK) d = TickMath.MIN_TICK;
        uint256 s = TickMath.getSqrtPriceAtTick(int24(d));
        // floor(s² * 1e18 / (s² + 2^192)) = 1e18 - ceil(2^192 * 1e18 / (s² + 2^192)), exactly.
        (uint256 hi, uint256 lo) = Math.mul512(s, s);
        if (hi != 0 || lo > type(uint256).max - (1 << 192)) return WAD - 1; // D > 2^192 * 1e18: ceil is 1
        return WAD - Math.ceilDiv(Q192_WAD, lo + (1 << 192));
    }

    /// @notice B5 EMA step from `ema` toward `price` after `dt` seconds (rounded toward the lower price).
    function emaUpdate(uint256 ema, uint256 price, uint256 dt) internal pure returns (uint256) {
        if (dt == 0) return ema;
        uint256 den = dt + EMA_WINDOW_SECONDS;
        if (price >= ema) return ema + Math.mulDiv(price - ema, dt, den);
        return ema - Math.mulDiv(ema - price, dt, den, Math.Rounding.Ceil);
    }

    /// @notice B5 cap `floor(min(ema, price) * 1.1)`.
    function capWad(uint256 ema, uint256 price) internal pure returns (uint256) {
        return Math.mulDiv(ema < price ? ema : price, CAP_MULTIPLIER_BPS, BPS);
    }

    /// @notice Token price in ETH (WAD, down) from its ETH pool's sqrt price (ETH is currency0).
    function tokenPriceWad(uint160 sqrtPriceX96) internal pure returns (uint256) {
        if (sqrtPriceX96 == 0) revert ZeroPrice();
        return Q192_WAD / sqrtPriceX96 / sqrtPriceX96; // floor(floor(N / s) / s) == floor(N / s²)
    }

    /// @notice The smallest sqrt price at which the token price is at most `cap` (ETH is currency0).
    function capSqrtPriceX96(uint256 cap) internal pure returns (uint256) {
        if (cap == 0) revert ZeroPrice();
        uint256 x = Math.ceilDiv(Q192_WAD, cap);
        uint256 r = Math.sqrt(x);
        return r * r < x ? r + 1 : r;
    }
}
