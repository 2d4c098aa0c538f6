//! The floors inside `passes/src` (docs/architecture.md, "Inside
//! `passes/src`, bottom first"): each file stands on a floor, and a file
//! imports only files of its own floor or below. The verifier, for one,
//! stands below the pipeliner, so it can read the loop analysis from `plan/`
//! but never the rewrite.
//!
//! [`FLOORS`] places every file by its folder: a folder of `passes/src` is
//! one floor with all its files (sub-folders included), and a file at the
//! top of `passes/src` is its own room, on the floor of its module's folder
//! when it has one (`target.rs` with `target/`). No entry names a file inside
//! a folder ([`files_placed_apart`] finds one), so the folders a reader sees
//! are the floors.

use std::{fmt, path::Path};

use crate::Arrow;

/// The folder the table speaks of.
pub const PASSES: &str = "passes/src";

/// (path under `passes/src`, floor): a folder ending in `/`, or a file at
/// the top of `passes/src`.
pub const FLOORS: &[(&str, u8)] = &[
    // 0: memos and options, which read nothing of the passes.
    ("scoped_memo.rs", 0),
    ("options.rs", 0),
    ("external.rs", 0),
    ("context.rs", 0),
    ("run_cache/", 0),
    // 1: the IR kit (what a memref type says included).
    ("ir/", 1),
    // 2: which chip, and the scope of every run-long memo; diagnostics; one
    // gpu.module per thread.
    ("target.rs", 2),
    ("target/", 2),
    ("diagnostics/", 2),
    ("module_threads.rs", 2),
    // 3: the manifest read from IR, and acopy-tensor-map-params.
    ("manifest.rs", 3),
    ("manifest/", 3),
    // 4: the analysis layer.
    ("plan/", 4),
    // 5: verification.
    ("raise_alignment.rs", 5),
    ("verify/", 5),
    // 6: the loop rewrite.
    ("pipeliner/", 6),
    // 7: lowering.
    ("static_shared.rs", 7),
    ("static_shared/", 7),
    ("lower/", 7),
    // 8: the emit preparation and reading the outputs.
    ("prepare_emit/", 8),
    // 9: the pass list; 10: the pipeline parser; 11: the emit route.
    ("registry.rs", 9),
    ("pass_pipeline.rs", 10),
    ("emit/", 11),
    ("lib.rs", 12),
    ("dialect_doc_tests.rs", 12),
];

/// The entries of `floors` that place a file apart from its folder (a path
/// with a `/` that is not a folder), and the top-level files whose module
/// folder stands on another floor (`target.rs` and `target/`).
pub fn files_placed_apart(floors: &[(&str, u8)]) -> Vec<String> {
    let mut found = Vec::new();
    for &(path, floor) in floors {
        if path.contains('/') && !(path.ends_with('/') && path.matches('/').count() == 1) {
            found.push(format!("{path} (a file or folder inside a folder)"));
        }
        if let Some(stem) = path.strip_suffix(".rs") {
            let folder = format!("{stem}/");
            if let Some(&(_, other)) = floors.iter().find(|(p, _)| *p == folder) {
                if other != floor {
                    found.push(format!(
                        "{path} (floor {floor}) and {folder} (floor {other})"
                    ));
                }
            }
        }
    }
    found
}

/// The floor of `file` (relative to the repository root), or `None` for a
/// file outside `passes/src` or one [`FLOORS`] does not place.
pub fn floor(file: &Path) -> Option<u8> {
    let inner = file.strip_prefix(PASSES).ok()?;
    let inner = inner.to_string_lossy();
    FLOORS.iter().find_map(|&(path, floor)| {
        let placed = if path.ends_with('/') {
            inner.starts_with(path)
        } else {
            inner == path
        };
        placed.then_some(floor)
    })
}

/// An import from a file to a file on a higher floor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpwardImport {
    pub arrow: Arrow,
    pub from_floor: u8,
    pub to_floor: u8,
}

impl fmt::Display for UpwardImport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (floor {}) imports {} (floor {}) through `{}`",
            self.arrow.from.display(),
            self.from_floor,
            self.arrow.to.display(),
            self.to_floor,
            self.arrow.because
        )
    }
}

/// The arrows between placed files of `passes/src` that go up a floor.
pub fn upward(arrows: &[Arrow]) -> Vec<UpwardImport> {
    arrows
        .iter()
        .filter_map(|arrow| {
            let from_floor = floor(&arrow.from)?;
            let to_floor = floor(&arrow.to)?;
            (to_floor > from_floor).then(|| UpwardImport {
                arrow: arrow.clone(),
                from_floor,
                to_floor,
            })
        })
        .collect()
}
