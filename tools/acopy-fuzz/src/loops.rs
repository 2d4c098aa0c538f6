//! Random loops marked `acopy.pipeline` (docs/pipelining.md): random S, static
//! and dynamic bounds and steps, one or two copies, a copy-out or a
//! reduction body, sometimes inside an outer loop, on every chip; on TMA
//! chips sometimes in the native form (a barrier initialised before the loop,
//! then `barrier_wait`). Faults, one at a time, reach the pipeline rules:
//! a bad `stages`, no wait or a `pending` above 0, the tile read before the
//! wait or after the loop, a copy index loaded from memory, a store to the
//! copy's source, and in the native form a barrier used elsewhere or a
//! parity carried by the loop. Some loops are warp-specialized
//! (`producer = "warp"`, docs/pipelining.md "Warp specialization"): their
//! kernel declares a block of 32 to 256 threads, or as a fault none, a 2-D one
//! or one not a multiple of 32 (P17); an outer loop or the native form's init
//! before it reaches P18.

use crate::rng::Rng;

/// Chips whose copies are cp.async (the rest are TMA).
const CP_ASYNC_CHIPS: [&str; 4] = ["sm_80", "sm_86", "sm_87", "sm_89"];

/// (type, bytes) of the element types a pipelined tile is drawn with.
const ELEMENTS: [(&str, u64); 6] = [
    ("f32", 4),
    ("f16", 2),
    ("bf16", 2),
    ("i8", 1),
    ("i32", 4),
    ("f64", 8),
];

/// One drawn tile: its shape and element, and the names of its source and
/// its workgroup attribution.
struct Tile {
    rows: u64,
    cols: u64,
    element: &'static str,
    src: String,
    name: String,
}

impl Tile {
    fn draw(rng: &mut Rng, index: usize, element: (&'static str, u64)) -> Tile {
        let (element, bytes) = element;
        // An innermost run of 16 to 256 bytes and at most 256 elements: what
        // a TMA box and a cp.async chunk both take.
        let inner = *rng.pick(&[16u64, 32, 64, 128, 256]);
        let cols = (inner / bytes).clamp(1, 256);
        let rows = if rng.chance(5) {
            // Large: S of them can pass the chip's or the static limit (P10, P11).
            *rng.pick(&[64u64, 128, 256])
        } else {
            *rng.pick(&[1u64, 2, 3, 4, 8, 16])
        };
        Tile {
            rows,
            cols,
            element,
            src: format!("%src{index}"),
            name: format!("%tile{index}"),
        }
    }

    fn r#type(&self) -> String {
        format!("memref<{}x{}x{}, 3>", self.rows, self.cols, self.element)
    }

    fn src_type(&self) -> String {
        format!("memref<65536x{}x{}>", self.cols, self.element)
    }

    fn is_float(&self) -> bool {
        self.element.starts_with('f') || self.element.starts_with("bf")
    }
}

/// A bound or step: a constant, or a kernel argument.
fn bound(rng: &mut Rng, name: &str, constants: &[i64], lines: &mut Vec<String>) -> String {
    if rng.chance(40) {
        return format!("%{name}_arg");
    }
    let value = *rng.pick(constants);
    lines.push(format!("    %{name} = arith.constant {value} : index"));
    format!("%{name}")
}

/// A kernel whose body is one marked loop (inside an outer loop sometimes),
/// and the chip of its one gpu.module.
/// The induction variable's type: `index`, or `i32`/`i64`, signed or
/// `unsigned` (unsigned 64-bit is rule P13's refusal, drawn as a fault).
#[derive(Clone, Copy)]
struct Induction {
    bits: Option<u32>,
    unsigned: bool,
}

impl Induction {
    fn draw(rng: &mut Rng) -> Induction {
        if rng.chance(60) {
            return Induction {
                bits: None,
                unsigned: rng.fault(10),
            };
        }
        let bits = *rng.pick(&[32, 64]);
        let unsigned = if bits == 64 {
            rng.fault(10)
        } else {
            rng.chance(40)
        };
        Induction {
            bits: Some(bits),
            unsigned,
        }
    }

    fn keyword(self) -> &'static str {
        if self.unsigned {
            "unsigned "
        } else {
            ""
        }
    }

    fn suffix(self) -> String {
        self.bits
            .map_or(String::new(), |bits| format!(" : i{bits}"))
    }

    fn cast(self) -> &'static str {
        if self.unsigned {
            "arith.index_castui"
        } else {
            "arith.index_cast"
        }
    }

    /// The loop's bounds and step in the induction type (casts of the index
    /// values, made before the loop).
    fn bounds(
        self,
        lb: &str,
        ub: &str,
        step: &str,
        lines: &mut Vec<String>,
    ) -> (String, String, String) {
        let Some(bits) = self.bits else {
            return (lb.to_string(), ub.to_string(), step.to_string());
        };
        let mut cast = |name: &str, value: &str| {
            lines.push(format!(
                "    %{name}_iv = {} {value} : index to i{bits}",
                self.cast()
            ));
            format!("%{name}_iv")
        };
        (cast("lb", lb), cast("ub", ub), cast("step", step))
    }

    /// The induction variable's name: the body reads `%i`, an index, which
    /// an integer induction variable `%iv` is cast to.
    fn name(self) -> &'static str {
        if self.bits.is_some() {
            "%iv"
        } else {
            "%i"
        }
    }

    /// The cast of `%iv` to the body's `%i`, for an integer induction variable.
    fn to_index(self) -> Option<String> {
        self.bits
            .map(|bits| format!("%i = {} %iv : i{bits} to index", self.cast()))
    }
}

pub fn draw(rng: &mut Rng) -> (String, Vec<Option<String>>) {
    let chip = *rng.pick(&crate::chips::CHIPS);
    let tma = !CP_ASYNC_CHIPS.contains(&chip);
    let stages: i64 = if rng.fault(6) {
        *rng.pick(&[0, 9, -1, 1000])
    } else {
        1 + rng.below(8) as i64
    };
    let warp = rng.chance(20);
    let producer = if warp { ", producer = \"warp\"" } else { "" };
    let attribute = match rng.fault(3) {
        true => match rng.below(4) {
            0 => format!("{{acopy.pipeline = {{stages = {stages} : i32}}}}"),
            1 => format!("{{acopy.pipeline = {{stages = {stages} : i64, depth = 1 : i64}}}}"),
            2 => "{acopy.pipeline = {stages = \"fast\"}}".to_string(),
            _ => "{acopy.pipeline = 3 : i64}".to_string(),
        },
        // The pass's own choice (docs/pipelining.md, "Choosing the stages").
        false if rng.chance(15) => format!("{{acopy.pipeline = {{stages = \"auto\"{producer}}}}}"),
        false => format!("{{acopy.pipeline = {{stages = {stages} : i64{producer}}}}}"),
    };
    let block = match (warp, rng.fault(4)) {
        (false, _) => String::new(),
        (true, false) => format!(
            " attributes {{known_block_size = array<i32: {}, 1, 1>}}",
            rng.pick(&[32, 64, 128, 256])
        ),
        (true, true) => rng
            .pick(&[
                "",
                " attributes {known_block_size = array<i32: 64, 2, 1>}",
                " attributes {known_block_size = array<i32: 100, 1, 1>}",
                " attributes {nvvm.reqntid = array<i32: 1024>}",
            ])
            .to_string(),
    };
    let element = *rng.pick(&ELEMENTS);
    let copies = 1 + usize::from(rng.chance(35));
    let tiles: Vec<Tile> = (0..copies)
        .map(|index| Tile::draw(rng, index, element))
        .collect();
    let native = tma && rng.chance(30);
    let reduce = rng.chance(35);
    let outer = rng.chance(20);

    let mut lines = vec![
        "    %c0 = arith.constant 0 : index".to_string(),
        "    %c1 = arith.constant 1 : index".to_string(),
        "    %tid = gpu.thread_id x".to_string(),
        "    %true = arith.constant true".to_string(),
    ];
    let s = stages.max(1);
    let lb = bound(rng, "lb", &[0, 1, 5], &mut lines);
    let trips = [0, 1, 2, s - 1, s, s + 1, 2 * s + 1, 100, 1000];
    let ub = if rng.chance(50) && lb == "%lb" {
        // A constant trip count from a constant lower bound.
        let lb_value: i64 = lines
            .iter()
            .find_map(|line| line.strip_prefix("    %lb = arith.constant "))
            .and_then(|rest| rest.split(' ').next())
            .and_then(|value| value.parse().ok())
            .unwrap_or(0);
        let value = lb_value + *rng.pick(&trips);
        lines.push(format!("    %ub = arith.constant {value} : index"));
        "%ub".to_string()
    } else {
        bound(rng, "ub", &[0, 3, 7, 64, 1000], &mut lines)
    };
    let step = bound(rng, "step", &[1, 2, 3, 7], &mut lines);
    let induction = Induction::draw(rng);
    let (lb_iv, ub_iv, step_iv) = induction.bounds(&lb, &ub, &step, &mut lines);
    let zero = if tiles[0].is_float() {
        format!("arith.constant 0.0 : {}", tiles[0].element)
    } else {
        format!("arith.constant 0 : {}", tiles[0].element)
    };
    lines.push(format!("    %zero = {zero}"));
    let barrier = "%bar";
    if native {
        if !rng.fault(5) {
            let arrivals = if rng.fault(5) { copies + 1 } else { copies };
            lines.push(format!(
                "    acopy.barrier_init {barrier} {{arrival_count = {arrivals} : i64}} : memref<1xi64, 3>"
            ));
        }
        if rng.fault(4) {
            // The barrier used elsewhere too.
            lines.push(format!(
                "    acopy.barrier_wait {barrier}, %true : memref<1xi64, 3>"
            ));
        }
    }
    let indent = if outer { "      " } else { "    " };
    if outer {
        lines.push("    %rounds = arith.constant 3 : index".to_string());
        lines.push("    scf.for %r = %c0 to %rounds step %c1 {".to_string());
    }
    let carried = native && rng.fault(5);
    let (header, acc) = match (reduce, carried) {
        (true, _) => (
            format!(
                "{indent}%sum = scf.for {}{} = {lb_iv} to {ub_iv} step {step_iv} iter_args(%acc = %zero) -> ({}){} {{",
                induction.keyword(),
                induction.name(),
                tiles[0].element,
                induction.suffix()
            ),
            true,
        ),
        (false, true) => (
            format!(
                "{indent}%flag = scf.for {}{} = {lb_iv} to {ub_iv} step {step_iv} iter_args(%par = %true) -> (i1){} {{",
                induction.keyword(),
                induction.name(),
                induction.suffix()
            ),
            false,
        ),
        _ => (
            format!(
                "{indent}scf.for {}{} = {lb_iv} to {ub_iv} step {step_iv}{} {{",
                induction.keyword(),
                induction.name(),
                induction.suffix()
            ),
            false,
        ),
    };
    lines.push(header);
    let body = format!("{indent}  ");
    if let Some(cast) = induction.to_index() {
        lines.push(format!("{body}{cast}"));
    }
    for (index, tile) in tiles.iter().enumerate() {
        let rows = format!("%rows{index}");
        lines.push(format!(
            "{body}{rows} = arith.constant {} : index",
            tile.rows
        ));
        if rng.fault(4) {
            // An index the pass cannot recompute early (P7).
            lines.push(format!(
                "{body}%row{index} = memref.load %idx[%c0] : memref<64xindex>"
            ));
        } else if rng.chance(30) {
            lines.push(format!("{body}%blk{index} = gpu.block_id x"));
            lines.push(format!(
                "{body}%base{index} = arith.muli %i, {rows} : index"
            ));
            lines.push(format!(
                "{body}%row{index} = arith.addi %base{index}, %blk{index} : index"
            ));
        } else {
            lines.push(format!("{body}%row{index} = arith.muli %i, {rows} : index"));
        }
        if rng.fault(3) {
            // The tile read before the wait (P6).
            lines.push(format!(
                "{body}%early{index} = memref.load {}[%c0, %c0] : {}",
                tile.name,
                tile.r#type()
            ));
        }
        let with_barrier = if native {
            format!(" barrier({barrier} : memref<1xi64, 3>)")
        } else {
            String::new()
        };
        lines.push(format!(
            "{body}acopy.copy_gmem_to_smem {}[%row{index}, %c0] -> {}{with_barrier} {{oob_mode = \"promise_in_bounds\"}} : {} -> {}",
            tile.src,
            tile.name,
            tile.src_type(),
            tile.r#type()
        ));
    }
    if native {
        let parity = if carried {
            "%par".to_string()
        } else {
            // The phase of iteration k = (i - lb) / step, as the user would write it.
            lines.push(format!("{body}%since = arith.subi %i, {lb} : index"));
            lines.push(format!("{body}%k = arith.divui %since, {step} : index"));
            lines.push(format!("{body}%k2 = arith.remui %k, %c2 : index"));
            lines.push(format!("{body}%kp = arith.index_cast %k2 : index to i1"));
            "%kp".to_string()
        };
        lines.push(format!(
            "{body}acopy.barrier_wait {barrier}, {parity} : memref<1xi64, 3>"
        ));
    } else if !rng.fault(3) {
        let pending = if rng.fault(3) { 1 } else { 0 };
        lines.push(format!(
            "{body}acopy.wait_gmem_to_smem {{pending = {pending} : i64}}"
        ));
    }
    let mut value = String::new();
    for (index, tile) in tiles.iter().enumerate() {
        lines.push(format!(
            "{body}%v{index} = memref.load {}[%c0, %c0] : {}",
            tile.name,
            tile.r#type()
        ));
        value = if index == 0 {
            "%v0".to_string()
        } else {
            let op = if tile.is_float() { "addf" } else { "addi" };
            lines.push(format!(
                "{body}%both = arith.{op} %v0, %v{index} : {}",
                tile.element
            ));
            "%both".to_string()
        };
    }
    let out_type = format!("memref<65536x{}x{}>", tiles[0].cols, tiles[0].element);
    if rng.fault(3) {
        // A store to the first copy's source (P8).
        lines.push(format!(
            "{body}memref.store {value}, {}[%c0, %c0] : {}",
            tiles[0].src,
            tiles[0].src_type()
        ));
    }
    if acc {
        let op = if tiles[0].is_float() { "addf" } else { "addi" };
        lines.push(format!(
            "{body}%next = arith.{op} %acc, {value} : {}",
            tiles[0].element
        ));
        lines.push(format!("{body}scf.yield %next : {}", tiles[0].element));
    } else {
        lines.push(format!(
            "{body}memref.store {value}, %out[%row0, %c0] : {out_type}"
        ));
        if rng.chance(20) {
            lines.push(format!("{body}gpu.barrier"));
        }
        if carried {
            lines.push(format!("{body}%flip = arith.xori %par, %true : i1"));
            lines.push(format!("{body}scf.yield %flip : i1"));
        }
    }
    lines.push(format!("{indent}}} {attribute}"));
    if acc {
        lines.push(format!(
            "{indent}memref.store %sum, %out[%c0, %tid] : {out_type}"
        ));
    }
    if rng.fault(3) {
        // The tile read after the loop (P5).
        lines.push(format!(
            "{indent}%after = memref.load {}[%c0, %c0] : {}",
            tiles[0].name,
            tiles[0].r#type()
        ));
    }
    if outer {
        lines.push("    }".to_string());
    }
    lines.push("    gpu.return".to_string());

    let mut args: Vec<String> = tiles
        .iter()
        .map(|tile| format!("{}: {}", tile.src, tile.src_type()))
        .collect();
    args.push(format!("%out: {out_type}"));
    args.extend(
        ["%lb_arg: index", "%ub_arg: index", "%step_arg: index"]
            .iter()
            .map(|arg| arg.to_string()),
    );
    args.push("%idx: memref<64xindex>".to_string());
    let mut workgroup: Vec<String> = tiles
        .iter()
        .map(|tile| format!("{}: {}", tile.name, tile.r#type()))
        .collect();
    if native {
        workgroup.push(format!("{barrier}: memref<1xi64, 3>"));
    }
    // The native parity needs %c2; a constant nobody uses is harmless.
    lines.insert(1, "    %c2 = arith.constant 2 : index".to_string());
    let text = format!(
        "gpu.module @m [#nvvm.target<chip = \"{chip}\">] {{\n  gpu.func @k({}) workgroup({}) kernel{block} {{\n{}\n  }}\n}}\n",
        args.join(", "),
        workgroup.join(", "),
        lines.join("\n")
    );
    (text, vec![Some(chip.to_string())])
}

#[cfg(test)]
mod tests {
    use crate::rng::Rng;

    /// Clean draws are marked loops in the form the pipeliner takes: a mark
    /// with S in 1..=8, a wait (or, in the native form, a barrier_wait after an
    /// init), balanced braces; over many cases both paths, both forms, two
    /// copies and outer loops all occur.
    #[test]
    fn clean_draws_are_well_formed_marked_loops() {
        let (mut native, mut portable, mut two, mut outer) = (0, 0, 0, 0);
        let (mut narrow, mut unsigned32, mut auto, mut warp) = (0, 0, 0, 0);
        for case in 0..400 {
            let mut rng = Rng::for_case(7, case);
            rng.clean = true;
            let (text, chips) = super::draw(&mut rng);
            assert_eq!(chips.len(), 1);
            let mark = text
                .split("acopy.pipeline = {stages = ")
                .nth(1)
                .and_then(|rest| rest.split(['}', ' ', ',']).next())
                .unwrap_or_else(|| panic!("no mark in {text}"));
            if mark == "\"auto\"" {
                auto += 1;
            } else {
                let stages: u32 = mark.parse().unwrap_or_else(|_| panic!("{text}"));
                assert!((1..=8).contains(&stages), "{text}");
            }
            assert_eq!(
                text.matches('{').count(),
                text.matches('}').count(),
                "{text}"
            );
            if text.contains("acopy.barrier_wait") {
                assert!(
                    text.contains("acopy.barrier_init %bar {arrival_count"),
                    "{text}"
                );
                native += 1;
            } else {
                assert!(
                    text.contains("acopy.wait_gmem_to_smem {pending = 0 : i64}"),
                    "{text}"
                );
                portable += 1;
            }
            if text.contains("producer = \"warp\"") {
                warp += 1;
                assert!(
                    text.contains(" attributes {known_block_size = array<i32: "),
                    "a warp-specialized loop without a block in a clean case: {text}"
                );
            }
            two += usize::from(text.contains("%tile1"));
            outer += usize::from(text.contains("scf.for %r"));
            narrow += usize::from(text.contains(" : i32 {") || text.contains(" : i64 {"));
            unsigned32 +=
                usize::from(text.contains("scf.for unsigned") && text.contains(" : i32 {"));
            assert!(
                !text.contains("memref.load %idx"),
                "a fault in a clean case: {text}"
            );
            // Unsigned 64-bit induction values are P13's fault, never clean.
            assert!(
                !text.contains("scf.for unsigned") || text.contains(" : i32 {"),
                "a fault in a clean case: {text}"
            );
        }
        assert!(native > 20 && portable > 200 && two > 50 && outer > 40);
        assert!(narrow > 100 && unsigned32 >= 15, "{narrow} {unsigned32}");
        assert!(auto > 20, "stages = \"auto\" drawn {auto} times");
        assert!(warp > 40, "producer = \"warp\" drawn {warp} times");
    }
}
