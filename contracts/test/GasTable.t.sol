// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {EpochRegistry} from "../src/EpochRegistry.sol";
import {HolderDistributor} from "../src/HolderDistributor.sol";
import {LaunchpadFixture} from "./utils/LaunchpadFixture.sol";
import {MerkleBuilder} from "./utils/MerkleBuilder.sol";
import {Approvals} from "./utils/Approvals.sol";
import {SnapshotBlocks} from "./utils/SnapshotBlocks.sol";

/// One representative call per row of the README gas table; run with
/// `scripts/test-contracts.sh --match-contract GasTable --gas-report`. Each scenario is measured in
/// its own test so warm/cold storage matches a real transaction on a fresh slot.
contract GasTableTest is LaunchpadFixture, SnapshotBlocks {
    uint256 internal constant SIGNER_PK = 0xA11CE;
    EpochRegistry internal reg;
    HolderDistributor internal dist;
    address internal token;
    address internal trader = makeAddr("trader");

    function setUp() public {
        vm.roll(SNAPSHOT_HEAD);
        vm.warp(1_700_000_000);
        _deployLaunchpad();
        reg = new EpochRegistry(address(this), vm.addr(SIGNER_PK), address(this), 1 ether, 1);
        dist = new HolderDistributor(address(this), address(this));
        token = pad.launch("Gas", "GAS", address(0), 0);
        vm.deal(trader, 1_000 ether);
        vm.deal(address(this), 5_000 ether);
        vm.warp(block.timestamp + 60);
    }

    function test_gas_buy() public {
        vm.prank(trader);
        pad.buy{value: 0.5 ether}(token, 0.5 ether, 0, block.timestamp);
        vm.prank(trader);
        pad.buy{value: 0.5 ether}(token, 0.5 ether, 0, block.timestamp); // second buyer-side write is warm
    }

    function test_gas_sellAfterBuy() public {
        vm.startPrank(trader);
        (uint256 out,) = pad.buy{value: 1 ether}(token, 1 ether, 0, block.timestamp);
        IERC20(token).approve(address(pad), out);
        pad.sell(token, out / 2, 0, block.timestamp);
        vm.stopPrank();
    }

    function test_gas_graduate() public {
        vm.prank(trader);
        pad.buy{value: 10 ether}(token, 10 ether, 0, block.timestamp); // the crossing buy graduates
    }

    function test_gas_proposeFinalize() public {
        bytes32 root = keccak256("root");
        uint64 expiry = uint64(block.timestamp + 1 hours);
        (uint8 v, bytes32 r, bytes32 s) =
            vm.sign(SIGNER_PK, reg.epochRootDigest(1, root, keccak256("in"), address(this), expiry));
        reg.propose{value: 1 ether}(
            1, root, keccak256("in"), expiry, Approvals.one(vm.addr(SIGNER_PK), abi.encodePacked(r, s, v))
        );
        vm.warp(block.timestamp + 72 hours);
        reg.finalize(1);
    }

    function test_gas_claim() public {
        bytes32[] memory leaves = new bytes32[](1000);
        for (uint256 i; i < leaves.length; ++i) {
            leaves[i] = dist.leafHash(token, address(0), 1, address(uint160(0x1000 + i)), 1 ether + i);
        }
        uint256 total;
        for (uint256 i; i < leaves.length; ++i) {
            total += 1 ether + i;
        }
        dist.fund{value: total}(token, address(0), total);
        dist.postRoot(token, address(0), 1, MerkleBuilder.root(leaves), uint128(total), _snap());
        vm.warp(block.timestamp + 24 hours);
        dist.claim(token, address(0), 1, address(uint160(0x1000 + 7)), 1 ether + 7, MerkleBuilder.proof(leaves, 7));
    }

    /// C18: the payout guardian revokes a root inside its review (issue 35 item 4).
    function test_gas_revokeRoot() public {
        address guardian = makeAddr("guardian");
        dist.setGuardian(guardian);
        dist.fund{value: 1 ether}(token, address(0), 1 ether);
        dist.postRoot(token, address(0), 1, keccak256("bad root"), 1 ether, _snap());
        vm.prank(guardian);
        dist.revokeRoot(token, address(0), 1);
    }
}

/// Sell measured cold (the buy and approval happen in setUp, a separate transaction).
contract GasTableSellTest is LaunchpadFixture {
    address internal token;
    address internal trader = makeAddr("trader");
    uint256 internal bought;

    function setUp() public {
        vm.warp(1_700_000_000);
        _deployLaunchpad();
        token = pad.launch("Gas", "GAS", address(0), 0);
        vm.deal(trader, 10 ether);
        vm.warp(block.timestamp + 60);
        vm.startPrank(trader);
        (bought,) = pad.buy{value: 1 ether}(token, 1 ether, 0, block.timestamp);
        IERC20(token).approve(address(pad), bought);
        vm.stopPrank();
    }

    function test_gas_sellCold() public {
        vm.prank(trader);
        pad.sell(token, bought / 2, 0, block.timestamp);
    }
}
