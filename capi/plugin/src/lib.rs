//! libacopy_mlir_plugin.so: the file mlir-opt's `--load-dialect-plugin` and
//! `--load-pass-plugin` take. It depends on nothing of LLVM or MLIR, so that
//! loading it into any mlir-opt is safe; its entry points first check that
//! the host runs the shared libMLIR.so of acopy's LLVM ([`host`]), then load
//! libacopy_capi.so from the same folder ([`load`]) and hand mlir-opt its
//! callbacks. A host that fails the check gets a message on standard error
//! and API version 0, which every mlir-opt refuses ("Wrong API version")
//! before it calls anything of the plugin. docs/embedding.md has the design.

pub mod host;
pub mod load;

use std::{
    ffi::{c_char, c_void},
    sync::OnceLock,
};

/// mlir::PassPluginLibraryInfo (mlir/Tools/Plugins/PassPlugin.h).
#[repr(C)]
pub struct PassPluginLibraryInfo {
    pub api_version: u32,
    pub plugin_name: *const c_char,
    pub plugin_version: *const c_char,
    pub register: Option<extern "C" fn()>,
}

/// mlir::DialectPluginLibraryInfo (mlir/Tools/Plugins/DialectPlugin.h).
#[repr(C)]
pub struct DialectPluginLibraryInfo {
    pub api_version: u32,
    pub plugin_name: *const c_char,
    pub plugin_version: *const c_char,
    pub register: Option<unsafe extern "C" fn(*mut c_void)>,
}

/// An API version no MLIR has had: the host refuses the plugin on it.
pub const REFUSED: u32 = 0;

const NAME: &std::ffi::CStr = c"acopy";
const VERSION: &std::ffi::CStr = match std::ffi::CStr::from_bytes_with_nul(
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes(),
) {
    Ok(version) => version,
    Err(_) => c"unknown",
};

/// The check and the load, once per process; the reason is printed once.
fn library() -> Option<&'static load::Library> {
    static LIBRARY: OnceLock<Option<load::Library>> = OnceLock::new();
    LIBRARY
        .get_or_init(|| {
            let ready = std::fs::read_to_string("/proc/self/maps")
                .map_err(|error| format!("acopy-mlir-plugin: cannot read /proc/self/maps: {error}"))
                .and_then(|maps| {
                    host::check(&maps, host::MLIR_VERSION).map_err(|error| error.to_string())
                })
                .and_then(|()| load::load().map_err(|error| error.to_string()));
            match ready {
                Ok(library) => Some(library),
                Err(message) => {
                    eprintln!("{message}");
                    None
                }
            }
        })
        .as_ref()
}

#[no_mangle]
pub extern "C" fn mlirGetPassPluginInfo() -> PassPluginLibraryInfo {
    let library = library();
    PassPluginLibraryInfo {
        api_version: library.map_or(REFUSED, |library| library.api_version),
        plugin_name: NAME.as_ptr(),
        plugin_version: VERSION.as_ptr(),
        register: library.map(|library| library.register_passes),
    }
}

#[no_mangle]
pub extern "C" fn mlirGetDialectPluginInfo() -> DialectPluginLibraryInfo {
    let library = library();
    DialectPluginLibraryInfo {
        api_version: library.map_or(REFUSED, |library| library.api_version),
        plugin_name: NAME.as_ptr(),
        plugin_version: VERSION.as_ptr(),
        register: library.map(|library| library.register_dialects),
    }
}
