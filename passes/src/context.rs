//! A melior context with everything acopy needs.

use melior::{
    dialect::DialectRegistry,
    utility::{register_all_dialects, register_all_llvm_translations, register_all_passes},
    Context,
};

/// Creates a context with every upstream dialect, the LLVM translations and
/// the acopy dialect loaded, and registers the upstream passes (once per process).
pub fn create_context() -> Result<Context, acopy_dialect::DialectError> {
    register_passes();
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
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
