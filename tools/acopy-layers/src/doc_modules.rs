//! Docs that name modules name modules that exist: every inline-code span of
//! a Markdown doc that reads as a Rust path (`plan::loops::warp`,
//! `lower::cp_async`, `acopy_passes::verify::verify_operation`,
//! `rules::markdown_table()`) must lead, module by module, through the source
//! files of the tree to a module or to an item its file defines or re-exports,
//! so that a module renamed or removed fails `cargo test` instead of leaving a
//! name in prose that no file has (the file-path twin is [`crate::doc_paths`]).
//!
//! How a span is followed: its first segment is a crate (`acopy_passes`,
//! `acopy`, `passes` as the facade re-exports it; `crate` is any crate) or a
//! module anywhere in the sources (a file
//! `x.rs` or `x/mod.rs`, as a doc names `plan::chunk` relative to the folder
//! its text is about); each next segment is a child module (`x/y.rs`,
//! `x/y/mod.rs`), or else a name the module's file defines (`fn`, `struct`,
//! `enum`, `trait`, `type`, `const`, `static`, an inline `mod`,
//! `macro_rules!`) or brings in with `use`, after which the rest (a method, a
//! variant, a test of an inline `mod tests`) is not followed. Spans whose first
//! segment starts upper-case (`Chip::has`: a type, not a module), names a
//! crate from outside the workspace (`std::`, `melior::`), or is PTX
//! (`shared::cluster`) are not read.

use std::{
    collections::BTreeMap,
    fmt,
    path::{Path, PathBuf},
};

use crate::{tree::read_text, LayersError};

/// First segments that are not this workspace's: other crates, C++
/// namespaces, PTX state spaces and qualifiers, Rust's primitive types.
pub const NOT_OURS: [&str; 32] = [
    "std",
    "core",
    "alloc",
    "melior",
    "mlir_sys",
    "mlir",
    "llvm",
    "syn",
    "serde",
    "serde_json",
    "toml",
    "pyo3",
    "cudarc",
    "tracing",
    "clap",
    "shared",
    "multicast",
    "mbarrier",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "f32",
    "f64",
];

/// The Rust sources of a tree: each file's text, and each crate's root file by
/// the crate's name as code spells it (`acopy_passes`), or by the name a crate
/// root re-exports it as (`pub use acopy_passes as passes;` in the facade).
#[derive(Debug, Default)]
pub struct Sources {
    pub files: BTreeMap<PathBuf, String>,
    pub crates: BTreeMap<String, PathBuf>,
}

impl Sources {
    /// Reads every `.rs` file of `files` (relative to `root`) and, for each
    /// `Cargo.toml` beside a `src/lib.rs` (else `src/main.rs`), its package name.
    pub fn read(root: &Path, files: &[PathBuf]) -> Result<Sources, LayersError> {
        let mut sources = Sources::default();
        for file in files {
            if file.extension().is_some_and(|ending| ending == "rs") {
                sources
                    .files
                    .insert(file.clone(), read_text(&root.join(file))?);
            }
        }
        for manifest in files.iter().filter(|file| file.ends_with("Cargo.toml")) {
            let folder = manifest.parent().unwrap_or(Path::new(""));
            let Some(crate_root) = ["src/lib.rs", "src/main.rs"]
                .iter()
                .map(|root_file| folder.join(root_file))
                .find(|root_file| sources.files.contains_key(root_file))
            else {
                continue;
            };
            if let Some(name) = package_name(&read_text(&root.join(manifest))?) {
                sources.crates.insert(name.replace('-', "_"), crate_root);
            }
        }
        sources.add_aliases();
        Ok(sources)
    }

    /// Adds each `use <crate> as <alias>;` of a crate root as a crate name.
    pub fn add_aliases(&mut self) {
        let mut aliases = Vec::new();
        for root in self.crates.values() {
            for line in self
                .files
                .get(root)
                .map(String::as_str)
                .unwrap_or("")
                .lines()
            {
                let words: Vec<&str> = line
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .filter(|word| !word.is_empty())
                    .collect();
                for window in words.windows(4) {
                    if let ["use", named, "as", alias] = window {
                        if let Some(target) = self.crates.get(*named) {
                            aliases.push((alias.to_string(), target.clone()));
                        }
                    }
                }
            }
        }
        for (alias, target) in aliases {
            self.crates.entry(alias).or_insert(target);
        }
    }
}

fn package_name(manifest: &str) -> Option<String> {
    let value: toml::Table = manifest.parse().ok()?;
    let name = value.get("package")?.get("name")?.as_str()?;
    Some(name.to_string())
}

/// A span of a doc that names no module or item of the sources.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaleModule {
    pub doc: PathBuf,
    /// 1-based.
    pub line: usize,
    pub path: String,
}

impl fmt::Display for StaleModule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: `{}` is no module or item of the sources",
            self.doc.display(),
            self.line,
            self.path
        )
    }
}

/// The inline-code spans of `text` that read as module paths and that no
/// crate or module of `sources` leads to.
pub fn stale_modules(doc: &Path, text: &str, sources: &Sources) -> Vec<StaleModule> {
    let mut stale = Vec::new();
    for (index, line) in text.lines().enumerate() {
        for span in line.split('`').skip(1).step_by(2) {
            let Some(segments) = module_path(span) else {
                continue;
            };
            if !resolves(&segments, sources) {
                stale.push(StaleModule {
                    doc: doc.to_path_buf(),
                    line: index + 1,
                    path: span.to_string(),
                });
            }
        }
    }
    stale
}

/// The segments of a span that reads as a path into our sources: identifiers
/// joined by `::` (a call's `(...)` at the end dropped), the first lower-case
/// and not [`NOT_OURS`].
fn module_path(span: &str) -> Option<Vec<&str>> {
    let path = match span.find('(') {
        Some(open) if span.ends_with(')') => &span[..open],
        _ => span,
    };
    let segments: Vec<&str> = path.split("::").collect();
    let identifier = |segment: &&str| {
        segment
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && segment
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    let first = segments[0];
    let ours = first.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
        && !NOT_OURS.contains(&first);
    (segments.len() > 1 && segments.iter().all(identifier) && ours).then_some(segments)
}

fn resolves(segments: &[&str], sources: &Sources) -> bool {
    let (first, rest) = (segments[0], &segments[1..]);
    // A crate of that name (`target`, the facade's name for acopy_target), and
    // every module of that name (`passes/src/target.rs`).
    let starts: Vec<&PathBuf> = match first {
        "crate" => sources.crates.values().collect(),
        _ => sources
            .crates
            .get(first)
            .into_iter()
            .chain(
                sources
                    .files
                    .keys()
                    .filter(|file| module_name(file) == Some(first)),
            )
            .collect(),
    };
    starts.into_iter().any(|file| follows(file, rest, sources))
}

/// The module a file is: `x` for `x.rs` and `x/mod.rs`; none for a crate root.
fn module_name(file: &Path) -> Option<&str> {
    let stem = file.file_stem()?.to_str()?;
    match stem {
        "mod" => file.parent()?.file_name()?.to_str(),
        "lib" | "main" => None,
        _ => Some(stem),
    }
}

/// Whether `segments` lead on from the module in `file`.
fn follows(file: &Path, segments: &[&str], sources: &Sources) -> bool {
    let Some((segment, rest)) = segments.split_first() else {
        return true;
    };
    let children = match file.file_stem().and_then(|stem| stem.to_str()) {
        Some("mod" | "lib" | "main") => file.parent().unwrap_or(Path::new("")).to_path_buf(),
        _ => file.with_extension(""),
    };
    let child = [
        children.join(format!("{segment}.rs")),
        children.join(segment).join("mod.rs"),
    ]
    .into_iter()
    .find(|child| sources.files.contains_key(child));
    match child {
        Some(child) => follows(&child, rest, sources),
        None => sources
            .files
            .get(file)
            .is_some_and(|text| defines(text, segment)),
    }
}

/// Whether a file's text defines `name` or brings it in with `use`
/// (comment lines aside).
fn defines(text: &str, name: &str) -> bool {
    const KINDS: [&str; 9] = [
        "fn",
        "struct",
        "enum",
        "trait",
        "type",
        "const",
        "static",
        "mod",
        "macro_rules!",
    ];
    let mut in_use = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with("//") {
            continue;
        }
        let words: Vec<&str> = line
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '!'))
            .filter(|word| !word.is_empty())
            .collect();
        in_use |= words.iter().take(3).any(|word| *word == "use");
        let defined = words
            .windows(2)
            .any(|pair| KINDS.contains(&pair[0]) && pair[1] == name);
        if defined || (in_use && words.contains(&name)) {
            return true;
        }
        if line.contains(';') {
            in_use = false;
        }
    }
    false
}
