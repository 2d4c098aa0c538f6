//! Builds the dialect's C++ half against the LLVM 22 that mlir-sys links:
//! - the op classes, parser and printer that mlir-tblgen generates from
//!   acopy.td, with their registration (src/dialect.cpp);
//! - the shim that emits remarks and warnings (src/diagnostics_shim.cpp).
//!
//! Only these three files (and the LLVM prefix) rerun it, so editing a Rust
//! file never recompiles the C++ (bench/RESULTS.md, "Building the C++").

use std::{
    env,
    path::{Path, PathBuf},
    process::Command,
};

/// The four mlir-tblgen outputs dialect.cpp includes: generator flag, file.
const GENERATED: [(&str, &str); 4] = [
    ("--gen-dialect-decls", "AcopyDialect.h.inc"),
    ("--gen-dialect-defs", "AcopyDialect.cpp.inc"),
    ("--gen-op-decls", "AcopyOps.h.inc"),
    ("--gen-op-defs", "AcopyOps.cpp.inc"),
];

fn main() {
    println!("cargo:rerun-if-changed=acopy.td");
    println!("cargo:rerun-if-changed=src/dialect.cpp");
    println!("cargo:rerun-if-changed=src/diagnostics_shim.cpp");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    let prefix = env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".to_string());
    let include = format!("{prefix}/include");
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    for (generator, file) in GENERATED {
        tblgen(&prefix, &include, generator, &out.join(file));
    }
    cc::Build::new()
        .cpp(true)
        .file("src/dialect.cpp")
        .file("src/diagnostics_shim.cpp")
        // -isystem: LLVM's headers and the generated code warn under -Wextra; ours should not.
        .flag(format!("-isystem{include}"))
        .flag(format!("-isystem{}", out.display()))
        // llvm-config --cxxflags: LLVM 22's headers need C++17 and the ABI it was built with.
        .flag("-std=c++17")
        .flag("-fno-exceptions")
        .define("_GLIBCXX_USE_CXX11_ABI", "1")
        .define("__STDC_CONSTANT_MACROS", None)
        .define("__STDC_FORMAT_MACROS", None)
        .define("__STDC_LIMIT_MACROS", None)
        .compile("acopy_dialect_cpp");
}

/// Runs the mlir-tblgen of `prefix` (it must match the headers exactly) on acopy.td.
fn tblgen(prefix: &str, include: &str, generator: &str, output: &Path) {
    let tool = format!("{prefix}/bin/mlir-tblgen");
    let status = Command::new(&tool)
        .arg(generator)
        .arg("--dialect=acopy")
        .arg(format!("-I{include}"))
        .arg("acopy.td")
        .arg("-o")
        .arg(output)
        .status()
        .unwrap_or_else(|error| {
            panic!("cannot run {tool} (Debian package mlir-22-tools, scripts/install-deps.sh): {error}")
        });
    assert!(
        status.success(),
        "{tool} {generator} acopy.td failed: {status}"
    );
}
