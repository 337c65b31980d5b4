// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/// @notice Test helper: a sorted-pair (commutative) Merkle tree over arbitrary leaf hashes, the hashing
/// OpenZeppelin MerkleProof verifies. Layout: pair neighbours level by level, an odd last node is carried up.
/// (Proof compatibility with the OpenZeppelin JS library's own layout is checked by the JSON fixture test.)
library MerkleBuilder {
    function hashPair(bytes32 a, bytes32 b) internal pure returns (bytes32) {
        return a < b ? keccak256(abi.encode(a, b)) : keccak256(abi.encode(b, a));
    }

    function root(bytes32[] memory leaves) internal pure returns (bytes32) {
        require(leaves.length > 0, "MerkleBuilder: no leaves");
        bytes32[] memory level = leaves;
        while (level.length > 1) level = _up(level);
        return level[0];
    }

    function proof(bytes32[] memory leaves, uint256 index) internal pure returns (bytes32[] memory p) {
        require(index < leaves.length, "MerkleBuilder: index");
        bytes32[] memory tmp = new bytes32[](256);
        uint256 n;
        bytes32[] memory level = leaves;
        while (level.length > 1) {
            uint256 sib = index ^ 1;
            if (sib < level.length) tmp[n++] = level[sib];
            level = _up(level);
            index >>= 1;
        }
        p = new bytes32[](n);
        for (uint256 i; i < n; ++i) {
            p[i] = tmp[i];
        }
    }

    function _up(bytes32[] memory level) private pure returns (bytes32[] memory next) {
        next = new bytes32[]((level.length + 1) / 2);
        for (uint256 i; i < next.length; ++i) {
            uint256 l = 2 * i;
            next[i] = l + 1 < level.length ? hashPair(level[l], level[l + 1]) : level[l];
        }
    }
}
