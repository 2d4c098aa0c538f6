//! A kernel's files on disk: its PTX and, for TMA kernels, its tensor-map
//! manifest, as tests/gpu/build-ptx.sh writes them. The suite's cases and its
//! bandwidth runs both load through here.

use acopy_runtime::manifest::Manifest;
use std::path::{Path, PathBuf};

/// The suite's error type: every failure ends as a message in a case's result.
pub type Error = Box<dyn std::error::Error>;

/// `<dir>/<name>.ptx` and, when present, `<dir>/<name>.manifest.json`.
pub fn load_kernel_files(
    dir: &Path,
    name: &str,
) -> Result<(String, PathBuf, Option<Manifest>), Error> {
    let ptx_path = dir.join(format!("{name}.ptx"));
    let ptx = std::fs::read_to_string(&ptx_path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            format!(
                "missing PTX {} (tests/gpu/build-ptx.sh did not build it; its output says why)",
                ptx_path.display()
            )
        } else {
            format!("{}: {e}", ptx_path.display())
        }
    })?;
    let manifest_path = dir.join(format!("{name}.manifest.json"));
    let manifest = if manifest_path.exists() {
        let text = std::fs::read_to_string(&manifest_path)
            .map_err(|e| format!("{}: {e}", manifest_path.display()))?;
        Some(Manifest::from_json(&text).map_err(|e| format!("{}: {e}", manifest_path.display()))?)
    } else {
        None
    };
    Ok((ptx, ptx_path, manifest))
}
