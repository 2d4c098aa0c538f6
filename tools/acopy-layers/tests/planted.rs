//! The check on small planted trees: it finds what was planted, names the
//! files and the paths that close each circle, and leaves alone what is not
//! a circle (re-exports, tests, modules named but not used).

use std::path::{Path, PathBuf};

use acopy_layers::check;

/// Writes `files` (path, text) under a fresh folder.
fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

const WORKSPACE: (&str, &str) = (
    "Cargo.toml",
    "[workspace]\nmembers = [\"passes\"]\n[workspace.dependencies]\nacopy-dialect = { path = \"dialect\" }\n",
);
const PASSES: (&str, &str) = ("passes/Cargo.toml", "[package]\nname = \"p\"\n");

fn circle_files(root: &Path) -> Vec<Vec<PathBuf>> {
    check(root)
        .expect("reads")
        .circles
        .into_iter()
        .map(|circle| circle.files)
        .collect()
}

#[test]
fn a_planted_circle_is_found_and_named() {
    let dir = tree(&[
        WORKSPACE,
        PASSES,
        (
            "passes/src/lib.rs",
            "mod a;\nmod b;\nmod c;\nmod d;\nmod e;\n",
        ),
        (
            "passes/src/a.rs",
            "use crate::b::helper;\npub fn start() { helper() }\n",
        ),
        // The arrow back hides in a macro's arguments.
        (
            "passes/src/b.rs",
            "pub fn helper() { println!(\"{}\", crate::a::start as usize) }\n",
        ),
        ("passes/src/c.rs", "pub fn leaf() { crate::a::start() }\n"),
        // A `use` inside a function, and the path through the module it names.
        (
            "passes/src/d.rs",
            "pub fn late() { use crate::e; e::f() }\n",
        ),
        (
            "passes/src/e.rs",
            "pub fn f() { use crate::d::late; late() }\n",
        ),
    ]);
    let report = check(dir.path()).expect("reads");
    assert_eq!(report.circles.len(), 2, "{:?}", report.circles);
    assert_eq!(
        report.circles[1].files,
        [
            PathBuf::from("passes/src/d.rs"),
            PathBuf::from("passes/src/e.rs")
        ]
    );
    let circle = &report.circles[0];
    assert_eq!(
        circle.files,
        [
            PathBuf::from("passes/src/a.rs"),
            PathBuf::from("passes/src/b.rs")
        ]
    );
    let shown = circle.to_string();
    assert!(
        shown.contains("passes/src/a.rs -> passes/src/b.rs  (`crate::b::helper`)"),
        "{shown}"
    );
    assert!(
        shown.contains("passes/src/b.rs -> passes/src/a.rs  (`crate::a::start`)"),
        "{shown}"
    );
}

#[test]
fn a_longer_circle_through_folders_super_and_an_alias_is_found() {
    let dir = tree(&[
        WORKSPACE,
        PASSES,
        ("passes/src/lib.rs", "pub mod lower;\npub mod verify;\n"),
        ("passes/src/lower/mod.rs", "pub mod tma;\n"),
        // `use crate::lower` names no item; the path through it does.
        (
            "passes/src/lower/tma.rs",
            "mod maps;\npub fn lower() { maps::key() }\n",
        ),
        (
            "passes/src/lower/tma/maps.rs",
            "use crate::verify as checks;\npub fn key() { checks::rules::first(); }\n",
        ),
        ("passes/src/verify/mod.rs", "pub mod rules;\n"),
        (
            "passes/src/verify/rules.rs",
            "use super::super::lower;\npub fn first() { lower::tma::lower() }\n",
        ),
    ]);
    assert_eq!(
        circle_files(dir.path()),
        [[
            "passes/src/lower/tma/maps.rs",
            "passes/src/lower/tma.rs",
            "passes/src/verify/rules.rs"
        ]
        .map(PathBuf::from)
        .to_vec()]
    );
}

#[test]
fn re_exports_tests_and_module_names_draw_no_circle() {
    let dir = tree(&[
        WORKSPACE,
        PASSES,
        (
            "passes/src/lib.rs",
            "pub mod verify;\n#[cfg(test)]\nmod tests;\n",
        ),
        // The parent re-exports a child's item and uses a sibling; the child
        // takes the re-exported name through `super`: its arrow goes to the
        // file that defines it, not to the parent.
        (
            "passes/src/verify/mod.rs",
            "mod facts;\nmod rules;\npub use facts::Ctx;\npub fn run() { rules::first() }\n",
        ),
        ("passes/src/verify/facts.rs", "pub struct Ctx;\n"),
        (
            "passes/src/verify/rules.rs",
            "use super::Ctx;\npub fn first() { let _ = Ctx; }\n\
             #[cfg(test)]\nmod tests { use crate::verify::run; }\n\
             /// See [`crate::verify::run`], which calls this.\npub fn doc() {}\n",
        ),
        // A test module above everything it tests.
        ("passes/src/tests.rs", "use crate::verify::run;\n"),
    ]);
    let report = check(dir.path()).expect("reads");
    assert!(report.circles.is_empty(), "{:?}", report.circles);
    let arrow = |from: &str, to: &str| {
        report
            .arrows
            .iter()
            .any(|a| a.from == Path::new(from) && a.to == Path::new(to))
    };
    assert!(arrow(
        "passes/src/verify/rules.rs",
        "passes/src/verify/facts.rs"
    ));
    assert!(arrow(
        "passes/src/verify/mod.rs",
        "passes/src/verify/rules.rs"
    ));
    assert!(!arrow(
        "passes/src/verify/rules.rs",
        "passes/src/verify/mod.rs"
    ));
    // The test file is not part of the crate the check reads.
    assert!(!report.files.contains(&PathBuf::from("passes/src/tests.rs")));
}

#[test]
fn an_upward_folder_arrow_and_an_unplaced_folder_are_reported() {
    let dir = tree(&[
        WORKSPACE,
        PASSES,
        ("passes/src/lib.rs", ""),
        ("dialect/Cargo.toml", "[package]\nname = \"d\"\n"),
        ("dialect/src/lib.rs", ""),
        (
            "crates/low/Cargo.toml",
            "[package]\nname = \"low\"\n[dev-dependencies]\np = { path = \"../../passes\" }\n",
        ),
        ("crates/low/src/lib.rs", ""),
        (
            "runtime/Cargo.toml",
            "[package]\nname = \"r\"\n[dependencies]\nacopy-dialect.workspace = true\nlow = { path = \"../crates/low\" }\n",
        ),
        ("runtime/src/lib.rs", ""),
        ("misc/thing/Cargo.toml", "[package]\nname = \"t\"\n"),
    ]);
    let report = check(dir.path()).expect("reads");
    let upward: Vec<String> = report.upward.iter().map(|a| a.to_string()).collect();
    assert_eq!(
        upward,
        [
            "crates/ -> passes/: crates/low/Cargo.toml depends on `p`",
            "runtime/ -> dialect/: runtime/Cargo.toml depends on `acopy-dialect`",
        ]
    );
    assert_eq!(report.unplaced, ["misc"]);
}

#[test]
fn a_missing_module_file_is_an_error() {
    let dir = tree(&[WORKSPACE, PASSES, ("passes/src/lib.rs", "mod gone;\n")]);
    let error = check(dir.path()).expect_err("cannot read");
    assert!(
        error.to_string().contains("declares `mod gone;`"),
        "{error}"
    );
}

#[test]
fn a_planted_long_function_is_found_and_short_ones_are_not() {
    let body = |lines: usize| "    let x = 1;\n".repeat(lines);
    let text = format!(
        "pub fn short() {{\n{}}}\n\nimpl S {{\n    pub(crate) fn long(&self) {{\n{}    }}\n    fn one() {{ 1 }}\n}}\n\nfn declared();\n\n#[cfg(test)]\nmod tests {{\n    fn long_test() {{\n{}    }}\n}}\n\n#[cfg(test)]\nconst X: u8 = 0;\n\nfn later() {{\n{}}}\n",
        body(78),
        body(79),
        body(200),
        body(85),
    );
    let dir = tree(&[("passes/src/lib.rs", &text)]);
    let found =
        acopy_layers::lengths::long_functions(dir.path(), Path::new("passes/src/lib.rs"), 80)
            .expect("the file reads");
    // `short` has 80 lines (its fn line, 78, its brace): not over; `long` has 81.
    // The test module is skipped, and the scan goes on past it and past a
    // `#[cfg(test)]` item to `later` (87 lines).
    let later = text
        .lines()
        .position(|line| line == "fn later() {")
        .unwrap()
        + 1;
    let found: Vec<_> = found
        .iter()
        .map(|function| (function.name.as_str(), function.line, function.lines))
        .collect();
    assert_eq!(found, [("long", 83, 81), ("later", later, 87)]);
}

#[test]
fn the_limit_covers_every_limited_folder_and_only_those() {
    let long = |name: &str| format!("pub fn {name}() {{\n{}}}\n", "    let x = 1;\n".repeat(79));
    let manifest = |name: &str| format!("[package]\nname = \"{name}\"\n");
    let files = [
        ("passes/src/lib.rs", long("in_passes")),
        ("dialect/Cargo.toml", manifest("d")),
        (
            "dialect/src/lib.rs",
            format!("mod source;\n{}", long("in_dialect")),
        ),
        ("dialect/src/source.rs", long("in_a_dialect_module")),
        ("crates/low/Cargo.toml", manifest("low")),
        ("crates/low/src/lib.rs", long("in_crates")),
        ("runtime/Cargo.toml", manifest("r")),
        ("runtime/src/lib.rs", long("in_runtime")),
        (
            "runtime/src/bin/suite.rs",
            format!(
                "#[path = \"suite/cases.rs\"]\nmod cases;\n{}",
                long("in_a_binary")
            ),
        ),
        ("runtime/src/bin/suite/cases.rs", long("in_a_path_module")),
        ("python/Cargo.toml", manifest("py")),
        ("python/src/lib.rs", long("in_python")),
        // Outside the limited folders: read by the check, not limited.
        ("tools/opt/Cargo.toml", manifest("opt")),
        ("tools/opt/src/main.rs", long("in_tools")),
        ("facade/Cargo.toml", manifest("f")),
        ("facade/src/lib.rs", long("in_facade")),
    ];
    let files: Vec<(&str, &str)> = [WORKSPACE, PASSES]
        .into_iter()
        .chain(files.iter().map(|(path, text)| (*path, text.as_str())))
        .collect();
    let dir = tree(&files);
    let report = check(dir.path()).expect("reads");
    assert!(report
        .files
        .contains(&PathBuf::from("tools/opt/src/main.rs")));
    let found: Vec<(String, String)> =
        acopy_layers::lengths::over_the_limit(dir.path(), &report.files)
            .expect("the files read")
            .into_iter()
            .map(|function| (function.file.display().to_string(), function.name))
            .collect();
    let mut found: Vec<(&str, &str)> = found
        .iter()
        .map(|(file, name)| (file.as_str(), name.as_str()))
        .collect();
    found.sort();
    // Each planted function has 81 lines: one over the limit.
    assert_eq!(
        found,
        [
            ("crates/low/src/lib.rs", "in_crates"),
            ("dialect/src/lib.rs", "in_dialect"),
            ("dialect/src/source.rs", "in_a_dialect_module"),
            ("passes/src/lib.rs", "in_passes"),
            ("python/src/lib.rs", "in_python"),
            ("runtime/src/bin/suite.rs", "in_a_binary"),
            ("runtime/src/bin/suite/cases.rs", "in_a_path_module"),
            ("runtime/src/lib.rs", "in_runtime"),
        ]
    );
}

#[test]
fn a_limited_folder_is_matched_by_whole_names() {
    use acopy_layers::lengths::is_limited;
    for (file, limited) in [
        ("crates/acopy-expect/src/lib.rs", true),
        ("crates/acopy-expect/tests/lit.rs", false),
        ("crates/src/lib.rs", false),
        ("dialect/src/source.rs", true),
        ("dialect/tests/parse.rs", false),
        ("dialects/src/lib.rs", false),
        ("runtime/src/bin/acopy-gpu-suite/cases.rs", true),
        ("python/src/launch.rs", true),
        ("facade/src/lib.rs", false),
        ("tools/acopy-opt/src/main.rs", false),
    ] {
        assert_eq!(is_limited(Path::new(file)), limited, "{file}");
    }
}

#[test]
fn a_planted_shared_file_name_is_found_and_conventions_are_not() {
    let files: Vec<PathBuf> = [
        "passes/src/lower/memref.rs",
        "passes/src/ir/build/memref.rs",
        "passes/src/lower/mod.rs",
        "passes/src/plan/mod.rs",
        "passes/src/plan/tests.rs",
        "passes/src/verify/tests.rs",
        "passes/src/plan/chunk.rs",
        "runtime/src/chunk.rs",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    let shared = acopy_layers::file_names::shared_names(&files, "passes/src");
    assert_eq!(shared.len(), 1, "{shared:?}");
    assert_eq!(shared[0].name, "memref.rs");
    assert_eq!(
        shared[0].files,
        vec![
            PathBuf::from("passes/src/ir/build/memref.rs"),
            PathBuf::from("passes/src/lower/memref.rs")
        ]
    );
    // A name shared across folder trees is not a clash within one.
    assert!(acopy_layers::file_names::shared_names(&files, "runtime/src").is_empty());
}

#[test]
fn a_layout_table_out_of_step_with_its_folder_is_found() {
    let table = |rows: &[&str]| {
        let mut text = String::from("//! Doc.\n//!\n//! | file | what |\n//! |---|---|\n");
        for row in rows {
            text.push_str(&format!("//! | `{row}` | what it holds |\n"));
        }
        text + "\npub mod a;\n"
    };
    let in_step = table(&["mod.rs", "a.rs", "b.rs", "deep/"]);
    let out_of_step = table(&["mod.rs", "a.rs", "gone.rs", "deep/"]);
    let file_table = table(&["tma.rs", "tma/load.rs"]);
    let dir = tree(&[
        ("x/mod.rs", &in_step),
        ("x/a.rs", ""),
        ("x/b.rs", ""),
        ("x/deep/mod.rs", "//! No table here.\n"),
        ("x/a/child.rs", ""), // owned by a.rs: needs no row
        ("y/mod.rs", &out_of_step),
        ("y/a.rs", ""),
        ("y/b.rs", ""),
        ("y/deep/mod.rs", ""),
        ("z/tma.rs", &file_table),
        ("z/tma/load.rs", ""),
        ("z/tma/store.rs", ""),
    ]);
    let files: Vec<PathBuf> = ["x/mod.rs", "x/deep/mod.rs", "y/mod.rs", "z/tma.rs"]
        .iter()
        .map(PathBuf::from)
        .collect();
    let checked = acopy_layers::layout_tables::check_tables(dir.path(), &files).expect("reads");
    // x/deep/mod.rs has no table.
    assert_eq!(
        checked.tables,
        ["x/mod.rs", "y/mod.rs", "z/tma.rs"].map(PathBuf::from)
    );
    let summary: Vec<(String, Vec<String>, Vec<String>)> = checked
        .mismatches
        .into_iter()
        .map(|m| (m.module.display().to_string(), m.stale, m.unlisted))
        .collect();
    assert_eq!(
        summary,
        vec![
            (
                "y/mod.rs".to_string(),
                vec!["gone.rs".to_string()],
                vec!["b.rs".to_string()]
            ),
            (
                "z/tma.rs".to_string(),
                vec![],
                vec!["tma/store.rs".to_string()]
            ),
        ]
    );
}

#[test]
fn an_import_up_a_floor_of_the_passes_is_found_and_downward_ones_are_not() {
    use acopy_layers::{passes_floors, Arrow};
    let arrow = |from: &str, to: &str| Arrow {
        from: PathBuf::from(from),
        to: PathBuf::from(to),
        because: format!("{to} used"),
    };
    let arrows = [
        // Down: the verifier reads the loop analysis.
        arrow(
            "passes/src/verify/mod.rs",
            "passes/src/plan/loops/analysis.rs",
        ),
        // Same floor.
        arrow("passes/src/lower/mod.rs", "passes/src/static_shared.rs"),
        // Up: the verifier reads the rewrite.
        arrow(
            "passes/src/verify/mod.rs",
            "passes/src/pipeliner/rewrite.rs",
        ),
        // Up a floor from the IR kit into the analysis layer.
        arrow("passes/src/ir/memref_layout.rs", "passes/src/plan/chunk.rs"),
        // Outside the passes: not the table's concern.
        arrow("runtime/src/lib.rs", "runtime/src/launch.rs"),
    ];
    let upward = passes_floors::upward(&arrows);
    let found: Vec<(&Path, u8, u8)> = upward
        .iter()
        .map(|import| {
            (
                import.arrow.from.as_path(),
                import.from_floor,
                import.to_floor,
            )
        })
        .collect();
    assert_eq!(
        found,
        vec![
            (Path::new("passes/src/verify/mod.rs"), 5, 6),
            (Path::new("passes/src/ir/memref_layout.rs"), 1, 4),
        ]
    );
    assert_eq!(
        upward[0].to_string(),
        "passes/src/verify/mod.rs (floor 5) imports passes/src/pipeliner/rewrite.rs (floor 6) through `passes/src/pipeliner/rewrite.rs used`"
    );
    assert_eq!(
        passes_floors::floor(Path::new("passes/src/nowhere.rs")),
        None
    );
    assert_eq!(passes_floors::floor(Path::new("dialect/src/lib.rs")), None);
}

#[test]
fn a_floor_table_that_places_a_file_apart_from_its_folder_is_found() {
    use acopy_layers::passes_floors::files_placed_apart;
    let planted = [
        ("ir/", 1),
        ("plan/memref_layout.rs", 2),
        ("plan/loops/", 4),
        ("target.rs", 2),
        ("target/", 3),
        ("plan/", 4),
        ("lib.rs", 5),
    ];
    assert_eq!(
        files_placed_apart(&planted),
        vec![
            "plan/memref_layout.rs (a file or folder inside a folder)".to_string(),
            "plan/loops/ (a file or folder inside a folder)".to_string(),
            "target.rs (floor 2) and target/ (floor 3)".to_string(),
        ]
    );
}

#[test]
fn a_planted_op_name_literal_is_found_and_the_table_and_tests_are_not() {
    let root = tree(&[
        (
            "passes/src/lib.rs",
            "mod ir;\nmod lower;\npub fn f(n: &str) -> bool { n == \"gpu.func\" || matches!(n, \"scf.for\") }\n\
             const NOT: &str = \"a.b\";\n#[cfg(test)]\nmod tests { const T: &str = \"gpu.module\"; }\n\
             #[test]\nfn t() { let _ = \"arith.addi\"; }\n",
        ),
        ("passes/src/ir/mod.rs", "pub mod op_names;\n"),
        (
            "passes/src/ir/op_names.rs",
            "pub const FUNC: &str = \"gpu.func\";\n",
        ),
        ("passes/src/lower/mod.rs", "pub fn g() { format!(\"{}\", \"nvvm.barrier\"); }\n"),
    ]);
    let files: Vec<PathBuf> = [
        "passes/src/lib.rs",
        "passes/src/ir/mod.rs",
        "passes/src/ir/op_names.rs",
        "passes/src/lower/mod.rs",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    let found: Vec<String> =
        acopy_layers::op_name_literals::literals(root.path(), &files, "passes/src")
            .expect("the planted tree reads")
            .iter()
            .map(|literal| literal.to_string())
            .collect();
    assert_eq!(
        found,
        vec![
            "passes/src/lib.rs: \"gpu.func\"".to_string(),
            "passes/src/lib.rs: \"scf.for\"".to_string(),
            "passes/src/lower/mod.rs: \"nvvm.barrier\"".to_string(),
        ]
    );
}

/// The check itself, not only the finder: one literal outside the table fails
/// it and names the literal; the table and test code alone pass it.
#[test]
fn the_op_name_check_fails_on_one_planted_literal_and_passes_without_it() {
    let table = (
        "passes/src/ir/op_names.rs",
        "pub const FUNC: &str = \"gpu.func\";\n",
    );
    let clean = (
        "passes/src/lib.rs",
        "mod ir;\npub fn f(n: &str) -> bool { n == ir::op_names::FUNC }\n\
         #[cfg(test)]\nmod tests { const T: &str = \"gpu.module\"; }\n",
    );
    let planted = (
        "passes/src/lib.rs",
        "mod ir;\npub fn f(n: &str) -> bool { n == \"gpu.func\" }\n",
    );
    let files: Vec<PathBuf> = ["passes/src/lib.rs", "passes/src/ir/op_names.rs"]
        .iter()
        .map(PathBuf::from)
        .collect();
    let check = |lib| {
        let root = tree(&[lib, table]);
        acopy_layers::op_name_literals::check(root.path(), &files, "passes/src")
    };
    assert!(check(clean).is_ok(), "the table and tests are allowed");
    match check(planted) {
        Err(acopy_layers::op_name_literals::OpNameCheckError::Spelled(found)) => assert_eq!(
            found
                .iter()
                .map(|literal| literal.to_string())
                .collect::<Vec<_>>(),
            vec!["passes/src/lib.rs: \"gpu.func\"".to_string()]
        ),
        other => panic!("the planted literal fails the check, got {other:?}"),
    }
}
