//! The floors inside `passes/src` (docs/architecture.md, "Inside
//! `passes/src`, bottom first"): each file stands on a floor, and a file
//! imports only files of its own floor or below. The verifier, for one,
//! stands below the pipeliner, so it can read the loop analysis from `plan/`
//! but never the rewrite.
//!
//! [`FLOORS`] places every file by its path; the first entry that matches
//! wins, so a file placed apart from its folder comes before the folder.

use std::{fmt, path::Path};

use crate::Arrow;

/// The folder the table speaks of.
pub const PASSES: &str = "passes/src";

/// (path under `passes/src`, floor): a file, or a folder ending in `/`.
pub const FLOORS: &[(&str, u8)] = &[
    // 0: memos and options, which read nothing of the passes.
    ("scoped_memo.rs", 0),
    ("options.rs", 0),
    ("external.rs", 0),
    ("context.rs", 0),
    ("run_cache/attributes.rs", 0),
    ("run_cache/memref_strides.rs", 0),
    ("run_cache/spelling.rs", 0),
    // 1: the IR kit.
    ("ir/", 1),
    // 2: which chip; diagnostics; what a memref type says (read by the
    // manifest as well as the plans).
    ("target.rs", 2),
    ("target/", 2),
    ("diagnostics/", 2),
    ("run_cache/mod.rs", 2),
    ("module_threads.rs", 2),
    ("plan/memref_layout.rs", 2),
    // 3: the manifest read from IR.
    ("manifest/params.rs", 7),
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
    // 8: the emit preparation; 9: the pass list; 10: the emit route.
    ("emit/route.rs", 10),
    ("emit/emit_modules.rs", 10),
    ("emit/mod.rs", 10),
    ("emit/", 8),
    ("registry.rs", 9),
    ("pass_pipeline.rs", 9),
    ("lib.rs", 11),
    ("dialect_doc_tests.rs", 11),
];

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
