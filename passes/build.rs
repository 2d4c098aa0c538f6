//! Builds the passes' one C++ file against the LLVM 22 that mlir-sys links:
//! `acopy-vector-to-scf` (src/prepare_emit/vector_to_scf.cpp), which runs a
//! nested pipeline, something only a C++ pass can do.
//!
//! Only that file (and the LLVM prefix) rerun it, so editing a Rust file never
//! recompiles the C++.

use std::env;

fn main() {
    println!("cargo:rerun-if-changed=src/prepare_emit/vector_to_scf.cpp");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    let prefix = env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".to_string());
    cc::Build::new()
        .cpp(true)
        .file("src/prepare_emit/vector_to_scf.cpp")
        // -isystem: LLVM's headers warn under -Wextra; ours should not.
        .flag(format!("-isystem{prefix}/include"))
        // llvm-config --cxxflags: LLVM 22's headers need C++17 and the ABI it was built with.
        .flag("-std=c++17")
        .flag("-fno-exceptions")
        .define("_GLIBCXX_USE_CXX11_ABI", "1")
        .define("__STDC_CONSTANT_MACROS", None)
        .define("__STDC_FORMAT_MACROS", None)
        .define("__STDC_LIMIT_MACROS", None)
        .compile("acopy_passes_cpp");
}
