// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {EventBlocks} from "./libraries/EventBlocks.sol";

/// @notice The creators of launched tokens (`Launchpad.launchOf(token).creator`), read by the registry.
interface ILaunchCreators {
    struct Launch {
        address quote;
        uint64 launchTime;
        bool graduated;
        address creator;
        uint64 ownBuybackShare;
        uint256 virtualQuote;
        uint256 quoteRaised;
        uint256 tokenReserve;
        uint256 feesAccrued;
    }

    function launchOf(address token) external view returns (Launch memory);
}

/// @title SourceKeyRegistry
/// @notice The source keys whose signed attestations count as a project's verified inputs (C21, §2.1 of the
/// scoring seed). A project's controller registers, per data source, the keys that sign that source's
/// attestations; a key counts for an attestation observed at time `t` when `registeredAt <= t < revokedAt`
/// (`revokedAt == 0`: not revoked). Records never change once revoked and a key is never registered twice for
/// a project, so any client, at any later time, checks a past epoch's attestations against the same history.
/// @dev Ownerless. The controller of a project is the creator of a token launched on `launchpad`, else the
/// project address itself (an account or contract project registers its own keys). A key may revoke itself
/// (a source that knows its key leaked does not wait for the project). `firstRegisteredAt` is the project's
/// age anchor (C21: the age a project is gated on counts from its first key).
contract SourceKeyRegistry is EventBlocks {
    struct SourceKey {
        bytes32 source; // keccak256(bytes(source name))
        uint64 registeredAt;
        uint64 revokedAt; // 0 = active
    }

    ILaunchCreators public immutable launchpad;

    mapping(address project => mapping(address key => SourceKey)) private _keys;
    mapping(address project => uint64) public firstRegisteredAt;
    mapping(address project => uint256) public keyCount;

    event SourceKeyRegistered(address indexed project, bytes32 indexed source, address indexed key, address by);
    event SourceKeyRevoked(address indexed project, bytes32 indexed source, address indexed key, address by);

    error NotController(address project, address caller);
    error ZeroKey();
    error ZeroSource();
    error KeyExists(address project, address key);
    error UnknownKey(address project, address key);
    error AlreadyRevoked(address project, address key);
    error NotAllowedToRevoke(address project, address key, address caller);

    constructor(ILaunchCreators launchpad_) {
        launchpad = launchpad_;
    }

    /// @notice Who may register keys for `project`: its launch creator, else the project itself.
    function controllerOf(address project) public view returns (address) {
        if (address(launchpad) != address(0) && project.code.length > 0) {
            try launchpad.launchOf(project) returns (ILaunchCreators.Launch memory l) {
                if (l.creator != address(0)) return l.creator;
            } catch {}
        }
        return project;
    }

    /// @notice Registers `key` as a signer of `source`'s attestations for `project` from now on.
    function register(address project, bytes32 source, address key) external {
        if (msg.sender != controllerOf(project)) revert NotController(project, msg.sender);
        if (key == address(0)) revert ZeroKey();
        if (source == bytes32(0)) revert ZeroSource();
        SourceKey storage k = _keys[project][key];
        if (k.registeredAt != 0) revert KeyExists(project, key);
        k.source = source;
        k.registeredAt = uint64(block.timestamp);
        if (firstRegisteredAt[project] == 0) firstRegisteredAt[project] = uint64(block.timestamp);
        keyCount[project] += 1;
        _markEventBlock();
        emit SourceKeyRegistered(project, source, key, msg.sender);
    }

    /// @notice Revokes `key` for `project` from now on (attestations observed before stay valid). By the
    /// project's controller or by the key itself.
    function revoke(address project, address key) external {
        SourceKey storage k = _keys[project][key];
        if (k.registeredAt == 0) revert UnknownKey(project, key);
        if (k.revokedAt != 0) revert AlreadyRevoked(project, key);
        if (msg.sender != key && msg.sender != controllerOf(project)) {
            revert NotAllowedToRevoke(project, key, msg.sender);
        }
        k.revokedAt = uint64(block.timestamp);
        _markEventBlock();
        emit SourceKeyRevoked(project, k.source, key, msg.sender);
    }

    /// @notice The record of `key` for `project` (all zero when never registered).
    function keyOf(address project, address key) external view returns (SourceKey memory) {
        return _keys[project][key];
    }

    /// @notice Whether `key` signs `source` for `project` at time `t` (`registeredAt <= t < revokedAt`).
    function isValidAt(address project, bytes32 source, address key, uint64 t) external view returns (bool) {
        SourceKey memory k = _keys[project][key];
        return k.registeredAt != 0 && k.source == source && k.registeredAt <= t && (k.revokedAt == 0 || t < k.revokedAt);
    }
}
