//! Checks shared by the views: the op's name and its operands.

use melior::ir::{
    operation::OperationLike,
    r#type::{IntegerType, MemRefType},
    OperationRef, ShapedTypeLike, TypeLike, Value, ValueLike,
};

use crate::{MemorySpace, ViewError};

/// The memref type of `value`, or an error naming `role`.
pub(crate) fn memref<'c>(value: Value<'c, '_>, role: &str) -> Result<MemRefType<'c>, ViewError> {
    MemRefType::try_from(value.r#type())
        .map_err(|_| ViewError::Operand(format!("{role} must be a memref, got {}", value.r#type())))
}

/// A memref in global memory.
pub(crate) fn global_memref<'c>(
    value: Value<'c, '_>,
    role: &str,
) -> Result<MemRefType<'c>, ViewError> {
    let memref = memref(value, role)?;
    if MemorySpace::of(memref) != MemorySpace::Global {
        return Err(ViewError::Operand(format!(
            "{role} must be a memref in global memory (no memory space, 1, or #gpu.address_space<global>), got {memref}"
        )));
    }
    if memref.rank() == 0 {
        return Err(ViewError::Operand(format!(
            "{role} must have rank 1 or more, got {memref}"
        )));
    }
    Ok(memref)
}

/// A statically shaped memref in shared memory.
pub(crate) fn shared_tile<'c>(
    value: Value<'c, '_>,
    role: &str,
) -> Result<MemRefType<'c>, ViewError> {
    let memref = memref(value, role)?;
    if MemorySpace::of(memref) != MemorySpace::Shared {
        return Err(ViewError::Operand(format!(
            "{role} must be a memref in shared memory (3 or #gpu.address_space<workgroup>), got {memref}"
        )));
    }
    if !memref.has_static_shape() || memref.rank() == 0 {
        return Err(ViewError::Operand(format!(
            "{role} must have a static shape of rank 1 or more, got {memref}"
        )));
    }
    Ok(memref)
}

/// An mbarrier: `memref<1xi64>` in shared memory.
pub(crate) fn barrier(value: Value<'_, '_>) -> Result<(), ViewError> {
    let ok = MemRefType::try_from(value.r#type()).is_ok_and(|memref| {
        MemorySpace::of(memref) == MemorySpace::Shared
            && memref.rank() == 1
            && memref.has_static_shape()
            && matches!(
                memref.dim_size(0),
                Ok(melior::ir::r#type::DimSize::Static(1))
            )
            && memref.element().is_integer()
            // Asked without printing the type: views are read for every op.
            && IntegerType::try_from(memref.element())
                .is_ok_and(|integer| integer.width() == 64 && integer.is_signless())
    });
    if ok {
        Ok(())
    } else {
        Err(ViewError::Operand(format!(
            "barrier must be memref<1xi64> in shared memory (memref<1xi64, 3>), got {}",
            value.r#type()
        )))
    }
}

/// The window indices: one `index` per dimension of the global memref.
pub(crate) fn indices(
    indices: &[Value],
    global_rank: usize,
    global_role: &str,
) -> Result<(), ViewError> {
    if indices.len() != global_rank {
        return Err(ViewError::Operand(format!(
            "expected {global_rank} indices, one per dimension of {global_role}, got {}",
            indices.len()
        )));
    }
    Ok(())
}

/// The tile may drop leading window dimensions, never add any.
pub(crate) fn tile_rank(
    tile: MemRefType,
    tile_role: &str,
    global: MemRefType,
    global_role: &str,
) -> Result<(), ViewError> {
    if tile.rank() > global.rank() {
        return Err(ViewError::Operand(format!(
            "{tile_role} has rank {} but {global_role} has rank {}; the tile may not have more dimensions than the global memref",
            tile.rank(),
            global.rank()
        )));
    }
    Ok(())
}

/// Fails unless `op` is named `expected`.
pub(crate) fn expect_name(op: &OperationRef, expected: &'static str) -> Result<(), ViewError> {
    let name = op.name();
    let found = name.as_string_ref().as_str().unwrap_or("<invalid utf-8>");
    if found == expected {
        Ok(())
    } else {
        Err(ViewError::WrongOp {
            expected,
            found: found.to_string(),
        })
    }
}
