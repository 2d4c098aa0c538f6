//! Rule A27: a kernel takes at most `MAX_TENSOR_MAPS` tensor maps.
//!
//! The TMA lowering gives each distinct (source argument, element type, box,
//! swizzle, OOB fill) of a kernel one tensor-map parameter, in program order,
//! after any the kernel already lists in `acopy.tensor_maps`
//! (`lower/tma/map_params.rs`). This replays that count up to an op, with the same
//! keys, so the op that would add one map too many gets the error.
//!
//! Replaying per op made verification quadratic in the copies of a kernel.
//! Inside a [`scope`] (held by `verify_operation` while it walks, with the IR
//! unchanged) the first op of a kernel replays the whole kernel once and
//! records the answer for each of its ops; the scope's end forgets them before
//! any lowering can erase ops and reuse their addresses.

use std::{
    cell::RefCell,
    collections::{HashMap, HashSet},
};

use acopy_dialect::AcopyOp;
use melior::ir::{
    operation::{OperationLike, WalkOrder, WalkResult},
    OperationRef,
};

use super::facts::Ctx;
use crate::{
    manifest::read_entries,
    plan::{
        tensor_map_key::{self, MAX_TENSOR_MAPS},
        tma_facts::SourceFacts,
    },
    scoped_memo::{self, Slot},
};
use acopy_manifest::TensorMap;

fn source<'x, 'c, 'a>(ctx: &'x Ctx<'_, 'c, 'a>) -> Option<&'x SourceFacts<'c, 'a>> {
    ctx.tma.as_ref()?.source.as_ref().ok()
}

/// The tensor map a TMA copy uses, as the lowering keys it.
fn map_key(ctx: &Ctx) -> Option<TensorMap> {
    let source = source(ctx)?;
    let copy = ctx.copy.as_ref()?;
    let swizzle = ctx.swizzle();
    tensor_map_key::tensor_map(
        source.arg_index,
        copy.tile_tma_element?,
        &ctx.tma_issue_box()?,
        swizzle,
    )
    .ok()
}

/// Kernels replayed so far, and whether each of their ops exceeds.
#[derive(Default)]
struct Replayed {
    kernels: HashSet<usize>,
    exceeds: HashMap<usize, bool>,
}

thread_local! {
    static REPLAYED: RefCell<Slot<Replayed>> = RefCell::default();
}

#[cfg(test)]
thread_local! {
    /// Walks of a kernel's ops by [`replay`] and [`replay_all`]: the unit
    /// tests check the scope's cache saves them (one walk per kernel).
    pub(super) static KERNEL_WALKS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn count_walk() {
    #[cfg(test)]
    KERNEL_WALKS.with(|walks| walks.set(walks.get() + 1));
}

/// Keeps the memo until the returned guard is dropped; the outermost one
/// forgets it.
pub(super) fn scope() -> impl Sized {
    scoped_memo::enter(&REPLAYED)
}

/// Whether `ctx`'s op needs a new tensor map when its kernel already has
/// `MAX_TENSOR_MAPS`.
pub(super) fn exceeds_limit(ctx: &Ctx) -> bool {
    let (Some(source), Some(key)) = (source(ctx), map_key(ctx)) else {
        return false;
    };
    let this = ctx.view.op().to_raw().ptr as usize;
    let kernel = source.kernel.to_raw().ptr as usize;
    let cached = scoped_memo::with(&REPLAYED, |replayed| {
        if replayed.kernels.contains(&kernel) {
            replayed
                .exceeds
                .get(&this)
                .map_or(Cached::NotRecorded, |&exceeds| Cached::Answer(exceeds))
        } else {
            Cached::NotReplayed
        }
    })
    .unwrap_or(Cached::NoScope);
    match cached {
        Cached::Answer(exceeds) => exceeds,
        // Outside a scope, or an op the kernel's replay did not key (the two
        // compute the key alike, so this is a safety net): replay up to it.
        Cached::NoScope | Cached::NotRecorded => replay(ctx, source.kernel, this, &key),
        // First op of its kernel: replay the kernel once for all its ops.
        Cached::NotReplayed => {
            let mut answers = HashMap::new();
            replay_all(ctx, source.kernel, &mut answers);
            let exceeds = answers
                .get(&this)
                .copied()
                .unwrap_or_else(|| replay(ctx, source.kernel, this, &key));
            scoped_memo::with(&REPLAYED, |replayed| {
                replayed.kernels.insert(kernel);
                replayed.exceeds.extend(answers);
            });
            exceeds
        }
    }
}

enum Cached {
    NoScope,
    NotReplayed,
    NotRecorded,
    Answer(bool),
}

/// The map keys of the kernel's listed maps.
fn listed_keys(kernel: OperationRef) -> Vec<TensorMap> {
    read_entries(kernel)
        .iter()
        .map(|entry| entry.map.clone())
        .collect()
}

/// Replays the kernel's copies in program order up to the op `this` (with
/// key `key`): whether that op exceeds the limit.
fn replay(ctx: &Ctx, kernel: OperationRef, this: usize, key: &TensorMap) -> bool {
    count_walk();
    let mut keys = listed_keys(kernel);
    let mut exceeds = false;
    kernel.walk(WalkOrder::PreOrder, |op| {
        if op.to_raw().ptr as usize == this {
            exceeds = !keys.contains(key) && keys.len() >= MAX_TENSOR_MAPS;
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

/// The same replay over the whole kernel, recording each copy's answer.
fn replay_all(ctx: &Ctx, kernel: OperationRef, answers: &mut HashMap<usize, bool>) {
    count_walk();
    let mut keys = listed_keys(kernel);
    if fits_without_keys(kernel, keys.len(), answers) {
        return;
    }
    kernel.walk(WalkOrder::PreOrder, |op| {
        if let Some(Ok(view)) = AcopyOp::from_op(op) {
            let other = Ctx::new(&view, ctx.target, ctx.options);
            if let Some(other_key) = map_key(&other) {
                let exceeds = !keys.contains(&other_key) && keys.len() >= MAX_TENSOR_MAPS;
                answers.insert(op.to_raw().ptr as usize, exceeds);
                if !keys.contains(&other_key) {
                    keys.push(other_key);
                }
            }
        }
        WalkResult::Advance
    });
}

/// When the listed maps and one new map per acopy op of the kernel stay
/// within `MAX_TENSOR_MAPS`, no op can exceed: records `false` for each acopy
/// op without working out its facts and key (which cost as much as the op's
/// own check). Returns whether it did.
fn fits_without_keys(
    kernel: OperationRef,
    listed: usize,
    answers: &mut HashMap<usize, bool>,
) -> bool {
    let mut ops = Vec::new();
    kernel.walk(WalkOrder::PreOrder, |op| {
        let name = op.name();
        if name
            .as_string_ref()
            .as_str()
            .is_ok_and(|name| acopy_dialect::names::ALL.contains(&name))
        {
            ops.push(op.to_raw().ptr as usize);
        }
        WalkResult::Advance
    });
    if listed + ops.len() > MAX_TENSOR_MAPS {
        return false;
    }
    answers.extend(ops.into_iter().map(|op| (op, false)));
    true
}
