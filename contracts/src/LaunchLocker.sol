// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IUnlockCallback} from "@uniswap/v4-core/src/interfaces/callback/IUnlockCallback.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId, PoolIdLibrary} from "@uniswap/v4-core/src/types/PoolId.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {ModifyLiquidityParams, SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {StateLibrary} from "@uniswap/v4-core/src/libraries/StateLibrary.sol";
import {LiquidityAmounts} from "@uniswap/v4-core/test/utils/LiquidityAmounts.sol";
import {IERC20Burnable} from "./interfaces/IERC20Burnable.sol";
import {EventBlocks} from "./libraries/EventBlocks.sol";

/// @title LaunchLocker: owns every graduation position forever (C20, §9.2-9.3).
/// @notice Liquidity can be added, never withdrawn: this contract has no code path that passes a negative
/// `liquidityDelta` to the PoolManager, and none that transfers an asset anywhere except into the
/// PoolManager to pay for an add or an own-token buyback and the position's fees to the launchpad (`collectFees`). Tokens and quote it
/// holds (the locked 0.04·S, rounding dust) stay here.
///
/// Fees (decided after the review, #14): `collectFees` pokes the full-range position with a zero
/// `liquidityDelta` (v4 pays out exactly the fees it earned; its liquidity is untouched), sends the quote side to
/// the launchpad, which splits it through the fee lanes like a curve fee, and burns the token side (launch tokens
/// are `ERC20Burnable`): no swap, so nothing to sandwich, and the token's holders are the ones it benefits. A
/// growth add pokes the same position, so fees accrued since the last collection are folded into that add (locked
/// liquidity); the keeper collects before it sweeps.
///
/// The creator's own-token buyback (§7, decided #14): `buyAndBurn` swaps quote the fee lanes sent here for the
/// token in its pool (exact input, a caller's minimum out) and burns every token bought.
///
/// It is also the pools' hook, with the `beforeInitialize` and `afterSwap` permissions (address bits
/// `& 0x3FFF == 0x2040`): v4 skips a hook's callbacks when the hook itself is the caller, so only this
/// locker can initialize a graduation pool; anyone else's `initialize` reverts in `beforeInitialize`.
/// That stops a front-runner from creating the pool at another price before graduation. `afterSwap` only records
/// the swap's block under the pool's id (D12), so the token page reads the pool's `Swap` logs of exactly those
/// blocks; it changes no amount, and the locker's own swaps (growth, buyback), which v4 does not call it for,
/// record their block themselves.
/// The launchpad that deploys it (CREATE2 with a mined salt) is the only account that can drive it.
contract LaunchLocker is IUnlockCallback, EventBlocks {
    using SafeERC20 for IERC20;
    using StateLibrary for IPoolManager;
    using PoolIdLibrary for PoolKey;

    enum Action {
        Add,
        Grow,
        Collect,
        BuyBurn
    }

    /// @notice v4 Hooks.BEFORE_INITIALIZE_FLAG | Hooks.AFTER_SWAP_FLAG: the only permission bits this hook's address has.
    uint160 public constant HOOK_FLAGS = (1 << 13) | (1 << 6);
    uint160 internal constant ALL_HOOK_MASK = (1 << 14) - 1;

    IPoolManager public immutable poolManager;
    address public immutable launchpad;

    event LiquidityGrown(
        PoolId indexed poolId, uint256 quoteIn, uint256 quoteSwapped, uint256 tokensBought, uint128 liquidity
    );
    event FeesCollected(PoolId indexed poolId, address indexed to, uint256 quoteFees, uint256 tokensBurned);
    event OwnTokenBoughtAndBurned(PoolId indexed poolId, uint256 quoteIn, uint256 tokensBurned);
    event LiquidityLocked(
        PoolId indexed poolId, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256 paid0, uint256 paid1
    );

    error OnlyLaunchpad(address caller);
    error OnlyPoolManager(address caller);
    error InitializeOnlyByLocker();
    error NotLockerPool();
    error ZeroLiquidity();
    error BadHookAddress(address hook);
    error GrowthBelowMin(uint256 tokensBought, uint256 minTokensOut);
    error BuybackBelowMin(uint256 tokensBought, uint256 minTokensOut);

    constructor(IPoolManager poolManager_) {
        if (uint160(address(this)) & ALL_HOOK_MASK != HOOK_FLAGS) revert BadHookAddress(address(this));
        poolManager = poolManager_;
        launchpad = msg.sender;
    }

    modifier onlyLaunchpad() {
        if (msg.sender != launchpad) revert OnlyLaunchpad(msg.sender);
        _;
    }

    /// @notice Accepts ETH (graduation quote, liquidity-growth escrow). Whatever arrives is locked.
    receive() external payable {}

    /// @notice Hook: every external initialization of a pool using this hook is refused.
    function beforeInitialize(address, PoolKey calldata, uint160) external pure returns (bytes4) {
        revert InitializeOnlyByLocker();
    }

    /// @notice Hook (D12): records the block of a swap of one of this locker's pools under the pool's id. Only the
    /// PoolManager calls it (every pool with this hook was initialized by this locker); it returns no delta.
    function afterSwap(address, PoolKey calldata key, SwapParams calldata, BalanceDelta, bytes calldata)
        external
        returns (bytes4, int128)
    {
        if (msg.sender != address(poolManager)) revert OnlyPoolManager(msg.sender);
        _markEventBlock(PoolId.unwrap(key.toId()));
        return (IHooks.afterSwap.selector, 0);
    }

    /// @notice Creates a pool whose hook is this locker, at `sqrtPriceX96`.
    function initializePool(PoolKey calldata key, uint160 sqrtPriceX96) external onlyLaunchpad returns (int24) {
        if (address(key.hooks) != address(this)) revert NotLockerPool();
        return poolManager.initialize(key, sqrtPriceX96);
    }

    /// @notice Adds `liquidity` to the locker's position in [tickLower, tickUpper), paid from this contract's balances.
    function addLiquidity(PoolKey calldata key, int24 tickLower, int24 tickUpper, uint128 liquidity)
        external
        onlyLaunchpad
        returns (uint256 paid0, uint256 paid1)
    {
        if (address(key.hooks) != address(this)) revert NotLockerPool();
        if (liquidity == 0) revert ZeroLiquidity();
        (paid0, paid1) = abi.decode(
            poolManager.unlock(abi.encode(Action.Add, abi.encode(key, tickLower, tickUpper, liquidity))),
            (uint256, uint256)
        );
        _markEventBlock();
        emit LiquidityLocked(key.toId(), tickLower, tickUpper, liquidity, paid0, paid1);
    }

    /// @notice Liquidity growth (§9.3): of `quoteIn` quote (already sent to this locker), swaps half for the
    /// token in the pool and adds both legs as full-range liquidity owned by this locker. Reverts when
    /// the swap buys fewer than `minTokensOut` tokens. Leftover dust stays locked here.
    function growLiquidity(PoolKey calldata key, bool quoteIsCurrency0, uint256 quoteIn, uint256 minTokensOut)
        external
        onlyLaunchpad
        returns (uint128 liquidity)
    {
        if (address(key.hooks) != address(this)) revert NotLockerPool();
        uint256 tokensBought;
        (liquidity, tokensBought) = abi.decode(
            poolManager.unlock(abi.encode(Action.Grow, abi.encode(key, quoteIsCurrency0, quoteIn))), (uint128, uint256)
        );
        if (tokensBought < minTokensOut) revert GrowthBelowMin(tokensBought, minTokensOut);
        _markEventBlock();
        emit LiquidityGrown(key.toId(), quoteIn, quoteIn / 2, tokensBought, liquidity);
    }

    /// @notice Collects the fees the locker's full-range position in `key`'s pool earned (a zero-liquidity poke:
    /// the liquidity never moves), sends the quote side to `to` and burns the token side.
    function collectFees(PoolKey calldata key, bool quoteIsCurrency0, address to)
        external
        onlyLaunchpad
        returns (uint256 quoteFees, uint256 tokensBurned)
    {
        if (address(key.hooks) != address(this)) revert NotLockerPool();
        (quoteFees, tokensBurned) = abi.decode(
            poolManager.unlock(abi.encode(Action.Collect, abi.encode(key, quoteIsCurrency0, to))), (uint256, uint256)
        );
        if (tokensBurned != 0) {
            IERC20Burnable(Currency.unwrap(quoteIsCurrency0 ? key.currency1 : key.currency0)).burn(tokensBurned);
        }
        _markEventBlock();
        emit FeesCollected(key.toId(), to, quoteFees, tokensBurned);
    }

    /// @notice The creator's own-token buyback (§7): swaps all of `quoteIn` quote (already sent to this locker) for
    /// the token in the pool and burns what it bought. Reverts when that is fewer than `minTokensOut` tokens.
    function buyAndBurn(PoolKey calldata key, bool quoteIsCurrency0, uint256 quoteIn, uint256 minTokensOut)
        external
        onlyLaunchpad
        returns (uint256 tokensBurned)
    {
        if (address(key.hooks) != address(this)) revert NotLockerPool();
        tokensBurned = abi.decode(
            poolManager.unlock(abi.encode(Action.BuyBurn, abi.encode(key, quoteIsCurrency0, quoteIn))), (uint256)
        );
        if (tokensBurned < minTokensOut) revert BuybackBelowMin(tokensBurned, minTokensOut);
        if (tokensBurned != 0) {
            IERC20Burnable(Currency.unwrap(quoteIsCurrency0 ? key.currency1 : key.currency0)).burn(tokensBurned);
        }
        _markEventBlock();
        emit OwnTokenBoughtAndBurned(key.toId(), quoteIn, tokensBurned);
    }

    /// @inheritdoc IUnlockCallback
    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        if (msg.sender != address(poolManager)) revert OnlyPoolManager(msg.sender);
        (Action action, bytes memory inner) = abi.decode(data, (Action, bytes));
        if (action == Action.Add) {
            (PoolKey memory key, int24 tickLower, int24 tickUpper, uint128 liquidity) =
                abi.decode(inner, (PoolKey, int24, int24, uint128));
            BalanceDelta delta = _add(key, tickLower, tickUpper, liquidity);
            return abi.encode(_settle(key.currency0, delta.amount0()), _settle(key.currency1, delta.amount1()));
        }
        if (action == Action.Collect) {
            (PoolKey memory ck, bool q0, address to) = abi.decode(inner, (PoolKey, bool, address));
            return _collect(ck, q0, to);
        }
        (PoolKey memory k, bool quoteIs0, uint256 quoteIn) = abi.decode(inner, (PoolKey, bool, uint256));
        return action == Action.Grow ? _grow(k, quoteIs0, quoteIn) : _buy(k, quoteIs0, quoteIn);
    }

    /// @dev Swap half the quote for tokens, then add both legs full range; net deltas are settled once.
    function _grow(PoolKey memory key, bool quoteIs0, uint256 quoteIn) private returns (bytes memory) {
        BalanceDelta swapDelta = poolManager.swap(
            key,
            SwapParams({
                zeroForOne: quoteIs0,
                amountSpecified: -int256(quoteIn / 2),
                sqrtPriceLimitX96: quoteIs0 ? TickMath.MIN_SQRT_PRICE + 1 : TickMath.MAX_SQRT_PRICE - 1
            }),
            ""
        );
        // D12: v4 does not call this hook for its own swaps.
        _markEventBlock(PoolId.unwrap(key.toId()));
        (int128 quoteDelta, int128 tokenDelta) =
            quoteIs0 ? (swapDelta.amount0(), swapDelta.amount1()) : (swapDelta.amount1(), swapDelta.amount0());
        uint256 tokensBought = uint256(uint128(tokenDelta));
        uint256 quoteLeft = quoteIn - uint256(uint128(-quoteDelta));
        (uint128 liquidity, int24 lo, int24 hi) =
            _fullRangeLiquidity(key, quoteIs0 ? quoteLeft : tokensBought, quoteIs0 ? tokensBought : quoteLeft);
        BalanceDelta total = swapDelta;
        if (liquidity > 0) total = total + _add(key, lo, hi, liquidity);
        _settle(key.currency0, total.amount0());
        _settle(key.currency1, total.amount1());
        return abi.encode(liquidity, tokensBought);
    }

    /// @dev Exact-input swap of `quoteIn` quote for the token; pays the quote, takes the tokens into this locker.
    function _buy(PoolKey memory key, bool quoteIs0, uint256 quoteIn) private returns (bytes memory) {
        BalanceDelta d = poolManager.swap(
            key,
            SwapParams({
                zeroForOne: quoteIs0,
                amountSpecified: -int256(quoteIn),
                sqrtPriceLimitX96: quoteIs0 ? TickMath.MIN_SQRT_PRICE + 1 : TickMath.MAX_SQRT_PRICE - 1
            }),
            ""
        );
        // D12: v4 does not call this hook for its own swaps.
        _markEventBlock(PoolId.unwrap(key.toId()));
        _settle(key.currency0, d.amount0());
        _settle(key.currency1, d.amount1());
        return abi.encode(uint256(uint128(quoteIs0 ? d.amount1() : d.amount0())));
    }

    /// @dev A zero-liquidity poke of the full-range position: the deltas are its fees, both `>= 0`. The quote side
    /// is taken to `to`, the token side into this locker (burned by the caller frame).
    function _collect(PoolKey memory key, bool quoteIs0, address to) private returns (bytes memory) {
        (BalanceDelta fees,) = poolManager.modifyLiquidity(
            key,
            ModifyLiquidityParams({
                tickLower: TickMath.minUsableTick(key.tickSpacing),
                tickUpper: TickMath.maxUsableTick(key.tickSpacing),
                liquidityDelta: 0,
                salt: bytes32(0)
            }),
            ""
        );
        uint256 f0 = uint256(uint128(fees.amount0()));
        uint256 f1 = uint256(uint128(fees.amount1()));
        (uint256 quoteFees, uint256 tokenFees) = quoteIs0 ? (f0, f1) : (f1, f0);
        (Currency quote, Currency token) = quoteIs0 ? (key.currency0, key.currency1) : (key.currency1, key.currency0);
        if (quoteFees != 0) poolManager.take(quote, to, quoteFees);
        if (tokenFees != 0) poolManager.take(token, address(this), tokenFees);
        return abi.encode(quoteFees, tokenFees);
    }

    /// @dev Full-range liquidity the amounts buy at the pool's current price (rounded down).
    function _fullRangeLiquidity(PoolKey memory key, uint256 amount0, uint256 amount1)
        private
        view
        returns (uint128 liquidity, int24 lo, int24 hi)
    {
        (uint160 sqrtP,,,) = poolManager.getSlot0(key.toId());
        lo = TickMath.minUsableTick(key.tickSpacing);
        hi = TickMath.maxUsableTick(key.tickSpacing);
        liquidity = LiquidityAmounts.getLiquidityForAmounts(
            sqrtP, TickMath.getSqrtPriceAtTick(lo), TickMath.getSqrtPriceAtTick(hi), amount0, amount1
        );
    }

    function _add(PoolKey memory key, int24 tickLower, int24 tickUpper, uint128 liquidity)
        private
        returns (BalanceDelta delta)
    {
        // liquidity is a uint128, so the delta is always strictly positive: an add, never a removal.
        (delta,) = poolManager.modifyLiquidity(
            key,
            ModifyLiquidityParams({
                tickLower: tickLower, tickUpper: tickUpper, liquidityDelta: int256(uint256(liquidity)), salt: bytes32(0)
            }),
            ""
        );
    }

    /// @dev Pays what the add owes; fees credited to an existing position are taken into the locker (and stay locked).
    function _settle(Currency currency, int128 amount) private returns (uint256 paid) {
        if (amount < 0) {
            paid = uint256(uint128(-amount));
            if (currency.isAddressZero()) {
                poolManager.settle{value: paid}();
            } else {
                poolManager.sync(currency);
                IERC20(Currency.unwrap(currency)).safeTransfer(address(poolManager), paid);
                poolManager.settle();
            }
        } else if (amount > 0) {
            poolManager.take(currency, address(this), uint256(uint128(amount)));
        }
    }
}
