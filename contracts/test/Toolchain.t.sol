// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test} from "forge-std/Test.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {V4Deployer} from "./utils/V4Deployer.sol";

/// Smoke test of the offline toolchain: solc-js compiles OZ + v4-core interfaces, and the npm PoolManager deploys.
contract ToolchainTest is Test {
    function test_poolManagerDeploysFromNpmArtifact() public {
        IPoolManager pm = V4Deployer.deployPoolManager(address(this));
        assertGt(address(pm).code.length, 20_000);
        assertEq(pm.protocolFeeController(), address(0));
    }
}
