//! Random marked loops whose copies are TMA multicasts (docs/pipelining.md,
//! "Multicast slots"): a kernel with `nvvm.cluster_dim` 2x1x1 or 2x2x1, a
//! copy with `collective_axes` x, y or xy over 2 or 4 CTAs (sometimes a
//! second copy, the CTA's own or a multicast too), S = 1..4, trip counts 0,
//! 1, below S and above (or a kernel argument), a copy-out or a reduction
//! body, sometimes the native form, sometimes inside an outer loop
//! (re-entry); the consumers are plain loads (no wgmma). Clean draws are
//! what P9 accepts (sm_90a, slices of a multiple of 128 bytes, or 8 × the
//! swizzle for a swizzled tile; S slots of the larger tiles pass 48 KiB), some
//! with a producer warp (docs/pipelining.md, "Multicast slots with a producer
//! warp"; not with the native form or an outer loop here). A faulty
//! draw has one of the forms P9 refuses, each with the text its located
//! error must hold (the judge checks it): `leader_tracked`, a producer warp
//! beside multicast copies over two groups (x and y of a 2x2x1 cluster), a cp.async chip, a chip without TMA multicast, or a
//! window whose rows the group size does not divide.

use crate::rng::Rng;

/// (type, bytes) of the element types a multicast tile is drawn with.
const ELEMENTS: [(&str, u64); 5] = [("f32", 4), ("f16", 2), ("bf16", 2), ("i8", 1), ("i32", 4)];

/// One drawn multicast loop: its text, the chip of its gpu.module, and
/// the text of the error `--acopy-verify` must report when a P9 fault was
/// drawn.
pub struct Drawn {
    pub text: String,
    pub chip: &'static str,
    pub refusal: Option<&'static str>,
}

/// The P9 fault drawn, if any (one at a time).
#[derive(Clone, Copy, PartialEq)]
enum Fault {
    None,
    LeaderTracked,
    Warp,
    CpAsync,
    NoMulticast,
    Slices,
}

impl Fault {
    fn draw(rng: &mut Rng) -> Fault {
        if !rng.fault(40) {
            return Fault::None;
        }
        *rng.pick(&[
            Fault::LeaderTracked,
            Fault::Warp,
            Fault::CpAsync,
            Fault::NoMulticast,
            Fault::Slices,
        ])
    }

    /// What P9's located error says for this fault.
    fn refusal(self) -> Option<&'static str> {
        match self {
            Fault::None => None,
            Fault::LeaderTracked => Some("pipelining a copy with leader_tracked is not supported"),
            Fault::Warp => Some("with producer = \"warp\" every multicast copy of the loop must have the same collective_axes"),
            Fault::CpAsync => Some("pipelining a copy with collective_axes is not supported"),
            Fault::NoMulticast => Some("has no TMA multicast"),
            Fault::Slices => Some("so the CTAs' slices would not fill the slot"),
        }
    }

    fn chip(self, rng: &mut Rng) -> &'static str {
        match self {
            // A CTA pair's chip, where leader_tracked is otherwise valid.
            Fault::LeaderTracked => "sm_100a",
            Fault::CpAsync => *rng.pick(&["sm_80", "sm_86", "sm_87", "sm_89"]),
            Fault::NoMulticast => *rng.pick(&["sm_120", "sm_120a", "sm_121a"]),
            _ => "sm_90a",
        }
    }
}

/// The cluster and a copy's collective axes: (cluster dims, axes, group size).
fn cluster(rng: &mut Rng, pair: bool) -> ([u32; 3], &'static str, u64) {
    if pair || rng.chance(40) {
        return ([2, 1, 1], "[\"x\"]", 2);
    }
    *rng.pick(&[
        ([2, 2, 1], "[\"x\"]", 2),
        ([2, 2, 1], "[\"y\"]", 2),
        ([2, 2, 1], "[\"x\", \"y\"]", 4),
    ])
}

/// One tile: rows, columns, its swizzle (0: none), whether it multicasts, and
/// its own collective axes when they are not the loop's.
struct Tile {
    rows: u64,
    cols: u64,
    swizzle: u64,
    multicast: bool,
    axes: Option<&'static str>,
}

impl Tile {
    /// A tile whose `group` slices each start where TMA needs (a multiple
    /// of 128 bytes, of 8 × the swizzle with one), or, for `Fault::Slices`,
    /// rows that `group` does not divide. A quarter of the multicast tiles
    /// are swizzled (rows of exactly 64 or 128 bytes); the larger ones take
    /// S slots past 48 KiB, into dynamic shared memory.
    fn draw(rng: &mut Rng, bytes: u64, group: u64, multicast: bool, uneven: bool) -> Tile {
        let swizzle = if multicast && !uneven && rng.chance(25) {
            *rng.pick(&[64u64, 128])
        } else {
            0
        };
        let row_bytes = if swizzle > 0 {
            swizzle
        } else {
            *rng.pick(&[64u64, 128, 256])
        };
        let cols = row_bytes / bytes;
        let rows = if !multicast {
            *rng.pick(&[1u64, 2, 4, 8, 16])
        } else if uneven {
            if group == 2 {
                *rng.pick(&[1u64, 3, 5])
            } else {
                *rng.pick(&[1u64, 2, 3, 6])
            }
        } else {
            // Rows of a slice: a multiple of what aligns its start.
            let align = if swizzle > 0 { 8 * swizzle } else { 128 };
            let least = (align / row_bytes).max(1);
            least * *rng.pick(&[1u64, 1, 2, 4, 8, 16]) * group
        };
        Tile {
            rows: rows.min(256),
            cols,
            swizzle,
            multicast,
            axes: None,
        }
    }
}

/// The loop's shape: everything drawn before the text is written.
struct Shape {
    chip: &'static str,
    fault: Fault,
    cluster: [u32; 3],
    axes: &'static str,
    element: &'static str,
    float: bool,
    tiles: Vec<Tile>,
    stages: i64,
    native: bool,
    outer: bool,
    reduce: bool,
    /// A producer warp (clean, or the fault's).
    warp: bool,
}

impl Shape {
    fn draw(rng: &mut Rng) -> Shape {
        let fault = Fault::draw(rng);
        let chip = fault.chip(rng);
        let (cluster, axes, group) = if fault == Fault::Warp {
            ([2, 2, 1], "[\"x\"]", 2)
        } else {
            cluster(rng, fault == Fault::LeaderTracked)
        };
        let (element, bytes) = *rng.pick(&ELEMENTS);
        let mut tiles = vec![Tile::draw(rng, bytes, group, true, fault == Fault::Slices)];
        if fault == Fault::Warp {
            // A second multicast over the other axis: another group.
            let mut other = Tile::draw(rng, bytes, 2, true, false);
            other.axes = Some("[\"y\"]");
            tiles.push(other);
        } else if rng.chance(35) {
            // A second copy: the CTA's own, or a multicast too.
            let multicast = rng.chance(40);
            tiles.push(Tile::draw(rng, bytes, group, multicast, false));
        }
        let warp = fault == Fault::Warp || (fault == Fault::None && rng.chance(30));
        // The warp schedule and the cp.async path have no native form here.
        let native = !warp
            && matches!(fault, Fault::None | Fault::Slices | Fault::NoMulticast)
            && rng.chance(25);
        Shape {
            chip,
            fault,
            cluster,
            axes,
            element,
            float: element.starts_with('f') || element.starts_with("bf"),
            tiles,
            stages: 1 + rng.below(4) as i64,
            native,
            outer: !warp && rng.chance(25),
            reduce: rng.chance(35),
            warp,
        }
    }

    fn tile_type(&self, tile: &Tile) -> String {
        format!("memref<{}x{}x{}, 3>", tile.rows, tile.cols, self.element)
    }

    fn src_type(&self, tile: &Tile) -> String {
        format!("memref<65536x{}x{}>", tile.cols, self.element)
    }

    /// The copy's attributes: the multicast axes, and the fault's
    /// `leader_tracked`.
    fn copy_attributes(&self, tile: &Tile) -> String {
        let mut attributes = vec!["oob_mode = \"promise_in_bounds\"".to_string()];
        if tile.swizzle > 0 {
            attributes.push(format!("swizzle = {} : i64", tile.swizzle));
        }
        if tile.multicast {
            attributes.push(format!(
                "collective_axes = {}",
                tile.axes.unwrap_or(self.axes)
            ));
            if self.fault == Fault::LeaderTracked {
                attributes.push("leader_tracked = \"replicated\"".to_string());
            }
        }
        format!("{{{}}}", attributes.join(", "))
    }
}

/// The loop's bounds, step and trip count: a constant lower bound of 0 or
/// 1 with a trip count of 0, 1, S-1, S, S+1, 2S+1 or 64, or a kernel argument
/// for the upper bound; a step of 1 or 2. Returns (lb, ub, step) names.
fn bounds(rng: &mut Rng, stages: i64, lines: &mut Vec<String>) -> (String, String, String) {
    let lb = *rng.pick(&[0i64, 1]);
    let step = *rng.pick(&[1i64, 1, 2]);
    lines.push(format!("    %lb = arith.constant {lb} : index"));
    lines.push(format!("    %step = arith.constant {step} : index"));
    let ub = if rng.chance(70) {
        let trips = *rng.pick(&[0, 1, stages - 1, stages, stages + 1, 2 * stages + 1, 64]);
        lines.push(format!(
            "    %ub = arith.constant {} : index",
            lb + trips * step
        ));
        "%ub".to_string()
    } else {
        "%n".to_string()
    };
    ("%lb".to_string(), ub, "%step".to_string())
}

/// The loop body's copies, wait and loads; returns the value it read.
fn body(shape: &Shape, rng: &mut Rng, indent: &str, lines: &mut Vec<String>) -> String {
    for (index, tile) in shape.tiles.iter().enumerate() {
        lines.push(format!(
            "{indent}%rows{index} = arith.constant {} : index",
            tile.rows
        ));
        if rng.chance(25) {
            lines.push(format!("{indent}%blk{index} = gpu.block_id x"));
            lines.push(format!(
                "{indent}%base{index} = arith.muli %i, %rows{index} : index"
            ));
            lines.push(format!(
                "{indent}%row{index} = arith.addi %base{index}, %blk{index} : index"
            ));
        } else {
            lines.push(format!(
                "{indent}%row{index} = arith.muli %i, %rows{index} : index"
            ));
        }
        let barrier = if shape.native {
            " barrier(%bar : memref<1xi64, 3>)"
        } else {
            ""
        };
        lines.push(format!(
            "{indent}acopy.copy_gmem_to_smem %src{index}[%row{index}, %c0] -> %tile{index}{barrier} {} : {} -> {}",
            shape.copy_attributes(tile),
            shape.src_type(tile),
            shape.tile_type(tile)
        ));
    }
    if shape.native {
        lines.push(format!("{indent}%since = arith.subi %i, %lb : index"));
        lines.push(format!("{indent}%k = arith.divui %since, %step : index"));
        lines.push(format!("{indent}%k2 = arith.remui %k, %c2 : index"));
        lines.push(format!("{indent}%kp = arith.index_cast %k2 : index to i1"));
        lines.push(format!(
            "{indent}acopy.barrier_wait %bar, %kp : memref<1xi64, 3>"
        ));
    } else {
        lines.push(format!(
            "{indent}acopy.wait_gmem_to_smem {{pending = 0 : i64}}"
        ));
    }
    let op = if shape.float { "addf" } else { "addi" };
    let mut value = "%v0".to_string();
    for (index, tile) in shape.tiles.iter().enumerate() {
        lines.push(format!(
            "{indent}%v{index} = memref.load %tile{index}[%c0, %c0] : {}",
            shape.tile_type(tile)
        ));
        if index > 0 {
            lines.push(format!(
                "{indent}%both = arith.{op} %v0, %v{index} : {}",
                shape.element
            ));
            value = "%both".to_string();
        }
    }
    value
}

/// A kernel around one marked loop whose first copy multicasts.
pub fn draw(rng: &mut Rng) -> Drawn {
    let shape = Shape::draw(rng);
    let mut lines = vec![
        "    %c0 = arith.constant 0 : index".to_string(),
        "    %c1 = arith.constant 1 : index".to_string(),
        "    %c2 = arith.constant 2 : index".to_string(),
        "    %tid = gpu.thread_id x".to_string(),
    ];
    let (lb, ub, step) = bounds(rng, shape.stages, &mut lines);
    let zero = if shape.float { "0.0" } else { "0" };
    lines.push(format!(
        "    %zero = arith.constant {zero} : {}",
        shape.element
    ));
    if shape.native {
        lines.push(format!(
            "    acopy.barrier_init %bar {{arrival_count = {} : i64}} : memref<1xi64, 3>",
            shape.tiles.len()
        ));
    }
    let indent = if shape.outer { "      " } else { "    " };
    if shape.outer {
        lines.push("    %rounds = arith.constant 3 : index".to_string());
        lines.push("    scf.for %r = %c0 to %rounds step %c1 {".to_string());
    }
    let out_type = format!("memref<65536x{}x{}>", shape.tiles[0].cols, shape.element);
    let element = shape.element;
    if shape.reduce {
        lines.push(format!(
            "{indent}%sum = scf.for %i = {lb} to {ub} step {step} iter_args(%acc = %zero) -> ({element}) {{"
        ));
    } else {
        lines.push(format!("{indent}scf.for %i = {lb} to {ub} step {step} {{"));
    }
    let inner = format!("{indent}  ");
    let value = body(&shape, rng, &inner, &mut lines);
    if shape.reduce {
        let op = if shape.float { "addf" } else { "addi" };
        lines.push(format!(
            "{inner}%next = arith.{op} %acc, {value} : {element}"
        ));
        lines.push(format!("{inner}scf.yield %next : {element}"));
    } else {
        lines.push(format!(
            "{inner}memref.store {value}, %out[%row0, %c0] : {out_type}"
        ));
    }
    let producer = if shape.warp {
        ", producer = \"warp\""
    } else {
        ""
    };
    lines.push(format!(
        "{indent}}} {{acopy.pipeline = {{stages = {} : i64{producer}}}}}",
        shape.stages
    ));
    if shape.reduce {
        lines.push(format!(
            "{indent}memref.store %sum, %out[%c0, %tid] : {out_type}"
        ));
    }
    if shape.outer {
        lines.push("    }".to_string());
    }
    lines.push("    gpu.return".to_string());
    Drawn {
        text: kernel(&shape, &lines, &out_type),
        chip: shape.chip,
        refusal: shape.fault.refusal(),
    }
}

/// The gpu.module around the kernel's `lines`.
fn kernel(shape: &Shape, lines: &[String], out_type: &str) -> String {
    let mut args: Vec<String> = shape
        .tiles
        .iter()
        .enumerate()
        .map(|(index, tile)| format!("%src{index}: {}", shape.src_type(tile)))
        .collect();
    args.push(format!("%out: {out_type}"));
    args.push("%n: index".to_string());
    let mut workgroup: Vec<String> = shape
        .tiles
        .iter()
        .enumerate()
        .map(|(index, tile)| format!("%tile{index}: {}", shape.tile_type(tile)))
        .collect();
    if shape.native {
        workgroup.push("%bar: memref<1xi64, 3>".to_string());
    }
    let [x, y, z] = shape.cluster;
    let mut attributes = vec![format!("nvvm.cluster_dim = array<i32: {x}, {y}, {z}>")];
    if shape.warp {
        attributes.push("known_block_size = array<i32: 128, 1, 1>".to_string());
    }
    format!(
        "gpu.module @m [#nvvm.target<chip = \"{}\">] {{\n  gpu.func @k({}) workgroup({}) kernel attributes {{{}}} {{\n{}\n  }}\n}}\n",
        shape.chip,
        args.join(", "),
        workgroup.join(", "),
        attributes.join(", "),
        lines.join("\n")
    )
}

#[cfg(test)]
mod tests {
    use crate::rng::Rng;

    /// Clean draws are multicast loops P9 takes: sm_90a, a cluster, a
    /// multicast copy, S in 1..=4, no refusal expected, some with a producer
    /// warp; faulty draws name the
    /// refusal; over many cases every cluster shape, both forms, re-entry
    /// and each fault occur.
    #[test]
    fn draws_cover_the_multicast_forms() {
        let (mut xy, mut y, mut native, mut outer, mut two) = (0, 0, 0, 0, 0);
        let mut warp = 0;
        let mut swizzled = 0;
        let mut refusals = std::collections::HashSet::new();
        for case in 0..600 {
            let mut rng = Rng::for_case(11, case);
            rng.clean = case % 2 == 0;
            let drawn = super::draw(&mut rng);
            let text = &drawn.text;
            assert!(text.contains("collective_axes = ["), "{text}");
            assert!(text.contains("nvvm.cluster_dim = array<i32: 2, "), "{text}");
            assert_eq!(
                text.matches('{').count(),
                text.matches('}').count(),
                "{text}"
            );
            if rng.clean {
                assert_eq!(drawn.chip, "sm_90a");
                assert!(drawn.refusal.is_none(), "{text}");
                assert!(!text.contains("leader_tracked"));
                warp += usize::from(text.contains("producer = \"warp\""));
            }
            let stages: i64 = text
                .split("acopy.pipeline = {stages = ")
                .nth(1)
                .and_then(|rest| rest.split(' ').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("no stages in {text}"));
            assert!((1..=4).contains(&stages), "{text}");
            xy += usize::from(text.contains("[\"x\", \"y\"]"));
            y += usize::from(text.contains("[\"y\"]"));
            native += usize::from(text.contains("acopy.barrier_wait"));
            outer += usize::from(text.contains("scf.for %r"));
            two += usize::from(text.contains("%tile1"));
            swizzled += usize::from(text.contains("swizzle = "));
            refusals.extend(drawn.refusal);
        }
        assert!(xy > 40 && y > 40 && native > 60 && outer > 80 && two > 100);
        assert!(swizzled > 60, "{swizzled} swizzled");
        assert!(warp > 40, "{warp} clean draws with a producer warp");
        assert_eq!(refusals.len(), 5, "{refusals:?}");
    }
}
