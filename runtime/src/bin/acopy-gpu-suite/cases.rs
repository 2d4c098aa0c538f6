//! The case table: what each GPU test kernel must do, how it is launched, and the host
//! reference its output is compared with. [`cases`] lists the groups in the order they
//! run; add a case to its group's function, or a row to its group's table of starts.

use acopy_runtime::manifest::ElementType;
use acopy_runtime::tensor_map::swizzled_offset;
use acopy_runtime::{Arg, LaunchConfig};
use serde::Serialize;

#[path = "wgmma_model.rs"]
mod wgmma_model;

/// Which lowering a case exercises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CopyPath {
    CpAsync,
    Tma,
}

impl CopyPath {
    pub fn as_str(self) -> &'static str {
        match self {
            CopyPath::CpAsync => "cp_async",
            CopyPath::Tma => "tma",
        }
    }

    /// The chip the case's PTX is built for.
    pub fn chip(self) -> &'static str {
        match self {
            CopyPath::CpAsync => "sm_80",
            CopyPath::Tma => "sm_90",
        }
    }
}

/// How a host buffer starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fill {
    /// Random bits (every byte pattern, NaNs included: copies must move bits exactly).
    Random,
    /// 0xFF in every byte, so that anything not written shows up.
    Poison,
    /// Random small integers as f32 (exact under addition); f32 only.
    SmallInts,
    /// Random integers in [-b, b] in the given element type (f16, bf16, f32, i8),
    /// so that products and sums of them are exact.
    SmallIntsOf(ElementType, i32),
}

/// What the reference function sees.
pub struct Data<'a> {
    pub src: &'a [u8],
    pub src_shape: &'a [u64],
    pub out_init: &'a [u8],
    pub out_shape: &'a [u64],
    pub elem_bytes: usize,
    /// The case's dynamic window starts (the kernel's `index` arguments).
    pub starts: &'a [i64],
}

/// One GPU test: kernel `kernel` of `<ptx dir>/<ptx>.ptx`, called as
/// `kernel(src, out, starts..., scalars...)` plus the tensor maps its manifest lists.
/// Kernels whose PTX name starts with `fb_` are built with `--acopy-fallback`
/// (tests/gpu/build-ptx.sh follows the same rule).
pub struct Case {
    pub name: &'static str,
    pub path: CopyPath,
    pub ptx: &'static str,
    pub kernel: &'static str,
    pub elem: ElementType,
    pub src: Vec<u64>,
    pub out: Vec<u64>,
    pub launch: LaunchConfig,
    /// Window starts passed as `index` arguments right after `src` and `out`, so that
    /// one kernel serves several cases and the compiler cannot see their alignment.
    pub starts: Vec<i64>,
    /// Trailing non-memref arguments after the starts, with their MLIR types.
    pub scalars: Vec<(Arg, &'static str)>,
    pub src_fill: Fill,
    pub out_fill: Fill,
    /// What the kernel must do, for the README / `--list`.
    pub what: String,
    /// What `out` must hold, for the README / `--list`.
    pub expect: &'static str,
    pub reference: fn(&Data) -> Vec<u8>,
    /// The chip the PTX is built for when it is not the path's (wgmma: sm_90a).
    pub chip: Option<&'static str>,
    /// The src memref's layout in the kernel's signature (`strided<[256, ?]>`);
    /// the suite passes row-major strides either way.
    pub src_layout: Option<&'static str>,
}

impl Case {
    fn new(
        name: &'static str,
        path: CopyPath,
        elem: ElementType,
        src: &[u64],
        out: &[u64],
        what: impl Into<String>,
        reference: fn(&Data) -> Vec<u8>,
    ) -> Case {
        Case {
            name,
            path,
            ptx: name,
            kernel: name,
            elem,
            src: src.to_vec(),
            out: out.to_vec(),
            launch: LaunchConfig::linear(1, 128),
            starts: Vec::new(),
            scalars: Vec::new(),
            src_fill: Fill::Random,
            out_fill: Fill::Poison,
            what: what.into(),
            expect: "the window",
            reference,
            chip: None,
            src_layout: None,
        }
    }

    fn src_layout(mut self, layout: &'static str) -> Case {
        self.src_layout = Some(layout);
        self
    }

    fn block(mut self, threads: u32) -> Case {
        self.launch.block = [threads, 1, 1];
        self
    }

    fn kernel(mut self, ptx_and_kernel: &'static str) -> Case {
        self.ptx = ptx_and_kernel;
        self.kernel = ptx_and_kernel;
        self
    }

    fn starts(mut self, starts: &[i64]) -> Case {
        self.starts = starts.to_vec();
        self
    }

    fn expect(mut self, expect: &'static str) -> Case {
        self.expect = expect;
        self
    }

    fn scalar(mut self, arg: Arg, ty: &'static str) -> Case {
        self.scalars.push((arg, ty));
        self
    }

    fn grid(mut self, grid: [u32; 3], cluster: [u32; 3]) -> Case {
        self.launch.grid = grid;
        self.launch.cluster = cluster;
        self
    }

    /// Built with `--acopy-fallback` (the `fb_` naming rule of tests/gpu/build-ptx.sh).
    pub fn fallback(&self) -> bool {
        self.ptx.starts_with("fb_")
    }

    /// The chip the PTX is built for, and the fallback flag when set.
    /// The chip its PTX is built for: the path's, unless the case names another.
    pub fn chip(&self) -> &'static str {
        self.chip.unwrap_or(self.path.chip())
    }

    pub fn chip_text(&self) -> String {
        if self.fallback() {
            format!("{}, --acopy-fallback", self.chip())
        } else {
            self.chip().to_string()
        }
    }

    /// Every kernel argument before the tensor maps: src, out, the starts, the scalars.
    pub fn args(&self, src: Arg, out: Arg) -> Vec<Arg> {
        let mut v = vec![src, out];
        v.extend(self.starts.iter().map(|&s| Arg::I64(s)));
        v.extend(self.scalars.iter().map(|(a, _)| a.clone()));
        v
    }

    pub fn out_elems(&self) -> u64 {
        self.out.iter().product()
    }

    pub fn out_bytes(&self) -> u64 {
        self.out_elems() * self.elem.bytes() as u64
    }

    pub fn src_bytes(&self) -> u64 {
        self.src.iter().product::<u64>() * self.elem.bytes() as u64
    }

    /// The gpu.func signature the kernel must have (tensor maps are appended by the
    /// lowering).
    pub fn signature(&self) -> String {
        let t = self.elem.mlir_name();
        let mr = |s: &[u64], layout: Option<&str>| {
            let dims: Vec<String> = s.iter().map(|d| d.to_string()).collect();
            let layout = layout
                .map(|layout| format!(", {layout}"))
                .unwrap_or_default();
            format!("memref<{}x{t}{layout}>", dims.join("x"))
        };
        let mut s = format!(
            "(%src: {}, %out: {}",
            mr(&self.src, self.src_layout),
            mr(&self.out, None)
        );
        for i in 0..self.starts.len() {
            s.push_str(&format!(", %s{i}: index"));
        }
        for (i, (_, ty)) in self.scalars.iter().enumerate() {
            let name = if *ty == "i1" {
                "pred".to_string()
            } else {
                format!("x{i}")
            };
            s.push_str(&format!(", %{name}: {ty}"));
        }
        s.push(')');
        s
    }

    pub fn launch_text(&self) -> String {
        let l = &self.launch;
        let mut s = format!("grid {} block {}", dims(&l.grid), dims(&l.block));
        if l.cluster != [1, 1, 1] {
            s.push_str(&format!(" cluster {}", dims(&l.cluster)));
        }
        s
    }
}

fn dims(d: &[u32; 3]) -> String {
    match d {
        [x, 1, 1] => x.to_string(),
        [x, y, 1] => format!("{x}x{y}"),
        [x, y, z] => format!("{x}x{y}x{z}"),
    }
}

use CopyPath::{CpAsync, Tma};
use ElementType::{BF16, F16, F32, F64, I8};

/// The sentinel the false-predicate kernel writes into shared memory first (7.0f32).
pub const SENTINEL_F32: f32 = 7.0;

/// Every case, in the order they run.
pub fn cases() -> Vec<Case> {
    let mut v = cp_async_cases();
    v.extend(tma_cases());
    v.extend(dynamic_start_cases());
    v.extend(swizzle_cases());
    v.extend(swizzled_index_cases());
    v.extend(swizzled_store_cases());
    v.extend(wide_tile_cases());
    v.extend(wgmma_cases());
    v.extend(pipe_multicast_cases());
    v
}

// ---- multicast copies in a marked loop (sm_90a) ----

/// `tests/gpu/kernels/pipe_mc_*.mlir` (tests/gpu/multicast/gen.py): a loop marked
/// acopy.pipeline whose copy has collective_axes over a 2x1x1 or 2x2x1 cluster, so
/// each CTA's slot fills from every CTA of its group (docs/pipelining.md, "Multicast
/// slots"). Block b writes each tile to `out[b]` twice over (out = tile, then out +=
/// tile after a delay in every CTA but cluster rank 0): `out[b] = 2 src`, exactly, unless
/// a peer refilled a slot a slow CTA still read. Two clusters along x.
/// (axes, stages, trips per entry, entries, tile rows), as gen.py's KERNELS.
const PIPE_MULTICAST: &[(&str, u64, u64, u64, u64)] = &[
    ("x", 2, 1, 1, 16),
    ("x", 2, 5, 1, 16),
    ("x", 3, 8, 1, 16),
    ("x", 4, 3, 1, 16),
    ("xy", 2, 5, 1, 16),
    ("xy", 3, 8, 1, 16),
    ("y", 3, 8, 1, 16),
    ("x", 2, 3, 2, 16),
    ("xy", 3, 4, 2, 16),
    ("x", 2, 4, 1, 64),
];

fn pipe_multicast_cases() -> Vec<Case> {
    PIPE_MULTICAST
        .iter()
        .map(|&(axes, stages, trips, entries, rows)| {
            pipe_multicast_case(axes, stages, trips, entries, rows)
        })
        .collect()
}

fn pipe_multicast_case(axes: &str, stages: u64, trips: u64, entries: u64, rows: u64) -> Case {
    let (collective, cluster) = match axes {
        "x" => ("[\"x\"]", [2, 1, 1]),
        "xy" => ("[\"x\", \"y\"]", [2, 2, 1]),
        _ => ("[\"y\"]", [2, 2, 1]),
    };
    let entry = if entries > 1 {
        format!("_e{entries}")
    } else {
        String::new()
    };
    let big = if rows > 16 { "_big" } else { "" };
    let name = leak(format!("pipe_mc_{axes}{big}{entry}_s{stages}_t{trips}"));
    let total = rows * trips * entries;
    let grid = [2 * cluster[0], cluster[1], cluster[2]];
    let blocks = u64::from(grid[0] * grid[1] * grid[2]);
    let mut c = Case::new(
        name,
        CopyPath::Tma,
        F32,
        &[total, 128],
        &[blocks, total, 128],
        format!(
            "nvvm.cluster_dim = {}x{}x1, collective_axes = {collective}: a loop marked \
             acopy.pipeline (S = {stages}, {trips} trip{}{}) copies src[{rows}j:{rows}j+{rows}] \
             by multicast; block b writes the tile to out[b], waits ~20000 cycles unless it \
             is cluster rank 0, and adds the tile again",
            cluster[0],
            cluster[1],
            if trips == 1 { "" } else { "s" },
            if entries > 1 {
                format!(" per entry, {entries} entries of an outer loop")
            } else {
                String::new()
            }
        ),
        |d| {
            let twice: Vec<u8> = d
                .src
                .chunks_exact(4)
                .flat_map(|bytes| {
                    let value = f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
                    (2.0 * value).to_le_bytes()
                })
                .collect();
            twice.repeat(d.out_shape[0] as usize)
        },
    )
    .grid(grid, cluster)
    .expect("out[b] = 2 src for every block (exact small integers)");
    c.src_fill = Fill::SmallIntsOf(F32, 1000);
    c.chip = Some("sm_90a");
    c
}

// ---- wgmma on swizzled TMA tiles (sm_90a) ----

/// `tests/gpu/kernels/wgmma_*.mlir` (tests/gpu/wgmma/gen.py): A (64 x K) and B (N x K)
/// copied by TMA into swizzled tiles and multiplied by `nvvm.wgmma.mma_async` through
/// `acopy.wgmma_descriptor`; out is D = A Bᵀ (host model: `wgmma_model`).
fn wgmma_cases() -> Vec<Case> {
    let mut v = Vec::new();
    for swizzle in [128u64, 64, 32] {
        for n in [64u64, 128, 256] {
            v.push(wgmma_case(F16, "f16", swizzle, n));
        }
    }
    v.push(wgmma_case(BF16, "bf16", 128, 128));
    v.push(wgmma_case(F32, "tf32", 128, 128));
    v.push(wgmma_case(I8, "i8", 128, 128));
    v.extend(wgmma_kloop_cases());
    v.push(wgmma_wide_case());
    v.extend(wgmma_mn_cases());
    v
}

/// `tests/gpu/kernels/*wgmma_*_bmn.mlir` (tests/gpu/wgmma/gen.py's `MN_CASES`): B stored
/// K x N (and in `_amn_bmn` A stored K x M) copied by TMA into swizzled tiles and read
/// MN-major through `acopy.wgmma_descriptor {major = "mn"}` with the transpose flags;
/// N wider than one span is column panels, read through the leading byte offset
/// (fb_, fallback mode). out is D = A B (host model: `wgmma_model::matmul_mn`).
fn wgmma_mn_cases() -> Vec<Case> {
    vec![
        wgmma_mn_case((F16, "f16"), 128, 64, false),
        wgmma_mn_case((BF16, "bf16"), 64, 32, false),
        wgmma_mn_case((F16, "f16"), 32, 16, false),
        wgmma_mn_case((F16, "f16"), 128, 128, false),
        wgmma_mn_case((F16, "f16"), 64, 128, false),
        wgmma_mn_case((F16, "f16"), 128, 64, true),
    ]
}

fn wgmma_mn_case(
    (elem, kind): (ElementType, &'static str),
    swizzle: u64,
    n: u64,
    a_mn: bool,
) -> Case {
    let eb = u64::from(elem.bytes());
    let k = if a_mn { 64 } else { swizzle / eb };
    let prefix = if n * eb > swizzle { "fb_" } else { "" };
    let majors = if a_mn { "_amn_bmn" } else { "_bmn" };
    let name = leak(format!("{prefix}wgmma_{kind}_s{swizzle}_n{n}{majors}"));
    let (src, a_text, b_row) = if a_mn {
        (
            [2 * k, n.max(64)],
            format!("A = src[0:{k}, 0:64] (stored K x M)"),
            k,
        )
    } else {
        ([64 + k, n.max(k)], format!("A = src[0:64, 0:{k}]"), 64)
    };
    let reference = wgmma_mn_reference(elem, a_mn);
    let panels = n * eb / swizzle;
    let mut c = Case::new(
        name,
        CopyPath::Tma,
        elem,
        &src,
        &[64, n],
        format!(
            "{a_text} and B = src[{b_row}:{}, 0:{n}] (stored K x N) by TMA into swizzle-{swizzle} \
             tiles{}, D = A B by {} wgmma m64n{n}k16 reading {} MN-major (acopy.wgmma_descriptor \
             {{major = \"mn\"}}, transpose flags)",
            b_row + k,
            match panels {
                1 => String::new(),
                _ => format!(" (B: {panels} column panels)"),
            },
            k / 16,
            if a_mn { "A and B" } else { "B" },
        ),
        reference,
    )
    .expect("D = A B with B stored K x N (exact small integers)");
    c.src_fill = Fill::SmallIntsOf(elem, if elem == BF16 { 2 } else { 4 });
    c.chip = Some("sm_90a");
    c
}

/// The host model of an MN-major case: D = A B of `elem` small integers, with A stored
/// K x M too when `a_mn`.
fn wgmma_mn_reference(elem: ElementType, a_mn: bool) -> fn(&Data) -> Vec<u8> {
    match (elem == BF16, a_mn) {
        (true, false) => wgmma_mn_product::<true, false>,
        (true, true) => wgmma_mn_product::<true, true>,
        (false, false) => wgmma_mn_product::<false, false>,
        (false, true) => wgmma_mn_product::<false, true>,
    }
}

/// D = A B of bf16 (else f16) small integers, out N wide in 2-byte elements; A
/// stored K x M too when `A_MN`.
fn wgmma_mn_product<const BF16: bool, const A_MN: bool>(d: &Data) -> Vec<u8> {
    use wgmma_model::*;
    let codec: (fn(&[u8]) -> f64, fn(f64) -> Vec<u8>) = if BF16 {
        (decode_bf16, encode_bf16)
    } else {
        (decode_f16, encode_f16)
    };
    let operands = if A_MN {
        MnOperands::AAndB
    } else {
        MnOperands::B
    };
    matmul_mn(
        d.src,
        d.src_shape,
        (d.out_shape[1] as usize, 2),
        codec,
        operands,
    )
}

/// `tests/gpu/kernels/wgmma_kloop_*.mlir` (tests/gpu/wgmma/gen.py): a marked K loop
/// of `trips` 64-wide K tiles of A (64 rows) and B (N rows), pipelined at S stages,
/// its wgmma left `w` groups in flight by the body's `wgmma.wait_group w`; the pass
/// refills a slot only after the wgmma that read it completed (docs/pipelining.md,
/// "Asynchronous consumers"). out is D = A Bᵀ over K = 64 trips, as f32: exact.
fn wgmma_kloop_cases() -> Vec<Case> {
    let mut v = Vec::new();
    for n in [64u64, 256] {
        for trips in [1u64, 2, 3, 8] {
            for stages in [2u64, 3, 4] {
                for in_flight in [0u64, 1] {
                    if stages > in_flight {
                        v.push(wgmma_kloop_case(
                            n,
                            trips,
                            stages,
                            in_flight,
                            Producer::Block,
                        ));
                        if n == 64 {
                            v.push(wgmma_kloop_case(
                                n,
                                trips,
                                stages,
                                in_flight,
                                Producer::Warp,
                            ));
                        }
                        if n == 64 && stages < 4 && trips != 2 {
                            v.push(wgmma_kloop_case(
                                n,
                                trips,
                                stages,
                                in_flight,
                                Producer::MulticastX,
                            ));
                        }
                        if n == 64 && in_flight == 1 && stages == 3 && trips >= 3 {
                            v.push(wgmma_kloop_case(
                                n,
                                trips,
                                stages,
                                in_flight,
                                Producer::MulticastXY,
                            ));
                        }
                        if n == 64 && in_flight == 1 && stages < 4 && trips != 2 {
                            v.push(wgmma_kloop_case(
                                n,
                                trips,
                                stages,
                                in_flight,
                                Producer::Persistent,
                            ));
                        }
                        if n == 64 && stages < 4 && trips != 2 {
                            for producer in [Producer::Warpgroup, Producer::Prologue] {
                                v.push(wgmma_kloop_case(n, trips, stages, in_flight, producer));
                            }
                        }
                    }
                }
            }
        }
    }
    v
}

/// How a K loop case is scheduled (tests/gpu/wgmma/gen.py's `producer`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Producer {
    Block,
    /// `producer = "warp"`, the `_ws` kernels: the pass adds a producer warp,
    /// so the case launches 160 threads.
    Warp,
    /// The `_ws` loop inside a persistent loop of 2 entries, the `_wsp` kernels.
    Persistent,
    /// The block schedule with A and B multicast over a 2x1x1 cluster
    /// (`collective_axes = ["x"]`), the `_mcx` kernels, launched as one cluster.
    MulticastX,
    /// The same over a 2x2x1 cluster (`["x", "y"]`), the `_mcxy` kernels.
    MulticastXY,
    /// `producer = "warpgroup"`, the `_wg` kernels: two consumer warpgroups
    /// (both store the same D) and the producer warpgroup the pass adds, which
    /// gives them registers with setmaxnreg, so the case launches 384 threads.
    Warpgroup,
    /// The `_wg` loop inside a persistent loop of 2 entries, each entry's first K
    /// tile loaded and multiplied before the loop by the consumers alone (a TMA
    /// load on a barrier of their own, 4 wgmma), the `_wgp` kernels: 384 threads.
    Prologue,
}

fn wgmma_kloop_case(n: u64, trips: u64, stages: u64, in_flight: u64, producer: Producer) -> Case {
    use wgmma_model::*;
    let ws = match producer {
        Producer::Block => "",
        Producer::Warp => "_ws",
        Producer::Persistent => "_wsp",
        Producer::MulticastX => "_mcx",
        Producer::MulticastXY => "_mcxy",
        Producer::Warpgroup => "_wg",
        Producer::Prologue => "_wgp",
    };
    let name: &'static str =
        Box::leak(format!("wgmma_kloop{ws}_n{n}_t{trips}_s{stages}_w{in_flight}").into_boxed_str());
    let k = 64 * trips;
    // The f32 results are counted in f16-sized elements: 2 per result.
    let mut c = Case::new(
        name,
        CopyPath::Tma,
        F16,
        &[64 + n, k],
        &[64, 2 * n],
        format!(
            "a loop marked acopy.pipeline (S = {stages}) over {trips} K tiles: A = src[0:64, 64k:64k+64] \
             and B = src[64:{}, 64k:64k+64] by TMA into swizzle-128 slots, 4 wgmma m64n{n}k16 \
             per tile through acopy.wgmma_descriptor, wgmma.wait_group {in_flight} in the body; \
             out = D = A Bᵀ (f32)",
            64 + n
        ),
        |d| matmul(d.src, d.src_shape, 2, decode_f16, encode_f32),
    )
    .expect("D = A Bᵀ over every K tile (exact small integers, f32)");
    c.src_fill = Fill::SmallIntsOf(F16, 4);
    c.chip = Some("sm_90a");
    match producer {
        Producer::Block => {}
        Producer::Warp | Producer::Persistent => c = c.block(160),
        Producer::Warpgroup => {
            c = c.block(384);
            c.what += "; producer = \"warpgroup\": two consumer warpgroups store the same D, \
                       the producer warpgroup's registers go to them (setmaxnreg)";
        }
        Producer::Prologue => {
            c = c.block(384);
            c.what += "; producer = \"warpgroup\" in a persistent loop of 2 entries, each \
                       entry's first K tile loaded by TMA on a barrier of the consumers' own \
                       and multiplied by them before the loop (code only the consumers run)";
        }
        // Every CTA of the cluster computes the same D and stores it.
        Producer::MulticastX => {
            c = c.grid([2, 1, 1], [2, 1, 1]);
            c.what += "; A and B multicast over the 2x1x1 cluster (collective_axes = [\"x\"]), \
                       every CTA stores the same D";
        }
        Producer::MulticastXY => {
            c = c.grid([2, 2, 1], [2, 2, 1]);
            c.what += "; A and B multicast over the 2x2x1 cluster (collective_axes = \
                       [\"x\", \"y\"]), every CTA stores the same D";
        }
    }
    c
}

fn wgmma_case(elem: ElementType, kind: &'static str, swizzle: u64, n: u64) -> Case {
    wgmma_panels_case(elem, kind, (swizzle, 1), n)
}

/// K = 128 f16 with swizzle = 128: A and B are tiles of 2 column panels (fallback mode,
/// docs/dialect.md "Wide tiles"), 8 wgmma m64n64k16 K steps, the last 4 in panel 1.
fn wgmma_wide_case() -> Case {
    wgmma_panels_case(F16, "f16", (128, 2), 64)
}

/// A and B of K = `panels` swizzle spans per row, read through acopy.wgmma_descriptor.
fn wgmma_panels_case(
    elem: ElementType,
    kind: &'static str,
    (swizzle, panels): (u64, u64),
    n: u64,
) -> Case {
    use wgmma_model::*;
    let k = panels * swizzle / u64::from(elem.bytes());
    let name: &'static str = match panels {
        1 => leak(format!("wgmma_{kind}_s{swizzle}_n{n}")),
        _ => leak(format!("fb_wgmma_{kind}_s{swizzle}_n{n}_k{k}")),
    };
    // i8 results are i32, stored as 4 bytes each; |D| <= K b^2 fits the output type.
    let (out, bound) = match elem {
        I8 => ([64, 4 * n], 127),
        BF16 => ([64, n], 2),
        _ => ([64, n], 4),
    };
    let reference: fn(&Data) -> Vec<u8> = match elem {
        F16 => |d| matmul(d.src, d.src_shape, 2, decode_f16, encode_f16),
        BF16 => |d| matmul(d.src, d.src_shape, 2, decode_bf16, encode_bf16),
        F32 => |d| matmul(d.src, d.src_shape, 4, decode_f32, encode_f32),
        _ => |d| matmul(d.src, d.src_shape, 1, decode_i8, encode_i32),
    };
    let steps = k / (32 / u64::from(elem.bytes()));
    let mut c = Case::new(
        name,
        CopyPath::Tma,
        elem,
        &[64 + n, k],
        &out,
        format!(
            "A = src[0:64, 0:{k}] and B = src[64:{}, 0:{k}] by TMA into swizzle-{swizzle} tiles{}, \
             D = A Bᵀ by {steps} wgmma m64n{n} K steps through acopy.wgmma_descriptor",
            64 + n,
            match panels {
                1 => String::new(),
                _ => format!(" of {panels} column panels"),
            }
        ),
        reference,
    )
    .expect("D = A Bᵀ of src's two blocks (exact small integers)");
    c.src_fill = Fill::SmallIntsOf(elem, bound);
    c.chip = Some("sm_90a");
    c
}

// ---- cp.async, PTX for sm_80 ----

fn cp_async_cases() -> Vec<Case> {
    let mut v = cp_async_window_cases();
    v.extend(cp_async_block_cases());
    v.push(cp_async_pending_case());
    v.push(cp_async_pipe_static_smem_case());
    v
}

/// One kernel per case: a window of each shape and element type.
fn cp_async_window_cases() -> Vec<Case> {
    vec![
        Case::new(
            "cp_async_full_tile",
            CpAsync,
            F32,
            &[64, 128],
            &[64, 128],
            "copy src[0:64, 0:128] (all of src) to smem, wait, write smem to out",
            |d| d.window(&[0, 0]),
        ),
        Case::new(
            "cp_async_window",
            CpAsync,
            F32,
            &[256, 512],
            &[32, 128],
            "copy the 32x128 window at (40, 200) to smem, wait, write smem to out",
            |d| d.window(&[40, 200]),
        ),
        Case::new(
            "cp_async_window_8b",
            CpAsync,
            F32,
            &[256, 512],
            &[32, 128],
            "copy the 32x128 window at (40, 130) (only 8-byte aligned) to smem, wait, write to out",
            |d| d.window(&[40, 130]),
        ),
        Case::new(
            "cp_async_3d",
            CpAsync,
            F32,
            &[16, 64, 96],
            &[4, 16, 32],
            "copy the 4x16x32 window at (3, 8, 32) to smem, wait, write smem to out",
            |d| d.window(&[3, 8, 32]),
        ),
        Case::new(
            "cp_async_f16",
            CpAsync,
            F16,
            &[128, 256],
            &[32, 64],
            "copy the 32x64 window at (32, 64) to smem, wait, write smem to out",
            |d| d.window(&[32, 64]),
        ),
        Case::new(
            "cp_async_bf16",
            CpAsync,
            BF16,
            &[128, 256],
            &[32, 64],
            "copy the 32x64 window at (32, 64) to smem, wait, write smem to out",
            |d| d.window(&[32, 64]),
        ),
        Case::new(
            "cp_async_i8",
            CpAsync,
            I8,
            &[128, 256],
            &[32, 128],
            "copy the 32x128 window at (16, 128) to smem, wait, write smem to out",
            |d| d.window(&[16, 128]),
        ),
        Case::new(
            "cp_async_f64",
            CpAsync,
            F64,
            &[128, 256],
            &[32, 32],
            "copy the 32x32 window at (32, 64) to smem, wait, write smem to out",
            |d| d.window(&[32, 64]),
        ),
    ]
}

/// One kernel without a known block size, launched with several.
fn cp_async_block_cases() -> Vec<Case> {
    let mut v = Vec::new();
    for threads in [32, 96, 128, 256] {
        let name: &'static str = match threads {
            32 => "cp_async_block32",
            96 => "cp_async_block96",
            128 => "cp_async_block128",
            _ => "cp_async_block256",
        };
        v.push(
            Case::new(
                name,
                CpAsync,
                F32,
                &[256, 512],
                &[64, 128],
                "one kernel for all block sizes (no known block size): copy the 64x128 window \
                 at (64, 128) to smem, wait, write smem to out with a block-stride loop",
                |d| d.window(&[64, 128]),
            )
            .kernel("cp_async_block")
            .block(threads),
        );
    }
    v
}

fn cp_async_pending_case() -> Case {
    Case::new(
        "cp_async_pending",
        CpAsync,
        F32,
        &[256, 512],
        &[4, 16, 128],
        "4 copies (4 groups): window i = src[64i : 64i+16, 128:256] into smem buffer i \
     (memref<16x128xf32, 3>); \
     wait_gmem_to_smem pending=2, write buffers 0,1 to out[0], out[1]; \
     wait pending=0, write buffers 2,3 to out[2], out[3]",
        |d| {
            let mut o = Vec::new();
            for i in 0..4 {
                o.extend(d.window_of(&[64 * i, 128], &[16, 128]));
            }
            o
        },
    )
    .expect("out[i] = window i")
}

// ---- TMA, PTX for sm_90 ----

fn tma_cases() -> Vec<Case> {
    let mut v = tma_load_cases();
    v.extend(tma_predicate_and_cluster_cases());
    v.extend(tma_store_and_rank5_cases());
    v
}

/// Constant windows: a tile, one past the edge, one swizzled.
fn tma_load_cases() -> Vec<Case> {
    vec![
        Case::new(
            "tma_tile_2d",
            Tma,
            F32,
            &[256, 512],
            &[64, 128],
            "barrier_init; copy the 64x128 window at (64, 128) with the barrier; barrier_wait \
         parity 0; write smem to out",
            |d| d.window(&[64, 128]),
        ),
        Case::new(
            "tma_edge_zeros",
            Tma,
            F32,
            &[200, 300],
            &[64, 128],
            "oob_mode zeros: copy the 64x128 window at (160, 256) (only 40x44 inside src), \
             wait, write smem to out",
            |d| d.window_zeros(&[160, 256]),
        )
        .expect("the window, zeros outside src"),
        Case::new(
            "tma_swizzle_128b",
            Tma,
            F32,
            &[256, 512],
            &[64, 32],
            "swizzle = 128: copy the 64x32 window at (64, 96) into a 1024-byte aligned \
             memref<64x32xf32, 3>, wait, write smem to out element by element in memory \
             order (out holds the raw swizzled bytes)",
            |d| swizzle(&d.window(&[64, 96]), 128),
        )
        .expect("the window, 16-byte chunks placed by SWIZZLE_128B"),
    ]
}

/// A false and a true predicate, and a multicast over a cluster of two.
fn tma_predicate_and_cluster_cases() -> Vec<Case> {
    vec![
        Case::new(
            "tma_pred_false",
            Tma,
            F32,
            &[256, 512],
            &[64, 128],
            "fill smem with 7.0 (plain stores + gpu.barrier); barrier_init; copy the 64x128 \
             window at (64, 128) with predicate %pred; barrier_wait parity 0 (must complete); \
             write smem to out",
            |d| d.filled(SENTINEL_F32.to_bits().to_le_bytes().as_slice()),
        )
        .kernel("tma_pred")
        .scalar(Arg::Pred(false), "i1")
        .expect("every element 7.0 (smem untouched)"),
        Case::new(
            "tma_pred_true",
            Tma,
            F32,
            &[256, 512],
            &[64, 128],
            "the tma_pred kernel with %pred = true",
            |d| d.window(&[64, 128]),
        )
        .kernel("tma_pred")
        .scalar(Arg::Pred(true), "i1"),
        Case::new(
            "tma_multicast",
            Tma,
            F32,
            &[256, 512],
            &[2, 64, 128],
            "nvvm.cluster_dim = 2x1x1, collective_axes = [\"x\"]: copy the 64x128 window at \
             (64, 128), wait; CTA with cluster rank r writes its smem to out[r]",
            |d| d.window_of(&[64, 128], &[64, 128]).repeat(2),
        )
        .grid([2, 1, 1], [2, 1, 1])
        .expect("out[0] = out[1] = the window"),
    ]
}

/// `tma_store` with an add reduction, on small integers (exact under addition).
fn tma_store_add_case() -> Case {
    let mut sa = Case::new(
        "tma_store_add",
        Tma,
        F32,
        &[64, 128],
        &[256, 512],
        "as tma_store with reduction_op = add: out[window] += smem",
        |d| d.stored(&[64, 128], true),
    )
    .expect("out_init + src on the window, out_init elsewhere");
    sa.src_fill = Fill::SmallInts;
    sa.out_fill = Fill::SmallInts;
    sa
}

/// Stores (plain and with an add reduction), and a rank-5 load.
fn tma_store_and_rank5_cases() -> Vec<Case> {
    vec![
        Case::new(
            "tma_store",
            Tma,
            F32,
            &[64, 128],
            &[256, 512],
            "fill smem from src (plain loads/stores, gpu.barrier); copy_smem_to_gmem smem -> \
             out at (64, 128); wait_smem_to_gmem",
            |d| d.stored(&[64, 128], false),
        )
        .expect("0xFF poison everywhere except the window = src"),
        tma_store_add_case(),
        Case::new(
            "tma_5d",
            Tma,
            F32,
            &[3, 4, 5, 16, 64],
            &[2, 2, 3, 8, 32],
            "copy the 2x2x3x8x32 window at (1, 1, 2, 4, 32), wait, write smem to out",
            |d| d.window(&[1, 1, 2, 4, 32]),
        ),
    ]
}

/// Cases whose window starts are kernel arguments: one kernel, several starts. The
/// innermost start times the element size decides whether TMA can take the start as it
/// is (a multiple of 16 bytes) or the lowering must take another path.
fn dynamic_start_cases() -> Vec<Case> {
    let mut v = tma_dynamic_load_cases();
    v.extend(tma_multicast_cases());
    v.extend(tma_dynamic_store_cases());
    v.extend(tma_two_phase_cases());
    v.extend(tma_pred_dyn_cases());
    v.extend(tma_warp_dynamic_cases());
    v.extend(fallback_cases());
    v
}

/// A loop pipelined with a producer warp at dynamic starts: misaligned, the
/// producer's one thread copies each tile with cp.async and completes the slot's
/// full barrier itself.
const TMA_WS_DYN: &[(&str, [i64; 2], &str)] = &[
    (
        "tma_ws_dyn_aligned",
        [64, 128],
        "aligned: column 128 is 512 bytes",
    ),
    (
        "tma_ws_dyn_col1",
        [64, 129],
        "misaligned: column 129 is 516 bytes",
    ),
    (
        "tma_ws_dyn_col2",
        [65, 130],
        "misaligned: column 130 is 520 bytes",
    ),
    (
        "tma_ws_dyn_col3",
        [66, 383],
        "misaligned: column 383 is 1532 bytes",
    ),
];

fn tma_warp_dynamic_cases() -> Vec<Case> {
    TMA_WS_DYN
        .iter()
        .map(|&(name, starts, note)| {
            Case::new(name, Tma, F32, &[256, 512], &[32, 128],
                format!("a loop of 4 trips marked acopy.pipeline (S = 3, producer = \"warp\"): the \
                         producer warp copies the 8x128 tile at ({} + 8i, {}) ({note}), the 128 consumers \
                         write it to rows 8i..8i+8 of out",
                    starts[0], starts[1]),
                |d| d.window_zeros(d.starts))
            .kernel("tma_ws_dyn")
            .starts(&starts)
            .block(160)
            .expect("the 32x128 window")
        })
        .collect()
}

// ---- TMA loads at dynamic starts (oob_mode zeros) ----

/// The f32 2-D window's starts: (case, starts, why the start is interesting).
const TMA_DYN_2D: &[(&str, [i64; 2], &str)] = &[
    (
        "tma_dyn_aligned",
        [64, 128],
        "aligned: column 128 is 512 bytes",
    ),
    (
        "tma_dyn_col1",
        [64, 129],
        "misaligned: column 129 is 516 bytes",
    ),
    (
        "tma_dyn_col2",
        [64, 130],
        "misaligned: column 130 is 520 bytes",
    ),
    (
        "tma_dyn_col3",
        [64, 131],
        "misaligned: column 131 is 524 bytes",
    ),
    (
        "tma_dyn_neg64",
        [100, -64],
        "negative, aligned: column -64 is -256 bytes; columns < 0 are zeros",
    ),
    (
        "tma_dyn_neg63",
        [100, -63],
        "negative, misaligned: column -63 is -252 bytes",
    ),
    (
        "tma_dyn_neg_both",
        [-10, -64],
        "negative in both dimensions, aligned",
    ),
    (
        "tma_dyn_edge",
        [230, 448],
        "partly past the edge, aligned: 26x64 of the window inside src",
    ),
    (
        "tma_dyn_edge_col1",
        [230, 449],
        "partly past the edge, misaligned: column 449 is 1796 bytes",
    ),
];

/// The bf16 2-D window's starts.
const TMA_DYN_BF16: &[(&str, [i64; 2], &str)] = &[
    (
        "tma_dyn_bf16_aligned",
        [32, 64],
        "aligned: column 64 is 128 bytes",
    ),
    (
        "tma_dyn_bf16_col3",
        [33, 67],
        "misaligned: column 67 is 134 bytes",
    ),
];

/// The bf16 window's starts in a src whose innermost stride is dynamic
/// (`strided<[256, ?]>`, passed as 1): the misaligned ones take the cp.async
/// branch, which plans contiguous rows (tests/lower/tma-dynamic-inner-stride.mlir).
const TMA_DYN_INNER: &[(&str, [i64; 2], &str)] = &[
    (
        "tma_dyn_inner_aligned",
        [32, 64],
        "aligned: column 64 is 128 bytes",
    ),
    (
        "tma_dyn_inner_col3",
        [33, 67],
        "misaligned: column 67 is 134 bytes",
    ),
    (
        "tma_dyn_inner_col1",
        [95, 193],
        "misaligned: column 193 is 386 bytes, the window runs past src's last row and column",
    ),
];

/// The 3-D window's starts.
const TMA_DYN_3D: &[(&str, [i64; 3], &str)] = &[
    (
        "tma_dyn_3d_aligned",
        [5, 17, 32],
        "aligned: column 32 is 128 bytes",
    ),
    (
        "tma_dyn_3d_col1",
        [5, 17, 33],
        "misaligned: column 33 is 132 bytes",
    ),
    (
        "tma_dyn_3d_edge",
        [10, 36, 80],
        "partly past the edge in every dimension, aligned",
    ),
];

fn tma_dynamic_load_cases() -> Vec<Case> {
    let mut v = Vec::new();
    for &(name, starts, note) in TMA_DYN_2D {
        v.push(
            Case::new(name, Tma, F32, &[256, 512], &[64, 128],
                format!("barrier; copy the 64x128 window at ({}, {}) ({note}), wait parity 0, write smem to out",
                    starts[0], starts[1]),
                |d| d.window_zeros(d.starts))
            .kernel("tma_dyn_2d")
            .starts(&starts)
            .expect("the window, zeros outside src"),
        );
    }
    for &(name, starts, note) in TMA_DYN_BF16 {
        v.push(
            Case::new(name, Tma, BF16, &[128, 256], &[32, 64],
                format!("barrier; copy the 32x64 bf16 window at ({}, {}) ({note}), wait, write smem to out",
                    starts[0], starts[1]),
                |d| d.window_zeros(d.starts))
            .kernel("tma_dyn_bf16")
            .starts(&starts)
            .expect("the window, zeros outside src"),
        );
    }
    for &(name, starts, note) in TMA_DYN_INNER {
        v.push(
            Case::new(name, Tma, BF16, &[128, 256], &[32, 64],
                format!("barrier; copy the 32x64 bf16 window at ({}, {}) ({note}) of a src with a dynamic \
                         innermost stride, wait, write smem to out",
                    starts[0], starts[1]),
                |d| d.window_zeros(d.starts))
            .kernel("tma_dyn_inner")
            .src_layout("strided<[256, ?]>")
            .starts(&starts)
            .expect("the window, zeros outside src"),
        );
    }
    for &(name, starts, note) in TMA_DYN_3D {
        v.push(
            Case::new(name, Tma, F32, &[12, 40, 96], &[4, 8, 32],
                format!("barrier; copy the 4x8x32 window at ({}, {}, {}) ({note}), wait, write smem to out",
                    starts[0], starts[1], starts[2]),
                |d| d.window_zeros(d.starts))
            .kernel("tma_dyn_3d")
            .starts(&starts)
            .expect("the window, zeros outside src"),
        );
    }
    v
}

/// Multicast over 2x2 clusters, 4 clusters per grid, along each axis set.
fn tma_multicast_cases() -> Vec<Case> {
    let mut v = Vec::new();
    for (kernel, axes) in [
        ("tma_mc_x", "[\"x\"]"),
        ("tma_mc_y", "[\"y\"]"),
        ("tma_mc_xy", "[\"x\", \"y\"]"),
    ] {
        for (suffix, starts, note) in [
            ("aligned", [64, 128], "aligned"),
            ("col3", [64, 131], "misaligned: column 131 is 524 bytes"),
        ] {
            let name: &'static str = Box::leak(format!("{kernel}_{suffix}").into_boxed_str());
            v.push(
                Case::new(name, Tma, F32, &[256, 512], &[16, 64, 128],
                    format!("nvvm.cluster_dim = 2x2x1, collective_axes = {axes}: the CTAs of a group \
                             share the load of the 64x128 window at ({}, {}) ({note}) and multicast it; \
                             wait; block (bx, by) writes its smem to out[4 * by + bx]",
                        starts[0], starts[1]),
                    |d| d.window_zeros_of(d.starts, &d.out_shape[1..]).repeat(d.out_shape[0] as usize))
                .kernel(kernel)
                .starts(&starts)
                .grid([4, 4, 1], [2, 2, 1])
                .expect("out[b] = the window for all 16 blocks"),
            );
        }
    }
    v
}

// ---- TMA stores at dynamic starts (they clip outside out) ----

/// The 2-D store's starts: (case, starts, why the start is interesting).
const TMA_STORE_DYN: &[(&str, [i64; 2], &str)] = &[
    ("tma_store_dyn_aligned", [64, 128], "aligned"),
    (
        "tma_store_dyn_col1",
        [64, 129],
        "misaligned: column 129 is 516 bytes",
    ),
    (
        "tma_store_dyn_negrow",
        [-10, 128],
        "negative row: the first 10 rows fall outside",
    ),
    (
        "tma_store_dyn_negcol",
        [64, -64],
        "negative column, aligned: the first 64 columns fall outside",
    ),
    (
        "tma_store_dyn_neg",
        [-10, -64],
        "negative, aligned: the first 10 rows and 64 columns fall outside",
    ),
    (
        "tma_store_dyn_neg_col1",
        [-10, -63],
        "negative, misaligned: column -63 is -252 bytes",
    ),
    (
        "tma_store_dyn_edge",
        [230, 448],
        "partly past the edge, aligned",
    ),
    (
        "tma_store_dyn_edge_col2",
        [230, 450],
        "partly past the edge, misaligned: column 450 is 1800 bytes",
    ),
];

/// The 3-D store's starts.
const TMA_STORE_3D: &[(&str, [i64; 3], &str)] = &[
    ("tma_store_3d", [4, 9, 16], "inside out"),
    (
        "tma_store_3d_edge",
        [8, 20, 48],
        "partly past the edge in every dimension",
    ),
    (
        "tma_store_3d_col1",
        [4, 9, 17],
        "misaligned: column 17 is 68 bytes",
    ),
];

fn tma_dynamic_store_cases() -> Vec<Case> {
    let mut v = Vec::new();
    for &(name, starts, note) in TMA_STORE_DYN {
        v.push(
            Case::new(
                name,
                Tma,
                F32,
                &[64, 128],
                &[256, 512],
                format!(
                    "fill smem from src; copy_smem_to_gmem smem -> out at ({}, {}) ({note}); \
                         wait_smem_to_gmem",
                    starts[0], starts[1]
                ),
                |d| d.stored_clipped(d.starts),
            )
            .kernel("tma_store_dyn")
            .starts(&starts)
            .expect("0xFF poison except the part of the window inside out = src"),
        );
    }
    for &(name, starts, note) in TMA_STORE_3D {
        v.push(
            Case::new(
                name,
                Tma,
                F32,
                &[3, 8, 32],
                &[10, 24, 64],
                format!(
                    "rank 3: fill smem from src; copy_smem_to_gmem smem -> out at ({}, {}, {}) \
                         ({note}); wait_smem_to_gmem",
                    starts[0], starts[1], starts[2]
                ),
                |d| d.stored_clipped(d.starts),
            )
            .kernel("tma_store_3d")
            .starts(&starts)
            .expect("0xFF poison except the part of the window inside out = src"),
        );
    }
    v
}

/// One barrier, two phases: the starts of both windows.
const TMA_TWO_PHASE: &[(&str, [i64; 4], &str)] = &[
    ("tma_two_phase", [64, 128, 130, 256], "both aligned"),
    (
        "tma_two_phase_col1",
        [64, 128, 130, 257],
        "the second misaligned: column 257 is 1028 bytes",
    ),
];

fn tma_two_phase_cases() -> Vec<Case> {
    let mut v = Vec::new();
    for &(name, starts, note) in TMA_TWO_PHASE {
        v.push(
            Case::new(name, Tma, F32, &[256, 512], &[2, 64, 128],
                format!("barrier_init; copy the 64x128 window at ({}, {}), wait parity 0, write smem \
                         to out[0]; gpu.barrier; copy the window at ({}, {}) ({note}) into the same \
                         smem with the same barrier, wait parity 1, write smem to out[1]",
                    starts[0], starts[1], starts[2], starts[3]),
                |d| {
                    let w = &d.out_shape[1..];
                    [d.window_zeros_of(&d.starts[0..2], w), d.window_zeros_of(&d.starts[2..4], w)].concat()
                })
            .kernel("tma_two_phase")
            .starts(&starts)
            .expect("out[0] = the first window, out[1] = the second"),
        );
    }
    v
}

/// A predicate at a dynamic, misaligned start.
fn tma_pred_dyn_cases() -> Vec<Case> {
    let mut v = Vec::new();
    for (name, pred) in [
        ("tma_pred_dyn_true_col1", true),
        ("tma_pred_dyn_false_col1", false),
    ] {
        let reference: fn(&Data) -> Vec<u8> = if pred {
            |d| d.window_zeros(d.starts)
        } else {
            |d| d.filled(SENTINEL_F32.to_bits().to_le_bytes().as_slice())
        };
        let c = Case::new(name, Tma, F32, &[256, 512], &[64, 128],
            format!("fill smem with 7.0; barrier_init; copy the 64x128 window at (64, 129) \
                     (misaligned: 516 bytes) with %pred = {pred}; barrier_wait parity 0; write smem to out"),
            reference)
        .kernel("tma_pred_dyn")
        .starts(&[64, 129])
        .scalar(Arg::Pred(pred), "i1");
        v.push(if pred {
            c.expect("the window")
        } else {
            c.expect("every element 7.0 (smem untouched)")
        });
    }
    v
}

// ---- fallback mode ----

/// The f32 window's starts on sm_80: (case, starts, why).
const FB_BARRIER: &[(&str, [i64; 2], &str)] = &[
    ("fb_barrier_aligned", [64, 128], "16-byte aligned"),
    ("fb_barrier_col1", [64, 129], "only 4-byte aligned"),
    (
        "fb_barrier_neg",
        [-5, -3],
        "negative: 5 rows and 3 columns outside src",
    ),
    (
        "fb_barrier_edge",
        [230, 450],
        "partly past the edge, only 8-byte aligned",
    ),
];

/// The f16 window's starts on sm_80.
const FB_F16: &[(&str, [i64; 2], &str)] = &[
    ("fb_f16_odd", [7, 17], "odd column: 2-byte aligned"),
    (
        "fb_f16_edge",
        [-1, 250],
        "row -1 and columns past 255 outside src",
    ),
];

fn fallback_cases() -> Vec<Case> {
    let mut v = fallback_barrier_cases();
    v.extend(fallback_pred_cases());
    v.push(fallback_tma_case());
    v
}

/// On sm_80 (cp.async) at dynamic starts: a barrier and zeros kept.
fn fallback_barrier_cases() -> Vec<Case> {
    let mut v = Vec::new();
    for &(name, starts, note) in FB_BARRIER {
        v.push(
            Case::new(
                name,
                CpAsync,
                F32,
                &[256, 512],
                &[64, 128],
                format!(
                    "barrier and oob_mode zeros kept by fallback mode: copy the 64x128 window at \
                         ({}, {}) ({note}), wait parity 0, write smem to out",
                    starts[0], starts[1]
                ),
                |d| d.window_zeros(d.starts),
            )
            .kernel("fb_cp_async_barrier")
            .starts(&starts)
            .expect("the window, zeros outside src"),
        );
    }
    for &(name, starts, note) in FB_F16 {
        v.push(
            Case::new(
                name,
                CpAsync,
                F16,
                &[128, 256],
                &[32, 64],
                format!(
                    "barrier and zeros kept by fallback mode: copy the 32x64 f16 window at \
                         ({}, {}) ({note}), wait parity 0, write smem to out",
                    starts[0], starts[1]
                ),
                |d| d.window_zeros(d.starts),
            )
            .kernel("fb_cp_async_f16")
            .starts(&starts)
            .expect("the window, zeros outside src"),
        );
    }
    v
}

/// On sm_80: a predicate, true and false, kept by fallback mode.
fn fallback_pred_cases() -> Vec<Case> {
    vec![
        Case::new("fb_pred_true", CpAsync, F32, &[256, 512], &[64, 128],
            "fill smem with 7.0; predicate and zeros kept by fallback mode: copy the 64x128 window \
             at (200, 387) (only 4-byte aligned, partly past the edge) if %pred; \
             wait_gmem_to_smem; write smem to out",
            |d| d.window_zeros(d.starts))
        .kernel("fb_cp_async_pred")
        .starts(&[200, 387])
        .scalar(Arg::Pred(true), "i1")
        .expect("the window, zeros outside src"),
        Case::new(
            "fb_pred_false",
            CpAsync,
            F32,
            &[256, 512],
            &[64, 128],
            "the fb_cp_async_pred kernel with %pred = false: nothing copied, the wait returns",
            |d| d.filled(SENTINEL_F32.to_bits().to_le_bytes().as_slice()),
        )
        .kernel("fb_cp_async_pred")
        .starts(&[64, 129])
        .scalar(Arg::Pred(false), "i1")
        .expect("every element 7.0 (smem untouched)"),
    ]
}

/// A constant misaligned TMA start under --acopy-fallback (sm_90).
fn fallback_tma_case() -> Case {
    Case::new(
        "fb_tma_const_misaligned",
        Tma,
        F32,
        &[256, 512],
        &[64, 128],
        "barrier; copy the 64x128 window at the constant start (37, 133) (column 133 is 532 \
         bytes), wait parity 0, write smem to out",
        |d| d.window(&[37, 133]),
    )
    .expect("the window")
}

// ---- swizzled tiles, the same bytes on both paths ----

/// The element types of the swizzle cases.
const SWIZZLE_TYPES: &[ElementType] = &[F16, BF16, F32, I8];

/// Every swizzle span × element type × path: kernels `fb_cp_async_swz<S>_<t>` (sm_80,
/// --acopy-fallback) and `tma_swz<S>_<t>` (sm_90) copy a 32-row window of one span per
/// row from a 48 x 5W/2 src (W = S / element bytes) into a poisoned tile and dump its
/// raw bytes (tests/gpu/README.md, "Swizzled tiles"). Three windows each: aligned
/// inside src at (8, W); ragged at (32, 2W), half its rows and columns outside
/// (zeros); and that window moved 4 bytes right, which no TMA instruction can take, so
/// the TMA kernel's run-time check sends it down the non-TMA (cp.async) path.
fn swizzle_cases() -> Vec<Case> {
    let mut v = Vec::new();
    for span in [32u64, 64, 128] {
        for &elem in SWIZZLE_TYPES {
            let ty = elem.mlir_name();
            let eb = elem.bytes() as u64;
            let w = span / eb;
            let windows: [(&str, [i64; 2], &str); 3] = [
                ("aligned", [8, w as i64], "inside src"),
                (
                    "ragged",
                    [32, 2 * w as i64],
                    "16 rows and W/2 columns inside src",
                ),
                (
                    "misaligned",
                    [32, (2 * w + 4 / eb) as i64],
                    "ragged, 4 bytes past 16-byte alignment",
                ),
            ];
            for path in [CpAsync, Tma] {
                let kernel = match path {
                    CpAsync => format!("fb_cp_async_swz{span}_{ty}"),
                    Tma => format!("tma_swz{span}_{ty}"),
                };
                for (which, starts, note) in windows {
                    v.push(swizzle_case(
                        &kernel,
                        path,
                        elem,
                        span,
                        (which, starts, note),
                    ));
                }
            }
        }
    }
    v
}

/// One swizzle case of kernel `kernel`: the window `(name suffix, starts, note)`.
fn swizzle_case(
    kernel: &str,
    path: CopyPath,
    elem: ElementType,
    span: u64,
    (which, starts, note): (&str, [i64; 2], &str),
) -> Case {
    let w = span / elem.bytes() as u64;
    let route = match (path, which) {
        (Tma, "misaligned") => "the non-TMA path (cp.async) on sm_90",
        (Tma, _) => "TMA",
        _ => "cp.async",
    };
    Case::new(
        leak(format!("{kernel}_{which}")),
        path,
        elem,
        &[48, 5 * w / 2],
        &[32, w],
        format!(
            "swizzle = {span}: poison the tile, copy the 32x{w} window at ({}, {}) ({note}) \
             with oob_mode zeros through {route}, write the tile's bytes to out in memory order",
            starts[0], starts[1]
        ),
        |d| {
            let span = d.out_shape[1] as u32 * d.elem_bytes as u32;
            crate::swizzle_model::tile_image(&d.window_zeros(d.starts), span)
        },
    )
    .kernel(leak(kernel.to_string()))
    .starts(&starts)
    .expect("the window, zeros outside src, its bytes placed by the swizzle model")
}

// ---- reading a swizzled tile logically (acopy.swizzled_index) ----

/// Kernels `<path>_swizzled_index_s128_f16` (tests/gpu/README.md, "Reading a swizzled
/// tile"): the 32x64 f16 window at (8, 64) of a 48 x 160 src, copied with swizzle = 128
/// on each path, then read element by element through `acopy.swizzled_index` and
/// `memref.load` into out, which must be the window itself (not the swizzled bytes the
/// `*_swz*` cases dump).
fn swizzled_index_cases() -> Vec<Case> {
    [CpAsync, Tma]
        .into_iter()
        .map(|path| {
            let (name, route) = match path {
                CpAsync => ("cp_async_swizzled_index_s128_f16", "cp.async"),
                Tma => ("tma_swizzled_index_s128_f16", "TMA"),
            };
            Case::new(
                name,
                path,
                F16,
                &[48, 160],
                &[32, 64],
                format!(
                    "swizzle = 128: poison the tile, copy the 32x64 window at (8, 64) through \
                     {route}, wait, then out[r, c] = tile[acopy.swizzled_index tile[r, c]] for \
                     every (r, c): the logical window"
                ),
                |d| d.window(d.starts),
            )
            .starts(&[8, 64])
            .expect("the window itself: the index undoes the swizzle the copy applied")
        })
        .collect()
}

// ---- swizzled stores (copy_smem_to_gmem with swizzle = S) ----

/// Kernels `tma_store_swz<S>_f16` (tests/gpu/README.md, "Swizzled stores"): a round trip
/// through a swizzled tile. The 32 x W f16 window (W = S / 2, one span per row) at
/// (s0, s1) of a 64 x 4W src is loaded with swizzle = S and stored with swizzle = S at
/// (s0 + 16, s1 + W) of out: aligned (TMA both ways) and 4 bytes past 16-byte alignment
/// (the load's cp.async path and the store's element-wise path, both through the
/// pattern). Then `tma_store_swz128_f16_threads`: a tile threads wrote at the pattern's
/// positions (computed in the kernel from the definition), stored with swizzle = 128.
fn swizzled_store_cases() -> Vec<Case> {
    let mut v = Vec::new();
    for span in [32u64, 64, 128] {
        let w = span / 2;
        let kernel = format!("tma_store_swz{span}_f16");
        for (which, starts, route) in [
            ("aligned", [8, w as i64], "TMA both ways"),
            (
                "misaligned",
                [8, w as i64 + 2],
                "column 4 bytes past 16-byte alignment: the load's cp.async path and the \
                 store's element-wise path",
            ),
        ] {
            v.push(
                Case::new(
                    leak(format!("{kernel}_{which}")),
                    Tma,
                    F16,
                    &[64, 4 * w],
                    &[64, 4 * w],
                    format!(
                        "swizzle = {span}: load the 32x{w} window at ({}, {}) into a swizzled \
                         tile, store it with swizzle = {span} at ({}, {}) of out ({route})",
                        starts[0],
                        starts[1],
                        starts[0] + 16,
                        starts[1] + w as i64
                    ),
                    |d| {
                        let w = d.out_shape[1] as i64 / 4;
                        let (from, to) = (d.starts, [d.starts[0] + 16, d.starts[1] + w]);
                        d.moved(from, &to, &[32, w as u64])
                    },
                )
                .kernel(leak(kernel.clone()))
                .starts(&starts)
                .expect("poison everywhere except the stored window = src's loaded window"),
            );
        }
    }
    for (which, starts, route) in [
        ("aligned", [8i64, 64i64], "a TMA store"),
        ("misaligned", [8, 66], "the element-wise path"),
    ] {
        v.push(
            Case::new(
                leak(format!("tma_store_swz128_f16_threads_{which}")),
                Tma,
                F16,
                &[64, 256],
                &[64, 256],
                format!(
                    "threads write src's 32x64 window at ({}, {}) into the tile at the 128-byte \
                     pattern's positions (byte o ^ ((o >> 3) & 0x70)); store it with swizzle = \
                     128 to the same window of out ({route})",
                    starts[0], starts[1]
                ),
                |d| d.moved(d.starts, d.starts, &[32, 64]),
            )
            .kernel("tma_store_swz128_f16_threads")
            .starts(&starts)
            .expect("poison everywhere except the window = src's: the store undid the swizzle"),
        );
    }
    v
}

// ---- wide tiles (fallback mode), the same bytes on both paths ----

/// docs/dialect.md, "Wide tiles": tiles wider than one swizzle span (column panels) and
/// windows longer than 256 rows (several boxes), loaded on both paths and compared byte
/// for byte with the host model, and a TMA store of 512 rows (tests/gpu/README.md,
/// "Wide tiles"). Every kernel is built with --acopy-fallback (`fb_`).
fn wide_tile_cases() -> Vec<Case> {
    let mut v = Vec::new();
    for (span, elem) in [(128u64, F16), (32, F32)] {
        for path in [CpAsync, Tma] {
            v.extend(panel_cases(path, elem, span));
        }
    }
    for path in [CpAsync, Tma] {
        v.extend(long_window_cases(path));
    }
    v.extend(long_store_cases());
    v
}

/// A 64-row tile of 256-byte rows, W elements each (2 panels of 128 bytes for f16 with
/// swizzle = 128, 8 panels of 32 for f32 with swizzle = 32), from a 96 x 5W/2 src:
/// inside src at (8, W/2), ragged at (64, 2W) (32 rows and W/2 columns inside: whole
/// panels of zeros), and that window 4 bytes further right (TMA's non-TMA path).
fn panel_cases(path: CopyPath, elem: ElementType, span: u64) -> Vec<Case> {
    let eb = elem.bytes() as u64;
    let w = 256 / eb;
    let ty = elem.mlir_name();
    let kernel = match path {
        CpAsync => format!("fb_cp_async_panels_s{span}_{ty}"),
        Tma => format!("fb_tma_panels_s{span}_{ty}"),
    };
    let windows: [(&str, [i64; 2], &str); 3] = [
        ("aligned", [8, (w / 2) as i64], "inside src"),
        (
            "ragged",
            [64, (2 * w) as i64],
            "32 rows and W/2 columns inside src",
        ),
        (
            "misaligned",
            [64, (2 * w + 4 / eb) as i64],
            "ragged, 4 bytes past 16-byte alignment",
        ),
    ];
    let reference: fn(&Data) -> Vec<u8> = match span {
        128 => |d| crate::swizzle_model::panel_image(&d.window_zeros(d.starts), 128, 64),
        _ => |d| crate::swizzle_model::panel_image(&d.window_zeros(d.starts), 32, 64),
    };
    windows
        .into_iter()
        .map(|(which, starts, note)| {
            Case::new(
                leak(format!("{kernel}_{which}")),
                path,
                elem,
                &[96, 5 * w / 2],
                &[64, w],
                format!(
                    "swizzle = {span}, rows of {} spans (column panels): poison the tile, copy                      the 64x{w} window at ({}, {}) ({note}) with oob_mode zeros, write the                      tile's bytes to out in memory order",
                    w * eb / span,
                    starts[0],
                    starts[1]
                ),
                reference,
            )
            .kernel(leak(kernel.clone()))
            .starts(&starts)
            .expect("the window, zeros outside src, placed in column panels, then swizzled")
        })
        .collect()
}

/// A 512 x 16 f32 window (2 TMA boxes of 256 rows) from a 640 x 48 src: inside at
/// (64, 16), ragged at (384, 40) (256 rows and 8 columns inside: the second box wholly
/// outside), and at (384, 41) (misaligned: TMA's non-TMA path).
fn long_window_cases(path: CopyPath) -> Vec<Case> {
    let kernel = match path {
        CpAsync => "fb_cp_async_rows512_f32",
        Tma => "fb_tma_rows512_f32",
    };
    let windows: [(&str, [i64; 2], &str); 3] = [
        ("aligned", [64, 16], "inside src"),
        ("ragged", [384, 40], "256 rows and 8 columns inside src"),
        ("misaligned", [384, 41], "ragged, column 41 is 164 bytes"),
    ];
    windows
        .into_iter()
        .map(|(which, starts, note)| {
            Case::new(
                leak(format!("{kernel}_{which}")),
                path,
                F32,
                &[640, 48],
                &[512, 16],
                format!(
                    "512 rows (2 boxes of 256 on TMA): poison the tile, copy the 512x16 window                      at ({}, {}) ({note}) with oob_mode zeros, write the tile to out",
                    starts[0], starts[1]
                ),
                |d| d.window_zeros(d.starts),
            )
            .kernel(kernel)
            .starts(&starts)
            .expect("the window, zeros outside src")
        })
        .collect()
}

/// A TMA store of a 512 x 16 f32 tile (2 boxes, one bulk group) into a 640 x 48 out.
fn long_store_cases() -> Vec<Case> {
    let windows: [(&str, [i64; 2], &str); 3] = [
        ("aligned", [64, 16], "inside out"),
        (
            "edge",
            [384, 32],
            "partly past the last row: the second box is clipped",
        ),
        (
            "misaligned",
            [64, 17],
            "column 17 is 68 bytes: element-wise stores",
        ),
    ];
    windows
        .into_iter()
        .map(|(which, starts, note)| {
            Case::new(
                leak(format!("fb_tma_store_rows512_f32_{which}")),
                Tma,
                F32,
                &[512, 16],
                &[640, 48],
                format!(
                    "fill smem from src; copy_smem_to_gmem smem -> out at ({}, {}) ({note});                      wait_smem_to_gmem",
                    starts[0], starts[1]
                ),
                |d| d.stored_clipped(d.starts),
            )
            .kernel("fb_tma_store_rows512_f32")
            .starts(&starts)
            .expect("0xFF poison except the part of the window inside out = src")
        })
        .collect()
}

/// A generated name as the `&'static str` the case table holds: the table is built a
/// few times per process and lives until it exits.
fn leak(name: String) -> &'static str {
    Box::leak(name.into_boxed_str())
}

impl Data<'_> {
    /// `out = src[offset + k]` over the out shape.
    pub fn window(&self, offset: &[i64]) -> Vec<u8> {
        self.window_at(offset, self.out_shape, false)
    }

    /// As `window`, with zeros where the window leaves src (on either side).
    pub fn window_zeros(&self, offset: &[i64]) -> Vec<u8> {
        self.window_at(offset, self.out_shape, true)
    }

    /// A window of a given shape.
    pub fn window_of(&self, offset: &[i64], shape: &[u64]) -> Vec<u8> {
        self.window_at(offset, shape, false)
    }

    /// A window of a given shape, with zeros where it leaves src.
    pub fn window_zeros_of(&self, offset: &[i64], shape: &[u64]) -> Vec<u8> {
        self.window_at(offset, shape, true)
    }

    fn window_at(&self, offset: &[i64], shape: &[u64], zero_oob: bool) -> Vec<u8> {
        window(
            self.src,
            self.src_shape,
            self.elem_bytes,
            offset,
            shape,
            zero_oob,
        )
    }

    /// out as it started, with src's window of `shape` at `from` written at `to` (a
    /// load followed by a store of the same tile; both windows inside their tensors).
    pub fn moved(&self, from: &[i64], to: &[i64], shape: &[u64]) -> Vec<u8> {
        let mut out = self.out_init.to_vec();
        let eb = self.elem_bytes;
        for_each_index(shape, |k, _| {
            let at = |start: &[i64]| -> Vec<u64> {
                k.iter().zip(start).map(|(&k, &s)| k + s as u64).collect()
            };
            let o = linear(&at(to), self.out_shape) as usize * eb;
            let s = linear(&at(from), self.src_shape) as usize * eb;
            out[o..o + eb].copy_from_slice(&self.src[s..s + eb]);
        });
        out
    }

    /// Every element of out equal to `elem`.
    pub fn filled(&self, elem: &[u8]) -> Vec<u8> {
        elem.repeat(self.out_init.len() / elem.len())
    }

    /// out as it started, with the src tile stored (or added, f32) at `offset`.
    pub fn stored(&self, offset: &[i64], add: bool) -> Vec<u8> {
        self.store_at(offset, add, false)
    }

    /// out as it started, with the part of the src tile that lands inside out stored at
    /// `offset`: a TMA store writes nothing outside the tensor, on either side.
    pub fn stored_clipped(&self, offset: &[i64]) -> Vec<u8> {
        self.store_at(offset, false, true)
    }

    fn store_at(&self, offset: &[i64], add: bool, clip: bool) -> Vec<u8> {
        assert_eq!(offset.len(), self.out_shape.len(), "offset rank");
        let mut out = self.out_init.to_vec();
        let eb = self.elem_bytes;
        for_each_index(self.src_shape, |k, lin| {
            let Some(at) = inside(k, offset, self.out_shape) else {
                assert!(clip, "case table: store leaves out at {k:?} + {offset:?}");
                return;
            };
            let o = linear(&at, self.out_shape) as usize * eb;
            let s = lin as usize * eb;
            if add {
                let a = f32::from_le_bytes(out[o..o + 4].try_into().unwrap());
                let b = f32::from_le_bytes(self.src[s..s + 4].try_into().unwrap());
                out[o..o + 4].copy_from_slice(&(a + b).to_le_bytes());
            } else {
                out[o..o + eb].copy_from_slice(&self.src[s..s + eb]);
            }
        });
        out
    }
}

/// `offset + k` when every coordinate lies inside `shape`.
fn inside(k: &[u64], offset: &[i64], shape: &[u64]) -> Option<Vec<u64>> {
    k.iter()
        .zip(offset)
        .zip(shape)
        .map(|((&k, &o), &d)| {
            let at = k as i128 + o as i128;
            (0..d as i128).contains(&at).then_some(at as u64)
        })
        .collect()
}

fn linear(idx: &[u64], shape: &[u64]) -> u64 {
    idx.iter().zip(shape).fold(0, |acc, (i, d)| acc * d + i)
}

fn for_each_index(shape: &[u64], mut f: impl FnMut(&[u64], u64)) {
    let n: u64 = shape.iter().product();
    let mut k = vec![0u64; shape.len()];
    for lin in 0..n {
        f(&k, lin);
        for d in (0..shape.len()).rev() {
            k[d] += 1;
            if k[d] < shape[d] {
                break;
            }
            k[d] = 0;
        }
    }
}

/// `win[k] = src[offset + k]`, row-major; offsets may be negative. A window of lower
/// rank than src has leading length-1 dimensions. Elements outside src are zero when
/// `zero_oob`; otherwise that is a mistake in the case table.
pub fn window(
    src: &[u8],
    src_shape: &[u64],
    eb: usize,
    offset: &[i64],
    win: &[u64],
    zero_oob: bool,
) -> Vec<u8> {
    assert_eq!(offset.len(), src_shape.len(), "offset rank");
    let mut full = vec![1u64; src_shape.len() - win.len()];
    full.extend_from_slice(win);
    let mut out = Vec::with_capacity(full.iter().product::<u64>() as usize * eb);
    for_each_index(&full, |k, _| match inside(k, offset, src_shape) {
        Some(at) => {
            let s = linear(&at, src_shape) as usize * eb;
            out.extend_from_slice(&src[s..s + eb]);
        }
        None => {
            assert!(
                zero_oob,
                "case table: window leaves src at {k:?} + {offset:?}"
            );
            out.extend(std::iter::repeat_n(0u8, eb));
        }
    });
    out
}

/// Shared-memory image of a box under a TMA swizzle: byte `i` of the logical box lands at
/// `swizzled_offset(i)`.
pub fn swizzle(logical: &[u8], swizzle_bytes: u32) -> Vec<u8> {
    let mut out = vec![0u8; logical.len()];
    for (i, &b) in logical.iter().enumerate() {
        out[swizzled_offset(i, swizzle_bytes)] = b;
    }
    out
}

/// Elements that differ, comparing `elem_bytes` at a time.
pub fn count_wrong(got: &[u8], want: &[u8], elem_bytes: usize) -> u64 {
    if got.len() != want.len() {
        return (want.len().max(got.len()) / elem_bytes) as u64;
    }
    got.chunks(elem_bytes)
        .zip(want.chunks(elem_bytes))
        .filter(|(a, b)| a != b)
        .count() as u64
}

/// First `n` differing elements, as (index, got, want) hex strings.
pub fn first_mismatches(got: &[u8], want: &[u8], eb: usize, n: usize) -> Vec<String> {
    got.chunks(eb)
        .zip(want.chunks(eb))
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .take(n)
        .map(|(i, (a, b))| format!("[{i}] got {} want {}", hex(a), hex(b)))
        .collect()
}

fn hex(b: &[u8]) -> String {
    b.iter().rev().map(|x| format!("{x:02x}")).collect()
}

/// A small xorshift64* generator, seeded through splitmix64.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Rng(if z == 0 { 1 } else { z })
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Integers in [-bound, bound], encoded as `elem`.
    fn fill_small(&mut self, buf: &mut [u8], elem: ElementType, bound: i32) {
        let width = elem.bytes() as usize;
        for c in buf.chunks_exact_mut(width) {
            let v = (self.next_u64() % (2 * bound as u64 + 1)) as i32 - bound;
            match elem {
                ElementType::F16 => c.copy_from_slice(&wgmma_model::f16_bits(v).to_le_bytes()),
                ElementType::BF16 => {
                    c.copy_from_slice(&(((v as f32).to_bits() >> 16) as u16).to_le_bytes())
                }
                ElementType::F32 => c.copy_from_slice(&(v as f32).to_le_bytes()),
                _ => c.copy_from_slice(&(v as i8).to_le_bytes()),
            }
        }
    }

    /// Fill a buffer as `fill` says.
    pub fn fill(&mut self, buf: &mut [u8], fill: Fill) {
        match fill {
            Fill::Poison => buf.fill(0xFF),
            Fill::Random => {
                let mut chunks = buf.chunks_exact_mut(8);
                for c in &mut chunks {
                    c.copy_from_slice(&self.next_u64().to_le_bytes());
                }
                let rest = chunks.into_remainder();
                let r = self.next_u64().to_le_bytes();
                let n = rest.len();
                rest.copy_from_slice(&r[..n]);
            }
            Fill::SmallInts => {
                for c in buf.chunks_exact_mut(4) {
                    let v = (self.next_u64() % 2049) as i32 - 1024;
                    c.copy_from_slice(&(v as f32).to_le_bytes());
                }
            }
            Fill::SmallIntsOf(elem, bound) => self.fill_small(buf, elem, bound),
        }
    }
}

/// Issue 26, defect 2: 14880 static + 47712 dynamic bytes (the slots the pipeliner
/// moved) launch only when the runtime opts in for their sum, not for the dynamic
/// part alone (which is below 48 KiB).
fn cp_async_pipe_static_smem_case() -> Case {
    Case::new(
        "cp_async_pipe_static_smem",
        CpAsync,
        F32,
        &[284, 84],
        &[284, 84],
        "pipelined loop (S = 2, 4 trips) copying src to out 71 rows at a time, its slots \
         in 47712 bytes of dynamic shared memory (from the manifest), beside a 14880-byte \
         static buffer holding src's first 3720 elements; after a gpu.barrier those are \
         written reversed over out's first 3720",
        |d| {
            let mut o = d.src.to_vec();
            for e in 0..3720 {
                let from = (3719 - e) * 4;
                o[e * 4..e * 4 + 4].copy_from_slice(&d.src[from..from + 4]);
            }
            o
        },
    )
    .expect("src, with out[e] = src[3719 - e] for the first 3720 elements")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iota(n: usize, eb: usize) -> Vec<u8> {
        // Element i holds i in its low bytes.
        (0..n)
            .flat_map(|i| (i as u64).to_le_bytes()[..eb].to_vec())
            .collect()
    }

    fn elem(v: &[u8], i: usize, eb: usize) -> u64 {
        let mut b = [0u8; 8];
        b[..eb].copy_from_slice(&v[i * eb..(i + 1) * eb]);
        u64::from_le_bytes(b)
    }

    #[test]
    fn window_reads_with_src_strides() {
        // The reference bug: a 32x128 window of 256x512 read as if contiguous.
        let src = iota(256 * 512, 4);
        let w = window(&src, &[256, 512], 4, &[40, 200], &[32, 128], false);
        assert_eq!(w.len(), 32 * 128 * 4);
        assert_eq!(elem(&w, 0, 4), 40 * 512 + 200);
        assert_eq!(elem(&w, 127, 4), 40 * 512 + 327);
        assert_eq!(elem(&w, 128, 4), 41 * 512 + 200);
        assert_eq!(elem(&w, 32 * 128 - 1, 4), 71 * 512 + 327);
    }

    #[test]
    fn window_zero_fill_and_lower_rank() {
        let src = iota(200 * 300, 4);
        let w = window(&src, &[200, 300], 4, &[160, 256], &[64, 128], true);
        assert_eq!(elem(&w, 0, 4), 160 * 300 + 256);
        assert_eq!(elem(&w, 43, 4), 160 * 300 + 299);
        assert_eq!(elem(&w, 44, 4), 0);
        assert_eq!(elem(&w, 40 * 128, 4), 0);
        let zeros = (0..64 * 128).filter(|&i| elem(&w, i, 4) == 0).count();
        assert_eq!(zeros, 64 * 128 - 40 * 44);
        // A 2-D window of a 3-D src has a leading 1.
        let src = iota(4 * 8 * 8, 2);
        let w = window(&src, &[4, 8, 8], 2, &[2, 1, 1], &[2, 3], false);
        assert_eq!(elem(&w, 0, 2), 2 * 64 + 8 + 1);
        assert_eq!(elem(&w, 3, 2), 2 * 64 + 16 + 1);
    }

    #[test]
    #[should_panic(expected = "window leaves src")]
    fn window_out_of_bounds_is_a_table_error() {
        let src = iota(16, 1);
        window(&src, &[4, 4], 1, &[3, 3], &[2, 2], false);
    }

    #[test]
    fn swizzle_reference_moves_16_byte_chunks() {
        let logical: Vec<u8> = (0..2048u32).map(|i| (i / 16) as u8).collect();
        let s = swizzle(&logical, 128);
        // Row 0 unchanged, row 1 has chunks 0 and 1 swapped, row 8 (second span) unchanged.
        assert_eq!(&s[..16], &logical[..16]);
        assert_eq!(s[128], logical[144]);
        assert_eq!(s[144], logical[128]);
        assert_eq!(&s[1024..1040], &logical[1024..1040]);
        assert_eq!(swizzle(&s, 128), logical);
    }

    #[test]
    fn store_and_store_add() {
        let src: Vec<u8> = [1.0f32, 2.0, 3.0, 4.0]
            .iter()
            .flat_map(|f| f.to_le_bytes())
            .collect();
        let init: Vec<u8> = (0..16).flat_map(|i| (i as f32).to_le_bytes()).collect();
        let d = Data {
            src: &src,
            src_shape: &[2, 2],
            out_init: &init,
            out_shape: &[4, 4],
            elem_bytes: 4,
            starts: &[],
        };
        let f = |v: &[u8], i: usize| f32::from_le_bytes(v[i * 4..i * 4 + 4].try_into().unwrap());
        let st = d.stored(&[1, 2], false);
        assert_eq!(
            (f(&st, 6), f(&st, 7), f(&st, 10), f(&st, 11)),
            (1.0, 2.0, 3.0, 4.0)
        );
        assert_eq!(f(&st, 5), 5.0);
        let add = d.stored(&[1, 2], true);
        assert_eq!((f(&add, 6), f(&add, 11)), (7.0, 15.0));
        assert_eq!(f(&add, 0), 0.0);
    }

    #[test]
    fn wrong_counts_elements() {
        let a = vec![0u8; 16];
        let mut b = a.clone();
        b[0] = 1;
        b[1] = 1;
        b[15] = 1;
        assert_eq!(count_wrong(&a, &b, 4), 2);
        assert_eq!(count_wrong(&a, &b, 1), 3);
        assert_eq!(first_mismatches(&a, &b, 4, 8).len(), 2);
    }

    #[test]
    fn rng_fills() {
        let mut r = Rng::new(1);
        let mut a = vec![0u8; 13];
        r.fill(&mut a, Fill::Random);
        assert!(a.iter().any(|&x| x != 0));
        let mut r2 = Rng::new(1);
        let mut b = vec![0u8; 13];
        r2.fill(&mut b, Fill::Random);
        assert_eq!(a, b, "same seed, same data");
        let mut p = vec![0u8; 8];
        r.fill(&mut p, Fill::Poison);
        assert_eq!(p, vec![0xFF; 8]);
        let mut s = vec![0u8; 400];
        r.fill(&mut s, Fill::SmallInts);
        for c in s.chunks(4) {
            let v = f32::from_le_bytes(c.try_into().unwrap());
            assert!(v.fract() == 0.0 && v.abs() <= 1024.0);
        }
    }

    #[test]
    fn table_is_consistent() {
        let all = cases();
        assert!(all.len() >= 12);
        let mut names: Vec<&str> = all.iter().map(|c| c.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len(), "case names are unique");
        for c in &all {
            // Every reference runs on the case's shapes and yields exactly out's bytes.
            let eb = c.elem.bytes() as usize;
            let src = iota(c.src_bytes() as usize / eb, eb);
            let init = vec![0xFFu8; c.out_bytes() as usize];
            let d = Data {
                src: &src,
                src_shape: &c.src,
                out_init: &init,
                out_shape: &c.out,
                elem_bytes: eb,
                starts: &c.starts,
            };
            let r = (c.reference)(&d);
            assert_eq!(r.len() as u64, c.out_bytes(), "{}", c.name);
            assert!(c.launch.validate().is_ok(), "{}", c.name);
        }
        let paths = |p| all.iter().filter(|c| c.path == p).count();
        assert!(paths(CpAsync) >= 6 && paths(Tma) >= 7);
        assert!(all.len() >= 35, "issue 9 asks for at least 35 cases");
    }

    /// iota, but element i holds i + 1, so that no element reads as a zero fill.
    fn iota1(n: usize, eb: usize) -> Vec<u8> {
        (0..n)
            .flat_map(|i| (i as u64 + 1).to_le_bytes()[..eb].to_vec())
            .collect()
    }

    #[test]
    fn windows_at_negative_and_past_the_edge_starts() {
        let src = iota1(4 * 8, 4);
        // Row -1 and columns -2, -1 are outside: zeros; the rest reads src.
        let w = window(&src, &[4, 8], 4, &[-1, -2], &[2, 4], true);
        let got: Vec<u64> = (0..8).map(|i| elem(&w, i, 4)).collect();
        assert_eq!(got, [0, 0, 0, 0, 0, 0, 1, 2]);
        // Past the bottom-right corner.
        let w = window(&src, &[4, 8], 4, &[3, 6], &[2, 3], true);
        let got: Vec<u64> = (0..6).map(|i| elem(&w, i, 4)).collect();
        assert_eq!(got, [31, 32, 0, 0, 0, 0]);
        // Rank 3: each coordinate goes with its own dimension.
        let src = iota1(2 * 3 * 4, 4);
        let w = window(&src, &[2, 3, 4], 4, &[1, 2, 3], &[1, 1, 1], true);
        assert_eq!(elem(&w, 0, 4), 12 + 2 * 4 + 3 + 1);
    }

    #[test]
    fn clipped_store_writes_only_inside_out() {
        let src: Vec<u8> = [1.0f32, 2.0, 3.0, 4.0]
            .iter()
            .flat_map(|f| f.to_le_bytes())
            .collect();
        let init = vec![0xFFu8; 16 * 4];
        let d = Data {
            src: &src,
            src_shape: &[2, 2],
            out_init: &init,
            out_shape: &[4, 4],
            elem_bytes: 4,
            starts: &[],
        };
        // The 2x2 tile at (-1, 3): only src[1][0] = 3.0 lands, at out[0][3].
        let st = d.stored_clipped(&[-1, 3]);
        let written: Vec<(usize, f32)> = st
            .chunks(4)
            .enumerate()
            .filter(|(_, c)| c != &[0xFF; 4])
            .map(|(i, c)| (i, f32::from_le_bytes(c.try_into().unwrap())))
            .collect();
        assert_eq!(written, [(3, 3.0)]);
    }

    #[test]
    #[should_panic(expected = "store leaves out")]
    fn unclipped_store_outside_out_is_a_table_error() {
        let src = vec![0u8; 4];
        let init = vec![0u8; 4];
        let d = Data {
            src: &src,
            src_shape: &[1, 1],
            out_init: &init,
            out_shape: &[1, 1],
            elem_bytes: 4,
            starts: &[],
        };
        d.stored(&[0, 1], false);
    }

    #[test]
    fn starts_are_passed_after_out() {
        let all = cases();
        let c = all.iter().find(|c| c.name == "fb_pred_false").unwrap();
        assert_eq!(
            c.signature(),
            "(%src: memref<256x512xf32>, %out: memref<64x128xf32>, %s0: index, %s1: index, %pred: i1)"
        );
        let args = c.args(Arg::Ptr(1), Arg::Ptr(2));
        assert!(matches!(
            args.as_slice(),
            [
                Arg::Ptr(1),
                Arg::Ptr(2),
                Arg::I64(64),
                Arg::I64(129),
                Arg::Pred(false)
            ]
        ));
        assert!(c.fallback());
        assert_eq!(c.chip_text(), "sm_80, --acopy-fallback");
    }

    #[test]
    fn signatures() {
        let all = cases();
        let c = all.iter().find(|c| c.name == "tma_pred_false").unwrap();
        assert_eq!(
            c.signature(),
            "(%src: memref<256x512xf32>, %out: memref<64x128xf32>, %pred: i1)"
        );
        let c = all.iter().find(|c| c.name == "tma_dyn_inner_col3").unwrap();
        assert_eq!(
            c.signature(),
            "(%src: memref<128x256xbf16, strided<[256, ?]>>, %out: memref<32x64xbf16>, %s0: index, %s1: index)"
        );
        let c = all.iter().find(|c| c.name == "tma_multicast").unwrap();
        assert_eq!(c.launch_text(), "grid 2 block 128 cluster 2");
    }
}
