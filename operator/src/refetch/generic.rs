//! The generic adapters (C21): a JSON document read at a pointer per metric, and a source's export file.
//! They know no source's rules, so they exclude nothing.

use super::http::{as_u256, Api};
use super::{Fetched, Refetched};
use alloy::primitives::{Address, U256};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::time::Duration;

fn plain(value: U256) -> Refetched {
    Refetched {
        value,
        excluded: vec![],
    }
}

/// GETs a JSON document per project and reads each metric at its JSON pointer.
pub struct HttpJson {
    api: Api,
    url: String,
    paths: BTreeMap<String, String>,
}

impl HttpJson {
    /// An adapter for `url` (templated with `{project}` and `{epoch}`) with metric pointers `paths`.
    pub fn new(url: String, paths: BTreeMap<String, String>, timeout: Duration) -> HttpJson {
        HttpJson {
            api: Api::new("", timeout),
            url,
            paths,
        }
    }

    /// Reads `metrics` of `project` for `epoch`.
    pub async fn fetch(&self, project: Address, epoch: u64, metrics: &[String]) -> Fetched {
        let url = self
            .url
            .replace("{project}", &format!("{project:#x}"))
            .replace("{epoch}", &epoch.to_string());
        let doc = self.api.get(&url, &[]).await?;
        let mut out = HashMap::new();
        for m in metrics {
            let v = self.paths.get(m).and_then(|ptr| doc.pointer(ptr));
            if let Some(x) = v.and_then(|v| as_u256(v).ok()) {
                out.insert(m.clone(), plain(x));
            }
        }
        Ok(out)
    }
}

/// A JSON file `{ "<project>": { "<metric>": value } }` (an export from the source).
pub struct FileSource {
    values: std::result::Result<HashMap<Address, HashMap<String, U256>>, String>,
}

impl FileSource {
    /// Reads the file now; a bad file makes every fetch unavailable with the reason.
    pub fn open(path: &Path) -> FileSource {
        let values = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: {e}", path.display()))
            .and_then(|t| {
                serde_json::from_str::<HashMap<Address, HashMap<String, Value>>>(&t)
                    .map_err(|e| format!("{}: {e}", path.display()))
            })
            .map(|m| {
                m.into_iter()
                    .map(|(p, ms)| {
                        let ms = ms
                            .into_iter()
                            .filter_map(|(k, v)| as_u256(&v).ok().map(|x| (k, x)))
                            .collect();
                        (p, ms)
                    })
                    .collect()
            });
        FileSource { values }
    }

    /// Every metric the export has for `project`.
    pub fn fetch(&self, project: Address) -> Fetched {
        let all = self.values.as_ref().map_err(Clone::clone)?;
        Ok(all
            .get(&project)
            .map(|ms| ms.iter().map(|(k, v)| (k.clone(), plain(*v))).collect())
            .unwrap_or_default())
    }
}
