//! `acopy::compile` and `acopy::verify` as a frontend calls them.

use acopy::{Chip, Emit, Input, Options, Severity};

const SM90: &str = include_str!("../../examples/tile_copy_sm90.mlir");
const SM80: &str = include_str!("../../examples/tile_copy_sm80.mlir");

/// A cp.async copy without `oob_mode`: E4 on line 6, column 5.
const E4_INPUT: &str = r#"module {
  gpu.module @m [#nvvm.target<chip = "sm_80">] {
    gpu.func @k(%src: memref<256x512xf32>, %i: index, %j: index)
        workgroup(%tile: memref<32x128xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %i, %j) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>} : (memref<256x512xf32>, memref<32x128xf32, 3>, index, index) -> ()
      gpu.return
    }
  }
}
"#;

fn chip(name: &str) -> Option<Chip> {
    Some(Chip::parse(name).expect("a known chip"))
}

#[test]
fn ptx_and_manifest_for_a_tma_kernel() {
    let compiled = acopy::compile(SM90, &Options::default()).expect("compiles");
    assert_eq!(compiled.outputs.len(), 1);
    let output = &compiled.outputs[0];
    assert_eq!(output.module, "tile_copy");
    assert!(output.text.contains(".target sm_90"), "{}", output.text);
    assert!(
        output.text.contains("cp.async.bulk.tensor.2d"),
        "{}",
        output.text
    );
    // Two tensor maps (src and dst), recorded at the right point.
    let kernel = compiled
        .manifest
        .kernel("tile_copy")
        .expect("kernel in manifest");
    assert_eq!(kernel.chip, "sm_90");
    assert_eq!(kernel.tensor_maps.len(), 2);
    assert_eq!(kernel.tensor_maps[0].map.box_shape, vec![64, 128]);
    assert_eq!(output.manifest, compiled.manifest);
    assert!(compiled
        .diagnostics
        .iter()
        .all(|diagnostic| diagnostic.severity != Severity::Error));
}

#[test]
fn a_cp_async_kernel_has_launch_facts_and_no_tensor_maps() {
    let compiled = acopy::compile(SM80, &Options::default()).expect("compiles");
    assert!(compiled.outputs[0].text.contains(".target sm_80"));
    assert!(
        compiled.outputs[0]
            .text
            .contains("cp.async.ca.shared.global")
            || compiled.outputs[0]
                .text
                .contains("cp.async.cg.shared.global")
    );
    // No tensor maps, but the launch facts of the kernel (manifest version 2).
    let [kernel] = compiled.manifest.kernels.as_slice() else {
        panic!("one kernel: {:?}", compiled.manifest);
    };
    assert!(kernel.tensor_maps.is_empty());
    assert_eq!((kernel.chip.as_str(), kernel.cluster), ("sm_80", [1, 1, 1]));
    assert_eq!(compiled.outputs[0].chip.as_deref(), Some("sm_80"));
    let facts = kernel.launch.as_ref().expect("launch facts");
    assert_eq!(facts.block, Some([32, 8, 1]));
    assert_eq!(facts.static_shared_memory, 64 * 128 * 4);
    assert_eq!(kernel.dynamic_shared_memory, Some(0));
    let types: Vec<&str> = facts.args.iter().map(|arg| arg.mlir_type()).collect();
    assert_eq!(types, ["memref<4096x4096xf32>", "memref<4096x4096xf32>"]);
}

#[test]
fn each_emit_kind() {
    let llvm = Options {
        emit: Emit::Llvm,
        ..Default::default()
    };
    let compiled = acopy::compile(SM90, &llvm).expect("compiles");
    assert!(
        compiled.outputs[0]
            .text
            .contains("define ptx_kernel void @tile_copy"),
        "{}",
        compiled.outputs[0].text
    );
    assert!(!compiled.outputs[0].text.contains(".target"));
    let mlir = Options {
        emit: Emit::Mlir,
        ..Default::default()
    };
    let compiled = acopy::compile(SM90, &mlir).expect("compiles");
    let text = &compiled.outputs[0].text;
    assert!(text.starts_with("gpu.module @tile_copy"), "{text}");
    assert!(text.contains("nvvm.cp.async.bulk.tensor"), "{text}");
    // No acopy op is left (they print as `acopy.<op> ...`).
    assert!(
        !acopy::dialect::names::ALL
            .iter()
            .any(|op| text.contains(op)),
        "{text}"
    );
    // The manifest does not depend on what is emitted.
    assert_eq!(compiled.manifest.kernels.len(), 1);
}

#[test]
fn the_chip_option_overrides_the_module() {
    // sm_80's example on sm_90: the TMA path, so the barrier-less copy is E6.
    let failed = acopy::compile(
        SM80,
        &Options {
            chip: chip("sm_90"),
            ..Default::default()
        },
    )
    .expect_err("E6 on sm_90");
    let rules: Vec<_> = failed.errors().map(|d| d.rule).collect();
    assert_eq!(rules, [Some("E6"), Some("E7")], "{failed}");
}

#[test]
fn errors_are_located_data_with_their_rule() {
    let failed =
        acopy::compile(Input::file("k.mlir", E4_INPUT), &Options::default()).expect_err("E4");
    let errors: Vec<_> = failed.errors().collect();
    assert_eq!(errors.len(), 1, "{failed}");
    let error = errors[0];
    assert_eq!(error.rule, Some("E4"));
    assert_eq!(
        error.message,
        "The cp.async implementation only supports oob_mode=OOBFillMode.PROMISE_IN_BOUNDS"
    );
    let position = error.position.as_ref().expect("located");
    assert_eq!(
        (position.file.as_str(), position.line, position.column),
        ("k.mlir", 6, 7)
    );
    // Display is mlir-opt's spelling.
    assert!(
        failed
            .to_string()
            .starts_with("k.mlir:6:7: error: The cp.async"),
        "{failed}"
    );
    // verify returns the same error without compiling.
    let diagnostics = acopy::verify(Input::file("k.mlir", E4_INPUT), &Options::default());
    assert_eq!(diagnostics, failed.diagnostics);
    // Fallback mode waives E4: cp.async zero-fills through its source size.
    let fallback = Options {
        fallback: true,
        ..Default::default()
    };
    let compiled = acopy::compile(E4_INPUT, &fallback).expect("waived");
    assert!(compiled.outputs[0].text.contains("cp.async"));
    // The waiver is a real remark at the op, with its position.
    let remarks: Vec<_> = compiled
        .diagnostics
        .iter()
        .map(|d| {
            (
                d.severity,
                d.position
                    .as_ref()
                    .map(|p| (p.file.as_str(), p.line, p.column)),
                d.message.as_str(),
                d.rule,
            )
        })
        .collect();
    assert_eq!(
        remarks,
        [(
            Severity::Remark,
            Some(("<input>", 6, 7)),
            "fallback mode keeps this op on sm_80: out-of-bounds elements are zero-filled through the cp.async source size",
            None
        )]
    );
}

#[test]
fn verify_accepts_what_the_chip_can_do() {
    assert_eq!(acopy::verify(SM90, &Options::default()), vec![]);
    assert_eq!(acopy::verify(SM80, &Options::default()), vec![]);
}

#[test]
fn a_parse_error_is_a_located_diagnostic() {
    let failed = acopy::compile("module {\n  %x = \n}\n", &Options::default()).expect_err("bad");
    let error = failed.errors().next().expect("an error");
    let position = error.position.as_ref().expect("located");
    assert_eq!((position.file.as_str(), position.line), ("<input>", 2));
    assert_eq!(error.rule, None);
}

/// The custom form, cut short or misspelt: each a located error from the
/// parser, and nothing else (the silent exit of issue 20 is gone).
#[test]
fn a_bad_custom_form_is_a_located_diagnostic() {
    let cases = [
        // (text, line, column, message)
        (
            "func.func @f(%b: memref<1xi64, 3>) {\n  acopy.barrier_init %b :\n",
            2,
            26,
            "expected non-function type",
        ),
        (
            "func.func @f(%b: memref<1xi64, 3>) {\n  acopy.barier_init %b : memref<1xi64, 3>\n  return\n}\n",
            2,
            3,
            "custom op 'acopy.barier_init' is unknown",
        ),
        (
            "func.func @f(%b: memref<1xi64, 3>) {\n  acopy.barrier_wait %b : memref<1xi64, 3>\n  return\n}\n",
            2,
            24,
            "expected ','",
        ),
    ];
    for (text, line, column, message) in cases {
        let failed = acopy::compile(text, &Options::default()).expect_err(text);
        assert_eq!(failed.diagnostics.len(), 1, "{failed}");
        let error = &failed.diagnostics[0];
        assert_eq!(error.severity, Severity::Error);
        let position = error.position.as_ref().expect("located");
        assert_eq!(
            (position.file.as_str(), position.line, position.column),
            ("<input>", line, column),
            "{text}"
        );
        assert_eq!(error.message, message);
    }
    // The input of issue 20 itself parses now and reaches the verifier, whose
    // one complaint is the missing chip (at the op, line 2).
    let issue = "func.func @f(%b: memref<1xi64, 3>) {\n  acopy.barrier_init %b : memref<1xi64, 3>\n  return\n}\n";
    let diagnostics = acopy::verify(issue, &Options::default());
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert!(diagnostics[0]
        .message
        .starts_with("cannot determine the target chip"));
    assert_eq!(diagnostics[0].position.as_ref().map(|p| p.line), Some(2));
}

#[test]
fn text_the_parser_would_crash_on_is_refused() {
    let text = "module attributes {a = array<index: 1>} {}\n";
    let failed = acopy::compile(text, &Options::default()).expect_err("refused");
    let error = failed.errors().next().expect("an error");
    assert_eq!(error.position.as_ref().map(|p| p.line), Some(1));
}

#[test]
fn a_malformed_acopy_op_stops_before_the_passes() {
    let text = E4_INPUT.replace(
        "operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>",
        "operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = \"sometimes\"",
    );
    let failed = acopy::compile(text.as_str(), &Options::default()).expect_err("malformed");
    let errors: Vec<_> = failed.errors().collect();
    assert_eq!(errors.len(), 1, "{failed}");
    assert!(errors[0].message.contains("oob_mode"), "{failed}");
}

#[test]
fn emitting_needs_a_gpu_module() {
    let failed = acopy::compile("module {}", &Options::default()).expect_err("no gpu.module");
    assert!(
        failed.to_string().contains("this input has none"),
        "{failed}"
    );
    // Lowered MLIR of nothing is fine.
    let mlir = Options {
        emit: Emit::Mlir,
        ..Default::default()
    };
    assert_eq!(
        acopy::compile("module {}", &mlir).expect("empty").outputs,
        vec![]
    );
}

#[test]
fn a_module_input_is_left_unchanged() {
    let context = acopy::create_context().expect("context");
    let module = acopy::melior::ir::Module::parse(&context, SM90).expect("parses");
    let before = module.as_operation().to_string();
    let compiled = acopy::compile(&module, &Options::default()).expect("compiles");
    assert!(compiled.outputs[0].text.contains(".target sm_90"));
    assert_eq!(module.as_operation().to_string(), before);
    // A second call on the same context collects only its own diagnostics.
    let failed = acopy::compile(
        &module,
        &Options {
            chip: chip("sm_80"),
            ..Default::default()
        },
    )
    .expect_err("E1 on sm_80");
    let rules: Vec<_> = failed.errors().map(|d| d.rule).collect();
    assert_eq!(rules, [Some("E1"), Some("A5"), Some("A6")], "{failed}");
}

#[test]
fn threads_give_the_same_ptx() {
    let single = acopy::compile(SM90, &Options::default()).expect("compiles");
    let multi = acopy::compile(
        SM90,
        &Options {
            threads: Some(true),
            ..Default::default()
        },
    )
    .expect("compiles");
    assert_eq!(single.outputs, multi.outputs);
    // Each call has its own context, so callers may compile on several threads.
    let handles: Vec<_> = (0..2)
        .map(|_| std::thread::spawn(|| acopy::compile(SM90, &Options::default())))
        .collect();
    for handle in handles {
        let compiled = handle.join().expect("no panic").expect("compiles");
        assert_eq!(compiled.outputs, single.outputs);
    }
}

#[test]
fn errors_cross_threads() {
    fn sendable<T: std::error::Error + Send + Sync + 'static>() {}
    sendable::<acopy::Failed>();
    sendable::<acopy::passes::manifest::CollectError>();
    sendable::<acopy::passes::pass_pipeline::PipelineError>();
    sendable::<acopy::dialect::DialectError>();
    sendable::<acopy::dialect::kernel::KernelError>();
}

#[test]
fn notes_stay_with_their_diagnostic() {
    let text = "module {\n  func.func private @f()\n  func.func private @f()\n}\n";
    let failed = acopy::compile(text, &Options::default()).expect_err("redefinition");
    let error = failed.errors().next().expect("an error");
    assert!(
        error.message.contains("redefinition of symbol named 'f'"),
        "{failed}"
    );
    assert_eq!(error.position.as_ref().map(|p| p.line), Some(3));
    // MLIR's dump of the failing op comes first (is_op_dump lets callers
    // drop it, as the driver does), then the note the verifier attached.
    assert_eq!(error.notes.len(), 2, "{failed}");
    assert!(error.notes[0].is_op_dump());
    let note = &error.notes[1];
    assert!(!note.is_op_dump());
    assert_eq!(note.severity, Severity::Note);
    assert_eq!(note.message, "see existing symbol definition here");
    assert_eq!(
        note.position.as_ref().map(|p| (p.file.as_str(), p.line)),
        Some(("<input>", 2))
    );
    // Display prints the note under its error, as mlir-opt does.
    assert!(
        failed
            .to_string()
            .contains("\n<input>:2:3: note: see existing symbol definition here"),
        "{failed}"
    );
}

/// Each output names its chip from the compiler (the PTX object's target or
/// the module's), and a module for two chips has a manifest entry per chip,
/// each output holding its own.
#[test]
fn outputs_name_their_chip_and_hold_their_chips_entries() {
    for (emit, chip, want) in [
        (Emit::Ptx, None, "sm_90"),
        (Emit::Llvm, None, "sm_90"),
        (Emit::Mlir, None, "sm_90"),
        (Emit::Ptx, chip("sm_100a"), "sm_100a"),
        (Emit::Llvm, chip("sm_90a"), "sm_90a"),
    ] {
        let options = Options {
            emit,
            chip,
            ..Default::default()
        };
        let compiled = acopy::compile(SM90, &options).expect("compiles");
        assert_eq!(compiled.outputs[0].chip.as_deref(), Some(want), "{emit:?}");
        assert_eq!(compiled.manifest.kernels[0].chip, want, "{emit:?}");
    }
    let two_chips = r#"gpu.module @plain [#nvvm.target<chip = "sm_80">, #nvvm.target<chip = "sm_90">] {
  gpu.func @k(%x: f32) kernel {
    gpu.return
  }
}
"#;
    let compiled = acopy::compile(two_chips, &Options::default()).expect("compiles");
    let chips: Vec<Option<&str>> = compiled.outputs.iter().map(|o| o.chip.as_deref()).collect();
    assert_eq!(chips, [Some("sm_80"), Some("sm_90")]);
    for output in &compiled.outputs {
        let [entry] = output.manifest.kernels.as_slice() else {
            panic!("one entry per output: {:?}", output.manifest);
        };
        assert_eq!(Some(entry.chip.as_str()), output.chip.as_deref());
        assert!(output.text.contains(&format!(".target {}", entry.chip)));
    }
    assert_eq!(compiled.manifest.kernels.len(), 2);
}
