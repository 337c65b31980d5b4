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
import {ModifyLiquidityParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";

/// @title LaunchLocker: owns every graduation position forever (C20, §9.2-9.3).
/// @notice Liquidity can be added, never withdrawn: this contract has no code path that passes a negative
/// `liquidityDelta` to the PoolManager and none that transfers an asset anywhere except into the
/// PoolManager to pay for an add. Tokens and quote it holds (the locked 0.04·S, rounding dust) stay here.
///
/// It is also the pools' hook, with only the `beforeInitialize` permission (address bits
/// `& 0x3FFF == 0x2000`): v4 skips a hook's callbacks when the hook itself is the caller, so only this
/// locker can initialize a graduation pool; anyone else's `initialize` reverts in `beforeInitialize`.
/// That stops a front-runner from creating the pool at another price before graduation.
/// The launchpad that deploys it (CREATE2 with a mined salt) is the only account that can drive it.
contract LaunchLocker is IUnlockCallback {
    using SafeERC20 for IERC20;

    /// @notice v4 Hooks.BEFORE_INITIALIZE_FLAG; the only permission bit this hook's address has.
    uint160 public constant HOOK_FLAGS = 1 << 13;
    uint160 internal constant ALL_HOOK_MASK = (1 << 14) - 1;

    IPoolManager public immutable poolManager;
    address public immutable launchpad;

    event LiquidityLocked(
        PoolId indexed poolId, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256 paid0, uint256 paid1
    );

    error OnlyLaunchpad(address caller);
    error OnlyPoolManager(address caller);
    error InitializeOnlyByLocker();
    error NotLockerPool();
    error ZeroLiquidity();
    error BadHookAddress(address hook);

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
        (paid0, paid1) = abi.decode(poolManager.unlock(abi.encode(key, tickLower, tickUpper, liquidity)), (uint256, uint256));
        emit LiquidityLocked(key.toId(), tickLower, tickUpper, liquidity, paid0, paid1);
    }

    /// @inheritdoc IUnlockCallback
    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        if (msg.sender != address(poolManager)) revert OnlyPoolManager(msg.sender);
        (PoolKey memory key, int24 tickLower, int24 tickUpper, uint128 liquidity) =
            abi.decode(data, (PoolKey, int24, int24, uint128));
        // liquidity is a uint128, so the delta is always strictly positive: an add, never a removal.
        (BalanceDelta delta,) = poolManager.modifyLiquidity(
            key,
            ModifyLiquidityParams({
                tickLower: tickLower,
                tickUpper: tickUpper,
                liquidityDelta: int256(uint256(liquidity)),
                salt: bytes32(0)
            }),
            ""
        );
        uint256 paid0 = _settle(key.currency0, delta.amount0());
        uint256 paid1 = _settle(key.currency1, delta.amount1());
        return abi.encode(paid0, paid1);
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
