//! The dynamic shared bytes of pipelined slots reach the launch: each host
//! `gpu.launch_func` of a kernel that records `acopy.dynamic_shared_memory`
//! passes at least that many bytes (docs/pipelining.md, "Shared memory").
//!
//! A launch without a `dynamic_shared_memory_size` gets the recorded bytes.
//! One with a size gets `arith.maxui` of its size and the recorded bytes: the
//! kernel uses no dynamic shared memory of its own (rule P11 refuses a kernel
//! that does), so a larger size the user passes costs only occupancy, and a
//! smaller one would leave the slots outside the block's shared memory. A
//! constant at least as large, or a `maxui` with such a constant (this edit,
//! made before), is left as it is, so the edit can run twice.

use std::collections::HashMap;

use melior::{
    ir::{
        attribute::{DenseI32ArrayAttribute, IntegerAttribute},
        operation::{OperationLike, WalkOrder, WalkResult},
        OperationRef, Value, ValueLike,
    },
    Context,
};

use crate::ir::{
    self,
    build::{self, Builder},
    op_names::arith,
};
use crate::manifest::DYNAMIC_SHARED_MEMORY;

/// The position of `dynamic_shared_memory_size` among `gpu.launch_func`'s
/// operand segments (async dependencies, grid x/y/z, block x/y/z, cluster
/// x/y/z, then it).
const SIZE_SEGMENT: usize = 10;

/// Sets the launch sizes under `root` (see the module comment). Kernels are
/// found by `@module::@kernel` symbol among the `gpu.module`s under `root`.
pub fn set_launch_sizes(root: OperationRef) -> Result<(), String> {
    let mut needs: HashMap<String, i64> = HashMap::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if ir::is(&op, ir::op_names::gpu::FUNC) {
            let bytes = op
                .attribute(DYNAMIC_SHARED_MEMORY)
                .ok()
                .and_then(|value| IntegerAttribute::try_from(value).ok())
                .map(|value| value.value());
            let module = op.parent_operation().and_then(ir::symbol_name);
            if let (Some(bytes), Some(module), Some(kernel)) = (bytes, module, ir::symbol_name(op))
            {
                needs.insert(format!("@{module}::@{kernel}"), bytes);
            }
        }
        WalkResult::Advance
    });
    if needs.is_empty() {
        return Ok(());
    }
    let mut launches = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if ir::is(&op, ir::op_names::gpu::LAUNCH_FUNC) {
            let kernel = op
                .attribute("kernel")
                .map(|value| value.to_string())
                .unwrap_or_default();
            if let Some(bytes) = needs.get(&kernel) {
                launches.push((op.to_raw(), *bytes));
            }
        }
        WalkResult::Advance
    });
    ir::with_context(&root, |context| {
        for (raw, bytes) in launches {
            // SAFETY: found by the walk above; nothing erased it since.
            let launch = unsafe { OperationRef::from_raw(raw) };
            set_size(context, launch, bytes)?;
        }
        Ok(())
    })
}

fn set_size(context: &Context, launch: OperationRef, bytes: i64) -> Result<(), String> {
    let internal = |what: &str| format!("internal error: gpu.launch_func {what}");
    let mut segments: Vec<i32> = launch
        .attribute("operandSegmentSizes")
        .ok()
        .and_then(|value| DenseI32ArrayAttribute::try_from(value).ok())
        .map(|sizes| {
            (0..sizes.len())
                .filter_map(|index| sizes.element(index).ok())
                .collect()
        })
        .ok_or_else(|| internal("without operandSegmentSizes"))?;
    if segments.len() <= SIZE_SEGMENT {
        return Err(internal("with too few operand segments"));
    }
    let position: usize = segments[..SIZE_SEGMENT]
        .iter()
        .map(|count| usize::try_from(*count).unwrap_or(0))
        .sum();
    let b = Builder::in_place(context, launch)?;
    let mut operands: Vec<Value> = launch.operands().collect();
    if segments[SIZE_SEGMENT] == 1 {
        let given = launch
            .operand(position)
            .map_err(|_| internal("without its size operand"))?;
        if covers(given, bytes) {
            return Ok(());
        }
        let needed = b.int(32, bytes)?;
        let max = b.binary(arith::MAXUI, given, needed)?;
        // SAFETY: the launch has the size operand at `position`; `max` is
        // built right before it.
        unsafe { build::set_operand(launch, position, max) };
        return Ok(());
    }
    operands.insert(position, b.int(32, bytes)?);
    let raw: Vec<mlir_sys::MlirValue> = operands.iter().map(|value| value.to_raw()).collect();
    // SAFETY: a live op and values of its context; the segment sizes are
    // updated to match right after.
    unsafe {
        mlir_sys::mlirOperationSetOperands(launch.to_raw(), raw.len() as isize, raw.as_ptr())
    };
    segments[SIZE_SEGMENT] = 1;
    let attribute = DenseI32ArrayAttribute::new(context, &segments).into();
    ir::set_inherent(launch, "operandSegmentSizes", attribute);
    Ok(())
}

/// Whether `size` is a constant of at least `bytes`, or a `maxui` with one.
fn covers(size: Value, bytes: i64) -> bool {
    let constant_at_least = |value: Value| ir::constant_int(value).is_some_and(|c| c >= bytes);
    if constant_at_least(size) {
        return true;
    }
    ir::defining_op(size).is_some_and(|op| {
        ir::op_name(&op) == arith::MAXUI.name && op.operands().any(constant_at_least)
    })
}
