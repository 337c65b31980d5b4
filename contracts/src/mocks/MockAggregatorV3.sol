// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {AggregatorV3Interface} from "../interfaces/AggregatorV3Interface.sol";

/// @notice A settable Chainlink-compatible feed for the local chain and tests (ETH/USD, 8 decimals by default).
/// Only the owner may set answers. Not for production.
contract MockAggregatorV3 is AggregatorV3Interface, Ownable {
    struct Round {
        int256 answer;
        uint256 startedAt;
        uint256 updatedAt;
    }

    uint8 public immutable override decimals;
    string public override description;
    uint80 public latestRound;
    mapping(uint80 => Round) private _rounds;

    error NoData(uint80 roundId);

    constructor(address owner_, uint8 decimals_, string memory description_, int256 answer) Ownable(owner_) {
        decimals = decimals_;
        description = description_;
        _set(answer, block.timestamp);
    }

    function version() external pure returns (uint256) {
        return 4;
    }

    /// @notice New round with `answer` updated now.
    function setAnswer(int256 answer) external onlyOwner {
        _set(answer, block.timestamp);
    }

    /// @notice New round with an explicit `updatedAt` (tests: stale or future answers).
    function setAnswerAt(int256 answer, uint256 updatedAt) external onlyOwner {
        _set(answer, updatedAt);
    }

    function getRoundData(uint80 roundId) external view returns (uint80, int256, uint256, uint256, uint80) {
        Round storage r = _rounds[roundId];
        if (r.updatedAt == 0) revert NoData(roundId);
        return (roundId, r.answer, r.startedAt, r.updatedAt, roundId);
    }

    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) {
        Round storage r = _rounds[latestRound];
        return (latestRound, r.answer, r.startedAt, r.updatedAt, latestRound);
    }

    function _set(int256 answer, uint256 updatedAt) private {
        latestRound += 1;
        _rounds[latestRound] = Round({answer: answer, startedAt: updatedAt, updatedAt: updatedAt});
    }
}
