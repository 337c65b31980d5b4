// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";
import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {EdenLeaves} from "./libraries/EdenLeaves.sol";
import {EventBlocks} from "./libraries/EventBlocks.sol";

/// @title EpochRegistry: the on-chain commitment of Eden's daily score roots (C5, C6, C7).
/// @notice One Merkle root per epoch, signed with EIP-712 by m of the n members of the signer committee, posted with a bond,
/// challengeable for 72 hours, then final. Only final roots can be read, and any single leaf of a final
/// root can be verified in O(log n) hashes.
///
/// Rules:
/// - C6: EIP-712 domain {name "Eden", version "1", chainId, verifyingContract = this}; struct
///   `EpochRoot(uint64 epoch,bytes32 root,bytes32 inputsRoot,address proposer,uint64 expiry)`. The signer names
///   the one account that may propose the root (C6, decided after the review: a signature copied from the
///   mempool or a publication cannot make anyone else the proposer). Recovery is OpenZeppelin ECDSA: 65-byte
///   signatures only, `v` in {27, 28}, low `s` only.
/// - C7a (committee, decided for issue 40): the root's signer is a committee of n members (at most `MAX_MEMBERS`)
///   and a threshold m (1 <= m <= n); a deployment starts as the 1-of-1 committee of its one accountable signer.
///   Each member approves by signing the same C6 digest: an EOA member with a 65-byte ECDSA signature (the
///   rules above), a contract member by ERC-1271 `isValidSignature` (OpenZeppelin `SignatureChecker`). A
///   proposal carries `Approval{member, signature}`s in any order: each member must sit on the committee in
///   force, at most once, every signature must be valid, and there must be at least m. The committee is set
///   only by the owner (the 48 h timelock) with `setCommittee`; every committee ever set keeps its id, and a
///   proposal records the id that accepted it (`committeeOf`), so a verifier checks a proposal against the
///   committee of its own block from state today. The adjudicator never sits on the committee.
/// - C7: a proposal is accepted when the committee approves it (C7a) for `msg.sender` as proposer, the epoch
///   is the next one (`nextEpoch`) or a slot reopened by an upheld challenge, `block.timestamp <=
///   expiry`, and `msg.value == bond`. It is then pending for `CHALLENGE_WINDOW` (72 h). While pending, anyone
///   may challenge with an equal bond (strictly before the deadline), at most `MAX_CHALLENGES` times per
///   proposal. The adjudicator then either upholds the challenge (both bonds to the challenger, the slot
///   reopens so a corrected root may be proposed, and the struck (epoch, root) pair can never be proposed
///   again) or rejects it (the challenger's bond is forfeited to `treasury`, never to the proposer, so a
///   self-challenge costs its bond; a fresh 72 h window starts). A challenge the adjudicator has not ruled on
///   within `ADJUDICATION_TIMEOUT` lapses (anyone may call `lapse`): no ruling, the challenger's bond is returned
///   and the proposal is pending again with a fresh window, its challenge count kept (decided after the second
///   review: a lapse that reopened the slot let one challenger restart the count forever, free). From the deadline
///   on, anyone may finalize; the proposer's bond is then returned. A proposal is final at the latest
///   `CHALLENGE_WINDOW + MAX_CHALLENGES * (ADJUDICATION_TIMEOUT + CHALLENGE_WINDOW)` after it was made (23 days),
///   whatever the adjudicator does or fails to do.
/// - C2a (pinned configuration, decided for issue 40): the owner (the 48 h timelock) pins the scoring
///   configuration (tracks, weights, tiers, reference bounds, gates and the grader's configuration) by the keccak256
///   of its published file, with a version and the first epoch it applies to (`pinConfig`). A pin applies only to
///   epochs not yet proposed (`firstEpoch >= nextEpoch`), after every earlier pin's first epoch, with a higher
///   version; `configFor(epoch)` is the pin in force for an epoch. Bundles built under another configuration are
///   wrong roots: the watchtower challenges them and the Score page flags them.
/// - C5: leaves are OpenZeppelin StandardMerkleTree leaves (`EdenLeaves`): score `(address project, uint256
///   scoreWad)` (the published score, one per project, C27: what `FeeLanes` and every consumer read), quality `(bytes32 T_q, address scorerRegistry, uint256 scoreId, address scorer, address project,
///   bytes32 thesisHash, uint256 qualityWad, uint8 verdict, bytes32 matchedThesis)`, systematic `(bytes32 T_s,
///   address project, uint256 scoreWad)` (the systematic score where a human move set the published one, C27).
///
/// Decided here (beyond the notes): bonds are paid out by pull (`withdraw`), so a reverting recipient can
/// never block a transition; `firstEpoch` is a constructor parameter (epochs are numbered by the off-chain
/// scorer); the owner (two-step, behind the deployment's 48 h timelock) may replace the committee, the adjudicator
/// and the treasury, never the bond or the windows; the adjudicator is never a committee member.
contract EpochRegistry is EIP712, Ownable2Step, EventBlocks {
    /// @notice Lifecycle of an epoch slot. `None` also covers a slot reopened by an upheld challenge.
    enum Status {
        None,
        Pending,
        Challenged,
        Final
    }

    struct Slot {
        bytes32 root;
        bytes32 inputsRoot;
        address proposer;
        uint64 deadline; // end of the challenge window (Pending/Challenged); finalization time (Final)
        Status status;
        uint8 challenges; // challenges made against this proposal so far
        address challenger;
        uint64 proposedAt; // when this root was proposed
        uint32 committee; // the id of the committee that approved this root (C7a)
        uint64 challengedAt; // when the open challenge was made (Challenged)
    }

    /// @notice One member's approval of a root (C7a): an EIP-712 signature over the C6 digest (EOA), or
    /// whatever the member's ERC-1271 `isValidSignature` accepts (contract).
    struct Approval {
        address member;
        bytes signature;
    }

    /// @notice A pinned scoring configuration (C2a).
    struct ConfigPin {
        bytes32 configHash;
        uint64 version;
        uint64 firstEpoch;
    }

    /// @notice A signer committee (C7a): its members and how many of them must approve a root.
    struct Committee {
        address[] members;
        uint8 threshold;
    }

    /// @notice keccak256("EpochRoot(uint64 epoch,bytes32 root,bytes32 inputsRoot,address proposer,uint64 expiry)")
    /// (C6).
    bytes32 public constant EPOCH_ROOT_TYPEHASH =
        keccak256("EpochRoot(uint64 epoch,bytes32 root,bytes32 inputsRoot,address proposer,uint64 expiry)");
    /// @notice Domain tag of quality leaves, T_q = keccak256("eden.leaf.quality") (C5).
    bytes32 public constant QUALITY_LEAF_TAG = EdenLeaves.QUALITY_LEAF_TAG;
    /// @notice Domain tag of systematic leaves, T_s = keccak256("eden.leaf.systematic") (C5, C27).
    bytes32 public constant SYSTEMATIC_LEAF_TAG = EdenLeaves.SYSTEMATIC_LEAF_TAG;
    /// @notice T_c = 72 h (C7).
    uint64 public constant CHALLENGE_WINDOW = 72 hours;
    /// @notice At most this many challenges per proposal (C7, decided): finality in bounded time.
    uint8 public constant MAX_CHALLENGES = 2;
    /// @notice A challenge not ruled on within this time lapses (C7, decided: 7 days).
    uint64 public constant ADJUDICATION_TIMEOUT = 7 days;

    /// @notice The largest committee (C7a, decided: seats fit one bitmap word and `propose` stays bounded).
    uint8 public constant MAX_MEMBERS = 32;

    /// @notice The bond a proposer escrows and a challenger must match (wei).
    uint256 public immutable bond;
    /// @notice The first epoch this registry accepts.
    uint64 public immutable firstEpoch;

    /// @notice The only account that may resolve challenges.
    address public adjudicator;
    /// @notice The next new epoch that may be proposed (`last + 1`).
    uint64 public nextEpoch;
    /// @notice Where forfeited (rejected) challenge bonds go.
    address public treasury;
    /// @dev The highest final epoch plus one (0: none yet).
    uint64 private _latestFinalPlusOne;

    mapping(uint64 epoch => Slot) private _slots;
    /// @dev Every committee ever set, by id (C7a); the last one is in force.
    Committee[] private _committees;
    /// @dev Every configuration pinned, in order (C2a).
    ConfigPin[] private _configs;
    /// @dev A member's seat (1-based; 0: not a member) in committee `id`.
    mapping(uint256 id => mapping(address member => uint256 seat)) private _seat;
    /// @notice keccak256(abi.encode(epoch, root)) of roots struck down by an upheld challenge.
    mapping(bytes32 epochRoot => bool) public struck;
    /// @notice Bonds owed to an account, paid out by `withdraw`.
    mapping(address account => uint256) public credit;

    event RootProposed(
        uint64 indexed epoch, bytes32 root, bytes32 inputsRoot, uint64 expiry, address indexed proposer, uint64 deadline
    );
    event ChallengeLapsed(uint64 indexed epoch, bytes32 root, address indexed challenger);
    event TreasuryChanged(address indexed previous, address indexed current);
    event RootChallenged(uint64 indexed epoch, bytes32 root, address indexed challenger);
    event ChallengeUpheld(uint64 indexed epoch, bytes32 root, address indexed challenger);
    event ChallengeRejected(uint64 indexed epoch, bytes32 root, address indexed challenger, uint64 deadline);
    event RootFinalized(uint64 indexed epoch, bytes32 root, bytes32 inputsRoot);
    event BondCredited(address indexed account, uint256 amount);
    event Withdrawn(address indexed account, uint256 amount);
    event ConfigPinned(uint64 indexed version, bytes32 configHash, uint64 firstEpoch);
    event CommitteeChanged(uint32 indexed id, address[] members, uint8 threshold);
    event AdjudicatorChanged(address indexed previous, address indexed current);

    error ZeroAddress();
    error ZeroBond();
    error EmptyRoot();
    error WrongEpoch(uint64 epoch, uint64 expected);
    error SignatureExpired(uint64 expiry, uint256 timestamp);
    error WrongBond(uint256 sent, uint256 required);
    error InvalidSigner(address recovered);
    error RootStruck(uint64 epoch, bytes32 root);
    error NotPending(uint64 epoch, Status status);
    error NotChallenged(uint64 epoch, Status status);
    error NotFinal(uint64 epoch, Status status);
    error WindowClosed(uint64 epoch, uint64 deadline);
    error WindowOpen(uint64 epoch, uint64 deadline);
    error NotAdjudicator(address caller);
    error NothingToWithdraw(address account);
    error TransferFailed(address to, uint256 amount);
    error AdjudicatorIsSigner(address account);
    error ChallengeLimit(uint64 epoch, uint8 challenges);
    error AdjudicationOpen(uint64 epoch, uint64 until);
    error NoFinalEpoch();
    error BadCommittee(uint256 members, uint8 threshold);
    error RepeatedMember(address member);
    error NotAMember(address member);
    error TooFewApprovals(uint256 approvals, uint8 threshold);
    error NotProposed(uint64 epoch);
    error EmptyConfig();
    error ConfigNotNewer(uint64 version, uint64 last);
    error ConfigForPastEpoch(uint64 firstEpoch, uint64 earliest);

    constructor(address owner_, address signer_, address adjudicator_, uint256 bond_, uint64 firstEpoch_)
        EIP712("Eden", "1")
        Ownable(owner_)
    {
        if (adjudicator_ == address(0)) revert ZeroAddress();
        if (bond_ == 0) revert ZeroBond();
        adjudicator = adjudicator_;
        treasury = owner_;
        bond = bond_;
        firstEpoch = firstEpoch_;
        nextEpoch = firstEpoch_;
        _markEventBlock();
        emit AdjudicatorChanged(address(0), adjudicator_);
        address[] memory one = new address[](1);
        one[0] = signer_;
        _setCommittee(one, 1);
        _markEventBlock();
        emit TreasuryChanged(address(0), owner_);
    }

    // ------------------------------------------------------------------------------------------------
    // Transitions

    /// @notice Proposes `root` for `epoch` with the committee's approvals (C7a), each an EIP-712 signature naming
    /// the caller as proposer, and escrows `bond` (C7).
    /// @dev Accepts the next new epoch, or an earlier epoch whose slot an upheld challenge reopened.
    function propose(uint64 epoch, bytes32 root, bytes32 inputsRoot, uint64 expiry, Approval[] calldata approvals)
        external
        payable
    {
        if (root == bytes32(0)) revert EmptyRoot();
        uint64 next = nextEpoch;
        bool isNew = epoch == next;
        if (!isNew && !(epoch >= firstEpoch && epoch < next && _slots[epoch].status == Status.None)) {
            revert WrongEpoch(epoch, next);
        }
        if (block.timestamp > expiry) revert SignatureExpired(expiry, block.timestamp);
        if (msg.value != bond) revert WrongBond(msg.value, bond);
        if (struck[keccak256(abi.encode(epoch, root))]) revert RootStruck(epoch, root);
        uint32 committeeId = uint32(_committees.length - 1);
        _checkApprovals(committeeId, epochRootDigest(epoch, root, inputsRoot, msg.sender, expiry), approvals);

        if (isNew) nextEpoch = next + 1;
        if (firstProposedAt[epoch] == 0) firstProposedAt[epoch] = uint64(block.timestamp);
        uint64 deadline = uint64(block.timestamp) + CHALLENGE_WINDOW;
        _slots[epoch] = Slot({
            root: root,
            inputsRoot: inputsRoot,
            proposer: msg.sender,
            deadline: deadline,
            status: Status.Pending,
            challenges: 0,
            challenger: address(0),
            proposedAt: uint64(block.timestamp),
            committee: committeeId,
            challengedAt: 0
        });
        _markEventBlock();
        emit RootProposed(epoch, root, inputsRoot, expiry, msg.sender, deadline);
    }

    /// @notice Challenges a pending root with a bond equal to the proposer's, strictly before its deadline, at most
    /// `MAX_CHALLENGES` times per proposal (C7).
    function challenge(uint64 epoch) external payable {
        Slot storage s = _slots[epoch];
        if (s.status != Status.Pending) revert NotPending(epoch, s.status);
        if (block.timestamp >= s.deadline) revert WindowClosed(epoch, s.deadline);
        if (s.challenges >= MAX_CHALLENGES) revert ChallengeLimit(epoch, s.challenges);
        if (msg.value != bond) revert WrongBond(msg.value, bond);
        s.status = Status.Challenged;
        s.challenges += 1;
        s.challenger = msg.sender;
        s.challengedAt = uint64(block.timestamp);
        _markEventBlock();
        emit RootChallenged(epoch, s.root, msg.sender);
    }

    /// @notice Adjudicator's ruling on a challenged root (C7).
    /// @param upheld true: the root is wrong; both bonds go to the challenger, the slot reopens and the
    /// (epoch, root) pair is struck. false: the challenger's bond is forfeited to the treasury and a fresh
    /// 72 h window starts (the proposer's bond stays escrowed).
    function resolve(uint64 epoch, bool upheld) external {
        if (msg.sender != adjudicator) revert NotAdjudicator(msg.sender);
        Slot storage s = _slots[epoch];
        if (s.status != Status.Challenged) revert NotChallenged(epoch, s.status);
        bytes32 root = s.root;
        address challenger = s.challenger;
        if (upheld) {
            struck[keccak256(abi.encode(epoch, root))] = true;
            delete _slots[epoch];
            _credit(challenger, 2 * bond);
            _markEventBlock();
            emit ChallengeUpheld(epoch, root, challenger);
        } else {
            uint64 deadline = uint64(block.timestamp) + CHALLENGE_WINDOW;
            s.status = Status.Pending;
            s.deadline = deadline;
            s.challenger = address(0);
            s.challengedAt = 0;
            _credit(treasury, bond);
            _markEventBlock();
            emit ChallengeRejected(epoch, root, challenger, deadline);
        }
    }

    /// @notice Ends a challenge the adjudicator has not ruled on within `ADJUDICATION_TIMEOUT` (C7, decided after
    /// the second review): no ruling, so the challenger's bond is returned (the adjudicator's silence is not the
    /// challenger's fault) and the proposal is pending again with a fresh `CHALLENGE_WINDOW`, its challenge count
    /// kept: at most `MAX_CHALLENGES` challenges per proposal, lapsed or ruled, so finality stays within 23 days of
    /// the proposal. The proposer's bond stays escrowed until finalization. Anyone may call.
    function lapse(uint64 epoch) external {
        Slot storage s = _slots[epoch];
        if (s.status != Status.Challenged) revert NotChallenged(epoch, s.status);
        uint64 until = s.challengedAt + ADJUDICATION_TIMEOUT;
        if (block.timestamp < until) revert AdjudicationOpen(epoch, until);
        address challenger = s.challenger;
        s.status = Status.Pending;
        s.deadline = uint64(block.timestamp) + CHALLENGE_WINDOW;
        s.challenger = address(0);
        s.challengedAt = 0;
        _credit(challenger, bond);
        _markEventBlock();
        emit ChallengeLapsed(epoch, s.root, challenger);
    }

    /// @notice Makes a pending root final once its window has passed; returns the proposer's bond. Anyone may call.
    function finalize(uint64 epoch) external {
        Slot storage s = _slots[epoch];
        if (s.status != Status.Pending) revert NotPending(epoch, s.status);
        if (block.timestamp < s.deadline) revert WindowOpen(epoch, s.deadline);
        s.status = Status.Final;
        s.deadline = uint64(block.timestamp);
        if (epoch >= _latestFinalPlusOne) _latestFinalPlusOne = epoch + 1;
        _credit(s.proposer, bond);
        _markEventBlock();
        emit RootFinalized(epoch, s.root, s.inputsRoot);
    }

    /// @notice Pays out every bond credited to the caller.
    function withdraw() external {
        uint256 amount = credit[msg.sender];
        if (amount == 0) revert NothingToWithdraw(msg.sender);
        credit[msg.sender] = 0;
        _markEventBlock();
        emit Withdrawn(msg.sender, amount);
        (bool ok,) = msg.sender.call{value: amount}("");
        if (!ok) revert TransferFailed(msg.sender, amount);
    }

    /// @notice Replaces the signer committee (C7a): `threshold` of `members` approve every root proposed from now
    /// on; a root already proposed keeps the committee that approved it. Owner only (the 48 h timelock).
    function setCommittee(address[] calldata members, uint8 threshold) external onlyOwner {
        _setCommittee(members, threshold);
    }

    /// @notice Pins the scoring configuration whose published file hashes to `configHash` as `version`, in force from
    /// `firstEpoch` on (C2a). Owner only (the 48 h timelock: a new configuration is public before it applies). Only
    /// future epochs: `firstEpoch` is at least `nextEpoch` and after every earlier pin's first epoch; versions
    /// strictly increase.
    function pinConfig(bytes32 configHash, uint64 version, uint64 firstEpoch) external onlyOwner {
        if (configHash == bytes32(0)) revert EmptyConfig();
        uint256 n = _configs.length;
        uint64 earliest = nextEpoch;
        if (n != 0) {
            ConfigPin storage last = _configs[n - 1];
            if (version <= last.version) revert ConfigNotNewer(version, last.version);
            if (last.firstEpoch + 1 > earliest) earliest = last.firstEpoch + 1;
        }
        if (firstEpoch < earliest) revert ConfigForPastEpoch(firstEpoch, earliest);
        _configs.push(ConfigPin(configHash, version, firstEpoch));
        _markEventBlock();
        emit ConfigPinned(version, configHash, firstEpoch);
    }

    function setAdjudicator(address adjudicator_) external onlyOwner {
        if (adjudicator_ == address(0)) revert ZeroAddress();
        if (_seat[_committees.length - 1][adjudicator_] != 0) revert AdjudicatorIsSigner(adjudicator_);
        _markEventBlock();
        emit AdjudicatorChanged(adjudicator, adjudicator_);
        adjudicator = adjudicator_;
    }

    function setTreasury(address treasury_) external onlyOwner {
        if (treasury_ == address(0)) revert ZeroAddress();
        _markEventBlock();
        emit TreasuryChanged(treasury, treasury_);
        treasury = treasury_;
    }

    // ------------------------------------------------------------------------------------------------
    // Reads

    /// @notice Status of an epoch slot and its deadline (window end while pending/challenged, finalization
    /// time when final, 0 when none). Never returns the root: only final roots can be read (C7).
    function status(uint64 epoch) external view returns (Status, uint64 deadline) {
        Slot storage s = _slots[epoch];
        return (s.status, s.deadline);
    }

    /// @notice When `epoch` was first proposed (0 when never), kept across an upheld challenge's re-proposal (C12: a
    /// score graded in a disputed epoch is not locked out, `ScorerRegistry.proveDeadline`).
    mapping(uint64 epoch => uint64) public firstProposedAt;

    /// @notice When the current proposal of `epoch` was made (0 when none). A grade counts only from an epoch
    /// proposed after its score (`ScorerRegistry.prove`).
    function proposedAt(uint64 epoch) external view returns (uint64) {
        return _slots[epoch].proposedAt;
    }

    /// @notice How many challenges the current proposal of `epoch` has had.
    function challengeCount(uint64 epoch) external view returns (uint8) {
        return _slots[epoch].challenges;
    }

    /// @notice The configuration in force for `epoch` (C2a): the last pin whose first epoch is at most `epoch`; all
    /// zero when none is.
    function configFor(uint64 epoch) external view returns (bytes32 configHash, uint64 version, uint64 firstEpoch) {
        for (uint256 i = _configs.length; i > 0; --i) {
            ConfigPin storage p = _configs[i - 1];
            if (p.firstEpoch <= epoch) return (p.configHash, p.version, p.firstEpoch);
        }
        return (bytes32(0), 0, 0);
    }

    /// @notice How many configurations were ever pinned (C2a).
    function configCount() external view returns (uint256) {
        return _configs.length;
    }

    /// @notice The committee in force (C7a): its id, members (in seat order) and threshold.
    function currentCommittee() external view returns (uint32 id, address[] memory members, uint8 threshold) {
        id = uint32(_committees.length - 1);
        Committee storage c = _committees[id];
        return (id, c.members, c.threshold);
    }

    /// @notice Committee `id` (C7a), in force or replaced; reverts (index out of bounds) for an id never set.
    function committee(uint32 id) external view returns (address[] memory members, uint8 threshold) {
        Committee storage c = _committees[id];
        return (c.members, c.threshold);
    }

    /// @notice The committee that approved the current proposal of `epoch` (C7a); reverts with `NotProposed` when the
    /// slot holds none.
    function committeeOf(uint64 epoch) external view returns (uint32 id, address[] memory members, uint8 threshold) {
        Slot storage s = _slots[epoch];
        if (s.status == Status.None) revert NotProposed(epoch);
        id = s.committee;
        Committee storage c = _committees[id];
        return (id, c.members, c.threshold);
    }

    /// @notice The highest final epoch (C17: the score every consumer reads); reverts with `NoFinalEpoch` before any.
    function latestFinalEpoch() public view returns (uint64) {
        uint64 p = _latestFinalPlusOne;
        if (p == 0) revert NoFinalEpoch();
        return p - 1;
    }

    /// @notice True once any epoch is final.
    function hasFinalEpoch() external view returns (bool) {
        return _latestFinalPlusOne != 0;
    }

    /// @notice The final root of `epoch`; reverts with `NotFinal` unless the epoch is final.
    function finalRoot(uint64 epoch) public view returns (bytes32) {
        Slot storage s = _slots[epoch];
        if (s.status != Status.Final) revert NotFinal(epoch, s.status);
        return s.root;
    }

    /// @notice The final inputs root (R_in) of `epoch`; reverts with `NotFinal` unless the epoch is final.
    function finalInputsRoot(uint64 epoch) external view returns (bytes32) {
        Slot storage s = _slots[epoch];
        if (s.status != Status.Final) revert NotFinal(epoch, s.status);
        return s.inputsRoot;
    }

    /// @notice True when the score leaf (project, scoreWad) is in the final root of `epoch` (C5): `scoreWad` is then
    /// the project's published score that epoch (C27; an epoch has one score leaf per project).
    function verifyScore(uint64 epoch, address project, uint256 scoreWad, bytes32[] calldata proof)
        external
        view
        returns (bool)
    {
        return MerkleProof.verifyCalldata(proof, finalRoot(epoch), scoreLeaf(project, scoreWad));
    }

    /// @notice True when the quality leaf of grade `g` is in the final root of `epoch` (C5).
    function verifyQuality(uint64 epoch, EdenLeaves.Grade calldata g, bytes32[] calldata proof)
        external
        view
        returns (bool)
    {
        return MerkleProof.verifyCalldata(proof, finalRoot(epoch), EdenLeaves.qualityLeaf(g));
    }

    /// @notice True when `leaf` (an already hashed C5 leaf) is in the final root of `epoch`.
    function verifyLeaf(uint64 epoch, bytes32 leaf, bytes32[] calldata proof) external view returns (bool) {
        return MerkleProof.verifyCalldata(proof, finalRoot(epoch), leaf);
    }

    /// @notice True when the systematic leaf (project, scoreWad) is in the final root of `epoch` (C5, C27): the
    /// project's systematic score where a human move set its published score.
    function verifySystematic(uint64 epoch, address project, uint256 scoreWad, bytes32[] calldata proof)
        external
        view
        returns (bool)
    {
        return MerkleProof.verifyCalldata(proof, finalRoot(epoch), systematicLeaf(project, scoreWad));
    }

    /// @notice The EIP-712 digest the signer signs for a root (C6).
    function epochRootDigest(uint64 epoch, bytes32 root, bytes32 inputsRoot, address proposer, uint64 expiry)
        public
        view
        returns (bytes32)
    {
        return _hashTypedDataV4(keccak256(abi.encode(EPOCH_ROOT_TYPEHASH, epoch, root, inputsRoot, proposer, expiry)));
    }

    /// @notice The EIP-712 domain separator (C6).
    function domainSeparator() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    /// @notice Score leaf, OZ StandardMerkleTree encoding of (address, uint256) (C5).
    function scoreLeaf(address project, uint256 scoreWad) public pure returns (bytes32) {
        return EdenLeaves.scoreLeaf(project, scoreWad);
    }

    /// @notice Quality leaf, OZ StandardMerkleTree encoding of
    /// (bytes32, address, uint256, address, address, bytes32, uint256, uint8, bytes32) (C5).
    function qualityLeaf(EdenLeaves.Grade calldata g) external pure returns (bytes32) {
        return EdenLeaves.qualityLeaf(g);
    }

    /// @notice Systematic leaf, OZ StandardMerkleTree encoding of (bytes32, address, uint256) (C5, C27).
    function systematicLeaf(address project, uint256 scoreWad) public pure returns (bytes32) {
        return EdenLeaves.systematicLeaf(project, scoreWad);
    }

    /// @dev C7a: at least `threshold` approvals, each from a distinct member of committee `id`, each valid for
    /// `digest`. An EOA member's signature follows OpenZeppelin ECDSA (65 bytes, low s, v 27/28; a signature by
    /// anyone else reverts `InvalidSigner(recovered)`); a contract member's is checked by ERC-1271.
    function _checkApprovals(uint32 id, bytes32 digest, Approval[] calldata approvals) private view {
        Committee storage c = _committees[id];
        uint256 seen;
        for (uint256 i; i < approvals.length; ++i) {
            address member = approvals[i].member;
            uint256 seat = _seat[id][member];
            if (seat == 0) revert NotAMember(member);
            if (seen & (1 << seat) != 0) revert RepeatedMember(member);
            seen |= 1 << seat;
            if (member.code.length == 0) {
                address recovered = ECDSA.recoverCalldata(digest, approvals[i].signature);
                if (recovered != member) revert InvalidSigner(recovered);
            } else if (!SignatureChecker.isValidSignatureNow(member, digest, approvals[i].signature)) {
                revert InvalidSigner(member);
            }
        }
        if (approvals.length < c.threshold) revert TooFewApprovals(approvals.length, c.threshold);
    }

    function _setCommittee(address[] memory members, uint8 threshold) private {
        uint256 n = members.length;
        if (threshold == 0 || threshold > n || n > MAX_MEMBERS) revert BadCommittee(n, threshold);
        uint256 id = _committees.length;
        Committee storage c = _committees.push();
        c.threshold = threshold;
        for (uint256 i; i < n; ++i) {
            address m = members[i];
            if (m == address(0)) revert ZeroAddress();
            if (m == adjudicator) revert AdjudicatorIsSigner(m);
            if (_seat[id][m] != 0) revert RepeatedMember(m);
            _seat[id][m] = i + 1;
            c.members.push(m);
        }
        _markEventBlock();
        emit CommitteeChanged(uint32(id), members, threshold);
    }

    function _credit(address account, uint256 amount) private {
        credit[account] += amount;
        _markEventBlock();
        emit BondCredited(account, amount);
    }
}
