// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test} from "forge-std/Test.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {TimelockController} from "@openzeppelin/contracts/governance/TimelockController.sol";
import {EpochRegistry} from "../src/EpochRegistry.sol";
import {HolderDistributor} from "../src/HolderDistributor.sol";
import {Governance} from "../script/Governance.sol";
import {EdenTimelock} from "../src/governance/EdenTimelock.sol";

/// Review finding 9: signer, adjudicator and parameter changes were instant. The deployment hands every contract to a
/// 48 h TimelockController (script/Governance.sol, used by Deploy and DeployII); this performs the handover and
/// shows that afterwards the old owner can change nothing and the timelock only after 48 h.
contract GovernanceTest is Test {
    EpochRegistry reg;
    HolderDistributor dist;
    TimelockController tl;
    address signer2 = makeAddr("signer2");

    function setUp() public {
        vm.warp(1_800_000_000);
        reg = new EpochRegistry(address(this), makeAddr("signer"), makeAddr("adjudicator"), 1 ether, 1);
        dist = new HolderDistributor(address(this), address(this));
        tl = Governance.deployTimelock(address(this));
        Governance.startHandover(tl, _targets(), Governance.HANDOVER_SALT_I);
    }

    function _targets() internal view returns (address[] memory t) {
        t = new address[](2);
        (t[0], t[1]) = (address(reg), address(dist));
    }

    function test_review9_theTimelockTakesOverAfter48Hours() public {
        assertEq(tl.getMinDelay(), 48 hours);
        assertEq(reg.pendingOwner(), address(tl));
        vm.expectRevert(); // not ready: TimelockUnexpectedOperationState
        Governance.executeHandover(tl, _targets(), Governance.HANDOVER_SALT_I);
        vm.warp(block.timestamp + 48 hours);
        vm.prank(makeAddr("anyone"));
        this.execute();
        assertEq(reg.owner(), address(tl));
        assertEq(dist.owner(), address(tl));
        // The old owner can no longer change anything.
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, address(this)));
        address[] memory next = new address[](1);
        next[0] = signer2;
        reg.setCommittee(next, 1);
        // Through the timelock a change waits the full delay.
        bytes memory call = abi.encodeCall(EpochRegistry.setCommittee, (next, 1));
        vm.expectRevert(); // TimelockInsufficientDelay
        tl.schedule(address(reg), 0, call, bytes32(0), bytes32("rotate"), 47 hours);
        tl.schedule(address(reg), 0, call, bytes32(0), bytes32("rotate"), 48 hours);
        vm.warp(block.timestamp + 48 hours - 1);
        vm.expectRevert();
        tl.execute(address(reg), 0, call, bytes32(0), bytes32("rotate"));
        vm.warp(block.timestamp + 1);
        tl.execute(address(reg), 0, call, bytes32(0), bytes32("rotate"));
        (uint32 id, address[] memory members,) = reg.currentCommittee();
        assertEq(id, 1);
        assertEq(members[0], signer2);
    }

    function test_review9_onlyTheGovernorProposes() public {
        vm.prank(makeAddr("stranger"));
        vm.expectRevert();
        tl.schedule(address(reg), 0, "", bytes32(0), bytes32("x"), 48 hours);
    }

    /// D12: the timelock records the block of each of its events (the deployment's role grants, the handover's
    /// schedule, a cancel, an execute), and only what may already emit them writes it.
    function test_d12_theTimelockRecordsWhereItsEventsAre() public {
        EdenTimelock etl = EdenTimelock(payable(address(tl)));
        uint64 start = uint64(block.number);
        // The constructor and the handover's scheduleBatch ran in this block: one entry per transaction.
        (uint64[] memory blocks,) = etl.eventBlocks(bytes32(0), 0, type(uint64).max, 10);
        assertEq(blocks.length, 1);
        assertEq(blocks[0], start);

        bytes memory call = abi.encodeCall(EpochRegistry.setCommittee, (new address[](0), 1));
        vm.roll(start + 5);
        tl.schedule(address(reg), 0, call, bytes32(0), bytes32("a"), 48 hours);
        vm.roll(start + 9);
        tl.cancel(tl.hashOperation(address(reg), 0, call, bytes32(0), bytes32("a")));
        vm.roll(start + 12);
        vm.warp(block.timestamp + 48 hours);
        vm.prank(makeAddr("anyone"));
        this.execute();
        (blocks,) = etl.eventBlocks(bytes32(0), 0, type(uint64).max, 10);
        assertEq(blocks.length, 4);
        assertEq(blocks[1], start + 5);
        assertEq(blocks[2], start + 9);
        assertEq(blocks[3], start + 12);

        // A stranger cannot write the record: every recording function keeps its role.
        vm.roll(start + 20);
        vm.startPrank(makeAddr("stranger"));
        vm.expectRevert();
        tl.schedule(address(reg), 0, "", bytes32(0), bytes32("x"), 48 hours);
        vm.expectRevert();
        tl.cancel(bytes32(0));
        bytes32 proposer = tl.PROPOSER_ROLE();
        vm.expectRevert();
        tl.grantRole(proposer, makeAddr("stranger"));
        // renounceRole of a role it does not hold emits nothing: the record is unchanged.
        tl.renounceRole(proposer, makeAddr("stranger"));
        vm.stopPrank();
        assertEq(etl.eventBlockCount(bytes32(0)), 4);
    }

    function execute() external {
        Governance.executeHandover(tl, _targets(), Governance.HANDOVER_SALT_I);
    }
}
