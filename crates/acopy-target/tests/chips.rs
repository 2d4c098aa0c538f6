//! Table-driven checks of the chip model against facts written out by hand.
//!
//! The expected values are literals taken from the PTX ISA manual and from
//! llc 22 probes, not computed from the crate, so a wrong rule or table row
//! in the crate makes a test fail.

use acopy_target::{
    Capability as C, Chip, CopyPath, InstructionFamily as F, PtxVersion, TargetError, LLVM_MAX_PTX,
};

struct Row {
    name: &'static str,
    sm: u32,
    major: u32,
    arch_specific: bool,
    path: CopyPath,
    caps: &'static [C],
    ptx: (u32, u32),
    features: &'static str,
}

const AMPERE: &[C] = &[C::CpAsync, C::Mbarrier];
const HOPPER_BASE: &[C] = &[
    C::CpAsync,
    C::Mbarrier,
    C::MbarrierTryWait,
    C::MbarrierArriveCount,
    C::Tma,
    C::BulkStore,
    C::BulkReduce,
    C::Clusters,
    C::FenceProxyAsync,
];
const WITH_MULTICAST: &[C] = &[
    C::CpAsync,
    C::Mbarrier,
    C::MbarrierTryWait,
    C::MbarrierArriveCount,
    C::Tma,
    C::BulkStore,
    C::BulkReduce,
    C::Clusters,
    C::FenceProxyAsync,
    C::Multicast,
];
const WITH_WGMMA: &[C] = &[
    C::CpAsync,
    C::Mbarrier,
    C::MbarrierTryWait,
    C::MbarrierArriveCount,
    C::Tma,
    C::BulkStore,
    C::BulkReduce,
    C::Clusters,
    C::FenceProxyAsync,
    C::Multicast,
    C::Wgmma,
    C::SetMaxNReg,
];
const WITH_CTA_GROUP2: &[C] = &[
    C::CpAsync,
    C::Mbarrier,
    C::MbarrierTryWait,
    C::MbarrierArriveCount,
    C::Tma,
    C::BulkStore,
    C::BulkReduce,
    C::Clusters,
    C::FenceProxyAsync,
    C::Multicast,
    C::CtaGroup2,
    C::SetMaxNReg,
];
// Consumer Blackwell's architecture-specific targets: setmaxnreg, no multicast.
const CONSUMER_ARCH: &[C] = &[
    C::CpAsync,
    C::Mbarrier,
    C::MbarrierTryWait,
    C::MbarrierArriveCount,
    C::Tma,
    C::BulkStore,
    C::BulkReduce,
    C::Clusters,
    C::FenceProxyAsync,
    C::SetMaxNReg,
];

#[rustfmt::skip]
const ROWS: &[Row] = &[
    Row { name: "sm_80",   sm: 80,  major: 8,  arch_specific: false, path: CopyPath::CpAsync, caps: AMPERE,          ptx: (7, 1), features: "+ptx71" },
    Row { name: "sm_86",   sm: 86,  major: 8,  arch_specific: false, path: CopyPath::CpAsync, caps: AMPERE,          ptx: (7, 1), features: "+ptx71" },
    Row { name: "sm_87",   sm: 87,  major: 8,  arch_specific: false, path: CopyPath::CpAsync, caps: AMPERE,          ptx: (7, 4), features: "+ptx74" },
    Row { name: "sm_89",   sm: 89,  major: 8,  arch_specific: false, path: CopyPath::CpAsync, caps: AMPERE,          ptx: (7, 8), features: "+ptx78" },
    Row { name: "sm_90",   sm: 90,  major: 9,  arch_specific: false, path: CopyPath::Tma,     caps: WITH_MULTICAST,  ptx: (8, 0), features: "+ptx80" },
    Row { name: "sm_90a",  sm: 90,  major: 9,  arch_specific: true,  path: CopyPath::Tma,     caps: WITH_WGMMA,      ptx: (8, 0), features: "+ptx80" },
    Row { name: "sm_100",  sm: 100, major: 10, arch_specific: false, path: CopyPath::Tma,     caps: WITH_MULTICAST,  ptx: (8, 6), features: "+ptx86" },
    Row { name: "sm_100a", sm: 100, major: 10, arch_specific: true,  path: CopyPath::Tma,     caps: WITH_CTA_GROUP2, ptx: (8, 6), features: "+ptx86" },
    Row { name: "sm_101a", sm: 101, major: 10, arch_specific: true,  path: CopyPath::Tma,     caps: WITH_CTA_GROUP2, ptx: (8, 6), features: "+ptx86" },
    Row { name: "sm_103a", sm: 103, major: 10, arch_specific: true,  path: CopyPath::Tma,     caps: WITH_CTA_GROUP2, ptx: (8, 8), features: "+ptx88" },
    Row { name: "sm_110a", sm: 110, major: 11, arch_specific: true,  path: CopyPath::Tma,     caps: WITH_CTA_GROUP2, ptx: (9, 0), features: "+ptx90" },
    Row { name: "sm_120",  sm: 120, major: 12, arch_specific: false, path: CopyPath::Tma,     caps: HOPPER_BASE,     ptx: (8, 7), features: "+ptx87" },
    Row { name: "sm_120a", sm: 120, major: 12, arch_specific: true,  path: CopyPath::Tma,     caps: CONSUMER_ARCH,   ptx: (8, 7), features: "+ptx87" },
    Row { name: "sm_121a", sm: 121, major: 12, arch_specific: true,  path: CopyPath::Tma,     caps: CONSUMER_ARCH,   ptx: (8, 8), features: "+ptx88" },
];

#[test]
fn every_row_matches() {
    for row in ROWS {
        let chip = Chip::parse(row.name).unwrap_or_else(|e| panic!("{}: {e}", row.name));
        assert_eq!(chip.name(), row.name);
        assert_eq!(chip.sm(), row.sm, "{}: sm", row.name);
        assert_eq!(chip.major(), row.major, "{}: major", row.name);
        assert_eq!(
            chip.is_arch_specific(),
            row.arch_specific,
            "{}: arch",
            row.name
        );
        assert_eq!(chip.copy_path(), row.path, "{}: path", row.name);
        for cap in C::ALL {
            assert_eq!(
                chip.has(*cap),
                row.caps.contains(cap),
                "{}: capability {cap:?}",
                row.name
            );
        }
        assert_eq!(
            chip.ptx_version(),
            PtxVersion::new(row.ptx.0, row.ptx.1),
            "{}: ptx_version",
            row.name
        );
        assert_eq!(chip.ptx_features(), row.features, "{}: features", row.name);
    }
}

#[test]
fn table_covers_exactly_the_supported_chips() {
    let names: Vec<&str> = Chip::all().iter().map(|c| c.name()).collect();
    let expected: Vec<&str> = ROWS.iter().map(|r| r.name).collect();
    assert_eq!(names, expected);
}

#[test]
fn llvm_cpu_names_match_llc_22() {
    // Every supported chip appeared verbatim in LLVM 22.1.8's `-mcpu=help`.
    for chip in Chip::all() {
        assert_eq!(chip.llvm_cpu(), chip.name());
    }
    assert_eq!(Chip::parse("sm_101a").unwrap().llvm_cpu(), "sm_101a");
}

#[test]
fn ptx_version_never_exceeds_llvm_22() {
    assert_eq!(LLVM_MAX_PTX, PtxVersion::new(9, 0));
    for chip in Chip::all() {
        assert!(chip.ptx_version() <= LLVM_MAX_PTX, "{chip}");
        // One version must cover everything the chip can be asked to emit.
        for family in F::ALL {
            if let Some(v) = chip.min_ptx(*family) {
                assert!(v <= chip.ptx_version(), "{chip}: {family:?} needs {v}");
            }
        }
    }
}

#[test]
fn min_ptx_per_family() {
    let v = |s: &str, f: F| Chip::parse(s).unwrap().min_ptx(f);
    let p = |a, b| Some(PtxVersion::new(a, b));
    assert_eq!(v("sm_80", F::CpAsync), p(7, 0));
    assert_eq!(v("sm_86", F::CpAsync), p(7, 1));
    assert_eq!(v("sm_80", F::Mbarrier), p(7, 1));
    assert_eq!(v("sm_89", F::MbarrierTryWait), None);
    assert_eq!(v("sm_89", F::TmaLoad), None);
    assert_eq!(v("sm_89", F::ClusterSregs), None);
    assert_eq!(v("sm_90", F::MbarrierTryWait), p(7, 8));
    assert_eq!(v("sm_90", F::ClusterSregs), p(7, 8));
    assert_eq!(v("sm_90", F::ClusterBarrier), p(7, 8));
    assert_eq!(v("sm_90", F::TmaLoad), p(8, 0));
    assert_eq!(v("sm_90", F::TmaStore), p(8, 0));
    assert_eq!(v("sm_90", F::TmaReduce), p(8, 0));
    assert_eq!(v("sm_90", F::MbarrierExpectTx), p(8, 0));
    assert_eq!(v("sm_90", F::BulkGroup), p(8, 0));
    assert_eq!(v("sm_90", F::FenceProxyAsync), p(8, 0));
    assert_eq!(v("sm_90", F::Multicast), p(8, 0));
    assert_eq!(v("sm_90a", F::CtaGroup2), None);
    assert_eq!(v("sm_100", F::CtaGroup2), None);
    assert_eq!(v("sm_100", F::TmaLoad), p(8, 6));
    assert_eq!(v("sm_100a", F::CtaGroup2), p(8, 6));
    assert_eq!(v("sm_101a", F::CtaGroup2), p(8, 6));
    assert_eq!(v("sm_103a", F::CtaGroup2), p(8, 8));
    assert_eq!(v("sm_110a", F::CtaGroup2), p(9, 0));
    assert_eq!(v("sm_120", F::Multicast), None);
    assert_eq!(v("sm_120a", F::CtaGroup2), None);
    assert_eq!(v("sm_121a", F::Multicast), None);
    assert_eq!(v("sm_121a", F::TmaLoad), p(8, 8));
}

#[test]
fn round_trip_parse_display() {
    for row in ROWS {
        let chip: Chip = row.name.parse().unwrap();
        assert_eq!(chip.to_string(), row.name);
        assert_eq!(Chip::parse(&chip.to_string()).unwrap(), chip);
    }
}

#[test]
fn old_chips_are_below_sm80() {
    for name in [
        "sm_50", "sm_52", "sm_60", "sm_61", "sm_70", "sm_72", "sm_75", "sm_35",
    ] {
        let err = Chip::parse(name).unwrap_err();
        assert_eq!(
            err,
            TargetError::BelowSm80 {
                name: name.to_owned()
            }
        );
        let msg = err.to_string();
        assert!(msg.contains(name), "{msg}");
        assert!(msg.contains("sm_80 or newer"), "{msg}");
        assert!(msg.contains("cp.async"), "{msg}");
    }
}

#[test]
fn unknown_names_are_unknown() {
    for name in [
        "sm_91",
        "gfx90a",
        "",
        "SM_90",
        "sm_90 ",
        " sm_90",
        "sm_90A",
        "sm_88",
        "sm_100f",
        "compute_90",
        "sm_9",
        "sm_101",
    ] {
        let err = Chip::parse(name).unwrap_err();
        assert_eq!(
            err,
            TargetError::Unknown {
                name: name.to_owned()
            },
            "{name:?}"
        );
        let msg = err.to_string();
        assert!(msg.contains(&format!("{name:?}")), "{msg}");
        // The message lists what would have worked.
        for chip in Chip::all() {
            assert!(msg.contains(chip.name()), "{msg}");
        }
    }
}

#[test]
fn chip_is_copy_and_comparable() {
    let a = Chip::parse("sm_90a").unwrap();
    let b = a;
    assert_eq!(a, b);
    assert_ne!(a, Chip::parse("sm_90").unwrap());
}

#[test]
fn family_introduction_versions() {
    let p = PtxVersion::new;
    let expected = [
        (F::CpAsync, p(7, 0)),
        (F::Mbarrier, p(7, 1)),
        (F::MbarrierTryWait, p(7, 8)),
        (F::ClusterSregs, p(7, 8)),
        (F::ClusterBarrier, p(7, 8)),
        (F::MbarrierExpectTx, p(8, 0)),
        (F::TmaLoad, p(8, 0)),
        (F::TmaStore, p(8, 0)),
        (F::TmaReduce, p(8, 0)),
        (F::BulkGroup, p(8, 0)),
        (F::Multicast, p(8, 0)),
        (F::FenceProxyAsync, p(8, 0)),
        (F::CtaGroup2, p(8, 6)),
    ];
    assert_eq!(expected.len(), F::ALL.len());
    for (family, version) in expected {
        assert_eq!(family.introduced_in(), version, "{family:?}");
    }
}

/// Shared memory per block, in bytes, for every chip (the CUDA guide's table).
#[test]
fn shared_memory_per_block() {
    let expected = [
        ("sm_80", 166912),
        ("sm_86", 101376),
        ("sm_87", 166912),
        ("sm_89", 101376),
        ("sm_90", 232448),
        ("sm_90a", 232448),
        ("sm_100", 232448),
        ("sm_100a", 232448),
        ("sm_101a", 232448),
        ("sm_103a", 232448),
        ("sm_110a", 232448),
        ("sm_120", 101376),
        ("sm_120a", 101376),
        ("sm_121a", 101376),
    ];
    assert_eq!(expected.len(), Chip::all().len());
    for (name, bytes) in expected {
        assert_eq!(
            Chip::parse(name).unwrap().max_shared_per_block(),
            bytes,
            "{name}"
        );
    }
}
