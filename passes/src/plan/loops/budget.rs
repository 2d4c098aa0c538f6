//! The shared memory a pipelined loop needs: its slots, barriers and the
//! kernel's other shared memory against the chip's budget (rule P10), and
//! whether the slots stay static or move to dynamic shared memory (rule P11).

use acopy_dialect::CopyGmemToSmem;
use acopy_expect::{AutoLimit, AutoStages};
use acopy_target::{Chip, CopyPath};
use melior::ir::{
    attribute::TypeAttribute, block::BlockLike, operation::OperationLike, r#type::MemRefType,
    OperationRef, RegionLike, Value, ValueLike,
};

use super::{
    attr,
    loop_plan::static_trip_count,
    loop_plan::Broken,
    loop_plan::Induction,
    loop_plan::{DynamicSlots, Tile},
    slots,
};
use crate::ir::query::{top_level_ops, users};
use crate::{ir, manifest::DYNAMIC_SHARED_MEMORY, target};
use acopy_dialect::names;

/// The per-chip budget (P10) and the static limit (P11); where the slots go
/// when they move to dynamic shared memory.
pub(crate) fn check_budget(
    tiles: &[Tile],
    function: OperationRef,
    chip: Chip,
    (path, rings): (CopyPath, slots::Rings),
    stages: u32,
    max_stages: u32,
) -> Result<Option<DynamicSlots>, (Broken, String)> {
    let Planned {
        budget,
        align,
        blocked,
        kept_static,
    } = plan_budget(tiles, function, (path, rings), stages);
    let stages = u64::from(stages);
    let total = budget.total(stages);
    let breakdown = breakdown(tiles, &budget, stages);
    let limit = slots::chip_limit(chip);
    let fit = |limit: u64| match budget.largest_fitting(limit, u64::from(max_stages)) {
        0 => "not even 1 stage fits".to_string(),
        1 => "at most 1 stage fits".to_string(),
        n => format!("at most {n} stages fit"),
    };
    if total > limit {
        return Err((
            Broken::Budget,
            format!(
                "the pipelined loop needs {total} bytes of shared memory on {chip} ({breakdown}), more than the {limit} bytes a block can have; {}",
                fit(limit)
            ),
        ));
    }
    if budget.moves(stages) {
        return Ok(Some(DynamicSlots {
            align,
            reserve: slots::dynamic_reserve(align),
        }));
    }
    if total > slots::STATIC_LIMIT {
        let why = blocked.unwrap_or_else(|| {
            format!("{kept_static} bytes of barriers and other shared memory stay static, more than that alone")
        });
        return Err((
            Broken::StaticBudget,
            format!(
                "the pipelined loop puts {total} bytes in static shared memory ({breakdown}), more than the {} bytes ptxas accepts, and its slots cannot move to dynamic shared memory: {why}; {} in static shared memory",
                slots::STATIC_LIMIT,
                fit(slots::STATIC_LIMIT)
            ),
        ));
    }
    Ok(None)
}

/// The loop's shared memory at `stages`, before it is checked.
struct Planned {
    budget: slots::Budget,
    /// The largest slot alignment (the dynamic base is rounded up to it).
    align: u64,
    /// Why the slots cannot move to dynamic shared memory, if they cannot.
    blocked: Option<String>,
    /// The bytes that stay static when the slots move: barriers, shared
    /// globals, and attributions that `static_shared` cannot move.
    kept_static: u64,
}

fn plan_budget(
    tiles: &[Tile],
    function: OperationRef,
    (path, rings): (CopyPath, slots::Rings),
    stages: u32,
) -> Planned {
    let align = tiles
        .iter()
        .map(|tile| tile.align)
        .max()
        .unwrap_or(slots::DYNAMIC_BASE_ALIGN);
    let blocked = dynamic_blocked(function);
    let other = other_shared_bytes(function, tiles, path);
    let mut budget = slots::Budget {
        slots: tiles.iter().map(|tile| tile.slot).collect(),
        other: other.total,
        barriers: rings,
        dynamic: None,
    };
    // The kernel's other attributions of a static identity layout move to
    // dynamic shared memory after the rewrite when the static bytes still pass
    // ptxas's limit (`static_shared`), so only the rest must fit beside the
    // barriers for the slots to move.
    let kept_static = budget
        .barrier_bytes(u64::from(stages))
        .saturating_add(other.total)
        .saturating_sub(other.movable);
    if blocked.is_none() && kept_static <= slots::STATIC_LIMIT {
        budget.dynamic = Some(slots::dynamic_reserve(align));
    }
    Planned {
        budget,
        align,
        blocked,
        kept_static,
    }
}

/// The bytes of one iteration's tiles (at least 1).
fn stage_bytes(tiles: &[Tile]) -> u64 {
    tiles.iter().map(|tile| tile.bytes).sum::<u64>().max(1)
}

/// The bytes `stages` slots keep in flight: the tiles of S - 1 iterations
/// ahead, less the `busy` slots asynchronous consumers hold.
pub(crate) fn in_flight_bytes(tiles: &[Tile], stages: u32, busy: u32) -> u64 {
    stage_bytes(tiles).saturating_mul(u64::from(stages.saturating_sub(1 + busy)))
}

/// What `stages = "auto"` chose and why.
pub(crate) struct AutoChoice {
    pub stages: u32,
    pub why: AutoStages,
}

/// `stages = "auto"` (docs/pipelining.md, "Choosing the stages"): the
/// fewest stages S >= 2 whose S - 1 iterations ahead hold the chip's
/// [`Chip::bytes_in_flight`], at most `max_stages` and at most what fits the
/// chip's shared memory (static, or dynamic where the slots may move there).
/// When not even one stage fits, 1: the budget check then gives P10.
/// `busy` slots are held by asynchronous consumers (wgmma groups in flight)
/// and come on top.
pub(crate) fn auto_stages(
    tiles: &[Tile],
    function: OperationRef,
    chip: Chip,
    (path, rings): (CopyPath, slots::Rings),
    max_stages: u32,
    busy: u32,
) -> AutoChoice {
    let target = chip.bytes_in_flight();
    let per_stage = stage_bytes(tiles);
    let wanted = 1 + target.div_ceil(per_stage).max(1) + u64::from(busy);
    let planned = plan_budget(tiles, function, (path, rings), max_stages);
    let limit = if planned.budget.dynamic.is_some() {
        slots::chip_limit(chip)
    } else {
        slots::STATIC_LIMIT.min(slots::chip_limit(chip))
    };
    let fitting = planned
        .budget
        .largest_fitting(limit, u64::from(max_stages))
        .max(1);
    let (stages, limit) = if wanted <= fitting {
        (wanted, AutoLimit::Latency)
    } else if fitting < u64::from(max_stages) {
        (fitting, AutoLimit::SharedMemory)
    } else {
        (fitting, AutoLimit::MaxStages)
    };
    AutoChoice {
        stages: stages as u32,
        why: AutoStages {
            target_bytes: target,
            in_flight_bytes: in_flight_bytes(tiles, stages as u32, busy),
            limit,
        },
    }
}

/// What the loop's shared memory is made of, for P10's and P11's messages.
fn breakdown(tiles: &[Tile], budget: &slots::Budget, stages: u64) -> String {
    let parts: Vec<String> = tiles
        .iter()
        .map(|tile| format!("{stages} x {} bytes for {}", tile.slot, tile.tile_type))
        .chain(
            (budget.barriers != slots::Rings::None)
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
    parts.join(", ")
}

/// The stages (8, the default bound, when unreadable or "auto": an
/// automatic count is not known before that loop is planned) and the swizzle
/// of the marked loop whose copy writes `attribution`, if one does.
fn other_stages(attribution: Value) -> Option<(u64, u64)> {
    users(attribution).into_iter().find_map(|(user, _)| {
        if ir::op_name(&user) != names::COPY_GMEM_TO_SMEM {
            return None;
        }
        let parent = user.parent_operation()?;
        let request = attr::request(parent)?;
        let stages = match attr::stages(request, u32::MAX) {
            Ok(attr::Stages::Given(stages)) => u64::from(stages),
            _ => 8,
        };
        let stages = match static_trip_count(parent, Induction::of(parent)) {
            Some(trips) => stages.min(u64::try_from(trips.max(1)).unwrap_or(1)),
            None => stages,
        };
        let swizzle =
            CopyGmemToSmem::from_op(user).map_or(0, |view| u64::from(view.swizzle.bytes()));
        Some((stages, swizzle))
    })
}

/// The kernel's shared bytes outside the pipelined tiles.
struct OtherShared {
    /// Its other workgroup attributions and the gpu.module's shared globals.
    total: u64,
    /// Of those, the attributions that `static_shared` can move to dynamic
    /// shared memory: a static shape with the identity layout, not the tile
    /// of another marked loop.
    movable: u64,
}

/// Shared bytes of the kernel outside the pipelined tiles: its other
/// workgroup attributions and the gpu.module's other shared globals.
fn other_shared_bytes(function: OperationRef, tiles: &[Tile], path: CopyPath) -> OtherShared {
    let mut total: u64 = 0;
    let mut movable: u64 = 0;
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
                let bytes = crate::ir::memref_layout::memref_bytes(memref).unwrap_or(0);
                // A tile of another marked loop will hold that loop's slots (and
                // barriers): count them now, so that the check before pipelining
                // (acopy-verify) and the one after another loop's rewrite agree.
                let bytes = match other_stages(value) {
                    Some((stages, swizzle)) => {
                        let slot = slots::padded(bytes, slots::slot_alignment(path, swizzle));
                        slot.saturating_mul(stages)
                            .saturating_add(if path == CopyPath::Tma {
                                stages * slots::BARRIER_BYTES + 8
                            } else {
                                0
                            })
                    }
                    None => {
                        if crate::ir::memref_layout::viewable(memref) {
                            movable = movable.saturating_add(bytes);
                        }
                        bytes
                    }
                };
                total = total.saturating_add(bytes);
            }
        }
    }
    if let Some(module) = target::enclosing(function, crate::ir::op_names::gpu::MODULE) {
        if let Some(block) = module
            .region(0)
            .ok()
            .and_then(|region| region.first_block())
        {
            for op in top_level_ops(block) {
                if !ir::is(&op, ir::op_names::memref::GLOBAL) {
                    continue;
                }
                let memref = op
                    .attribute("type")
                    .ok()
                    .and_then(|value| TypeAttribute::try_from(value).ok())
                    .and_then(|value| MemRefType::try_from(value.value()).ok());
                if let Some(memref) = memref {
                    if acopy_dialect::MemorySpace::of(memref) == acopy_dialect::MemorySpace::Shared
                    {
                        total = total.saturating_add(
                            crate::ir::memref_layout::memref_bytes(memref).unwrap_or(0),
                        );
                    }
                }
            }
        }
    }
    OtherShared { total, movable }
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
        if ir::is(&op, ir::op_names::gpu::DYNAMIC_SHARED_MEMORY) {
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
