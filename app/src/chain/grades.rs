//! Grading records (C8) read from the deployment's publications: a record, the configuration it names and
//! its sources' snapshots, each checked against the hash that names it
//! (`eden_core::scoring::grade_record::record_from_bytes` and friends). Re-deriving the grade is
//! `eden_core::check::audit_grades` / `recheck_record`, on the page.

use crate::chain::world::World;
use alloy_primitives::B256;
use eden_core::check::PublishedGrade;
use eden_core::scoring::grade_record::{
    config_from_bytes, config_path, named_bytes, record_from_bytes, record_path, snapshot_path,
};
use std::collections::BTreeMap;

/// Record `h` with its configuration and snapshots, or why one of them could not be read as named.
pub async fn published_grade(w: &World, h: B256) -> Result<PublishedGrade, String> {
    let get = |path: String| async move {
        w.fetch_publication_bytes(&path)
            .await
            .map_err(|e| format!("{path}: {e}"))
    };
    let record = record_from_bytes(h, &get(record_path(h)).await?).map_err(|e| e.to_string())?;
    let c = record.config_hash;
    let config = config_from_bytes(c, &get(config_path(c)).await?).map_err(|e| e.to_string())?;
    let mut bodies = BTreeMap::new();
    for s in &record.sources {
        if let Some(sh) = s.snapshot {
            let body = get(snapshot_path(sh)).await?;
            named_bytes(&snapshot_path(sh), sh, &body).map_err(|e| e.to_string())?;
            bodies.insert(s.url.clone(), body);
        }
    }
    Ok(PublishedGrade {
        record,
        config,
        bodies,
    })
}
