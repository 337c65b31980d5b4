//! Files in: the network description, track configurations, the intake configuration, submissions.

use crate::error::{OpError, Result};
use eden_core::attest::{IntakeConfig, Submission};
use eden_core::network::NetworkDescription;
use eden_core::scoring::TrackConfig;
use serde::de::DeserializeOwned;
use std::path::{Path, PathBuf};

/// Reads a file as text.
pub fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|source| OpError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Reads a file's bytes (a publication in either encoding, C23).
pub fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|source| OpError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes a file, creating its directory.
pub fn write(path: &Path, text: impl AsRef<[u8]>) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|source| OpError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    std::fs::write(path, text).map_err(|source| OpError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Parses JSON, naming the file and the field on error.
pub fn parse<T: DeserializeOwned>(what: &Path, text: &str) -> Result<T> {
    let de = &mut serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let msg = e.into_inner().to_string();
        OpError::input(
            what.display().to_string(),
            if path == "." {
                msg
            } else {
                format!("{path}: {msg}")
            },
        )
    })
}

/// Reads and parses a JSON file.
pub fn load<T: DeserializeOwned>(path: &Path) -> Result<T> {
    parse(path, &read(path)?)
}

/// The network description (`eden-network-v1`), validated.
pub fn network(path: &Path) -> Result<NetworkDescription> {
    NetworkDescription::parse(&read(path)?)
        .map_err(|e| OpError::input(path.display().to_string(), e))
}

/// Track configurations: a JSON array of track configs, or preset names separated by commas
/// (`agents,apps,research`, the PLACEHOLDER presets).
pub fn tracks(spec: &str) -> Result<Vec<TrackConfig>> {
    let p = Path::new(spec);
    if p.is_file() {
        let t: Vec<TrackConfig> = load(p)?;
        for (i, c) in t.iter().enumerate() {
            c.validate()
                .map_err(|e| OpError::input(format!("{spec}[{i}]"), e))?;
        }
        return Ok(t);
    }
    spec.split(',')
        .map(|n| {
            TrackConfig::preset(n.trim()).ok_or_else(|| {
                OpError::input(
                    "--tracks",
                    format!("'{n}' is neither a file nor a preset (agents, research, apps)"),
                )
            })
        })
        .collect()
}

/// The intake configuration.
pub fn intake_config(path: &Path) -> Result<IntakeConfig> {
    load(path)
}

/// One submission file that could not be read (reported, skipped: the epoch builds from the rest).
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BadSubmission {
    /// The file.
    pub file: PathBuf,
    /// Why.
    pub error: String,
}

/// Every `*.json` submission in `dir`, sorted by file name; malformed files are returned apart.
pub fn submissions(dir: &Path) -> Result<(Vec<Submission>, Vec<BadSubmission>)> {
    let rd = std::fs::read_dir(dir).map_err(|source| OpError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut files: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let (mut ok, mut bad) = (Vec::new(), Vec::new());
    for f in files {
        match read(&f).and_then(|t| parse::<Submission>(&f, &t)) {
            Ok(s) => ok.push(s),
            Err(e) => bad.push(BadSubmission {
                file: f,
                error: e.to_string(),
            }),
        }
    }
    Ok((ok, bad))
}
