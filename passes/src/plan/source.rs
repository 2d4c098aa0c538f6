//! Which kernel argument a TMA copy's global memref is, and where the copy's
//! window lies in it.
//!
//! A tensor map is encoded on the host from a kernel argument's runtime base,
//! sizes and strides, so the global memref of a TMA copy must be
//!
//! * an argument of the enclosing kernel `gpu.func`, or
//! * one `memref.subview` of such an argument, with unit strides and the same
//!   rank: the tensor map then describes the whole argument, and the subview's
//!   offsets are added to the copy's coordinates.
//!
//! `memref.cast`s (between ranked memrefs) are looked through anywhere on the
//! way: a cast changes what the type says, not the descriptor, so the argument
//! behind it is the one the host encodes.
//!
//! Through a subview, TMA's bounds are the argument's, not the view's. So a
//! copy through a subview must stay provably inside the view along every
//! dimension where the view is narrower than the argument (constant indices,
//! static sizes), unless it is a load with `oob_mode = "promise_in_bounds"` or
//! `"undefined"`. Otherwise a load would read argument elements outside the
//! view instead of zero-filling, and a store would write them.
//!
//! The plan reads the copy with [`resolve`] and [`GlobalSource::window_leaves`]
//! once; `acopy-verify`'s rules A20–A22 report what they find and the lowering
//! builds from the same [`GlobalSource`], so what verification accepts always
//! resolves here.

use melior::ir::{
    attribute::DenseI32ArrayAttribute, block::BlockLike, operation::OperationLike,
    r#type::MemRefType, OperationRef, RegionLike, Value, ValueLike,
};

use super::shape::py_tuple as python_tuple;
use crate::ir::{self, DYNAMIC};

/// An offset of the view within the kernel argument, along one dimension.
#[derive(Clone, Copy)]
pub(crate) enum Offset<'c, 'a> {
    Static(i64),
    Dynamic(Value<'c, 'a>),
}

/// The kernel argument behind a global memref.
pub(crate) struct GlobalSource<'c, 'a> {
    /// The kernel `gpu.func`.
    pub kernel: OperationRef<'c, 'a>,
    /// Argument index in the gpu.func signature.
    pub arg_index: usize,
    /// The view's offsets in the argument, one per dimension (all zero
    /// without a subview).
    pub offsets: Vec<Offset<'c, 'a>>,
    /// For a subview: per dimension, the view's static size when it is
    /// narrower than the argument (or cannot be shown not to be).
    narrower: Vec<Option<Option<i64>>>,
}

/// What the window check is for, which decides the error text.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// A load that zero-fills outside the view (`oob_mode = "zeros"`).
    LoadZeros,
    /// A load that may read anything outside the view.
    LoadAnything,
    /// A store.
    Store,
}

impl Access {
    /// The access of a load with `oob_mode`.
    pub fn of_load(oob_mode: acopy_dialect::OobMode) -> Self {
        match oob_mode {
            acopy_dialect::OobMode::Zeros => Access::LoadZeros,
            acopy_dialect::OobMode::PromiseInBounds | acopy_dialect::OobMode::Undefined => {
                Access::LoadAnything
            }
        }
    }
}

/// What the global memref of a TMA copy needs to be (rule A20's message).
pub(crate) const SOURCE_RULE: &str = "it must be an argument of the enclosing kernel gpu.func, or a memref.subview of one with unit strides and the same rank (memref.casts are looked through), because its TMA tensor map is encoded on the host from that kernel argument";

/// Why a global memref cannot be traced to a kernel argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SourceError {
    /// Not a kernel argument nor a unit-stride, same-rank subview of one
    /// (rule A20); the text says what it is instead.
    NotArgument(String),
    /// An argument of a gpu.func without the `kernel` attribute (rule A21).
    NotKernel,
    /// Malformed IR that the op or upstream verifiers rule out.
    Internal(String),
}

impl SourceError {
    /// The error text, for the memref of role `role` (`src` or `dst`).
    pub fn message(&self, role: &str) -> String {
        match self {
            SourceError::NotArgument(what) => {
                format!("the {role} of a TMA copy {what}; {SOURCE_RULE}")
            }
            SourceError::NotKernel => format!(
                "the {role} of a TMA copy is an argument of a gpu.func that is not a kernel; tensor maps are kernel parameters, so TMA copies must use the arguments of a `kernel` gpu.func"
            ),
            SourceError::Internal(message) => format!("internal error: {message}"),
        }
    }
}

/// `value` with any `memref.cast`s between ranked memrefs looked through.
fn through_casts<'c: 'a, 'a>(value: Value<'c, 'a>) -> Value<'c, 'a> {
    let mut current = value;
    for _ in 0..64 {
        let Some(cast) =
            ir::defining_op(current).filter(|op| ir::is(op, ir::op_names::memref::CAST))
        else {
            break;
        };
        match cast.operand(0) {
            Ok(source) if MemRefType::try_from(source.r#type()).is_ok() => current = source,
            _ => break,
        }
    }
    current
}

/// Finds the kernel argument behind `value`, the global memref of a TMA copy
/// whose role (`src` or `dst`) names it in errors.
pub(crate) fn resolve<'c: 'a, 'a>(
    value: Value<'c, 'a>,
) -> Result<GlobalSource<'c, 'a>, SourceError> {
    let internal = |what: &str| SourceError::Internal(what.to_string());
    let rank = MemRefType::try_from(value.r#type())
        .map(|memref| melior::ir::ShapedTypeLike::rank(&memref))
        .map_err(|_| internal("the global memref is not a memref"))?;
    let value = through_casts(value);
    if let Some((kernel, arg_index)) = kernel_argument(value)? {
        return Ok(GlobalSource {
            kernel,
            arg_index,
            offsets: vec![Offset::Static(0); rank],
            narrower: vec![None; rank],
        });
    }
    let Some(subview) =
        ir::defining_op(value).filter(|op| ir::is(op, ir::op_names::memref::SUBVIEW))
    else {
        return Err(SourceError::NotArgument(
            "is not a kernel argument".to_string(),
        ));
    };
    let source = subview
        .operand(0)
        .map(through_casts)
        .map_err(|_| internal("memref.subview without a source"))?;
    let Some((kernel, arg_index)) = kernel_argument(source)? else {
        return Err(SourceError::NotArgument(
            "is a memref.subview of a value that is not a kernel argument".to_string(),
        ));
    };
    let source_type = MemRefType::try_from(source.r#type())
        .map_err(|_| internal("memref.subview of a non-memref"))?;
    let source_shape = ir::shape(source_type);
    if source_shape.len() != rank {
        return Err(SourceError::NotArgument(format!(
            "is a rank-reducing memref.subview (rank {rank} of rank {})",
            source_shape.len()
        )));
    }
    let static_offsets = ir::dense_i64s(&subview, "static_offsets");
    let static_sizes = ir::dense_i64s(&subview, "static_sizes");
    let static_strides = ir::dense_i64s(&subview, "static_strides");
    let (Some(static_offsets), Some(static_sizes), Some(static_strides)) =
        (static_offsets, static_sizes, static_strides)
    else {
        return Err(internal("memref.subview without static_* attributes"));
    };
    if static_strides.iter().any(|&stride| stride != 1) {
        return Err(SourceError::NotArgument(format!(
            "is a memref.subview with strides {}",
            python_tuple(&static_strides)
        )));
    }
    if static_offsets.len() != rank || static_sizes.len() != rank {
        return Err(internal(
            "memref.subview static_* attributes do not match its rank",
        ));
    }
    let offsets = subview_offsets(subview, &static_offsets)?;
    let narrower = (0..rank)
        .map(|dim| {
            let size = (static_sizes[dim] != DYNAMIC).then_some(static_sizes[dim]);
            let covers = static_offsets[dim] == 0 && size.is_some() && size == source_shape[dim];
            if covers {
                None
            } else {
                Some(size)
            }
        })
        .collect();
    Ok(GlobalSource {
        kernel,
        arg_index,
        offsets,
        narrower,
    })
}

/// A subview's offsets, with its dynamic ones read from its operands.
fn subview_offsets<'c, 'a>(
    subview: OperationRef<'c, 'a>,
    static_offsets: &[i64],
) -> Result<Vec<Offset<'c, 'a>>, SourceError> {
    let internal = |what: &str| SourceError::Internal(what.to_string());
    let segments = subview
        .attribute("operandSegmentSizes")
        .ok()
        .and_then(|attribute| DenseI32ArrayAttribute::try_from(attribute).ok())
        .and_then(|array| {
            (0..array.len())
                .map(|i| array.element(i).ok())
                .collect::<Option<Vec<i32>>>()
        })
        .ok_or_else(|| internal("memref.subview without operandSegmentSizes"))?;
    let mut dynamic = 1usize; // operand 0 is the source
    let mut offsets = Vec::with_capacity(static_offsets.len());
    for &offset in static_offsets {
        if offset == DYNAMIC {
            let operand = subview
                .operand(dynamic)
                .map_err(|_| internal("memref.subview offset operand missing"))?;
            dynamic += 1;
            offsets.push(match ir::constant_int(operand) {
                Some(constant) => Offset::Static(constant),
                None => Offset::Dynamic(operand),
            });
        } else {
            offsets.push(Offset::Static(offset));
        }
    }
    if segments.len() > 1 && dynamic - 1 != segments[1] as usize {
        return Err(internal("memref.subview offsets do not match its segments"));
    }
    Ok(offsets)
}

impl<'c, 'a> GlobalSource<'c, 'a> {
    /// The first dimension along which a window of `extents` at `indices`
    /// may leave the subview (see the module comment), or `None` when it may
    /// go through. Rule A22 reports it; the lowering relies on it.
    pub fn window_leaves(
        &self,
        indices: &[Value],
        extents: &[i64],
        access: Access,
    ) -> Option<usize> {
        if access == Access::LoadAnything {
            return None;
        }
        self.narrower
            .iter()
            .enumerate()
            .find_map(|(dim, narrower)| {
                let size = narrower.as_ref()?;
                let start = indices.get(dim).copied().and_then(ir::constant_int);
                let extent = extents.get(dim).copied().unwrap_or(i64::MAX);
                let inside = matches!((start, size), (Some(start), Some(size))
                if start >= 0 && start.checked_add(extent).is_some_and(|end| end <= *size));
                (!inside).then_some(dim)
            })
    }
}

/// Rule A22's message for a window that may leave the subview along `dim`.
pub(crate) fn window_message(dim: usize, access: Access, role: &str) -> String {
    let what = match access {
        Access::Store => "write argument elements outside the view",
        _ => "read argument elements outside the view instead of zero-filling them; use oob_mode = \"promise_in_bounds\" or \"undefined\" if that is intended",
    };
    format!(
        "the window of this TMA copy cannot be shown to stay inside the memref.subview {role} along dimension {dim}: TMA's bounds are the kernel argument's, so it would {what}"
    )
}

/// The kernel gpu.func and argument index, if `value` is a kernel argument.
fn kernel_argument<'c, 'a>(
    value: Value<'c, 'a>,
) -> Result<Option<(OperationRef<'c, 'a>, usize)>, SourceError> {
    let Some((block, position)) = ir::block_argument(value) else {
        return Ok(None);
    };
    let Some(function) = block.parent_operation() else {
        return Ok(None);
    };
    if !ir::is(&function, ir::op_names::gpu::FUNC) {
        return Ok(None);
    }
    let inputs = ir::function_inputs(function).map_err(SourceError::Internal)?;
    let is_entry = function
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .is_some_and(|entry| entry == block);
    if !is_entry || position >= inputs {
        // A workgroup or private attribution, or a block argument further in.
        return Ok(None);
    }
    if !function.has_attribute(crate::ir::op_names::attributes::GPU_KERNEL) {
        return Err(SourceError::NotKernel);
    }
    Ok(Some((function, position)))
}
