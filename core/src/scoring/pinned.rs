//! The scoring configuration pinned on chain (C2a): "the weights are public constants pinned to a model
//! version ... a change of weights is a new version and applies only to future epochs" (§2.2, §2.3).
//!
//! 1. The whole configuration ([`ScoringConfig`]: every track's features, tiers, weights, reference bounds,
//!    λ and gates, and the grader's configuration by its hash) is published content-addressed: its
//!    canonical JSON ([`ScoringConfig::canonical`]) under [`config_path`]`(keccak256(bytes))`.
//! 2. The owner (the 48 h timelock) pins that hash on `EpochRegistry` with a version and the first epoch it
//!    applies to (`pinConfig`); `configFor(epoch)` is the pin in force for an epoch.
//! 3. A file is taken only when its bytes hash to the pin and it names the pin's version
//!    ([`ScoringConfig::from_pinned`]).
//! 4. An epoch's tracks are the pinned ones, field for field ([`check_tracks`]); `eden epoch build` refuses
//!    a configuration that is not in force, and the watchtower and the Score page flag a bundle whose tracks
//!    differ.

use crate::scoring::config::{ConfigError, TrackConfig};
use alloy_primitives::{keccak256, B256};
use serde::{Deserialize, Serialize};

/// The format tag of a [`ScoringConfig`].
pub const SCORING_CONFIG_FORMAT: &str = "eden-scoring-config-v1";

/// A whole scoring configuration, as published and pinned (C2a).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScoringConfig {
    /// [`SCORING_CONFIG_FORMAT`].
    pub format: String,
    /// The version the chain pins it as.
    pub version: u64,
    /// Every track, by name.
    pub tracks: Vec<TrackConfig>,
    /// `keccak256` of the grader's published configuration (`GraderConfig::hash`), when theses are graded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grader: Option<B256>,
}

/// Why a configuration file is not the pinned one, or not a configuration.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PinError {
    /// The bytes hash to something else.
    #[error("the configuration file hashes to {file}, the chain pins {pinned}")]
    Hash {
        /// keccak256 of the file.
        file: B256,
        /// The pinned hash.
        pinned: B256,
    },
    /// The file names another version than its pin.
    #[error("the configuration names version {file}, the chain pins it as version {pinned}")]
    Version {
        /// The file's version.
        file: u64,
        /// The pin's.
        pinned: u64,
    },
    /// Not a configuration.
    #[error("not a scoring configuration: {0}")]
    Parse(String),
    /// An unknown format.
    #[error("format {0:?}, expected {SCORING_CONFIG_FORMAT:?}")]
    Format(String),
    /// Two tracks share a name.
    #[error("track {0:?} appears twice")]
    DuplicateTrack(String),
    /// A track breaks a rule of C2.
    #[error("track {track:?}: {error}")]
    Track {
        /// The track.
        track: String,
        /// Its rule.
        error: ConfigError,
    },
}

/// How an epoch's tracks differ from the pinned configuration (C2a, step 4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "kind"
)]
pub enum PinFinding {
    /// The epoch scores a track the configuration does not have.
    #[error("track {track:?} is not in the pinned configuration")]
    TrackNotPinned {
        /// The track.
        track: String,
    },
    /// The epoch's track differs from the pinned one (weights, tiers, bounds, λ, gates or model version).
    #[error("track {track:?} differs from the pinned configuration in {field}")]
    TrackDiffers {
        /// The track.
        track: String,
        /// The first field that differs.
        field: &'static str,
    },
}

/// Where a configuration is published under a base URL: by its hash, `config/0x<64 hex>.json`.
pub fn config_path(hash: &B256) -> String {
    format!("config/{hash:#x}.json")
}

impl ScoringConfig {
    /// Its canonical JSON (`serde_json`, compact, fields in declaration order): the bytes it is published and
    /// pinned as.
    pub fn canonical(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// keccak256 of [`Self::canonical`].
    pub fn hash(&self) -> B256 {
        keccak256(self.canonical())
    }

    /// Parses and validates a configuration (any JSON layout; [`Self::canonical`] is what gets published).
    ///
    /// # Errors
    /// [`PinError::Parse`], [`PinError::Format`], [`PinError::DuplicateTrack`], [`PinError::Track`].
    pub fn parse(text: &str) -> Result<ScoringConfig, PinError> {
        let c: ScoringConfig =
            serde_json::from_str(text).map_err(|e| PinError::Parse(e.to_string()))?;
        c.validate()?;
        Ok(c)
    }

    /// The published file `bytes`, taken only when they are the pin `(hash, version)` (step 3).
    ///
    /// # Errors
    /// [`PinError::Hash`], [`PinError::Version`], or the file is not a valid configuration.
    pub fn from_pinned(bytes: &[u8], hash: B256, version: u64) -> Result<ScoringConfig, PinError> {
        let file = keccak256(bytes);
        if file != hash {
            return Err(PinError::Hash { file, pinned: hash });
        }
        let c = ScoringConfig::parse(&String::from_utf8_lossy(bytes))?;
        if c.version != version {
            return Err(PinError::Version {
                file: c.version,
                pinned: version,
            });
        }
        Ok(c)
    }

    /// The format, unique track names, and every track's C2 rules.
    ///
    /// # Errors
    /// The first rule broken.
    pub fn validate(&self) -> Result<(), PinError> {
        if self.format != SCORING_CONFIG_FORMAT {
            return Err(PinError::Format(self.format.clone()));
        }
        for (i, t) in self.tracks.iter().enumerate() {
            if self.tracks[..i].iter().any(|u| u.name == t.name) {
                return Err(PinError::DuplicateTrack(t.name.clone()));
            }
            t.validate().map_err(|error| PinError::Track {
                track: t.name.clone(),
                error,
            })?;
        }
        Ok(())
    }

    /// The pinned track named `name`.
    pub fn track(&self, name: &str) -> Option<&TrackConfig> {
        self.tracks.iter().find(|t| t.name == name)
    }
}

/// Each of `used` against the pinned configuration, field for field (step 4); empty when they all are pinned.
pub fn check_tracks<'a>(
    pinned: &ScoringConfig,
    used: impl IntoIterator<Item = &'a TrackConfig>,
) -> Vec<PinFinding> {
    used.into_iter()
        .filter_map(|t| match pinned.track(&t.name) {
            None => Some(PinFinding::TrackNotPinned {
                track: t.name.clone(),
            }),
            Some(p) => first_difference(p, t).map(|field| PinFinding::TrackDiffers {
                track: t.name.clone(),
                field,
            }),
        })
        .collect()
}

/// The first field in which `b` differs from `a`.
fn first_difference(a: &TrackConfig, b: &TrackConfig) -> Option<&'static str> {
    if a.model_version != b.model_version {
        return Some("modelVersion");
    }
    if a.features.len() != b.features.len() {
        return Some("features");
    }
    for (x, y) in a.features.iter().zip(&b.features) {
        if x.name != y.name {
            return Some("features[].name");
        }
        if x.tier != y.tier {
            return Some("features[].tier");
        }
        if x.weight_wad != y.weight_wad {
            return Some("features[].weightWad");
        }
        if (x.ref_lo, x.ref_hi) != (y.ref_lo, y.ref_hi) {
            return Some("features[].refLo/refHi");
        }
    }
    if a.penalty_lambda_wad != b.penalty_lambda_wad {
        return Some("penaltyLambdaWad");
    }
    if a.min_raw_wad != b.min_raw_wad {
        return Some("minRawWad");
    }
    if a.min_output != b.min_output {
        return Some("minOutput");
    }
    if a.min_age_secs != b.min_age_secs {
        return Some("minAgeSecs");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::U256;

    fn config() -> ScoringConfig {
        ScoringConfig {
            format: SCORING_CONFIG_FORMAT.into(),
            version: 3,
            tracks: vec![
                TrackConfig::agents(),
                TrackConfig::research(),
                TrackConfig::apps(),
            ],
            grader: Some(B256::repeat_byte(7)),
        }
    }

    #[test]
    fn the_published_bytes_are_the_pin() {
        let c = config();
        let bytes = c.canonical();
        assert_eq!(ScoringConfig::from_pinned(&bytes, c.hash(), 3).unwrap(), c);
        // Pretty-printed, the same configuration is other bytes: only the canonical file is the pin.
        let pretty = serde_json::to_vec_pretty(&c).unwrap();
        assert!(matches!(
            ScoringConfig::from_pinned(&pretty, c.hash(), 3),
            Err(PinError::Hash { .. })
        ));
        assert_eq!(
            ScoringConfig::from_pinned(&bytes, c.hash(), 4),
            Err(PinError::Version { file: 3, pinned: 4 })
        );
        assert_eq!(
            ScoringConfig::parse(&String::from_utf8(pretty).unwrap()).unwrap(),
            c
        );
        assert_eq!(
            config_path(&B256::repeat_byte(0xab)),
            format!("config/0x{}.json", "ab".repeat(32))
        );
    }

    #[test]
    fn bad_configurations_are_refused() {
        let mut c = config();
        c.tracks.push(TrackConfig::agents());
        assert_eq!(c.validate(), Err(PinError::DuplicateTrack("agents".into())));
        let mut c = config();
        c.tracks[1].features[0].weight_wad += U256::from(1u8);
        assert!(matches!(c.validate(), Err(PinError::Track { track, .. }) if track == "research"));
        let mut c = config();
        c.format = "v0".into();
        assert_eq!(c.validate(), Err(PinError::Format("v0".into())));
        assert!(matches!(
            ScoringConfig::parse("{\"format\":1}"),
            Err(PinError::Parse(_))
        ));
    }

    #[test]
    fn an_epochs_tracks_are_checked_field_for_field() {
        let c = config();
        assert!(check_tracks(&c, &c.tracks).is_empty());
        let mut moved = TrackConfig::apps();
        moved.features[0].ref_hi += U256::from(1u8);
        let mut gate = TrackConfig::agents();
        gate.min_age_secs += 1;
        let mut other = TrackConfig::agents();
        other.name = "games".into();
        assert_eq!(
            check_tracks(&c, [&moved, &gate, &other]),
            vec![
                PinFinding::TrackDiffers {
                    track: "apps".into(),
                    field: "features[].refLo/refHi"
                },
                PinFinding::TrackDiffers {
                    track: "agents".into(),
                    field: "minAgeSecs"
                },
                PinFinding::TrackNotPinned {
                    track: "games".into()
                },
            ]
        );
    }
}
