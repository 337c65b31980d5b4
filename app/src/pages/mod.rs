//! The routed pages.

pub mod calls;
pub mod deferred;
pub mod duel;
pub mod duel_create;
pub mod launch;
pub mod launch_form;
pub mod launch_order;
pub mod network;
pub mod payouts;
pub mod pool_trade;
pub mod read_again;
pub mod score;
pub mod score_where_traded;
pub mod scorer;
pub mod split;
pub mod trade_review;
pub mod verify;
