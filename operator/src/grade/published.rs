//! A proposed epoch's grading records read back from the publication bases, for the watchtower (C8): each
//! record, the configuration it names and its sources' snapshots, every file checked against the hash that
//! names it. What is read is never trusted: `eden_core::check::audit_grades` re-derives the grades.

use crate::publication::Publications;
use alloy::primitives::{keccak256, B256};
use eden_core::check::PublishedGrade;
use eden_core::scoring::grade_record::{GraderConfig, GradingRecord};
use eden_core::scoring::EpochBundle;
use std::collections::BTreeMap;

/// Fetches `path` and checks that its bytes hash to `h`.
async fn named(pubs: &Publications, path: String, h: B256) -> Result<Vec<u8>, String> {
    let bytes = pubs.get(&path).await.map_err(|e| e.to_string())?;
    if keccak256(&bytes) != h {
        return Err(format!(
            "{path}: its bytes hash to {}, not {h}",
            keccak256(&bytes)
        ));
    }
    Ok(bytes)
}

async fn one(pubs: &Publications, h: B256) -> Result<PublishedGrade, String> {
    let bytes = named(pubs, format!("grades/{h}.json"), h).await?;
    let record: GradingRecord =
        serde_json::from_slice(&bytes).map_err(|e| format!("grades/{h}.json: {e}"))?;
    let c = record.config_hash;
    let config: GraderConfig =
        serde_json::from_slice(&named(pubs, format!("grader/{c}.json"), c).await?)
            .map_err(|e| format!("grader/{c}.json: {e}"))?;
    if config.hash() != c {
        return Err(format!("grader/{c}.json is not in its canonical form"));
    }
    let mut bodies = BTreeMap::new();
    for s in &record.sources {
        if let Some(sh) = s.snapshot {
            bodies.insert(
                s.url.clone(),
                named(pubs, format!("snapshots/{sh}"), sh).await?,
            );
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
    let mut out = BTreeMap::new();
    let mut wanted: Vec<B256> = bundle
        .theses
        .iter()
        .map(|t| t.grade_record)
        .filter(|h| !h.is_zero())
        .collect();
    wanted.sort();
    wanted.dedup();
    for h in wanted {
        let got = one(pubs, h).await;
        out.insert(h, got);
    }
    out
}
