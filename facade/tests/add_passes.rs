//! acopy's passes in a frontend's own pass manager, and the manifest's one
//! right point in it.

use acopy::{
    melior::{ir::Module, pass::PassManager},
    passes::manifest::CollectError,
    Chip, Emit, Options,
};

const SM90: &str = include_str!("../../examples/tile_copy_sm90.mlir");

#[test]
fn a_frontend_pipeline_lowers_with_acopy_passes() {
    let context = acopy::create_context().expect("context");
    let mut module = Module::parse(&context, SM90).expect("parses");
    let manager = PassManager::new(&context);
    // The frontend's own passes, before and after acopy's.
    acopy::passes::pass_pipeline::add_pipeline(manager.as_operation_pass_manager(), "canonicalize")
        .expect("upstream pass");
    acopy::add_passes(manager.as_operation_pass_manager(), &Options::default());
    acopy::passes::pass_pipeline::add_pipeline(manager.as_operation_pass_manager(), "cse")
        .expect("upstream pass");
    manager.run(&mut module).expect("runs");
    let text = module.as_operation().to_string();
    // No acopy op is left (they print as `acopy.<op> ...`).
    assert!(
        !acopy::dialect::names::ALL
            .iter()
            .any(|op| text.contains(op)),
        "{text}"
    );
    assert!(
        text.contains("nvvm.cp.async.bulk.tensor.shared.cluster.global"),
        "{text}"
    );
    // Now, and only now, the manifest is complete.
    let manifest = acopy::manifest(&module, &Options::default()).expect("after lowering");
    assert_eq!(manifest.kernels[0].tensor_maps.len(), 2);
    let emit = PassManager::new(&context);
    acopy::add_emit_passes(emit.as_operation_pass_manager(), &Options::default()).expect("emit");
    emit.run(&mut module).expect("emits");
    let ptx = acopy::passes::emit::collect(&module, acopy::Emit::Ptx).expect("ptx");
    assert!(ptx[0].text.contains(".target sm_90"));
}

#[test]
fn the_options_reach_the_passes() {
    // sm_90's example on sm_80: E1 (a barrier) fails the pass manager.
    let context = acopy::create_context().expect("context");
    let collector = acopy::passes::diagnostics::Collector::default();
    collector.attach(&context);
    let mut module = Module::parse(&context, SM90).expect("parses");
    let manager = PassManager::new(&context);
    let options = Options {
        chip: Some(Chip::parse("sm_80").unwrap()),
        ..Default::default()
    };
    acopy::add_passes(manager.as_operation_pass_manager(), &options);
    assert!(manager.run(&mut module).is_err());
    let rules: Vec<_> = collector.take().into_iter().map(|d| d.rule).collect();
    assert_eq!(rules, [Some("E1"), Some("A5"), Some("A6")]);
    // acopy-verify alone: the same errors, and the IR is unchanged.
    let mut module = Module::parse(&context, SM90).expect("parses");
    let manager = PassManager::new(&context);
    acopy::add_verify_pass(manager.as_operation_pass_manager(), &options);
    assert!(manager.run(&mut module).is_err());
    assert_eq!(collector.take().len(), 3);
    assert!(module
        .as_operation()
        .to_string()
        .contains("acopy.copy_gmem_to_smem %"));
}

#[test]
fn the_manifest_before_lowering_is_an_error() {
    let context = acopy::create_context().expect("context");
    let module = Module::parse(&context, SM90).expect("parses");
    match acopy::manifest(&module, &Options::default()) {
        Err(CollectError::NotLowered { op, position }) => {
            assert_eq!(op, "acopy.barrier_init");
            assert_eq!(position.map(|p| (p.line, p.column)), Some((31, 7)));
        }
        other => panic!("expected NotLowered, got {other:?}"),
    }
}

#[test]
fn the_manifest_after_ptx_is_an_error() {
    // The obvious single pass manager: lower and emit, then read the manifest.
    let context = acopy::create_context().expect("context");
    let mut module = Module::parse(&context, SM90).expect("parses");
    let manager = PassManager::new(&context);
    acopy::add_passes(manager.as_operation_pass_manager(), &Options::default());
    acopy::add_emit_passes(manager.as_operation_pass_manager(), &Options::default()).expect("emit");
    manager.run(&mut module).expect("runs");
    let error = acopy::manifest(&module, &Options::default()).expect_err("too late");
    assert!(
        matches!(&error, CollectError::AlreadyCompiled { binary, .. } if binary == "tile_copy"),
        "{error:?}"
    );
    assert!(
        error.to_string().contains("before gpu-module-to-binary"),
        "{error}"
    );
    // LLVM IR keeps the records on the llvm.funcs, but their arguments are
    // expanded: the launch facts are gone, so that is too late as well.
    let mut module = Module::parse(&context, SM90).expect("parses");
    let manager = PassManager::new(&context);
    let llvm = Options {
        emit: Emit::Llvm,
        ..Default::default()
    };
    acopy::add_passes(manager.as_operation_pass_manager(), &llvm);
    acopy::add_emit_passes(manager.as_operation_pass_manager(), &llvm).expect("emit");
    manager.run(&mut module).expect("runs");
    let error = acopy::manifest(&module, &llvm).expect_err("llvm.funcs");
    assert!(
        matches!(&error, CollectError::Converted { kernel, .. } if kernel == "tile_copy"),
        "{error:?}"
    );
    assert!(
        error.to_string().contains("before convert-gpu-to-nvvm"),
        "{error}"
    );
}

#[test]
fn emit_mlir_adds_no_passes() {
    let context = acopy::create_context().expect("context");
    let mut module = Module::parse(&context, "module {}").expect("parses");
    let manager = PassManager::new(&context);
    let mlir = Options {
        emit: Emit::Mlir,
        ..Default::default()
    };
    acopy::add_emit_passes(manager.as_operation_pass_manager(), &mlir).expect("nothing to add");
    manager.run(&mut module).expect("runs");
    assert_eq!(module.as_operation().to_string().trim(), "module {\n}");
}
