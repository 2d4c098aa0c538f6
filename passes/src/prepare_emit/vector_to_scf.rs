//! `acopy-vector-to-scf`: the emit route's `convert-vector-to-scf`, run only
//! on a `gpu.module` that holds a vector op.
//!
//! **Needs**: nothing beyond upstream's pass.
//!
//! **Guarantees**: on an op that holds a `vector.*` op, exactly upstream's
//! `convert-vector-to-scf` (run as a nested pipeline); on one that holds
//! none, nothing. Upstream's pass rewrites only vector ops (transfers and
//! `vector.print`); on IR without one, all its two greedy pattern-driver runs
//! do is what that driver does to any IR: fold, erase dead ops, unique and
//! hoist constants, simplify regions. The route's next pass,
//! `expand-strided-metadata`, runs the same driver on the same IR, so the IR
//! after it is the same up to the order and locations of constants at the top
//! of each function, which LLVM translation does not see (an
//! `llvm.mlir.constant` becomes an LLVM constant, not an instruction; no debug
//! information is emitted). The two runs were a sixteenth of the time to PTX
//! (bench/RESULTS.md, 2026-12-06 afternoon); the output snapshot of the corpus
//! is byte-identical with and without them.
//!
//! **Options**: none.
//!
//! The pass is C++ (`vector_to_scf.cpp`, built by `passes/build.rs`): only a
//! C++ pass can run a nested pipeline.

use melior::{pass::Pass, StringRef};
use mlir_sys::{MlirPass, MlirStringRef};

use crate::ir::op_names::prefixes;

/// The pass's name in a pipeline.
pub const ARGUMENT: &str = "acopy-vector-to-scf";

/// The pass's `--help` line.
pub const SUMMARY: &str =
    "convert-vector-to-scf on a gpu.module that holds a vector op; nothing on one that holds none";

extern "C" {
    fn acopyCreateVectorToScfWhereVector(
        prefix: MlirStringRef,
        argument: MlirStringRef,
        description: MlirStringRef,
    ) -> MlirPass;
}

/// Creates `acopy-vector-to-scf`.
pub fn create_pass() -> Pass {
    // SAFETY: the C++ side copies the three strings and returns a new pass,
    // which the caller's pass manager takes over.
    unsafe {
        Pass::from_raw(acopyCreateVectorToScfWhereVector(
            StringRef::new(prefixes::VECTOR).to_raw(),
            StringRef::new(ARGUMENT).to_raw(),
            StringRef::new(SUMMARY).to_raw(),
        ))
    }
}
