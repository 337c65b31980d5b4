// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Vm} from "forge-std/Vm.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";

/// @notice Deploys the real Uniswap v4 PoolManager from the bytecode v4-core publishes on npm
/// (npm v4-core `out/PoolManager.sol/PoolManager.json`), so tests and scripts run against the
/// exact audited build without recompiling it.
library V4Deployer {
    Vm private constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));
    string internal constant POOL_MANAGER_ARTIFACT =
        "../node_modules/@uniswap/v4-core/out/PoolManager.sol/PoolManager.json";

    function deployPoolManager(address owner) internal returns (IPoolManager pm) {
        bytes memory code = abi.encodePacked(vm.getCode(POOL_MANAGER_ARTIFACT), abi.encode(owner));
        address a;
        assembly ("memory-safe") {
            a := create(0, add(code, 0x20), mload(code))
        }
        require(a != address(0) && a.code.length > 0, "V4Deployer: PoolManager deploy failed");
        pm = IPoolManager(a);
    }
}
