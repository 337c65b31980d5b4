//! Bonding curve (C19) and graduation (C20).
