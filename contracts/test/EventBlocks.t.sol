// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test, console} from "forge-std/Test.sol";
import {EventBlocks} from "../src/libraries/EventBlocks.sol";

/// forge's `cool` cheatcode (newer than the forge-std this project pins declares).
interface IVmCool {
    function cool(address target) external;
}

contract EventBlocksHarness is EventBlocks {
    event Marked(uint256 n);

    function mark(bytes32 key) external {
        _markEventBlock(key);
    }

    /// Two transactions in one block: the second appends the block again.
    function appendAgain(bytes32 key, uint64 b) external {
        _eventBlocks[key].push(b);
    }

    function markOwn() external {
        _markEventBlock();
        emit Marked(block.number);
    }
}

/// D12: the recorded blocks are each block once, ascending, and a range query answers exactly the recorded blocks in
/// the range (checked against a linear filter of the same list), page by page.
contract EventBlocksTest is Test {
    EventBlocksHarness internal h;

    function setUp() public {
        h = new EventBlocksHarness();
    }

    function test_a_block_is_recorded_once_however_many_events_it_has() public {
        vm.roll(10);
        h.markOwn();
        h.markOwn();
        vm.roll(12);
        h.markOwn();
        assertEq(h.eventBlockCount(bytes32(0)), 2);
        (uint64[] memory b, bool more) = h.eventBlocks(bytes32(0), 0, type(uint64).max, 10);
        assertEq(b.length, 2);
        assertEq(b[0], 10);
        assertEq(b[1], 12);
        assertFalse(more);
    }

    /// Transactions in the same block each append it; the view answers it once, and pages stay exact.
    function test_a_block_from_two_transactions_is_answered_once() public {
        vm.roll(10);
        h.markOwn();
        h.appendAgain(bytes32(0), 10);
        h.appendAgain(bytes32(0), 10);
        vm.roll(11);
        h.markOwn();
        h.appendAgain(bytes32(0), 11);
        vm.roll(12);
        h.markOwn();
        assertEq(h.eventBlockCount(bytes32(0)), 6);
        (uint64[] memory b, bool more) = h.eventBlocks(bytes32(0), 0, 100, 2);
        assertEq(b.length, 2);
        assertEq(b[0], 10);
        assertEq(b[1], 11);
        assertTrue(more);
        (b, more) = h.eventBlocks(bytes32(0), 12, 100, 2);
        assertEq(b.length, 1);
        assertEq(b[0], 12);
        assertFalse(more);
        (b, more) = h.eventBlocks(bytes32(0), 0, 11, 2);
        assertEq(b.length, 2);
        assertFalse(more);
    }

    function test_keys_are_separate_lists() public {
        vm.roll(5);
        h.mark(bytes32(uint256(1)));
        vm.roll(6);
        h.mark(bytes32(uint256(2)));
        (uint64[] memory one,) = h.eventBlocks(bytes32(uint256(1)), 0, 100, 10);
        (uint64[] memory two,) = h.eventBlocks(bytes32(uint256(2)), 0, 100, 10);
        (uint64[] memory own,) = h.eventBlocks(bytes32(0), 0, 100, 10);
        assertEq(one.length, 1);
        assertEq(one[0], 5);
        assertEq(two.length, 1);
        assertEq(two[0], 6);
        assertEq(own.length, 0);
    }

    /// Any list of blocks, any range, any page size: the pages, read until `more` is false, are exactly the recorded
    /// blocks within the range.
    function testFuzz_pages_answer_exactly_the_blocks_in_range(
        uint8[24] calldata gaps,
        uint64 fromBlock,
        uint64 span,
        uint8 max
    ) public {
        uint64[] memory all = new uint64[](gaps.length);
        uint64 b = 1;
        for (uint256 i = 0; i < gaps.length; ++i) {
            b += gaps[i];
            vm.roll(b);
            h.mark(bytes32(0));
            all[i] = b;
        }
        fromBlock = uint64(bound(fromBlock, 0, b + 2));
        uint64 toBlock = uint64(bound(uint256(fromBlock) + bound(span, 0, b), 0, type(uint64).max));
        uint256 pageSize = bound(max, 1, 30);

        uint64[] memory expected = new uint64[](all.length);
        uint256 n = 0;
        uint64 last = 0;
        for (uint256 i = 0; i < all.length; ++i) {
            if (all[i] == last) continue; // a zero gap: the same block, recorded once
            last = all[i];
            if (all[i] >= fromBlock && all[i] <= toBlock) expected[n++] = all[i];
        }

        uint256 got = 0;
        uint64 next = fromBlock;
        for (uint256 round = 0; round < 40; ++round) {
            (uint64[] memory page, bool more) = h.eventBlocks(bytes32(0), next, toBlock, pageSize);
            assertLe(page.length, pageSize);
            for (uint256 i = 0; i < page.length; ++i) {
                assertEq(page[i], expected[got++]);
            }
            if (!more) break;
            assertEq(page.length, pageSize);
            next = page[page.length - 1] + 1;
        }
        assertEq(got, n);
    }

    function test_an_empty_or_inverted_range_answers_nothing() public {
        vm.roll(7);
        h.markOwn();
        (uint64[] memory b, bool more) = h.eventBlocks(bytes32(0), 8, 7, 10);
        assertEq(b.length, 0);
        assertFalse(more);
        (b, more) = h.eventBlocks(bytes32(0), 8, 100, 10);
        assertEq(b.length, 0);
        assertFalse(more);
    }

    /// The record's cost by case, printed for the gas table (`--match-test test_gas_record_cases -vv`): the gas of
    /// `_markEventBlock` inside a call (no transaction base), for a first entry (a new list and word), an entry
    /// sharing a word, a second event of the same transaction, and an entry starting a new word.
    function test_gas_record_cases() public {
        vm.roll(100);
        uint256 first = _gasOfMark();
        vm.roll(101);
        uint256 shared = _gasOfMark();
        uint256 sameBlock = _gasOfMark();
        vm.roll(102);
        _gasOfMark();
        vm.roll(103);
        _gasOfMark();
        vm.roll(104);
        uint256 newWord = _gasOfMark();
        assertEq(h.eventBlockCount(bytes32(0)), 5);
        console.log("first entry of a list:", first);
        console.log("new block, entry in an existing word:", shared);
        console.log("new block, entry starting a word:", newWord);
        console.log("a second event of the same transaction:", sameBlock);
    }

    /// A transaction's first touch of the list: its storage cold again (EIP-2929), as in a real call.
    function _gasOfMark() private returns (uint256 used) {
        IVmCool(address(vm)).cool(address(h));
        uint256 before = gasleft();
        h.mark(bytes32(0));
        used = before - gasleft();
    }
}
