//! Duels (B1–B7).
