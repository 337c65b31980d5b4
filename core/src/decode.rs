//! Why a publication does not parse (C22, C23): one error for the decoders of the epoch bundle, the intake
//! report and the light packs, wrapping the JSON and compact decoders' own errors rather than their words.

use crate::compact::CompactError;

/// A publication that does not parse.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    /// Malformed JSON, or a field of the wrong shape.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// Malformed JSON at a field, named by its path (`projects[3].theses`).
    #[error("{path}: {source}")]
    JsonAt {
        /// The field's path.
        path: String,
        /// The JSON decoder's error.
        #[source]
        source: serde_json::Error,
    },
    /// Bytes that are not UTF-8, so not JSON, and do not start like a compact publication.
    #[error("neither JSON (UTF-8) nor a compact publication: {0}")]
    NotText(#[from] std::str::Utf8Error),
    /// A compact publication that does not decode.
    #[error(transparent)]
    Compact(#[from] CompactError),
    /// Another format tag than the one this decoder reads.
    #[error("format: '{found}' is not {expected}")]
    Format {
        /// The tag found.
        found: String,
        /// The tag expected.
        expected: &'static str,
    },
    /// An entry that parses but has not the shape its kind requires.
    #[error("{at}.{what}")]
    Shape {
        /// The entry (`projects[3]`).
        at: String,
        /// What is wrong with it.
        what: String,
    },
}

/// `Ok(())` when `found` is the format tag `expected`.
///
/// # Errors
/// [`DecodeError::Format`].
pub(crate) fn expect_format(found: &str, expected: &'static str) -> Result<(), DecodeError> {
    if found == expected {
        Ok(())
    } else {
        Err(DecodeError::Format {
            found: found.to_string(),
            expected,
        })
    }
}
