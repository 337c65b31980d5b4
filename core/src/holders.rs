//! Holder payouts (C18).
