//! The routed pages.

pub mod calls;
pub mod duel;
pub mod launch;
pub mod payouts;
pub mod positions;
pub mod score;
pub mod score_creator;
pub mod score_human;
pub mod scorer;
