//! The form of a marked loop's body: copies at its top level, then one wait,
//! then the consumers (rules P3 and P4).

use acopy_dialect::names;
use melior::ir::{
    attribute::IntegerAttribute, block::BlockLike, operation::OperationLike, BlockRef,
    OperationRef, RegionLike, Value,
};

use super::{
    loop_plan::Broken,
    loop_plan::{LoopProblem, Tile},
};
use crate::ir::query::{describe, top_level_ops};
use crate::{ir, plan::alignment::memory_root};

/// The top level of a marked loop's body, read into its parts.
pub(crate) struct BodyForm<'c, 'a> {
    pub body: BlockRef<'c, 'a>,
    /// Every op of the body's top level, in order.
    pub top: Vec<OperationRef<'c, 'a>>,
    /// The copies before the wait.
    pub copies: Vec<OperationRef<'c, 'a>>,
    /// The wait (`wait_gmem_to_smem`, or the native form's `barrier_wait`)
    /// and its position in `top`.
    pub wait: OperationRef<'c, 'a>,
    pub wait_position: usize,
    /// TMA stores (and their waits) among the consumers.
    pub stores: Vec<OperationRef<'c, 'a>>,
}

/// Reads `body` into its parts, or the rule it breaks and why.
pub(crate) fn read<'c, 'a>(body: BlockRef<'c, 'a>) -> Result<BodyForm<'c, 'a>, (Broken, String)> {
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
                return Err((
                    Broken::ForeignOp,
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
        // A wgmma descriptor of a tile is a consumer: it reads the slot's address
        // (async_consumers.rs checks the wgmma that use it); so is a swizzled
        // index, which reads the slot's layout.
        if is_slot_computation(&name) && wait.is_some() {
            continue;
        }
        if name.starts_with("acopy.") {
            let place = if wait.is_some() {
                "after the wait"
            } else {
                "at the body's top level"
            };
            return Err((Broken::ForeignOp, foreign(&name, place)));
        }
        if let Some(nested) = nested_acopy(*op) {
            return Err((Broken::ForeignOp, foreign(&nested, "nested in the body")));
        }
    }
    let Some((wait_position, wait)) = wait else {
        let what = if copies.is_empty() {
            "it has no copy at its top level"
        } else {
            "its copies are not followed by a wait_gmem_to_smem"
        };
        return Err((Broken::BodyForm, p3(what)));
    };
    Ok(BodyForm {
        body,
        top,
        copies,
        wait,
        wait_position,
        stores,
    })
}

/// No TMA store among the consumers reads a pipelined tile (P4, at the store).
pub(crate) fn check_stores<'c, 'a>(
    stores: &[OperationRef<'c, 'a>],
    tiles: &[Tile<'c, 'a>],
) -> Result<(), LoopProblem<'c, 'a>> {
    let Some((store, tile)) = store_of_a_tile(stores, tiles) else {
        return Ok(());
    };
    Err(LoopProblem::rule(
        store,
        (
            Broken::ForeignOp,
            foreign(
                names::COPY_SMEM_TO_GMEM,
                &format!("of the pipelined tile {} (a TMA store reads its slot after the barrier that frees the slot for the next copy)", describe(tile)),
            ),
        ),
    ))
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

/// A wgmma descriptor or a swizzled index only computes from a slot's address
/// and layout, so it may sit at any depth among the consumers (a K loop of
/// descriptors, a per-element loop of indices): the pass owns only the copies
/// and the waits.
fn is_slot_computation(name: &str) -> bool {
    name == names::WGMMA_DESCRIPTOR || name == names::SWIZZLED_INDEX
}

/// The name of the first acopy op nested in `op`'s regions that the pass
/// would own (a copy, a wait, a barrier, a store).
fn nested_acopy(op: OperationRef) -> Option<String> {
    let mut found = None;
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(current) = block {
            for inner in top_level_ops(current) {
                let name = ir::op_name(&inner);
                if name.starts_with("acopy.") && !is_slot_computation(&name) {
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
