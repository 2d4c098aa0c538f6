//! Reading memrefs for a lowering: strided memref_layout, base address, and what
//! can be proved about alignment.
//!
//! Addresses come from `memref.extract_aligned_pointer_as_index` and, for the
//! parts of the layout the type leaves dynamic, `memref.extract_strided_metadata`
//! (DESIGN: the pass runs before the upstream memref→LLVM conversion and needs
//! no type converter). The byte address of element `i` is
//! `aligned + (offset + Σ i_k·stride_k) · element_bytes`.
//!
//! Alignment is proved, never assumed from the type:
//! - [`pow2_divisor`] (`crate::plan::divisor`, shared with acopy-verify) reads
//!   how an `index` value was computed (constants, `muli`, `addi`, `shli`,
//!   casts, `scf.for` induction variables) and returns the largest power of
//!   two known to divide it.
//! - `crate::plan::alignment`, the one walker up a view chain, says what a
//!   memref's memory guarantees: a kernel argument in global memory is
//!   16-byte aligned by the kernel ABI (docs/kernel-abi.md);
//!   `gpu.dynamic_shared_memory` is 16-byte aligned; a workgroup attribution
//!   or a `memref.global` gets its alignment raised by this pass
//!   (`super::alignment`). Anything else is unknown, and the lowering checks
//!   it at run time.

use crate::ir::op_names::memref;
use melior::ir::{
    attribute::IntegerAttribute, r#type::MemRefType, ShapedTypeLike, Type, Value, ValueLike,
};

use crate::ir::build::{Builder, Ix};
use crate::{
    ir::{
        self,
        memref_layout::{static_layout, Static},
    },
    plan::divisor::{pow2_divisor, pow2_of_constant},
};

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
    let memref = MemRefType::try_from(value.r#type())
        .map_err(|_| format!("internal error: {role} is no memref"))?;
    // Verified copies have strided memrefs (rules A13, A14, A28).
    let (static_strides, static_offset) =
        static_layout(memref).ok_or_else(|| format!("internal error: {role} without strides"))?;
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

/// Whether a global memref has no memory space, so its pointer is generic
/// (space 0 is generic too: MLIR's parser drops it, but IR built in code may keep it).
pub(crate) fn is_generic(memref: MemRefType) -> bool {
    match memref.memory_space() {
        None => true,
        Some(space) => IntegerAttribute::try_from(space).is_ok_and(|space| space.value() == 0),
    }
}
