//! `AcopyResult`: what a C call made, behind an opaque pointer, and the
//! set of live ones, so that a pointer acopy did not make (or already
//! freed) is refused as a value instead of being read.

use std::{
    collections::HashSet,
    ffi::{c_char, CString},
    ptr,
    sync::{Mutex, MutexGuard},
};

use acopy::{Diagnostic, Output, Severity};

use crate::status::AcopyStatus;

/// One diagnostic, its strings NUL-terminated for C.
pub struct CDiagnostic {
    severity: Severity,
    file: Option<CString>,
    line: u32,
    column: u32,
    message: CString,
    rule: Option<CString>,
}

/// One output, its strings NUL-terminated for C.
pub struct COutput {
    module: CString,
    chip: Option<CString>,
    text: CString,
}

/// The opaque `AcopyResult` of include/acopy/acopy.h.
pub struct AcopyResult {
    pub status: AcopyStatus,
    message: CString,
    diagnostics: Vec<CDiagnostic>,
    outputs: Vec<COutput>,
    manifest: Option<CString>,
}

/// `AcopyDiagnostic` of the header.
#[repr(C)]
pub struct AcopyDiagnostic {
    pub severity: u32,
    pub file: *const c_char,
    pub line: u32,
    pub column: u32,
    pub message: *const c_char,
    pub rule: *const c_char,
}

/// `AcopyOutput` of the header.
#[repr(C)]
pub struct AcopyOutput {
    pub module: *const c_char,
    pub chip: *const c_char,
    pub text: *const c_char,
}

/// A C string of `text`; a NUL inside (MLIR text may hold one) becomes
/// U+FFFD, since C would cut the string there.
pub fn c_string(text: &str) -> CString {
    CString::new(text.replace('\0', "\u{fffd}")).unwrap_or_default()
}

impl AcopyResult {
    pub fn new(status: AcopyStatus, message: &str) -> Self {
        AcopyResult {
            status,
            message: c_string(message),
            diagnostics: Vec::new(),
            outputs: Vec::new(),
            manifest: None,
        }
    }

    /// Adds `diagnostics`, each followed by its notes (as acopy-opt prints them).
    pub fn with_diagnostics(mut self, diagnostics: &[Diagnostic]) -> Self {
        for diagnostic in diagnostics {
            self.push_diagnostic(diagnostic);
        }
        self
    }

    fn push_diagnostic(&mut self, diagnostic: &Diagnostic) {
        let position = diagnostic.position.as_ref();
        self.diagnostics.push(CDiagnostic {
            severity: diagnostic.severity,
            file: position.map(|position| c_string(&position.file)),
            line: position.map_or(0, |position| position.line),
            column: position.map_or(0, |position| position.column),
            message: c_string(&diagnostic.message),
            rule: diagnostic.rule.map(c_string),
        });
        for note in &diagnostic.notes {
            self.push_diagnostic(note);
        }
    }

    pub fn with_outputs(mut self, outputs: &[Output]) -> Self {
        self.outputs = outputs
            .iter()
            .map(|output| COutput {
                module: c_string(&output.module),
                chip: output.chip.as_deref().map(c_string),
                text: c_string(&output.text),
            })
            .collect();
        self
    }

    pub fn with_manifest(mut self, json: &str) -> Self {
        self.manifest = Some(c_string(json));
        self
    }

    pub fn message(&self) -> *const c_char {
        self.message.as_ptr()
    }

    pub fn manifest(&self) -> *const c_char {
        self.manifest
            .as_ref()
            .map_or(ptr::null(), |json| json.as_ptr())
    }

    pub fn num_diagnostics(&self) -> usize {
        self.diagnostics.len()
    }

    pub fn num_outputs(&self) -> usize {
        self.outputs.len()
    }

    pub fn diagnostic(&self, index: usize) -> Option<AcopyDiagnostic> {
        let diagnostic = self.diagnostics.get(index)?;
        Some(AcopyDiagnostic {
            severity: match diagnostic.severity {
                Severity::Error => 0,
                Severity::Warning => 1,
                Severity::Remark => 2,
                Severity::Note => 3,
            },
            file: optional(&diagnostic.file),
            line: diagnostic.line,
            column: diagnostic.column,
            message: diagnostic.message.as_ptr(),
            rule: optional(&diagnostic.rule),
        })
    }

    pub fn output(&self, index: usize) -> Option<AcopyOutput> {
        let output = self.outputs.get(index)?;
        Some(AcopyOutput {
            module: output.module.as_ptr(),
            chip: optional(&output.chip),
            text: output.text.as_ptr(),
        })
    }
}

fn optional(text: &Option<CString>) -> *const c_char {
    text.as_ref().map_or(ptr::null(), |text| text.as_ptr())
}

/// The addresses of the results handed out and not yet destroyed.
static LIVE: Mutex<Option<HashSet<usize>>> = Mutex::new(None);

fn live() -> MutexGuard<'static, Option<HashSet<usize>>> {
    // A panic while holding the lock cannot leave the set half-changed
    // (insert and remove are single steps), so a poisoned lock is still good.
    LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Hands `result` to C: stores it in `*out` when `out` is not null.
/// Returns the status it carries.
///
/// # Safety
/// `out` is null or points to writable memory for one pointer.
pub unsafe fn hand_out(result: AcopyResult, out: *mut *mut AcopyResult) -> AcopyStatus {
    let status = result.status;
    if !out.is_null() {
        let raw = Box::into_raw(Box::new(result));
        live().get_or_insert_with(HashSet::new).insert(raw as usize);
        // SAFETY: the caller's contract.
        unsafe { *out = raw };
    }
    status
}

/// The result behind `raw`, if acopy made it and has not destroyed it.
///
/// # Safety
/// A live result is only read while the caller does not destroy it on
/// another thread (the header's rule: strings live as long as the result).
pub unsafe fn find<'r>(raw: *const AcopyResult) -> Result<&'r AcopyResult, AcopyStatus> {
    if raw.is_null() {
        return Err(AcopyStatus::NullHandle);
    }
    let known = live()
        .as_ref()
        .is_some_and(|set| set.contains(&(raw as usize)));
    if !known {
        return Err(AcopyStatus::ForeignHandle);
    }
    // SAFETY: in the live set, so a Box acopy leaked and still owns.
    Ok(unsafe { &*raw })
}

/// Frees the result behind `raw` if it is live.
pub fn destroy(raw: *mut AcopyResult) -> AcopyStatus {
    if raw.is_null() {
        return AcopyStatus::NullHandle;
    }
    let removed = live()
        .as_mut()
        .is_some_and(|set| set.remove(&(raw as usize)));
    if !removed {
        return AcopyStatus::ForeignHandle;
    }
    // SAFETY: it was in the live set: a Box acopy leaked, now removed from the
    // set, so no other call frees it again.
    drop(unsafe { Box::from_raw(raw) });
    AcopyStatus::Ok
}
