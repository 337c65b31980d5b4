// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/// @title EventBlocks: where a contract's events are, so a reader fetches those blocks and never scans the chain (D12).
/// @notice Every Eden contract that emits events records, under key zero, each block in which it emitted one of its
/// own events (the ones declared in `contracts/src`; inherited OpenZeppelin events such as `OwnershipTransferred` are
/// not recorded). A hook also records, under a pool's id, each block in which a swap of that pool ran through it, so
/// the PoolManager's `Swap` logs of the pool are found the same way.
///
/// The list is in chain order, a block once per transaction that recorded it (a second event of the same
/// transaction writes nothing); the view answers each block once. A reader asks
/// `eventBlocks(key, fromBlock, toBlock, max)` for the blocks in a range, then asks its node for the logs of exactly
/// those blocks (`eth_getLogs` with `fromBlock = toBlock`, in one JSON-RPC batch): a first visit costs the same on a
/// year-old deployment as on a new one.
///
/// Costs (`bench/results/gas.txt`): a transaction's first event writes the list's length and one 64-bit entry
/// (four share a storage word); its later events only read a transient flag.
abstract contract EventBlocks {
    /// @dev key => the blocks, non-decreasing (a block once per transaction that recorded it).
    mapping(bytes32 => uint64[]) internal _eventBlocks;
    /// @dev Seeds the transient flags of `_markEventBlock`.
    bytes32 private constant _RECORDED_IN_TX = keccak256("eden.EventBlocks.recordedInTx");

    /// @dev Records the current block under key zero: call it before every `emit` of the contract's own events.
    function _markEventBlock() internal {
        _markEventBlock(bytes32(0));
    }

    /// @dev Records the current block under `key` (a hook: the pool's id, for its swaps), once per transaction: a
    /// transient flag (keyed by the key and the block) skips the later events of the same transaction. Whether the
    /// block is already the list's last entry is deliberately not asked: that depends on the block a transaction
    /// lands in, so a gas estimate made against the latest block could take the cheap path and the transaction
    /// then run out of gas in the next one. Two transactions in one block both append it; `eventBlocks` answers
    /// each block once.
    function _markEventBlock(bytes32 key) internal {
        bytes32 flag = keccak256(abi.encode(_RECORDED_IN_TX, key, block.number));
        uint256 done;
        assembly ("memory-safe") {
            done := tload(flag)
        }
        if (done != 0) return;
        assembly ("memory-safe") {
            tstore(flag, 1)
        }
        _eventBlocks[key].push(uint64(block.number));
    }

    /// @notice How many entries are recorded under `key` (a block appears once per transaction that recorded it).
    function eventBlockCount(bytes32 key) external view returns (uint256) {
        return _eventBlocks[key].length;
    }

    /// @notice The recorded blocks under `key` within `[fromBlock, toBlock]`, ascending, each once, at most `max` of
    /// them; `more` is true when blocks within the range were left out (ask again from the last block returned + 1).
    /// @dev Finds the first entry by binary search, so the answer's cost does not grow with the list's age.
    function eventBlocks(bytes32 key, uint64 fromBlock, uint64 toBlock, uint256 max)
        external
        view
        returns (uint64[] memory blocks, bool more)
    {
        uint64[] storage list = _eventBlocks[key];
        uint256 n = list.length;
        uint256 lo = 0;
        uint256 hi = n;
        while (lo < hi) {
            uint256 mid = (lo + hi) / 2;
            if (list[mid] < fromBlock) lo = mid + 1;
            else hi = mid;
        }
        uint256 room = n - lo < max ? n - lo : max;
        blocks = new uint64[](room);
        uint256 k = 0;
        for (uint256 i = lo; i < n; ++i) {
            uint64 b = list[i];
            if (b > toBlock) break;
            if (k != 0 && blocks[k - 1] == b) continue;
            if (k == max) {
                more = true;
                break;
            }
            blocks[k++] = b;
        }
        assembly ("memory-safe") {
            mstore(blocks, k)
        }
    }
}
