//! Remarks that carry their data ([`Detail`]) to the collector.
//!
//! [`emit_detail`] emits the remark at a fused location that wraps the op's
//! own and carries the data as `{acopy.detail = {...}}` metadata, for the
//! reason `rule.rs` gives: a diagnostic keeps its location on every thread
//! and through MLIR's parallel handler. The collector reads it back with
//! [`detail_at`]. The message is the data's `Display`, so a printed remark
//! and the data agree.

use acopy_expect::{
    AutoLimit, AutoStages, Detail, MulticastSlots, PipelinedLoop, TileSlots, WaitScheme,
};
use acopy_target::{Chip, CopyPath};
use melior::{
    ir::{
        attribute::StringAttribute,
        attribute::{ArrayAttribute, BoolAttribute, DictionaryAttribute, IntegerAttribute},
        Attribute, Location,
    },
    Context,
};

/// The metadata's key.
const KEY: &str = crate::ir::op_names::attributes::DETAIL;

/// Emits `detail` as a remark at `location`, with the data attached.
pub fn emit_detail(context: &Context, location: Location, detail: &Detail) {
    let message = detail.to_string();
    let text = format!("{{{KEY} = {}}}", encode(detail));
    match Attribute::parse(context, &text) {
        Some(metadata) => acopy_dialect::diagnostics::emit_remark(
            Location::fused(context, &[location], metadata),
            &message,
        ),
        None => {
            // The text is ours; failing to parse it is a bug, but the remark
            // itself must still reach the user.
            tracing::error!("internal error: cannot parse the remark's data {text}");
            acopy_dialect::diagnostics::emit_remark(location, &message)
        }
    }
}

/// The data [`emit_detail`] attached to `location`, if any.
pub(super) fn detail_at(location: Location) -> Option<Detail> {
    let inner = DictionaryAttribute::try_from(super::fused::metadata_entry(location, KEY)?).ok()?;
    decode(inner)
}

fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

fn path_name(path: CopyPath) -> &'static str {
    match path {
        CopyPath::CpAsync => "cp_async",
        CopyPath::Tma => "tma",
    }
}

fn encode(detail: &Detail) -> String {
    match detail {
        Detail::Pipelined(pipelined) => encode_pipelined(pipelined),
    }
}

/// The producer's entries: its block, its threads, the registers it moves
/// and whether the consumers release a warp at a time.
fn encode_producer(p: &PipelinedLoop, fields: &mut Vec<String>) {
    if let Some(block) = p.producer_block {
        fields.push(format!("producer_block = {block} : i64"));
    }
    if let Some(threads) = p.producer_threads {
        fields.push(format!("producer_threads = {threads} : i64"));
    }
    if let Some([launch, producer, consumers]) = p.registers {
        fields.push(format!(
            "registers = [{launch} : i64, {producer} : i64, {consumers} : i64]"
        ));
    }
    if p.warp_release {
        fields.push("warp_release".to_string());
    }
}

fn encode_pipelined(p: &PipelinedLoop) -> String {
    let mut fields = vec![
        "kind = \"pipelined\"".to_string(),
        format!("chip = {}", quoted(p.chip.name())),
        format!("path = \"{}\"", path_name(p.path)),
        format!("stages = {} : i64", p.stages),
        format!("requested = {} : i64", p.requested),
        format!("copies = {} : i64", p.copies),
    ];
    if let Some(trips) = p.trips {
        fields.push(format!("trips = {trips} : i64"));
    }
    if let Some(in_flight) = p.wgmma_in_flight {
        fields.push(format!("wgmma_in_flight = {in_flight} : i64"));
    }
    if let Some(wait) = p.released_at_wait {
        fields.push(format!("released_at_wait = {wait} : i64"));
    }
    encode_producer(p, &mut fields);
    if let Some(multicast) = &p.multicast {
        let [x, y, z] = multicast.cluster;
        let senders: Vec<String> = multicast
            .senders
            .iter()
            .map(|n| format!("{n} : i64"))
            .collect();
        fields.push(format!(
            "multicast = {{cluster = [{x} : i64, {y} : i64, {z} : i64], senders = [{}]}}",
            senders.join(", ")
        ));
    }
    if let Some(auto) = &p.auto {
        fields.push(format!(
            "auto = {{target = {} : i64, in_flight = {} : i64, limit = \"{}\"}}",
            auto.target_bytes,
            auto.in_flight_bytes,
            auto.limit.name()
        ));
    }
    let tiles: Vec<String> = p
        .tiles
        .iter()
        .map(|tile| {
            format!(
                "{{tile = {}, bytes = {} : i64, slot = {} : i64, align = {} : i64}}",
                quoted(&tile.tile),
                tile.tile_bytes,
                tile.slot_bytes,
                tile.align
            )
        })
        .collect();
    fields.push(format!("tiles = [{}]", tiles.join(", ")));
    match &p.sync {
        WaitScheme::WaitGroups { counts } => {
            let counts: Vec<String> = counts.iter().map(|n| format!("{n} : i64")).collect();
            fields.push(format!("waits = [{}]", counts.join(", ")));
        }
        WaitScheme::Barriers {
            barriers,
            arrivals,
            replaces_user_barrier,
        } => {
            fields.push(format!("barriers = {barriers} : i64"));
            fields.push(format!("arrivals = {arrivals} : i64"));
            fields.push(format!("replaces = {replaces_user_barrier}"));
        }
    }
    format!("{{{}}}", fields.join(", "))
}

fn int(dictionary: DictionaryAttribute, name: &str) -> Option<i64> {
    IntegerAttribute::try_from(dictionary.element_by_name(name)?)
        .ok()
        .map(|value| value.value())
}

fn small(dictionary: DictionaryAttribute, name: &str) -> Option<u32> {
    u32::try_from(int(dictionary, name)?).ok()
}

fn unsigned(dictionary: DictionaryAttribute, name: &str) -> Option<u64> {
    u64::try_from(int(dictionary, name)?).ok()
}

fn string<'c>(dictionary: DictionaryAttribute<'c>, name: &str) -> Option<&'c str> {
    let value = StringAttribute::try_from(dictionary.element_by_name(name)?).ok()?;
    Some(acopy_dialect::string_value(value))
}

fn array<'c>(dictionary: DictionaryAttribute<'c>, name: &str) -> Option<Vec<Attribute<'c>>> {
    let array = ArrayAttribute::try_from(dictionary.element_by_name(name)?).ok()?;
    (0..array.len())
        .map(|index| array.element(index).ok())
        .collect()
}

fn decode_auto(auto: DictionaryAttribute) -> Option<AutoStages> {
    Some(AutoStages {
        target_bytes: unsigned(auto, "target")?,
        in_flight_bytes: unsigned(auto, "in_flight")?,
        limit: AutoLimit::parse(string(auto, "limit")?)?,
    })
}

fn small_list(dictionary: DictionaryAttribute, name: &str) -> Option<Vec<u32>> {
    array(dictionary, name)?
        .into_iter()
        .map(|item| u32::try_from(IntegerAttribute::try_from(item).ok()?.value()).ok())
        .collect()
}

fn decode_multicast(multicast: DictionaryAttribute) -> Option<MulticastSlots> {
    let cluster = small_list(multicast, "cluster")?;
    Some(MulticastSlots {
        cluster: cluster.try_into().ok()?,
        senders: small_list(multicast, "senders")?,
    })
}

fn decode(dictionary: DictionaryAttribute) -> Option<Detail> {
    if string(dictionary, "kind")? != "pipelined" {
        return None;
    }
    let path = match string(dictionary, "path")? {
        "cp_async" => CopyPath::CpAsync,
        "tma" => CopyPath::Tma,
        _ => return None,
    };
    let tiles = array(dictionary, "tiles")?
        .into_iter()
        .map(|tile| {
            let tile = DictionaryAttribute::try_from(tile).ok()?;
            Some(TileSlots {
                tile: string(tile, "tile")?.to_string(),
                tile_bytes: unsigned(tile, "bytes")?,
                slot_bytes: unsigned(tile, "slot")?,
                align: unsigned(tile, "align")?,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let sync = match array(dictionary, "waits") {
        Some(counts) => WaitScheme::WaitGroups {
            counts: counts
                .into_iter()
                .map(|count| u32::try_from(IntegerAttribute::try_from(count).ok()?.value()).ok())
                .collect::<Option<Vec<_>>>()?,
        },
        None => WaitScheme::Barriers {
            barriers: small(dictionary, "barriers")?,
            arrivals: small(dictionary, "arrivals")?,
            replaces_user_barrier: BoolAttribute::try_from(dictionary.element_by_name("replaces")?)
                .ok()?
                .value(),
        },
    };
    Some(Detail::Pipelined(PipelinedLoop {
        chip: Chip::parse(string(dictionary, "chip")?).ok()?,
        path,
        stages: small(dictionary, "stages")?,
        requested: small(dictionary, "requested")?,
        auto: match dictionary.element_by_name("auto") {
            Some(auto) => Some(decode_auto(DictionaryAttribute::try_from(auto).ok()?)?),
            None => None,
        },
        trips: int(dictionary, "trips"),
        copies: small(dictionary, "copies")?,
        wgmma_in_flight: small(dictionary, "wgmma_in_flight"),
        released_at_wait: small(dictionary, "released_at_wait"),
        producer_block: small(dictionary, "producer_block"),
        producer_threads: small(dictionary, "producer_threads"),
        registers: match dictionary.element_by_name("registers") {
            Some(_) => Some(small_list(dictionary, "registers")?.try_into().ok()?),
            None => None,
        },
        warp_release: dictionary.element_by_name("warp_release").is_some(),
        multicast: match dictionary.element_by_name("multicast") {
            Some(multicast) => Some(decode_multicast(
                DictionaryAttribute::try_from(multicast).ok()?,
            )?),
            None => None,
        },
        tiles,
        sync,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::{Collector, Severity};

    fn sample(sync: WaitScheme, trips: Option<i64>) -> Detail {
        Detail::Pipelined(PipelinedLoop {
            chip: Chip::parse("sm_90").unwrap(),
            path: CopyPath::Tma,
            stages: 2,
            requested: 4,
            auto: None,
            trips,
            copies: 2,
            wgmma_in_flight: None,
            released_at_wait: None,
            producer_block: None,
            producer_threads: None,
            registers: None,
            warp_release: false,
            multicast: None,
            tiles: vec![TileSlots {
                tile: "memref<8x100xi8, \"odd\\name\">".into(),
                tile_bytes: 800,
                slot_bytes: 896,
                align: 128,
            }],
            sync,
        })
    }

    /// A sample whose stages `"auto"` chose, bounded by `limit`.
    fn auto_sample(limit: AutoLimit) -> Detail {
        let Detail::Pipelined(mut pipelined) =
            sample(WaitScheme::WaitGroups { counts: vec![2] }, None);
        pipelined.auto = Some(AutoStages {
            target_bytes: 49152,
            in_flight_bytes: 1600 + limit as u64,
            limit,
        });
        Detail::Pipelined(pipelined)
    }

    /// A sample whose slots a 2 x 2 cluster multicasts into.
    fn multicast_sample() -> Detail {
        let Detail::Pipelined(mut pipelined) = sample(
            WaitScheme::Barriers {
                barriers: 2,
                arrivals: 2,
                replaces_user_barrier: false,
            },
            None,
        );
        pipelined.multicast = Some(MulticastSlots {
            cluster: [2, 2, 1],
            senders: vec![4],
        });
        Detail::Pipelined(pipelined)
    }

    /// A sample with a producer warpgroup that moves registers.
    fn warpgroup_sample() -> Detail {
        let Detail::Pipelined(mut pipelined) = multicast_sample();
        pipelined.producer_block = Some(384);
        pipelined.producer_threads = Some(128);
        pipelined.registers = Some([168, 40, 232]);
        pipelined.warp_release = true;
        // Released at an earlier wait (an overlapped attention body's).
        pipelined.wgmma_in_flight = Some(1);
        pipelined.released_at_wait = Some(0);
        Detail::Pipelined(pipelined)
    }

    #[test]
    fn the_data_arrives_with_its_remark() {
        let context = Context::new();
        let collector = Collector::default();
        collector.attach(&context);
        let at = Location::new(&context, "k.mlir", 4, 5);
        let details = [
            sample(
                WaitScheme::Barriers {
                    barriers: 2,
                    arrivals: 2,
                    replaces_user_barrier: true,
                },
                Some(2),
            ),
            sample(
                WaitScheme::WaitGroups {
                    counts: vec![4, 2, 0],
                },
                None,
            ),
            sample(WaitScheme::WaitGroups { counts: vec![] }, Some(-1)),
            auto_sample(AutoLimit::Latency),
            auto_sample(AutoLimit::SharedMemory),
            auto_sample(AutoLimit::MaxStages),
            multicast_sample(),
            warpgroup_sample(),
        ];
        for detail in &details {
            emit_detail(&context, at, detail);
        }
        let got = collector.take();
        assert_eq!(got.len(), details.len());
        for (diagnostic, detail) in got.iter().zip(&details) {
            assert_eq!(diagnostic.severity, Severity::Remark);
            assert_eq!(diagnostic.position.as_ref().map(|p| p.line), Some(4));
            assert_eq!(diagnostic.message, detail.to_string());
            assert_eq!(diagnostic.detail.as_ref(), Some(detail));
        }
    }

    #[test]
    fn other_metadata_carries_no_detail() {
        let context = Context::new();
        let at = Location::new(&context, "k.mlir", 1, 1);
        assert_eq!(detail_at(at), None);
        for text in [
            "{acopy.detail = {kind = \"other\"}}",
            "{acopy.detail = 3 : i64}",
            "{acopy.detail = {kind = \"pipelined\", path = \"tma\"}}",
            "{other = 1 : i64}",
        ] {
            let forged = Attribute::parse(&context, text).unwrap();
            assert_eq!(
                detail_at(Location::fused(&context, &[at], forged)),
                None,
                "{text}"
            );
        }
    }
}
