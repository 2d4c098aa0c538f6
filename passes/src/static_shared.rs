//! Static shared memory above what ptxas accepts, moved to dynamic shared
//! memory (docs/kernel-abi.md, "Shared memory"). An IR edit that
//! `acopy-lower` (so the manifest records the bytes) and
//! `acopy-prepare-emit` (so no route reaches ptxas without it) both run.
//!
//! ptxas refuses more than 48 KiB of static `.shared` per kernel ("uses too
//! much shared data (0x1c000 bytes, 0xc000 max)") on every chip, although a
//! block may use up to the chip's [`acopy_target::Chip::max_shared_per_block`]
//! of static and dynamic shared memory together. A kernel whose workgroup
//! attributions and shared `memref.global`s pass 48 KiB gets its workgroup
//! attributions as `memref.view`s of `gpu.dynamic_shared_memory`, laid out in
//! order after any dynamic bytes the pipeliner placed there, each at its
//! alignment (the base is 16-byte aligned; a larger alignment is reached by
//! rounding the base up at run time, with that many bytes reserved, as the
//! pipeliner does for its slots). The kernel records the dynamic bytes in
//! `acopy.dynamic_shared_memory`, and each host `gpu.launch_func` of it passes
//! at least that many (`crate::pipeliner::launch_sizes`). Where the total passes
//! the chip's limit, or the bytes cannot move (shared globals alone over
//! 48 KiB, a kernel that places dynamic shared memory itself, an attribution
//! without a static identity layout), the kernel gets a located error naming
//! the chip, the total and the limit instead.

use acopy_dialect::diagnostics::emit_error;
use acopy_target::Chip;
use melior::ir::{
    attribute::IntegerAttribute,
    operation::{OperationLike, WalkOrder, WalkResult},
    OperationRef,
};

use crate::{
    external::PassResult,
    ir,
    manifest::DYNAMIC_SHARED_MEMORY,
    plan::loops::slots::{padded, STATIC_LIMIT},
    target, PassOptions,
};

mod placement;
mod size;
mod views;

use placement::{layout, Layout};
use size::{shared_globals_bytes, workgroup_attributions};

/// Moves the workgroup attributions of each `gpu.func` under `root` whose
/// static shared memory passes [`STATIC_LIMIT`] (see the module comment);
/// `chip_of` gives the chip whose limit binds a `gpu.module`'s kernels, or
/// `None` to leave the module alone. Errors are emitted at the `gpu.func`.
pub(crate) fn move_oversized(
    root: OperationRef,
    chip_of: impl Fn(OperationRef) -> Option<Chip>,
) -> PassResult {
    let mut functions = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if ir::is(&op, ir::op_names::gpu::FUNC) {
            functions.push(op.to_raw());
        }
        // A function's body holds no gpu.func (`ir::is_function`).
        if ir::is_function(&op) {
            WalkResult::Skip
        } else {
            WalkResult::Advance
        }
    });
    let mut failed = false;
    let mut moved = false;
    for raw in functions {
        // SAFETY: the walk found it under `root`; moving the attributions of
        // one function never erases another.
        let function = unsafe { OperationRef::from_raw(raw) };
        let Some(module) = function.parent_operation() else {
            continue;
        };
        if !ir::is(&module, ir::op_names::gpu::MODULE) {
            continue;
        }
        let Some(limit) = chip_of(module) else {
            continue;
        };
        match plan(function, module, limit).and_then(|layout| match layout {
            Some(layout) => views::apply(function, &layout).map(|()| true),
            None => Ok(false),
        }) {
            Ok(changed) => moved |= changed,
            Err(message) => {
                emit_error(function.location(), &message);
                failed = true;
            }
        }
    }
    if moved {
        if let Err(message) = crate::pipeliner::launch_sizes::set_launch_sizes(root) {
            emit_error(root.location(), &message);
            failed = true;
        }
    }
    if failed {
        Err(())
    } else {
        Ok(())
    }
}

/// The chip whose per-block limit binds `module`'s kernels: its one chip, or
/// of several the one with the least shared memory; `None` when it does not
/// resolve (the passes that need it report that).
pub(crate) fn binding_chip(module: OperationRef, options: &PassOptions) -> Option<Chip> {
    match target::resolve_chip(module, options) {
        Ok(chip) => Some(chip),
        Err(_) => target::module_chips(module)
            .into_iter()
            .filter_map(Result::ok)
            .min_by_key(Chip::max_shared_per_block),
    }
}

/// The layout that moves `function`'s attributions, `None` when its static
/// shared memory fits [`STATIC_LIMIT`], or why it cannot be compiled.
fn plan(
    function: OperationRef,
    module: OperationRef,
    chip: Chip,
) -> Result<Option<Layout>, String> {
    let Some(attributions) = workgroup_attributions(function)? else {
        // Its size is unknown here; ptxas still says whether it fits.
        return Ok(None);
    };
    let globals = shared_globals_bytes(function, module);
    let static_total = attributions.iter().fold(globals, |sum, attribution| {
        padded(sum, attribution.align).saturating_add(attribution.bytes)
    });
    if static_total <= STATIC_LIMIT {
        return Ok(None);
    }
    let limit = chip.max_shared_per_block();
    let refuse = |why: &str| {
        format!(
            "this kernel has {static_total} bytes of static shared memory, more than the {STATIC_LIMIT} that ptxas accepts, and {why} ({chip} gives one block at most {limit} bytes of shared memory; docs/kernel-abi.md, \"Shared memory\")"
        )
    };
    if globals > STATIC_LIMIT {
        return Err(refuse(&format!(
            "{globals} of them are in shared memref.globals, which cannot move to dynamic shared memory"
        )));
    }
    if places_dynamic_shared(function) {
        return Err(refuse(
            "its workgroup attributions cannot move to dynamic shared memory, because the kernel places gpu.dynamic_shared_memory itself",
        ));
    }
    if let Some(memref) = attributions
        .iter()
        .find_map(|attribution| attribution.not_viewable.as_ref())
    {
        return Err(refuse(&format!(
            "the workgroup attribution {memref} cannot move to dynamic shared memory: only a static shape with the identity layout can"
        )));
    }
    let layout = layout(&attributions, recorded_dynamic(function));
    let total = layout.dynamic_total.saturating_add(globals);
    if total > limit {
        return Err(format!(
            "this kernel needs {total} bytes of shared memory ({static_total} in workgroup attributions and shared globals, moved to dynamic shared memory where ptxas's {STATIC_LIMIT}-byte static limit requires it), more than the {limit} bytes {chip} gives one block: use smaller buffers (docs/kernel-abi.md, \"Shared memory\")"
        ));
    }
    Ok(Some(layout))
}

/// The dynamic bytes `function` already records (the pipeliner's slots).
fn recorded_dynamic(function: OperationRef) -> u64 {
    function
        .attribute(DYNAMIC_SHARED_MEMORY)
        .ok()
        .and_then(|value| IntegerAttribute::try_from(value).ok())
        .and_then(|value| u64::try_from(value.value()).ok())
        .unwrap_or(0)
}

/// Whether `function` uses `gpu.dynamic_shared_memory` without recording its
/// bytes: then what it places there, and where, is unknown.
fn places_dynamic_shared(function: OperationRef) -> bool {
    if function.has_attribute(DYNAMIC_SHARED_MEMORY) {
        return false;
    }
    let mut uses = false;
    function.walk(WalkOrder::PreOrder, |op| {
        if ir::is(&op, ir::op_names::gpu::DYNAMIC_SHARED_MEMORY) {
            uses = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    uses
}
