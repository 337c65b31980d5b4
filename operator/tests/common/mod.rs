//! What the operator's anvil tests share: running the `eden` binary as a user would.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// Runs `eden --json --network <network> <args>` with `key` (or none) in `EDEN_PRIVATE_KEY`: whether it
/// succeeded, its JSON result (`Null` when stdout is not JSON) and its stderr.
pub(crate) fn eden(network: &Path, key: Option<&str>, args: &[&str]) -> (bool, Value, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_eden"));
    c.arg("--json").arg("--network").arg(network).args(args);
    c.env_remove("EDEN_PRIVATE_KEY");
    if let Some(k) = key {
        c.env("EDEN_PRIVATE_KEY", k);
    }
    let o = c.output().expect("run eden");
    let stdout = String::from_utf8_lossy(&o.stdout).to_string();
    (
        o.status.success(),
        serde_json::from_str(&stdout).unwrap_or(Value::Null),
        String::from_utf8_lossy(&o.stderr).to_string(),
    )
}
