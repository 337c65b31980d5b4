//! The grading publications, in the publication directory any static host serves (C8, C23 layout):
//!
//! | path | what |
//! |---|---|
//! | `grades/<keccak256>.json` | a grading record, named by the hash of its bytes |
//! | `snapshots/<keccak256>` | a source's body as fetched, named by the hash of its bytes |
//! | `grader/<keccak256>.json` | the grader configuration, named by its hash |
//! | `grades/index.json` | score id → latest record hash, and the configuration in force (not trusted: every record names its score and is checked against the chain) |
//!
//! Every file is written to a temporary name and renamed, so an interrupted run leaves no torn file;
//! content-addressed files are never rewritten.

use crate::error::OpError;
use alloy::primitives::{keccak256, B256};
use eden_core::scoring::grade_record::{GraderConfig, GradingRecord};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The index's format name.
pub const GRADES_INDEX_FORMAT: &str = "eden-grades-index-v1";

/// `grades/index.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GradesIndex {
    /// [`GRADES_INDEX_FORMAT`].
    pub format: String,
    /// The configuration in force.
    pub config: B256,
    /// Score id (decimal) → the latest record's hash.
    pub records: BTreeMap<String, B256>,
}

/// A publication directory's grading part.
pub struct GradeStore {
    dir: PathBuf,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> OpError + '_ {
    move |source| OpError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl GradeStore {
    /// The store under publication directory `dir`.
    pub fn new(dir: &Path) -> GradeStore {
        GradeStore {
            dir: dir.to_path_buf(),
        }
    }

    fn write_atomic(&self, rel: &str, bytes: &[u8], overwrite: bool) -> Result<(), OpError> {
        let path = self.dir.join(rel);
        if !overwrite && path.exists() {
            return Ok(());
        }
        let parent = path.parent().unwrap_or(&self.dir).to_path_buf();
        std::fs::create_dir_all(&parent).map_err(io(&parent))?;
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, bytes).map_err(io(&tmp))?;
        std::fs::rename(&tmp, &path).map_err(io(&path))
    }

    /// Writes a snapshot; returns its hash.
    pub fn write_snapshot(&self, body: &[u8]) -> Result<B256, OpError> {
        let h = keccak256(body);
        self.write_atomic(&format!("snapshots/{h}"), body, false)?;
        Ok(h)
    }

    /// A snapshot's bytes.
    pub fn read_snapshot(&self, h: B256) -> Result<Vec<u8>, OpError> {
        let p = self.dir.join(format!("snapshots/{h}"));
        std::fs::read(&p).map_err(io(&p))
    }

    /// Writes the configuration; returns its hash.
    pub fn write_config(&self, c: &GraderConfig) -> Result<B256, OpError> {
        let h = c.hash();
        let bytes = serde_json::to_vec(c).map_err(|e| OpError::input("grader configuration", e))?;
        self.write_atomic(&format!("grader/{h}.json"), &bytes, false)?;
        Ok(h)
    }

    /// Writes a record; returns its hash.
    pub fn write_record(&self, r: &GradingRecord) -> Result<B256, OpError> {
        let h = r.hash();
        self.write_atomic(&format!("grades/{h}.json"), &r.to_bytes(), false)?;
        Ok(h)
    }

    /// Reads record `h`, checking that its bytes hash to `h`.
    pub fn read_record(&self, h: B256) -> Result<GradingRecord, OpError> {
        let p = self.dir.join(format!("grades/{h}.json"));
        let bytes = std::fs::read(&p).map_err(io(&p))?;
        if keccak256(&bytes) != h {
            return Err(OpError::input(
                p.display().to_string(),
                format!("its bytes do not hash to {h}"),
            ));
        }
        serde_json::from_slice(&bytes).map_err(|e| OpError::input(p.display().to_string(), e))
    }

    /// The index, or an empty one.
    pub fn read_index(&self) -> Result<GradesIndex, OpError> {
        let p = self.dir.join("grades/index.json");
        match std::fs::read(&p) {
            Ok(b) => {
                serde_json::from_slice(&b).map_err(|e| OpError::input(p.display().to_string(), e))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(GradesIndex {
                format: GRADES_INDEX_FORMAT.into(),
                config: B256::ZERO,
                records: BTreeMap::new(),
            }),
            Err(e) => Err(io(&p)(e)),
        }
    }

    /// Writes the index.
    pub fn write_index(&self, i: &GradesIndex) -> Result<(), OpError> {
        let bytes = serde_json::to_vec_pretty(i).map_err(|e| OpError::input("grades index", e))?;
        self.write_atomic("grades/index.json", &bytes, true)
    }

    /// Every graded thesis in the index as an epoch takes it (C8): its grade from its record, bound to the
    /// record by its hash, in score-id order.
    pub fn graded_theses(&self) -> Result<Vec<eden_core::scoring::bundle::GradedThesis>, OpError> {
        Ok(self
            .graded()?
            .into_iter()
            .map(|(h, r)| eden_core::scoring::bundle::GradedThesis {
                scorer_registry: r.scorer_registry,
                score_id: r.score_id,
                scorer: r.scorer,
                project: r.project,
                thesis_hash: r.thesis_hash,
                target_score_wad: r.target_score_wad,
                quality_wad: r.quality_wad().unwrap_or_default(),
                verdict: r.copy.verdict,
                matched_thesis: r.copy.matched_thesis,
                grade_record: h,
            })
            .collect())
    }

    /// Every graded record in the index, in score-id order, with its hash.
    pub fn graded(&self) -> Result<Vec<(B256, GradingRecord)>, OpError> {
        let idx = self.read_index()?;
        let mut out = Vec::new();
        for h in idx.records.values() {
            let r = self.read_record(*h)?;
            if r.quality_wad().is_some() {
                out.push((*h, r));
            }
        }
        out.sort_by_key(|(_, r)| r.score_id);
        Ok(out)
    }
}
