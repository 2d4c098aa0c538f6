//! What the fuzzer's judge shares with acopy-opt's mutation robustness test
//! (`tools/acopy-opt/tests/robustness.rs`): both decide the same way whether
//! a run of acopy-opt crashed.

/// Texts that only a crash prints on acopy-opt's standard error.
pub const CRASH_TEXTS: [&str; 8] = [
    "LLVM ERROR",
    "panicked",
    "Assertion",
    "Cannot select",
    "PLEASE submit a bug report",
    "Stack dump",
    "internal error",
    "UNREACHABLE",
];
