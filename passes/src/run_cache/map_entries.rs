//! A kernel's `acopy.tensor_maps`, parsed once per run for each value of the
//! attribute.

use std::{cell::RefCell, rc::Rc};

use acopy_manifest::TensorMapEntry;
use melior::ir::{Attribute, AttributeLike};
use rustc_hash::FxHashMap as HashMap;

use crate::scoped_memo::{self, Slot};

thread_local! {
    /// Parsed entries by attribute address.
    static ENTRIES: RefCell<Slot<HashMap<usize, Rc<[TensorMapEntry]>>>> = RefCell::default();
}

pub(super) fn scope() -> impl Sized {
    scoped_memo::enter(&ENTRIES)
}

/// The entries `parse` reads from `attribute`, parsed once per run: the
/// lowering and verification read a kernel's maps once per copy, and the
/// attribute changes only when a copy adds a map (a new attribute, so a new
/// key).
pub(crate) fn tensor_map_entries(
    attribute: Attribute,
    parse: impl FnOnce() -> Vec<TensorMapEntry>,
) -> Rc<[TensorMapEntry]> {
    let key = attribute.to_raw().ptr as usize;
    match scoped_memo::with(&ENTRIES, |memo| memo.get(&key).cloned()) {
        None => parse().into(),
        Some(Some(entries)) => entries,
        Some(None) => {
            let entries: Rc<[TensorMapEntry]> = parse().into();
            scoped_memo::with(&ENTRIES, |memo| memo.insert(key, entries.clone()));
            entries
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use acopy_manifest::{ElementType, TensorMapEntry};
    use melior::ir::Attribute;

    use super::tensor_map_entries;

    fn entry(param: u32) -> TensorMapEntry {
        TensorMapEntry::new(param, 0, ElementType::F32, vec![32, 32])
    }

    /// In a run, an attribute is parsed once and a new attribute again;
    /// outside one, every time.
    #[test]
    fn parsed_once_per_attribute_in_a_run() {
        let context = crate::context::create_context().expect("context");
        let first = Attribute::parse(&context, "[1 : i64]").expect("parses");
        let second = Attribute::parse(&context, "[2 : i64]").expect("parses");
        let parses = Cell::new(0);
        let parse = |param| {
            parses.set(parses.get() + 1);
            vec![entry(param)]
        };
        assert_eq!(tensor_map_entries(first, || parse(1))[0].param, 1);
        assert_eq!(tensor_map_entries(first, || parse(1))[0].param, 1);
        assert_eq!(parses.get(), 2, "no run: parsed every time");
        let _run = crate::run_cache::scope();
        assert_eq!(tensor_map_entries(first, || parse(1))[0].param, 1);
        assert_eq!(tensor_map_entries(first, || parse(9))[0].param, 1);
        assert_eq!(parses.get(), 3, "in a run: parsed once");
        assert_eq!(tensor_map_entries(second, || parse(2))[0].param, 2);
        assert_eq!(parses.get(), 4, "another attribute: parsed again");
    }
}
