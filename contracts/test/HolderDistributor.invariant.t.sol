// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test} from "forge-std/Test.sol";
import {HolderDistributor} from "../src/HolderDistributor.sol";
import {MerkleBuilder} from "./utils/MerkleBuilder.sol";
import {SnapshotBlocks} from "./utils/SnapshotBlocks.sol";

/// Posts rounds over a fixed set of holders and hammers claims (including repeats), rollovers and time.
contract DistributorHandler is Test, SnapshotBlocks {
    HolderDistributor public immutable dist;
    address public immutable poster;
    address public constant TOKEN = address(0x700c);
    uint256 public constant N = 6;

    address[N] public holders;
    uint64 public epoch;
    mapping(uint64 => bytes32[]) internal leavesOf;
    mapping(uint64 => uint256[]) internal amountsOf;
    /// ghost: how many times each leaf has paid
    mapping(bytes32 => uint256) public paidCount;
    bytes32[] public allLeaves;
    uint256 public totalPaid;
    uint256 public totalFunded;
    /// ghost: rounds the guardian revoked, and what they paid before (nothing: a revoke is in the review)
    mapping(uint64 => bool) public revoked;
    mapping(uint64 => uint256) public paidIn;
    address public constant GUARDIAN = address(0x6A2D);

    constructor(HolderDistributor d, address poster_) {
        dist = d;
        poster = poster_;
        for (uint256 i; i < N; ++i) {
            holders[i] = address(uint160(0xB0B000 + i));
        }
    }

    function fundAndPost(uint256 seed) external {
        uint256 total;
        uint256[] memory amts = new uint256[](N);
        for (uint256 i; i < N; ++i) {
            amts[i] = uint256(keccak256(abi.encode(seed, i))) % 10 ether;
            total += amts[i];
        }
        if (total == 0) return;
        uint64 e = ++epoch;
        bytes32[] memory leaves = new bytes32[](N);
        for (uint256 i; i < N; ++i) {
            leaves[i] = dist.leafHash(TOKEN, address(0), e, holders[i], amts[i]);
            allLeaves.push(leaves[i]);
        }
        vm.deal(address(this), total);
        dist.fund{value: total}(TOKEN, address(0), total);
        totalFunded += total;
        vm.prank(poster);
        dist.postRoot(TOKEN, address(0), e, MerkleBuilder.root(leaves), uint128(total), _snap());
        leavesOf[e] = leaves;
        amountsOf[e] = amts;
    }

    function claim(uint256 e, uint256 i) external {
        if (epoch == 0) return;
        uint64 ep = uint64(bound(e, 1, epoch));
        i = bound(i, 0, N - 1);
        bytes32[] memory leaves = leavesOf[ep];
        uint256 amount = amountsOf[ep][i];
        dist.claim(TOKEN, address(0), ep, holders[i], amount, MerkleBuilder.proof(leaves, i));
        paidCount[leaves[i]]++;
        totalPaid += amount;
        paidIn[ep] += amount;
    }

    function rollover(uint256 e) external {
        if (epoch == 0) return;
        dist.rollover(TOKEN, address(0), uint64(bound(e, 1, epoch)));
    }

    /// The guardian revokes a round (C18): only inside its review, so never one that has paid.
    function revoke(uint256 e) external {
        if (epoch == 0) return;
        uint64 ep = uint64(bound(e, 1, epoch));
        vm.prank(GUARDIAN);
        dist.revokeRoot(TOKEN, address(0), ep);
        revoked[ep] = true;
    }

    function warp(uint256 dt) external {
        vm.warp(block.timestamp + bound(dt, 1 hours, 40 days));
    }

    function leafCount() external view returns (uint256) {
        return allLeaves.length;
    }
}

contract HolderDistributorInvariantTest is Test, SnapshotBlocks {
    HolderDistributor internal dist;
    DistributorHandler internal handler;

    function setUp() public {
        vm.roll(SNAPSHOT_HEAD);
        vm.warp(1_700_000_000);
        dist = new HolderDistributor(address(this), address(0x9057));
        handler = new DistributorHandler(dist, address(0x9057));
        dist.setGuardian(handler.GUARDIAN());
        targetContract(address(handler));
    }

    /// A distributor leaf never pays twice.
    function invariant_leafPaysAtMostOnce() public view {
        uint256 n = handler.leafCount();
        for (uint256 i; i < n; ++i) {
            bytes32 leaf = handler.allLeaves(i);
            assertLe(handler.paidCount(leaf), 1);
            assertEq(handler.paidCount(leaf) == 1, dist.claimed(leaf));
        }
    }

    /// Holders received exactly what was claimed, and funded ETH = paid + held.
    function invariant_ethConserved() public view {
        uint256 held;
        for (uint256 i; i < handler.N(); ++i) {
            held += handler.holders(i).balance;
        }
        assertEq(held, handler.totalPaid());
        assertEq(address(dist).balance + handler.totalPaid(), handler.totalFunded());
    }

    /// A revoked round never paid anything: the guardian acts only before claims open.
    function invariant_revokedRoundNeverPaid() public view {
        for (uint64 e = 1; e <= handler.epoch(); ++e) {
            if (handler.revoked(e)) assertEq(handler.paidIn(e), 0);
        }
    }

    /// The contract always holds at least the pot plus every live round's unclaimed remainder.
    function invariant_solvent() public view {
        uint256 owed = dist.pot(handler.TOKEN(), address(0));
        for (uint64 e = 1; e <= handler.epoch(); ++e) {
            HolderDistributor.Round memory r = dist.round(handler.TOKEN(), address(0), e);
            if (!r.settled) owed += r.total - r.claimed;
        }
        assertEq(address(dist).balance, owed);
    }
}
