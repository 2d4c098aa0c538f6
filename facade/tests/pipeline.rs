//! `acopy::compile` pipelines loops marked `acopy.pipeline` (docs/pipelining.md):
//! the clamp remark and the pipeline rules reach the caller as data.

use acopy::{Chip, Options, Severity};

/// A marked loop; `TRIPS` and `STAGES` are filled in.
const LOOP: &str = r#"gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>) workgroup(%tile: memref<TILEx128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %trips = arith.constant TRIPS : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %trips step %c1 {
      %row = arith.muli %i, %c8 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<TILEx128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<TILEx128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = STAGES : i64}}
    gpu.return
  }
}
"#;

fn source(tile: u32, trips: u32, stages: u32) -> String {
    LOOP.replace("TILE", &tile.to_string())
        .replace("TRIPS", &trips.to_string())
        .replace("STAGES", &stages.to_string())
}

#[test]
fn a_marked_loop_compiles_for_both_paths_with_its_clamp_remark() {
    for (chip, instruction) in [
        ("sm_80", "cp.async.wait_group"),
        ("sm_90", "mbarrier.try_wait.parity"),
    ] {
        let options = Options {
            chip: Some(Chip::parse(chip).expect("a known chip")),
            ..Default::default()
        };
        let compiled = acopy::compile(source(8, 2, 4).as_str(), &options).expect("compiles");
        assert!(compiled.outputs[0].text.contains(instruction), "{chip}");
        let remarks: Vec<_> = compiled
            .diagnostics
            .iter()
            .filter(|diagnostic| diagnostic.severity == Severity::Remark)
            .collect();
        assert_eq!(remarks.len(), 1, "{:?}", compiled.diagnostics);
        assert_eq!(
            remarks[0].message,
            "acopy.pipeline: the loop runs 2 times, so its 4 stages are clamped to 2"
        );
        assert_eq!(remarks[0].position.as_ref().map(|p| p.line), Some(8));
    }
}

#[test]
fn the_budget_rule_reaches_the_caller_with_its_id() {
    // 4 slots of a 32 KiB tile: 131072 bytes, above sm_86's 99 KiB.
    let options = Options {
        chip: Some(Chip::parse("sm_86").expect("a known chip")),
        ..Default::default()
    };
    let failed = acopy::compile(source(64, 100, 4).as_str(), &options).expect_err("refused");
    let errors: Vec<_> = failed
        .diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.severity == Severity::Error)
        .collect();
    assert_eq!(errors.len(), 1, "{:?}", failed.diagnostics);
    assert_eq!(errors[0].rule, Some("P10"));
    assert_eq!(
        errors[0].message,
        "the pipelined loop needs 131072 bytes of shared memory on sm_86 (4 x 32768 bytes for memref<64x128xf32, 3>), more than the 101376 bytes a block can have; at most 3 stages fit"
    );
}
