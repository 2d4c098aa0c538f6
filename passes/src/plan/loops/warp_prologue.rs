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
    op_names::{self as op_names, gpu, llvm, memref, nvvm, prefixes, vector},
};
use crate::target::roles::is_whole_block_barrier;
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
    let allowed =
        computes_only(&name) || (top_level && alone.is_empty() && before_the_split(&name));
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

/// What every thread of the grown block may run before the roles split, at
/// the kernel's top level or before a persistent loop: a copy into shared
/// memory, its barrier or its wait (the copy's lowering deals its work over
/// that block, or one thread issues it, so the tile is there for the
/// consumers and the producer only waits with them); and a grid dependency
/// (`nvvm.griddepcontrol`: the producer's copies must wait for the kernel
/// before too, so it runs on both roles or not at all: `is_block_wide`).
pub(super) fn before_the_split(name: &str) -> bool {
    [
        names::COPY_GMEM_TO_SMEM,
        names::WAIT_GMEM_TO_SMEM,
        names::BARRIER_INIT,
        names::BARRIER_WAIT,
        nvvm::GRIDDEPCONTROL.name,
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
/// than `gpu.barrier`. A named barrier with a thread count (`nvvm.barrier id
/// = N number_of_threads = T`, `nvvm.barrier.arrive`) names the threads that
/// take part, so the consumers may run it alone: ping-pong turns between
/// consumer warpgroups are such barriers.
pub(super) fn first_block_wide(op: OperationRef, tma: bool) -> Option<String> {
    let mut found = None;
    op.walk(WalkOrder::PreOrder, |inner| {
        let name = ir::op_name(&inner);
        let block_barrier = name != gpu::BARRIER.name && is_whole_block_barrier(&inner);
        if block_barrier || (is_block_wide(&name) && !(tma && issued_alone(inner, &name))) {
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
        || name.starts_with(prefixes::NVVM_CLUSTER_OPS)
        || name == gpu::ALL_REDUCE.name
        || name == nvvm::GRIDDEPCONTROL.name
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
    use crate::plan::loops::warp_tests::analyzed;

    /// A kernel for `chip` whose marked loop (producer warp) has `prologue`
    /// before it, at the top level or (`persistent`) in a loop over tiles
    /// `%t`; `row` is the copy's row (a value the prologue may define).
    fn kernel(chip: &str, prologue: &str, persistent: bool, row: &str) -> String {
        let (open, close) = match persistent {
            true => ("scf.for %t = %c0 to %n step %c1 {\n", "}\n"),
            false => ("", ""),
        };
        format!(
            r#"gpu.module @m [#nvvm.target<chip = "{chip}">] {{
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %rows: memref<64xindex>, %n: index) workgroup(%tile: memref<8x128xf32, 3>, %head: memref<8x128xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {{known_block_size = array<i32: 128, 1, 1>}} {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %false = arith.constant false
    acopy.barrier_init %bar {{arrival_count = 1 : i64}} : memref<1xi64, 3>
    {open}{prologue}
    scf.for %i = %c0 to %n step %c1 {{
      %step = arith.muli %i, %c8 : index
      %row = arith.addi {row}, %step : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {{oob_mode = "promise_in_bounds"}} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {{pending = 0 : i64}}
      %v = memref.load %tile[%c0, %c0] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %c0] : memref<4096x128xf32>
    }} {{acopy.pipeline = {{stages = 2 : i64, producer = "warp"}}}}
    {close}gpu.return
  }}
}}"#
        )
    }

    /// The names of the ops only the consumers run, or the refusal.
    fn alone(text: &str) -> Result<Vec<String>, String> {
        analyzed(text, |plan| {
            plan.consumers_only.iter().map(crate::ir::op_name).collect()
        })
    }

    const TMA_LOAD: &str = "acopy.copy_gmem_to_smem %src[%c0, %c0] -> %head barrier(%bar : memref<1xi64, 3>) {oob_mode = \"promise_in_bounds\"} : memref<4096x128xf32> -> memref<8x128xf32, 3>\n    acopy.barrier_wait %bar, %false : memref<1xi64, 3>\n";

    /// Index arithmetic, and special registers, `math`, `llvm.mlir` constants
    /// and the dynamic shared memory view: value computations, which both roles run.
    #[test]
    fn value_computations_run_on_both_roles() {
        let index = "%x = arith.addi %c1, %c8 : index\n";
        let others = "%s = nvvm.read.ptx.sreg.nsmid : i32\n    %m = math.absi %s : i32\n    %z = llvm.mlir.constant(1 : i32) : i32\n    %a = arith.addi %m, %z : i32\n    %x = arith.index_cast %a : i32 to index\n    %d = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>\n";
        for prologue in [index, others] {
            for persistent in [false, true] {
                let text = kernel("sm_90a", prologue, persistent, "%x");
                assert_eq!(alone(&text), Ok(vec![]), "{persistent}: {prologue}");
            }
        }
    }

    #[test]
    fn only_a_tma_copy_on_a_barrier_and_barrier_ops_need_just_their_issuer() {
        let unbarriered = "gpu.barrier\n    acopy.copy_gmem_to_smem %src[%c0, %c0] -> %head {oob_mode = \"promise_in_bounds\"} : memref<4096x128xf32> -> memref<8x128xf32, 3>\n";
        let cp_async_wait = "gpu.barrier\n    acopy.wait_gmem_to_smem {pending = 0 : i64}\n";
        let whole = "and needs the whole block (the consumers run it alone)";
        for (chip, prologue, op) in [
            ("sm_90a", unbarriered, "acopy.copy_gmem_to_smem"),
            ("sm_90a", cp_async_wait, "acopy.wait_gmem_to_smem"),
            (
                "sm_80",
                "gpu.barrier\n    acopy.barrier_wait %bar, %false : memref<1xi64, 3>\n",
                "acopy.barrier_wait",
            ),
        ] {
            let message = alone(&kernel(chip, prologue, true, "%c0")).expect_err("refused");
            assert!(
                message.ends_with(&format!("but '{op}' comes before it {whole}")),
                "{chip}: {message}"
            );
        }
    }

    #[test]
    fn what_follows_from_the_consumers_ops_is_theirs_and_the_rest_is_both() {
        let prologue = "gpu.barrier\n    %h = memref.load %head[%c0, %c0] : memref<8x128xf32, 3>\n    %g = arith.addf %h, %h : f32\n    %x = arith.addi %c1, %c8 : index\n    memref.store %g, %head[%c0, %c1] : memref<8x128xf32, 3>\n";
        for persistent in [false, true] {
            let text = kernel("sm_90a", prologue, persistent, "%x");
            let want = ["gpu.barrier", "memref.load", "arith.addf", "memref.store"];
            assert_eq!(
                alone(&text),
                Ok(want.map(String::from).to_vec()),
                "{persistent}"
            );
        }
    }

    #[test]
    fn a_load_of_shared_memory_runs_on_both_only_at_the_top_before_the_consumers_own() {
        let first = kernel(
            "sm_80",
            &TMA_LOAD
                .replace(
                    "acopy.barrier_wait %bar, %false : memref<1xi64, 3>\n",
                    "acopy.wait_gmem_to_smem {pending = 0 : i64}\n",
                )
                .replace(" barrier(%bar : memref<1xi64, 3>)", ""),
            false,
            "%c0",
        );
        assert_eq!(alone(&first), Ok(vec![]));
        let tma_after = kernel(
            "sm_90a",
            &format!("gpu.barrier\n    {TMA_LOAD}"),
            false,
            "%c0",
        );
        let want = [
            "gpu.barrier",
            "acopy.copy_gmem_to_smem",
            "acopy.barrier_wait",
        ];
        assert_eq!(alone(&tma_after), Ok(want.map(String::from).to_vec()));
        let in_persistent = kernel("sm_90a", TMA_LOAD, true, "%c0");
        let want = ["acopy.copy_gmem_to_smem", "acopy.barrier_wait"];
        assert_eq!(alone(&in_persistent), Ok(want.map(String::from).to_vec()));
    }

    #[test]
    fn what_the_consumers_cannot_run_alone_is_refused_with_its_reason() {
        let cp_async = "gpu.barrier\n    acopy.copy_gmem_to_smem %src[%c0, %c0] -> %head {oob_mode = \"promise_in_bounds\"} : memref<4096x128xf32> -> memref<8x128xf32, 3>\n";
        let global = "%f = arith.constant 1.0 : f32\n    memref.store %f, %out[%c0, %c0] : memref<4096x128xf32>\n";
        let needed = "%x = memref.load %rows[%c0] : memref<64xindex>\n";
        let cases = [
            (cp_async, "%c0", "'acopy.copy_gmem_to_smem' comes before it and needs the whole block (the consumers run it alone)"),
            ("nvvm.barrier0\n", "%c0", "'nvvm.barrier0' comes before it and needs the whole block (the consumers run it alone)"),
            ("%f = arith.constant 1.0 : f32\n    %r = gpu.all_reduce add %f uniform {} : (f32) -> f32\n", "%c0", "'gpu.all_reduce' comes before it and needs the whole block (the consumers run it alone)"),
            (global, "%c0", "'memref.store' comes before it and writes global memory, which the producer's copies may read meanwhile"),
            (needed, "%x", "its copies or bounds need the value of 'memref.load', which more than computes a value (the producer cannot run it)"),
        ];
        for (prologue, row, why) in cases {
            for persistent in [false, true] {
                let message =
                    alone(&kernel("sm_80", prologue, persistent, row)).expect_err("refused");
                assert!(
                    message.ends_with(&format!("but {why}")),
                    "{persistent}: {message}"
                );
            }
        }
    }

    #[test]
    fn a_named_barrier_with_a_thread_count_is_the_consumers_and_one_without_is_refused() {
        // Ping-pong turns between consumer warpgroups: the count names who takes part.
        let counted = "%id = arith.constant 2 : i32\n    %nt = arith.constant 64 : i32\n    nvvm.barrier.arrive id = %id number_of_threads = %nt\n    nvvm.barrier id = %id number_of_threads = %nt\n";
        for persistent in [false, true] {
            let text = kernel("sm_80", counted, persistent, "%c0");
            let want = ["nvvm.barrier.arrive", "nvvm.barrier"];
            assert_eq!(
                alone(&text),
                Ok(want.map(String::from).to_vec()),
                "{persistent}"
            );
            // Without a count it is every thread's, the producer's too.
            let whole = "%id = arith.constant 2 : i32\n    nvvm.barrier id = %id\n";
            let message = alone(&kernel("sm_80", whole, persistent, "%c0")).expect_err("refused");
            assert!(
                message.ends_with("but 'nvvm.barrier' comes before it and needs the whole block (the consumers run it alone)"),
                "{persistent}: {message}"
            );
        }
    }

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
