//! Differential tests of `eden-core` against the contracts (see `tests/`).
