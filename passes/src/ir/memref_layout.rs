//! What a memref's type says about its memory: the element size, and the
//! strides and offset of a strided layout (static, or only known at run time).

use melior::ir::{
    r#type::{IntegerType, MemRefType},
    ShapedTypeLike, Type, TypeLike,
};

/// The bit width of an integer or float type.
pub(crate) fn element_bits(element: Type) -> Option<u32> {
    // `is_integer` first: a failed `try_from` prints the type into its error.
    if element.is_integer() {
        IntegerType::try_from(element)
            .ok()
            .map(|integer| integer.width())
    } else if element.is_float() {
        Some(element.float_width())
    } else {
        None
    }
}

/// The size of one element in bytes: 1, 2, 4 or 8 for integers and floats.
pub(crate) fn element_bytes(element: Type) -> Option<u64> {
    element_bits(element)
        .filter(|bits| matches!(bits, 8 | 16 | 32 | 64))
        .map(|bits| u64::from(bits / 8))
}

/// A stride or offset of a memref type: known, or only known at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Static {
    Known(i64),
    Dynamic,
}

/// The strides and offset of a memref type, or `None` when its layout is not
/// strided.
pub(crate) fn static_layout(memref: MemRefType) -> Option<(Vec<Static>, Static)> {
    let (strides, offset) = crate::run_cache::layout(memref)?;
    let read = |value: i64| {
        if MemRefType::is_dynamic_stride_or_offset(value) {
            Static::Dynamic
        } else {
            Static::Known(value)
        }
    };
    Some((strides.into_iter().map(read).collect(), read(offset)))
}

/// Bits of one memref element: integers and floats, `index` as 64 bits (what
/// the NVVM lowering makes of it), complex numbers and statically shaped
/// vectors of those (without the padding LLVM gives a vector of odd length);
/// `None` for anything else.
pub(crate) fn storage_bits(element: Type) -> Option<u64> {
    if element.is_index() {
        return Some(64);
    }
    let raw = element.to_raw();
    // SAFETY: `raw` is a live type of the caller's context; only queries are made.
    unsafe {
        if mlir_sys::mlirTypeIsAComplex(raw) {
            return storage_bits(Type::from_raw(mlir_sys::mlirComplexTypeGetElementType(raw)))?
                .checked_mul(2);
        }
        if mlir_sys::mlirTypeIsAVector(raw) {
            let mut lanes = 1u64;
            for dim in 0..mlir_sys::mlirShapedTypeGetRank(raw) {
                let size = mlir_sys::mlirShapedTypeGetDimSize(raw, dim as isize);
                lanes = lanes.checked_mul(u64::try_from(size).ok()?)?;
            }
            let lane = Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(raw));
            return lanes.checked_mul(storage_bits(lane)?);
        }
    }
    element_bits(element).map(u64::from)
}

/// Bytes of a statically shaped memref, each element in whole bytes (as LLVM
/// stores an `i1` or `i4`); `None` for a dynamic size or an element without a
/// bit width. The one count of a buffer's bytes: pipelined tiles, the
/// pipeliner's budget, the manifest's static shared memory and the move of
/// oversized attributions all read it.
pub(crate) fn memref_bytes(memref: MemRefType) -> Option<u64> {
    let element_bytes = storage_bits(memref.element())?.div_ceil(8);
    crate::ir::shape(memref)
        .into_iter()
        .try_fold(1u64, |product, size| {
            product.checked_mul(u64::try_from(size?).ok()?)
        })?
        .checked_mul(element_bytes)
}

/// The types of the shared-memory `memref.global`s that `function`'s
/// `memref.get_global`s name, each once, looked up in `module`.
pub(crate) fn shared_globals<'c>(
    function: melior::ir::OperationRef<'c, '_>,
    module: melior::ir::OperationRef<'c, '_>,
) -> Vec<MemRefType<'c>> {
    use melior::ir::{
        attribute::{FlatSymbolRefAttribute, TypeAttribute},
        block::BlockLike,
        operation::{OperationLike, WalkOrder, WalkResult},
        RegionLike,
    };
    let mut names = Vec::new();
    function.walk(WalkOrder::PreOrder, |op| {
        if crate::ir::is(&op, crate::ir::op_names::memref::GET_GLOBAL) {
            if let Some(name) = op
                .attribute("name")
                .ok()
                .and_then(|name| FlatSymbolRefAttribute::try_from(name).ok())
            {
                let name = name.value().to_string();
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        WalkResult::Advance
    });
    // A function that names no global needs no scan of the module, whose
    // body holds every kernel: scanning it per kernel was quadratic in them.
    if names.is_empty() {
        return Vec::new();
    }
    let mut found = Vec::new();
    let mut current = module
        .region(0)
        .ok()
        .and_then(|body| body.first_block())
        .and_then(|block| block.first_operation());
    while let Some(op) = current {
        current = op.next_in_block();
        if !crate::ir::is(&op, crate::ir::op_names::memref::GLOBAL)
            || !crate::ir::symbol_name(op).is_some_and(|name| names.contains(&name))
        {
            continue;
        }
        let memref = op
            .attribute("type")
            .ok()
            .and_then(|ty| TypeAttribute::try_from(ty).ok())
            .and_then(|ty| MemRefType::try_from(ty.value()).ok());
        if let Some(memref) = memref.filter(|memref| {
            acopy_dialect::MemorySpace::of(*memref) == acopy_dialect::MemorySpace::Shared
        }) {
            found.push(memref);
        }
    }
    found
}

/// Whether `memref` is a static shape with the identity layout: what
/// `memref.view` can make, so what `static_shared` can move to dynamic shared
/// memory.
pub(crate) fn viewable(memref: MemRefType) -> bool {
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
