//! Builds the C++ shim that emits remarks and warnings
//! (src/diagnostics_shim.cpp) against the LLVM 22 that mlir-sys links.

fn main() {
    println!("cargo:rerun-if-changed=src/diagnostics_shim.cpp");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    let prefix =
        std::env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".to_string());
    cc::Build::new()
        .cpp(true)
        .file("src/diagnostics_shim.cpp")
        // -isystem: LLVM's headers warn under -Wextra; ours should not.
        .flag(format!("-isystem{prefix}/include"))
        // llvm-config --cxxflags: LLVM 22's headers need C++17 and the ABI it was built with.
        .flag("-std=c++17")
        .flag("-fno-exceptions")
        .define("_GLIBCXX_USE_CXX11_ABI", "1")
        .define("__STDC_CONSTANT_MACROS", None)
        .define("__STDC_FORMAT_MACROS", None)
        .define("__STDC_LIMIT_MACROS", None)
        .compile("acopy_diagnostics_shim");
}
