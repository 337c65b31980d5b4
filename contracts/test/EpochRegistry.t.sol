// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test} from "forge-std/Test.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {EpochRegistry} from "../src/EpochRegistry.sol";
import {MerkleBuilder} from "./utils/MerkleBuilder.sol";
import {Approvals} from "./utils/Approvals.sol";
import {EdenLeaves} from "../src/libraries/EdenLeaves.sol";

contract Rejector {
    receive() external payable {
        revert("no");
    }

    function withdrawFrom(EpochRegistry r) external {
        r.withdraw();
    }

    function challenge(EpochRegistry r, uint64 epoch) external payable {
        r.challenge{value: msg.value}(epoch);
    }
}

abstract contract RegistryBase is Test {
    uint256 internal constant SIGNER_PK = 0xA11CE;
    uint256 internal constant OTHER_PK = 0xB0B;
    uint256 internal constant BOND = 1 ether;
    uint64 internal constant FIRST = 20_000;
    uint256 internal constant SECP256K1_N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141;

    EpochRegistry internal reg;
    address internal signer;
    address internal owner = makeAddr("owner");
    address internal adjudicator = makeAddr("adjudicator");
    address internal proposer = makeAddr("proposer");
    address internal challenger = makeAddr("challenger");

    function setUp() public virtual {
        vm.warp(1_700_000_000);
        signer = vm.addr(SIGNER_PK);
        reg = new EpochRegistry(owner, signer, adjudicator, BOND, FIRST);
        vm.deal(proposer, 100 ether);
        vm.deal(challenger, 100 ether);
    }

    /// EIP-712 digest computed independently of the contract (C6).
    function _digest(uint64 epoch, bytes32 root, bytes32 inputsRoot, uint64 expiry, address verifying, uint256 chainId)
        internal
        view
        returns (bytes32)
    {
        return _digestFor(address(this), epoch, root, inputsRoot, expiry, verifying, chainId);
    }

    function _digestFor(
        address who,
        uint64 epoch,
        bytes32 root,
        bytes32 inputsRoot,
        uint64 expiry,
        address verifying,
        uint256 chainId
    ) internal pure returns (bytes32) {
        bytes32 domain = keccak256(
            abi.encode(
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256("Eden"),
                keccak256("1"),
                chainId,
                verifying
            )
        );
        bytes32 structHash = keccak256(
            abi.encode(
                keccak256("EpochRoot(uint64 epoch,bytes32 root,bytes32 inputsRoot,address proposer,uint64 expiry)"),
                epoch,
                root,
                inputsRoot,
                who,
                expiry
            )
        );
        return keccak256(abi.encodePacked("\x19\x01", domain, structHash));
    }

    /// A signature naming this test contract as the proposer.
    function _sign(uint256 pk, uint64 epoch, bytes32 root, bytes32 inputsRoot, uint64 expiry)
        internal
        view
        returns (bytes memory)
    {
        return _signFor(address(this), pk, epoch, root, inputsRoot, expiry);
    }

    function _signFor(address who, uint256 pk, uint64 epoch, bytes32 root, bytes32 inputsRoot, uint64 expiry)
        internal
        view
        returns (bytes memory)
    {
        (uint8 v, bytes32 r, bytes32 s) =
            vm.sign(pk, _digestFor(who, epoch, root, inputsRoot, expiry, address(reg), block.chainid));
        return abi.encodePacked(r, s, v);
    }

    function _propose(uint64 epoch, bytes32 root) internal {
        uint64 expiry = uint64(block.timestamp + 1 days);
        bytes memory sig = _signFor(proposer, SIGNER_PK, epoch, root, keccak256("inputs"), expiry);
        vm.prank(proposer);
        reg.propose{value: BOND}(epoch, root, keccak256("inputs"), expiry, _one(sig));
    }

    /// The 1-of-1 committee's approval (C7a).
    function _one(bytes memory sig) internal view returns (EpochRegistry.Approval[] memory) {
        return Approvals.one(signer, sig);
    }

    function _status(uint64 epoch) internal view returns (EpochRegistry.Status st) {
        (st,) = reg.status(epoch);
    }
}

contract EpochRegistryTest is RegistryBase {
    bytes32 internal constant ROOT = keccak256("root");

    // ---------------------------------------------------------------- constructor & constants

    function test_constructor_state() public view {
        (uint32 id, address[] memory members, uint8 threshold) = reg.currentCommittee();
        assertEq(id, 0);
        assertEq(members.length, 1);
        assertEq(members[0], signer);
        assertEq(threshold, 1);
        assertEq(reg.adjudicator(), adjudicator);
        assertEq(reg.bond(), BOND);
        assertEq(reg.firstEpoch(), FIRST);
        assertEq(reg.nextEpoch(), FIRST);
        assertEq(reg.owner(), owner);
        assertEq(reg.CHALLENGE_WINDOW(), 72 hours);
        assertEq(reg.QUALITY_LEAF_TAG(), keccak256("eden.leaf.quality"));
        assertEq(reg.SYSTEMATIC_LEAF_TAG(), keccak256("eden.leaf.systematic"));
        assertEq(
            reg.EPOCH_ROOT_TYPEHASH(),
            keccak256("EpochRoot(uint64 epoch,bytes32 root,bytes32 inputsRoot,address proposer,uint64 expiry)")
        );
        assertEq(reg.treasury(), owner);
        assertEq(reg.MAX_CHALLENGES(), 2);
        assertEq(reg.ADJUDICATION_TIMEOUT(), 7 days);
    }

    function test_constructor_revertsOnZeroSigner() public {
        vm.expectRevert(EpochRegistry.ZeroAddress.selector);
        new EpochRegistry(owner, address(0), adjudicator, BOND, FIRST);
    }

    function test_constructor_revertsOnZeroAdjudicator() public {
        vm.expectRevert(EpochRegistry.ZeroAddress.selector);
        new EpochRegistry(owner, signer, address(0), BOND, FIRST);
    }

    function test_constructor_revertsOnZeroBond() public {
        vm.expectRevert(EpochRegistry.ZeroBond.selector);
        new EpochRegistry(owner, signer, adjudicator, 0, FIRST);
    }

    function test_eip712_domainAndDigestMatchSpec() public view {
        (, string memory name, string memory version, uint256 chainId, address verifying,,) = reg.eip712Domain();
        assertEq(name, "Eden");
        assertEq(version, "1");
        assertEq(chainId, block.chainid);
        assertEq(verifying, address(reg));
        assertEq(
            reg.epochRootDigest(7, ROOT, bytes32(uint256(9)), address(this), 11),
            _digest(7, ROOT, bytes32(uint256(9)), 11, address(reg), block.chainid)
        );
    }

    // ---------------------------------------------------------------- propose

    function test_propose_acceptsAndEmits() public {
        uint64 expiry = uint64(block.timestamp + 1 hours);
        bytes memory sig = _signFor(proposer, SIGNER_PK, FIRST, ROOT, keccak256("in"), expiry);
        uint64 deadline = uint64(block.timestamp) + 72 hours;
        vm.expectEmit(address(reg));
        emit EpochRegistry.RootProposed(FIRST, ROOT, keccak256("in"), expiry, proposer, deadline);
        vm.prank(proposer);
        reg.propose{value: BOND}(FIRST, ROOT, keccak256("in"), expiry, _one(sig));
        (EpochRegistry.Status st, uint64 d) = reg.status(FIRST);
        assertEq(uint8(st), uint8(EpochRegistry.Status.Pending));
        assertEq(d, deadline);
        assertEq(reg.nextEpoch(), FIRST + 1);
        assertEq(address(reg).balance, BOND);
    }

    function test_propose_acceptsAtExactExpiry() public {
        uint64 expiry = uint64(block.timestamp);
        bytes memory sig = _sign(SIGNER_PK, FIRST, ROOT, 0, expiry);
        reg.propose{value: BOND}(FIRST, ROOT, 0, expiry, _one(sig));
        assertEq(uint8(_status(FIRST)), uint8(EpochRegistry.Status.Pending));
    }

    function test_propose_consecutiveEpochsWhilePending() public {
        _propose(FIRST, ROOT);
        _propose(FIRST + 1, keccak256("r2"));
        _propose(FIRST + 2, keccak256("r3"));
        assertEq(reg.nextEpoch(), FIRST + 3);
    }

    function test_propose_revertsOnEmptyRoot() public {
        bytes memory sig = _sign(SIGNER_PK, FIRST, 0, 0, uint64(block.timestamp));
        vm.expectRevert(EpochRegistry.EmptyRoot.selector);
        reg.propose{value: BOND}(FIRST, 0, 0, uint64(block.timestamp), _one(sig));
    }

    function test_propose_revertsOnSkippedEpoch() public {
        bytes memory sig = _sign(SIGNER_PK, FIRST + 1, ROOT, 0, uint64(block.timestamp));
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.WrongEpoch.selector, FIRST + 1, FIRST));
        reg.propose{value: BOND}(FIRST + 1, ROOT, 0, uint64(block.timestamp), _one(sig));
    }

    function test_propose_revertsOnEpochBeforeFirst() public {
        bytes memory sig = _sign(SIGNER_PK, FIRST - 1, ROOT, 0, uint64(block.timestamp));
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.WrongEpoch.selector, FIRST - 1, FIRST));
        reg.propose{value: BOND}(FIRST - 1, ROOT, 0, uint64(block.timestamp), _one(sig));
    }

    function test_propose_revertsOnReplayOfPendingEpoch() public {
        uint64 expiry = uint64(block.timestamp + 1 days);
        bytes memory sig = _sign(SIGNER_PK, FIRST, ROOT, 0, expiry);
        reg.propose{value: BOND}(FIRST, ROOT, 0, expiry, _one(sig));
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.WrongEpoch.selector, FIRST, FIRST + 1));
        reg.propose{value: BOND}(FIRST, ROOT, 0, expiry, _one(sig));
    }

    function test_propose_revertsOnFinalEpoch() public {
        _propose(FIRST, ROOT);
        vm.warp(block.timestamp + 72 hours);
        reg.finalize(FIRST);
        bytes memory sig = _sign(SIGNER_PK, FIRST, keccak256("x"), 0, uint64(block.timestamp));
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.WrongEpoch.selector, FIRST, FIRST + 1));
        reg.propose{value: BOND}(FIRST, keccak256("x"), 0, uint64(block.timestamp), _one(sig));
    }

    function test_propose_revertsOnExpired() public {
        uint64 expiry = uint64(block.timestamp - 1);
        bytes memory sig = _sign(SIGNER_PK, FIRST, ROOT, 0, expiry);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.SignatureExpired.selector, expiry, block.timestamp));
        reg.propose{value: BOND}(FIRST, ROOT, 0, expiry, _one(sig));
    }

    function test_propose_revertsOnLowBond() public {
        bytes memory sig = _sign(SIGNER_PK, FIRST, ROOT, 0, uint64(block.timestamp));
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.WrongBond.selector, BOND - 1, BOND));
        reg.propose{value: BOND - 1}(FIRST, ROOT, 0, uint64(block.timestamp), _one(sig));
    }

    function test_propose_revertsOnHighBond() public {
        bytes memory sig = _sign(SIGNER_PK, FIRST, ROOT, 0, uint64(block.timestamp));
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.WrongBond.selector, BOND + 1, BOND));
        reg.propose{value: BOND + 1}(FIRST, ROOT, 0, uint64(block.timestamp), _one(sig));
    }

    function test_propose_revertsOnWrongSigner() public {
        bytes memory sig = _sign(OTHER_PK, FIRST, ROOT, 0, uint64(block.timestamp));
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.InvalidSigner.selector, vm.addr(OTHER_PK)));
        reg.propose{value: BOND}(FIRST, ROOT, 0, uint64(block.timestamp), _one(sig));
    }

    function test_propose_revertsOnTamperedFields() public {
        uint64 expiry = uint64(block.timestamp + 10);
        bytes memory sig = _sign(SIGNER_PK, FIRST, ROOT, keccak256("in"), expiry);
        // each tampered field recovers some other address
        vm.expectRevert();
        reg.propose{value: BOND}(FIRST, keccak256("other"), keccak256("in"), expiry, _one(sig));
        vm.expectRevert();
        reg.propose{value: BOND}(FIRST, ROOT, keccak256("other"), expiry, _one(sig));
        vm.expectRevert();
        reg.propose{value: BOND}(FIRST, ROOT, keccak256("in"), expiry + 1, _one(sig));
        reg.propose{value: BOND}(FIRST, ROOT, keccak256("in"), expiry, _one(sig));
    }

    function test_propose_revertsOnOtherChainId() public {
        (uint8 v, bytes32 r, bytes32 s) =
            vm.sign(SIGNER_PK, _digest(FIRST, ROOT, 0, uint64(block.timestamp), address(reg), block.chainid + 1));
        vm.expectRevert();
        reg.propose{value: BOND}(FIRST, ROOT, 0, uint64(block.timestamp), _one(abi.encodePacked(r, s, v)));
    }

    function test_propose_revertsOnOtherVerifyingContract() public {
        (uint8 v, bytes32 r, bytes32 s) =
            vm.sign(SIGNER_PK, _digest(FIRST, ROOT, 0, uint64(block.timestamp), address(0xdead), block.chainid));
        vm.expectRevert();
        reg.propose{value: BOND}(FIRST, ROOT, 0, uint64(block.timestamp), _one(abi.encodePacked(r, s, v)));
    }

    function test_propose_revertsOnHighS() public {
        uint64 expiry = uint64(block.timestamp);
        (uint8 v, bytes32 r, bytes32 s) =
            vm.sign(SIGNER_PK, _digest(FIRST, ROOT, 0, expiry, address(reg), block.chainid));
        bytes32 highS = bytes32(SECP256K1_N - uint256(s));
        uint8 flippedV = v == 27 ? 28 : 27;
        // the malleable twin recovers the same key natively, but OZ ECDSA rejects it
        assertEq(ecrecover(reg.epochRootDigest(FIRST, ROOT, 0, address(this), expiry), flippedV, r, highS), signer);
        vm.expectRevert(abi.encodeWithSelector(ECDSA.ECDSAInvalidSignatureS.selector, highS));
        reg.propose{value: BOND}(FIRST, ROOT, 0, expiry, _one(abi.encodePacked(r, highS, flippedV)));
    }

    function test_propose_revertsOnVZeroOrOne() public {
        uint64 expiry = uint64(block.timestamp);
        (uint8 v, bytes32 r, bytes32 s) =
            vm.sign(SIGNER_PK, _digest(FIRST, ROOT, 0, expiry, address(reg), block.chainid));
        vm.expectRevert(ECDSA.ECDSAInvalidSignature.selector);
        reg.propose{value: BOND}(FIRST, ROOT, 0, expiry, _one(abi.encodePacked(r, s, v - 27)));
        vm.expectRevert(ECDSA.ECDSAInvalidSignature.selector);
        reg.propose{value: BOND}(FIRST, ROOT, 0, expiry, _one(abi.encodePacked(r, s, uint8(29))));
    }

    function test_propose_revertsOnShortSignature() public {
        uint64 expiry = uint64(block.timestamp);
        (uint8 v, bytes32 r, bytes32 s) =
            vm.sign(SIGNER_PK, _digest(FIRST, ROOT, 0, expiry, address(reg), block.chainid));
        bytes32 vs = bytes32(uint256(s) | (uint256(v - 27) << 255));
        vm.expectRevert(abi.encodeWithSelector(ECDSA.ECDSAInvalidSignatureLength.selector, 64));
        reg.propose{value: BOND}(FIRST, ROOT, 0, expiry, _one(abi.encodePacked(r, vs))); // ERC-2098 form rejected
    }

    // ---------------------------------------------------------------- challenge

    function test_challenge_emitsAndEscrows() public {
        _propose(FIRST, ROOT);
        vm.expectEmit(address(reg));
        emit EpochRegistry.RootChallenged(FIRST, ROOT, challenger);
        vm.prank(challenger);
        reg.challenge{value: BOND}(FIRST);
        (EpochRegistry.Status st, uint64 d) = reg.status(FIRST);
        assertEq(uint8(st), uint8(EpochRegistry.Status.Challenged));
        assertEq(d, uint64(block.timestamp) + 72 hours);
        assertEq(address(reg).balance, 2 * BOND);
    }

    function test_challenge_lastSecondOfWindow() public {
        _propose(FIRST, ROOT);
        vm.warp(block.timestamp + 72 hours - 1);
        vm.prank(challenger);
        reg.challenge{value: BOND}(FIRST);
    }

    function test_challenge_revertsAtDeadline() public {
        _propose(FIRST, ROOT);
        uint64 deadline = uint64(block.timestamp + 72 hours);
        vm.warp(deadline);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.WindowClosed.selector, FIRST, deadline));
        vm.prank(challenger);
        reg.challenge{value: BOND}(FIRST);
    }

    function test_challenge_revertsOnWrongBond() public {
        _propose(FIRST, ROOT);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.WrongBond.selector, BOND / 2, BOND));
        vm.prank(challenger);
        reg.challenge{value: BOND / 2}(FIRST);
    }

    function test_challenge_revertsWhenNone() public {
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.NotPending.selector, FIRST, EpochRegistry.Status.None));
        reg.challenge{value: BOND}(FIRST);
    }

    function test_challenge_revertsWhenChallenged() public {
        _propose(FIRST, ROOT);
        vm.prank(challenger);
        reg.challenge{value: BOND}(FIRST);
        vm.expectRevert(
            abi.encodeWithSelector(EpochRegistry.NotPending.selector, FIRST, EpochRegistry.Status.Challenged)
        );
        reg.challenge{value: BOND}(FIRST);
    }

    function test_challenge_revertsWhenFinal() public {
        _propose(FIRST, ROOT);
        vm.warp(block.timestamp + 72 hours);
        reg.finalize(FIRST);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.NotPending.selector, FIRST, EpochRegistry.Status.Final));
        reg.challenge{value: BOND}(FIRST);
    }

    // ---------------------------------------------------------------- resolve

    function test_resolve_upheld_paysChallengerAndReopens() public {
        _propose(FIRST, ROOT);
        _propose(FIRST + 1, keccak256("r2"));
        vm.prank(challenger);
        reg.challenge{value: BOND}(FIRST);
        vm.expectEmit(address(reg));
        emit EpochRegistry.BondCredited(challenger, 2 * BOND);
        vm.expectEmit(address(reg));
        emit EpochRegistry.ChallengeUpheld(FIRST, ROOT, challenger);
        vm.prank(adjudicator);
        reg.resolve(FIRST, true);
        (EpochRegistry.Status st, uint64 d) = reg.status(FIRST);
        assertEq(uint8(st), uint8(EpochRegistry.Status.None));
        assertEq(d, 0);
        assertEq(reg.credit(challenger), 2 * BOND);
        assertTrue(reg.struck(keccak256(abi.encode(FIRST, ROOT))));
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.NotFinal.selector, FIRST, EpochRegistry.Status.None));
        reg.finalRoot(FIRST);

        // the struck root can never come back, even with a fresh signature
        uint64 expiry = uint64(block.timestamp + 1);
        bytes memory again = _sign(SIGNER_PK, FIRST, ROOT, keccak256("inputs"), expiry);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.RootStruck.selector, FIRST, ROOT));
        reg.propose{value: BOND}(FIRST, ROOT, keccak256("inputs"), expiry, _one(again));

        // a corrected root for the reopened slot is accepted although FIRST + 1 is already in flight
        _propose(FIRST, keccak256("corrected"));
        assertEq(reg.nextEpoch(), FIRST + 2);
        vm.warp(block.timestamp + 72 hours);
        reg.finalize(FIRST);
        assertEq(reg.finalRoot(FIRST), keccak256("corrected"));

        uint256 before = challenger.balance;
        vm.prank(challenger);
        reg.withdraw();
        assertEq(challenger.balance, before + 2 * BOND);
    }

    function test_resolve_rejected_forfeitsToTreasuryAndRestartsWindow() public {
        _propose(FIRST, ROOT);
        vm.warp(block.timestamp + 70 hours);
        vm.prank(challenger);
        reg.challenge{value: BOND}(FIRST);
        vm.warp(block.timestamp + 5 hours); // past the original deadline
        uint64 fresh = uint64(block.timestamp) + 72 hours;
        vm.expectEmit(address(reg));
        emit EpochRegistry.BondCredited(owner, BOND);
        vm.expectEmit(address(reg));
        emit EpochRegistry.ChallengeRejected(FIRST, ROOT, challenger, fresh);
        vm.prank(adjudicator);
        reg.resolve(FIRST, false);
        (EpochRegistry.Status st, uint64 d) = reg.status(FIRST);
        assertEq(uint8(st), uint8(EpochRegistry.Status.Pending));
        assertEq(d, fresh);
        assertEq(reg.credit(proposer), 0);
        assertEq(reg.credit(owner), BOND); // the treasury, never the proposer
        assertEq(reg.credit(challenger), 0);

        // the fresh window is a real window: not finalizable early, challengeable again
        vm.warp(fresh - 1);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.WindowOpen.selector, FIRST, fresh));
        reg.finalize(FIRST);
        vm.prank(challenger);
        reg.challenge{value: BOND}(FIRST);
        vm.prank(adjudicator);
        reg.resolve(FIRST, false);
        vm.warp(block.timestamp + 72 hours);
        reg.finalize(FIRST);
        assertEq(reg.finalRoot(FIRST), ROOT);
        assertEq(reg.credit(proposer), BOND); // its own bond back only
        assertEq(reg.credit(owner), 2 * BOND); // both rejected bonds forfeited to the treasury
        assertEq(address(reg).balance, 3 * BOND);
    }

    function test_resolve_revertsForNonAdjudicator() public {
        _propose(FIRST, ROOT);
        vm.prank(challenger);
        reg.challenge{value: BOND}(FIRST);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.NotAdjudicator.selector, owner));
        vm.prank(owner);
        reg.resolve(FIRST, true);
    }

    function test_resolve_revertsWhenNotChallenged() public {
        vm.startPrank(adjudicator);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.NotChallenged.selector, FIRST, EpochRegistry.Status.None));
        reg.resolve(FIRST, true);
        vm.stopPrank();
        _propose(FIRST, ROOT);
        vm.prank(adjudicator);
        vm.expectRevert(
            abi.encodeWithSelector(EpochRegistry.NotChallenged.selector, FIRST, EpochRegistry.Status.Pending)
        );
        reg.resolve(FIRST, false);
    }

    // ---------------------------------------------------------------- finalize & reads

    function test_finalize_atDeadline() public {
        _propose(FIRST, ROOT);
        vm.warp(block.timestamp + 72 hours);
        vm.expectEmit(address(reg));
        emit EpochRegistry.RootFinalized(FIRST, ROOT, keccak256("inputs"));
        reg.finalize(FIRST);
        (EpochRegistry.Status st, uint64 d) = reg.status(FIRST);
        assertEq(uint8(st), uint8(EpochRegistry.Status.Final));
        assertEq(d, block.timestamp);
        assertEq(reg.finalRoot(FIRST), ROOT);
        assertEq(reg.finalInputsRoot(FIRST), keccak256("inputs"));
        assertEq(reg.credit(proposer), BOND);
    }

    function test_finalize_revertsBeforeDeadline() public {
        _propose(FIRST, ROOT);
        uint64 deadline = uint64(block.timestamp + 72 hours);
        vm.warp(deadline - 1);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.WindowOpen.selector, FIRST, deadline));
        reg.finalize(FIRST);
    }

    function test_finalize_revertsWhenNoneChallengedOrFinal() public {
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.NotPending.selector, FIRST, EpochRegistry.Status.None));
        reg.finalize(FIRST);
        _propose(FIRST, ROOT);
        vm.prank(challenger);
        reg.challenge{value: BOND}(FIRST);
        vm.warp(block.timestamp + 100 hours);
        vm.expectRevert(
            abi.encodeWithSelector(EpochRegistry.NotPending.selector, FIRST, EpochRegistry.Status.Challenged)
        );
        reg.finalize(FIRST);
        vm.prank(adjudicator);
        reg.resolve(FIRST, false);
        vm.warp(block.timestamp + 72 hours);
        reg.finalize(FIRST);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.NotPending.selector, FIRST, EpochRegistry.Status.Final));
        reg.finalize(FIRST);
    }

    function test_reads_revertUnlessFinal() public {
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.NotFinal.selector, FIRST, EpochRegistry.Status.None));
        reg.finalRoot(FIRST);
        _propose(FIRST, ROOT);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.NotFinal.selector, FIRST, EpochRegistry.Status.Pending));
        reg.finalRoot(FIRST);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.NotFinal.selector, FIRST, EpochRegistry.Status.Pending));
        reg.finalInputsRoot(FIRST);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.NotFinal.selector, FIRST, EpochRegistry.Status.Pending));
        reg.verifyScore(FIRST, address(1), 1, new bytes32[](0));
        vm.prank(challenger);
        reg.challenge{value: BOND}(FIRST);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.NotFinal.selector, FIRST, EpochRegistry.Status.Challenged));
        reg.finalRoot(FIRST);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.NotFinal.selector, FIRST, EpochRegistry.Status.Challenged));
        reg.verifySystematic(FIRST, address(1), 1, new bytes32[](0));
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.NotFinal.selector, FIRST, EpochRegistry.Status.Challenged));
        reg.verifyLeaf(FIRST, 0, new bytes32[](0));
    }

    // ---------------------------------------------------------------- withdraw

    function test_withdraw_paysAndEmits() public {
        _propose(FIRST, ROOT);
        vm.warp(block.timestamp + 72 hours);
        reg.finalize(FIRST);
        uint256 before = proposer.balance;
        vm.expectEmit(address(reg));
        emit EpochRegistry.Withdrawn(proposer, BOND);
        vm.prank(proposer);
        reg.withdraw();
        assertEq(proposer.balance, before + BOND);
        assertEq(reg.credit(proposer), 0);
        assertEq(address(reg).balance, 0);
    }

    function test_withdraw_revertsWhenNothingOwed() public {
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.NothingToWithdraw.selector, proposer));
        vm.prank(proposer);
        reg.withdraw();
    }

    function test_withdraw_revertsWhenRecipientRejects_andCreditSurvives() public {
        Rejector rj = new Rejector();
        vm.deal(address(rj), 0);
        _propose(FIRST, ROOT);
        rj.challenge{value: BOND}(reg, FIRST);
        vm.prank(adjudicator);
        reg.resolve(FIRST, true); // a rejecting challenger cannot block the ruling
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.TransferFailed.selector, address(rj), 2 * BOND));
        rj.withdrawFrom(reg);
        assertEq(reg.credit(address(rj)), 2 * BOND);
    }

    // ---------------------------------------------------------------- admin

    function test_setCommittee_rotatesAndRestricts() public {
        address next = vm.addr(OTHER_PK);
        address[] memory one = new address[](1);
        one[0] = next;
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, address(this)));
        reg.setCommittee(one, 1);
        address[] memory zero = new address[](1);
        vm.prank(owner);
        vm.expectRevert(EpochRegistry.ZeroAddress.selector);
        reg.setCommittee(zero, 1);
        vm.expectEmit(address(reg));
        emit EpochRegistry.CommitteeChanged(1, one, 1);
        vm.prank(owner);
        reg.setCommittee(one, 1);
        bytes memory oldSig = _sign(SIGNER_PK, FIRST, ROOT, 0, uint64(block.timestamp));
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.NotAMember.selector, signer));
        reg.propose{value: BOND}(FIRST, ROOT, 0, uint64(block.timestamp), _one(oldSig));
        reg.propose{value: BOND}(
            FIRST,
            ROOT,
            0,
            uint64(block.timestamp),
            Approvals.one(next, _sign(OTHER_PK, FIRST, ROOT, 0, uint64(block.timestamp)))
        );
    }

    function test_setAdjudicator_rotatesAndRestricts() public {
        address next = makeAddr("adj2");
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, address(this)));
        reg.setAdjudicator(next);
        vm.prank(owner);
        vm.expectRevert(EpochRegistry.ZeroAddress.selector);
        reg.setAdjudicator(address(0));
        vm.expectEmit(address(reg));
        emit EpochRegistry.AdjudicatorChanged(adjudicator, next);
        vm.prank(owner);
        reg.setAdjudicator(next);
        _propose(FIRST, ROOT);
        vm.prank(challenger);
        reg.challenge{value: BOND}(FIRST);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.NotAdjudicator.selector, adjudicator));
        vm.prank(adjudicator);
        reg.resolve(FIRST, true);
        vm.prank(next);
        reg.resolve(FIRST, true);
    }

    // ---------------------------------------------------------------- leaves & verification (C5)

    function test_verify_referenceTreeFromOpenZeppelinJs() public {
        string memory json = vm.readFile("test/fixtures/epoch-tree.json");
        bytes32 root = vm.parseJsonBytes32(json, ".root");
        assertEq(vm.parseJsonBytes32(json, ".tq"), reg.QUALITY_LEAF_TAG());
        assertEq(vm.parseJsonBytes32(json, ".ts"), reg.SYSTEMATIC_LEAF_TAG());
        _propose(FIRST, root);
        vm.warp(block.timestamp + 72 hours);
        reg.finalize(FIRST);

        for (uint256 i; i < 5; ++i) {
            string memory p = string.concat(".score[", vm.toString(i), "]");
            address project = vm.parseJsonAddress(json, string.concat(p, ".project"));
            uint256 scoreWad = vm.parseJsonUint(json, string.concat(p, ".scoreWad"));
            bytes32[] memory proof = vm.parseJsonBytes32Array(json, string.concat(p, ".proof"));
            assertEq(reg.scoreLeaf(project, scoreWad), vm.parseJsonBytes32(json, string.concat(p, ".leaf")));
            assertTrue(reg.verifyScore(FIRST, project, scoreWad, proof));
            assertFalse(reg.verifyScore(FIRST, project, scoreWad + 1, proof));
            assertFalse(reg.verifySystematic(FIRST, project, scoreWad, proof)); // domain tags separate kinds
        }
        for (uint256 i; i < 3; ++i) {
            string memory p = string.concat(".quality[", vm.toString(i), "]");
            EdenLeaves.Grade memory g = EdenLeaves.Grade({
                scorerRegistry: vm.parseJsonAddress(json, string.concat(p, ".scorerRegistry")),
                scoreId: vm.parseJsonUint(json, string.concat(p, ".scoreId")),
                scorer: vm.parseJsonAddress(json, string.concat(p, ".scorer")),
                project: vm.parseJsonAddress(json, string.concat(p, ".project")),
                thesisHash: vm.parseJsonBytes32(json, string.concat(p, ".thesisHash")),
                qualityWad: vm.parseJsonUint(json, string.concat(p, ".qualityWad")),
                verdict: uint8(vm.parseJsonUint(json, string.concat(p, ".verdict"))),
                matchedThesis: vm.parseJsonBytes32(json, string.concat(p, ".matchedThesis"))
            });
            bytes32[] memory proof = vm.parseJsonBytes32Array(json, string.concat(p, ".proof"));
            assertEq(reg.qualityLeaf(g), vm.parseJsonBytes32(json, string.concat(p, ".leaf")));
            assertTrue(reg.verifyQuality(FIRST, g, proof));
            g.verdict += 1;
            assertFalse(reg.verifyQuality(FIRST, g, proof));
            g.verdict -= 1;
            // The grade is bound to its score: another id, scorer, token or registry is not in the root.
            g.scoreId += 1;
            assertFalse(reg.verifyQuality(FIRST, g, proof));
            g.scoreId -= 1;
            g.scorer = address(0xbad);
            assertFalse(reg.verifyQuality(FIRST, g, proof));
        }
        for (uint256 i; i < 2; ++i) {
            string memory p = string.concat(".systematic[", vm.toString(i), "]");
            address project = vm.parseJsonAddress(json, string.concat(p, ".project"));
            uint256 scoreWad = vm.parseJsonUint(json, string.concat(p, ".scoreWad"));
            bytes32[] memory proof = vm.parseJsonBytes32Array(json, string.concat(p, ".proof"));
            assertEq(reg.systematicLeaf(project, scoreWad), vm.parseJsonBytes32(json, string.concat(p, ".leaf")));
            assertTrue(reg.verifySystematic(FIRST, project, scoreWad, proof));
            assertFalse(reg.verifyScore(FIRST, project, scoreWad, proof));
        }
    }

    function test_leaves_areDoubleHashedAbiEncodings() public view {
        assertEq(reg.scoreLeaf(address(7), 9), keccak256(bytes.concat(keccak256(abi.encode(address(7), uint256(9))))));
        assertEq(
            reg.systematicLeaf(address(7), 9),
            keccak256(bytes.concat(keccak256(abi.encode(keccak256("eden.leaf.systematic"), address(7), uint256(9)))))
        );
        assertEq(
            reg.qualityLeaf(
                EdenLeaves.Grade(address(5), 6, address(7), address(8), bytes32(uint256(1)), 2, 3, bytes32(uint256(4)))
            ),
            keccak256(
                bytes.concat(
                    keccak256(
                        abi.encode(
                            keccak256("eden.leaf.quality"),
                            address(5),
                            uint256(6),
                            address(7),
                            address(8),
                            bytes32(uint256(1)),
                            uint256(2),
                            uint8(3),
                            bytes32(uint256(4))
                        )
                    )
                )
            )
        );
    }

    // ---------------------------------------------------------------- fuzz

    function testFuzz_verifyScore_anyTree(uint256 seed, uint8 n, uint8 pick) public {
        uint256 count = bound(n, 1, 40);
        bytes32[] memory leaves = new bytes32[](count);
        for (uint256 i; i < count; ++i) {
            leaves[i] = reg.scoreLeaf(
                address(uint160(uint256(keccak256(abi.encode(seed, i))))), uint256(keccak256(abi.encode(i, seed)))
            );
        }
        uint256 k = bound(pick, 0, count - 1);
        _propose(FIRST, MerkleBuilder.root(leaves));
        vm.warp(block.timestamp + 72 hours);
        reg.finalize(FIRST);
        bytes32[] memory proof = MerkleBuilder.proof(leaves, k);
        address project = address(uint160(uint256(keccak256(abi.encode(seed, k)))));
        uint256 score = uint256(keccak256(abi.encode(k, seed)));
        assertTrue(reg.verifyScore(FIRST, project, score, proof));
        assertFalse(reg.verifyScore(FIRST, project, score ^ 1, proof));
        assertFalse(reg.verifySystematic(FIRST, project, score, proof));
    }

    function testFuzz_propose_onlyAuthorisedSignerAccepted(uint256 pk) public {
        pk = bound(pk, 1, SECP256K1_N - 1);
        uint64 expiry = uint64(block.timestamp);
        bytes memory sig = _sign(pk, FIRST, ROOT, 0, expiry);
        if (vm.addr(pk) != signer) {
            vm.expectRevert(abi.encodeWithSelector(EpochRegistry.InvalidSigner.selector, vm.addr(pk)));
        }
        reg.propose{value: BOND}(FIRST, ROOT, 0, expiry, _one(sig));
    }

    function testFuzz_propose_onlyNextEpoch(uint64 epoch) public {
        uint64 expiry = uint64(block.timestamp);
        bytes memory sig = _sign(SIGNER_PK, epoch, ROOT, 0, expiry);
        if (epoch != FIRST) vm.expectRevert(abi.encodeWithSelector(EpochRegistry.WrongEpoch.selector, epoch, FIRST));
        reg.propose{value: BOND}(epoch, ROOT, 0, expiry, _one(sig));
    }

    function testFuzz_propose_expiry(uint64 expiry, uint32 wait) public {
        expiry = uint64(bound(expiry, block.timestamp - 1000, block.timestamp + 1000));
        bytes memory sig = _sign(SIGNER_PK, FIRST, ROOT, 0, expiry);
        vm.warp(block.timestamp + bound(wait, 0, 2000));
        if (block.timestamp > expiry) {
            vm.expectRevert(abi.encodeWithSelector(EpochRegistry.SignatureExpired.selector, expiry, block.timestamp));
        }
        reg.propose{value: BOND}(FIRST, ROOT, 0, expiry, _one(sig));
    }

    function testFuzz_windowTiming(uint32 dt) public {
        _propose(FIRST, ROOT);
        uint256 deadline = block.timestamp + 72 hours;
        vm.warp(block.timestamp + bound(dt, 0, 200 hours));
        if (block.timestamp < deadline) {
            vm.expectRevert(abi.encodeWithSelector(EpochRegistry.WindowOpen.selector, FIRST, uint64(deadline)));
            reg.finalize(FIRST);
            vm.prank(challenger);
            reg.challenge{value: BOND}(FIRST);
        } else {
            vm.prank(challenger);
            vm.expectRevert(abi.encodeWithSelector(EpochRegistry.WindowClosed.selector, FIRST, uint64(deadline)));
            reg.challenge{value: BOND}(FIRST);
            reg.finalize(FIRST);
            assertEq(reg.finalRoot(FIRST), ROOT);
        }
    }

    // ---------------------------------------------------------------- review findings 3 and 6 (attacks)

    /// Finding 3: whoever copied the signer's signature from the mempool or a publication became the proposer. The
    /// signature now names the proposer: a copy made by anyone else recovers another address.
    function test_review3_aCopiedSignatureCannotMakeAnotherProposer() public {
        uint64 expiry = uint64(block.timestamp + 1 hours);
        bytes memory sig = _signFor(proposer, SIGNER_PK, FIRST, ROOT, keccak256("in"), expiry);
        address thief = makeAddr("thief");
        vm.deal(thief, 10 ether);
        vm.prank(thief);
        vm.expectRevert(); // InvalidSigner(some other address)
        reg.propose{value: BOND}(FIRST, ROOT, keccak256("in"), expiry, _one(sig));
        vm.prank(proposer);
        reg.propose{value: BOND}(FIRST, ROOT, keccak256("in"), expiry, _one(sig));
        assertEq(uint8(_status(FIRST)), uint8(EpochRegistry.Status.Pending));
    }

    /// Finding 3: the proposer challenged its own correct root from a second account, was rejected, got the bond
    /// back and repeated (10 cycles, 30 days, net cost zero). Now each rejected challenge forfeits its bond to the
    /// treasury, at most MAX_CHALLENGES challenges are possible, and the root is final in bounded time.
    function test_review3_selfChallengesCostTheirBondAndFinalityIsBounded() public {
        address sock = makeAddr("sock puppet");
        vm.deal(sock, 100 ether);
        uint256 start = block.timestamp;
        uint256 spent = proposer.balance + sock.balance;
        _propose(FIRST, ROOT);
        for (uint256 i; i < reg.MAX_CHALLENGES(); ++i) {
            vm.warp(block.timestamp + 71 hours);
            vm.prank(sock);
            reg.challenge{value: BOND}(FIRST);
            vm.warp(block.timestamp + 1 days);
            vm.prank(adjudicator);
            reg.resolve(FIRST, false);
        }
        vm.warp(block.timestamp + 71 hours);
        vm.prank(sock);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.ChallengeLimit.selector, FIRST, reg.MAX_CHALLENGES()));
        reg.challenge{value: BOND}(FIRST);
        vm.warp(block.timestamp + 1 hours);
        reg.finalize(FIRST);
        assertEq(reg.finalRoot(FIRST), ROOT);
        // Bounded: window + MAX_CHALLENGES * (adjudication timeout + window).
        uint256 bound = 72 hours + uint256(reg.MAX_CHALLENGES()) * (7 days + 72 hours);
        assertLe(block.timestamp - start, bound);
        vm.prank(proposer);
        reg.withdraw();
        vm.prank(sock);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.NothingToWithdraw.selector, sock));
        reg.withdraw();
        // The pair lost both challenge bonds; the treasury holds them.
        assertEq(spent - (proposer.balance + sock.balance), 2 * BOND);
        assertEq(reg.credit(owner), 2 * BOND);
    }

    /// Finding 6: an absent adjudicator left an epoch challenged and both bonds locked forever. After
    /// ADJUDICATION_TIMEOUT the challenge lapses: the challenger's bond returns and the proposal is pending again with a
    /// fresh window and its challenge count kept (second review, item 3); the root is not struck.
    function test_review6_aChallengeLapsesWhenTheAdjudicatorIsAbsent() public {
        _propose(FIRST, ROOT);
        vm.prank(challenger);
        reg.challenge{value: BOND}(FIRST);
        uint64 until = uint64(block.timestamp) + 7 days;
        vm.warp(until - 1);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.AdjudicationOpen.selector, FIRST, until));
        reg.lapse(FIRST);
        vm.warp(until);
        vm.expectEmit(address(reg));
        emit EpochRegistry.ChallengeLapsed(FIRST, ROOT, challenger);
        reg.lapse(FIRST); // anyone
        assertEq(uint8(_status(FIRST)), uint8(EpochRegistry.Status.Pending));
        assertEq(reg.credit(proposer), 0); // escrowed until finalization
        assertEq(reg.credit(challenger), BOND);
        assertFalse(reg.struck(keccak256(abi.encode(FIRST, ROOT))));
        assertEq(reg.challengeCount(FIRST), 1);
        // The adjudicator can no longer rule on it; the proposal finalizes after its fresh window.
        vm.prank(adjudicator);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.NotChallenged.selector, FIRST, EpochRegistry.Status.Pending));
        reg.resolve(FIRST, true);
        vm.warp(until + 72 hours);
        reg.finalize(FIRST);
        assertEq(reg.finalRoot(FIRST), ROOT);
        assertEq(reg.credit(proposer), BOND);
    }

    /// Second review, item 3: a lapse deleted the slot, so re-proposing the same root restarted the count at zero and
    /// one challenger, waiting out an absent adjudicator, kept any root from finality for free (5 cycles, 35 days).
    /// Now the count survives the lapse: after `MAX_CHALLENGES` the root is final within 23 days of its proposal.
    function test_secondReview3_lapsesCannotDelayFinalityPastTheBound() public {
        uint64 proposed = uint64(block.timestamp);
        _propose(FIRST, ROOT);
        for (uint256 i; i < reg.MAX_CHALLENGES(); ++i) {
            vm.prank(challenger);
            reg.challenge{value: BOND}(FIRST);
            vm.warp(block.timestamp + reg.ADJUDICATION_TIMEOUT());
            reg.lapse(FIRST);
            // The slot was never reopened: nobody can re-propose to restart the count.
            assertEq(uint8(_status(FIRST)), uint8(EpochRegistry.Status.Pending));
        }
        vm.prank(challenger);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.ChallengeLimit.selector, FIRST, reg.MAX_CHALLENGES()));
        reg.challenge{value: BOND}(FIRST);
        (, uint64 deadline) = reg.status(FIRST);
        uint64 bound = proposed + reg.CHALLENGE_WINDOW()
            + reg.MAX_CHALLENGES() * (reg.ADJUDICATION_TIMEOUT() + reg.CHALLENGE_WINDOW());
        assertLe(deadline, bound);
        assertEq(bound - proposed, 23 days);
        vm.warp(deadline);
        reg.finalize(FIRST);
        assertEq(reg.finalRoot(FIRST), ROOT);
        // The challenger paid nothing for the lapses (the adjudicator's silence is not its fault).
        assertEq(reg.credit(challenger), uint256(reg.MAX_CHALLENGES()) * BOND);
    }

    /// Finding 9 (part): the adjudicator is never the signer, at construction or after a rotation.
    function test_review9_adjudicatorIsNeverTheSigner() public {
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.AdjudicatorIsSigner.selector, signer));
        new EpochRegistry(owner, signer, signer, BOND, FIRST);
        vm.prank(owner);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.AdjudicatorIsSigner.selector, signer));
        reg.setAdjudicator(signer);
        address[] memory withAdjudicator = new address[](2);
        withAdjudicator[0] = signer;
        withAdjudicator[1] = adjudicator;
        vm.prank(owner);
        vm.expectRevert(abi.encodeWithSelector(EpochRegistry.AdjudicatorIsSigner.selector, adjudicator));
        reg.setCommittee(withAdjudicator, 1);
    }

    /// The latest final epoch is the highest one finalized, whatever the order.
    function test_latestFinalEpoch() public {
        vm.expectRevert(EpochRegistry.NoFinalEpoch.selector);
        reg.latestFinalEpoch();
        assertFalse(reg.hasFinalEpoch());
        _propose(FIRST, ROOT);
        _propose(FIRST + 1, keccak256("r2"));
        vm.warp(block.timestamp + 72 hours);
        reg.finalize(FIRST + 1);
        assertEq(reg.latestFinalEpoch(), FIRST + 1);
        reg.finalize(FIRST);
        assertEq(reg.latestFinalEpoch(), FIRST + 1);
        assertTrue(reg.hasFinalEpoch());
        assertGt(reg.proposedAt(FIRST), 0);
    }
}
