//! Eligibility gate (C3, pinned): `g = raw` if the project passes, else `g = 0`.
//!
//! Passing needs all three:
//! - **merit**: `merit ≥ MIN_RAW`, where (**decided**) `merit` is the raw score computed with every
//!   self-reported feature set to 0, so self-reported metrics can never qualify a project on their own;
//! - **output**: verified output `≥ MIN_OUTPUT`;
//! - **age**: project age `≥` the track's minimum age (seconds).
//!
//! The gate zeroes this epoch's input, not the published score: smoothing ([`super::smooth`])
//! then fades a failing project 100 → 60 → 36 → 21.6 → 12.96.

use super::config::TrackConfig;
use super::raw::RawScore;
use crate::math::U256;
use serde::{Deserialize, Serialize};

/// Outcome of the gate for one project.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct GateCheck {
    /// All three conditions hold.
    pub passed: bool,
    /// `merit ≥ MIN_RAW` (self-reported features excluded).
    pub merit_ok: bool,
    /// `verifiedOutput ≥ MIN_OUTPUT`.
    pub output_ok: bool,
    /// `ageSecs ≥ minAgeSecs`.
    pub age_ok: bool,
}

/// Applies the gate; returns the check and `g` (WAD): `raw` when passed, else 0.
pub fn gate(
    config: &TrackConfig,
    raw: &RawScore,
    verified_output: U256,
    age_secs: u64,
) -> (GateCheck, U256) {
    let check = gate_check(
        raw.merit_wad,
        config.min_raw_wad,
        verified_output >= config.min_output,
        age_secs >= config.min_age_secs,
    );
    (
        check,
        if check.passed {
            raw.raw_wad
        } else {
            U256::ZERO
        },
    )
}

pub(crate) fn gate_check(
    merit_wad: U256,
    min_raw_wad: U256,
    output_ok: bool,
    age_ok: bool,
) -> GateCheck {
    let merit_ok = merit_wad >= min_raw_wad;
    GateCheck {
        passed: merit_ok && output_ok && age_ok,
        merit_ok,
        output_ok,
        age_ok,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{parse_wad, WAD};
    use crate::scoring::raw::raw_score;

    fn w(s: &str) -> U256 {
        parse_wad(s).unwrap()
    }

    #[test]
    fn passes_with_merit_output_and_age() {
        let t = TrackConfig::agents();
        let r = raw_score(&t, &[w("0.05"), U256::ZERO, U256::ZERO, WAD], 0, 0).unwrap();
        // merit 0.4·0.05 = 0.02 = MIN_RAW exactly; raw 0.17
        assert_eq!(r.merit_wad, w("0.02"));
        let (c, g) = gate(&t, &r, U256::from(1u8), t.min_age_secs);
        assert!(c.passed);
        assert_eq!(g, w("0.17"));
    }

    #[test]
    fn self_reported_alone_cannot_qualify() {
        let t = TrackConfig::agents();
        let r = raw_score(&t, &[U256::ZERO, U256::ZERO, U256::ZERO, WAD], 0, 0).unwrap();
        assert_eq!(r.raw_wad, w("0.15")); // well above MIN_RAW 0.02 …
        let (c, g) = gate(&t, &r, U256::from(100u8), u64::MAX);
        assert!(!c.merit_ok && !c.passed); // … but the merit score is 0
        assert_eq!(g, U256::ZERO);
    }

    #[test]
    fn output_and_age_floors() {
        let t = TrackConfig::apps();
        let r = raw_score(&t, &[WAD; 4], 0, 0).unwrap();
        let (c, g) = gate(&t, &r, U256::ZERO, t.min_age_secs);
        assert_eq!(
            (c.passed, c.merit_ok, c.output_ok, c.age_ok),
            (false, true, false, true)
        );
        assert_eq!(g, U256::ZERO);
        let (c, _) = gate(&t, &r, U256::from(1u8), t.min_age_secs - 1);
        assert_eq!((c.passed, c.age_ok), (false, false));
        // apps MIN_RAW is 0.10: merit 0.45·0.2 = 0.09 fails
        let r = raw_score(&t, &[w("0.2"), U256::ZERO, U256::ZERO, U256::ZERO], 0, 0).unwrap();
        assert!(!gate(&t, &r, U256::from(1u8), t.min_age_secs).0.merit_ok);
    }
}
