//! A module's **Layout** table is the folder as it is: a module doc with a
//! `| file | what |` table lists every file of its folder, and no file that
//! is gone, so that a newcomer who reads the table finds each file and a
//! file added without a line fails `cargo test`.
//!
//! For `x/mod.rs` the table's names are relative to `x/` (`mod.rs`,
//! `chunk.rs`, `loops/`); for `x/y.rs` with a folder `x/y/` they are relative
//! to `x/` (`y.rs`, `y/load.rs`). A folder that holds the children of a listed
//! `z.rs` (`z/`) is covered by `z.rs`.

use std::{
    collections::BTreeSet,
    fmt,
    path::{Path, PathBuf},
};

use crate::LayersError;

/// The header that starts a layout table.
pub const HEADER: &str = "//! | file | what |";

/// Where a module's table and its folder disagree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableMismatch {
    /// The module file holding the table (relative to the root given).
    pub module: PathBuf,
    /// Rows naming no file of the folder.
    pub stale: Vec<String>,
    /// Files of the folder without a row.
    pub unlisted: Vec<String>,
}

impl fmt::Display for TableMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: rows for no file: {:?}; files without a row: {:?}",
            self.module.display(),
            self.stale,
            self.unlisted
        )
    }
}

/// The names in the first column of `text`'s layout table, or `None` when
/// it has none.
pub fn table_names(text: &str) -> Option<BTreeSet<String>> {
    let mut lines = text.lines().skip_while(|line| line.trim_end() != HEADER);
    lines.next()?;
    let names = lines
        .skip(1) // |---|---|
        .take_while(|line| line.starts_with("//! |"))
        .filter_map(|line| {
            let cell = line.trim_start_matches("//! |").split('|').next()?.trim();
            Some(cell.trim_matches('`').to_string())
        })
        .collect();
    Some(names)
}

/// What the table of `module` (an absolute path) should list: for `mod.rs`,
/// its folder's entries; for `y.rs`, `y.rs` and `y/`'s entries prefixed.
pub fn folder_names(module: &Path) -> Result<BTreeSet<String>, LayersError> {
    let parent = module.parent().unwrap_or(Path::new(""));
    if module.file_name().is_some_and(|name| name == "mod.rs") {
        return entries(parent, "");
    }
    let stem = module
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut names = entries(&parent.join(&stem), &format!("{stem}/"))?;
    names.insert(format!("{stem}.rs"));
    Ok(names)
}

/// The `.rs` files of `dir` and its folders (`name/`) that no `name.rs`
/// beside them owns, each after `prefix`.
fn entries(dir: &Path, prefix: &str) -> Result<BTreeSet<String>, LayersError> {
    let read = std::fs::read_dir(dir).map_err(|source| LayersError::Read {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut files = BTreeSet::new();
    let mut folders = BTreeSet::new();
    for entry in read.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
            folders.insert(name);
        } else if name.ends_with(".rs") {
            files.insert(name);
        }
    }
    let owned = |folder: &String| files.contains(&format!("{folder}.rs"));
    let unowned: Vec<String> = folders
        .iter()
        .filter(|folder| !owned(folder))
        .map(|folder| format!("{folder}/"))
        .collect();
    Ok(files
        .iter()
        .cloned()
        .chain(unowned)
        .map(|name| format!("{prefix}{name}"))
        .collect())
}

/// The modules among `files` (relative to `root`) whose layout table and
/// folder disagree.
pub fn mismatches(root: &Path, files: &[PathBuf]) -> Result<Vec<TableMismatch>, LayersError> {
    let mut found = Vec::new();
    for file in files {
        let path = root.join(file);
        let text = std::fs::read_to_string(&path).map_err(|source| LayersError::Read {
            path: path.clone(),
            source,
        })?;
        let Some(listed) = table_names(&text) else {
            continue;
        };
        let present = folder_names(&path)?;
        let stale: Vec<String> = listed.difference(&present).cloned().collect();
        let unlisted: Vec<String> = present.difference(&listed).cloned().collect();
        if !stale.is_empty() || !unlisted.is_empty() {
            found.push(TableMismatch {
                module: file.clone(),
                stale,
                unlisted,
            });
        }
    }
    Ok(found)
}
