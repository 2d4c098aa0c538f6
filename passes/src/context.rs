//! A melior context with everything acopy needs.

use std::sync::{PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

use melior::{
    dialect::DialectRegistry,
    utility::{register_all_dialects, register_all_llvm_translations, register_all_passes},
    Context,
};

/// The dialects acopy's ops live in and its lowering emits, loaded up front.
/// Every other upstream dialect is registered and loads when the parser or a
/// pass first needs it, as in mlir-opt.
const LOADED: &[&str] = &[
    "builtin", "func", "gpu", "nvvm", "llvm", "arith", "scf", "memref",
];

/// Creates a context with every upstream dialect registered, the ones acopy
/// uses ([`LOADED`]) and the acopy dialect loaded, the LLVM translations, and
/// registers the upstream passes (once per process).
///
/// Loading every registered dialect instead cost time on every type or
/// attribute printed (MLIR's printer state visits each loaded dialect).
pub fn create_context() -> Result<Context, acopy_dialect::DialectError> {
    register_passes();
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    for name in LOADED {
        context.get_or_load_dialect(name);
    }
    register_all_llvm_translations(&context);
    acopy_dialect::load(&context)?;
    Ok(context)
}

/// Registers the upstream passes, which the pipeline parser looks up by
/// name; once per process, however often it is called.
pub fn register_passes() {
    static REGISTER_PASSES: std::sync::Once = std::sync::Once::new();
    REGISTER_PASSES.call_once(|| {
        let _registering = registering_passes();
        register_all_passes();
    });
}

/// MLIR's pass registry is one process-wide map that neither registration
/// nor lookup locks: a thread registering passes (upstream's here, acopy's
/// through the C API) while another parses a pipeline string races on it (a
/// parse then failed to find `cse`). Registrations hold this lock for writing,
/// every pipeline parse for reading; a poisoned lock still guards the map.
static PASS_REGISTRY: RwLock<()> = RwLock::new(());

/// Held while passes are registered in MLIR's registry ([`PASS_REGISTRY`]).
pub fn registering_passes() -> RwLockWriteGuard<'static, ()> {
    PASS_REGISTRY
        .write()
        .unwrap_or_else(PoisonError::into_inner)
}

/// Held while a pipeline string is parsed against MLIR's registry.
pub fn parsing_pipeline() -> RwLockReadGuard<'static, ()> {
    PASS_REGISTRY.read().unwrap_or_else(PoisonError::into_inner)
}
