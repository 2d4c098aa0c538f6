//! Reading memrefs for a lowering: element size, strided layout, base address,
//! and what can be proved about alignment.
//!
//! Addresses come from `memref.extract_aligned_pointer_as_index` and, for the
//! parts of the layout the type leaves dynamic, `memref.extract_strided_metadata`
//! (DESIGN: the pass runs before the upstream memref→LLVM conversion and needs
//! no type converter). The byte address of element `i` is
//! `aligned + (offset + Σ i_k·stride_k) · element_bytes`.
//!
//! Alignment is proved, never assumed from the type:
//! - [`pow2_divisor`] (in `crate::alignment_proof`, shared with acopy-verify) reads how an `index` value was computed (constants,
//!   `muli`, `addi`, `shli`, casts, `scf.for` induction variables) and returns
//!   the largest power of two known to divide it.
//! - [`base_alignment`] follows a memref through view ops to what allocated
//!   it. A kernel argument in global memory is 16-byte aligned by the kernel
//!   ABI (docs/kernel-abi.md); `gpu.dynamic_shared_memory` is 16-byte aligned;
//!   a workgroup attribution or a `memref.global` gets its alignment raised to
//!   16 by this pass. Anything else is unknown, and the lowering checks it at
//!   run time.

use super::emitted::memref;
use melior::ir::{
    attribute::IntegerAttribute,
    block::{BlockArgument, BlockLike},
    operation::OperationLike,
    r#type::{IntegerType, MemRefType},
    BlockRef, ShapedTypeLike, Type, TypeLike, Value, ValueLike,
};

use super::{
    alignment,
    build::{Builder, Ix},
};
use crate::{
    alignment_proof::{pow2_divisor, pow2_of_constant, DIVISOR_CAP},
    ir,
};

/// The largest alignment the lowering ever needs (a 16-byte cp.async).
pub(crate) const MAX_ALIGN: u64 = 16;

/// The size of one element in bytes: 1, 2, 4 or 8 for integers and floats.
pub(crate) fn element_bytes(r#type: Type) -> Option<u64> {
    let bits = if r#type.is_integer() {
        IntegerType::try_from(r#type).ok()?.width()
    } else if r#type.is_float() {
        r#type.float_width()
    } else {
        return None;
    };
    matches!(bits, 8 | 16 | 32 | 64).then(|| u64::from(bits / 8))
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

/// A memref's address pieces, as `index` values (constants where the type is static).
pub(crate) struct Strided<'c, 'a> {
    /// The aligned base pointer, as an integer.
    pub base: Value<'c, 'a>,
    /// In elements.
    pub offset: Ix<'c, 'a>,
    /// In elements.
    pub strides: Vec<Ix<'c, 'a>>,
    /// The dimension sizes.
    pub sizes: Vec<Ix<'c, 'a>>,
}

/// Emits what is needed to address `value`: its aligned pointer and, when the
/// type leaves any of them dynamic, its strided metadata (sizes included).
pub(crate) fn read_strided<'c, 'a>(
    b: &Builder<'c, 'a>,
    value: Value<'c, 'a>,
    role: &str,
) -> Result<Strided<'c, 'a>, String> {
    read_layout(b, value, role, true)
}

/// [`read_strided`], but dynamic sizes are only read when `with_sizes`
/// (otherwise they are left as 0), which saves the metadata op for memrefs
/// whose strides and offset are static.
pub(crate) fn read_layout<'c, 'a>(
    b: &Builder<'c, 'a>,
    value: Value<'c, 'a>,
    role: &str,
    with_sizes: bool,
) -> Result<Strided<'c, 'a>, String> {
    let memref = MemRefType::try_from(value.r#type()).map_err(|_| {
        format!(
            "internal error: {role} must be a memref, got {}",
            value.r#type()
        )
    })?;
    // acopy-verify refuses layouts that are not strided first (rules A13, A14, A28).
    let (static_strides, static_offset) = static_layout(memref).ok_or_else(|| {
        format!("internal error: {role} has a layout that is not strided ({memref})")
    })?;
    let rank = memref.rank();
    let static_sizes = ir::shape(memref);
    let base = b.value(
        memref::EXTRACT_ALIGNED_POINTER_AS_INDEX,
        &[value],
        b.index_type(),
        &[],
    )?;
    let needs_metadata = static_offset == Static::Dynamic
        || static_strides.contains(&Static::Dynamic)
        || (with_sizes && static_sizes.contains(&None));
    let mut metadata = None;
    if needs_metadata {
        let base_type: Type =
            MemRefType::new(memref.element(), &[], None, memref.memory_space()).into();
        let mut results = vec![base_type, b.index_type()];
        results.extend(std::iter::repeat_n(b.index_type(), 2 * rank));
        let op = b.op(memref::EXTRACT_STRIDED_METADATA, &[value], &results, &[])?;
        metadata = Some(op);
    }
    let result = |index: usize| -> Result<Ix<'c, 'a>, String> {
        let op = metadata.ok_or_else(|| "internal error: strided metadata missing".to_string())?;
        Ok(Ix::Val(
            op.result(index)
                .map_err(|error| format!("internal error: {error}"))?
                .into(),
        ))
    };
    let offset = match static_offset {
        Static::Known(offset) => Ix::Const(offset),
        Static::Dynamic => result(1)?,
    };
    let mut strides = Vec::with_capacity(rank);
    let mut sizes = Vec::with_capacity(rank);
    for index in 0..rank {
        strides.push(match static_strides[index] {
            Static::Known(stride) => Ix::Const(stride),
            Static::Dynamic => result(2 + rank + index)?,
        });
        sizes.push(match static_sizes[index] {
            Some(size) => Ix::Const(size),
            None if with_sizes => result(2 + index)?,
            None => Ix::Const(0),
        });
    }
    Ok(Strided {
        base,
        offset,
        strides,
        sizes,
    })
}

/// The divisor of an [`Ix`].
pub(crate) fn pow2_divisor_ix(value: Ix) -> u64 {
    match value {
        Ix::Const(constant) => pow2_of_constant(constant),
        Ix::Val(value) => pow2_divisor(value),
    }
}

/// What is known about the alignment of a memref's aligned pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BaseAlign {
    /// Aligned to this many bytes (a power of two).
    Known(u64),
    /// Unknown until run time.
    Unknown,
}

/// The alignment of `memref`'s aligned pointer, raising the alignment of a
/// workgroup attribution or `memref.global` it comes from to [`MAX_ALIGN`].
/// A function argument in global memory is [`MAX_ALIGN`]-aligned by the ABI.
pub(crate) fn base_alignment(memref: Value, shared: bool) -> BaseAlign {
    let mut current = memref;
    let mut shift_divisor = DIVISOR_CAP;
    for _ in 0..32 {
        if let Some(argument) = ir::as_argument(current) {
            let base = argument_alignment(argument, shared);
            return match base {
                BaseAlign::Known(align) => BaseAlign::Known(align.min(shift_divisor)),
                BaseAlign::Unknown => BaseAlign::Unknown,
            };
        }
        let Some(result) = ir::as_result(current) else {
            return BaseAlign::Unknown;
        };
        let op = result.owner();
        let known = |align: u64| BaseAlign::Known(align.min(shift_divisor));
        match ir::op_name(&op).as_str() {
            // View ops that keep the aligned pointer.
            "memref.subview"
            | "memref.cast"
            | "memref.reinterpret_cast"
            | "memref.expand_shape"
            | "memref.collapse_shape"
            | "memref.memory_space_cast"
            | "memref.transpose" => {}
            // memref.view moves the aligned pointer by its byte shift.
            "memref.view" => {
                let shift = op.operand(1).map_or(1, pow2_divisor);
                shift_divisor = shift_divisor.min(shift);
            }
            "memref.assume_alignment" => {
                let align = op
                    .attribute("alignment")
                    .ok()
                    .and_then(|value| IntegerAttribute::try_from(value).ok())
                    .map_or(1, |value| value.value().max(1) as u64);
                return known(align.min(MAX_ALIGN));
            }
            "gpu.dynamic_shared_memory" => return known(MAX_ALIGN),
            "memref.get_global" => {
                return match alignment::raise_global_alignment(op, MAX_ALIGN) {
                    Some(align) => known(align.min(MAX_ALIGN)),
                    None => BaseAlign::Unknown,
                }
            }
            _ => return BaseAlign::Unknown,
        }
        match op.operand(0) {
            Ok(source) => current = source,
            Err(_) => return BaseAlign::Unknown,
        }
    }
    BaseAlign::Unknown
}

fn argument_alignment(argument: BlockArgument, shared: bool) -> BaseAlign {
    let number = argument.argument_number();
    // SAFETY: the argument's block is alive while its value is.
    let block =
        unsafe { BlockRef::from_raw(mlir_sys::mlirBlockArgumentGetOwner(argument.to_raw())) };
    let Some(function) = block.parent_operation() else {
        return BaseAlign::Unknown;
    };
    // Only the entry block's arguments are function arguments.
    let is_entry = function
        .region(0)
        .ok()
        .and_then(|region| melior::ir::RegionLike::first_block(&region))
        .is_some_and(|entry| entry == block);
    if !is_entry {
        return BaseAlign::Unknown;
    }
    let name = ir::op_name(&function);
    let Ok(inputs) = ir::function_inputs(function) else {
        return BaseAlign::Unknown;
    };
    if number < inputs {
        // Kernel ABI: global buffers arrive 16-byte aligned. Shared memory
        // passed into a function has no such promise.
        return if shared {
            BaseAlign::Unknown
        } else {
            BaseAlign::Known(MAX_ALIGN)
        };
    }
    if name == "gpu.func" && shared {
        let workgroup = number - inputs;
        if alignment::raise_workgroup_alignment(function, workgroup, MAX_ALIGN) {
            return BaseAlign::Known(MAX_ALIGN);
        }
    }
    BaseAlign::Unknown
}

/// Whether a global memref has no memory space, so its pointer is generic
/// (space 0 is generic too: MLIR's parser drops it, but IR built in code may keep it).
pub(crate) fn is_generic(memref: MemRefType) -> bool {
    match memref.memory_space() {
        None => true,
        Some(space) => IntegerAttribute::try_from(space).is_ok_and(|space| space.value() == 0),
    }
}
