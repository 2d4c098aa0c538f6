//! The Rust half of the mlir-opt plugin: the acopy pass registry
//! (passes/src/registry.rs) for plugin_passes.cpp, and the three entry
//! points the plugin shim (capi/plugin) calls once it has checked that the
//! host is an mlir-opt of this library's LLVM.

use std::{
    ffi::{c_char, c_void, CString},
    panic::{catch_unwind, AssertUnwindSafe},
    ptr,
    sync::OnceLock,
};

use acopy_passes::registry::{PassInfo, PASSES};
use mlir_sys::{MlirDialectRegistry, MlirPass, MlirStringRef};

extern "C" {
    fn acopy_cxx_register_passes() -> bool;
    fn acopy_cxx_register_dialects(registry: MlirDialectRegistry);
    fn acopy_cxx_plugin_api_version() -> u32;
}

/// Each pass's argument and summary as C strings, made once (MLIR keeps the
/// pointers for the life of the process).
fn names() -> &'static [(CString, CString)] {
    static NAMES: OnceLock<Vec<(CString, CString)>> = OnceLock::new();
    NAMES.get_or_init(|| {
        PASSES
            .iter()
            .map(|info| {
                (
                    crate::result::c_string(info.argument),
                    crate::result::c_string(info.summary),
                )
            })
            .collect()
    })
}

#[no_mangle]
pub extern "C" fn acopy_plugin_pass_count() -> usize {
    PASSES.len()
}

/// Null past the end.
#[no_mangle]
pub extern "C" fn acopy_plugin_pass_argument(index: usize) -> *const c_char {
    names()
        .get(index)
        .map_or(ptr::null(), |(argument, _)| argument.as_ptr())
}

/// Null past the end.
#[no_mangle]
pub extern "C" fn acopy_plugin_pass_summary(index: usize) -> *const c_char {
    names()
        .get(index)
        .map_or(ptr::null(), |(_, summary)| summary.as_ptr())
}

/// The pass `index` built from `options` (the text between its braces), or
/// a null pass after `error(message, data)` when the text is refused, with
/// acopy-opt's `--pass-pipeline` message for it.
///
/// # Safety
/// `options` points to `length` readable bytes; `error` may be called with
/// `data`.
#[no_mangle]
pub unsafe extern "C" fn acopy_plugin_create_pass(
    index: usize,
    options: MlirStringRef,
    error: extern "C" fn(MlirStringRef, *mut c_void),
    data: *mut c_void,
) -> MlirPass {
    let null = MlirPass {
        ptr: ptr::null_mut(),
    };
    let report = |message: &str| {
        error(
            MlirStringRef {
                data: message.as_ptr().cast(),
                length: message.len(),
            },
            data,
        )
    };
    let Some(info) = PASSES.get(index) else {
        report("no such acopy pass");
        return null;
    };
    // An empty StringRef may have a null pointer, which a slice may not.
    let bytes: &[u8] = if options.length == 0 {
        &[]
    } else {
        // SAFETY: the caller's contract.
        unsafe { std::slice::from_raw_parts(options.data.cast::<u8>(), options.length) }
    };
    let Ok(text) = std::str::from_utf8(bytes) else {
        report(&format!(
            "the options of pass '{}' are not UTF-8",
            info.argument
        ));
        return null;
    };
    match catch_unwind(AssertUnwindSafe(|| create(info, text))) {
        Ok(Ok(pass)) => pass,
        Ok(Err(message)) => {
            report(&message);
            null
        }
        Err(_) => {
            report(&format!(
                "internal error in acopy: creating pass '{}' panicked",
                info.argument
            ));
            null
        }
    }
}

fn create(info: &PassInfo, text: &str) -> Result<MlirPass, String> {
    (info.create)(info.argument, text)
        .map(|pass| pass.to_raw())
        .map_err(|error| error.to_string())
}

/// Registers every acopy pass in MLIR's global registry; false when
/// plugin_passes.cpp has too few pass ids.
pub fn register_passes() -> bool {
    let _registering = acopy_passes::context::registering_passes();
    // SAFETY: no arguments; it calls back into this file and MLIR's registry.
    unsafe { acopy_cxx_register_passes() }
}

/// The pass plugin's callback (MLIR's `registerPassRegistryCallbacks`).
#[no_mangle]
pub extern "C" fn acopy_plugin_register_passes() {
    if !register_passes() {
        eprintln!(
            "acopy: more passes than capi/src/plugin_passes.cpp has ids for; none registered"
        );
    }
}

/// The dialect plugin's callback (`registerDialectRegistryCallbacks`).
///
/// # Safety
/// `registry` is a live `mlir::DialectRegistry`.
#[no_mangle]
pub unsafe extern "C" fn acopy_plugin_register_dialects(registry: *mut c_void) {
    // SAFETY: the caller's contract.
    unsafe { acopy_cxx_register_dialects(MlirDialectRegistry { ptr: registry }) }
}

/// `MLIR_PLUGIN_API_VERSION` of the headers this library was built with.
#[no_mangle]
pub extern "C" fn acopy_plugin_api_version() -> u32 {
    // SAFETY: returns a constant.
    unsafe { acopy_cxx_plugin_api_version() }
}

#[cfg(test)]
mod tests {
    use super::*;

    extern "C" fn collect(text: MlirStringRef, data: *mut c_void) {
        // SAFETY: `data` is the String the test passes; `text` is valid for the call.
        let sink = unsafe { &mut *data.cast::<String>() };
        let bytes = unsafe { std::slice::from_raw_parts(text.data.cast::<u8>(), text.length) };
        sink.push_str(&String::from_utf8_lossy(bytes));
    }

    fn create_with(index: usize, text: &str) -> (MlirPass, String) {
        let mut message = String::new();
        let options = MlirStringRef {
            data: text.as_ptr().cast(),
            length: text.len(),
        };
        // SAFETY: `options` borrows `text`; `collect` writes to `message`.
        let pass = unsafe {
            acopy_plugin_create_pass(
                index,
                options,
                collect,
                (&mut message as *mut String).cast(),
            )
        };
        (pass, message)
    }

    fn index_of(argument: &str) -> usize {
        PASSES
            .iter()
            .position(|info| info.argument == argument)
            .expect("registered")
    }

    /// The options are acopy-opt's: refused with its message, accepted as it accepts them.
    #[test]
    fn options_are_parsed_as_the_pipeline_parser_does() {
        let lower = index_of("acopy-lower");
        let (pass, message) = create_with(lower, "chip=sm_75");
        assert!(pass.ptr.is_null());
        assert!(message.contains("sm_75"), "{message}");
        let (pass, message) = create_with(lower, "frobnicate=1");
        assert!(pass.ptr.is_null());
        assert_eq!(
            message,
            "unknown option 'frobnicate' for pass 'acopy-lower'; it takes: chip, fallback, max-stages"
        );
        let (pass, message) = create_with(index_of("acopy-prepare-emit"), "emit=mlir");
        assert!(pass.ptr.is_null());
        assert!(message.contains("must be llvm or ptx"), "{message}");
        let (pass, message) = create_with(PASSES.len(), "");
        assert!(pass.ptr.is_null());
        assert_eq!(message, "no such acopy pass");
        let (pass, message) = create_with(lower, "chip=sm_90 fallback=true max-stages=3");
        assert!(!pass.ptr.is_null(), "{message}");
        // SAFETY: an MlirPass nobody owns yet; a pass manager takes and frees it.
        let context = acopy::create_context().expect("context");
        let manager = melior::pass::PassManager::new(&context);
        manager.add_pass(unsafe { melior::pass::Pass::from_raw(pass) });
    }

    #[test]
    fn options_that_are_not_utf8_are_refused() {
        let bytes = [0xff_u8, 0xfe];
        let mut message = String::new();
        let options = MlirStringRef {
            data: bytes.as_ptr().cast(),
            length: bytes.len(),
        };
        // SAFETY: `options` borrows `bytes`.
        let pass = unsafe {
            acopy_plugin_create_pass(0, options, collect, (&mut message as *mut String).cast())
        };
        assert!(pass.ptr.is_null());
        assert!(message.ends_with("are not UTF-8"), "{message}");
    }

    #[test]
    fn every_pass_has_its_names_and_the_api_version_is_mlirs() {
        for (index, info) in PASSES.iter().enumerate() {
            // SAFETY: non-null pointers to NUL-terminated strings made by names().
            let argument = unsafe { std::ffi::CStr::from_ptr(acopy_plugin_pass_argument(index)) };
            assert_eq!(argument.to_str(), Ok(info.argument));
        }
        assert!(acopy_plugin_pass_argument(PASSES.len()).is_null());
        assert!(acopy_plugin_pass_summary(PASSES.len()).is_null());
        assert_eq!(acopy_plugin_api_version(), 1);
        assert!(
            register_passes(),
            "plugin_passes.cpp has fewer ids than passes"
        );
    }
}
