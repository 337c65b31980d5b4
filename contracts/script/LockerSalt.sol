// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {LaunchLocker} from "../src/LaunchLocker.sol";

/// @notice Finds the CREATE2 salt that gives the LaunchLocker (deployed by the Launchpad constructor) a
/// hook address whose permission bits are exactly BEFORE_INITIALIZE and AFTER_SWAP (`address & 0x3FFF == 0x2040`).
/// About 16,384 tries on average; run off-chain (tests, forge scripts), never on-chain.
library LockerSalt {
    uint160 internal constant MASK = (1 << 14) - 1;
    uint160 internal constant FLAGS = (1 << 13) | (1 << 6);

    function find(address launchpad, IPoolManager poolManager) internal pure returns (bytes32 salt, address locker) {
        bytes32 initCodeHash = keccak256(abi.encodePacked(type(LaunchLocker).creationCode, abi.encode(poolManager)));
        // 0xff ‖ deployer ‖ salt ‖ initCodeHash; the salt word (data bytes 21..52) is rewritten in place.
        bytes memory buf = abi.encodePacked(bytes1(0xff), launchpad, bytes32(0), initCodeHash);
        for (uint256 i; i < 4_000_000; ++i) {
            bytes32 h;
            assembly ("memory-safe") {
                mstore(add(buf, 53), i)
                h := keccak256(add(buf, 32), 85)
            }
            if (uint160(uint256(h)) & MASK == FLAGS) return (bytes32(i), address(uint160(uint256(h))));
        }
        revert("LockerSalt: none found");
    }
}
