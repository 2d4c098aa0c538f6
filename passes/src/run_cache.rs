//! Answers memoised for the length of one pass run: the spelling of a type
//! and the chips of a `gpu.module`'s `targets`.
//!
//! Both were printed once per op (the rules' messages and the tensor-map keys
//! need a type's spelling; the C API has no accessor for `#nvvm.target`), and
//! each print sets up MLIR's printer state. They are keyed by the address of a
//! type or attribute, which MLIR uniques in the context and never frees while
//! the context lives, so IR edits during the run (ops erased, a `targets`
//! attribute replaced) cannot make a key point at something else. The memo is
//! dropped when the outermost [`scope`] ends, so no key outlives the run and
//! its context. Outside a scope (a library caller checking one op) nothing is
//! kept.

use std::cell::RefCell;

use rustc_hash::FxHashMap as HashMap;

use melior::ir::{Attribute, AttributeLike, Type, TypeLike};

use crate::{
    scoped_memo::{self, Slot},
    target::TargetProblem,
};
use acopy_target::Chip;

#[derive(Default)]
struct Memo {
    types: HashMap<usize, String>,
    chips: HashMap<usize, Vec<Result<Chip, TargetProblem>>>,
    /// Strides and offset of memref types (`None`: not strided).
    layouts: HashMap<usize, Option<(Vec<i64>, i64)>>,
    /// Parsed attributes by context, then spelling (a hit allocates nothing).
    attributes: HashMap<usize, HashMap<String, usize>>,
}

thread_local! {
    static MEMO: RefCell<Slot<Memo>> = RefCell::default();
}

/// Keeps the memo until the returned guard is dropped; the outermost one
/// forgets it.
pub(crate) fn scope() -> impl Sized {
    scoped_memo::enter(&MEMO)
}

/// A memref type's strides and offset, as MLIR's `getStridesAndOffset` gives
/// them (dynamic ones are `ShapedType::kDynamic`), or `None` for a layout
/// that is not strided. Verification and lowering both ask per copy, and the
/// answer walks the layout's affine map.
pub(crate) fn layout(memref: melior::ir::r#type::MemRefType) -> Option<(Vec<i64>, i64)> {
    let key = memref.to_raw().ptr as usize;
    if let Some(Some(known)) = scoped_memo::with(&MEMO, |memo| memo.layouts.get(&key).cloned()) {
        return known;
    }
    let rank = melior::ir::ShapedTypeLike::rank(&memref);
    let mut strides = vec![0i64; rank];
    let mut offset = 0i64;
    // SAFETY: the type is a live memref type and `strides` has room for one
    // stride per dimension, which is what the C API writes.
    let result = unsafe {
        mlir_sys::mlirMemRefTypeGetStridesAndOffset(
            memref.to_raw(),
            strides.as_mut_ptr(),
            &mut offset,
        )
    };
    let answer = (result.value != 0).then_some((strides, offset));
    scoped_memo::with(&MEMO, |memo| memo.layouts.insert(key, answer.clone()));
    answer
}

/// `text` parsed as an attribute of `context`, parsed once per run: the
/// lowering asks for the same few (`#gpu<dim x>`, segment sizes) per copy.
pub(crate) fn attribute<'c>(context: &'c melior::Context, text: &str) -> Option<Attribute<'c>> {
    let context_key = context.to_raw().ptr as usize;
    let found = scoped_memo::with(&MEMO, |memo| {
        memo.attributes
            .get(&context_key)
            .and_then(|spellings| spellings.get(text))
            .copied()
    });
    if let Some(Some(raw)) = found {
        // SAFETY: parsed in this context during this run; attributes are
        // uniqued and live as long as their context.
        return Some(unsafe {
            Attribute::from_raw(mlir_sys::MlirAttribute {
                ptr: raw as *const std::ffi::c_void,
            })
        });
    }
    let parsed = Attribute::parse(context, text)?;
    scoped_memo::with(&MEMO, |memo| {
        memo.attributes
            .entry(context_key)
            .or_default()
            .insert(text.to_string(), parsed.to_raw().ptr as usize)
    });
    Some(parsed)
}

/// The MLIR spelling of `r#type`.
pub(crate) fn type_string(r#type: Type) -> String {
    let key = r#type.to_raw().ptr as usize;
    match scoped_memo::with(&MEMO, |memo| memo.types.get(&key).cloned()) {
        None => r#type.to_string(),
        Some(Some(text)) => text,
        Some(None) => {
            let text = r#type.to_string();
            scoped_memo::with(&MEMO, |memo| memo.types.insert(key, text.clone()));
            text
        }
    }
}

/// The chips of a `targets` attribute, computed by `compute` the first time
/// it is asked for within a scope.
pub(crate) fn chips(
    targets: Attribute,
    compute: impl FnOnce() -> Vec<Result<Chip, TargetProblem>>,
) -> Vec<Result<Chip, TargetProblem>> {
    let key = targets.to_raw().ptr as usize;
    match scoped_memo::with(&MEMO, |memo| memo.chips.get(&key).cloned()) {
        None => compute(),
        Some(Some(chips)) => chips,
        Some(None) => {
            let chips = compute();
            scoped_memo::with(&MEMO, |memo| memo.chips.insert(key, chips.clone()));
            chips
        }
    }
}
