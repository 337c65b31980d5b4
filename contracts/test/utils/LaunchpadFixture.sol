// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test} from "forge-std/Test.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IUnlockCallback} from "@uniswap/v4-core/src/interfaces/callback/IUnlockCallback.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {Launchpad, ICurveFeeSink} from "../../src/Launchpad.sol";
import {LockerSalt} from "../../script/LockerSalt.sol";
import {V4Deployer} from "./V4Deployer.sol";

/// Records fees forwarded by the launchpad.
contract RecordingSink is ICurveFeeSink {
    mapping(address token => uint256) public received;

    function onCurveFees(address token, address, uint256 amount) external payable {
        received[token] += amount;
    }
}

/// Minimal exact-input swapper against a v4 pool (tests only).
contract TestSwapper is IUnlockCallback {
    IPoolManager public immutable pm;

    constructor(IPoolManager pm_) {
        pm = pm_;
    }

    receive() external payable {}

    function swapExactIn(PoolKey memory key, bool zeroForOne, uint256 amountIn)
        external
        payable
        returns (BalanceDelta)
    {
        return abi.decode(pm.unlock(abi.encode(msg.sender, key, zeroForOne, amountIn)), (BalanceDelta));
    }

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        require(msg.sender == address(pm));
        (address payer, PoolKey memory key, bool zeroForOne, uint256 amountIn) =
            abi.decode(data, (address, PoolKey, bool, uint256));
        BalanceDelta d = pm.swap(
            key,
            SwapParams({
                zeroForOne: zeroForOne,
                amountSpecified: -int256(amountIn),
                sqrtPriceLimitX96: zeroForOne ? TickMath.MIN_SQRT_PRICE + 1 : TickMath.MAX_SQRT_PRICE - 1
            }),
            ""
        );
        _move(key.currency0, d.amount0(), payer);
        _move(key.currency1, d.amount1(), payer);
        return abi.encode(d);
    }

    function _move(Currency c, int128 amount, address payer) private {
        if (amount < 0) {
            uint256 owed = uint256(uint128(-amount));
            if (c.isAddressZero()) {
                pm.settle{value: owed}();
            } else {
                pm.sync(c);
                IERC20(Currency.unwrap(c)).transferFrom(payer, address(pm), owed);
                pm.settle();
            }
        } else if (amount > 0) {
            pm.take(c, payer, uint256(uint128(amount)));
        }
    }
}

/// Deploys the real PoolManager (npm bytecode) and a Launchpad with the placeholder defaults.
abstract contract LaunchpadFixture is Test {
    uint256 internal constant E18 = 1e18;
    uint256 internal constant S = 1_000_000_000e18;
    uint256 internal constant PHI_ETH = 1.25 ether;
    uint256 internal constant G_ETH = 5 ether;
    uint16 internal constant FEE_BPS = 100;
    uint24 internal constant POOL_FEE = 3000;
    int24 internal constant TICK_SPACING = 60;

    IPoolManager internal pm;
    Launchpad internal pad;
    RecordingSink internal sink;
    address internal padOwner = makeAddr("padOwner");

    function _config(bytes32 salt) internal view returns (Launchpad.Config memory) {
        return _config(salt, address(sink));
    }

    function _config(bytes32 salt, address feeSink) internal view returns (Launchpad.Config memory) {
        return Launchpad.Config({
            poolManager: pm,
            lockerSalt: salt,
            supply: S,
            feeBps: FEE_BPS,
            ethVirtualQuote: PHI_ETH,
            poolFee: POOL_FEE,
            tickSpacing: TICK_SPACING,
            feeSink: feeSink
        });
    }

    function _deployLaunchpad() internal {
        pm = V4Deployer.deployPoolManager(address(this));
        sink = new RecordingSink();
        _deployPad(address(sink));
    }

    function _deployPad(address feeSink) internal {
        address predicted = vm.computeCreateAddress(address(this), vm.getNonce(address(this)));
        (bytes32 salt,) = LockerSalt.find(predicted, pm);
        pad = new Launchpad(padOwner, _config(salt, feeSink));
        require(address(pad) == predicted, "prediction");
    }
}
