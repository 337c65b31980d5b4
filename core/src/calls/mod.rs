//! Agent call ledger (A1–A4).
