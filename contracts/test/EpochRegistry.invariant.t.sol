// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test} from "forge-std/Test.sol";
import {EpochRegistry} from "../src/EpochRegistry.sol";
import {Approvals} from "./utils/Approvals.sol";

/// Drives the registry through random proposals, challenges, rulings, finalizations and time jumps.
contract RegistryHandler is Test {
    uint256 internal constant SIGNER_PK = 0xA11CE;
    EpochRegistry public immutable reg;
    address public immutable adjudicator;
    uint256 public immutable bond;

    address[3] internal actors = [address(0xA1), address(0xA2), address(0xA3)];

    /// ghost: the root the handler saw finalized per epoch
    mapping(uint64 => bytes32) public finalizedRoot;
    mapping(uint64 => bytes32) public liveRoot;
    uint256 public escrowed; // bonds held for pending/challenged slots
    uint256 public credited; // sum of credits not yet withdrawn
    uint256 public calls;
    /// ghost: challenges made against an epoch since its last upheld challenge, across proposals (C7, second
    /// review item 3: a lapse must not let a re-proposal restart the count)
    mapping(uint64 => uint256) public challengesSinceUpheld;
    /// ghost: when each epoch was first proposed (C12, second review item 3)
    mapping(uint64 => uint64) public firstSeen;

    constructor(EpochRegistry reg_, address adjudicator_) {
        reg = reg_;
        adjudicator = adjudicator_;
        bond = reg_.bond();
        for (uint256 i; i < 3; ++i) {
            vm.deal(actors[i], 1_000 ether);
        }
    }

    function _epochs() internal view returns (uint64 first, uint64 next) {
        return (reg.firstEpoch(), reg.nextEpoch());
    }

    function _pick(uint256 seed) internal view returns (uint64) {
        (uint64 first, uint64 next) = _epochs();
        return first + uint64(seed % (next - first + 1)); // includes next (not yet proposed)
    }

    function propose(uint256 seed, uint256 actor, bool reopened) external {
        calls++;
        (uint64 first, uint64 next) = _epochs();
        uint64 epoch = next;
        if (reopened && next > first) {
            uint64 e = first + uint64(seed % (next - first));
            (EpochRegistry.Status st,) = reg.status(e);
            if (st == EpochRegistry.Status.None) epoch = e;
        }
        bytes32 root = keccak256(abi.encode("root", seed, epoch));
        address who = actors[actor % 3];
        bytes memory sig = _sig(epoch, root, who);
        vm.prank(who);
        reg.propose{value: bond}(epoch, root, 0, uint64(block.timestamp + 1 hours), Approvals.one(vm.addr(SIGNER_PK), sig));
        if (firstSeen[epoch] == 0) firstSeen[epoch] = uint64(block.timestamp);
        liveRoot[epoch] = root;
        escrowed += bond;
    }

    function _sig(uint64 epoch, bytes32 root, address who) internal view returns (bytes memory) {
        (uint8 v, bytes32 r, bytes32 s) =
            vm.sign(SIGNER_PK, reg.epochRootDigest(epoch, root, 0, who, uint64(block.timestamp + 1 hours)));
        return abi.encodePacked(r, s, v);
    }

    function challenge(uint256 seed, uint256 actor) external {
        calls++;
        uint64 epoch = _pick(seed);
        vm.prank(actors[actor % 3]);
        reg.challenge{value: bond}(epoch);
        escrowed += bond;
        challengesSinceUpheld[epoch]++;
    }

    function resolve(uint256 seed, bool upheld) external {
        calls++;
        uint64 epoch = _pick(seed);
        vm.prank(adjudicator);
        reg.resolve(epoch, upheld);
        if (upheld) {
            escrowed -= 2 * bond;
            credited += 2 * bond;
            liveRoot[epoch] = 0;
            challengesSinceUpheld[epoch] = 0;
        } else {
            escrowed -= bond;
            credited += bond; // forfeited to the treasury
        }
    }

    function lapse(uint256 seed) external {
        calls++;
        uint64 epoch = _pick(seed);
        reg.lapse(epoch);
        // C7 (second review): the challenger's bond returns; the proposal is pending again, its root kept.
        escrowed -= bond;
        credited += bond;
    }

    function finalize(uint256 seed) external {
        calls++;
        uint64 epoch = _pick(seed);
        reg.finalize(epoch);
        finalizedRoot[epoch] = liveRoot[epoch];
        escrowed -= bond;
        credited += bond;
    }

    function withdraw(uint256 actor) external {
        calls++;
        address a = actors[actor % 3];
        uint256 owed = reg.credit(a);
        vm.prank(a);
        reg.withdraw();
        credited -= owed;
    }

    function warp(uint256 dt) external {
        calls++;
        vm.warp(block.timestamp + bound(dt, 1, 100 hours));
    }
}

contract EpochRegistryInvariantTest is Test {
    EpochRegistry internal reg;
    RegistryHandler internal handler;
    address internal adjudicator = address(0xAD);

    function setUp() public {
        vm.warp(1_700_000_000);
        reg = new EpochRegistry(address(this), vm.addr(0xA11CE), adjudicator, 1 ether, 1);
        handler = new RegistryHandler(reg, adjudicator);
        targetContract(address(handler));
    }

    /// The registry never exposes a non-final root, and a final root is exactly the one that was finalized.
    function invariant_onlyFinalRootsReadable() public view {
        for (uint64 e = reg.firstEpoch(); e <= reg.nextEpoch(); ++e) {
            (EpochRegistry.Status st,) = reg.status(e);
            if (st == EpochRegistry.Status.Final) {
                assertEq(reg.finalRoot(e), handler.finalizedRoot(e));
                assertTrue(handler.finalizedRoot(e) != 0);
            } else {
                try reg.finalRoot(e) returns (bytes32) {
                    revert("non-final root exposed");
                } catch (bytes memory err) {
                    assertEq(bytes4(err), EpochRegistry.NotFinal.selector);
                }
                try reg.verifyScore(e, address(0), 0, new bytes32[](0)) returns (bool) {
                    revert("non-final root used for verification");
                } catch (bytes memory err) {
                    assertEq(bytes4(err), EpochRegistry.NotFinal.selector);
                }
            }
        }
    }

    /// No proposal is ever challenged more than MAX_CHALLENGES times (finality in bounded time).
    function invariant_challengesBounded() public view {
        (uint64 first, uint64 next) = (reg.firstEpoch(), reg.nextEpoch());
        for (uint64 e = first; e < next; ++e) {
            assertLe(reg.challengeCount(e), reg.MAX_CHALLENGES());
        }
    }

    /// C7 (second review, item 3): however lapses and re-proposals interleave, an epoch is challenged at most
    /// `MAX_CHALLENGES` times between upheld challenges, so finality is bounded whatever the adjudicator does.
    function invariant_lapsesNeverRestartTheCount() public view {
        (uint64 first, uint64 next) = (reg.firstEpoch(), reg.nextEpoch());
        for (uint64 e = first; e < next; ++e) {
            assertLe(handler.challengesSinceUpheld(e), reg.MAX_CHALLENGES());
        }
    }

    /// C12 (second review, item 3): an epoch's first proposal time is set once and kept across every re-proposal, and
    /// never after its current proposal (the prove deadline counts from the current one only when the first was in
    /// time).
    function invariant_firstProposalIsKept() public view {
        (uint64 first, uint64 next) = (reg.firstEpoch(), reg.nextEpoch());
        for (uint64 e = first; e < next; ++e) {
            assertEq(reg.firstProposedAt(e), handler.firstSeen(e));
            uint64 current = reg.proposedAt(e);
            if (current != 0) assertLe(reg.firstProposedAt(e), current);
        }
    }

    /// ETH held equals bonds in escrow plus credits not yet withdrawn: nothing created or lost.
    function invariant_bondsConserved() public view {
        assertEq(address(reg).balance, handler.escrowed() + handler.credited());
    }
}
