//! Runs the lit + FileCheck suite in `tests/` against the freshly built
//! `acopy-opt`. One Rust test, so `cargo test` runs every lit case and fails
//! on any lit failure, printing lit's output. The suite assembles every PTX
//! it produces with ptxas: `ACOPY_PTXAS` if set, else `.venv/bin/ptxas`
//! (scripts/install-deps.sh installs it); a missing ptxas fails the test.

use std::{path::Path, process::Command};

const LIT: &str = "/usr/lib/llvm-22/bin/lit";

#[test]
fn lit_suite() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let tests = root.join("tests");
    assert!(
        Path::new(LIT).exists(),
        "{LIT} is missing: install llvm-22-tools (scripts/test.sh does this)"
    );
    let ptxas = std::env::var_os("ACOPY_PTXAS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join(".venv/bin/ptxas"));
    assert!(
        ptxas.exists(),
        "{} is missing: run scripts/install-deps.sh (scripts/test.sh does this) or set ACOPY_PTXAS",
        ptxas.display()
    );
    let output = Command::new(LIT)
        .arg("-v")
        .arg("--order=lexical")
        .arg(&tests)
        .env("ACOPY_OPT", env!("CARGO_BIN_EXE_acopy-opt"))
        .env("ACOPY_LIT_OUT", root.join("target/lit"))
        .env("ACOPY_PTXAS", &ptxas)
        .output()
        .expect("lit could not be started");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("{stdout}");
    eprintln!("{stderr}");
    assert!(
        output.status.success(),
        "lit reported failures (output above)"
    );
    assert!(
        stdout.contains("Passed"),
        "lit ran no test: check tests/lit.cfg.py"
    );
}
