//! Track configuration (C1, C2, C3): the published constants one model version scores a track with.
//!
//! A track configuration names its **model version**, its **features** (each with a forgery-cost
//! tier, a WAD weight and the reference bounds used for small cohorts, C1), the failed-claims
//! **penalty λ** (C2), the gate floors **MIN_RAW**, **MIN_OUTPUT** and the **minimum age** (C3).
//!
//! Validation ([`TrackConfig::validate`]) enforces the decided rules of C2:
//! - the weights sum to exactly 1 WAD;
//! - every counterparty-verified feature weighs at most [`COUNTERPARTY_CAP_WAD`] (0.25);
//! - the self-reported features together weigh at most [`SELF_REPORTED_CAP_WAD`] (0.15);
//!
//! and the sanity rules of this crate: a non-empty model version and track name, at least one
//! feature, unique non-empty feature names, reference bounds with `lo < hi`, `λ ≤ 1`, `MIN_RAW ≤ 1`.
//! Every error names the offending field (`features[2].weight`, `penaltyLambdaWad`, …).
//!
//! The presets ([`TrackConfig::agents`], [`TrackConfig::research`], [`TrackConfig::apps`]) carry
//! the protocol's λ = 0.08 and MIN_RAW (0.02 agents and research, 0.10 apps). Their feature lists,
//! weights, reference bounds, MIN_OUTPUT and minimum age are **PLACEHOLDERS** (the seed's weight
//! tables were lost): they satisfy every cap, but they are not protocol facts.

use crate::math::{U256, WAD};
use crate::serde_dec;
use serde::{Deserialize, Serialize};

/// Most any single counterparty-verified feature may weigh: 0.25 WAD (C2, decided).
pub const COUNTERPARTY_CAP_WAD: U256 = U256::from_limbs([250_000_000_000_000_000, 0, 0, 0]);
/// Most all self-reported features together may weigh: 0.15 WAD (C2, decided).
pub const SELF_REPORTED_CAP_WAD: U256 = U256::from_limbs([150_000_000_000_000_000, 0, 0, 0]);
/// Failed-claims penalty λ = 0.08 WAD (C2, pinned).
pub const PENALTY_LAMBDA_WAD: U256 = U256::from_limbs([80_000_000_000_000_000, 0, 0, 0]);
/// MIN_RAW of the agents and research tracks: 0.02 WAD (C3, pinned example value).
pub const MIN_RAW_AGENTS_RESEARCH_WAD: U256 = U256::from_limbs([20_000_000_000_000_000, 0, 0, 0]);
/// MIN_RAW of the apps track: 0.10 WAD (C3, pinned example value).
pub const MIN_RAW_APPS_WAD: U256 = U256::from_limbs([100_000_000_000_000_000, 0, 0, 0]);
/// PLACEHOLDER minimum verified output of the presets: 1 unit.
pub const PLACEHOLDER_MIN_OUTPUT: U256 = U256::from_limbs([1, 0, 0, 0]);
/// PLACEHOLDER minimum age of the presets: 14 days, in seconds.
pub const PLACEHOLDER_MIN_AGE_SECS: u64 = 14 * 24 * 3600;
/// Model version string of the presets (PLACEHOLDER).
pub const PLACEHOLDER_MODEL_VERSION: &str = "eden-score-v1-placeholder";

/// How expensive a metric is to fake (§2.1); decides its weight cap (C2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum ForgeryTier {
    /// Money-verified (revenue, settled volume): uncapped, anchors the track.
    MoneyVerified,
    /// Counterparty-verified: at most 0.25 each.
    CounterpartyVerified,
    /// Seen only by the project's own systems: at most 0.15 combined; never qualifies alone (C3).
    SelfReported,
}

impl std::fmt::Display for ForgeryTier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ForgeryTier::MoneyVerified => "money-verified",
            ForgeryTier::CounterpartyVerified => "counterparty-verified",
            ForgeryTier::SelfReported => "self-reported",
        })
    }
}

/// One feature (metric) of a track.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Feature {
    /// Metric name (unique within the track).
    pub name: String,
    /// Forgery-cost tier.
    pub tier: ForgeryTier,
    /// Weight, WAD.
    #[serde(with = "serde_dec::u256")]
    pub weight_wad: U256,
    /// Reference lower bound (raw feature units), used when the cohort has fewer than 20 projects.
    #[serde(with = "serde_dec::u256")]
    pub ref_lo: U256,
    /// Reference upper bound (raw feature units).
    #[serde(with = "serde_dec::u256")]
    pub ref_hi: U256,
}

/// A track's published configuration, pinned to a model version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct TrackConfig {
    /// Track name ("agents", "research", "apps", …); projects name their track with it.
    pub name: String,
    /// Model version string; a change of weights or bounds is a new version.
    pub model_version: String,
    /// Features, in leaf/commitment order.
    pub features: Vec<Feature>,
    /// Failed-claims penalty λ, WAD.
    #[serde(with = "serde_dec::u256")]
    pub penalty_lambda_wad: U256,
    /// MIN_RAW merit floor, WAD.
    #[serde(with = "serde_dec::u256")]
    pub min_raw_wad: U256,
    /// MIN_OUTPUT: floor on absolute verified output (track units).
    #[serde(with = "serde_dec::u256")]
    pub min_output: U256,
    /// Minimum project age, seconds.
    pub min_age_secs: u64,
}

/// A configuration that breaks a rule; the message names the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A required string is empty.
    #[error("{field}: must not be empty")]
    Empty {
        /// Offending field.
        field: String,
    },
    /// Two features share a name.
    #[error("features[{index}].name: duplicate feature name '{name}'")]
    DuplicateFeature {
        /// Index of the second occurrence.
        index: usize,
        /// The name.
        name: String,
    },
    /// The weights do not add up to exactly 1 WAD.
    #[error(
        "features[*].weightWad: weights sum to {sum}, must be exactly 1000000000000000000 (1 WAD)"
    )]
    WeightSum {
        /// The actual sum (saturated at `U256::MAX`).
        sum: U256,
    },
    /// A counterparty-verified feature weighs more than 0.25.
    #[error("features[{index}].weightWad: counterparty-verified feature '{name}' weighs {weight}, cap is 250000000000000000 (0.25)")]
    CounterpartyCap {
        /// Feature index.
        index: usize,
        /// Feature name.
        name: String,
        /// Its weight.
        weight: U256,
    },
    /// Self-reported features weigh more than 0.15 together.
    #[error("features[*].weightWad: self-reported features weigh {sum} together, cap is 150000000000000000 (0.15)")]
    SelfReportedCap {
        /// Their combined weight.
        sum: U256,
    },
    /// Reference bounds with `lo ≥ hi`.
    #[error("features[{index}].refHi: reference bounds of '{name}' need refLo < refHi, got [{lo}, {hi}]")]
    ReferenceBounds {
        /// Feature index.
        index: usize,
        /// Feature name.
        name: String,
        /// Lower bound.
        lo: U256,
        /// Upper bound.
        hi: U256,
    },
    /// A WAD fraction above 1.
    #[error("{field}: {value} exceeds 1 WAD")]
    AboveOne {
        /// Offending field.
        field: String,
        /// Its value.
        value: U256,
    },
}

impl TrackConfig {
    /// Checks every rule listed in the module doc.
    ///
    /// # Errors
    /// The first broken rule, as a [`ConfigError`] naming its field.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.name.trim().is_empty() {
            return Err(ConfigError::Empty {
                field: "name".into(),
            });
        }
        if self.model_version.trim().is_empty() {
            return Err(ConfigError::Empty {
                field: "modelVersion".into(),
            });
        }
        if self.features.is_empty() {
            return Err(ConfigError::Empty {
                field: "features".into(),
            });
        }
        let mut sum = U256::ZERO;
        let mut self_sum = U256::ZERO;
        for (i, f) in self.features.iter().enumerate() {
            if f.name.trim().is_empty() {
                return Err(ConfigError::Empty {
                    field: format!("features[{i}].name"),
                });
            }
            if self.features[..i].iter().any(|g| g.name == f.name) {
                return Err(ConfigError::DuplicateFeature {
                    index: i,
                    name: f.name.clone(),
                });
            }
            if f.ref_lo >= f.ref_hi {
                return Err(ConfigError::ReferenceBounds {
                    index: i,
                    name: f.name.clone(),
                    lo: f.ref_lo,
                    hi: f.ref_hi,
                });
            }
            match f.tier {
                ForgeryTier::CounterpartyVerified if f.weight_wad > COUNTERPARTY_CAP_WAD => {
                    return Err(ConfigError::CounterpartyCap {
                        index: i,
                        name: f.name.clone(),
                        weight: f.weight_wad,
                    });
                }
                ForgeryTier::SelfReported => self_sum = self_sum.saturating_add(f.weight_wad),
                _ => {}
            }
            sum = sum.saturating_add(f.weight_wad);
        }
        if self_sum > SELF_REPORTED_CAP_WAD {
            return Err(ConfigError::SelfReportedCap { sum: self_sum });
        }
        if sum != WAD {
            return Err(ConfigError::WeightSum { sum });
        }
        if self.penalty_lambda_wad > WAD {
            return Err(ConfigError::AboveOne {
                field: "penaltyLambdaWad".into(),
                value: self.penalty_lambda_wad,
            });
        }
        if self.min_raw_wad > WAD {
            return Err(ConfigError::AboveOne {
                field: "minRawWad".into(),
                value: self.min_raw_wad,
            });
        }
        Ok(())
    }

    /// Weights as `u128` (each ≤ 1 WAD after validation), in feature order.
    pub(crate) fn weights_u128(&self) -> Vec<u128> {
        self.features
            .iter()
            .map(|f| f.weight_wad.saturating_to::<u128>())
            .collect()
    }

    /// Preset track by name: "agents", "research" or "apps" (see the module doc: PLACEHOLDER features).
    pub fn preset(name: &str) -> Option<TrackConfig> {
        match name {
            "agents" => Some(Self::agents()),
            "research" => Some(Self::research()),
            "apps" => Some(Self::apps()),
            _ => None,
        }
    }

    /// Agents track: MIN_RAW 0.02, λ 0.08; features PLACEHOLDER.
    pub fn agents() -> TrackConfig {
        preset_track(
            "agents",
            MIN_RAW_AGENTS_RESEARCH_WAD,
            &[
                (
                    "settled_revenue_cents",
                    ForgeryTier::MoneyVerified,
                    400,
                    1_000_000,
                ),
                ("resolved_work", ForgeryTier::CounterpartyVerified, 250, 500),
                (
                    "unique_counterparties",
                    ForgeryTier::CounterpartyVerified,
                    200,
                    200,
                ),
                (
                    "self_reported_uptime_bps",
                    ForgeryTier::SelfReported,
                    150,
                    10_000,
                ),
            ],
        )
    }

    /// Research track: MIN_RAW 0.02, λ 0.08; features PLACEHOLDER.
    pub fn research() -> TrackConfig {
        preset_track(
            "research",
            MIN_RAW_AGENTS_RESEARCH_WAD,
            &[
                (
                    "settled_bounties_cents",
                    ForgeryTier::MoneyVerified,
                    500,
                    1_000_000,
                ),
                (
                    "verified_citations",
                    ForgeryTier::CounterpartyVerified,
                    250,
                    100,
                ),
                ("peer_reviews", ForgeryTier::CounterpartyVerified, 150, 50),
                (
                    "self_reported_experiments",
                    ForgeryTier::SelfReported,
                    100,
                    100,
                ),
            ],
        )
    }

    /// Apps track: MIN_RAW 0.10, λ 0.08; features PLACEHOLDER.
    pub fn apps() -> TrackConfig {
        preset_track(
            "apps",
            MIN_RAW_APPS_WAD,
            &[
                (
                    "settled_revenue_cents",
                    ForgeryTier::MoneyVerified,
                    450,
                    5_000_000,
                ),
                (
                    "paying_users",
                    ForgeryTier::CounterpartyVerified,
                    250,
                    10_000,
                ),
                (
                    "retained_users",
                    ForgeryTier::CounterpartyVerified,
                    200,
                    5_000,
                ),
                (
                    "self_reported_sessions",
                    ForgeryTier::SelfReported,
                    100,
                    1_000_000,
                ),
            ],
        )
    }
}

/// Builds a preset; weights in thousandths of 1, reference bounds `[0, hi]`.
fn preset_track(
    name: &str,
    min_raw_wad: U256,
    features: &[(&str, ForgeryTier, u64, u64)],
) -> TrackConfig {
    let milli = WAD / U256::from(1000u32);
    TrackConfig {
        name: name.into(),
        model_version: PLACEHOLDER_MODEL_VERSION.into(),
        features: features
            .iter()
            .map(|&(n, tier, w, hi)| Feature {
                name: n.into(),
                tier,
                weight_wad: milli * U256::from(w),
                ref_lo: U256::ZERO,
                ref_hi: U256::from(hi),
            })
            .collect(),
        penalty_lambda_wad: PENALTY_LAMBDA_WAD,
        min_raw_wad,
        min_output: PLACEHOLDER_MIN_OUTPUT,
        min_age_secs: PLACEHOLDER_MIN_AGE_SECS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::parse_wad;

    fn w(s: &str) -> U256 {
        parse_wad(s).unwrap()
    }

    #[test]
    fn presets_are_valid_and_carry_the_pinned_constants() {
        for name in ["agents", "research", "apps"] {
            let t = TrackConfig::preset(name).unwrap();
            t.validate().unwrap();
            assert_eq!(t.penalty_lambda_wad, w("0.08"));
        }
        assert_eq!(TrackConfig::agents().min_raw_wad, w("0.02"));
        assert_eq!(TrackConfig::research().min_raw_wad, w("0.02"));
        assert_eq!(TrackConfig::apps().min_raw_wad, w("0.10"));
        assert!(TrackConfig::preset("nope").is_none());
    }

    #[test]
    fn weights_must_sum_to_exactly_one() {
        let mut t = TrackConfig::agents();
        t.features[0].weight_wad -= U256::from(1u8);
        let e = t.validate().unwrap_err();
        assert!(matches!(e, ConfigError::WeightSum { .. }));
        assert!(e.to_string().contains("weightWad"), "{e}");
        t.features[0].weight_wad += U256::from(2u8);
        assert!(matches!(t.validate(), Err(ConfigError::WeightSum { .. })));
        // Saturation, not overflow, on absurd weights.
        t.features[0].weight_wad = U256::MAX;
        assert!(t.validate().is_err());
    }

    #[test]
    fn counterparty_cap_names_the_feature() {
        let mut t = TrackConfig::agents();
        // move 0.01 from revenue to resolved_work (0.25 → 0.26)
        t.features[0].weight_wad = w("0.39");
        t.features[1].weight_wad = w("0.26");
        let e = t.validate().unwrap_err();
        assert_eq!(
            e,
            ConfigError::CounterpartyCap {
                index: 1,
                name: "resolved_work".into(),
                weight: w("0.26")
            }
        );
        assert!(e.to_string().starts_with("features[1].weightWad"), "{e}");
        // exactly at the cap is fine
        t.features[0].weight_wad = w("0.40");
        t.features[1].weight_wad = w("0.25");
        t.validate().unwrap();
    }

    #[test]
    fn self_reported_cap_is_combined() {
        let mut t = TrackConfig::agents();
        t.features.push(Feature {
            name: "self_reported_tickets".into(),
            tier: ForgeryTier::SelfReported,
            weight_wad: w("0.01"),
            ref_lo: U256::ZERO,
            ref_hi: U256::from(10u8),
        });
        t.features[0].weight_wad = w("0.39");
        assert_eq!(
            t.validate(),
            Err(ConfigError::SelfReportedCap { sum: w("0.16") })
        );
        t.features[3].weight_wad = w("0.14");
        t.features[0].weight_wad = w("0.40");
        t.validate().unwrap();
    }

    #[test]
    fn other_fields_are_named() {
        let mut t = TrackConfig::apps();
        t.features[2].ref_lo = t.features[2].ref_hi;
        assert!(t
            .validate()
            .unwrap_err()
            .to_string()
            .starts_with("features[2].refHi"));
        let mut t = TrackConfig::apps();
        t.features[1].name = "paying_users".into();
        t.features[2].name = "paying_users".into();
        assert!(t
            .validate()
            .unwrap_err()
            .to_string()
            .starts_with("features[2].name"));
        let mut t = TrackConfig::apps();
        t.model_version.clear();
        assert!(t
            .validate()
            .unwrap_err()
            .to_string()
            .starts_with("modelVersion"));
        let mut t = TrackConfig::apps();
        t.penalty_lambda_wad = WAD + U256::from(1u8);
        assert!(t
            .validate()
            .unwrap_err()
            .to_string()
            .starts_with("penaltyLambdaWad"));
        let mut t = TrackConfig::apps();
        t.min_raw_wad = WAD + U256::from(1u8);
        assert!(t
            .validate()
            .unwrap_err()
            .to_string()
            .starts_with("minRawWad"));
        let mut t = TrackConfig::apps();
        t.features.clear();
        assert!(t
            .validate()
            .unwrap_err()
            .to_string()
            .starts_with("features"));
    }

    #[test]
    fn json_round_trip_uses_decimal_strings() {
        let t = TrackConfig::agents();
        let j = serde_json::to_string(&t).unwrap();
        assert!(j.contains("\"weightWad\":\"400000000000000000\""), "{j}");
        assert!(j.contains("\"tier\":\"counterpartyVerified\""), "{j}");
        let back: TrackConfig = serde_json::from_str(&j).unwrap();
        assert_eq!(back, t);
    }
}
