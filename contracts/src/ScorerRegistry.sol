// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {EnumerableSet} from "@openzeppelin/contracts/utils/structs/EnumerableSet.sol";
import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {RewardMath} from "./libraries/RewardMath.sol";
import {WeightClasses} from "./libraries/WeightClasses.sol";
import {EdenLeaves} from "./libraries/EdenLeaves.sol";
import {EventBlocks} from "./libraries/EventBlocks.sol";

/// @notice What the registry reads of the epoch registry: leaves of final roots only (`verifyLeaf`), when an
/// epoch's root was proposed, and the adjudicator whose override wins over any leaf.
interface IQualityVerifier {
    function verifyLeaf(uint64 epoch, bytes32 leaf, bytes32[] calldata proof) external view returns (bool);
    function proposedAt(uint64 epoch) external view returns (uint64);
    function firstProposedAt(uint64 epoch) external view returns (uint64);
    function adjudicator() external view returns (address);
}

/// @notice What the registry needs from the ROOT price (`RootPriceOracle.rootForUsd`).
interface IRootBurnPricer {
    function rootForUsd(uint256 usd, uint256 maxRootIn) external view returns (uint256);
}

/// @notice Where trading fees for scorers accrue (`FeeLanes.pullScorerPool`, C17 scorer lane).
interface IScorerFeeSource {
    function pullScorerPool(address token, address asset) external returns (uint256 amount);
    /// @notice Whether `token` is a launch, and its quote asset (the asset its scorer lane is paid in).
    function launchQuote(address token) external view returns (bool launched, address quote);
}

/// @notice ROOT's burn (OpenZeppelin `ERC20Burnable.burn`).
interface IBurnable {
    function burn(uint256 amount) external;
}

/// @title ScorerRegistry: scorers, scores, positions and per-token reward pools (C11-C16, seed §5-§6).
/// @notice
/// Scorers (C15): `register` stakes `SCORER_STAKE` (2,500 ROOT) and burns `REGISTER_BURN_USD` ($100) of ROOT once
/// (per registration); `score(token, targetScore, thesis)` burns $100 of ROOT (or the planned
/// `max($100, ceil(0.415 * R))` whole dollars when governance published an estimate `R` for the token), at most once
/// every `SCORE_INTERVAL` (14 days) across all tokens; `requestUnstake` ends every open position at once and
/// `withdrawStake` returns the stake `UNSTAKE_COOLDOWN` (7 days) later. ROOT amounts come from the C16 price, rounded
/// up, capped by the payer's `maxBurnRoot`; the price fails closed.
///
/// Positions (C12): `prove(scoreId, epoch, grade, proof)` checks the score's quality leaf against a final epoch
/// root and opens its position on the token with `omega = q_eff * sqrt(sigma)`, replacing the scorer's open position
/// on that token (decided: a re-score replaces the old position when its own grade is proven, as in core
/// `rewards::pool`). Only a scorer's latest score on a token can be proven, while the scorer is staked. A
/// position ends `POSITION_DURATION` (30 days) after its proof, on replacement, or on an unstake request.
/// Grades (C12, decided after the review): the quality leaf names this registry, the score id, the scorer, the token
/// and the thesis hash (`EdenLeaves`), so a grade opens only the position of the score it was made for; it counts
/// only from an epoch proposed after the score; one grade per score: the grade of the earliest epoch wins (a proof
/// from an earlier epoch re-grades a score proven from a later one), and the adjudicator's `overrideGrade` wins
/// over every leaf, re-weighting an open position; a score can be proven or re-graded by a leaf of epoch `e` only
/// until `proveDeadline`: `PROVE_WINDOW` (30 days) after `e`'s current proposal when `e` was first proposed within
/// `PROVE_WINDOW` of the score, else `PROVE_WINDOW` after the score (decided after the second review, issue 35
/// item 3: an upheld challenge and a late re-proposal no longer lock a score out; 30 days after a proposal covers
/// its worst-case finality of 23 days).
///
/// Pools (C11, C13, C14), one per token in its pair asset (set once by the owner; `address(0)` = ETH): fundings drip
/// over 7 days (exact fraction); every event first advances the token to its instant, processing each expiry at its
/// own instant (positions start in time order, so expiries leave a FIFO queue); on each segment `A += floor(R * ACC /
/// D)` with `D = max(W, ceil(omega_max / 5 %))` and `omega_max` from log weight classes (stale only on the high side);
/// `returned = R - ceil(R * W / D)` accrues to the ROOT buyback and is swept to `buyback` by anyone. Scorers claim
/// `floor(omega * (A - A_snap) / ACC)` in the pair asset. Per pool: funded = paid + owed + undripped + returned + dust.
contract ScorerRegistry is Ownable2Step, ReentrancyGuardTransient, EventBlocks {
    using SafeERC20 for IERC20;
    using EnumerableSet for EnumerableSet.AddressSet;
    using WeightClasses for WeightClasses.State;

    uint256 public constant SCORER_STAKE = 2_500e18;
    uint256 public constant REGISTER_BURN_USD = 100e18;
    uint256 public constant SCORE_BURN_USD = 100e18;
    uint256 public constant PLANNED_BURN_FACTOR = 0.415e18;
    uint64 public constant SCORE_INTERVAL = 14 days;
    uint64 public constant UNSTAKE_COOLDOWN = 7 days;
    uint64 public constant POSITION_DURATION = 30 days;
    /// @notice A score's grade can be proven from a leaf only this long after the score (decided: 30 days, the
    /// registry's worst-case finality of a grading root, 23 days with both challenges, plus the grading lag).
    uint64 public constant PROVE_WINDOW = 30 days;
    uint256 public constant MAX_TARGET_SCORE = 100e18;
    /// @notice The longest thesis (its sources included), in UTF-8 bytes (decided: 16 KiB; calldata and log data
    /// cost about 24 gas a byte, so the longest thesis costs about 400,000 gas more than a short one).
    uint256 public constant MAX_THESIS_BYTES = 16_384;
    uint256 public constant CAP_BPS = RewardMath.CAP_BPS;
    uint64 public constant DRIP_DURATION = RewardMath.DRIP_DURATION;

    struct Scorer {
        bool registered;
        uint64 registeredAt;
        uint64 lastScoreAt; // 0: never scored
        uint64 unstakeRequestedAt; // 0: not unstaking
        uint256 stake;
    }

    struct Score {
        address scorer;
        uint64 at;
        bool proven;
        address token;
        uint256 targetScore; // points WAD in [0, 100]
        bytes32 thesisHash;
        uint256 burnedRoot;
        uint64 gradeEpoch; // the epoch of the grade in force (when proven from a leaf)
        bool overridden; // the adjudicator's grade is in force
        uint256 weight; // omega of the grade in force
    }

    struct Position {
        bool open;
        uint64 start;
        uint64 end;
        uint64 nonce;
        uint256 weight;
        uint256 snapshot;
        uint256 scoreId;
    }

    struct Pool {
        bool configured;
        address asset;
        uint64 lastUpdate;
        uint64 dripStart;
        uint64 queueHead;
        uint256 dripAmount;
        uint256 index;
        uint256 totalWeight;
        uint256 funded;
        uint256 paid;
        uint256 returned;
        uint256 returnedSwept;
    }

    struct QueueEntry {
        address scorer;
        uint64 end;
        uint64 nonce;
    }

    IERC20 public immutable root;
    IQualityVerifier public immutable verifier;
    IRootBurnPricer public rootPricer;
    address public buyback;
    /// @notice The fee lanes whose scorer lane `pullFees` drips into the pools (zero: none).
    IScorerFeeSource public feeSource;

    mapping(address => Scorer) private _scorers;
    Score[] private _scores;
    mapping(address scorer => mapping(address token => uint256)) private _latestScore; // scoreId + 1
    mapping(address token => Pool) private _pools;
    mapping(address token => WeightClasses.State) private _classes;
    mapping(address token => QueueEntry[]) private _queue;
    mapping(address token => mapping(address scorer => Position)) private _positions;
    mapping(address token => mapping(address scorer => uint256)) private _accrued;
    mapping(address scorer => EnumerableSet.AddressSet) private _openTokens;
    /// @notice Governance's per-token reward estimate R (USD WAD) for the planned burn; 0 = none (flat $100).
    mapping(address token => uint256) public rewardEstimateUsd;

    event Registered(address indexed scorer, uint256 stake, uint256 burnedRoot);
    event Scored(
        uint256 indexed scoreId,
        address indexed scorer,
        address indexed token,
        uint256 targetScore,
        bytes32 thesisHash,
        uint256 burnedRoot,
        string thesis
    );
    event PositionOpened(
        address indexed token, address indexed scorer, uint256 indexed scoreId, uint64 epoch, uint256 weight, uint64 end
    );
    event PositionClosed(address indexed token, address indexed scorer, uint8 reason); // 0 expired, 1 replaced, 2 unstaked
    event Regraded(uint256 indexed scoreId, uint64 epoch, uint256 weight);
    event GradeOverridden(uint256 indexed scoreId, uint256 qualityWad, uint8 verdict, uint256 weight);
    event PositionReweighted(address indexed token, address indexed scorer, uint256 indexed scoreId, uint256 weight);
    event UnstakeRequested(address indexed scorer, uint64 readyAt);
    event StakeWithdrawn(address indexed scorer, uint256 amount);
    event PoolConfigured(address indexed token, address indexed asset);
    event Funded(address indexed token, address indexed from, uint256 amount, uint256 dripAmount);
    event Claimed(address indexed token, address indexed scorer, uint256 amount);
    event ReturnedSwept(address indexed token, address indexed to, uint256 amount);
    event RootPricerSet(address pricer);
    event BuybackSet(address buyback);
    event RewardEstimateSet(address indexed token, uint256 usd);
    event FeeSourceSet(address source);

    error ZeroAddress();
    error AlreadyRegistered(address scorer);
    error NotRegistered(address scorer);
    error Unstaking(address scorer);
    error NotUnstaking(address scorer);
    error CooldownActive(uint64 readyAt);
    error ScoreTooSoon(uint64 nextAt);
    error TargetOutOfRange(uint256 target);
    error UnknownScore(uint256 scoreId);
    error AlreadyProven(uint256 scoreId, uint64 gradeEpoch);
    error GradeIsOverridden(uint256 scoreId);
    error EpochNotAfterScore(uint64 epoch, uint64 proposedAt, uint64 scoredAt);
    error ProofTooLate(uint256 scoreId, uint64 deadline);
    error NotAdjudicator(address caller);
    error ThesisLength(uint256 length, uint256 max);
    error NotLatestScore(uint256 scoreId, uint256 latest);
    error InvalidProof();
    error PoolNotConfigured(address token);
    error PoolAlreadyConfigured(address token);
    error NotALaunch(address token);
    error WrongPoolAsset(address token, address asset, address quote);
    error WrongValue(uint256 sent, uint256 expected);
    error ZeroAmount();
    error FundingTooSmall(uint256 amount, uint256 minimum);
    error NothingToSweep();
    error TransferFailed();
    error NoFeeSource();
    error UnexpectedEth(address from);

    constructor(
        address owner_,
        IERC20 root_,
        IQualityVerifier verifier_,
        IRootBurnPricer rootPricer_,
        address buyback_
    ) Ownable(owner_) {
        if (
            address(root_) == address(0) || address(verifier_) == address(0) || address(rootPricer_) == address(0)
                || buyback_ == address(0)
        ) revert ZeroAddress();
        root = root_;
        verifier = verifier_;
        rootPricer = rootPricer_;
        buyback = buyback_;
    }

    // ------------------------------------------------------------------ admin

    function setRootPricer(IRootBurnPricer pricer) external onlyOwner {
        if (address(pricer) == address(0)) revert ZeroAddress();
        rootPricer = pricer;
        _markEventBlock();
        emit RootPricerSet(address(pricer));
    }

    function setBuyback(address buyback_) external onlyOwner {
        if (buyback_ == address(0)) revert ZeroAddress();
        buyback = buyback_;
        _markEventBlock();
        emit BuybackSet(buyback_);
    }

    /// @notice Sets the fee lanes contract whose scorer lane `pullFees` pulls (zero address: none).
    function setFeeSource(IScorerFeeSource source) external onlyOwner {
        feeSource = source;
        _markEventBlock();
        emit FeeSourceSet(address(source));
    }

    /// @notice Publishes the planned-burn estimate R (USD WAD) of a token; 0 removes it.
    function setRewardEstimate(address token, uint256 usd) external onlyOwner {
        rewardEstimateUsd[token] = usd;
        _markEventBlock();
        emit RewardEstimateSet(token, usd);
    }

    /// @notice Creates `token`'s reward pool in its pair asset (`address(0)` = ETH). Once per token. A launch's pool
    /// needs no owner call (`configureLaunchPool`); configured here, it must be in the launch's quote asset, the one
    /// the fee lanes pay its scorer lane in.
    function configurePool(address token, address asset) external onlyOwner {
        if (token == address(0)) revert ZeroAddress();
        Pool storage p = _pools[token];
        if (p.configured) revert PoolAlreadyConfigured(token);
        (bool launched, address quote) = _launchQuote(token);
        if (launched && asset != quote) revert WrongPoolAsset(token, asset, quote);
        _configure(token, p, asset);
    }

    /// @notice C11 (decided, #40): creates a launched token's reward pool in its launch's quote asset. Anyone may, once;
    /// `prove`, `fund` and `pullFees` do it themselves when the pool is not configured yet, so a launch's first scorer
    /// proves without any owner call. Reverts `NotALaunch` for a token the fee lanes' launchpad did not launch.
    function configureLaunchPool(address token) external {
        Pool storage p = _pools[token];
        if (p.configured) revert PoolAlreadyConfigured(token);
        (bool launched, address quote) = _launchQuote(token);
        if (!launched) revert NotALaunch(token);
        _configure(token, p, quote);
    }

    // ------------------------------------------------------------------ scorers

    /// @notice Stakes 2,500 ROOT and burns $100 of ROOT (at most `maxBurnRoot`).
    function register(uint256 maxBurnRoot) external nonReentrant {
        Scorer storage s = _scorers[msg.sender];
        if (s.registered) revert AlreadyRegistered(msg.sender);
        uint256 burnAmount = rootPricer.rootForUsd(REGISTER_BURN_USD, maxBurnRoot);
        s.registered = true;
        s.registeredAt = uint64(block.timestamp);
        s.unstakeRequestedAt = 0; // lastScoreAt survives re-registration: the 14-day interval cannot be reset
        s.stake = SCORER_STAKE;
        root.safeTransferFrom(msg.sender, address(this), SCORER_STAKE + burnAmount);
        IBurnable(address(root)).burn(burnAmount);
        _markEventBlock();
        emit Registered(msg.sender, SCORER_STAKE, burnAmount);
    }

    /// @notice Scores `token` with a target (points WAD in [0, 100]) and its thesis (§4: the text, its sources
    /// included, 1 to `MAX_THESIS_BYTES` bytes); burns the score burn in ROOT. Decided after the review: the text is
    /// on chain, in `Scored`, and its hash is computed here (`keccak256` of its UTF-8 bytes, eden-core
    /// `thesis_hash`), so anyone can grade it, every scorer's copy check sees every earlier thesis, and the
    /// submission order (C8's copy-detection order) is the score id order.
    function score(address token, uint256 targetScore, string calldata thesis, uint256 maxBurnRoot)
        external
        nonReentrant
        returns (uint256 scoreId)
    {
        Scorer storage s = _staked(msg.sender);
        if (targetScore > MAX_TARGET_SCORE) revert TargetOutOfRange(targetScore);
        uint256 len = bytes(thesis).length;
        if (len == 0 || len > MAX_THESIS_BYTES) revert ThesisLength(len, MAX_THESIS_BYTES);
        bytes32 thesisHash = keccak256(bytes(thesis));
        if (s.lastScoreAt != 0) {
            uint64 nextAt = s.lastScoreAt + SCORE_INTERVAL;
            if (block.timestamp < nextAt) revert ScoreTooSoon(nextAt);
        }
        uint256 burnAmount = rootPricer.rootForUsd(scoreBurnUsd(token), maxBurnRoot);
        s.lastScoreAt = uint64(block.timestamp);
        scoreId = _scores.length;
        _scores.push(
            Score({
                scorer: msg.sender,
                at: uint64(block.timestamp),
                proven: false,
                token: token,
                targetScore: targetScore,
                thesisHash: thesisHash,
                burnedRoot: burnAmount,
                gradeEpoch: 0,
                overridden: false,
                weight: 0
            })
        );
        _latestScore[msg.sender][token] = scoreId + 1;
        root.safeTransferFrom(msg.sender, address(this), burnAmount);
        IBurnable(address(root)).burn(burnAmount);
        _markEventBlock();
        emit Scored(scoreId, msg.sender, token, targetScore, thesisHash, burnAmount, thesis);
    }

    /// @notice Proves score `scoreId`'s grade (its quality leaf) against the final root of `epoch` and opens its
    /// position; a proof from an epoch earlier than the one in force re-grades the score (the earliest grade wins).
    /// Anyone may call (the proof is public), within `PROVE_WINDOW` of the score.
    function prove(
        uint256 scoreId,
        uint64 epoch,
        uint256 qualityWad,
        uint8 verdict,
        bytes32 matchedThesis,
        bytes32[] calldata proof
    ) external nonReentrant {
        Score storage sc = _score(scoreId);
        if (sc.overridden) revert GradeIsOverridden(scoreId);
        if (sc.proven && epoch >= sc.gradeEpoch) revert AlreadyProven(scoreId, sc.gradeEpoch);
        uint256 w = RewardMath.weight(qualityWad, RewardMath.multiplier(verdict));
        uint64 proposed = verifier.proposedAt(epoch);
        if (proposed <= sc.at) revert EpochNotAfterScore(epoch, proposed, sc.at);
        uint64 deadline = proveDeadline(sc.at, verifier.firstProposedAt(epoch), proposed);
        if (block.timestamp > deadline) revert ProofTooLate(scoreId, deadline);
        if (!verifier.verifyLeaf(epoch, qualityLeaf(scoreId, qualityWad, verdict, matchedThesis), proof)) {
            revert InvalidProof();
        }
        if (sc.proven) {
            sc.gradeEpoch = epoch;
            _regrade(scoreId, sc, w);
            _markEventBlock();
            emit Regraded(scoreId, epoch, w);
            return;
        }
        _staked(sc.scorer);
        _checkLatest(sc.scorer, sc.token, scoreId);
        _poolOf(sc.token);
        sc.proven = true;
        sc.gradeEpoch = epoch;
        sc.weight = w;
        _openPosition(sc.token, sc.scorer, scoreId, w);
        _markEventBlock();
        emit PositionOpened(sc.token, sc.scorer, scoreId, epoch, w, _positions[sc.token][sc.scorer].end);
    }

    /// @notice C12: the last second a leaf of an epoch first proposed at `firstProposed` and currently proposed at
    /// `proposed` can prove a score made at `scoredAt`. Mirrors eden-core `rewards::prove_deadline`.
    function proveDeadline(uint64 scoredAt, uint64 firstProposed, uint64 proposed) public pure returns (uint64) {
        uint256 base = uint256(scoredAt) + PROVE_WINDOW;
        if (firstProposed > base) return uint64(base); // an epoch proposed too late extends nothing
        uint256 d = uint256(proposed > scoredAt ? proposed : scoredAt) + PROVE_WINDOW;
        return d > type(uint64).max ? type(uint64).max : uint64(d);
    }

    /// @notice The adjudicator's grade of score `scoreId` (§4.4): wins over every leaf, for good. An open position of
    /// the score is re-weighted now; an unproven score's position is opened when it still could be (scorer staked,
    /// latest score on the token, pool configured); otherwise the grade is only recorded.
    function overrideGrade(uint256 scoreId, uint256 qualityWad, uint8 verdict) external nonReentrant {
        if (msg.sender != verifier.adjudicator()) revert NotAdjudicator(msg.sender);
        Score storage sc = _score(scoreId);
        uint256 w = RewardMath.weight(qualityWad, RewardMath.multiplier(verdict));
        sc.overridden = true;
        _markEventBlock();
        emit GradeOverridden(scoreId, qualityWad, verdict, w);
        if (sc.proven) {
            _regrade(scoreId, sc, w);
            return;
        }
        sc.proven = true;
        sc.weight = w;
        Scorer storage s = _scorers[sc.scorer];
        bool eligible = s.registered && s.unstakeRequestedAt == 0 && _latestScore[sc.scorer][sc.token] == scoreId + 1
            && _launchPoolReady(sc.token);
        if (eligible) {
            _openPosition(sc.token, sc.scorer, scoreId, w);
            _markEventBlock();
            emit PositionOpened(sc.token, sc.scorer, scoreId, 0, w, _positions[sc.token][sc.scorer].end);
        }
    }

    /// @notice The quality leaf (C5) a grade of score `scoreId` must have: it names this registry, the score, the
    /// scorer, the token and the thesis hash.
    function qualityLeaf(uint256 scoreId, uint256 qualityWad, uint8 verdict, bytes32 matchedThesis)
        public
        view
        returns (bytes32)
    {
        Score storage sc = _score(scoreId);
        return EdenLeaves.qualityLeaf(
            EdenLeaves.Grade({
                scorerRegistry: address(this),
                scoreId: scoreId,
                scorer: sc.scorer,
                project: sc.token,
                thesisHash: sc.thesisHash,
                qualityWad: qualityWad,
                verdict: verdict,
                matchedThesis: matchedThesis
            })
        );
    }

    /// @notice Ends every open position of the caller now and starts the 7-day cooldown.
    function requestUnstake() external nonReentrant {
        Scorer storage s = _staked(msg.sender);
        s.unstakeRequestedAt = uint64(block.timestamp);
        EnumerableSet.AddressSet storage set = _openTokens[msg.sender];
        while (set.length() > 0) {
            address token = set.at(set.length() - 1);
            _advance(token, uint64(block.timestamp));
            if (_positions[token][msg.sender].open) _endPosition(token, msg.sender, 2);
            set.remove(token);
        }
        _markEventBlock();
        emit UnstakeRequested(msg.sender, uint64(block.timestamp) + UNSTAKE_COOLDOWN);
    }

    /// @notice Returns the stake after the cooldown; the scorer is unregistered (rewards stay claimable; a new
    /// registration burns again and keeps the 14-day score interval).
    function withdrawStake() external nonReentrant {
        Scorer storage s = _scorers[msg.sender];
        if (!s.registered) revert NotRegistered(msg.sender);
        if (s.unstakeRequestedAt == 0) revert NotUnstaking(msg.sender);
        uint64 readyAt = s.unstakeRequestedAt + UNSTAKE_COOLDOWN;
        if (block.timestamp < readyAt) revert CooldownActive(readyAt);
        uint256 amount = s.stake;
        s.registered = false;
        s.stake = 0;
        s.unstakeRequestedAt = 0;
        root.safeTransfer(msg.sender, amount);
        _markEventBlock();
        emit StakeWithdrawn(msg.sender, amount);
    }

    // ------------------------------------------------------------------ pools

    /// @notice Funds `token`'s scorer pool with `amount` of its pair asset (ETH as msg.value). Anyone may fund, at
    /// least `minFunding(token)` (1 % of what is still to be released, C11).
    function fund(address token, uint256 amount) external payable nonReentrant {
        Pool storage p = _poolOf(token);
        if (amount == 0) revert ZeroAmount();
        if (p.asset == address(0)) {
            if (msg.value != amount) revert WrongValue(msg.value, amount);
        } else {
            if (msg.value != 0) revert WrongValue(msg.value, 0);
            IERC20(p.asset).safeTransferFrom(msg.sender, address(this), amount);
        }
        _fund(token, p, amount, msg.sender);
    }

    /// @notice Pulls `token`'s scorer lane from the fee lanes and drips it into the pool (C11). Anyone may call.
    function pullFees(address token) external nonReentrant returns (uint256 amount) {
        Pool storage p = _poolOf(token);
        IScorerFeeSource source = feeSource;
        if (address(source) == address(0)) revert NoFeeSource();
        uint256 before = _balance(p.asset);
        source.pullScorerPool(token, p.asset);
        amount = _balance(p.asset) - before; // what actually arrived
        if (amount == 0) revert ZeroAmount();
        _fund(token, p, amount, address(source));
    }

    /// @notice The smallest funding `fund` and `pullFees` accept now: 1 % of the undripped balance, at least 1 (C11).
    function minFunding(address token) external view returns (uint256) {
        Pool storage p = _configured(token);
        uint64 now_ = uint64(block.timestamp);
        return RewardMath.minFundingUp(p.dripAmount - RewardMath.released(p.dripAmount, p.dripStart, now_));
    }

    /// @notice Only the fee lanes send ETH outside `fund` (during `pullFees`).
    receive() external payable {
        if (msg.sender != address(feeSource) || address(feeSource) == address(0)) revert UnexpectedEth(msg.sender);
    }

    function _fund(address token, Pool storage p, uint256 amount, address from) private {
        uint64 now_ = uint64(block.timestamp);
        _advance(token, now_);
        uint256 undripped = p.dripAmount - RewardMath.released(p.dripAmount, p.dripStart, now_);
        // Decided after the second review (C11): a funding restarts the 7-day drip of what is undripped, so it must
        // be at least 1 % of it; hourly dust by anyone no longer turns the linear release into a decay.
        uint256 minimum = RewardMath.minFundingUp(undripped);
        if (amount < minimum) revert FundingTooSmall(amount, minimum);
        p.dripAmount = undripped + amount;
        p.dripStart = now_;
        p.funded += amount;
        _markEventBlock();
        emit Funded(token, from, amount, p.dripAmount);
    }

    function _balance(address asset) private view returns (uint256) {
        return asset == address(0) ? address(this).balance : IERC20(asset).balanceOf(address(this));
    }

    /// @notice Pays the caller everything it is owed by `token`'s pool, in the pair asset.
    function claim(address token) external nonReentrant returns (uint256 amount) {
        Pool storage p = _configured(token);
        _advance(token, uint64(block.timestamp));
        _settle(token, msg.sender);
        amount = _accrued[token][msg.sender];
        if (amount != 0) {
            _accrued[token][msg.sender] = 0;
            p.paid += amount;
            _pay(p.asset, msg.sender, amount);
        }
        _markEventBlock();
        emit Claimed(token, msg.sender, amount);
    }

    /// @notice Sends everything returned so far by `token`'s pool to the ROOT buyback. Anyone may call.
    function sweepReturned(address token) external nonReentrant returns (uint256 amount) {
        Pool storage p = _configured(token);
        _advance(token, uint64(block.timestamp));
        amount = p.returned - p.returnedSwept;
        if (amount == 0) revert NothingToSweep();
        p.returnedSwept = p.returned;
        _pay(p.asset, buyback, amount);
        _markEventBlock();
        emit ReturnedSwept(token, buyback, amount);
    }

    /// @notice Advances `token`'s pool to now (processing expiries). Anyone may call.
    function poke(address token) external {
        _configured(token);
        _advance(token, uint64(block.timestamp));
    }

    // ------------------------------------------------------------------ views

    /// @notice C15 burn of one score on `token` (USD WAD): $100, or `max($100, ceil(0.415 * R))` whole dollars.
    function scoreBurnUsd(address token) public view returns (uint256) {
        uint256 r = rewardEstimateUsd[token];
        if (r == 0) return SCORE_BURN_USD;
        uint256 planned = Math.mulDiv(r, PLANNED_BURN_FACTOR, 1e36, Math.Rounding.Ceil) * 1e18;
        return planned > SCORE_BURN_USD ? planned : SCORE_BURN_USD;
    }

    function scorer(address who) external view returns (Scorer memory) {
        return _scorers[who];
    }

    function getScore(uint256 scoreId) external view returns (Score memory) {
        return _score(scoreId);
    }

    function scoreCount() external view returns (uint256) {
        return _scores.length;
    }

    /// @notice The earliest time `who` may score again.
    function nextScoreAt(address who) external view returns (uint64) {
        uint64 last = _scorers[who].lastScoreAt;
        return last == 0 ? 0 : last + SCORE_INTERVAL;
    }

    function pool(address token) external view returns (Pool memory) {
        return _pools[token];
    }

    function position(address token, address who) external view returns (Position memory) {
        return _positions[token][who];
    }

    /// @notice `omega_max` as tracked (log weight classes).
    function maxWeight(address token) public view returns (uint256) {
        return _classes[token].max();
    }

    /// @notice `D` as stored now.
    function denominatorOf(address token) public view returns (uint256) {
        return RewardMath.denominator(_pools[token].totalWeight, maxWeight(token));
    }

    /// @notice What `who` is owed by `token`'s pool as of its last update (`poke` first for now).
    function owedStored(address token, address who) public view returns (uint256) {
        Position storage pos = _positions[token][who];
        uint256 pending = pos.open ? RewardMath.owed(pos.weight, _pools[token].index, pos.snapshot) : 0;
        return _accrued[token][who] + pending;
    }

    /// @notice Undripped balance as of the pool's last update.
    function undrippedStored(address token) public view returns (uint256) {
        Pool storage p = _pools[token];
        return p.dripAmount - RewardMath.released(p.dripAmount, p.dripStart, p.lastUpdate);
    }

    function openTokens(address who) external view returns (address[] memory) {
        return _openTokens[who].values();
    }

    // ------------------------------------------------------------------ internals

    function _score(uint256 scoreId) private view returns (Score storage) {
        if (scoreId >= _scores.length) revert UnknownScore(scoreId);
        return _scores[scoreId];
    }

    function _checkLatest(address who, address token, uint256 scoreId) private view {
        uint256 latest = _latestScore[who][token] - 1;
        if (latest != scoreId) revert NotLatestScore(scoreId, latest);
    }

    /// @dev A new grade for a proven score: its weight, and its open position's (if the position is still this
    /// score's) from now on.
    function _regrade(uint256 scoreId, Score storage sc, uint256 w) private {
        sc.weight = w;
        address token = sc.token;
        address who = sc.scorer;
        if (!_pools[token].configured) return;
        Position storage pos = _positions[token][who];
        _advance(token, uint64(block.timestamp));
        if (!pos.open || pos.scoreId != scoreId) return;
        _settle(token, who);
        uint256 old = pos.weight;
        _pools[token].totalWeight = _pools[token].totalWeight - old + w;
        _classes[token].remove(old);
        _classes[token].insert(w);
        pos.weight = w;
        _markEventBlock();
        emit PositionReweighted(token, who, scoreId, w);
    }

    function _staked(address who) private view returns (Scorer storage s) {
        s = _scorers[who];
        if (!s.registered) revert NotRegistered(who);
        if (s.unstakeRequestedAt != 0) revert Unstaking(who);
    }

    /// @dev `token`'s pool, configured now from its launch (`_configureLaunch`) when it is not yet.
    function _poolOf(address token) private returns (Pool storage p) {
        p = _pools[token];
        if (!p.configured) _configureLaunch(token, p);
    }

    /// @dev True when `token`'s pool is configured, or is now from its launch; false for a token that is neither.
    function _launchPoolReady(address token) private returns (bool) {
        Pool storage p = _pools[token];
        if (p.configured) return true;
        (bool launched, address quote) = _launchQuote(token);
        if (!launched) return false;
        _configure(token, p, quote);
        return true;
    }

    /// @dev Configures `token`'s pool in its launch's quote asset; reverts `PoolNotConfigured` for a token that is
    /// not a launch (the error a caller of an unconfigured pool has always seen).
    function _configureLaunch(address token, Pool storage p) private {
        (bool launched, address quote) = _launchQuote(token);
        if (!launched) revert PoolNotConfigured(token);
        _configure(token, p, quote);
    }

    /// @dev Whether the fee lanes' launchpad launched `token`, and its quote asset (`(false, 0)` without fee lanes).
    function _launchQuote(address token) private view returns (bool launched, address quote) {
        IScorerFeeSource source = feeSource;
        if (address(source) == address(0)) return (false, address(0));
        return source.launchQuote(token);
    }

    function _configure(address token, Pool storage p, address asset) private {
        p.configured = true;
        p.asset = asset;
        p.lastUpdate = uint64(block.timestamp);
        p.dripStart = uint64(block.timestamp);
        _markEventBlock();
        emit PoolConfigured(token, asset);
    }

    function _configured(address token) private view returns (Pool storage p) {
        p = _pools[token];
        if (!p.configured) revert PoolNotConfigured(token);
    }

    /// @dev Advances the pool to `t`, ending each expired position at its own instant.
    function _advance(address token, uint64 t) private {
        Pool storage p = _pools[token];
        QueueEntry[] storage q = _queue[token];
        uint256 head = p.queueHead;
        uint256 n = q.length;
        while (head < n) {
            QueueEntry memory e = q[head];
            if (e.end > t) break;
            Position storage pos = _positions[token][e.scorer];
            if (pos.open && pos.nonce == e.nonce) {
                _segment(p, token, e.end);
                _endPosition(token, e.scorer, 0);
                _openTokens[e.scorer].remove(token);
            }
            ++head;
        }
        p.queueHead = uint64(head);
        _segment(p, token, t);
    }

    /// @dev C14 segment `[lastUpdate, t1)` with the current W and D.
    function _segment(Pool storage p, address token, uint64 t1) private {
        uint64 t0 = p.lastUpdate;
        if (t1 <= t0) return;
        uint256 amount = p.dripAmount;
        uint256 reward =
            RewardMath.released(amount, p.dripStart, t1) - RewardMath.released(amount, p.dripStart, t0);
        if (reward != 0) {
            uint256 w = p.totalWeight;
            (uint256 inc, uint256 ret) =
                RewardMath.segment(reward, w, w == 0 ? 0 : RewardMath.denominator(w, _classes[token].max()));
            p.index += inc;
            p.returned += ret;
        }
        p.lastUpdate = t1;
    }

    function _settle(address token, address who) private {
        Position storage pos = _positions[token][who];
        if (!pos.open) return;
        uint256 idx = _pools[token].index;
        uint256 o = RewardMath.owed(pos.weight, idx, pos.snapshot);
        pos.snapshot = idx;
        if (o != 0) _accrued[token][who] += o;
    }

    function _endPosition(address token, address who, uint8 reason) private {
        _settle(token, who);
        Position storage pos = _positions[token][who];
        pos.open = false;
        _pools[token].totalWeight -= pos.weight;
        _classes[token].remove(pos.weight);
        _markEventBlock();
        emit PositionClosed(token, who, reason);
    }

    function _openPosition(address token, address who, uint256 scoreId, uint256 w) private {
        uint64 now_ = uint64(block.timestamp);
        _advance(token, now_);
        Position storage pos = _positions[token][who];
        if (pos.open) _endPosition(token, who, 1);
        uint64 nonce = pos.nonce + 1;
        uint64 end = now_ + POSITION_DURATION;
        _positions[token][who] = Position({
            open: true,
            start: now_,
            end: end,
            nonce: nonce,
            weight: w,
            snapshot: _pools[token].index,
            scoreId: scoreId
        });
        _pools[token].totalWeight += w;
        _classes[token].insert(w);
        _queue[token].push(QueueEntry({scorer: who, end: end, nonce: nonce}));
        _openTokens[who].add(token);
    }

    function _pay(address asset, address to, uint256 amount) private {
        if (asset == address(0)) {
            (bool ok,) = to.call{value: amount}("");
            if (!ok) revert TransferFailed();
        } else {
            IERC20(asset).safeTransfer(to, amount);
        }
    }
}
