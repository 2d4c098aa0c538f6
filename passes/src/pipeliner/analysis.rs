//! What a marked loop is, or why it cannot be pipelined.
//!
//! [`analyze`] reads a loop marked `acopy.pipeline` into a [`LoopPlan`], or
//! returns the first [`Finding`] (rules P1–P12 of docs/verification.md). Both
//! `acopy-verify` and the pipeliner call it, so what verifies is what the
//! pipeliner accepts.

use acopy_dialect::{names, CopyGmemToSmem};
use acopy_target::{Chip, CopyPath};
use melior::ir::{
    attribute::{IntegerAttribute, TypeAttribute},
    block::BlockLike,
    operation::OperationLike,
    r#type::MemRefType,
    BlockRef, OperationRef, RegionLike, ShapedTypeLike, TypeLike, Value, ValueLike,
};

use super::ir_query::{ancestor_in, describe, is_inside, is_pure, users};
use super::{attr, smem};
use crate::{
    ir,
    plan::{alignment::memory_root, layout::element_bits},
    target, PassOptions,
};

/// Why a marked loop cannot be pipelined: a rule id (`None` for a target or
/// view error, which verification reports with its own text) and the message,
/// at `op`.
pub struct Finding<'c, 'a> {
    pub rule: Option<&'static str>,
    pub op: OperationRef<'c, 'a>,
    pub message: String,
}

/// Where a pipelined tile's memory comes from.
#[derive(Clone, Copy)]
pub enum TileRoot<'c, 'a> {
    /// Workgroup attribution `index` of the kernel `function`.
    Workgroup {
        function: OperationRef<'c, 'a>,
        index: usize,
    },
    /// A `memref.get_global` of a shared `memref.global`.
    Global {
        get_global: OperationRef<'c, 'a>,
        global: OperationRef<'c, 'a>,
    },
}

/// One pipelined tile.
pub struct Tile<'c, 'a> {
    pub value: Value<'c, 'a>,
    pub root: TileRoot<'c, 'a>,
    pub tile_type: MemRefType<'c>,
    /// Bytes of one tile, and of one padded slot.
    pub bytes: u64,
    pub slot: u64,
    pub align: u64,
}

/// One pipelined copy: the op, the tile it writes, and the body ops its
/// operands are computed by (in program order), which the pass clones for
/// the iterations it issues early.
pub struct PipeCopy<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub tile: usize,
    pub slice: Vec<OperationRef<'c, 'a>>,
}

/// A loop the pass can pipeline.
pub struct LoopPlan<'c, 'a> {
    pub loop_op: OperationRef<'c, 'a>,
    pub body: BlockRef<'c, 'a>,
    pub function: OperationRef<'c, 'a>,
    pub chip: Chip,
    pub path: CopyPath,
    /// The stage count used (the requested one, clamped for a short static loop).
    pub stages: u32,
    pub requested: u32,
    /// The trip count, when the bounds are constants.
    pub static_trips: Option<i64>,
    pub copies: Vec<PipeCopy<'c, 'a>>,
    pub tiles: Vec<Tile<'c, 'a>>,
    /// The wait: `wait_gmem_to_smem`, or the native form's `barrier_wait`.
    pub wait: OperationRef<'c, 'a>,
    /// The native TMA form's barrier and init, which the rewrite replaces.
    pub native: Option<super::native::Native<'c, 'a>>,
    /// Where the slots go when they do not fit static shared memory.
    pub dynamic: Option<DynamicSlots>,
}

/// Slots placed in `gpu.dynamic_shared_memory` (docs/pipelining.md, "Shared
/// memory"): the base is rounded up at run time to `align`, the largest slot
/// alignment, which `reserve` bytes ahead of the slots make room for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DynamicSlots {
    pub align: u64,
    pub reserve: u64,
}

impl DynamicSlots {
    /// The dynamic shared bytes the kernel needs: the reserve and the slots.
    pub fn bytes(&self, tiles: &[Tile], stages: u64) -> u64 {
        tiles.iter().fold(self.reserve, |sum, tile| {
            sum.saturating_add(tile.slot.saturating_mul(stages))
        })
    }

    /// The byte offset of each tile's first slot from the aligned base, in
    /// tile order. Tiles are laid out by falling alignment: each slot size is
    /// a multiple of its own (power-of-two) alignment, so every offset is a
    /// multiple of its tile's alignment with no padding between tiles.
    pub fn offsets(tiles: &[Tile], stages: u64) -> Vec<u64> {
        let mut order: Vec<usize> = (0..tiles.len()).collect();
        order.sort_by_key(|index| std::cmp::Reverse(tiles[*index].align));
        let mut offsets = vec![0; tiles.len()];
        let mut cursor = 0u64;
        for index in order {
            offsets[index] = cursor;
            cursor = cursor.saturating_add(tiles[index].slot.saturating_mul(stages));
        }
        offsets
    }
}

/// Reads the loop `loop_op` that carries `acopy.pipeline`.
pub fn analyze<'c, 'a>(
    loop_op: OperationRef<'c, 'a>,
    chips: &target::ModuleChips,
    options: &PassOptions,
) -> Result<LoopPlan<'c, 'a>, Finding<'c, 'a>> {
    let at = |rule: &'static str, message: String| Finding {
        rule: Some(rule),
        op: loop_op,
        message,
    };
    let attribute = attr::request(loop_op).ok_or_else(|| {
        at(
            "P1",
            format!("internal error: {} is not on this op", attr::PIPELINE),
        )
    })?;
    if ir::op_name(&loop_op) != "scf.for" {
        return Err(at("P2", attr::not_a_loop(&loop_op)));
    }
    let requested = attr::stages(attribute, options.max_stages).map_err(|m| at("P1", m))?;
    let chip = chips.chip(loop_op).map_err(|problem| Finding {
        rule: None,
        op: loop_op,
        message: problem.to_string(),
    })?;
    let path = chip.copy_path();
    let body = loop_op
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .ok_or_else(|| at("P3", "internal error: scf.for without a body".into()))?;

    // The body's form: copies, then one wait {pending = 0}, then consumers.
    let top: Vec<OperationRef> = top_level_ops(body);
    let mut copies: Vec<OperationRef> = Vec::new();
    let mut wait: Option<(usize, OperationRef)> = None;
    let mut stores: Vec<OperationRef> = Vec::new();
    for (position, op) in top.iter().enumerate() {
        let name = ir::op_name(op);
        if name == names::COPY_GMEM_TO_SMEM && wait.is_none() {
            copies.push(*op);
            continue;
        }
        if name == names::WAIT_GMEM_TO_SMEM && wait.is_none() && !copies.is_empty() {
            let pending = op
                .attribute("pending")
                .ok()
                .and_then(|value| IntegerAttribute::try_from(value).ok())
                .map_or(0, |value| value.value());
            if pending != 0 {
                return Err(at(
                    "P4",
                    foreign(&name, &format!("with pending = {pending}")),
                ));
            }
            wait = Some((position, *op));
            continue;
        }
        if wait.is_some() && (name == names::COPY_SMEM_TO_GMEM || name == names::WAIT_SMEM_TO_GMEM)
        {
            // A TMA store of another shared tile and its wait are consumers: their
            // bulk groups are apart from the loop's copies, and the user's own wait
            // orders the store's read of its tile before the tile is written again.
            stores.push(*op);
            continue;
        }
        // The native TMA form waits on the copies' barrier instead (native.rs).
        if name == names::BARRIER_WAIT && wait.is_none() && !copies.is_empty() {
            wait = Some((position, *op));
            continue;
        }
        if name.starts_with("acopy.") {
            let place = if wait.is_some() {
                "after the wait"
            } else {
                "at the body's top level"
            };
            return Err(at("P4", foreign(&name, place)));
        }
        if let Some(nested) = nested_acopy(*op) {
            return Err(at("P4", foreign(&nested, "nested in the body")));
        }
    }
    let Some((wait_position, wait)) = wait else {
        let what = if copies.is_empty() {
            "it has no copy at its top level"
        } else {
            "its copies are not followed by a wait_gmem_to_smem"
        };
        return Err(at("P3", p3(what)));
    };

    let native = if ir::op_name(&wait) == names::BARRIER_WAIT {
        Some(
            super::native::check(loop_op, body, &copies, wait, path, chip)
                .map_err(|message| at("P12", message))?,
        )
    } else {
        None
    };
    let function = target::enclosing(loop_op, "gpu.func")
        .filter(|function| function.has_attribute("gpu.kernel"));
    let mut tiles: Vec<Tile> = Vec::new();
    let mut plan_copies = Vec::new();
    for copy in &copies {
        let view = CopyGmemToSmem::from_op(*copy).map_err(|error| Finding {
            rule: None,
            op: *copy,
            message: error.to_string(),
        })?;
        if let Some(reason) = unsupported(&view, native.is_some()) {
            return Err(at("P9", reason));
        }
        let tile_name = describe(view.dst);
        let Some(function) = function else {
            return Err(at(
                "P5",
                p5(&tile_name, "is in a loop outside a kernel gpu.func"),
            ));
        };
        let root = tile_root(view.dst, function, loop_op)
            .map_err(|problem| at("P5", p5(&tile_name, &problem)))?;
        if tiles.iter().any(|tile| tile.value == view.dst) {
            return Err(at(
                "P5",
                p5(&tile_name, "is written by two copies of the loop"),
            ));
        }
        if !has_identity_layout(view.dst_type) {
            return Err(at(
                "P5",
                p5(
                    &tile_name,
                    "has a layout; a pipelined tile is dense and row-major",
                ),
            ));
        }
        check_uses(
            view.dst,
            &tile_name,
            loop_op,
            body,
            &copies,
            wait_position,
            &top,
        )
        .map_err(|(rule, message)| at(rule, message))?;
        let slice = operand_slice(&view, body, requested.saturating_sub(1))
            .map_err(|message| at("P7", message))?;
        if let Some(writer) = src_writer(view.src, loop_op) {
            return Err(at(
                "P8",
                format!(
                    "the src {} of a pipelined copy is written in the loop by '{writer}': the copy of a later iteration would be issued before that write",
                    describe(view.src)
                ),
            ));
        }
        let bytes = tile_bytes(view.dst_type);
        let align = smem::slot_alignment(path, u64::from(view.swizzle.bytes()));
        tiles.push(Tile {
            value: view.dst,
            root,
            tile_type: view.dst_type,
            bytes,
            slot: smem::padded(bytes, align),
            align,
        });
        plan_copies.push(PipeCopy {
            op: *copy,
            tile: tiles.len() - 1,
            slice,
        });
    }
    let function = function.ok_or_else(|| at("P5", "internal error: no kernel".into()))?;
    if let Some((store, tile)) = store_of_a_tile(&stores, &tiles) {
        return Err(Finding {
            rule: Some("P4"),
            op: store,
            message: foreign(
                names::COPY_SMEM_TO_GMEM,
                &format!("of the pipelined tile {} (a TMA store reads its slot after the barrier that frees the slot for the next copy)", describe(tile)),
            ),
        });
    }

    let static_trips = static_trip_count(loop_op);
    let stages = match static_trips {
        Some(trips) if trips < i64::from(requested) => u32::try_from(trips.max(1)).unwrap_or(1),
        _ => requested,
    };
    let dynamic = check_budget(&tiles, function, chip, path, stages, options.max_stages)
        .map_err(|(rule, message)| at(rule, message))?;
    Ok(LoopPlan {
        loop_op,
        body,
        function,
        chip,
        path,
        stages,
        requested,
        static_trips,
        copies: plan_copies,
        tiles,
        wait,
        dynamic,
        native,
    })
}

/// A `copy_smem_to_gmem` among the consumers whose source views a pipelined
/// tile, with that tile: the store reads the slot through the async proxy after
/// the loop's barrier, so the next copy into the slot could overwrite it first.
fn store_of_a_tile<'c, 'a>(
    stores: &[OperationRef<'c, 'a>],
    tiles: &[Tile<'c, 'a>],
) -> Option<(OperationRef<'c, 'a>, Value<'c, 'a>)> {
    stores
        .iter()
        .filter(|op| ir::op_name(op) == names::COPY_SMEM_TO_GMEM)
        .find_map(|op| {
            let src = memory_root(op.operand(0).ok()?);
            tiles
                .iter()
                .find(|tile| memory_root(tile.value) == src)
                .map(|tile| (*op, tile.value))
        })
}

fn p3(what: &str) -> String {
    format!("a loop marked acopy.pipeline needs, at the top level of its body, acopy.copy_gmem_to_smem ops followed by one acopy.wait_gmem_to_smem (pending = 0), but {what}")
}

fn foreign(name: &str, place: &str) -> String {
    format!("'{name}' {place} cannot be in a loop marked acopy.pipeline: the pass owns the loop's copies and waits, so the body holds only copy_gmem_to_smem ops followed by one wait_gmem_to_smem (pending = 0) at its top level, then the consumers")
}

fn p5(tile: &str, problem: &str) -> String {
    format!("the dst tile {tile} of a pipelined copy must be a workgroup attribution of the kernel gpu.func, used only in the loop after its wait, but it {problem}")
}

/// Why a copy cannot be pipelined whatever the loop (P9); a barrier is the
/// native form's (`native`), which `native::check` judged.
fn unsupported(view: &CopyGmemToSmem, native: bool) -> Option<String> {
    let (what, why) = if view.collective_axes.is_some() {
        ("collective_axes", "a multicast slot is written by peer CTAs, which a CTA-local barrier does not order, so it needs cluster-wide release barriers")
    } else if view.leader_tracked.is_some() {
        ("leader_tracked", "the leader's barrier tracks the peer's bytes, which needs cluster-wide release barriers")
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

/// The ops of `block`, in order.
pub(crate) fn top_level_ops<'c, 'a>(block: BlockRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut ops = Vec::new();
    let mut current = block.first_operation();
    while let Some(op) = current {
        ops.push(op);
        current = op.next_in_block();
    }
    ops
}

/// The name of the first acopy op nested in `op`'s regions.
fn nested_acopy(op: OperationRef) -> Option<String> {
    let mut found = None;
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(current) = block {
            for inner in top_level_ops(current) {
                let name = ir::op_name(&inner);
                if name.starts_with("acopy.") {
                    return Some(name);
                }
                if found.is_none() {
                    found = nested_acopy(inner);
                }
                if found.is_some() {
                    return found;
                }
            }
            block = current.next_in_region();
        }
    }
    found
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
    if ir::op_name(&op) != "memref.get_global" {
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

/// How many uses the results of `op` have.
pub(crate) fn users_of_op(op: OperationRef) -> usize {
    (0..op.result_count())
        .filter_map(|index| op.result(index).ok())
        .map(|result| users(result.into()).len())
        .sum()
}

/// Every use of the tile is the copy or a consumer after the wait (P5, P6).
fn check_uses(
    tile: Value,
    name: &str,
    loop_op: OperationRef,
    body: BlockRef,
    copies: &[OperationRef],
    wait_position: usize,
    top: &[OperationRef],
) -> Result<(), (&'static str, String)> {
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
            return Err(("P5", p5(name, &place)));
        };
        if ir::op_name(&ancestor) == "scf.yield" {
            return Err(("P5", p5(name, "is yielded by the loop")));
        }
        let position = top.iter().position(|op| *op == ancestor).unwrap_or(0);
        if position < wait_position {
            return Err((
                "P6",
                format!(
                    "the dst tile {name} of a pipelined copy is used by '{}' before the loop's wait_gmem_to_smem: the pass issues the copy of a later iteration early, so the body may use the tile only after the wait",
                    ir::op_name(&user)
                ),
            ));
        }
    }
    Ok(())
}

/// The body ops the copy's operands (all but dst) are computed by, in
/// program order; an error names the first operand that depends on a memory
/// read, an op with regions, or an iter_arg (P7).
fn operand_slice<'c, 'a>(
    view: &CopyGmemToSmem<'c, 'a>,
    body: BlockRef<'c, 'a>,
    early: u32,
) -> Result<Vec<OperationRef<'c, 'a>>, String> {
    let mut operands = vec![("src".to_string(), view.src)];
    for (position, index) in view.indices.iter().enumerate() {
        operands.push((format!("index #{position}"), *index));
    }
    let mut slice: Vec<OperationRef> = Vec::new();
    for (role, operand) in operands {
        let mut stack = vec![operand];
        while let Some(value) = stack.pop() {
            if let Some((block, position)) = ir::block_argument(value) {
                if block == body && position > 0 {
                    return Err(p7(early, &role, &format!("the iter_arg #{}", position - 1)));
                }
                continue;
            }
            let Some(op) = ir::defining_op(value) else {
                continue;
            };
            if op.block() != Some(body) {
                if ancestor_in(op, body).is_some() {
                    return Err(p7(early, &role, "a value defined in a nested region"));
                }
                continue;
            }
            if slice.contains(&op) {
                continue;
            }
            let name = ir::op_name(&op);
            if !is_pure(&name) || op.region_count() > 0 {
                return Err(p7(early, &role, &format!("'{name}'")));
            }
            slice.push(op);
            stack.extend(op.operands());
        }
    }
    // Program order: the clone must define each value before its uses.
    let order = top_level_ops(body);
    slice.sort_by_key(|op| order.iter().position(|other| other == op));
    Ok(slice)
}

fn p7(early: u32, role: &str, what: &str) -> String {
    format!("a pipelined copy is issued {early} iterations early, so its operands must be computed from the induction variable and loop-invariant values by pure ops, but its {role} depends on {what}")
}

/// The name of an op in the loop that writes `src`'s memory (P8).
fn src_writer(src: Value, loop_op: OperationRef) -> Option<String> {
    let root = memory_root(src);
    let mut writer = None;
    loop_op.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        let target = match ir::op_name(&op).as_str() {
            "memref.store"
            | "memref.atomic_rmw"
            | "vector.store"
            | "vector.transfer_write"
            | "memref.copy"
            | "vector.maskedstore"
            | "vector.scatter" => op.operand(1).ok(),
            "memref.generic_atomic_rmw" => op.operand(0).ok(),
            name if name == names::COPY_SMEM_TO_GMEM => op.operand(1).ok(),
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

/// Bytes of a static memref (0 for a dynamic one).
pub(crate) fn tile_bytes(memref: MemRefType) -> u64 {
    let elements: Option<u64> = ir::shape(memref).iter().try_fold(1u64, |product, dim| {
        dim.and_then(|dim| u64::try_from(dim).ok())
            .and_then(|dim| product.checked_mul(dim))
    });
    let element = memref.element();
    // `index` is 64 bits wide on the NVPTX targets acopy compiles for.
    let bits = if element.is_index() {
        Some(64)
    } else {
        element_bits(element)
    };
    elements
        .zip(bits)
        .and_then(|(count, bits)| count.checked_mul(u64::from(bits).div_ceil(8)))
        .unwrap_or(0)
}

/// The trip count of an `scf.for` whose bounds and step are constants.
pub(crate) fn static_trip_count(loop_op: OperationRef) -> Option<i64> {
    let value = |index: usize| loop_op.operand(index).ok().and_then(ir::constant_int);
    let (lower, upper, step) = (value(0)?, value(1)?, value(2)?);
    if step <= 0 {
        return None;
    }
    let (lower, upper, step) = (i128::from(lower), i128::from(upper), i128::from(step));
    let trips = if upper > lower {
        (upper - lower + step - 1) / step
    } else {
        0
    };
    i64::try_from(trips).ok()
}

/// Shared bytes of the kernel outside the pipelined tiles: its other
/// workgroup attributions and the gpu.module's other shared globals.
/// The stages (at most 8, the default bound, when unreadable) and the swizzle of
/// the marked loop whose copy writes `attribution`, if one does.
fn other_stages(attribution: Value) -> Option<(u64, u64)> {
    users(attribution).into_iter().find_map(|(user, _)| {
        if ir::op_name(&user) != names::COPY_GMEM_TO_SMEM {
            return None;
        }
        let parent = user.parent_operation()?;
        let request = attr::request(parent)?;
        let stages = attr::stages(request, u32::MAX).map_or(8, u64::from);
        let stages = match static_trip_count(parent) {
            Some(trips) => stages.min(u64::try_from(trips.max(1)).unwrap_or(1)),
            None => stages,
        };
        let swizzle =
            CopyGmemToSmem::from_op(user).map_or(0, |view| u64::from(view.swizzle.bytes()));
        Some((stages, swizzle))
    })
}

fn other_shared_bytes(function: OperationRef, tiles: &[Tile], path: CopyPath) -> u64 {
    let mut total: u64 = 0;
    let inputs = ir::function_inputs(function).unwrap_or(0);
    if let Some(entry) = function
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
    {
        for position in inputs..entry.argument_count() {
            let Ok(argument) = entry.argument(position) else {
                continue;
            };
            let value: Value = argument.into();
            if tiles.iter().any(|tile| tile.value == value) {
                continue;
            }
            if let Ok(memref) = MemRefType::try_from(value.r#type()) {
                let bytes = tile_bytes(memref);
                // A tile of another marked loop will hold that loop's slots (and
                // barriers): count them now, so that the check before pipelining
                // (acopy-verify) and the one after another loop's rewrite agree.
                let bytes = match other_stages(value) {
                    Some((stages, swizzle)) => {
                        let slot = smem::padded(bytes, smem::slot_alignment(path, swizzle));
                        slot.saturating_mul(stages)
                            .saturating_add(if path == CopyPath::Tma {
                                stages * smem::BARRIER_BYTES + 8
                            } else {
                                0
                            })
                    }
                    None => bytes,
                };
                total = total.saturating_add(bytes);
            }
        }
    }
    if let Some(module) = target::enclosing(function, "gpu.module") {
        if let Some(block) = module
            .region(0)
            .ok()
            .and_then(|region| region.first_block())
        {
            for op in top_level_ops(block) {
                if ir::op_name(&op) != "memref.global" {
                    continue;
                }
                let is_tile = tiles.iter().any(
                    |tile| matches!(tile.root, TileRoot::Global { global, .. } if global == op),
                );
                let memref = op
                    .attribute("type")
                    .ok()
                    .and_then(|value| TypeAttribute::try_from(value).ok())
                    .and_then(|value| MemRefType::try_from(value.value()).ok());
                if let Some(memref) = memref.filter(|_| !is_tile) {
                    if acopy_dialect::MemorySpace::of(memref) == acopy_dialect::MemorySpace::Shared
                    {
                        total = total.saturating_add(tile_bytes(memref));
                    }
                }
            }
        }
    }
    total
}

/// Why the slots of a loop in `function` cannot move to dynamic shared
/// memory, whatever their size (P11): the kernel places dynamic shared memory
/// itself, or it has another marked loop (each would need its own region).
fn dynamic_blocked(function: OperationRef) -> Option<String> {
    if function.has_attribute(DYNAMIC_SHARED_MEMORY) {
        return Some(format!(
            "the kernel already carries {DYNAMIC_SHARED_MEMORY}"
        ));
    }
    let mut uses_dynamic = false;
    let mut marked = 0usize;
    function.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        if ir::op_name(&op) == "gpu.dynamic_shared_memory" {
            uses_dynamic = true;
        }
        if attr::request(op).is_some() {
            marked += 1;
        }
        melior::ir::operation::WalkResult::Advance
    });
    if uses_dynamic {
        Some("the kernel uses gpu.dynamic_shared_memory itself".into())
    } else if marked > 1 {
        Some(format!(
            "the kernel has {marked} loops marked acopy.pipeline, and only a kernel's one marked loop can move"
        ))
    } else {
        None
    }
}

pub use crate::manifest::DYNAMIC_SHARED_MEMORY;

/// The per-chip budget (P10) and the static limit (P11); where the slots go
/// when they move to dynamic shared memory.
fn check_budget(
    tiles: &[Tile],
    function: OperationRef,
    chip: Chip,
    path: CopyPath,
    stages: u32,
    max_stages: u32,
) -> Result<Option<DynamicSlots>, (&'static str, String)> {
    let align = tiles
        .iter()
        .map(|tile| tile.align)
        .max()
        .unwrap_or(smem::DYNAMIC_BASE_ALIGN);
    let blocked = dynamic_blocked(function);
    let mut budget = smem::Budget {
        slots: tiles.iter().map(|tile| tile.slot).collect(),
        other: other_shared_bytes(function, tiles, path),
        barriers: path == CopyPath::Tma,
        dynamic: None,
    };
    let kept_static = budget
        .barrier_bytes(u64::from(stages))
        .saturating_add(budget.other);
    if blocked.is_none() && kept_static <= smem::STATIC_LIMIT {
        budget.dynamic = Some(smem::dynamic_reserve(align));
    }
    let stages = u64::from(stages);
    let total = budget.total(stages);
    let parts: Vec<String> = tiles
        .iter()
        .map(|tile| format!("{stages} x {} bytes for {}", tile.slot, tile.tile_type))
        .chain(
            (budget.barriers)
                .then(|| format!("{} bytes of barriers", budget.barrier_bytes(stages))),
        )
        .chain((budget.other > 0).then(|| format!("{} bytes of other shared memory", budget.other)))
        .chain(
            budget
                .dynamic
                .filter(|reserve| *reserve > 0 && budget.moves(stages))
                .map(|reserve| {
                    format!("{reserve} bytes to align the slots in dynamic shared memory")
                }),
        )
        .collect();
    let breakdown = parts.join(", ");
    let limit = smem::chip_limit(chip);
    let fit = |limit: u64| match budget.largest_fitting(limit, u64::from(max_stages)) {
        0 => "not even 1 stage fits".to_string(),
        1 => "at most 1 stage fits".to_string(),
        n => format!("at most {n} stages fit"),
    };
    if total > limit {
        return Err((
            "P10",
            format!(
                "the pipelined loop needs {total} bytes of shared memory on {chip} ({breakdown}), more than the {limit} bytes a block can have; {}",
                fit(limit)
            ),
        ));
    }
    if budget.moves(stages) {
        return Ok(Some(DynamicSlots {
            align,
            reserve: smem::dynamic_reserve(align),
        }));
    }
    if total > smem::STATIC_LIMIT {
        let why = blocked.unwrap_or_else(|| {
            format!("{kept_static} bytes of barriers and other shared memory stay static, more than that alone")
        });
        return Err((
            "P11",
            format!(
                "the pipelined loop puts {total} bytes in static shared memory ({breakdown}), more than the {} bytes ptxas accepts, and its slots cannot move to dynamic shared memory: {why}; {} in static shared memory",
                smem::STATIC_LIMIT,
                fit(smem::STATIC_LIMIT)
            ),
        ));
    }
    Ok(None)
}
