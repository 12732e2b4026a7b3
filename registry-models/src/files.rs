//! Reading a model directory's files, and what can be wrong with them.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// What was wrong with a model directory.
#[derive(Debug)]
pub enum LoadError {
    /// A file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file was read but does not describe a model this crate runs.
    Invalid {
        /// The file.
        path: PathBuf,
        /// What was wrong, naming the field or tensor.
        message: String,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            LoadError::Invalid { path, message } => write!(f, "{}: {message}", path.display()),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Io { source, .. } => Some(source),
            LoadError::Invalid { .. } => None,
        }
    }
}

/// A [`LoadError::Invalid`] for `path`.
pub(crate) fn invalid(path: &Path, message: impl Into<String>) -> LoadError {
    LoadError::Invalid {
        path: path.to_owned(),
        message: message.into(),
    }
}

/// The bytes of `path`.
pub(crate) fn read(path: &Path) -> Result<Vec<u8>, LoadError> {
    std::fs::read(path).map_err(|source| LoadError::Io {
        path: path.to_owned(),
        source,
    })
}

/// The JSON file `path`, as a `T`.
pub(crate) fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, LoadError> {
    let bytes = read(path)?;
    serde_json::from_slice(&bytes).map_err(|error| invalid(path, error.to_string()))
}
