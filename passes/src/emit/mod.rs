//! From lowered IR to LLVM IR or PTX, in process (no mlir-opt, no llc).
//!
//! [`add_passes`] appends to a pass manager, after the acopy passes:
//! 1. `acopy-prepare-emit` ([`prepare`]): every `gpu.module` gets an
//!    `#nvvm.target` for its resolved chip (the override first,
//!    docs/dialect.md, "Target") with the PTX ISA the chip model asks for, IR
//!    that LLVM would abort on is refused with an error at the op, and static
//!    shared memory over ptxas's 48 KiB moves to dynamic shared memory
//!    (`crate::static_shared`);
//! 2. upstream, on each `gpu.module` ([`UPSTREAM`]), what upstream's
//!    `gpu-lower-to-nvvm-pipeline` runs for a gpu.module's contents:
//!    `convert-nvgpu-to-nvvm` (first, as upstream: what it makes is lowered by
//!    the rest), `convert-vector-to-scf`, `expand-strided-metadata` and
//!    `lower-affine` (views such as `memref.subview` become plain address
//!    arithmetic; before `convert-scf-to-cf`, unlike upstream, so that affine
//!    loops are lowered), `convert-scf-to-cf`, `convert-gpu-to-nvvm` (which
//!    also lowers memref, arith, cf, index, math and vector through their LLVM
//!    conversion interfaces, so `finalize-memref-to-llvm` and
//!    `convert-cf-to-llvm`, which only anchor on `builtin.module`, are not
//!    needed), `acopy-tensor-map-params`, `convert-nvvm-to-llvm`,
//!    `convert-arith-to-llvm`, `convert-index-to-llvm`,
//!    `reconcile-unrealized-casts`, and `acopy-check-lowered` ([`leftovers`]:
//!    an op left unlowered is an error naming it); docs/embedding.md, "The
//!    emit route", compares the two;
//! 3. for PTX, `gpu-module-to-binary{format=isa}`.
//!
//! The pass managers that run steps 2 and 3 alone ([`emit_modules`], and the
//! facade's one-thread route) do not verify after each pass
//! ([`route::VERIFY_AFTER_EACH`]): `acopy-check-lowered` verifies each
//! `gpu.module` once, before anything is translated.
//!
//! After the run, [`collect`] returns one text per `gpu.module`, in order: the
//! PTX from each `gpu.binary` object, or the LLVM IR translated from a copy of
//! the `gpu.module`'s body (`mlirTranslateModuleToLLVMIR`).
//! [`emit_modules`] runs steps 2 and 3 for each `gpu.module` on MLIR's thread
//! pool, which `gpu-module-to-binary` (one loop over the modules) cannot.
//!
//! Files: [`route`] assembles the passes and [`emit_modules`] is the parallel
//! route. The passes below the registry, and reading the outputs, are in
//! `crate::prepare_emit` (re-exported here): [`leftovers`] is
//! `acopy-check-lowered`, [`prepare`] is `acopy-prepare-emit`, [`symbols`]
//! names PTX identifiers, [`outputs`] reads the outputs and [`Emit`] is the
//! kind of output.
//!
//! The kernel ABI is upstream's default memref lowering: docs/kernel-abi.md.

pub mod emit_modules;
pub mod route;

pub use crate::prepare_emit::{leftovers, outputs, prepare, symbols, Emit};
pub use crate::target::gating::required_capability;
pub use outputs::{collect, Emitted, OutputError};
pub use prepare::MAX_NESTING;
pub use route::{add_passes, UPSTREAM};
pub use symbols::is_ptx_identifier;
