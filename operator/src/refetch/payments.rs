//! The payments adapter (C21a): settled volume from a Stripe-compatible charges API, net of refunds and
//! chargebacks, with payments from the project's own accounts excluded as self-dealing.
//!
//! It lists the connected account's charges created in the epoch's window (`GET /v1/charges?limit=100&
//! created[gt]=start&created[lte]=end`, `Stripe-Account: acct_…`, paged with `starting_after` while
//! `has_more`), and for each succeeded charge:
//! - **chargeback**: a disputed charge counts nothing (its whole amount is excluded);
//! - **self-dealing**: a charge paid by one of the project's own customers (declared in the configuration),
//!   or whose `metadata.payer` is the project's own address (detected), counts nothing;
//! - **refund**: what was refunded (`amount_refunded`) is excluded; the rest counts.
//!
//! Charges that did not succeed count nothing and are not anomalies. The value is in the charges' smallest
//! unit (cents), summed exactly.

use super::http::{as_u256, field, time_secs, Api};
use super::{each, Fetched, Refetched, Window};
use alloy::primitives::{Address, U256};
use eden_core::attest::{Anomaly, Exclusion};
use serde_json::Value;
use std::collections::HashMap;

/// Most pages read for one project (100 charges each): a source that pages forever is unavailable.
const MAX_PAGES: usize = 1_000;

/// The adapter.
pub struct Payments {
    pub(super) api: Api,
    /// The metrics it re-fetches (each one's value is the same count: a source reports it under one name
    /// per track).
    pub(super) metrics: Vec<String>,
    /// Each project's connected account (`acct_…`).
    pub(super) accounts: HashMap<Address, String>,
    /// Each project's own customers (`cus_…`): payments from them are self-dealing.
    pub(super) own_customers: HashMap<Address, Vec<String>>,
}

impl Payments {
    /// Settled volume of `project` in `w` (see the module doc).
    pub async fn fetch(&self, project: Address, w: Window) -> Fetched {
        let account = self
            .accounts
            .get(&project)
            .ok_or_else(|| format!("no payments account is configured for {project}"))?;
        let own = self
            .own_customers
            .get(&project)
            .map_or(&[][..], Vec::as_slice);
        let mut charges = Vec::new();
        let mut after: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let mut path = format!(
                "/v1/charges?limit=100&created[gt]={}&created[lte]={}",
                w.start, w.end
            );
            if let Some(id) = &after {
                path += &format!("&starting_after={id}");
            }
            let page = self.api.get(&path, &[("Stripe-Account", account)]).await?;
            let data = field(&page, "data", "a charges page")?
                .as_array()
                .ok_or("a charges page's 'data' is not a list")?;
            charges.extend(data.iter().cloned());
            let more = page
                .get("has_more")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            if !more || data.is_empty() {
                let value = settled(&charges, project, own, w)?;
                return Ok(each(&self.metrics, value));
            }
            after = Some(
                field(data.last().unwrap_or(&Value::Null), "id", "a charge")?
                    .as_str()
                    .ok_or("a charge's id is not text")?
                    .to_string(),
            );
        }
        Err(format!("the charges list has more than {MAX_PAGES} pages"))
    }
}

/// Settled volume net of the anomalies, each named (pure: the rule, unit-tested on fixtures).
pub fn settled(
    charges: &[Value],
    project: Address,
    own_customers: &[String],
    w: Window,
) -> Result<Refetched, String> {
    let mut value = U256::ZERO;
    let mut excluded = Vec::new();
    let project_hex = format!("{project:#x}");
    for c in charges {
        let id = field(c, "id", "a charge")?
            .as_str()
            .ok_or("a charge's id is not text")?;
        let what = format!("charge {id}");
        let created = time_secs(field(c, "created", &what)?, &what)?;
        if created <= w.start || created > w.end {
            continue; // the API's filter is not trusted
        }
        if field(c, "status", &what)?.as_str() != Some("succeeded") {
            continue;
        }
        let amount = as_u256(field(c, "amount", &what)?).map_err(|e| format!("{what}: {e}"))?;
        let refunded = match c.get("amount_refunded") {
            Some(v) => as_u256(v).map_err(|e| format!("{what}: {e}"))?,
            None => U256::ZERO,
        };
        if refunded > amount {
            return Err(format!("{what} refunds {refunded}, more than its {amount}"));
        }
        let customer = c.get("customer").and_then(Value::as_str).unwrap_or("");
        let payer = c
            .pointer("/metadata/payer")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_ascii_lowercase();
        let exclude = |kind: Anomaly, amount: U256, detail: String| Exclusion {
            kind,
            item: id.to_string(),
            amount,
            detail,
        };
        if c.get("disputed").and_then(Value::as_bool).unwrap_or(false) {
            excluded.push(exclude(
                Anomaly::Chargeback,
                amount,
                "disputed by the payer".into(),
            ));
        } else if !customer.is_empty() && own_customers.iter().any(|o| o == customer) {
            excluded.push(exclude(
                Anomaly::SelfDealing,
                amount,
                format!("paid by {customer}, declared the project's own customer"),
            ));
        } else if payer == project_hex {
            excluded.push(exclude(
                Anomaly::SelfDealing,
                amount,
                format!("paid from the project's own address {project}"),
            ));
        } else {
            if !refunded.is_zero() {
                excluded.push(exclude(
                    Anomaly::Refund,
                    refunded,
                    format!("{refunded} of {amount} refunded"),
                ));
            }
            value += amount - refunded;
        }
    }
    Ok(Refetched { value, excluded })
}

#[cfg(test)]
#[path = "payments_tests.rs"]
mod tests;
