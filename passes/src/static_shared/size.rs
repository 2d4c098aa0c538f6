//! The static shared bytes of a kernel: its workgroup attributions and the
//! shared `memref.global`s it reads.

use melior::ir::{
    attribute::{ArrayAttribute, DictionaryAttribute, IntegerAttribute},
    block::BlockLike,
    operation::OperationLike,
    r#type::MemRefType,
    BlockRef, OperationRef, RegionLike, ValueLike,
};

use crate::{
    ir::{
        self,
        memref_layout::{memref_bytes, shared_globals, viewable},
    },
    plan::loops::slots::DYNAMIC_BASE_ALIGN,
};

/// One workgroup attribution: its bytes and the alignment its place needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Attribution {
    pub(super) bytes: u64,
    /// Its `llvm.align`, at least [`DYNAMIC_BASE_ALIGN`].
    pub(super) align: u64,
    /// Its type, when `memref.view` cannot make it (no static shape with the
    /// identity layout).
    pub(super) not_viewable: Option<String>,
}

/// The workgroup attributions of `function`, in order; `None` when one has
/// no size known when compiling (an element type other than integers,
/// floats, indices and vectors of them), so the static total is unknown.
pub(super) fn workgroup_attributions(
    function: OperationRef,
) -> Result<Option<Vec<Attribution>>, String> {
    let Some(block) = entry(function) else {
        return Ok(Some(Vec::new()));
    };
    let inputs = ir::function_inputs(function)?;
    let count = function
        .attribute("workgroup_attributions")
        .ok()
        .and_then(|value| IntegerAttribute::try_from(value).ok())
        .and_then(|value| usize::try_from(value.value()).ok())
        .unwrap_or(0);
    let aligns = function
        .attribute("workgroup_attrib_attrs")
        .ok()
        .and_then(|value| ArrayAttribute::try_from(value).ok());
    let mut attributions = Vec::with_capacity(count);
    for index in 0..count {
        let memref = block
            .argument(inputs + index)
            .ok()
            .and_then(|argument| MemRefType::try_from(argument.r#type()).ok())
            .ok_or_else(|| "internal error: a workgroup attribution is no memref".to_string())?;
        let Some(bytes) = memref_bytes(memref) else {
            return Ok(None);
        };
        let align = aligns
            .and_then(|attrs| attrs.element(index).ok())
            .and_then(|attrs| DictionaryAttribute::try_from(attrs).ok())
            .and_then(|attrs| attrs.element_by_name(crate::ir::op_names::attributes::LLVM_ALIGN))
            .and_then(|align| IntegerAttribute::try_from(align).ok())
            .and_then(|align| u64::try_from(align.value()).ok())
            .unwrap_or(0)
            .max(DYNAMIC_BASE_ALIGN);
        attributions.push(Attribution {
            bytes,
            align,
            not_viewable: (!viewable(memref)).then(|| memref.to_string()),
        });
    }
    Ok(Some(attributions))
}

/// Bytes of the shared `memref.global`s of `module` that `function` reads
/// through `memref.get_global`, each counted once.
pub(super) fn shared_globals_bytes(function: OperationRef, module: OperationRef) -> u64 {
    shared_globals(function, module)
        .into_iter()
        .fold(0u64, |total, memref| {
            total.saturating_add(memref_bytes(memref).unwrap_or(0))
        })
}

/// The entry block of `function`.
pub(super) fn entry<'c, 'a>(function: OperationRef<'c, 'a>) -> Option<BlockRef<'c, 'a>> {
    function
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
}
