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

/// Bytes of a static memref (0 for a dynamic one).
pub(crate) fn memref_bytes(memref: MemRefType) -> u64 {
    let elements: Option<u64> = crate::ir::shape(memref)
        .iter()
        .try_fold(1u64, |product, dim| {
            dim.and_then(|dim| u64::try_from(dim).ok())
                .and_then(|dim| product.checked_mul(dim))
        });
    let element = memref.element();
    // `index` is 64 bits wide on the NVPTX targets acopy compiles for.
    let bits = if element.is_index() {
        Some(64)
    } else {
        element_bits(element)
    };
    elements
        .zip(bits)
        .and_then(|(count, bits)| count.checked_mul(u64::from(bits).div_ceil(8)))
        .unwrap_or(0)
}
