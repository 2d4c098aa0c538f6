//! The static shared bytes of a kernel: its workgroup attributions and the
//! shared `memref.global`s it reads.

use melior::ir::{
    attribute::{
        ArrayAttribute, DictionaryAttribute, FlatSymbolRefAttribute, IntegerAttribute,
        TypeAttribute,
    },
    block::BlockLike,
    operation::{OperationLike, WalkOrder, WalkResult},
    r#type::{MemRefType, ShapedTypeLike, TypeLike},
    BlockRef, OperationRef, RegionLike, Type, ValueLike,
};

use crate::{ir, plan::loops::slots::DYNAMIC_BASE_ALIGN};

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
            .and_then(|attrs| attrs.element_by_name("llvm.align"))
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

/// Bytes of a static memref of integers, floats, indices or vectors of them.
pub(super) fn memref_bytes(memref: MemRefType) -> Option<u64> {
    let mut elements = 1u64;
    for size in ir::shape(memref) {
        elements = elements.checked_mul(u64::try_from(size?).ok()?)?;
    }
    elements.checked_mul(element_bytes(memref.element())?)
}

fn element_bytes(element: Type) -> Option<u64> {
    if element.is_index() {
        // The index type is 64 bits on the emit route (convert-gpu-to-nvvm's
        // default index bitwidth).
        return Some(8);
    }
    if element.is_vector() {
        // SAFETY: a live vector type of the module's context; only queries.
        let (count, inner) = unsafe {
            let raw = element.to_raw();
            let count =
                (0..mlir_sys::mlirShapedTypeGetRank(raw) as isize).try_fold(1u64, |count, dim| {
                    count.checked_mul(
                        u64::try_from(mlir_sys::mlirShapedTypeGetDimSize(raw, dim)).ok()?,
                    )
                });
            (
                count,
                Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(raw)),
            )
        };
        return count?.checked_mul(element_bytes(inner)?);
    }
    let bits = if element.is_integer() {
        melior::ir::r#type::IntegerType::try_from(element)
            .ok()?
            .width()
    } else if element.is_float() {
        element.float_width()
    } else {
        return None;
    };
    Some(u64::from(bits.div_ceil(8)))
}

/// Bytes of the shared `memref.global`s of `module` that `function` reads
/// through `memref.get_global`, each counted once.
pub(super) fn shared_globals_bytes(function: OperationRef, module: OperationRef) -> u64 {
    let mut names = Vec::new();
    function.walk(WalkOrder::PreOrder, |op| {
        if ir::op_name(&op) == "memref.get_global" {
            if let Some(name) = op
                .attribute("name")
                .ok()
                .and_then(|value| FlatSymbolRefAttribute::try_from(value).ok())
            {
                let name = name.value().to_string();
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        WalkResult::Advance
    });
    let Some(body) = module
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
    else {
        return 0;
    };
    let mut total = 0u64;
    let mut current = body.first_operation();
    while let Some(op) = current {
        current = op.next_in_block();
        if ir::op_name(&op) != "memref.global"
            || !ir::symbol_name(op).is_some_and(|name| names.contains(&name))
        {
            continue;
        }
        let memref = op
            .attribute("type")
            .ok()
            .and_then(|value| TypeAttribute::try_from(value).ok())
            .and_then(|value| MemRefType::try_from(value.value()).ok());
        if let Some(memref) = memref.filter(|memref| {
            acopy_dialect::MemorySpace::of(*memref) == acopy_dialect::MemorySpace::Shared
        }) {
            total = total.saturating_add(memref_bytes(memref).unwrap_or(0));
        }
    }
    total
}

/// The entry block of `function`.
pub(super) fn entry<'c, 'a>(function: OperationRef<'c, 'a>) -> Option<BlockRef<'c, 'a>> {
    function
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
}

/// Whether `memref` is a static shape with the identity layout: what
/// `memref.view` can make.
pub(super) fn viewable(memref: MemRefType) -> bool {
    // SAFETY: type queries on a live type of the module's context.
    unsafe {
        let raw = memref.to_raw();
        let layout = mlir_sys::mlirMemRefTypeGetLayout(raw);
        mlir_sys::mlirShapedTypeHasStaticShape(raw)
            && (layout.ptr.is_null()
                || (mlir_sys::mlirAttributeIsAAffineMap(layout)
                    && mlir_sys::mlirAffineMapIsIdentity(mlir_sys::mlirAffineMapAttrGetValue(
                        layout,
                    ))))
    }
}
