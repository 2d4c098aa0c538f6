//! Library messages never tell a caller to pass a command-line flag: an
//! embedder has no command line. (The driver's own messages, under
//! tools/acopy-opt, may.)

use std::path::{Path, PathBuf};

/// The crates an embedder links, relative to this crate.
const LIBRARY_SOURCES: [&str; 5] = [
    "../passes/src",
    "../dialect/src",
    "../crates/acopy-manifest/src",
    "../crates/acopy-target/src",
    "src",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source dir") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs")
            && path.file_name().is_some_and(|name| name != "tests.rs")
        {
            out.push(path);
        }
    }
}

/// A flag such as `--chip` inside a string literal on a code line.
fn flag_in_string(line: &str) -> Option<usize> {
    let code = line.trim_start();
    if code.starts_with("//") {
        return None;
    }
    let quote = line.find('"')?;
    let bytes = line.as_bytes();
    (quote..bytes.len().saturating_sub(2))
        .find(|&at| &bytes[at..at + 2] == b"--" && bytes[at + 2].is_ascii_lowercase())
}

#[test]
fn the_scan_finds_a_flag() {
    assert!(flag_in_string(r#"  return Err("or pass --chip=sm_90".into());"#).is_some());
    assert!(flag_in_string(r#"  "set the chip option (chip=sm_90)""#).is_none());
    assert!(flag_in_string(r#"  // acopy-opt --emit=ptx"#).is_none());
    assert!(flag_in_string(r#"  let x = y--z;"#).is_none());
}

#[test]
fn no_library_message_names_a_command_line_flag() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in LIBRARY_SOURCES {
        rust_files(&root.join(dir), &mut files);
    }
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable source");
        for (number, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            if flag_in_string(line).is_some() {
                found.push(format!(
                    "{}:{}: {}",
                    file.display(),
                    number + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(files.len() > 30, "scanned only {} files", files.len());
    assert!(
        found.is_empty(),
        "messages naming flags:\n{}",
        found.join("\n")
    );
}
