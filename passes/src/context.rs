//! A melior context with everything acopy needs.

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
    REGISTER_PASSES.call_once(register_all_passes);
}
