//! C9 (pinned) Human envelope, §4.2: projects with an attested systematic score.
//!
//! Counting theses have `q_k ≥ 0.3`. With `δ_k = submitted_k − s_sys`:
//!
//! ```text
//! Δ = 4·s_sys·(1 − s_sys) × Σ(q_k·c_k·δ_k) / Σ(q_k·c_k),   clamped to [−BAND, +BAND], BAND = 0.2
//! s = clamp(s_sys·(1 + Δ), 0, 1)
//! ```
//!
//! No counting thesis leaves `s = s_sys`. **Decided:** counting theses whose `Σ q_k·c_k` is 0
//! (every counting thesis a copy, `c = 0`) also leave `s = s_sys` (Δ = 0) instead of dividing by 0.
//!
//! All values are WADs on the 0–1 scale. Rounding (protocol-neutral, stated per step):
//! 1. `envelope = ⌊4·s·(1 − s)⌋` (one division by 10^18, down; exact when `s` has ≤ 9 decimals).
//! 2. `Σ q·c·δ` and `Σ q·c` are kept exact (unscaled products, 10^54 and 10^36 scale).
//! 3. `|Δ| = ⌊envelope · |Σ q·c·δ| / (Σ q·c · 10^18)⌋`: one division, magnitude toward zero; then clamped.
//! 4. `s = s_sys ± ⌊s_sys·|Δ| / 10^18⌋` (magnitude toward zero), clamped to `[0, 1]`.
//!
//! Example (a unit test): `s_sys = 0.60`, theses (0.8, 1, +0.10), (0.5, 0.5, −0.04), (0.2, 1, +0.30)
//! → envelope 0.96, `Δ = 0.064`, `s = 0.6384`, every step exact.

use super::{math, HumanError};
use crate::math::{checked_add, mul_div_down, WAD};
use alloy_primitives::{I256, U256};

/// A thesis counts toward the envelope when its quality is at least 0.3 (WAD).
pub const COUNTING_QUALITY: U256 = U256::from_limbs([300_000_000_000_000_000, 0, 0, 0]);
/// The largest human move, as a fraction of `s_sys`: `BAND = 0.2` (WAD).
pub const BAND: U256 = U256::from_limbs([200_000_000_000_000_000, 0, 0, 0]);

/// One graded thesis with its submitted score (all WADs in `[0, 1]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct Thesis {
    /// Quality `q = G × R` (C8).
    #[serde(with = "crate::serde_dec::u256")]
    pub quality: U256,
    /// Originality multiplier `c` (C8: 1, 1, 0.5 or 0).
    #[serde(with = "crate::serde_dec::u256")]
    pub multiplier: U256,
    /// The score the scorer submitted, on the 0–1 scale.
    #[serde(with = "crate::serde_dec::u256")]
    pub submitted: U256,
}

/// The outcome of [`human_envelope`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct EnvelopeResult {
    /// `4·s_sys·(1 − s_sys)`, WAD.
    #[serde(with = "crate::serde_dec::u256")]
    pub envelope: U256,
    /// Δ after the ±BAND clamp, signed WAD.
    #[serde(with = "crate::serde_dec::i256")]
    pub delta: I256,
    /// The human-adjusted score `s`, WAD in `[0, 1]`.
    #[serde(with = "crate::serde_dec::u256")]
    pub score: U256,
    /// How many theses counted (`q ≥ 0.3`).
    #[serde(with = "crate::serde_dec::int")]
    pub counted: usize,
}

/// `⌊4·s·(1 − s)⌋` as a WAD (step 1). `s` must be in `[0, 1]`.
///
/// # Errors
/// [`HumanError::SystematicOutOfRange`] when `s > 1`.
pub fn envelope_wad(s_sys: U256) -> Result<U256, HumanError> {
    if s_sys > WAD {
        return Err(HumanError::SystematicOutOfRange(s_sys));
    }
    // 4·s ≤ 4·10^18 and 1 − s ≤ 10^18: no overflow.
    let four_s = s_sys * U256::from(4u8);
    mul_div_down(four_s, WAD - s_sys, WAD).map_err(math("envelope"))
}

fn check_fraction(index: usize, field: &'static str, value: U256) -> Result<(), HumanError> {
    if value > WAD {
        return Err(HumanError::FractionOutOfRange {
            list: "theses",
            index,
            field,
            value,
        });
    }
    Ok(())
}

/// C9: the human-adjusted score of a project with attested systematic score `s_sys`.
///
/// # Errors
/// A field outside `[0, 1]` (named), never a panic.
pub fn human_envelope(s_sys: U256, theses: &[Thesis]) -> Result<EnvelopeResult, HumanError> {
    let envelope = envelope_wad(s_sys)?;
    // Step 2: exact signed numerator as two non-negative sums, and the exact normaliser.
    let mut up = U256::ZERO; // Σ q·c·δ over δ > 0  (scale 10^54)
    let mut down = U256::ZERO; // Σ q·c·|δ| over δ < 0 (scale 10^54)
    let mut norm = U256::ZERO; // Σ q·c (scale 10^36)
    let mut counted = 0usize;
    for (i, t) in theses.iter().enumerate() {
        check_fraction(i, "quality", t.quality)?;
        check_fraction(i, "multiplier", t.multiplier)?;
        check_fraction(i, "submitted", t.submitted)?;
        if t.quality < COUNTING_QUALITY {
            continue;
        }
        counted += 1;
        // Each factor ≤ 10^18: products ≤ 10^54, sums ≤ n·10^54 (checked).
        let w = t.quality * t.multiplier;
        norm = checked_add(norm, w).map_err(math("sum of q·c"))?;
        if t.submitted >= s_sys {
            let term = w * (t.submitted - s_sys);
            up = checked_add(up, term).map_err(math("sum of q·c·δ"))?;
        } else {
            let term = w * (s_sys - t.submitted);
            down = checked_add(down, term).map_err(math("sum of q·c·δ"))?;
        }
    }
    if norm.is_zero() {
        return Ok(EnvelopeResult {
            envelope,
            delta: I256::ZERO,
            score: s_sys,
            counted,
        });
    }
    let (negative, net) = if up >= down {
        (false, up - down)
    } else {
        (true, down - up)
    };
    // Step 3: |Δ| toward zero, then the band.
    let denom = norm.checked_mul(WAD).ok_or(HumanError::Math {
        context: "Σ q·c × 10^18",
        source: crate::math::MathError::Overflow,
    })?;
    let abs_delta = mul_div_down(envelope, net, denom)
        .map_err(math("Δ"))?
        .min(BAND);
    // Step 4: the move, toward zero, then clamp to [0, 1].
    let step = mul_div_down(s_sys, abs_delta, WAD).map_err(math("s_sys·Δ"))?;
    let score = if negative {
        s_sys.saturating_sub(step)
    } else {
        (s_sys + step).min(WAD)
    };
    // |Δ| ≤ 0.2·10^18 fits an I256.
    let magnitude = I256::from_raw(abs_delta);
    let delta = if negative { -magnitude } else { magnitude };
    Ok(EnvelopeResult {
        envelope,
        delta,
        score,
        counted,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn w(milli: u64) -> U256 {
        // thousandths → WAD
        U256::from(milli) * U256::from(1_000_000_000_000_000u64)
    }

    fn thesis(q: u64, c: u64, submitted: u64) -> Thesis {
        Thesis {
            quality: w(q),
            multiplier: w(c),
            submitted: w(submitted),
        }
    }

    #[test]
    fn seed_example_c9() {
        // s_sys 0.60; (0.8, 1, +0.10), (0.5, 0.5, −0.04), (0.2, 1, +0.30).
        let theses = [
            thesis(800, 1000, 700),
            thesis(500, 500, 560),
            thesis(200, 1000, 900),
        ];
        let r = human_envelope(w(600), &theses).unwrap();
        assert_eq!(r.envelope, w(960));
        assert_eq!(r.delta, I256::from_raw(w(64)));
        assert_eq!(r.score, U256::from(638_400_000_000_000_000u64));
        assert_eq!(r.counted, 2);
    }

    #[test]
    fn no_counting_thesis_keeps_s_sys() {
        let r = human_envelope(w(600), &[thesis(299, 1000, 1000)]).unwrap();
        assert_eq!((r.delta, r.score, r.counted), (I256::ZERO, w(600), 0));
        let r = human_envelope(w(600), &[]).unwrap();
        assert_eq!(r.score, w(600));
        // Counting, but every one a copy (c = 0): Δ = 0.
        let r = human_envelope(w(600), &[thesis(900, 0, 1000)]).unwrap();
        assert_eq!((r.delta, r.score, r.counted), (I256::ZERO, w(600), 1));
    }

    #[test]
    fn band_clamps_both_ways() {
        // s 0.5 → envelope 1; everyone says 1.0 → Δ = 0.5 → clamped to 0.2 → 0.6.
        let r = human_envelope(w(500), &[thesis(1000, 1000, 1000)]).unwrap();
        assert_eq!(r.envelope, WAD);
        assert_eq!(r.delta, I256::from_raw(BAND));
        assert_eq!(r.score, w(600));
        let r = human_envelope(w(500), &[thesis(1000, 1000, 0)]).unwrap();
        assert_eq!(r.delta, -I256::from_raw(BAND));
        assert_eq!(r.score, w(400));
    }

    #[test]
    fn ends_of_the_scale_do_not_move() {
        for s in [0u64, 1000] {
            let r = human_envelope(w(s), &[thesis(1000, 1000, 500)]).unwrap();
            assert_eq!(r.envelope, U256::ZERO);
            assert_eq!(r.score, w(s));
        }
    }

    #[test]
    fn negative_delta_rounds_toward_zero() {
        // s = 1/3 WAD-ish, odd values: |Δ| must equal the positive mirror's.
        let s = U256::from(333_333_333_333_333_333u64);
        let up = human_envelope(s, &[thesis(700, 1000, 0)]).unwrap();
        let t = Thesis {
            quality: w(700),
            multiplier: WAD,
            submitted: s + s,
        };
        let mirror = human_envelope(s, &[t]).unwrap();
        assert_eq!(up.delta, -mirror.delta);
    }

    #[test]
    fn errors_name_the_field() {
        let e = human_envelope(WAD + U256::from(1u8), &[]).unwrap_err();
        assert!(e.to_string().contains("sSys"));
        let e =
            human_envelope(w(500), &[thesis(500, 500, 500), thesis(500, 1001, 500)]).unwrap_err();
        assert!(e.to_string().contains("theses[1].multiplier"), "{e}");
    }

    proptest! {
        #[test]
        fn score_in_band_and_range(
            s in 0u64..=1_000_000_000_000_000_000u64,
            ts in proptest::collection::vec((0u64..=1_000_000_000_000_000_000u64, 0u64..=1_000_000_000_000_000_000u64, 0u64..=1_000_000_000_000_000_000u64), 0..8),
        ) {
            let theses: Vec<Thesis> = ts.iter().map(|&(q, c, y)| Thesis {
                quality: U256::from(q), multiplier: U256::from(c), submitted: U256::from(y) }).collect();
            let s = U256::from(s);
            let r = human_envelope(s, &theses).unwrap();
            prop_assert!(r.score <= WAD);
            prop_assert!(r.delta.unsigned_abs() <= BAND);
            // |s − s_sys| ≤ BAND·s_sys
            let moved = if r.score >= s { r.score - s } else { s - r.score };
            prop_assert!(moved <= mul_div_down(s, BAND, WAD).unwrap());
        }
    }
}
