// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {IUniswapV3PoolOracle} from "./interfaces/IUniswapV3PoolOracle.sol";
import {OracleMath} from "./libraries/OracleMath.sol";
import {CallMath} from "./libraries/CallMath.sol";
import {EventBlocks} from "./libraries/EventBlocks.sol";

/// @title CallLedger: agents' commit/reveal calls on stock tokens, scored on Uniswap v3 TWAPs (A1-A5).
/// @notice Mirrors eden-core `calls::ledger` (the commit -> reveal -> resolve / expire state machine).
///
/// 1. `stake` the stake token; `commit(commitment)` needs `stake >= minStake`, where
///    `commitment = keccak256(abi.encode(address agent, address asset, uint8 direction, uint64 window, bytes32 salt))`,
///    direction 0 = down, 1 = up. An agent can post a commitment once.
/// 2. `reveal` at `committedAt + MIN_REVEAL_AGE <= now <= committedAt + revealDeadline` (decided: `REVEAL_DEADLINE` =
///    3600 s; decided after the second review: `MIN_REVEAL_AGE` = 300 s, the TWAP window, so an agent who commits
///    after seeing another's `Revealed` reveals at least 300 s after it, its entry window starting at or after that
///    reveal: copying a call needs a commitment made before the call was public, and any commitment not revealed
///    expires as a miss).
///    The entry price is the 300 s TWAP ending now, `closesAt = now + window` with `window >= MIN_WINDOW` (the TWAP
///    window, 300 s: the exit window `[closesAt - 300, closesAt]` starts at or after the reveal, so no swap made at or
///    before the reveal is inside it, and entry and exit windows never overlap), and, unless the agent
///    already voted in that round (one vote per agent per round, decided), the reveal adds `vote = 1 + score(agent)`
///    (WAD, the score at reveal) to round `(asset, window, closesAt / window)` (A4), which may emit `Consensus`.
/// 3. `resolve(id)` by anyone at `now >= closesAt`: the exit price is the 300 s TWAP ending at `closesAt`, read from the
///    same accumulator. Hit when the direction matches the sign of `exit - entry`, miss when opposite, void when equal
///    (A3). Decided after the second review: on a pool price the move must cover the call's band, `|exit - entry| >=
///    ceil(entry * band / 1e6)` with `band = max(pool fee, MIN_BAND_PIPS)` fixed when the pool is set (`bandPips`),
///    else the call is void: a push smaller than the pool's fee is never arbitraged back, so an agent could hold the
///    exit mean one tick its way for the cost of that fee. Pushed prices (the named updater's, which no agent moves)
///    keep a band of zero. Decided after the review: a call resolved after `closesAt + RESOLVE_GRACE` (1 h), or whose exit price can
///    no longer be computed (the pool's observation buffer no longer covers `closesAt - 300`), is a miss: an agent
///    cannot turn a losing call into a void by leaving it unresolved or by pushing the buffer past it.
/// 4. `expire(id)` by anyone at `now > committedAt + revealDeadline`: a commit never revealed counts as a miss (A2).
/// 5. Overdue calls count at once (decided after the review): `score(agent)` counts every open call of the agent that
///    is past its reveal deadline (committed) or past `closesAt + RESOLVE_GRACE` (revealed) as a miss before anyone
///    resolves or expires it, so nobody else has to pay gas for a bad outcome to land; the vote weight of a reveal uses
///    that score. An agent has at most `MAX_OPEN_CALLS` (16) open calls, which bounds the count.
///
/// Records (A2): expired and missed calls add a miss and reset `streak`; voids count as nothing; `bestStreak` is the
/// longest run of hits. Scores (A1): `computeScore(hits, misses, stake, minStake)`.
///
/// Prices (A5): per asset, a Uniswap v3 pool against USDG: `avgTick` over 300 s rounded toward -inf, priced as
/// `getQuoteAtTick(avgTick, 1e18, stock, USDG) * 1e12` (WAD USDG per whole stock token, both token orders). An asset
/// with no pool may use prices pushed by a named updater; a pool, once set, always wins and cannot be replaced or
/// removed. Decided: a call is resolved from the source its entry came from (a call priced by pushes keeps pushes;
/// the pushed price at `t` is the last one pushed at or before `t`). Decided after the review (A5): a call entered on
/// pushes whose `closesAt` is after the pool was set never resolves on pushes (pushes stop at the pool, so the last
/// push would be a stale exit) nor on the pool (an entry and an exit from two sources would let an agent who sees
/// the pool coming bet on the gap): resolved in time it is void, late it is a miss like any other.
/// A pool is accepted only with room for at least `MIN_OBSERVATIONS` (1,800) observations (its
/// `observationCardinalityNext`; the seed's launch pools carry 1,800 to 6,000), so `closesAt` stays covered for days.
///
/// Stake (decided): any amount may be added at any time; an agent with open calls (committed or revealed, not yet
/// resolved or expired) cannot withdraw, so a stake cannot leave while it backs a pending call.
contract CallLedger is Ownable2Step, ReentrancyGuardTransient, EventBlocks {
    using SafeERC20 for IERC20;

    /// @notice Seconds after a commit within which it must be revealed (decided: 1 hour).
    uint64 public constant REVEAL_DEADLINE = 3_600;
    /// @notice Seconds a commitment must age before it can be revealed (decided after the second review: the TWAP
    /// window, so a copy made after a reveal is public enters on a window that starts at or after that reveal).
    uint64 public constant MIN_REVEAL_AGE = 300;
    /// @notice Consensus quorum at launch (A4).
    uint64 public constant DEFAULT_CONSENSUS_QUORUM = 3;
    /// @notice Consensus threshold at launch, in basis points (A4: 66.67 %).
    uint16 public constant DEFAULT_CONSENSUS_THRESHOLD_BPS = 6_667;
    /// @notice A5 TWAP window.
    uint32 public constant TWAP_WINDOW = OracleMath.TWAP_WINDOW_SECONDS;
    /// @notice The shortest call window: the TWAP window, so entry and exit windows do not overlap.
    uint64 public constant MIN_WINDOW = TWAP_WINDOW;
    /// @notice A call not resolved within this time after `closesAt` counts as a miss (decided: 1 hour).
    uint64 public constant RESOLVE_GRACE = 3_600;
    /// @notice Open (committed or revealed) calls an agent may have at once.
    uint64 public constant MAX_OPEN_CALLS = 16;
    /// @notice The fewest observations a pool must have room for (`observationCardinalityNext`) to be set (A5).
    uint16 public constant MIN_OBSERVATIONS = 1_800;
    /// @notice The narrowest band a pool-priced call's move must cover (A3, decided: 100 pips = 0.01 %, about one
    /// tick), for a pool whose fee is lower.
    uint24 public constant MIN_BAND_PIPS = 100;

    enum Status {
        None,
        Committed,
        Revealed,
        Resolved,
        Expired
    }

    enum Outcome {
        None,
        Hit,
        Miss,
        Void,
        Expired
    }

    struct AgentRecord {
        uint64 hits;
        uint64 misses;
        uint64 voids;
        uint64 streak;
        uint64 bestStreak;
        uint64 openCalls;
        uint256 stake;
    }

    struct Call {
        address agent;
        uint64 committedAt;
        Status status;
        Outcome outcome;
        uint8 direction;
        bool pushedPrice; // entry (and so exit) from pushed prices rather than the pool
        address asset;
        uint64 window;
        uint64 revealedAt;
        uint64 closesAt;
        bytes32 commitment;
        uint256 entryPrice;
        uint256 exitPrice; // 0 when void for lack of an exit price
        uint256 vote; // weight added to the round; 0 when the agent had already voted in it
    }

    struct Round {
        uint256 upWeight;
        uint256 downWeight;
        uint64 voters;
        uint8 lastEventDirection; // 0 none, 1 + direction of the last Consensus event
    }

    struct ConsensusRecord {
        address asset;
        uint64 window;
        uint64 bucket;
        uint8 direction;
        uint16 strengthBps;
        uint64 voters;
        uint256 upWeight;
        uint256 downWeight;
    }

    struct PricePoint {
        uint64 at;
        uint256 price;
    }

    struct PriceSource {
        address pool; // v3 pool (stock/USDG); once set, it wins
        bool stockIsToken0;
        address updater; // who may push prices while there is no pool
        uint64 poolActiveAt; // when the pool takes over (0: no pool); pushed calls closing after it are void
    }

    /// @notice Token agents stake.
    IERC20 public immutable stakeToken;
    /// @notice The USDG token every pool must pair with.
    address public immutable usdg;
    /// @notice Weight 1 stake (A1).
    uint256 public immutable minStake;
    /// @notice Only an agent's first reveal in a round adds a vote (decided default: true).
    bool public immutable oneVotePerAgent;

    uint64 public consensusQuorum = DEFAULT_CONSENSUS_QUORUM;
    uint16 public consensusThresholdBps = DEFAULT_CONSENSUS_THRESHOLD_BPS;

    mapping(address agent => AgentRecord) private _agents;
    Call[] private _calls;
    /// @notice Commitments each agent has posted (decided after the second review: per agent, so a commitment hash
    /// copied from the mempool and posted first by another account cannot make the victim's `commit` revert; the
    /// copier's call can never be revealed, since the commitment hashes the victim's address).
    mapping(address agent => mapping(bytes32 commitment => bool)) public commitmentUsed;
    /// @notice A3: the band of `asset`'s pool-priced calls, in pips (`max(fee, MIN_BAND_PIPS)`), set with its pool.
    mapping(address asset => uint24) public bandPips;
    mapping(bytes32 roundKey => Round) private _rounds;
    mapping(bytes32 roundKey => mapping(address agent => bool)) public votedInRound;
    ConsensusRecord[] private _consensusLog;
    mapping(address asset => PriceSource) private _sources;
    mapping(address asset => PricePoint[]) private _pushed;
    mapping(address agent => uint256[]) private _openIds;
    mapping(uint256 id => uint256) private _openPos; // index in the agent's open list + 1

    event Staked(address indexed agent, uint256 amount, uint256 stake);
    event Unstaked(address indexed agent, uint256 amount, uint256 stake);
    event Committed(uint256 indexed id, address indexed agent, bytes32 commitment);
    event Revealed(
        uint256 indexed id,
        address indexed agent,
        address indexed asset,
        uint8 direction,
        uint64 window,
        uint64 closesAt,
        uint256 entryPrice,
        uint256 vote
    );
    event Resolved(uint256 indexed id, address indexed agent, Outcome outcome, uint256 exitPrice);
    event CallExpired(uint256 indexed id, address indexed agent);
    event Consensus(
        address indexed asset,
        uint64 indexed window,
        uint64 indexed bucket,
        uint8 direction,
        uint16 strengthBps,
        uint64 voters,
        uint256 upWeight,
        uint256 downWeight
    );
    event ConsensusParamsSet(uint64 quorum, uint16 thresholdBps);
    event PoolSet(address indexed asset, address indexed pool, bool stockIsToken0, uint64 activeAt);
    event UpdaterSet(address indexed asset, address indexed updater);
    event PricePushed(address indexed asset, uint256 price, uint64 at);

    error ZeroAddress();
    error ZeroAmount();
    error InsufficientStake(uint256 stake, uint256 minStake);
    error OpenCalls(uint64 openCalls);
    error DuplicateCommitment(bytes32 commitment);
    error UnknownCall(uint256 id);
    error NotCallAgent(uint256 id, address caller);
    error WrongStatus(uint256 id, Status actual, Status expected);
    error CommitmentMismatch();
    error BadDirection(uint8 direction);
    error ZeroWindow();
    error WindowTooShort(uint64 window, uint64 minWindow);
    error TooManyOpenCalls(uint64 openCalls);
    error TimeOverflow();
    error RevealDeadlinePassed(uint256 timestamp, uint64 deadline);
    error RevealTooEarly(uint256 timestamp, uint64 opensAt);
    error NotExpiredYet(uint256 timestamp, uint64 deadline);
    error NotClosedYet(uint256 timestamp, uint64 closesAt);
    error ThresholdAbove100(uint16 thresholdBps);
    error PoolAlreadySet(address asset, address pool);
    error PoolNotForAsset(address pool, address asset);
    error NotUpdater(address caller);
    error UpdaterNotAllowed(address asset);
    error NoPriceSource(address asset);
    error PriceUnavailable(address asset);
    error TooFewObservations(address pool, uint16 cardinalityNext, uint16 minimum);

    constructor(address owner_, IERC20 stakeToken_, address usdg_, uint256 minStake_, bool oneVotePerAgent_)
        Ownable(owner_)
    {
        if (address(stakeToken_) == address(0) || usdg_ == address(0)) revert ZeroAddress();
        if (minStake_ == 0) revert CallMath.ZeroMinStake();
        stakeToken = stakeToken_;
        usdg = usdg_;
        minStake = minStake_;
        oneVotePerAgent = oneVotePerAgent_;
    }

    // ------------------------------------------------------------------ admin and prices

    /// @notice Sets quorum and threshold (A4; launch values 3 and 6,667 bps).
    function setConsensusParams(uint64 quorum, uint16 thresholdBps) external onlyOwner {
        if (thresholdBps > CallMath.BPS) revert ThresholdAbove100(thresholdBps);
        consensusQuorum = quorum;
        consensusThresholdBps = thresholdBps;
        _markEventBlock();
        emit ConsensusParamsSet(quorum, thresholdBps);
    }

    /// @notice Sets `asset`'s Uniswap v3 pool against USDG, taking over from pushed prices at `activeAt` (or now, when
    /// that has passed). Once set it always wins from then on and cannot change.
    /// Decided after the second review: the moment the pool takes over is part of the call, so whoever executes the
    /// (timelocked, anyone-executes) call cannot pick it: before, an agent executed it just before its losing
    /// pushed-price calls closed, and they resolved void (A5). Pushes go on until `activeAt`.
    function setPool(address asset, address pool, uint64 activeAt) external onlyOwner {
        if (asset == address(0) || pool == address(0)) revert ZeroAddress();
        PriceSource storage s = _sources[asset];
        if (s.pool != address(0)) revert PoolAlreadySet(asset, s.pool);
        address t0 = IUniswapV3PoolOracle(pool).token0();
        address t1 = IUniswapV3PoolOracle(pool).token1();
        bool stockIsToken0;
        if (t0 == asset && t1 == usdg) stockIsToken0 = true;
        else if (!(t0 == usdg && t1 == asset)) revert PoolNotForAsset(pool, asset);
        (,,,, uint16 cardinalityNext,,) = IUniswapV3PoolOracle(pool).slot0();
        if (cardinalityNext < MIN_OBSERVATIONS) revert TooFewObservations(pool, cardinalityNext, MIN_OBSERVATIONS);
        s.pool = pool;
        uint64 from = activeAt > block.timestamp ? activeAt : uint64(block.timestamp);
        s.poolActiveAt = from;
        s.stockIsToken0 = stockIsToken0;
        uint24 fee = IUniswapV3PoolOracle(pool).fee();
        bandPips[asset] = fee > MIN_BAND_PIPS ? fee : MIN_BAND_PIPS;
        _markEventBlock();
        emit PoolSet(asset, pool, stockIsToken0, from);
    }

    /// @notice Names the account that may push `asset`'s price while it has no pool (zero address: nobody).
    function setUpdater(address asset, address updater) external onlyOwner {
        if (asset == address(0)) revert ZeroAddress();
        if (_sources[asset].pool != address(0)) revert UpdaterNotAllowed(asset);
        _sources[asset].updater = updater;
        _markEventBlock();
        emit UpdaterSet(asset, updater);
    }

    /// @notice The named updater pushes `asset`'s price (WAD USDG per whole token) at `now`.
    function pushPrice(address asset, uint256 price) external {
        PriceSource storage s = _sources[asset];
        if (_poolActive(s)) revert UpdaterNotAllowed(asset);
        if (msg.sender != s.updater || msg.sender == address(0)) revert NotUpdater(msg.sender);
        if (price == 0) revert ZeroAmount();
        PricePoint[] storage pts = _pushed[asset];
        uint64 now_ = uint64(block.timestamp);
        uint256 n = pts.length;
        if (n != 0 && pts[n - 1].at == now_) pts[n - 1].price = price; // several pushes in one second: the last holds
        else pts.push(PricePoint({at: now_, price: price}));
        _markEventBlock();
        emit PricePushed(asset, price, now_);
    }

    // ------------------------------------------------------------------ stake

    /// @notice Adds `amount` of the stake token to the caller's stake.
    function stake(uint256 amount) external nonReentrant {
        if (amount == 0) revert ZeroAmount();
        AgentRecord storage r = _agents[msg.sender];
        r.stake += amount;
        stakeToken.safeTransferFrom(msg.sender, address(this), amount);
        _markEventBlock();
        emit Staked(msg.sender, amount, r.stake);
    }

    /// @notice Withdraws `amount` of the caller's stake; only with no open call.
    function unstake(uint256 amount) external nonReentrant {
        if (amount == 0) revert ZeroAmount();
        AgentRecord storage r = _agents[msg.sender];
        if (r.openCalls != 0) revert OpenCalls(r.openCalls);
        r.stake -= amount; // reverts (panic) when amount exceeds the stake
        stakeToken.safeTransfer(msg.sender, amount);
        _markEventBlock();
        emit Unstaked(msg.sender, amount, r.stake);
    }

    // ------------------------------------------------------------------ calls

    /// @notice Step 1: posts a commitment; returns the call id.
    function commit(bytes32 commitment) external returns (uint256 id) {
        AgentRecord storage r = _agents[msg.sender];
        if (r.stake < minStake) revert InsufficientStake(r.stake, minStake);
        if (r.openCalls >= MAX_OPEN_CALLS) revert TooManyOpenCalls(r.openCalls);
        if (commitmentUsed[msg.sender][commitment]) revert DuplicateCommitment(commitment);
        commitmentUsed[msg.sender][commitment] = true;
        id = _calls.length;
        Call storage c = _calls.push();
        c.agent = msg.sender;
        c.committedAt = uint64(block.timestamp);
        c.status = Status.Committed;
        c.commitment = commitment;
        r.openCalls += 1;
        _openIds[msg.sender].push(id);
        _openPos[id] = _openIds[msg.sender].length;
        _markEventBlock();
        emit Committed(id, msg.sender, commitment);
    }

    /// @notice Step 2: reveals call `id`; fixes the entry price and adds the caller's vote.
    function reveal(uint256 id, address asset, uint8 direction, uint64 window, bytes32 salt) external {
        Call storage c = _existing(id);
        if (c.agent != msg.sender) revert NotCallAgent(id, msg.sender);
        if (c.status != Status.Committed) revert WrongStatus(id, c.status, Status.Committed);
        uint64 opensAt = c.committedAt + MIN_REVEAL_AGE; // committedAt is a block time: no overflow
        if (block.timestamp < opensAt) revert RevealTooEarly(block.timestamp, opensAt);
        uint64 deadline = _revealDeadline(c.committedAt);
        if (block.timestamp > deadline) revert RevealDeadlinePassed(block.timestamp, deadline);
        if (callCommitment(msg.sender, asset, direction, window, salt) != c.commitment) revert CommitmentMismatch();
        if (direction > CallMath.UP) revert BadDirection(direction);
        if (window < MIN_WINDOW) revert WindowTooShort(window, MIN_WINDOW);
        uint256 closesAt256 = block.timestamp + window;
        if (closesAt256 > type(uint64).max) revert TimeOverflow();
        uint64 closesAt = uint64(closesAt256);

        (uint256 entry, bool pushed) = _priceNow(asset);
        uint256 vote = _vote(asset, window, closesAt / window, direction);

        c.status = Status.Revealed;
        c.direction = direction;
        c.pushedPrice = pushed;
        c.asset = asset;
        c.window = window;
        c.revealedAt = uint64(block.timestamp);
        c.closesAt = closesAt;
        c.entryPrice = entry;
        c.vote = vote;
        _markEventBlock();
        emit Revealed(id, msg.sender, asset, direction, window, closesAt, entry, vote);
    }

    /// @notice Step 3: resolves revealed call `id` at `now >= closesAt` (anyone). Past `closesAt + RESOLVE_GRACE`, or
    /// when the exit price can no longer be computed, the call is a miss.
    function resolve(uint256 id) external returns (Outcome outcome) {
        Call storage c = _existing(id);
        if (c.status != Status.Revealed) revert WrongStatus(id, c.status, Status.Revealed);
        if (block.timestamp < c.closesAt) revert NotClosedYet(block.timestamp, c.closesAt);
        bool ok;
        uint256 exit;
        bool inTime = block.timestamp <= _resolveDeadline(c.closesAt);
        if (inTime && c.pushedPrice && _supersededAt(c.asset, c.closesAt)) {
            outcome = Outcome.Void; // entered on pushes, closing after the pool took over: no single source (A5)
        } else {
            if (inTime) (ok, exit) = _priceAt(c.asset, c.closesAt, c.pushedPrice);
            if (!ok) {
                outcome = Outcome.Miss; // resolved too late, or the exit price is gone: against the agent
            } else {
                outcome = Outcome(CallMath.outcomeOf(c.entryPrice, exit, c.direction, callBandPips(id)));
            }
        }
        c.status = Status.Resolved;
        c.outcome = outcome;
        if (ok) c.exitPrice = exit;
        _apply(id, c.agent, outcome);
        _markEventBlock();
        emit Resolved(id, c.agent, outcome, ok ? exit : 0);
    }

    /// @notice Step 4: expires committed call `id` past its reveal deadline (anyone); counts as a miss.
    function expire(uint256 id) external {
        Call storage c = _existing(id);
        if (c.status != Status.Committed) revert WrongStatus(id, c.status, Status.Committed);
        uint64 deadline = _revealDeadline(c.committedAt);
        if (block.timestamp <= deadline) revert NotExpiredYet(block.timestamp, deadline);
        c.status = Status.Expired;
        c.outcome = Outcome.Expired;
        _apply(id, c.agent, Outcome.Expired);
        _markEventBlock();
        emit CallExpired(id, c.agent);
    }

    // ------------------------------------------------------------------ views

    /// @notice A3: the band call `id`'s move must cover, in pips: its pool's (`bandPips`), zero on pushed prices.
    function callBandPips(uint256 id) public view returns (uint24) {
        Call storage c = _existing(id);
        return c.pushedPrice ? 0 : bandPips[c.asset];
    }

    /// @notice A1: `floor(hits² * stake * 1e18 / (minStake * (hits + misses + 1)))`.
    function computeScore(uint64 hits, uint64 misses, uint256 stake_, uint256 minStake_) public pure returns (uint256) {
        return CallMath.computeScore(hits, misses, stake_, minStake_);
    }

    /// @notice A1: an agent's current score (WAD), its overdue open calls counted as misses.
    function score(address agent) public view returns (uint256) {
        AgentRecord storage r = _agents[agent];
        return CallMath.computeScore(r.hits, r.misses + overdueCalls(agent), r.stake, minStake);
    }

    /// @notice The agent's open calls that already count as misses: committed past the reveal deadline, or revealed
    /// and unresolved past `closesAt + RESOLVE_GRACE`.
    function overdueCalls(address agent) public view returns (uint64 n) {
        uint256[] storage ids = _openIds[agent];
        for (uint256 i; i < ids.length; ++i) {
            Call storage c = _calls[ids[i]];
            if (c.status == Status.Committed) {
                if (block.timestamp > _revealDeadline(c.committedAt)) ++n;
            } else if (block.timestamp > _resolveDeadline(c.closesAt)) {
                ++n;
            }
        }
    }

    /// @notice The ids of the agent's open (committed or revealed) calls.
    function openCallIds(address agent) external view returns (uint256[] memory) {
        return _openIds[agent];
    }

    /// @notice The commitment an agent posts for a call.
    function callCommitment(address agent, address asset, uint8 direction, uint64 window, bytes32 salt)
        public
        pure
        returns (bytes32)
    {
        return keccak256(abi.encode(agent, asset, direction, window, salt));
    }

    function roundKey(address asset, uint64 window, uint64 bucket) public pure returns (bytes32) {
        return keccak256(abi.encode(asset, window, bucket));
    }

    function agentRecord(address who) external view returns (AgentRecord memory) {
        return _agents[who];
    }

    function getCall(uint256 id) external view returns (Call memory) {
        return _existing(id);
    }

    function callCount() external view returns (uint256) {
        return _calls.length;
    }

    /// @notice A round's state.
    function roundState(address asset, uint64 window, uint64 bucket)
        public
        view
        returns (CallMath.ConsensusState memory)
    {
        Round storage r = _rounds[roundKey(asset, window, bucket)];
        return CallMath.consensusState(r.upWeight, r.downWeight, r.voters, consensusQuorum, consensusThresholdBps);
    }

    /// @notice A4: the round a call on `(asset, window)` revealed now would land in: bucket `(now + window) / window`.
    function consensus(address asset, uint64 window)
        external
        view
        returns (uint64 bucket, CallMath.ConsensusState memory state)
    {
        if (window == 0) revert ZeroWindow();
        if (block.timestamp + window > type(uint64).max) revert TimeOverflow();
        bucket = CallMath.bucketForRevealAt(uint64(block.timestamp), window);
        state = roundState(asset, window, bucket);
    }

    function consensusLogLength() external view returns (uint256) {
        return _consensusLog.length;
    }

    function consensusLogAt(uint256 i) external view returns (ConsensusRecord memory) {
        return _consensusLog[i];
    }

    function priceSource(address asset) external view returns (PriceSource memory) {
        return _sources[asset];
    }

    /// @notice The entry price a reveal would get now (reverts when none can be computed).
    function priceNow(address asset) external view returns (uint256 price) {
        (price,) = _priceNow(asset);
    }

    /// @notice A5: the price at `t` (the 300 s TWAP ending at `t` once the pool is active, else the pushed price at
    /// `t`); `ok = false` when it cannot be computed.
    function priceAt(address asset, uint64 t) external view returns (bool ok, uint256 price) {
        if (t > block.timestamp) return (false, 0);
        PriceSource storage s = _sources[asset];
        return _priceAt(asset, t, s.pool == address(0) || t < s.poolActiveAt);
    }

    // ------------------------------------------------------------------ internals

    function _existing(uint256 id) private view returns (Call storage c) {
        if (id >= _calls.length) revert UnknownCall(id);
        c = _calls[id];
    }

    function _revealDeadline(uint64 committedAt) private pure returns (uint64) {
        uint256 d = uint256(committedAt) + REVEAL_DEADLINE;
        return d > type(uint64).max ? type(uint64).max : uint64(d);
    }

    function _resolveDeadline(uint64 closesAt) private pure returns (uint64) {
        uint256 d = uint256(closesAt) + RESOLVE_GRACE;
        return d > type(uint64).max ? type(uint64).max : uint64(d);
    }

    /// @dev Adds the caller's vote `1 + score` to the round unless it already voted there; returns the weight (or 0).
    function _vote(address asset, uint64 window, uint64 bucket, uint8 direction) private returns (uint256 weight) {
        bytes32 key = roundKey(asset, window, bucket);
        if (oneVotePerAgent && votedInRound[key][msg.sender]) return 0;
        weight = CallMath.voteWeight(score(msg.sender));
        votedInRound[key][msg.sender] = true;
        Round storage r = _rounds[key];
        uint256 up = r.upWeight;
        uint256 down = r.downWeight;
        if (direction == CallMath.UP) up += weight;
        else down += weight;
        uint64 voters = r.voters + 1;
        CallMath.ConsensusState memory s =
            CallMath.consensusState(up, down, voters, consensusQuorum, consensusThresholdBps);
        (r.upWeight, r.downWeight, r.voters) = (up, down, voters);
        if (s.reached && r.lastEventDirection != s.direction + 1) {
            r.lastEventDirection = s.direction + 1;
            _consensusLog.push(
                ConsensusRecord({
                    asset: asset,
                    window: window,
                    bucket: bucket,
                    direction: s.direction,
                    strengthBps: s.strengthBps,
                    voters: voters,
                    upWeight: up,
                    downWeight: down
                })
            );
            _markEventBlock();
            emit Consensus(asset, window, bucket, s.direction, s.strengthBps, voters, up, down);
        }
    }

    function _apply(uint256 id, address who, Outcome outcome) private {
        AgentRecord storage r = _agents[who];
        r.openCalls -= 1;
        uint256[] storage ids = _openIds[who];
        uint256 pos = _openPos[id] - 1;
        uint256 last = ids[ids.length - 1];
        ids[pos] = last;
        _openPos[last] = pos + 1;
        ids.pop();
        delete _openPos[id];
        if (outcome == Outcome.Hit) {
            r.hits += 1;
            uint64 streak = r.streak + 1;
            r.streak = streak;
            if (streak > r.bestStreak) r.bestStreak = streak;
        } else if (outcome == Outcome.Void) {
            r.voids += 1;
        } else {
            r.misses += 1;
            r.streak = 0;
        }
    }

    /// @dev A5: whether a pool was set for `asset` before `closesAt` (pushes end there, so a pushed call closing
    /// later has no pushed exit price).
    function _supersededAt(address asset, uint64 closesAt) private view returns (bool) {
        uint64 from = _sources[asset].poolActiveAt;
        return from != 0 && closesAt > from;
    }

    /// @dev Whether `s`'s pool has taken over from pushed prices.
    function _poolActive(PriceSource storage s) private view returns (bool) {
        return s.pool != address(0) && block.timestamp >= s.poolActiveAt;
    }

    /// @dev Entry price now: the pool's TWAP once the pool is active, else the latest pushed price.
    function _priceNow(address asset) private view returns (uint256 price, bool pushed) {
        PriceSource storage s = _sources[asset];
        if (_poolActive(s)) {
            uint32[] memory ago = new uint32[](2);
            ago[0] = TWAP_WINDOW;
            try IUniswapV3PoolOracle(s.pool).observe(ago) returns (int56[] memory cum, uint160[] memory) {
                return (OracleMath.twapPriceWad(cum[0], cum[1], TWAP_WINDOW, s.stockIsToken0), false);
            } catch {
                revert PriceUnavailable(asset);
            }
        }
        PricePoint[] storage pts = _pushed[asset];
        if (pts.length == 0) revert NoPriceSource(asset);
        return (pts[pts.length - 1].price, true);
    }

    /// @dev Price at `t <= now` from the pool (`fromPushes == false`) or from the pushed history.
    function _priceAt(address asset, uint64 t, bool fromPushes) private view returns (bool, uint256) {
        if (!fromPushes) {
            PriceSource storage s = _sources[asset];
            if (s.pool == address(0) || t < TWAP_WINDOW) return (false, 0);
            uint256 ago = block.timestamp - t;
            if (ago + TWAP_WINDOW > type(uint32).max) return (false, 0);
            uint32[] memory agos = new uint32[](2);
            agos[0] = uint32(ago) + TWAP_WINDOW;
            agos[1] = uint32(ago);
            try IUniswapV3PoolOracle(s.pool).observe(agos) returns (int56[] memory cum, uint160[] memory) {
                return (true, OracleMath.twapPriceWad(cum[0], cum[1], TWAP_WINDOW, s.stockIsToken0));
            } catch {
                return (false, 0);
            }
        }
        // Last pushed point at or before t (binary search over increasing times).
        PricePoint[] storage pts = _pushed[asset];
        uint256 lo = 0;
        uint256 hi = pts.length;
        while (lo < hi) {
            uint256 mid = (lo + hi) / 2;
            if (pts[mid].at <= t) lo = mid + 1;
            else hi = mid;
        }
        if (lo == 0) return (false, 0);
        return (true, pts[lo - 1].price);
    }
}
