//! Raising the alignment of the memory a shared buffer comes from, so that an
//! alignment the lowering (or the pipeliner's slots) needs is guaranteed rather
//! than assumed. An IR edit below both passes.
//!
//! Two allocations can be raised: a workgroup attribution of a gpu.func
//! (`llvm.align` in its `workgroup_attrib_attrs`) and a `memref.global`
//! (`alignment`). Alignments are only ever raised, so what an earlier copy of
//! the same buffer needed stays true.

use melior::ir::{
    attribute::{ArrayAttribute, DictionaryAttribute, IntegerAttribute},
    operation::OperationLike,
    r#type::IntegerType,
    Attribute, Identifier, OperationRef,
};

use crate::ir::op_names;
use crate::{
    ir,
    plan::alignment::{global_of, has_workgroup_attribution, Origin},
};

/// Raises the allocation `origin` names (`crate::plan::alignment::view_root`)
/// to at least `align`, when it is one the lowering can raise; false
/// otherwise (then nothing changes).
pub(crate) fn raise(origin: Origin, align: u64) -> bool {
    match origin {
        Origin::Attribution(function, index) => raise_workgroup_alignment(function, index, align),
        Origin::Global(get_global) => raise_global_alignment(get_global, align).is_some(),
        _ => false,
    }
}

/// Raises `llvm.align` of workgroup attribution `index` of `function` to at
/// least `align`; false when the function has no such attribution.
pub(crate) fn raise_workgroup_alignment(function: OperationRef, index: usize, align: u64) -> bool {
    if !has_workgroup_attribution(function, index) {
        return false;
    }
    ir::with_context(&function, |context| {
        raise_in(context, function, index, align)
    })
}

fn raise_in(context: &melior::Context, function: OperationRef, index: usize, align: u64) -> bool {
    let count = function
        .attribute("workgroup_attributions")
        .ok()
        .and_then(|value| IntegerAttribute::try_from(value).ok())
        .map_or(0, |value| usize::try_from(value.value()).unwrap_or(0));
    if index >= count {
        return false;
    }
    let existing = function
        .attribute("workgroup_attrib_attrs")
        .ok()
        .and_then(|value| ArrayAttribute::try_from(value).ok());
    let mut dictionaries: Vec<Vec<(Identifier, Attribute)>> = vec![Vec::new(); count];
    if let Some(existing) = existing {
        for (slot, entries) in dictionaries.iter_mut().enumerate() {
            let Some(dictionary) = existing
                .element(slot)
                .ok()
                .and_then(|value| DictionaryAttribute::try_from(value).ok())
            else {
                continue;
            };
            for position in 0..dictionary.len() {
                if let Ok(entry) = dictionary.element(position) {
                    entries.push(entry);
                }
            }
        }
    }
    let entries = &mut dictionaries[index];
    let current = entries
        .iter()
        .find(|(name, _)| name.as_string_ref().as_str() == Ok(op_names::attributes::LLVM_ALIGN))
        .and_then(|(_, value)| IntegerAttribute::try_from(*value).ok())
        .map_or(0, |value| value.value());
    if current >= align as i64 {
        return true;
    }
    entries
        .retain(|(name, _)| name.as_string_ref().as_str() != Ok(op_names::attributes::LLVM_ALIGN));
    entries.push((
        Identifier::new(context, op_names::attributes::LLVM_ALIGN),
        int_attr(context, align),
    ));
    let values: Vec<Attribute> = dictionaries
        .iter()
        .map(|entries| DictionaryAttribute::new(context, entries).into())
        .collect();
    ir::set_inherent(
        function,
        "workgroup_attrib_attrs",
        ArrayAttribute::new(context, &values).into(),
    );
    true
}

/// Raises the `alignment` of the `memref.global` that `get_global` reads to
/// at least `align`; returns the global's alignment then, or `None` when the
/// global is not found.
fn raise_global_alignment(get_global: OperationRef, align: u64) -> Option<u64> {
    let global = global_of(get_global)?;
    let current = global
        .attribute("alignment")
        .ok()
        .and_then(|value| IntegerAttribute::try_from(value).ok())
        .map_or(0, |value| value.value());
    if current < align as i64 {
        ir::with_context(&global, |context| {
            ir::set_inherent(global, "alignment", int_attr(context, align))
        });
        return Some(align);
    }
    Some(current as u64)
}

fn int_attr(context: &melior::Context, value: u64) -> Attribute<'_> {
    IntegerAttribute::new(IntegerType::new(context, 64).into(), value as i64).into()
}
