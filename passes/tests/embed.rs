//! What facade/README.md ("Embedding" in the README, in short) shows a frontend doing: build acopy ops
//! through the Rust API (no text, no driver) and run acopy's passes on them.

use std::{cell::RefCell, rc::Rc};

use acopy_dialect::{
    builders::{self, CopyOptions},
    OobMode,
};
use melior::{
    ir::{block::BlockLike, operation::OperationLike, Location, Module, RegionLike},
    pass::PassManager,
};

const SKELETON: &str = r#"
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
    gpu.func @copy(%src: memref<256x512xf32>, %i: index, %j: index)
        workgroup(%tile: memref<32x128xf32, 3>) kernel {
      gpu.return
    }
  }
}
"#;

/// Builds one copy of a 32x128 window into the kernel, before its `gpu.return`,
/// and runs `pipeline`. Returns the error messages MLIR reported.
fn build_and_run(options: CopyOptions, pipeline: &str) -> (bool, Vec<String>, String) {
    let context = acopy_passes::context::create_context().expect("context");
    let errors = Rc::new(RefCell::new(Vec::new()));
    let sink = errors.clone();
    context.attach_diagnostic_handler(move |diagnostic| {
        sink.borrow_mut().push(diagnostic.to_string());
        true
    });
    let mut module = Module::parse(&context, SKELETON).expect("skeleton parses");
    {
        let gpu_module = module.body().first_operation().expect("gpu.module");
        let body = gpu_module.region(0).unwrap().first_block().unwrap();
        let kernel = body.first_operation().expect("gpu.func");
        let entry = kernel.region(0).unwrap().first_block().unwrap();
        // Arguments: src, i, j, then the workgroup buffer.
        let argument = |index| entry.argument(index).unwrap().into();
        let copy = builders::copy_gmem_to_smem(
            &context,
            Location::unknown(&context),
            argument(0),
            argument(3),
            &[argument(1), argument(2)],
            None,
            None,
            &options,
        )
        .expect("copy builds");
        let terminator = entry.terminator().expect("gpu.return");
        entry.insert_operation_before(terminator, copy);
    }
    assert!(module.as_operation().verify());
    let manager = PassManager::new(&context);
    acopy_passes::pass_pipeline::add_pipeline(manager.as_operation_pass_manager(), pipeline)
        .expect("pipeline parses");
    let ok = manager.run(&mut module).is_ok();
    let text = module.as_operation().to_string();
    let errors = errors.borrow().clone();
    (ok, errors, text)
}

#[test]
fn a_built_copy_verifies_on_ampere() {
    let options = CopyOptions {
        oob_mode: Some(OobMode::PromiseInBounds),
        ..Default::default()
    };
    let (ok, errors, text) = build_and_run(options, "acopy-verify");
    assert!(ok, "errors: {errors:?}");
    assert!(text.contains("acopy.copy_gmem_to_smem %"), "{text}");
    assert!(text.contains("oob_mode = \"promise_in_bounds\""), "{text}");
}

#[test]
fn a_built_copy_gets_the_documented_error() {
    // No oob_mode: the default "zeros" is E4 on the cp.async path.
    let (ok, errors, _) = build_and_run(CopyOptions::default(), "acopy-verify");
    assert!(!ok);
    assert_eq!(
        errors,
        ["The cp.async implementation only supports oob_mode=OOBFillMode.PROMISE_IN_BOUNDS"]
    );
    // The chip option overrides the module's sm_80: on sm_90 the missing barrier is E6.
    let (ok, errors, _) = build_and_run(CopyOptions::default(), "acopy-verify{chip=sm_90}");
    assert!(!ok);
    assert_eq!(
        errors,
        ["copy_gmem_to_smem without a barrier is only supported on pre-Hopper GPUs, which use the cp.async implementation"]
    );
}

#[test]
fn a_built_copy_lowers_to_cp_async() {
    let options = CopyOptions {
        oob_mode: Some(OobMode::PromiseInBounds),
        ..Default::default()
    };
    let (ok, errors, text) = build_and_run(options, "acopy-lower{chip=sm_80}");
    assert!(ok, "errors: {errors:?}");
    assert!(!text.contains("acopy."), "an acopy op survived:\n{text}");
    assert!(text.contains("nvvm.cp.async.shared.global"), "{text}");
    assert!(text.contains("nvvm.cp.async.commit.group"), "{text}");
}
