// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title RewardMath: scorer reward rules (C11-C14), bit for bit with eden-core `rewards::{drip, position, capped,
/// accumulator}`.
/// @notice
/// - C11 drip (exact fraction): a drip `(amount, start)` has released `floor(amount * min(t - start, d) / d)` by `t`
///   (0 before `start`), `d = DRIP_DURATION` = 7 days; a funding `a` at `t` restarts it with `amount = U + a`,
///   `U = amount - released(t)`.
/// - C12 weight: `q_eff = floor(q * c / 1e18)` (0 when `q < 0.3`), `omega = floor(q_eff * sqrt(sigma) / 1e18)` with
///   `sqrt(2,500 ROOT) = 50e18`; `c` from the verdict: original 1, similar 1, derivative 0.5, copy 0.
/// - C13 `D = max(W, ceil(omega_max * 10000 / capBps))`, `capBps` = 500.
/// - C14 segment: `A += floor(R * ACC / D)`, `returned = R - ceil(R * W / D)` (all of R when W = 0);
///   owed `floor(omega * (A - A_snap) / ACC)`.
/// - Weight classes (C13): `classOf(omega) = floor(1024 * log2(omega))` by exact binary-log bit extraction on a
///   128-bit mantissa (10 squarings); classes are `2^(1/1024)` wide.
library RewardMath {
    uint256 internal constant WAD = 1e18;
    uint256 internal constant ACC = 1e18;
    uint256 internal constant BPS = 10_000;
    uint256 internal constant CAP_BPS = 500;
    uint64 internal constant DRIP_DURATION = 7 days;
    /// @notice The smallest funding, in basis points of the undripped balance (decided after the second review: 1 %).
    uint256 internal constant MIN_FUNDING_BPS = 100;
    uint256 internal constant QUALITY_FLOOR = 0.3e18;
    uint256 internal constant SQRT_SCORER_STAKE = 50e18;
    uint256 internal constant CLASS_BITS = 10; // 1024 classes per octave

    error BadVerdict(uint8 verdict);
    error FractionOutOfRange(uint256 value);

    /// @notice Originality multiplier `c` of a verdict code (C8: 0 original, 1 similar, 2 derivative, 3 copy).
    function multiplier(uint8 verdict) internal pure returns (uint256) {
        if (verdict <= 1) return WAD;
        if (verdict == 2) return WAD / 2;
        if (verdict == 3) return 0;
        revert BadVerdict(verdict);
    }

    /// @notice C12 `omega = q_eff * sqrt(sigma)` (WAD).
    function weight(uint256 quality, uint256 mult) internal pure returns (uint256) {
        if (quality > WAD) revert FractionOutOfRange(quality);
        if (mult > WAD) revert FractionOutOfRange(mult);
        if (quality < QUALITY_FLOOR) return 0;
        return (quality * mult / WAD) * SQRT_SCORER_STAKE / WAD;
    }

    /// @notice C13 conservative denominator.
    function denominator(uint256 totalWeight, uint256 maxWeight) internal pure returns (uint256) {
        uint256 byCap = Math.mulDiv(maxWeight, BPS, CAP_BPS, Math.Rounding.Ceil);
        return totalWeight > byCap ? totalWeight : byCap;
    }

    /// @notice C11, decided after the second review: the smallest funding accepted while `undripped` is still to be
    /// released, `max(1, ceil(undripped * MIN_FUNDING_BPS / 10_000))` (1 %). Mirrors eden-core
    /// `rewards::drip::min_funding_up`.
    function minFundingUp(uint256 undripped) internal pure returns (uint256 m) {
        m = (undripped / 10_000) * MIN_FUNDING_BPS + Math.ceilDiv((undripped % 10_000) * MIN_FUNDING_BPS, 10_000);
        if (m == 0) m = 1;
    }

    /// @notice C11 amount released by `t`.
    function released(uint256 amount, uint64 start, uint64 t) internal pure returns (uint256) {
        if (t <= start) return 0;
        uint256 elapsed = t - start;
        if (elapsed > DRIP_DURATION) elapsed = DRIP_DURATION;
        return Math.mulDiv(amount, elapsed, DRIP_DURATION);
    }

    /// @notice C14 one segment: index increment and returned amount.
    function segment(uint256 reward, uint256 totalWeight, uint256 denom)
        internal
        pure
        returns (uint256 indexIncrement, uint256 returned)
    {
        if (totalWeight == 0) return (0, reward);
        indexIncrement = Math.mulDiv(reward, ACC, denom);
        returned = reward - Math.mulDiv(reward, totalWeight, denom, Math.Rounding.Ceil);
    }

    /// @notice C14 owed `floor(omega * (A - A_snap) / ACC)`.
    function owed(uint256 omega, uint256 index, uint256 snapshot) internal pure returns (uint256) {
        return Math.mulDiv(omega, index - snapshot, ACC);
    }

    /// @notice `floor(1024 * log2(x))` for `x >= 1` (monotone in x).
    function classOf(uint256 x) internal pure returns (uint256) {
        uint256 msb = Math.log2(x);
        uint256 m = msb <= 127 ? x << (127 - msb) : x >> (msb - 127); // in [2^127, 2^128)
        uint256 frac;
        for (uint256 i; i < CLASS_BITS; ++i) {
            m = (m * m) >> 127; // in [2^127, 2^129)
            frac <<= 1;
            if (m >= 1 << 128) {
                m >>= 1;
                frac |= 1;
            }
        }
        return (msb << CLASS_BITS) | frac;
    }
}
