// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/// @notice Snapshot blocks for `HolderDistributor.postRoot` in tests (C18a): each call returns a later block
/// than the last, all below `SNAPSHOT_HEAD`, the block number a test rolls to in its `setUp`.
abstract contract SnapshotBlocks {
    uint256 internal constant SNAPSHOT_HEAD = 1_000_000;
    uint64 private _lastSnapshot;

    function _snap() internal returns (uint64) {
        return ++_lastSnapshot;
    }
}
