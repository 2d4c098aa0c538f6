//! The docs against the tree: every file path a doc names exists
//! (`acopy_layers::doc_paths`), every module path a doc names leads to a
//! module or item of the sources (`acopy_layers::doc_modules`), and each
//! check finds what is planted stale.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

use acopy_layers::{
    doc_modules::{stale_modules, Sources},
    doc_paths::{stale_paths, tree_files},
};

/// Logs: each entry names the files of its day's commit, and stays as
/// written (the results part of `docs/testing.md` is one too, cut out by
/// [`without_logs`]).
const LOGS: &[&str] = &["bench/RESULTS.md"];

/// The docs a newcomer reads for the layout: every Markdown file at most
/// three folders deep (`tests/gpu/README.md`; deeper ones belong to what a
/// run or an install put in the tree), but the logs, the per-run results
/// under `bench/results/` and the fuzzer's findings.
fn docs(files: &[PathBuf]) -> Vec<&PathBuf> {
    files
        .iter()
        .filter(|file| file.extension().is_some_and(|ending| ending == "md"))
        .filter(|file| file.components().count() <= 3)
        .filter(|file| !file.starts_with("bench/results") && !file.starts_with("fuzz"))
        .filter(|file| !LOGS.iter().any(|log| file.as_path() == Path::new(log)))
        .collect()
}

/// Files a run writes, named in the docs as where to find them.
const WRITTEN_BY_RUNS: &[&str] = &[
    "target/robustness/case-N.mlir",
    "fuzz/crashes/SEED-CASE.mlir",
    ".device/tiles-build/census.md",
    // bench/tc_sweep_prepare.sh and bench/tc_sweep.py (bench/README.md, the sweep).
    "target/tc-sweep/index.json",
    "gemm-sweep.json",
    "attention-sweep.json",
    "gemm-choices.json",
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
    let docs = docs(&files);
    // The docs the README and docs/architecture.md send a newcomer to are read.
    for doc in [
        "README.md",
        "docs/architecture.md",
        "docs/verification.md",
        "docs/pipelining.md",
        "bench/README.md",
        "tests/gpu/README.md",
        "crates/acopy-manifest/README.md",
        "bench/upstream_pipeline/README.md",
    ] {
        assert!(docs.contains(&&PathBuf::from(doc)), "{doc} is not checked");
    }
    assert!(docs.len() >= 17, "only {} docs read: {docs:?}", docs.len());
    let mut stale = Vec::new();
    for doc in docs {
        let text = std::fs::read_to_string(root.join(doc)).expect("the doc reads");
        let doc_name = doc.to_string_lossy();
        stale.extend(
            stale_paths(doc, &without_logs(&text), &files)
                .into_iter()
                .filter(|found| !WRITTEN_BY_RUNS.contains(&found.path.as_str()))
                .filter(|found| !FORMER_FILES.contains(&(doc_name.as_ref(), found.path.as_str())))
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

#[test]
fn every_module_the_docs_name_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let files = tree_files(&root).expect("the tree reads");
    let sources = Sources::read(&root, &files).expect("the sources read");
    assert!(
        sources.crates.contains_key("acopy_passes") && sources.files.len() > 200,
        "the sources were not read: {:?}",
        sources.crates
    );
    let mut stale = Vec::new();
    for doc in docs(&files) {
        let text = std::fs::read_to_string(root.join(doc)).expect("the doc reads");
        stale.extend(
            stale_modules(doc, &without_logs(&text), &sources)
                .into_iter()
                .map(|found| found.to_string()),
        );
    }
    assert!(
        stale.is_empty(),
        "docs name modules that do not exist (rename them in the doc too):\n{}",
        stale.join("\n")
    );
}

#[test]
fn a_planted_stale_module_is_found_and_live_ones_are_not() {
    let files: BTreeMap<PathBuf, String> = [
        ("passes/src/lib.rs", "pub mod plan;\npub mod lower;\n"),
        (
            "passes/src/plan/mod.rs",
            "pub mod loops;\npub use copy::CopyPlan;\n",
        ),
        ("passes/src/plan/loops/mod.rs", "pub enum Broken {}\n"),
        (
            "passes/src/plan/loops/warp.rs",
            "pub fn analyze() {}\n#[cfg(test)]\nmod tests {}\n",
        ),
        ("passes/src/lower/mod.rs", "mod cp_async;\n"),
        (
            "passes/src/lower/cp_async.rs",
            "// fn gone() {}\npub(crate) fn lower() {}\n",
        ),
    ]
    .into_iter()
    .map(|(path, text)| (PathBuf::from(path), text.to_string()))
    .collect();
    let crates = BTreeMap::from([
        (
            "acopy_passes".to_string(),
            PathBuf::from("passes/src/lib.rs"),
        ),
        ("acopy".to_string(), PathBuf::from("facade/src/lib.rs")),
    ]);
    let mut sources = Sources { files, crates };
    sources.files.insert(
        PathBuf::from("facade/src/lib.rs"),
        "pub use acopy_passes as passes;\n".to_string(),
    );
    sources.add_aliases();
    let text = "Live: `plan::loops::warp`, `lower::cp_async::lower()`, `acopy_passes::plan::CopyPlan`,\n\
                `plan::loops::Broken`, `crate::plan::loops`, `warp::tests::a_case`, `passes::plan::loops`.\n\
                Stale: `plan::maps`, `lower::cp_async::gone`, `acopy_passes::per_module`, `lower::tma`.\n\
                Not read: `Chip::has`, `std::fs`, `i64::MAX`, `cta_group::2`, `shared::cluster`, `a.b`, `plan`.\n";
    let stale = stale_modules(Path::new("doc.md"), text, &sources);
    let found: Vec<(usize, &str)> = stale
        .iter()
        .map(|module| (module.line, module.path.as_str()))
        .collect();
    assert_eq!(
        found,
        vec![
            (3, "plan::maps"),
            (3, "lower::cp_async::gone"),
            (3, "acopy_passes::per_module"),
            (3, "lower::tma")
        ]
    );
    assert_eq!(
        stale[0].to_string(),
        "doc.md:3: `plan::maps` is no module or item of the sources"
    );
}
