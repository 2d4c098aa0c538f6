//! acopy's C API (include/acopy/acopy.h) and the registration half of the
//! mlir-opt plugin, in one shared library, `libacopy_capi.so`, linked to
//! the shared libMLIR.so (build.rs says how and why).
//!
//! | file | holds |
//! |---|---|
//! | `registration.rs` | the dialect handle, loading it, preparing a context, the passes by name |
//! | `pass_manager.rs` | acopy passes, a mixed pipeline, the emit passes in the caller's pass manager; the manifest |
//! | `compile.rs` | `acopyVerify`, `acopyCompile` |
//! | `accessors.rs` | reading and freeing an `AcopyResult` |
//! | `result.rs` | `AcopyResult` and the set of live ones |
//! | `call.rs` | every entry point's error and panic handling |
//! | `handles.rs` | MLIR handles checked (null, not a module) |
//! | `options.rs` | `AcopyOptions` read into `acopy::Options` |
//! | `status.rs` | `AcopyStatus`, `CallError` |
//! | `plugin.rs`, `plugin_passes.cpp` | the passes for mlir-opt's registry, with their options; the plugin's callbacks |
//!
//! The names of the C functions are the header's (`acopyCompile`), in
//! MLIR's C API style, hence `non_snake_case`.
#![allow(non_snake_case)]

mod accessors;
mod call;
mod compile;
mod handles;
mod options;
mod pass_manager;
mod plugin;
mod registration;
mod result;
mod status;

pub use accessors::*;
pub use compile::{acopyCompile, acopyVerify};
pub use options::AcopyOptions;
pub use pass_manager::{acopyAddEmitPasses, acopyAddPass, acopyAddPipeline, acopyManifest};
pub use registration::*;
pub use result::{AcopyDiagnostic, AcopyOutput, AcopyResult};
pub use status::AcopyStatus;

#[cfg(test)]
mod tests;
