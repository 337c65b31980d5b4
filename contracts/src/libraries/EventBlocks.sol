// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/// @title EventBlocks: where a contract's events are, so a reader fetches those blocks and never scans the chain (D12).
/// @notice Every Eden contract that emits events records, under key zero, each block in which it emitted one of its
/// own events (the ones declared in `contracts/src`; inherited OpenZeppelin events such as `OwnershipTransferred` are
/// not recorded). A hook also records, under a pool's id, each block in which a swap of that pool ran through it, so
/// the PoolManager's `Swap` logs of the pool are found the same way.
///
/// The list is in chain order, each block once (a second event in the same block writes nothing). A reader asks
/// `eventBlocks(key, fromBlock, toBlock, max)` for the blocks in a range, then asks its node for the logs of exactly
/// those blocks (`eth_getLogs` with `fromBlock = toBlock`, in one JSON-RPC batch): a first visit costs the same on a
/// year-old deployment as on a new one.
///
/// Costs, measured by `test/GasTable.t.sol`: an event in a block not yet recorded writes the list's length and one
/// 64-bit entry (four share a storage word); another event in the same block only reads the last entry.
abstract contract EventBlocks {
    /// @dev key => the blocks, ascending, each once.
    mapping(bytes32 => uint64[]) private _eventBlocks;

    /// @dev Records the current block under key zero: call it before every `emit` of the contract's own events.
    function _markEventBlock() internal {
        _markEventBlock(bytes32(0));
    }

    /// @dev Records the current block under `key` (a hook: the pool's id, for its swaps).
    function _markEventBlock(bytes32 key) internal {
        uint64[] storage list = _eventBlocks[key];
        uint256 n = list.length;
        uint64 b = uint64(block.number);
        if (n != 0 && list[n - 1] == b) return;
        list.push(b);
    }

    /// @notice How many blocks are recorded under `key`.
    function eventBlockCount(bytes32 key) external view returns (uint256) {
        return _eventBlocks[key].length;
    }

    /// @notice The recorded blocks under `key` within `[fromBlock, toBlock]`, ascending, at most `max` of them;
    /// `more` is true when blocks within the range were left out (ask again from the last block returned + 1).
    /// @dev Finds the first block by binary search, so the answer's cost does not grow with the list's age.
    function eventBlocks(bytes32 key, uint64 fromBlock, uint64 toBlock, uint256 max)
        external
        view
        returns (uint64[] memory blocks, bool more)
    {
        uint64[] storage list = _eventBlocks[key];
        uint256 lo = 0;
        uint256 hi = list.length;
        while (lo < hi) {
            uint256 mid = (lo + hi) / 2;
            if (list[mid] < fromBlock) lo = mid + 1;
            else hi = mid;
        }
        uint256 end = lo;
        uint256 n = list.length;
        while (end < n && end - lo < max && list[end] <= toBlock) ++end;
        more = end < n && end - lo == max && list[end] <= toBlock;
        blocks = new uint64[](end - lo);
        for (uint256 i = lo; i < end; ++i) {
            blocks[i - lo] = list[i];
        }
    }
}
