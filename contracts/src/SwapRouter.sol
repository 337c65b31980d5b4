// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IUnlockCallback} from "@uniswap/v4-core/src/interfaces/callback/IUnlockCallback.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {EventBlocks} from "./libraries/EventBlocks.sol";

/// @title SwapRouter: exact-input swaps in one v4 pool, for people (D7).
/// @notice Holds nothing and owns nothing: no owner, no storage, no `receive`. Each swap pays its
/// input from `msg.sender` only (an ERC-20 through an allowance to this router, native ETH as exactly
/// `amountIn` of value), pays its output to `recipient`, and reverts after `deadline` or below
/// `minAmountOut`. The price limit is one inside the extreme price, so only the input ends a swap; a
/// pool that runs out of liquidity takes less, and native input it did not take is refunded.
/// The app quotes the swap with `eden-core`'s `uniswap::swap` over the same pool state.
contract SwapRouter is IUnlockCallback, EventBlocks {
    using SafeERC20 for IERC20;

    IPoolManager public immutable poolManager;

    /// @notice One swap: `amountIn` of the input currency taken from `payer`, `amountOut` paid to `recipient`.
    event Swapped(
        PoolId indexed poolId,
        address indexed payer,
        address indexed recipient,
        bool zeroForOne,
        uint256 amountIn,
        uint256 amountOut
    );

    error OnlyPoolManager(address caller);
    error Expired(uint256 deadline, uint256 nowTime);
    error ZeroAmount();
    error AmountTooLarge(uint256 amountIn);
    error ZeroRecipient();
    error WrongValue(uint256 sent, uint256 expected);
    error TooLittleOut(uint256 amountOut, uint256 minAmountOut);
    error RefundFailed();
    error UnexpectedDelta(int128 inDelta, int128 outDelta);

    struct Swap {
        PoolKey key;
        bool zeroForOne;
        uint256 amountIn;
        address payer;
        address recipient;
    }

    constructor(IPoolManager poolManager_) {
        poolManager = poolManager_;
    }

    /// @notice Swaps exactly `amountIn` (or less, if the pool runs out of liquidity) of the input currency
    /// (`currency0` when `zeroForOne`) for at least `minAmountOut` of the other, paid to `recipient`.
    /// @return amountOut what `recipient` received; @return spent the input the pool took.
    function swapExactIn(
        PoolKey calldata key,
        bool zeroForOne,
        uint256 amountIn,
        uint256 minAmountOut,
        address recipient,
        uint256 deadline
    ) external payable returns (uint256 amountOut, uint256 spent) {
        if (block.timestamp > deadline) revert Expired(deadline, block.timestamp);
        if (amountIn == 0) revert ZeroAmount();
        if (amountIn > uint256(uint128(type(int128).max))) revert AmountTooLarge(amountIn);
        if (recipient == address(0)) revert ZeroRecipient();
        Currency input = zeroForOne ? key.currency0 : key.currency1;
        uint256 expected = input.isAddressZero() ? amountIn : 0;
        if (msg.value != expected) revert WrongValue(msg.value, expected);
        (amountOut, spent) = abi.decode(
            poolManager.unlock(abi.encode(Swap(key, zeroForOne, amountIn, msg.sender, recipient))), (uint256, uint256)
        );
        if (amountOut < minAmountOut) revert TooLittleOut(amountOut, minAmountOut);
        _markEventBlock();
        emit Swapped(PoolId.wrap(keccak256(abi.encode(key))), msg.sender, recipient, zeroForOne, spent, amountOut);
        // Native input the pool did not take goes back to the sender (never more: this router holds nothing).
        if (expected > spent) {
            (bool ok,) = msg.sender.call{value: expected - spent}("");
            if (!ok) revert RefundFailed();
        }
    }

    /// @inheritdoc IUnlockCallback
    /// @dev Only the PoolManager calls this, and only inside this router's own `unlock`: the data is ours.
    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        if (msg.sender != address(poolManager)) revert OnlyPoolManager(msg.sender);
        Swap memory s = abi.decode(data, (Swap));
        BalanceDelta delta = poolManager.swap(
            s.key,
            SwapParams({
                zeroForOne: s.zeroForOne,
                amountSpecified: -int256(s.amountIn),
                sqrtPriceLimitX96: s.zeroForOne ? TickMath.MIN_SQRT_PRICE + 1 : TickMath.MAX_SQRT_PRICE - 1
            }),
            ""
        );
        (int128 inDelta, int128 outDelta) =
            s.zeroForOne ? (delta.amount0(), delta.amount1()) : (delta.amount1(), delta.amount0());
        (Currency input, Currency output) = s.zeroForOne ? (s.key.currency0, s.key.currency1) : (s.key.currency1, s.key.currency0);
        // A hook that returns deltas could turn either sign: such a pool is refused, never paid wrongly.
        if (inDelta > 0 || outDelta < 0) revert UnexpectedDelta(inDelta, outDelta);
        uint256 spent = uint256(uint128(-inDelta));
        uint256 amountOut = uint256(uint128(outDelta));
        if (spent > 0) {
            if (input.isAddressZero()) {
                poolManager.settle{value: spent}();
            } else {
                poolManager.sync(input);
                IERC20(Currency.unwrap(input)).safeTransferFrom(s.payer, address(poolManager), spent);
                poolManager.settle();
            }
        }
        if (amountOut > 0) poolManager.take(output, s.recipient, amountOut);
        return abi.encode(amountOut, spent);
    }
}
