//! `acopy.barrier_init` and `acopy.barrier_wait`, on both paths.
//!
//! - init: thread 0 of the block runs `nvvm.mbarrier.init` with the arrival
//!   count, followed on sm_90+ in a kernel with a cluster of more than one CTA
//!   by `nvvm.fence.mbarrier.init` (release at cluster scope, so that other
//!   CTAs' multicast copies see the initialised barrier); then every thread
//!   passes a block barrier, so the whole block sees the barrier initialised.
//!   With a cluster of more than one CTA a cluster barrier
//!   (`barrier.cluster.arrive.relaxed` + `wait`: the init fence is the
//!   release) follows: a peer's multicast or pair
//!   copy signals this CTA's barrier, so no CTA may issue one before every
//!   barrier of the cluster is initialised. `acopy.barrier_init` is therefore
//!   cluster-collective in such kernels, like every CTA reaching it anyway.
//!   An init followed in its block by another, with only value computations
//!   between (a pipelined loop's ring of S barriers), leaves both barriers to
//!   the last of the row: theirs cover every init before them, so a kernel
//!   pays one block barrier and one cluster barrier per row, not per init.
//! - wait: a spin loop on the phase parity: `nvvm.mbarrier.test.wait` on
//!   sm_80..sm_89 (which have no try_wait), `nvvm.mbarrier.try_wait` (the
//!   potentially blocking `try_wait.parity`) on sm_90 and newer.

use crate::ir::{
    self,
    op_names::{self, arith, nvvm},
};
use acopy_dialect::{BarrierInit, BarrierWait};
use acopy_target::Capability;
use melior::ir::{operation::OperationLike, OperationRef, Value};

use super::memref_address;
use crate::ir::build::{Builder, Cmp, Ix};
use crate::target::Target;

/// The barrier's address as `!llvm.ptr<3>`.
pub(super) fn barrier_pointer<'c, 'a>(
    b: &Builder<'c, 'a>,
    barrier: Value<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    let strided = memref_address::read_layout(b, barrier, "barrier", false)?;
    let offset = b.mul(strided.offset, Ix::Const(8))?;
    let address = b.add(Ix::Val(strided.base), offset)?;
    b.int_to_ptr(b.ix(address)?, 3)
}

/// Lowers `acopy.barrier_init`.
pub(super) fn lower_init<'c, 'a>(
    view: &BarrierInit<'c, 'a>,
    target: &Target,
    b: &Builder<'c, 'a>,
) -> Result<(), String> {
    let pointer = barrier_pointer(b, view.barrier)?;
    let (thread, _) = b.linear_thread(target.block)?;
    let thread = b.ix(thread)?;
    let zero = b.index(0)?;
    let first = b.cmpi(Cmp::Eq, thread, zero)?;
    let fence = target.chip.has(Capability::Clusters) && target.cluster_size() > 1;
    b.if_then(first, |b| {
        let count = b.int(32, i64::from(view.arrival_count))?;
        b.op(nvvm::MBARRIER_INIT, &[pointer, count], &[], &[])?;
        if fence {
            b.op(nvvm::FENCE_MBARRIER_INIT, &[], &[], &[])?;
        }
        Ok(())
    })?;
    if another_init_follows(view.op) {
        return Ok(());
    }
    b.block_barrier()?;
    if fence {
        // Relaxed: thread 0's `fence.mbarrier_init.release.cluster` before it
        // already releases the inits, the one thing this barrier publishes
        // (the PTX ISA's pairing for that fence, and CUTLASS's). The default
        // arrive's release costs a GPU-scope memory barrier in every thread.
        b.op(nvvm::CLUSTER_ARRIVE_RELAXED, &[], &[], &[])?;
        b.op(nvvm::CLUSTER_WAIT, &[], &[], &[])?;
    }
    Ok(())
}

/// Whether another `acopy.barrier_init` follows `op` in its block with only
/// value computations (pure ops without regions) between: its block and
/// cluster barriers then stand for `op`'s too.
fn another_init_follows(op: OperationRef) -> bool {
    let mut next = op.next_in_block();
    while let Some(candidate) = next {
        let name = ir::op_name(&candidate);
        if name == acopy_dialect::names::BARRIER_INIT {
            return true;
        }
        if candidate.region_count() > 0 || !op_names::has_no_effects(&name) {
            return false;
        }
        next = candidate.next_in_block();
    }
    false
}

/// Lowers `acopy.barrier_wait`.
pub(super) fn lower_wait<'c, 'a>(
    view: &BarrierWait<'c, 'a>,
    target: &Target,
    b: &Builder<'c, 'a>,
) -> Result<(), String> {
    let pointer = barrier_pointer(b, view.barrier)?;
    let parity = b.value(arith::EXTUI, &[view.parity], b.int_type(32), &[])?;
    let wait = if target.chip.has(Capability::MbarrierTryWait) {
        nvvm::MBARRIER_TRY_WAIT
    } else {
        nvvm::MBARRIER_TEST_WAIT
    };
    b.spin_until(|b| b.value(wait, &[pointer, parity], b.int_type(1), &[]))
}

#[cfg(test)]
mod tests {
    use super::another_init_follows;
    use crate::{context::create_context, ir};
    use melior::ir::Module;

    /// For each `acopy.barrier_init` of a kernel whose body is `body`, in
    /// order: whether another follows it in a row.
    fn rows(body: &str) -> Vec<bool> {
        let text = format!(
            "gpu.module @m [#nvvm.target<chip = \"sm_90\">] {{\n  gpu.func @k(%flag: memref<1xi64, 3>, %p: i1) workgroup(%ring : memref<32xi8, 3>) kernel {{\n    %c0 = arith.constant 0 : index\n{body}    gpu.return\n  }}\n}}"
        );
        let context = create_context().expect("the acopy dialect loads");
        let module = Module::parse(&context, &text).expect("the test input parses");
        ir::query::ops_where(module.as_operation(), |op| {
            ir::op_name(&op) == acopy_dialect::names::BARRIER_INIT
        })
        .into_iter()
        .map(another_init_follows)
        .collect()
    }

    fn init(offset: u32) -> String {
        format!("    %o{offset} = arith.constant {offset} : index\n    %b{offset} = memref.view %ring[%o{offset}][] : memref<32xi8, 3> to memref<1xi64, 3>\n    acopy.barrier_init %b{offset} {{arrival_count = 1 : i64}} : memref<1xi64, 3>\n")
    }

    #[test]
    fn value_computations_keep_a_row_and_anything_else_ends_it() {
        // Views and constants between: one row of three.
        let row = format!("{}{}{}", init(0), init(8), init(16));
        assert_eq!(rows(&row), [true, true, false]);
        // A store between ends the row.
        let store =
            "    %z = arith.constant 0 : i64\n    memref.store %z, %flag[%c0] : memref<1xi64, 3>\n";
        assert_eq!(
            rows(&format!("{}{store}{}", init(0), init(8))),
            [false, false]
        );
        // So does an op with a region, even one that only computes.
        let region = "    scf.if %p {\n    }\n";
        assert_eq!(
            rows(&format!("{}{region}{}", init(0), init(8))),
            [false, false]
        );
    }
}
