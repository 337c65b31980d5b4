//! Human scores (§4): the envelope around an attested systematic score (C9) and the
//! pre-data replay for projects without one (C10).
//!
//! - [`envelope`]: C9, `Δ = 4·s_sys·(1 − s_sys) · Σ(q·c·δ) / Σ(q·c)` clamped to ±0.2,
//!   `s = clamp(s_sys·(1 + Δ), 0, 1)`; theses with `q ≥ 0.3` count.
//! - [`predata`]: C10, `s ← clamp(s + q·c·clamp(y − s, −m, +m), 0, cap)` on 0–100 points.
//!
//! Qualities `q` and originality multipliers `c` come from thesis grading (C8) as WADs in `[0, 1]`.
//!
//! Rounding: these are scores, not money, so the rounding is protocol-neutral: every step that
//! divides rounds its magnitude toward zero, i.e. a human move is never overstated, in either
//! direction. Each function documents its steps.

pub mod envelope;
pub mod predata;

pub use envelope::{envelope_wad, human_envelope, EnvelopeResult, Thesis, BAND, COUNTING_QUALITY};
pub use predata::{
    pre_data_replay, pre_data_step, PreDataSubmission, CAP_UNVERIFIED_POINTS, CAP_VERIFIED_POINTS,
    FIRST_STEP_POINTS, LATER_STEP_POINTS, MAX_POINTS,
};

use crate::math::MathError;
use alloy_primitives::U256;

/// Why a human score could not be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HumanError {
    /// `s_sys` is not a WAD in `[0, 1]`.
    #[error("sSys must be a WAD in [0, 1] (at most 1000000000000000000), got {0}")]
    SystematicOutOfRange(U256),
    /// A thesis or submission field (`quality`, `multiplier`, `submitted`) is not a WAD in `[0, 1]`.
    #[error("{list}[{index}].{field} must be a WAD in [0, 1] (at most 1000000000000000000), got {value}")]
    FractionOutOfRange {
        /// `theses` or `submissions`.
        list: &'static str,
        /// Position in the list.
        index: usize,
        /// The offending field.
        field: &'static str,
        /// The value given.
        value: U256,
    },
    /// A pre-data target is not in `[0, 100]` points (WAD).
    #[error("submissions[{index}].target must be in [0, 100] points as a WAD (at most 100000000000000000000), got {value}")]
    TargetOutOfRange {
        /// Position in the list.
        index: usize,
        /// The value given.
        value: U256,
    },
    /// Integer arithmetic failed (cannot happen for validated inputs; reported, never a panic).
    #[error("arithmetic error in {context}: {source}")]
    Math {
        /// The step that failed.
        context: &'static str,
        /// The underlying error.
        source: MathError,
    },
}

pub(crate) fn math(context: &'static str) -> impl Fn(MathError) -> HumanError {
    move |source| HumanError::Math { context, source }
}
