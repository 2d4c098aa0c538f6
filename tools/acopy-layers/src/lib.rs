//! The layering check (README, "Layout"; docs/architecture.md): no import circles
//! among the source files of any crate in the workspace, and every top-level
//! folder imports only the folders below it ([`folders::LAYERS`]).
//!
//! `tests/layers.rs` runs [`check`] over this repository in `cargo test`;
//! `tests/planted.rs` runs it over small planted trees, so that a check which
//! finds nothing cannot pass for one that works.
//!
//! - `modules`: one crate target's module tree and its file-level arrows;
//! - `graph`: the circles among those arrows;
//! - `folders`: the top-level folders' arrows, from the manifests;
//! - `lengths`: functions over a length limit (the passes, the dialect, the
//!   runtime, the Python package and `crates/` keep theirs under 80 lines);
//! - `file_names`: file names shared by two files of one folder tree (none in
//!   `passes/src`);
//! - `doc_paths`: file paths in the docs that name no file of the tree;
//! - `doc_modules`: module paths in the docs (`plan::loops::warp`) that lead
//!   to no module or item of the sources;
//! - `layout_tables`: module docs whose file table and folder disagree;
//! - `passes_floors`: the floors inside `passes/src`, and imports that go up one;
//! - `op_name_literals`: op names spelled as strings outside the passes' op-name table;
//! - `tree`: reading files and folders, each failure naming its path;
//! - `error`: why a tree could not be read.

pub mod doc_modules;
pub mod doc_paths;
mod error;
pub mod file_names;
pub mod folders;
pub mod graph;
pub mod layout_tables;
pub mod lengths;
pub mod modules;
pub mod op_name_literals;
pub mod passes_floors;
mod tree;

use std::path::{Path, PathBuf};

pub use error::LayersError;
pub use folders::FolderArrow;
pub use graph::Circle;
pub use lengths::LongFunction;
pub use modules::Arrow;

/// What [`check`] found.
#[derive(Debug, Default)]
pub struct Report {
    /// The crates read (their folders, relative to the root).
    pub crates: Vec<PathBuf>,
    /// Every source file reached from a crate root.
    pub files: Vec<PathBuf>,
    pub arrows: Vec<Arrow>,
    pub circles: Vec<Circle>,
    /// Dependencies on a folder that is not below the depending one.
    pub upward: Vec<FolderArrow>,
    /// Folders with crates that the layer table does not place.
    pub unplaced: Vec<String>,
}

/// Reads every crate under `root` (a `Cargo.toml` in a top-level folder or
/// one below it; `target/` and hidden folders are skipped) and checks them.
/// Paths in the report are relative to `root`.
pub fn check(root: &Path) -> Result<Report, LayersError> {
    let mut report = Report::default();
    for manifest in manifests(root)? {
        let crate_dir = manifest.parent().unwrap_or(Path::new("")).to_path_buf();
        let Some(folder) = folders::top_folder(&crate_dir) else {
            continue;
        };
        match folders::allowed(&folder) {
            None => {
                if !report.unplaced.contains(&folder) {
                    report.unplaced.push(folder.clone());
                }
            }
            Some(allowed) => {
                for (dependency, path) in folders::path_dependencies(root, &manifest)? {
                    let Some(to) = folders::top_folder(&path) else {
                        continue;
                    };
                    if !allowed.contains(&to.as_str()) {
                        report.upward.push(FolderArrow {
                            manifest: manifest.clone(),
                            dependency,
                            from: folder.clone(),
                            to,
                        });
                    }
                }
            }
        }
        for crate_root in crate_roots(root, &crate_dir) {
            let graph = modules::crate_graph(&root.join(&crate_root))?;
            for file in graph.files {
                let relative = relative_to(root, &file);
                if !report.files.contains(&relative) {
                    report.files.push(relative);
                }
            }
            for arrow in graph.arrows {
                let arrow = Arrow {
                    from: relative_to(root, &arrow.from),
                    to: relative_to(root, &arrow.to),
                    because: arrow.because,
                };
                if !report
                    .arrows
                    .iter()
                    .any(|a| a.from == arrow.from && a.to == arrow.to)
                {
                    report.arrows.push(arrow);
                }
            }
        }
        report.crates.push(crate_dir);
    }
    report.circles = graph::circles(&report.arrows);
    Ok(report)
}

fn relative_to(root: &Path, path: &Path) -> PathBuf {
    path.strip_prefix(root).unwrap_or(path).to_path_buf()
}

/// `Cargo.toml`s one or two folders down from `root`, sorted.
fn manifests(root: &Path) -> Result<Vec<PathBuf>, LayersError> {
    let mut found = Vec::new();
    for top in sub_folders(root)? {
        for dir in std::iter::once(top.clone()).chain(
            sub_folders(&root.join(&top))?
                .into_iter()
                .map(|d| top.join(d)),
        ) {
            if root.join(&dir).join("Cargo.toml").is_file() {
                found.push(dir.join("Cargo.toml"));
            }
        }
    }
    found.sort();
    Ok(found)
}

/// The folders in `dir` (names only), without `target` and hidden ones.
fn sub_folders(dir: &Path) -> Result<Vec<PathBuf>, LayersError> {
    Ok(tree::visible_entries(dir)?
        .into_iter()
        .filter(|entry| entry.is_dir && entry.name != "target")
        .map(|entry| PathBuf::from(entry.name))
        .collect())
}

/// A crate's library and binary roots (`src/lib.rs`, `src/main.rs`,
/// `src/bin/*.rs`, `src/bin/*/main.rs`), relative to `root`. Tests, examples,
/// benches and build scripts are their own crates above the library.
fn crate_roots(root: &Path, crate_dir: &Path) -> Vec<PathBuf> {
    let src = crate_dir.join("src");
    let mut roots: Vec<PathBuf> = ["lib.rs", "main.rs"]
        .iter()
        .map(|name| src.join(name))
        .filter(|path| root.join(path).is_file())
        .collect();
    if let Ok(entries) = std::fs::read_dir(root.join(src.join("bin"))) {
        let mut bins: Vec<PathBuf> = entries
            .flatten()
            .filter_map(|entry| {
                let path = src.join("bin").join(entry.file_name());
                if path.extension().is_some_and(|e| e == "rs") && root.join(&path).is_file() {
                    Some(path)
                } else if root.join(path.join("main.rs")).is_file() {
                    Some(path.join("main.rs"))
                } else {
                    None
                }
            })
            .collect();
        bins.sort();
        roots.extend(bins);
    }
    roots
}
