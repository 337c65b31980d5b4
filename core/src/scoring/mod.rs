//! Systematic score pipeline (C1–C4), epoch bundle and verification, thesis grading (C8).
//!
//! | module | rule |
//! |---|---|
//! | [`config`] | track configuration: tiers, weight caps, reference bounds, λ, MIN_RAW, MIN_OUTPUT, min age (C1–C3) |
//! | [`percentile`] | nearest-rank percentile `P_p = x_(⌈p·n/100⌉)` (C1) |
//! | [`normalise`] | cohort P5/P95 bounds for `n ≥ 20`, reference bounds below; `x̂` as WAD (C1) |
//! | [`raw`] | `raw = max(0, Σ wᵢ·x̂ᵢ − λ·failed/claims)` (C2) |
//! | [`gate`] | MIN_RAW (without self-reported features), MIN_OUTPUT, minimum age (C3) |
//! | [`smooth`] | `s_t = α·g + (1−α)·s_{t−1}`, `α = 0.4`, published `S = 100·s` (C4) |
//! | [`bundle`] | the epoch's input and publishable bundle types (C5), apart from the pipeline |
//! | [`epoch`] | one epoch: results, score leaves (C5), roots and the publishable bundle |
//! | [`verify`] | recompute one project's score step by step against a bundle |
//! | [`thesis`] | thesis quality `q = G × R` with median-of-three and the 0.8 re-grade (C8) |
//! | [`copy_detect`] | deterministic copy detection: 5-word-shingle Jaccard (C8) |
//!
//! Units: feature raw values are `U256` integers in the metric's own unit (cents, counts, …);
//! normalised features, weights, raw, gated and smoothed scores are WAD fractions in `[0, 1]`;
//! the published score (the C5 score leaf's `scoreWad`) is WAD **points** `S = 100·s ∈ [0, 100·10^18]`.

pub mod bundle;
pub mod config;
pub mod copy_detect;
pub mod epoch;
pub mod gate;
pub mod human_layer;
pub mod normalise;
pub mod percentile;
pub mod raw;
pub mod smooth;
pub mod thesis;
pub mod verify;

mod tree;

pub use config::{ConfigError, Feature, ForgeryTier, TrackConfig};
pub use copy_detect::{copy_check, detect_in_order, CopyResult, Verdict};
pub use epoch::{build_epoch, EpochBundle, EpochError, EpochInput, ProjectInput};
pub use gate::{gate, GateCheck};
pub use normalise::{normalise_column, normalise_value, Bounds, BoundsSource};
pub use percentile::nearest_rank;
pub use raw::{raw_score, RawScore};
pub use smooth::{published_points, smooth_down, ALPHA_WAD};
pub use thesis::{grade_thesis, ThesisGrade, ThesisSamples};
pub use verify::{verify_project_score, VerifyReport, VerifyStep};

/// Serde helpers: `U256` as a decimal string (the JS API convention), strict on input.
pub(crate) mod serde_dec {
    /// A single `U256`.
    pub(crate) mod u256 {
        use alloy_primitives::U256;
        use serde::{de::Error, Deserialize, Deserializer, Serializer};

        pub(crate) fn serialize<S: Serializer>(x: &U256, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(x)
        }

        pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<U256, D::Error> {
            let s = String::deserialize(d)?;
            parse(&s).map_err(D::Error::custom)
        }

        pub(crate) fn parse(s: &str) -> Result<U256, String> {
            let t = s.trim();
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!(
                    "expected a non-negative decimal integer string, got '{s}'"
                ));
            }
            U256::from_str_radix(t, 10).map_err(|_| format!("'{s}' does not fit in 256 bits"))
        }
    }

    /// An optional `U256` (absent or a decimal string).
    pub(crate) mod opt_u256 {
        use alloy_primitives::U256;
        use serde::{de::Error, Deserialize, Deserializer, Serializer};

        pub(crate) fn serialize<S: Serializer>(x: &Option<U256>, s: S) -> Result<S::Ok, S::Error> {
            match x {
                Some(x) => s.collect_str(x),
                None => s.serialize_none(),
            }
        }

        pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Option<U256>, D::Error> {
            Option::<String>::deserialize(d)?
                .map(|s| super::u256::parse(&s).map_err(D::Error::custom))
                .transpose()
        }
    }

    /// An optional signed `I256` (absent or a decimal string with an optional `-`).
    pub(crate) mod opt_i256 {
        use alloy_primitives::I256;
        use serde::{de::Error, Deserialize, Deserializer, Serializer};

        pub(crate) fn serialize<S: Serializer>(x: &Option<I256>, s: S) -> Result<S::Ok, S::Error> {
            match x {
                Some(x) => s.collect_str(x),
                None => s.serialize_none(),
            }
        }

        pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Option<I256>, D::Error> {
            Option::<String>::deserialize(d)?
                .map(|s| {
                    let digits = s.strip_prefix('-').unwrap_or(&s);
                    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                        return Err(D::Error::custom(format!(
                            "expected a decimal integer string, got '{s}'"
                        )));
                    }
                    s.parse::<I256>().map_err(|_| {
                        D::Error::custom(format!("'{s}' does not fit in a signed 256-bit integer"))
                    })
                })
                .transpose()
        }
    }

    /// An optional `Vec<U256>`.
    pub(crate) mod opt_u256_vec {
        use alloy_primitives::U256;
        use serde::{Deserialize, Deserializer, Serialize, Serializer};

        #[derive(Serialize, Deserialize)]
        struct Wrap(#[serde(with = "super::u256_vec")] Vec<U256>);

        pub(crate) fn serialize<S: Serializer>(
            x: &Option<Vec<U256>>,
            s: S,
        ) -> Result<S::Ok, S::Error> {
            match x {
                Some(v) => Wrap(v.clone()).serialize(s),
                None => s.serialize_none(),
            }
        }

        pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Option<Vec<U256>>, D::Error> {
            Ok(Option::<Wrap>::deserialize(d)?.map(|w| w.0))
        }
    }

    /// A `Vec<U256>`.
    pub(crate) mod u256_vec {
        use alloy_primitives::U256;
        use serde::{de::Error, ser::SerializeSeq, Deserialize, Deserializer, Serializer};

        pub(crate) fn serialize<S: Serializer>(v: &[U256], s: S) -> Result<S::Ok, S::Error> {
            let mut seq = s.serialize_seq(Some(v.len()))?;
            for x in v {
                seq.serialize_element(&x.to_string())?;
            }
            seq.end()
        }

        pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<U256>, D::Error> {
            let v = Vec::<String>::deserialize(d)?;
            v.iter()
                .enumerate()
                .map(|(i, s)| {
                    super::u256::parse(s).map_err(|e| D::Error::custom(format!("[{i}]: {e}")))
                })
                .collect()
        }
    }
}
