// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {IUnlockCallback} from "@uniswap/v4-core/src/interfaces/callback/IUnlockCallback.sol";
import {Hooks} from "@uniswap/v4-core/src/libraries/Hooks.sol";
import {StateLibrary} from "@uniswap/v4-core/src/libraries/StateLibrary.sol";
import {TransientStateLibrary} from "@uniswap/v4-core/src/libraries/TransientStateLibrary.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId, PoolIdLibrary} from "@uniswap/v4-core/src/types/PoolId.sol";
import {Currency, CurrencyLibrary} from "@uniswap/v4-core/src/types/Currency.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {BeforeSwapDelta, BeforeSwapDeltaLibrary} from "@uniswap/v4-core/src/types/BeforeSwapDelta.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {DuelMath} from "./libraries/DuelMath.sol";
import {IERC20Burnable} from "./interfaces/IERC20Burnable.sol";
import {EventBlocks} from "./libraries/EventBlocks.sol";

/// @title DuelHook: Uniswap v4 hook that runs duels between two tokens' ETH pools (B1-B7, seed 004).
/// @notice One hook serves many duels; each duel is a pair of native-ETH pools (ETH is currency0) whose hook is this
/// contract (address permission bits: exactly beforeSwap and afterSwap, mined with CREATE2). Mirrors eden-core `duel`.
///
/// - B1: rounds close at multiples of 4 h UTC; round 0 lasts 4-8 h from the duel's creation.
/// - B2: `d = tickA - tickB`, each tick being the token's price in ETH (`-poolTick`, ETH being currency0), is held
///   from each user swap to the next (several swaps in one second: the last holds) and integrated second by second.
///   At creation the pools' ticks seed `d`. `meanTick = integral / roundLength`, truncated toward zero; A wins when
///   positive, B when negative; no winner when zero or when no user swap happened in either ETH pool in the round.
/// - B7: the first swap after a close settles the active round in `beforeSwap`, before that swap runs, from the ticks
///   held up to the close; `settle(duelId)` does the same when nobody trades. Rounds with no swap are skipped (an idle
///   duel wakes in the current round); the held `d` carries into the new round (B4: the split carries on).
/// - B5: with a winner, the pot buys the winner in its ETH pool up to `cap = min(EMA30, price) * 1.10` (swap with
///   `sqrtPriceLimitX96` at the cap, never past the full-range bound), the bought tokens are burned, and the unspent
///   ETH rolls over. Decided after the review (seed 004: the winner's supply shrinks): the hook takes the tokens and
///   calls `burn(amount)` (launch tokens are `ERC20Burnable`), so `totalSupply` falls; a token without `burn` (a duel
///   the owner set up on another token) is sent to 0x...dEaD instead, and `BurnedTo` says which happened. The EMA of each token is updated at
///   each swap in its pool with the price held since its last update; the winner's EMA is brought up to the
///   settlement instant before the cap is taken. Decided: the buyback's own swap moves the price (the new held `d`)
///   but is not round activity, so a buyback alone never makes the next round count.
/// - B6: streaks count settled rounds won; no-winner rounds do not break them.
/// - Decided after the review: the buyback runs in its own call frame (`buyback`, callable only by this contract)
///   with `BUYBACK_GAS` gas; if it reverts (a token that refuses the burn transfer, a price limit the pool refuses,
///   anything else) the round is still settled, `BuybackFailed` is emitted and the pot waits for the next round, so
///   a failing buyback never blocks trading. The price limit is clamped inside v4's bounds. The caller of the
///   settling swap must leave enough gas for the buyback frame (`BuybackGas` otherwise), so the frame cannot be
///   starved on purpose.
/// - Decided after the second review (issue 35, item 1): the pots are held as the PoolManager's ERC-6909 claims on
///   native ETH, minted when a pot is funded (in this hook's own unlock), and a buyback pays for its swap by burning
///   claims instead of `settle{value}`. A settlement's buyback runs inside whichever swapper's unlock settles the
///   round, and `settle{value}` reverted (`NonzeroNativeValue`) when that swapper had called `sync(someERC20)` before
///   its swap, a legal v4 sequence: with one dust swap per round anyone cancelled every buyback. Burning claims
///   touches neither the synced currency nor the swapper's deltas, so no swapper's unlock state can make it fail.
///   The hook's claims on ETH always equal the sum of its duels' pots (invariant).
/// Anyone may `fund` a duel's pot in ETH (outside an unlock: the ETH becomes claims in the hook's own unlock).
contract DuelHook is IUnlockCallback, Ownable2Step, EventBlocks {
    using StateLibrary for IPoolManager;
    using TransientStateLibrary for IPoolManager;
    using PoolIdLibrary for PoolKey;
    using SafeERC20 for IERC20;

    /// @notice The only permission bits of this hook's address.
    uint160 public constant HOOK_FLAGS = Hooks.BEFORE_SWAP_FLAG | Hooks.AFTER_SWAP_FLAG;
    address public constant BURN_ADDRESS = 0x000000000000000000000000000000000000dEaD;
    /// @notice Gas given to the buyback frame of a settlement.
    uint256 public constant BUYBACK_GAS = 1_000_000;

    enum Winner {
        None,
        A,
        B
    }

    struct Ema {
        uint256 value; // ETH per whole token (WAD)
        uint64 last;
    }

    struct Duel {
        PoolKey keyA;
        PoolKey keyB;
        uint64 start;
        uint64 firstClose;
        uint64 activeRound;
        uint64 lastUpdate;
        bool hadSwap; // a user swap happened in the active round
        int256 integral; // of d over [activeStart, lastUpdate)
        int256 heldD;
        uint256 pot;
        uint32 streakA;
        uint32 streakB;
        uint32 bestA;
        uint32 bestB;
        Ema emaA;
        Ema emaB;
    }

    struct RoundResult {
        bool settled;
        Winner winner;
        int256 meanTick;
        uint256 ethSpent;
        uint256 tokensBurned;
    }

    IPoolManager public immutable poolManager;

    Duel[] private _duels;
    mapping(PoolId => uint256) public duelOfPool; // duelId + 1
    mapping(uint256 duelId => mapping(uint64 round => RoundResult)) private _results;

    /// @notice `tickA`, `tickB`: both pools' ticks at the creation, where a replay of the duel's swaps starts (B2, D12).
    event DuelCreated(
        uint256 indexed duelId, PoolId poolA, PoolId poolB, uint64 start, uint64 firstClose, int24 tickA, int24 tickB
    );
    event PotFunded(uint256 indexed duelId, address indexed from, uint256 amount, uint256 pot);
    event RoundSettled(
        uint256 indexed duelId,
        uint64 indexed round,
        Winner winner,
        int256 meanTick,
        uint256 ethSpent,
        uint256 tokensBurned,
        uint256 potAfter
    );
    event RoundsSkipped(uint256 indexed duelId, uint64 fromRound, uint64 count);
    event BuybackFailed(uint256 indexed duelId, uint64 indexed round, uint256 pot);
    /// @notice B5: `amount` of the winner `token` bought back was burned (`to` = 0: `totalSupply` fell) or, for a
    /// token without `burn`, sent to 0x...dEaD.
    event BurnedTo(address indexed token, address indexed to, uint256 amount);

    error BadHookAddress(address hook);
    error OnlyPoolManager(address caller);
    error NotDuelPool(PoolId poolId);
    error PoolAlreadyInDuel(PoolId poolId);
    error NotNativeEthPool();
    error PoolNotInitialized(PoolId poolId);
    error SamePool();
    error UnknownDuel(uint256 duelId);
    error NothingToSettle(uint256 duelId);
    error ZeroAmount();
    error OnlySelf(address caller);
    error BuybackGas(uint256 left, uint256 needed);
    error FundInsideUnlock();

    constructor(IPoolManager poolManager_, address owner_) Ownable(owner_) {
        if (uint160(address(this)) & Hooks.ALL_HOOK_MASK != HOOK_FLAGS) revert BadHookAddress(address(this));
        poolManager = poolManager_;
    }

    modifier onlyPoolManager() {
        if (msg.sender != address(poolManager)) revert OnlyPoolManager(msg.sender);
        _;
    }

    // ------------------------------------------------------------------ duels

    /// @notice Starts a duel between the tokens of two initialised native-ETH pools that use this hook.
    function createDuel(PoolKey calldata keyA, PoolKey calldata keyB) external onlyOwner returns (uint256 duelId) {
        PoolId idA = keyA.toId();
        PoolId idB = keyB.toId();
        if (PoolId.unwrap(idA) == PoolId.unwrap(idB)) revert SamePool();
        _checkPool(keyA, idA);
        _checkPool(keyB, idB);
        duelId = _duels.length;
        Duel storage d = _duels.push();
        d.keyA = keyA;
        d.keyB = keyB;
        uint64 now_ = uint64(block.timestamp);
        d.start = now_;
        d.firstClose = DuelMath.firstClose(now_);
        d.lastUpdate = now_;
        (uint160 sA, int24 tA,,) = poolManager.getSlot0(idA);
        (uint160 sB, int24 tB,,) = poolManager.getSlot0(idB);
        d.heldD = int256(-tA) - int256(-tB);
        d.emaA = Ema({value: DuelMath.tokenPriceWad(sA), last: now_});
        d.emaB = Ema({value: DuelMath.tokenPriceWad(sB), last: now_});
        duelOfPool[idA] = duelId + 1;
        duelOfPool[idB] = duelId + 1;
        _markEventBlock();
        emit DuelCreated(duelId, idA, idB, now_, d.firstClose, tA, tB);
    }

    /// @notice Adds ETH to a duel's pot, held as the PoolManager's claims on ETH (minted here, in this hook's own
    /// unlock, so it cannot be called from inside another unlock).
    function fund(uint256 duelId) external payable {
        Duel storage d = _duel(duelId);
        if (msg.value == 0) revert ZeroAmount();
        if (poolManager.isUnlocked()) revert FundInsideUnlock();
        d.pot += msg.value;
        poolManager.unlock(abi.encode(ACTION_MINT, msg.value));
        _markEventBlock();
        emit PotFunded(duelId, msg.sender, msg.value, d.pot);
    }

    /// @notice B7: settles the closed active round of `duelId` when nobody has traded since the close.
    function settle(uint256 duelId) external {
        Duel storage d = _duel(duelId);
        if (DuelMath.roundAt(d.firstClose, uint64(block.timestamp)) == d.activeRound) revert NothingToSettle(duelId);
        poolManager.unlock(abi.encode(ACTION_SETTLE, duelId));
    }

    uint8 private constant ACTION_SETTLE = 0;
    uint8 private constant ACTION_MINT = 1;

    /// @inheritdoc IUnlockCallback
    function unlockCallback(bytes calldata data) external onlyPoolManager returns (bytes memory) {
        (uint8 action, uint256 arg) = abi.decode(data, (uint8, uint256));
        if (action == ACTION_MINT) {
            // The funded ETH becomes this hook's claims: pay it in, then mint the credit as claims.
            poolManager.settle{value: arg}();
            poolManager.mint(address(this), CurrencyLibrary.ADDRESS_ZERO.toId(), arg);
        } else {
            _roll(arg);
        }
        return "";
    }


    // ------------------------------------------------------------------ hook callbacks

    function beforeSwap(address sender, PoolKey calldata key, SwapParams calldata, bytes calldata)
        external
        onlyPoolManager
        returns (bytes4, BeforeSwapDelta, uint24)
    {
        sender;
        uint256 ref = duelOfPool[key.toId()];
        if (ref != 0) {
            uint256 duelId = ref - 1;
            _roll(duelId);
            Duel storage d = _duels[duelId];
            bool isA = PoolId.unwrap(key.toId()) == PoolId.unwrap(d.keyA.toId());
            _touchEma(isA ? d.emaA : d.emaB, key.toId());
        }
        return (IHooks.beforeSwap.selector, BeforeSwapDeltaLibrary.ZERO_DELTA, 0);
    }

    function afterSwap(address, PoolKey calldata key, SwapParams calldata, BalanceDelta, bytes calldata)
        external
        onlyPoolManager
        returns (bytes4, int128)
    {
        uint256 ref = duelOfPool[key.toId()];
        if (ref != 0) {
            // D12: the block of this swap, under the pool's id, so a replay reads the PoolManager's logs of exactly
            // the blocks where the duel's pools moved.
            _markEventBlock(PoolId.unwrap(key.toId()));
            Duel storage d = _duels[ref - 1];
            uint64 now_ = uint64(block.timestamp);
            d.integral += d.heldD * int256(uint256(now_ - d.lastUpdate));
            d.lastUpdate = now_;
            d.heldD = _currentD(d);
            d.hadSwap = true;
        }
        return (IHooks.afterSwap.selector, 0);
    }

    // ------------------------------------------------------------------ views

    function duelCount() external view returns (uint256) {
        return _duels.length;
    }

    function getDuel(uint256 duelId) external view returns (Duel memory) {
        return _duel(duelId);
    }

    function result(uint256 duelId, uint64 round) external view returns (RoundResult memory) {
        return _results[duelId][round];
    }

    /// @notice Round `index` of a duel: `[start, end)`.
    function roundWindow(uint256 duelId, uint64 index) external view returns (uint64 start, uint64 end) {
        Duel storage d = _duel(duelId);
        return DuelMath.roundWindow(d.start, d.firstClose, index);
    }

    /// @notice The round containing now.
    function currentRound(uint256 duelId) external view returns (uint64) {
        return DuelMath.roundAt(_duel(duelId).firstClose, uint64(block.timestamp));
    }

    /// @notice The active round's result: once closed (awaiting settlement) its final mean tick and winner, which
    /// nothing after the close can change; before that, the mean over the part elapsed so far.
    function pendingResult(uint256 duelId)
        external
        view
        returns (uint64 round, bool awaitingSettlement, int256 meanTick, Winner winner)
    {
        Duel storage d = _duel(duelId);
        round = d.activeRound;
        (uint64 start, uint64 end) = DuelMath.roundWindow(d.start, d.firstClose, round);
        uint64 now_ = uint64(block.timestamp);
        awaitingSettlement = now_ >= end;
        uint64 upTo = awaitingSettlement ? end : now_;
        int256 integral = d.integral + d.heldD * int256(uint256(upTo - d.lastUpdate));
        if (upTo > start) meanTick = integral / int256(uint256(upTo - start));
        winner = _winner(d.hadSwap, meanTick);
    }

    /// @notice B3 live split: A's share (WAD) at the current `d`.
    function liveShareA(uint256 duelId) external view returns (uint256) {
        return DuelMath.shareAWad(_currentD(_duel(duelId)));
    }

    /// @notice B3 displayed split of a mean tick.
    function shareAWad(int256 meanTick) external pure returns (uint256) {
        return DuelMath.shareAWad(meanTick);
    }

    // ------------------------------------------------------------------ internals

    function _duel(uint256 duelId) private view returns (Duel storage) {
        if (duelId >= _duels.length) revert UnknownDuel(duelId);
        return _duels[duelId];
    }

    function _checkPool(PoolKey calldata key, PoolId id) private view {
        if (address(key.hooks) != address(this)) revert NotDuelPool(id);
        if (!key.currency0.isAddressZero()) revert NotNativeEthPool();
        if (duelOfPool[id] != 0) revert PoolAlreadyInDuel(id);
        (uint160 s,,,) = poolManager.getSlot0(id);
        if (s == 0) revert PoolNotInitialized(id);
    }

    /// @dev d = tickA - tickB, each the token's price in ETH (ETH is currency0: -poolTick).
    function _currentD(Duel storage d) private view returns (int256) {
        (, int24 tA,,) = poolManager.getSlot0(d.keyA.toId());
        (, int24 tB,,) = poolManager.getSlot0(d.keyB.toId());
        return int256(-tA) - int256(-tB);
    }

    function _winner(bool hadSwap, int256 meanTick) private pure returns (Winner) {
        if (!hadSwap || meanTick == 0) return Winner.None;
        return meanTick > 0 ? Winner.A : Winner.B;
    }

    /// @dev Brings a token's EMA up to now with the price held since its last update (its pool's current price).
    function _touchEma(Ema storage e, PoolId id) private {
        uint64 now_ = uint64(block.timestamp);
        if (now_ <= e.last) return;
        (uint160 s,,,) = poolManager.getSlot0(id);
        e.value = DuelMath.emaUpdate(e.value, DuelMath.tokenPriceWad(s), now_ - e.last);
        e.last = now_;
    }

    /// @dev B7: settles the active round if it has closed, skips idle rounds, opens the current one.
    /// Requires the PoolManager to be unlocked (inside a swap, or through `settle`).
    function _roll(uint256 duelId) private {
        Duel storage d = _duels[duelId];
        uint64 current = DuelMath.roundAt(d.firstClose, uint64(block.timestamp));
        uint64 active = d.activeRound;
        if (current == active) return;
        (int256 meanTick, Winner w) = _close(d, active);
        if (current > active + 1) {
            _markEventBlock();
            emit RoundsSkipped(duelId, active + 1, current - active - 1);
        }
        _open(d, current);
        (uint256 spent, uint256 burned) = _settle(duelId, active, d, w);
        _results[duelId][active] =
            RoundResult({settled: true, winner: w, meanTick: meanTick, ethSpent: spent, tokensBurned: burned});
        _markEventBlock();
        emit RoundSettled(duelId, active, w, meanTick, spent, burned, d.pot);
    }

    /// @dev The closed round's mean tick (ticks held up to its close only) and winner.
    function _close(Duel storage d, uint64 round) private view returns (int256 meanTick, Winner w) {
        (uint64 start, uint64 end) = DuelMath.roundWindow(d.start, d.firstClose, round);
        int256 integral = d.integral + d.heldD * int256(uint256(end - d.lastUpdate));
        meanTick = integral / int256(uint256(end - start));
        w = _winner(d.hadSwap, meanTick);
    }

    /// @dev Opens round `current` at now: the held d has applied since its start; no swap in it yet.
    function _open(Duel storage d, uint64 current) private {
        (uint64 curStart,) = DuelMath.roundWindow(d.start, d.firstClose, current);
        uint64 now_ = uint64(block.timestamp);
        d.activeRound = current;
        d.integral = d.heldD * int256(uint256(now_ - curStart));
        d.lastUpdate = now_;
        d.hadSwap = false;
    }

    /// @dev Streaks (B6) and the buyback of the winner (B5), which moves its price: the held d is re-read. The
    /// buyback runs in its own frame; a revert there leaves the pot for the next round.
    function _settle(uint256 duelId, uint64 round, Duel storage d, Winner w)
        private
        returns (uint256 spent, uint256 burned)
    {
        if (w == Winner.A) {
            (d.streakA, d.streakB) = (d.streakA + 1, 0);
            if (d.streakA > d.bestA) d.bestA = d.streakA;
        } else if (w == Winner.B) {
            (d.streakB, d.streakA) = (d.streakB + 1, 0);
            if (d.streakB > d.bestB) d.bestB = d.streakB;
        }
        if (w == Winner.None || d.pot == 0) return (0, 0);
        uint256 needed = BUYBACK_GAS + BUYBACK_GAS / 63 + 50_000;
        if (gasleft() < needed) revert BuybackGas(gasleft(), needed);
        try this.buyback{gas: BUYBACK_GAS}(duelId, w == Winner.A) returns (uint256 s, uint256 b) {
            (spent, burned) = (s, b);
        } catch {
            _markEventBlock();
            emit BuybackFailed(duelId, round, d.pot);
        }
        if (spent != 0) d.heldD = _currentD(d);
    }

    /// @notice The buyback frame of a settlement (B5); only this contract may call it, inside the unlock.
    function buyback(uint256 duelId, bool winnerIsA) external returns (uint256 spent, uint256 bought) {
        if (msg.sender != address(this)) revert OnlySelf(msg.sender);
        Duel storage d = _duels[duelId];
        return winnerIsA ? _buyback(d, d.keyA, d.emaA) : _buyback(d, d.keyB, d.emaB);
    }

    /// @dev B5: spends up to the pot buying the winner up to the cap; burns what it bought.
    function _buyback(Duel storage d, PoolKey memory key, Ema storage ema) private returns (uint256 spent, uint256 bought) {
        uint256 pot = d.pot;
        if (pot == 0) return (0, 0);
        PoolId id = key.toId();
        _touchEma(ema, id);
        (uint160 sqrtP,,,) = poolManager.getSlot0(id);
        uint256 cap = DuelMath.capWad(ema.value, DuelMath.tokenPriceWad(sqrtP));
        if (cap == 0) return (0, 0);
        uint256 limit = DuelMath.capSqrtPriceX96(cap);
        uint256 bound = TickMath.getSqrtPriceAtTick(TickMath.minUsableTick(key.tickSpacing));
        if (limit < bound) limit = bound;
        if (limit <= TickMath.MIN_SQRT_PRICE) limit = TickMath.MIN_SQRT_PRICE + 1;
        if (sqrtP <= limit) return (0, 0); // already at or above the cap
        if (pot > uint256(type(int256).max)) pot = uint256(type(int256).max);
        BalanceDelta delta = poolManager.swap(
            key,
            SwapParams({zeroForOne: true, amountSpecified: -int256(pot), sqrtPriceLimitX96: uint160(limit)}),
            ""
        );
        // D12: the PoolManager does not call a hook for its own swaps, so the buyback records its block here.
        _markEventBlock(PoolId.unwrap(id));
        spent = uint256(uint128(-delta.amount0()));
        bought = uint256(uint128(delta.amount1()));
        d.pot -= spent;
        // Paid with the pot's claims (issue 35, item 1): no swapper's synced currency can make this fail.
        poolManager.burn(address(this), CurrencyLibrary.ADDRESS_ZERO.toId(), spent);
        if (bought != 0) {
            address token = Currency.unwrap(key.currency1);
            poolManager.take(key.currency1, address(this), bought);
            _burn(token, bought);
        }
    }

    /// @dev B5: burns `amount` of `token` held by this hook: `burn` (supply falls), else a transfer to 0x...dEaD.
    function _burn(address token, uint256 amount) private {
        try IERC20Burnable(token).burn(amount) {
            _markEventBlock();
            emit BurnedTo(token, address(0), amount);
        } catch {
            IERC20(token).safeTransfer(BURN_ADDRESS, amount);
            _markEventBlock();
            emit BurnedTo(token, BURN_ADDRESS, amount);
        }
    }
}
