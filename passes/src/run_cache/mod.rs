//! Answers memoised for the length of one pass run, one file per question:
//!
//! - `spelling`: the MLIR spelling of a type (the rules' messages and the
//!   tensor-map keys print types once per op);
//! - `memref_strides`: a memref type's strides and offset (verification and lowering
//!   both ask per copy, and the answer walks the layout's affine map);
//! - `attributes`: attributes parsed from text (the lowering asks for the
//!   same few per copy);
//! - `map_entries`: a kernel's `acopy.tensor_maps` read as manifest entries
//!   (the lowering and verification read them per copy).
//!
//! The chips of a `gpu.module`'s `targets` are the target's question and are
//! memoised in `crate::target`, whose `run_scope` keeps that memo and these.
//!
//! Each print or parse sets up MLIR's printer or parser state, which is what
//! the memos save. They are keyed by the address of a type or attribute, which
//! MLIR uniques in the context and never frees while the context lives, so IR
//! edits during the run (ops erased, a `targets` attribute replaced) cannot
//! make a key point at something else. The memos are dropped when the
//! outermost [`scope`] ends, so no key outlives the run and its context.
//! Outside a scope (a library caller checking one op) nothing is kept.

mod attributes;
mod map_entries;
mod memref_strides;
mod spelling;

pub(crate) use attributes::attribute;
pub(crate) use map_entries::tensor_map_entries;
pub(crate) use memref_strides::layout;
pub(crate) use spelling::type_string;

/// Keeps every run-long memo until the returned guard is dropped; the
/// outermost one forgets them.
pub(crate) fn scope() -> impl Sized {
    (
        spelling::scope(),
        memref_strides::scope(),
        attributes::scope(),
        map_entries::scope(),
    )
}
