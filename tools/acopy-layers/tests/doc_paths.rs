//! The docs against the tree: every file path a doc names exists
//! (`acopy_layers::doc_paths`), and the check finds a path planted stale.

use std::path::{Path, PathBuf};

use acopy_layers::doc_paths::{stale_paths, tree_files};

/// The docs a newcomer reads for the layout. `bench/RESULTS.md` and the
/// results part of `docs/testing.md` are logs: each entry names the files of
/// its day's commit, and stays as written.
const DOCS: &[&str] = &[
    "README.md",
    "bench/README.md",
    "bench/upstream_pipeline/README.md",
    "crates/acopy-manifest/README.md",
    "docs/architecture.md",
    "docs/dialect.md",
    "docs/embedding.md",
    "docs/kernel-abi.md",
    "docs/lowering-cp-async.md",
    "docs/lowering-tma.md",
    "docs/pipelining.md",
    "docs/robustness.md",
    "docs/testing.md",
    "docs/verification.md",
    "python/README.md",
    "runtime/README.md",
    "tests/gpu/README.md",
];

/// Files a run writes, named in the docs as where to find them.
const WRITTEN_BY_RUNS: &[&str] = &[
    "target/robustness/case-N.mlir",
    "fuzz/crashes/SEED-CASE.mlir",
    ".device/tiles-build/census.md",
];

/// Files a doc names as history, saying what they became.
const FORMER_FILES: &[(&str, &str)] = &[(
    "docs/testing.md",
    "tests/dialect/invalid-irdl.mlir", // "that file became tests/dialect/invalid-ods.mlir"
)];

/// `text` without its logs: from a `### Results` heading to the next `## `
/// heading, the mutation runs of past commits.
fn without_logs(text: &str) -> String {
    let mut in_log = false;
    text.lines()
        .map(|line| {
            if line.starts_with("### Results") {
                in_log = true;
            } else if line.starts_with("## ") {
                in_log = false;
            }
            // Blank lines keep the line numbers of what is checked.
            if in_log {
                ""
            } else {
                line
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_file_the_docs_name_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let files = tree_files(&root).expect("the tree reads");
    let mut stale = Vec::new();
    for doc in DOCS {
        let text = std::fs::read_to_string(root.join(doc)).expect("the doc reads");
        stale.extend(
            stale_paths(Path::new(doc), &without_logs(&text), &files)
                .into_iter()
                .filter(|found| !WRITTEN_BY_RUNS.contains(&found.path.as_str()))
                .filter(|found| !FORMER_FILES.contains(&(doc, found.path.as_str())))
                .map(|found| found.to_string()),
        );
    }
    assert!(
        stale.is_empty(),
        "docs name files that do not exist (rename them in the doc too):\n{}",
        stale.join("\n")
    );
}

#[test]
fn every_doc_of_the_tree_is_checked_or_a_log() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let logs = ["bench/RESULTS.md"];
    let unchecked: Vec<PathBuf> = tree_files(&root)
        .expect("the tree reads")
        .into_iter()
        .filter(|file| file.extension().is_some_and(|ending| ending == "md"))
        // The project's docs sit at most three folders deep (tests/gpu/README.md);
        // deeper ones belong to what a run or an install put in the tree.
        .filter(|file| file.components().count() <= 3)
        .filter(|file| !file.starts_with("bench/results") && !file.starts_with("fuzz"))
        .filter(|file| {
            let name = file.to_string_lossy();
            !DOCS.contains(&name.as_ref()) && !logs.contains(&name.as_ref())
        })
        .collect();
    assert!(
        unchecked.is_empty(),
        "docs the path check does not read (add them to DOCS): {unchecked:?}"
    );
}

#[test]
fn a_planted_stale_path_is_found_and_live_ones_are_not() {
    let files: Vec<PathBuf> = ["passes/src/plan/chunk.rs", "docs/dialect.md"]
        .iter()
        .map(PathBuf::from)
        .collect();
    let text = "The rows are in `passes/src/plan/chunk.rs` (`plan/chunk.rs`, `chunk.rs`),\n\
                see `docs/dialect.md`; not `lower/memref.rs` nor `plan/hunk.rs`.\n\
                Code spans that are no paths: `a.b()`, `memref<4xf32>`, `x = 1`, `.rs`.\n";
    let stale = stale_paths(Path::new("doc.md"), text, &files);
    let found: Vec<(usize, &str)> = stale
        .iter()
        .map(|path| (path.line, path.path.as_str()))
        .collect();
    assert_eq!(found, vec![(2, "lower/memref.rs"), (2, "plan/hunk.rs")]);
    assert_eq!(
        stale[0].to_string(),
        "doc.md:2: `lower/memref.rs` is no file of the tree"
    );
}
