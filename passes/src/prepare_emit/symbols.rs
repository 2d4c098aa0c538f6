//! Symbols that become PTX names must be PTX identifiers: the NVPTX backend
//! aborts the process ("Symbol name with unsupported characters") on a kernel
//! named `@"a b"`, so `acopy-prepare-emit` refuses such a name with an error
//! at its op when PTX is asked for.

use melior::ir::{
    attribute::StringAttribute,
    operation::{OperationLike, WalkOrder, WalkResult},
    OperationRef,
};

use crate::ir::op_names::{func, gpu, llvm, memref, OpName};
use crate::{external::PassResult, ir};
use acopy_dialect::diagnostics::emit_error;

/// The ops in a `gpu.module` whose symbol names end up in the PTX.
const PTX_SYMBOL_OPS: [OpName; 5] = [
    gpu::FUNC,
    func::FUNC,
    llvm::FUNC,
    memref::GLOBAL,
    llvm::GLOBAL,
];

/// Whether `name` is a PTX identifier: `[a-zA-Z][a-zA-Z0-9_$]*` or
/// `[_$][a-zA-Z0-9_$]+` (PTX ISA §4.4; PTX also allows a leading `%`, which
/// the NVPTX backend does not).
pub fn is_ptx_identifier(name: &str) -> bool {
    let follows = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut chars = name.chars();
    match chars.next() {
        Some(first) if first.is_ascii_alphabetic() => chars.all(follows),
        Some('_' | '$') => name.len() > 1 && chars.all(follows),
        _ => false,
    }
}

pub(super) fn check_ptx_symbols(module: OperationRef) -> PassResult {
    let mut failed = false;
    module.walk(WalkOrder::PreOrder, |op| {
        if !PTX_SYMBOL_OPS.iter().any(|name| ir::is(&op, *name)) {
            return WalkResult::Advance;
        }
        let Some(name) = op
            .attribute("sym_name")
            .ok()
            .and_then(|name| StringAttribute::try_from(name).ok())
        else {
            return WalkResult::Advance;
        };
        // A name that is not UTF-8 reads as "", which is no identifier either.
        if !is_ptx_identifier(acopy_dialect::string_value(name)) {
            emit_error(
                op.location(),
                &format!(
                    "the symbol name {name} cannot be written in PTX: a PTX name is [a-zA-Z][a-zA-Z0-9_$]* or [_$][a-zA-Z0-9_$]+; rename it, or emit LLVM IR instead"
                ),
            );
            failed = true;
        }
        WalkResult::Skip
    });
    if failed {
        Err(())
    } else {
        Ok(())
    }
}
