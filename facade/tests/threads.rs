//! `Options::threads`: with MLIR's thread pool on, each `gpu.module` is
//! lowered and compiled apart, and the outputs and diagnostics are the same
//! as on one thread.

use acopy::{Emit, Options};

/// A TMA kernel in its own `gpu.module` named `name`; `copy` is the copy op
/// line (its operands: `%src`, `%tile`, `%i`, `%bar`).
fn tma_module(name: &str, copy: &str) -> String {
    format!(
        r#"  gpu.module @{name} [#nvvm.target<chip = "sm_90">] {{
    gpu.func @k(%src: memref<256x512xf32>, %i: index) workgroup(%tile: memref<64x32xf32, 3>, %bar: memref<1xi64, 3>) kernel {{
      {copy}
      gpu.return
    }}
  }}
"#
    )
}

const COPY: &str = r#""acopy.copy_gmem_to_smem"(%src, %tile, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()"#;

/// A cp.async wait in a TMA kernel: an error of `acopy-verify`'s table.
const BAD_COPY: &str = r#""acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()"#;

const CP_ASYNC: &str = r#"  gpu.module @ampere [#nvvm.target<chip = "sm_80">] {
    gpu.func @k(%src: memref<64x128xf32>) workgroup(%dst: memref<64x128xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      "acopy.copy_gmem_to_smem"(%src, %dst, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<64x128xf32>, memref<64x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      gpu.return
    }
  }
"#;

fn module(parts: &[String]) -> String {
    format!(
        "module attributes {{gpu.container_module}} {{\n{}}}\n",
        parts.concat()
    )
}

fn options(emit: Emit, threads: bool) -> Options {
    Options {
        emit,
        threads: Some(threads),
        ..Default::default()
    }
}

#[test]
fn several_modules_compile_the_same_on_one_thread_and_on_the_pool() {
    let text = module(&[
        tma_module("a", COPY),
        CP_ASYNC.to_string(),
        tma_module("b", COPY),
    ]);
    for emit in Emit::ALL {
        let one = acopy::compile(text.as_str(), &options(emit, false)).expect("compiles");
        let pool = acopy::compile(text.as_str(), &options(emit, true)).expect("compiles");
        assert_eq!(one.outputs.len(), 3, "{emit:?}");
        let names: Vec<_> = pool
            .outputs
            .iter()
            .map(|output| output.module.as_str())
            .collect();
        assert_eq!(names, ["a", "ampere", "b"], "{emit:?}");
        assert_eq!(one.outputs, pool.outputs, "{emit:?}");
        assert_eq!(one.manifest, pool.manifest, "{emit:?}");
        assert_eq!(one.diagnostics, pool.diagnostics, "{emit:?}");
    }
}

/// Errors in several modules come in source order, all of them, as on one
/// thread (MLIR's threaded pass manager alone would stop scheduling after the
/// first failure).
#[test]
fn errors_in_several_modules_are_the_same_on_the_pool() {
    let text = module(&[
        tma_module("a", BAD_COPY),
        tma_module("b", COPY),
        tma_module("c", BAD_COPY),
    ]);
    let one = acopy::compile(text.as_str(), &options(Emit::Ptx, false)).expect_err("errors");
    let pool = acopy::compile(text.as_str(), &options(Emit::Ptx, true)).expect_err("errors");
    let lines: Vec<_> = one
        .errors()
        .map(|error| error.position.as_ref().map(|position| position.line))
        .collect();
    assert_eq!(lines, [Some(4), Some(16)], "{one}");
    assert!(one.errors().all(|error| error.rule.is_some()), "{one}");
    assert_eq!(one.diagnostics, pool.diagnostics);
}

/// Rule A26 asks about host code outside the `gpu.module`: the copies lowered
/// apart still know which kernels the module launches.
#[test]
fn a_launched_tma_kernel_is_refused_on_the_pool_too() {
    let host = r#"  func.func @host(%src: memref<256x512xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @b::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%src : memref<256x512xf32>, %c1 : index)
    return
  }
"#;
    let text = module(&[
        tma_module("a", COPY),
        host.to_string(),
        tma_module("b", COPY),
    ]);
    let one = acopy::compile(text.as_str(), &options(Emit::Ptx, false)).expect_err("A26");
    let pool = acopy::compile(text.as_str(), &options(Emit::Ptx, true)).expect_err("A26");
    let rules: Vec<_> = pool.errors().map(|error| error.rule).collect();
    assert_eq!(rules, [Some("A26")], "{pool}");
    assert_eq!(one.diagnostics, pool.diagnostics);
}
