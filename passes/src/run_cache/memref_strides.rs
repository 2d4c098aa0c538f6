//! A memref type's strides and offset, worked out once per run.

use std::cell::RefCell;

use melior::ir::{r#type::MemRefType, TypeLike};
use rustc_hash::FxHashMap as HashMap;

use crate::scoped_memo::{self, Slot};

/// Strides and offset (`None`: not strided), by memref type address.
type Layouts = HashMap<usize, Option<(Vec<i64>, i64)>>;

thread_local! {
    static LAYOUTS: RefCell<Slot<Layouts>> = RefCell::default();
}

pub(super) fn scope() -> impl Sized {
    scoped_memo::enter(&LAYOUTS)
}

/// A memref type's strides and offset, as MLIR's `getStridesAndOffset` gives
/// them (dynamic ones are `ShapedType::kDynamic`), or `None` for a layout
/// that is not strided.
pub(crate) fn layout(memref: MemRefType) -> Option<(Vec<i64>, i64)> {
    let key = memref.to_raw().ptr as usize;
    if let Some(Some(known)) = scoped_memo::with(&LAYOUTS, |memo| memo.get(&key).cloned()) {
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
    scoped_memo::with(&LAYOUTS, |memo| memo.insert(key, answer.clone()));
    answer
}
