//! Protocol Merkle leaves (C5): score, quality and human leaves with domain tags.
