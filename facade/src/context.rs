//! Contexts that can run acopy's passes.

use melior::{
    dialect::DialectRegistry,
    utility::{register_all_dialects, register_all_llvm_translations},
    Context,
};

/// A context with every upstream dialect registered (the ones acopy emits
/// loaded, the others loaded when first used), the LLVM translations and the
/// acopy dialect (the one [`crate::compile`] uses for text input).
pub fn create_context() -> Result<Context, acopy_dialect::DialectError> {
    acopy_passes::context::create_context()
}

/// Makes a frontend's own `context` able to run [`crate::compile`] and
/// [`crate::add_passes`]: registers the upstream dialects (the emit passes
/// load NVVM and LLVM on demand), the LLVM translations and the upstream
/// passes, and loads the acopy dialect. Calling it again changes nothing.
pub fn prepare_context(context: &Context) -> Result<(), acopy_dialect::DialectError> {
    acopy_passes::context::register_passes();
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    context.append_dialect_registry(&registry);
    register_all_llvm_translations(context);
    acopy_dialect::load(context)
}
