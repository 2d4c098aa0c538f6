//! Rule A27: a kernel takes at most `MAX_TENSOR_MAPS` tensor maps.
//!
//! The TMA lowering gives each distinct (source argument, element type, box,
//! swizzle, OOB fill) of a kernel one tensor-map parameter, in program order,
//! after any the kernel already lists in `acopy.tensor_maps`
//! (`lower/tma/maps.rs`). This replays that count up to an op, with the same
//! keys, so the op that would add one map too many gets the error.

use acopy_dialect::AcopyOp;
use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};

use super::{facts::Ctx, tma_facts::SourceFacts};
use crate::{
    lower::tma::maps::{self, MAX_TENSOR_MAPS},
    manifest::read_entries,
};
use acopy_manifest::TensorMap;

fn source<'x, 'c, 'a>(ctx: &'x Ctx<'_, 'c, 'a>) -> Option<&'x SourceFacts<'c, 'a>> {
    ctx.tma.as_ref()?.source.as_ref().ok()
}

/// The tensor map a TMA copy uses, as the lowering keys it.
fn map_key(ctx: &Ctx) -> Option<TensorMap> {
    let source = source(ctx)?;
    let copy = ctx.copy.as_ref()?;
    let mut map =
        maps::tensor_map(source.arg_index, copy.tile_tma_element?, &ctx.tma_box()?).ok()?;
    if let Some(load) = ctx.load() {
        map.swizzle = load.swizzle;
    }
    Some(map)
}

/// Whether `ctx`'s op needs a new tensor map when its kernel already has
/// `MAX_TENSOR_MAPS`.
pub(super) fn exceeds_limit(ctx: &Ctx) -> bool {
    let (Some(source), Some(key)) = (source(ctx), map_key(ctx)) else {
        return false;
    };
    let mut keys: Vec<TensorMap> = read_entries(source.kernel)
        .into_iter()
        .map(|entry| entry.map)
        .collect();
    let this = ctx.view.op().to_raw().ptr;
    let mut exceeds = false;
    source.kernel.walk(WalkOrder::PreOrder, |op| {
        if op.to_raw().ptr == this {
            exceeds = !keys.contains(&key) && keys.len() >= MAX_TENSOR_MAPS;
            return WalkResult::Interrupt;
        }
        if let Some(Ok(view)) = AcopyOp::from_op(op) {
            let other = Ctx::new(&view, ctx.target, ctx.options);
            if let Some(other_key) = map_key(&other) {
                if !keys.contains(&other_key) {
                    keys.push(other_key);
                }
            }
        }
        WalkResult::Advance
    });
    exceeds
}
