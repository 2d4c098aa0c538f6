//! Plans of copies parsed from text: what each plan says, and the one view
//! walker's answers.

use acopy_dialect::{AcopyOp, CopyGmemToSmem};
use melior::ir::{
    operation::{OperationLike, WalkOrder, WalkResult},
    Module, OperationRef,
};

use super::{
    alignment::{view_root, Origin},
    tma_load::{Mode, Slice, StartPath},
    CopyPlan, PlanError,
};
use crate::{context::create_context, target, PassOptions};

/// Runs `check` on the plan of each `copy_gmem_to_smem` in `text`, in order.
fn each_plan(text: &str, fallback: bool, check: impl Fn(usize, Result<CopyPlan, PlanError>)) {
    let context = create_context().expect("the acopy dialect loads");
    let module = Module::parse(&context, text).expect("the test input parses");
    let options = PassOptions {
        fallback,
        ..PassOptions::default()
    };
    let mut ops = Vec::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if let Some(Ok(AcopyOp::CopyGmemToSmem(_))) = AcopyOp::from_op(op) {
            ops.push(op.to_raw());
        }
        WalkResult::Advance
    });
    assert!(!ops.is_empty(), "no copy in the test input");
    for (index, raw) in ops.into_iter().enumerate() {
        // SAFETY: the module that holds the op lives until the end of the test.
        let op = unsafe { OperationRef::from_raw(raw) };
        let Some(Ok(AcopyOp::CopyGmemToSmem(view))) = AcopyOp::from_op(op) else {
            unreachable!("collected as a copy");
        };
        let view: CopyGmemToSmem = view;
        let target = target::resolve(op, &options).expect("the chip resolves");
        check(index, CopyPlan::of(&view, &target, &options));
    }
}

/// A kernel on sm_80 with one copy from argument `src` to attribution `dst`.
fn cp_async_kernel(src: &str, dst: &str) -> String {
    format!(
        r#"gpu.module @m [#nvvm.target<chip = "sm_80">] {{
  gpu.func @k(%src: {src}) workgroup(%dst: {dst}) kernel {{
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%src, %dst, %c0, %c0) {{operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"}} : ({src}, {dst}, index, index) -> ()
    gpu.return
  }}
}}"#
    )
}

/// `fact` of each acopy op in `text` that it answers, in order.
fn each_view<T>(text: &str, mut fact: impl FnMut(&AcopyOp) -> Option<T>) -> Vec<T> {
    let context = create_context().expect("the acopy dialect loads");
    let module = Module::parse(&context, text).expect("the test input parses");
    let mut found = Vec::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if let Some(Ok(view)) = AcopyOp::from_op(op) {
            found.extend(fact(&view));
        }
        WalkResult::Advance
    });
    found
}

#[test]
fn a_cp_async_plan_has_rows_and_base_proofs() {
    let text = cp_async_kernel("memref<256x512xf32>", "memref<32x128xf32, 3>");
    each_plan(&text, false, |_, plan| {
        let plan = plan.expect("a plan");
        let CopyPlan::CpAsync(plan) = plan else {
            panic!("a cp.async plan");
        };
        // 32 rows of 128 contiguous f32 (src rows are 512 wide: no merge).
        assert_eq!(plan.rows.row_elements, 128);
        assert_eq!(plan.rows.dims.len(), 1);
        assert_eq!(plan.row_bytes, 512);
        assert!(!plan.zero_fill);
        // A global kernel argument: 16 bytes by the ABI; a workgroup
        // attribution: raised to 16.
        assert_eq!(plan.src.align, Some(16));
        assert_eq!(plan.src.root.origin, Origin::Input);
        assert_eq!(plan.dst.align, Some(16));
        assert!(matches!(plan.dst.root.origin, Origin::Attribution(_, 0)));
    });
}

#[test]
fn cp_async_rows_of_six_bytes_have_no_plan() {
    // 8 rows of 3 f16 merge into one row of 48 bytes.
    let dense = cp_async_kernel("memref<8x3xf16>", "memref<8x3xf16, 3>");
    each_plan(&dense, false, |_, plan| {
        assert_eq!(plan.err(), None, "one contiguous row of 48 bytes");
    });
    let strided = cp_async_kernel("memref<8x3xf16, strided<[4, 1]>>", "memref<8x3xf16, 3>");
    each_plan(&strided, false, |_, plan| {
        assert_eq!(plan.err(), Some(PlanError::RowBytes(6)));
    });
}

#[test]
fn tma_plans_of_the_four_shapes() {
    let text = r#"gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @k(%g: memref<256x512xf32>, %i: index) workgroup(%t: memref<8x32xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    "acopy.copy_gmem_to_smem"(%g, %t, %c0, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<8x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%g, %t, %c0, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"]} : (memref<256x512xf32>, memref<8x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%g, %t, %c0, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"], leader_tracked = "partitioned", partition_axis = 0 : i64} : (memref<256x512xf32>, memref<8x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%g, %t, %c0, %c3, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"], leader_tracked = "replicated"} : (memref<256x512xf32>, memref<8x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}"#;
    each_plan(text, true, |index, plan| {
        let plan = match plan {
            Ok(CopyPlan::Tma(plan)) => plan,
            Ok(_) => panic!("copy {index}: a cp.async plan on sm_100a"),
            Err(error) => {
                // The replicated load starts at column 3 and has no non-TMA path.
                assert_eq!((index, error), (3, PlanError::NoNonTmaPath));
                return;
            }
        };
        assert_eq!(plan.window, vec![8, 32], "copy {index}");
        assert_eq!(plan.align, 128);
        match index {
            0 => {
                assert_eq!(plan.mode, Mode::Single);
                assert_eq!(plan.slice, None);
                assert_eq!(plan.expect_bytes, 1024);
                assert_eq!(plan.start, StartPath::Tma);
                assert!(plan.non_tma.is_none());
                assert_eq!(
                    plan.map
                        .box_shape
                        .iter()
                        .map(|&d| i64::from(d))
                        .collect::<Vec<_>>(),
                    vec![8, 32]
                );
            }
            1 => {
                assert!(matches!(plan.mode, Mode::Multicast(_)));
                let slice = Slice {
                    dim: 0,
                    rows: 4,
                    bytes: 512,
                };
                assert_eq!(plan.slice, Some(slice));
                assert_eq!(plan.expect_bytes, 1024);
                assert_eq!(
                    plan.map
                        .box_shape
                        .iter()
                        .map(|&d| i64::from(d))
                        .collect::<Vec<_>>(),
                    vec![4, 32]
                );
                // A dynamic column: checked at run time, cp.async behind it.
                assert_eq!(plan.start, StartPath::RunTimeCheck);
                assert!(plan.non_tma.as_ref().is_some_and(|plan| plan.fallback));
            }
            2 => {
                assert_eq!(plan.mode, Mode::Partitioned(0));
                assert_eq!(plan.expect_bytes, 2048);
            }
            _ => panic!("copy {index} should have no plan"),
        }
    });
}

#[test]
fn the_view_walker_looks_through_views_and_caps_at_a_view_shift() {
    let text = r#"gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%g: memref<256x512xf32>) workgroup(%w: memref<8192xi8, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c1024 = arith.constant 1024 : index
    %a = memref.view %w[%c1024][] : memref<8192xi8, 3> to memref<8x32xf32, 3>
    "acopy.copy_gmem_to_smem"(%g, %a, %c0, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<8x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    %b = memref.view %w[%c64][] : memref<8192xi8, 3> to memref<8x32xf32, 3>
    "acopy.copy_gmem_to_smem"(%g, %b, %c0, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<8x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    %d = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %e = memref.view %d[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8x32xf32, #gpu.address_space<workgroup>>
    %f = memref.assume_alignment %e, 256 : memref<8x32xf32, #gpu.address_space<workgroup>>
    "acopy.copy_gmem_to_smem"(%g, %f, %c0, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%g, %e, %c0, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}"#;
    let answers = each_view(text, |view| {
        let AcopyOp::CopyGmemToSmem(view) = view else {
            return None;
        };
        let root = view_root(view.dst);
        let origin = match root.origin {
            Origin::Attribution(_, 0) => "attribution 0",
            Origin::Assumed(256) => "assumed 256",
            Origin::DynamicShared => "dynamic shared memory",
            _ => "other",
        };
        Some((origin, root.shift_divisor, root.guaranteed(true, 128)))
    });
    let [a, b, f, e] = answers.as_slice() else {
        panic!("four copies: {answers:?}");
    };
    // A workgroup attribution raised to 128, moved by 1024 bytes: 128.
    assert_eq!(*a, ("attribution 0", 1024, Some(128)));
    // Moved by 64 bytes: only 64.
    assert_eq!(*b, ("attribution 0", 64, Some(64)));
    // The walk stops at the promise.
    assert_eq!((f.0, f.2), ("assumed 256", Some(256)));
    // Dynamic shared memory is 16-byte aligned, whatever is asked.
    assert_eq!((e.0, e.2), ("dynamic shared memory", Some(16)));
}

#[test]
fn store_plans_name_the_reduction_and_the_map() {
    let text = r#"gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%g: memref<256x512xf32>, %h: memref<4x256x512xi32>) workgroup(%t: memref<8x32xf32, 3>, %u: memref<8x32xi32, 3>) kernel {
    %c0 = arith.constant 0 : index
    "acopy.copy_smem_to_gmem"(%t, %g, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0>, reduction_op = "max"} : (memref<8x32xf32, 3>, memref<256x512xf32>, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%u, %h, %c0, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 3, 0>, reduction_op = "smin"} : (memref<8x32xi32, 3>, memref<4x256x512xi32>, index, index, index) -> ()
    "acopy.copy_smem_to_gmem"(%u, %h, %c0, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 3, 0>, reduction_op = "umin"} : (memref<8x32xi32, 3>, memref<4x256x512xi32>, index, index, index) -> ()
    gpu.return
  }
}"#;
    let plans = each_view(text, |view| {
        let AcopyOp::CopySmemToGmem(view) = view else {
            return None;
        };
        Some(super::tma_store::TmaStorePlan::of(view).map(|plan| {
            let map: Vec<i64> = plan.map.box_shape.iter().map(|&d| i64::from(d)).collect();
            (
                plan.reduction,
                plan.window,
                map,
                plan.map.arg,
                plan.element_bytes,
            )
        }))
    });
    assert_eq!(
        plans,
        vec![
            // A float `max` is the map's `max`; the box is the window.
            Ok((Some("max"), vec![8, 32], vec![8, 32], 0, 4)),
            // Integer reductions follow the signed map: `smin` is `min`.
            Ok((Some("min"), vec![1, 8, 32], vec![1, 8, 32], 1, 4)),
            // `umin` would need an unsigned map.
            Err(PlanError::Reduction),
        ]
    );
}

#[test]
fn a_partition_axis_must_be_below_the_windows_rank() {
    // Rule A9 refuses these before any plan is built; the plan refuses them
    // too, so a lowering that is handed one cannot split along a dimension the
    // window does not have. Axis 1 is the last dimension of a rank-2 window,
    // axis 2 is one past it.
    let text = r#"gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @k(%g: memref<256x512xf32>) workgroup(%t: memref<8x32xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : index
    "acopy.copy_gmem_to_smem"(%g, %t, %c0, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"], leader_tracked = "partitioned", partition_axis = 1 : i64} : (memref<256x512xf32>, memref<8x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%g, %t, %c0, %c0, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"], leader_tracked = "partitioned", partition_axis = 2 : i64} : (memref<256x512xf32>, memref<8x32xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}"#;
    each_plan(text, false, |index, plan| match (index, plan) {
        (0, Ok(CopyPlan::Tma(plan))) => assert_eq!(plan.mode, Mode::Partitioned(1)),
        (1, plan) => assert_eq!(plan.err(), Some(PlanError::PartitionAxis)),
        (index, plan) => panic!("copy {index}: unexpected {:?}", plan.map(|_| ())),
    });
}
