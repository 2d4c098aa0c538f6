//! A kernel's launch facts, read from the IR after `acopy-lower` (manifest
//! format version 2, crates/acopy-manifest/README.md): its arguments, its
//! static shared memory, and the dynamic shared memory it needs.
//!
//! Static shared memory is the sum of the kernel's workgroup attributions and
//! of the `memref.global`s in shared memory (address space 3 or
//! `#gpu.address_space<workgroup>`) that its `memref.get_global`s name, each
//! global once, each element in whole bytes. What ptxas places can differ:
//! padding it adds for alignment is not counted, and LLVM may drop an
//! attribution the kernel never uses (crates/acopy-manifest/README.md).
//!
//! Dynamic shared memory is the pipeliner's record
//! (`acopy.dynamic_shared_memory`, docs/pipelining.md) when the kernel has it;
//! otherwise 0 without `gpu.dynamic_shared_memory`, or the furthest byte any
//! `memref.view` of it reaches (the byte shift's upper bound plus the view's
//! size), or unknown when a use is neither such a view nor a read of its
//! address, or a shift has no bound [`bound`] finds.

use acopy_dialect::MemorySpace;
use acopy_manifest::{KernelArg, MemrefArgType, ScalarArgType};
use melior::ir::{
    attribute::IntegerAttribute,
    block::BlockLike,
    operation::{OperationLike, WalkOrder, WalkResult},
    r#type::MemRefType,
    OperationRef, RegionLike, ShapedTypeLike, Type, Value, ValueLike,
};

use crate::{
    ir::{
        self,
        memref_layout::{memref_bytes, shared_globals, storage_bits},
        op_names::{arith, gpu, memref},
    },
    target,
};

/// MLIR's marker for a dynamic size, stride or offset.
const DYNAMIC: i64 = i64::MIN;

/// The first `count` arguments of `function`'s type, described for the manifest.
pub(crate) fn arguments(function: OperationRef, count: usize) -> Result<Vec<KernelArg>, String> {
    let function_type = ir::function_type(function)?;
    (0..count.min(function_type.input_count()))
        .map(|index| {
            function_type
                .input(index)
                .map(argument)
                .map_err(|error| error.to_string())
        })
        .collect()
}

fn argument(ty: Type) -> KernelArg {
    let Ok(memref) = MemRefType::try_from(ty) else {
        return KernelArg::Scalar(ScalarArgType {
            mlir_type: ty.to_string(),
        });
    };
    let known = |value: i64| (value != DYNAMIC).then_some(value);
    let (strides, offset) = match crate::run_cache::layout(memref) {
        Some((strides, offset)) => (strides.into_iter().map(known).collect(), known(offset)),
        None => (vec![None; memref.rank()], None),
    };
    KernelArg::Memref(MemrefArgType {
        mlir_type: ty.to_string(),
        element: memref.element().to_string(),
        element_bits: storage_bits(memref.element()).and_then(|bits| u32::try_from(bits).ok()),
        shape: ir::shape(memref),
        strides,
        offset,
        contiguous: memref.affine_map().is_identity(),
        memory_space: memref.memory_space().map(|space| space.to_string()),
        global: MemorySpace::of(memref) == MemorySpace::Global,
    })
}

/// The kernel's static shared memory, as the module doc counts it.
pub(crate) fn static_shared_memory(function: OperationRef) -> Result<u32, String> {
    let mut total = 0u64;
    for memref in workgroup_attributions(function)? {
        total += sized(memref)?;
    }
    total += shared_global_bytes(function)?;
    u32::try_from(total).map_err(|_| format!("{total} bytes of static shared memory"))
}

fn sized(memref: MemRefType) -> Result<u64, String> {
    memref_bytes(memref).ok_or_else(|| format!("cannot count the shared memory of {memref}"))
}

/// The types of a gpu.func's workgroup attributions (entry block arguments
/// after the inputs, as many as `workgroup_attributions` says).
fn workgroup_attributions<'c>(
    function: OperationRef<'c, '_>,
) -> Result<Vec<MemRefType<'c>>, String> {
    let Some(block) = function.region(0).ok().and_then(|body| body.first_block()) else {
        return Ok(Vec::new());
    };
    let inputs = ir::function_inputs(function)?;
    let count = function
        .attribute("workgroup_attributions")
        .ok()
        .and_then(|count| IntegerAttribute::try_from(count).ok())
        .and_then(|count| usize::try_from(count.value()).ok())
        .unwrap_or(0);
    Ok((inputs..inputs + count)
        .filter_map(|index| block.argument(index).ok())
        .filter_map(|argument| MemRefType::try_from(argument.r#type()).ok())
        .collect())
}

/// Bytes of the shared-memory `memref.global`s the kernel names, each once.
fn shared_global_bytes(function: OperationRef) -> Result<u64, String> {
    let Some(module) = target::enclosing(function, crate::ir::op_names::gpu::MODULE) else {
        return Ok(0);
    };
    shared_globals(function, module)
        .into_iter()
        .try_fold(0u64, |sum, memref| Ok(sum + sized(memref)?))
}

/// The dynamic shared memory the kernel's own `gpu.dynamic_shared_memory`
/// uses, as the module doc bounds it: `Some(0)` without it, `None` when it
/// cannot be bounded.
pub(crate) fn own_dynamic_shared_memory(function: OperationRef) -> Option<u32> {
    let mut bases = Vec::new();
    let mut views = Vec::new();
    let mut queries = Vec::new();
    function.walk(WalkOrder::PreOrder, |op| {
        if ir::is(&op, gpu::DYNAMIC_SHARED_MEMORY) {
            bases.push(op.to_raw());
        } else if ir::is(&op, memref::VIEW) {
            views.push(op.to_raw());
        } else if ir::is(&op, memref::EXTRACT_ALIGNED_POINTER_AS_INDEX) {
            // Reads the base address only (alignment code); not an access.
            queries.push(op.to_raw());
        }
        WalkResult::Advance
    });
    if bases.is_empty() {
        return Some(0);
    }
    let from_base = |value: Value| {
        ir::defining_op(value).is_some_and(|def| bases.iter().any(|b| b.ptr == def.to_raw().ptr))
    };
    let mut end = 0u64;
    let mut uses = 0usize;
    for raw in views {
        // SAFETY: found by the walk in the live function.
        let view = unsafe { OperationRef::from_raw(raw) };
        if !from_base(view.operand(0).ok()?) {
            continue;
        }
        uses += 1;
        let (_, high) = bound(view.operand(1).ok()?, 0)?;
        let bytes = memref_bytes(MemRefType::try_from(view.result(0).ok()?.r#type()).ok()?)?;
        end = end.max(u64::try_from(high).ok()? + bytes);
    }
    for raw in queries {
        // SAFETY: found by the walk in the live function.
        let query = unsafe { OperationRef::from_raw(raw) };
        uses += usize::from(query.operand(0).ok().is_some_and(from_base));
    }
    // Every use of the base must be one of the views or queries counted.
    let total_uses: usize = bases
        .iter()
        .map(|raw| {
            // SAFETY: found by the walk in the live function.
            let base = unsafe { OperationRef::from_raw(*raw) };
            base.result(0)
                .map(|result| use_count(result.into()))
                .unwrap_or(usize::MAX)
        })
        .fold(0usize, usize::saturating_add);
    (total_uses == uses).then_some(u32::try_from(end).ok()?)
}

fn use_count(value: Value) -> usize {
    let mut count = 0;
    // SAFETY: walks the live value's use list; only queries are made.
    unsafe {
        let mut operand = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        while !mlir_sys::mlirOpOperandIsNull(operand) {
            count += 1;
            operand = mlir_sys::mlirOpOperandGetNextUse(operand);
        }
    }
    count
}

/// Lower and upper bounds of an index value, from constants and the
/// arithmetic that alignment code uses (`addi`, `subi`, `muli` of
/// non-negative values, `remui` by a constant, `andi` with a non-negative
/// constant, `index_cast`); `None` for anything else, e.g. a kernel argument.
fn bound(value: Value, depth: u32) -> Option<(i128, i128)> {
    if depth > 32 {
        return None;
    }
    if let Some(constant) = ir::constant_int(value) {
        return Some((constant.into(), constant.into()));
    }
    let def = ir::defining_op(value)?;
    let operand = |index| {
        def.operand(index)
            .ok()
            .and_then(|value| bound(value, depth + 1))
    };
    match ir::table_op(&def) {
        Some(arith::INDEX_CAST | arith::INDEX_CASTUI) => operand(0),
        Some(arith::ADDI) => {
            let (a, b) = (operand(0)?, operand(1)?);
            Some((a.0 + b.0, a.1 + b.1))
        }
        Some(arith::SUBI) => {
            let (a, b) = (operand(0)?, operand(1)?);
            Some((a.0 - b.1, a.1 - b.0))
        }
        Some(arith::MULI) => {
            let (a, b) = (operand(0)?, operand(1)?);
            (a.0 >= 0 && b.0 >= 0).then_some((a.0 * b.0, a.1 * b.1))
        }
        Some(arith::REMUI) => {
            let modulus = operand(1)?;
            (modulus.0 == modulus.1 && modulus.1 > 0).then_some((0, modulus.1 - 1))
        }
        Some(arith::ANDI) => {
            let mask = operand(1)?;
            (mask.0 == mask.1 && mask.0 >= 0).then_some((0, mask.0))
        }
        _ => None,
    }
}
