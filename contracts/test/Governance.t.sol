// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test} from "forge-std/Test.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {TimelockController} from "@openzeppelin/contracts/governance/TimelockController.sol";
import {EpochRegistry} from "../src/EpochRegistry.sol";
import {HolderDistributor} from "../src/HolderDistributor.sol";
import {Governance} from "../script/Governance.sol";

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

    function execute() external {
        Governance.executeHandover(tl, _targets(), Governance.HANDOVER_SALT_I);
    }
}
