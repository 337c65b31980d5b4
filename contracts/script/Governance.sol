// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {TimelockController} from "@openzeppelin/contracts/governance/TimelockController.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {EdenTimelock} from "../src/governance/EdenTimelock.sol";

/// @notice The deployment's governance (seed: parameters "published by governance change only through the 48-hour
/// timelock"): an OpenZeppelin `TimelockController` with a 48 h delay owns every Eden contract. It is deployed as
/// `EdenTimelock`, the same controller recording where its events are (D12).
///
/// The handover is public and takes the same 48 h as any other change: the deployer finishes the setup, calls
/// `transferOwnership(timelock)` on each contract (two-step: the deployer stays owner until the timelock accepts),
/// and the governor schedules one batch of `acceptOwnership()` calls on the timelock. Anyone executes it once the
/// delay has passed (`executeHandover`); from then on every owner action (signer, adjudicator, treasury, parameters,
/// pools, receivers) waits 48 h in the timelock. Executors: anyone (`address(0)` role holder); the timelock
/// administers itself (no admin).
library Governance {
    uint256 internal constant DELAY = 48 hours;
    bytes32 internal constant HANDOVER_SALT_I = keccak256("eden.handover.I");
    bytes32 internal constant HANDOVER_SALT_II = keccak256("eden.handover.II");

    function deployTimelock(address governor) internal returns (TimelockController) {
        address[] memory proposers = new address[](1);
        proposers[0] = governor;
        address[] memory executors = new address[](1);
        executors[0] = address(0); // anyone may execute a ready operation
        return new EdenTimelock(DELAY, proposers, executors, address(0));
    }

    /// @notice `acceptOwnership()` on every target, as one timelock batch.
    function handoverBatch(address[] memory targets)
        internal
        pure
        returns (uint256[] memory values, bytes[] memory payloads)
    {
        values = new uint256[](targets.length);
        payloads = new bytes[](targets.length);
        for (uint256 i; i < targets.length; ++i) {
            payloads[i] = abi.encodeCall(Ownable2Step.acceptOwnership, ());
        }
    }

    /// @notice Starts the handover: pending owner = timelock on each target, and (when the caller is a proposer) the
    /// acceptance batch scheduled with the full delay.
    function startHandover(TimelockController tl, address[] memory targets, bytes32 salt) internal {
        for (uint256 i; i < targets.length; ++i) {
            Ownable2Step(targets[i]).transferOwnership(address(tl));
        }
        (uint256[] memory values, bytes[] memory payloads) = handoverBatch(targets);
        tl.scheduleBatch(targets, values, payloads, bytes32(0), salt, DELAY);
    }

    /// @notice Completes the handover once the delay has passed (anyone).
    function executeHandover(TimelockController tl, address[] memory targets, bytes32 salt) internal {
        (uint256[] memory values, bytes[] memory payloads) = handoverBatch(targets);
        tl.executeBatch(targets, values, payloads, bytes32(0), salt);
    }
}
