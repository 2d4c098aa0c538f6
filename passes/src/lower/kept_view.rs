//! The view verification made of an acopy op, kept for its lowering.
//!
//! Verification reads every acopy op into its view (`acopy_dialect::AcopyOp`)
//! before the lowering starts; reading each op again was about 3 % of
//! lowering kernels of TMA copies (bench/RESULTS.md, compile speed). Between
//! the two, the lowering of earlier ops may replace the uses of a value (a
//! lowered `acopy.swizzled_index` or `acopy.wgmma_descriptor`, a loop rebuilt
//! with more results) that a later op takes, which its kept view would still
//! name. The op's own attributes are not changed by other ops' lowering (a
//! pinned plan goes on swizzled indices and descriptors, whose views are read
//! again here). So a copy's view is used only while the op's operands are the
//! values the view names, one for one, and any other view is read again.

use acopy_dialect::{AcopyOp, CopyGmemToSmem};
use melior::ir::{operation::OperationLike, Value};

/// `view`, if its op is still as the view says; `None` to read it again.
pub(super) fn current<'c, 'a>(view: AcopyOp<'c, 'a>) -> Option<AcopyOp<'c, 'a>> {
    match &view {
        AcopyOp::CopyGmemToSmem(copy) if same_operands(copy) => Some(view),
        _ => None,
    }
}

/// Whether the copy's operands are, in order, the values its view names.
fn same_operands(copy: &CopyGmemToSmem) -> bool {
    let named: Vec<Value> = [copy.src, copy.dst]
        .into_iter()
        .chain(copy.indices.iter().copied())
        .chain(copy.barrier)
        .chain(copy.predicate)
        .collect();
    copy.op.operand_count() == named.len()
        && named.iter().enumerate().all(|(index, value)| {
            copy.op
                .operand(index)
                .is_ok_and(|operand| operand == *value)
        })
}

#[cfg(test)]
mod tests {
    use acopy_dialect::AcopyOp;
    use melior::ir::{
        block::BlockLike,
        operation::{OperationLike, WalkOrder, WalkResult},
        Module, OperationRef, RegionLike,
    };

    const TEXT: &str = r#"gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<64x128xf32>, %p: i1) workgroup(%dst: memref<64x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    "acopy.copy_gmem_to_smem"(%src, %dst, %c0, %c0, %bar, %p) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>, oob_mode = "promise_in_bounds"} : (memref<64x128xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>, i1) -> ()
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    gpu.return
  }
}"#;

    /// The views of `module`'s acopy ops, in walk order.
    fn views<'c, 'a>(module: &'a Module<'c>) -> Vec<AcopyOp<'c, 'a>> {
        let mut raw = Vec::new();
        module.as_operation().walk(WalkOrder::PreOrder, |op| {
            if AcopyOp::from_op(op).is_some() {
                raw.push(op.to_raw());
            }
            WalkResult::Advance
        });
        raw.into_iter()
            .filter_map(|raw| {
                // SAFETY: found in the live module, which outlives the views.
                let op = unsafe { OperationRef::from_raw(raw) };
                AcopyOp::from_op(op)?.ok()
            })
            .collect()
    }

    /// A copy's view is kept while each operand is the value it names, in
    /// every segment; another op's view, or a copy whose operand changed
    /// (its uses replaced, as a lowered swizzled index does), is read again.
    #[test]
    fn keeps_a_copy_view_while_its_operands_are_the_same() {
        let context = crate::context::create_context().expect("context");
        let module = Module::parse(&context, TEXT).expect("parses");
        let [copy, init] = <[AcopyOp; 2]>::try_from(views(&module))
            .ok()
            .expect("two views");
        assert!(matches!(super::current(init), None));
        let AcopyOp::CopyGmemToSmem(kept) = &copy else {
            panic!("the first view is the copy's")
        };
        let op = kept.op;
        let c8 = module
            .body()
            .first_operation()
            .and_then(|gpu_module| gpu_module.region(0).ok()?.first_block()?.first_operation())
            .and_then(|function| function.region(0).ok()?.first_block()?.first_operation())
            .and_then(|c0| c0.next_in_block())
            .and_then(|c8| c8.result(0).ok())
            .expect("%c8");
        assert!(super::current(AcopyOp::from_op(op).expect("a view").expect("reads")).is_some());
        // Each operand in turn (src, dst, an index, the barrier, the
        // predicate) replaced by another value of the module, then put back.
        for index in 0..op.operand_count() {
            let original = op.operand(index).expect("an operand");
            let other = if index == 4 {
                op.operand(0)
            } else {
                op.operand(4)
            }
            .expect("a value");
            let other = if index == 2 || index == 3 {
                c8.into()
            } else {
                other
            };
            assert_ne!(original, other);
            // SAFETY: the op is live; the value is a live value of the module.
            unsafe { crate::ir::build::set_operand(op, index, other) };
            let view = AcopyOp::CopyGmemToSmem(kept.clone());
            assert!(super::current(view).is_none(), "operand {index}");
            // SAFETY: as above.
            unsafe { crate::ir::build::set_operand(op, index, original) };
        }
        assert!(super::current(copy).is_some());
    }
}
