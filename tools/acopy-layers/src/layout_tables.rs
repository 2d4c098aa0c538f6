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
    let entries = crate::tree::visible_entries(dir)?;
    let owned = |folder: &str| {
        entries
            .iter()
            .any(|entry| !entry.is_dir && entry.name == format!("{folder}.rs"))
    };
    Ok(entries
        .iter()
        .filter_map(|entry| match entry.is_dir {
            false if entry.name.ends_with(".rs") => Some(entry.name.clone()),
            true if !owned(&entry.name) => Some(format!("{}/", entry.name)),
            _ => None,
        })
        .map(|name| format!("{prefix}{name}"))
        .collect())
}

/// What [`check_tables`] read and found.
#[derive(Debug, Default)]
pub struct TablesReport {
    /// The module files that hold a layout table.
    pub tables: Vec<PathBuf>,
    /// Those whose table and folder disagree.
    pub mismatches: Vec<TableMismatch>,
}

/// Reads the layout table of each of `files` (relative to `root`) that has
/// one, and compares it with its folder.
pub fn check_tables(root: &Path, files: &[PathBuf]) -> Result<TablesReport, LayersError> {
    let mut report = TablesReport::default();
    for file in files {
        let path = root.join(file);
        let Some(listed) = table_names(&crate::tree::read_text(&path)?) else {
            continue;
        };
        report.tables.push(file.clone());
        let present = folder_names(&path)?;
        let stale: Vec<String> = listed.difference(&present).cloned().collect();
        let unlisted: Vec<String> = present.difference(&listed).cloned().collect();
        if !stale.is_empty() || !unlisted.is_empty() {
            report.mismatches.push(TableMismatch {
                module: file.clone(),
                stale,
                unlisted,
            });
        }
    }
    Ok(report)
}
