//! `AcopyStatus` and the errors a C call can meet before it reaches acopy.

use std::ffi::{c_char, CStr};

/// `AcopyStatus` of include/acopy/acopy.h (the values must stay equal).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AcopyStatus {
    Ok = 0,
    NullHandle = 1,
    ForeignHandle = 2,
    InvalidArgument = 3,
    Diagnosed = 4,
    Internal = 5,
}

/// Why a call stopped before or instead of compiling.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    #[error("{0} is null")]
    Null(&'static str),
    #[error("{what} must be a builtin.module, got '{got}'")]
    NotAModule { what: &'static str, got: String },
    #[error("{0} is not UTF-8")]
    NotUtf8(&'static str),
    #[error("{what} is {value}, which is none of the header's values")]
    BadEnum { what: &'static str, value: u32 },
    #[error(transparent)]
    Chip(#[from] acopy::target::TargetError),
    #[error(transparent)]
    Options(#[from] acopy::passes::options::OptionError),
    #[error(transparent)]
    Pipeline(#[from] acopy::passes::pass_pipeline::PipelineError),
    #[error(transparent)]
    Manifest(#[from] acopy::passes::manifest::CollectError),
    #[error("unknown acopy pass '{0}'")]
    UnknownPass(String),
    #[error("{0}")]
    Dialect(#[from] acopy::dialect::DialectError),
    #[error("internal error in acopy: panicked: {0}")]
    Panicked(String),
}

impl CallError {
    pub fn status(&self) -> AcopyStatus {
        match self {
            CallError::Null(_) => AcopyStatus::NullHandle,
            CallError::NotAModule { .. } => AcopyStatus::ForeignHandle,
            CallError::Manifest(_) => AcopyStatus::Diagnosed,
            CallError::Dialect(_) | CallError::Panicked(_) => AcopyStatus::Internal,
            _ => AcopyStatus::InvalidArgument,
        }
    }
}

/// The UTF-8 text of a required C string.
///
/// # Safety
/// `text` is null or a NUL-terminated string.
pub unsafe fn required_str<'t>(
    text: *const c_char,
    what: &'static str,
) -> Result<&'t str, CallError> {
    if text.is_null() {
        return Err(CallError::Null(what));
    }
    // SAFETY: the caller's contract.
    unsafe { CStr::from_ptr(text) }
        .to_str()
        .map_err(|_| CallError::NotUtf8(what))
}

/// An optional C string: `None` for null.
///
/// # Safety
/// As [`required_str`].
pub unsafe fn optional_str<'t>(
    text: *const c_char,
    what: &'static str,
) -> Result<Option<&'t str>, CallError> {
    if text.is_null() {
        return Ok(None);
    }
    // SAFETY: the caller's contract.
    unsafe { required_str(text, what) }.map(Some)
}
