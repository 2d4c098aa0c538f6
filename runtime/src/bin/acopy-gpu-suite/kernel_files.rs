//! The kernel sources in tests/gpu/kernels agree with the case table: each case's kernel
//! exists with the argument types the suite passes, for the chip and cluster the suite
//! assumes, and no kernel file is left without a case; and tests/gpu/README.md holds the
//! `--list` table as the code prints it. A kernel and its case written apart drift; here
//! the drift fails `cargo test` instead of a GPU run.

use crate::bench;
use crate::cases::{cases, Case};
use std::path::PathBuf;

fn kernels_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/gpu/kernels")
}

fn source(name: &str) -> String {
    let p = kernels_dir().join(format!("{name}.mlir"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The argument types of `gpu.func @kernel(...)`, split at top-level commas.
fn param_types(src: &str, kernel: &str) -> Vec<String> {
    let head = format!("gpu.func @{kernel}(");
    let at = src
        .find(&head)
        .unwrap_or_else(|| panic!("no `{head}` in the kernel file"));
    let rest = &src[at + head.len()..];
    let end = rest.find(')').expect("closing parenthesis");
    let mut parts = Vec::new();
    let (mut depth, mut cur) = (0i32, String::new());
    for ch in rest[..end].chars() {
        match ch {
            '<' | '[' => depth += 1,
            '>' | ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    parts.push(cur);
    parts
        .iter()
        .map(|p| p.split_once(':').expect("name: type").1.trim().to_string())
        .collect()
}

/// The same types as the suite writes them in `Case::signature`.
fn case_types(c: &Case) -> Vec<String> {
    let sig = c.signature();
    param_types(&format!("gpu.func @k{sig}"), "k")
}

fn chip_of(src: &str) -> String {
    let at = src.find("chip = \"").expect("an #nvvm.target chip") + 8;
    src[at..].split('"').next().unwrap_or("").to_string()
}

fn cluster_of(src: &str) -> [u32; 3] {
    let Some(at) = src.find("nvvm.cluster_dim = array<i32: ") else {
        return [1, 1, 1];
    };
    let rest = &src[at + 30..];
    let dims: Vec<u32> = rest[..rest.find('>').expect("array end")]
        .split(',')
        .map(|d| d.trim().parse().expect("cluster size"))
        .collect();
    [dims[0], dims[1], dims[2]]
}

#[test]
fn every_case_matches_its_kernel_file() {
    for c in cases() {
        let src = source(c.ptx);
        assert_eq!(
            param_types(&src, c.kernel),
            case_types(&c),
            "{}: the kernel's arguments differ from what the suite passes",
            c.name
        );
        assert_eq!(chip_of(&src), c.chip(), "{}: chip", c.name);
        assert_eq!(cluster_of(&src), c.launch.cluster, "{}: cluster", c.name);
    }
}

#[test]
fn every_bandwidth_kernel_matches_its_file() {
    let big = format!("memref<{}x{}xf32>", bench::ROWS, bench::COLS);
    for k in bench::kernels() {
        let src = source(&k.name());
        let mut want = vec![big.clone(), big.clone()];
        if k.dyn_start {
            want.push("index".into());
        }
        assert_eq!(param_types(&src, &k.name()), want, "{}", k.name());
        assert_eq!(chip_of(&src), k.path.chip(), "{}", k.name());
    }
}

#[test]
fn every_kernel_file_has_a_case() {
    let mut used: Vec<String> = cases().iter().map(|c| c.ptx.to_string()).collect();
    used.extend(bench::kernels().iter().map(|k| k.name()));
    for entry in std::fs::read_dir(kernels_dir()).expect("tests/gpu/kernels") {
        let path = entry.expect("directory entry").path();
        let name = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        assert!(used.contains(&name), "{} has no case", path.display());
    }
}

#[test]
fn the_parser_reads_what_it_checks() {
    let src = "gpu.module @m [#nvvm.target<chip = \"sm_90\">] {\n  gpu.func @k(%a: memref<4x8xf32>, \
               %b : memref<2x4xf32, strided<[8, 1], offset: ?>>, %s0: index, %p: i1)\n    \
               workgroup(%t: memref<4xf32, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 2, 1>} {";
    assert_eq!(
        param_types(src, "k"),
        [
            "memref<4x8xf32>",
            "memref<2x4xf32, strided<[8, 1], offset: ?>>",
            "index",
            "i1"
        ]
    );
    assert_eq!(chip_of(src), "sm_90");
    assert_eq!(cluster_of(src), [2, 2, 1]);
    assert_eq!(cluster_of("gpu.func @k() kernel {"), [1, 1, 1]);
}

#[test]
fn the_readme_table_is_the_list_output() {
    let p = kernels_dir().join("../README.md");
    let readme = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    assert!(
        readme.contains(&crate::list_markdown()),
        "tests/gpu/README.md's case table differs from `acopy-gpu-suite --list`; paste the \
         new output in"
    );
}
