//! Thesis quality aggregation (C8, pinned).
//!
//! - Each model sample scores three rubric criteria (relevance, specificity, consistency of the
//!   score with the thesis), each a WAD in `[0, 1]`; the sample's rubric mean is
//!   `⌊(a + b + c) / 3⌋` (rounded down).
//! - `R` is the **median** of the three samples' rubric means.
//! - If `R ≥ 0.8` ([`REGRADE_THRESHOLD_WAD`]) an independent verifier's re-grade (a WAD in `[0, 1]`)
//!   is required and the lower of the two is kept.
//! - `q = G × R`, rounded down, with `G` (**decided**) the grounding factor computed by code, in `[0, 1]`.
//! - A thesis that tries to instruct the grader (instruction injection) gets `q = 0`.
//! - The originality multiplier `c` comes from the copy-detection verdict
//!   ([`super::copy_detect`]): original 1, similar 1, derivative 0.5, copy 0. The grade reports
//!   `q` (the quality leaf's `qualityWad`) and `q·c` (rounded down) separately; the 0.3 counting
//!   floor belongs to C9/C12.

use super::copy_detect::Verdict;
use crate::math::{wad_mul_down, U256, WAD};

/// `R` at or above which the verifier's re-grade is taken: 0.8 WAD.
pub const REGRADE_THRESHOLD_WAD: U256 = U256::from_limbs([800_000_000_000_000_000, 0, 0, 0]);

/// What the grader produced for one thesis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThesisSamples {
    /// Three model samples × three rubric criteria, WAD each.
    pub samples: [[U256; 3]; 3],
    /// The independent verifier's re-grade (WAD); required when `R ≥ 0.8`, ignored otherwise.
    pub verifier_regrade_wad: Option<U256>,
    /// Grounding factor `G` from code, WAD in `[0, 1]`.
    pub grounding_wad: U256,
    /// The grader detected an attempt to instruct it.
    pub injection: bool,
    /// Copy-detection verdict.
    pub verdict: Verdict,
}

/// Every step of a thesis grade.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThesisGrade {
    /// Rubric mean of each sample, WAD.
    pub sample_means_wad: [U256; 3],
    /// Median of the three means, WAD.
    pub median_wad: U256,
    /// Whether the verifier's re-grade was taken (`median ≥ 0.8`).
    pub regraded: bool,
    /// `R`: the median, or the lower of median and re-grade.
    pub rubric_wad: U256,
    /// `q = G × R` (0 on injection), WAD.
    pub quality_wad: U256,
    /// Originality verdict.
    pub verdict: Verdict,
    /// `c`, WAD.
    pub multiplier_wad: U256,
    /// `q·c`, WAD.
    pub effective_wad: U256,
}

/// Bad grading input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ThesisError {
    /// A WAD fraction above 1.
    #[error("{field}: {value} exceeds 1 WAD")]
    AboveOne {
        /// Offending field.
        field: String,
        /// Its value.
        value: U256,
    },
    /// `R ≥ 0.8` but no re-grade was supplied.
    #[error("verifierRegradeWad: required because R = {rubric} ≥ 0.8")]
    RegradeRequired {
        /// The median rubric mean.
        rubric: U256,
    },
}

/// The median of three values.
pub fn median3(v: [U256; 3]) -> U256 {
    let [a, b, c] = v;
    a.max(b).min(a.min(b).max(c))
}

/// Grades one thesis (C8).
///
/// # Errors
/// [`ThesisError`] naming the offending field.
pub fn grade_thesis(input: &ThesisSamples) -> Result<ThesisGrade, ThesisError> {
    let mut means = [U256::ZERO; 3];
    for (i, sample) in input.samples.iter().enumerate() {
        let mut sum = U256::ZERO;
        for (j, x) in sample.iter().enumerate() {
            check_unit(&format!("samples[{i}][{j}]"), *x)?;
            sum += *x; // ≤ 3 WAD
        }
        means[i] = sum / U256::from(3u8);
    }
    check_unit("groundingWad", input.grounding_wad)?;
    let median = median3(means);
    let (regraded, rubric) = if median >= REGRADE_THRESHOLD_WAD {
        let r = input
            .verifier_regrade_wad
            .ok_or(ThesisError::RegradeRequired { rubric: median })?;
        check_unit("verifierRegradeWad", r)?;
        (true, median.min(r))
    } else {
        (false, median)
    };
    let quality = if input.injection {
        U256::ZERO
    } else {
        wad_mul_down(input.grounding_wad, rubric).unwrap_or(U256::ZERO)
    };
    let multiplier = input.verdict.multiplier_wad();
    Ok(ThesisGrade {
        sample_means_wad: means,
        median_wad: median,
        regraded,
        rubric_wad: rubric,
        quality_wad: quality,
        verdict: input.verdict,
        multiplier_wad: multiplier,
        effective_wad: wad_mul_down(quality, multiplier).unwrap_or(U256::ZERO),
    })
}

fn check_unit(field: &str, v: U256) -> Result<(), ThesisError> {
    if v > WAD {
        return Err(ThesisError::AboveOne {
            field: field.into(),
            value: v,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::parse_wad;
    use proptest::prelude::*;

    fn w(s: &str) -> U256 {
        parse_wad(s).unwrap()
    }

    fn input(samples: [[&str; 3]; 3], regrade: Option<&str>, g: &str) -> ThesisSamples {
        ThesisSamples {
            samples: samples.map(|s| s.map(w)),
            verifier_regrade_wad: regrade.map(w),
            grounding_wad: w(g),
            injection: false,
            verdict: Verdict::Original,
        }
    }

    #[test]
    fn median_of_three_rubric_means_times_grounding() {
        let t = input(
            [
                ["0.6", "0.6", "0.6"],
                ["0.9", "0.3", "0.6"],
                ["0.3", "0.3", "0.3"],
            ],
            None,
            "0.5",
        );
        // means 0.6, 0.6, 0.3 → median 0.6; q = 0.5 × 0.6
        let g = grade_thesis(&t).unwrap();
        assert_eq!(g.sample_means_wad, [w("0.6"), w("0.6"), w("0.3")]);
        assert_eq!(g.rubric_wad, w("0.6"));
        assert!(!g.regraded);
        assert_eq!(g.quality_wad, w("0.3"));
        assert_eq!(g.effective_wad, w("0.3"));
        // the median, not the mean: one wild sample does not move it
        let t = input(
            [
                ["0.5", "0.5", "0.5"],
                ["1", "1", "1"],
                ["0.4", "0.4", "0.4"],
            ],
            None,
            "1",
        );
        assert_eq!(grade_thesis(&t).unwrap().rubric_wad, w("0.5"));
        // rubric mean rounds down
        let t = input([["1", "0", "0"]; 3], None, "1");
        assert_eq!(
            grade_thesis(&t).unwrap().rubric_wad,
            U256::from(333_333_333_333_333_333u64)
        );
    }

    #[test]
    fn regrade_at_0_8_keeps_the_lower() {
        let high = [["0.8", "0.8", "0.8"]; 3];
        assert_eq!(
            grade_thesis(&input(high, None, "1")),
            Err(ThesisError::RegradeRequired { rubric: w("0.8") })
        );
        let g = grade_thesis(&input(high, Some("0.7"), "1")).unwrap();
        assert!(g.regraded);
        assert_eq!(g.rubric_wad, w("0.7"));
        let g = grade_thesis(&input(high, Some("0.95"), "1")).unwrap();
        assert_eq!(g.rubric_wad, w("0.8"));
        // below 0.8 a supplied re-grade is ignored
        let g = grade_thesis(&input([["0.7"; 3]; 3], Some("0.1"), "1")).unwrap();
        assert!(!g.regraded);
        assert_eq!(g.rubric_wad, w("0.7"));
    }

    #[test]
    fn multipliers_and_injection() {
        let mut t = input([["0.6"; 3]; 3], None, "1");
        for (v, c) in [
            (Verdict::Original, "1"),
            (Verdict::Similar, "1"),
            (Verdict::Derivative, "0.5"),
            (Verdict::Copy, "0"),
        ] {
            t.verdict = v;
            let g = grade_thesis(&t).unwrap();
            assert_eq!(g.multiplier_wad, w(c));
            assert_eq!(g.quality_wad, w("0.6"));
            assert_eq!(g.effective_wad, wad_mul_down(w("0.6"), w(c)).unwrap());
        }
        t.injection = true;
        t.verdict = Verdict::Original;
        let g = grade_thesis(&t).unwrap();
        assert_eq!((g.quality_wad, g.effective_wad), (U256::ZERO, U256::ZERO));
    }

    #[test]
    fn errors_name_fields() {
        let t = input([["0.6", "1.1", "0.6"], ["0.6"; 3], ["0.6"; 3]], None, "1");
        assert!(grade_thesis(&t)
            .unwrap_err()
            .to_string()
            .starts_with("samples[0][1]"));
        let t = input([["0.6"; 3]; 3], None, "1.5");
        assert!(grade_thesis(&t)
            .unwrap_err()
            .to_string()
            .starts_with("groundingWad"));
        let t = input([["0.9"; 3]; 3], Some("2"), "1");
        assert!(grade_thesis(&t)
            .unwrap_err()
            .to_string()
            .starts_with("verifierRegradeWad"));
    }

    proptest! {
        #[test]
        fn median3_is_a_middle_value(a in any::<u64>(), b in any::<u64>(), c in any::<u64>()) {
            let mut v = [a, b, c];
            v.sort_unstable();
            prop_assert_eq!(median3([U256::from(a), U256::from(b), U256::from(c)]), U256::from(v[1]));
        }

        #[test]
        fn quality_never_exceeds_grounding_or_rubric(x in proptest::array::uniform9(0u64..=1_000_000_000_000_000_000), g in 0u64..=1_000_000_000_000_000_000, r in 0u64..=1_000_000_000_000_000_000) {
            let s = [[x[0], x[1], x[2]], [x[3], x[4], x[5]], [x[6], x[7], x[8]]].map(|a| a.map(U256::from));
            let t = ThesisSamples { samples: s, verifier_regrade_wad: Some(U256::from(r)), grounding_wad: U256::from(g), injection: false, verdict: Verdict::Original };
            let out = grade_thesis(&t).unwrap();
            prop_assert!(out.quality_wad <= out.rubric_wad && out.quality_wad <= U256::from(g));
            prop_assert!(out.rubric_wad <= out.median_wad);
        }
    }
}
