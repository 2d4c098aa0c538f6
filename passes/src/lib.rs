//! acopy's passes and the pipeline that runs them (docs/architecture.md has
//! the layers and the data flow).
//!
//! | pass | module | needs | guarantees |
//! |---|---|---|---|
//! | `acopy-pipeline` | [`pipeliner`] | loops marked `acopy.pipeline` | each becomes multi-buffered acopy IR, or gets a located error |
//! | `acopy-verify` | [`verify`] | acopy ops inside `gpu.module`s with a resolvable chip | every op the chip cannot do has an error at its location (docs/verification.md); the IR is unchanged |
//! | `acopy-lower` | [`lower`] | IR that `acopy-verify` accepts (it runs the pipeliner and the verifier first) | no acopy op remains; NVVM ops for the chip's copy path |
//! | `acopy-prepare-emit` | `prepare_emit::prepare` | lowered IR | each `gpu.module` targets its chip; what LLVM would abort on is an error at the op |
//! | `acopy-tensor-map-params` | [`manifest::params`] | IR after `convert-gpu-to-nvvm` | TMA tensor-map parameters are `__grid_constant__` |
//! | `acopy-check-lowered` | `prepare_emit::leftovers` | a gpu.module after the emit route's conversions | only `llvm` and `nvvm` ops are left, or an error at each op that is not |
//!
//! Every module, bottom layer first (docs/architecture.md gives the floors,
//! and `tools/acopy-layers` checks them: no file imports one on a higher
//! floor, and no two files import each other):
//!
//! | module | holds |
//! |---|---|
//! | `scoped_memo` | thread-local memos that live for one pass run |
//! | `run_cache` | memos of one pass run: type spellings, layouts, attributes (`target::run_scope` keeps them with the chips) |
//! | `ir` | the IR kit every pass uses: queries and edits beyond melior's safe API (`ir::query`: naming a value, its users, where an op sits, which ops are pure), the one builder (`ir::build`: ops before an anchor, constant folding, scf regions, views), the op-name table (`ir::op_names`), kernel-level values built once (`ir::hoist`), the few attributes spelled as text (`ir::spelled`), what a memref type says (`ir::memref_layout`), and `ir::with_context` |
//! | [`options`] | [`PassOptions`], from driver flags or `{key=value}` |
//! | `external` | a Rust function as an MLIR pass, panics caught |
//! | [`context`] | a melior context with every dialect acopy needs |
//! | `module_threads` | running a pipeline on each `gpu.module` apart on MLIR's thread pool ([`lower::lower_modules`], [`emit::emit_modules`]) |
//! | [`target`] | which chip, cluster and block size an op is compiled for; retargeting `#nvvm.target`; the scope of every run-long memo |
//! | [`diagnostics`] | MLIR's diagnostics copied out as data, with the rule id each error carries |
//! | [`manifest`] | the tensor-map manifest in IR; [`manifest::params`] is `acopy-tensor-map-params` |
//! | `plan` | the analysis layer: what each copy is (path, window, box, chunks, alignment proofs, tensor-map key, fallback) and what each marked loop is (`plan::loops`), worked out once; imports neither `verify` nor `lower` |
//! | `raise_alignment` | raising a shared buffer's allocation to an alignment a copy needs |
//! | [`verify`] | `acopy-verify`: the one rules table over the plan layer's facts |
//! | [`pipeliner`] | `acopy-pipeline`: the rewrite of each marked loop from its plan (the analysis and the write-after-read warning are in `plan::loops`) |
//! | `static_shared` | static shared memory over ptxas's 48 KiB moved to dynamic shared memory, or a located error ([`lower`] and `prepare_emit::prepare` run it) |
//! | [`lower`] | `acopy-lower`: cp.async, TMA and barriers, from plans |
//! | `prepare_emit` | `acopy-prepare-emit` and `acopy-check-lowered`, and reading the outputs (below the registry; [`emit`] re-exports them) |
//! | [`registry`] | the one list of acopy passes, for the driver and `--pass-pipeline` |
//! | [`pass_pipeline`] | a `--pass-pipeline` string mixing acopy and upstream passes, into a pass manager |
//! | [`emit`] | the route to LLVM IR and PTX, in process: `acopy-prepare-emit`, the upstream passes (above the parser, which it uses) |
//! | `dialect_doc_tests` | (tests) docs/dialect.md in step with the dialect |

pub mod context;
pub mod diagnostics;
#[cfg(test)]
mod dialect_doc_tests;
pub mod emit;
mod external;
mod ir;
pub mod lower;
pub mod manifest;
mod module_threads;
pub mod options;
pub mod pass_pipeline;
pub mod pipeliner;
pub(crate) mod plan;
mod prepare_emit;
mod raise_alignment;
pub mod registry;
mod run_cache;
mod scoped_memo;
pub(crate) mod static_shared;
pub mod target;
pub mod verify;

pub use options::PassOptions;
