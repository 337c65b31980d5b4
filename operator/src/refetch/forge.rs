//! The git-forge adapter (C21a): merged pull requests from a GitHub-compatible REST API, with reverted, bot
//! and self-approved work excluded.
//!
//! It lists the repository's closed pull requests (`GET /repos/<owner>/<repo>/pulls?state=closed&
//! per_page=100&page=N`, until a page comes back short), keeps those merged in the epoch's window, reads each
//! one's reviews (`GET …/pulls/<n>/reviews`), and counts each except:
//! - **reverted**: undone by another merged pull request titled `Revert "<its title>"` (the revert counts
//!   nothing either: it is not new work);
//! - **bot**: opened by a bot account (`user.type == "Bot"` or a login ending in `[bot]`);
//! - **self-approved**: no approving review by anyone but its author.

use super::http::{field, time_secs, Api};
use super::{each, Fetched, Refetched, Window};
use alloy::primitives::{Address, U256};
use eden_core::attest::{Anomaly, Exclusion};
use serde_json::Value;
use std::collections::HashMap;

/// Pull requests per page.
const PER_PAGE: usize = 100;
/// Most pages read for one repository.
const MAX_PAGES: usize = 100;

/// The adapter.
pub struct GitForge {
    pub(super) api: Api,
    /// The metrics it re-fetches (each one's value is the same count: a source reports it under one name
    /// per track).
    pub(super) metrics: Vec<String>,
    /// Each project's repository (`owner/name`).
    pub(super) repos: HashMap<Address, String>,
}

/// One merged pull request with what its anomalies depend on.
#[derive(Debug, Clone)]
pub struct Merged {
    /// Its number.
    pub number: u64,
    /// Its title.
    pub title: String,
    /// Its author's login.
    pub author: String,
    /// Whether its author is a bot.
    pub bot: bool,
    /// The logins that approved it.
    pub approvers: Vec<String>,
}

impl GitForge {
    /// Merged work of `project` in `w` (see the module doc).
    pub async fn fetch(&self, project: Address, w: Window) -> Fetched {
        let repo = self
            .repos
            .get(&project)
            .ok_or_else(|| format!("no repository is configured for {project}"))?;
        let mut merged = Vec::new();
        for page in 1..=MAX_PAGES {
            let doc = self
                .api
                .get(
                    &format!("/repos/{repo}/pulls?state=closed&per_page={PER_PAGE}&page={page}"),
                    &[("Accept", "application/vnd.github+json")],
                )
                .await?;
            let list = doc.as_array().ok_or("a pulls page is not a list")?;
            for pr in list {
                let number = field(pr, "number", "a pull request")?
                    .as_u64()
                    .ok_or("a pull request's number is not a number")?;
                let what = format!("pull request #{number}");
                let Some(at) = pr.get("merged_at").filter(|v| !v.is_null()) else {
                    continue;
                };
                let at = time_secs(at, &what)?;
                if at <= w.start || at > w.end {
                    continue;
                }
                let login = pr
                    .pointer("/user/login")
                    .and_then(Value::as_str)
                    .ok_or_else(|| format!("{what} has no author"))?;
                let bot = pr.pointer("/user/type").and_then(Value::as_str) == Some("Bot")
                    || login.ends_with("[bot]");
                let reviews = self
                    .api
                    .get(
                        &format!("/repos/{repo}/pulls/{number}/reviews"),
                        &[("Accept", "application/vnd.github+json")],
                    )
                    .await?;
                let approvers = reviews
                    .as_array()
                    .ok_or_else(|| format!("{what}'s reviews are not a list"))?
                    .iter()
                    .filter(|r| r.get("state").and_then(Value::as_str) == Some("APPROVED"))
                    .filter_map(|r| r.pointer("/user/login").and_then(Value::as_str))
                    .map(str::to_string)
                    .collect();
                merged.push(Merged {
                    number,
                    title: pr
                        .get("title")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string(),
                    author: login.to_string(),
                    bot,
                    approvers,
                });
            }
            if list.len() < PER_PAGE {
                return Ok(each(&self.metrics, merged_work(&merged)));
            }
        }
        Err(format!(
            "{repo} has more than {} closed pull requests",
            PER_PAGE * MAX_PAGES
        ))
    }
}

/// Merged work net of the anomalies, each named (pure).
pub fn merged_work(merged: &[Merged]) -> Refetched {
    let mut value = U256::ZERO;
    let mut excluded = Vec::new();
    let revert_of = |title: &str| {
        title
            .strip_prefix("Revert \"")
            .and_then(|t| t.strip_suffix('"'))
            .map(str::to_string)
    };
    for m in merged {
        let exclude = |kind: Anomaly, detail: String| Exclusion {
            kind,
            item: format!("#{}", m.number),
            amount: U256::from(1),
            detail,
        };
        let reverted_by = merged
            .iter()
            .find(|r| revert_of(&r.title).as_deref() == Some(m.title.as_str()));
        if let Some(r) = reverted_by {
            excluded.push(exclude(
                Anomaly::Reverted,
                format!("reverted by #{}", r.number),
            ));
        } else if let Some(original) = revert_of(&m.title) {
            excluded.push(exclude(
                Anomaly::Reverted,
                format!("reverts \"{original}\""),
            ));
        } else if m.bot {
            excluded.push(exclude(
                Anomaly::Bot,
                format!("opened by the bot {}", m.author),
            ));
        } else if !m.approvers.iter().any(|a| *a != m.author) {
            excluded.push(exclude(
                Anomaly::SelfApproved,
                format!("no approval by anyone but its author {}", m.author),
            ));
        } else {
            value += U256::from(1);
        }
    }
    Refetched { value, excluded }
}

#[cfg(test)]
#[path = "forge_tests.rs"]
mod tests;
