// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {LaunchpadFixture} from "./utils/LaunchpadFixture.sol";
import {SourceKeyRegistry, ILaunchCreators} from "../src/SourceKeyRegistry.sol";

/// @notice The source-key registry (C21): who may register and revoke, the validity window an attestation is
/// checked against, and that no record can be rewritten. Against the real Launchpad (a launch's creator is its
/// token's controller).
contract SourceKeyRegistryTest is LaunchpadFixture {
    SourceKeyRegistry reg;
    address creator = makeAddr("creator");
    address mallory = makeAddr("mallory");
    address project = makeAddr("projectAccount"); // a project that is an account, not a launch
    address key = makeAddr("sourceKey");
    address token;
    bytes32 constant GITHUB = keccak256("github");
    bytes32 constant STRIPE = keccak256("stripe");

    function setUp() public {
        _deployLaunchpad();
        reg = new SourceKeyRegistry(ILaunchCreators(address(pad)));
        vm.prank(creator);
        token = pad.launch("Token", "TKN", address(0), 0);
        vm.warp(1_000_000);
    }

    function test_controller_isTheCreatorOfALaunch_elseTheProjectItself() public view {
        assertEq(reg.controllerOf(token), creator);
        assertEq(reg.controllerOf(project), project);
        // a contract that is not a launch controls itself
        assertEq(reg.controllerOf(address(pad)), address(pad));
    }

    function test_register_recordsTheWindowStartAndTheAge() public {
        vm.expectEmit(address(reg));
        emit SourceKeyRegistry.SourceKeyRegistered(token, GITHUB, key, creator);
        vm.prank(creator);
        reg.register(token, GITHUB, key);
        SourceKeyRegistry.SourceKey memory k = reg.keyOf(token, key);
        assertEq(k.source, GITHUB);
        assertEq(k.registeredAt, 1_000_000);
        assertEq(k.revokedAt, 0);
        assertEq(reg.firstRegisteredAt(token), 1_000_000);
        assertEq(reg.keyCount(token), 1);
        assertTrue(reg.isValidAt(token, GITHUB, key, 1_000_000));
        assertTrue(reg.isValidAt(token, GITHUB, key, type(uint64).max));
        assertFalse(reg.isValidAt(token, GITHUB, key, 999_999)); // observed before the key existed
        assertFalse(reg.isValidAt(token, STRIPE, key, 1_000_000)); // the key signs one source only
        // a later key does not move the age anchor
        vm.warp(2_000_000);
        vm.prank(creator);
        reg.register(token, STRIPE, makeAddr("k2"));
        assertEq(reg.firstRegisteredAt(token), 1_000_000);
        assertEq(reg.keyCount(token), 2);
    }

    function test_attack_strangerRegistersAKeyForSomeoneElsesProject() public {
        vm.prank(mallory);
        vm.expectRevert(abi.encodeWithSelector(SourceKeyRegistry.NotController.selector, token, mallory));
        reg.register(token, GITHUB, mallory);
        vm.prank(mallory);
        vm.expectRevert(abi.encodeWithSelector(SourceKeyRegistry.NotController.selector, project, mallory));
        reg.register(project, GITHUB, mallory);
        // the token contract itself is not its controller either
        vm.prank(token);
        vm.expectRevert(abi.encodeWithSelector(SourceKeyRegistry.NotController.selector, token, token));
        reg.register(token, GITHUB, key);
    }

    function test_attack_rewriteHistory_reRegisterOrReRevoke() public {
        vm.prank(creator);
        reg.register(token, GITHUB, key);
        // re-register the same key under another source (would re-date or re-label past attestations)
        vm.prank(creator);
        vm.expectRevert(abi.encodeWithSelector(SourceKeyRegistry.KeyExists.selector, token, key));
        reg.register(token, STRIPE, key);
        vm.warp(1_500_000);
        vm.prank(creator);
        reg.revoke(token, key);
        // a revoked key can never come back (its revocation date is final)
        vm.prank(creator);
        vm.expectRevert(abi.encodeWithSelector(SourceKeyRegistry.KeyExists.selector, token, key));
        reg.register(token, GITHUB, key);
        vm.warp(1_600_000);
        vm.prank(creator);
        vm.expectRevert(abi.encodeWithSelector(SourceKeyRegistry.AlreadyRevoked.selector, token, key));
        reg.revoke(token, key);
        assertEq(reg.keyOf(token, key).revokedAt, 1_500_000);
    }

    function test_revoke_keepsEarlierAttestationsValid_andEndsLaterOnes() public {
        vm.prank(creator);
        reg.register(token, GITHUB, key);
        vm.warp(1_500_000);
        vm.expectEmit(address(reg));
        emit SourceKeyRegistry.SourceKeyRevoked(token, GITHUB, key, creator);
        vm.prank(creator);
        reg.revoke(token, key);
        assertTrue(reg.isValidAt(token, GITHUB, key, 1_499_999));
        assertFalse(reg.isValidAt(token, GITHUB, key, 1_500_000));
        assertFalse(reg.isValidAt(token, GITHUB, key, 2_000_000));
    }

    function test_aKeyMayRevokeItself_aStrangerMayNot() public {
        vm.prank(project);
        reg.register(project, GITHUB, key);
        vm.prank(mallory);
        vm.expectRevert(abi.encodeWithSelector(SourceKeyRegistry.NotAllowedToRevoke.selector, project, key, mallory));
        reg.revoke(project, key);
        vm.prank(key);
        reg.revoke(project, key);
        assertEq(reg.keyOf(project, key).revokedAt, 1_000_000);
    }

    function test_rejects_zeroKey_zeroSource_unknownKey() public {
        vm.startPrank(creator);
        vm.expectRevert(SourceKeyRegistry.ZeroKey.selector);
        reg.register(token, GITHUB, address(0));
        vm.expectRevert(SourceKeyRegistry.ZeroSource.selector);
        reg.register(token, bytes32(0), key);
        vm.expectRevert(abi.encodeWithSelector(SourceKeyRegistry.UnknownKey.selector, token, key));
        reg.revoke(token, key);
        vm.stopPrank();
    }

    /// The validity window is exactly [registeredAt, revokedAt) for any times.
    function testFuzz_validityWindow(uint64 reg_, uint64 revokeAfter, uint64 t) public {
        reg_ = uint64(bound(reg_, 1, type(uint64).max / 2));
        revokeAfter = uint64(bound(revokeAfter, 0, type(uint64).max / 4));
        vm.warp(reg_);
        vm.prank(project);
        reg.register(project, GITHUB, key);
        uint64 rev = reg_ + revokeAfter;
        vm.warp(rev);
        vm.prank(key);
        reg.revoke(project, key);
        assertEq(reg.isValidAt(project, GITHUB, key, t), t >= reg_ && t < rev);
    }
}
