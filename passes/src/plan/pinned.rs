//! Plans that ride on their op across the pipeliner, as attributes.
//!
//! A swizzled index and a wgmma descriptor are planned from the copies that
//! write their tile (`super::swizzled_index`, `super::wgmma_descriptor`). The
//! pipeliner moves tiles into slots, which in dynamic shared memory are views
//! of one buffer, so after it every tile's copies would count as writers of
//! each; and the copies' own lowering erases them. So `acopy-lower` pins each
//! plan on its op, as a discardable `array<i64: ...>` attribute, on the IR it
//! has just verified, and every later step (the second verification, the
//! lowering) reads the plan from the op: the plan holds across the move (same
//! types, same writers, slots aligned to the pattern). The op is lowered and
//! erased, so the attribute never reaches the output. This replaces the
//! thread-local stores keyed by op address that carried these plans before
//! (as Triton's pipeliner carries its schedule between passes on the ops).

use melior::ir::{attribute::DenseI64ArrayAttribute, OperationRef};

/// Pins `words` on `op` as the attribute `name`.
pub(crate) fn pin(op: OperationRef, name: &str, words: &[i64]) {
    crate::ir::with_context(&op, |context| {
        let value = DenseI64ArrayAttribute::new(context, words).into();
        crate::ir::set_discardable(op, name, value);
    });
}

/// The words pinned on `op` as `name`, if any.
pub(crate) fn read(op: OperationRef, name: &str) -> Option<Vec<i64>> {
    crate::ir::dense_i64s(&op, name)
}
