use melior::{dialect::DialectHandle, Context};

use crate::DialectError;

/// The IRDL file generated from `acopy.td` by `tblgen-to-irdl`, for upstream
/// tools (`mlir-opt --irdl-file`); acopy itself loads the compiled dialect.
pub const IRDL_SOURCE: &str = include_str!("../acopy.irdl.mlir");

extern "C" {
    /// Defined by `MLIR_DEFINE_CAPI_DIALECT_REGISTRATION` in src/dialect.cpp.
    fn mlirGetDialectHandle__acopy__() -> mlir_sys::MlirDialectHandle;
}

/// The C-API handle of the compiled acopy dialect (dialect/acopy.td), for
/// inserting it into a `DialectRegistry` or loading it into a context.
pub fn dialect_handle() -> DialectHandle {
    // SAFETY: the function only returns a pointer to a static hook table.
    unsafe { DialectHandle::from_raw(mlirGetDialectHandle__acopy__()) }
}

/// Loads the acopy dialect into `context`: its ops then parse and print in
/// their custom form (docs/dialect.md), and the generic form still parses.
/// Loading twice is harmless.
pub fn load(context: &Context) -> Result<(), DialectError> {
    // SAFETY: the handle is static and the context is live.
    let dialect = unsafe {
        mlir_sys::mlirDialectHandleLoadDialect(dialect_handle().to_raw(), context.to_raw())
    };
    if dialect.ptr.is_null() || !context.is_registered_operation(crate::names::COPY_GMEM_TO_SMEM) {
        return Err(DialectError::Load);
    }
    Ok(())
}
