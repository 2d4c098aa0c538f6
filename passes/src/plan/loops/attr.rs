//! The request: `{acopy.pipeline = {stages = S : i64}}` or
//! `{acopy.pipeline = {stages = "auto"}}` on an `scf.for`.

use melior::ir::{
    attribute::{DictionaryAttribute, IntegerAttribute, StringAttribute},
    operation::OperationLike,
    Attribute, AttributeLike, OperationRef, TypeLike,
};

/// The discardable attribute that marks a loop.
pub const PIPELINE: &str = acopy_dialect::builders::PIPELINE;
/// What the pass leaves on a loop it pipelined (so it is never pipelined twice).
pub const PIPELINED: &str = "acopy.pipelined";

/// The attribute, if `op` carries it.
pub fn request<'c>(op: OperationRef<'c, '_>) -> Option<Attribute<'c>> {
    if !op.has_attribute(PIPELINE) {
        return None;
    }
    op.attribute(PIPELINE).ok()
}

/// The stages a loop asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stages {
    /// `stages = S : i64`.
    Given(u32),
    /// `stages = "auto"`: the pass picks S from the chip and the tiles
    /// (`super::budget::auto_stages`).
    Auto,
}

/// The stage count the attribute asks for: a dictionary with exactly
/// `stages`, an integer in `[1, max_stages]` or the string `"auto"`.
pub fn stages(attribute: Attribute, max_stages: u32) -> Result<Stages, String> {
    let bad = || {
        format!(
            "acopy.pipeline must be a dictionary with one entry, stages = S : i64 with S in [1, {max_stages}] or stages = \"auto\", but it is {attribute}"
        )
    };
    let dictionary = DictionaryAttribute::try_from(attribute).map_err(|_| bad())?;
    if dictionary.len() != 1 {
        return Err(bad());
    }
    let stages = dictionary.element_by_name("stages").ok_or_else(bad)?;
    if let Ok(word) = StringAttribute::try_from(stages) {
        return match acopy_dialect::string_value(word) {
            "auto" => Ok(Stages::Auto),
            _ => Err(bad()),
        };
    }
    let stages = IntegerAttribute::try_from(stages).map_err(|_| bad())?;
    let value = stages.value();
    if !stages.r#type().is_integer() || value < 1 || value > i64::from(max_stages) {
        return Err(bad());
    }
    u32::try_from(value).map(Stages::Given).map_err(|_| bad())
}

/// The message for the attribute on an op that is not an `scf.for`.
pub fn not_a_loop(op: &OperationRef) -> String {
    format!(
        "acopy.pipeline marks scf.for loops only, but it is on '{}'",
        crate::ir::op_name(op)
    )
}
