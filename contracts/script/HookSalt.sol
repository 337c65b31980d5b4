// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/// @notice Finds a CREATE2 salt that gives a v4 hook an address whose 14 permission bits are exactly `flags`
/// (HookMiner-style loop; ~16,384 tries on average). Off-chain only (tests, forge scripts).
library HookSalt {
    uint160 internal constant MASK = (1 << 14) - 1;

    function find(address deployer, bytes32 initCodeHash, uint160 flags) internal pure returns (bytes32 salt, address hook) {
        bytes memory buf = abi.encodePacked(bytes1(0xff), deployer, bytes32(0), initCodeHash);
        for (uint256 i; i < 4_000_000; ++i) {
            bytes32 h;
            assembly ("memory-safe") {
                mstore(add(buf, 53), i)
                h := keccak256(add(buf, 32), 85)
            }
            if (uint160(uint256(h)) & MASK == flags) return (bytes32(i), address(uint160(uint256(h))));
        }
        revert("HookSalt: none found");
    }
}
