//! Registration: the dialect handle, loading it, preparing a context, the
//! passes in MLIR's global registry.

use mlir_sys::{MlirContext, MlirDialectHandle};

use crate::{
    call::{status, with_context},
    handles,
    options::AcopyOptions,
    plugin,
    status::{AcopyStatus, CallError},
};

#[no_mangle]
pub extern "C" fn acopyOptionsDefault() -> AcopyOptions {
    AcopyOptions::default()
}

#[no_mangle]
pub extern "C" fn acopyGetDialectHandle() -> MlirDialectHandle {
    acopy::dialect::dialect_handle().to_raw()
}

/// # Safety
/// `context` is null or a live MLIR context.
#[no_mangle]
pub unsafe extern "C" fn acopyRegisterDialect(context: MlirContext) -> AcopyStatus {
    status(|| {
        let context = handles::context(context)?;
        // SAFETY: live (the caller's contract), not null (checked).
        unsafe { with_context(context, acopy::dialect::load) }?;
        Ok(())
    })
}

/// # Safety
/// `context` is null or a live MLIR context.
#[no_mangle]
pub unsafe extern "C" fn acopyPrepareContext(context: MlirContext) -> AcopyStatus {
    status(|| {
        let context = handles::context(context)?;
        // SAFETY: live (the caller's contract), not null (checked).
        unsafe { with_context(context, acopy::prepare_context) }?;
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn acopyRegisterPasses() -> AcopyStatus {
    status(|| {
        if plugin::register_passes() {
            Ok(())
        } else {
            Err(CallError::Panicked(
                "more acopy passes than capi/src/plugin_passes.cpp has ids for".into(),
            ))
        }
    })
}
