//! acopy's passes in the frontend's own pass manager, and the manifest
//! between the two pass managers (docs/embedding.md, "The pass order").

use std::ffi::c_char;

use acopy::passes::{pass_pipeline, registry};
use melior::pass::OperationPassManager;
use mlir_sys::{MlirOpPassManager, MlirOperation};

use crate::{
    call::call,
    handles, options,
    options::AcopyOptions,
    result::AcopyResult,
    status::{optional_str, required_str, AcopyStatus, CallError},
};

fn ok() -> AcopyResult {
    AcopyResult::new(AcopyStatus::Ok, "")
}

/// # Safety
/// `manager` is null or live; `name` and `text` null or NUL-terminated;
/// `result` null or writable.
#[no_mangle]
pub unsafe extern "C" fn acopyAddPass(
    manager: MlirOpPassManager,
    name: *const c_char,
    text: *const c_char,
    result: *mut *mut AcopyResult,
) -> AcopyStatus {
    // SAFETY: the caller's contract, passed on.
    unsafe {
        call(result, || {
            let manager = handles::pass_manager(manager)?;
            let name = required_str(name, "pass name")?;
            let text = optional_str(text, "pass options")?.unwrap_or("");
            let info = registry::find(name).ok_or_else(|| CallError::UnknownPass(name.into()))?;
            let pass = (info.create)(info.argument, text)?;
            OperationPassManager::from_raw(manager).add_pass(pass);
            Ok(ok())
        })
    }
}

/// # Safety
/// As [`acopyAddPass`].
#[no_mangle]
pub unsafe extern "C" fn acopyAddPipeline(
    manager: MlirOpPassManager,
    pipeline: *const c_char,
    result: *mut *mut AcopyResult,
) -> AcopyStatus {
    // SAFETY: the caller's contract, passed on.
    unsafe {
        call(result, || {
            let manager = handles::pass_manager(manager)?;
            let text = required_str(pipeline, "pipeline")?;
            pass_pipeline::add_pipeline(OperationPassManager::from_raw(manager), text)?;
            Ok(ok())
        })
    }
}

/// # Safety
/// `manager` null or live; `options` null or a valid `AcopyOptions`;
/// `result` null or writable.
#[no_mangle]
pub unsafe extern "C" fn acopyAddEmitPasses(
    manager: MlirOpPassManager,
    options: *const AcopyOptions,
    result: *mut *mut AcopyResult,
) -> AcopyStatus {
    // SAFETY: the caller's contract, passed on.
    unsafe {
        call(result, || {
            let manager = handles::pass_manager(manager)?;
            let options = options::read(options)?;
            acopy::add_emit_passes(OperationPassManager::from_raw(manager), &options)?;
            Ok(ok())
        })
    }
}

/// # Safety
/// `module` null or a live op; `options` and `result` as above.
#[no_mangle]
pub unsafe extern "C" fn acopyManifest(
    module: MlirOperation,
    options: *const AcopyOptions,
    result: *mut *mut AcopyResult,
) -> AcopyStatus {
    // SAFETY: the caller's contract, passed on.
    unsafe {
        call(result, || {
            let module = handles::module(module)?;
            let options = options::read(options)?;
            let manifest = acopy::manifest(&module, &options)?;
            Ok(ok().with_manifest(&manifest.to_json_pretty()))
        })
    }
}
