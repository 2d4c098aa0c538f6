//! Loading libacopy_capi.so from the folder this plugin was loaded from, and
//! finding its registration callbacks.

use std::{
    ffi::{c_char, c_int, c_void, CStr, CString},
    path::{Path, PathBuf},
};

/// What libacopy_capi.so hands mlir-opt.
pub struct Library {
    pub api_version: u32,
    pub register_passes: extern "C" fn(),
    pub register_dialects: unsafe extern "C" fn(*mut c_void),
}

/// The library could not be loaded or lacks a callback.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    #[error("acopy-mlir-plugin: cannot find the file it was loaded from")]
    NoOwnPath,
    #[error("acopy-mlir-plugin: cannot load {path}: {reason}")]
    Open { path: String, reason: String },
    #[error(
        "acopy-mlir-plugin: {path} has no symbol {symbol} (a libacopy_capi.so of another acopy?)"
    )]
    Symbol { path: String, symbol: &'static str },
}

/// The real library's file name, beside this one.
pub const LIBRARY: &str = "libacopy_capi.so";

#[repr(C)]
struct DlInfo {
    file: *const c_char,
    base: *mut c_void,
    symbol: *const c_char,
    address: *mut c_void,
}

extern "C" {
    fn dladdr(address: *const c_void, info: *mut DlInfo) -> c_int;
    fn dlopen(file: *const c_char, mode: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, name: *const c_char) -> *mut c_void;
    fn dlerror() -> *const c_char;
}

/// glibc's RTLD_NOW: an unresolved symbol fails the load, with its name,
/// instead of a call later.
const RTLD_NOW: c_int = 2;

/// The folder of the file holding this code.
fn own_folder() -> Option<PathBuf> {
    let mut info = DlInfo {
        file: std::ptr::null(),
        base: std::ptr::null_mut(),
        symbol: std::ptr::null(),
        address: std::ptr::null_mut(),
    };
    // SAFETY: `info` is writable; the address is a function of this library.
    let found = unsafe { dladdr(own_folder as *const c_void, &mut info) };
    if found == 0 || info.file.is_null() {
        return None;
    }
    // SAFETY: dladdr's file name is a NUL-terminated string of the loader's.
    let file = unsafe { CStr::from_ptr(info.file) }.to_str().ok()?;
    Path::new(file).parent().map(Path::to_path_buf)
}

fn last_error() -> String {
    // SAFETY: dlerror returns null or a NUL-terminated string.
    let error = unsafe { dlerror() };
    if error.is_null() {
        return "unknown error".into();
    }
    // SAFETY: not null, NUL-terminated.
    unsafe { CStr::from_ptr(error) }
        .to_string_lossy()
        .into_owned()
}

/// Loads libacopy_capi.so from this library's folder.
pub fn load() -> Result<Library, LoadError> {
    let path = own_folder().ok_or(LoadError::NoOwnPath)?.join(LIBRARY);
    let shown = path.display().to_string();
    let c_path = CString::new(shown.clone()).map_err(|_| LoadError::NoOwnPath)?;
    // SAFETY: a NUL-terminated path.
    let handle = unsafe { dlopen(c_path.as_ptr(), RTLD_NOW) };
    if handle.is_null() {
        return Err(LoadError::Open {
            path: shown,
            reason: last_error(),
        });
    }
    let symbol = |name: &'static CStr| {
        // SAFETY: a live handle and a NUL-terminated name.
        let address = unsafe { dlsym(handle, name.as_ptr()) };
        if address.is_null() {
            Err(LoadError::Symbol {
                path: shown.clone(),
                symbol: name.to_str().unwrap_or("?"),
            })
        } else {
            Ok(address)
        }
    };
    let version = symbol(c"acopy_plugin_api_version")?;
    let passes = symbol(c"acopy_plugin_register_passes")?;
    let dialects = symbol(c"acopy_plugin_register_dialects")?;
    // SAFETY: the symbols are libacopy_capi.so's functions of these types
    // (capi/src/plugin.rs); the library stays loaded for the process.
    unsafe {
        let version: extern "C" fn() -> u32 = std::mem::transmute(version);
        Ok(Library {
            api_version: version(),
            register_passes: std::mem::transmute::<*mut c_void, extern "C" fn()>(passes),
            register_dialects: std::mem::transmute::<*mut c_void, unsafe extern "C" fn(*mut c_void)>(
                dialects,
            ),
        })
    }
}
