//! `acopyVerify` and `acopyCompile`: [`acopy::verify`] and
//! [`acopy::compile`] on the caller's module, results as data.

use acopy::{Input, Severity};
use mlir_sys::MlirOperation;

use crate::{
    call::call, handles, options, options::AcopyOptions, result::AcopyResult, status::AcopyStatus,
};

/// # Safety
/// `module` null or a live op; `options` null or a valid `AcopyOptions`;
/// `result` null or writable.
#[no_mangle]
pub unsafe extern "C" fn acopyVerify(
    module: MlirOperation,
    options: *const AcopyOptions,
    result: *mut *mut AcopyResult,
) -> AcopyStatus {
    // SAFETY: the caller's contract, passed on.
    unsafe {
        call(result, || {
            let module = handles::module(module)?;
            let options = options::read(options)?;
            let diagnostics = acopy::verify(Input::Module(&module), &options);
            let failed = diagnostics
                .iter()
                .any(|diagnostic| diagnostic.severity == Severity::Error);
            let status = if failed {
                AcopyStatus::Diagnosed
            } else {
                AcopyStatus::Ok
            };
            Ok(AcopyResult::new(status, "").with_diagnostics(&diagnostics))
        })
    }
}

/// # Safety
/// As [`acopyVerify`].
#[no_mangle]
pub unsafe extern "C" fn acopyCompile(
    module: MlirOperation,
    options: *const AcopyOptions,
    result: *mut *mut AcopyResult,
) -> AcopyStatus {
    // SAFETY: the caller's contract, passed on.
    unsafe {
        call(result, || {
            let module = handles::module(module)?;
            let options = options::read(options)?;
            Ok(match acopy::compile(Input::Module(&module), &options) {
                Ok(compiled) => AcopyResult::new(AcopyStatus::Ok, "")
                    .with_diagnostics(&compiled.diagnostics)
                    .with_outputs(&compiled.outputs)
                    .with_manifest(&compiled.manifest.to_json_pretty()),
                Err(failed) => AcopyResult::new(AcopyStatus::Diagnosed, "")
                    .with_diagnostics(&failed.diagnostics),
            })
        })
    }
}
