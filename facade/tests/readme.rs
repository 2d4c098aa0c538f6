//! The README's embedding example is the one `examples/embed.rs` runs.

#[test]
fn the_readme_example_is_the_tested_one() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let example = std::fs::read_to_string(root.join("examples/embed.rs")).unwrap();
    let readme = std::fs::read_to_string(root.join("../README.md")).unwrap();
    let begin =
        example.find("// README-BEGIN\n").expect("begin marker") + "// README-BEGIN\n".len();
    let end = example.find("// README-END").expect("end marker");
    let snippet = &example[begin..end];
    assert!(
        snippet.lines().count() >= 10,
        "the marked example is too short"
    );
    assert!(
        readme.contains(&format!("```rust\n{snippet}```")),
        "README.md's Embedding example differs from examples/embed.rs between the markers:\n{snippet}"
    );
    // The downstream build settings the README promises.
    for needed in [
        "MLIR_SYS_220_PREFIX",
        "TABLEGEN_220_PREFIX",
        "LIBCLANG_PATH",
        "melior 0.27",
    ] {
        assert!(
            readme.contains(needed),
            "README.md does not mention {needed}"
        );
    }
}
