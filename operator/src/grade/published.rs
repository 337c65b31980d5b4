//! A proposed epoch's grading records read back from the publication bases, for the watchtower (C8): each
//! record, the configuration it names and its sources' snapshots, every file checked against the hash that
//! names it (`eden_core::scoring::grade_record::record_from_bytes` and friends). What is read is never
//! trusted: `eden_core::check::audit_grades` re-derives the grades.

use crate::publication::Publications;
use alloy::primitives::B256;
use eden_core::check::PublishedGrade;
use eden_core::scoring::grade_record::{
    config_from_bytes, config_path, named_bytes, record_from_bytes, record_path, snapshot_path,
};
use eden_core::scoring::EpochBundle;
use std::collections::BTreeMap;

async fn get(pubs: &Publications, path: &str) -> Result<Vec<u8>, String> {
    pubs.get(path).await.map_err(|e| e.to_string())
}

async fn one(pubs: &Publications, h: B256) -> Result<PublishedGrade, String> {
    let record =
        record_from_bytes(h, &get(pubs, &record_path(h)).await?).map_err(|e| e.to_string())?;
    let c = record.config_hash;
    let config =
        config_from_bytes(c, &get(pubs, &config_path(c)).await?).map_err(|e| e.to_string())?;
    let mut bodies = BTreeMap::new();
    for s in &record.sources {
        if let Some(sh) = s.snapshot {
            let path = snapshot_path(sh);
            let body = get(pubs, &path).await?;
            named_bytes(&path, sh, &body).map_err(|e| e.to_string())?;
            bodies.insert(s.url.clone(), body);
        }
    }
    Ok(PublishedGrade {
        record,
        config,
        bodies,
    })
}

/// Every grading record the bundle's theses name, fetched (or why not).
pub async fn published_grades(
    pubs: &Publications,
    bundle: &EpochBundle,
) -> BTreeMap<B256, Result<PublishedGrade, String>> {
    let mut wanted: Vec<B256> = bundle
        .theses
        .iter()
        .map(|t| t.grade_record)
        .filter(|h| !h.is_zero())
        .collect();
    wanted.sort();
    wanted.dedup();
    let mut out = BTreeMap::new();
    for h in wanted {
        let got = one(pubs, h).await;
        out.insert(h, got);
    }
    out
}
