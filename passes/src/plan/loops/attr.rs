//! The request: `{acopy.pipeline = {stages = S : i64}}` or
//! `{acopy.pipeline = {stages = "auto"}}` on an `scf.for`, optionally with
//! `producer = "warp"` (a warp-specialized schedule), `producer = "warpgroup"`
//! (the same with a whole producer warpgroup, which gives its registers to the
//! consumers; `producer_registers = R : i64` says how many a producer thread
//! keeps, 40 by default) or `producer = "block"` (the default: every thread
//! issues and consumes). With a producer, `release = "warp"` asks the
//! consumers to release each slot a warp at a time (`"thread"`, the default:
//! every consumer thread arrives; docs/pipelining.md, "Releases a warp at a
//! time").

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
/// The entry that says how the consumers release a slot.
pub const RELEASE: &str = "release";

/// How a producer's consumers release a slot to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Release {
    /// Every consumer thread arrives on the slot's empty barrier (the default).
    Thread,
    /// Lane 0 of each consumer warp arrives for its 32 lanes, after the warp
    /// meets (`bar.warp.sync`), where the chip has counted arrivals.
    Warp,
}

/// P1's message for `attribute`.
fn malformed(attribute: Attribute, max_stages: u32) -> String {
    format!(
        "acopy.pipeline must be a dictionary with stages = S : i64 with S in [1, {max_stages}] or stages = \"auto\", and optionally producer = \"block\", \"warp\" or \"warpgroup\" (with \"warpgroup\", optionally producer_registers = R : i64, a multiple of 8 in [24, 256]; with \"warp\" or \"warpgroup\", optionally release = \"thread\" or \"warp\"), but it is {attribute}"
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

/// How the consumers release a slot (`release`, only with `producer =
/// "warp"` or `"warpgroup"`, the attribute's `producer` as [`producer`] read
/// it; `Thread` when it says nothing).
pub fn release(
    attribute: Attribute,
    producer: Producer,
    max_stages: u32,
) -> Result<Release, String> {
    let bad = || malformed(attribute, max_stages);
    let dictionary = DictionaryAttribute::try_from(attribute).map_err(|_| bad())?;
    let Some(value) = dictionary.element_by_name(RELEASE) else {
        return Ok(Release::Thread);
    };
    if producer == Producer::Block {
        return Err(bad());
    }
    let word = StringAttribute::try_from(value).map_err(|_| bad())?;
    match acopy_dialect::string_value(word) {
        "thread" => Ok(Release::Thread),
        "warp" => Ok(Release::Warp),
        _ => Err(bad()),
    }
}

/// The stage count the attribute asks for: a dictionary with `stages`, an
/// integer in `[1, max_stages]` or the string `"auto"`, and at most a
/// `producer`, its `producer_registers` and a `release` besides.
pub fn stages(attribute: Attribute, max_stages: u32) -> Result<Stages, String> {
    let bad = || malformed(attribute, max_stages);
    let dictionary = DictionaryAttribute::try_from(attribute).map_err(|_| bad())?;
    let others = usize::from(dictionary.element_by_name(PRODUCER).is_some())
        + usize::from(dictionary.element_by_name(PRODUCER_REGISTERS).is_some())
        + usize::from(dictionary.element_by_name(RELEASE).is_some());
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
    use super::{producer, producer_registers, release, stages, Producer, Release, Stages};
    use crate::context::create_context;
    use melior::ir::Attribute;

    /// What `entry` reads (given the attribute's producer) and `stages` of the
    /// attribute spelled `text`.
    fn read_with<T>(
        text: &str,
        entry: impl Fn(Attribute, Producer) -> Result<T, String>,
    ) -> (Result<T, String>, Result<Stages, String>) {
        let context = create_context().expect("the acopy dialect loads");
        let attribute = Attribute::parse(&context, text).expect("the test attribute parses");
        let read = producer(attribute, 8).and_then(|p| entry(attribute, p));
        (read, stages(attribute, 8))
    }

    /// `producer_registers` and `stages` of the attribute spelled `text`.
    fn read(text: &str) -> (Result<Option<u32>, String>, Result<Stages, String>) {
        read_with(text, |attribute, p| producer_registers(attribute, p, 8))
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

    /// `release` and `stages` of the attribute spelled `text`.
    fn read_release(text: &str) -> (Result<Release, String>, Result<Stages, String>) {
        read_with(text, |attribute, p| release(attribute, p, 8))
    }

    #[test]
    fn a_producer_releases_as_asked_and_by_thread_by_default() {
        for (text, expected) in [
            (
                r#"{stages = 4 : i64, producer = "warp", release = "warp"}"#,
                Release::Warp,
            ),
            (
                r#"{stages = 4 : i64, producer = "warpgroup", release = "warp"}"#,
                Release::Warp,
            ),
            (
                r#"{stages = 4 : i64, producer = "warp", release = "thread"}"#,
                Release::Thread,
            ),
            (r#"{stages = 4 : i64, producer = "warp"}"#, Release::Thread),
            (r#"{stages = 4 : i64}"#, Release::Thread),
        ] {
            let (how, stages) = read_release(text);
            assert_eq!(how, Ok(expected), "{text}");
            assert_eq!(stages, Ok(Stages::Given(4)), "{text}");
        }
        // With producer_registers beside it: the entry count allows all three.
        let (how, stages) = read_release(
            r#"{stages = 2 : i64, producer = "warpgroup", producer_registers = 24 : i64, release = "warp"}"#,
        );
        assert_eq!((how, stages), (Ok(Release::Warp), Ok(Stages::Given(2))));
    }

    #[test]
    fn release_is_refused_without_a_producer_or_off_its_words() {
        for text in [
            r#"{stages = 2 : i64, release = "warp"}"#,
            r#"{stages = 2 : i64, producer = "block", release = "warp"}"#,
            r#"{stages = 2 : i64, producer = "warp", release = "lane"}"#,
            r#"{stages = 2 : i64, producer = "warp", release = 32 : i64}"#,
        ] {
            let error = read_release(text).0.expect_err(text);
            assert!(
                error.contains(r#"optionally release = "thread" or "warp""#),
                "{error}"
            );
        }
        // An unknown entry beside it is still an extra entry.
        let error = read_release(
            r#"{stages = 2 : i64, producer = "warp", release = "warp", extra = 1 : i64}"#,
        )
        .1
        .expect_err("an extra entry");
        assert!(
            error.starts_with("acopy.pipeline must be a dictionary"),
            "{error}"
        );
    }
}
