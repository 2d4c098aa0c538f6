//! The C entry points called from Rust as C would call them, one test per
//! error path the C example (examples/capi/main.c) does not already take.

use std::{
    ffi::{c_char, CStr, CString},
    ptr,
};

use melior::{ir::Module, pass::PassManager};
use mlir_sys::{MlirOpPassManager, MlirOperation};

use crate::*;

fn context() -> melior::Context {
    acopy::create_context().expect("context")
}

fn message(result: *const AcopyResult) -> String {
    // SAFETY: a live result's message is a NUL-terminated string.
    unsafe { CStr::from_ptr(acopyResultGetMessage(result)) }
        .to_string_lossy()
        .into_owned()
}

/// Runs `call` with an out-pointer and returns its status and message.
fn status_and_message(
    call: impl FnOnce(*mut *mut AcopyResult) -> AcopyStatus,
) -> (AcopyStatus, String) {
    let mut result: *mut AcopyResult = ptr::null_mut();
    let status = call(&mut result);
    assert_eq!(unsafe { acopyResultGetStatus(result) }, status);
    let text = message(result);
    assert_eq!(acopyResultDestroy(result), AcopyStatus::Ok);
    (status, text)
}

const SM80: &str = include_str!("../../examples/tile_copy_sm80.mlir");

fn op(module: &Module) -> MlirOperation {
    module.as_operation().to_raw()
}

#[test]
fn a_bad_chip_and_text_that_is_not_utf8_are_invalid_arguments() {
    let context = context();
    let module = Module::parse(&context, SM80).expect("parses");
    let chip = CString::new("sm_75").unwrap();
    let options = AcopyOptions {
        chip: chip.as_ptr(),
        ..AcopyOptions::default()
    };
    let (status, text) =
        status_and_message(|out| unsafe { acopyCompile(op(&module), &options, out) });
    assert_eq!(status, AcopyStatus::InvalidArgument);
    assert!(text.contains("sm_75"), "{text}");
    let bytes = [0xff_u8, 0];
    let options = AcopyOptions {
        chip: bytes.as_ptr().cast::<c_char>(),
        ..AcopyOptions::default()
    };
    let (status, text) =
        status_and_message(|out| unsafe { acopyVerify(op(&module), &options, out) });
    assert_eq!(status, AcopyStatus::InvalidArgument);
    assert_eq!(text, "options.chip is not UTF-8");
    let options = AcopyOptions {
        threads: 9,
        ..AcopyOptions::default()
    };
    let (status, text) =
        status_and_message(|out| unsafe { acopyCompile(op(&module), &options, out) });
    assert_eq!(status, AcopyStatus::InvalidArgument);
    assert_eq!(
        text,
        "options.threads is 9, which is none of the header's values"
    );
}

#[test]
fn unknown_passes_and_bad_pipelines_are_invalid_arguments() {
    let context = context();
    let manager = PassManager::new(&context);
    let raw: MlirOpPassManager = manager.as_operation_pass_manager().to_raw();
    let name = CString::new("acopy-frobnicate").unwrap();
    let (status, text) =
        status_and_message(|out| unsafe { acopyAddPass(raw, name.as_ptr(), ptr::null(), out) });
    assert_eq!(status, AcopyStatus::InvalidArgument);
    assert_eq!(text, "unknown acopy pass 'acopy-frobnicate'");
    let (status, text) =
        status_and_message(|out| unsafe { acopyAddPass(raw, ptr::null(), ptr::null(), out) });
    assert_eq!(status, AcopyStatus::NullHandle);
    assert_eq!(text, "pass name is null");
    let pipeline = CString::new("builtin.module(acopy-lower{chip=sm_90}").unwrap();
    let (status, text) =
        status_and_message(|out| unsafe { acopyAddPipeline(raw, pipeline.as_ptr(), out) });
    assert_eq!(status, AcopyStatus::InvalidArgument);
    assert!(text.starts_with("invalid pass pipeline"), "{text}");
    let pipeline = CString::new("builtin.module(acopy-lower{chip=sm_90},cse)").unwrap();
    let (status, _) =
        status_and_message(|out| unsafe { acopyAddPipeline(raw, pipeline.as_ptr(), out) });
    assert_eq!(status, AcopyStatus::Ok);
    let options = AcopyOptions {
        emit: 1,
        ..AcopyOptions::default()
    };
    let (status, _) = status_and_message(|out| unsafe { acopyAddEmitPasses(raw, &options, out) });
    assert_eq!(status, AcopyStatus::Ok);
    let null = MlirOpPassManager {
        ptr: ptr::null_mut(),
    };
    let (status, _) =
        status_and_message(|out| unsafe { acopyAddEmitPasses(null, ptr::null(), out) });
    assert_eq!(status, AcopyStatus::NullHandle);
}

/// The manifest of IR that acopy-lower has not lowered is an error with a
/// located reason, never an empty manifest.
#[test]
fn a_manifest_before_lowering_is_refused() {
    let context = context();
    let module = Module::parse(&context, include_str!("../../examples/tile_copy_sm90.mlir"))
        .expect("parses");
    let (status, text) =
        status_and_message(|out| unsafe { acopyManifest(op(&module), ptr::null(), out) });
    assert_eq!(status, AcopyStatus::Diagnosed);
    assert!(text.contains("acopy"), "{text}");
}

#[test]
fn results_are_read_only_within_their_bounds() {
    let context = context();
    let module = Module::parse(&context, SM80).expect("parses");
    let mut result: *mut AcopyResult = ptr::null_mut();
    assert_eq!(
        unsafe { acopyCompile(op(&module), ptr::null(), &mut result) },
        AcopyStatus::Ok
    );
    assert_eq!(unsafe { acopyResultGetNumOutputs(result) }, 1);
    let mut output = AcopyOutput {
        module: ptr::null(),
        chip: ptr::null(),
        text: ptr::null(),
    };
    assert_eq!(
        unsafe { acopyResultGetOutput(result, 0, &mut output) },
        AcopyStatus::Ok
    );
    let chip = unsafe { CStr::from_ptr(output.chip) };
    assert_eq!(chip.to_str(), Ok("sm_80"));
    assert_eq!(
        unsafe { acopyResultGetOutput(result, 1, &mut output) },
        AcopyStatus::InvalidArgument
    );
    assert_eq!(
        unsafe { acopyResultGetOutput(result, -1, &mut output) },
        AcopyStatus::InvalidArgument
    );
    assert_eq!(
        unsafe { acopyResultGetOutput(result, 0, ptr::null_mut()) },
        AcopyStatus::NullHandle
    );
    assert_eq!(
        unsafe { acopyResultGetDiagnostic(result, 0, ptr::null_mut()) },
        AcopyStatus::NullHandle
    );
    assert_eq!(unsafe { acopyResultGetNumDiagnostics(result) }, 0);
    // A pointer acopy never handed out: the address of something else.
    let stranger = 0_u64;
    let foreign = (&stranger as *const u64).cast::<AcopyResult>();
    assert_eq!(unsafe { acopyResultGetNumDiagnostics(foreign) }, -1);
    assert!(unsafe { acopyResultGetManifestJson(foreign) }.is_null());
    assert_eq!(
        unsafe { acopyResultGetDiagnostic(foreign, 0, ptr::null_mut()) },
        AcopyStatus::ForeignHandle
    );
    assert_eq!(acopyResultDestroy(ptr::null_mut()), AcopyStatus::NullHandle);
    assert_eq!(acopyResultDestroy(result), AcopyStatus::Ok);
    assert_eq!(
        unsafe { acopyResultGetStatus(result) },
        AcopyStatus::ForeignHandle
    );
}

#[test]
fn registration_takes_a_context_once_or_twice() {
    let context = melior::Context::new();
    assert_eq!(
        unsafe { acopyPrepareContext(context.to_raw()) },
        AcopyStatus::Ok
    );
    assert_eq!(
        unsafe { acopyPrepareContext(context.to_raw()) },
        AcopyStatus::Ok
    );
    assert_eq!(
        unsafe { acopyRegisterDialect(context.to_raw()) },
        AcopyStatus::Ok
    );
    assert!(!acopyGetDialectHandle().ptr.is_null());
    let null = mlir_sys::MlirContext {
        ptr: ptr::null_mut(),
    };
    assert_eq!(
        unsafe { acopyPrepareContext(null) },
        AcopyStatus::NullHandle
    );
    assert_eq!(acopyRegisterPasses(), AcopyStatus::Ok);
    // Registered by name: MLIR's own parser now builds acopy passes, options included.
    let manager = PassManager::new(&context);
    let text = "builtin.module(acopy-lower{chip=sm_90})";
    let _parsing = acopy_passes::context::parsing_pipeline();
    let parsed = unsafe {
        mlir_sys::mlirOpPassManagerAddPipeline(
            manager.as_operation_pass_manager().to_raw(),
            mlir_sys::MlirStringRef {
                data: text.as_ptr().cast(),
                length: text.len(),
            },
            None,
            ptr::null_mut(),
        )
    };
    assert_ne!(parsed.value, 0, "MLIR parsed the pipeline");
}
