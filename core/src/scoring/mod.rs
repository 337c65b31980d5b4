//! Systematic score pipeline (C1–C4), epoch bundle and verification, thesis grading (C8).
//!
//! | module | rule |
//! |---|---|
//! | [`config`] | track configuration: tiers, weight caps, reference bounds, λ, MIN_RAW, MIN_OUTPUT, min age (C1–C3) |
//! | [`pinned`] | the whole scoring configuration published by its hash and pinned on chain with a version and first epoch (C2a) |
//! | [`percentile`] | nearest-rank percentile `P_p = x_(⌈p·n/100⌉)` (C1) |
//! | [`normalise`] | cohort P5/P95 bounds for `n ≥ 20`, reference bounds below; `x̂` as WAD (C1) |
//! | [`raw`] | `raw = max(0, Σ wᵢ·x̂ᵢ − λ·failed/claims)` (C2) |
//! | [`gate`] | MIN_RAW (without self-reported features), MIN_OUTPUT, minimum age (C3) |
//! | [`smooth`] | `s_t = α·g + (1−α)·s_{t−1}`, `α = 0.4`, published `S = 100·s` (C4) |
//! | [`columns`] | sorted feature columns committed in chunks inside the inputs tree; bounds proven by rank (C22) |
//! | [`counting`] | which theses an epoch takes from the chain: 30-day window, latest per scorer, pre-data ends for good, grade in force (C9a, C9b, C10a) |
//! | [`bundle`] | the epoch's input and publishable bundle types (C5), apart from the pipeline |
//! | [`epoch`] | one epoch: results, score leaves (C5), roots and the publishable bundle |
//! | [`verify`] | recompute one project's score step by step against a bundle |
//! | [`thesis`] | thesis quality `q = G × R` with median-of-three and the 0.8 re-grade (C8) |
//! | [`copy_detect`] | deterministic copy detection: 5-word-shingle Jaccard (C8) |
//! | [`citation`] | a thesis's quotes, markers `[n]` and reference lines `[n]: url` (C8) |
//! | [`source_text`] | a source reduced to text (HTML) and the normalisation quotes are matched in (C8) |
//! | [`grounding`] | `G` = grounded share of cited quotes, each quote's outcome (C8) |
//! | [`grade_record`] | a thesis's grading record and its re-check: copy verdict, `G`, screening, `q` (C8) |
//! | [`injection`] | deterministic injection screening: hidden text, role markers, instructions, demands (C8) |
//!
//! Units: feature raw values are `U256` integers in the metric's own unit (cents, counts, …);
//! normalised features, weights, raw, gated and smoothed scores are WAD fractions in `[0, 1]`;
//! the published score (the C5 score leaf's `scoreWad`) is WAD **points** `S = 100·s ∈ [0, 100·10^18]`.

pub mod bundle;
pub mod citation;
pub mod columns;
pub mod config;
pub mod copy_detect;
pub mod counting;
pub mod epoch;
pub mod gate;
pub mod grade_record;
pub mod grounding;
pub mod human_layer;
pub mod injection;
pub mod normalise;
pub mod percentile;
pub mod pinned;
pub mod raw;
pub mod smooth;
pub mod source_text;
pub mod thesis;
pub mod verify;

pub(crate) mod tree;
pub use tree::EpochTree;

pub use config::{ConfigError, Feature, ForgeryTier, TrackConfig};
pub use copy_detect::{copy_check, detect_in_order, CopyResult, Verdict};
pub use epoch::{build_epoch, EpochBundle, EpochError, EpochInput, ProjectInput};
pub use gate::{gate, GateCheck};
pub use grade_record::{recheck_record, GraderConfig, GradingRecord, RecordFinding};
pub use grounding::{cited_urls, thesis_grounding, Grounding, QuoteOutcome, Snapshot};
pub use injection::{screen_thesis, InjectionFlag, InjectionRule};
pub use normalise::{normalise_column, normalise_value, Bounds, BoundsSource};
pub use percentile::nearest_rank;
pub use raw::{raw_score, RawScore};
pub use smooth::{published_points, smooth_down, ALPHA_WAD};
pub use thesis::{grade_thesis, ThesisGrade, ThesisSamples};
pub use verify::{verify_project_score, VerifyReport, VerifyStep};
