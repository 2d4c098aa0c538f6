//! `AcopyOptions` of the header, read into [`acopy::Options`].

use std::ffi::c_char;

use acopy::{Chip, Emit, Options};

use crate::status::{optional_str, CallError};

/// `AcopyOptions` of include/acopy/acopy.h. The enums are read as integers:
/// a value C put there that no variant has must be an error, not undefined
/// behaviour.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AcopyOptions {
    pub chip: *const c_char,
    pub fallback: bool,
    pub emit: u32,
    pub threads: u32,
}

impl Default for AcopyOptions {
    fn default() -> Self {
        AcopyOptions {
            chip: std::ptr::null(),
            fallback: false,
            emit: 0,
            threads: 0,
        }
    }
}

/// The options behind `raw`; the defaults for null.
///
/// # Safety
/// `raw` is null or points to an `AcopyOptions` whose `chip` is null or a
/// NUL-terminated string.
pub unsafe fn read(raw: *const AcopyOptions) -> Result<Options, CallError> {
    // SAFETY: the caller's contract.
    let c = unsafe { raw.as_ref() }.copied().unwrap_or_default();
    // SAFETY: the caller's contract.
    let chip = unsafe { optional_str(c.chip, "options.chip") }?
        .map(Chip::parse)
        .transpose()?;
    let emit = match c.emit {
        0 => Emit::Ptx,
        1 => Emit::Llvm,
        2 => Emit::Mlir,
        value => {
            return Err(CallError::BadEnum {
                what: "options.emit",
                value,
            })
        }
    };
    let threads = match c.threads {
        0 => None,
        1 => Some(true),
        2 => Some(false),
        value => {
            return Err(CallError::BadEnum {
                what: "options.threads",
                value,
            })
        }
    };
    Ok(Options {
        chip,
        fallback: c.fallback,
        emit,
        threads,
    })
}
