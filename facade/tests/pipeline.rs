//! `acopy::compile` pipelines loops marked `acopy.pipeline` (docs/pipelining.md):
//! each loop's remark (its data in `Diagnostic::detail`), the pipeline rules,
//! and loops marked through `acopy::dialect::builders` reach the caller.

use acopy::{target::CopyPath, Chip, Options, PipelinedLoop, Severity, TileSlots, WaitScheme};

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
fn a_marked_loop_compiles_for_both_paths_with_its_remark_as_data() {
    for (chip, instruction, sync) in [
        (
            "sm_80",
            "cp.async.wait_group",
            WaitScheme::WaitGroups { counts: vec![1] },
        ),
        (
            "sm_90",
            "mbarrier.try_wait.parity",
            WaitScheme::Barriers {
                barriers: 2,
                arrivals: 1,
                replaces_user_barrier: false,
            },
        ),
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
        // One remark for the loop, the clamp included.
        assert_eq!(remarks.len(), 1, "{:?}", compiled.diagnostics);
        assert_eq!(remarks[0].position.as_ref().map(|p| p.line), Some(8));
        let pipelined: Vec<_> = compiled.pipelined_loops().collect();
        assert_eq!(pipelined.len(), 1);
        let (position, data) = pipelined[0];
        assert_eq!(position.map(|p| p.line), Some(8));
        let tma = chip == "sm_90";
        // 8 x 128 f32 = 4096 bytes, already a multiple of both alignments.
        assert_eq!(
            *data,
            PipelinedLoop {
                chip: Chip::parse(chip).expect("a known chip"),
                path: if tma {
                    CopyPath::Tma
                } else {
                    CopyPath::CpAsync
                },
                stages: 2,
                requested: 4,
                auto: None,
                trips: Some(2),
                copies: 1,
                wgmma_in_flight: None,
                released_at_wait: None,
                producer_block: None,
                producer_threads: None,
                registers: None,
                warp_release: false,
                multicast: None,
                tiles: vec![TileSlots {
                    tile: "memref<8x128xf32, 3>".into(),
                    tile_bytes: 4096,
                    slot_bytes: 4096,
                    align: if tma { 128 } else { 16 },
                }],
                sync,
            }
        );
        assert_eq!(remarks[0].message, data.to_string());
        assert!(
            remarks[0].message.starts_with(
                "acopy.pipeline: 2 stages (the loop runs 2 times, so its 4 stages are clamped to 2)"
            ),
            "{}",
            remarks[0].message
        );
    }
}

#[test]
fn each_loop_reports_its_own_choice() {
    // A dynamic trip count on sm_80 at S = 4: one wait of S - 2 = 2 groups in
    // every iteration (the tail commits empty groups instead of counting down).
    let text = source(8, 100, 4)
        .replace("%c0 to %trips", "%c0 to %n")
        .replace(
            "%out: memref<4096x128xf32>)",
            "%out: memref<4096x128xf32>, %n: index)",
        );
    let compiled = acopy::compile(text.as_str(), &Options::default()).expect("compiles");
    let data: Vec<_> = compiled.pipelined_loops().map(|(_, data)| data).collect();
    assert_eq!(data.len(), 1);
    assert_eq!((data[0].stages, data[0].trips), (4, None));
    assert_eq!(data[0].sync, WaitScheme::WaitGroups { counts: vec![3] });
    assert_eq!(data[0].shared_bytes(), 4 * 4096);
    assert!(compiled.outputs[0]
        .text
        .contains("cp.async.wait_group \t3;"));
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

/// The first `scf.for` under `module`.
fn first_loop<'c, 'a>(
    module: &'a acopy::melior::ir::Module<'c>,
) -> acopy::melior::ir::OperationRef<'c, 'a> {
    use acopy::melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
    let mut found = None;
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if found.is_none() && op.name().as_string_ref().as_str() == Ok("scf.for") {
            found = Some(op.to_raw());
        }
        WalkResult::Advance
    });
    // SAFETY: the loop lives in `module`, which outlives the reference.
    unsafe { acopy::melior::ir::OperationRef::from_raw(found.expect("a loop")) }
}

#[test]
fn a_loop_marked_through_the_builder_is_pipelined() {
    // The text without its mark: a frontend built the loop and marks it from Rust.
    let text = source(8, 100, 3).replace(" {acopy.pipeline = {stages = 3 : i64}}", "");
    assert!(!text.contains("acopy.pipeline"));
    let context = acopy::create_context().expect("a context");
    let module = acopy::melior::ir::Module::parse(&context, &text).expect("parses");
    let options = Options::default();
    // Unmarked, the loop is one copy and one wait_group 0 per trip, and the
    // verifier warns of its write-after-read race.
    let plain = acopy::compile(&module, &options).expect("compiles");
    assert!(!plain.outputs[0].text.contains("cp.async.wait_group \t2;"));
    assert_eq!(plain.pipelined_loops().count(), 0);
    assert!(plain
        .diagnostics
        .iter()
        .any(|diagnostic| diagnostic.severity == Severity::Warning));
    acopy::dialect::builders::mark_for_pipelining(&context, first_loop(&module), 3);
    let compiled = acopy::compile(&module, &options).expect("compiles");
    // S = 3 waits with the two later tiles' groups pending (empty at the tail).
    assert!(compiled.outputs[0]
        .text
        .contains("cp.async.wait_group \t2;"));
    let stages: Vec<_> = compiled
        .pipelined_loops()
        .map(|(_, data)| (data.requested, data.stages))
        .collect();
    assert_eq!(stages, [(3, 3)]);
    assert!(!compiled
        .diagnostics
        .iter()
        .any(|diagnostic| diagnostic.severity == Severity::Warning));
}

/// A loop whose wgmma consumers wait for the group before the last one
/// (`wait_group 0` after the first commit) and leave the last in flight
/// (`wait_group 1`): `MARK` is filled in.
const EARLY: &str = r#"gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%src: memref<64x512xf16>, %out: memref<64x64xf32>) workgroup(%ta: memref<64x64xf16, 3>) kernel attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %ctrips = arith.constant 8 : index
    %zero = llvm.mlir.zero : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %acc = scf.for %kt = %c0 to %ctrips step %c1 iter_args(%a0 = %zero) -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>) {
      %col = arith.muli %kt, %c64 : index
      acopy.copy_gmem_to_smem %src[%c0, %col] -> %ta {oob_mode = "promise_in_bounds", swizzle = 128 : i64} : memref<64x512xf16> -> memref<64x64xf16, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      nvvm.wgmma.fence.aligned
      %da = acopy.wgmma_descriptor %ta[%c0] : memref<64x64xf16, 3>
      %a1 = nvvm.wgmma.mma_async %da, %da, %a0, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      nvvm.wgmma.fence.aligned
      %a2 = nvvm.wgmma.mma_async %da, %da, %a1, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 1
      scf.yield %a2 : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    } {acopy.pipeline = MARK}
    nvvm.wgmma.wait.group.sync.aligned 0
    %v0 = llvm.extractvalue %acc[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    memref.store %v0, %out[%c0, %c0] : memref<64x64xf32>
    gpu.return
  }
}
"#;

/// With a producer the consumers release each slot at the body's earlier
/// wait, and the data says so; the whole block refills at the body's end,
/// and its data says nothing of an earlier wait.
#[test]
fn the_data_says_where_a_producers_consumers_release() {
    for (mark, released) in [
        ("{stages = 2 : i64}", None),
        ("{stages = 2 : i64, producer = \"warpgroup\"}", Some(0)),
    ] {
        let text = EARLY.replace("MARK", mark);
        let compiled = acopy::compile(text.as_str(), &Options::default()).expect("compiles");
        let pipelined: Vec<_> = compiled.pipelined_loops().collect();
        assert_eq!(pipelined.len(), 1, "{mark}");
        let (_, data) = pipelined[0];
        assert_eq!(data.wgmma_in_flight, Some(1), "{mark}");
        assert_eq!(data.released_at_wait, released, "{mark}");
    }
}
