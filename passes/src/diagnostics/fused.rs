//! Reading back what a diagnostic's location carries: acopy attaches data to a
//! diagnostic as the metadata dictionary of a fused location around the op's
//! own (a rule id, a remark's data), since that survives MLIR's threaded
//! diagnostic handler.

use melior::ir::{attribute::DictionaryAttribute, Attribute, AttributeLike, Location};

/// The entry `key` of `location`'s fused metadata, if it is a fused location
/// with a dictionary holding one.
pub(super) fn metadata_entry<'c>(location: Location<'c>, key: &str) -> Option<Attribute<'c>> {
    if !location.is_fused() {
        return None;
    }
    let metadata = location.fused_metadata();
    if metadata.to_raw().ptr.is_null() {
        return None;
    }
    DictionaryAttribute::try_from(metadata)
        .ok()?
        .element_by_name(key)
}
