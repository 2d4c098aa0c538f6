//! Op names spelled once: outside the op-name table of the passes
//! (`passes/src/ir/op_names.rs`), no non-test code of `passes/src` spells an
//! op name as a string literal; it matches with `ir::is(op, gpu::FUNC)` and
//! builds with the table's constants.
//!
//! An op-name literal is a string literal (in code or in a macro's
//! arguments) whose whole text is `dialect.name` for one of [`DIALECTS`].
//! The literals of `#[cfg(test)]` items, `#[test]` functions and files named
//! `tests.rs` are left out.

use std::{fmt, path::Path, path::PathBuf};

use syn::visit::Visit;

use crate::LayersError;

/// The table, the one file allowed to spell op names.
pub const TABLE: &str = "passes/src/ir/op_names.rs";

/// The dialects whose names count.
pub const DIALECTS: &[&str] = &[
    "acopy", "affine", "arith", "builtin", "cf", "func", "gpu", "index", "llvm", "math", "memref",
    "nvgpu", "nvvm", "scf", "ub", "vector",
];

/// One op-name literal outside the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpNameLiteral {
    pub file: PathBuf,
    pub text: String,
}

impl fmt::Display for OpNameLiteral {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: \"{}\"", self.file.display(), self.text)
    }
}

/// Whether `text` is `dialect.name` for a dialect of [`DIALECTS`].
pub fn is_op_name(text: &str) -> bool {
    let Some((dialect, rest)) = text.split_once('.') else {
        return false;
    };
    DIALECTS.contains(&dialect)
        && !rest.is_empty()
        && rest
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.')
}

/// Why [`check`] fails.
#[derive(Debug, thiserror::Error)]
pub enum OpNameCheckError {
    #[error(transparent)]
    Unreadable(#[from] LayersError),
    /// Op names spelled outside the table, each one.
    #[error("{}", spelled(.0))]
    Spelled(Vec<OpNameLiteral>),
}

fn spelled(found: &[OpNameLiteral]) -> String {
    let listed: Vec<String> = found.iter().map(|literal| literal.to_string()).collect();
    format!(
        "{} op-name literal(s) outside {TABLE} (add the op to the table and match it with `ir::is`):\n{}",
        found.len(),
        listed.join("\n")
    )
}

/// The check: no op-name literal in the non-test code of `files` (relative
/// to `root`) under `folder`, outside the table; each one found otherwise.
pub fn check(root: &Path, files: &[PathBuf], folder: &str) -> Result<(), OpNameCheckError> {
    let found = literals(root, files, folder)?;
    if found.is_empty() {
        Ok(())
    } else {
        Err(OpNameCheckError::Spelled(found))
    }
}

/// The op-name literals of `files` (relative to `root`) under `folder`,
/// the table and test code aside.
pub fn literals(
    root: &Path,
    files: &[PathBuf],
    folder: &str,
) -> Result<Vec<OpNameLiteral>, LayersError> {
    let mut found = Vec::new();
    for file in files.iter().filter(|file| file.starts_with(folder)) {
        if file == Path::new(TABLE) || file.file_name().is_some_and(|name| name == "tests.rs") {
            continue;
        }
        let text = crate::tree::read_text(&root.join(file))?;
        let Ok(syntax) = syn::parse_file(&text) else {
            continue;
        };
        let mut visitor = Literals {
            file,
            found: &mut found,
        };
        visitor.visit_file(&syntax);
    }
    Ok(found)
}

struct Literals<'f> {
    file: &'f Path,
    found: &'f mut Vec<OpNameLiteral>,
}

fn is_test(attributes: &[syn::Attribute]) -> bool {
    attributes.iter().any(|attribute| {
        let path = attribute.path();
        path.is_ident("test")
            || (path.is_ident("cfg")
                && attribute
                    .parse_args::<syn::Ident>()
                    .is_ok_and(|ident| ident == "test"))
    })
}

impl Literals<'_> {
    fn note(&mut self, literal: &syn::LitStr) {
        let text = literal.value();
        if is_op_name(&text) {
            self.found.push(OpNameLiteral {
                file: self.file.to_path_buf(),
                text,
            });
        }
    }

    fn tokens(&mut self, tokens: proc_macro2::TokenStream) {
        for token in tokens {
            match token {
                proc_macro2::TokenTree::Group(group) => self.tokens(group.stream()),
                proc_macro2::TokenTree::Literal(literal) => {
                    let literal = syn::Lit::new(literal);
                    if let syn::Lit::Str(literal) = literal {
                        self.note(&literal);
                    }
                }
                _ => {}
            }
        }
    }
}

impl<'ast> Visit<'ast> for Literals<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attributes = match item {
            syn::Item::Mod(item) => &item.attrs,
            syn::Item::Fn(item) => &item.attrs,
            syn::Item::Impl(item) => &item.attrs,
            syn::Item::Const(item) => &item.attrs,
            syn::Item::Static(item) => &item.attrs,
            syn::Item::Use(item) => &item.attrs,
            _ => return syn::visit::visit_item(self, item),
        };
        if !is_test(attributes) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        if !is_test(&item.attrs) {
            syn::visit::visit_impl_item_fn(self, item);
        }
    }

    fn visit_lit_str(&mut self, literal: &'ast syn::LitStr) {
        self.note(literal);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.tokens(mac.tokens.clone());
    }
}
