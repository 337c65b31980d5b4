// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/// @title EdenLeaves: the epoch root's leaf encodings (C5), one definition for every contract.
/// @notice OpenZeppelin StandardMerkleTree leaves, `keccak256(bytes.concat(keccak256(abi.encode(values))))`:
/// - score `(address project, uint256 scoreWad)`: the published score, one per project (C27);
/// - quality `(bytes32 T_q, address scorerRegistry, uint256 scoreId, address scorer, address project,
///   bytes32 thesisHash, uint256 qualityWad, uint8 verdict, bytes32 matchedThesis)`: a grade names the one score it
///   was made for (registry, id, scorer, token and thesis), so it can open no other score's position (C5, decided
///   after the review: a copied thesis hash no longer inherits the original's grade);
/// - systematic `(bytes32 T_s, address project, uint256 scoreWad)`: the systematic score of a project whose
///   published score a human move set (C27), so the next epoch's smoothing start is committed to;
/// with `T_q = keccak256("eden.leaf.quality")`, `T_s = keccak256("eden.leaf.systematic")`.
library EdenLeaves {
    /// @notice T_q (C5).
    bytes32 internal constant QUALITY_LEAF_TAG = keccak256("eden.leaf.quality");
    /// @notice T_s (C5, C27).
    bytes32 internal constant SYSTEMATIC_LEAF_TAG = keccak256("eden.leaf.systematic");

    /// @notice The values of a quality leaf after its tag (a static tuple: ABI-encoded in place).
    struct Grade {
        address scorerRegistry;
        uint256 scoreId;
        address scorer;
        address project;
        bytes32 thesisHash;
        uint256 qualityWad;
        uint8 verdict;
        bytes32 matchedThesis;
    }

    function scoreLeaf(address project, uint256 scoreWad) internal pure returns (bytes32) {
        return keccak256(bytes.concat(keccak256(abi.encode(project, scoreWad))));
    }

    function qualityLeaf(Grade memory g) internal pure returns (bytes32) {
        return keccak256(bytes.concat(keccak256(abi.encode(QUALITY_LEAF_TAG, g))));
    }

    function systematicLeaf(address project, uint256 scoreWad) internal pure returns (bytes32) {
        return keccak256(bytes.concat(keccak256(abi.encode(SYSTEMATIC_LEAF_TAG, project, scoreWad))));
    }
}
