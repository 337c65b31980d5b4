//! EIP-712 `EpochRoot` signing hash and signer recovery (C6).
