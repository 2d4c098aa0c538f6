//! Links libacopy_capi.so to the shared libMLIR.so and libLLVM.so, and
//! compiles the plugin's C++ half (src/plugin_passes.cpp).
//!
//! mlir-sys links MLIR from its static archives (`libMLIR*.a`, found by
//! `llvm-config --link-static`). A plugin holding its own static copy of
//! MLIR would have its own pass registry, dialect registry and `cl::opt`s
//! beside mlir-opt's (docs/embedding.md, "The C API and the mlir-opt
//! plugin"). Naming libMLIR.so and libLLVM.so here puts them on the link
//! line before every archive (a crate's own native libraries come before its
//! dependencies' rlibs), so the linker resolves every MLIR and LLVM symbol
//! they export to them and takes from the archives only what they do not
//! hold: the C API (`mlirContextCreate`, …), which Debian ships as static
//! `libMLIRCAPI*.a` only. `tests/plugin/static-copies.test` checks that no
//! MLIR core object came in.

use std::env;

fn main() {
    println!("cargo:rerun-if-changed=src/plugin_passes.cpp");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    let prefix = env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".to_string());
    println!("cargo:rustc-link-search=native={prefix}/lib");
    println!("cargo:rustc-link-lib=dylib=MLIR");
    println!("cargo:rustc-link-lib=dylib=LLVM");
    // libMLIR.so.22.1 is not on the loader's default path; a C program or a
    // test linked to this library finds it here (mlir-opt has it loaded).
    println!("cargo:rustc-link-arg=-Wl,-rpath,{prefix}/lib");
    let include = format!("{prefix}/include");
    cc::Build::new()
        .cpp(true)
        .file("src/plugin_passes.cpp")
        .flag(format!("-isystem{include}"))
        // As dialect/build.rs: llvm-config --cxxflags of LLVM 22.
        .flag("-std=c++17")
        .flag("-fno-exceptions")
        .flag("-fno-rtti")
        .define("_GLIBCXX_USE_CXX11_ABI", "1")
        .define("__STDC_CONSTANT_MACROS", None)
        .define("__STDC_FORMAT_MACROS", None)
        .define("__STDC_LIMIT_MACROS", None)
        .compile("acopy_capi_cpp");
}
