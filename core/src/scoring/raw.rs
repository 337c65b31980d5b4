//! Weighted score with the failed-claims penalty (C2, pinned):
//! `raw = max(0, Σ wᵢ·x̂ᵢ − λ·failed/claims)`, with `failed/claims = 0` when a project made no claims.
//!
//! Rounding (documented choice): the weighted sum is exact (`Σ wᵢ·x̂ᵢ` in WAD², at most 10^36) and
//! floored once to WAD; the penalty `λ·failed/claims` is rounded **up**. Both roundings go
//! against the project, so a score is never rounded into its favour. Example (§2.3): perfect
//! features (`x̂ᵢ = 1`) and every claim failed → `1 − 0.08 = 0.92`.
//!
//! The same function also returns the **merit** score used by the gate (C3, decided): the raw
//! score with every self-reported feature set to 0.

use super::config::{ForgeryTier, TrackConfig};
use crate::math::U256;

const WAD_U128: u128 = 1_000_000_000_000_000_000;

/// The C2 score of one project, every step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawScore {
    /// `floor(Σ wᵢ·x̂ᵢ)`, WAD.
    pub weighted_wad: U256,
    /// `ceil(λ·failed/claims)`, WAD.
    pub penalty_wad: U256,
    /// `max(0, weighted − penalty)`, WAD.
    pub raw_wad: U256,
    /// As `raw_wad` with self-reported features set to 0 (the gate's MIN_RAW test, C3).
    pub merit_wad: U256,
}

/// Bad raw-score input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RawError {
    /// Wrong number of normalised features.
    #[error("features: track '{track}' has {expected} features, got {got} values")]
    FeatureCount {
        /// Track name.
        track: String,
        /// Features in the track.
        expected: usize,
        /// Values supplied.
        got: usize,
    },
    /// A normalised value above 1 WAD.
    #[error("normalised[{index}]: {value} exceeds 1 WAD")]
    AboveOne {
        /// Feature index.
        index: usize,
        /// Its value.
        value: U256,
    },
    /// More failed claims than claims.
    #[error("failed: {failed} failed claims exceed the {claims} claims made")]
    FailedAboveClaims {
        /// Failed claims.
        failed: u64,
        /// Claims made.
        claims: u64,
    },
    /// A track weight or λ above 1 WAD (the configuration was not validated).
    #[error("{0}: exceeds 1 WAD (validate the track configuration first)")]
    Config(String),
}

/// Computes [`RawScore`] for normalised features `x̂` (WAD, in the track's feature order).
///
/// # Errors
/// [`RawError`] naming the offending field.
pub fn raw_score(
    config: &TrackConfig,
    normalised: &[U256],
    claims: u64,
    failed: u64,
) -> Result<RawScore, RawError> {
    if normalised.len() != config.features.len() {
        return Err(RawError::FeatureCount {
            track: config.name.clone(),
            expected: config.features.len(),
            got: normalised.len(),
        });
    }
    let mut terms = Vec::with_capacity(normalised.len());
    for (i, (x, f)) in normalised.iter().zip(&config.features).enumerate() {
        if *x > U256::from(WAD_U128) {
            return Err(RawError::AboveOne {
                index: i,
                value: *x,
            });
        }
        if f.weight_wad > U256::from(WAD_U128) {
            return Err(RawError::Config(format!("features[{i}].weightWad")));
        }
        terms.push((
            f.weight_wad.to::<u128>(),
            x.to::<u128>(),
            f.tier == ForgeryTier::SelfReported,
        ));
    }
    if config.penalty_lambda_wad > U256::from(WAD_U128) {
        return Err(RawError::Config("penaltyLambdaWad".into()));
    }
    let lambda = config.penalty_lambda_wad.to::<u128>();
    let penalty = penalty_up(lambda, claims, failed)?;
    let (weighted, merit_weighted) = weighted_down(terms.iter().copied())
        .ok_or_else(|| RawError::Config("features[*].weightWad (sum)".into()))?;
    Ok(RawScore {
        weighted_wad: U256::from(weighted),
        penalty_wad: U256::from(penalty),
        raw_wad: U256::from(weighted.saturating_sub(penalty)),
        merit_wad: U256::from(merit_weighted.saturating_sub(penalty)),
    })
}

/// `ceil(λ·failed/claims)`, 0 when `claims = 0`; `λ ≤ 10^18` so the product fits in `u128`.
pub(crate) fn penalty_up(lambda_wad: u128, claims: u64, failed: u64) -> Result<u128, RawError> {
    if failed > claims {
        return Err(RawError::FailedAboveClaims { failed, claims });
    }
    if claims == 0 {
        return Ok(0);
    }
    let num = lambda_wad
        .checked_mul(u128::from(failed))
        .ok_or_else(|| RawError::Config("penaltyLambdaWad".into()))?;
    Ok(num.div_ceil(u128::from(claims)))
}

/// `(floor(Σ wᵢ·x̂ᵢ / 10^18), same over non-self-reported features)` from `(w, x̂, self_reported)`
/// triples; `None` on overflow (impossible when `Σ w ≤ 1 WAD` and every `x̂ ≤ 1 WAD`).
pub(crate) fn weighted_down(
    terms: impl Iterator<Item = (u128, u128, bool)>,
) -> Option<(u128, u128)> {
    let (mut all, mut merit) = (0u128, 0u128);
    for (w, x, self_reported) in terms {
        let p = w.checked_mul(x)?;
        all = all.checked_add(p)?;
        if !self_reported {
            merit = merit.checked_add(p)?;
        }
    }
    Some((all / WAD_U128, merit / WAD_U128))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{parse_wad, WAD};
    use proptest::prelude::*;

    fn w(s: &str) -> U256 {
        parse_wad(s).unwrap()
    }

    #[test]
    fn perfect_features_every_claim_failed_is_0_92() {
        let t = TrackConfig::agents();
        let ones = vec![WAD; t.features.len()];
        let r = raw_score(&t, &ones, 7, 7).unwrap();
        assert_eq!(r.weighted_wad, WAD);
        assert_eq!(r.penalty_wad, w("0.08"));
        assert_eq!(r.raw_wad, w("0.92"));
        // no failed claims → 1; no claims at all → no penalty
        assert_eq!(raw_score(&t, &ones, 7, 0).unwrap().raw_wad, WAD);
        assert_eq!(raw_score(&t, &ones, 0, 0).unwrap().raw_wad, WAD);
    }

    #[test]
    fn merit_excludes_self_reported_features() {
        let t = TrackConfig::agents(); // last feature self-reported, weight 0.15
        let only_self = [U256::ZERO, U256::ZERO, U256::ZERO, WAD];
        let r = raw_score(&t, &only_self, 0, 0).unwrap();
        assert_eq!(r.raw_wad, w("0.15"));
        assert_eq!(r.merit_wad, U256::ZERO);
        let r = raw_score(&t, &[w("0.5"), w("0.2"), U256::ZERO, WAD], 4, 1).unwrap();
        // 0.4·0.5 + 0.25·0.2 + 0.15 = 0.4; penalty 0.02
        assert_eq!(r.raw_wad, w("0.38"));
        assert_eq!(r.merit_wad, w("0.23"));
    }

    #[test]
    fn clamped_at_zero_and_rounding_direction() {
        let t = TrackConfig::agents();
        let zero = vec![U256::ZERO; 4];
        assert_eq!(raw_score(&t, &zero, 3, 3).unwrap().raw_wad, U256::ZERO);
        // penalty 0.08/3 rounds up
        let r = raw_score(&t, &[WAD; 4], 3, 1).unwrap();
        assert_eq!(r.penalty_wad, U256::from(26_666_666_666_666_667u64));
        // weighted 0.4 · 1/3 WAD floors
        let third = U256::from(333_333_333_333_333_333u64);
        let r = raw_score(&t, &[third, U256::ZERO, U256::ZERO, U256::ZERO], 0, 0).unwrap();
        assert_eq!(r.weighted_wad, U256::from(133_333_333_333_333_333u64));
    }

    #[test]
    fn errors_name_fields() {
        let t = TrackConfig::agents();
        assert!(raw_score(&t, &[WAD], 0, 0)
            .unwrap_err()
            .to_string()
            .starts_with("features:"));
        let e = raw_score(&t, &[WAD, WAD + U256::from(1u8), WAD, WAD], 0, 0).unwrap_err();
        assert!(e.to_string().starts_with("normalised[1]"), "{e}");
        assert!(raw_score(&t, &[WAD; 4], 1, 2)
            .unwrap_err()
            .to_string()
            .starts_with("failed:"));
    }

    proptest! {
        #[test]
        fn raw_in_unit_interval(xs in proptest::collection::vec(0u64..=1_000_000_000_000_000_000, 4), claims in 0u64..50, failed in 0u64..50) {
            let t = TrackConfig::apps();
            let xs: Vec<U256> = xs.into_iter().map(U256::from).collect();
            match raw_score(&t, &xs, claims, failed) {
                Ok(r) => {
                    prop_assert!(r.raw_wad <= WAD && r.merit_wad <= r.raw_wad);
                    prop_assert!(r.weighted_wad <= WAD);
                }
                Err(e) => prop_assert!(failed > claims, "{}", e),
            }
        }
    }
}
