//! The pipelined tiles of a marked loop: where each one's memory comes from,
//! that it is used only after the wait, that nothing in the loop writes its
//! copy's source, and its slot (rules P5, P6, P8 and P9).

use acopy_dialect::{names, CopyGmemToSmem};
use acopy_target::CopyPath;
use melior::ir::{
    operation::OperationLike, r#type::MemRefType, OperationRef, RegionLike, TypeLike, Value,
};

use super::{
    body_form::BodyForm,
    loop_plan::Broken,
    loop_plan::{LoopProblem, PipeCopy, Tile, TileRoot},
    operand_slice::operand_slice,
    slots,
};
use crate::ir::op_names::{memref, vector};
use crate::ir::query::{ancestor_in, describe, is_inside, users};
use crate::{ir, plan::alignment::memory_root};

/// The tile and the pipelined copy of each copy of `form`, in order, or the
/// first finding: at the copy for a view it cannot read, at `loop_op` for a
/// rule. `function` is the enclosing kernel, `early` how many iterations
/// early the copies are issued (`None` until `stages = "auto"` has chosen),
/// `native` whether the loop is the native TMA form.
pub(crate) fn read_copies<'c, 'a>(
    loop_op: OperationRef<'c, 'a>,
    form: &BodyForm<'c, 'a>,
    function: Option<OperationRef<'c, 'a>>,
    path: CopyPath,
    early: Option<u32>,
    native: bool,
) -> Result<(Vec<Tile<'c, 'a>>, Vec<PipeCopy<'c, 'a>>), LoopProblem<'c, 'a>> {
    let at = |broken| LoopProblem::rule(loop_op, broken);
    let mut tiles: Vec<Tile> = Vec::new();
    let mut copies = Vec::new();
    for copy in &form.copies {
        let view =
            CopyGmemToSmem::from_op(*copy).map_err(|error| LoopProblem::other(*copy, error))?;
        let tile = read_tile(&view, loop_op, form, function, &tiles, path, native).map_err(at)?;
        let slice = operand_slice(&view, form.body, early)
            .map_err(|message| at((Broken::OperandSlice, message)))?;
        if let Some(writer) = src_writer(view.src, loop_op) {
            return Err(at((
                Broken::SrcWritten,
                format!(
                    "the src {} of a pipelined copy is written in the loop by '{writer}': the copy of a later iteration would be issued before that write",
                    describe(view.src)
                ),
            )));
        }
        tiles.push(tile);
        copies.push(PipeCopy {
            op: *copy,
            tile: tiles.len() - 1,
            slice,
        });
    }
    Ok((tiles, copies))
}

/// The tile `view` writes, or the rule it breaks (P9, P5, P6); `earlier` are
/// the tiles of the loop's earlier copies.
fn read_tile<'c, 'a>(
    view: &CopyGmemToSmem<'c, 'a>,
    loop_op: OperationRef<'c, 'a>,
    form: &BodyForm<'c, 'a>,
    function: Option<OperationRef<'c, 'a>>,
    earlier: &[Tile<'c, 'a>],
    path: CopyPath,
    native: bool,
) -> Result<Tile<'c, 'a>, (Broken, String)> {
    if let Some(reason) = unsupported(view, native, path) {
        return Err((Broken::CopyForm, reason));
    }
    let tile_name = describe(view.dst);
    let Some(function) = function else {
        return Err((
            Broken::TileHome,
            p5(&tile_name, "is in a loop outside a kernel gpu.func"),
        ));
    };
    let root = tile_root(view.dst, function, loop_op)
        .map_err(|problem| (Broken::TileHome, p5(&tile_name, &problem)))?;
    if earlier.iter().any(|tile| tile.value == view.dst) {
        return Err((
            Broken::TileHome,
            p5(&tile_name, "is written by two copies of the loop"),
        ));
    }
    if !has_identity_layout(view.dst_type) {
        return Err((
            Broken::TileHome,
            p5(
                &tile_name,
                "has a memref_layout; a pipelined tile is dense and row-major",
            ),
        ));
    }
    check_uses(view.dst, &tile_name, loop_op, form)?;
    let bytes = crate::ir::memref_layout::memref_bytes(view.dst_type).unwrap_or(0);
    let align = slots::slot_alignment(path, u64::from(view.swizzle.bytes()));
    Ok(Tile {
        value: view.dst,
        root,
        tile_type: view.dst_type,
        bytes,
        slot: slots::padded(bytes, align),
        align,
    })
}

fn p5(tile: &str, problem: &str) -> String {
    format!("the dst tile {tile} of a pipelined copy must be a workgroup attribution of the kernel gpu.func, used only in the loop after its wait, but it {problem}")
}

/// Why a copy cannot be pipelined whatever the loop (P9); a barrier is the
/// native form's (`native`), which `native::check` judged. A multicast copy
/// on TMA is `super::multicast`'s to judge.
fn unsupported(view: &CopyGmemToSmem, native: bool, path: CopyPath) -> Option<String> {
    let (what, why) = if view.leader_tracked.is_some() {
        ("leader_tracked", "only the pair leader's barrier tracks both CTAs' bytes, so the peer has no barrier of its own to wait on for its slot, and the pass keeps one barrier per slot in each CTA")
    } else if view.collective_axes.is_some() && path == CopyPath::CpAsync {
        ("collective_axes", "a collective copy needs TMA multicast (sm_90 and newer); on a cp.async chip each CTA copies its own tile, so drop collective_axes")
    } else if view.barrier.is_some() && !native {
        ("a barrier", "the pass owns the loop's barriers; write the copy without one, followed by wait_gmem_to_smem (pending = 0)")
    } else if view.predicate.is_some() {
        (
            "a predicate",
            "the pass guards the copies it issues early with its own predicate",
        )
    } else {
        return None;
    };
    Some(format!(
        "pipelining a copy with {what} is not supported: {why}"
    ))
}

/// Where the tile's memory comes from, or why it cannot be multiplied.
fn tile_root<'c, 'a>(
    tile: Value<'c, 'a>,
    function: OperationRef<'c, 'a>,
    loop_op: OperationRef<'c, 'a>,
) -> Result<TileRoot<'c, 'a>, String> {
    if let Some((block, position)) = ir::block_argument(tile) {
        let entry = function
            .region(0)
            .ok()
            .and_then(|region| region.first_block());
        let inputs = ir::function_inputs(function).unwrap_or(usize::MAX);
        if entry == Some(block) && position >= inputs {
            return Ok(TileRoot::Workgroup {
                function,
                index: position - inputs,
            });
        }
        return Err("is a block argument, not a workgroup attribution".into());
    }
    let op = ir::defining_op(tile).ok_or("has no defining op")?;
    if is_inside(op, loop_op) {
        return Err(format!(
            "is defined in the loop by '{}', so it is not loop-invariant",
            ir::op_name(&op)
        ));
    }
    if !ir::is(&op, ir::op_names::memref::GET_GLOBAL) {
        return Err(format!(
            "is defined by '{}', a view the pass cannot multiply",
            ir::op_name(&op)
        ));
    }
    let _ = crate::plan::alignment::global_of(op).ok_or("names no memref.global")?;
    Err(
        "is a memref.global; the pass multiplies workgroup attributions only (make the tile one)"
            .into(),
    )
}

/// Every use of the tile is the copy or a consumer after the wait (P5, P6).
fn check_uses(
    tile: Value,
    name: &str,
    loop_op: OperationRef,
    form: &BodyForm,
) -> Result<(), (Broken, String)> {
    let BodyForm {
        body,
        top,
        copies,
        wait_position,
        ..
    } = form;
    let (body, wait_position) = (*body, *wait_position);
    for (user, _) in users(tile) {
        // The loop's copies (a second one into this tile is P5, checked by the caller).
        if copies.contains(&user) {
            continue;
        }
        let Some(ancestor) = ancestor_in(user, body) else {
            let place = if is_inside(user, loop_op) {
                "is used in the loop outside its body".to_string()
            } else {
                format!("is used outside the loop by '{}'", ir::op_name(&user))
            };
            return Err((Broken::TileHome, p5(name, &place)));
        };
        if ir::is(&ancestor, ir::op_names::scf::YIELD) {
            return Err((Broken::TileHome, p5(name, "is yielded by the loop")));
        }
        let position = top.iter().position(|op| *op == ancestor).unwrap_or(0);
        if position < wait_position {
            return Err((
                Broken::TileUsedEarly,
                format!(
                    "the dst tile {name} of a pipelined copy is used by '{}' before the loop's wait_gmem_to_smem: the pass issues the copy of a later iteration early, so the body may use the tile only after the wait",
                    ir::op_name(&user)
                ),
            ));
        }
    }
    Ok(())
}

/// The name of an op in the loop that writes `src`'s memory (P8).
fn src_writer(src: Value, loop_op: OperationRef) -> Option<String> {
    let root = memory_root(src);
    let mut writer = None;
    loop_op.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        let target = match ir::table_op(&op) {
            Some(
                memref::STORE
                | memref::ATOMIC_RMW
                | vector::STORE
                | vector::TRANSFER_WRITE
                | memref::COPY
                | vector::MASKEDSTORE
                | vector::SCATTER,
            ) => op.operand(1).ok(),
            Some(memref::GENERIC_ATOMIC_RMW) => op.operand(0).ok(),
            _ if ir::op_name(&op) == names::COPY_SMEM_TO_GMEM => op.operand(1).ok(),
            _ => None,
        };
        if let Some(target) = target {
            if memory_root(target) == root && writer.is_none() {
                writer = Some(ir::op_name(&op));
            }
        }
        melior::ir::operation::WalkResult::Advance
    });
    writer
}

fn has_identity_layout(memref: MemRefType) -> bool {
    // SAFETY: a live type's layout attribute.
    unsafe {
        let layout = mlir_sys::mlirMemRefTypeGetLayout(memref.to_raw());
        layout.ptr.is_null()
            || (mlir_sys::mlirAttributeIsAAffineMap(layout)
                && mlir_sys::mlirAffineMapIsIdentity(mlir_sys::mlirAffineMapAttrGetValue(layout)))
    }
}
