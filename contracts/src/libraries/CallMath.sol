// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title CallMath: the call ledger's pure rules (A1, A4), bit for bit with eden-core `calls::{score, consensus}`.
/// @notice
/// - A1 `computeScore`: `floor(hits² * stake * 1e18 / (minStake * (hits + misses + 1)))`, exact in 512 bits:
///   it reverts only for `minStake == 0` (`ZeroMinStake`) or a score above 2^256 - 1 (`ScoreOverflow`).
/// - A4 `consensusState`: `lead = max(up, down)`; consensus when the sides are not tied, `voters >= quorum` and
///   `lead * 10000 >= thresholdBps * (up + down)` (cross-multiplied in 512 bits); `strengthBps =
///   floor(lead * 10000 / (up + down))` (0 for an empty round). Ties have no direction and no consensus.
library CallMath {
    uint256 internal constant WAD = 1e18;
    uint256 internal constant BPS = 10_000;

    /// @notice Direction codes (the commitment's `uint8 direction`).
    uint8 internal constant DOWN = 0;
    uint8 internal constant UP = 1;

    error ZeroMinStake();
    error ScoreOverflow();
    error WeightOverflow();

    struct ConsensusState {
        bool reached; // quorum and threshold met, sides not tied
        bool hasDirection; // false on a tie or an empty round
        uint8 direction; // the leading side (DOWN/UP) when hasDirection
        uint16 strengthBps;
        uint64 voters;
        uint256 upWeight;
        uint256 downWeight;
    }

    /// @notice A1 track-record score (WAD, rounded down).
    function computeScore(uint64 hits, uint64 misses, uint256 stake, uint256 minStake) internal pure returns (uint256) {
        if (minStake == 0) revert ZeroMinStake();
        // hits² < 2^128 and hits² * 1e18 < 2^188; hits + misses + 1 < 2^65: no overflow.
        uint256 hitsSqWad = uint256(hits) * hits * WAD;
        uint256 callsPlusOne = uint256(hits) + misses + 1;
        (uint256 dHi, uint256 d) = Math.mul512(minStake, callsPlusOne);
        if (dHi != 0) {
            // The denominator is >= 2^256, so minStake >= 2^191 and hitsSqWad * stake / minStake < 2^253 fits;
            // floor(floor(x / a) / b) == floor(x / (a * b)).
            return Math.mulDiv(hitsSqWad, stake, minStake) / callsPlusOne;
        }
        (uint256 nHi,) = Math.mul512(hitsSqWad, stake);
        if (nHi >= d) revert ScoreOverflow();
        return Math.mulDiv(hitsSqWad, stake, d);
    }

    /// @notice A4 vote weight: `1 + score` (WAD).
    function voteWeight(uint256 score) internal pure returns (uint256) {
        if (score > type(uint256).max - WAD) revert WeightOverflow();
        return WAD + score;
    }

    /// @notice A4 state of a round with the given tallies.
    function consensusState(uint256 upWeight, uint256 downWeight, uint64 voters, uint64 quorum, uint16 thresholdBps)
        internal
        pure
        returns (ConsensusState memory s)
    {
        if (upWeight > type(uint256).max - downWeight) revert WeightOverflow();
        uint256 total = upWeight + downWeight;
        uint256 lead;
        if (upWeight > downWeight) {
            (s.hasDirection, s.direction, lead) = (true, UP, upWeight);
        } else if (downWeight > upWeight) {
            (s.hasDirection, s.direction, lead) = (true, DOWN, downWeight);
        } else {
            lead = upWeight;
        }
        if (total != 0) s.strengthBps = uint16(Math.mulDiv(lead, BPS, total)); // lead <= total: at most 10,000
        (uint256 lHi, uint256 lLo) = Math.mul512(lead, BPS);
        (uint256 rHi, uint256 rLo) = Math.mul512(thresholdBps, total);
        bool meetsThreshold = lHi > rHi || (lHi == rHi && lLo >= rLo);
        s.reached = s.hasDirection && voters >= quorum && meetsThreshold;
        s.voters = voters;
        s.upWeight = upWeight;
        s.downWeight = downWeight;
    }

    /// @notice A4 (decided): the bucket a call revealed at `now_` lands in, `(now_ + window) / window`.
    function bucketForRevealAt(uint64 now_, uint64 window) internal pure returns (uint64) {
        return uint64((uint256(now_) + window) / window);
    }

    /// @notice A3 band (decided after the second review): the smallest move a call's exit TWAP must make
    /// from its entry to be a hit or a miss, `ceil(entry * bandPips / 1e6)` (rounded up: a move must cover
    /// the whole band). Mirrors eden-core `calls::outcome::band_threshold_up`.
    function bandThresholdUp(uint256 entry, uint24 bandPips) internal pure returns (uint256) {
        return Math.mulDiv(entry, bandPips, 1e6, Math.Rounding.Ceil);
    }

    /// @notice A3: 1 hit, 2 miss, 3 void (`CallLedger.Outcome`): void when the exit moved less than the band
    /// from the entry (or not at all), else a hit when it moved the called way. Mirrors eden-core
    /// `calls::outcome::call_outcome`.
    function outcomeOf(uint256 entry, uint256 exit, uint8 direction, uint24 bandPips) internal pure returns (uint8) {
        uint256 moved = exit > entry ? exit - entry : entry - exit;
        if (moved == 0 || moved < bandThresholdUp(entry, bandPips)) return 3;
        return (exit > entry) == (direction == UP) ? 1 : 2;
    }
}
