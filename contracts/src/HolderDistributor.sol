// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";
import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {EventBlocks} from "./libraries/EventBlocks.sol";

/// @title HolderDistributor: daily holder payouts per (token, pair asset) (C18, seed §8).
/// @notice Holders of a launched token are paid from its holder pot in a real asset (ETH or an ERC-20),
/// in proportion to their balance at a past snapshot block. One Merkle root per (token, asset, epoch).
///
/// Leaves are OpenZeppelin StandardMerkleTree leaves over
/// `(address distributor, uint256 chainId, address token, address asset, uint64 epoch, address account, uint256 amount)`,
/// i.e. `keccak256(bytes.concat(keccak256(abi.encode(...))))`, with `distributor = address(this)` and
/// `chainId = block.chainid`; `amount_i = floor(T * b_i / sum b)` is computed off-chain (core `holders`).
/// The native asset (ETH) is `address(0)`.
///
/// Funding and rollover (decided, precise):
/// - `fund(token, asset, amount)` adds to the pair's holder pot (`pot[token][asset]`): the amount
///   available for future rounds. Anyone may fund (the fee lanes do).
/// - `postRoot(token, asset, epoch, root, total)` (the poster only) allocates `total` (= T, the sum of
///   all leaf amounts) out of the pot into the round; reverts if `total > pot`. Epochs of a pair strictly
///   increase. The round opens `CLAIM_DELAY` (24 h) after posting and closes `CLAIM_PERIOD` (90 days)
///   after opening: claims succeed for `opensAt <= now < closesAt`.
/// - During the 24 h review the owner or the guardian may `revokeRoot`: the whole `total` returns to the
///   pot (C18, decided after the second review). The owner is the deployment's 48 h timelock, which can
///   never act inside a 24 h review, so the guardian is what stops a bad root before anyone claims it: an
///   account set by the owner that can do nothing but revoke during a review, and is never the poster (a
///   poster cannot clear its own root). The worst a guardian can do is delay a round: its total returns
///   to the pot and the poster posts again.
/// - A leaf pays once (its hash is marked claimed), only to its `account` (or, with `claimTo`, to a
///   recipient the account signs for with EIP-712 `ClaimTo`, ERC-1271 accounts included), and never
///   more than the round's unclaimed `total`.
/// - From `closesAt` on, anyone may `rollover(token, asset, epoch)`: the unclaimed remainder
///   `total - claimed` returns to the pot, so it is allocated by the next posted round. A round rolls
///   over once.
/// - Snapshots and exclusions (C18a, decided): a root names its snapshot block `b`, which must be mined
///   (`b < block.number`) and later than the pair's previous round's (`snapshotOf`). Besides the
///   deployment's own contracts, the accounts whose balances never receive payouts (escrows, vesting
///   locks, vaults) are listed here by the owner (`setExcluded`, behind the timelock); every change is
///   kept with its block (`exclusionChanges`), so anyone rebuilds the list in force at any `b` from
///   state and re-derives a round's tree from the chain alone.
/// Invariant: for every asset, this contract's balance >= sum over pairs of (pot + unclaimed of every
/// round not yet rolled over or revoked).
contract HolderDistributor is EIP712, Ownable2Step, ReentrancyGuardTransient, EventBlocks {
    using SafeERC20 for IERC20;

    struct Round {
        bytes32 root;
        uint128 total;
        uint128 claimed;
        uint64 opensAt;
        uint64 closesAt;
        bool settled; // rolled over (or revoked): nothing more can be claimed
        uint64 snapshotBlock; // the block whose balances the round pays (C18a)
    }

    /// @notice One change of the exclusion list, with the block it took effect in (C18a).
    struct ExclusionChange {
        address account;
        bool excluded;
        uint64 blockNumber;
    }

    /// @notice Review delay between posting a root and the first claim (C18: 24 h).
    uint64 public constant CLAIM_DELAY = 24 hours;
    /// @notice How long a round stays claimable once open (C18: 90 days).
    uint64 public constant CLAIM_PERIOD = 90 days;
    /// @notice EIP-712 type of an account's instruction to pay its leaf to another address.
    bytes32 public constant CLAIM_TO_TYPEHASH = keccak256(
        "ClaimTo(address token,address asset,uint64 epoch,address account,uint256 amount,address recipient,uint256 deadline)"
    );

    /// @notice The account allowed to post roots.
    address public poster;
    /// @notice The account that may revoke a root during its review besides the owner; never the poster.
    address public guardian;

    /// @notice Unallocated holder pot per (token, asset).
    mapping(address token => mapping(address asset => uint256)) public pot;
    /// @notice Latest posted epoch per (token, asset); the next root must be for a later epoch.
    mapping(address token => mapping(address asset => uint64)) public lastEpoch;
    mapping(address token => mapping(address asset => mapping(uint64 epoch => Round))) private _rounds;
    /// @notice Leaf hashes already paid.
    mapping(bytes32 leaf => bool) public claimed;
    /// @notice Whether an account's balance is excluded from payouts now (besides the deployment's own).
    mapping(address account => bool) public excluded;
    ExclusionChange[] private _exclusionChanges;

    event Funded(address indexed token, address indexed asset, address indexed from, uint256 amount);
    event RootPosted(
        address indexed token,
        address indexed asset,
        uint64 indexed epoch,
        bytes32 root,
        uint256 total,
        uint64 opensAt,
        uint64 closesAt
    );
    event RootRevoked(address indexed token, address indexed asset, uint64 indexed epoch, uint256 returned);
    event Claimed(address indexed token, address indexed asset, uint64 indexed epoch, address account, uint256 amount);
    event ClaimedTo(address indexed account, address indexed recipient, bytes32 leaf);
    event RolledOver(address indexed token, address indexed asset, uint64 indexed epoch, uint256 remainder);
    event ExclusionSet(address indexed account, bool excluded);
    event PosterChanged(address indexed previous, address indexed current);
    event GuardianChanged(address indexed previous, address indexed current);

    error ZeroAddress();
    error ZeroAmount();
    error WrongValue(uint256 sent, uint256 expected);
    error NotPoster(address caller);
    error NotRevoker(address caller);
    error GuardianIsPoster(address account);
    error EmptyRoot();
    error EpochNotAfter(uint64 epoch, uint64 last);
    error SnapshotNotPast(uint64 snapshotBlock, uint256 blockNumber);
    error SnapshotNotAfter(uint64 snapshotBlock, uint64 previous);
    error ExclusionUnchanged(address account, bool excluded);
    error InsufficientPot(uint256 total, uint256 available);
    error UnknownRound(address token, address asset, uint64 epoch);
    error NotOpen(uint64 opensAt, uint256 timestamp);
    error Closed(uint64 closesAt, uint256 timestamp);
    error StillOpen(uint64 closesAt, uint256 timestamp);
    error ReviewOver(uint64 opensAt, uint256 timestamp);
    error AlreadySettled(address token, address asset, uint64 epoch);
    error AlreadyClaimed(bytes32 leaf);
    error InvalidProof(bytes32 leaf);
    error ExceedsRound(uint256 amount, uint256 unclaimed);
    error TransferFailed(address to, uint256 amount);
    error SignatureExpired(uint256 deadline, uint256 timestamp);
    error InvalidAccountSignature(address account);

    constructor(address owner_, address poster_) EIP712("Eden Holder Distributor", "1") Ownable(owner_) {
        if (poster_ == address(0)) revert ZeroAddress();
        poster = poster_;
        _markEventBlock();
        emit PosterChanged(address(0), poster_);
    }

    // ------------------------------------------------------------------------------------------------
    // Funding and roots

    /// @notice Adds `amount` of `asset` (address(0) = ETH, sent as msg.value) to the holder pot of `token`.
    /// @dev ERC-20 funding credits the balance actually received (fee-on-transfer safe).
    function fund(address token, address asset, uint256 amount) external payable nonReentrant {
        if (amount == 0) revert ZeroAmount();
        if (asset == address(0)) {
            if (msg.value != amount) revert WrongValue(msg.value, amount);
        } else {
            if (msg.value != 0) revert WrongValue(msg.value, 0);
            uint256 before = IERC20(asset).balanceOf(address(this));
            IERC20(asset).safeTransferFrom(msg.sender, address(this), amount);
            amount = IERC20(asset).balanceOf(address(this)) - before;
        }
        pot[token][asset] += amount;
        _markEventBlock();
        emit Funded(token, asset, msg.sender, amount);
    }

    /// @notice Posts the round of `epoch` for (token, asset), paying balances at `snapshotBlock`, and allocates
    /// `total` from the pot. The snapshot block is mined and later than the pair's previous round's (C18a).
    function postRoot(address token, address asset, uint64 epoch, bytes32 root, uint128 total, uint64 snapshotBlock)
        external
    {
        if (msg.sender != poster) revert NotPoster(msg.sender);
        if (root == bytes32(0)) revert EmptyRoot();
        if (total == 0) revert ZeroAmount();
        uint64 last = lastEpoch[token][asset];
        if (epoch <= last) revert EpochNotAfter(epoch, last);
        if (snapshotBlock >= block.number) revert SnapshotNotPast(snapshotBlock, block.number);
        if (last != 0) {
            uint64 previous = _rounds[token][asset][last].snapshotBlock;
            if (snapshotBlock <= previous) revert SnapshotNotAfter(snapshotBlock, previous);
        }
        uint256 available = pot[token][asset];
        if (total > available) revert InsufficientPot(total, available);
        pot[token][asset] = available - total;
        lastEpoch[token][asset] = epoch;
        uint64 opensAt = uint64(block.timestamp) + CLAIM_DELAY;
        uint64 closesAt = opensAt + CLAIM_PERIOD;
        _rounds[token][asset][epoch] = Round({
            root: root,
            total: total,
            claimed: 0,
            opensAt: opensAt,
            closesAt: closesAt,
            settled: false,
            snapshotBlock: snapshotBlock
        });
        _markEventBlock();
        emit RootPosted(token, asset, epoch, root, total, opensAt, closesAt);
    }

    /// @notice The owner or the guardian may withdraw a root during its 24 h review; its whole total returns
    /// to the pot.
    function revokeRoot(address token, address asset, uint64 epoch) external {
        if (msg.sender != owner() && (msg.sender != guardian || guardian == address(0))) {
            revert NotRevoker(msg.sender);
        }
        Round storage r = _existing(token, asset, epoch);
        if (r.settled) revert AlreadySettled(token, asset, epoch);
        if (block.timestamp >= r.opensAt) revert ReviewOver(r.opensAt, block.timestamp);
        r.settled = true;
        pot[token][asset] += r.total;
        _markEventBlock();
        emit RootRevoked(token, asset, epoch, r.total);
    }

    /// @notice Returns the unclaimed remainder of a closed round to the pot (the next round allocates it).
    function rollover(address token, address asset, uint64 epoch) external {
        Round storage r = _existing(token, asset, epoch);
        if (r.settled) revert AlreadySettled(token, asset, epoch);
        if (block.timestamp < r.closesAt) revert StillOpen(r.closesAt, block.timestamp);
        r.settled = true;
        uint256 remainder = uint256(r.total) - r.claimed;
        pot[token][asset] += remainder;
        _markEventBlock();
        emit RolledOver(token, asset, epoch, remainder);
    }

    // ------------------------------------------------------------------------------------------------
    // Claims

    /// @notice Pays `amount` of `asset` to `account` for its leaf in the (token, asset, epoch) round.
    /// Anyone may submit; the payment always goes to `account`.
    function claim(
        address token,
        address asset,
        uint64 epoch,
        address account,
        uint256 amount,
        bytes32[] calldata proof
    ) external nonReentrant {
        _claim(token, asset, epoch, account, amount, proof);
        _pay(asset, account, amount);
    }

    /// @notice Pays `account`'s leaf to `recipient`, authorised by `account`'s EIP-712 `ClaimTo` signature
    /// (EOA or ERC-1271). Anyone may submit.
    function claimTo(
        address token,
        address asset,
        uint64 epoch,
        address account,
        uint256 amount,
        bytes32[] calldata proof,
        address recipient,
        uint256 deadline,
        bytes calldata signature
    ) external nonReentrant {
        if (block.timestamp > deadline) revert SignatureExpired(deadline, block.timestamp);
        bytes32 digest = _hashTypedDataV4(
            keccak256(abi.encode(CLAIM_TO_TYPEHASH, token, asset, epoch, account, amount, recipient, deadline))
        );
        if (!SignatureChecker.isValidSignatureNow(account, digest, signature)) revert InvalidAccountSignature(account);
        bytes32 leaf = _claim(token, asset, epoch, account, amount, proof);
        _markEventBlock();
        emit ClaimedTo(account, recipient, leaf);
        _pay(asset, recipient, amount);
    }

    function _claim(
        address token,
        address asset,
        uint64 epoch,
        address account,
        uint256 amount,
        bytes32[] calldata proof
    ) private returns (bytes32 leaf) {
        Round storage r = _existing(token, asset, epoch);
        if (r.settled) revert AlreadySettled(token, asset, epoch);
        if (block.timestamp < r.opensAt) revert NotOpen(r.opensAt, block.timestamp);
        if (block.timestamp >= r.closesAt) revert Closed(r.closesAt, block.timestamp);
        leaf = leafHash(token, asset, epoch, account, amount);
        if (claimed[leaf]) revert AlreadyClaimed(leaf);
        if (!MerkleProof.verifyCalldata(proof, r.root, leaf)) revert InvalidProof(leaf);
        uint256 unclaimed = uint256(r.total) - r.claimed;
        if (amount > unclaimed) revert ExceedsRound(amount, unclaimed);
        claimed[leaf] = true;
        r.claimed += uint128(amount);
        _markEventBlock();
        emit Claimed(token, asset, epoch, account, amount);
    }

    /// @notice The EIP-712 digest `account` signs to let `recipient` receive its leaf.
    function claimToDigest(
        address token,
        address asset,
        uint64 epoch,
        address account,
        uint256 amount,
        address recipient,
        uint256 deadline
    ) external view returns (bytes32) {
        return _hashTypedDataV4(
            keccak256(abi.encode(CLAIM_TO_TYPEHASH, token, asset, epoch, account, amount, recipient, deadline))
        );
    }

    /// @notice Sets the revoke-only guardian (address(0): none). Never the poster.
    function setGuardian(address guardian_) external onlyOwner {
        if (guardian_ != address(0) && guardian_ == poster) revert GuardianIsPoster(guardian_);
        _markEventBlock();
        emit GuardianChanged(guardian, guardian_);
        guardian = guardian_;
    }

    /// @notice Lists (or unlists) an account whose balance never receives payouts: an escrow, a vesting
    /// lock, a vault (C18a). Owner only (the timelock); each change is kept with its block.
    function setExcluded(address account, bool excluded_) external onlyOwner {
        if (account == address(0)) revert ZeroAddress();
        if (excluded[account] == excluded_) revert ExclusionUnchanged(account, excluded_);
        excluded[account] = excluded_;
        _exclusionChanges.push(
            ExclusionChange({account: account, excluded: excluded_, blockNumber: uint64(block.number)})
        );
        _markEventBlock();
        emit ExclusionSet(account, excluded_);
    }

    function setPoster(address poster_) external onlyOwner {
        if (poster_ == address(0)) revert ZeroAddress();
        if (poster_ == guardian) revert GuardianIsPoster(poster_);
        _markEventBlock();
        emit PosterChanged(poster, poster_);
        poster = poster_;
    }

    // ------------------------------------------------------------------------------------------------
    // Reads

    function round(address token, address asset, uint64 epoch) external view returns (Round memory) {
        return _rounds[token][asset][epoch];
    }

    /// @notice Every change of the exclusion list, oldest first (C18a): the list in force at block `b` is
    /// each account's last change with `blockNumber <= b`.
    function exclusionChanges() external view returns (ExclusionChange[] memory) {
        return _exclusionChanges;
    }

    /// @notice The leaf of `account` in a round of this distributor on this chain (C18).
    function leafHash(address token, address asset, uint64 epoch, address account, uint256 amount)
        public
        view
        returns (bytes32)
    {
        return keccak256(
            bytes.concat(keccak256(abi.encode(address(this), block.chainid, token, asset, epoch, account, amount)))
        );
    }

    function _existing(address token, address asset, uint64 epoch) private view returns (Round storage r) {
        r = _rounds[token][asset][epoch];
        if (r.root == bytes32(0)) revert UnknownRound(token, asset, epoch);
    }

    function _pay(address asset, address to, uint256 amount) private {
        if (amount == 0) return;
        if (asset == address(0)) {
            (bool ok,) = to.call{value: amount}("");
            if (!ok) revert TransferFailed(to, amount);
        } else {
            IERC20(asset).safeTransfer(to, amount);
        }
    }
}
