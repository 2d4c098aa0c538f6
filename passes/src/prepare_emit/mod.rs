//! The emit route's own passes and outputs, below the pass registry:
//! `acopy-prepare-emit` ([`prepare`]: each `gpu.module` gets an `#nvvm.target`
//! for its chip, and IR that LLVM would abort on is refused with an error at
//! the op), which calls `crate::target::gating` (NVVM ops only some chips
//! have), `attributions` (what upstream cannot compile in attributions and
//! globals), `dynamic_shared` and [`symbols`] (PTX identifiers);
//! `acopy-check-lowered` ([`leftovers`]: an op left unlowered is an error
//! naming it); `kind` ([`Emit`]: MLIR, LLVM IR or PTX) and [`outputs`]
//! (reading one text per `gpu.module` after the run).
//!
//! `crate::emit`, above the pass parser, assembles these with the upstream
//! passes into the route and re-exports what frontends use.

mod attributions;
mod dynamic_shared;
mod kind;
pub mod leftovers;
pub mod outputs;
pub mod prepare;
pub mod symbols;

pub use kind::Emit;
