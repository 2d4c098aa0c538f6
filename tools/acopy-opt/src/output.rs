//! Writing the result: to standard output, or atomically to `-o FILE`.

use std::{
    io::Write,
    path::{Path, PathBuf},
};

/// The output could not be written.
#[derive(Debug, thiserror::Error)]
#[error("could not write output file '{path}': {source}")]
pub struct OutputError {
    path: PathBuf,
    source: std::io::Error,
}

/// Writes `text` to `path` through a temporary file in the same directory and a
/// rename, so readers never see a half-written file.
pub fn write_atomically(path: &Path, text: &str) -> Result<(), OutputError> {
    let error = |source| OutputError {
        path: path.to_path_buf(),
        source,
    };
    // A device or pipe (`-o /dev/null`, `-o /dev/stdout`, a fifo) cannot be
    // replaced by a rename, and half-writes are not a concern for it: write in place.
    if std::fs::metadata(path).is_ok_and(|metadata| !metadata.is_file() && !metadata.is_dir()) {
        return std::fs::write(path, text).map_err(error);
    }
    let directory = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut file = tempfile::NamedTempFile::new_in(directory).map_err(error)?;
    // The temporary file is created 0600; give the output the mode an existing
    // file had, or a new file's usual 0644.
    let permissions = match std::fs::metadata(path) {
        Ok(metadata) => metadata.permissions(),
        Err(_) => std::os::unix::fs::PermissionsExt::from_mode(0o644),
    };
    file.as_file().set_permissions(permissions).map_err(error)?;
    file.write_all(text.as_bytes()).map_err(error)?;
    file.persist(path).map_err(|persist| error(persist.error))?;
    Ok(())
}
