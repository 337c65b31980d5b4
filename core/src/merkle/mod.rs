//! OpenZeppelin-compatible `StandardMerkleTree` (`standard-v1`), see docs/protocol.md C5.
