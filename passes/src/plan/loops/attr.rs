//! The request: `{acopy.pipeline = {stages = S : i64}}` or
//! `{acopy.pipeline = {stages = "auto"}}` on an `scf.for`, optionally with
//! `producer = "warp"` (a warp-specialized schedule), `producer = "warpgroup"`
//! (the same with a whole producer warpgroup, which gives its registers to the
//! consumers; `producer_registers = R : i64` says how many a producer thread
//! keeps, 40 by default) or `producer = "block"` (the default: every thread
//! issues and consumes).

use melior::ir::{
    attribute::{DictionaryAttribute, IntegerAttribute, StringAttribute},
    operation::OperationLike,
    Attribute, AttributeLike, OperationRef, TypeLike,
};

/// The discardable attribute that marks a loop.
pub const PIPELINE: &str = acopy_dialect::builders::PIPELINE;
/// What the pass leaves on a loop it pipelined (so it is never pipelined twice).
pub const PIPELINED: &str = crate::ir::op_names::attributes::PIPELINED;

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

/// Who issues a marked loop's copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Producer {
    /// Every thread of the block issues and consumes (the default).
    Block,
    /// One extra warp issues the copies while the block's threads consume
    /// them, through full and empty barrier rings (docs/pipelining.md,
    /// "Warp specialization").
    Warp,
    /// One extra warpgroup of 128 threads does the producer warp's work, and
    /// hands registers to the consumers through `setmaxnreg`
    /// (docs/pipelining.md, "A producer warpgroup").
    Warpgroup,
}

impl Producer {
    /// How the attribute spells it (and the messages name what the pass adds).
    pub fn word(self) -> &'static str {
        match self {
            Producer::Block => "block",
            Producer::Warp => "warp",
            Producer::Warpgroup => "warpgroup",
        }
    }

    /// The threads the pass adds after the kernel's: none, a warp or a
    /// warpgroup. The kernel's block must be a whole number of them.
    pub fn threads(self) -> u32 {
        match self {
            Producer::Block => 0,
            Producer::Warp => super::loop_plan::PRODUCER_THREADS,
            Producer::Warpgroup => super::registers::PRODUCER_WARPGROUP_THREADS,
        }
    }
}

/// The entry that picks the producer.
pub const PRODUCER: &str = "producer";
/// The entry that sets what a producer warpgroup's threads keep.
pub const PRODUCER_REGISTERS: &str = "producer_registers";

/// P1's message for `attribute`.
fn malformed(attribute: Attribute, max_stages: u32) -> String {
    format!(
        "acopy.pipeline must be a dictionary with stages = S : i64 with S in [1, {max_stages}] or stages = \"auto\", and optionally producer = \"block\", \"warp\" or \"warpgroup\" (with \"warpgroup\", optionally producer_registers = R : i64, a multiple of 8 in [24, 256]), but it is {attribute}"
    )
}

/// The producer the attribute asks for (`Block` when it names none).
pub fn producer(attribute: Attribute, max_stages: u32) -> Result<Producer, String> {
    let bad = || malformed(attribute, max_stages);
    let dictionary = DictionaryAttribute::try_from(attribute).map_err(|_| bad())?;
    let Some(producer) = dictionary.element_by_name(PRODUCER) else {
        return Ok(Producer::Block);
    };
    let word = StringAttribute::try_from(producer).map_err(|_| bad())?;
    match acopy_dialect::string_value(word) {
        "block" => Ok(Producer::Block),
        "warp" => Ok(Producer::Warp),
        "warpgroup" => Ok(Producer::Warpgroup),
        _ => Err(bad()),
    }
}

/// What a producer warpgroup's threads keep after `setmaxnreg.dec`, when the
/// attribute says (`producer_registers = R : i64`, only with `producer =
/// "warpgroup"`, the attribute's `producer` as [`producer`] read it;
/// `setmaxnreg` takes multiples of 8 in [24, 256]).
pub fn producer_registers(
    attribute: Attribute,
    producer: Producer,
    max_stages: u32,
) -> Result<Option<u32>, String> {
    let bad = || malformed(attribute, max_stages);
    let dictionary = DictionaryAttribute::try_from(attribute).map_err(|_| bad())?;
    let Some(value) = dictionary.element_by_name(PRODUCER_REGISTERS) else {
        return Ok(None);
    };
    if producer != Producer::Warpgroup {
        return Err(bad());
    }
    let value = IntegerAttribute::try_from(value).map_err(|_| bad())?;
    match u32::try_from(value.value()) {
        Ok(keep) if value.r#type().is_integer() && (24..=256).contains(&keep) && keep % 8 == 0 => {
            Ok(Some(keep))
        }
        _ => Err(bad()),
    }
}

/// The stage count the attribute asks for: a dictionary with `stages`, an
/// integer in `[1, max_stages]` or the string `"auto"`, and at most a
/// `producer` besides.
pub fn stages(attribute: Attribute, max_stages: u32) -> Result<Stages, String> {
    let bad = || malformed(attribute, max_stages);
    let dictionary = DictionaryAttribute::try_from(attribute).map_err(|_| bad())?;
    let others = usize::from(dictionary.element_by_name(PRODUCER).is_some())
        + usize::from(dictionary.element_by_name(PRODUCER_REGISTERS).is_some());
    if dictionary.len() != 1 + others {
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

#[cfg(test)]
mod tests {
    use super::{producer, producer_registers, stages, Stages};
    use crate::context::create_context;
    use melior::ir::Attribute;

    /// `producer_registers` and `stages` of the attribute spelled `text`.
    fn read(text: &str) -> (Result<Option<u32>, String>, Result<Stages, String>) {
        let context = create_context().expect("the acopy dialect loads");
        let attribute = Attribute::parse(&context, text).expect("the test attribute parses");
        let keeps = producer(attribute, 8).and_then(|p| producer_registers(attribute, p, 8));
        (keeps, stages(attribute, 8))
    }

    #[test]
    fn a_producer_warpgroup_keeps_what_it_asks_for() {
        let (keep, stages) =
            read(r#"{stages = 2 : i64, producer = "warpgroup", producer_registers = 24 : i64}"#);
        assert_eq!(keep, Ok(Some(24)));
        assert_eq!(stages, Ok(Stages::Given(2)));
        for edge in [24, 32, 248, 256] {
            let text = format!(
                r#"{{stages = 2 : i64, producer = "warpgroup", producer_registers = {edge} : i64}}"#
            );
            assert_eq!(read(&text).0, Ok(Some(edge)), "{text}");
        }
        assert_eq!(
            read(r#"{stages = 2 : i64, producer = "warpgroup"}"#).0,
            Ok(None)
        );
    }

    #[test]
    fn producer_registers_is_refused_off_a_warpgroup_or_off_setmaxnregs_counts() {
        for text in [
            r#"{stages = 2 : i64, producer = "warp", producer_registers = 24 : i64}"#,
            r#"{stages = 2 : i64, producer_registers = 24 : i64}"#,
            r#"{stages = 2 : i64, producer = "warpgroup", producer_registers = 16 : i64}"#,
            r#"{stages = 2 : i64, producer = "warpgroup", producer_registers = 264 : i64}"#,
            r#"{stages = 2 : i64, producer = "warpgroup", producer_registers = 30 : i64}"#,
            r#"{stages = 2 : i64, producer = "warpgroup", producer_registers = -8 : i64}"#,
            r#"{stages = 2 : i64, producer = "warpgroup", producer_registers = "24"}"#,
        ] {
            let error = read(text).0.expect_err(text);
            assert!(error.contains("producer_registers = R : i64"), "{error}");
        }
    }
}
