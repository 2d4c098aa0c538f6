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
