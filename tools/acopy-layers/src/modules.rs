//! The file-level import graph of one crate target: its module tree, found
//! by following `mod` declarations from the crate root, and an arrow from a
//! file to each file whose items it names.
//!
//! What names a file's items:
//! - a `use` of an item (`use crate::target::resolve`), or a glob of a module
//!   (`use crate::target::*`); a `use` of a module alone (`use crate::lower`)
//!   names nothing yet, so the arrows come from the paths through it;
//! - a path in code, types or macro arguments that starts with `crate`,
//!   `self`, `super`, a child module or a name a `use` brought in
//!   (`lower::tma::maps::tensor_map(..)` after `use crate::lower`).
//!
//! A path is followed through modules and through `use` items on its way, so
//! a name a parent re-exports (`pub use facts::Ctx` in `verify/mod.rs`) leads
//! to the file that defines it, not to the parent. Items and modules under
//! `#[cfg(test)]` are left out: a test sits above what it tests.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

use crate::error::LayersError;

/// One module of the tree.
#[derive(Debug)]
struct Module {
    /// The file its items are in (inline modules share their parent's).
    file: usize,
    parent: Option<usize>,
    children: BTreeMap<String, usize>,
    /// Names brought in by `use` items, as written (relative to this module).
    imports: BTreeMap<String, Vec<String>>,
    /// The directory a `mod x;` inside this module is looked for in.
    dir: PathBuf,
}

/// A path named in a module, as written.
#[derive(Debug)]
struct Reference {
    module: usize,
    segments: Vec<String>,
    /// A glob (`use crate::target::*`): it names the module's items.
    glob: bool,
}

/// An arrow between two files, with the first path that drew it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arrow {
    pub from: PathBuf,
    pub to: PathBuf,
    pub because: String,
}

/// The files of one crate target and the arrows between them.
#[derive(Debug, Default)]
pub struct CrateGraph {
    pub files: Vec<PathBuf>,
    pub arrows: Vec<Arrow>,
}

struct Builder {
    files: Vec<PathBuf>,
    modules: Vec<Module>,
    references: Vec<Reference>,
}

/// Reads the crate target whose root file is `root` and returns its graph.
pub fn crate_graph(root: &Path) -> Result<CrateGraph, LayersError> {
    let mut builder = Builder {
        files: Vec::new(),
        modules: Vec::new(),
        references: Vec::new(),
    };
    let dir = root.parent().unwrap_or(Path::new(".")).to_path_buf();
    builder.add_file(root, None, None, dir)?;
    Ok(builder.finish())
}

impl Builder {
    /// Parses `path` as the module `name` under `parent` (the root: `None`).
    fn add_file(
        &mut self,
        path: &Path,
        parent: Option<usize>,
        name: Option<&str>,
        dir: PathBuf,
    ) -> Result<usize, LayersError> {
        let text = crate::tree::read_text(path)?;
        let file = syn::parse_file(&text).map_err(|error| LayersError::Parse {
            path: path.to_path_buf(),
            message: error.to_string(),
        })?;
        self.files.push(path.to_path_buf());
        let file_index = self.files.len() - 1;
        let module = self.add_module(file_index, parent, name, dir);
        self.add_items(module, &file.items)?;
        Ok(module)
    }

    fn add_module(
        &mut self,
        file: usize,
        parent: Option<usize>,
        name: Option<&str>,
        dir: PathBuf,
    ) -> usize {
        self.modules.push(Module {
            file,
            parent,
            children: BTreeMap::new(),
            imports: BTreeMap::new(),
            dir,
        });
        let index = self.modules.len() - 1;
        if let (Some(parent), Some(name)) = (parent, name) {
            self.modules[parent]
                .children
                .insert(name.to_string(), index);
        }
        index
    }

    fn add_items(&mut self, module: usize, items: &[syn::Item]) -> Result<(), LayersError> {
        for item in items {
            if is_test_only(item_attributes(item)) {
                continue;
            }
            match item {
                syn::Item::Mod(declaration) => self.add_mod(module, declaration)?,
                syn::Item::Use(item_use) => self.add_use(module, &item_use.tree, Vec::new()),
                other => {
                    let mut paths = PathCollector::default();
                    paths.visit_item(other);
                    // A `use` inside a function counts as one of the module's.
                    for tree in paths.uses {
                        self.add_use(module, tree, Vec::new());
                    }
                    for segments in paths.paths {
                        self.reference(module, segments, false);
                    }
                }
            }
        }
        Ok(())
    }

    fn add_mod(&mut self, module: usize, declaration: &syn::ItemMod) -> Result<(), LayersError> {
        let name = declaration.ident.to_string();
        let dir = self.modules[module].dir.join(&name);
        if let Some((_, items)) = &declaration.content {
            let file = self.modules[module].file;
            let child = self.add_module(file, Some(module), Some(&name), dir);
            return self.add_items(child, items);
        }
        let explicit = declaration.attrs.iter().find_map(path_attribute);
        let base = &self.modules[module].dir;
        let path = match explicit {
            Some(relative) => {
                // `#[path]` is relative to the declaring file's directory.
                let declaring = &self.files[self.modules[module].file];
                declaring.parent().unwrap_or(Path::new(".")).join(relative)
            }
            None => {
                let flat = base.join(format!("{name}.rs"));
                if flat.is_file() {
                    flat
                } else {
                    base.join(&name).join("mod.rs")
                }
            }
        };
        if !path.is_file() {
            return Err(LayersError::MissingModule {
                declared_in: self.files[self.modules[module].file].clone(),
                name,
            });
        }
        // A file's own `mod x;` are looked for beside it when it is a
        // `mod.rs` (or named by `#[path]`), else in the folder named for it.
        let child_dir = if path.file_name().is_some_and(|file| file == "mod.rs") {
            path.parent().unwrap_or(Path::new(".")).to_path_buf()
        } else {
            path.with_extension("")
        };
        self.add_file(&path, Some(module), Some(&name), child_dir)?;
        Ok(())
    }

    /// Records the names and paths of a `use` tree under `prefix`.
    fn add_use(&mut self, module: usize, tree: &syn::UseTree, prefix: Vec<String>) {
        match tree {
            syn::UseTree::Path(path) => {
                let mut prefix = prefix;
                prefix.push(path.ident.to_string());
                self.add_use(module, &path.tree, prefix);
            }
            syn::UseTree::Name(name) => {
                let ident = name.ident.to_string();
                let (full, bound) = if ident == "self" {
                    let bound = prefix.last().cloned().unwrap_or_default();
                    (prefix, bound)
                } else {
                    let mut full = prefix;
                    full.push(ident.clone());
                    (full, ident)
                };
                self.bind(module, bound, full);
            }
            syn::UseTree::Rename(rename) => {
                let ident = rename.ident.to_string();
                let full = if ident == "self" {
                    prefix
                } else {
                    let mut full = prefix;
                    full.push(ident);
                    full
                };
                self.bind(module, rename.rename.to_string(), full);
            }
            syn::UseTree::Glob(_) => self.reference(module, prefix, true),
            syn::UseTree::Group(group) => {
                for tree in &group.items {
                    self.add_use(module, tree, prefix.clone());
                }
            }
        }
    }

    fn bind(&mut self, module: usize, name: String, full: Vec<String>) {
        self.reference(module, full.clone(), false);
        if name != "_" {
            self.modules[module].imports.insert(name, full);
        }
    }

    fn reference(&mut self, module: usize, segments: Vec<String>, glob: bool) {
        if !segments.is_empty() {
            self.references.push(Reference {
                module,
                segments,
                glob,
            });
        }
    }

    fn finish(self) -> CrateGraph {
        let mut arrows: Vec<Arrow> = Vec::new();
        for reference in &self.references {
            let Some((target, rest)) = self.resolve(reference.module, &reference.segments, 0)
            else {
                continue;
            };
            // A path that ends at a module (`use crate::lower`) names no item
            // of its file yet, unless it is a glob; the paths through it do.
            if rest == 0 && !reference.glob {
                continue;
            }
            let from = &self.files[self.modules[reference.module].file];
            let to = &self.files[self.modules[target].file];
            if from == to || arrows.iter().any(|a| &a.from == from && &a.to == to) {
                continue;
            }
            arrows.push(Arrow {
                from: from.clone(),
                to: to.clone(),
                because: reference.segments.join("::"),
            });
        }
        CrateGraph {
            files: self.files,
            arrows,
        }
    }

    /// The module `segments` leads to from `module`, and how many segments
    /// are left after it (the item's name and anything inside it); `None`
    /// for a path into another crate, a local name or the prelude.
    fn resolve(&self, module: usize, segments: &[String], depth: usize) -> Option<(usize, usize)> {
        if depth > 16 {
            return None;
        }
        let (first, rest) = segments.split_first()?;
        let mut current = match first.as_str() {
            "crate" => 0,
            "self" => module,
            "super" => self.modules[module].parent?,
            name => {
                if let Some(&child) = self.modules[module].children.get(name) {
                    child
                } else if let Some(full) = self.modules[module].imports.get(name) {
                    if full.as_slice() == segments {
                        return None;
                    }
                    let mut through = full.clone();
                    through.extend(rest.iter().cloned());
                    return self.resolve(module, &through, depth + 1);
                } else {
                    return None;
                }
            }
        };
        let mut index = 0;
        while index < rest.len() {
            let segment = &rest[index];
            if segment == "super" {
                current = self.modules[current].parent?;
            } else if let Some(&child) = self.modules[current].children.get(segment) {
                current = child;
            } else if let Some(full) = self.modules[current].imports.get(segment) {
                let mut through = full.clone();
                through.extend(rest[index + 1..].iter().cloned());
                // `None`: another crate's item, re-exported here.
                return self.resolve(current, &through, depth + 1);
            } else {
                break;
            }
            index += 1;
        }
        Some((current, rest.len() - index))
    }
}

/// The paths of an item that may lead to another file of the crate: every
/// path of two or more segments, or of one that starts at `crate`, `self` or
/// `super`, in code, types, patterns and macro arguments.
#[derive(Default)]
struct PathCollector<'ast> {
    paths: Vec<Vec<String>>,
    /// `use` items nested in functions and blocks.
    uses: Vec<&'ast syn::UseTree>,
}

impl<'ast> Visit<'ast> for PathCollector<'ast> {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if path.leading_colon.is_none() && is_crate_path(&segments) {
            self.paths.push(segments);
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_item(&mut self, item: &'ast syn::Item) {
        if is_test_only(item_attributes(item)) {
            return;
        }
        syn::visit::visit_item(self, item);
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.uses.push(&item.tree);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        scan_tokens(mac.tokens.clone(), &mut self.paths);
        syn::visit::visit_macro(self, mac);
    }
}

fn is_crate_path(segments: &[String]) -> bool {
    match segments.first().map(String::as_str) {
        Some("crate" | "self" | "super") => true,
        Some(_) => segments.len() >= 2,
        None => false,
    }
}

/// The `a::b::c` runs in a macro's tokens, which syn leaves unparsed.
fn scan_tokens(tokens: TokenStream, out: &mut Vec<Vec<String>>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut index = 0;
    let colons = |at: usize| {
        matches!((tokens.get(at), tokens.get(at + 1)),
            (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
                if a.as_char() == ':' && b.as_char() == ':' && a.spacing() == proc_macro2::Spacing::Joint)
    };
    while index < tokens.len() {
        match &tokens[index] {
            TokenTree::Group(group) => {
                scan_tokens(group.stream(), out);
                index += 1;
            }
            TokenTree::Ident(ident) => {
                let after_colons = index >= 2 && colons(index - 2);
                let mut segments = vec![ident.to_string()];
                let mut next = index + 1;
                while colons(next) {
                    match tokens.get(next + 2) {
                        Some(TokenTree::Ident(ident)) => {
                            segments.push(ident.to_string());
                            next += 3;
                        }
                        _ => break,
                    }
                }
                if !after_colons && is_crate_path(&segments) {
                    out.push(segments);
                }
                index = next.max(index + 1);
            }
            _ => index += 1,
        }
    }
}

fn item_attributes(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::ExternCrate(i) => &i.attrs,
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::ForeignMod(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Macro(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::TraitAlias(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Union(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// `#[cfg(test)]` (or a `cfg` that needs `test`, such as `all(test, ..)`).
fn is_test_only(attributes: &[syn::Attribute]) -> bool {
    attributes.iter().any(|attribute| {
        if !attribute.path().is_ident("cfg") {
            return false;
        }
        let Ok(list) = attribute.meta.require_list() else {
            return false;
        };
        let text = list.tokens.to_string();
        text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|word| word == "test")
            && !text.contains("not")
            && !text.contains("any")
    })
}

/// The value of `#[path = "..."]`.
fn path_attribute(attribute: &syn::Attribute) -> Option<String> {
    if !attribute.path().is_ident("path") {
        return None;
    }
    let syn::Meta::NameValue(value) = &attribute.meta else {
        return None;
    };
    match &value.value {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(text),
            ..
        }) => Some(text.value()),
        _ => None,
    }
}
