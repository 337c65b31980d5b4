//! Flows: the layer between the chain and the views. A flow is one user task: it gathers its reads (the
//! chain layer, [`crate::chain`]), calls `eden_core`'s rules and checks, and returns a typed report (or a
//! transaction request). Pages keep signals and views only; findings stay typed until [`words`] says them.
//!
//! | flow | task |
//! |---|---|
//! | [`trade`] | a trade on a launch's curve: exact quotes and the slippage's minimum-out (C19) |
//! | [`launch_input`] | a launch's name, symbol and buyback share checked before any transaction (D4, §7) |
//! | [`proof_check`] | a pasted Merkle proof parsed and checked |
//! | [`claim`] | the account's holder payouts, proofs walked to the chain; `claim`, and `claimTo` under a checked signature (C18) |
//! | [`duel`] | one duel: its state read, the active round and every settled round replayed and cross-checked (B1–B7) |
//! | [`duel_create`] | a new duel's form checked, both pools priced, and its `createDuel` (or timelocked) transaction (B1) |
//! | [`duel_mean`] | a duel round's mean tick and would-be winner replayed from the chain's logs (B2) |
//! | [`verify_score`] | verify one project's score in one epoch against the chain (C1–C7, C9, C17, C21, C22) |
//! | [`score_counting`] | which theses count, re-derived from the chain and compared with the bundle's (C9a, C9b, C10a) |
//! | [`score_inputs`] | the verified inputs: attestations, their keys, the intake re-run against the bundle (C21) |
//! | [`score_grades`] | each graded thesis's grading record fetched and re-derived (C8) |
//! | [`score_human`] | the human score recomputed and its theses cross-checked against the chain (C5, C7, C9, C10) |
//! | [`score_creator`] | the creator share recomputed and cross-checked against FeeLanes, the leaf it would record (C17) |
//! | [`score_findings`] | what the score's verification finds, typed |
//! | [`words`] | the findings in words |

pub mod claim;
pub mod duel;
pub mod duel_create;
pub mod duel_mean;
pub mod launch_input;
pub mod proof_check;
pub mod score_counting;
pub mod score_creator;
pub mod score_findings;
pub mod score_grades;
pub mod score_human;
pub mod score_inputs;
pub mod trade;
pub mod verify_score;
pub mod words;
