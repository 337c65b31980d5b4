//! The work-tracker adapter (C21a): resolved work items from a tracker's REST API, with reopened,
//! duplicate and self-opened items excluded.
//!
//! It lists the project's issues resolved in the epoch's window (`GET /projects/<key>/issues?
//! resolved_after=start&resolved_before=end&page=N`, following `nextPage` until it is null), and counts
//! each item resolved in the window except:
//! - **reopened**: reopened after it was resolved (`reopenedAt` later than `resolvedAt`);
//! - **duplicate**: closed as a duplicate of another item (`duplicateOf` set);
//! - **self-opened**: opened by one of the project's own members (declared in the configuration), so the
//!   project made the work it reports as demand.

use super::http::{field, time_secs, Api};
use super::{each, Fetched, Refetched, Window};
use alloy::primitives::{Address, U256};
use eden_core::attest::{Anomaly, Exclusion};
use serde_json::Value;
use std::collections::HashMap;

/// Most pages read for one project.
const MAX_PAGES: u64 = 1_000;

/// The adapter.
pub struct WorkTracker {
    pub(super) api: Api,
    /// The metrics it re-fetches (each one's value is the same count: a source reports it under one name
    /// per track).
    pub(super) metrics: Vec<String>,
    /// Each project's tracker project key.
    pub(super) projects: HashMap<Address, String>,
    /// Each project's own members (tracker logins).
    pub(super) members: HashMap<Address, Vec<String>>,
}

impl WorkTracker {
    /// Resolved work of `project` in `w` (see the module doc).
    pub async fn fetch(&self, project: Address, w: Window) -> Fetched {
        let key = self
            .projects
            .get(&project)
            .ok_or_else(|| format!("no tracker project is configured for {project}"))?;
        let members = self.members.get(&project).map_or(&[][..], Vec::as_slice);
        let mut issues = Vec::new();
        let mut page = 1u64;
        for _ in 0..MAX_PAGES {
            let doc = self
                .api
                .get(
                    &format!(
                        "/projects/{key}/issues?resolved_after={}&resolved_before={}&page={page}",
                        w.start, w.end
                    ),
                    &[],
                )
                .await?;
            let list = field(&doc, "issues", "an issues page")?
                .as_array()
                .ok_or("an issues page's 'issues' is not a list")?;
            issues.extend(list.iter().cloned());
            match doc.get("nextPage").and_then(Value::as_u64) {
                Some(next) if next > page => page = next,
                _ => {
                    let value = resolved(&issues, members, w)?;
                    return Ok(each(&self.metrics, value));
                }
            }
        }
        Err(format!("the issues list has more than {MAX_PAGES} pages"))
    }
}

/// Resolved items net of the anomalies, each named (pure).
pub fn resolved(issues: &[Value], members: &[String], w: Window) -> Result<Refetched, String> {
    let mut value = U256::ZERO;
    let mut excluded = Vec::new();
    for i in issues {
        let id = match field(i, "id", "an issue")? {
            Value::String(s) => s.clone(),
            v => v.to_string(),
        };
        let what = format!("issue {id}");
        let Some(resolved_at) = i.get("resolvedAt").filter(|v| !v.is_null()) else {
            continue;
        };
        let resolved_at = time_secs(resolved_at, &what)?;
        if resolved_at <= w.start || resolved_at > w.end {
            continue;
        }
        let reopened = match i.get("reopenedAt").filter(|v| !v.is_null()) {
            Some(t) => Some(time_secs(t, &what)?).filter(|&t| t > resolved_at),
            None => None,
        };
        let creator = i.get("createdBy").and_then(Value::as_str).unwrap_or("");
        let exclude = |kind: Anomaly, detail: String| Exclusion {
            kind,
            item: id.clone(),
            amount: U256::from(1),
            detail,
        };
        if let Some(t) = reopened {
            excluded.push(exclude(Anomaly::Reopened, format!("reopened at {t}")));
        } else if let Some(d) = i.get("duplicateOf").filter(|v| !v.is_null()) {
            let d = d.as_str().map_or_else(|| d.to_string(), str::to_string);
            excluded.push(exclude(Anomaly::Duplicate, format!("a duplicate of {d}")));
        } else if !creator.is_empty() && members.iter().any(|m| m == creator) {
            excluded.push(exclude(
                Anomaly::SelfOpened,
                format!("opened by {creator}, a member of the project"),
            ));
        } else {
            value += U256::from(1);
        }
    }
    Ok(Refetched { value, excluded })
}

#[cfg(test)]
#[path = "tracker_tests.rs"]
mod tests;
