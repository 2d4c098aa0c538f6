//! Why a tree could not be read.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum LayersError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot parse {path}: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("{declared_in} declares `mod {name};` but neither {name}.rs nor {name}/mod.rs exists")]
    MissingModule { declared_in: PathBuf, name: String },
}
