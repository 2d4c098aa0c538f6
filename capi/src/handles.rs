//! MLIR handles from C, checked for what can be checked: null, and the kind
//! of op. The module a C caller passes stays the caller's: it is borrowed
//! as a melior [`Module`] that is never dropped.

use std::mem::ManuallyDrop;

use melior::ir::{operation::OperationLike, Module, OperationRef};
use mlir_sys::{MlirContext, MlirOpPassManager, MlirOperation};

use crate::status::CallError;

/// The caller's module, borrowed: dropping it leaves the module alone.
pub type Borrowed = ManuallyDrop<Module<'static>>;

/// `op` as a module, if it is a `builtin.module`.
///
/// # Safety
/// `op` is null or a live MLIR operation.
pub unsafe fn module(op: MlirOperation) -> Result<Borrowed, CallError> {
    if op.ptr.is_null() {
        return Err(CallError::Null("module"));
    }
    // SAFETY: a live op (the caller's contract); only read here.
    let name = unsafe { OperationRef::from_raw(op) }.name();
    let name = name.as_string_ref().as_str().unwrap_or("").to_string();
    if name != "builtin.module" {
        return Err(CallError::NotAModule {
            what: "module",
            got: name,
        });
    }
    // SAFETY: a builtin.module; the ManuallyDrop keeps melior from destroying it.
    Ok(ManuallyDrop::new(unsafe {
        Module::from_raw(mlir_sys::mlirModuleFromOperation(op))
    }))
}

pub fn context(context: MlirContext) -> Result<MlirContext, CallError> {
    if context.ptr.is_null() {
        return Err(CallError::Null("context"));
    }
    Ok(context)
}

pub fn pass_manager(manager: MlirOpPassManager) -> Result<MlirOpPassManager, CallError> {
    if manager.ptr.is_null() {
        return Err(CallError::Null("pass manager"));
    }
    Ok(manager)
}
