//! Names that say what a file holds: within one folder tree (the passes'
//! `passes/src`), no two source files share a name, so that a name in a doc,
//! a diagnostic or a mutation report points at one file. `mod.rs` and
//! `tests.rs` are Rust's conventions for a module's root and its unit tests
//! and name their folder, not their content, so they are left out.

use std::{collections::BTreeMap, fmt, path::PathBuf};

/// File names that are conventions, not descriptions.
pub const CONVENTIONS: [&str; 2] = ["mod.rs", "tests.rs"];

/// One file name used by several files under one folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedName {
    pub name: String,
    /// The files of that name, sorted.
    pub files: Vec<PathBuf>,
}

impl fmt::Display for SharedName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let files: Vec<String> = self
            .files
            .iter()
            .map(|file| file.display().to_string())
            .collect();
        write!(f, "{}: {}", self.name, files.join(", "))
    }
}

/// The names of `files` under `folder` that more than one file uses,
/// [`CONVENTIONS`] aside, sorted by name.
pub fn shared_names(files: &[PathBuf], folder: &str) -> Vec<SharedName> {
    let mut by_name: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for file in files.iter().filter(|file| file.starts_with(folder)) {
        let Some(name) = file.file_name() else {
            continue;
        };
        let name = name.to_string_lossy().into_owned();
        if CONVENTIONS.contains(&name.as_str()) {
            continue;
        }
        by_name.entry(name).or_default().push(file.clone());
    }
    by_name
        .into_iter()
        .filter(|(_, files)| files.len() > 1)
        .map(|(name, mut files)| {
            files.sort();
            SharedName { name, files }
        })
        .collect()
}
