//! Who runs the code before a warp-specialized loop (docs/pipelining.md,
//! "Code only the consumers run").
//!
//! The producer needs only what its copies and the loop's bounds read. So an
//! op before the loop runs on both roles when it only computes a value (at
//! the kernel's top level, also when it copies into shared memory or waits for
//! such a copy, as long as nothing the consumers alone run came before it),
//! and on the consumers alone otherwise: a wgmma that starts the first
//! iteration's work, a barrier among the consumers, a TMA load of a tile only
//! they read. What the producer needs must not come from such an op, and what
//! the consumers run alone must not need the producer's threads (an acopy op
//! that deals work over the block, a barrier of the whole block other than
//! `gpu.barrier`) nor write global memory (the producer's copies, issued
//! meanwhile, could read it).

use melior::ir::{
    block::BlockLike,
    operation::{OperationLike, WalkOrder, WalkResult},
    OperationRef, Value, ValueLike,
};

use super::loop_plan::PipeCopy;
use crate::ir::{
    self,
    op_names::{self as op_names, gpu, llvm, memref, prefixes, vector},
};
use acopy_dialect::names;

/// The ops before `loop_op` in its block that only the consumers run, in
/// order; or why one of them cannot be split off (P18's `why`).
/// `top_level`: the loop stands in the kernel's body (every thread runs the
/// code before the split) rather than in a persistent loop (whose body the
/// producer runs a copy of). `tma`: the loop copies by TMA, so a copy on a
/// barrier and its wait need only the thread that issues it.
pub fn consumers_only<'c, 'a>(
    loop_op: OperationRef<'c, 'a>,
    copies: &[PipeCopy<'c, 'a>],
    removed: Option<OperationRef<'c, 'a>>,
    (top_level, tma): (bool, bool),
) -> Result<Vec<OperationRef<'c, 'a>>, String> {
    let mut alone: Vec<OperationRef<'c, 'a>> = Vec::new();
    let mut current = loop_op.block().and_then(|block| block.first_operation());
    while let Some(op) = current.filter(|op| *op != loop_op) {
        current = op.next_in_block();
        if Some(op) == removed || runs_on_both(op, &alone, top_level) {
            continue;
        }
        if let Some(problem) = consumer_problem(op, tma) {
            return Err(format!("'{}' comes before it {problem}", ir::op_name(&op)));
        }
        alone.push(op);
    }
    if let Some(source) = producer_needs(loop_op, copies)
        .into_iter()
        .find_map(|value| defined_by(value, &alone))
    {
        return Err(format!(
            "its copies or bounds need the value of '{}', which more than computes a value (the producer cannot run it)",
            ir::op_name(&source)
        ));
    }
    Ok(alone)
}

/// Whether both roles run `op`: it computes a value (or, at the top level and
/// before anything the consumers run alone, loads shared memory) from values
/// both roles have.
fn runs_on_both(op: OperationRef, alone: &[OperationRef], top_level: bool) -> bool {
    let name = ir::op_name(&op);
    let allowed = computes_only(&name) || (top_level && alone.is_empty() && loads_shared(&name));
    allowed
        && op.region_count() == 0
        && (0..op.operand_count()).all(|index| {
            op.operand(index)
                .map_or(true, |value| defined_by(value, alone).is_none())
        })
}

/// The values the producer reads from before the loop: the bounds and step,
/// and what each copy and the ops its indices are computed by read.
fn producer_needs<'c, 'a>(
    loop_op: OperationRef<'c, 'a>,
    copies: &[PipeCopy<'c, 'a>],
) -> Vec<Value<'c, 'a>> {
    let operands = |op: OperationRef<'c, 'a>, upto: usize| -> Vec<Value<'c, 'a>> {
        (0..op.operand_count().min(upto))
            .filter_map(|index| op.operand(index).ok())
            .collect()
    };
    let mut needs = operands(loop_op, 3);
    for copy in copies {
        needs.extend(operands(copy.op, usize::MAX));
        for op in &copy.slice {
            needs.extend(operands(*op, usize::MAX));
        }
    }
    needs
}

/// The op of `ops` whose result `value` is.
fn defined_by<'c, 'a>(
    value: Value<'c, 'a>,
    ops: &[OperationRef<'c, 'a>],
) -> Option<OperationRef<'c, 'a>> {
    let owner = ir::defining_op(value)?;
    ops.iter().copied().find(|op| *op == owner)
}

/// Why the consumers cannot run `op` (or an op in it) alone, if they cannot.
fn consumer_problem(op: OperationRef, tma: bool) -> Option<&'static str> {
    if first_block_wide(op, tma).is_some() {
        return Some("and needs the whole block (the consumers run it alone)");
    }
    let mut writes = false;
    op.walk(WalkOrder::PreOrder, |inner| {
        writes = writes_global(inner, &ir::op_name(&inner));
        match writes {
            true => WalkResult::Interrupt,
            false => WalkResult::Advance,
        }
    });
    writes.then_some("and writes global memory, which the producer's copies may read meanwhile")
}

/// A copy into shared memory, its barrier or its wait: at the kernel's top
/// level every thread of the grown block may run them before the roles split
/// (the copy's lowering deals its work over that block, or one thread issues
/// it), so the tile is there for the consumers and the producer only waits
/// with them.
pub(super) fn loads_shared(name: &str) -> bool {
    [
        names::COPY_GMEM_TO_SMEM,
        names::WAIT_GMEM_TO_SMEM,
        names::BARRIER_INIT,
        names::BARRIER_WAIT,
    ]
    .contains(&name)
}

/// Ops the producer may run before the loop: they compute values only (a
/// special register's read, such as the SM count a persistent kernel divides
/// its tiles by, included).
pub(super) fn computes_only(name: &str) -> bool {
    op_names::is_pure(name)
        || name.starts_with("math.")
        || name.starts_with(prefixes::NVVM_SREG)
        || name.starts_with(prefixes::LLVM_MLIR)
        || name == gpu::DYNAMIC_SHARED_MEMORY.name
}

/// The first op in `op` (or `op`) that needs threads outside the consumers:
/// an acopy op other than a store (and, with `tma`, other than a copy on a
/// barrier and the barrier's init and wait), or a barrier of the block other
/// than `gpu.barrier`.
pub(super) fn first_block_wide(op: OperationRef, tma: bool) -> Option<String> {
    let mut found = None;
    op.walk(WalkOrder::PreOrder, |inner| {
        let name = ir::op_name(&inner);
        if is_block_wide(&name) && !(tma && issued_alone(inner, &name)) {
            found = Some(name);
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    found
}

/// Whether `name` needs every thread of the block (or lowers to something
/// that does).
fn is_block_wide(name: &str) -> bool {
    // Index computations, and TMA stores with their waits: a store is issued by
    // thread 0, a consumer, and the barriers its lowering adds become the
    // consumers' (`crate::target::roles`).
    let computes = [
        names::WGMMA_DESCRIPTOR,
        names::SWIZZLED_INDEX,
        names::COPY_SMEM_TO_GMEM,
        names::WAIT_SMEM_TO_GMEM,
    ];
    (name.starts_with("acopy.") && !computes.contains(&name))
        || name.starts_with(prefixes::NVVM_BARRIER)
        || name.starts_with(prefixes::NVVM_CLUSTER_OPS)
        || name == gpu::ALL_REDUCE.name
}

/// A TMA copy on a barrier, its barrier's init or its wait: one thread issues
/// the copy, and any set of threads may wait.
fn issued_alone(op: OperationRef, name: &str) -> bool {
    name == names::BARRIER_WAIT
        || name == names::BARRIER_INIT
        || (name == names::COPY_GMEM_TO_SMEM
            && acopy_dialect::CopyGmemToSmem::from_op(op).is_ok_and(|copy| copy.barrier.is_some()))
}

/// Whether `op` stores to memory outside shared memory.
fn writes_global(op: OperationRef, name: &str) -> bool {
    let writers = [
        memref::STORE,
        memref::ATOMIC_RMW,
        memref::GENERIC_ATOMIC_RMW,
        vector::STORE,
        vector::MASKEDSTORE,
        llvm::STORE,
        llvm::ATOMICRMW,
    ];
    let writer =
        writers.iter().any(|writer| writer.name == name) || name == names::COPY_SMEM_TO_GMEM;
    writer
        && (0..op.operand_count()).any(|index| {
            op.operand(index)
                .is_ok_and(|value| addresses_outside_shared(&value.r#type().to_string()))
        })
}

/// Whether a printed operand type is a memref or pointer outside shared
/// memory (address space 3, or `#gpu.address_space<workgroup>`).
fn addresses_outside_shared(printed: &str) -> bool {
    let shared = printed.ends_with(", 3>")
        || printed.ends_with("#gpu.address_space<workgroup>>")
        || printed == "!llvm.ptr<3>";
    (printed.starts_with("memref<") || printed.starts_with("!llvm.ptr")) && !shared
}

#[cfg(test)]
mod tests {
    use super::addresses_outside_shared;

    #[test]
    fn only_shared_memory_is_inside() {
        assert!(addresses_outside_shared("memref<4x4xf32>"));
        assert!(addresses_outside_shared("memref<4x4xf32, 1>"));
        assert!(addresses_outside_shared("!llvm.ptr"));
        assert!(addresses_outside_shared("!llvm.ptr<1>"));
        assert!(!addresses_outside_shared("memref<4x4xf32, 3>"));
        assert!(!addresses_outside_shared(
            "memref<4x4xf32, #gpu.address_space<workgroup>>"
        ));
        assert!(!addresses_outside_shared("!llvm.ptr<3>"));
        assert!(!addresses_outside_shared("f32"));
        assert!(!addresses_outside_shared("index"));
    }
}
