use melior::{ir::Module, utility::load_irdl_dialects, Context};

use crate::DialectError;

/// The IRDL definition of the dialect.
pub const IRDL_SOURCE: &str = include_str!("../acopy.irdl.mlir");

/// Loads the acopy dialect into `context`.
///
/// The context must have the `irdl` dialect registered (for instance through
/// `melior::utility::register_all_dialects`); without it the error is
/// [`DialectError::NoIrdl`]. Loading twice is harmless.
pub fn load(context: &Context) -> Result<(), DialectError> {
    if context.is_registered_operation(crate::names::COPY_GMEM_TO_SMEM) {
        return Ok(());
    }
    let name = melior::StringRef::new("irdl");
    // SAFETY: the context is live and the name outlives the call.
    let irdl = unsafe { mlir_sys::mlirContextGetOrLoadDialect(context.to_raw(), name.to_raw()) };
    if irdl.ptr.is_null() {
        return Err(DialectError::NoIrdl);
    }
    // MLIR builds the op verifiers while loading, so the IRDL module can be
    // dropped afterwards (mlir-opt's --irdl-file does the same).
    let module = Module::parse(context, IRDL_SOURCE).ok_or(DialectError::IrdlParse)?;
    if load_irdl_dialects(&module) {
        Ok(())
    } else {
        Err(DialectError::IrdlLoad)
    }
}
