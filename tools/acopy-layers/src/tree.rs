//! Reading the tree: a file's text, a folder's entries, every file below a
//! root, each failure a [`LayersError::Read`] naming the path.

use std::path::{Path, PathBuf};

use crate::LayersError;

fn read_error(path: &Path) -> impl FnOnce(std::io::Error) -> LayersError + '_ {
    move |source| LayersError::Read {
        path: path.to_path_buf(),
        source,
    }
}

/// The text of `path`.
pub(crate) fn read_text(path: &Path) -> Result<String, LayersError> {
    std::fs::read_to_string(path).map_err(read_error(path))
}

/// One entry of a folder: its name, and whether it is a folder.
pub(crate) struct Entry {
    pub name: String,
    pub is_dir: bool,
}

/// The entries of `dir` but hidden ones (`.git`, `.venv`), sorted by name.
pub(crate) fn visible_entries(dir: &Path) -> Result<Vec<Entry>, LayersError> {
    let mut entries: Vec<Entry> = std::fs::read_dir(dir)
        .map_err(read_error(dir))?
        .flatten()
        .map(|entry| Entry {
            name: entry.file_name().to_string_lossy().into_owned(),
            is_dir: entry.file_type().is_ok_and(|kind| kind.is_dir()),
        })
        .filter(|entry| !entry.name.starts_with('.'))
        .collect();
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(entries)
}

/// Every file under `root` (relative to it), without hidden folders and the
/// build folder `target/` at the top, which hold tools and build outputs
/// rather than the project (`passes/src/target/` is read).
pub fn tree_files(root: &Path) -> Result<Vec<PathBuf>, LayersError> {
    let mut files = Vec::new();
    let mut folders = vec![PathBuf::new()];
    while let Some(folder) = folders.pop() {
        for entry in visible_entries(&root.join(&folder))? {
            let build_folder = folder.as_os_str().is_empty() && entry.name == "target";
            let path = folder.join(&entry.name);
            match (entry.is_dir, build_folder) {
                (true, false) => folders.push(path),
                (false, _) => files.push(path),
                (true, true) => {}
            }
        }
    }
    files.sort();
    Ok(files)
}
