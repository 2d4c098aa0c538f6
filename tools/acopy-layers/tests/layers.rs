//! This repository against its layers (README, "Layout"; docs/architecture.md): no
//! import circle among the source files of any crate, and no top-level
//! folder that imports a folder above it or beside it.

use std::{
    path::{Path, PathBuf},
    sync::OnceLock,
};

use acopy_layers::{check, file_names, layout_tables, lengths, passes_floors, Circle, Report};

/// Circles that exist today and are being removed, each as the files of its
/// component. It only shrinks: a circle not listed fails the test, and so
/// does an entry whose circle is gone (delete the entry then). Empty it, and
/// keep it empty.
const KNOWN_CIRCLES: &[&[&str]] = &[];

/// The repository's report, read once for all the tests here.
fn report() -> &'static Report {
    static REPORT: OnceLock<Report> = OnceLock::new();
    REPORT.get_or_init(|| {
        check(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")).expect("the tree reads")
    })
}

fn listed(circle: &Circle, entry: &[&str]) -> bool {
    circle
        .files
        .iter()
        .all(|file| entry.iter().any(|listed| Path::new(listed) == file))
}

#[test]
fn no_import_circles_beyond_the_known_ones() {
    let report = report();
    let new: Vec<String> = report
        .circles
        .iter()
        .filter(|circle| !KNOWN_CIRCLES.iter().any(|entry| listed(circle, entry)))
        .map(|circle| circle.to_string())
        .collect();
    let gone: Vec<String> = KNOWN_CIRCLES
        .iter()
        .filter(|entry| !report.circles.iter().any(|circle| listed(circle, entry)))
        .map(|entry| entry.join(", "))
        .collect();
    assert!(
        new.is_empty() && gone.is_empty(),
        "import circles not allowed:\n{}\nKNOWN_CIRCLES entries whose circle is gone (remove them):\n{}",
        new.join("\n"),
        gone.join("\n")
    );
}

#[test]
fn every_folder_imports_only_folders_below_it() {
    let report = report();
    let upward: Vec<String> = report
        .upward
        .iter()
        .map(|arrow| arrow.to_string())
        .collect();
    assert!(upward.is_empty(), "upward arrows:\n{}", upward.join("\n"));
    assert!(
        report.unplaced.is_empty(),
        "folders with crates that acopy_layers::folders::LAYERS does not place: {:?}",
        report.unplaced
    );
}

#[test]
fn the_check_reads_the_whole_tree() {
    let report = report();
    // The layers the check promises to cover, each with files and arrows.
    for folder in [
        "passes/src",
        "runtime/src",
        "tools/acopy-opt/src",
        "tools/acopy-fuzz/src",
    ] {
        assert!(
            report.files.iter().any(|file| file.starts_with(folder)),
            "no files read under {folder}"
        );
        assert!(
            report
                .arrows
                .iter()
                .any(|arrow| arrow.from.starts_with(folder)),
            "no arrows read under {folder}"
        );
    }
    // The GPU suite's modules come in through `#[path]`.
    assert!(report
        .files
        .contains(&PathBuf::from("runtime/src/bin/acopy-gpu-suite/cases.rs")));
}

/// Functions read as steps: no function (unit tests aside) in the folders
/// of `lengths::LIMITED` (the passes, the dialect, the runtime with its
/// binaries, the Python package, every crate of `crates/`) is over
/// `lengths::LIMIT` (80) lines.
#[test]
fn no_function_of_the_limited_folders_is_over_80_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let report = report();
    // Each folder the limit promises to cover was read, so that a folder
    // the crate walk stopped reaching cannot pass as a short one.
    for (folder, least) in [
        ("passes/src", 50),
        ("dialect/src", 5),
        ("runtime/src", 5),
        ("runtime/src/bin", 3),
        ("python/src", 2),
        ("crates/acopy-target/src", 1),
        ("crates/acopy-manifest/src", 1),
        ("crates/acopy-expect/src", 1),
    ] {
        let read = report
            .files
            .iter()
            .filter(|file| file.starts_with(folder) && lengths::is_limited(file))
            .count();
        assert!(
            read >= least,
            "{read} files of {folder} were checked, expected at least {least}"
        );
    }
    let long: Vec<String> = lengths::over_the_limit(&root, &report.files)
        .expect("the files read")
        .iter()
        .map(|function| function.to_string())
        .collect();
    assert!(
        long.is_empty(),
        "{} functions over {} lines; split each into a plan and named steps:\n{}",
        long.len(),
        lengths::LIMIT,
        long.join("\n")
    );
}

/// A file's name says what it holds, and one name is one file of the passes
/// (`mod.rs` and `tests.rs` aside), so that docs and reports that name a
/// file are not ambiguous.
#[test]
fn no_two_files_of_the_passes_share_a_name() {
    let shared: Vec<String> = file_names::shared_names(&report().files, "passes/src")
        .iter()
        .map(|name| name.to_string())
        .collect();
    assert!(
        shared.is_empty(),
        "file names used twice in passes/src (rename one to say what it holds):\n{}",
        shared.join("\n")
    );
}

/// Each module doc's layout table (`| file | what |`) lists its folder as it
/// is: no row for a file that is gone, no file without a row.
#[test]
fn every_layout_table_lists_its_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let checked = layout_tables::check_tables(&root, &report().files).expect("the files read");
    // passes/src/plan/mod.rs, plan/loops/mod.rs and lower/tma.rs at least.
    assert!(
        checked.tables.len() >= 3,
        "only {} layout tables read: {:?}",
        checked.tables.len(),
        checked.tables
    );
    let wrong: Vec<String> = checked
        .mismatches
        .iter()
        .map(|mismatch| mismatch.to_string())
        .collect();
    assert!(
        wrong.is_empty(),
        "layout tables out of step with their folders:\n{}",
        wrong.join("\n")
    );
}

/// Inside the passes, a file imports only its floor and below
/// (`passes_floors::FLOORS`, docs/architecture.md): `verify/` reads the loop
/// analysis in `plan/`, never the pipeliner, and `plan/` imports no pass.
#[test]
fn every_file_of_the_passes_has_a_floor_and_imports_none_above_it() {
    let report = report();
    let passes: Vec<&PathBuf> = report
        .files
        .iter()
        .filter(|file| file.starts_with(passes_floors::PASSES))
        .collect();
    assert!(
        passes.len() > 50,
        "only {} files of the passes read",
        passes.len()
    );
    let apart = passes_floors::files_placed_apart(passes_floors::FLOORS);
    assert!(
        apart.is_empty(),
        "passes_floors::FLOORS places by folder only (a folder is one floor):\n{}",
        apart.join("\n")
    );
    let unplaced: Vec<&&PathBuf> = passes
        .iter()
        .filter(|file| passes_floors::floor(file).is_none())
        .collect();
    assert!(
        unplaced.is_empty(),
        "files of passes/src that passes_floors::FLOORS does not place: {unplaced:?}"
    );
    let upward: Vec<String> = passes_floors::upward(&report.arrows)
        .iter()
        .map(|import| import.to_string())
        .collect();
    assert!(
        upward.is_empty(),
        "imports up a floor inside passes/src (move the shared code down, or the file up):\n{}",
        upward.join("\n")
    );
}

/// No op name is spelled as a string literal in the non-test code of
/// `passes/src` outside the op-name table (`passes/src/ir/op_names.rs`): a
/// new one fails the test (add the op to the table and match it with
/// `ir::is`).
#[test]
fn op_names_are_spelled_in_the_table_only() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    if let Err(error) = acopy_layers::op_name_literals::check(&root, &report().files, "passes/src")
    {
        panic!("{error}");
    }
}
