//! The folder-level arrows: which top-level folder's crates depend on which,
//! read from the manifests' path dependencies, against the layer table.

use std::path::{Component, Path, PathBuf};

use crate::error::LayersError;

/// Each top-level folder that holds crates, and the folders it may import
/// (its own included: the bottom crates use each other, and so do the tools).
/// Bottom first, as data flows.
pub const LAYERS: &[(&str, &[&str])] = &[
    // The MLIR-free bottom layer: the chip model, the manifest, diagnostics.
    ("crates", &["crates"]),
    ("dialect", &["crates"]),
    ("passes", &["crates", "dialect"]),
    ("facade", &["crates", "dialect", "passes"]),
    // Host side: needs only the manifest.
    ("runtime", &["crates"]),
    // Users of the facade.
    (
        "python",
        &["crates", "dialect", "passes", "facade", "runtime"],
    ),
    // The C API and the mlir-opt plugin: a C face on the facade.
    ("capi", &["crates", "dialect", "passes", "facade", "capi"]),
    (
        "tools",
        &["crates", "dialect", "passes", "facade", "runtime", "tools"],
    ),
    (
        "examples",
        &["crates", "dialect", "passes", "facade", "runtime"],
    ),
];

/// A dependency between crates in two folders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FolderArrow {
    /// The manifest that declares it, relative to the workspace root.
    pub manifest: PathBuf,
    pub dependency: String,
    pub from: String,
    pub to: String,
}

impl std::fmt::Display for FolderArrow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}/ -> {}/: {} depends on `{}`",
            self.from,
            self.to,
            self.manifest.display(),
            self.dependency
        )
    }
}

/// The folder a path inside the workspace is in.
pub fn top_folder(relative: &Path) -> Option<String> {
    match relative.components().next()? {
        Component::Normal(name) => Some(name.to_string_lossy().into_owned()),
        _ => None,
    }
}

/// What a folder may import; `None` for a folder the table does not name.
pub fn allowed(folder: &str) -> Option<&'static [&'static str]> {
    LAYERS
        .iter()
        .find(|(name, _)| *name == folder)
        .map(|(_, allowed)| *allowed)
}

/// The path dependencies (normal, dev and build) of the crate whose manifest
/// is `manifest`, as folders relative to `root`; `workspace = true` ones are
/// looked up in the root manifest's `[workspace.dependencies]`.
pub fn path_dependencies(
    root: &Path,
    manifest: &Path,
) -> Result<Vec<(String, PathBuf)>, LayersError> {
    let table = read_toml(&root.join(manifest))?;
    let workspace = read_toml(&root.join("Cargo.toml"))?;
    let shared = workspace
        .get("workspace")
        .and_then(|w| w.get("dependencies"))
        .and_then(toml::Value::as_table);
    let crate_dir = manifest.parent().unwrap_or(Path::new(""));
    let mut found = Vec::new();
    for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
        let Some(dependencies) = table.get(section).and_then(toml::Value::as_table) else {
            continue;
        };
        for (name, spec) in dependencies {
            let inherited = spec.get("workspace").and_then(toml::Value::as_bool) == Some(true);
            let (base, spec) = if inherited {
                match shared.and_then(|shared| shared.get(name)) {
                    Some(spec) => (Path::new(""), spec),
                    None => continue,
                }
            } else {
                (crate_dir, spec)
            };
            if let Some(path) = spec.get("path").and_then(toml::Value::as_str) {
                found.push((name.clone(), normalise(&base.join(path))));
            }
        }
    }
    Ok(found)
}

fn read_toml(path: &Path) -> Result<toml::Table, LayersError> {
    let text = crate::tree::read_text(path)?;
    text.parse::<toml::Table>()
        .map_err(|error| LayersError::Parse {
            path: path.to_path_buf(),
            message: error.to_string(),
        })
}

/// `a/b/../c` as `a/c`, without touching the file system.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}
