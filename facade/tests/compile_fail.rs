//! Misuse of the embedding API that must not compile: each case in
//! `compile_fail/` is a program a frontend might write, with the compiler's
//! error pinned in its `.stderr` beside it. A change that lets one of them
//! compile (a lifetime loosened, a typed option turned into a string) fails
//! this test. `TRYBUILD=overwrite cargo test -p acopy --test compile_fail`
//! rewrites the snapshots after a deliberate change (read the diff).
//!
//! trybuild checks the cases as a crate of its own under
//! `target/tests/trybuild` (`cargo check`, no linking), so the first run
//! builds melior and mlir-sys again there.

#[test]
fn misuse_does_not_compile() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/compile_fail/*.rs");
}
