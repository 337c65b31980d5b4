// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {TimelockController} from "@openzeppelin/contracts/governance/TimelockController.sol";
import {EventBlocks} from "../libraries/EventBlocks.sol";

/// @title EdenTimelock: OpenZeppelin's `TimelockController`, recording where its events are (D12).
/// @notice The deployment's governance (`script/Governance.sol`): unchanged OpenZeppelin behaviour, plus the record
/// every Eden contract keeps of the blocks of its events, so the app finds the operations waiting in the timelock
/// (`CallScheduled`, `CallSalt`) without scanning the chain from the deployment block.
///
/// Every function that emits one of the timelock's events records its block first: `schedule`, `scheduleBatch`,
/// `cancel`, `execute`, `executeBatch` and every role change that happens (`_grantRole`, `_revokeRole`, the
/// constructor's included). `updateDelay` (`MinDelayChange`) is only callable by the timelock itself, inside an `execute` that
/// already recorded the block. Nothing else changes: the same roles guard the same functions, so the record can only
/// be written by what could already emit the events.
contract EdenTimelock is TimelockController, EventBlocks {
    constructor(uint256 minDelay, address[] memory proposers, address[] memory executors, address admin)
        TimelockController(minDelay, proposers, executors, admin)
    {
        // The constructor's MinDelayChange (its role grants recorded this block already).
        _markEventBlock();
    }

    function schedule(
        address target,
        uint256 value,
        bytes calldata data,
        bytes32 predecessor,
        bytes32 salt,
        uint256 delay
    ) public override {
        _markEventBlock();
        super.schedule(target, value, data, predecessor, salt, delay);
    }

    function scheduleBatch(
        address[] calldata targets,
        uint256[] calldata values,
        bytes[] calldata payloads,
        bytes32 predecessor,
        bytes32 salt,
        uint256 delay
    ) public override {
        _markEventBlock();
        super.scheduleBatch(targets, values, payloads, predecessor, salt, delay);
    }

    function cancel(bytes32 id) public override {
        _markEventBlock();
        super.cancel(id);
    }

    function execute(address target, uint256 value, bytes calldata payload, bytes32 predecessor, bytes32 salt)
        public
        payable
        override
    {
        _markEventBlock();
        super.execute(target, value, payload, predecessor, salt);
    }

    function executeBatch(
        address[] calldata targets,
        uint256[] calldata values,
        bytes[] calldata payloads,
        bytes32 predecessor,
        bytes32 salt
    ) public payable override {
        _markEventBlock();
        super.executeBatch(targets, values, payloads, predecessor, salt);
    }

    /// @dev Records only a grant that happens (and emits): `renounceRole` is open to anyone for their own account, so
    /// recording a no-op would let anyone fill the record with blocks that hold no event of the timelock.
    function _grantRole(bytes32 role, address account) internal override returns (bool) {
        if (!hasRole(role, account)) _markEventBlock();
        return super._grantRole(role, account);
    }

    /// @dev Records only a revocation that happens (see `_grantRole`).
    function _revokeRole(bytes32 role, address account) internal override returns (bool) {
        if (hasRole(role, account)) _markEventBlock();
        return super._revokeRole(role, account);
    }
}
