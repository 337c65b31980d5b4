// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {EpochRegistry} from "../src/EpochRegistry.sol";
import {RegistryBase} from "./EpochRegistry.t.sol";

/// A contract member (C7a): a one-owner smart account that answers ERC-1271 for digests its owner signed.
contract OwnerWallet is IERC1271 {
    address internal immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        (address who, ECDSA.RecoverError err,) = ECDSA.tryRecover(hash, signature);
        return err == ECDSA.RecoverError.NoError && who == owner ? IERC1271.isValidSignature.selector : bytes4(0);
    }
}

/// C7a: m-of-n committee roots, written as attacks: too few, a repeated member, a removed member, a
/// non-member, a member's signature for another registry, chain or proposer; any ordering of a valid set.
contract EpochRegistryCommitteeTest is RegistryBase {
    bytes32 internal constant ROOT = keccak256("committee root");
    uint256 internal constant MEMBER_PK0 = 0x1000;

    address[] internal members;

    function setUp() public override {
        super.setUp();
        members = _keys(5);
        vm.prank(owner);
        reg.setCommittee(members, 3);
    }

    function _keys(uint256 n) internal pure returns (address[] memory a) {
        a = new address[](n);
        for (uint256 i; i < n; ++i) {
            a[i] = vm.addr(MEMBER_PK0 + i);
        }
    }

    /// Approvals by members `seats` (indices into `_keys`), for this contract as proposer.
    function _approvals(uint256[] memory seats, uint64 epoch, bytes32 root, uint64 expiry)
        internal
        view
        returns (EpochRegistry.Approval[] memory a)
    {
        a = new EpochRegistry.Approval[](seats.length);
        for (uint256 i; i < seats.length; ++i) {
            a[i] = EpochRegistry.Approval(
                vm.addr(MEMBER_PK0 + seats[i]), _sign(MEMBER_PK0 + seats[i], epoch, root, 0, expiry)
            );
        }
    }

    function _seats(uint256 a, uint256 b, uint256 c) internal pure returns (uint256[] memory s) {
        s = new uint256[](3);
        (s[0], s[1], s[2]) = (a, b, c);
    }

    function test_threeOfFive_accepted_andRecorded() public {
        uint64 expiry = uint64(block.timestamp);
        reg.propose{value: BOND}(FIRST, ROOT, 0, expiry, _approvals(_seats(4, 0, 2), FIRST, ROOT, expiry));
        (uint32 id, address[] memory m, uint8 t) = reg.committeeOf(FIRST);
        assertEq(id, 1);
        assertEq(m.length, 5);
        assertEq(t, 3);
        // A later committee does not change the one that approved this root.
        vm.prank(owner);
        reg.setCommittee(_keys(2), 2);
        (id,,) = reg.committeeOf(FIRST);
        assertEq(id, 1);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.NotProposed.selector, FIRST + 1));
        reg.committeeOf(FIRST + 1);
    }

    /// Any ordering of any 3, 4 or 5 distinct members is accepted.
    function testFuzz_anyOrderingOfEnoughMembers(uint256 seed, uint8 count) public {
        uint256 k = 3 + (count % 3);
        uint256[] memory perm = new uint256[](5);
        for (uint256 i; i < 5; ++i) {
            perm[i] = i;
        }
        for (uint256 i = 4; i > 0; --i) {
            uint256 j = uint256(keccak256(abi.encode(seed, i))) % (i + 1);
            (perm[i], perm[j]) = (perm[j], perm[i]);
        }
        uint256[] memory seats = new uint256[](k);
        for (uint256 i; i < k; ++i) {
            seats[i] = perm[i];
        }
        uint64 expiry = uint64(block.timestamp);
        reg.propose{value: BOND}(FIRST, ROOT, 0, expiry, _approvals(seats, FIRST, ROOT, expiry));
        assertEq(uint8(_status(FIRST)), uint8(EpochRegistry.Status.Pending));
    }

    /// Any ordering of a set with one member twice is refused, whatever the other approvals.
    function testFuzz_repeatedMemberRefused(uint256 seed) public {
        uint256 twice = seed % 5;
        uint256[] memory seats = new uint256[](4);
        (seats[0], seats[1], seats[2], seats[3]) = (twice, (twice + 1) % 5, (twice + 2) % 5, twice);
        uint256 j = (seed >> 8) % 4;
        (seats[3], seats[j]) = (seats[j], seats[3]);
        uint64 expiry = uint64(block.timestamp);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.RepeatedMember.selector, vm.addr(MEMBER_PK0 + twice)));
        reg.propose{value: BOND}(FIRST, ROOT, 0, expiry, _approvals(seats, FIRST, ROOT, expiry));
    }

    function test_tooFewRefused() public {
        uint64 expiry = uint64(block.timestamp);
        uint256[] memory two = new uint256[](2);
        (two[0], two[1]) = (1, 3);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.TooFewApprovals.selector, 2, 3));
        reg.propose{value: BOND}(FIRST, ROOT, 0, expiry, _approvals(two, FIRST, ROOT, expiry));
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.TooFewApprovals.selector, 0, 3));
        reg.propose{value: BOND}(FIRST, ROOT, 0, expiry, new EpochRegistry.Approval[](0));
    }

    function test_removedMemberRefused() public {
        // Member 4 leaves: its approval no longer counts, even for a root it signed before.
        uint64 expiry = uint64(block.timestamp + 1 days);
        EpochRegistry.Approval[] memory a = _approvals(_seats(0, 1, 4), FIRST, ROOT, expiry);
        vm.prank(owner);
        reg.setCommittee(_keys(4), 3);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.NotAMember.selector, vm.addr(MEMBER_PK0 + 4)));
        reg.propose{value: BOND}(FIRST, ROOT, 0, expiry, a);
        reg.propose{value: BOND}(FIRST, ROOT, 0, expiry, _approvals(_seats(0, 1, 3), FIRST, ROOT, expiry));
    }

    /// The old one-key signer is not a member of the committee that replaced it.
    function test_formerSignerAloneRefused() public {
        uint64 expiry = uint64(block.timestamp);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.NotAMember.selector, signer));
        reg.propose{value: BOND}(FIRST, ROOT, 0, expiry, _one(_sign(SIGNER_PK, FIRST, ROOT, 0, expiry)));
    }

    /// A non-member's signature presented under a member's name recovers to the non-member.
    function test_impersonatedMemberRefused() public {
        uint64 expiry = uint64(block.timestamp);
        EpochRegistry.Approval[] memory a = _approvals(_seats(0, 1, 2), FIRST, ROOT, expiry);
        a[2].signature = _sign(OTHER_PK, FIRST, ROOT, 0, expiry);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.InvalidSigner.selector, vm.addr(OTHER_PK)));
        reg.propose{value: BOND}(FIRST, ROOT, 0, expiry, a);
    }

    /// A member's signature for another registry, another chain or another proposer recovers to someone else.
    function test_memberSignatureForAnotherDomainRefused() public {
        uint64 expiry = uint64(block.timestamp);
        bytes32[3] memory digests = [
            _digestFor(address(this), FIRST, ROOT, 0, expiry, address(0xBEEF), block.chainid),
            _digestFor(address(this), FIRST, ROOT, 0, expiry, address(reg), block.chainid + 1),
            _digestFor(proposer, FIRST, ROOT, 0, expiry, address(reg), block.chainid)
        ];
        for (uint256 i; i < 3; ++i) {
            EpochRegistry.Approval[] memory a = _approvals(_seats(0, 1, 2), FIRST, ROOT, expiry);
            (uint8 v, bytes32 r, bytes32 s) = vm.sign(MEMBER_PK0 + 2, digests[i]);
            a[2].signature = abi.encodePacked(r, s, v);
            address wrong = ecrecover(reg.epochRootDigest(FIRST, ROOT, 0, address(this), expiry), v, r, s);
            vm.expectRevert(abi.encodeWithSelector(EpochRegistry.InvalidSigner.selector, wrong));
            reg.propose{value: BOND}(FIRST, ROOT, 0, expiry, a);
        }
    }

    /// A contract member approves through ERC-1271; a signature its owner did not make is refused.
    function test_erc1271Member() public {
        uint256 ownerPk = 0x5AFE;
        OwnerWallet wallet = new OwnerWallet(vm.addr(ownerPk));
        address[] memory m = _keys(2);
        address[] memory withWallet = new address[](3);
        (withWallet[0], withWallet[1], withWallet[2]) = (m[0], m[1], address(wallet));
        vm.prank(owner);
        reg.setCommittee(withWallet, 2);
        uint64 expiry = uint64(block.timestamp);
        EpochRegistry.Approval[] memory a = new EpochRegistry.Approval[](2);
        a[0] = EpochRegistry.Approval(address(wallet), _sign(OTHER_PK, FIRST, ROOT, 0, expiry));
        a[1] = EpochRegistry.Approval(m[1], _sign(MEMBER_PK0 + 1, FIRST, ROOT, 0, expiry));
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.InvalidSigner.selector, address(wallet)));
        reg.propose{value: BOND}(FIRST, ROOT, 0, expiry, a);
        a[0].signature = _sign(ownerPk, FIRST, ROOT, 0, expiry);
        reg.propose{value: BOND}(FIRST, ROOT, 0, expiry, a);
        assertEq(uint8(_status(FIRST)), uint8(EpochRegistry.Status.Pending));
    }

    function test_badCommitteesRefused() public {
        vm.startPrank(owner);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.BadCommittee.selector, 5, 0));
        reg.setCommittee(members, 0);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.BadCommittee.selector, 5, 6));
        reg.setCommittee(members, 6);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.BadCommittee.selector, 33, 1));
        reg.setCommittee(_keys(33), 1);
        address[] memory twice = _keys(3);
        twice[2] = twice[0];
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.RepeatedMember.selector, twice[0]));
        reg.setCommittee(twice, 2);
        vm.stopPrank();
        // The largest committee works.
        vm.prank(owner);
        reg.setCommittee(_keys(32), 32);
        uint256[] memory all = new uint256[](32);
        for (uint256 i; i < 32; ++i) {
            all[i] = 31 - i;
        }
        uint64 expiry = uint64(block.timestamp);
        reg.propose{value: BOND}(FIRST, ROOT, 0, expiry, _approvals(all, FIRST, ROOT, expiry));
    }
}

/// Gas of `propose` for an m-of-n EOA committee (C7a), each shape in its own contract so the committee is set
/// in `setUp` and read cold, as in a real transaction: `scripts/test-contracts.sh --match-contract
/// CommitteeGas --gas-report` gives min = 1-of-1, median = 3-of-5, max = 5-of-9 (`bench/results/gas.txt`).
abstract contract CommitteeGasBase is RegistryBase {
    uint256 internal constant MEMBER_PK0 = 0x1000;

    function shape() internal pure virtual returns (uint8 m, uint8 n);

    function setUp() public override {
        super.setUp();
        (uint8 m, uint8 n) = shape();
        address[] memory members = new address[](n);
        for (uint256 i; i < n; ++i) {
            members[i] = vm.addr(MEMBER_PK0 + i);
        }
        vm.prank(owner);
        reg.setCommittee(members, m);
    }

    function test_gas_propose() public {
        (uint8 m,) = shape();
        bytes32 root = keccak256("gas root");
        uint64 expiry = uint64(block.timestamp);
        EpochRegistry.Approval[] memory a = new EpochRegistry.Approval[](m);
        for (uint256 i; i < m; ++i) {
            a[i] = EpochRegistry.Approval(
                vm.addr(MEMBER_PK0 + i), _sign(MEMBER_PK0 + i, FIRST, root, keccak256("inputs"), expiry)
            );
        }
        reg.propose{value: BOND}(FIRST, root, keccak256("inputs"), expiry, a);
    }
}

contract CommitteeGas1of1Test is CommitteeGasBase {
    function shape() internal pure override returns (uint8, uint8) {
        return (1, 1);
    }
}

contract CommitteeGas3of5Test is CommitteeGasBase {
    function shape() internal pure override returns (uint8, uint8) {
        return (3, 5);
    }
}

contract CommitteeGas5of9Test is CommitteeGasBase {
    function shape() internal pure override returns (uint8, uint8) {
        return (5, 9);
    }
}

/// C2a: the scoring configuration pinned on chain, written as attacks: nobody but the owner pins, nothing pins a
/// proposed (or past) epoch, versions only go up, a later pin never rewrites an earlier epoch's configuration.
contract EpochRegistryConfigTest is RegistryBase {
    bytes32 internal constant CONFIG_A = keccak256("config a");
    bytes32 internal constant CONFIG_B = keccak256("config b");

    function test_pin_andRead() public {
        (bytes32 h, uint64 v, uint64 first) = reg.configFor(FIRST);
        assertEq(h, bytes32(0));
        vm.expectEmit(address(reg));
        emit EpochRegistry.ConfigPinned(1, CONFIG_A, FIRST);
        vm.prank(owner);
        reg.pinConfig(CONFIG_A, 1, FIRST);
        vm.prank(owner);
        reg.pinConfig(CONFIG_B, 2, FIRST + 5);
        (h, v, first) = reg.configFor(FIRST + 4);
        assertEq(abi.encode(h, v, first), abi.encode(CONFIG_A, uint64(1), FIRST));
        (h, v, first) = reg.configFor(FIRST + 5);
        assertEq(abi.encode(h, v, first), abi.encode(CONFIG_B, uint64(2), FIRST + 5));
        (h,,) = reg.configFor(FIRST - 1);
        assertEq(h, bytes32(0));
        assertEq(reg.configCount(), 2);
    }

    function test_onlyTheOwnerPins() public {
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, address(this)));
        reg.pinConfig(CONFIG_A, 1, FIRST);
        vm.prank(owner);
        vm.expectRevert(EpochRegistry.EmptyConfig.selector);
        reg.pinConfig(bytes32(0), 1, FIRST);
    }

    /// A configuration never applies to an epoch already proposed: its bundle was built under the old one.
    function test_noPinForAProposedEpoch() public {
        _propose(FIRST, keccak256("root"));
        vm.prank(owner);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.ConfigForPastEpoch.selector, FIRST, FIRST + 1));
        reg.pinConfig(CONFIG_A, 1, FIRST);
        vm.prank(owner);
        reg.pinConfig(CONFIG_A, 1, FIRST + 1);
    }

    /// Versions go up and first epochs move forward: a later pin cannot rewrite what was in force before it.
    function test_pinsOnlyMoveForward() public {
        vm.startPrank(owner);
        reg.pinConfig(CONFIG_A, 3, FIRST + 10);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.ConfigNotNewer.selector, 3, 3));
        reg.pinConfig(CONFIG_B, 3, FIRST + 20);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.ConfigForPastEpoch.selector, FIRST + 10, FIRST + 11));
        reg.pinConfig(CONFIG_B, 4, FIRST + 10);
        reg.pinConfig(CONFIG_B, 4, FIRST + 11);
        vm.stopPrank();
        (bytes32 h,,) = reg.configFor(FIRST + 10);
        assertEq(h, CONFIG_A);
    }
}
