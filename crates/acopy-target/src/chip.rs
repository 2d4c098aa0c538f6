//! The supported chips and the facts attached to each, and why a chip name
//! is rejected.

use std::fmt;
use std::str::FromStr;

use crate::{Capability, CopyPath, InstructionFamily, PtxVersion, LLVM_MAX_PTX};

/// Why a chip name was rejected.
///
/// The two cases are kept apart because they need different advice: an
/// unknown name is probably a typo, while an old chip is a real chip that
/// simply lacks `cp.async`, the least acopy can lower to.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum TargetError {
    /// The name is not a chip acopy knows, old or new.
    #[error("unknown chip {name:?}; acopy supports: {}", supported_names_list())]
    Unknown {
        /// The name exactly as it was given.
        name: String,
    },
    /// A real NVIDIA chip older than Ampere, which has no `cp.async`.
    #[error(
        "chip {name:?} is not supported: acopy needs sm_80 or newer \
         (the oldest copy it emits is cp.async, which sm_80 introduced)"
    )]
    BelowSm80 {
        /// The name exactly as it was given.
        name: String,
    },
}

/// One NVIDIA GPU target, identified by its `sm_XX[a]` name.
///
/// Only the identity facts (name, SM number, the `a` suffix, the PTX needed
/// to name the chip at all, and the LLVM CPU name) are stored; capabilities
/// are derived from them by rules in [`Chip::has`], so each fact is stated
/// once and a new chip only needs a table row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chip {
    name: &'static str,
    llvm_cpu: &'static str,
    sm: u32,
    arch_specific: bool,
    target_min_ptx: PtxVersion,
}

const fn chip(name: &'static str, sm: u32, arch_specific: bool, ptx: (u32, u32)) -> Chip {
    Chip {
        name,
        // Every name below is also an LLVM 22 NVPTX CPU: checked with
        // `llc -mtriple=nvptx64-nvidia-cuda -mcpu=help` (LLVM 22.1.8), which
        // still lists sm_101a next to its PTX 9.0 successor sm_110a. Should
        // LLVM drop a name, only this field needs to change.
        llvm_cpu: name,
        sm,
        arch_specific,
        target_min_ptx: PtxVersion::new(ptx.0, ptx.1),
    }
}

/// The supported chips, oldest first.
///
/// The PTX column is the first PTX ISA whose `.target` directive accepts the
/// chip (PTX ISA manual, "Release Notes" / `.target`). It matches both the
/// default `.version` llc 22 writes for each `-mcpu` and the floor llc
/// enforces ("PTX version 8.5 does not support target 'sm_100a'").
static CHIPS: [Chip; 14] = [
    chip("sm_80", 80, false, (7, 0)),
    chip("sm_86", 86, false, (7, 1)),
    chip("sm_87", 87, false, (7, 4)),
    chip("sm_89", 89, false, (7, 8)),
    chip("sm_90", 90, false, (7, 8)),
    chip("sm_90a", 90, true, (8, 0)),
    chip("sm_100", 100, false, (8, 6)),
    chip("sm_100a", 100, true, (8, 6)),
    chip("sm_101a", 101, true, (8, 6)),
    chip("sm_103a", 103, true, (8, 8)),
    chip("sm_110a", 110, true, (9, 0)),
    chip("sm_120", 120, false, (8, 7)),
    chip("sm_120a", 120, true, (8, 7)),
    chip("sm_121a", 121, true, (8, 8)),
];

/// Real chips older than sm_80, told apart from typos so the user hears
/// "too old" rather than "unknown".
///
/// These are exactly the pre-Ampere CPUs llc 22 lists under `-mcpu=help`.
const BELOW_SM80: &[&str] = &[
    "sm_20", "sm_21", "sm_30", "sm_32", "sm_35", "sm_37", "sm_50", "sm_52", "sm_53", "sm_60",
    "sm_61", "sm_62", "sm_70", "sm_72", "sm_75",
];

/// The supported names joined for error messages.
pub(crate) fn supported_names_list() -> String {
    CHIPS.iter().map(|c| c.name).collect::<Vec<_>>().join(", ")
}

impl Chip {
    /// Looks up a chip by name.
    ///
    /// Matching is exact: lowercase, no surrounding whitespace, no `compute_`
    /// prefix, no family (`f`) suffix. The name normally comes from an
    /// `#nvvm.target<chip = ...>` attribute or a `--chip` flag, both written
    /// by tools that already use the canonical spelling, so guessing at
    /// variants would only hide mistakes.
    ///
    /// # Errors
    ///
    /// [`TargetError::BelowSm80`] for a real chip older than sm_80,
    /// [`TargetError::Unknown`] for anything else not in [`Chip::all`]
    /// (including chips LLVM knows but acopy does not claim, such as sm_88).
    pub fn parse(name: &str) -> Result<Chip, TargetError> {
        if let Some(chip) = CHIPS.iter().find(|c| c.name == name) {
            return Ok(*chip);
        }
        if BELOW_SM80.contains(&name) {
            return Err(TargetError::BelowSm80 {
                name: name.to_owned(),
            });
        }
        Err(TargetError::Unknown {
            name: name.to_owned(),
        })
    }

    /// Every supported chip, oldest first.
    pub fn all() -> &'static [Chip] {
        &CHIPS
    }

    /// The canonical name, e.g. `"sm_90a"`.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The CPU name to pass to LLVM's NVPTX backend (`-mcpu`).
    ///
    /// Identical to [`Chip::name`] for every supported chip with LLVM 22 (see
    /// the comment on the chip table); kept separate because NVIDIA has
    /// renamed chips before (sm_101a became sm_110a in PTX 9.0).
    pub fn llvm_cpu(&self) -> &'static str {
        self.llvm_cpu
    }

    /// The SM number: 80, 86, 90, 100, ...
    pub fn sm(&self) -> u32 {
        self.sm
    }

    /// The compute capability major version: 8, 9, 10, 11 or 12.
    pub fn major(&self) -> u32 {
        self.sm / 10
    }

    /// Whether this is an architecture-specific target (the `a` suffix),
    /// which unlocks instructions that are not forward compatible.
    pub fn is_arch_specific(&self) -> bool {
        self.arch_specific
    }

    /// The copy implementation for this chip: `cp.async` below major 9, TMA
    /// from Hopper on (docs/dialect.md, "Target").
    pub fn copy_path(&self) -> CopyPath {
        if self.major() < 9 {
            CopyPath::CpAsync
        } else {
            CopyPath::Tma
        }
    }

    /// Whether the chip has a hardware capability.
    pub fn has(&self, cap: Capability) -> bool {
        let major = self.major();
        match cap {
            // PTX ISA, cp.async and mbarrier target notes: "Requires sm_80 or
            // higher". Every supported chip qualifies; older ones are refused
            // by `parse`.
            Capability::CpAsync | Capability::Mbarrier => self.sm >= 80,
            // PTX ISA target notes for mbarrier.try_wait, mbarrier.arrive's
            // count (without .noComplete), cp.async.bulk.tensor,
            // cp.reduce.async.bulk.tensor, barrier.cluster, the cluster
            // special registers and fence.proxy.async: "Requires sm_90 or
            // higher". llc 22 refuses each of them on sm_89.
            Capability::MbarrierTryWait
            | Capability::MbarrierArriveCount
            | Capability::Tma
            | Capability::BulkStore
            | Capability::BulkReduce
            | Capability::Clusters
            | Capability::FenceProxyAsync => major >= 9,
            // The PTX ISA accepts .multicast::cluster on sm_90 and newer, and
            // llc 22 emits it even for sm_120, but consumer Blackwell
            // (sm_120/sm_121) has no working TMA multicast: CUTLASS/CuTe treat
            // multicast TMA as invalid on SM120. So only the Hopper and
            // datacenter Blackwell families (majors 9, 10, 11) get it.
            Capability::Multicast => (9..=11).contains(&major),
            // PTX ISA, cp.async.bulk.tensor target notes: .cta_group needs
            // sm_100a or sm_101a (PTX 8.6), later sm_103a (8.8) and sm_110a
            // (9.0). It is not forward compatible, so plain sm_100 lacks it,
            // and consumer Blackwell never had it. llc 22 agrees: it selects
            // cta_group::2 on sm_100a, sm_101a, sm_103a and sm_110a only.
            Capability::CtaGroup2 => self.arch_specific && (10..=11).contains(&major),
            // PTX ISA, wgmma.mma_async target notes: "Requires sm_90a". It is
            // not forward compatible: Blackwell's tensor cores take tcgen05.
            Capability::Wgmma => self.arch_specific && self.sm == 90,
            // PTX ISA, setmaxnreg target notes: sm_90a, and the
            // architecture-specific Blackwell targets after it (sm_100a,
            // sm_101a, sm_103a, sm_110a, sm_120a, sm_121a); never a plain
            // target, since it is not forward compatible. llc 22 selects it on
            // exactly these and refuses sm_90 and sm_100 ("Cannot select").
            Capability::SetMaxNReg => self.arch_specific && major >= 9,
        }
    }

    /// The most shared memory one block may use, in bytes, with the opt-in
    /// attribute (`CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES`): the CUDA
    /// programming guide's "maximum amount of shared memory per thread block"
    /// per compute capability (8.0 and 8.7: 163 KiB; 8.6, 8.9 and 12.x:
    /// 99 KiB; 9.0, 10.x and 11.0: 227 KiB), each 1 KiB below the per-SM
    /// figure that the system reserves. The pipeliner's budget rule reads it.
    pub fn max_shared_per_block(&self) -> u64 {
        const KIB: u64 = 1024;
        match self.sm {
            80 | 87 => 163 * KIB,
            86 | 89 => 99 * KIB,
            90..=119 => 227 * KIB,
            _ => 99 * KIB,
        }
    }

    /// The bytes a block should keep in flight from global memory to cover
    /// the memory's latency: the target of `stages = "auto"`, which picks the
    /// fewest stages whose S - 1 tiles ahead hold this much (docs/pipelining.md,
    /// "Choosing the stages"). It is the chip's memory bandwidth per SM times a
    /// loaded DRAM latency of about 1 µs, rounded up to a multiple of 8 KiB, for
    /// one block per SM: sm_80 (A100, 2.0 TB/s over 108 SMs, 19 B/ns) 24 KiB;
    /// sm_90 (H100/H200, 3.4 to 4.8 TB/s over 132 SMs, 26 to 36 B/ns; measured on
    /// the H200 in bench/RESULTS.md) 48 KiB; sm_100 to sm_103 (B200/B300, 8 TB/s
    /// over 148 SMs, 54 B/ns) 64 KiB; the smaller-memory chips (sm_86 RTX 3090,
    /// 11 B/ns; sm_87 Orin, 13 B/ns; sm_89 RTX 4090, 8 B/ns; sm_110 Thor,
    /// sm_120/121 RTX 5090 and GB10, 6 to 11 B/ns) 16 KiB, 8 KiB for sm_89 and sm_121.
    pub fn bytes_in_flight(&self) -> u64 {
        const KIB: u64 = 1024;
        match self.sm {
            80 => 24 * KIB,
            90 => 48 * KIB,
            100..=103 => 64 * KIB,
            89 | 121 => 8 * KIB,
            _ => 16 * KIB,
        }
    }

    /// The lowest PTX ISA whose `.target` directive names this chip; any
    /// module for this chip needs at least this version.
    pub fn target_min_ptx(&self) -> PtxVersion {
        self.target_min_ptx
    }

    /// The PTX ISA needed to emit `family` for this chip, or `None` if the
    /// chip cannot run it.
    ///
    /// This is the later of the version that introduced the family and the
    /// version that introduced the chip, since a module needs both.
    pub fn min_ptx(&self, family: InstructionFamily) -> Option<PtxVersion> {
        self.has(family.capability())
            .then(|| family.introduced_in().max(self.target_min_ptx))
    }

    /// The PTX ISA to hand to LLVM's NVPTX backend for this chip.
    ///
    /// It is the newest of [`Chip::target_min_ptx`] and [`Chip::min_ptx`] over
    /// every family the chip supports, so one version covers everything acopy
    /// may emit, and it is never newer than [`LLVM_MAX_PTX`].
    pub fn ptx_version(&self) -> PtxVersion {
        let version = InstructionFamily::ALL
            .iter()
            .filter_map(|f| self.min_ptx(*f))
            .fold(self.target_min_ptx, PtxVersion::max);
        // A version llc does not know is ignored with only a warning, which
        // would turn into confusing instruction-selection failures later.
        debug_assert!(version <= LLVM_MAX_PTX, "{self}: PTX {version} > LLVM max");
        version
    }

    /// The LLVM target features for [`Chip::ptx_version`], e.g. `"+ptx80"`.
    pub fn ptx_features(&self) -> String {
        self.ptx_version().feature()
    }
}

impl fmt::Display for Chip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl FromStr for Chip {
    type Err = TargetError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Chip::parse(s)
    }
}
