// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test} from "forge-std/Test.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {HolderDistributor} from "../src/HolderDistributor.sol";
import {MerkleBuilder} from "./utils/MerkleBuilder.sol";
import {TestERC20} from "./utils/TestERC20.sol";
import {TimelockController} from "@openzeppelin/contracts/governance/TimelockController.sol";
import {SnapshotBlocks} from "./utils/SnapshotBlocks.sol";

contract HolderDistributorTest is Test, SnapshotBlocks {
    HolderDistributor internal dist;
    TestERC20 internal usd;
    address internal owner = makeAddr("owner");
    address internal poster = makeAddr("poster");
    address internal token = address(0x700c);
    address internal constant ETH = address(0);
    address internal constant DEPLOYER = address(0xD1);

    function setUp() public {
        vm.roll(SNAPSHOT_HEAD);
        vm.warp(1_700_000_000);
        vm.prank(DEPLOYER);
        dist = new HolderDistributor(owner, poster);
        usd = new TestERC20("USD", "USD", 6);
        vm.deal(address(this), 1_000 ether);
    }

    // helpers -------------------------------------------------------------------------------------

    function _leaves(address asset, uint64 epoch, address[] memory accts, uint256[] memory amts)
        internal
        view
        returns (bytes32[] memory leaves)
    {
        leaves = new bytes32[](accts.length);
        for (uint256 i; i < accts.length; ++i) {
            leaves[i] = dist.leafHash(token, asset, epoch, accts[i], amts[i]);
        }
    }

    function _round3(address asset, uint64 epoch)
        internal
        returns (address[] memory a, uint256[] memory m, bytes32[] memory leaves)
    {
        a = new address[](3);
        m = new uint256[](3);
        a[0] = address(0xB0B1);
        a[1] = address(0xB0B2);
        a[2] = address(0xB0B3);
        m[0] = 1 ether;
        m[1] = 2 ether;
        m[2] = 3;
        leaves = _leaves(asset, epoch, a, m);
        uint256 total = m[0] + m[1] + m[2];
        if (asset == ETH) {
            dist.fund{value: total}(token, ETH, total);
        } else {
            usd.mint(address(this), total);
            usd.approve(address(dist), total);
            dist.fund(token, asset, total);
        }
        vm.prank(poster);
        dist.postRoot(token, asset, epoch, MerkleBuilder.root(leaves), uint128(total), _snap());
    }

    // constructor / admin -------------------------------------------------------------------------

    function test_constructor() public view {
        assertEq(dist.poster(), poster);
        assertEq(dist.owner(), owner);
        assertEq(dist.CLAIM_DELAY(), 24 hours);
        assertEq(dist.CLAIM_PERIOD(), 90 days);
    }

    function test_constructor_revertsOnZeroPoster() public {
        vm.expectRevert(HolderDistributor.ZeroAddress.selector);
        new HolderDistributor(owner, address(0));
    }

    function test_setPoster() public {
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, address(this)));
        dist.setPoster(address(1));
        vm.startPrank(owner);
        vm.expectRevert(HolderDistributor.ZeroAddress.selector);
        dist.setPoster(address(0));
        vm.expectEmit(address(dist));
        emit HolderDistributor.PosterChanged(poster, address(1));
        dist.setPoster(address(1));
        vm.stopPrank();
        assertEq(dist.poster(), address(1));
    }

    // fund ----------------------------------------------------------------------------------------

    function test_fund_eth() public {
        vm.expectEmit(address(dist));
        emit HolderDistributor.Funded(token, ETH, address(this), 5 ether);
        dist.fund{value: 5 ether}(token, ETH, 5 ether);
        assertEq(dist.pot(token, ETH), 5 ether);
        assertEq(address(dist).balance, 5 ether);
    }

    function test_fund_erc20() public {
        usd.mint(address(this), 100e6);
        usd.approve(address(dist), 100e6);
        dist.fund(token, address(usd), 100e6);
        assertEq(dist.pot(token, address(usd)), 100e6);
        assertEq(usd.balanceOf(address(dist)), 100e6);
    }

    function test_fund_reverts() public {
        vm.expectRevert(HolderDistributor.ZeroAmount.selector);
        dist.fund(token, ETH, 0);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.WrongValue.selector, 1 ether, 2 ether));
        dist.fund{value: 1 ether}(token, ETH, 2 ether);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.WrongValue.selector, 1, 0));
        dist.fund{value: 1}(token, address(usd), 5);
        vm.expectRevert(); // no allowance
        dist.fund(token, address(usd), 5);
    }

    // postRoot ------------------------------------------------------------------------------------

    function test_postRoot_allocatesFromPot() public {
        dist.fund{value: 10 ether}(token, ETH, 10 ether);
        uint64 opensAt = uint64(block.timestamp + 24 hours);
        vm.expectEmit(address(dist));
        emit HolderDistributor.RootPosted(token, ETH, 7, bytes32(uint256(1)), 4 ether, opensAt, opensAt + 90 days);
        vm.prank(poster);
        dist.postRoot(token, ETH, 7, bytes32(uint256(1)), 4 ether, _snap());
        assertEq(dist.pot(token, ETH), 6 ether);
        assertEq(dist.lastEpoch(token, ETH), 7);
        HolderDistributor.Round memory r = dist.round(token, ETH, 7);
        assertEq(r.root, bytes32(uint256(1)));
        assertEq(r.total, 4 ether);
        assertEq(r.claimed, 0);
        assertEq(r.opensAt, opensAt);
        assertEq(r.closesAt, opensAt + 90 days);
        assertFalse(r.settled);
    }

    function test_postRoot_reverts() public {
        dist.fund{value: 10 ether}(token, ETH, 10 ether);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.NotPoster.selector, address(this)));
        dist.postRoot(token, ETH, 1, bytes32(uint256(1)), 1, _snap());
        vm.startPrank(poster);
        vm.expectRevert(HolderDistributor.EmptyRoot.selector);
        dist.postRoot(token, ETH, 1, 0, 1, _snap());
        vm.expectRevert(HolderDistributor.ZeroAmount.selector);
        dist.postRoot(token, ETH, 1, bytes32(uint256(1)), 0, _snap());
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.EpochNotAfter.selector, 0, 0));
        dist.postRoot(token, ETH, 0, bytes32(uint256(1)), 1, _snap());
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.InsufficientPot.selector, 10 ether + 1, 10 ether));
        dist.postRoot(token, ETH, 1, bytes32(uint256(1)), 10 ether + 1, _snap());
        dist.postRoot(token, ETH, 5, bytes32(uint256(1)), 1, _snap());
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.EpochNotAfter.selector, 5, 5));
        dist.postRoot(token, ETH, 5, bytes32(uint256(1)), 1, _snap());
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.EpochNotAfter.selector, 4, 5));
        dist.postRoot(token, ETH, 4, bytes32(uint256(1)), 1, _snap());
        // pots are per (token, asset)
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.InsufficientPot.selector, 1, 0));
        dist.postRoot(address(0xBEEF), ETH, 1, bytes32(uint256(1)), 1, _snap());
        vm.stopPrank();
    }

    // C18a: snapshot blocks and the exclusion list ---------------------------------------------------

    /// A root pays a mined block's balances, later than the pair's previous round's; the round records it.
    function test_postRoot_snapshotBlock() public {
        dist.fund{value: 10 ether}(token, ETH, 10 ether);
        dist.fund{value: 1 ether}(address(0xBEEF), ETH, 1 ether);
        vm.startPrank(poster);
        uint64 head = uint64(block.number);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.SnapshotNotPast.selector, head, head));
        dist.postRoot(token, ETH, 1, bytes32(uint256(1)), 1, head);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.SnapshotNotPast.selector, head + 9, head));
        dist.postRoot(token, ETH, 1, bytes32(uint256(1)), 1, head + 9);
        dist.postRoot(token, ETH, 1, bytes32(uint256(1)), 1, head - 10);
        assertEq(dist.round(token, ETH, 1).snapshotBlock, head - 10);
        // an older or the same snapshot again cannot pay the same balances twice
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.SnapshotNotAfter.selector, head - 10, head - 10));
        dist.postRoot(token, ETH, 2, bytes32(uint256(1)), 1, head - 10);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.SnapshotNotAfter.selector, head - 11, head - 10));
        dist.postRoot(token, ETH, 2, bytes32(uint256(1)), 1, head - 11);
        dist.postRoot(token, ETH, 2, bytes32(uint256(1)), 1, head - 9);
        // another pair has its own sequence
        dist.postRoot(address(0xBEEF), ETH, 1, bytes32(uint256(1)), 1, head - 20);
        vm.stopPrank();
    }

    /// Only the owner lists an account; each change is kept with its block, oldest first.
    function test_setExcluded_recordsEveryChange() public {
        address vault = makeAddr("vault");
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, poster));
        vm.prank(poster);
        dist.setExcluded(vault, true);
        vm.startPrank(owner);
        vm.expectRevert(HolderDistributor.ZeroAddress.selector);
        dist.setExcluded(address(0), true);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.ExclusionUnchanged.selector, vault, false));
        dist.setExcluded(vault, false);
        vm.expectEmit(address(dist));
        emit HolderDistributor.ExclusionSet(vault, true);
        dist.setExcluded(vault, true);
        assertTrue(dist.excluded(vault));
        vm.roll(block.number + 5);
        dist.setExcluded(vault, false);
        HolderDistributor.ExclusionChange[] memory c = dist.exclusionChanges();
        assertEq(c.length, 2);
        assertEq(c[0].account, vault);
        assertTrue(c[0].excluded);
        assertEq(c[0].blockNumber, SNAPSHOT_HEAD);
        assertFalse(c[1].excluded);
        assertEq(c[1].blockNumber, SNAPSHOT_HEAD + 5);
        assertFalse(dist.excluded(vault));
        vm.stopPrank();
    }

    // claim ---------------------------------------------------------------------------------------

    function test_claim_eth_paysOnceOnlyToAccount() public {
        (address[] memory a, uint256[] memory m, bytes32[] memory leaves) = _round3(ETH, 1);
        vm.warp(block.timestamp + 24 hours);
        bytes32[] memory p = MerkleBuilder.proof(leaves, 1);
        vm.expectEmit(address(dist));
        emit HolderDistributor.Claimed(token, ETH, 1, a[1], m[1]);
        vm.prank(address(0xCAFE)); // anyone may submit; the account is paid
        dist.claim(token, ETH, 1, a[1], m[1], p);
        assertEq(a[1].balance, m[1]);
        assertEq(address(0xCAFE).balance, 0);
        assertTrue(dist.claimed(leaves[1]));
        assertEq(dist.round(token, ETH, 1).claimed, m[1]);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.AlreadyClaimed.selector, leaves[1]));
        dist.claim(token, ETH, 1, a[1], m[1], p);
    }

    function test_claim_erc20() public {
        (address[] memory a, uint256[] memory m, bytes32[] memory leaves) = _round3(address(usd), 1);
        vm.warp(block.timestamp + 24 hours);
        for (uint256 i; i < 3; ++i) {
            dist.claim(token, address(usd), 1, a[i], m[i], MerkleBuilder.proof(leaves, i));
            assertEq(usd.balanceOf(a[i]), m[i]);
        }
        assertEq(usd.balanceOf(address(dist)), 0);
    }

    function test_claim_windowEdges() public {
        (address[] memory a, uint256[] memory m, bytes32[] memory leaves) = _round3(ETH, 1);
        uint64 opensAt = uint64(block.timestamp + 24 hours);
        uint64 closesAt = opensAt + 90 days;
        vm.warp(opensAt - 1);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.NotOpen.selector, opensAt, opensAt - 1));
        dist.claim(token, ETH, 1, a[0], m[0], MerkleBuilder.proof(leaves, 0));
        vm.warp(opensAt);
        dist.claim(token, ETH, 1, a[0], m[0], MerkleBuilder.proof(leaves, 0));
        vm.warp(closesAt - 1);
        dist.claim(token, ETH, 1, a[1], m[1], MerkleBuilder.proof(leaves, 1));
        vm.warp(closesAt);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.Closed.selector, closesAt, closesAt));
        dist.claim(token, ETH, 1, a[2], m[2], MerkleBuilder.proof(leaves, 2));
    }

    function test_claim_rejectsTamperedLeaf() public {
        (address[] memory a, uint256[] memory m, bytes32[] memory leaves) = _round3(ETH, 1);
        vm.warp(block.timestamp + 24 hours);
        bytes32[] memory p = MerkleBuilder.proof(leaves, 0);
        vm.expectRevert(
            abi.encodeWithSelector(
                HolderDistributor.InvalidProof.selector, dist.leafHash(token, ETH, 1, a[0], m[0] + 1)
            )
        );
        dist.claim(token, ETH, 1, a[0], m[0] + 1, p);
        vm.expectRevert(
            abi.encodeWithSelector(HolderDistributor.InvalidProof.selector, dist.leafHash(token, ETH, 1, a[1], m[0]))
        );
        dist.claim(token, ETH, 1, a[1], m[0], p);
        // a leaf built for another chain or distributor never verifies here
        vm.chainId(1);
        vm.expectRevert();
        dist.claim(token, ETH, 1, a[0], m[0], p);
    }

    function test_claim_unknownRound() public {
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.UnknownRound.selector, token, ETH, 3));
        dist.claim(token, ETH, 3, address(1), 1, new bytes32[](0));
    }

    function test_claim_neverExceedsRoundTotal() public {
        // a bad root whose leaves sum to more than its total cannot touch other rounds' money
        dist.fund{value: 10 ether}(token, ETH, 10 ether);
        address[] memory a = new address[](2);
        uint256[] memory m = new uint256[](2);
        a[0] = address(0xB0B1);
        a[1] = address(0xB0B2);
        m[0] = 2 ether;
        m[1] = 2 ether;
        bytes32[] memory leaves = _leaves(ETH, 1, a, m);
        vm.prank(poster);
        dist.postRoot(token, ETH, 1, MerkleBuilder.root(leaves), 3 ether, _snap());
        vm.warp(block.timestamp + 24 hours);
        dist.claim(token, ETH, 1, a[0], m[0], MerkleBuilder.proof(leaves, 0));
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.ExceedsRound.selector, 2 ether, 1 ether));
        dist.claim(token, ETH, 1, a[1], m[1], MerkleBuilder.proof(leaves, 1));
    }

    function test_claim_referenceTreeFromOpenZeppelinJs() public {
        string memory json = vm.readFile("test/fixtures/holder-tree.json");
        assertEq(vm.parseJsonAddress(json, ".distributor"), address(dist));
        assertEq(vm.parseJsonUint(json, ".chainId"), block.chainid);
        uint64 epoch = uint64(vm.parseJsonUint(json, ".epoch"));
        address t = vm.parseJsonAddress(json, ".token");
        uint256 total = vm.parseJsonUint(json, ".total");
        dist.fund{value: total}(t, ETH, total);
        vm.prank(poster);
        dist.postRoot(t, ETH, epoch, vm.parseJsonBytes32(json, ".root"), uint128(total), _snap());
        vm.warp(block.timestamp + 24 hours);
        for (uint256 i; i < 5; ++i) {
            _claimFixture(json, t, epoch, string.concat(".claims[", vm.toString(i), "]"));
        }
        assertEq(address(dist).balance, 0);
        assertEq(dist.round(t, ETH, epoch).claimed, total);
    }

    function _claimFixture(string memory json, address t, uint64 epoch, string memory p) internal {
        address acct = vm.parseJsonAddress(json, string.concat(p, ".account"));
        uint256 amt = vm.parseJsonUint(json, string.concat(p, ".amount"));
        assertEq(dist.leafHash(t, ETH, epoch, acct, amt), vm.parseJsonBytes32(json, string.concat(p, ".leaf")));
        dist.claim(t, ETH, epoch, acct, amt, vm.parseJsonBytes32Array(json, string.concat(p, ".proof")));
        assertEq(acct.balance, amt);
    }

    function test_claim_revertsWhenRecipientRejectsEth() public {
        Reject rj = new Reject();
        address[] memory a = new address[](1);
        uint256[] memory m = new uint256[](1);
        a[0] = address(rj);
        m[0] = 1 ether;
        bytes32[] memory leaves = _leaves(ETH, 1, a, m);
        dist.fund{value: 1 ether}(token, ETH, 1 ether);
        vm.prank(poster);
        dist.postRoot(token, ETH, 1, leaves[0], 1 ether, _snap());
        vm.warp(block.timestamp + 24 hours);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.TransferFailed.selector, address(rj), 1 ether));
        dist.claim(token, ETH, 1, a[0], m[0], new bytes32[](0));
        assertFalse(dist.claimed(leaves[0]));
    }

    // revoke / rollover ---------------------------------------------------------------------------

    function test_revoke_duringReviewOnly() public {
        (address[] memory a, uint256[] memory m, bytes32[] memory leaves) = _round3(ETH, 1);
        uint256 total = m[0] + m[1] + m[2];
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.NotRevoker.selector, address(this)));
        dist.revokeRoot(token, ETH, 1);
        vm.expectEmit(address(dist));
        emit HolderDistributor.RootRevoked(token, ETH, 1, total);
        vm.prank(owner);
        dist.revokeRoot(token, ETH, 1);
        assertEq(dist.pot(token, ETH), total);
        vm.prank(owner);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.AlreadySettled.selector, token, ETH, 1));
        dist.revokeRoot(token, ETH, 1);
        vm.warp(block.timestamp + 24 hours);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.AlreadySettled.selector, token, ETH, 1));
        dist.claim(token, ETH, 1, a[0], m[0], MerkleBuilder.proof(leaves, 0));

        // after the review it is too late
        vm.prank(poster);
        dist.postRoot(token, ETH, 2, bytes32(uint256(5)), 1, _snap());
        uint64 opensAt = uint64(block.timestamp + 24 hours);
        vm.warp(opensAt);
        vm.prank(owner);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.ReviewOver.selector, opensAt, opensAt));
        dist.revokeRoot(token, ETH, 2);
        vm.prank(owner);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.UnknownRound.selector, token, ETH, 9));
        dist.revokeRoot(token, ETH, 9);
    }

    function test_rollover_remainderFundsNextRound() public {
        (address[] memory a, uint256[] memory m, bytes32[] memory leaves) = _round3(ETH, 1);
        uint64 closesAt = uint64(block.timestamp + 24 hours + 90 days);
        vm.warp(block.timestamp + 24 hours);
        dist.claim(token, ETH, 1, a[1], m[1], MerkleBuilder.proof(leaves, 1));
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.StillOpen.selector, closesAt, block.timestamp));
        dist.rollover(token, ETH, 1);
        vm.warp(closesAt);
        uint256 remainder = m[0] + m[2];
        vm.expectEmit(address(dist));
        emit HolderDistributor.RolledOver(token, ETH, 1, remainder);
        dist.rollover(token, ETH, 1);
        assertEq(dist.pot(token, ETH), remainder);
        assertTrue(dist.round(token, ETH, 1).settled);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.AlreadySettled.selector, token, ETH, 1));
        dist.rollover(token, ETH, 1);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.UnknownRound.selector, token, ETH, 2));
        dist.rollover(token, ETH, 2);
        // the next round allocates exactly the rolled-over remainder
        vm.prank(poster);
        dist.postRoot(token, ETH, 2, bytes32(uint256(1)), uint128(remainder), _snap());
        assertEq(dist.pot(token, ETH), 0);
        assertEq(address(dist).balance, remainder);
    }

    // fuzz ----------------------------------------------------------------------------------------

    function testFuzz_claimAll_sumsToTotal(uint256 seed, uint8 n) public {
        uint256 count = bound(n, 1, 30);
        address[] memory a = new address[](count);
        uint256[] memory m = new uint256[](count);
        uint256 total;
        for (uint256 i; i < count; ++i) {
            a[i] = address(uint160(uint256(keccak256(abi.encode(seed, i))) | 1 << 100));
            m[i] = uint256(keccak256(abi.encode(i, seed))) % 1e24;
            total += m[i];
        }
        vm.assume(total > 0);
        bytes32[] memory leaves = _leaves(ETH, 9, a, m);
        vm.deal(address(this), total);
        dist.fund{value: total}(token, ETH, total);
        vm.prank(poster);
        dist.postRoot(token, ETH, 9, MerkleBuilder.root(leaves), uint128(total), _snap());
        vm.warp(block.timestamp + 24 hours);
        for (uint256 i; i < count; ++i) {
            bytes32[] memory p = MerkleBuilder.proof(leaves, i);
            if (dist.claimed(leaves[i])) continue; // duplicate (account, amount) pairs are one leaf
            dist.claim(token, ETH, 9, a[i], m[i], p);
            vm.expectRevert(abi.encodeWithSelector(HolderDistributor.AlreadyClaimed.selector, leaves[i]));
            dist.claim(token, ETH, 9, a[i], m[i], p);
        }
        assertEq(address(dist).balance + dist.round(token, ETH, 9).claimed, total);
    }
}

contract Reject {
    receive() external payable {
        revert();
    }
}

contract HolderDistributorClaimToTest is Test, SnapshotBlocks {
    HolderDistributor internal dist;
    address internal token = address(0x700c);
    uint256 internal constant HOLDER_PK = 0xB0B;
    address internal holder;
    address internal recipient = makeAddr("recipient");
    bytes32[] internal leaves;

    function setUp() public {
        vm.roll(SNAPSHOT_HEAD);
        vm.warp(1_700_000_000);
        holder = vm.addr(HOLDER_PK);
        dist = new HolderDistributor(address(this), address(this));
        vm.deal(address(this), 10 ether);
        leaves.push(dist.leafHash(token, address(0), 1, holder, 1 ether));
        leaves.push(dist.leafHash(token, address(0), 1, address(0xB0B2), 2 ether));
        dist.fund{value: 3 ether}(token, address(0), 3 ether);
        dist.postRoot(token, address(0), 1, MerkleBuilder.root(leaves), 3 ether, _snap());
        vm.warp(block.timestamp + 24 hours);
    }

    function _sig(uint256 pk, address to, uint256 deadline) internal view returns (bytes memory) {
        (uint8 v, bytes32 r, bytes32 s) =
            vm.sign(pk, dist.claimToDigest(token, address(0), 1, holder, 1 ether, to, deadline));
        return abi.encodePacked(r, s, v);
    }

    function test_claimTo_paysSignedRecipientOnce() public {
        uint256 deadline = block.timestamp + 1 hours;
        bytes memory sig = _sig(HOLDER_PK, recipient, deadline);
        bytes32[] memory proof = MerkleBuilder.proof(leaves, 0);
        vm.expectEmit(address(dist));
        emit HolderDistributor.ClaimedTo(holder, recipient, leaves[0]);
        dist.claimTo(token, address(0), 1, holder, 1 ether, proof, recipient, deadline, sig);
        assertEq(recipient.balance, 1 ether);
        assertEq(holder.balance, 0);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.AlreadyClaimed.selector, leaves[0]));
        dist.claimTo(token, address(0), 1, holder, 1 ether, proof, recipient, deadline, sig);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.AlreadyClaimed.selector, leaves[0]));
        dist.claim(token, address(0), 1, holder, 1 ether, proof);
    }

    function test_claimTo_rejectsWrongSignerRecipientOrExpiry() public {
        uint256 deadline = block.timestamp + 1 hours;
        bytes32[] memory proof = MerkleBuilder.proof(leaves, 0);
        bytes memory other = _sig(0xBAD, recipient, deadline);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.InvalidAccountSignature.selector, holder));
        dist.claimTo(token, address(0), 1, holder, 1 ether, proof, recipient, deadline, other);
        bytes memory sig = _sig(HOLDER_PK, recipient, deadline);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.InvalidAccountSignature.selector, holder));
        dist.claimTo(token, address(0), 1, holder, 1 ether, proof, address(0xEE), deadline, sig); // redirected
        vm.warp(deadline + 1);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.SignatureExpired.selector, deadline, deadline + 1));
        dist.claimTo(token, address(0), 1, holder, 1 ether, proof, recipient, deadline, sig);
    }
}

/// Second review, item 4: under the deployed governance (the 48 h timelock owns the distributor) a bad
/// root could not be revoked before claims opened 24 h after it. The guardian stops it in the review.
contract HolderDistributorGuardianTest is Test, SnapshotBlocks {
    HolderDistributor internal dist;
    TimelockController internal timelock;
    address internal poster = makeAddr("poster");
    address internal guardian = makeAddr("guardian");
    address internal thief = makeAddr("thief");
    address internal token = makeAddr("token");
    address internal constant ETH = address(0);

    function setUp() public {
        vm.roll(SNAPSHOT_HEAD);
        address[] memory who = new address[](1);
        who[0] = address(this);
        timelock = new TimelockController(48 hours, who, who, address(0));
        dist = new HolderDistributor(address(timelock), poster);
        vm.prank(address(timelock));
        dist.setGuardian(guardian);
        vm.deal(address(this), 10 ether);
        dist.fund{value: 10 ether}(token, ETH, 10 ether);
    }

    /// A root paying the whole pot to one account.
    function _badRoot() internal returns (bytes32 leaf) {
        leaf = keccak256(
            bytes.concat(
                keccak256(abi.encode(address(dist), block.chainid, token, ETH, uint64(1), thief, uint256(10 ether)))
            )
        );
        vm.prank(poster);
        dist.postRoot(token, ETH, 1, leaf, 10 ether, _snap());
    }

    function test_secondReview4_timelockAloneCannotRevokeInTime_guardianDoes() public {
        _badRoot();
        // The owner's path: a revocation scheduled in the root's own block executes only after claims open.
        bytes memory call = abi.encodeCall(HolderDistributor.revokeRoot, (token, ETH, 1));
        timelock.schedule(address(dist), 0, call, bytes32(0), bytes32(0), 48 hours);
        // The guardian, in the review: the whole total returns to the pot.
        vm.warp(block.timestamp + 23 hours);
        vm.prank(guardian);
        dist.revokeRoot(token, ETH, 1);
        assertEq(dist.pot(token, ETH), 10 ether);
        // The thief's claim once the round would have opened: refused, nothing paid.
        vm.warp(block.timestamp + 1 hours);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.AlreadySettled.selector, token, ETH, uint64(1)));
        dist.claim(token, ETH, 1, thief, 10 ether, new bytes32[](0));
        assertEq(thief.balance, 0);
        // The timelock's own revocation arrives too late in any case (and here finds it revoked).
        vm.warp(block.timestamp + 25 hours);
        vm.expectRevert();
        timelock.execute(address(dist), 0, call, bytes32(0), bytes32(0));
    }

    function test_guardianOnlyRevokes_andIsNeverThePoster() public {
        _badRoot();
        vm.startPrank(guardian);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.NotPoster.selector, guardian));
        dist.postRoot(token, ETH, 2, bytes32(uint256(1)), 1, _snap());
        vm.expectRevert();
        dist.setPoster(guardian);
        vm.expectRevert();
        dist.setGuardian(thief);
        vm.stopPrank();
        // Nobody else revokes.
        vm.prank(thief);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.NotRevoker.selector, thief));
        dist.revokeRoot(token, ETH, 1);
        // The poster cannot be made guardian, nor the guardian poster.
        vm.startPrank(address(timelock));
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.GuardianIsPoster.selector, poster));
        dist.setGuardian(poster);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.GuardianIsPoster.selector, guardian));
        dist.setPoster(guardian);
        // No guardian: only the owner revokes, and the zero address never can.
        dist.setGuardian(address(0));
        vm.stopPrank();
        vm.prank(guardian);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.NotRevoker.selector, guardian));
        dist.revokeRoot(token, ETH, 1);
        vm.prank(address(0));
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.NotRevoker.selector, address(0)));
        dist.revokeRoot(token, ETH, 1);
    }

    /// After the review even the guardian cannot take a root back: claims are final.
    function test_guardianCannotRevokeAfterTheReview() public {
        _badRoot();
        uint64 opensAt = uint64(block.timestamp + 24 hours);
        vm.warp(opensAt);
        vm.prank(guardian);
        vm.expectRevert(abi.encodeWithSelector(HolderDistributor.ReviewOver.selector, opensAt, opensAt));
        dist.revokeRoot(token, ETH, 1);
    }
}
